//! Tests of the repair: validity of repaired graphs, the budgets of both modes, cut games,
//! games found ahead in parallel against the sequential order, and the search against the
//! estimate.

use super::*;
use crate::identify::adg::DEFAULT_ADG_BUDGET;
use crate::identify::adg::adaptive_graph_estimated;
use crate::identify::adg::tests::search_beats_estimate;
use crate::identify::forced_losses;
use crate::identify::splitting_graph::tests::all_options;
use crate::identify::{SplittingGraph, adaptive_graph_as_built};

/// Checks that `adg` is an ADG of `sa` as Algorithm 5 builds them: root set all states, every
/// node's set the image of its parent's, inputs enabled by some state of the set, one
/// output branch per allowed output, and races on the allowed outputs.
fn check_valid(sa: &SuspensionAutomaton, adg: &Experiment) {
    let all: Vec<StateId> = sa.states().collect();
    assert_eq!(adg.root_states(), all.as_slice());
    for node in adg.nodes() {
        let p = &node.states;
        match &node.step {
            Step::Leaf => {}
            Step::Input { input, then, race } => {
                assert!(p.iter().any(|&q| sa.after(q, *input).is_some()));
                assert_eq!(adg.nodes()[*then as usize].states, after(sa, p, *input));
                let racing: Vec<LabelId> = race.iter().map(|r| r.0).collect();
                let mut allowed = outputs_of(sa, p);
                allowed.retain(|&x| x != sa.quiescence());
                assert_eq!(racing, allowed);
            }
            Step::Outputs { branches } => {
                let labels: Vec<LabelId> = branches.iter().map(|b| b.0).collect();
                assert_eq!(labels, outputs_of(sa, p));
                for &(x, t) in branches {
                    assert_eq!(adg.nodes()[t as usize].states, after(sa, p, x));
                }
            }
        }
    }
}

/// The fixed case of the search's test ([`search_beats_estimate`]): the estimated ADGs
/// leave four of the six pairs undistinguished, the exact game one, which the repaired graph
/// reaches.
#[test]
fn repair_reaches_the_exact_least_loss_on_a_fixed_case() {
    let sa = search_beats_estimate();
    let c = Compatibility::compute(&sa);
    assert_eq!(c.num_incompatible_pairs(), 6);
    let g = SplittingGraph::build(&sa, &c).unwrap();
    let built = adaptive_graph_estimated(&sa, &c, &g);
    assert_eq!(built.undistinguished().len(), 4);
    let (adg, stats) = repair(&sa, &c, built.adg(), Mode::Subset, &RepairMemo::default());
    assert_eq!(stats.replaced, 1);
    check_valid(&sa, &adg);
    let repaired = AnalysedGraph::new(&sa, &c, adg);
    let bound = forced_losses(&sa, &c, built.undistinguished());
    assert!(bound.exact);
    assert_eq!(bound.pairs, 1);
    assert_eq!(repaired.undistinguished().len(), 1);
    assert_eq!(repaired.metrics().undistinguished_pairs, 1);
    // The default path (with the search) reaches the least loss too.
    let default =
        crate::identify::adaptive_graph(&sa, &c, &g, DEFAULT_ADG_BUDGET, &RepairMemo::default())
            .unwrap();
    assert_eq!(default.undistinguished().len(), 1);
    // Deterministic: repairing again gives the same graph.
    assert_eq!(
        repair(&sa, &c, built.adg(), Mode::Subset, &RepairMemo::default()).0,
        *repaired.adg()
    );
}

