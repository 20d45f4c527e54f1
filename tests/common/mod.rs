//! Helpers shared by the integration tests that run generated programs (each test crate uses
//! some of them).
#![allow(dead_code)]

pub mod browser;
pub mod suite_json;
pub mod titan;

use std::path::{Path, PathBuf};
use std::process::Command;

/// The crate's root directory.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The path of a file under `tests/fixtures`.
pub fn fixture(name: &str) -> String {
    root()
        .join("tests/fixtures")
        .join(name)
        .display()
        .to_string()
}

/// A fresh, empty scratch directory `name` under Cargo's temporary directory for tests.
pub fn work_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Whether `python3` can import pytest. Under CI (`CI` set to `true` or `1`) a missing pytest
/// fails the test, since CI must run the Python programs; elsewhere `what` is reported as
/// skipped.
pub fn pytest_available(what: &str) -> bool {
    let ok = Command::new("python3")
        .args(["-c", "import pytest"])
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
        assert!(
            !ci,
            "pytest is not installed, but CI must run the Python programs: run scripts/test, which \
             installs requirements-test.txt"
        );
        eprintln!(
            "SKIPPED: {what}: pytest cannot be imported (python3 -m pip install -r \
             requirements-test.txt)"
        );
    }
    ok
}

/// Runs the `ncomplete` binary with `args`: its exit status (-1 when killed), standard output
/// and standard error.
pub fn run(args: &[&str]) -> (i32, String, String) {
    run_in(Path::new("."), args)
}

/// [`run`] in the directory `dir`.
pub fn run_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ncomplete"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Copies a directory tree, leaving out Python's caches (programs are run from a copy, as runs
/// leave files behind).
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if name == "__pycache__" || name == ".pytest_cache" {
            continue;
        }
        let target = to.join(&name);
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}
