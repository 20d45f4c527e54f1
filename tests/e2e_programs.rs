//! End to end: render the Python and Rust programs of the fixture suites, run them against
//! `ncomplete simulate` of the model (every test passes) and of a faulty variant (a test fails
//! with the trace and the unexpected output).
//!
//! The Python part needs pytest: `scripts/test` installs it; locally, a missing pytest skips that
//! part with a message, but under `CI=true` it is an error. The Rust part builds the generated
//! package offline (std only) in a build directory under Cargo's target directory, so repeated
//! runs do not rebuild it.

mod common;

use common::work_dir;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_ncomplete");

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn render(suite: &str, format: &str, out: &Path) {
    let status = Command::new(BIN)
        .args(["render"])
        .arg(fixtures().join(suite))
        .args(["--format", format, "--out"])
        .arg(out)
        .status()
        .unwrap();
    assert!(status.success(), "render {suite} as {format} failed");
}

/// The simulated system: the correct models choose outputs at random (so retries are
/// exercised), the faulty ones deterministically (so the fault shows on every run). `model` is a
/// fixture name or a path.
fn sut(model: &str) -> String {
    let choose = if model.contains("faulty") {
        "first"
    } else {
        "random"
    };
    // The tea machine's outputs wait 100 ms, so a tester's input can overtake them (after ?coin
    // the model offers both ?button and !refund), well within the 400 ms quiescence timeout.
    let delay = if model.contains("tea_machine") {
        100
    } else {
        0
    };
    format!(
        "'{BIN}' simulate '{}' --choose {choose} --delay-ms {delay}",
        fixtures().join(model).display()
    )
}

/// A generated program of `generated/<name>/<format>`, copied to a work directory, with the
/// path of its bundled model and of a faulty variant made by replacing `from` with `to`.
fn generated_program(
    name: &str,
    model: &str,
    from: &str,
    to: &str,
    format: &str,
) -> (PathBuf, String, String) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = work_dir(&format!("e2e-generated-{name}-{format}"));
    common::copy_tree(&root.join("generated").join(name).join(format), &dir);
    let model = root.join("models").join(model);
    let text = std::fs::read_to_string(&model).unwrap();
    let mutated = text.replace(from, to);
    assert_ne!(text, mutated, "the mutation applies");
    let faulty = dir.join(format!("{name}-faulty.dot"));
    std::fs::write(&faulty, mutated).unwrap();
    (
        dir,
        model.display().to_string(),
        faulty.display().to_string(),
    )
}

/// The generated suites of bundled models: the coffee machine (Mealy), whose faulty variant
/// answers BUTTON with `ok` instead of `coffee!`, and the tea machine (IOLTS with an internal step
/// and quiescence), whose faulty variant serves tea instead of the refund. (The reverse fault, a
/// refund instead of tea after `?button`, cannot be told from a refund written before the system
/// read `?button`: under the input/output race the testers read it so, and give `retry`.)
const GENERATED: [(&str, &str, &str, &str, &str); 2] = [
    (
        "coffeemachine",
        "coffeemachine.dot",
        "s3 -> s5 [label=\"BUTTON / coffee!\"]",
        "s3 -> s5 [label=\"BUTTON / ok\"]",
        "failed: unexpected !ok (expected one of: !coffee!) after",
    ),
    (
        "tea_machine",
        "tea_machine.dot",
        "empty -> idle [label=\"!refund\"]",
        "empty -> idle [label=\"!tea\"]",
        "failed: unexpected !tea (expected one of: !refund) after",
    ),
];

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Environment of a run against a simulated model: a generous quiescence timeout, as the test
/// machines are shared and slow, and a short start-up allowance, as the simulator starts at once
/// (tests that observe quiescence before any output wait for the allowance too).
fn with_sut(cmd: &mut Command, model: &str) {
    cmd.env("NCOMPLETE_SUT", sut(model))
        .env("NCOMPLETE_QUIESCENCE_MS", "400")
        .env("NCOMPLETE_STARTUP_MS", "200")
        .env("NCOMPLETE_RESPONSE_MS", "2000")
        .env("NCOMPLETE_RETRIES", "30");
}

