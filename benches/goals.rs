//! Goal-directed coverage suites (`generate --cover states|transitions`): goals, tests, suite
//! nodes and wall time per model, for the bundled models and, when `../shared/models` is
//! present, the Mealy benchmarks m54, TCP_Linux_Server, m173 and ESM.
//!
//! `time s` builds the whole suite as `generate` does (goals sharing one shortest-path tree
//! when the automaton's goal games are deterministic, `shared`; the exact figures measured,
//! which serializes every test once). The per-goal solver, which solves each goal's own game,
//! is run on a sample (every STRIDE-th goal; all goals on the bundled models) and its time
//! extrapolated to all goals (`per-goal est. s`); `same` says whether both ways give the same
//! suite JSON on that sample.
//!
//! `cargo bench --bench goals`. Environment: NCOMPLETE_BENCH_GOAL_STRIDE (default 1 for the
//! bundled models, m54 and TCP, 10 for m173, 500 for ESM when set to 0 or unset).

use ncomplete::goals::cases::{Sharing, coverage_goals, goal_suite_with};
use ncomplete::goals::{Coverage, Goal};
use ncomplete::model::SuspensionAutomaton;
use ncomplete::suite::costs::Budget;
use std::path::{Path, PathBuf};
use std::time::Instant;

fn unlimited() -> Budget {
    Budget {
        max_tests: u128::MAX,
        max_runs: u128::MAX,
        max_steps: u128::MAX,
        max_nodes: u128::MAX,
        max_bytes: u128::MAX,
        ..Budget::default()
    }
}

/// The suite JSON of `goals` built with `sharing`, and the seconds it took.
fn suite_json(
    sa: &SuspensionAutomaton,
    goals: &[Goal],
    method: &str,
    sharing: Sharing,
) -> Option<(String, f64)> {
    let start = Instant::now();
    let suite = goal_suite_with(sa, goals, method, 0, &unlimited(), sharing).ok()?;
    let secs = start.elapsed().as_secs_f64();
    let json = suite.write_to(Vec::new()).ok()?;
    Some((String::from_utf8(json).ok()?, secs))
}

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
    let Ok(all) = coverage_goals(&sa, coverage, &unlimited()) else {
        println!("{name:<28} (goals refused)");
        return;
    };
    let method = format!("cover-{}", coverage.as_str());
    let start = Instant::now();
    let suite = match goal_suite_with(&sa, &all, &method, 0, &unlimited(), Sharing::Shared) {
        Ok(suite) => suite,
        Err(e) => {
            println!("{name:<28} {}: {e}", coverage.as_str());
            return;
        }
    };
    let secs = start.elapsed().as_secs_f64();
    let (shared, nodes) = (suite.shares_paths(), suite.costs.nodes.to_string());
    drop(suite);
    let sample: Vec<Goal> = all.iter().step_by(stride).cloned().collect();
    let per_goal = suite_json(&sa, &sample, &method, Sharing::PerGoal);
    let fast = suite_json(&sa, &sample, &method, Sharing::Shared);
    let (estimate, same) = match (per_goal, fast) {
        (Some((a, t)), Some((b, _))) => (
            format!("{:.1}", t * all.len() as f64 / sample.len().max(1) as f64),
            if a == b { "yes" } else { "NO" },
        ),
        _ => ("-".to_owned(), "-"),
    };
    println!(
        "{name:<28} {:<12} {:>9} {:>9} {:>6} {:>10} {:>9.2} {:>7} {:>14} {:>5}",
        coverage.as_str(),
        sa.num_states(),
        all.len(),
        if shared { "yes" } else { "no" },
        nodes,
        secs,
        sample.len(),
        estimate,
        same
    );
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let stride_override: Option<usize> = std::env::var("NCOMPLETE_BENCH_GOAL_STRIDE")
        .ok()
        .and_then(|s| s.parse().ok())
        .filter(|&s| s > 0);
    println!(
        "{:<28} {:<12} {:>9} {:>9} {:>6} {:>10} {:>9} {:>7} {:>14} {:>5}",
        "model",
        "cover",
        "SA states",
        "goals",
        "shared",
        "nodes",
        "time s",
        "sample",
        "per-goal est. s",
        "same"
    );
    let bundled = [
        "vending.aut",
        "vdbos_fig6_5_tcp.aut",
        "coffeemachine.dot",
        "TCP_Linux_Client.dot",
    ];
    for m in bundled {
        for c in [Coverage::States, Coverage::Transitions] {
            row(
                &root.join("models").join(m),
                c,
                stride_override.unwrap_or(1),
            );
        }
    }
    let shared = root.join("../shared/models");
    let mealy = [
        ("automata-wiki/ASMLRERS2019/m54.dot", 1),
        ("automata-wiki/TCP/TCP_Linux_Server.dot", 1),
        ("automata-wiki/ASMLRERS2019/m173.dot", 10),
        ("esm/esm.dot", 500),
    ];
    for (m, stride) in mealy {
        let path = shared.join(m);
        if path.exists() {
            for c in [Coverage::States, Coverage::Transitions] {
                row(&path, c, stride_override.unwrap_or(stride));
            }
        }
    }
}
