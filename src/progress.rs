//! Progress reports of long commands on standard error (`generate`, `render`, `run`, `audit`).
//!
//! One [`Progress`] per phase. Where stderr is a terminal it is an indicatif bar with the total,
//! the rate and the time left (a spinner with count and rate when the total is unknown); where
//! it is not (CI logs, pipes) it is a plain line every few seconds ([`DEFAULT_INTERVAL`], or
//! `NCOMPLETE_PROGRESS_INTERVAL` seconds), plus a closing line if any line was printed, so
//! short runs stay silent; with `--quiet` it shows nothing. Counting is thread-safe, so
//! parallel work may advance one report.
//!
//! Library calls show nothing unless asked: either explicitly ([`Progress::new`]) or, for the
//! phases deep inside a command (reading and rendering a suite, running it), by the binary's
//! one call to [`show_on_stderr`], which [`Progress::start`] consults.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Seconds between two plain progress lines when stderr is not a terminal.
pub const DEFAULT_INTERVAL: f64 = 5.0;

/// The environment variable that sets the seconds between plain progress lines.
pub const INTERVAL_VARIABLE: &str = "NCOMPLETE_PROGRESS_INTERVAL";

static SHOWN: AtomicBool = AtomicBool::new(false);

/// Whether reports made by [`Progress::start`] are shown (the binary: unless `--quiet`);
/// off by default, so library calls print nothing.
pub fn show_on_stderr(show: bool) {
    SHOWN.store(show, Ordering::Relaxed);
}

/// The interval a value of [`INTERVAL_VARIABLE`] names: a finite, non-negative number of
/// seconds; one too large for a [`Duration`] is an error rather than a panic.
pub fn interval_from(value: &str) -> Result<Duration, String> {
    let bad = |why: &str| format!("{INTERVAL_VARIABLE}={value}: {why}");
    let seconds: f64 = value
        .trim()
        .parse()
        .map_err(|_| bad("expected a number of seconds"))?;
    if seconds.is_nan() || seconds < 0.0 {
        return Err(bad("expected a non-negative number of seconds"));
    }
    Duration::try_from_secs_f64(seconds).map_err(|_| bad("too many seconds"))
}

/// Checks [`INTERVAL_VARIABLE`] when it is set (the binary calls this at start, so a bad value
/// is a usage error rather than a silently ignored one).
pub fn check_interval_variable() -> Result<(), String> {
    match std::env::var(INTERVAL_VARIABLE) {
        Ok(value) => interval_from(&value).map(|_| ()),
        Err(_) => Ok(()),
    }
}

/// How progress is shown.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Not at all (`--quiet`).
    Hidden,
    /// An indicatif bar (a terminal).
    Bar,
    /// A plain line every `interval` (a log).
    Lines {
        /// The time between two lines.
        interval: Duration,
    },
}

impl Mode {
    /// The mode for stderr: hidden unless `show`, a bar on a terminal, lines otherwise (every
    /// `NCOMPLETE_PROGRESS_INTERVAL` seconds, default [`DEFAULT_INTERVAL`]).
    pub fn for_stderr(show: bool) -> Mode {
        if !show {
            Mode::Hidden
        } else if std::io::stderr().is_terminal() {
            Mode::Bar
        } else {
            let interval = std::env::var(INTERVAL_VARIABLE)
                .ok()
                .and_then(|v| interval_from(&v).ok())
                .unwrap_or(Duration::from_secs_f64(DEFAULT_INTERVAL));
            Mode::Lines { interval }
        }
    }
}

/// The state of a plain-line report.
struct Lines {
    interval: Duration,
    start: Instant,
    last: Instant,
    position: u64,
    total: Option<u64>,
    message: String,
    printed: bool,
}

enum Shown {
    Hidden,
    Bar(ProgressBar),
    Lines(Mutex<Lines>),
}

/// The progress of one phase of work counted in `unit`s (tests, mutants).
pub struct Progress {
    shown: Shown,
    what: String,
    unit: &'static str,
}

impl Progress {
    /// A report on stderr for `what` (e.g. `writing tests`), counted in `unit`, over `total`
    /// units if known; shown only if `show` (see [`Mode::for_stderr`]).
    pub fn new(show: bool, what: &str, unit: &'static str, total: Option<u64>) -> Progress {
        Progress::with_mode(Mode::for_stderr(show), what, unit, total)
    }

    /// A report on stderr as [`Progress::new`], shown if the process asked for it with
    /// [`show_on_stderr`].
    pub fn start(what: &str, unit: &'static str, total: Option<u64>) -> Progress {
        Progress::new(SHOWN.load(Ordering::Relaxed), what, unit, total)
    }

