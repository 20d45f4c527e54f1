//! ioco suite benchmark: for the bundled LTS models, the size of every ioco method's suite and
//! the time to generate and build it, over a range of bounds n, stopping at a test budget
//! (`sizes` of the CLI, as a table per model and method).
//!
//! Run: `cargo bench --bench ioco` (add `-- --max-tests N` to change the budget, default 200000).

use ncomplete::format::{LoadOptions, load_model};
use ncomplete::suite::ioco::{Budget, IocoMethod, reachable_states, sizes, suspension_for};
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
            let table = sizes::size_table(&sa, method, 1..=8, budget);
            print!("{}", table.to_text());
        }
        println!();
    }
}
