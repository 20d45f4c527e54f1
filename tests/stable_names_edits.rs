//! Property test of stable names: one edited transition of a random small model renames no test
//! whose content it left unchanged, and gives no name (suite name or rendered identifier) to a
//! different test (a Mealy test is its input word, another test its tree). Mealy suites (named by input words, some longer than an identifier, so their
//! identifiers are cut and hashed), ioco suites and transition-coverage goal suites (named by a
//! stem and a content hash) are checked: 1,000 random models with one edit each, every edit
//! checked in all three kinds where the model allows, over 2,000 suite pairs in all. Tests are compared by their unfolded trees.

mod common;

use common::suite_json::tests_of;
use ncomplete::format::{LoadOptions, parse_model};
use ncomplete::goals::cases::coverage_goals;
use ncomplete::goals::{Coverage, goal_suite};
use ncomplete::model::Model;
use ncomplete::render::escape::TestIdentifiers;
use ncomplete::render::words::{MealySuiteFormat, write_mealy_suite};
use ncomplete::suite::costs::Budget;
use ncomplete::suite::ioco::{self, Bound, IocoMethod};
use ncomplete::suite::mealy::{MealyMethod, MealySuite, MealySuiteOptions};
use proptest::prelude::*;
use serde_json::Value;
use std::collections::HashMap;

/// Long input names, so that input words of four or more inputs exceed an identifier's length.
const INPUTS: [&str; 2] = ["insert_coin", "press_button"];
const OUTPUTS: [&str; 2] = ["ok", "coffee"];

/// A machine as, per state and input, (target, output index); `edit` changes one entry.
type Table = Vec<Vec<(usize, usize)>>;

fn mealy_dot(table: &Table) -> String {
    let mut text =
        "digraph m {\n  __start0 [label=\"\" shape=\"none\"];\n  __start0 -> s0;\n".to_owned();
    for (q, row) in table.iter().enumerate() {
        for (i, &(t, o)) in row.iter().enumerate() {
            text.push_str(&format!(
                "  s{q} -> s{t} [label=\"{} / {}\"];\n",
                INPUTS[i], OUTPUTS[o]
            ));
        }
    }
    text + "}\n"
}

/// An LTS over `?insert_coin ?press_button !ok !coffee`: per state and label, an optional
/// target (inputs always enabled).
fn lts_aut(table: &Table) -> String {
    let mut lines = Vec::new();
    for (q, row) in table.iter().enumerate() {
        for (i, &(t, o)) in row.iter().enumerate() {
            lines.push(format!("({q}, \"?{}\", {t})", INPUTS[i]));
            // The output entry `o` picks which output state `q` offers after input `i`'s row:
            // 0 none, 1 `!ok`, 2 `!coffee`, to the input's target.
            if o > 0 && i == q % 2 {
                lines.push(format!("({q}, \"!{}\", {t})", OUTPUTS[o - 1]));
            }
        }
    }
    format!(
        "des (0, {}, {})\n{}\n",
        lines.len(),
        table.len(),
        lines.join("\n")
    )
}

/// The tests with their rendered identifiers instead of their names (in suite order, as a
/// rendering gives them).
fn identifiers(tests: &[(String, String)]) -> Vec<(String, String)> {
    let mut ids = TestIdentifiers::new("_test");
    tests
        .iter()
        .map(|(name, content)| (ids.next(name), content.clone()))
        .collect()
}

/// No test whose content is in both suites changed its name, and no name denotes different
/// content in the two; names are unique.
fn assert_stable(what: &str, before: &[(String, String)], after: &[(String, String)]) {
    for suite in [before, after] {
        let mut names: Vec<&str> = suite.iter().map(|(n, _)| n.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), suite.len(), "{what}: names are not unique");
    }
    let name_of: HashMap<&str, &str> = before
        .iter()
        .map(|(n, c)| (c.as_str(), n.as_str()))
        .collect();
    let content_of: HashMap<&str, &str> = before
        .iter()
        .map(|(n, c)| (n.as_str(), c.as_str()))
        .collect();
    for (name, content) in after {
        if let Some(old) = name_of.get(content.as_str()) {
            assert_eq!(old, name, "{what}: an unchanged test was renamed");
        }
        if let Some(old) = content_of.get(name.as_str()) {
            assert_eq!(old, content, "{what}: `{name}` now names another test");
        }
    }
}

fn assert_both_stable(what: &str, before: &[(String, String)], after: &[(String, String)]) {
    assert_stable(&format!("{what} names"), before, after);
    assert_stable(
        &format!("{what} identifiers"),
        &identifiers(before),
        &identifiers(after),
    );
}

fn parse(text: &str, file: &str) -> Model {
    parse_model(text, file, &LoadOptions::default()).expect("a valid model")
}

