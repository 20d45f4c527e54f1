//! Requirement tags (issue 45): a tagged model's suite names the tests of each requirement, and
//! `run` reports each requirement's coverage on stdout, in the JSON results, as JUnit
//! properties and in the HTML report; a bad tag is refused with its position; an untagged
//! model's suite has no `requirements` field.

mod common;

use common::work_dir;
use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_ncomplete");

fn model(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("models")
        .join(name)
        .display()
        .to_string()
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(BIN).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn read_json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The tagged vending machine's suite, and a mutant serving coffee for tea.
fn suite_and_mutant(dir: &Path) -> (String, String) {
    let suite = dir.join("suite.json").display().to_string();
    let (code, _, err) = run(&[
        "generate",
        &model("vending_requirements.dot"),
        "--extra-states",
        "0",
        "--out",
        &suite,
        "--quiet",
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(model("vending.aut")).unwrap();
    let mutant = dir.join("mutant.aut");
    std::fs::write(
        &mutant,
        text.replace("(5, \"!tea\", 6)", "(5, \"!coffee\", 6)"),
    )
    .unwrap();
    (suite, mutant.display().to_string())
}

#[test]
fn the_suite_names_the_tests_of_each_requirement_and_untagged_suites_do_not() {
    let dir = work_dir("requirements-suite");
    let (suite, _) = suite_and_mutant(&dir);
    let v = read_json(Path::new(&suite));
    let reqs = v["requirements"].as_object().unwrap();
    let names: Vec<&str> = reqs.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "CHANGE-1",
            "PAY-1",
            "REFUND-1",
            "SERVE-COFFEE",
            "SERVE-TEA",
            "SERVICE-1"
        ]
    );
    let tests = v["tests"].as_array().unwrap().len();
    // Every test but the one observing quiescence first pays.
    assert_eq!(reqs["PAY-1"].as_array().unwrap().len(), tests - 1);
    assert!(reqs["SERVICE-1"].as_array().unwrap().is_empty());
    // A test serving tea touches SERVE-TEA and not SERVE-COFFEE unless it serves both.
    let tea: Vec<&str> = (reqs["SERVE-TEA"].as_array().unwrap().iter())
        .map(|t| t.as_str().unwrap())
        .collect();
    assert!(!tea.is_empty() && tea.len() < tests);
    // Standard output gets the same suite.
    let (code, out, err) = run(&[
        "generate",
        &model("vending_requirements.dot"),
        "--extra-states",
        "0",
        "--quiet",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, std::fs::read_to_string(&suite).unwrap());
    // The untagged model's suite has no such field.
    let plain = dir.join("plain.json");
    let (code, _, err) = run(&[
        "generate",
        &model("vending.aut"),
        "--extra-states",
        "0",
        "--out",
        plain.to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(read_json(&plain).get("requirements").is_none());
}

#[test]
fn a_failing_mutant_fails_its_requirement_and_an_untouched_one_is_not_covered() {
    let dir = work_dir("requirements-run");
    let (suite, mutant) = suite_and_mutant(&dir);
    let (junit, json, html) = (dir.join("r.xml"), dir.join("r.json"), dir.join("r.html"));
    let (code, out, err) = run(&[
        "run",
        &suite,
        "--model",
        &mutant,
        "--input-enable",
        "self-loop",
        "--junit",
        junit.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
        "--html",
        html.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("requirement SERVE-TEA: failed (86 tests: 0 pass, 86 fail, 0 inconclusive)\n"),
        "{out}"
    );
    assert!(
        out.contains("requirement SERVICE-1: not covered (0 tests"),
        "{out}"
    );
    // JSON: the table, and each test's requirements.
    let v = read_json(&json);
    let rows = v["requirements"].as_array().unwrap();
    let row = |name: &str| {
        rows.iter()
            .find(|r| r["requirement"] == name)
            .unwrap()
            .clone()
    };
    assert_eq!(row("SERVE-TEA")["status"], "failed");
    assert_eq!(row("SERVE-TEA")["pass"], 0);
    assert_eq!(row("SERVICE-1")["status"], "not covered");
    let failed = (v["tests"].as_array().unwrap().iter())
        .find(|t| t["verdict"] == "fail")
        .unwrap();
    assert!(
        (failed["requirements"].as_array().unwrap().iter()).any(|r| r == "SERVE-TEA"),
        "{failed}"
    );
    // JUnit: one property per requirement of a test.
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.contains("<property name=\"requirement\" value=\"SERVE-TEA\"/>"));
    let failing_case = xml
        .split("<testcase ")
        .find(|c| c.contains("<failure"))
        .unwrap();
    assert!(failing_case.contains("<properties>"), "{failing_case}");
    // HTML: the table with a row per requirement.
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains(
        "<tr class=\"failed\" data-status=\"failed\"><td class=\"name\">SERVE-TEA</td><td class=\"status\">failed</td><td>86</td><td>0</td><td>86</td><td>0</td></tr>"
    ));
    assert!(page.contains(
        "<tr class=\"not-covered\" data-status=\"not covered\"><td class=\"name\">SERVICE-1</td>"
    ));
    // The conforming machine passes every covered requirement.
    let (code, out, err) = run(&[
        "run",
        &suite,
        "--model",
        &model("vending.aut"),
        "--input-enable",
        "self-loop",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("requirements: 5 passed, 0 failed, 0 inconclusive, 1 not covered\n"),
        "{out}"
    );
}

#[test]
fn bad_tags_are_refused_with_their_position() {
    let dir = work_dir("requirements-errors");
    for (name, text, error) in [
        (
            "bad.dot",
            "digraph m {\n  __start0 -> a;\n  a -> b [label=\"?x\", requirements=\"R1; R2\"];\n  b -> a [label=\"!y\"];\n}\n",
            "bad.dot:3:37: found the character `;` in the requirement `R1;`",
        ),
        (
            "empty.dot",
            "digraph m {\n  __start0 -> a;\n  a -> b [label=\"?x\"];\n  b [requirements=\"\"];\n  b -> a [label=\"!y\"];\n}\n",
            "empty.dot:4:20: found an empty list of requirements, expected at least one requirement name",
        ),
        (
            "bad.yaml",
            "kind: lts\ninputs: [x]\noutputs: [y]\ninitial: a\ntransitions:\n  - {from: a, label: x, to: b, requirements: [\"R 1\"]}\n  - {from: b, label: y, to: a}\n",
            "bad.yaml:6:5: found the requirement `R 1`, expected one requirement name per list item",
        ),
        (
            "states.yaml",
            "kind: lts\ninputs: [x]\noutputs: [y]\ninitial: a\ntransitions:\n  - {from: a, label: x, to: b}\n  - {from: b, label: y, to: a}\nstate_requirements: {z: [R1]}\n",
            "states.yaml:8:21: found requirements on the state `z`, expected a state of the model",
        ),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let (code, _, err) = run(&["info", path.to_str().unwrap()]);
        assert_eq!(code, 2, "{name}: {err}");
        assert!(err.contains(error), "{name}: {err}");
    }
    // The side file of an `.aut` model.
    let aut = dir.join("v.aut");
    std::fs::copy(model("vending.aut"), &aut).unwrap();
    std::fs::write(
        dir.join("v.aut.requirements"),
        "# tags\nstate 6: CHANGE-1\ntransition 0 \"?coin\" 2: PAY-1\n",
    )
    .unwrap();
    let (code, _, err) = run(&["info", aut.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("v.aut.requirements:3:1: found requirements on `0 --?coin--> 2`, which the model does not have, expected a transition of the model"),
        "{err}"
    );
}

#[test]
fn an_aut_side_file_tags_the_suite() {
    let dir = work_dir("requirements-side-file");
    let aut = dir.join("v.aut");
    std::fs::copy(model("vending.aut"), &aut).unwrap();
    std::fs::write(
        dir.join("v.aut.requirements"),
        "state 6: CHANGE-1\ntransition 5 \"!tea\" 6: SERVE-TEA\n",
    )
    .unwrap();
    let suite = dir.join("s.json");
    let (code, _, err) = run(&[
        "generate",
        aut.to_str().unwrap(),
        "--extra-states",
        "0",
        "--out",
        suite.to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(code, 0, "{err}");
    let v = read_json(&suite);
    let tea = v["requirements"]["SERVE-TEA"].as_array().unwrap().len();
    let change = v["requirements"]["CHANGE-1"].as_array().unwrap().len();
    assert!(tea > 0 && change > tea, "{tea} {change}");
}

#[test]
fn renderings_name_each_test_s_requirements() {
    let dir = work_dir("requirements-render");
    for (format, file, line) in [
        ("python", "test_vending_requirements.py", "# requirements: "),
        ("rust", "src/part_001.rs", "/// Requirements: "),
        (
            "ttcn",
            "vending_requirements_part_001.ttcn",
            "  // requirements: ",
        ),
    ] {
        let out = dir.join(format);
        let (code, _, err) = run(&[
            "generate",
            &model("vending_requirements.dot"),
            "--extra-states",
            "0",
            "--format",
            format,
            "--out",
            out.to_str().unwrap(),
            "--quiet",
        ]);
        assert_eq!(code, 0, "{err}");
        let text = std::fs::read_to_string(out.join(file)).unwrap();
        let tagged = text.lines().filter(|l| l.starts_with(line)).count();
        assert!(tagged > 100, "{format}: {tagged} tests name requirements");
        assert!(text.contains("SERVE-TEA"), "{format}");
    }
}
