//! Scaling of two commands that were quadratic (issue 25): `info` on a Mealy cycle (its
//! splitting tree needs one refinement round per state) and `check --desired-file` with a
//! regular expression of many labels (determinised lazily, one ε-closure per step). Each row
//! times the input at 1x and 10x its size and prints the ratio: linear (or n log n) work gives
//! about 10x, at most ~12x.
//!
//! Run with `cargo bench --bench linear`.

use ncomplete::check::{Language, Observable, Regex, check_language};
use ncomplete::info::model_info;
use ncomplete::model::{Model, lts_from_marked, mealy_from_named};
use std::time::{Duration, Instant};

/// The best of `runs` timings of `f`.
fn best(runs: usize, mut f: impl FnMut()) -> Duration {
    (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .min()
        .unwrap_or_default()
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
        "{:<34} {:>10} {:>10} {:>10} {:>10} {:>7}",
        "case", "n", "1x ms", "10n", "10x ms", "ratio"
    );
    let row = |case: &str, n: usize, small: Duration, large: Duration| {
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        println!(
            "{case:<34} {n:>10} {:>10.1} {:>10} {:>10.1} {:>7.1}",
            ms(small),
            10 * n,
            ms(large),
            ms(large) / ms(small).max(1e-9)
        );
    };
    for n in [4_000usize, 40_000, 100_000]
        .into_iter()
        .filter(|_| "info".contains(&filter))
    {
        let (small, large) = (mealy_cycle(n), mealy_cycle(10 * n));
        let t1 = best(3, || {
            std::hint::black_box(model_info(&small));
        });
        let t10 = best(3, || {
            std::hint::black_box(model_info(&large));
        });
        row("info: Mealy cycle", n, t1, t10);
    }
    for n in [3_000usize, 30_000]
        .into_iter()
        .filter(|_| "check".contains(&filter))
    {
        let t1 = best(3, check_desired(n));
        let t10 = best(3, check_desired(10 * n));
        row("check --desired: labels", n, t1, t10);
    }
}
