//! The stress test of the timing rule (issue 41; docs/src/running.md, "Verdicts that rest on
//! timing"), at small scale: `scripts/stress_timing` with 8 CPU-bound processes beside the
//! runner runs two bundled models' classic suites twice each against their conforming
//! simulators (delays of 0-300 ms), directly and behind the proxy that holds back a fifth of the
//! output lines for 300-600 ms, and against two faulty mutants each. No conforming run may fail
//! and every faulty mutant must fail; the script exits 1 otherwise.
//!
//! `--ignored` (a few minutes, and it loads the machine): `cargo test --test stress_timing --
//! --ignored`. The full sweep (20 runs of five models) is `nice scripts/stress_timing`; its
//! measured table is in docs/src/running.md.
//!
//! Not ignored: everest_q's mutant `m003` (`tests/fixtures/everest_q_m003.aut`), whose fault shows
//! only when the tester's `?b` overtakes the `!x` the specification owes, behind a 150 ms output
//! delay: the suite's race branch for that `?b` is `retry`, so without the specification the
//! tests exact simulation fails stay inconclusive; `run --spec` refutes the output-first reading
//! (src/exec/spec_readings.rs) and fails the mutant, while the conforming simulator under delays
//! of 0, 150 and 300 ms never fails.

#![cfg(unix)]

mod common;
use common::{root, run, work_dir};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_ncomplete");

#[test]
fn the_specification_fails_a_mutant_behind_a_race_and_no_conforming_system() {
    let dir = work_dir("spec-readings-m003");
    let s = |p: &std::path::Path| p.display().to_string();
    let model = s(&root().join("models/everest_q.aut"));
    let mutant = s(&root().join("tests/fixtures/everest_q_m003.aut"));
    let suite = s(&dir.join("suite.json"));
    let (status, _, err) = run(&["generate", &model, "--extra-states", "0", "--out", &suite]);
    assert_eq!(status, 0, "{err}");
    // The tests that exact simulation (which knows the order) fails.
    let (status, out, err) = run(&["run", &suite, "--model", &mutant]);
    assert_eq!(status, 1, "{out}{err}");
    let failing: Vec<&str> = out
        .lines()
        .filter_map(|l| l.split_once(" fail: ").map(|(name, _)| name))
        .collect();
    assert!(!failing.is_empty(), "{out}");
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&suite).unwrap()).unwrap();
    json["tests"]
        .as_array_mut()
        .unwrap()
        .retain(|t| failing.contains(&t["name"].as_str().unwrap()));
    let subset = s(&dir.join("failing.json"));
    std::fs::write(&subset, json.to_string()).unwrap();
    let system = |delay: u32, path: &str| {
        format!("'{BIN}' simulate --choose random --delay-ms {delay} '{path}'")
    };
    let against = |system: &str, extra: &[&str]| {
        let mut args = vec!["run", &subset, "--sut", system, "--response-ms", "500"];
        args.extend_from_slice(extra);
        run(&args)
    };
    // Without the specification the race branch hides the fault: never a fail.
    let (status, out, err) = against(&system(150, &mutant), &["--retries", "3"]);
    assert_eq!(status, 3, "{out}{err}");
    assert!(!out.contains(" fail: "), "{out}");
    // With it the mutant fails, on the reading the tree left at retry.
    let (status, out, err) = against(&system(150, &mutant), &["--spec", &model]);
    assert_eq!(status, 1, "{out}{err}");
    assert!(
        out.contains("the specification allows no other order of the trace"),
        "{out}"
    );
    // The conforming system under the same and other delays: never a fail.
    for delay in [0, 150, 300] {
        let (status, out, err) = against(&system(delay, &model), &["--spec", &model]);
        assert!(status == 0 || status == 3, "delay {delay}: {out}{err}");
        assert!(!out.contains(" fail: "), "delay {delay}: {out}");
    }
}

#[test]
#[ignore = "loads the machine with 8 CPU-bound processes for a few minutes"]
fn conforming_systems_never_fail_and_mutants_do_under_load() {
    let logs = work_dir("stress-timing");
    let out = Command::new("nice")
        .arg("python3")
        .arg(root().join("scripts/stress_timing"))
        .args(["--bin", BIN])
        .args([
            "--runs",
            "2",
            "--mutants",
            "2",
            "--load",
            "8",
            "--parallel",
            "4",
        ])
        .args(["--models", "everest_r.aut,coffeemachine.dot"])
        .arg("--logs")
        .arg(&logs)
        .output()
        .expect("python3 runs");
    let table = String::from_utf8_lossy(&out.stdout);
    let progress = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{table}\n{progress}");
    let rows: Vec<&str> = table
        .lines()
        .filter(|l| l.starts_with("| ") && l.contains("."))
        .collect();
    assert_eq!(rows.len(), 2, "{table}");
    for row in rows {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        // | model | tests | runs | direct p/f/i | timing | proxy p/f/i | timing | mutants | load |
        assert_eq!(cells[3], "2 / 2", "{row}");
        for direct_or_proxy in [cells[4], cells[6]] {
            let fails = direct_or_proxy.split(" / ").nth(1).unwrap();
            assert_eq!(fails, "0", "{row}");
        }
        let (failed, total) = cells[8].split_once(' ').unwrap().0.split_once('/').unwrap();
        assert_eq!(failed, total, "{row}");
        assert_ne!(total, "0", "{row}");
    }
}
