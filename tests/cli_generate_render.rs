//! `generate --format ttcn|python|rust` in one step: the suite JSON lands in `--out DIR` beside
//! the rendered programs, which equal what `render` makes of that JSON.

use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_ncomplete");

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("cli_generate_render")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn model(name: &str) -> String {
    format!("{}/models/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn ncomplete(args: &[&str]) -> std::process::Output {
    Command::new(BIN).args(args).output().unwrap()
}

/// Every file below `dir` but the output marker, relative, with its contents, sorted.
fn files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let p = entry.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.file_name() == Some(ncomplete::output::DIR_MARKER.as_ref()) {
                // The marker lists what each command wrote (here, with or without suite.json).
            } else {
                out.push((
                    p.strip_prefix(dir).unwrap().to_path_buf(),
                    std::fs::read(&p).unwrap(),
                ));
            }
        }
    }
    out.sort();
    out
}

fn check(model_file: &str, method: &str, bound: &[&str], format: &str) {
    let one_step = scratch(&format!("{model_file}-{format}-one"));
    let model_path = model(model_file);
    let mut args = vec!["generate", &model_path, "--method", method];
    args.extend_from_slice(bound);
    let out = one_step.display().to_string();
    args.extend_from_slice(&["--format", format, "--out", &out, "--quiet"]);
    let o = ncomplete(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let suite = one_step.join("suite.json");
    assert!(suite.exists());

    let two_steps = scratch(&format!("{model_file}-{format}-two"));
    let rendered = two_steps.display().to_string();
    let o = ncomplete(&[
        "render",
        &suite.display().to_string(),
        "--format",
        format,
        "--out",
        &rendered,
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut expected = files(&two_steps);
    expected.push((PathBuf::from("suite.json"), std::fs::read(&suite).unwrap()));
    expected.sort();
    assert_eq!(files(&one_step), expected);
    assert!(
        expected.len() >= 2,
        "suite.json and at least one rendered file"
    );
}

#[test]
fn mealy_suite_rendered_as_python_in_one_step() {
    check(
        "coffeemachine.dot",
        "hads",
        &["--extra-states", "1"],
        "python",
    );
}

#[test]
fn ioco_suite_rendered_as_rust_and_ttcn_in_one_step() {
    check(
        "tea_machine.dot",
        "ioco-ads",
        &["--extra-states", "0"],
        "rust",
    );
    check(
        "tea_machine.dot",
        "ioco-ads",
        &["--extra-states", "0"],
        "ttcn",
    );
}

#[test]
fn rendering_needs_an_output_directory() {
    let o = ncomplete(&["generate", &model("coffeemachine.dot"), "--format", "ttcn"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--out DIR"));
}
