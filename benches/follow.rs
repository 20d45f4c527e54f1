//! The bundled vending `ioco-ads` suite (E = 0) run with `run --sut` against `ncomplete simulate
//! --choose random`, with re-runs only (20 and 2 retries) and with `--follow` (2 retries): verdict counts, the share of inconclusive
//! tests among those the system can decide at all, and wall time (measured on a sample of the
//! suite, every STRIDE-th test, and extrapolated to the whole suite).
//!
//! A test is undecidable against this system when exact simulation of the same model (`run
//! --model`, every race and output choice) ends every execution in `retry`: no luck in the
//! system's choices can judge it. There are none since the normal form of ioco plans cuts the
//! inputs the specification does not enable (before, a third of this suite went on after such an
//! input and waited for an output the simulated system never gives); the bench still counts them
//! and reports the inconclusive share among the decidable tests.
//!
//! `simulate` starts at once, so the start-up allowance is 0 (with the default 1 s every test
//! that begins by observing quiescence waits 1 s more).
//!
//! `cargo bench --bench follow` (release) or `cargo bench --profile dev --bench follow`; the
//! figures are dominated by the quiescence timeout, not the build. Environment:
//! NCOMPLETE_BENCH_STRIDE (default 50; 1 runs the whole suite).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

const BIN: &str = env!("CARGO_BIN_EXE_ncomplete");
const QUIESCENCE_MS: &str = "100";
const DELAY_MS: &str = "40";

fn ncomplete(args: &[&str]) -> String {
    let out = Command::new(BIN)
        .args(args)
        .output()
        .expect("ncomplete runs");
    assert!(
        out.status.code().is_some_and(|c| c <= 1),
        "ncomplete {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Names of the tests with the given verdict word in a `run` report.
fn with_verdict<'a>(report: &'a str, verdict: &str) -> Vec<&'a str> {
    report
        .lines()
        .filter_map(|l| {
            let (name, rest) = l.split_once(' ')?;
            (name.starts_with('t') && rest.split([' ', ':']).next() == Some(verdict))
                .then_some(name)
        })
        .collect()
}

fn main() {
    let stride: usize = std::env::var("NCOMPLETE_BENCH_STRIDE")
        .ok()
        .and_then(|s| s.parse().ok())
        .filter(|&s| s > 0)
        .unwrap_or(50);
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let model = root.join("models/vending.aut").display().to_string();
    let dir = std::env::temp_dir().join(format!("ncomplete-bench-follow-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let suite = dir.join("suite.json");
    let suite_path = suite.display().to_string();
    ncomplete(&[
        "generate",
        &model,
        "--method",
        "ioco-ads",
        "--extra-states",
        "0",
        "--out",
        &suite_path,
        "--quiet",
    ]);
    let total = sample(&suite, &dir.join("sample.json"), stride);
    let sample_path = dir.join("sample.json").display().to_string();
    let exact = ncomplete(&[
        "run",
        &sample_path,
        "--model",
        &model,
        "--input-enable",
        "self-loop",
    ]);
    let undecidable = with_verdict(&exact, "inconclusive");
    let tests = exact.lines().count() - 1;
    println!(
        "vending ioco-ads E=0: {total} tests, sample of every {stride}th: {tests} tests, {} undecidable against the model (exact simulation)",
        undecidable.len()
    );
    println!(
        "{:<12} {:>5} {:>5} {:>5} {:>7} {:>18} {:>9} {:>17}",
        "runner",
        "pass",
        "fail",
        "inconc",
        "inc/dec",
        "share of decidable",
        "wall s",
        "whole suite, min"
    );
    let system = format!("'{BIN}' simulate --choose random --delay-ms {DELAY_MS} '{model}'");
    for (follow, retries) in [(false, "20"), (false, "2"), (true, "2")] {
        let mut args = vec![
            "run",
            sample_path.as_str(),
            "--sut",
            system.as_str(),
            "--quiescence-ms",
            QUIESCENCE_MS,
            "--startup-ms",
            "0",
            "--retries",
            retries,
        ];
        if follow {
            args.push("--follow");
        }
        let started = Instant::now();
        let report = ncomplete(&args);
        let wall = started.elapsed().as_secs_f64();
        let inconclusive = with_verdict(&report, "inconclusive");
        let decidable_inconclusive = inconclusive
            .iter()
            .filter(|t| !undecidable.contains(t))
            .count();
        let decidable = tests - undecidable.len();
        println!(
            "{:<12} {:>5} {:>5} {:>5} {:>7} {:>17.1}% {:>9.1} {:>17.1}",
            format!(
                "{}{retries}",
                if follow { "follow, r=" } else { "retry, r=" }
            ),
            with_verdict(&report, "pass").len(),
            with_verdict(&report, "fail").len(),
            inconclusive.len(),
            decidable_inconclusive,
            100.0 * decidable_inconclusive as f64 / decidable.max(1) as f64,
            wall,
            wall * total as f64 / tests.max(1) as f64 / 60.0,
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Writes every `stride`-th test of `suite` to `out`; returns the number of tests of `suite`.
fn sample(suite: &Path, out: &Path, stride: usize) -> usize {
    let text = std::fs::read_to_string(suite).expect("suite written");
    let mut json: serde_json::Value = serde_json::from_str(&text).expect("suite JSON");
    let tests = json["tests"].as_array_mut().expect("tests array");
    let total = tests.len();
    let kept: Vec<serde_json::Value> = tests.iter().step_by(stride).cloned().collect();
    *tests = kept;
    std::fs::write(out, serde_json::to_string(&json).expect("JSON")).expect("sample written");
    total
}
