//! Scaling of two commands that were quadratic (issue 25): `info` on a Mealy cycle (its
//! splitting tree needs one refinement round per state) and `check --desired-file` with a
//! regular expression of many labels (determinised lazily, one ε-closure per step). Each row
//! times the input at 1x and 10x its size and prints the ratio: linear (or n log n) work gives
//! about 10x, at most ~12x.
//!
//! The ratio is of CPU time (the process's, all threads), the best of [`RUNS`] runs taken
//! alternately at 1x and 10x: on a shared machine the wall time also counts the time other
//! guests hold the CPU, which made the wall ratio of identical runs vary from 8x to 16x. The
//! wall ratio is printed beside it.
//!
//! Run with `cargo bench --bench linear` (`-- info` or `-- check` for one kind of row).

use ncomplete::check::{Language, Observable, Regex, check_language};
use ncomplete::info::model_info;
use ncomplete::model::{Model, lts_from_marked, mealy_from_named};
use std::time::{Duration, Instant};

#[path = "common/cpu.rs"]
mod cpu;
use cpu::cpu_time;

/// Runs per size of a row.
const RUNS: usize = 5;

/// The best (CPU, wall) times of `small` and of `large` over [`RUNS`] runs each, taken
/// alternately so that a busy spell of the machine weighs on both sizes alike.
fn best_pair(mut small: impl FnMut(), mut large: impl FnMut()) -> [(Duration, Duration); 2] {
    let mut best = [(Duration::MAX, Duration::MAX); 2];
    for _ in 0..RUNS {
        for (k, f) in [&mut small as &mut dyn FnMut(), &mut large]
            .into_iter()
            .enumerate()
        {
            let (cpu, wall) = (cpu_time(), Instant::now());
            f();
            best[k].0 = best[k].0.min(cpu_time() - cpu);
            best[k].1 = best[k].1.min(wall.elapsed());
        }
    }
    best
}

/// A cycle of `n` states on input `a`; only state 0 outputs `one`, so the states are pairwise
/// inequivalent and the longest shortest separating sequence has length n - 1.
fn mealy_cycle(n: usize) -> Model {
    let names: Vec<String> = (0..n).map(|_| "a".to_owned()).collect();
    let edges: Vec<(u32, &str, &str, u32)> = (0..n)
        .map(|s| {
            let output = if s == 0 { "one" } else { "zero" };
            (s as u32, names[s].as_str(), output, ((s + 1) % n) as u32)
        })
        .collect();
    Model::Mealy(mealy_from_named("cycle", n, &edges).expect("a valid cycle"))
}

/// `check` of a one-state specification (`?a` and `!x` loops) against itself with the desired
/// behaviour `a x a x ...` of `n` labels.
fn check_desired(n: usize) -> impl FnMut() {
    let lts = lts_from_marked("loop", 1, &[(0, "?a", 0), (0, "!x", 0)]).expect("a valid LTS");
    let words: Vec<&str> = (0..n).map(|k| if k % 2 == 0 { "a" } else { "x" }).collect();
    let desired = Regex::parse(&words.join(" "), "desired").expect("a valid expression");
    move || {
        let verdict = check_language(
            Observable::Lts(&lts),
            Observable::Lts(&lts),
            Some(Language::Regex(&desired)),
            None,
        )
        .expect("checks");
        assert!(verdict.conforms());
    }
}

fn main() {
    // `cargo bench --bench linear -- check` runs only the rows whose case contains "check".
    let filter = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .unwrap_or_default();
    println!(
        "{:<26} {:>8} {:>9} {:>8} {:>10} {:>9} {:>10}",
        "case", "n", "1x cpu ms", "10n", "10x cpu ms", "cpu ratio", "wall ratio"
    );
    let row = |case: &str, n: usize, [small, large]: [(Duration, Duration); 2]| {
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        let ratio = |a: Duration, b: Duration| ms(b) / ms(a).max(1e-9);
        println!(
            "{case:<26} {n:>8} {:>9.1} {:>8} {:>10.1} {:>9.1} {:>10.1}",
            ms(small.0),
            10 * n,
            ms(large.0),
            ratio(small.0, large.0),
            ratio(small.1, large.1)
        );
    };
    for n in [4_000usize, 40_000, 100_000]
        .into_iter()
        .filter(|_| "info".contains(&filter))
    {
        let (small, large) = (mealy_cycle(n), mealy_cycle(10 * n));
        let times = best_pair(
            || {
                std::hint::black_box(model_info(&small));
            },
            || {
                std::hint::black_box(model_info(&large));
            },
        );
        row("info: Mealy cycle", n, times);
    }
    for n in [3_000usize, 30_000]
        .into_iter()
        .filter(|_| "check".contains(&filter))
    {
        row(
            "check --desired: labels",
            n,
            best_pair(check_desired(n), check_desired(10 * n)),
        );
    }
}
