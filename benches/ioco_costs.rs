//! Runs of the complete ioco suites and of `ioco-auto` (issue 11): over seeded random suspension
//! automata with 4-7 states, 2 inputs, 2 outputs and at least one pair of compatible reachable
//! states, at n = |S| and n = |S| + 1, the runs (root-to-verdict paths over all tests) of T(S, n),
//! U(S, n), the three `ioco-counting` variants and the suite `ioco-auto` picks, all counted from
//! the plans (tests are built only to leave out repeated ones, see `auto::evaluate_with`). A
//! figure marked `R` was refused by a budget (its runs are still counted), `L` cannot win
//! (abandoned while its repeated tests were left out; `<=`: the plan's figure, an upper
//! bound), `NC` is not a candidate (T nesting U(merge, n): neither normalised nor counted),
//! `-` could not be planned within
//! the plan-node budget. The summary gives the median of U/auto and whether auto is never above
//! min(T, U) (T only where it is a candidate).
//!
//! Time is the cost of running a suite: for the suite `ioco-auto` writes in each quiescence
//! domain (`general`, the thesis', and `classic`, which never waits right after quiescence) the
//! table gives its runs, waits (quiescence observations over all runs) and the estimated time at
//! the default timings (200 ms per wait, 2 ms per step); the summary gives the median of the
//! general over the classic estimated time.
//!
//! Run: `cargo bench --bench ioco_costs` (`-- --models N` for another number of models, default
//! 40). `-- --large` takes instead the 20 models of issue 43 (12-30 states, 2-3 inputs and
//! outputs, with compatible states) at n = |S| only. `-- --export DIR` writes the models as
//! `.aut` files (quiescence as `delta`) instead, for `scripts/memory_sweep` and
//! `scripts/ioco_large`, which run the commands on them under `/usr/bin/time`.

use ncomplete::analysis::Compatibility;
use ncomplete::format::{Format, write_suspension};
use ncomplete::identify::random::random_suspension;
use ncomplete::model::SuspensionAutomaton;
use ncomplete::suite::costs::{Budget, Figure, SuiteCosts};
use ncomplete::suite::ioco::auto::{Candidate, Evaluation, Status, candidate_name, evaluate_with};
use ncomplete::suite::ioco::{
    Domain, IncompatibleSets, IocoMethod, SuiteOptions, reachable_states,
};
use rayon::prelude::*;
use std::time::Instant;

/// Whether two distinct reachable states are compatible.
fn has_compatible_states(sa: &SuspensionAutomaton) -> bool {
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
        (Status::CannotWin(_), Some(r)) => format!("{r} L"),
        // Not counted beyond an upper bound on its tests (see `auto::evaluate`).
        (Status::NotComplete(_), Some(_)) => "NC".to_string(),
    };
    (text, exact)
}

/// One printed row and what the summary needs from it.
struct Row {
    line: String,
    ratio: Option<f64>,
    above: bool,
    refused: bool,
    /// General over classic estimated time of the suites auto writes.
    time_ratio: Option<f64>,
}

/// The suite `ioco-auto` writes in `domain`: its costs and the method chosen.
fn auto_in(
    sa: &SuspensionAutomaton,
    n: usize,
    budget: Budget,
    domain: Domain,
) -> Option<(SuiteCosts, String)> {
    let options = SuiteOptions {
        domain,
        minimised_from: None,
    };
    let Evaluation { candidates, best } = evaluate_with(sa, n, budget, options).ok()?;
    best.map(|(k, suite)| (suite.costs(), candidate_name(candidates[k].method)))
}

/// Runs, waits and estimated time of an auto suite, as three cells.
fn time_cells(auto: Option<&(SuiteCosts, String)>, budget: &Budget) -> String {
    match auto {
        Some((c, _)) => format!(
            "{:>12} {:>12} {:>14}",
            c.runs.to_string(),
            c.waits.to_string(),
            c.time_text(&budget.timing)
        ),
        None => format!("{:>12} {:>12} {:>14}", "refused", "-", "-"),
    }
}