/// On random automata and every split option: a repair in either mode is a valid ADG losing
/// at least the forced-loss bound (which holds for every ADG); in [`Mode::Subset`] it loses
/// no pair the built graph did not lose; [`repaired`] never loses more than the built graph.
/// A memo already filled by other repairs (here: of the graphs of every option, and a
/// first pass over the same graph) gives the same repair, in both modes, as playing every
/// game, with a position limit small enough that some games outgrow it and others replace
/// sub-DAGs.
#[test]
fn a_filled_memo_changes_no_repair() {
    const LIMIT: usize = 20;
    let (mut outgrown, mut replaced) = (0, 0);
    for seed in 0..60u64 {
        let sa = crate::identify::random::random_suspension(
            seed,
            6 + (seed % 5) as usize,
            2,
            2 + (seed % 2) as usize,
        );
        let c = Compatibility::compute(&sa);
        let shared = RepairMemo::with_limit(LIMIT);
        for options in all_options() {
            let g = SplittingGraph::build_with(&sa, &c, options).unwrap();
            let built = adaptive_graph_as_built(&sa, &c, &g, DEFAULT_ADG_BUDGET).unwrap();
            for mode in [Mode::Weighted, Mode::Subset] {
                let forgetful = RepairMemo {
                    forgetful: true,
                    ..RepairMemo::with_limit(LIMIT)
                };
                let fresh = repair(&sa, &c, built.adg(), mode, &forgetful);
                for _ in 0..2 {
                    let again = repair(&sa, &c, built.adg(), mode, &shared);
                    assert_eq!(again.0, fresh.0, "seed {seed} {options:?} {mode:?}");
                    replaced += again.1.replaced;
                }
            }
        }
        outgrown += shared.lock().len();
    }
    assert!(outgrown > 10, "only {outgrown} sets outgrew the limit");
    assert!(replaced > 10, "only {replaced} sub-DAGs replaced");
}

/// The origins per node taken from the built graph's own analysis
/// ([`AnalysedGraph::with_origins`], the dense path) are those of a separate analysis
/// ([`origins_per_node`]), the graph's analysis is that of [`AnalysedGraph::new`], and the
/// repair from them ([`repaired_from`]) is the one of [`repaired_in`]; on some automata a
/// node is reached on several observation prefix classes and sub-DAGs are replaced, so the
/// comparison covers origins that matter.
#[test]
fn origins_from_the_built_analysis_repair_alike() {
    let (mut shared_nodes, mut changed) = (0, 0);
    for seed in 0..60u64 {
        let sa = crate::identify::random::random_suspension(seed, 6 + (seed % 7) as usize, 3, 2);
        let c = Compatibility::compute(&sa);
        let g = SplittingGraph::build(&sa, &c).unwrap();
        let built = adaptive_graph_estimated(&sa, &c, &g);
        let (analysed, origins) = AnalysedGraph::with_origins(&sa, &c, built.adg().clone());
        assert_eq!(analysed.metrics(), built.metrics(), "seed {seed}");
        assert_eq!(analysed.undistinguished(), built.undistinguished());
        assert_eq!(
            origins,
            origins_per_node(&sa, &c, built.adg()),
            "seed {seed}"
        );
        shared_nodes += origins.iter().filter(|o| o.len() > 1).count();
        for modes in [&[Mode::Subset][..], &[Mode::Subset, Mode::Weighted]] {
            let memo = RepairMemo::dense();
            let once = repaired_from(&sa, &c, analysed.clone(), &origins, &memo, modes);
            let again = repaired_in(&sa, &c, built.clone(), &RepairMemo::dense(), modes);
            assert_eq!(once.adg(), again.adg(), "seed {seed} {modes:?}");
            assert_eq!(once.metrics(), again.metrics());
            changed += usize::from(once.adg() != built.adg());
        }
    }
    assert!(shared_nodes > 0, "no node reached on two prefix classes");
    assert!(changed > 0, "no repair changed a graph");
}

