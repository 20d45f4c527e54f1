//! Repair of adaptive distinguishing graphs: sub-DAGs of an ADG built by Algorithm 5 (van den
//! Bos Ch. 3) are replaced by strategies of the games of [`super::forced`] where those lose
//! fewer pairs.
//!
//! # What is done
//!
//! The nodes of the built ADG are examined top-down (in node order, which is topological). At a
//! node `v` with current set `P` whose behaviour classes (bisimilar states, as in
//! [`super::forced`]) are at most `MAX_GAME_ORIGINS` and not pairwise compatible:
//!
//! 1. `L` is the set of pairs of classes of `P` that the sub-DAG from `v` leaves undistinguished,
//!    computed by the analysis of [`super::adg`] for the experiment rooted at `v` (two current
//!    states are lost when both can produce one observation, or one meets an input it does not
//!    enable while the other is still possible).
//! 2. Each pair of classes weighs as it counts in the metric: the incompatible pairs of initial
//!    states that reach `v` on one observation prefix, one in each class (counted on the built
//!    graph).
//! 3. In [`Mode::Weighted`], the weighted game of `P` ([`super::forced`]'s `weighted_game`: every
//!    move costs the weight of the pairs it ends, waiting for outputs the sum over its branches)
//!    is solved within [`REPAIR_POSITIONS`] positions; if its value is below the weight of `L`,
//!    its least-cost strategy replaces the sub-DAG. The weighted games of one repair share a
//!    budget of [`WEIGHTED_POSITIONS`] positions, spent in node order (an outgrown game is
//!    charged `REPAIR_POSITIONS + 1` whether the memo or its exploration found it so, so the
//!    charge, like the verdict, does not depend on what other graphs' repairs put in the memo);
//!    once it is spent, nodes are examined as in [`Mode::Subset`]. This only skips replacements,
//!    so the argument below holds unchanged, and the repair stays deterministic: the games of
//!    the next nodes to examine are found ahead, in parallel, but verdicts are applied and
//!    budgets charged in node order, as if the nodes were examined one by one (`repair_from`).
//! 4. Otherwise (and always in [`Mode::Subset`]) the exact game is solved with only the pairs of
//!    `L` losable (moves losing another pair are pruned, which keeps the game small), giving the
//!    least sets of lost pairs inside `L` (at most [`FAMILY_CAP`] per position); if the lightest
//!    such set `S` weighs less than `L`, a strategy losing only pairs of `S` replaces the sub-DAG.
//! 5. After a replacement, or when `L` is empty, or when no set inside `L` is lighter, nothing
//!    below `v` is examined (no strategy loses a strict subset of `L`, as far as the families
//!    kept within [`FAMILY_CAP`] show: a truncated family may miss a lighter set); when a game could not be
//!    played (too many classes, pairs or positions: the exact game, or in [`Mode::Weighted`] the
//!    weighted one), `v`'s successors are examined.
//!
//! On the dense path ([`RepairMemo::dense`], [`super::adg::adaptive_graph_dense`]) the exact
//! games of step 4 are *cut* rather than given up: beyond [`DENSE_GAME_POSITIONS`] positions the
//! positions found and not yet expanded may only stop (`Beyond::Stop` in `loss_game`).
//! A cut game is the full game with the strategies that go past its frontier left out, so every
//! set of its families is lost by a strategy of the full game, and its strategies are ones of
//! the full game: a replacement drawn from it loses only pairs of `S ⊆ L` like any other, and
//! the argument below holds unchanged. What a cut game cannot show is that no lighter set
//! exists, so when it finds none, `v`'s successors are examined (as for a game given up). The
//! exact games of one repair explore at most [`DENSE_SUBSET_POSITIONS`] positions together, in
//! node order (the game that spends the last of them is played out); once they are spent, no
//! further node is examined, which only skips replacements. Why: on a random automaton with four
//! inputs the positions of even three origins form a supercritical branching process (each
//! position of three groups has about 1.2 inputs all three enable, plus the outputs all three
//! allow), so games of three to five classes with one losable pair outgrew 150,000 positions at
//! about 0.2 s each, and the nodes below each were examined in turn (`random_suspension(1, 3000,
//! 4, 4)`: unfinished after 25 minutes). With two inputs the process is subcritical: on
//! `random_suspension(1, 3000, 2, 4)` every game ended within 6,039 positions (1,745 games,
//! 2.38 million positions together), so the two constants leave that automaton's repair as it
//! was, and the four-input one ends (1,994,170 ordered pairs left against 2,003,990 without
//! repair, docs/src/benchmarks.md).
//!
//! Both strategies come from attractors (`ExploredGame::strategy`, `WeightedGame::strategy`):
//! every move lowers a rank, so they end. Where one stops in a position whose origins are not
//! pairwise compatible (always so for a position of two groups with incompatible states), the
//! graph goes on *settling*: it takes the least incompatible pair of classes of the current set
//! and follows that pair's winning moves ([`Compatibility::winning_move`], the ranks of
//! Algorithm 2) applied to the whole set until the pair is separated, merged or left behind, then
//! the next such pair, until the current set is pairwise compatible, where a leaf ends it. Nodes
//! are keyed by (strategy position, current set), (current set, pair settled) or the current set
//! of a leaf, so equal nodes are shared.
//!
//! [`repaired`] (the default of [`super::adaptive_graph`]) repairs the built graph in both modes
//! and keeps, of the three graphs, the one the analysis finds to leave the fewest pairs
//! undistinguished (ties to the built graph, then to [`Mode::Subset`]).
//!
//! # Why the loss never increases
//!
//! For a node `v` with current set `P`, whether two states `p, q` of `P` are lost below `v`
//! depends on `p`, `q` and the sub-DAG only (a common observation, or one stuck on an input
//! while the other goes on), not on the other states of `P`; equivalent states behave alike
//! under every experiment, and compatible states are lost under every experiment (Lemma 3.10),
//! so it is a property of the pair of classes. An initial pair `(o, o')` is lost by the graph iff
//! some run of the analysis takes both to a leaf, or to a node where one is stuck and the other
//! goes on; for the runs through `v`, with `o, o'` at `p, q` there, that happens iff the pair of
//! classes of `(p, q)` is lost below `v`. A [`Mode::Subset`] replacement loses only pairs of
//! classes of `S ⊆ L`, so every initial pair lost through `v` after it was lost through `v`
//! before, and runs not through `v` are unchanged: the set of pairs the graph loses can only
//! shrink. Settling keeps this: it starts where stopping (losing every incompatible pair of
//! origins still together) stays inside `S`, and any strategy from there only loses pairs of
//! origins still together. Repairs at several nodes each shrink the set lost through their node,
//! so together they shrink it too. A [`Mode::Weighted`] replacement may lose pairs outside `L`
//! (its cost only bounds their weight at `v`, and the pairs may not be lost elsewhere), so its
//! graph is kept only when the analysis shows it loses fewer pairs than the built one; at the
//! root, where every run passes, its cost bounds the whole loss.
//!
//! # Why the result is an ADG analysed right
//!
//! The result is an [`Experiment`] like the built one: nodes in topological order (assembled by a
//! post-order over the keys; the strategies' ranks, and for settling the lexicographic measure
//! (incompatible pairs in the current set, rank of the settled pair), strictly decrease along
//! every new edge, and kept nodes keep their successors, so there is no cycle); each node holds
//! its current set (every new node's set is its parent's `after` the label); inputs only where
//! some state of the current set enables them; output nodes with one branch per output some
//! state of the current set allows; inputs raced by the allowed outputs with `retry`, as
//! Algorithm 5's nodes. So [`AdgMetrics`], undistinguished pairs and top-ups are computed by the
//! same analysis as for any ADG ([`AnalysedGraph::new`]); nothing is carried over from the games.
//!
//! [`AdgMetrics`]: super::AdgMetrics

