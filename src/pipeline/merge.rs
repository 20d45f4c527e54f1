//! `results merge`: the JSON results (`ncomplete-results-v1`, [`crate::exec::results`]) of the
//! shards of one suite, run on separate machines, combined into the result of the whole suite.
//!
//! A suite split by `generate --shard K/N` carries `"shard": "K/N"` in its header, and `run
//! --json` copies it into the results; a result without it is the whole suite (shard 1/1). The
//! shards partition the suite's tests ([`crate::suite::names::ShardPicker`]), so the merged
//! result has every test once, its counts are the sums, and its verdict is the worst test
//! verdict ([`VerdictCounts::verdict`]), as `run` would have reported for the whole suite on
//! one machine. The suite's guarantee (its `guarantee` field, kept) rests on every test, so a
//! merge refuses results of different suites (their model, method, bound or guarantee differ),
//! two results of one shard, a test in two shards, and a missing shard. Where every shard was
//! run with `--spec`, the coverage is the union of the shards' (states visited, transitions
//! covered), which `draw --coverage` colours.

use crate::Error;
use crate::exec::TestVerdict;
use crate::exec::results::VerdictCounts;
use crate::suite::names::Shard;
use serde_json::{Value, json};
use std::collections::{BTreeSet, HashSet};

/// The fields that name the suite a result is of: results that differ in one are of different
/// suites.
const SUITE_FIELDS: [&str; 4] = ["model", "method", "n", "guarantee"];

/// The result of merging shards: the merged JSON results, the merged verdict and counts.
#[derive(Clone, Debug)]
pub struct MergedResults {
    /// The merged results, `ncomplete-results-v1`, pretty-printed with a final newline.
    pub json: String,
    /// The counts over every shard (their verdict is the merged verdict).
    pub counts: VerdictCounts,
    /// The number of shards the suite was split into (all merged).
    pub shards: usize,
}

/// One shard's results as read.
struct ShardResults {
    path: String,
    shard: Shard,
    value: Value,
}

/// Reads one results file.
fn read(path: &str) -> Result<ShardResults, Error> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    let value: Value = serde_json::from_str(&text).map_err(|e| {
        let message = e.to_string();
        let what = message
            .rsplit_once(" at line ")
            .map_or(&*message, |(m, _)| m);
        Error::Usage(format!(
            "{path}:{}:{}: found invalid JSON ({what}), expected the JSON results of \
             `ncomplete run --json`",
            e.line(),
            e.column()
        ))
    })?;
    if value["format"] != "ncomplete-results-v1" || !value["tests"].is_array() {
        return Err(Error::Usage(format!(
            "{path}: found {}, expected the JSON results of `ncomplete run --json` (format \
             ncomplete-results-v1, with tests)",
            match &value["format"] {
                Value::String(f) => format!("format `{f}`"),
                _ => "no `format` field".to_owned(),
            }
        )));
    }
    let shard = match &value["shard"] {
        Value::Null => Shard { index: 1, count: 1 },
        Value::String(s) => {
            Shard::parse(s).map_err(|e| Error::Usage(format!("{path}: shard: {e}")))?
        }
        other => {
            return Err(Error::Usage(format!(
                "{path}: shard: found {other}, expected \"K/N\""
            )));
        }
    };
    Ok(ShardResults {
        path: path.to_owned(),
        shard,
        value,
    })
}

