//! The `words` format: one test per line, its inputs separated by single spaces (the format other
//! FSM test tools print). Only inputs are written; outputs follow from the specification.

use crate::model::LabelId;
use crate::suite::mealy::{MealySuite, SuiteStats};
use std::io::{self, Write};

/// Writes input words line by line with pre-rendered label names.
pub struct WordsWriter<W: Write> {
    out: W,
    names: Vec<Vec<u8>>,
}

impl<W: Write> WordsWriter<W> {
    /// A writer for words over inputs named `names` (indexed by input id).
    pub fn new(out: W, names: &[String]) -> Self {
        WordsWriter {
            out,
            names: names.iter().map(|n| n.as_bytes().to_vec()).collect(),
        }
    }

    /// Writes one test.
    pub fn write(&mut self, word: &[LabelId]) -> io::Result<()> {
        for (k, a) in word.iter().enumerate() {
            if k > 0 {
                self.out.write_all(b" ")?;
            }
            self.out.write_all(&self.names[a.index()])?;
        }
        self.out.write_all(b"\n")
    }

    /// Flushes and returns the sink.
    pub fn finish(mut self) -> io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}

/// The file formats a Mealy suite can be written in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MealySuiteFormat {
    /// One test per line, inputs separated by spaces.
    Words,
    /// Suite JSON v1 (send/expect chains).
    Json,
}

/// Streams a Mealy suite in `format` to `out` and returns its statistics.
pub fn write_mealy_suite<W: Write>(
    out: W,
    suite: &MealySuite,
    format: MealySuiteFormat,
) -> io::Result<SuiteStats> {
    write_mealy_suite_with(out, suite, format, &mut |_| {})
}

/// [`write_mealy_suite`], calling `tick` with the number of tests written every 65,536 tests.
pub fn write_mealy_suite_with<W: Write>(
    out: W,
    suite: &MealySuite,
    format: MealySuiteFormat,
    tick: &mut dyn FnMut(u64),
) -> io::Result<SuiteStats> {
    let mut count = 0u64;
    let mut tick = move || {
        count += 1;
        if count.is_multiple_of(65_536) {
            tick(count);
        }
    };
    match format {
        MealySuiteFormat::Words => {
            let mut w = WordsWriter::new(out, suite.spec().inputs.names());
            let stats = suite.stream(|word| {
                tick();
                w.write(word)
            })?;
            w.finish()?;
            Ok(stats)
        }
        MealySuiteFormat::Json => {
            let mut writer = crate::suite::SuiteWriter::begin(out, &suite.header())?;
            let stats = suite.stream(|word| {
                tick();
                let index = writer.written() as u64;
                writer.write_test(&suite.test_case(index, word))
            })?;
            writer.finish()?;
            Ok(stats)
        }
    }
}

/// The `generate` command for Mealy machines: builds the suite for `spec` (read from `path`) and
/// streams it to `out` (a file, or standard output for `-`), with a progress spinner on stderr
/// when `progress` is set and stderr is a terminal.
pub fn generate_mealy_suite(
    spec: &crate::model::Mealy,
    path: &str,
    options: crate::suite::mealy::MealySuiteOptions,
    format: MealySuiteFormat,
    out: &str,
    progress: bool,
    budget: &crate::suite::costs::Budget,
) -> crate::Result<SuiteStats> {
    use std::io::IsTerminal as _;
    let suite = MealySuite::new(spec, options).map_err(|source| crate::Error::Model {
        path: path.to_owned(),
        source,
    })?;
    // Refuse before the output file is created.
    suite.costs(format == MealySuiteFormat::Json).check(
        budget,
        &format!(
            "{} suite for {} extra states (counted before prefix removal)",
            options.method.name(),
            options.extra_states
        ),
        "try a smaller --extra-states",
    )?;
    let bar = if progress && io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new_spinner();
        bar.enable_steady_tick(std::time::Duration::from_millis(200));
        bar.set_message("generating tests");
        Some(bar)
    } else {
        None
    };
    let mut tick = |n: u64| {
        if let Some(b) = &bar {
            b.set_message(format!("{n} tests written"));
        }
    };
    let stats = if out == "-" {
        let stdout = io::stdout().lock();
        write_mealy_suite_with(io::BufWriter::new(stdout), &suite, format, &mut tick)
            .map_err(|e| crate::Error::io("<stdout>", e))?
    } else {
        let file = std::fs::File::create(out).map_err(|e| crate::Error::io(out, e))?;
        write_mealy_suite_with(
            io::BufWriter::with_capacity(1 << 20, file),
            &suite,
            format,
            &mut tick,
        )
        .map_err(|e| crate::Error::io(out, e))?
    };
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    Ok(stats)
}

