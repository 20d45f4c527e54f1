//! End to end: the on-the-fly tester of a Python rendering (`render --explore-spec`), run
//! against `ncomplete simulate` of the bundled vending and tea models (it passes, covering the
//! specification) and of their non-conforming mutants from `ncomplete mutate` (it fails with the
//! unexpected output and the trace).
//!
//! Needs pytest (the tester uses the pytest runtime's adapter): `scripts/test` installs it;
//! locally, a missing pytest skips the test with a message, under `CI=true` it is an error.

mod common;

use common::{root, work_dir};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_ncomplete");

/// The bundled models: file and identifier of the rendering.
const MODELS: &[(&str, &str)] = &[
    ("vending.aut", "vending"),
    ("tea_machine.dot", "tea_machine"),
];

fn model(name: &str) -> PathBuf {
    root().join("models").join(name)
}

fn ncomplete(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().unwrap()
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Generates a small suite of `name` and renders it with its on-the-fly tester into `dir`.
fn render_with_explorer(name: &str, dir: &Path) {
    let suite = dir.join("suite.json");
    let spec = model(name);
    let out = ncomplete(&[
        "generate",
        spec.to_str().unwrap(),
        "--method",
        "unconditional",
        "--n",
        "1",
        "--format",
        "json",
        "--quiet",
        "--out",
        suite.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let program = dir.join("py");
    let out = ncomplete(&[
        "render",
        suite.to_str().unwrap(),
        "--format",
        "python",
        "--quiet",
        "--out",
        program.to_str().unwrap(),
        "--explore-spec",
        spec.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out));
}

/// Runs the tester of `ident` in `dir` against `simulate SYSTEM`, which chooses among its
/// outputs and quiescence at random with a fixed seed (so a mutant's fault shows where it is a
/// choice) and delays its outputs by 100 ms (so the tester's inputs can overtake them, as in
/// e2e_programs).
fn explore(dir: &Path, ident: &str, system: &Path, steps: u32) -> Output {
    let sut = format!(
        "'{BIN}' simulate '{}' --choose random --seed 1 --delay-ms 100",
        system.display()
    );
    Command::new("python3")
        .arg(format!("explore_{ident}.py"))
        .args([
            "--steps",
            &steps.to_string(),
            "--seed",
            "7",
            "--reset",
            "0.1",
        ])
        .current_dir(dir.join("py"))
        .env("NCOMPLETE_SUT", sut)
        .env("NCOMPLETE_QUIESCENCE_MS", "300")
        .env("NCOMPLETE_STARTUP_MS", "200")
        .env("NCOMPLETE_RESPONSE_MS", "2000")
        .output()
        .unwrap()
}

/// The numbers of a line `what covered: K/N`.
fn covered(out: &str, what: &str) -> (usize, usize) {
    let line = out
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{what} covered: ")))
        .unwrap_or_else(|| panic!("no {what} coverage in {out}"));
    let (k, n) = line.split_once('/').unwrap();
    (k.parse().unwrap(), n.parse().unwrap())
}

#[test]
fn python_explorer_passes_the_models_and_fails_their_mutants() {
    if !common::pytest_available("Python on-the-fly test") {
        return;
    }
    for &(name, ident) in MODELS {
        let dir = work_dir(&format!("explore-python-{ident}"));
        render_with_explorer(name, &dir);
        let good = explore(&dir, ident, &model(name), 80);
        let out = text(&good);
        assert_eq!(good.status.code(), Some(0), "{name}: {out}");
        assert!(out.contains("pass: 80 steps"), "{name}: {out}");
        let (states, all_states) = covered(&out, "states");
        let (transitions, all_transitions) = covered(&out, "transitions");
        assert_eq!(states, all_states, "{name}: {out}");
        assert!(transitions * 2 > all_transitions, "{name}: {out}");

        let mutants = dir.join("mutants");
        let out = ncomplete(&[
            "mutate",
            model(name).to_str().unwrap(),
            "--extra-states",
            "0",
            "--count",
            "4",
            "--quiet",
            "--out",
            mutants.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", text(&out));
        let index: serde_json::Value =
            serde_json::from_slice(&std::fs::read(mutants.join("index.json")).unwrap()).unwrap();
        let mut non_conforming = 0;
        for m in index["mutants"].as_array().unwrap() {
            let file = mutants.join(m["file"].as_str().unwrap());
            let run = explore(&dir, ident, &file, 200);
            let out = text(&run);
            if m["conforms"].as_bool().unwrap() {
                assert_eq!(run.status.code(), Some(0), "{}: {out}", file.display());
                continue;
            }
            non_conforming += 1;
            assert_eq!(run.status.code(), Some(1), "{}: {out}", file.display());
            assert!(out.contains("fail: unexpected "), "{out}");
            assert!(out.contains("\ntrace: "), "{out}");
        }
        assert!(
            non_conforming > 0,
            "{name}: mutate gave no non-conforming mutant"
        );
    }
}

#[test]
fn explore_spec_needs_the_python_format() {
    let dir = work_dir("explore-python-format");
    let out = ncomplete(&[
        "render",
        &common::fixture("coffee.suite.json"),
        "--format",
        "rust",
        "--out",
        dir.join("rs").to_str().unwrap(),
        "--explore-spec",
        &common::fixture("coffee.aut"),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("--explore-spec needs --format python"));
}

/// The tester's choices are a function of `--seed`: against a system that never writes (every
/// wait observes quiescence), the same seed gives the same verdict and trace, and the run fails
/// where the specification requires an output.
#[test]
fn python_explorer_choices_follow_the_seed() {
    if !common::pytest_available("Python on-the-fly test") {
        return;
    }
    let dir = work_dir("explore-python-seed");
    render_with_explorer("vending.aut", &dir);
    let script = r#"
import random
from explore_vending import explore
from ncomplete_runtime import Adapter, Timeouts

class Silent(Adapter):
    def reset(self):
        pass
    def send(self, label):
        pass
    def receive(self, timeout):
        return None

settings = Timeouts(startup=0, quiescence=1, response=1)
runs = [explore(Silent(), 500, random.Random(seed), settings)[:3] for seed in (4, 4, 9)]
assert runs[0] == runs[1], runs
print(runs[0][0])
print(runs[0][2])
"#;
    let out = Command::new("python3")
        .args(["-c", script])
        .current_dir(dir.join("py"))
        .output()
        .unwrap();
    let text = text(&out);
    assert!(out.status.success(), "{text}");
    assert!(
        text.starts_with("fail\nunexpected delta (allowed: !"),
        "{text}"
    );
}