/// Merges the results files `paths` (the shards of one suite, in any order).
pub fn merge_results(paths: &[String]) -> Result<MergedResults, Error> {
    let mut parts = paths
        .iter()
        .map(|p| read(p))
        .collect::<Result<Vec<_>, _>>()?;
    parts.sort_by_key(|p| p.shard.index);
    let Some(first) = parts.first() else {
        return Err(Error::Usage(
            "results merge needs at least one results file".into(),
        ));
    };
    for part in &parts[1..] {
        for field in SUITE_FIELDS {
            if part.value[field] != first.value[field] {
                return Err(Error::Usage(format!(
                    "{} and {} are results of different suites: `{field}` is {} in one and {} \
                     in the other; only the shards of one suite merge",
                    first.path, part.path, first.value[field], part.value[field]
                )));
            }
        }
        if part.shard.count != first.shard.count {
            return Err(Error::Usage(format!(
                "{} holds shard {} and {} shard {}: shards of one split have one N",
                first.path,
                first.shard.label(),
                part.path,
                part.shard.label()
            )));
        }
    }
    let count = first.shard.count;
    for pair in parts.windows(2) {
        if pair[0].shard.index == pair[1].shard.index {
            return Err(Error::Usage(format!(
                "{} and {} both hold shard {}",
                pair[0].path,
                pair[1].path,
                pair[0].shard.label()
            )));
        }
    }
    let present: HashSet<usize> = parts.iter().map(|p| p.shard.index).collect();
    let missing: Vec<String> = (1..=count)
        .filter(|k| !present.contains(k))
        .take(10)
        .map(|k| format!("{k}/{count}"))
        .collect();
    if !missing.is_empty() {
        return Err(Error::Usage(format!(
            "shard {} missing (of {count}): the suite's guarantee rests on every test, so every \
             shard's results are needed",
            missing.join(", ")
        )));
    }

    let mut tests = Vec::new();
    let mut names = HashSet::new();
    let mut counts = VerdictCounts::default();
    for part in &parts {
        for test in part.value["tests"].as_array().into_iter().flatten() {
            let name = test["name"].as_str().unwrap_or_default();
            if !names.insert(name.to_owned()) {
                return Err(Error::Usage(format!(
                    "{}: test `{name}` is in an earlier shard too: shards of one suite are disjoint",
                    part.path
                )));
            }
            tests.push(test.clone());
        }
        let c = &part.value["counts"];
        let field = |name: &str| c[name].as_u64().unwrap_or(0) as usize;
        counts.pass += field("pass");
        counts.fail += field("fail");
        counts.inconclusive += field("inconclusive");
        counts.unreached_goals += field("unreached_goals");
    }
    let distinct = |field: &str| -> Value {
        let values: Vec<&str> = parts
            .iter()
            .filter_map(|p| p.value[field].as_str())
            .collect();
        let unique: BTreeSet<&str> = values.iter().copied().collect();
        match unique.len() {
            1 => json!(values[0]),
            _ => json!(values.join("; ")),
        }
    };
    let mut value = json!({
        "format": "ncomplete-results-v1",
        "suite": distinct("suite"),
        "model": first.value["model"],
        "method": first.value["method"],
        "n": first.value["n"],
        "guarantee": first.value["guarantee"],
        "system": distinct("system"),
        "verdict": counts.verdict().to_string(),
        "counts": {
            "pass": counts.pass,
            "fail": counts.fail,
            "inconclusive": counts.inconclusive,
        },
        "merged": parts.iter().map(|p| json!({
            "results": p.path,
            "shard": p.shard.label(),
            "verdict": p.value["verdict"],
        })).collect::<Vec<_>>(),
        "tests": tests,
    });
    if counts.unreached_goals > 0 {
        value["counts"]["unreached_goals"] = json!(counts.unreached_goals);
    }
    if let Some(coverage) = merged_coverage(&parts) {
        value["coverage"] = coverage;
    }
    let mut json = serde_json::to_string_pretty(&value).unwrap_or_default();
    json.push('\n');
    Ok(MergedResults {
        json,
        counts,
        shards: count,
    })
}

