//! `--method auto`: candidate identifier families built in parallel and ranked by the size of
//! their suites (exact when small enough to stream), beside the H, SPYH and SPY test trees
//! where affordable; the smallest suite wins.

use super::families::{HADS_CONFIG, build_family, hads_family, hsi_st_family};
use super::options::{MealyMethod, MealySuiteOptions, TreeMethod};
use super::suite::MealySuite;
use super::{estimate, h_method, spy, spyh};
use crate::identify::mealy::{
    AccessTree, AdaptiveConfig, Family, FamilyKind, LySplittingTree, SplittingTree,
};
use crate::model::Mealy;
use rayon::prelude::*;

/// Machines with more transitions than this get only one family from `auto`: hybrid-ADS with
/// cost-ranked splitting words (building and comparing all families would exceed the time budget;
/// this variant gave the smallest suite on the large benchmark model, ESM).
pub const AUTO_FULL_LIMIT: usize = 50_000;

/// Candidates whose suite (before pruning) is at most this many symbols are compared by their
/// exact size after pruning, obtained by streaming them; larger ones by the estimate.
pub const AUTO_EXACT_LIMIT: u64 = 5_000_000;

/// Machines with at most this many transitions get, from `auto`, the hybrid-ADS families of
/// `cost_grid` as further candidates (each is built and streamed once; cheap at this size),
/// unless their suites are large (see [`AUTO_GRID_BUDGET`]).
pub const AUTO_GRID_LIMIT: usize = 5_000;

/// The grid is skipped when the suite of `--method hads` (before pruning) times the grid size
/// exceeds this many symbols (streaming every grid candidate would take too long).
pub const AUTO_GRID_BUDGET: u64 = 50_000_000;

/// Cost-ranked hybrid-ADS configurations over a grid of top-up and level costs, candidate
/// counts and input candidates, each with the per-state test weights (`true`) and without.
/// Every one is a hybrid-ADS family, harmonised by construction.
fn cost_grid() -> Vec<(AdaptiveConfig, bool)> {
    let mut out = Vec::new();
    for weighted in [true, false] {
        for input_candidates in [true, false] {
            for candidates in [64, 16] {
                for top_up_cost in [0, 1, 2, 3, 4, 6, 8] {
                    for level_cost in [0, 1, 2, 3] {
                        out.push((
                            AdaptiveConfig {
                                candidates,
                                input_candidates,
                                top_up_cost,
                                level_cost,
                                ..HADS_CONFIG
                            },
                            weighted,
                        ));
                    }
                }
            }
        }
    }
    out
}

