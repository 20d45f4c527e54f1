//! `generate --cover transitions|states` suites run with `ncomplete run --sut` against the
//! model's own simulator (`simulate --choose random` and `--choose first`): a correct system
//! gives exit 0. Joker goals the system did not help reach (race-dependent ones: the input must
//! beat an output a fast system emits at once) are listed as unreached, counted in the goals
//! line, and keep the run green; the generated report and suite mark race-dependent goals. Their
//! tests are `inconclusive` with the reason `race-dependent goal` (or `joker goal`) in the
//! report's lines, the JSON results (counted apart as `unreached_goals`) and JUnit alike.
//!
//! The default test runs the bundled models whose suites have joker goals; the `--ignored` one
//! runs every bundled model (about 10 minutes at 2 jobs). `vdbos_fig6_3.aut` is left out of
//! both: it is the joker-game arena of the thesis' Fig. 6.3, not a valid suspension automaton
//! (`δ` from state 0 leads to state 1, which must output), so no system, its simulator included,
//! conforms to it.

mod common;
use common::{run, work_dir};
use std::path::Path;

/// Generates `model`'s `--cover criterion` suite into `dir` and runs it against the model's
/// simulator choosing outputs by `choose`: the exit status, the report, the JSON results and the
/// JUnit file. `None` when the model has no such suite (a Mealy machine naming a label both as
/// input and output).
fn cover_run(
    dir: &Path,
    model: &str,
    criterion: &str,
    choose: &str,
) -> Option<(i32, String, serde_json::Value, String)> {
    let name = Path::new(model).file_name().unwrap().to_string_lossy();
    let suite = dir.join(format!("{name}-{criterion}.json"));
    let suite = suite.to_str().unwrap();
    let (code, _, err) = run(&[
        "generate", model, "--cover", criterion, "--quiet", "--out", suite,
    ]);
    if code == 2 && err.contains("disjoint input and output labels") {
        return None;
    }
    assert_eq!(code, 0, "{model}: {err}");
    let system = format!(
        "{} simulate --choose {choose} {model}",
        env!("CARGO_BIN_EXE_ncomplete")
    );
    let json = dir.join("results.json");
    let junit = dir.join("junit.xml");
    let (code, out, err) = run(&[
        "run",
        suite,
        "--sut",
        &system,
        "--jobs",
        "2",
        "--quiet",
        "--json",
        json.to_str().unwrap(),
        "--junit",
        junit.to_str().unwrap(),
    ]);
    let results = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let junit = std::fs::read_to_string(&junit).unwrap();
    Some((code, format!("{out}{err}"), results, junit))
}

/// Runs both criteria and both choices on each model; every run must exit 0, list its
/// unreached goals and say how many goals it reached. Returns the unreached goal lines.
fn assert_green(models: &[String]) -> Vec<String> {
    let dir = work_dir("goal-races");
    let mut unreached = Vec::new();
    for model in models {
        for criterion in ["transitions", "states"] {
            for choose in ["random", "first"] {
                let Some((code, report, results, junit)) =
                    cover_run(&dir, model, criterion, choose)
                else {
                    continue;
                };
                let what = format!("{model} --cover {criterion}, --choose {choose}");
                assert_eq!(code, 0, "{what}:\n{report}");
                assert!(!report.contains(" inconclusive: "), "{what}:\n{report}");
                let excused = ["race-dependent goal", "joker goal"];
                let inconclusive = report
                    .lines()
                    .filter(|l| {
                        excused
                            .iter()
                            .any(|r| l.contains(&format!(" inconclusive ({r}): ")))
                    })
                    .count();
                // The same tests, with the same reasons, in the JSON results and JUnit.
                let tests = results["tests"].as_array().unwrap();
                let reasons: Vec<&str> = tests
                    .iter()
                    .filter(|t| t["verdict"] == "inconclusive")
                    .map(|t| t["reason"].as_str().unwrap())
                    .collect();
                assert!(
                    reasons.iter().all(|r| excused.contains(r)),
                    "{what}: {results}"
                );
                assert_eq!(reasons.len(), inconclusive, "{what}: {results}");
                let counts = &results["counts"];
                assert_eq!(counts["inconclusive"], 0, "{what}: {results}");
                assert_eq!(
                    counts["unreached_goals"].as_u64().unwrap_or(0),
                    inconclusive as u64,
                    "{what}: {results}"
                );
                assert_eq!(results["verdict"], "pass", "{what}: {results}");
                let skipped = junit
                    .matches("<skipped message=\"race-dependent goal: ")
                    .count()
                    + junit.matches("<skipped message=\"joker goal: ").count();
                assert_eq!(skipped, inconclusive, "{what}: {junit}");
                let listed: Vec<String> = report
                    .lines()
                    .filter(|l| l.starts_with("unreached goal "))
                    .map(str::to_owned)
                    .collect();
                assert_eq!(listed.len(), inconclusive, "{what}:\n{report}");
                assert!(
                    report.lines().any(|l| l.starts_with("goals: ")),
                    "{what}:\n{report}"
                );
                assert!(report.contains("suite: pass ("), "{what}:\n{report}");
                unreached.extend(listed.into_iter().map(|l| format!("{what}: {l}")));
            }
        }
    }
    unreached
}

fn bundled(names: &[&str]) -> Vec<String> {
    names
        .iter()
        .map(|n| common::root().join("models").join(n).display().to_string())
        .collect()
}

#[test]
fn cover_suites_of_models_with_joker_goals_are_green_against_their_simulators() {
    let unreached = assert_green(&bundled(&[
        "vending.aut",
        "everest_q.aut",
        "selfkicking_coffee.aut",
        "vdbos_fig3_1.aut",
        "tea_machine.dot",
    ]));
    // vending's `?coin` in {6} loses the race to `!change` every time: listed as such.
    assert!(
        unreached.iter().any(
            |l| l.contains("vending.aut --cover transitions, --choose random")
                && l.contains("transition {6} --coin--> {6} (2 jokers, race-dependent")
        ),
        "{unreached:#?}"
    );
}

#[test]
#[ignore = "every bundled model: about 10 minutes at 2 jobs"]
fn cover_suites_of_every_bundled_model_are_green_against_their_simulators() {
    let mut models = Vec::new();
    for dir in ["models", "models/sts"] {
        for entry in std::fs::read_dir(common::root().join(dir)).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let model = [".aut", ".dot", ".fsm", ".yaml"]
                .iter()
                .any(|x| name.ends_with(x));
            if path.is_file() && model && name != "vdbos_fig6_3.aut" {
                models.push(path.display().to_string());
            }
        }
    }
    models.sort();
    assert!(models.len() >= 25, "{models:?}");
    let unreached = assert_green(&models);
    eprintln!("{}", unreached.join("\n"));
}
