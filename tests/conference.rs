//! The Conference Protocol case study end to end (`examples/conference/`, issue 42): the entry
//! point `test-cpe` drives a real UDP/stdio system through the multi-channel adapter
//! (`python/ncomplete_adapter`) and `ncomplete explore`, as a user runs it. The correct CPE and
//! an independently written second one pass; every mutant of the three groups of the original
//! experiment fails, with the failing trace in labels and concrete messages. The 20-run sweep of
//! the correct implementations (no false fail) is `--ignored`: `cargo test --test conference --
//! --ignored`. Needs python3 on PATH, nothing else.

mod common;

use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::Mutex;

fn example() -> PathBuf {
    common::root().join("examples").join("conference")
}

/// `test-cpe OPTIONS -- python3 PROGRAM ARGS` with this build of ncomplete.
fn test_cpe(options: &[&str], program: &str, args: &[&str]) -> Output {
    Command::new("python3")
        .arg(example().join("test-cpe"))
        .args(["--ncomplete", env!("CARGO_BIN_EXE_ncomplete"), "--quiet"])
        .args(options)
        .args(["--", "python3"])
        .arg(example().join(program))
        .args(args)
        .output()
        .expect("python3 runs test-cpe")
}

fn shown(output: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        output.status.code(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// The mutants `cpe.py --list-mutants` names.
fn mutants() -> Vec<String> {
    let listing = Command::new("python3")
        .arg(example().join("cpe.py"))
        .arg("--list-mutants")
        .output()
        .expect("python3 runs cpe.py");
    let text = String::from_utf8(listing.stdout).expect("UTF-8 listing");
    text.lines()
        .map(|line| line.split('\t').next().unwrap_or_default().to_string())
        .collect()
}

/// Runs `job` over `items`, `workers` at a time; the results in the order of `items`.
fn in_parallel<T: Sync, R: Send>(
    items: &[T],
    workers: usize,
    job: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let next = Mutex::new(0usize);
    let results: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let index = {
                        let mut next = next.lock().expect("lock");
                        *next += 1;
                        *next - 1
                    };
                    let Some(item) = items.get(index) else { break };
                    let result = job(item);
                    results.lock().expect("lock")[index] = Some(result);
                }
            });
        }
    });
    results
        .into_inner()
        .expect("lock")
        .into_iter()
        .map(|r| r.expect("every item ran"))
        .collect()
}

#[test]
fn both_correct_implementations_pass_a_bounded_run() {
    let runs = [("cpe.py", "1"), ("cpe_alt.py", "2")];
    let outputs = in_parallel(&runs, 2, |(program, seed)| {
        test_cpe(&["--max-steps", "250", "--seed", seed], program, &[])
    });
    for ((program, _), output) in runs.iter().zip(&outputs) {
        assert_eq!(
            output.status.code(),
            Some(0),
            "{program}: {}",
            shown(output)
        );
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            stdout.contains("verdict: pass (250 steps"),
            "{program}: {}",
            shown(output)
        );
    }
}

#[test]
fn every_mutant_fails_with_its_trace_in_labels_and_messages() {
    let names = mutants();
    assert!(names.len() >= 27, "{names:?}");
    let outputs = in_parallel(&names, 8, |name| {
        test_cpe(&[], "cpe.py", &["--mutant", name])
    });
    let mut missed = Vec::new();
    for (name, output) in names.iter().zip(&outputs) {
        let stdout = String::from_utf8_lossy(&output.stdout);
        if output.status.code() != Some(1) {
            missed.push(format!("{name}: {}", shown(output)));
            continue;
        }
        assert!(
            stdout.contains("verdict: fail"),
            "{name}: {}",
            shown(output)
        );
        assert!(
            stdout.contains("failing trace (model labels):\n  ?"),
            "{name}: {}",
            shown(output)
        );
        assert!(
            stdout.contains("failing run (concrete messages") && stdout.contains("tester -> CPE "),
            "{name}: {}",
            shown(output)
        );
    }
    assert!(
        missed.is_empty(),
        "mutants not failed:\n{}",
        missed.join("\n")
    );
}

#[test]
fn the_committed_model_is_what_gen_model_writes() {
    let status = Command::new("sh")
        .arg(example().join("pre-commit"))
        .status()
        .expect("sh runs the hook");
    assert!(
        status.success(),
        "conference.aut is stale: run examples/conference/regenerate"
    );
}

/// A purpose: one trace to a data transfer.
const DATA_TRANSFER: &str = "cf0_join_a_c1 (udp1_out_join_a_c1|udp2_out_join_a_c1)* settled \
                             udp1_in_join_b_c1 udp1_out_answer_a_c1 settled \
                             cf0_datareq_t udp1_out_data_a_c1_t settled";