/// Finding games ahead in parallel ([`repair_from`]) changes no repair: with a lookahead of
/// one node (the sequential order) and of eight on four threads, in both modes, with
/// budgets that run out (the result then differs from the unlimited one on some automata)
/// and that do not, the graphs and the counts of games are equal.
#[test]
fn games_found_ahead_in_parallel_repair_alike() {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(4)
        .build()
        .unwrap();
    let (mut cut_short, mut replaced) = (0, 0);
    for seed in 0..80u64 {
        let sa = crate::identify::random::random_suspension(
            seed,
            8 + (seed % 6) as usize,
            2 + (seed % 2) as usize,
            2,
        );
        let c = Compatibility::compute(&sa);
        let g = SplittingGraph::build(&sa, &c).unwrap();
        let built = adaptive_graph_estimated(&sa, &c, &g);
        let origins = origins_per_node(&sa, &c, built.adg());
        let budgets = [(usize::MAX, usize::MAX), (40, 30), (0, 15)];
        for mode in [Mode::Subset, Mode::Weighted] {
            let mut unlimited = None;
            for (weighted_budget, subset_budget) in budgets {
                let memo = || RepairMemo {
                    weighted_budget,
                    subset_budget,
                    limit: 12,
                    ..RepairMemo::dense()
                };
                let one = repair_from(&sa, &c, built.adg(), &origins, mode, &memo(), 1);
                let ahead =
                    pool.install(|| repair_from(&sa, &c, built.adg(), &origins, mode, &memo(), 8));
                assert_eq!(one, ahead, "seed {seed} {mode:?} {subset_budget}");
                replaced += one.1.replaced;
                match &unlimited {
                    None => unlimited = Some(one),
                    Some(u) => cut_short += usize::from(u.0 != one.0),
                }
            }
        }
    }
    assert!(cut_short > 0, "no budget ever ran out");
    assert!(replaced > 10, "only {replaced} sub-DAGs replaced");
}

/// With its weighted-game budget spent from the start, a [`Mode::Weighted`] repair is the
/// [`Mode::Subset`] one; with the default budget it differs on some random automata (so the
/// budget is what made them equal), and with a budget of a few games' positions, a memo
/// filled by an earlier repair still changes nothing (the charge does not depend on it).
#[test]
fn a_spent_weighted_budget_repairs_as_subset() {
    let mut differed = 0;
    for seed in 0..150u64 {
        let sa = crate::identify::random::random_suspension(
            seed,
            3 + (seed % 8) as usize,
            2,
            2 + (seed % 2) as usize,
        );
        let c = Compatibility::compute(&sa);
        let g = SplittingGraph::build(&sa, &c).unwrap();
        let built = adaptive_graph_estimated(&sa, &c, &g);
        let subset = repair(&sa, &c, built.adg(), Mode::Subset, &RepairMemo::default()).0;
        let spent = RepairMemo {
            weighted_budget: 0,
            ..RepairMemo::default()
        };
        let weighted = repair(&sa, &c, built.adg(), Mode::Weighted, &spent).0;
        assert_eq!(weighted, subset, "seed {seed}");
        let full = repair(&sa, &c, built.adg(), Mode::Weighted, &RepairMemo::default()).0;
        differed += usize::from(full != subset);
        let small = || RepairMemo {
            weighted_budget: 40,
            forgetful: true,
            ..RepairMemo::with_limit(20)
        };
        let shared = RepairMemo {
            forgetful: false,
            ..small()
        };
        let fresh = repair(&sa, &c, built.adg(), Mode::Weighted, &small()).0;
        for _ in 0..2 {
            let again = repair(&sa, &c, built.adg(), Mode::Weighted, &shared).0;
            assert_eq!(again, fresh, "seed {seed}");
        }
    }
    assert!(
        differed > 0,
        "the weighted repair never differed from the subset one"
    );
}

/// The dense path's games ([`RepairMemo::dense`], here cut at 10 positions): a subset
/// repair whose games are cut instead of given up is still a valid ADG losing only pairs
/// the built graph lost (the cut game's strategies are strategies of the full game, module
/// documentation), and on some automata it replaces sub-DAGs where games that give up at
/// the same limit replace fewer.
#[test]
fn cut_games_repair_soundly() {
    let (mut more, mut cut_replaced) = (0, 0);
    for seed in 0..60u64 {
        let n = 6 + (seed % 5) as usize;
        let sa = crate::identify::random::random_suspension(seed, n, 3, 2);
        let c = Compatibility::compute(&sa);
        let g = SplittingGraph::build(&sa, &c).unwrap();
        let built = adaptive_graph_estimated(&sa, &c, &g);
        let old = built.undistinguished();
        let cut = RepairMemo {
            limit: 10,
            ..RepairMemo::dense()
        };
        let (adg, stats) = repair(&sa, &c, built.adg(), Mode::Subset, &cut);
        check_valid(&sa, &adg);
        let after = AnalysedGraph::new(&sa, &c, adg);
        assert!(
            after
                .undistinguished()
                .iter()
                .all(|p| old.binary_search(p).is_ok()),
            "seed {seed}"
        );
        let given_up = repair(
            &sa,
            &c,
            built.adg(),
            Mode::Subset,
            &RepairMemo::with_limit(10),
        );
        more += usize::from(stats.replaced > given_up.1.replaced);
        cut_replaced += stats.replaced;
    }
    assert!(more > 0, "cut games never replaced more than given-up ones");
    assert!(cut_replaced > 10, "only {cut_replaced} replacements");
}

