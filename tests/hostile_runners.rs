//! The hostile systems of `tests/fixtures/hostile/` against the three runners: `ncomplete run
//! --sut`, the generated pytest module and the generated Cargo package, all on the suite
//! `pingpong.suite.json`. Each runner must give every fixture the expected verdict per test, with
//! the reason, and leave no process behind (on Linux: no process whose environment carries the
//! marker given to the runner). Small timeouts keep the whole file at well under a minute of
//! waiting per runner.
//!
//! The Python part needs pytest (see `tests/e2e_programs.rs`: skipped with a message locally when
//! it is missing, an error under `CI=true`).

#![cfg(unix)]

mod common;

use common::work_dir;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_ncomplete");

/// The timeouts of every run, in milliseconds: start-up, quiescence, response.
const STARTUP_MS: &str = "1500";
const QUIESCENCE_MS: &str = "300";
const RESPONSE_MS: &str = "1500";

/// A fixture, its verdicts for t0001 and t0002 (`true` = pass), and a text every runner's
/// report of it must contain.
struct Hostile {
    name: &'static str,
    pass: [bool; 2],
    reason: &'static str,
}

const FIXTURES: [Hostile; 12] = [
    Hostile {
        name: "correct",
        pass: [true, true],
        reason: "",
    },
    Hostile {
        name: "exit",
        pass: [false, false],
        reason: "the system exited with status 0; trace: ?ping",
    },
    Hostile {
        name: "crash_with_child",
        pass: [false, false],
        reason: "the system exited with status 3; trace: ?ping",
    },
    Hostile {
        name: "signal",
        pass: [false, false],
        reason: "the system was killed by signal 9; trace: ?ping",
    },
    Hostile {
        name: "invalid_utf8",
        pass: [false, false],
        reason: "the system wrote invalid UTF-8",
    },
    Hostile {
        name: "unknown_label",
        pass: [false, false],
        reason: "unexpected !pang (expected one of: !pong) after ?ping",
    },
    Hostile {
        name: "no_newline",
        pass: [false, false],
        reason: "the system wrote `pong` without a newline",
    },
    Hostile {
        name: "long_line",
        pass: [false, false],
        reason: "the system wrote a line longer than 65536 bytes",
    },
    Hostile {
        name: "flood",
        pass: [false, false],
        reason: "!pong",
    },
    Hostile {
        name: "slow_startup",
        pass: [true, true],
        reason: "",
    },
    Hostile {
        name: "slow_responses",
        pass: [true, true],
        reason: "",
    },
    Hostile {
        name: "hang",
        pass: [false, false],
        reason: "no output within the response timeout of 1500 ms (expected one of: !pong) after ?ping",
    },
];

/// Inputs far larger than a pipe buffer, sent to a system that never reads: the tester must not
/// block on the write (the suite's input `maybe` renamed to 256 KiB of `m`).
const BIG_INPUT: Hostile = Hostile {
    name: "hang",
    pass: [false, false],
    reason: "no output within the response timeout of 1500 ms (expected one of: !pong) after ?ping",
};

/// The suites and the fixtures each runner runs them against: the pingpong suite against every
/// fixture, and a copy of it with a 256 KiB input (model `pingpong_big`, written for `runner`
/// alone) against the system that never reads.
fn suites(runner: &str) -> Vec<(PathBuf, &'static [Hostile])> {
    let text = std::fs::read_to_string(suite()).unwrap();
    let big = text
        .replace("\"maybe\"", &format!("\"{}\"", "m".repeat(256 * 1024)))
        .replace("\"pingpong\"", "\"pingpong_big\"");
    let big_suite = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("hostile-big-input-{runner}.suite.json"));
    std::fs::write(&big_suite, big).unwrap();
    vec![
        (suite(), &FIXTURES[..]),
        (big_suite, std::slice::from_ref(&BIG_INPUT)),
    ]
}

fn hostile_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hostile")
}

fn suite() -> PathBuf {
    hostile_dir().join("pingpong.suite.json")
}

/// The system's command: `exec` so that the fixture's own shell is the process the runner waits
/// for (a signal that kills it is then seen as such).
fn command(fixture: &str) -> String {
    format!(
        "exec sh '{}'",
        hostile_dir().join(format!("{fixture}.sh")).display()
    )
}

