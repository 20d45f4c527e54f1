//! How ncomplete reaches its users and what its test script tells them: `scripts/test` names the
//! parts that skipped themselves (`scripts/skipped-parts`), ...

mod common;

use std::path::Path;
use std::process::Command;

/// A directory holding only `bash` and the given tools (each a script that exits 0), for a
/// `PATH` on which exactly those tools are found.
fn bin_with(dir: &Path, tools: &[&str]) -> String {
    std::fs::create_dir_all(dir).unwrap();
    let bash = which("bash");
    std::os::unix::fs::symlink(bash, dir.join("bash")).unwrap();
    for tool in tools {
        let path = dir.join(tool);
        std::fs::write(&path, "#!/bin/sh\nexit 0\n").unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    dir.display().to_string()
}

fn which(tool: &str) -> String {
    let out = Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .output()
        .unwrap();
    assert!(out.status.success(), "{tool} is on PATH");
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

fn skipped_parts(path: &str, args: &[&str]) -> String {
    let out = Command::new(common::root().join("scripts/skipped-parts"))
        .args(args)
        .env("PATH", path)
        .output()
        .unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stderr).unwrap()
}

#[test]
fn the_test_script_names_the_parts_it_skipped() {
    let work = common::work_dir("skipped-parts");
    let bare = bin_with(&work.join("bare"), &[]);
    let said = skipped_parts(&bare, &["--no-smt"]);
    let lines: Vec<&str> = said.lines().collect();
    assert_eq!(lines.len(), 3, "{said}");
    for part in ["Eclipse Titan", "Chromium", "smt feature"] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("scripts/test: SKIPPED: ") && l.contains(part)),
            "{part}: {said}"
        );
    }
    let full = bin_with(
        &work.join("full"),
        &["compiler", "ttcn3_makefilegen", "chromium"],
    );
    assert_eq!(
        skipped_parts(&full, &[]),
        "scripts/test: all parts ran (Titan, Chromium and the smt feature present)\n"
    );
    // Titan needs both of its tools.
    let half = bin_with(&work.join("half"), &["compiler", "chromium-browser"]);
    let said = skipped_parts(&half, &[]);
    assert!(
        said.contains("Eclipse Titan") && !said.contains("Chromium"),
        "{said}"
    );
}