/// The subset budget of a repair ([`DENSE_SUBSET_POSITIONS`] on the dense path): with none
/// left no game is played and the built graph is kept; with one position left, the game
/// that spends it is played out (exactly one game, not none); unlimited, more are played.
#[test]
fn the_subset_budget_plays_the_game_that_spends_it() {
    let mut checked = 0;
    for seed in 0..60u64 {
        let sa = crate::identify::random::random_suspension(seed, 8 + (seed % 5) as usize, 3, 2);
        let c = Compatibility::compute(&sa);
        let g = SplittingGraph::build(&sa, &c).unwrap();
        let built = adaptive_graph_estimated(&sa, &c, &g);
        // Games cut at 10 positions, so that nodes below them are examined too.
        let with_budget = |subset_budget| RepairMemo {
            subset_budget,
            limit: 10,
            ..RepairMemo::dense()
        };
        let (_, free) = repair(&sa, &c, built.adg(), Mode::Subset, &with_budget(usize::MAX));
        if free.games < 2 {
            continue;
        }
        checked += 1;
        let (adg, none) = repair(&sa, &c, built.adg(), Mode::Subset, &with_budget(0));
        assert_eq!(none.games, 0, "seed {seed}");
        assert_eq!(adg, *built.adg(), "seed {seed}");
        let (_, one) = repair(&sa, &c, built.adg(), Mode::Subset, &with_budget(1));
        assert_eq!(one.games, 1, "seed {seed}");
    }
    assert!(checked > 5, "only {checked} automata played two games");
}

#[test]
fn repair_never_loses_more_and_never_beats_the_bound() {
    let (mut improved, mut weighted_won) = (0, 0);
    for seed in 0..150u64 {
        let n = 3 + (seed % 8) as usize;
        let sa = crate::identify::random::random_suspension(seed, n, 2, 2);
        let c = Compatibility::compute(&sa);
        for options in all_options() {
            let g = SplittingGraph::build_with(&sa, &c, options).unwrap();
            let built = adaptive_graph_as_built(&sa, &c, &g, DEFAULT_ADG_BUDGET).unwrap();
            let old = built.undistinguished();
            let bound = forced_losses(&sa, &c, old).pairs as usize;
            let mut losses = Vec::new();
            for mode in [Mode::Subset, Mode::Weighted] {
                let (adg, _) = repair(&sa, &c, built.adg(), mode, &RepairMemo::default());
                check_valid(&sa, &adg);
                let after = AnalysedGraph::new(&sa, &c, adg);
                let new = after.undistinguished();
                assert!(new.len() >= bound, "seed {seed} {mode:?}");
                if mode == Mode::Subset {
                    assert!(
                        new.iter().all(|p| old.binary_search(p).is_ok()),
                        "seed {seed}: {new:?} not within {old:?}"
                    );
                }
                losses.push(new.len());
            }
            let best = repaired(&sa, &c, built.clone(), &RepairMemo::default());
            check_valid(&sa, best.adg());
            assert_eq!(
                best.undistinguished().len(),
                old.len().min(losses[0]).min(losses[1]),
                "seed {seed}"
            );
            assert!(best.undistinguished().len() >= bound);
            improved += usize::from(best.undistinguished().len() < old.len());
            weighted_won += usize::from(losses[1] < losses[0]);
        }
    }
    assert!(improved > 20, "{improved} improved");
    assert!(
        weighted_won > 5,
        "the weighted game won {weighted_won} times"
    );
}
