//! The TTCN-3 rendering runs: checked structurally on every machine (a definitions module, part
//! modules importing it whose testcases are the suite's tests in order, a control module running
//! every part in order; each testcase maps the test port through the reset hook, each part
//! re-runs inconclusive testcases in a bounded loop, the Titan test port is rendered beside the
//! modules; a suite over the part limit renders several parts), and, where Eclipse Titan is
//! installed (`compiler` and `ttcn3_makefilegen` on the PATH; Debian package `eclipse-titan`),
//! compiled and run against `ncomplete simulate` of the model (every testcase ends in pass), of a
//! faulty variant (the test that shows the fault fails) and of a system that exits (fail, with the
//! reason), once with the tea machine's suite in three parts. Without Titan that part is skipped
//! with a message; docs/src/running.md gives the same check as manual steps.

mod common;

use common::{fixture, root, titan, work_dir};

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

/// Renders `suite` as TTCN-3 into `out` through the library, in parts of at most `tests` tests.
fn render_in_parts(suite: &Path, out: &Path, tests: usize) {
    use ncomplete::render::{Format, PartLimit, render_suite_in_parts, write_files};
    let text = std::fs::read_to_string(suite).unwrap();
    let (header, cases) = ncomplete::suite::read_suite(&text).unwrap();
    let limit = PartLimit {
        tests,
        nodes: usize::MAX,
    };
    let files = render_suite_in_parts(&header, &cases, Format::Ttcn, None, limit).unwrap();
    write_files(out, &files).unwrap();
}

/// A TTCN-3 rendering read back: its modules' texts by role.
struct Modules {
    /// The definitions module `<model>_tests`.
    definitions: String,
    /// The part modules `<model>_part_NNN`, in order, with their module names.
    parts: Vec<(String, String)>,
    /// The control module `<model>_control`.
    control: String,
}

/// Reads the `.ttcn` files of a rendering of the model with identifier `ident`: exactly a
/// definitions module, part modules and a control module, each named after its file.
fn modules(dir: &Path, ident: &str) -> Modules {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".ttcn"))
        .collect();
    names.sort();
    let read = |name: &str| {
        let text = std::fs::read_to_string(dir.join(format!("{name}.ttcn"))).unwrap();
        assert!(
            text.contains(&format!("\nmodule {name} {{\n")),
            "{name}.ttcn does not hold module {name}"
        );
        text
    };
    let definitions = read(&format!("{ident}_tests"));
    let control = read(&format!("{ident}_control"));
    let parts: Vec<(String, String)> = (1..)
        .map(|k| format!("{ident}_part_{k:03}"))
        .take_while(|name| names.contains(&format!("{name}.ttcn")))
        .map(|name| {
            let text = read(&name);
            (name, text)
        })
        .collect();
    assert_eq!(
        names.len(),
        parts.len() + 2,
        "unexpected modules: {names:?}"
    );
    Modules {
        definitions,
        parts,
        control,
    }
}

/// The names of the testcases of a module, in order.
fn testcases(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.trim().strip_prefix("testcase "))
        .map(|rest| rest.split('(').next().unwrap().to_owned())
        .collect()
}

/// The testcase identifiers of the tests of a suite file, in order (as the renderer makes them
/// from the test names).
fn suite_test_idents(suite: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(suite).unwrap();
    let (_, tests) = ncomplete::suite::read_suite(&text).unwrap();
    let mut idents = ncomplete::render::escape::TestIdentifiers::new("_test");
    tests.iter().map(|t| idents.next(&t.name)).collect()
}