use super::analysed::{AnalysedGraph, origins_per_node, undistinguished_below};
use super::experiment::{Experiment, ExperimentNode, Race, Step, assemble, post_order};
use super::forced::representatives;
use super::loss_game::{
    Beyond, Branches, Choice, MAX_GAME_ORIGINS, Pairs, WeightedGame, explore_game, weighted_game,
};
use super::sets::{after, outputs_of};
use crate::analysis::{Compatibility, Preference};
use crate::model::{LabelId, StateId, SuspensionAutomaton};
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::sync::Mutex;
use std::sync::atomic::AtomicUsize;
use std::sync::atomic::Ordering::Relaxed;

/// Most sets kept per position in the families of a repair game (the sets are few when the
/// built subtree loses few pairs; the cap bounds the time where it loses many).
pub const FAMILY_CAP: usize = 64;

/// Positions a repair game may explore before the node is left as built.
pub const REPAIR_POSITIONS: usize = 150_000;

/// Positions the weighted games of one repair may explore together. Once they are spent, later
/// nodes are examined as in [`Mode::Subset`]; the game that spends the last of them is played
/// out, so the overshoot is below [`REPAIR_POSITIONS`]. Dense-compatibility automata ran 160
/// weighted games of 43,000 positions on average per repair (`random_suspension(1, 1000, 2,
/// 4)`), most of `distinguish`'s time; the bundled models stay far below it.
pub const WEIGHTED_POSITIONS: usize = 200_000;

