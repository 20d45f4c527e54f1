//! How ncomplete reaches its users and what its test script tells them: `scripts/test` names the
//! parts that skipped themselves (`scripts/skipped-parts`); the composite GitHub Action's steps
//! (`action.yml`) install, generate and run as a runner would execute them; the Dockerfile, which
//! no Docker engine builds here, installs what `scripts/install-smt` installs. The wheel is
//! tested by `scripts/wheel-test` and the pre-commit hooks by `tests/examples.rs`.

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

/// `PATH` with this build's `ncomplete` first.
fn path_with_ncomplete() -> String {
    let bin = Path::new(env!("CARGO_BIN_EXE_ncomplete")).parent().unwrap();
    format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

/// Runs the steps of `action.yml` as a GitHub runner runs a composite action's `run` steps
/// (`bash --noprofile --norc -eo pipefail`, each step's `env` with `${{ inputs.X }}` replaced by
/// `inputs` or the input's default), until one fails: the failing step's name (`None`: all
/// passed), and what the steps wrote to `GITHUB_OUTPUT`.
fn run_action(work: &Path, inputs: &[(&str, &str)]) -> (Option<String>, String) {
    let text = std::fs::read_to_string(common::root().join("action.yml")).unwrap();
    let action: serde_yaml_ng::Value = serde_yaml_ng::from_str(&text).unwrap();
    let input = |name: &str| -> String {
        inputs
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| (*v).to_owned())
            .unwrap_or_else(|| {
                let default = &action["inputs"][name]["default"];
                assert!(
                    !default.is_null(),
                    "input {name} is declared with a default"
                );
                default.as_str().unwrap().to_owned()
            })
    };
    let output = work.join("github-output");
    std::fs::write(&output, "").unwrap();
    for step in action["runs"]["steps"].as_sequence().unwrap() {
        let Some(script) = step["run"].as_str() else {
            continue;
        };
        assert_eq!(step["shell"].as_str(), Some("bash"));
        let file = work.join("step.sh");
        std::fs::write(&file, script).unwrap();
        let mut cmd = Command::new("bash");
        cmd.args(["--noprofile", "--norc", "-eo", "pipefail"])
            .arg(&file)
            .current_dir(work)
            .env("PATH", path_with_ncomplete())
            .env("GITHUB_ACTION_PATH", common::root())
            .env("GITHUB_OUTPUT", &output)
            .env("GITHUB_PATH", work.join("github-path"));
        if let Some(env) = step["env"].as_mapping() {
            for (key, value) in env {
                let value = value.as_str().unwrap();
                let name = value
                    .strip_prefix("${{ inputs.")
                    .and_then(|v| v.strip_suffix(" }}"))
                    .unwrap_or_else(|| panic!("an input: {value}"));
                cmd.env(key.as_str().unwrap(), input(name));
            }
        }
        let out = cmd.output().unwrap();
        if !out.status.success() {
            return (
                Some(step["name"].as_str().unwrap().to_owned()),
                std::fs::read_to_string(&output).unwrap(),
            );
        }
    }
    (None, std::fs::read_to_string(&output).unwrap())
}

#[test]
fn the_github_action_generates_and_runs_a_suite() {
    let work = common::work_dir("github-action");
    let suite = work.join("suite.json");
    let suite = suite.to_str().unwrap();
    let spec = common::fixture("toggle.dot");
    let sut = |model: &str| format!("ncomplete simulate '{}'", common::fixture(model));
    let (failed, outputs) = run_action(
        &work,
        &[
            ("model", &spec),
            ("generate-args", "--extra-states 1 --quiet"),
            ("suite", suite),
            ("sut", &sut("toggle.dot")),
        ],
    );
    assert_eq!(failed, None);
    assert_eq!(outputs, format!("suite={suite}\n"));
    assert!(
        std::fs::read_to_string(suite)
            .unwrap()
            .contains("\"tests\"")
    );
    // A faulty system fails the run step.
    let (failed, _) = run_action(
        &work,
        &[
            ("model", &spec),
            ("generate-args", "--extra-states 1 --quiet"),
            ("suite", suite),
            ("sut", &sut("toggle-faulty.dot")),
        ],
    );
    assert_eq!(failed.as_deref(), Some("Run the suite against the system"));
    // Without a model the action only installs.
    assert_eq!(run_action(&work, &[]), (None, String::new()));
}

/// The Dockerfile cannot be built here (no Docker engine); its build stage installs what
/// `scripts/install-smt` installs, and the build context leaves out `target/`.
#[test]
fn the_dockerfile_installs_what_the_smt_script_does() {
    let docker = std::fs::read_to_string(common::root().join("Dockerfile")).unwrap();
    let script = std::fs::read_to_string(common::root().join("scripts/install-smt")).unwrap();
    let packages = script
        .lines()
        .find_map(|l| l.trim().strip_prefix("for package in "))
        .and_then(|l| l.strip_suffix("; do"))
        .expect("the package loop of install-smt");
    for package in packages.split_whitespace() {
        assert!(
            docker.contains(&format!(" {package}")),
            "the Dockerfile installs {package}"
        );
    }
    assert!(docker.contains("cargo install --locked --path . --features smt"));
    let ignore = std::fs::read_to_string(common::root().join(".dockerignore")).unwrap();
    assert!(ignore.lines().any(|l| l == "target/"));
}

/// The Dockerfile's `COPY` lines name what exists: a source from the build context is a file of
/// the repository, and one `--from` a stage names the binary where that stage's `cargo install
/// --root` puts it; the final stage's entry point is that binary, on the image's `PATH`.
#[test]
fn the_dockerfiles_copies_name_what_exists() {
    let docker = std::fs::read_to_string(common::root().join("Dockerfile")).unwrap();
    let mut stages = Vec::new();
    let mut copies = 0;
    for line in docker.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["FROM", _, "AS", name] => stages.push(*name),
            ["COPY", args @ .., destination] => {
                copies += 1;
                let (from, sources) = match args.split_first() {
                    Some((first, rest)) if first.starts_with("--from=") => {
                        (first.strip_prefix("--from="), rest)
                    }
                    _ => (None, args),
                };
                for source in sources {
                    match from {
                        None => assert!(
                            common::root().join(source).exists(),
                            "COPY {source}: no such file in the repository"
                        ),
                        Some(stage) => {
                            assert!(
                                stages.contains(&stage),
                                "COPY --from={stage}: no such stage"
                            );
                            let root = source.strip_suffix("/bin/ncomplete").unwrap_or_else(|| {
                                panic!("COPY --from={stage} {source}: not an installed binary")
                            });
                            assert!(
                                docker.contains(&format!("--root {root}")),
                                "COPY --from={stage} {source}: the stage installs elsewhere"
                            );
                            assert_eq!(*destination, "/usr/local/bin/ncomplete");
                        }
                    }
                }
            }
            _ => {}
        }
    }
    assert!(copies >= 2, "the Dockerfile's COPY lines were found");
    assert!(docker.contains("ENTRYPOINT [\"ncomplete\"]"));
}
