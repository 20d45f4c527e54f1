//! The published JSON Schema of the suite format (`schema/suite-v1.schema.json`) against the
//! suites ncomplete writes: every Mealy and ioco method, `distinguish --suite`, the committed
//! renderings' suites (a goal suite with its `goals` among them) and the fixtures validate; documents the reader refuses are refused by the
//! schema too, and the reader's refusals carry a position (line and column, or a JSON path).

use ncomplete::format::{LoadOptions, load_model};
use ncomplete::model::Model;
use ncomplete::render::words::{MealySuiteFormat, write_mealy_suite};
use ncomplete::suite::costs::Budget;
use ncomplete::suite::ioco::{self, Bound, IncompatibleSets, IocoMethod};
use ncomplete::suite::mealy::{MealyMethod, MealySuite, MealySuiteOptions};
use serde_json::Value;

fn validator() -> jsonschema::Validator {
    let schema: Value =
        serde_json::from_str(include_str!("../schema/suite-v1.schema.json")).expect("schema");
    jsonschema::validator_for(&schema).expect("a valid JSON Schema")
}

/// The schema's complaints about `text` (empty: valid).
fn violations(validator: &jsonschema::Validator, text: &str) -> Vec<String> {
    let instance: Value = serde_json::from_str(text).expect("JSON");
    validator
        .iter_errors(&instance)
        .map(|e| e.to_string())
        .collect()
}

fn assert_valid(validator: &jsonschema::Validator, text: &str, what: &str) {
    let v = violations(validator, text);
    assert!(v.is_empty(), "{what}: {v:?}");
}

fn path(relative: &str) -> String {
    format!("{}/{relative}", env!("CARGO_MANIFEST_DIR"))
}

fn model(name: &str) -> Model {
    load_model(&path(&format!("models/{name}")), &LoadOptions::default()).expect("model")
}

#[test]
fn mealy_suites_of_every_method_validate() {
    let validator = validator();
    let Model::Mealy(machine) = model("coffeemachine.dot") else {
        panic!("a Mealy machine")
    };
    for method in [
        MealyMethod::W,
        MealyMethod::Wp,
        MealyMethod::Hsi,
        MealyMethod::HsiSt,
        MealyMethod::Hads,
        MealyMethod::Uio,
        MealyMethod::Uiov,
        MealyMethod::Auto,
    ] {
        let suite = MealySuite::new(&machine, MealySuiteOptions::new(method, 1)).unwrap();
        let mut bytes = Vec::new();
        write_mealy_suite(&mut bytes, &suite, MealySuiteFormat::Json).unwrap();
        assert_valid(
            &validator,
            std::str::from_utf8(&bytes).unwrap(),
            method.name(),
        );
    }
}

#[test]
fn ioco_suites_of_every_method_validate() {
    let validator = validator();
    let methods = [
        IocoMethod::Complete,
        IocoMethod::Unconditional,
        IocoMethod::Ads,
        IocoMethod::Counting(IncompatibleSets::Maximal),
        IocoMethod::Counting(IncompatibleSets::Largest),
        IocoMethod::Auto,
    ];
    // Suites over the budget are skipped, but every method must write some suites here.
    let budget = Budget {
        max_tests: 20_000,
        ..Budget::default()
    };
    let mut validated = vec![0; methods.len()];
    // (vending at n = |S| takes half a minute to refuse, so it is tested at n = 2 only.)
    let cases = [
        ("vending.aut", &[Bound::States(2)][..]),
        (
            "tea_machine.dot",
            &[Bound::States(2), Bound::ExtraStates(0)][..],
        ),
        (
            "vdbos_fig2_1.aut",
            &[Bound::States(2), Bound::ExtraStates(0)][..],
        ),
    ];
    for (name, bounds) in cases {
        let sa = ioco::suspension_for(&model(name), name).unwrap();
        for &bound in bounds {
            for (k, &method) in methods.iter().enumerate() {
                let Ok(suite) = ioco::generate(&sa, method, bound, budget) else {
                    continue;
                };
                let bytes = suite.write_json(Vec::new()).unwrap();
                let text = String::from_utf8(bytes).unwrap();
                assert_valid(&validator, &text, &format!("{name} {}", method.name()));
                // The schema sees the tests the generator counted.
                let doc: Value = serde_json::from_str(&text).unwrap();
                assert_eq!(
                    doc["tests"].as_array().unwrap().len() as u128,
                    suite.num_tests()
                );
                validated[k] += 1;
            }
        }
    }
    for (method, count) in methods.iter().zip(&validated) {
        assert!(*count >= 2, "{}: {count} suites validated", method.name());
    }
}

