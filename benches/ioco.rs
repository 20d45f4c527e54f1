//! ioco suite benchmark: for the bundled LTS models, the size of every ioco method's suite and
//! the time to generate and build it, over a range of bounds n, stopping at a test budget
//! (`sizes` of the CLI, as a table per model and method).
//!
//! Then, on seeded random suspension automata with compatible states (4-7 states, 2 inputs,
//! 2 outputs; compatible pairs, but at most half of the pairs), the test counts of `T(S, n)`, `U(S, n)` and the three `ioco-counting` families at
//! n = |S| and |S|+1, counted from the plans (no test is built).
//!
//! Run: `cargo bench --bench ioco` (add `-- --max-tests N` to change the budget, default 200000).

use ncomplete::format::{LoadOptions, load_model};
use ncomplete::suite::ioco::{
    Bound, Budget, IncompatibleSets, IocoMethod, IocoSuiteError, plan_suite, reachable_states,
    sizes, suspension_for,
};
use std::path::PathBuf;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let max_tests = args
        .iter()
        .position(|a| a == "--max-tests")
        .and_then(|k| args.get(k + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(200_000u128);
    let budget = Budget {
        max_tests,
        ..Budget::default()
    };
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    for rel in [
        "tests/fixtures/coffee.aut",
        "models/vending.aut",
        "models/vdbos_fig3_1.aut",
    ] {
        let path = root.join(rel).display().to_string();
        let model = match load_model(&path, &LoadOptions::default()) {
            Ok(m) => m,
            Err(e) => {
                eprintln!("skipping {rel}: {e}");
                continue;
            }
        };
        let sa = suspension_for(&model, &path).expect("bundled models have suspension automata");
        println!(
            "== {rel}: {} states, {} reachable, {} transitions",
            sa.num_states(),
            reachable_states(&sa).len(),
            sa.num_transitions()
        );
        for method in [
            IocoMethod::Ads,
            IocoMethod::Complete,
            IocoMethod::Unconditional,
        ] {
            let table = sizes::size_table(&sa, method, 1..=8, budget, Default::default());
            print!("{}", table.to_text());
        }
        println!();
    }
    counting_table();
}

/// Test counts of T, U and `ioco-counting` on random suspension automata with compatible states.
fn counting_table() {
    use ncomplete::analysis::{Compatibility, equivalence_classes};
    use ncomplete::identify::random::random_suspension;
    // Test counts only: `plan_suite` checks no budget, and a zero step budget skips the walk
    // that counts nodes and bytes.
    let budget = Budget {
        max_tests: u128::MAX,
        max_steps: 0,
        max_plan_nodes: 300_000,
        ..Budget::default()
    };
    let methods = [
        ("T", IocoMethod::Complete),
        ("U", IocoMethod::Unconditional),
        ("cnt-max", IocoMethod::Counting(IncompatibleSets::Maximal)),
        ("cnt-lrg", IocoMethod::Counting(IncompatibleSets::Largest)),
        ("cnt-none", IocoMethod::Counting(IncompatibleSets::None)),
    ];
    println!(
        "== random suspension automata (2 inputs, 2 outputs, 1 to half of the pairs compatible): \
         tests; refused: over 300,000 plan nodes"
    );
    print!("{:<10} {:>3} {:>6}", "model", "n", "compat");
    for (name, _) in &methods {
        print!(" {name:>12}");
    }
    println!();
    let count = |t: Result<u128, IocoSuiteError>| match t {
        Ok(t) if t < 1_000_000_000 => t.to_string(),
        Ok(t) => format!("{t:.1e}"),
        Err(_) => "refused".to_owned(),
    };
    for states in 4..=7 {
        let mut shown = 0;
        for seed in 0..200u64 {
            if shown == 3 {
                break;
            }
            let sa = random_suspension(1000 * states as u64 + seed, states, 2, 2);
            if reachable_states(&sa).len() != states {
                continue;
            }
            let compat = Compatibility::compute(&sa);
            let eq = equivalence_classes(&sa);
            let compatible = sa
                .states()
                .flat_map(|p| sa.states().map(move |q| (p, q)))
                .filter(|&(p, q)| p < q && compat.compatible(p, q) && !eq.equivalent(p, q))
                .count();
            // Some compatible pairs, but at most half of them: with (nearly) every pair
            // compatible, incompatible sets are small and every method is U.
            if compatible == 0 || 2 * compatible > states * (states - 1) / 2 {
                continue;
            }
            shown += 1;
            for n in [states, states + 1] {
                print!("{:<10} {n:>3} {compatible:>6}", sa.name);
                for (_, method) in &methods {
                    let tests =
                        plan_suite(&sa, *method, Bound::States(n), budget).map(|s| s.num_tests());
                    print!(" {:>12}", count(tests));
                }
                println!();
            }
        }
    }
}