/// Streams a Mealy suite in the words format.
pub fn write_words<W: Write>(out: W, suite: &MealySuite) -> io::Result<SuiteStats> {
    write_mealy_suite(out, suite, MealySuiteFormat::Words)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::mealy_from_named;
    use crate::suite::mealy::{MealyMethod, MealySuiteOptions};

    #[test]
    fn one_line_per_test_inputs_separated_by_spaces() {
        let m = mealy_from_named(
            "m",
            2,
            &[
                (0, "on", "x", 1),
                (0, "off", "y", 0),
                (1, "on", "y", 1),
                (1, "off", "y", 0),
            ],
        )
        .unwrap();
        let suite = MealySuite::new(&m, MealySuiteOptions::new(MealyMethod::W, 0)).unwrap();
        let mut out = Vec::new();
        let stats = write_words(&mut out, &suite).unwrap();
        let text = String::from_utf8(out).unwrap();
        // Inputs sort by id: `on` (0) before `off` (1).
        assert_eq!(text, "on on on\non off on\noff on\n");
        assert_eq!(stats.tests, 3);
        assert_eq!(stats.symbols, 8);
        assert_eq!(stats.longest, 3);
        let mut json = Vec::new();
        let jstats = write_mealy_suite(&mut json, &suite, MealySuiteFormat::Json).unwrap();
        assert_eq!(jstats, stats);
        let (header, tests) =
            crate::suite::read_suite(std::str::from_utf8(&json).unwrap()).unwrap();
        assert_eq!(header.method, "w");
        assert_eq!(header.n, Some(2));
        assert_eq!(tests.len(), 3);
        assert_eq!(
            tests[0],
            suite.test_case(0, &[LabelId(0), LabelId(0), LabelId(0)])
        );
    }

    #[test]
    fn mealy_cost_bounds_hold_for_the_written_suites() {
        use crate::identify::mealy::tests_support::random_mealy;
        use crate::suite::costs::Figure;
        let bound = |f: Figure| match f {
            Figure::AtMost(x) => x,
            other => panic!("expected an upper bound, got {other:?}"),
        };
        for seed in 0..12 {
            let m = random_mealy(seed, 5, 3, 2);
            for method in [MealyMethod::W, MealyMethod::Hsi, MealyMethod::Hads] {
                for extra in 0..=2 {
                    for prune in [true, false] {
                        let options = MealySuiteOptions {
                            method,
                            extra_states: extra,
                            prune_prefixes: prune,
                        };
                        let suite = MealySuite::new(&m, options).unwrap();
                        for format in [MealySuiteFormat::Json, MealySuiteFormat::Words] {
                            let costs = suite.costs(format == MealySuiteFormat::Json);
                            let mut out = Vec::new();
                            let stats = write_mealy_suite(&mut out, &suite, format).unwrap();
                            assert!(stats.tests as u128 <= bound(costs.tests));
                            assert!(2 * stats.symbols as u128 <= bound(costs.steps));
                            assert!(2 * stats.longest as u128 <= bound(costs.longest));
                            let bytes = bound(costs.bytes);
                            assert!(out.len() as u128 <= bytes, "{} > {bytes}", out.len());
                            if !prune {
                                // Without pruning the bound is within a small factor.
                                assert!(bytes <= 4 * out.len() as u128, "{bytes} vs {}", out.len());
                            }
                        }
                    }
                }
            }
        }
    }
}