/// `auto`: builds candidate families in parallel and keeps the one with the smallest suite; the
/// H tree (when its pairs are within [`AUTO_H_PAIR_LIMIT`], tree within
/// [`h_method::H_NODE_BUDGET`]) and the SPYH tree (pairs within [`AUTO_SPYH_PAIR_LIMIT`], tree
/// within [`spyh::SPYH_NODE_BUDGET`]) are built beside them, and SPY
/// trees: over the [`AUTO_SPY_FAMILIES`] smallest families and the family of `--method spy` when
/// the smallest family suite is within [`AUTO_SPY_POOL_LIMIT`] symbols, over the family of
/// `--method spy` alone above it (each tree within [`spy::SPY_NODE_BUDGET`]); a tree wins when
/// its exact size is strictly smaller.
pub(super) fn auto_choice(
    min: &Mealy,
    access: &AccessTree,
    tree: &SplittingTree,
    opts: MealySuiteOptions,
) -> (Family, Option<(TreeMethod, h_method::TestTree)>) {
    let pairs = h_method::h_pairs(min, opts.extra_states);
    let h_affordable = pairs <= AUTO_H_PAIR_LIMIT;
    let spyh_affordable = pairs <= AUTO_SPYH_PAIR_LIMIT;
    let extra = opts.extra_states;
    let (candidates, (h_tree, spyh_tree)) = rayon::join(
        || auto_family(min, access, tree, opts),
        || {
            rayon::join(
                || {
                    h_affordable.then(|| {
                        h_method::build_h(min, access, tree, extra, h_method::H_NODE_BUDGET)
                    })
                },
                || spyh_affordable.then(|| spyh::build_spyh(min, access, tree, extra)),
            )
        },
    );
    let AutoFamilies { mut ranked, hads } = candidates;
    let best_family_symbols = ranked[0].1;
    let mut best_symbols = best_family_symbols;
    let mut best_tree = None;
    let trees = [
        h_tree.flatten().map(|t| (TreeMethod::H, t)),
        spyh_tree.flatten().map(|t| (TreeMethod::Spyh, t)),
    ];
    for (method, t) in trees.into_iter().flatten() {
        let symbols = t.size(opts.prune_prefixes).1;
        if symbols < best_symbols {
            best_symbols = symbols;
            best_tree = Some((method, t));
        }
    }
    if min.num_states() * min.num_inputs() <= AUTO_FULL_LIMIT {
        // The family of `--method spy` is always in the pool, so `auto` is never larger.
        let spy_family = hads;
        let mut pool: Vec<usize> = if best_family_symbols <= AUTO_SPY_POOL_LIMIT {
            (0..ranked.len().min(AUTO_SPY_FAMILIES)).collect()
        } else {
            Vec::new()
        };
        if !pool.contains(&spy_family) {
            pool.push(spy_family);
        }
        // Built in parallel and reduced to the smallest (ties: the earlier in the pool), so
        // only a few trees are alive at once and the winner is not rebuilt.
        let prune = opts.prune_prefixes;
        let smallest = pool
            .par_iter()
            .enumerate()
            .filter_map(|(i, &j)| {
                let t = spy::build_spy(min, access, &ranked[j].0, opts.extra_states)?;
                Some((t.size(prune).1, i, t))
            })
            .reduce_with(|x, y| if (y.0, y.1) < (x.0, x.1) { y } else { x });
        if let Some((symbols, i, spy_tree)) = smallest
            && symbols < best_symbols
        {
            // The suite header names the family the SPY tree was built from.
            let family = ranked.swap_remove(pool[i]).0;
            return (family, Some((TreeMethod::Spy, spy_tree)));
        }
    }
    (ranked.swap_remove(0).0, best_tree)
}

/// Most pairs of traces ([`h_method::h_pairs`]) for which `auto` builds the H tree beside its
/// families (about 6 s of CPU at the limit): above it `auto` leaves H to `--method h`, whose tree
/// on m173 with one extra state (177 million pairs) takes 54-57 s of CPU against `auto`'s 5 s.
pub const AUTO_H_PAIR_LIMIT: u64 = 20_000_000;

/// Most pairs of traces ([`h_method::h_pairs`]) for which `auto` builds the SPYH tree: above it
/// SPYH takes seconds (m173 without extra states, 6.4 million pairs: 4.9 s) and on the benchmark
/// models it is never the smallest, so `auto` leaves it to `--method spyh`.
pub const AUTO_SPYH_PAIR_LIMIT: u64 = 2_000_000;

/// How many of the smallest families `auto` also tries with SPY.
pub const AUTO_SPY_FAMILIES: usize = 8;

/// Above this many input symbols of the smallest family suite (exact or estimated), `auto` builds
/// the SPY tree of the `--method spy` family only (one tree in memory, about 3.5 s on m173 with
/// one extra state) instead of [`AUTO_SPY_FAMILIES`] of them.
pub const AUTO_SPY_POOL_LIMIT: u64 = 5_000_000;

/// The families of `auto`, smallest suite first, and the index among them of the family of
/// `--method hads` (and `spy`), when it was built.
struct AutoFamilies {
    ranked: Vec<(Family, u64)>,
    /// The rank of the family of `--method hads` (and `--method spy`).
    hads: usize,
}

