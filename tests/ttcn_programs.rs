//! The TTCN-3 rendering runs: checked structurally on every machine (each testcase maps the test
//! port through the reset hook, the control part re-runs inconclusive testcases in a bounded
//! loop, the Titan test port is rendered beside the module), and, where Eclipse Titan is
//! installed (`compiler` and `ttcn3_makefilegen` on the PATH; Debian package `eclipse-titan`),
//! compiled and run against `ncomplete simulate` of the model (every testcase ends in pass), of a
//! faulty variant (the test that shows the fault fails) and of a system that exits (fail, with the
//! reason). Without Titan that part is skipped with a message; README.md gives the same check as
//! manual steps.

mod common;

use common::{fixture, root, work_dir};

use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_ncomplete");

fn render(suite: &Path, out: &Path) {
    let status = Command::new(BIN)
        .arg("render")
        .arg(suite)
        .args(["--format", "ttcn", "--out"])
        .arg(out)
        .status()
        .unwrap();
    assert!(status.success(), "render {} failed", suite.display());
}

/// The `.ttcn` file of a rendering.
fn module_text(dir: &Path) -> String {
    let file = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "ttcn"))
        .expect("a .ttcn file");
    std::fs::read_to_string(file).unwrap()
}

/// The names of the testcases of a module, in order.
fn testcases(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.trim().strip_prefix("testcase "))
        .map(|rest| rest.split('(').next().unwrap().to_owned())
        .collect()
}

fn suites() -> Vec<PathBuf> {
    vec![
        root().join("tests/fixtures/coffee.suite.json"),
        root().join("tests/fixtures/mealy.suite.json"),
        root().join("generated/tea_machine/suite.json"),
        root().join("generated/coffeemachine/suite.json"),
    ]
}

#[test]
fn every_testcase_maps_the_port_and_control_retries_inconclusive_ones() {
    for (k, suite) in suites().iter().enumerate() {
        let dir = work_dir(&format!("ttcn-structure-{k}"));
        render(suite, &dir);
        let text = module_text(&dir);
        let names = testcases(&text);
        assert!(!names.is_empty(), "{}", suite.display());
        assert!(dir.join("LabelPort.hh").is_file() && dir.join("LabelPort.cc").is_file());
        assert!(
            text.contains(
                "  function f_start_system() runs on Tester {\n    map(self:P, system:P);\n  }"
            ),
            "{text}"
        );
        // Every testcase starts the system afresh as its first statement.
        for name in &names {
            let head = format!(
                "  testcase {name}() runs on Tester system SystemUnderTest {{\n    f_start_system();\n"
            );
            assert!(text.contains(&head), "{name} does not map P first");
        }
        // The control part runs each testcase, then again while inconc, bounded by MAX_RETRIES.
        let control = &text[text.find("  control {").expect("a control part")..];
        for name in &names {
            let retry = format!(
                "    v_verdict := execute({name}());\n    v_attempt := 0;\n    while (v_verdict == \
                 inconc and v_attempt < MAX_RETRIES) {{\n      v_attempt := v_attempt + 1;\n      \
                 v_verdict := execute({name}());\n    }}\n"
            );
            assert!(control.contains(&retry), "{name}: no bounded retry loop");
        }
        assert_eq!(control.matches("execute(").count(), 2 * names.len());
        // Every label is the target of a goto, and every goto has its label.
        for line in text.lines() {
            if let Some(label) = line.trim().strip_prefix("label ") {
                let target = format!("goto {}", label.trim_end_matches(';'));
                assert!(text.contains(&target), "{label} is never jumped to");
            }
        }
    }
}

/// Whether Titan's compiler and Makefile generator are on the PATH.
fn titan_available() -> bool {
    let found = |tool: &str| {
        Command::new("sh")
            .args(["-c", &format!("command -v {tool}")])
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if found("compiler") && found("ttcn3_makefilegen") {
        return true;
    }
    eprintln!(
        "SKIPPED: building the TTCN-3 suites with Eclipse Titan: `compiler` and \
         `ttcn3_makefilegen` are not on the PATH (apt-get install eclipse-titan)"
    );
    false
}

/// Builds a rendering with Titan (single mode) and returns the executable.
fn titan_build(dir: &Path) -> PathBuf {
    let module = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .find(|n| n.ends_with(".ttcn"))
        .unwrap();
    let makefile = Command::new("ttcn3_makefilegen")
        .args(["-s", "-e", "suite", &module, "LabelPort.hh", "LabelPort.cc"])
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        makefile.status.success(),
        "{}",
        String::from_utf8_lossy(&makefile.stderr)
    );
    let make = Command::new("make")
        .args(["-j2"])
        .current_dir(dir)
        .output()
        .unwrap();
    let log = format!(
        "{}{}",
        String::from_utf8_lossy(&make.stdout),
        String::from_utf8_lossy(&make.stderr)
    );
    assert!(make.status.success(), "Titan build failed:\n{log}");
    assert!(!log.contains(": error:"), "{log}");
    dir.join("suite")
}