    /// [`Progress::start`] for a command that prints a line per item on stdout: when stdout and
    /// stderr are the same terminal those lines are the progress, and a bar would be torn by
    /// them, so it is left out; logs still get their plain lines.
    pub fn start_beside_stdout(what: &str, unit: &'static str, total: Option<u64>) -> Progress {
        let mode = Mode::for_stderr(SHOWN.load(Ordering::Relaxed));
        if mode == Mode::Bar && std::io::stdout().is_terminal() {
            return Progress::hidden();
        }
        Progress::with_mode(mode, what, unit, total)
    }

    /// A report that shows nothing.
    pub fn hidden() -> Progress {
        Progress::with_mode(Mode::Hidden, "", "", None)
    }

    /// A report in a given mode.
    pub fn with_mode(mode: Mode, what: &str, unit: &'static str, total: Option<u64>) -> Progress {
        let shown = match mode {
            Mode::Hidden => Shown::Hidden,
            Mode::Bar => Shown::Bar(bar(what, unit, total)),
            Mode::Lines { interval } => {
                let now = Instant::now();
                Shown::Lines(Mutex::new(Lines {
                    interval,
                    start: now,
                    last: now,
                    position: 0,
                    total,
                    message: String::new(),
                    printed: false,
                }))
            }
        };
        Progress {
            shown,
            what: what.to_owned(),
            unit,
        }
    }

    /// Sets the count done so far.
    pub fn set_position(&self, position: u64) {
        match &self.shown {
            Shown::Hidden => {}
            Shown::Bar(b) => b.set_position(position),
            Shown::Lines(l) => self.update_lines(l, |s| s.position = position),
        }
    }

    /// Adds `delta` to the count done.
    pub fn inc(&self, delta: u64) {
        match &self.shown {
            Shown::Hidden => {}
            Shown::Bar(b) => b.inc(delta),
            Shown::Lines(l) => self.update_lines(l, |s| s.position += delta),
        }
    }

    /// Adds `delta` to the total (work found as it goes, e.g. the mutants of the next bound).
    pub fn inc_total(&self, delta: u64) {
        self.change_total(|total| total.unwrap_or(0) + delta);
    }

    /// Sets the total (an upper bound made exact once the work is done).
    pub fn set_total(&self, total: u64) {
        self.change_total(|_| total);
    }

    /// Replaces the total (`None` when unknown so far) by `change` of it.
    fn change_total(&self, change: impl FnOnce(Option<u64>) -> u64) {
        match &self.shown {
            Shown::Hidden => {}
            Shown::Bar(b) => {
                if b.length().is_none() {
                    b.set_style(bar_style(&self.what, self.unit, true));
                }
                b.set_length(change(b.length()));
            }
            Shown::Lines(l) => self.update_lines(l, |s| s.total = Some(change(s.total))),
        }
    }

    /// Sets the text shown after the phase's name (e.g. the method and bound being audited).
    pub fn set_message(&self, message: String) {
        match &self.shown {
            Shown::Hidden => {}
            Shown::Bar(b) => b.set_message(message),
            Shown::Lines(l) => self.update_lines(l, |s| s.message = message),
        }
    }

    /// Ends the report: the bar is cleared; a plain report that printed a line prints a closing
    /// one.
    pub fn finish(&self) {
        match &self.shown {
            Shown::Hidden => {}
            Shown::Bar(b) => b.finish_and_clear(),
            Shown::Lines(l) => {
                let state = l.lock().unwrap_or_else(|e| e.into_inner());
                if state.printed {
                    let seconds = state.start.elapsed().as_secs_f64();
                    print_line(&format!(
                        "{}: done, {} {} in {seconds:.1} s",
                        self.what,
                        grouped(state.position),
                        self.unit
                    ));
                }
            }
        }
    }

    fn update_lines(&self, lines: &Mutex<Lines>, change: impl FnOnce(&mut Lines)) {
        let mut state = lines.lock().unwrap_or_else(|e| e.into_inner());
        change(&mut state);
        let now = Instant::now();
        if now.duration_since(state.last) >= state.interval {
            state.last = now;
            state.printed = true;
            print_line(&line_text(&self.what, self.unit, &state, now));
        }
    }
}

impl std::fmt::Debug for Progress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Progress")
            .field("what", &self.what)
            .field("unit", &self.unit)
            .finish_non_exhaustive()
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Shown::Bar(b) = &self.shown
            && !b.is_finished()
        {
            b.finish_and_clear();
        }
    }
}