#[test]
fn distinguish_suites_committed_suites_and_fixtures_validate() {
    let validator = validator();
    let out = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("schema-adg.json");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_ncomplete"))
        .args(["distinguish", &path("models/vdbos_fig3_1.aut"), "--suite"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_valid(
        &validator,
        &std::fs::read_to_string(&out).unwrap(),
        "distinguish --suite",
    );
    for file in [
        "generated/coffeemachine/suite.json",
        "generated/tea_machine/suite.json",
        "examples/vending-lts/suite.json",
        "tests/fixtures/mealy.suite.json",
        "tests/fixtures/coffee.suite.json",
    ] {
        assert_valid(
            &validator,
            &std::fs::read_to_string(path(file)).unwrap(),
            file,
        );
    }
}

/// An edit that breaks a suite document.
type Change = Box<dyn Fn(&mut Value)>;

#[test]
fn documents_the_reader_refuses_are_refused_by_the_schema_with_a_position() {
    let validator = validator();
    let good = std::fs::read_to_string(path("tests/fixtures/mealy.suite.json")).unwrap();
    assert_valid(&validator, &good, "fixture");
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("schema-bad");
    std::fs::create_dir_all(&dir).unwrap();
    let mut doc: Value = serde_json::from_str(&good).unwrap();
    let cases: Vec<(&str, Change, &str)> = vec![
        (
            "no guarantee",
            Box::new(|d: &mut Value| {
                d.as_object_mut().unwrap().remove("guarantee");
            }),
            "guarantee",
        ),
        (
            "wrong version",
            Box::new(|d: &mut Value| d["version"] = Value::from(2)),
            "version",
        ),
        (
            "a verdict misspelt",
            Box::new(|d: &mut Value| {
                let nodes = d["tests"][0]["nodes"].as_array_mut().unwrap();
                let node = nodes
                    .iter_mut()
                    .find(|n| n.get("send").is_some())
                    .expect("a send node");
                node["then"] = Value::from("passed");
            }),
            "tests[0].nodes[",
        ),
    ];
    for (what, change, located) in &cases {
        let mut bad = doc.clone();
        change(&mut bad);
        let text = serde_json::to_string_pretty(&bad).unwrap();
        assert!(
            !violations(&validator, &text).is_empty(),
            "the schema accepts a suite with {what}"
        );
        let file = dir.join(format!("{}.json", what.replace(' ', "-")));
        std::fs::write(&file, &text).unwrap();
        let err = ncomplete::exec::commands::load_suite(&file.display().to_string())
            .expect_err(what)
            .to_string();
        assert!(err.contains(located), "{what}: {err}");
    }
    // A syntax error is reported at its line and column.
    doc["tests"] = Value::Array(vec![]);
    let text = serde_json::to_string_pretty(&doc)
        .unwrap()
        .replace("\"tests\": []", "\"tests\": [,]");
    let line = 1 + text.lines().position(|l| l.contains("[,]")).unwrap();
    let file = dir.join("syntax.json");
    std::fs::write(&file, &text).unwrap();
    let err = ncomplete::exec::commands::load_suite(&file.display().to_string())
        .unwrap_err()
        .to_string();
    assert!(err.contains(&format!("syntax.json:{line}:")), "{err}");
}
