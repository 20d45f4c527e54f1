//! `ncomplete run --junit FILE --json FILE`: the results of a run as JUnit XML and JSON, in
//! simulation (exact, no times, byte-identical across runs) and against a process (with times);
//! a failure carries its reason, an inconclusive test is a skipped one.

mod common;

use common::work_dir;

use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_ncomplete");

fn fixture(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
        .display()
        .to_string()
}

fn run(args: &[&str]) -> (i32, String) {
    let out = Command::new(BIN).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

fn read_json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Parses the XML with Python's standard library when python3 is there (well-formedness).
fn check_well_formed(path: &Path) {
    let parsed = Command::new("python3")
        .args([
            "-c",
            "import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])",
        ])
        .arg(path)
        .status();
    if let Ok(status) = parsed {
        assert!(
            status.success(),
            "{} is not well-formed XML",
            path.display()
        );
    }
}

/// A copy of the coffee suite whose t0001 can never pass on the coffee machine.
fn retry_only_suite(dir: &Path) -> String {
    let text = std::fs::read_to_string(fixture("coffee.suite.json")).unwrap();
    let path = dir.join("retry-only.suite.json");
    std::fs::write(
        &path,
        text.replace(
            r#"{"coffee": 4, "tea": "retry"}"#,
            r#"{"coffee": "retry", "tea": "retry"}"#,
        ),
    )
    .unwrap();
    path.display().to_string()
}

#[test]
fn simulated_runs_write_junit_and_json_with_reasons_and_no_times() {
    let dir = work_dir("results-model");
    let junit = dir.join("report.xml");
    let json = dir.join("results.json");
    let args = |suite: &str, model: &str| {
        vec![
            "run".to_owned(),
            suite.to_owned(),
            "--model".to_owned(),
            model.to_owned(),
            "--junit".to_owned(),
            junit.display().to_string(),
            "--json".to_owned(),
            json.display().to_string(),
        ]
    };
    let argv = args(&fixture("coffee.suite.json"), &fixture("coffee-faulty.aut"));
    let argv: Vec<&str> = argv.iter().map(String::as_str).collect();
    let (code, out) = run(&argv);
    assert_eq!(code, 1, "{out}");
    let xml = std::fs::read_to_string(&junit).unwrap();
    check_well_formed(&junit);
    assert!(
        xml.contains("tests=\"4\" failures=\"1\" errors=\"0\" skipped=\"0\""),
        "{xml}"
    );
    assert!(
        xml.contains(
            "<failure type=\"fail\" message=\"unexpected !coffee (expected one of: delta) after \
             ?coin ?button !coffee ?button\">"
        ),
        "{xml}"
    );
    assert!(!xml.contains("time="), "{xml}");
    let v = read_json(&json);
    assert_eq!(v["format"], "ncomplete-results-v1");
    assert_eq!(v["verdict"], "fail");
    assert_eq!(v["counts"]["fail"], 1);
    assert_eq!(v["tests"].as_array().unwrap().len(), 4);
    let failed: Vec<&serde_json::Value> = v["tests"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["verdict"] == "fail")
        .collect();
    assert_eq!(failed.len(), 1);
    assert_eq!(failed[0]["name"], "t0004");
    // Exact runs give byte-identical files.
    let first = (xml, std::fs::read(&json).unwrap());
    let (code, _) = run(&argv);
    assert_eq!(code, 1);
    assert_eq!(first.0, std::fs::read_to_string(&junit).unwrap());
    assert_eq!(first.1, std::fs::read(&json).unwrap());

    // Inconclusive tests are skipped ones, not failures.
    let suite = retry_only_suite(&dir);
    let argv = args(&suite, &fixture("coffee.aut"));
    let argv: Vec<&str> = argv.iter().map(String::as_str).collect();
    let (code, out) = run(&argv);
    assert_eq!(code, 0, "{out}");
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(
        xml.contains("failures=\"0\" errors=\"0\" skipped=\"1\""),
        "{xml}"
    );
    assert!(
        xml.contains("<skipped message=\"inconclusive: every execution ends in retry\"/>"),
        "{xml}"
    );
    let v = read_json(&json);
    assert_eq!(v["verdict"], "inconclusive");
    assert_eq!(v["tests"][0]["verdict"], "inconclusive");
}

#[test]
fn runs_against_a_system_write_results_with_times() {
    let dir = work_dir("results-sut");
    let junit = dir.join("report.xml");
    let json = dir.join("results.json");
    let sut = format!("'{BIN}' simulate '{}'", fixture("toggle-faulty.dot"));
    let (code, out) = run(&[
        "run",
        &fixture("mealy.suite.json"),
        "--sut",
        &sut,
        "--junit",
        junit.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{out}");
    check_well_formed(&junit);
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(
        xml.contains("<testcase classname=\"toggle\" name=\"t0001\" time=\""),
        "{xml}"
    );
    assert!(
        xml.contains("message=\"unexpected !0 (expected one of: !1) after ?b !0 ?a !0 ?b\""),
        "{xml}"
    );
    let v = read_json(&json);
    assert_eq!(v["system"], format!("system {sut}"));
    assert_eq!(v["tests"][0]["verdict"], "pass");
    assert!(v["tests"][0]["seconds"].as_f64().unwrap() >= 0.0);
    assert_eq!(v["tests"][1]["verdict"], "fail");
}

#[test]
fn result_files_never_replace_inputs_or_go_to_standard_output() {
    let suite = fixture("coffee.suite.json");
    let model = fixture("coffee.aut");
    for args in [
        ["--junit", suite.as_str()],
        ["--json", model.as_str()],
        ["--json", "-"],
    ] {
        let (code, out) = run(&["run", &suite, "--model", &model, args[0], args[1]]);
        assert_eq!(code, 2, "{args:?}: {out}");
        assert!(out.contains(args[0]), "{args:?}: {out}");
    }
    let before = std::fs::read_to_string(&suite).unwrap();
    assert!(before.contains("\"tests\""));
}
