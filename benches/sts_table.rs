//! Table 4.1 of van den Bos' thesis in our setting: inputs and outputs until a mutant of an STS
//! is detected, by switch-coverage test purposes executed on the fly (`explore --cover
//! switches`, longest purpose first, the whole set repeated until a failure), by switch-pair
//! purposes (`--cover switch-pairs`, the same way) and by seeded random STS exploration (the TorXakis-like baseline: random inputs with solver-chosen values,
//! random observations). Each cell is the mean over the runs that detected the mutant, of
//! `STS_TABLE_RUNS` seeded runs (default 100), with their count; a run gives up after
//! `STS_TABLE_ROUNDS` rounds of the purposes (default 5) or `STS_TABLE_STEPS` random steps
//! (default 2,000), so a mutant a criterion never reaches costs a bounded time (`-`: no run
//! detected it). The sum and geometric mean of the means of detected mutants follow, with the thesis' figures beside (its six
//! BRP mutants are its own, so its rows do not correspond to ours by name).
//!
//! Run: `cargo bench --features smt --bench sts_table`.

use ncomplete::exec::stdio::Timeouts;
use ncomplete::exec::sts_run::{PurposePath, StsAdapter, StsRunOptions, random_run, run_purposes};
use ncomplete::sts::purposes::{Criterion, item_purposes, switch_purposes};
use ncomplete::sts::symbolic::SegLimits;
use ncomplete::sts::z3::Z3Solver;
use ncomplete::sts::{Sts, load_sts};
use rayon::prelude::*;

/// Rounds of the purposes before a run gives up on a mutant, unless `STS_TABLE_ROUNDS` says
/// otherwise: the bound on a run's cost where a criterion never reaches a mutant's fault (every
/// round executes every purpose, up to its attempts).
const DEFAULT_ROUNDS: usize = 5;
/// Steps of a random run before it gives up, unless `STS_TABLE_STEPS` says otherwise.
const DEFAULT_RANDOM_STEPS: u64 = 2_000;
/// The thesis' Table 4.1: switch coverage and TorXakis, per mutant, sum, geometric mean.
const THESIS: [(u64, u64); 6] = [(44, 12), (16, 234), (8, 12), (6, 18), (18, 1620), (164, 76)];

fn model(path: &str) -> Sts {
    load_sts(&format!(
        "{}/models/sts/{path}.sts.yaml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn purposes(sts: &Sts, criterion: Criterion) -> Vec<PurposePath> {
    let limits = SegLimits {
        depth: 40,
        nodes: 100_000,
    };
    let p = if criterion == Criterion::SWITCHES {
        switch_purposes(sts, &mut Z3Solver::new(), limits)
    } else {
        item_purposes(sts, &mut Z3Solver::new(), criterion).unwrap()
    };
    p.purposes.into_iter().map(PurposePath::from).collect()
}

/// Inputs and outputs until `paths` (purposes of `criterion`) fail `mutant`, repeated for at
/// most `rounds` rounds; `None` if they never do.
fn purposes_run(
    spec: &Sts,
    mutant: &Sts,
    paths: &[PurposePath],
    criterion: Criterion,
    seed: u64,
    rounds: usize,
    timeouts: &Timeouts,
) -> Option<u64> {
    let mut adapter = StsAdapter::new(mutant, Box::new(Z3Solver::new()), seed ^ 0x9E37_79B9);
    let options = StsRunOptions::new(seed, rounds, timeouts.clone(), criterion);
    run_purposes(
        spec,
        &mut Z3Solver::new(),
        paths,
        &mut adapter,
        &options,
        |_| {},
    )
    .unwrap()
    .steps_to_failure
}

/// Mean of the detected runs' steps, and how many runs detected the mutant.
fn mean(runs: &[Option<u64>]) -> (f64, usize) {
    let found: Vec<u64> = runs.iter().flatten().copied().collect();
    let m = if found.is_empty() {
        f64::NAN
    } else {
        found.iter().sum::<u64>() as f64 / found.len() as f64
    };
    (m, found.len())
}

fn geomean(xs: &[f64]) -> f64 {
    let logs: Vec<f64> = xs
        .iter()
        .filter(|x| x.is_finite())
        .map(|x| x.ln())
        .collect();
    (logs.iter().sum::<f64>() / logs.len() as f64).exp()
}

/// A positive number from the environment variable `name`, else `default`.
fn env_or<T: std::str::FromStr + PartialOrd + Default>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|v| *v > T::default())
        .unwrap_or(default)
}

