//! Stable test identities and shards, through the binary: a model edit renames only tests whose
//! content changed, and `generate --shard` / `render --shard` partition a suite.

mod common;

use common::suite_json::tests_of;
use ncomplete::suite::read_suite;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_ncomplete");

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("stable_names")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn model(name: &str) -> String {
    format!("{}/models/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn ncomplete(args: &[&str]) -> String {
    let out = Command::new(BIN).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "ncomplete {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// `name` from `models/` with one transition edited (`from` replaced by `to`), written to `dir`.
fn edited(dir: &Path, name: &str, from: &str, to: &str) -> String {
    let text = std::fs::read_to_string(model(name)).unwrap();
    let edited = text.replace(from, to);
    assert_ne!(text, edited, "the edited transition is in {name}");
    let path = dir.join(name);
    std::fs::write(&path, edited).unwrap();
    path.display().to_string()
}

#[test]
fn one_edited_transition_renames_only_tests_whose_content_changed() {
    let dir = scratch("churn");
    let cases = [
        // A Mealy suite: `POD` in `s4` of the coffee machine now leads to `s1` with `error`.
        (
            "coffeemachine.dot",
            "s4 -> s3 [label=\"POD / ok\"]",
            "s4 -> s1 [label=\"POD / error\"]",
            &["--method", "hads", "--extra-states", "1"][..],
        ),
        // An ioco suite: the refund of the tea machine now leads back to `paid`.
        (
            "tea_machine.dot",
            "empty -> idle [label=\"!refund\"]",
            "empty -> paid [label=\"!refund\"]",
            &["--method", "ioco-complete", "--extra-states", "0"][..],
        ),
    ];
    for (name, from, to, args) in cases {
        let original = model(name);
        let edited = edited(&dir, name, from, to);
        let before = tests_of(&ncomplete(
            &[&["generate", original.as_str()][..], args, &["--quiet"]].concat(),
        ));
        let after = tests_of(&ncomplete(
            &[&["generate", edited.as_str()][..], args, &["--quiet"]].concat(),
        ));
        let names_before: BTreeMap<&str, &str> = before
            .iter()
            .map(|(n, c)| (c.as_str(), n.as_str()))
            .collect();
        let mut kept = 0;
        for (name, content) in &after {
            if let Some(old) = names_before.get(content.as_str()) {
                assert_eq!(old, name, "{args:?}: an unchanged test was renamed");
                kept += 1;
            }
        }
        // The edit leaves some tests alone and changes others.
        assert!(
            kept > 0 && kept < after.len(),
            "{args:?}: {kept} of {}",
            after.len()
        );
        // Names are unique within each suite.
        for suite in [&before, &after] {
            let names: BTreeSet<&str> = suite.iter().map(|(n, _)| n.as_str()).collect();
            assert_eq!(names.len(), suite.len(), "{args:?}");
        }
    }
}

#[test]
fn shards_partition_the_suite_in_generate_and_render() {
    let dir = scratch("shards");
    for (name, args) in [
        (
            "coffeemachine.dot",
            &["--method", "hads", "--extra-states", "1"][..],
        ),
        (
            "tea_machine.dot",
            &["--method", "ioco-complete", "--extra-states", "0"][..],
        ),
    ] {
        let path = model(name);
        let base = [&["generate", path.as_str()][..], args, &["--quiet"]].concat();
        let whole = ncomplete(&base);
        let all = tests_of(&whole);
        let suite = dir.join("suite.json");
        std::fs::write(&suite, &whole).unwrap();
        let count = 3;
        let mut union = Vec::new();
        let mut steps = Vec::new();
        for k in 1..=count {
            let shard = format!("{k}/{count}");
            let part_json = ncomplete(&[&base[..], &["--shard", &shard]].concat());
            let doc: Value = serde_json::from_str(&part_json).unwrap();
            assert_eq!(doc["shard"], shard.as_str());
            let part = tests_of(&part_json);
            assert!(!part.is_empty(), "{args:?} shard {shard} is empty");
            let (_, cases) = read_suite(&part_json).unwrap();
            steps.push(cases.iter().map(|t| t.runs_and_steps().1).sum::<u128>());
            // `render --shard` of the whole suite renders the same tests.
            let out = dir.join(format!("py{k}"));
            ncomplete(&[
                "render",
                suite.to_str().unwrap(),
                "--format",
                "python",
                "--out",
                out.to_str().unwrap(),
                "--shard",
                &shard,
                "--quiet",
            ]);
            let module = std::fs::read_dir(&out)
                .unwrap()
                .map(|e| e.unwrap().path())
                .find(|p| {
                    p.file_name()
                        .unwrap()
                        .to_str()
                        .unwrap()
                        .starts_with("test_")
                })
                .unwrap();
            let text = std::fs::read_to_string(module).unwrap();
            assert_eq!(
                text.matches("\ndef test_").count(),
                part.len(),
                "{args:?} {shard}"
            );
            for (name, _) in &part {
                assert!(text.contains(&format!("MODEL, \"{name}\"")), "{name}");
            }
            union.extend(part);
        }
        // Every test in exactly one shard, in suite order within each.
        let mut sorted_all = all.clone();
        sorted_all.sort();
        union.sort();
        assert_eq!(union, sorted_all, "{args:?}");
        // Near-equal cost: the shards' steps differ by at most the largest test's.
        let (_, cases) = read_suite(&whole).unwrap();
        let largest = cases.iter().map(|t| t.runs_and_steps().1).max().unwrap();
        let (lo, hi) = (steps.iter().min().unwrap(), steps.iter().max().unwrap());
        assert!(hi - lo <= largest, "{args:?}: {steps:?}");
    }
}

/// Every file below `dir` but the output marker, relative, with its contents, sorted.
fn files_below(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.file_name().unwrap() != ".ncomplete-output" {
                let text = std::fs::read_to_string(&path).unwrap();
                out.push((path.strip_prefix(dir).unwrap().to_path_buf(), text));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn large_suites_render_in_parts_streamed_as_in_memory() {
    use ncomplete::model::LabelId;
    use ncomplete::render::{Format, render_suite};
    use ncomplete::suite::{SuiteHeader, SuiteModel, SuiteWriter, TestCase};
    let dir = scratch("parts");
    let header = SuiteHeader {
        model: SuiteModel {
            name: "big".into(),
            inputs: vec!["a".into(), "b".into()],
            outputs: vec!["x".into()],
            quiescence: None,
        },
        method: "hand-written".into(),
        n: None,
        guarantee: "none".into(),
        extra: Default::default(),
    };
    // 2,300 distinct words over {a, b}: more than two parts of 1,000 tests.
    let tests: Vec<TestCase> = (0..2300u32)
        .map(|k| {
            let word: Vec<(LabelId, LabelId)> = (0..12)
                .map(|bit| (LabelId((k >> bit) & 1), LabelId(0)))
                .collect();
            TestCase::chain(format!("w{k}"), &word)
        })
        .collect();
    let mut writer = SuiteWriter::begin(Vec::new(), &header).unwrap();
    for t in &tests {
        writer.write_test(t).unwrap();
    }
    let suite = dir.join("big.json");
    std::fs::write(&suite, writer.finish().unwrap()).unwrap();
    for (format, name, parts) in [
        (
            Format::Python,
            "python",
            ["test_big_001.py", "test_big_002.py", "test_big_003.py"],
        ),
        (
            Format::Rust,
            "rust",
            ["src/part_001.rs", "src/part_002.rs", "src/part_003.rs"],
        ),
    ] {
        let out = dir.join(name);
        ncomplete(&[
            "render",
            suite.to_str().unwrap(),
            "--format",
            name,
            "--out",
            out.to_str().unwrap(),
            "--quiet",
        ]);
        let streamed = files_below(&out);
        let mut in_memory: Vec<(PathBuf, String)> = render_suite(&header, &tests, format, None)
            .unwrap()
            .into_iter()
            .map(|f| (f.path, f.contents))
            .collect();
        in_memory.sort();
        assert_eq!(streamed, in_memory, "{name}");
        for part in parts {
            assert!(
                streamed.iter().any(|(p, _)| p == Path::new(part)),
                "{name}: {part}"
            );
        }
        // Every test once, over all parts.
        let marker = if format == Format::Python {
            "\ndef test_"
        } else {
            "\n        fn "
        };
        let count: usize = streamed
            .iter()
            .filter(|(p, _)| parts.iter().any(|part| p == Path::new(part)))
            .map(|(_, t)| t.matches(marker).count())
            .sum();
        assert_eq!(count, tests.len(), "{name}");
    }
}