/// Positions an exact game of the dense path may explore before it is cut
/// ([`RepairMemo::dense`]; module documentation).
pub const DENSE_GAME_POSITIONS: usize = 8_192;

/// Positions the exact games of one repair on the dense path may explore together
/// ([`RepairMemo::dense`]; module documentation).
pub const DENSE_SUBSET_POSITIONS: usize = 3_000_000;

/// What the repair did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RepairStats {
    /// Nodes examined.
    pub examined: usize,
    /// Games explored.
    pub games: usize,
    /// Nodes where a game outgrew the position limit ([`REPAIR_POSITIONS`] by default).
    pub gave_up: usize,
    /// Sub-DAGs replaced.
    pub replaced: usize,
}

/// A replacement: the strategy played in a game, one choice per position.
struct Replacement {
    choice: Vec<Option<Choice>>,
}

/// A node of the repaired graph.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Key {
    /// A node of the built graph, kept.
    Old(u32),
    /// A position of replacement `game`'s strategy with the current set `states`.
    Game {
        game: u32,
        position: u32,
        states: Vec<StateId>,
    },
    /// Settling the incompatible pair of class representatives `pair` in `states`.
    Settle {
        states: Vec<StateId>,
        pair: (StateId, StateId),
    },
    /// A leaf with a pairwise compatible current set.
    Leaf(Vec<StateId>),
}

/// The step of a node, with keys for its successors.
enum Template {
    Leaf,
    Input {
        input: LabelId,
        then: Key,
        race: Vec<(LabelId, Option<Key>)>,
    },
    Outputs(Vec<(LabelId, Key)>),
}

/// Which strategies may replace a sub-DAG.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Only strategies losing a subset of the pairs of classes the sub-DAG loses (the set of
    /// pairs the graph loses can only shrink).
    Subset,
    /// First the least-cost strategy of the weighted game (it may lose other pairs, so the
    /// graph's loss may grow where those are not lost elsewhere); else as `Subset`.
    Weighted,
}

struct Repairer<'a> {
    mode: Mode,
    memo: &'a RepairMemo,
    sa: &'a SuspensionAutomaton,
    compat: &'a Compatibility,
    adg: &'a Experiment,
    representative: Vec<StateId>,
    /// The replacement of each built node, if any.
    replaced: Vec<Option<u32>>,
    /// Positions the weighted games of this repair may still explore (the memo's budget,
    /// [`WEIGHTED_POSITIONS`] by default).
    weighted_left: AtomicUsize,
    /// Positions the exact (subset) games of this repair may still explore (the memo's budget:
    /// unlimited by default, [`DENSE_SUBSET_POSITIONS`] for [`RepairMemo::dense`]).
    subset_left: AtomicUsize,
    replacements: Vec<Replacement>,
}

/// What [`Repairer::speculate`] finds at a node.
enum Found {
    /// A verdict reached before any game (whether a game was explored, whether one outgrew the
    /// limit).
    Decided(Verdict, bool, bool),
    /// The node's games, with the outcomes found so far.
    Games(Games),
}

/// The inputs of a node's games and the outcomes of those played.
struct Games {
    classes: Vec<StateId>,
    lost: Vec<(usize, usize)>,
    weights: Vec<u64>,
    /// The weight of the pairs the built sub-DAG loses.
    built: u64,
    weighted: Option<WeightedOutcome>,
    /// `Some(None)` when the exact game outgrew the limit.
    subset: Option<Option<SubsetOutcome>>,
}

/// The outcome of a weighted game: positions charged, the replacement it offers (cheaper than
/// the built sub-DAG), whether it outgrew the limit.
struct WeightedOutcome {
    spent: usize,
    replacement: Option<Replacement>,
    unsettled: bool,
}

/// The outcome of an exact game played out or cut: positions charged, whether it was cut, the
/// replacement losing a lighter set than the built sub-DAG.
struct SubsetOutcome {
    positions: usize,
    cut: bool,
    replacement: Option<Replacement>,
}

/// The result of examining one node.
enum Verdict {
    /// Nothing to gain here or below.
    Keep,
    /// The game could not settle it: examine the successors.
    Descend,
    /// Replace the sub-DAG by this strategy.
    Replace(Replacement),
}