/// The harmonised candidate families of `auto` with the sizes of their suites (exact, or the
/// estimate before pruning for suites over [`AUTO_EXACT_LIMIT`] symbols), smallest first.
fn auto_family(
    min: &Mealy,
    access: &AccessTree,
    tree: &SplittingTree,
    opts: MealySuiteOptions,
) -> AutoFamilies {
    let ly = LySplittingTree::new(min);
    let weights = estimate::state_weights(min, access, opts.extra_states);
    let wide = AdaptiveConfig {
        candidates: 64,
        ..AdaptiveConfig::default()
    };
    let costed = HADS_CONFIG;
    if min.num_states() * min.num_inputs() > AUTO_FULL_LIMIT {
        let family = hads_family(min, access, tree, &ly, opts.extra_states);
        let est = estimate::suite_size(min, access, &family, opts.extra_states);
        return AutoFamilies {
            ranked: vec![(family, est.symbols)],
            hads: 0,
        };
    }
    let mut adaptive = vec![
        AdaptiveConfig::default(),
        wide,
        AdaptiveConfig {
            input_candidates: true,
            ..wide
        },
        AdaptiveConfig {
            input_candidates: true,
            ratio_score: true,
            ..wide
        },
    ];
    for input_candidates in [true, false] {
        for (top_up_cost, level_cost) in [(2, 1), (4, 2)] {
            adaptive.push(AdaptiveConfig {
                input_candidates,
                top_up_cost,
                level_cost,
                ..costed
            });
        }
    }
    let mut adaptive: Vec<(AdaptiveConfig, bool)> =
        adaptive.into_iter().map(|cfg| (cfg, true)).collect();
    let grid = cost_grid();
    let grid_affordable = min.num_states() * min.num_inputs() <= AUTO_GRID_LIMIT && {
        let probe = hads_family(min, access, tree, &ly, opts.extra_states);
        let est = estimate::suite_size(min, access, &probe, opts.extra_states);
        est.symbols.saturating_mul(grid.len() as u64) <= AUTO_GRID_BUDGET
    };
    if grid_affordable {
        for (cfg, weighted) in grid {
            if !adaptive.contains(&(cfg, weighted)) {
                adaptive.push((cfg, weighted));
            }
        }
    }
    let mut cands: Vec<Family> = adaptive
        .par_iter()
        .map(|&(cfg, weighted)| {
            Family::build_adaptive(min, tree, &ly, cfg, weighted.then_some(&weights[..]))
        })
        .collect();
    cands.extend(
        [FamilyKind::HsiSt, FamilyKind::Hsi, FamilyKind::Wp]
            .par_iter()
            .map(|&kind| match kind {
                FamilyKind::HsiSt => hsi_st_family(min, access, tree, opts.extra_states),
                _ => build_family(min, kind, tree, Some(&ly)),
            })
            .collect::<Vec<_>>(),
    );
    let sizes: Vec<u64> = cands
        .par_iter()
        .map(|f| {
            let est = estimate::suite_size(min, access, f, opts.extra_states);
            if est.symbols > AUTO_EXACT_LIMIT {
                return est.symbols;
            }
            let probe = MealySuite {
                spec: min.clone(),
                access: access.clone(),
                family: f.clone(),
                tree: None,
                method: MealyMethod::Auto,
                extra: opts.extra_states,
                prune: opts.prune_prefixes,
            };
            probe.words().map(|w| w.len() as u64).sum()
        })
        .collect();
    // The family of `--method hads`: HADS_CONFIG with the state weights.
    // Always present: `costed` with input candidates and costs (2, 1) is HADS_CONFIG.
    let hads_at = adaptive
        .iter()
        .position(|&c| c == (HADS_CONFIG, true))
        .expect("the candidates include HADS_CONFIG");
    let mut order: Vec<usize> = (0..cands.len()).collect();
    // Stable: equal sizes keep the candidate order.
    order.sort_by_key(|&j| sizes[j]);
    let hads = order
        .iter()
        .position(|&j| j == hads_at)
        .expect("every candidate is ranked");
    let mut slots: Vec<Option<Family>> = cands.into_iter().map(Some).collect();
    let ranked = order
        .iter()
        .map(|&j| (slots[j].take().expect("each candidate once"), sizes[j]))
        .collect();
    AutoFamilies { ranked, hads }
}
