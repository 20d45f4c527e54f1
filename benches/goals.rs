//! Goal-directed coverage suites (`generate --cover states|transitions`): goals, tests, suite
//! nodes and wall time per model, for the bundled models and, when `../shared/models` is
//! present, the Mealy benchmarks m54, TCP_Linux_Server, m173 and ESM. ESM's suspension
//! automaton has 269,390 states, so its row solves a sample of the goals (every STRIDE-th) and
//! extrapolates the time to all goals (`est. all`).
//!
//! `cargo bench --bench goals`. Environment: NCOMPLETE_BENCH_ESM_STRIDE (default 500).

use ncomplete::goals::Coverage;
use ncomplete::goals::cases::coverage_goals;
use ncomplete::suite::costs::Budget;
use std::path::{Path, PathBuf};
use std::time::Instant;

fn row(path: &Path, coverage: Coverage, stride: usize) {
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let text = path.to_string_lossy();
    let Ok(model) = ncomplete::format::load_model(&text, &Default::default()) else {
        println!("{name:<28} (does not load)");
        return;
    };
    let Ok(sa) = ncomplete::suite::ioco::suspension_for(&model, &text) else {
        println!("{name:<28} (no suspension automaton)");
        return;
    };
    let budget = Budget {
        max_tests: u128::MAX,
        max_runs: u128::MAX,
        max_steps: u128::MAX,
        max_nodes: u128::MAX,
        max_bytes: u128::MAX,
        ..Budget::default()
    };
    let Ok(all) = coverage_goals(&sa, coverage, &budget) else {
        println!("{name:<28} (goals refused)");
        return;
    };
    let goals: Vec<_> = all.iter().step_by(stride).cloned().collect();
    let start = Instant::now();
    let method = format!("cover-{}", coverage.as_str());
    match ncomplete::goals::goal_suite(&sa, &goals, &method, 0, &budget) {
        Ok(suite) => {
            let secs = start.elapsed().as_secs_f64();
            let estimate = secs * all.len() as f64 / goals.len().max(1) as f64;
            println!(
                "{name:<28} {:<12} {:>9} {:>9} {:>9} {:>10} {:>10.2} {:>10.1}",
                coverage.as_str(),
                sa.num_states(),
                all.len(),
                goals.len(),
                suite.costs.nodes.to_string(),
                secs,
                estimate
            );
        }
        Err(e) => println!("{name:<28} {}: {e}", coverage.as_str()),
    }
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let esm_stride: usize = std::env::var("NCOMPLETE_BENCH_ESM_STRIDE")
        .ok()
        .and_then(|s| s.parse().ok())
        .filter(|&s| s > 0)
        .unwrap_or(500);
    println!(
        "{:<28} {:<12} {:>9} {:>9} {:>9} {:>10} {:>10} {:>10}",
        "model", "cover", "SA states", "goals", "solved", "nodes", "time s", "est. all s"
    );
    let bundled = [
        "vending.aut",
        "vdbos_fig6_5_tcp.aut",
        "coffeemachine.dot",
        "TCP_Linux_Client.dot",
    ];
    for m in bundled {
        for c in [Coverage::States, Coverage::Transitions] {
            row(&root.join("models").join(m), c, 1);
        }
    }
    let shared = root.join("../shared/models");
    let mealy = [
        ("automata-wiki/ASMLRERS2019/m54.dot", 1),
        ("automata-wiki/TCP/TCP_Linux_Server.dot", 1),
        ("automata-wiki/ASMLRERS2019/m173.dot", 1),
        ("esm/esm.dot", esm_stride),
    ];
    for (m, stride) in mealy {
        let path = shared.join(m);
        if path.exists() {
            for c in [Coverage::States, Coverage::Transitions] {
                row(&path, c, stride);
            }
        }
    }
}
