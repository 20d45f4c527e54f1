//! `generated/` holds the suites of bundled models, rendered in every format, so that users can
//! read (and CI can run) real generated programs. This test regenerates them into memory and fails
//! on any difference; `UPDATE_GENERATED=1 cargo test --test generated` rewrites them.
//!
//! Covered: the bundled Mealy machine `models/coffeemachine.dot` (`ncomplete generate --method
//! hads --extra-states 1`) and the bundled IOLTS `models/tea_machine.dot` (internal step and
//! quiescence; `--method ioco-complete --extra-states 0`).

use ncomplete::render::{Format, render_suite};
use ncomplete::suite::read_suite;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The files of `generated/<name>/`: the suite JSON written by `ncomplete generate MODEL ARGS`
/// and its renderings.
fn generated_files(model: &str, args: &[&str]) -> Vec<(PathBuf, String)> {
    let out = Command::new(env!("CARGO_BIN_EXE_ncomplete"))
        .arg("generate")
        .arg(root().join("models").join(model))
        .args(args)
        .args(["--out", "-", "--quiet"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "generate {model}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json = String::from_utf8(out.stdout).unwrap();
    let (header, tests) = read_suite(&json).unwrap();
    let mut files = vec![(PathBuf::from("suite.json"), json.clone())];
    for (format, dir) in [
        (Format::Ttcn, "ttcn"),
        (Format::Python, "python"),
        (Format::Rust, "rust"),
    ] {
        for f in render_suite(&header, &tests, format, None).unwrap() {
            files.push((Path::new(dir).join(f.path), f.contents));
        }
    }
    files
}

fn check(name: &str, files: Vec<(PathBuf, String)>) {
    let dir = root().join("generated").join(name);
    let update = std::env::var_os("UPDATE_GENERATED").is_some_and(|v| v == "1");
    let mut problems = Vec::new();
    for (path, contents) in &files {
        let full = dir.join(path);
        if update {
            std::fs::create_dir_all(full.parent().unwrap()).unwrap();
            std::fs::write(&full, contents).unwrap();
        } else {
            match std::fs::read_to_string(&full) {
                Ok(text) if text == *contents => {}
                Ok(_) => problems.push(format!("{} differs", full.display())),
                Err(_) => problems.push(format!("{} is missing", full.display())),
            }
        }
    }
    assert!(
        problems.is_empty(),
        "generated/ is out of date (UPDATE_GENERATED=1 cargo test --test generated, then review):\n{}",
        problems.join("\n")
    );
}

#[test]
fn generated_suites_are_up_to_date() {
    check(
        "coffeemachine",
        generated_files(
            "coffeemachine.dot",
            &["--method", "hads", "--extra-states", "1"],
        ),
    );
    check(
        "tea_machine",
        generated_files(
            "tea_machine.dot",
            &["--method", "ioco-complete", "--extra-states", "0"],
        ),
    );
}