/// The environment variable that marks every process started for one runner and fixture.
const MARKER: &str = "NCOMPLETE_HOSTILE_RUN";

fn marker(runner: &str, fixture: &str) -> String {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let run = RUNS.fetch_add(1, Ordering::Relaxed);
    format!("{}-{run}-{runner}-{fixture}", std::process::id())
}

/// Processes still running with `marker` in their environment (Linux; elsewhere none are seen),
/// after giving killed ones a moment to go.
fn leftovers(marker: &str) -> Vec<String> {
    let needle = format!("{MARKER}={marker}\0").into_bytes();
    let deadline = Instant::now() + Duration::from_secs(3);
    loop {
        let mut found = Vec::new();
        for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
            let dir = entry.path();
            let Ok(env) = std::fs::read(dir.join("environ")) else {
                continue;
            };
            if env.windows(needle.len()).any(|w| w == needle.as_slice()) {
                let cmdline = std::fs::read(dir.join("cmdline")).unwrap_or_default();
                found.push(String::from_utf8_lossy(&cmdline).replace('\0', " "));
            }
        }
        if found.is_empty() || Instant::now() > deadline {
            return found;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Runs `cmd` for `fixture` with the marker and the timeouts in its environment, then checks
/// the verdicts that `verdicts` reads from the report, the reason, and that nothing is left.
fn check(
    runner: &str,
    fixture: &Hostile,
    mut cmd: Command,
    verdicts: impl Fn(&str) -> BTreeMap<String, bool>,
) {
    let marker = marker(runner, fixture.name);
    let started = Instant::now();
    let out = cmd
        .env(MARKER, &marker)
        .env("NCOMPLETE_SUT", command(fixture.name))
        .env("NCOMPLETE_STARTUP_MS", STARTUP_MS)
        .env("NCOMPLETE_QUIESCENCE_MS", QUIESCENCE_MS)
        .env("NCOMPLETE_RESPONSE_MS", RESPONSE_MS)
        .env("NCOMPLETE_RETRIES", "0")
        .output()
        .unwrap();
    let elapsed = started.elapsed();
    let report = text(&out);
    let context = format!("{runner} on {} ({elapsed:?}):\n{report}", fixture.name);
    let expected: BTreeMap<String, bool> = [
        ("t0001".to_owned(), fixture.pass[0]),
        ("t0002".to_owned(), fixture.pass[1]),
    ]
    .into();
    assert_eq!(verdicts(&report), expected, "{context}");
    assert_eq!(
        out.status.success(),
        fixture.pass.iter().all(|&p| p),
        "{context}"
    );
    assert!(report.contains(fixture.reason), "{context}");
    // Nothing waits for the 30 s sleeps of the fixtures or the 1 GB line.
    assert!(elapsed < Duration::from_secs(25), "{context}");
    let left = leftovers(&marker);
    assert!(left.is_empty(), "{context}\nleft running: {left:?}");
}

/// The verdict per test of a report, from the lines that `parse` recognises.
fn verdicts_of(
    report: &str,
    parse: impl Fn(&str) -> Option<(String, bool)>,
) -> BTreeMap<String, bool> {
    report.lines().filter_map(parse).collect()
}

#[test]
fn run_sut_gives_every_hostile_system_its_verdict() {
    for (suite, fixtures) in suites("run") {
        for fixture in fixtures {
            let mut cmd = Command::new(BIN);
            cmd.arg("run")
                .arg(&suite)
                .args(["--sut", &command(fixture.name)])
                .args(["--startup-ms", STARTUP_MS, "--quiescence-ms", QUIESCENCE_MS])
                .args(["--response-ms", RESPONSE_MS, "--retries", "0"]);
            check("run", fixture, cmd, |report| {
                verdicts_of(report, |line| {
                    let (name, rest) = line.split_once(' ')?;
                    let pass = match rest {
                        "pass" => true,
                        _ if rest.starts_with("fail: ") => false,
                        _ => return None,
                    };
                    Some((name.to_owned(), pass))
                })
            });
        }
    }
}

#[test]
fn the_pingpong_suite_passes_on_its_model() {
    let out = Command::new(BIN)
        .arg("run")
        .arg(suite())
        .arg("--model")
        .arg(hostile_dir().join("pingpong.aut"))
        .args(["--input-enable", "self-loop"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).ends_with("suite: pass (2 pass, 0 fail, 0 inconclusive)\n"));
}

/// The timeouts matter: without the start-up allowance the slow starter fails (its late answer
/// to `maybe` is taken for the answer to `ping`), and with a response timeout as short as the
/// quiescence timeout the slow responder fails; a Mealy suite waits for every output with the
/// response timeout.
#[test]
fn run_sut_needs_each_of_the_three_timeouts() {
    let run = |fixture: &str, startup: &str, response: &str| {
        let out = Command::new(BIN)
            .arg("run")
            .arg(suite())
            .args(["--sut", &command(fixture), "--retries", "0"])
            .args(["--startup-ms", startup, "--quiescence-ms", QUIESCENCE_MS])
            .args(["--response-ms", response])
            .output()
            .unwrap();
        (out.status.code(), text(&out))
    };
    let (code, report) = run("slow_startup", "0", RESPONSE_MS);
    assert_eq!(code, Some(1), "{report}");
    assert!(report.contains("t0002 fail: unexpected !pong"), "{report}");
    let (code, report) = run("slow_responses", "0", QUIESCENCE_MS);
    assert_eq!(code, Some(1), "{report}");
    assert!(
        report.contains("t0001 fail: no output within the response timeout of 300 ms"),
        "{report}"
    );
    let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let slow_mealy = format!(
        "'{BIN}' simulate '{}' --delay-ms 500",
        fixtures.join("toggle.dot").display()
    );
    let out = Command::new(BIN)
        .arg("run")
        .arg(fixtures.join("mealy.suite.json"))
        .args(["--sut", &slow_mealy, "--quiescence-ms", "100"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
}

fn render(suite: &Path, format: &str, out: &Path) {
    let status = Command::new(BIN)
        .arg("render")
        .arg(suite)
        .args(["--format", format, "--out"])
        .arg(out)
        .status()
        .unwrap();
    assert!(status.success(), "render as {format} failed");
}

#[test]
fn the_pytest_runtime_gives_every_hostile_system_its_verdict() {
    if !common::pytest_available("hostile systems under pytest") {
        return;
    }
    for (k, (suite, fixtures)) in suites("pytest").into_iter().enumerate() {
        let dir = work_dir(&format!("hostile-python-{k}"));
        render(&suite, "python", &dir);
        for fixture in fixtures {
            let mut cmd = Command::new("python3");
            cmd.args(["-m", "pytest", "-rA", "-p", "no:cacheprovider"])
                .arg(&dir)
                .current_dir(&dir)
                .env("COLUMNS", "1000");
            check("pytest", fixture, cmd, |report| {
                verdicts_of(report, |line| {
                    let (word, rest) = line.split_once(' ')?;
                    let pass = match word {
                        "PASSED" => true,
                        "FAILED" => false,
                        _ => return None,
                    };
                    let test = rest.split("::test_").nth(1)?;
                    let name = test.split([' ', '-']).next()?;
                    Some((name.to_owned(), pass))
                })
            });
        }
    }
}

#[test]
fn the_rust_runtime_gives_every_hostile_system_its_verdict() {
    let target = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("e2e-rust-target");
    for (k, (suite, fixtures)) in suites("cargo").into_iter().enumerate() {
        let package = work_dir(&format!("hostile-rust-{k}"));
        render(&suite, "rust", &package);
        let cargo = |args: &[&str]| {
            let mut cmd = Command::new(env!("CARGO"));
            cmd.args(["test", "--offline"])
                .args(args)
                .current_dir(&package)
                .env("CARGO_TARGET_DIR", &target)
                .env("RUSTFLAGS", "-D warnings")
                .env_remove("CARGO_ENCODED_RUSTFLAGS")
                .env_remove("RUSTC_WRAPPER");
            cmd
        };
        // Build first, so that the runs below measure the tests only.
        let build = cargo(&["--no-run"]).output().unwrap();
        assert!(build.status.success(), "{}", text(&build));
        for fixture in fixtures {
            check("cargo", fixture, cargo(&["--test", "suite"]), |report| {
                verdicts_of(report, |line| {
                    let rest = line.strip_prefix("test ")?;
                    let (name, verdict) = rest.split_once(" ... ")?;
                    Some((name.to_owned(), verdict == "ok"))
                })
            });
        }
    }
}