impl Repairer<'_> {
    /// The class representatives of `states`, sorted, each once.
    fn classes(&self, states: &[StateId]) -> Vec<StateId> {
        let mut reps: Vec<StateId> = states
            .iter()
            .map(|q| self.representative[q.index()])
            .collect();
        reps.sort_unstable();
        reps.dedup();
        reps
    }

    /// What examining built node `k` (reached by the initial states as `origins` says, see the
    /// module documentation) finds without consulting the budgets: a verdict reached before any
    /// game, or the games' inputs with the outcomes of the games that `weighted` and `subset`
    /// ask for (a game's outcome depends on the node only, never on the budgets left, so it may
    /// be found ahead of time and in parallel, see [`Repairer::apply`]).
    fn speculate(
        &self,
        k: u32,
        origins: &[Vec<(StateId, StateId)>],
        weighted: bool,
        subset: bool,
    ) -> Found {
        let (sa, compat) = (self.sa, self.compat);
        let states = &self.adg.nodes()[k as usize].states;
        if compat.pairwise_compatible(states) {
            return Found::Decided(Verdict::Keep, false, false);
        }
        let classes = self.classes(states);
        if classes.len() > MAX_GAME_ORIGINS {
            return Found::Decided(Verdict::Descend, false, false);
        }
        let index = |q: StateId| {
            classes
                .binary_search(&self.representative[q.index()])
                .unwrap_or(0)
        };
        // The incompatible pairs of classes lost below `k`, as pairs of class indices.
        let mut lost: Vec<(usize, usize)> = undistinguished_below(sa, compat, self.adg, k)
            .into_iter()
            .map(|(p, q)| (index(p).min(index(q)), index(p).max(index(q))))
            .filter(|&(i, j)| i != j && !compat.compatible(classes[i], classes[j]))
            .collect();
        lost.sort_unstable();
        lost.dedup();
        if lost.is_empty() {
            return Found::Decided(Verdict::Keep, false, false);
        }
        if lost.len() > Pairs::BITS as usize {
            return Found::Decided(Verdict::Descend, false, false);
        }
        let weights = self.weights(&classes, origins);
        let n = classes.len();
        let built: u64 = lost.iter().map(|&(i, j)| weights[i * n + j]).sum();
        let mut games = Games {
            classes,
            lost,
            weights,
            built,
            weighted: None,
            subset: None,
        };
        if weighted && self.mode == Mode::Weighted {
            games.weighted = Some(self.weighted_outcome(&games));
        }
        let replaced = matches!(&games.weighted, Some(w) if w.replacement.is_some());
        if subset && !replaced {
            games.subset = Some(self.subset_outcome(&games));
        }
        Found::Games(games)
    }

    /// The outcome of the weighted game of a node.
    fn weighted_outcome(&self, g: &Games) -> WeightedOutcome {
        let game = if self.memo.outgrown(&g.classes) {
            None
        } else {
            let game = weighted_game(
                self.sa,
                self.compat,
                &self.representative,
                &g.classes,
                &g.weights,
                self.memo.limit,
                Branches::Sum,
            );
            if game.is_none() {
                self.memo.remember(g.classes.clone());
            }
            game
        };
        // Charged alike whether the memo or the exploration found the game outgrown.
        let spent = game
            .as_ref()
            .map_or(self.memo.limit + 1, WeightedGame::positions);
        let replacement = match &game {
            Some(game) if game.value() < g.built => {
                game.strategy().map(|choice| Replacement { choice })
            }
            _ => None,
        };
        WeightedOutcome {
            spent,
            replacement,
            unsettled: game.is_none(),
        }
    }

    /// The outcome of the exact game of a node.
    fn subset_outcome(&self, g: &Games) -> Option<SubsetOutcome> {
        let game = explore_game(
            self.sa,
            self.compat,
            &self.representative,
            &g.classes,
            &g.lost,
            self.memo.limit,
            self.memo.beyond,
        )?;
        let n = g.classes.len();
        let weight = |s: Pairs| -> u64 {
            g.lost
                .iter()
                .enumerate()
                .filter(|&(b, _)| s >> b & 1 == 1)
                .map(|(_, &(i, j))| g.weights[i * n + j])
                .sum()
        };
        let all: Pairs = if g.lost.len() == Pairs::BITS as usize {
            Pairs::MAX
        } else {
            (1 << g.lost.len()) - 1
        };
        let family = game.least_losses(all, FAMILY_CAP);
        let best = family.iter().copied().min_by_key(|&s| weight(s));
        let replacement = best
            .filter(|&s| weight(s) < g.built)
            .and_then(|s| game.strategy(s))
            .map(|choice| Replacement { choice });
        Some(SubsetOutcome {
            positions: game.positions(),
            cut: game.cut(),
            replacement,
        })
    }

    /// Examines built node `k` as [`Repairer::speculate`] found it, charging the budgets left
    /// (nodes are applied in node order, so the charges are the sequential ones): the verdict,
    /// whether a game was explored, and whether one outgrew the memo's limit. A game the
    /// budgets now call for and `found` lacks is played here.
    fn apply(&self, found: Found) -> (Verdict, bool, bool) {
        let mut g = match found {
            Found::Decided(verdict, explored, gave_up) => return (verdict, explored, gave_up),
            Found::Games(g) => g,
        };
        // In `Mode::Weighted`, whether the weighted game was played out (if not, the nodes
        // below are examined when nothing better is found here).
        let mut unsettled = false;
        if self.mode == Mode::Weighted && self.weighted_left.load(Relaxed) > 0 {
            let w = match g.weighted.take() {
                Some(w) => w,
                None => self.weighted_outcome(&g),
            };
            let left = self.weighted_left.load(Relaxed);
            self.weighted_left
                .store(left.saturating_sub(w.spent), Relaxed);
            if let Some(replacement) = w.replacement {
                return (Verdict::Replace(replacement), true, false);
            }
            unsettled = w.unsettled;
        }
        if self.subset_left.load(Relaxed) == 0 {
            return (Verdict::Keep, false, false);
        }
        let outcome = match g.subset.take() {
            Some(outcome) => outcome,
            None => self.subset_outcome(&g),
        };
        let Some(outcome) = outcome else {
            return (Verdict::Descend, true, true);
        };
        let left = self.subset_left.load(Relaxed);
        self.subset_left
            .store(left.saturating_sub(outcome.positions), Relaxed);
        match outcome.replacement {
            Some(replacement) => (Verdict::Replace(replacement), true, false),
            None if unsettled || outcome.cut => (Verdict::Descend, true, false),
            None => (Verdict::Keep, true, false),
        }
    }

    /// The weight of each pair of classes `(i, j)` (indices into `classes`) at `i * n + j` and
    /// `j * n + i` (`n` classes): the incompatible pairs of initial states that reach the node
    /// together (on one of the ways `origins`), one in each class, each pair once.
    fn weights(&self, classes: &[StateId], origins: &[Vec<(StateId, StateId)>]) -> Vec<u64> {
        let n = classes.len();
        let index = |q: StateId| {
            classes
                .binary_search(&self.representative[q.index()])
                .unwrap_or(0)
        };
        let mut out = vec![0u64; n * n];
        let mut seen: HashSet<(usize, usize, StateId, StateId)> = HashSet::new();
        for way in origins {
            let mut by_class: Vec<Vec<StateId>> = vec![Vec::new(); n];
            for &(o, s) in way {
                by_class[index(s)].push(o);
            }
            for j in 1..n {
                for i in 0..j {
                    if self.compat.compatible(classes[i], classes[j]) {
                        continue;
                    }
                    for &o in &by_class[i] {
                        for &o2 in &by_class[j] {
                            if origins.len() == 1 || seen.insert((i, j, o.min(o2), o.max(o2))) {
                                out[i * n + j] += 1;
                                out[j * n + i] += 1;
                            }
                        }
                    }
                }
            }
        }
        out
    }

    /// The key of built node `k` in the repaired graph.
    fn old(&self, k: u32) -> Key {
        match self.replaced[k as usize] {
            Some(g) => self.game_key(g, 0, self.adg.nodes()[k as usize].states.clone()),
            None => Key::Old(k),
        }
    }

    fn game_key(&self, game: u32, position: u32, states: Vec<StateId>) -> Key {
        match &self.replacements[game as usize].choice[position as usize] {
            Some(Choice::Input(..)) | Some(Choice::Outputs(_)) => Key::Game {
                game,
                position,
                states,
            },
            // Stop (or a position off the strategy, not reached): settle what is left.
            _ => self.settle(states, None),
        }
    }

    /// Settling `states`, continuing with pair `hint` (class representatives) when it is still
    /// an incompatible pair of classes there, else with the least such pair; a leaf when there
    /// is none.
    fn settle(&self, states: Vec<StateId>, hint: Option<(StateId, StateId)>) -> Key {
        let classes = self.classes(&states);
        if let Some((a, b)) = hint {
            let present = |q: StateId| classes.binary_search(&q).is_ok();
            if a != b && present(a) && present(b) && !self.compat.compatible(a, b) {
                return Key::Settle {
                    states,
                    pair: (a.min(b), a.max(b)),
                };
            }
        }
        for (j, &b) in classes.iter().enumerate() {
            for &a in &classes[..j] {
                if !self.compat.compatible(a, b) {
                    return Key::Settle {
                        states,
                        pair: (a, b),
                    };
                }
            }
        }
        Key::Leaf(states)
    }

    /// Where pair `(a, b)` goes with label `l`, as class representatives.
    fn pair_after(&self, (a, b): (StateId, StateId), l: LabelId) -> Option<(StateId, StateId)> {
        let r = |q: StateId| self.sa.after(q, l).map(|t| self.representative[t.index()]);
        Some((r(a)?, r(b)?))
    }

    fn race(&self, states: &[StateId]) -> Vec<(LabelId, Option<Key>)> {
        outputs_of(self.sa, states)
            .into_iter()
            .filter(|&x| x != self.sa.quiescence())
            .map(|x| (x, None))
            .collect()
    }

    fn states<'k>(&'k self, key: &'k Key) -> &'k [StateId] {
        match key {
            Key::Old(k) => &self.adg.nodes()[*k as usize].states,
            Key::Game { states, .. } | Key::Settle { states, .. } | Key::Leaf(states) => states,
        }
    }

    fn template(&self, key: &Key) -> Template {
        let sa = self.sa;
        match key {
            Key::Leaf(_) => Template::Leaf,
            Key::Old(k) => match &self.adg.nodes()[*k as usize].step {
                Step::Leaf => Template::Leaf,
                Step::Input { input, then, race } => Template::Input {
                    input: *input,
                    then: self.old(*then),
                    race: race
                        .iter()
                        .map(|&(x, r)| {
                            (
                                x,
                                match r {
                                    Race::Retry => None,
                                    Race::Node(t) => Some(self.old(t)),
                                },
                            )
                        })
                        .collect(),
                },
                Step::Outputs { branches } => {
                    Template::Outputs(branches.iter().map(|&(x, t)| (x, self.old(t))).collect())
                }
            },
            Key::Game {
                game,
                position,
                states,
            } => match &self.replacements[*game as usize].choice[*position as usize] {
                Some(Choice::Input(a, next)) => Template::Input {
                    input: *a,
                    then: self.game_key(*game, *next as u32, after(sa, states, *a)),
                    race: self.race(states),
                },
                Some(Choice::Outputs(list)) => Template::Outputs(
                    list.iter()
                        .map(|&(x, next)| {
                            (x, self.game_key(*game, next as u32, after(sa, states, x)))
                        })
                        .collect(),
                ),
                _ => Template::Leaf,
            },
            Key::Settle { states, pair } => {
                match self
                    .compat
                    .winning_move(sa, pair.0, pair.1, Preference::Outputs)
                {
                    Some(crate::analysis::Move::Input(a)) => Template::Input {
                        input: a,
                        then: self.settle(after(sa, states, a), self.pair_after(*pair, a)),
                        race: self.race(states),
                    },
                    Some(crate::analysis::Move::Outputs) => Template::Outputs(
                        outputs_of(sa, states)
                            .into_iter()
                            .map(|x| {
                                (
                                    x,
                                    self.settle(after(sa, states, x), self.pair_after(*pair, x)),
                                )
                            })
                            .collect(),
                    ),
                    None => Template::Leaf,
                }
            }
        }
    }

    fn children(&self, key: &Key) -> Vec<Key> {
        match self.template(key) {
            Template::Leaf => Vec::new(),
            Template::Input { then, race, .. } => std::iter::once(then)
                .chain(race.into_iter().filter_map(|r| r.1))
                .collect(),
            Template::Outputs(list) => list.into_iter().map(|b| b.1).collect(),
        }
    }
}

