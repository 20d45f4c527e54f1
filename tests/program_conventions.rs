//! The generated pytest modules and Cargo packages follow their ecosystems' conventions: the
//! Python passes `ruff format --check` and `ruff check` (default rules), the Rust passes clippy
//! with `-D warnings` (on-the-fly testers of `render --explore-spec` included); a system that cannot start is one setup error in pytest; an inconclusive
//! test is skipped (pytest) or reported without failing (cargo) unless `NCOMPLETE_STRICT=1`
//! makes it a failure in both; pytest selects tests by first input through their `ncomplete`
//! marker.
//!
//! Python parts need pytest and ruff (`requirements-test.txt`): skipped with a message locally
//! when missing, an error under `CI=true`.

mod common;

use common::{fixture, root, work_dir};

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_ncomplete");

fn render(suite: &Path, format: &str, out: &Path) {
    render_with(suite, format, out, &[]);
}

/// [`render`] with more arguments (`--explore-spec MODEL`).
fn render_with(suite: &Path, format: &str, out: &Path, more: &[&str]) {
    let status = Command::new(BIN)
        .arg("render")
        .arg(suite)
        .args(["--format", format, "--out"])
        .arg(out)
        .args(more)
        .status()
        .unwrap();
    assert!(
        status.success(),
        "render {} as {format} failed",
        suite.display()
    );
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Whether `python3 -m ruff` runs; under CI a missing ruff fails the test.
fn ruff_available() -> bool {
    let ok = Command::new("python3")
        .args(["-m", "ruff", "--version"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
        assert!(
            !ci,
            "ruff is not installed, but CI must check the generated Python: run scripts/test, \
             which installs requirements-test.txt"
        );
        eprintln!(
            "SKIPPED: ruff checks of generated Python: ruff is not installed (python3 -m pip \
             install -r requirements-test.txt)"
        );
    }
    ok
}

/// A copy of the coffee suite whose t0001 can never pass on the coffee machine.
fn retry_only_suite(dir: &Path) -> PathBuf {
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
    path
}

fn coffee_sut() -> String {
    format!("'{BIN}' simulate '{}'", fixture("coffee.aut"))
}

fn pytest(dir: &Path, env: &[(&str, &str)], args: &[&str]) -> Output {
    let mut cmd = Command::new("python3");
    cmd.args(["-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider"])
        .args(args)
        .arg(dir)
        .current_dir(dir)
        .env_remove("NCOMPLETE_SUT")
        .env_remove("NCOMPLETE_STRICT")
        .env("NCOMPLETE_QUIESCENCE_MS", "300")
        .env("NCOMPLETE_STARTUP_MS", "200")
        .env("NCOMPLETE_RETRIES", "2");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

#[test]
fn generated_python_is_ruff_clean() {
    if !ruff_available() {
        return;
    }
    // Suites, with the model of an on-the-fly tester where one is rendered too.
    let suites = [
        (root().join("tests/fixtures/coffee.suite.json"), None),
        (
            root().join("tests/fixtures/mealy.suite.json"),
            Some(fixture("toggle.dot")),
        ),
        (root().join("generated/coffeemachine/suite.json"), None),
        (
            root().join("generated/tea_machine/suite.json"),
            Some(root().join("models/tea_machine.dot").display().to_string()),
        ),
    ];
    for (k, (suite, spec)) in suites.iter().enumerate() {
        let dir = work_dir(&format!("ruff-{k}"));
        match spec {
            Some(spec) => render_with(suite, "python", &dir, &["--explore-spec", spec]),
            None => render(suite, "python", &dir),
        }
        for args in [
            &["format", "--check", "--isolated"][..],
            &["check", "--isolated"],
        ] {
            let out = Command::new("python3")
                .args(["-m", "ruff"])
                .args(args)
                .arg(&dir)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "ruff {args:?} on {}:\n{}",
                suite.display(),
                text(&out)
            );
        }
    }
}

#[test]
fn a_system_that_cannot_start_is_one_setup_error_in_pytest() {
    if !common::pytest_available("pytest setup errors") {
        return;
    }
    let dir = work_dir("pytest-cannot-start");
    render(Path::new(&fixture("coffee.suite.json")), "python", &dir);
    for (env, reason) in [
        (
            vec![],
            "NCOMPLETE_SUT_COFFEE_DELUXE (or NCOMPLETE_SUT) is not set",
        ),
        (
            vec![("NCOMPLETE_SUT", "ncomplete-no-such-command-xyz")],
            "cannot start `ncomplete-no-such-command-xyz`: the system exited with status 127",
        ),
    ] {
        let out = pytest(&dir, &env, &[]);
        let report = text(&out);
        // pytest's usage-error status, one message, and no test run or failed.
        assert_eq!(out.status.code(), Some(4), "{report}");
        assert_eq!(report.matches(reason).count(), 1, "{report}");
        assert!(
            !report.contains("FAILED") && !report.contains("PASSED"),
            "{report}"
        );
    }
}

#[test]
fn inconclusive_is_skipped_in_pytest_unless_strict_and_markers_select_by_first_input() {
    if !common::pytest_available("pytest inconclusive and markers") {
        return;
    }
    let dir = work_dir("pytest-inconclusive");
    let suite = retry_only_suite(&dir);
    let programs = dir.join("python");
    render(&suite, "python", &programs);
    let sut = coffee_sut();
    let out = pytest(&programs, &[("NCOMPLETE_SUT", &sut)], &[]);
    let report = text(&out);
    assert!(out.status.success(), "{report}");
    assert!(report.contains("3 passed, 1 skipped"), "{report}");
    assert!(
        report.contains("t0001 inconclusive: all 3 attempts ended in retry"),
        "{report}"
    );
    let strict = pytest(
        &programs,
        &[("NCOMPLETE_SUT", &sut), ("NCOMPLETE_STRICT", "1")],
        &[],
    );
    let report = text(&strict);
    assert_eq!(strict.status.code(), Some(1), "{report}");
    assert!(report.contains("1 failed, 3 passed"), "{report}");
    assert!(
        report.contains("FAILED test_coffee_deluxe.py::test_t0001"),
        "{report}"
    );
    // Selection by marker arguments needs pytest 8.3 or later.
    let version = Command::new("python3")
        .args(["-c", "import pytest; print(pytest.__version__)"])
        .output()
        .unwrap();
    let version = String::from_utf8_lossy(&version.stdout).trim().to_owned();
    let parts: Vec<u32> = version
        .split('.')
        .take(2)
        .map(|p| p.parse().unwrap_or(0))
        .collect();
    if parts.as_slice() < [8, 3].as_slice() {
        eprintln!("SKIPPED: marker selection needs pytest 8.3 (found {version})");
        return;
    }
    let selected = pytest(
        &programs,
        &[("NCOMPLETE_SUT", &sut)],
        &["-m", "ncomplete(first_input='button')"],
    );
    let report = text(&selected);
    assert!(selected.status.success(), "{report}");
    assert!(report.contains("1 passed, 3 deselected"), "{report}");
    assert!(
        report.contains("PASSED test_coffee_deluxe.py::test_t0002"),
        "{report}"
    );
}

fn cargo(package: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let target = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("e2e-rust-target");
    let mut cmd = Command::new(env!("CARGO"));
    cmd.args(args)
        .current_dir(package)
        .env("CARGO_TARGET_DIR", target)
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("RUSTC_WRAPPER")
        .env_remove("NCOMPLETE_STRICT")
        .env("NCOMPLETE_QUIESCENCE_MS", "300")
        .env("NCOMPLETE_STARTUP_MS", "200")
        .env("NCOMPLETE_RETRIES", "2");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

#[test]
fn generated_rust_passes_clippy_and_treats_inconclusive_as_pytest_does() {
    let dir = work_dir("cargo-inconclusive");
    let suite = retry_only_suite(&dir);
    let package = dir.join("rust");
    // With the on-the-fly tester, which clippy checks too.
    render_with(
        &suite,
        "rust",
        &package,
        &["--explore-spec", &fixture("coffee.aut")],
    );
    let clippy_installed = Command::new(env!("CARGO"))
        .args(["clippy", "--version"])
        .output()
        .is_ok_and(|o| o.status.success());
    if clippy_installed {
        let out = cargo(
            &package,
            &[
                "clippy",
                "--offline",
                "--all-targets",
                "--",
                "-D",
                "warnings",
            ],
            &[],
        );
        assert!(out.status.success(), "clippy:\n{}", text(&out));
    } else {
        eprintln!("SKIPPED: clippy on the generated package: cargo clippy is not installed");
    }
    let sut = coffee_sut();
    let run = ["test", "--offline", "--test", "suite"];
    let out = cargo(&package, &run, &[("NCOMPLETE_SUT", &sut)]);
    let report = text(&out);
    assert!(out.status.success(), "{report}");
    assert!(
        report.contains("ncomplete: t0001 inconclusive: all 3 attempts ended in retry"),
        "{report}"
    );
    let strict = cargo(
        &package,
        &run,
        &[("NCOMPLETE_SUT", &sut), ("NCOMPLETE_STRICT", "1")],
    );
    let report = text(&strict);
    assert!(!strict.status.success(), "{report}");
    assert!(report.contains("test t0001 ... FAILED"), "{report}");
    assert!(report.contains("3 passed; 1 failed"), "{report}");
}
