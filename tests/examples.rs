//! The worked projects of `examples/`, end to end, as a user would run them: the pre-commit hook
//! finds the committed suite and renderings current (and stale after a model edit), also when
//! installed in a Git repository as its header says and through the pre-commit framework
//! (`.pre-commit-hooks.yaml`), every CI shard of the committed tests passes against the example's
//! system, the system with its fault fails them, and the GitHub Actions workflow runs exactly the
//! committed shards.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// An example project: its directory, model file, and the environment variable that switches
/// its system's fault on.
struct Example {
    dir: &'static str,
    model: &'static str,
    fault: (&'static str, &'static str),
    /// Whether its workflow sets `NCOMPLETE_STRICT=1` (an inconclusive test fails): not where
    /// the system can never take a branch some test needs.
    strict: bool,
}

const EXAMPLES: [Example; 2] = [
    Example {
        dir: "login-mealy",
        model: "login.dot",
        fault: ("LOGIN_BUG", "third-strike"),
        strict: true,
    },
    Example {
        dir: "vending-lts",
        model: "vending.aut",
        fault: ("VENDING_BUG", "swap"),
        // Its system writes `!coffee` and `!change` at once, so a test that sends `?coin`
        // between them always sees the change overtake the coin: inconclusive, never a pass.
        strict: false,
    },
];

fn example_dir(example: &Example) -> PathBuf {
    common::root().join("examples").join(example.dir)
}

/// `PATH` with the directory of the `ncomplete` binary under test first, so the examples'
/// scripts call this build.
fn path_with_ncomplete() -> String {
    let bin = Path::new(env!("CARGO_BIN_EXE_ncomplete"))
        .parent()
        .expect("binary directory")
        .display()
        .to_string();
    match std::env::var("PATH") {
        Ok(path) => format!("{bin}:{path}"),
        Err(_) => bin,
    }
}

fn pre_commit(dir: &Path) -> Output {
    Command::new(dir.join("pre-commit"))
        .env("PATH", path_with_ncomplete())
        .current_dir(dir)
        .output()
        .unwrap()
}

/// The shard directories of the committed rendering, in order.
fn shards(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir.join("tests"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("shard-"))
        .collect();
    names.sort();
    names
}

fn pytest_shard(example: &Example, dir: &Path, shard: &str, fault: Option<(&str, &str)>) -> Output {
    let mut cmd = Command::new("python3");
    cmd.args(["-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider"])
        .arg(format!("tests/{shard}"))
        .current_dir(dir)
        .env("NCOMPLETE_SUT", "python3 sut.py")
        .env("NCOMPLETE_STRICT", if example.strict { "1" } else { "0" })
        .env("PYTHONDONTWRITEBYTECODE", "1");
    if let Some((var, value)) = fault {
        cmd.env(var, value);
    }
    cmd.output().unwrap()
}

#[test]
fn committed_tests_are_current_and_the_hook_catches_drift() {
    for example in &EXAMPLES {
        let work = common::work_dir(&format!("example-hook-{}", example.dir));
        common::copy_tree(&example_dir(example), &work);
        let out = pre_commit(&work);
        assert!(
            out.status.success(),
            "{}: the committed suite is stale (run examples/{}/regenerate): {}",
            example.dir,
            example.dir,
            String::from_utf8_lossy(&out.stderr)
        );
        // A model edit without regenerating: the hook must refuse the commit.
        edit_model(example, &work);
        let out = pre_commit(&work);
        assert!(
            !out.status.success(),
            "{}: the hook accepted a stale suite",
            example.dir
        );
        assert!(String::from_utf8_lossy(&out.stderr).contains("stale"));
    }
}

