//! Runs of the complete ioco suites and of `ioco-auto` (issue 11): over seeded random suspension
//! automata with 4-7 states, 2 inputs, 2 outputs and at least one pair of compatible reachable
//! states, at n = |S| and n = |S| + 1, the runs (root-to-verdict paths over all tests) of T(S, n),
//! U(S, n), the three `ioco-counting` variants and the suite `ioco-auto` picks, all counted from
//! the plans (no test is built). A figure marked `R` was refused by a budget (its runs are still
//! counted), `NC` is not a candidate (T nesting U(merge, n)), `-` could not be planned within
//! the plan-node budget. The summary gives the median of U/auto and whether auto is never above
//! min(T, U) (T only where it is a candidate).
//!
//! Run: `cargo bench --bench ioco_costs` (`-- --models N` for another number of models, default
//! 40).

use ncomplete::analysis::Compatibility;
use ncomplete::identify::random::random_suspension;
use ncomplete::suite::costs::{Budget, Figure};
use ncomplete::suite::ioco::auto::{Candidate, Status, choose};
use ncomplete::suite::ioco::{Bound, IncompatibleSets, IocoMethod, reachable_states};
use std::time::Instant;

/// Whether two distinct reachable states are compatible.
fn has_compatible_states(sa: &ncomplete::model::SuspensionAutomaton) -> bool {
    let Ok(compat) = Compatibility::compute_within(sa, 1_000_000) else {
        return false;
    };
    let reach = reachable_states(sa);
    reach
        .iter()
        .any(|&p| reach.iter().any(|&q| p < q && compat.compatible(p, q)))
}

fn cell(c: Option<&Candidate>) -> (String, Option<u128>) {
    let Some(c) = c else {
        return ("?".into(), None);
    };
    let runs = c.costs.map(|x| x.runs);
    let exact = runs.and_then(Figure::exact);
    let text = match (&c.status, runs) {
        (_, None) => "-".to_string(),
        (Status::Fits, Some(r)) => r.to_string(),
        (Status::Refused(_), Some(r)) => format!("{r} R"),
        (Status::NotComplete(_), Some(r)) => format!("{r} NC"),
    };
    (text, exact)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let wanted = args
        .iter()
        .position(|a| a == "--models")
        .and_then(|k| args.get(k + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(40usize);
    let budget = Budget {
        max_plan_nodes: 300_000,
        ..Budget::default()
    };
    println!(
        "budgets: tests {}, runs {}, steps {}, nodes {}, bytes {}, plan nodes {}",
        budget.max_tests,
        budget.max_runs,
        budget.max_steps,
        budget.max_nodes,
        budget.max_bytes,
        budget.max_plan_nodes
    );
    println!(
        "{:>5} {:>3} {:>3} {:>26} {:>26} {:>20} {:>20} {:>26} {:>12}  auto chose",
        "seed", "|S|", "n", "T", "U", "count-maximal", "count-largest", "count-none", "auto"
    );
    let mut ratios: Vec<f64> = Vec::new();
    let mut never_above = true;
    let mut rows = 0;
    let mut models = 0;
    let mut auto_refused = 0;
    let start = Instant::now();
    let mut seed = 0u64;
    while models < wanted {
        seed += 1;
        let states = 4 + (seed % 4) as usize;
        let sa = random_suspension(seed, states, 2, 2);
        if !has_compatible_states(&sa) {
            continue;
        }
        models += 1;
        let size = reachable_states(&sa).len();
        for n in [size, size + 1] {
            rows += 1;
            let find =
                |cands: &[Candidate], m: IocoMethod| cands.iter().find(|c| c.method == m).cloned();
            let (cands, auto) = match choose(&sa, Bound::States(n), budget) {
                Ok((suite, choice)) => {
                    let name = ncomplete::suite::ioco::auto::candidate_name(
                        choice.candidates[choice.chosen].method,
                    );
                    (choice.candidates, Some((suite.costs().runs, name)))
                }
                Err(e) => {
                    auto_refused += 1;
                    eprintln!("seed {seed} n {n}: {e}");
                    (Vec::new(), None)
                }
            };
            let (t, t_runs) = cell(find(&cands, IocoMethod::Complete).as_ref());
            let (u, u_runs) = cell(find(&cands, IocoMethod::Unconditional).as_ref());
            let (cm, _) =
                cell(find(&cands, IocoMethod::Counting(IncompatibleSets::Maximal)).as_ref());
            let (cl, _) =
                cell(find(&cands, IocoMethod::Counting(IncompatibleSets::Largest)).as_ref());
            let (cn, _) = cell(find(&cands, IocoMethod::Counting(IncompatibleSets::None)).as_ref());
            let t_candidate = find(&cands, IocoMethod::Complete)
                .is_some_and(|c| !matches!(c.status, Status::NotComplete(_)));
            let (auto_text, chosen) = match &auto {
                Some((runs, name)) => (runs.to_string(), name.clone()),
                None => ("refused".to_string(), "-".to_string()),
            };
            if let Some(a) = auto.as_ref().and_then(|(r, _)| r.exact()) {
                if let Some(u) = u_runs {
                    ratios.push(u as f64 / a.max(1) as f64);
                }
                let t_bound = if t_candidate { t_runs } else { None };
                let best = [t_bound, u_runs].into_iter().flatten().min();
                if best.is_some_and(|b| a > b) {
                    never_above = false;
                }
            }
            println!(
                "{seed:>5} {size:>3} {n:>3} {t:>26} {u:>26} {cm:>20} {cl:>20} {cn:>26} {auto_text:>12}  {chosen}"
            );
        }
    }
    ratios.sort_by(f64::total_cmp);
    let median = if ratios.is_empty() {
        f64::NAN
    } else if ratios.len() % 2 == 1 {
        ratios[ratios.len() / 2]
    } else {
        (ratios[ratios.len() / 2 - 1] + ratios[ratios.len() / 2]) / 2.0
    };
    println!(
        "summary: {models} models, {rows} rows; median runs U/auto = {median:.1} over {} rows; \
         auto <= min(T, U) everywhere: {never_above}; auto refused (no candidate fits): {auto_refused}; \
         {:.1} s",
        ratios.len(),
        start.elapsed().as_secs_f64()
    );
}