/// Checks the modules of a rendering of `suite`: the definitions module declares the port, the component
/// and the reset hook; every part imports it, and its testcases, part after part, are the
/// suite's tests in order, each mapping the port first; each part's execution function runs its
/// testcases in order with a bounded retry loop; the control module imports every part and calls
/// their execution functions in order. Returns the number of parts.
fn check_structure(suite: &Path, dir: &Path, ident: &str) -> usize {
    let m = modules(dir, ident);
    assert!(dir.join("LabelPort.hh").is_file() && dir.join("LabelPort.cc").is_file());
    let hh = std::fs::read_to_string(dir.join("LabelPort.hh")).unwrap();
    assert!(
        hh.contains(&format!("#include \"{ident}_tests.hh\"")),
        "{hh}"
    );
    assert!(
        m.definitions.contains("  type port LabelPort message {")
            && m.definitions.contains(
                "  function f_start_system() runs on Tester {\n    map(self:P, system:P);\n  }"
            ),
        "{}",
        m.definitions
    );
    assert!(testcases(&m.definitions).is_empty());
    let mut all = Vec::new();
    for (name, text) in &m.parts {
        assert!(
            text.contains(&format!("  import from {ident}_tests all;\n")),
            "{name} does not import the definitions"
        );
        let names = testcases(text);
        assert!(!names.is_empty(), "{name} has no testcases");
        // Every testcase starts the system afresh as its first statement.
        for test in &names {
            let head = format!(
                "  testcase {test}() runs on Tester system SystemUnderTest {{\n    f_start_system();\n"
            );
            assert!(text.contains(&head), "{test} does not map P first");
        }
        // The part's function runs each testcase in order, then again while inconc, bounded by
        // MAX_RETRIES.
        let part = name.strip_prefix(&format!("{ident}_")).unwrap();
        let function = &text[text
            .find(&format!("  function f_execute_{part}() {{\n"))
            .unwrap_or_else(|| panic!("{name} has no execution function"))..];
        let retries: String = names
            .iter()
            .map(|test| {
                format!(
                    "    v_verdict := execute({test}());\n    v_attempt := 0;\n    while (v_verdict \
                     == inconc and v_attempt < MAX_RETRIES) {{\n      v_attempt := v_attempt + \
                     1;\n      v_verdict := execute({test}());\n    }}\n"
                )
            })
            .collect();
        assert!(
            function.contains(&retries),
            "{name}: not every testcase in order with retries"
        );
        assert_eq!(function.matches("execute(").count(), 2 * names.len());
        // Every label is the target of a goto, and every goto has its label.
        for line in text.lines() {
            if let Some(label) = line.trim().strip_prefix("label ") {
                let target = format!("goto {}", label.trim_end_matches(';'));
                assert!(text.contains(&target), "{label} is never jumped to");
            }
        }
        all.extend(names);
    }
    assert_eq!(
        all,
        suite_test_idents(suite),
        "the testcases are not the suite's tests"
    );
    // The control module runs every part, in order.
    let control = &m.control[m.control.find("  control {").expect("a control part")..];
    let calls: String = m
        .parts
        .iter()
        .map(|(name, _)| {
            let part = name.strip_prefix(&format!("{ident}_")).unwrap();
            format!("    f_execute_{part}();\n")
        })
        .collect();
    assert!(
        control.starts_with(&format!("  control {{\n{calls}  }}")),
        "{control}"
    );
    for (name, _) in &m.parts {
        assert!(m.control.contains(&format!("  import from {name} all;\n")));
    }
    m.parts.len()
}

/// The suites checked, with their model identifiers.
fn suites() -> Vec<(PathBuf, &'static str)> {
    vec![
        (
            root().join("tests/fixtures/coffee.suite.json"),
            "coffee_deluxe",
        ),
        (root().join("tests/fixtures/mealy.suite.json"), "toggle"),
        (
            root().join("generated/tea_machine/suite.json"),
            "tea_machine",
        ),
        (
            root().join("generated/coffeemachine/suite.json"),
            "coffeemachine",
        ),
    ]
}

#[test]
fn every_testcase_maps_the_port_and_the_parts_retry_inconclusive_ones() {
    for (k, (suite, ident)) in suites().iter().enumerate() {
        let dir = work_dir(&format!("ttcn-structure-{k}"));
        render(suite, &dir);
        assert_eq!(
            check_structure(suite, &dir, ident),
            1,
            "{}",
            suite.display()
        );
    }
}