#[test]
fn every_shard_passes_the_system_and_fails_its_fault() {
    if !common::pytest_available("examples end to end") {
        return;
    }
    // The vending machine refunds a coin spontaneously, so its refund races with the tester's
    // next input: its shards pass only because the runtime reads such a refund both ways.
    for example in &EXAMPLES {
        let dir = common::work_dir(&format!("example-run-{}", example.dir));
        common::copy_tree(&example_dir(example), &dir);
        let names = shards(&dir);
        assert_eq!(names, ["shard-1", "shard-2"], "{}", example.dir);
        let mut failed_with_fault = 0;
        for shard in &names {
            let out = pytest_shard(example, &dir, shard, None);
            assert!(
                out.status.success(),
                "{} {shard} fails the correct system:\n{}",
                example.dir,
                String::from_utf8_lossy(&out.stdout)
            );
            let out = pytest_shard(example, &dir, shard, Some(example.fault));
            if out.status.code() == Some(1) {
                failed_with_fault += 1;
            }
        }
        assert!(
            failed_with_fault > 0,
            "{}: no shard caught the fault {}={}",
            example.dir,
            example.fault.0,
            example.fault.1
        );
    }
}

#[test]
fn the_workflow_runs_every_committed_shard() {
    for example in &EXAMPLES {
        let dir = example_dir(example);
        let path = dir.join(".github/workflows/conformance.yml");
        let text = std::fs::read_to_string(&path).unwrap();
        let workflow: serde_yaml_ng::Value = serde_yaml_ng::from_str(&text).unwrap();
        let job = &workflow["jobs"]["conformance"];
        let matrix: Vec<String> = job["strategy"]["matrix"]["shard"]
            .as_sequence()
            .expect("a shard matrix")
            .iter()
            .map(|v| format!("shard-{}", v.as_u64().expect("shard number")))
            .collect();
        assert_eq!(matrix, shards(&dir), "{}: matrix and shards", example.dir);
        let runs: Vec<&str> = job["steps"]
            .as_sequence()
            .unwrap()
            .iter()
            .filter_map(|s| s["run"].as_str())
            .collect();
        assert!(
            runs.iter()
                .any(|r| r.contains("pytest") && r.contains("tests/shard-${{ matrix.shard }}")),
            "{}: the workflow runs the shard of its job: {runs:?}",
            example.dir
        );
        let sut = job["steps"]
            .as_sequence()
            .unwrap()
            .iter()
            .find_map(|s| s["env"]["NCOMPLETE_SUT"].as_str());
        assert_eq!(sut, Some("python3 sut.py"), "{}", example.dir);
        let strict = job["steps"]
            .as_sequence()
            .unwrap()
            .iter()
            .find_map(|s| s["env"]["NCOMPLETE_STRICT"].as_str());
        assert_eq!(
            strict,
            example.strict.then_some("1"),
            "{}: the workflow is as strict as the test",
            example.dir
        );
    }
}

/// Runs `git` in `dir` with a fixed identity and without the user's or the system's
/// configuration, and `PATH` reaching this build's `ncomplete` (the hooks call it).
fn git(dir: &Path, args: &[&str]) -> Output {
    Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("PATH", path_with_ncomplete())
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "ncomplete tests")
        .env("GIT_AUTHOR_EMAIL", "tests@ncomplete.invalid")
        .env("GIT_COMMITTER_NAME", "ncomplete tests")
        .env("GIT_COMMITTER_EMAIL", "tests@ncomplete.invalid")
        .env("PRE_COMMIT_HOME", dir.join(".pre-commit-home"))
        .output()
        .unwrap()
}

