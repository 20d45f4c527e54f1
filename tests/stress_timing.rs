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

mod common;
use common::{root, work_dir};
use std::process::Command;

#[test]
#[ignore = "loads the machine with 8 CPU-bound processes for a few minutes"]
fn conforming_systems_never_fail_and_mutants_do_under_load() {
    let logs = work_dir("stress-timing");
    let out = Command::new("nice")
        .arg("python3")
        .arg(root().join("scripts/stress_timing"))
        .args(["--bin", env!("CARGO_BIN_EXE_ncomplete")])
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