/// The position limit of the repairs' games ([`REPAIR_POSITIONS`] by default) and the sets of
/// behaviour classes whose weighted game outgrew it, shared by the repairs of the graphs of one
/// automaton: `distinguish` repairs the ADG of every candidate splitting graph, and they meet
/// the same sets (on TCP_Linux_Server merge 4,5 minimised, 21 weighted games that gave up were
/// played over 8 sets before the memo). Which positions a game explores depends on its classes
/// only, not on the weights, so a set that outgrew the limit outgrows it again and is not played
/// twice. Skipping a game that would give up changes no result, so the outcome does not depend
/// on the order in which parallel repairs fill the memo (test
/// `a_filled_memo_changes_no_repair`).
#[derive(Debug)]
pub struct RepairMemo {
    limit: usize,
    /// What an exact (subset) game does beyond `limit`: give up, or stop expanding
    /// ([`RepairMemo::dense`]).
    beyond: Beyond,
    /// Positions the weighted games of one repair may explore ([`WEIGHTED_POSITIONS`]).
    weighted_budget: usize,
    /// Positions the exact (subset) games of one repair may explore (unlimited but for
    /// [`RepairMemo::dense`]).
    subset_budget: usize,
    outgrown: Mutex<HashSet<Vec<StateId>>>,
    /// Tests only: remember nothing, so every game is played (the reference the memo must
    /// match).
    #[cfg(test)]
    forgetful: bool,
}

