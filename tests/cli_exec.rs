//! The `run`, `simulate` and `render` subcommands end to end.

mod common;
use common::run;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_ncomplete");

fn fixture(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
        .display()
        .to_string()
}

#[test]
fn run_on_a_model_reports_each_test_and_exits_with_the_verdict() {
    let suite = fixture("coffee.suite.json");
    let (code, out, _) = run(&["run", &suite, "--model", &fixture("coffee.aut")]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.ends_with("suite: pass (4 pass, 0 fail, 0 inconclusive)\n"),
        "{out}"
    );
    let (code, out, _) = run(&["run", &suite, "--model", &fixture("coffee-faulty.aut")]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("t0004 fail: unexpected !coffee (expected one of: delta) after ?coin ?button !coffee ?button\n"),
        "{out}"
    );
    let (code, out, _) = run(&[
        "run",
        &fixture("mealy.suite.json"),
        "--model",
        &fixture("toggle-faulty.dot"),
    ]);
    assert_eq!(code, 1);
    assert!(
        out.contains("t0002 fail: unexpected !0 (expected one of: !1) after ?b !0 ?a !0 ?b"),
        "{out}"
    );
}

#[test]
fn tests_a_model_can_never_complete_are_inconclusive_but_not_failures() {
    let suite = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("retry-only.suite.json");
    let text = std::fs::read_to_string(fixture("coffee.suite.json")).unwrap();
    // t0001 retries on both drinks: the coffee machine never lets it pass.
    std::fs::write(
        &suite,
        text.replace(
            r#"{"coffee": 4, "tea": "retry"}"#,
            r#"{"coffee": "retry", "tea": "retry"}"#,
        ),
    )
    .unwrap();
    let (code, out, _) = run(&[
        "run",
        suite.to_str().unwrap(),
        "--model",
        &fixture("coffee.aut"),
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("t0001 inconclusive: every execution ends in retry"),
        "{out}"
    );
    assert!(
        out.ends_with("suite: inconclusive (3 pass, 0 fail, 1 inconclusive)\n"),
        "{out}"
    );
    let sut = format!(
        "'{BIN}' simulate '{}' --choose random",
        fixture("coffee.aut")
    );
    let (code, out, _) = run(&[
        "run",
        suite.to_str().unwrap(),
        "--sut",
        &sut,
        "--retries",
        "2",
        "--quiescence-ms",
        "300",
    ]);
    // Inconclusive and no failure: status 3, told apart from a failure (1).
    assert_eq!(code, 3, "{out}");
    assert!(
        out.contains("t0001 inconclusive: all 3 attempts ended in retry"),
        "{out}"
    );
}

#[test]
fn run_refuses_implementations_that_are_not_input_enabled_unless_asked() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let partial = dir.join("partial-coffee.aut");
    std::fs::write(
        &partial,
        "des (0, 4, 3)\n(0, \"?coin\", 1)\n(1, \"?button\", 2)\n(2, \"!coffee\", 0)\n(2, \"!tea\", 0)\n",
    )
    .unwrap();
    let partial = partial.display().to_string();
    let suite = fixture("coffee.suite.json");
    let (code, _, err) = run(&["run", &suite, "--model", &partial]);
    assert_eq!(code, 2);
    assert!(err.contains("is not input-enabled"), "{err}");
    assert!(err.contains("--input-enable self-loop"), "{err}");
    let (code, out, _) = run(&[
        "run",
        &suite,
        "--model",
        &partial,
        "--input-enable",
        "self-loop",
    ]);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn run_against_a_process_uses_the_stdio_protocol() {
    let sut = format!(
        "'{BIN}' simulate '{}' --choose random",
        fixture("coffee.aut")
    );
    let suite = fixture("coffee.suite.json");
    let (code, out, err) = run(&["run", &suite, "--sut", &sut, "--quiescence-ms", "300"]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out.lines().count(), 5, "{out}");
    // The measured wall time beside the prediction and what it assumes, on stderr (none with
    // --quiet).
    assert!(
        err.lines().any(|l| l.starts_with("ran 4 tests in ")
            && l.contains("; predicted ")
            && l.contains(
                "outputs uniform among those allowed, up to 20 retries, 300 ms per quiescence"
            )
            && l.contains("; every run once ")),
        "{err}"
    );
    let (_, _, err) = run(&[
        "run",
        &suite,
        "--sut",
        &sut,
        "--quiescence-ms",
        "300",
        "--quiet",
    ]);
    assert!(!err.contains("ran 4 tests"), "{err}");
    let faulty = format!("'{BIN}' simulate '{}'", fixture("coffee-faulty.aut"));
    let (code, out, _) = run(&["run", &suite, "--sut", &faulty, "--quiescence-ms", "300"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(
            "t0004 fail: unexpected !coffee (expected one of: delta) after ?coin ?button !coffee ?button"
        ),
        "{out}"
    );
    // A system that dies is a readable failure, not a hang.
    let (code, out, _) = run(&["run", &suite, "--sut", "exit 3", "--retries", "0"]);
    assert_eq!(code, 1);
    assert!(out.contains("the system exited"), "{out}");
}

#[test]
fn simulate_speaks_one_label_per_line() {
    let mut child = Command::new(BIN)
        .args(["simulate", &fixture("toggle.dot")])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"a\nb\nnonsense\na\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "0\n1\n1\n");
    assert!(String::from_utf8_lossy(&out.stderr).contains("ignoring unknown input `nonsense`"));
}

#[test]
fn render_writes_the_files_and_reports_bad_suites_with_a_position() {
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli-render");
    let _ = std::fs::remove_dir_all(&out);
    let out_s = out.display().to_string();
    let (code, _, err) = run(&[
        "render",
        &fixture("mealy.suite.json"),
        "--format",
        "ttcn",
        "--out",
        &out_s,
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(out.join("toggle_part_001.ttcn")).unwrap();
    assert!(text.contains("testcase t0002() runs on Tester system SystemUnderTest {"));
    let bad = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("bad.suite.json");
    std::fs::write(&bad, "{\"format\": \"ncomplete-suite\",\n \"version\": }").unwrap();
    // Into a fresh directory: the one above holds a TTCN-3 rendering, which python would replace.
    let fresh = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli-render-bad");
    let _ = std::fs::remove_dir_all(&fresh);
    let (code, _, err) = run(&[
        "render",
        &bad.display().to_string(),
        "--format",
        "python",
        "--out",
        &fresh.display().to_string(),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("bad.suite.json:2:"), "{err}");
    let (code, _, err) = run(&[
        "render",
        &fixture("mealy.suite.json"),
        "--format",
        "cobol",
        "--out",
        &out_s,
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("cobol"), "{err}");
}

/// `text` without the times of a JUnit report (` time="..."`) or a JSON one (`"seconds": ...`,
/// and the measured `latency_warning`).
fn without_times(text: &str) -> String {
    let mut out = String::new();
    let mut in_latency = false;
    for line in text.lines() {
        // The latency warning (a measured delay, present when it was large) goes with times.
        if line.trim_start().starts_with("\"latency_warning\"") {
            in_latency = true;
        }
        if in_latency {
            in_latency = !line.trim_start().starts_with('}');
            continue;
        }
        if line.trim_start().starts_with("\"seconds\"") {
            continue;
        }
        let mut rest = line;
        while let Some(k) = rest.find(" time=\"") {
            out.push_str(&rest[..k]);
            let after = &rest[k + 7..];
            rest = after.find('"').map_or("", |e| &after[e + 1..]);
        }
        out.push_str(rest.trim_end_matches(','));
        out.push('\n');
    }
    out
}

/// `run --jobs 2` gives the same lines, JUnit and JSON reports, in the same order, as
/// `--jobs 1`, on a suite of 100+ tests against a faulty simulated system (so both verdicts
/// occur); `--follow` still runs (on one system).
#[test]
fn parallel_runs_report_what_one_system_reports() {
    let dir = common::work_dir("parallel-runs");
    let model = dir.join("coffee.dot");
    let spec = std::fs::read_to_string(common::root().join("models/coffeemachine.dot")).unwrap();
    std::fs::write(&model, &spec).unwrap();
    // A transfer fault: POD in s3 leads to the error state.
    let faulty_text = spec.replace(
        "s3 -> s3 [label=\"POD / ok\"]",
        "s3 -> s1 [label=\"POD / ok\"]",
    );
    assert_ne!(faulty_text, spec);
    let faulty = dir.join("faulty.dot");
    std::fs::write(&faulty, faulty_text).unwrap();
    let suite = dir.join("suite.json");
    let s = |p: &std::path::Path| p.display().to_string();
    let (code, _, err) = run(&[
        "generate",
        &s(&model),
        "--method",
        "w",
        "--extra-states",
        "1",
        "--out",
        &s(&suite),
    ]);
    assert_eq!(code, 0, "{err}");
    let sut = format!("'{BIN}' simulate '{}'", s(&faulty));
    let report = |jobs: &str, extra: &[&str]| {
        let (junit, json) = (
            dir.join(format!("j{jobs}.xml")),
            dir.join(format!("r{jobs}.json")),
        );
        let (suite, junit_path, json_path) = (s(&suite), s(&junit), s(&json));
        let args = [
            &[
                "run",
                &suite,
                "--sut",
                &sut,
                "--jobs",
                jobs,
                "--junit",
                &junit_path,
                "--json",
                &json_path,
            ][..],
            extra,
        ]
        .concat();
        let (code, out, err) = run(&args);
        assert_eq!(code, 1, "{err}");
        let read = |p: &std::path::Path| without_times(&std::fs::read_to_string(p).unwrap());
        (out, read(&junit), read(&json))
    };
    let one = report("1", &[]);
    let tests = one.0.lines().count() - 1;
    assert!(tests >= 100, "{tests} tests");
    assert!(
        one.0.contains(" fail: ") && one.0.contains(" pass"),
        "{}",
        one.0
    );
    assert_eq!(report("2", &[]), one);
    assert_eq!(report("3", &["--follow"]).0, one.0);
    let (code, _, err) = run(&["run", &s(&suite), "--sut", &sut, "--jobs", "0"]);
    assert_eq!(code, 2, "{err}");
}