/// Generates the suite of the purpose `DATA_TRANSFER` into `work_dir(dir)` and runs it with
/// `ncomplete run` against `cpe.py CPE_ARGS` behind the Conference adapter (`--quiescence-ms
/// 600 --startup-ms 3000 --quiet`, then `run_flags`).
fn run_through_adapter(dir: &str, cpe_args: &str, run_flags: &[&str]) -> Output {
    let suite = common::work_dir(dir).join("suite.json");
    let generated = Command::new(env!("CARGO_BIN_EXE_ncomplete"))
        .arg("generate")
        .arg(example().join("conference.aut"))
        .args(["--purpose-regex", DATA_TRANSFER, "--quiet", "--out"])
        .arg(&suite)
        .output()
        .expect("ncomplete runs");
    assert!(generated.status.success(), "{}", shown(&generated));
    let system = format!(
        "python3 '{}' -- python3 '{}' {cpe_args}",
        example().join("conference_adapter.py").display(),
        example().join("cpe.py").display()
    );
    Command::new(env!("CARGO_BIN_EXE_ncomplete"))
        .arg("run")
        .arg(&suite)
        .args(["--sut", &system, "--quiescence-ms", "600"])
        .args(["--startup-ms", "3000", "--quiet"])
        .args(run_flags)
        .output()
        .expect("ncomplete runs")
}

/// `run` drives the same adapter unchanged: a generated test (one trace to a data transfer)
/// passes the correct CPE and fails one that forgets the partner of a join PDU.
#[test]
fn a_generated_test_runs_through_the_same_adapter() {
    for (cpe_args, expected) in [("", 0), ("--mutant no-add-on-join", 1)] {
        let run = run_through_adapter("conference_run", cpe_args, &[]);
        assert_eq!(
            run.status.code(),
            Some(expected),
            "{cpe_args}: {}",
            shown(&run)
        );
    }
}

/// The adapter's settle timer follows the timing rule: a correct CPE that answers 600 ms late,
/// after the adapter's `settled` (400 ms), is never failed. `test-cpe` declares `settled` a timer
/// output, so the failure is replayed with the timeouts and the settle time x4 (the adapter
/// reads `NCOMPLETE_TIMING_SCALE`), where the answer comes in time: inconclusive (timing), exit
/// 3, in `explore` (through `test-cpe`) and in `run` (`--timer-outputs settled`).
#[test]
fn a_correct_cpe_late_past_the_settle_time_is_not_failed() {
    let output = test_cpe(&["--max-steps", "40"], "cpe.py", &["--delay-ms", "600"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(3), "{}", shown(&output));
    assert!(
        stdout.contains("verdict: inconclusive") && stdout.contains("inconclusive (timing)"),
        "{}",
        shown(&output)
    );
    let run = run_through_adapter(
        "conference_late",
        "--delay-ms 600",
        &["--timer-outputs", "settled"],
    );
    assert_eq!(run.status.code(), Some(3), "{}", shown(&run));
    assert!(
        String::from_utf8_lossy(&run.stdout).contains("inconclusive (timing)"),
        "{}",
        shown(&run)
    );
}

#[test]
fn a_command_that_is_not_a_cpe_is_an_error() {
    // It never writes `ready`: test-cpe's start-up check reports an error before exploring.
    let output = Command::new("python3")
        .arg(example().join("test-cpe"))
        .args([
            "--ncomplete",
            env!("CARGO_BIN_EXE_ncomplete"),
            "--quiet",
            "--",
            "true",
        ])
        .output()
        .expect("python3 runs test-cpe");
    assert_eq!(output.status.code(), Some(2), "{}", shown(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("the CPE did not start"),
        "{}",
        shown(&output)
    );
}

#[test]
#[ignore = "the 20-run sweep: 40 runs of 9 minutes, 8 at a time, about 50 minutes"]
fn twenty_full_runs_of_each_correct_implementation_never_fail() {
    let runs: Vec<(&str, String)> = ["cpe.py", "cpe_alt.py"]
        .iter()
        .flat_map(|program| (0..20).map(move |seed| (*program, seed.to_string())))
        .collect();
    let outputs = in_parallel(&runs, 8, |(program, seed)| {
        test_cpe(&["--seed", seed], program, &[])
    });
    for ((program, seed), output) in runs.iter().zip(&outputs) {
        assert_eq!(
            output.status.code(),
            Some(0),
            "{program} seed {seed}: {}",
            shown(output)
        );
    }
}