fn pytest(dir: &Path, model: &str) -> Output {
    let mut cmd = Command::new("python3");
    cmd.args(["-m", "pytest", "-q", "-p", "no:cacheprovider"])
        .arg(dir)
        .current_dir(dir);
    with_sut(&mut cmd, model);
    cmd.output().unwrap()
}

#[test]
fn python_programs_pass_on_the_model_and_fail_on_a_faulty_one() {
    if !common::pytest_available("Python end-to-end test") {
        return;
    }
    for (suite, model, faulty, expected) in [
        (
            "coffee.suite.json",
            "coffee.aut",
            "coffee-faulty.aut",
            "t0004 failed: unexpected !coffee (expected one of: delta) after ?coin ?button !coffee ?button",
        ),
        (
            "mealy.suite.json",
            "toggle.dot",
            "toggle-faulty.dot",
            "t0002 failed: unexpected !0 (expected one of: !1) after ?b !0 ?a !0 ?b",
        ),
    ] {
        let dir = work_dir(&format!("e2e-python-{suite}"));
        render(suite, "python", &dir);
        let good = pytest(&dir, model);
        assert!(
            good.status.success(),
            "{suite} on {model}:\n{}",
            text(&good)
        );
        let bad = pytest(&dir, faulty);
        let report = text(&bad);
        assert!(!bad.status.success(), "{suite} on {faulty}:\n{report}");
        assert!(report.contains(expected), "{suite} on {faulty}:\n{report}");
    }
}

#[test]
fn generated_python_programs_of_bundled_models_run() {
    if !common::pytest_available("Python end-to-end test") {
        return;
    }
    for (name, model, from, to, expected) in GENERATED {
        let (dir, model, faulty) = generated_program(name, model, from, to, "python");
        let good = pytest(&dir, &model);
        assert!(good.status.success(), "{name}: {}", text(&good));
        let bad = pytest(&dir, &faulty);
        let report = text(&bad);
        assert!(!bad.status.success(), "{name}: {report}");
        assert!(report.contains(expected), "{name}: {report}");
    }
}

#[test]
fn generated_rust_programs_of_bundled_models_run() {
    for (name, model, from, to, expected) in GENERATED {
        let (dir, model, faulty) = generated_program(name, model, from, to, "rust");
        let good = cargo_test(&dir, &model);
        assert!(good.status.success(), "{name}: {}", text(&good));
        let bad = cargo_test(&dir, &faulty);
        let report = text(&bad);
        assert!(!bad.status.success(), "{name}: {report}");
        assert!(report.contains(expected), "{name}: {report}");
    }
}

fn cargo_test(package: &Path, model: &str) -> Output {
    let target = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("e2e-rust-target");
    let mut cmd = Command::new(env!("CARGO"));
    cmd.args(["test", "--offline", "--quiet"])
        .current_dir(package)
        .env("CARGO_TARGET_DIR", target)
        .env("RUSTFLAGS", "-D warnings")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("RUSTC_WRAPPER");
    with_sut(&mut cmd, model);
    cmd.output().unwrap()
}

#[test]
fn rust_programs_pass_on_the_model_and_fail_on_a_faulty_one() {
    for (suite, model, faulty, expected) in [
        (
            "coffee.suite.json",
            "coffee.aut",
            "coffee-faulty.aut",
            "t0004 failed: unexpected !coffee (expected one of: delta) after ?coin ?button !coffee ?button",
        ),
        (
            "mealy.suite.json",
            "toggle.dot",
            "toggle-faulty.dot",
            "t0002 failed: unexpected !0 (expected one of: !1) after ?b !0 ?a !0 ?b",
        ),
    ] {
        let package = work_dir(&format!("e2e-rust-{suite}"));
        render(suite, "rust", &package);
        let fmt = Command::new("rustfmt")
            .args(["--edition", "2021", "--check"])
            .arg(package.join("src/lib.rs"))
            .arg(package.join("src/runtime.rs"))
            .arg(package.join("tests/suite.rs"))
            .output();
        if let Ok(fmt) = fmt {
            assert!(fmt.status.success(), "not rustfmt-clean:\n{}", text(&fmt));
        }
        let good = cargo_test(&package, model);
        assert!(
            good.status.success(),
            "{suite} on {model}:\n{}",
            text(&good)
        );
        let bad = cargo_test(&package, faulty);
        let report = text(&bad);
        assert!(!bad.status.success(), "{suite} on {faulty}:\n{report}");
        assert!(report.contains(expected), "{suite} on {faulty}:\n{report}");
    }
}