fn git_ok(dir: &Path, args: &[&str]) -> Output {
    let out = git(dir, args);
    assert!(
        out.status.success(),
        "git {args:?} in {}: {}{}",
        dir.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// A model edit of `example` that changes its suite (the hook must then refuse the commit).
fn edit_model(example: &Example, dir: &Path) {
    let model = dir.join(example.model);
    let text = std::fs::read_to_string(&model).unwrap();
    let edited = match example.model.rsplit('.').next() {
        Some("dot") => text.replace("READ / data", "READ / denied"),
        _ => text.replace("(5, \"!tea\", 6)", "(5, \"!coffee\", 6)"),
    };
    assert_ne!(edited, text, "{}: the edit changes the model", example.dir);
    std::fs::write(&model, edited).unwrap();
}

#[test]
fn the_hook_installed_as_its_header_says_guards_commits() {
    for example in &EXAMPLES {
        let repo = common::work_dir(&format!("example-git-hook-{}", example.dir));
        common::copy_tree(&example_dir(example), &repo);
        git_ok(&repo, &["init", "--quiet"]);
        // The header's instruction, run from the project root.
        std::os::unix::fs::symlink("../../pre-commit", repo.join(".git/hooks/pre-commit")).unwrap();
        git_ok(&repo, &["add", "-A"]);
        git_ok(&repo, &["commit", "--quiet", "-m", "the committed suite"]);
        edit_model(example, &repo);
        let out = git(
            &repo,
            &["commit", "--quiet", "-a", "-m", "a model edit alone"],
        );
        assert!(
            !out.status.success(),
            "{}: the installed hook let a stale suite be committed",
            example.dir
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("generated tests are stale"),
            "{}: {stderr}",
            example.dir
        );
    }
}

/// The hook of `.pre-commit-hooks.yaml` through the pre-commit framework: a project that lists
/// it commits its current suite, and a model edit without regenerating is refused.
#[test]
fn the_pre_commit_framework_runs_the_published_hook() {
    let hooks_text =
        std::fs::read_to_string(common::root().join(".pre-commit-hooks.yaml")).unwrap();
    let hooks: serde_yaml_ng::Value = serde_yaml_ng::from_str(&hooks_text).unwrap();
    let hooks = hooks.as_sequence().expect("a list of hooks");
    let entry_of = |id: &str| {
        hooks
            .iter()
            .find(|h| h["id"].as_str() == Some(id))
            .unwrap_or_else(|| panic!("hook {id}"))["entry"]
            .as_str()
            .unwrap()
            .to_string()
    };
    // The built hook runs what the system hook runs (tested below), with ncomplete from cargo.
    assert_eq!(
        entry_of("ncomplete-regenerate"),
        entry_of("ncomplete-regenerate-system")
    );
    let have = Command::new("pre-commit")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !have {
        let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
        assert!(
            !ci,
            "pre-commit is not installed, but CI must test the hook: run scripts/test"
        );
        eprintln!(
            "SKIPPED: the pre-commit framework: pre-commit is not on PATH (requirements-test.txt)"
        );
        return;
    }
    let hook_repo = common::work_dir("pre-commit-hook-repo");
    std::fs::write(hook_repo.join(".pre-commit-hooks.yaml"), &hooks_text).unwrap();
    git_ok(&hook_repo, &["init", "--quiet"]);
    git_ok(&hook_repo, &["add", "-A"]);
    git_ok(&hook_repo, &["commit", "--quiet", "-m", "hooks"]);
    let rev = String::from_utf8(git_ok(&hook_repo, &["rev-parse", "HEAD"]).stdout).unwrap();

    let example = &EXAMPLES[0];
    let repo = common::work_dir("pre-commit-framework-project");
    common::copy_tree(&example_dir(example), &repo);
    std::fs::write(
        repo.join(".pre-commit-config.yaml"),
        format!(
            "repos:\n  - repo: {}\n    rev: {}\n    hooks:\n      - id: ncomplete-regenerate-system\n        args: [./regenerate]\n",
            hook_repo.display(),
            rev.trim()
        ),
    )
    .unwrap();
    std::fs::write(repo.join(".gitignore"), ".pre-commit-home/\n").unwrap();
    git_ok(&repo, &["init", "--quiet"]);
    let install = Command::new("pre-commit")
        .arg("install")
        .current_dir(&repo)
        .env("PRE_COMMIT_HOME", repo.join(".pre-commit-home"))
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output()
        .unwrap();
    assert!(
        install.status.success(),
        "{}",
        String::from_utf8_lossy(&install.stderr)
    );
    git_ok(&repo, &["add", "-A"]);
    git_ok(&repo, &["commit", "--quiet", "-m", "the committed suite"]);
    edit_model(example, &repo);
    let out = git(&repo, &["commit", "-a", "-m", "a model edit alone"]);
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        !out.status.success(),
        "the framework let a stale suite be committed: {said}"
    );
    assert!(said.contains("files were modified by this hook"), "{said}");
}