fn main() {
    let runs: u64 = env_or("STS_TABLE_RUNS", 100);
    let rounds: usize = env_or("STS_TABLE_ROUNDS", DEFAULT_ROUNDS);
    let random_steps: u64 = env_or("STS_TABLE_STEPS", DEFAULT_RANDOM_STEPS);
    let timeouts = Timeouts::default();
    println!(
        "Inputs and outputs to detection, mean over the runs that detected the mutant (detected/runs) of {runs} seeded runs; thesis Table 4.1 beside"
    );
    println!(
        "A run gives up after {rounds} rounds of the purposes (STS_TABLE_ROUNDS) or {random_steps} random steps (STS_TABLE_STEPS)"
    );
    println!(
        "{:<22} {:>16} {:>16} {:>16}   {:<10} {:>8} {:>9}",
        "mutant", "switch coverage", "switch pairs", "random", "thesis", "sw. cov.", "TorXakis"
    );
    let mut ours: [Vec<f64>; 3] = Default::default();
    let mut row = 0;
    for spec_name in ["brp", "coffee", "login"] {
        let spec = model(spec_name);
        let switches = purposes(&spec, Criterion::SWITCHES);
        let pairs = purposes(&spec, Criterion::SWITCH_PAIRS);
        let mut mutants: Vec<String> =
            std::fs::read_dir(format!("{}/models/sts/mutants", env!("CARGO_MANIFEST_DIR")))
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with(&format!("{spec_name}_")))
                .map(|n| n.trim_end_matches(".sts.yaml").to_owned())
                .collect();
        mutants.sort();
        for name in mutants {
            let mutant = model(&format!("mutants/{name}"));
            // Seeds run in parallel; each run is seeded on its own, so the table does not
            // depend on the thread count.
            let per_seed: Vec<[Option<u64>; 3]> = (0..runs)
                .into_par_iter()
                .map(|seed| {
                    let mut adapter =
                        StsAdapter::new(&mutant, Box::new(Z3Solver::new()), seed ^ 0x9E37_79B9);
                    [
                        purposes_run(
                            &spec,
                            &mutant,
                            &switches,
                            Criterion::SWITCHES,
                            seed,
                            rounds,
                            &timeouts,
                        ),
                        purposes_run(
                            &spec,
                            &mutant,
                            &pairs,
                            Criterion::SWITCH_PAIRS,
                            seed,
                            rounds,
                            &timeouts,
                        ),
                        random_run(
                            &spec,
                            &mut Z3Solver::new(),
                            &mut adapter,
                            seed,
                            random_steps,
                            &timeouts,
                        )
                        .unwrap(),
                    ]
                })
                .collect();
            let found: [Vec<Option<u64>>; 3] =
                std::array::from_fn(|k| per_seed.iter().map(|r| r[k]).collect());
            let cells: Vec<String> = found
                .iter()
                .zip(ours.iter_mut())
                .map(|(runs_of, column)| {
                    let (m, n) = mean(runs_of);
                    column.push(m);
                    if n == 0 {
                        format!("- (0/{runs})")
                    } else {
                        format!("{m:.1} ({n}/{runs})")
                    }
                })
                .collect();
            let thesis = THESIS
                .get(row)
                .map(|(s, t)| (format!("Mutant {}", row + 1), s.to_string(), t.to_string()))
                .unwrap_or_default();
            row += 1;
            println!(
                "{name:<22} {:>16} {:>16} {:>16}   {:<10} {:>8} {:>9}",
                cells[0], cells[1], cells[2], thesis.0, thesis.1, thesis.2
            );
        }
    }
    fn sum(xs: &[f64]) -> f64 {
        xs.iter().filter(|x| x.is_finite()).sum()
    }
    // The thesis' totals (Table 4.1): switch coverage against TorXakis' random testing.
    type Total = fn(&[f64]) -> f64;
    let totals: [(&str, Total, &str, f64, f64); 2] = [
        ("sum (detected)", sum, "Sum", 256.0, 1972.0),
        ("geometric mean", geomean, "Geom. mean", 21.5, 64.9),
    ];
    for (ours_name, total, thesis_name, cover, random) in totals {
        println!(
            "{ours_name:<22} {:>16.1} {:>16.1} {:>16.1}   {thesis_name:<10} {cover:>8} {random:>9}",
            total(&ours[0]),
            total(&ours[1]),
            total(&ours[2]),
        );
    }
    println!(
        "A mutant no run detected within the bound (-) is left out of the sum and geometric mean (the thesis' table has no such cell: every mutant was detected by both)."
    );
}