/// A suite of `tests` copies of the toggle fixture's second test, named `t00001`, ...
fn many_tests_suite(tests: usize) -> String {
    let fixture = std::fs::read_to_string(root().join("tests/fixtures/mealy.suite.json")).unwrap();
    let head = &fixture[..fixture.find(" \"tests\": [").unwrap()];
    let body: Vec<String> = (1..=tests)
        .map(|k| {
            format!(
                "  {{\"name\": \"t{k:05}\", \"root\": 0, \"nodes\": [\n    {{\"send\": \"b\", \
                 \"then\": 1, \"race\": {{}}}}, {{\"expect\": {{\"0\": 2}}}},\n    {{\"send\": \"a\", \
                 \"then\": 3, \"race\": {{}}}}, {{\"expect\": {{\"1\": \"pass\"}}}}]}}"
            )
        })
        .collect();
    format!("{head} \"tests\": [\n{}\n]}}\n", body.join(",\n"))
}

#[test]
fn a_suite_over_the_part_limit_renders_several_parts_in_suite_order() {
    let limit = ncomplete::render::PART_LIMIT.tests;
    let dir = work_dir("ttcn-many");
    let suite = dir.join("many.suite.json");
    std::fs::write(&suite, many_tests_suite(2 * limit + 1)).unwrap();
    let out = dir.join("ttcn");
    render(&suite, &out);
    assert_eq!(check_structure(&suite, &out, "toggle"), 3);
    let m = modules(&out, "toggle");
    let sizes: Vec<usize> = m.parts.iter().map(|(_, t)| testcases(t).len()).collect();
    assert_eq!(sizes, [limit, limit, 1]);
}

/// `ncomplete simulate` of `model`; its outputs wait 40 ms (longer than the port's send grace),
/// so an input sent meanwhile goes first, as a real system reading its input would let it.
fn simulate(model: &str, choose: &str) -> String {
    format!("'{BIN}' simulate --choose {choose} --delay-ms 40 '{model}'")
}

#[test]
fn titan_builds_and_runs_the_rendered_suites() {
    if !titan::available() {
        return;
    }
    // The hand-written coffee suite: races, retries and quiescence.
    let dir = work_dir("ttcn-titan-coffee");
    render(&root().join("tests/fixtures/coffee.suite.json"), &dir);
    titan::build(&dir);
    let module = "coffee_deluxe_control";
    let (verdicts, console) = titan::run(&dir, module, &simulate(&fixture("coffee.aut"), "random"));
    assert_eq!(verdicts.len(), 4, "{console}");
    assert!(verdicts.iter().all(|(_, v)| v == "pass"), "{console}");
    let (verdicts, console) = titan::run(
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
    let (verdicts, console) = titan::run(&dir, module, &exits);
    assert!(verdicts.iter().any(|(_, v)| v == "fail"), "{console}");
    assert!(
        console.contains("reason: the system exited with status 0"),
        "{console}"
    );

    // The bundled tea machine's generated suite, in parts of at most three tests, against its
    // model and a faulty variant.
    let dir = work_dir("ttcn-titan-tea");
    let suite = root().join("generated/tea_machine/suite.json");
    render_in_parts(&suite, &dir, 3);
    assert_eq!(check_structure(&suite, &dir, "tea_machine"), 3);
    titan::build(&dir);
    let model = root().join("models/tea_machine.dot");
    let (verdicts, console) = titan::run(
        &dir,
        "tea_machine_control",
        &simulate(&model.display().to_string(), "random"),
    );
    assert!(!verdicts.is_empty(), "{console}");
    assert!(verdicts.iter().all(|(_, v)| v == "pass"), "{console}");
    let text = std::fs::read_to_string(&model).unwrap();
    let faulty = dir.join("tea-faulty.dot");
    std::fs::write(
        &faulty,
        text.replace(
            // Tea where the refund belongs (a refund instead of tea could have overtaken the
            // button: the race).
            "empty -> idle [label=\"!refund\"]",
            "empty -> idle [label=\"!tea\"]",
        ),
    )
    .unwrap();
    let (verdicts, console) = titan::run(
        &dir,
        "tea_machine_control",
        &simulate(&faulty.display().to_string(), "first"),
    );
    assert!(verdicts.iter().any(|(_, v)| v == "fail"), "{console}");
}
