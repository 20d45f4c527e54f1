//! Helpers shared by the integration tests that run generated programs.

use std::process::Command;

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