impl Default for RepairMemo {
    fn default() -> Self {
        RepairMemo::with_limit(REPAIR_POSITIONS)
    }
}

impl RepairMemo {
    /// An empty memo for games of at most `limit` positions.
    pub fn with_limit(limit: usize) -> Self {
        RepairMemo {
            limit,
            beyond: Beyond::GiveUp,
            weighted_budget: WEIGHTED_POSITIONS,
            subset_budget: usize::MAX,
            outgrown: Mutex::new(HashSet::new()),
            #[cfg(test)]
            forgetful: false,
        }
    }

    /// The memo of the dense path ([`super::adg::adaptive_graph_dense`]): exact games cut at
    /// [`DENSE_GAME_POSITIONS`] positions, not given up, and at most [`DENSE_SUBSET_POSITIONS`]
    /// positions per repair (module documentation).
    pub fn dense() -> Self {
        RepairMemo {
            beyond: Beyond::Stop,
            subset_budget: DENSE_SUBSET_POSITIONS,
            ..RepairMemo::with_limit(DENSE_GAME_POSITIONS)
        }
    }

    fn outgrown(&self, classes: &[StateId]) -> bool {
        self.lock().contains(classes)
    }

    fn remember(&self, classes: Vec<StateId>) {
        #[cfg(test)]
        if self.forgetful {
            return;
        }
        self.lock().insert(classes);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashSet<Vec<StateId>>> {
        // A panic elsewhere cannot leave the set half-updated (an insert is one step).
        self.outgrown.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The ADG `adg` of `sa` with sub-DAGs replaced by optimal strategies of the exact game where
/// they lose pairs a strategy would not (see the module documentation), and what was done;
/// `memo` holds the games too large to play (see [`RepairMemo`]).
pub fn repair(
    sa: &SuspensionAutomaton,
    compat: &Compatibility,
    adg: &Experiment,
    mode: Mode,
    memo: &RepairMemo,
) -> (Experiment, RepairStats) {
    let origins = origins_per_node(sa, compat, adg);
    repair_from(sa, compat, adg, &origins, mode, memo, default_lookahead())
}

/// Nodes whose games are found ahead in parallel ([`repair_from`]): one per thread alone (no
/// game is played that a spent budget skips), else four per thread, so that a long game does
/// not leave the other threads idle for long.
fn default_lookahead() -> usize {
    match rayon::current_num_threads() {
        1 => 1,
        n => 4 * n,
    }
}

/// [`repair`] given the origins per node of `adg` ([`origins_per_node`]), finding the games of
/// up to `lookahead` nodes to examine ahead, in parallel. The result is that of examining the
/// nodes one by one in node order, whatever `lookahead` and the thread count: a node's verdict
/// depends on its games and the budgets left, its games on the node only (the memo of outgrown
/// games changes no outcome, [`RepairMemo`]), so the games are found ahead and the verdicts
/// applied, and the budgets charged, in node order ([`Repairer::apply`], which plays any game
/// the budgets call for that was not found ahead). Every node found ahead is examined, since
/// only a verdict marks nodes and marks stay; found ahead only while their budget was not
/// spent, the games wasted once a budget runs out are at most `lookahead`.
fn repair_from(
    sa: &SuspensionAutomaton,
    compat: &Compatibility,
    adg: &Experiment,
    origins: &[Vec<Vec<(StateId, StateId)>>],
    mode: Mode,
    memo: &RepairMemo,
    lookahead: usize,
) -> (Experiment, RepairStats) {
    let mut r = Repairer {
        mode,
        memo,
        sa,
        compat,
        adg,
        representative: representatives(sa),
        replaced: vec![None; adg.len()],
        weighted_left: AtomicUsize::new(memo.weighted_budget),
        subset_left: AtomicUsize::new(memo.subset_budget),
        replacements: Vec::new(),
    };
    let mut stats = RepairStats::default();
    // The nodes marked for examination and not examined yet. Nodes are examined in node order,
    // so a mark on a node at or before the one examined would have no effect and is not made.
    let mut marked: BTreeSet<usize> = BTreeSet::from([0]);
    // Nodes speculated and not yet applied (all of them marked).
    let mut ahead: BTreeMap<usize, Found> = BTreeMap::new();
    while let Some(k) = marked.pop_first() {
        stats.examined += 1;
        if !ahead.contains_key(&k) {
            // The next `lookahead` nodes to examine as known now (every one will be examined: a
            // node once marked stays so), found in parallel with the games of the budgets not
            // spent yet (budgets only shrink; `apply` plays a game found missing). At most the
            // nodes of `ahead` are passed over.
            let next: Vec<usize> = std::iter::once(k)
                .chain(marked.iter().copied().filter(|j| !ahead.contains_key(j)))
                .take(lookahead.max(1))
                .collect();
            let weighted = r.weighted_left.load(Relaxed) > 0;
            let subset = r.subset_left.load(Relaxed) > 0;
            let found: Vec<(usize, Found)> = next
                .par_iter()
                .map(|&j| (j, r.speculate(j as u32, &origins[j], weighted, subset)))
                .collect();
            ahead.extend(found);
        }
        let found = ahead.remove(&k).expect("node `k` was speculated");
        let (verdict, explored, gave_up) = r.apply(found);
        stats.games += usize::from(explored);
        stats.gave_up += usize::from(gave_up);
        match verdict {
            Verdict::Keep => {}
            Verdict::Descend => {
                marked.extend(
                    adg.nodes()[k]
                        .successors()
                        .map(|t| t as usize)
                        .filter(|&t| t > k),
                );
            }
            Verdict::Replace(replacement) => {
                r.replaced[k] = Some(r.replacements.len() as u32);
                r.replacements.push(replacement);
                stats.replaced += 1;
            }
        }
    }
    if stats.replaced == 0 {
        return (adg.clone(), stats);
    }
    let (order, index, _) = post_order(r.old(0), |k| r.children(k));
    let repaired = assemble(&order, &index, |k, idx| {
        let step = match r.template(k) {
            Template::Leaf => Step::Leaf,
            Template::Input { input, then, race } => Step::Input {
                input,
                then: idx(&then),
                race: race
                    .into_iter()
                    .map(|(x, t)| (x, t.map_or(Race::Retry, |t| Race::Node(idx(&t)))))
                    .collect(),
            },
            Template::Outputs(list) => Step::Outputs {
                branches: list.into_iter().map(|(x, t)| (x, idx(&t))).collect(),
            },
        };
        ExperimentNode {
            states: r.states(k).to_vec(),
            step,
        }
    });
    (repaired, stats)
}

/// `built` repaired (see [`repair`]) in both modes, whichever of the three graphs leaves the
/// fewest pairs undistinguished (ties to `built`, then [`Mode::Subset`]).
pub fn repaired(
    sa: &SuspensionAutomaton,
    compat: &Compatibility,
    built: AnalysedGraph,
    memo: &RepairMemo,
) -> AnalysedGraph {
    repaired_in(sa, compat, built, memo, &[Mode::Subset, Mode::Weighted])
}

/// `built` repaired in each of `modes` (see [`repair`]), whichever graph leaves the fewest pairs
/// undistinguished (ties to `built`, then to the earlier mode). The origins per node of `built`
/// are found once for all modes.
pub fn repaired_in(
    sa: &SuspensionAutomaton,
    compat: &Compatibility,
    built: AnalysedGraph,
    memo: &RepairMemo,
    modes: &[Mode],
) -> AnalysedGraph {
    if built.undistinguished().is_empty() {
        return built;
    }
    let origins = origins_per_node(sa, compat, built.adg());
    repaired_from(sa, compat, built, &origins, memo, modes)
}

/// [`repaired_in`] given the origins per node of `built` ([`AnalysedGraph::with_origins`]), so
/// its analysis is not run again.
pub(crate) fn repaired_from(
    sa: &SuspensionAutomaton,
    compat: &Compatibility,
    built: AnalysedGraph,
    origins: &[Vec<Vec<(StateId, StateId)>>],
    memo: &RepairMemo,
    modes: &[Mode],
) -> AnalysedGraph {
    let mut best: Option<AnalysedGraph> = None;
    if !built.undistinguished().is_empty() {
        for &mode in modes {
            let (adg, stats) = repair_from(
                sa,
                compat,
                built.adg(),
                origins,
                mode,
                memo,
                default_lookahead(),
            );
            if stats.replaced == 0 {
                continue;
            }
            let new = AnalysedGraph::new(sa, compat, adg);
            let least = best.as_ref().unwrap_or(&built).undistinguished().len();
            if new.undistinguished().len() < least {
                best = Some(new);
            }
        }
    }
    best.unwrap_or(built)
}

#[cfg(test)]
mod tests;