/// The union of the shards' coverage, when every shard has one of the same specification (the
/// same numbers of states and transitions; its path may differ between machines).
fn merged_coverage(parts: &[ShardResults]) -> Option<Value> {
    let coverages: Vec<&Value> = parts
        .iter()
        .map(|p| p.value.get("coverage"))
        .collect::<Option<_>>()?;
    let first = coverages[0];
    if coverages
        .iter()
        .any(|c| c["states"] != first["states"] || c["transitions"] != first["transitions"])
    {
        return None;
    }
    let union = |field: &str| -> Vec<Value> {
        let mut seen = BTreeSet::new();
        let mut all = Vec::new();
        for c in &coverages {
            for item in c[field].as_array().into_iter().flatten() {
                if seen.insert(item.to_string()) {
                    all.push(item.clone());
                }
            }
        }
        all
    };
    let states = union("visited_states");
    let transitions = union("covered_transitions");
    Some(json!({
        "specification": first["specification"],
        "states_visited": states.len(),
        "states": first["states"],
        "transitions_covered": transitions.len(),
        "transitions": first["transitions"],
        "visited_states": states,
        "covered_transitions": transitions,
    }))
}

impl MergedResults {
    /// The line `results merge` prints: the shards merged and the suite's verdict with its
    /// counts.
    pub fn summary(&self) -> String {
        format!(
            "merged {} of {} shards; {}",
            self.shards,
            self.shards,
            self.counts.summary_line()
        )
    }

    /// The merged verdict.
    pub fn verdict(&self) -> TestVerdict {
        self.counts.verdict()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn results(
        dir: &std::path::Path,
        name: &str,
        shard: Option<&str>,
        tests: &[(&str, &str)],
    ) -> String {
        let counts = VerdictCounts::of(tests.iter().map(|(_, v)| match *v {
            "pass" => TestVerdict::Pass,
            "fail" => TestVerdict::Fail,
            _ => TestVerdict::Inconclusive,
        }));
        let mut value = json!({
            "format": "ncomplete-results-v1", "suite": "s.json", "model": "m", "method": "hsi",
            "n": 3, "guarantee": "g", "system": "sys", "verdict": counts.verdict().to_string(),
            "counts": {"pass": counts.pass, "fail": counts.fail, "inconclusive": counts.inconclusive},
            "tests": tests.iter().map(|(n, v)| json!({"name": n, "verdict": v})).collect::<Vec<_>>(),
        });
        if let Some(s) = shard {
            value["shard"] = json!(s);
        }
        let path = dir.join(name);
        std::fs::write(&path, value.to_string()).unwrap();
        path.display().to_string()
    }

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("ncomplete-merge-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn shards_merge_in_shard_order_with_summed_counts() {
        let dir = scratch("order");
        let b = results(&dir, "b.json", Some("2/2"), &[("t3", "fail")]);
        let a = results(
            &dir,
            "a.json",
            Some("1/2"),
            &[("t1", "pass"), ("t2", "inconclusive")],
        );
        let merged = merge_results(&[b, a]).unwrap();
        let v: Value = serde_json::from_str(&merged.json).unwrap();
        let names: Vec<&str> = v["tests"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["t1", "t2", "t3"]);
        assert_eq!(v["verdict"], "fail");
        assert_eq!(
            v["counts"],
            json!({"pass": 1, "fail": 1, "inconclusive": 1})
        );
        assert_eq!(merged.verdict(), TestVerdict::Fail);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_missing_repeated_or_foreign_shard_is_refused() {
        let dir = scratch("refuse");
        let a = results(&dir, "a.json", Some("1/3"), &[("t1", "pass")]);
        let c = results(&dir, "c.json", Some("3/3"), &[("t3", "pass")]);
        let again = results(&dir, "a2.json", Some("1/3"), &[("t9", "pass")]);
        let twice = results(&dir, "t.json", Some("2/3"), &[("t1", "pass")]);
        let error = |paths: &[&String]| {
            merge_results(&paths.iter().map(|p| p.to_string()).collect::<Vec<_>>())
                .unwrap_err()
                .to_string()
        };
        assert!(error(&[&a, &c]).contains("shard 2/3 missing"));
        assert!(error(&[&a, &again, &c]).contains("both hold shard 1/3"));
        assert!(error(&[&a, &twice, &c]).contains("test `t1` is in an earlier shard"));
        let whole = results(&dir, "w.json", None, &[("t1", "pass")]);
        assert!(error(&[&a, &whole]).contains("one N"));
        std::fs::remove_dir_all(dir).unwrap();
    }
}