fn row(seed: u64, sa: &SuspensionAutomaton, size: usize, n: usize, budget: Budget) -> Row {
    let find = |cands: &[Candidate], m: IocoMethod| cands.iter().find(|c| c.method == m).cloned();
    let (cands, auto) = match evaluate_with(sa, n, budget, SuiteOptions::default()) {
        Ok(Evaluation { candidates, best }) => {
            let auto =
                best.map(|(k, suite)| (suite.costs().runs, candidate_name(candidates[k].method)));
            (candidates, auto)
        }
        Err(e) => {
            eprintln!("seed {seed} n {n}: {e}");
            (Vec::new(), None)
        }
    };
    let (t, t_runs) = cell(find(&cands, IocoMethod::Complete).as_ref());
    let (u, u_runs) = cell(find(&cands, IocoMethod::Unconditional).as_ref());
    let (cm, _) = cell(find(&cands, IocoMethod::Counting(IncompatibleSets::Maximal)).as_ref());
    let (cl, _) = cell(find(&cands, IocoMethod::Counting(IncompatibleSets::Largest)).as_ref());
    let (cn, _) = cell(find(&cands, IocoMethod::Counting(IncompatibleSets::None)).as_ref());
    let t_candidate = find(&cands, IocoMethod::Complete)
        .is_some_and(|c| !matches!(c.status, Status::NotComplete(_)));
    let (auto_text, chosen) = match &auto {
        Some((runs, name)) => (runs.to_string(), name.clone()),
        None => ("refused".to_string(), "-".to_string()),
    };
    let mut ratio = None;
    let mut above = false;
    if let Some(a) = auto.as_ref().and_then(|(r, _)| r.exact()) {
        ratio = u_runs.map(|u| u as f64 / a.max(1) as f64);
        let t_bound = if t_candidate { t_runs } else { None };
        let best = [t_bound, u_runs].into_iter().flatten().min();
        above = best.is_some_and(|b| a > b);
    }
    let general = auto_in(sa, n, budget, Domain::General);
    let classic = auto_in(sa, n, budget, Domain::Classic);
    let seconds = |a: &Option<(SuiteCosts, String)>| {
        a.as_ref()
            .and_then(|(c, _)| c.seconds(&budget.timing).exact())
    };
    let time_ratio = match (seconds(&general), seconds(&classic)) {
        (Some(g), Some(c)) => Some(g as f64 / c.max(1) as f64),
        _ => None,
    };
    let classic_chose = classic.as_ref().map_or("-", |(_, m)| m.as_str());
    Row {
        line: format!(
            "{seed:>5} {size:>3} {n:>3} {t:>26} {u:>26} {cm:>20} {cl:>20} {cn:>26} {auto_text:>12}  {chosen:<24} {} {}  {classic_chose}",
            time_cells(general.as_ref(), &budget),
            time_cells(classic.as_ref(), &budget),
        ),
        ratio,
        above,
        refused: auto.is_none(),
        time_ratio,
    }
}

/// The first `wanted` seeds whose automaton has compatible states, 4-7 states.
fn benchmark_models(wanted: usize) -> Vec<(u64, SuspensionAutomaton)> {
    let mut models = Vec::new();
    let mut seed = 0u64;
    while models.len() < wanted {
        seed += 1;
        let states = 4 + (seed % 4) as usize;
        let sa = random_suspension(seed, states, 2, 2);
        if has_compatible_states(&sa) {
            models.push((seed, sa));
        }
    }
    models
}

/// The 20 models of issue 43 (`--large`): seeded random suspension automata of 12-30 states,
/// 2-3 inputs and 2-3 outputs, with compatible reachable states; `k`-th model has about
/// `12 + 18k/19` states, inputs and outputs alternate with the seed.
fn large_models() -> Vec<(u64, SuspensionAutomaton)> {
    let mut models = Vec::new();
    let mut seed = 4300u64;
    while models.len() < 20 {
        seed += 1;
        let k = models.len();
        let states = 12 + 18 * k / 19;
        let (inputs, outputs) = (2 + (seed % 2) as usize, 2 + (seed / 2 % 2) as usize);
        let sa = random_suspension(seed, states, inputs, outputs);
        if reachable_states(&sa).len() >= 12 && has_compatible_states(&sa) {
            models.push((seed, sa));
        }
    }
    models
}

