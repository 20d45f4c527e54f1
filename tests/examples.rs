//! The worked projects of `examples/`, end to end, as a user would run them: the pre-commit hook
//! finds the committed suite and renderings current (and stale after a model edit), every CI shard
//! of the committed tests passes against the example's system, the system with its fault fails
//! them, and the GitHub Actions workflow runs exactly the committed shards.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// An example project: its directory, model file, and the environment variable that switches
/// its system's fault on.
struct Example {
    dir: &'static str,
    model: &'static str,
    fault: (&'static str, &'static str),
    /// Whether its workflow sets `NCOMPLETE_STRICT=1` (an inconclusive test fails): not where
    /// the system can never take a branch some test needs.
    strict: bool,
}

const EXAMPLES: [Example; 2] = [
    Example {
        dir: "login-mealy",
        model: "login.dot",
        fault: ("LOGIN_BUG", "third-strike"),
        strict: true,
    },
    Example {
        dir: "vending-lts",
        model: "vending.aut",
        fault: ("VENDING_BUG", "swap"),
        // Its system writes `!coffee` and `!change` at once, so a test that sends `?coin`
        // between them always sees the change overtake the coin: inconclusive, never a pass.
        strict: false,
    },
];

fn example_dir(example: &Example) -> PathBuf {
    common::root().join("examples").join(example.dir)
}

/// `PATH` with the directory of the `ncomplete` binary under test first, so the examples'
/// scripts call this build.
fn path_with_ncomplete() -> String {
    let bin = Path::new(env!("CARGO_BIN_EXE_ncomplete"))
        .parent()
        .expect("binary directory")
        .display()
        .to_string();
    match std::env::var("PATH") {
        Ok(path) => format!("{bin}:{path}"),
        Err(_) => bin,
    }
}

fn pre_commit(dir: &Path) -> Output {
    Command::new(dir.join("pre-commit"))
        .env("PATH", path_with_ncomplete())
        .current_dir(dir)
        .output()
        .unwrap()
}

/// The shard directories of the committed rendering, in order.
fn shards(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir.join("tests"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("shard-"))
        .collect();
    names.sort();
    names
}

fn pytest_shard(example: &Example, dir: &Path, shard: &str, fault: Option<(&str, &str)>) -> Output {
    let mut cmd = Command::new("python3");
    cmd.args(["-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider"])
        .arg(format!("tests/{shard}"))
        .current_dir(dir)
        .env("NCOMPLETE_SUT", "python3 sut.py")
        .env("NCOMPLETE_STRICT", if example.strict { "1" } else { "0" })
        .env("PYTHONDONTWRITEBYTECODE", "1");
    if let Some((var, value)) = fault {
        cmd.env(var, value);
    }
    cmd.output().unwrap()
}

#[test]
fn committed_tests_are_current_and_the_hook_catches_drift() {
    for example in &EXAMPLES {
        let work = common::work_dir(&format!("example-hook-{}", example.dir));
        common::copy_tree(&example_dir(example), &work);
        let out = pre_commit(&work);
        assert!(
            out.status.success(),
            "{}: the committed suite is stale (run examples/{}/regenerate): {}",
            example.dir,
            example.dir,
            String::from_utf8_lossy(&out.stderr)
        );
        // A model edit without regenerating: the hook must refuse the commit.
        let model = work.join(example.model);
        let text = std::fs::read_to_string(&model).unwrap();
        let edited = match example.model.rsplit('.').next() {
            Some("dot") => text.replace("READ / data", "READ / denied"),
            _ => text.replace("(5, \"!tea\", 6)", "(5, \"!coffee\", 6)"),
        };
        assert_ne!(edited, text, "{}: the edit changes the model", example.dir);
        std::fs::write(&model, edited).unwrap();
        let out = pre_commit(&work);
        assert!(
            !out.status.success(),
            "{}: the hook accepted a stale suite",
            example.dir
        );
        assert!(String::from_utf8_lossy(&out.stderr).contains("stale"));
    }
}

#[test]
fn every_shard_passes_the_system_and_fails_its_fault() {
    if !common::pytest_available("examples end to end") {
        return;
    }
    // The vending machine refunds a coin spontaneously, so its refund races with the tester's
    // next input: its shards pass only because the runtime reads such a refund both ways.
    for example in &EXAMPLES {
        let dir = common::work_dir(&format!("example-run-{}", example.dir));
        common::copy_tree(&example_dir(example), &dir);
        let names = shards(&dir);
        assert_eq!(names, ["shard-1", "shard-2"], "{}", example.dir);
        let mut failed_with_fault = 0;
        for shard in &names {
            let out = pytest_shard(example, &dir, shard, None);
            assert!(
                out.status.success(),
                "{} {shard} fails the correct system:\n{}",
                example.dir,
                String::from_utf8_lossy(&out.stdout)
            );
            let out = pytest_shard(example, &dir, shard, Some(example.fault));
            if out.status.code() == Some(1) {
                failed_with_fault += 1;
            }
        }
        assert!(
            failed_with_fault > 0,
            "{}: no shard caught the fault {}={}",
            example.dir,
            example.fault.0,
            example.fault.1
        );
    }
}

#[test]
fn the_workflow_runs_every_committed_shard() {
    for example in &EXAMPLES {
        let dir = example_dir(example);
        let path = dir.join(".github/workflows/conformance.yml");
        let text = std::fs::read_to_string(&path).unwrap();
        let workflow: serde_yaml_ng::Value = serde_yaml_ng::from_str(&text).unwrap();
        let job = &workflow["jobs"]["conformance"];
        let matrix: Vec<String> = job["strategy"]["matrix"]["shard"]
            .as_sequence()
            .expect("a shard matrix")
            .iter()
            .map(|v| format!("shard-{}", v.as_u64().expect("shard number")))
            .collect();
        assert_eq!(matrix, shards(&dir), "{}: matrix and shards", example.dir);
        let runs: Vec<&str> = job["steps"]
            .as_sequence()
            .unwrap()
            .iter()
            .filter_map(|s| s["run"].as_str())
            .collect();
        assert!(
            runs.iter()
                .any(|r| r.contains("pytest") && r.contains("tests/shard-${{ matrix.shard }}")),
            "{}: the workflow runs the shard of its job: {runs:?}",
            example.dir
        );
        let sut = job["steps"]
            .as_sequence()
            .unwrap()
            .iter()
            .find_map(|s| s["env"]["NCOMPLETE_SUT"].as_str());
        assert_eq!(sut, Some("python3 sut.py"), "{}", example.dir);
        let strict = job["steps"]
            .as_sequence()
            .unwrap()
            .iter()
            .find_map(|s| s["env"]["NCOMPLETE_STRICT"].as_str());
        assert_eq!(
            strict,
            example.strict.then_some("1"),
            "{}: the workflow is as strict as the test",
            example.dir
        );
    }
}
