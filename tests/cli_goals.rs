//! `generate --purpose`, `--purpose-regex` and `--cover`, end to end: the suites read back as
//! JSON v1, name every goal with its reachability, pass the model under `ncomplete run`, never
//! fail a conforming mutant of `ncomplete mutate`, fail most non-conforming ones, render as
//! programs, and bad purposes exit with status 2 and a located message.

mod common;
use common::run;
use ncomplete::suite::read_suite;
use std::path::PathBuf;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_ncomplete");

fn path(rel: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(rel)
        .display()
        .to_string()
}

fn temp(name: &str) -> String {
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("ncomplete-cli-goals-{name}"))
        .display()
        .to_string()
}

/// Runs `suite` against `model` in simulation: (exit code, pass, fail, inconclusive).
fn run_suite(suite: &str, model: &str) -> (i32, usize, usize, usize) {
    let (code, out, err) = run(&[
        "run",
        suite,
        "--model",
        model,
        "--input-enable",
        "self-loop",
    ]);
    let line = out
        .lines()
        .chain(err.lines())
        .find(|l| l.starts_with("suite: "))
        .unwrap_or_else(|| panic!("no summary in {out} {err}"))
        .to_owned();
    // `suite: VERDICT (P pass, F fail, I inconclusive)`
    let counts = line
        .split('(')
        .nth(1)
        .unwrap()
        .trim_end_matches(')')
        .to_owned();
    let num = |word: &str| -> usize {
        counts
            .split(", ")
            .find_map(|part| part.strip_suffix(&format!(" {word}")))
            .unwrap_or_else(|| panic!("no {word} in {line}"))
            .parse()
            .unwrap()
    };
    (code, num("pass"), num("fail"), num("inconclusive"))
}

#[test]
fn coverage_suites_pass_the_model_and_report_every_goal() {
    for (model, states, transitions) in [
        ("models/vending.aut", 6, 15),
        ("models/vdbos_fig3_1.aut", 4, 0),
        ("models/coffeemachine.dot", 0, 0),
    ] {
        let model = path(model);
        for cover in ["states", "transitions", "switches"] {
            let out = temp(&format!("{cover}.json"));
            let (code, _, err) = run(&["generate", &model, "--cover", cover, "--out", &out]);
            assert_eq!(code, 0, "{err}");
            let text = std::fs::read_to_string(&out).unwrap();
            let (header, tests) = read_suite(&text).unwrap();
            assert_eq!(header.method, format!("cover-{cover}"));
            let goals = header.extra["goals"].as_array().unwrap();
            let reachable = goals.iter().filter(|g| g["reach"] != "unreachable").count();
            assert_eq!(tests.len(), reachable);
            let expected = match cover {
                "states" => states,
                "transitions" => transitions,
                _ => 0,
            };
            if expected > 0 {
                assert_eq!(goals.len(), expected, "{model} {cover}");
            }
            // The report names every goal on stderr.
            assert!(err.contains(&format!("{} goals:", goals.len())), "{err}");
            let (code, pass, fail, _) = run_suite(&out, &model);
            assert_eq!((code, fail), (0, 0), "{model} {cover}");
            assert!(pass > 0);
            std::fs::remove_file(&out).unwrap();
        }
    }
}

#[test]
fn same_suite_for_any_thread_count() {
    let model = path("models/vending.aut");
    let mut texts = Vec::new();
    for threads in ["1", "3"] {
        let out = Command::new(BIN)
            .args(["generate", &model, "--cover", "switches", "--quiet"])
            .env("RAYON_NUM_THREADS", threads)
            .output()
            .unwrap();
        assert!(out.status.success());
        texts.push(out.stdout);
    }
    assert_eq!(texts[0], texts[1]);
}

#[test]
fn transition_tests_fail_only_non_conforming_mutants() {
    let model = path("models/vending.aut");
    let suite = temp("mutants.json");
    let (code, _, err) = run(&[
        "generate",
        &model,
        "--cover",
        "transitions",
        "--out",
        &suite,
    ]);
    assert_eq!(code, 0, "{err}");
    let dir = temp("mutants");
    let (code, _, err) = run(&[
        "mutate",
        &model,
        "--extra-states",
        "0",
        "--count",
        "12",
        "--seed",
        "3",
        "--out",
        &dir,
    ]);
    assert_eq!(code, 0, "{err}");
    let index: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{dir}/index.json")).unwrap())
            .unwrap();
    let (mut killed, mut faulty) = (0, 0);
    for m in index["mutants"].as_array().unwrap() {
        let file = format!("{dir}/{}", m["file"].as_str().unwrap());
        let (_, _, fail, _) = run_suite(&suite, &file);
        if m["conforms"] == true {
            assert_eq!(fail, 0, "conforming mutant {file} failed");
        } else {
            faulty += 1;
            killed += usize::from(fail > 0);
        }
    }
    assert!(faulty >= 6, "{faulty} non-conforming mutants");
    assert!(
        killed * 2 >= faulty,
        "{killed} of {faulty} non-conforming mutants failed"
    );
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_file(&suite).unwrap();
}