/// A user's own adapter (an in-process toggle machine) replaces the stdio adapter through a
/// pytest fixture in `conftest.py` or a Rust test file of its own; generated files stay untouched.
#[test]
fn user_adapters_plug_in_without_editing_generated_files() {
    let adapters = fixtures().join("adapters");
    let package = work_dir("e2e-user-adapter-rust");
    render("mealy.suite.json", "rust", &package);
    std::fs::copy(
        adapters.join("toggle_adapter.rs"),
        package.join("tests/my_system.rs"),
    )
    .unwrap();
    let target = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("e2e-rust-target");
    let out = Command::new(env!("CARGO"))
        .args(["test", "--offline", "--quiet", "--test", "my_system"])
        .current_dir(&package)
        .env("CARGO_TARGET_DIR", target)
        .env_remove("NCOMPLETE_SUT")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("2 passed"), "{}", text(&out));
    if !common::pytest_available("Python end-to-end test") {
        return;
    }
    let dir = work_dir("e2e-user-adapter-python");
    render("mealy.suite.json", "python", &dir);
    std::fs::copy(adapters.join("conftest.py"), dir.join("conftest.py")).unwrap();
    let out = Command::new("python3")
        .args(["-m", "pytest", "-q", "-p", "no:cacheprovider"])
        .arg(&dir)
        .current_dir(&dir)
        .env_remove("NCOMPLETE_SUT")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("2 passed"), "{}", text(&out));
}

/// One pytest session runs the pytest modules of two models and of two shards of one suite:
/// each module takes its system from its own variable (`NCOMPLETE_SUT_<MODEL>`), and the shards'
/// modules have distinct names.
#[test]
fn one_pytest_session_tests_several_models_and_shards() {
    if !common::pytest_available("Python end-to-end test") {
        return;
    }
    let root = work_dir("e2e-python-several");
    let coffee = root.join("coffee");
    render("coffee.suite.json", "python", &coffee);
    let mut dirs = vec![coffee];
    for k in 1..=2 {
        let dir = root.join(format!("toggle{k}"));
        let status = Command::new(BIN)
            .arg("render")
            .arg(fixtures().join("mealy.suite.json"))
            .args(["--format", "python", "--shard", &format!("{k}/2"), "--out"])
            .arg(&dir)
            .status()
            .unwrap();
        assert!(status.success());
        assert!(dir.join(format!("test_toggle_shard_{k}_of_2.py")).is_file());
        dirs.push(dir);
    }
    let run = |toggle: &str| {
        let mut cmd = Command::new("python3");
        cmd.args(["-m", "pytest", "-q", "-p", "no:cacheprovider"])
            .args(&dirs)
            .current_dir(&root);
        with_sut(&mut cmd, "coffee.aut");
        cmd.env_remove("NCOMPLETE_SUT")
            .env("NCOMPLETE_SUT_COFFEE_DELUXE", sut("coffee.aut"))
            .env("NCOMPLETE_SUT_TOGGLE", sut(toggle));
        cmd.output().unwrap()
    };
    let good = run("toggle.dot");
    assert!(good.status.success(), "{}", text(&good));
    let bad = run("toggle-faulty.dot");
    let report = text(&bad);
    assert!(!bad.status.success(), "{report}");
    // Only the toggle tests fail: the coffee machine's module took its own system.
    assert!(report.contains("t0002 failed"), "{report}");
    assert!(!report.contains("test_coffee_deluxe.py::"), "{report}");
}