/// Writes every model as `seed-S-states-K.aut`.
fn export(dir: &std::path::Path, models: &[(u64, SuspensionAutomaton)]) {
    if let Err(e) = std::fs::create_dir_all(dir) {
        eprintln!("{}: {e}", dir.display());
        std::process::exit(2);
    }
    for (seed, sa) in models {
        let size = reachable_states(sa).len();
        let path = dir.join(format!("seed-{seed}-states-{size}.aut"));
        if let Err(e) = std::fs::write(&path, write_suspension(sa, Format::Aut)) {
            eprintln!("{}: {e}", path.display());
            std::process::exit(2);
        }
    }
    println!("wrote {} models to {}", models.len(), dir.display());
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let wanted = args
        .iter()
        .position(|a| a == "--models")
        .and_then(|k| args.get(k + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(40usize);
    if let Some(dir) = args
        .iter()
        .position(|a| a == "--export")
        .and_then(|k| args.get(k + 1))
    {
        let models = if args.iter().any(|a| a == "--large") {
            large_models()
        } else {
            benchmark_models(wanted)
        };
        export(std::path::Path::new(dir), &models);
        return;
    }
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
        "{:>5} {:>3} {:>3} {:>26} {:>26} {:>20} {:>20} {:>26} {:>12}  {:<24} {:>12} {:>12} {:>14} {:>12} {:>12} {:>14}  classic chose",
        "seed",
        "|S|",
        "n",
        "T",
        "U",
        "count-maximal",
        "count-largest",
        "count-none",
        "auto",
        "auto chose",
        "gen runs",
        "gen waits",
        "gen time",
        "cls runs",
        "cls waits",
        "cls time"
    );
    let start = Instant::now();
    let large = args.iter().any(|a| a == "--large");
    let models = if large {
        large_models()
    } else {
        benchmark_models(wanted)
    };
    // The large models at n = |S| only.
    let jobs: Vec<(u64, &SuspensionAutomaton, usize, usize)> = models
        .iter()
        .flat_map(|(seed, sa)| {
            let size = reachable_states(sa).len();
            let ns = if large { size..=size } else { size..=size + 1 };
            ns.map(move |n| (*seed, sa, size, n))
        })
        .collect();
    // Rows are independent: computed in parallel, printed in order.
    let rows: Vec<Row> = jobs
        .par_iter()
        .map(|&(seed, sa, size, n)| row(seed, sa, size, n, budget))
        .collect();
    let mut ratios: Vec<f64> = Vec::new();
    let mut time_ratios: Vec<f64> = Vec::new();
    let mut never_above = true;
    let mut auto_refused = 0;
    for r in &rows {
        println!("{}", r.line);
        ratios.extend(r.ratio);
        time_ratios.extend(r.time_ratio);
        never_above &= !r.above;
        auto_refused += r.refused as usize;
    }
    let (models, rows) = (models.len(), rows.len());
    let median = |ratios: &mut Vec<f64>| {
        ratios.sort_by(f64::total_cmp);
        if ratios.is_empty() {
            f64::NAN
        } else if ratios.len() % 2 == 1 {
            ratios[ratios.len() / 2]
        } else {
            (ratios[ratios.len() / 2 - 1] + ratios[ratios.len() / 2]) / 2.0
        }
    };
    let (runs_median, time_median) = (median(&mut ratios), median(&mut time_ratios));
    println!(
        "summary: {models} models, {rows} rows; median runs U/auto = {runs_median:.1} over {} rows; \
         auto <= min(T, U) everywhere: {never_above}; auto refused (no candidate fits): {auto_refused}; \
         median estimated time general/classic auto = {time_median:.1} over {} rows; {:.1} s",
        ratios.len(),
        time_ratios.len(),
        start.elapsed().as_secs_f64()
    );
}
