//! Headless Chromium for the tests of the HTML reports: find the browser, load a page, dump its
//! DOM or take a screenshot into `target/test-artifacts`. Where no Chromium is installed the
//! tests skip their browser part with a message; `.ci/run` installs it.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The Chromium binary, if one is installed; otherwise prints that `what` is skipped.
pub fn chromium(what: &str) -> Option<&'static str> {
    let found = ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|name| {
            Command::new(name)
                .arg("--version")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        });
    if found.is_none() {
        eprintln!(
            "SKIPPED: {what} in a browser: Chromium is not installed \
             (apt-get install chromium; .ci/run installs it)"
        );
    }
    found
}

/// Runs headless Chromium on `page` with `extra` arguments (a fresh profile, no network
/// services), killed after a minute; returns its standard output.
pub fn headless(browser: &str, page: &Path, profile: &Path, extra: &[&str]) -> String {
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(format!("file://{}", page.display()))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut text).ok();
        text
    });
    let deadline = Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            child.kill().ok();
            panic!("headless Chromium did not finish within a minute");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    reader.join().unwrap()
}

/// Takes a screenshot of `page` into `target/test-artifacts/NAME` and checks it is a PNG of
/// some substance; returns its path.
pub fn screenshot(browser: &str, page: &Path, profile: &Path, name: &str) -> PathBuf {
    let shot = artifacts().join(name);
    std::fs::remove_file(&shot).ok();
    headless(
        browser,
        page,
        profile,
        &[
            &format!("--screenshot={}", shot.display()),
            "--window-size=1280,2000",
        ],
    );
    let png = std::fs::read(&shot).expect("Chromium wrote the screenshot");
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n") && png.len() > 20_000);
    eprintln!("screenshot of the report: {}", shot.display());
    shot
}

/// Where test artifacts are kept: `target/test-artifacts`.
pub fn artifacts() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .join("test-artifacts");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