fn print_line(text: &str) {
    let mut err = std::io::stderr().lock();
    // Progress is best effort: a closed stderr must not fail the command.
    let _ = writeln!(err, "{text}");
}

/// One plain progress line: `writing tests: 1,200/5,000 tests (24%), 310/s, about 12 s left`.
fn line_text(what: &str, unit: &str, s: &Lines, now: Instant) -> String {
    let seconds = now.duration_since(s.start).as_secs_f64();
    let rate = if seconds > 0.0 {
        s.position as f64 / seconds
    } else {
        0.0
    };
    let mut text = what.to_owned();
    if !s.message.is_empty() {
        text.push_str(&format!(" ({})", s.message));
    }
    match s.total {
        Some(total) if total > 0 => {
            let percent = (s.position as f64 / total as f64 * 100.0).min(100.0);
            text.push_str(&format!(
                ": {}/{} {unit} ({percent:.0}%), {rate:.0}/s",
                grouped(s.position),
                grouped(total)
            ));
            if rate > 0.0 && s.position < total {
                let left = (total - s.position) as f64 / rate;
                text.push_str(&format!(", about {} left", duration_text(left)));
            }
        }
        _ => text.push_str(&format!(": {} {unit}, {rate:.0}/s", grouped(s.position))),
    }
    text
}

/// `12345` as `12,345`.
fn grouped(x: u64) -> String {
    thousands(u128::from(x))
}

/// `12345678` as `12,345,678` (the counts of progress lines, suite costs and refusals).
pub fn thousands(x: u128) -> String {
    let digits = x.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (k, c) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Seconds as `12 s`, `4 min 5 s` or `2 h 3 min`.
fn duration_text(seconds: f64) -> String {
    let s = seconds.round() as u64;
    if s < 60 {
        format!("{s} s")
    } else if s < 3600 {
        format!("{} min {} s", s / 60, s % 60)
    } else {
        format!("{} h {} min", s / 3600, (s % 3600) / 60)
    }
}

fn bar_style(what: &str, unit: &str, total: bool) -> ProgressStyle {
    let template = if total {
        format!(
            "{what} [{{elapsed_precise}}] {{wide_bar}} {{human_pos}}/{{human_len}} {unit} \
             {{rate}} ETA {{eta}} {{msg}}"
        )
    } else {
        format!("{{spinner}} {what} [{{elapsed_precise}}] {{human_pos}} {unit} {{rate}} {{msg}}")
    };
    ProgressStyle::with_template(&template)
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .with_key(
            "rate",
            |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{}/s", grouped(state.per_sec().round() as u64));
            },
        )
}

fn bar(what: &str, unit: &str, total: Option<u64>) -> ProgressBar {
    let bar = match total {
        Some(t) => ProgressBar::new(t),
        None => ProgressBar::no_length(),
    };
    bar.set_style(bar_style(what, unit, total.is_some()));
    if total.is_none() {
        bar.enable_steady_tick(Duration::from_millis(200));
    }
    bar
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intervals_too_large_or_malformed_are_errors_not_panics() {
        assert_eq!(interval_from(" 2.5 "), Ok(Duration::from_millis(2500)));
        assert_eq!(interval_from("0"), Ok(Duration::ZERO));
        for bad in ["1e300", "inf", "NaN", "-1", "abc", ""] {
            let e = interval_from(bad).unwrap_err();
            assert!(e.starts_with(INTERVAL_VARIABLE), "{bad}: {e}");
        }
    }

    fn lines(position: u64, total: Option<u64>, seconds: u64) -> String {
        let start = Instant::now();
        let state = Lines {
            interval: Duration::ZERO,
            start,
            last: start,
            position,
            total,
            message: String::new(),
            printed: false,
        };
        line_text(
            "writing tests",
            "tests",
            &state,
            start + Duration::from_secs(seconds),
        )
    }

    #[test]
    fn plain_lines_give_count_total_rate_and_time_left() {
        assert_eq!(
            lines(1_200, Some(6_000), 4),
            "writing tests: 1,200/6,000 tests (20%), 300/s, about 16 s left"
        );
        assert_eq!(
            lines(6_000, Some(6_000), 4),
            "writing tests: 6,000/6,000 tests (100%), 1500/s"
        );
        assert_eq!(lines(500, None, 2), "writing tests: 500 tests, 250/s");
    }

    #[test]
    fn durations_read_in_the_largest_units() {
        assert_eq!(duration_text(12.4), "12 s");
        assert_eq!(duration_text(245.0), "4 min 5 s");
        assert_eq!(duration_text(7_380.0), "2 h 3 min");
    }
}