/// Runs the control part of `module` against `sut`; returns the final verdict of every testcase
/// (the last execution's, after the retries) and the whole console output.
fn titan_run(dir: &Path, module: &str, sut: &str) -> (Vec<(String, String)>, String) {
    let cfg = dir.join("run.cfg");
    std::fs::write(
        &cfg,
        format!(
            "[MODULE_PARAMETERS]\nQUIESCENCE_TIMEOUT := 0.4\nRESPONSE_TIMEOUT := 3.0\n\
             MAX_RETRIES := 30\n[LOGGING]\nFileMask := ERROR | WARNING\n\
             ConsoleMask := ERROR | VERDICTOP | TESTCASE | STATISTICS\n\
             [EXECUTE]\n{module}.control\n"
        ),
    )
    .unwrap();
    let out = Command::new(dir.join("suite"))
        .arg(&cfg)
        .current_dir(dir)
        .env("NCOMPLETE_SUT", sut)
        .output()
        .unwrap();
    let console = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let mut verdicts: Vec<(String, String)> = Vec::new();
    for line in console.lines() {
        let Some(rest) = line.strip_prefix("Test case ") else {
            continue;
        };
        let Some((name, verdict)) = rest.split_once(" finished. Verdict: ") else {
            continue;
        };
        let verdict = verdict.split(' ').next().unwrap().to_owned();
        match verdicts.last_mut() {
            Some(last) if last.0 == name => last.1 = verdict,
            _ => verdicts.push((name.to_owned(), verdict)),
        }
    }
    (verdicts, console)
}

/// `ncomplete simulate` of `model`; its outputs wait 40 ms (longer than the port's send grace),
/// so an input sent meanwhile goes first, as a real system reading its input would let it.
fn simulate(model: &str, choose: &str) -> String {
    format!("'{BIN}' simulate --choose {choose} --delay-ms 40 '{model}'")
}

#[test]
fn titan_builds_and_runs_the_rendered_suites() {
    if !titan_available() {
        return;
    }
    // The hand-written coffee suite: races, retries and quiescence.
    let dir = work_dir("ttcn-titan-coffee");
    render(&root().join("tests/fixtures/coffee.suite.json"), &dir);
    titan_build(&dir);
    let module = "coffee_deluxe_tests";
    let (verdicts, console) = titan_run(&dir, module, &simulate(&fixture("coffee.aut"), "random"));
    assert_eq!(verdicts.len(), 4, "{console}");
    assert!(verdicts.iter().all(|(_, v)| v == "pass"), "{console}");
    let (verdicts, console) = titan_run(
        &dir,
        module,
        &simulate(&fixture("coffee-faulty.aut"), "first"),
    );
    let failed: Vec<&str> = verdicts
        .iter()
        .filter(|(_, v)| v == "fail")
        .map(|(n, _)| n.as_str())
        .collect();
    assert_eq!(failed, ["t0004"], "{console}");
    let exits = format!(
        "exec sh '{}'",
        root().join("tests/fixtures/hostile/exit.sh").display()
    );
    let (verdicts, console) = titan_run(&dir, module, &exits);
    assert!(verdicts.iter().any(|(_, v)| v == "fail"), "{console}");
    assert!(
        console.contains("reason: the system exited with status 0"),
        "{console}"
    );

    // The bundled tea machine's generated suite against its model and a faulty variant.
    let dir = work_dir("ttcn-titan-tea");
    render(&root().join("generated/tea_machine/suite.json"), &dir);
    titan_build(&dir);
    let model = root().join("models/tea_machine.dot");
    let (verdicts, console) = titan_run(
        &dir,
        "tea_machine_tests",
        &simulate(&model.display().to_string(), "random"),
    );
    assert!(!verdicts.is_empty(), "{console}");
    assert!(verdicts.iter().all(|(_, v)| v == "pass"), "{console}");
    let text = std::fs::read_to_string(&model).unwrap();
    let faulty = dir.join("tea-faulty.dot");
    std::fs::write(
        &faulty,
        text.replace(
            "brewing -> idle [label=\"!tea\"]",
            "brewing -> idle [label=\"!refund\"]",
        ),
    )
    .unwrap();
    let (verdicts, console) = titan_run(
        &dir,
        "tea_machine_tests",
        &simulate(&faulty.display().to_string(), "first"),
    );
    assert!(verdicts.iter().any(|(_, v)| v == "fail"), "{console}");
}