#[test]
fn bundled_purpose_steers_to_tea_and_retries_after_a_refund() {
    let model = path("models/vending.aut");
    let (code, out, err) = run(&[
        "generate",
        &model,
        "--purpose",
        &path("purposes/vending_tea.aut"),
        "--patience",
        "0",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("1 joker"), "{err}");
    let (header, tests) = read_suite(&out).unwrap();
    assert_eq!(header.method, "purpose");
    assert_eq!(tests.len(), 1);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let nodes = json["tests"][0]["nodes"].to_string();
    assert!(nodes.contains(r#""send":"tea_button""#), "{nodes}");
    assert!(nodes.contains(r#""refund":"retry""#), "{nodes}");
    assert!(nodes.contains(r#""tea":"pass""#), "{nodes}");
    // The refund leads to the purpose's refuse state: retry whatever the patience.
    let (code, out, _) = run(&[
        "generate",
        &model,
        "--purpose",
        &path("purposes/vending_tea.aut"),
    ]);
    assert_eq!(code, 0);
    assert!(out.contains(r#""refund":"retry""#), "{out}");
    // Where the goal stays reachable after a refund, the test plays on (patience 2, the
    // default) and says retry only at the third refund: three rounds of coin, tea_button, tea.
    let (code, out, err) = run(&["generate", &model, "--purpose-regex", ".* tea"]);
    assert_eq!(code, 0, "{err}");
    let (_, tests) = read_suite(&out).unwrap();
    let retries = tests[0]
        .nodes
        .iter()
        .flat_map(|n| n.successors())
        .filter(|n| *n == ncomplete::suite::Next::RETRY)
        .count();
    assert_eq!((retries, tests[0].nodes.len()), (1, 9), "{out}");
}

#[test]
fn regex_purposes_and_rendering() {
    let model = path("models/vending.aut");
    let dir = temp("render");
    let (code, _, err) = run(&[
        "generate",
        &model,
        "--purpose-regex",
        "coin .* coffee",
        "--format",
        "python",
        "--out",
        &dir,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(std::path::Path::new(&format!("{dir}/suite.json")).exists());
    std::fs::remove_dir_all(&dir).unwrap();
    // An expression no trace matches is refused with advice, and nothing is written.
    let (code, out, err) = run(&["generate", &model, "--purpose-regex", "refund"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--purpose-regex `refund` is unreachable") && err.contains("spelling"),
        "{err}"
    );
    assert!(out.is_empty(), "{out}");
}

#[test]
fn bad_purposes_exit_with_2() {
    let model = path("models/vending.aut");
    let cases = [
        (
            "des (0, 1, 2)\n(0, \"!nope\", 1)\n",
            "uses label `!nope`, which is no label of the model",
        ),
        (
            "des (0, 3, 2)\n(0, \"!tea\", 1)\n(0, \"!tea\", 0)\n(1, \"ACCEPT\", 1)\n",
            "two transitions labelled `tea`",
        ),
        ("des (0, 1, 2)\n(0, \"!tea\", 1)\n", "no accepting state"),
        ("des (0, 1, 2)\n(0, \"!tea\" 1)\n", ":2:"),
    ];
    for (k, (text, expected)) in cases.iter().enumerate() {
        let file = temp(&format!("bad{k}.aut"));
        std::fs::write(&file, text).unwrap();
        let (code, _, err) = run(&["generate", &model, "--purpose", &file]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(expected), "{err}");
        std::fs::remove_file(&file).unwrap();
    }
    let (code, _, err) = run(&["generate", &model, "--purpose-regex", "coin (", "--quiet"]);
    assert_eq!(code, 2);
    assert!(err.contains("--purpose-regex:1:"), "{err}");
    let (code, _, err) = run(&[
        "generate",
        &model,
        "--cover",
        "switches",
        "--max-tests",
        "5",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("--max-tests"), "{err}");
    let (code, _, err) = run(&["generate", &model, "--cover", "states", "--format", "words"]);
    assert_eq!(code, 2);
    assert!(err.contains("goal-directed tests are suite JSON"), "{err}");
    // One goal at a time: the argument parser refuses two.
    for two in [
        ["--purpose-regex", "tea", "--cover", "states"],
        ["--purpose", &model, "--cover", "states"],
        ["--purpose", &model, "--purpose-regex", "tea"],
    ] {
        let (code, _, err) = run(&[&["generate", &model][..], &two[..]].concat());
        assert_eq!(code, 2, "{two:?}: {err}");
        assert!(err.contains("cannot be used with"), "{two:?}: {err}");
    }
}

/// A test purpose may itself be a symbolic transition system: it is instantiated like any STS
/// model and steers the tests exactly as the same purpose written as an `.aut` file.
#[test]
fn an_sts_purpose_steers_as_the_same_purpose_in_aut() {
    let sts = temp("welcome.sts.yaml");
    std::fs::write(
        &sts,
        "sts: 1\nname: welcome\nvariables: []\ngates:\n  - {name: welcome, kind: output}\n  \
         - {name: ACCEPT, kind: output}\ninitial: start\nlocations: [start, done]\nswitches:\n  \
         - {name: see, from: start, gate: welcome, to: done}\n  \
         - {name: accept, from: done, gate: ACCEPT, to: done}\n",
    )
    .unwrap();
    let aut = temp("welcome.aut");
    std::fs::write(
        &aut,
        "des (0, 2, 2)\n(0, \"welcome\", 1)\n(1, \"ACCEPT\", 1)\n",
    )
    .unwrap();
    let model = path("models/sts/login.sts.yaml");
    let nodes = |purpose: &str| {
        let (code, out, err) = run(&["generate", &model, "--purpose", purpose, "--quiet"]);
        assert_eq!(code, 0, "{err}");
        let (header, tests) = read_suite(&out).unwrap();
        assert_eq!(header.method, "purpose");
        tests.into_iter().map(|t| t.nodes).collect::<Vec<_>>()
    };
    let from_sts = nodes(&sts);
    assert_eq!(from_sts.len(), 1);
    assert_eq!(from_sts, nodes(&aut));
    std::fs::remove_file(&sts).unwrap();
    std::fs::remove_file(&aut).unwrap();
}
