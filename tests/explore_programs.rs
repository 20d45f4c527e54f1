//! End to end: the on-the-fly testers of the Python and Rust renderings (`render
//! --explore-spec`), run against `ncomplete simulate` of the bundled vending and tea models (they
//! pass, covering the specification) and of their non-conforming mutants from `ncomplete mutate`
//! (they fail with the unexpected output and the trace). The Python tester runs as a script and
//! as a pytest module; the Rust one is the `explore_<model>` binary of the generated package,
//! built offline (std only) in a build directory under Cargo's target directory.
//!
//! The Python runs need pytest (the tester uses the pytest runtime's adapter): `scripts/test`
//! installs it; locally, a missing pytest skips them with a message, under `CI=true` it is an
//! error.

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

/// How a rendered tester is run.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Runner {
    /// `python3 explore_<ident>.py`.
    Script,
    /// `python3 -m pytest explore_<ident>.py`, settings from the environment.
    Pytest,
    /// The package's `explore_<ident>` binary.
    Rust,
}

impl Runner {
    /// The rendering format and the subdirectory it is rendered into.
    fn format(self) -> &'static str {
        match self {
            Runner::Script | Runner::Pytest => "python",
            Runner::Rust => "rust",
        }
    }
}

/// Generates a small suite of `name` and renders it with its on-the-fly tester into
/// `dir/<format>`; for Rust, builds the tester.
fn render_with_explorer(name: &str, ident: &str, dir: &Path, runner: Runner) {
    render_spec_with_explorer(&model(name), ident, dir, runner);
}