fn mealy_tests(table: &Table) -> Option<Vec<(String, String)>> {
    let Model::Mealy(machine) = parse(&mealy_dot(table), "m.dot") else {
        panic!("a Mealy machine")
    };
    let suite = MealySuite::new(&machine, MealySuiteOptions::new(MealyMethod::Hads, 1)).ok()?;
    let mut bytes = Vec::new();
    write_mealy_suite(&mut bytes, &suite, MealySuiteFormat::Json).unwrap();
    // A Mealy test is its input word: an edit may change the outputs it expects, and the test
    // keeps its name (the same inputs, checked against the new outputs).
    let tests = tests_of(std::str::from_utf8(&bytes).unwrap());
    Some(
        tests
            .into_iter()
            .map(|(name, content)| (name, input_word(&content)))
            .collect(),
    )
}

/// The inputs a Mealy test sends, in order, from its content as [`tests_of`] gives it (a
/// Mealy test is a chain: each send's `then` is the expect node whose one branch goes on).
fn input_word(content: &str) -> String {
    let test: Value = serde_json::from_str(content).unwrap();
    let mut sends = Vec::new();
    let mut node = &test["tree"];
    while let Some(input) = node["send"].as_str() {
        sends.push(input.to_owned());
        let expect = &node["then"]["expect"];
        node = match expect.as_object().and_then(|b| b.values().next()) {
            Some(next) => next,
            None => break,
        };
    }
    sends.join(" ")
}

/// The ioco suite and the transition-coverage suite of an LTS (`None` when the model is
/// refused, e.g. over the budget).
fn lts_tests(table: &Table) -> Option<[Vec<(String, String)>; 2]> {
    let model = parse(&lts_aut(table), "m.aut");
    let sa = ioco::suspension_for(&model, "m.aut").ok()?;
    let budget = Budget::default();
    let suite = ioco::generate(&sa, IocoMethod::Complete, Bound::ExtraStates(0), budget).ok()?;
    let bytes = suite.write_json(Vec::new()).unwrap();
    let complete = tests_of(std::str::from_utf8(&bytes).unwrap());
    let goals = coverage_goals(&sa, Coverage::Transitions, &budget).ok()?;
    let goal_suite = goal_suite(&sa, &goals, "cover-transitions", 2, &budget).ok()?;
    // A goal suite's test is its tree and the transition it covers, named by its source state
    // and label (`transition {1} --insert_coin-->`): an edit of the target state alone leaves
    // the test, and its name, as they were.
    let goal_of: HashMap<String, String> = goal_suite
        .reports
        .iter()
        .filter_map(|r| {
            let goal = r
                .goal
                .split_once("-->")
                .map_or(&r.goal[..], |(from, _)| from);
            Some((r.test.clone()?, goal.to_owned()))
        })
        .collect();
    let bytes = goal_suite.write_to(Vec::new()).unwrap();
    let covering = tests_of(std::str::from_utf8(&bytes).unwrap())
        .into_iter()
        .map(|(name, tree)| {
            let goal = goal_of.get(&name).cloned().unwrap_or_default();
            (name, format!("{goal}\n{tree}"))
        })
        .collect();
    Some([complete, covering])
}

/// A random table of 2 to 4 states and one edit: (state, input, new entry).
fn table_and_edit() -> impl Strategy<Value = (Table, (usize, usize, (usize, usize)))> {
    (2usize..=4).prop_flat_map(|n| {
        let entry = (0..n, 0usize..3);
        (
            proptest::collection::vec(proptest::collection::vec(entry.clone(), 2), n),
            (0..n, 0usize..2, entry),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn one_edited_transition_moves_no_name(case in table_and_edit()) {
        let (table, (q, i, entry)) = case;
        let mut edited = table.clone();
        edited[q][i] = entry;
        prop_assume!(edited != table);
        // Mealy outputs are 0 or 1 (`OUTPUTS`); the LTS reads 0 as "no output".
        let as_mealy = |t: &Table| -> Table {
            t.iter().map(|row| row.iter().map(|&(s, o)| (s, o % 2)).collect()).collect()
        };
        let (mealy_before, mealy_after) = (as_mealy(&table), as_mealy(&edited));
        if mealy_before != mealy_after
            && let (Some(before), Some(after)) = (mealy_tests(&mealy_before), mealy_tests(&mealy_after))
        {
            assert_both_stable("mealy", &before, &after);
        }
        if let (Some(before), Some(after)) = (lts_tests(&table), lts_tests(&edited)) {
            assert_both_stable("ioco", &before[0], &after[0]);
            assert_both_stable("cover-transitions", &before[1], &after[1]);
        }
    }
}

#[test]
fn long_mealy_words_are_cut_with_a_hash_not_numbered() {
    // Input words of five inputs: every identifier is cut, none gets a positional suffix.
    let table: Table = vec![
        vec![(1, 0), (0, 1)],
        vec![(2, 1), (0, 0)],
        vec![(0, 0), (1, 1)],
    ];
    let tests = mealy_tests(&table).unwrap();
    let ids = identifiers(&tests);
    let long: Vec<&String> = ids
        .iter()
        .map(|(id, _)| id)
        .filter(|id| id.len() >= 20)
        .collect();
    assert!(!long.is_empty());
    for id in &ids {
        let cut = id.0.rsplit_once('_').map(|(_, tail)| tail);
        assert!(
            !cut.is_some_and(|t| t.len() < 3 && t.bytes().all(|b| b.is_ascii_digit())),
            "{} ends in a position",
            id.0
        );
    }
}
