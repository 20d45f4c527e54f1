//! Tests of the STS runner: purposes executed on bundled STSs against their mutants, the
//! timing rule, timer outputs, the purposes file.

use crate::exec::stdio::Timeouts;
use crate::sts::purposes::Criterion;
use crate::sts::types::Sts;
use serde_json::json;

use super::adapter::StsAdapter;
use super::options::StsRunOptions;
use super::purposes::{PurposePath, purposes_from_json};
use super::report::PurposeVerdict;
use super::run::{random_run, run_purposes};
use super::walker::Walker;
use crate::sts::load::{Syntax, parse_sts};
use crate::sts::z3::Z3Solver;

fn bundled(path: &str) -> Sts {
    let file = format!("{}/models/sts/{path}.sts.yaml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&file).unwrap();
    parse_sts(&text, &file, path, Syntax::Yaml).unwrap()
}

/// The one timer-output rule in the purpose runner: a timer output counts only where a
/// tracked state may enable another output switch (`ready_hello`: only `ready` at the
/// start, only `hello` once ready).
#[test]
fn a_timer_output_counts_only_where_another_output_is_allowed() {
    let file = format!(
        "{}/tests/fixtures/ready_hello.sts.yaml",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&file).unwrap();
    let sts = parse_sts(&text, &file, "ready_hello", Syntax::Yaml).unwrap();
    let mut solver = Z3Solver::new();
    let mut walker = Walker::new(&sts, &mut solver, 0, Criterion::SWITCHES, &[]);
    let names = |labels: &[&str]| labels.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    assert!(!walker.another_output_allowed(&names(&["ready"])));
    assert!(walker.another_output_allowed(&names(&["hello"])));
    let ready = sts.gates.iter().position(|g| g.name == "ready").unwrap();
    let start = std::mem::take(&mut walker.states);
    walker.states = walker.after(&start, ready, &[], false).unwrap();
    assert!(walker.another_output_allowed(&names(&["ready"])));
    assert!(!walker.another_output_allowed(&names(&["hello"])));
    // Another reading still at the start allows `ready`.
    walker.others = vec![(sts.initial_state(), 0)];
    assert!(walker.another_output_allowed(&names(&["hello"])));
}

#[test]
fn random_runs_fail_a_mutant_and_not_the_specification() {
    let spec = bundled("brp");
    let mutant = bundled("mutants/brp_toggle");
    let timeouts = Timeouts::default();
    let mut found = 0;
    for seed in 0..5 {
        let mut adapter = StsAdapter::new(&mutant, Box::new(Z3Solver::new()), seed);
        let steps = random_run(
            &spec,
            &mut Z3Solver::new(),
            &mut adapter,
            seed,
            400,
            &timeouts,
        )
        .unwrap();
        found += usize::from(steps.is_some());
        let mut adapter = StsAdapter::new(&spec, Box::new(Z3Solver::new()), seed);
        let steps = random_run(
            &spec,
            &mut Z3Solver::new(),
            &mut adapter,
            seed,
            200,
            &timeouts,
        )
        .unwrap();
        assert_eq!(steps, None, "seed {seed}: the specification never fails");
    }
    assert!(
        found >= 4,
        "the toggle fault is found within 400 steps: {found}/5"
    );
}

#[test]
fn a_purposes_file_gives_back_its_feasible_items() {
    let sts = bundled("brp");
    let purposes =
        crate::sts::purposes::item_purposes(&sts, &mut Z3Solver::new(), Criterion::SWITCH_PAIRS)
            .unwrap();
    assert!(!purposes.items.is_empty());
    let text = purposes.to_json(&sts);
    let file = purposes_from_json(&sts, &mut Z3Solver::new(), &text).unwrap();
    assert_eq!(file.criterion, Criterion::SWITCH_PAIRS);
    assert_eq!(file.items.as_ref(), Some(&purposes.items));
    assert_eq!(file.paths.len(), purposes.purposes.len());
    // A file written before the key existed still reads, without items.
    let mut doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    doc["item_coverage"]
        .as_object_mut()
        .unwrap()
        .remove("feasible");
    let old = purposes_from_json(&sts, &mut Z3Solver::new(), &doc.to_string()).unwrap();
    assert_eq!(old.items, None);
    // An item of another model is refused with the shape expected.
    doc["item_coverage"]["feasible"] = json!([{"switch": "no_such", "variable": "i", "value": 1}]);
    let err = purposes_from_json(&sts, &mut Z3Solver::new(), &doc.to_string()).unwrap_err();
    assert!(err.to_string().contains("no item of the model"), "{err}");
}

/// Whether the purposes of `criterion` on `spec` fail `mutant` (one round, seed 1).
fn detects(spec: &Sts, criterion: Criterion, mutant: &Sts) -> bool {
    let purposes =
        crate::sts::purposes::item_purposes(spec, &mut Z3Solver::new(), criterion).unwrap();
    let paths: Vec<PurposePath> = purposes.purposes.into_iter().map(Into::into).collect();
    let mut adapter = StsAdapter::new(mutant, Box::new(Z3Solver::new()), 7);
    let options = StsRunOptions::new(1, 1, Timeouts::default(), criterion);
    let report = run_purposes(
        spec,
        &mut Z3Solver::new(),
        &paths,
        &mut adapter,
        &options,
        |_| {},
    )
    .unwrap();
    report.verdict() == PurposeVerdict::Fail
}

#[test]
fn switch_pair_coverage_needs_both_pairs_and_bounds() {
    // The three mutants switch coverage misses: each half of switch-pair coverage alone
    // misses some, the whole criterion detects all.
    let pairs_only = Criterion {
        pairs: true,
        bounds: false,
    };
    let bounds_only = Criterion {
        pairs: false,
        bounds: true,
    };
    for (spec, mutant, by_pairs, by_bounds) in [
        ("brp", "brp_last", false, true),
        ("brp", "brp_last_dk", false, true),
        ("login", "login_assign", true, false),
    ] {
        let spec = bundled(spec);
        let mutant = bundled(&format!("mutants/{mutant}"));
        assert!(
            detects(&spec, Criterion::SWITCH_PAIRS, &mutant),
            "{}: switch-pairs",
            mutant.name
        );
        assert_eq!(
            detects(&spec, pairs_only, &mutant),
            by_pairs,
            "{}: pairs without bounds",
            mutant.name
        );
        assert_eq!(
            detects(&spec, bounds_only, &mutant),
            by_bounds,
            "{}: bounds without pairs",
            mutant.name
        );
    }
}