/// [`render_with_explorer`] of the specification file `spec`.
fn render_spec_with_explorer(spec: &Path, ident: &str, dir: &Path, runner: Runner) {
    let suite = dir.join("suite.json");
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
    let program = dir.join(runner.format());
    let out = ncomplete(&[
        "render",
        suite.to_str().unwrap(),
        "--format",
        runner.format(),
        "--quiet",
        "--out",
        program.to_str().unwrap(),
        "--explore-spec",
        spec.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    if runner == Runner::Rust {
        let fmt = Command::new("rustfmt")
            .args(["--edition", "2021", "--check"])
            .arg(program.join(format!("src/bin/explore_{ident}/main.rs")))
            .output();
        if let Ok(fmt) = fmt {
            assert!(fmt.status.success(), "not rustfmt-clean:\n{}", text(&fmt));
        }
        let out = Command::new(env!("CARGO"))
            .args(["build", "--offline", "--quiet", "--bin"])
            .arg(format!("explore_{ident}"))
            .current_dir(&program)
            .env("CARGO_TARGET_DIR", rust_target())
            .env("RUSTFLAGS", "-D warnings")
            .env_remove("CARGO_ENCODED_RUSTFLAGS")
            .env_remove("RUSTC_WRAPPER")
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", text(&out));
    }
}

/// The build directory of the generated packages.
fn rust_target() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("explore-rust-target")
}

/// Runs the tester of `ident` in `dir` against `simulate SYSTEM`, which chooses among its
/// outputs and quiescence at random with a fixed seed (so a mutant's fault shows where it is a
/// choice) and delays its outputs by 100 ms (so the tester's inputs can overtake them, as in
/// e2e_programs); `steps` steps, seed 7, resets with probability 0.1.
fn explore(dir: &Path, ident: &str, system: &Path, steps: u32, runner: Runner) -> Output {
    let sut = format!(
        "'{BIN}' simulate '{}' --choose random --seed 1 --delay-ms 100",
        system.display()
    );
    let settings = [
        "--steps",
        &steps.to_string(),
        "--seed",
        "7",
        "--reset",
        "0.1",
    ]
    .map(String::from);
    let mut cmd = match runner {
        Runner::Script => {
            let mut cmd = Command::new("python3");
            cmd.arg(format!("explore_{ident}.py")).args(&settings);
            cmd
        }
        Runner::Pytest => {
            let mut cmd = Command::new("python3");
            cmd.args(["-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider"])
                .arg(format!("explore_{ident}.py"))
                .env("NCOMPLETE_EXPLORE_STEPS", steps.to_string())
                .env("NCOMPLETE_SEED", "7")
                .env("NCOMPLETE_EXPLORE_RESET", "0.1");
            cmd
        }
        Runner::Rust => {
            let mut cmd =
                Command::new(rust_target().join("debug").join(format!("explore_{ident}")));
            cmd.args(&settings);
            cmd
        }
    };
    cmd.current_dir(dir.join(runner.format()))
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

/// Each bundled model's tester, run by `runner`, passes against the model (every state covered,
/// more than half of the transitions) and against every conforming mutant and every mutant whose
/// fault the input/output race hides, and fails every other one with the unexpected output and
/// the trace.
fn passes_the_models_and_fails_their_mutants(runner: Runner) {
    // The verdict lines as each runner reports them.
    let (passed, failed, trace) = match runner {
        Runner::Pytest => ("1 passed", "FAILED explore_", "\ntrace: "),
        _ => ("pass: 80 steps", "fail: ", "\ntrace: "),
    };
    for &(name, ident) in MODELS {
        let dir = work_dir(&format!("explore-{runner:?}-{ident}"));
        render_with_explorer(name, ident, &dir, runner);
        let good = explore(&dir, ident, &model(name), 80, runner);
        let out = text(&good);
        assert_eq!(good.status.code(), Some(0), "{name}: {out}");
        assert!(out.contains(passed), "{name}: {out}");
        if runner != Runner::Pytest {
            let (states, all_states) = covered(&out, "states");
            let (transitions, all_transitions) = covered(&out, "transitions");
            assert_eq!(states, all_states, "{name}: {out}");
            assert!(transitions * 2 > all_transitions, "{name}: {out}");
        }

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
        let (mut observable, mut hidden) = (0, 0);
        for m in index["mutants"].as_array().unwrap() {
            let file = mutants.join(m["file"].as_str().unwrap());
            let run = explore(&dir, ident, &file, 200, runner);
            let out = text(&run);
            // A fault no observation through the input/output race shows (`observable: false`,
            // decided exactly by `check --race`) must pass like a conforming mutant: failing it
            // would fail a system whose every observation the specification explains.
            if m["conforms"].as_bool().unwrap() || !m["observable"].as_bool().unwrap() {
                hidden += usize::from(!m["conforms"].as_bool().unwrap());
                assert_eq!(run.status.code(), Some(0), "{}: {out}", file.display());
                continue;
            }
            observable += 1;
            assert_eq!(run.status.code(), Some(1), "{}: {out}", file.display());
            assert!(out.contains(failed), "{out}");
            assert!(FAILURES.iter().any(|f| out.contains(f)), "{out}");
            assert!(out.contains(trace), "{out}");
        }
        assert!(
            observable > 0,
            "{name}: mutate gave no mutant with an observable fault ({hidden} hidden by the race)"
        );
    }
}

#[test]
fn python_explorer_passes_the_models_and_fails_their_mutants() {
    if common::pytest_available("Python on-the-fly test") {
        passes_the_models_and_fails_their_mutants(Runner::Script);
    }
}

#[test]
fn python_explorer_as_a_pytest_module_passes_the_models_and_fails_their_mutants() {
    if common::pytest_available("Python on-the-fly test under pytest") {
        passes_the_models_and_fails_their_mutants(Runner::Pytest);
    }
}

#[test]
fn rust_explorer_passes_the_models_and_fails_their_mutants() {
    passes_the_models_and_fails_their_mutants(Runner::Rust);
}

#[test]
fn explore_spec_needs_the_python_or_rust_format() {
    let dir = work_dir("explore-ttcn-format");
    let out = ncomplete(&[
        "render",
        &common::fixture("coffee.suite.json"),
        "--format",
        "ttcn",
        "--out",
        dir.join("ttcn").to_str().unwrap(),
        "--explore-spec",
        &common::fixture("coffee.aut"),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("--explore-spec needs --format python or --format rust"));
    assert!(!dir.join("ttcn").exists());
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
    render_with_explorer("vending.aut", "vending", &dir, Runner::Script);
    let script = r#"
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
runs = [explore(Silent(), 500, seed, settings)[:3] for seed in (4, 4, 9)]
assert runs[0] == runs[1], runs
print(runs[0][0])
print(runs[0][2])
"#;
    let out = Command::new("python3")
        .args(["-c", script])
        .current_dir(dir.join("python"))
        .output()
        .unwrap();
    let text = text(&out);
    assert!(out.status.success(), "{text}");
    // (Every wait observes quiescence: the failure is replayed with the timeouts x4 and x16.)
    assert!(
        text.starts_with(
            "fail\nno output within the response timeout of 16 ms (expected one of: !"
        ) && text.contains("first failure: no output within the response timeout of 1 ms"),
        "{text}"
    );
}

/// The beginnings of the testers' and explore's failure messages.
const FAILURES: [&str; 2] = ["unexpected ", "no output within the response timeout"];

/// The message of a run's failure, from where it says what went wrong (`fail: MESSAGE`,
/// `explore: fail: MESSAGE`, pytest's `FAILED ... - MESSAGE`).
fn failure(out: &str) -> &str {
    out.lines()
        .filter(|l| l.contains(" after "))
        .find_map(|l| FAILURES.iter().find_map(|f| l.find(f).map(|k| &l[k..])))
        .unwrap_or_else(|| panic!("no failure in {out}"))
}

/// The failure a tester (or `explore`) observed first, before it replayed the run with its
/// timeouts scaled up (the timing rule of issue 41: a failure that rests on a timing observation
/// is confirmed by replays at x4 and x16 first, in `explore` and the generated testers alike).
fn first_failure(out: &str) -> &str {
    let failed = failure(out);
    match failed.split_once("(failed when replayed with every scale up to x16; first failure: ") {
        Some((_, first)) => first.strip_suffix(')').unwrap_or(first),
        // `explore` confirms a missing output by waiting in place, its first failure in front.
        None => failed
            .split_once(" (no output when waiting in place up to the timeouts x16")
            .map_or(failed, |(first, _)| first),
    }
}

/// The words of a missing output confirmed by waiting in place (`explore` and the testers).
const IN_PLACE: &str = " (no output when waiting in place up to the timeouts x16, ";
/// The words of a failure that stood its replays at x4 and x16.
const REPLAYED: &str = "(failed when replayed with every scale up to x16; first failure: ";

/// Runs `program` against a system that never writes, with timeouts of 5 ms (every wait observes
/// quiescence, so a run depends on its choices only).
fn silent(program: &mut Command) -> Output {
    program
        .env("NCOMPLETE_SUT", "cat > /dev/null")
        .env("NCOMPLETE_QUIESCENCE_MS", "5")
        .env("NCOMPLETE_RESPONSE_MS", "5")
        .env("NCOMPLETE_STARTUP_MS", "0")
        .output()
        .unwrap()
}

/// The Rust and Python testers draw their choices from `--seed` as `ncomplete explore --policy
/// random` does (and, with `--input-bias P`, as `--policy bias --input-bias P`): against a
/// system that never writes, all three fail with the same message, after the same trace, for
/// every seed; where the specification requires an output, the message is explore's `no output
/// within the response timeout`. They also decide its timing as `explore` does: the missing
/// output confirmed by waiting in place up to the x16 wait when nothing before it could have
/// misled the tester, the run replayed at x4 and x16 after a quiescence where `!refund` was
/// allowed; both happen among the seeds. (The Python tester is left out without pytest, whose
/// runtime it uses.)
#[test]
fn testers_draw_their_choices_as_ncomplete_explore() {
    let dir = work_dir("explore-seed");
    render_with_explorer("vending.aut", "vending", &dir, Runner::Rust);
    let python = common::pytest_available("Python on-the-fly tester against ncomplete explore");
    if python {
        render_with_explorer("vending.aut", "vending", &dir, Runner::Script);
    }
    let binary = rust_target().join("debug/explore_vending");
    let spec = model("vending.aut");
    let mut messages = Vec::new();
    let mut paths = [0, 0];
    let seeds = ["4", "4", "0", "1", "2", "3", "9", "18446744073709551615"];
    let biased = ["0", "1", "5"].map(|seed| (seed, Some("0.7")));
    for (seed, bias) in seeds.map(|seed| (seed, None)).into_iter().chain(biased) {
        let mut settings = vec!["--steps", "500", "--seed", seed];
        let mut policy = vec!["--policy", "random"];
        if let Some(bias) = bias {
            settings.extend(["--input-bias", bias]);
            policy = vec!["--policy", "bias", "--input-bias", bias];
        }
        let reference = silent(
            Command::new(BIN)
                .args([
                    "explore",
                    spec.to_str().unwrap(),
                    "--sut",
                    "cat > /dev/null",
                    "--reset-probability",
                    "0",
                    "--max-steps",
                    "500",
                    "--quiescence-ms",
                    "5",
                    "--response-ms",
                    "5",
                    "--startup-ms",
                    "0",
                    "--quiet",
                    "--seed",
                    seed,
                ])
                .args(&policy),
        );
        let reference_out = text(&reference);
        assert_eq!(reference.status.code(), Some(1), "{reference_out}");
        let mut testers = vec![("rust", silent(Command::new(&binary).args(&settings)))];
        if python {
            let mut script = Command::new("python3");
            script
                .arg("explore_vending.py")
                .args(&settings)
                .current_dir(dir.join("python"));
            testers.push(("python", silent(&mut script)));
        }
        let in_place = reference_out.contains(IN_PLACE);
        paths[usize::from(in_place)] += 1;
        for (tester, run) in &testers {
            let out = text(run);
            assert_eq!(run.status.code(), Some(1), "{tester}: {out}");
            let said = if in_place { IN_PLACE } else { REPLAYED };
            assert!(
                out.contains(said),
                "{tester} tester, seed {seed}, bias {bias:?}:\n{out}\n{reference_out}"
            );
            assert_eq!(
                first_failure(&out),
                first_failure(&reference_out),
                "{tester} tester, seed {seed}:\n{out}\n{reference_out}"
            );
        }
        messages.push(first_failure(&reference_out).to_owned());
    }
    assert!(
        paths[0] > 0 && paths[1] > 0,
        "replayed, in place: {paths:?}"
    );
    assert_eq!(messages[0], messages[1]);
    assert!(
        messages.iter().skip(1).any(|m| *m != messages[0]),
        "{messages:?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m
                .starts_with("no output within the response timeout of 5 ms (expected one of: !")),
        "{messages:?}"
    );
}

/// `test_explore` reads its settings from the environment, or from options when the module is
/// also loaded as a plugin (`-p`): both give the same run.
#[test]
fn pytest_explorer_reads_options_and_environment() {
    if !common::pytest_available("Python on-the-fly test under pytest") {
        return;
    }
    let dir = work_dir("explore-pytest-options");
    render_with_explorer("vending.aut", "vending", &dir, Runner::Pytest);
    let pytest = |args: &[&str], env: &[(&str, &str)]| {
        let mut cmd = Command::new("python3");
        cmd.args(["-m", "pytest", "-q", "-p", "no:cacheprovider"])
            .args(args)
            .current_dir(dir.join("python"));
        for (k, v) in env {
            cmd.env(k, v);
        }
        let out = silent(&mut cmd);
        let report = text(&out);
        assert_eq!(out.status.code(), Some(1), "{report}");
        assert!(report.contains("1 failed"), "{report}");
        report
    };
    let options = pytest(
        &[
            "-p",
            "explore_vending",
            "explore_vending.py",
            "--ncomplete-seed",
            "9",
            "--ncomplete-explore-steps",
            "500",
        ],
        &[],
    );
    let environment = pytest(
        &["explore_vending.py"],
        &[("NCOMPLETE_SEED", "9"), ("NCOMPLETE_EXPLORE_STEPS", "500")],
    );
    assert!(options.contains("trace: "), "{options}");
    assert_eq!(failure(&options), failure(&environment));
    // The options win over the environment.
    let both = pytest(
        &[
            "-p",
            "explore_vending",
            "explore_vending.py",
            "--ncomplete-seed",
            "9",
        ],
        &[("NCOMPLETE_SEED", "4")],
    );
    assert_eq!(failure(&both), failure(&options));
}

/// The tester is a file of the rendering like the others: listed in the directory's
/// `.ncomplete-output`, and gone after a rendering without `--explore-spec`.
#[test]
fn the_explorer_belongs_to_its_rendering() {
    let dir = work_dir("explore-rendering");
    let suite = common::fixture("coffee.suite.json");
    for (format, explorer) in [
        ("python", "explore_coffee_deluxe.py"),
        ("rust", "src/bin/explore_coffee_deluxe/main.rs"),
    ] {
        let out_dir = dir.join(format);
        let render = |more: &[&str]| {
            let mut args = vec![
                "render",
                &suite,
                "--format",
                format,
                "--quiet",
                "--out",
                out_dir.to_str().unwrap(),
            ];
            args.extend(more);
            let out = ncomplete(&args);
            assert!(out.status.success(), "{}", text(&out));
        };
        render(&["--explore-spec", &common::fixture("coffee.aut")]);
        assert!(out_dir.join(explorer).is_file(), "{format}");
        let marker = std::fs::read_to_string(out_dir.join(".ncomplete-output")).unwrap();
        assert!(marker.lines().any(|l| l == explorer), "{marker}");
        render(&[]);
        assert!(!out_dir.join(explorer).exists(), "{format}");
    }
}

/// The pingpong tester of each runner (the Rust binary, and the Python script when pytest can
/// be imported) against the correct but late system `fixture` of `tests/fixtures/hostile` (late
/// once per marker directory `NCOMPLETE_LATE_ONCE`), 12 steps for each of `seeds` seeds, with a
/// quiescence timeout of 300 ms and the response timeout `response_ms`: the runs' runners, seeds
/// and outputs.
fn late_pingpong_runs(fixture: &str, response_ms: &str, seeds: u64) -> Vec<(Runner, u64, Output)> {
    let spec = root().join("tests/fixtures/hostile/pingpong.aut");
    let late = root().join("tests/fixtures/hostile").join(fixture);
    let dir = work_dir(&format!("explore-{fixture}"));
    render_spec_with_explorer(&spec, "pingpong", &dir, Runner::Rust);
    let mut runners = vec![Runner::Rust];
    if common::pytest_available("Python on-the-fly tester against a late system") {
        render_spec_with_explorer(&spec, "pingpong", &dir, Runner::Script);
        runners.push(Runner::Script);
    }
    let mut runs = Vec::new();
    for runner in runners {
        for seed in 0..seeds {
            let marker = dir.join(format!("late-{runner:?}-{seed}"));
            let _ = std::fs::remove_dir(&marker);
            let mut cmd = match runner {
                Runner::Rust => Command::new(rust_target().join("debug/explore_pingpong")),
                _ => {
                    let mut cmd = Command::new("python3");
                    cmd.arg("explore_pingpong.py");
                    cmd
                }
            };
            let out = cmd
                .args(["--steps", "12", "--seed", &seed.to_string()])
                .current_dir(dir.join(runner.format()))
                .env("NCOMPLETE_SUT", format!("exec sh '{}'", late.display()))
                .env("NCOMPLETE_LATE_ONCE", &marker)
                .env("NCOMPLETE_QUIESCENCE_MS", "300")
                .env("NCOMPLETE_STARTUP_MS", "200")
                .env("NCOMPLETE_RESPONSE_MS", response_ms)
                .output()
                .unwrap();
            runs.push((runner, seed, out));
        }
    }
    runs
}

/// Checks that no run of `runner` among `runs` failed; returns how many said `words`, each
/// inconclusive (timing), exit 3. `None` when `runner` did not run (no pytest).
fn inconclusive_runs(runs: &[(Runner, u64, Output)], runner: Runner, words: &str) -> Option<usize> {
    let mine: Vec<_> = runs.iter().filter(|r| r.0 == runner).collect();
    for (_, seed, out) in &mine {
        let report = text(out);
        assert_ne!(
            out.status.code(),
            Some(1),
            "{runner:?}, seed {seed}: {report}"
        );
        if report.contains(words) {
            assert_eq!(out.status.code(), Some(3), "{report}");
            assert!(report.contains("inconclusive (timing)"), "{report}");
        }
    }
    let said = mine.iter().filter(|r| text(&r.2).contains(words)).count();
    (!mine.is_empty()).then_some(said)
}

/// The generated testers follow `explore`'s timing rule: against a correct pingpong system that
/// answers its first `maybe` 0.6 s late (past the quiescence timeout, as a descheduled system
/// does), a failure that rests on the late answer is replayed with the timeouts x4 and x16 from
/// a reset; the replay passes, so no seed fails and some end inconclusive (timing), exit 3.
#[test]
fn testers_replay_a_timing_failure_and_do_not_fail_a_system_late_once() {
    let runs = late_pingpong_runs("late_once.sh", "2000", 8);
    for runner in [Runner::Rust, Runner::Script] {
        let replayed = inconclusive_runs(&runs, runner, "when replayed with the timeouts x");
        assert_ne!(replayed, Some(0), "{runner:?}: no seed met the late answer");
    }
}

/// The generated testers confirm a missing output in place, as `explore` does: against a
/// correct pingpong system that answers its first `ping` 0.6 s late (`late_ping_once.sh`), past
/// the response timeout of 400 ms, a tester that waited for that `pong` after a run that nothing
/// could have misled goes on waiting up to the x4 wait (1.6 s from the start of its wait), the
/// `pong` comes, and the verdict is inconclusive (timing) with the words of the wait in place;
/// no seed fails. (A run misled before, by a `pong` read before an input could be sent, is
/// replayed instead: `testers_draw_their_choices_as_ncomplete_explore` shows both paths.)
#[test]
fn testers_confirm_a_late_answer_in_place() {
    let runs = late_pingpong_runs("late_ping_once.sh", "400", 6);
    for runner in [Runner::Rust, Runner::Script] {
        let words = "an output came when waiting in place up to the timeouts x4";
        let in_place = inconclusive_runs(&runs, runner, words);
        assert_ne!(
            in_place,
            Some(0),
            "{runner:?}: no seed confirmed the late pong in place"
        );
    }
}

/// The number of inputs the tester sent before the system's `!hello` in the trace a run
/// printed (its last `trace:` line): the inputs in flight when `hello` came, as the fixture
/// system reads none of them before it writes `hello`.
fn burst_before_hello(out: &str) -> usize {
    let trace = out
        .lines()
        .filter_map(|l| l.trim().strip_prefix("trace: "))
        .next_back()
        .unwrap_or_else(|| panic!("no trace in {out}"));
    let labels: Vec<&str> = trace.split_whitespace().collect();
    let hello = labels
        .iter()
        .position(|&l| l == "!hello")
        .unwrap_or_else(|| panic!("no !hello in the trace {trace}"));
    labels[..hello]
        .iter()
        .filter(|l| l.starts_with('?'))
        .count()
}

/// Runs the generated tester of `ready_hello.aut` (`runner`, rendered in `dir`) against
/// `system` with the input bias 0.99 (`--input-bias`, or `NCOMPLETE_EXPLORE_INPUT_BIAS` under
/// pytest), 100 steps, no resets, a quiescence timeout of 2 s (send grace 20 ms).
fn explore_in_bursts(dir: &Path, runner: Runner, system: &str, seed: u64) -> Output {
    let mut cmd = match runner {
        Runner::Rust => {
            let mut cmd = Command::new(rust_target().join("debug/explore_ready_hello"));
            cmd.args(["--steps", "100", "--seed", &seed.to_string()])
                .args(["--input-bias", "0.99"]);
            cmd
        }
        _ => {
            let mut cmd = Command::new("python3");
            cmd.args(["-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider"])
                .arg("explore_ready_hello.py")
                .env("NCOMPLETE_EXPLORE_STEPS", "100")
                .env("NCOMPLETE_SEED", seed.to_string())
                .env("NCOMPLETE_EXPLORE_INPUT_BIAS", "0.99")
                .env("COLUMNS", "1000");
            cmd
        }
    };
    cmd.current_dir(dir.join(runner.format()))
        .env("NCOMPLETE_SUT", system)
        .env("NCOMPLETE_EXPLORE_RESET", "0")
        .env("NCOMPLETE_QUIESCENCE_MS", "2000")
        .env("NCOMPLETE_STARTUP_MS", "200")
        .env("NCOMPLETE_RESPONSE_MS", "2000")
        .output()
        .unwrap()
}

/// Bursts (issue 41) through the generated testers, as
/// `race_sweep::explore_never_fails_a_conforming_system_with_a_burst_of_inputs_in_flight` for
/// `explore`: `ready_hello.aut` allows `!hello` right after `!ready` but not after `?inc`; the
/// system writes `ready`, `hello` after D ms, and reads its inputs only then. With the input
/// bias 0.99 the testers send `?inc` every send grace (20 ms), so about D / 20 inputs are in
/// flight when `hello` arrives: counted in the printed trace (the `?inc` before `!hello`), at
/// least 16 at D = 1.3 s and one burst of 8 or more per runner, and no run fails (the reading in
/// which the system read none of them explains `hello`). Without the bias option the testers
/// send a few inputs in a row at most, and the count fails the test. A faulty system that says
/// `ready` twice still fails.
#[test]
fn testers_never_fail_a_conforming_system_with_a_burst_of_inputs_in_flight() {
    let spec = root().join("tests/fixtures/ready_hello.aut");
    let dir = work_dir("explore-bursts");
    render_spec_with_explorer(&spec, "ready_hello", &dir, Runner::Rust);
    let mut runners = vec![Runner::Rust];
    if common::pytest_available("the pytest on-the-fly tester in bursts") {
        render_spec_with_explorer(&spec, "ready_hello", &dir, Runner::Pytest);
        runners.push(Runner::Pytest);
    }
    let conforming = |delay_ms: u64| {
        format!(
            "echo ready; sleep {}; echo hello; cat >/dev/null",
            delay_ms as f64 / 1000.0
        )
    };
    for runner in runners {
        let mut bursts = Vec::new();
        for delay_ms in [0u64, 150, 600, 1300] {
            for seed in 0..2 {
                let out = explore_in_bursts(&dir, runner, &conforming(delay_ms), seed);
                let report = text(&out);
                assert_eq!(
                    out.status.code(),
                    Some(0),
                    "{runner:?}, delay {delay_ms} ms, seed {seed}: {report}"
                );
                bursts.push((delay_ms, burst_before_hello(&report)));
            }
        }
        eprintln!("{runner:?}: inputs in flight (delay ms, count): {bursts:?}");
        assert!(
            bursts.iter().any(|&(_, n)| n >= 8),
            "{runner:?}: no burst of 8 inputs in flight: {bursts:?}"
        );
        assert!(
            bursts.iter().all(|&(d, n)| d < 1300 || n >= 16),
            "{runner:?}: short bursts at 1.3 s: {bursts:?}"
        );
        let faulty = "echo ready; sleep 0.6; echo ready; cat >/dev/null";
        let out = explore_in_bursts(&dir, runner, faulty, 0);
        let report = text(&out);
        assert_eq!(out.status.code(), Some(1), "{runner:?}, faulty: {report}");
        assert!(report.contains("unexpected !ready"), "{report}");
    }
}
