//! `ncomplete results merge`: the results of a suite's shards, each generated with `generate
//! --shard K/N` and run on its own (as on separate machines), merge into the result of the
//! whole suite: the same tests, counts, verdict and coverage as one run of the whole suite.
//! Results of another suite, a shard twice or a shard missing are refused with exit status 2.

mod common;

use serde_json::Value;
use std::path::Path;

fn json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Generates the suite of `coffee.aut` whole and in 3 shards, runs each against `implementation`
/// with `--spec`, and returns the whole run's exit status.
fn run_shards(dir: &Path, implementation: &str) -> i32 {
    let spec = common::fixture("coffee.aut");
    let imp = common::fixture(implementation);
    let run = |suite: &str, results: &str| {
        let (status, _, stderr) = common::run_in(
            dir,
            &[
                "run", suite, "--model", &imp, "--spec", &spec, "--json", results,
            ],
        );
        assert!(status == 0 || status == 1, "run {suite}: {stderr}");
        status
    };
    let generate = |extra: &[&str], out: &str| {
        let mut args = vec!["generate", &spec, "--n", "3", "--quiet", "--out", out];
        args.extend(extra);
        let (status, _, stderr) = common::run_in(dir, &args);
        assert_eq!(status, 0, "{stderr}");
    };
    generate(&[], "whole.json");
    for k in 1..=3 {
        let shard = format!("{k}/3");
        generate(&["--shard", &shard], &format!("shard{k}.json"));
        run(&format!("shard{k}.json"), &format!("results{k}.json"));
    }
    run("whole.json", "whole-results.json")
}

fn names(results: &Value) -> Vec<String> {
    let mut names: Vec<String> = results["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| format!("{} {}", t["name"], t["verdict"]))
        .collect();
    names.sort();
    names
}

#[test]
fn merged_shards_give_the_whole_suites_result() {
    for (implementation, expected_status) in [("coffee.aut", 0), ("coffee-faulty.aut", 1)] {
        let dir = common::work_dir(&format!("results-merge-{implementation}"));
        let whole_status = run_shards(&dir, implementation);
        assert_eq!(whole_status, expected_status);
        let shard1 = json(&dir.join("results1.json"));
        assert_eq!(shard1["shard"], "1/3", "run copies the suite's shard");
        let (status, _, stderr) = common::run_in(
            &dir,
            &[
                "results",
                "merge",
                "results3.json",
                "results1.json",
                "results2.json",
                "--out",
                "merged.json",
            ],
        );
        assert_eq!(status, expected_status, "{stderr}");
        let merged = json(&dir.join("merged.json"));
        let whole = json(&dir.join("whole-results.json"));
        assert_eq!(names(&merged), names(&whole));
        assert!(!names(&whole).is_empty());
        for field in ["verdict", "counts", "model", "method", "n", "guarantee"] {
            assert_eq!(merged[field], whole[field], "{field}");
        }
        for field in [
            "states_visited",
            "transitions_covered",
            "states",
            "transitions",
        ] {
            assert_eq!(
                merged["coverage"][field], whole["coverage"][field],
                "{field}"
            );
        }
        assert!(
            stderr.starts_with("merged 3 of 3 shards; suite: "),
            "{stderr}"
        );
        // The merged coverage colours a picture as a whole run's does.
        let (status, _, stderr) = common::run_in(
            &dir,
            &[
                "draw",
                &common::fixture("coffee.aut"),
                "--coverage",
                "merged.json",
                "--out",
                "m.svg",
            ],
        );
        assert_eq!(status, 0, "{stderr}");
    }
}

#[test]
fn other_suites_and_missing_or_repeated_shards_are_refused() {
    let dir = common::work_dir("results-merge-refused");
    run_shards(&dir, "coffee.aut");
    let refused = |args: &[&str], expected: &str| {
        let mut all = vec!["results", "merge"];
        all.extend(args);
        all.extend(["--out", "merged.json"]);
        let (status, _, stderr) = common::run_in(&dir, &all);
        assert_eq!(status, 2, "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(!dir.join("merged.json").exists(), "nothing written");
    };
    refused(&["results1.json", "results3.json"], "shard 2/3 missing");
    refused(
        &[
            "results1.json",
            "results2.json",
            "results2.json",
            "results3.json",
        ],
        "both hold shard 2/3",
    );
    refused(&["results1.json", "whole-results.json"], "one N");
    // Results of another suite: another bound.
    let spec = common::fixture("coffee.aut");
    let (status, _, stderr) = common::run_in(
        &dir,
        &[
            "generate",
            &spec,
            "--n",
            "2",
            "--shard",
            "2/3",
            "--quiet",
            "--out",
            "other.json",
        ],
    );
    assert_eq!(status, 0, "{stderr}");
    let (status, _, stderr) = common::run_in(
        &dir,
        &[
            "run",
            "other.json",
            "--model",
            &spec,
            "--json",
            "other-results.json",
        ],
    );
    assert_eq!(status, 0, "{stderr}");
    refused(
        &["results1.json", "other-results.json", "results3.json"],
        "are results of different suites: `n` is 3 in one and 2 in the other",
    );
    std::fs::write(
        dir.join("broken.json"),
        "{\"format\": \"ncomplete-results-v1\",\n  \"tests\": [}",
    )
    .unwrap();
    refused(
        &["broken.json"],
        "broken.json:2:13: found invalid JSON (expected value), expected the JSON results",
    );
    refused(
        &["shard1.json"],
        "shard1.json: found format `ncomplete-suite`, expected the JSON results",
    );
}
