//! Splitting graphs (van den Bos Def. 3.22-3.25, Algorithms 3-4): a DAG of sets of states rooted
//! at all states, in which every internal node carries a witness test case whose observations
//! separate its children; a complete graph has only pairwise compatible leaves.
//!
//! Construction (Algorithm 3) repeatedly splits leaves that hold an incompatible pair:
//! * on output (Def. 3.25.1): every output `x` some state of the leaf `l` lacks gives the child
//!   `enabled(l, x)` and witness `x.0`; an output all states enable needs a least common ancestor
//!   `v` of `l after x` and gives the induced split `Π(l, x, v)` (Def. 3.23) with witness
//!   `x.W(v)`;
//! * on input `a` (Def. 3.25.2): an LCA `v` of `l after a` gives the children `Π(l, a, v)` and
//!   witness `a.W(v)`, plus the states `R = l \ enabled(l, a)` that do not enable `a`.
//!
//! Where `R` goes is our one departure from the thesis ([`InputSplitRule`]). Line 17 of
//! Algorithm 4 adds `R` to every child (dropping it loses completeness, Example 3.28 / Fig. 3.7).
//! By default we make `R` a child of its own: the proof of Lemma 3.29 goes through unchanged (`R`
//! is a proper non-empty subset of `l` because some state enables `a`; the children still cover
//! `l`; every observation of `a.W(v)` starts with `a`, which no state of `R` enables, so the
//! children of `Π` cover each observation exactly as before), and Lemma 3.26 and termination do
//! not depend on the children. Copying `R` into every child makes the graph blow up on automata
//! where most states enable no input (the output-pending states of a Mealy machine embedded with
//! hidden inputs: TCP_Linux_Server with two hidden inputs did not finish within 100 s, and
//! finishes in 0.9 s with 4,439 nodes). On the shared benchmark embeddings the ADGs distinguish
//! as many pairs or more; on dense random automata somewhat fewer (docs/src/design/state-identification.md, `cargo bench --bench
//! identify`). [`InputSplitRule::CopyNonEnabling`] keeps the thesis' rule.
//!
//! The split policy is reproducible: leaves are processed in rounds in creation order; the splits
//! of all pending leaves are computed in parallel against the graph of the previous round (the
//! parallel LCA search) and applied in order. A leaf's candidates are the output split, then input
//! splits in label order (labels and states are numbered canonically by `distinguish`); among
//! those whose labels are injective (Def. 3.34), [`SplitPolicy`] takes the one keeping the fewest
//! pairs together (or the first), and leaves without one wait for later rounds. Only when a
//! round finds no injective split anywhere are the best candidates of all waiting leaves applied
//! (by default those whose witnesses lose the fewest incompatible pairs; also when more than 256
//! leaves wait and
//! fewer than one in 16 found an injective split, which bounds the number of rounds on large
//! automata). By Theorem 3.36, when all state pairs
//! are incompatible and an adaptive distinguishing graph exists, every round finds an injective
//! split, so Algorithm 5 then yields one. Among several LCAs we take the first injective one a
//! depth-first descent from the root meets (through children containing the set, injective
//! children first), which costs the nodes on the way rather than a scan of all nodes.
//!
//! Which split of a leaf is best shows only in the adaptive distinguishing graph built from the
//! whole graph, so by default ([`SplitPolicy::Searched`], [`SplittingGraph::build_searched`])
//! the graph is built under several policies and the one whose ADG leaves the fewest pairs
//! undistinguished is kept: fewest pairs lost, the same with one and with two levels of
//! lookahead ([`SplitPolicy::LostAhead`]: a non-injective candidate also counts what its
//! children's least lossy splits lose, found against the graph as it stands), and fewest pairs
//! together. The last of these graphs is built first (it counts no lost pairs and is cheap) and
//! bounds the first one at `SEARCH_GROWTH` times its nodes: on automata with many compatible
//! pairs, choosing splits by lost pairs grew graphs 30 times larger (659,587 nodes against
//! 20,616 on `random_suspension(1, 2000, 2, 4)`), whose ADGs then cost most of `distinguish`.
//! The bound changes only which graphs compete: whatever the search keeps is a complete graph
//! of Algorithm 3 under one policy, so Def. 3.22, Lemma 3.29 and Theorem 3.36 hold for it as
//! before; `distinguish` prints the same bytes as without it on every bundled model. A graph
//! with the same nodes as one scored before is not scored again: the score is a function of
//! the graph, and everything a graph holds besides its nodes (the index by set and by state) is
//! derived from them, so it would score the same and lose the tie to the earlier policy; the
//! search keeps the graph and result it kept when it scored every graph. On `rio3000` (issue 44,
//! docs/src/design/scaling.md) all four policies build the same graph, whose six ADGs and two
//! repairs were built four times (two graphs at once on two threads). No policy wins on
//! every benchmark embedding (docs/src/design/state-identification.md). `--diagnose` of the bench
//! shows where the losses of the merged TCP embeddings came from: one early node (the split of
//! some 190-220 quiescent states on the input `SYN(V,V,0)`) whose witness leads incompatible
//! states to equal or compatible ones, and smaller nodes splitting on `CLOSECONNECTION`; with
//! lookahead the graph avoids most of them. Optional rounds of re-splitting
//! ([`SplitOptions::resplit_rounds`]) then impose other splits on the lossiest nodes and keep a
//! rebuilt graph whose ADG loses fewer pairs; on the benchmark they rarely help (12 graphs a
//! round for a few pairs), so they are off by default. Imposed splits are keyed by state sets
//! and labels in canonical numbering, so the search is as canonical as one build.
//!
//! On automata with at least `DENSE_COMPATIBLE_PAIRS` compatible pairs `distinguish` does not
//! search: it builds the graph of fewest pairs together only (module documentation of
//! [`super::adg`]).
//!
//! The LCA index keeps, per state, the nodes containing it; the nodes containing a set are found
//! from its rarest state. Set nodes are shared (Def. 3.22 has sets as vertices), so the graph of
//! the family `S_n` of Lemma 3.31 has `2^(n-1)` nodes; a node budget stops the construction
//! cleanly.

use super::error::IdentifyError;
use super::injective::{injective, lost_pairs};
use super::sets::after;
use crate::analysis::Compatibility;
use crate::model::{LabelId, StateId, SuspensionAutomaton};
use rayon::prelude::*;
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

pub use super::split_options::{
    DEFAULT_SPLIT_BUDGET, InputSplitRule, LOOKAHEAD, SEARCHED_POLICIES, SplitOptions, SplitPolicy,
};

/// Number of waiting leaves beyond which rounds with few injective splits also apply the
/// waiting leaves' first splits (small automata, where Theorem 3.36 is tested, never reach it).
const LARGE_WAITING: usize = 256;

/// Nodes the LCA descent visits before it gives up for this round (see `pick_lca`).
const LCA_VISIT_LIMIT: usize = 64;

/// The witness test case of an internal node, in terms of witnesses of earlier nodes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Witness {
    /// `Σ x.W(v_x)`: wait for an output; `None` is the empty test `0`.
    Outputs(Vec<(LabelId, Option<u32>)>),
    /// `a.W(v)`: apply input `a`, then the witness of node `v`.
    Input(LabelId, u32),
}

/// A node of the splitting graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitNode {
    /// The states, sorted.
    pub states: Vec<StateId>,
    /// Children (node ids, sorted); empty for leaves.
    pub children: Vec<u32>,
    /// The witness of an internal node.
    pub witness: Option<Witness>,
    /// Whether this node's split and those of the witnesses it uses are injective (Def. 3.34).
    pub injective: bool,
}

/// Nodes beyond 1.25 times the first graph's at which [`SplittingGraph::build_searched`] gives
/// up another policy's graph (and beyond `SEARCH_GROWTH` times the cheap graph's at which it
/// gives up the first policy's).
const SEARCH_SLACK: usize = 64;

/// How many times the nodes of the graph of [`SplitPolicy::FewestPairsTogether`] the graph of
/// the first searched policy may have in [`SplittingGraph::build_searched`]. On automata with
/// many compatible pairs, choosing splits by the pairs their witnesses lose grows a graph far
/// larger than the others (`random_suspension(1, 2000, 2, 4)`: 659,587 nodes against 20,616,
/// 48 s of CPU against 0.4 s), whose adaptive distinguishing graphs then cost most of the
/// search, and the search kept a smaller graph anyway. `distinguish` output on every bundled
/// model is the same as without the bound (compared byte for byte).
const SEARCH_GROWTH: usize = 4;
/// Nodes a re-splitting round examines.
const RESPLIT_NODES: usize = 4;
/// Alternative splits a re-splitting round tries per node.
const RESPLIT_ALTERNATIVES: usize = 3;

/// Levels of children whose least lossy splits the re-splitting of
/// [`SplittingGraph::build_searched`] adds to an alternative's lost pairs.
const RESPLIT_LOOKAHEAD: usize = 2;

/// A complete splitting graph (Def. 3.22).
#[derive(Clone, Debug)]
pub struct SplittingGraph {
    nodes: Vec<SplitNode>,
    by_hash: HashMap<u64, Vec<u32>>,
    member_of: Vec<Vec<u32>>,
}

struct Split {
    children: Vec<Vec<StateId>>,
    witness: Witness,
    injective: bool,
}

impl Split {
    /// The label the witness starts with: `None` for the output split.
    fn label(&self) -> Option<LabelId> {
        match self.witness {
            Witness::Outputs(_) => None,
            Witness::Input(a, _) => Some(a),
        }
    }
}

/// The least pairs a set's candidates lose, by (set, levels of lookahead), within one leaf's
/// scoring in [`SplitPolicy::LostAhead`] (the graph does not change meanwhile).
struct LeastLost {
    /// Where input splits put the states not enabling the input.
    rule: InputSplitRule,
    known: HashMap<(Vec<StateId>, usize), u64>,
}

impl LeastLost {
    fn new(rule: InputSplitRule) -> Self {
        LeastLost {
            rule,
            known: HashMap::new(),
        }
    }
}

/// Splits imposed on the leaves with these states (sorted) by [`SplittingGraph::build_searched`]:
/// the output split (`None`) or the split on an input. Only looked up, never iterated.
type ForcedSplits = HashMap<Vec<StateId>, Option<LabelId>>;

fn set_hash(states: &[StateId]) -> u64 {
    let mut h = DefaultHasher::new();
    states.hash(&mut h);
    h.finish()
}

/// Whether sorted `small` is a subset of sorted `big`.
fn subset(small: &[StateId], big: &[StateId]) -> bool {
    if small.len() > big.len() {
        return false;
    }
    let mut rest = big;
    for s in small {
        match rest.binary_search(s) {
            Ok(k) => rest = &rest[k + 1..],
            Err(_) => return false,
        }
    }
    true
}

impl SplittingGraph {
    /// Builds a complete splitting graph with [`SplitOptions::default`].
    pub fn build(
        sa: &SuspensionAutomaton,
        compat: &Compatibility,
    ) -> Result<SplittingGraph, IdentifyError> {
        Self::build_with(sa, compat, SplitOptions::default())
    }

    /// Builds a complete splitting graph (Algorithm 3). [`SplitPolicy::Searched`] builds the
    /// graph of its first policy here; [`SplittingGraph::build_searched`] runs the search.
    pub fn build_with(
        sa: &SuspensionAutomaton,
        compat: &Compatibility,
        options: SplitOptions,
    ) -> Result<SplittingGraph, IdentifyError> {
        Self::build_forced(sa, compat, options, &ForcedSplits::new())
    }

    /// Builds complete splitting graphs and keeps the one whose `score` (with its result) is
    /// least, ties to the earlier. For [`SplitPolicy::Searched`], unless the first graph scores
    /// zero: the graph of each policy of
    /// [`SEARCHED_POLICIES`] (the first within `SEARCH_GROWTH` times the nodes of the last
    /// one's graph, which is built first, plus `SEARCH_SLACK`; the later ones within 1.25 times
    /// the first graph's nodes plus `SEARCH_SLACK`, or within the first graph's bound when it
    /// outgrew that; a graph with the same nodes as the first or an earlier policy's graph is
    /// not scored, see the module documentation); then, in up to
    /// [`SplitOptions::resplit_rounds`] rounds while the best score is above zero, the
    /// `RESPLIT_NODES` internal nodes of the best graph whose witnesses lose the most
    /// incompatible pairs of their states (within [`LOOKAHEAD`] labels) are each given, in
    /// turn, one of their `RESPLIT_ALTERNATIVES` least lossy other splits (scored as
    /// [`SplitPolicy::LostAhead`] does, on the complete graph), and the graph is rebuilt with
    /// that split imposed on the leaf with those states (and the splits imposed before); the
    /// round's best rebuilt graph is kept if its score is less. Another policy builds its own
    /// graph once. An alternative that exceeds the budget or fails to score is skipped; the
    /// first graph's failure is returned.
    pub fn build_searched<T: Send>(
        sa: &SuspensionAutomaton,
        compat: &Compatibility,
        options: SplitOptions,
        score: impl Fn(&SplittingGraph) -> Result<(u64, T), IdentifyError> + Sync,
    ) -> Result<(SplittingGraph, T), IdentifyError> {
        let options_of = |policy| SplitOptions { policy, ..options };
        let first = options.policy.built();
        if options.policy != SplitPolicy::Searched {
            let graph = Self::build_with(sa, compat, options_of(first))?;
            let (_, result) = score(&graph)?;
            return Ok((graph, result));
        }
        // The graph of the last policy counts no lost pairs and is cheap; it caps the first
        // policy's graph (see `SEARCH_GROWTH`). If it outgrows the budget itself, the first
        // graph gets the whole budget, and its failure is returned, as without the cap.
        let cheap_policy = SEARCHED_POLICIES[SEARCHED_POLICIES.len() - 1];
        let cheap = Self::build_with(sa, compat, options_of(cheap_policy)).ok();
        let cap = cheap.as_ref().map_or(options.node_budget, |g| {
            options
                .node_budget
                .min(g.len() * SEARCH_GROWTH + SEARCH_SLACK)
        });
        let capped = SplitOptions {
            node_budget: cap,
            ..options_of(first)
        };
        let mut best: Option<(u64, SplittingGraph, T, SplitPolicy)> = None;
        let budget = match Self::build_with(sa, compat, capped) {
            Ok(graph) => {
                let (lost, result) = score(&graph)?;
                // Nothing to improve on a graph that loses nothing (`S_n` of Lemma 3.31, and
                // every automaton with an adaptive distinguishing graph found at once).
                if lost == 0 {
                    return Ok((graph, result));
                }
                // A policy whose graph grows far beyond the first one's (outputs-first on
                // TCP_Linux_Server hide 0,1: 22,718 nodes against 3,672) is given up.
                let budget = options
                    .node_budget
                    .min(graph.len() + graph.len() / 4 + SEARCH_SLACK);
                best = Some((lost, graph, result, first));
                budget
            }
            Err(e) if cheap.is_none() || cap == options.node_budget => return Err(e),
            // The first graph outgrew the cap: the other policies compete within it.
            Err(_) => cap,
        };
        // The alternatives are independent: built in parallel, then scored in parallel and
        // compared in order (ties to the earlier policy). A graph with the same nodes as the
        // first one or as an earlier alternative is not scored: `score` sees only the graph,
        // whose index is derived from its nodes, so it would score the same and lose the tie.
        let built: Vec<Option<SplittingGraph>> = SEARCHED_POLICIES[1..]
            .par_iter()
            .map(|&policy| {
                if policy == cheap_policy {
                    cheap.clone().filter(|g| g.len() <= budget)
                } else {
                    let options = SplitOptions {
                        node_budget: budget,
                        ..options_of(policy)
                    };
                    Self::build_with(sa, compat, options).ok()
                }
            })
            .collect();
        let to_score: Vec<Option<&SplittingGraph>> = (0..built.len())
            .map(|k| {
                built[k].as_ref().filter(|g| {
                    best.as_ref().is_none_or(|b| b.1.nodes != g.nodes)
                        && built[..k].iter().flatten().all(|e| e.nodes != g.nodes)
                })
            })
            .collect();
        let scores: Vec<Option<(u64, T)>> = to_score
            .par_iter()
            .map(|graph| score(graph.as_ref()?).ok())
            .collect();
        for ((scored, graph), &policy) in scores.into_iter().zip(built).zip(&SEARCHED_POLICIES[1..])
        {
            if let Some((lost, result)) = scored
                && best.as_ref().is_none_or(|b| lost < b.0)
            {
                best = Some((
                    lost,
                    graph.expect("a scored graph was built"),
                    result,
                    policy,
                ));
            }
        }
        let Some(best) = best else {
            // Only when the cheap graph failed to score: score it to report why.
            let graph = cheap.expect("the cap comes from the cheap graph");
            let (_, result) = score(&graph)?;
            return Ok((graph, result));
        };
        let (mut lost, mut graph, mut result, policy) = best;
        let options = options_of(policy);
        let mut forced = ForcedSplits::new();
        for _ in 0..options.resplit_rounds {
            if lost == 0 {
                break;
            }
            let trials: Vec<ForcedSplits> = graph
                .resplit_candidates(sa, compat, options.input_rule)
                .into_iter()
                .filter(|(states, _)| !forced.contains_key(states))
                .map(|(states, label)| {
                    let mut trial = forced.clone();
                    trial.insert(states, label);
                    trial
                })
                .collect();
            let rebuilt: Vec<Option<(u64, SplittingGraph, T)>> = trials
                .par_iter()
                .map(|trial| {
                    let rebuilt = Self::build_forced(sa, compat, options, trial).ok()?;
                    let (trial_lost, trial_result) = score(&rebuilt).ok()?;
                    Some((trial_lost, rebuilt, trial_result))
                })
                .collect();
            let mut improved: Option<(u64, SplittingGraph, T, ForcedSplits)> = None;
            for (trial, built) in trials.into_iter().zip(rebuilt) {
                if let Some((trial_lost, rebuilt, trial_result)) = built
                    && trial_lost < improved.as_ref().map_or(lost, |(l, ..)| *l)
                {
                    improved = Some((trial_lost, rebuilt, trial_result, trial));
                }
            }
            let Some(better) = improved else {
                break;
            };
            (lost, graph, result, forced) = better;
        }
        Ok((graph, result))
    }

    /// The re-splits [`SplittingGraph::build_searched`] tries on this (complete) graph: for each
    /// of the [`RESPLIT_NODES`] internal nodes whose witnesses lose the most incompatible pairs
    /// of their states (ties to the older), its [`RESPLIT_ALTERNATIVES`] other candidates losing
    /// the fewest pairs with their children's least lossy splits (then the fewest pairs together,
    /// then in candidate order).
    fn resplit_candidates(
        &self,
        sa: &SuspensionAutomaton,
        compat: &Compatibility,
        rule: InputSplitRule,
    ) -> Vec<(Vec<StateId>, Option<LabelId>)> {
        let mut lossy: Vec<(u64, u32)> = (0..self.nodes.len() as u32)
            .filter(|&v| !self.nodes[v as usize].injective)
            .map(|v| {
                let states = &self.nodes[v as usize].states;
                (self.lost_by_witness(sa, compat, states, v, LOOKAHEAD), v)
            })
            .filter(|&(lost, _)| lost > 0)
            .collect();
        lossy.sort_by_key(|&(lost, v)| (std::cmp::Reverse(lost), v));
        let mut out = Vec::new();
        let mut memo = LeastLost::new(rule);
        for &(_, v) in lossy.iter().take(RESPLIT_NODES) {
            let node = &self.nodes[v as usize];
            let current = match node.witness {
                Some(Witness::Input(a, _)) => Some(a),
                _ => None,
            };
            let mut alternatives: Vec<((u64, u64, usize), Option<LabelId>)> = self
                .candidates(sa, compat, &node.states, rule, None)
                .enumerate()
                .filter(|(_, s)| s.label() != current)
                .map(|(k, s)| {
                    let lost =
                        self.lost_ahead(sa, compat, &node.states, &s, RESPLIT_LOOKAHEAD, &mut memo);
                    ((lost, together(&s), k), s.label())
                })
                .collect();
            alternatives.sort_unstable();
            out.extend(
                alternatives
                    .into_iter()
                    .take(RESPLIT_ALTERNATIVES)
                    .map(|(_, label)| (node.states.clone(), label)),
            );
        }
        out
    }

    /// Algorithm 3, where a leaf whose states `forced` names is split on the label given there
    /// when that candidate exists (see [`ForcedSplits`]).
    fn build_forced(
        sa: &SuspensionAutomaton,
        compat: &Compatibility,
        options: SplitOptions,
        forced: &ForcedSplits,
    ) -> Result<SplittingGraph, IdentifyError> {
        let options = SplitOptions {
            policy: options.policy.built(),
            ..options
        };
        let n = sa.num_states();
        let mut g = SplittingGraph {
            nodes: Vec::new(),
            by_hash: HashMap::new(),
            member_of: vec![Vec::new(); n],
        };
        let all: Vec<StateId> = sa.states().collect();
        let root_pending = !compat.pairwise_compatible(&all);
        g.add_node(all);
        let mut pending: Vec<u32> = if root_pending { vec![0] } else { Vec::new() };
        while !pending.is_empty() {
            let mut candidates: Vec<(Option<Split>, Option<Split>)> = pending
                .par_iter()
                .map(|&l| g.candidate_splits(sa, compat, l, options, forced, Some(LCA_VISIT_LIMIT)))
                .collect();
            if candidates.iter().all(|(chosen, _)| chosen.is_none()) {
                // No split to take within the limit: search every LCA before settling for
                // non-injective splits or giving up.
                candidates = pending
                    .par_iter()
                    .map(|&l| g.candidate_splits(sa, compat, l, options, forced, None))
                    .collect();
            }
            let mut waiting = Vec::new();
            let mut fresh = Vec::new();
            let mut progressed = 0usize;
            let mut firsts = Vec::new();
            for (&l, (chosen, first)) in pending.iter().zip(candidates) {
                match chosen {
                    Some(split) => {
                        g.apply(compat, l, split, &mut fresh, options.node_budget)?;
                        progressed += 1;
                    }
                    None => {
                        waiting.push(l);
                        firsts.push(first);
                    }
                }
            }
            // Waiting leaves are re-examined every round; when few injective splits remain
            // among many waiting leaves, split the waiting ones too, which bounds the rounds.
            let starving = waiting.len() > LARGE_WAITING && progressed * 16 < waiting.len();
            if progressed == 0 || starving {
                let mut progressed = progressed > 0;
                let mut still = Vec::new();
                for (l, first) in waiting.into_iter().zip(firsts) {
                    match first {
                        Some(split) => {
                            g.apply(compat, l, split, &mut fresh, options.node_budget)?;
                            progressed = true;
                        }
                        None => still.push(l),
                    }
                }
                if !progressed {
                    // Lemma 3.26 rules this out; report rather than loop.
                    return Err(IdentifyError::Stuck {
                        leaves: still.len(),
                    });
                }
                waiting = still;
            }
            waiting.extend(fresh);
            pending = waiting;
        }
        Ok(g)
    }

    fn add_node(&mut self, states: Vec<StateId>) -> u32 {
        let id = self.nodes.len() as u32;
        for &s in &states {
            self.member_of[s.index()].push(id);
        }
        self.by_hash.entry(set_hash(&states)).or_default().push(id);
        self.nodes.push(SplitNode {
            states,
            children: Vec::new(),
            witness: None,
            injective: true,
        });
        id
    }

    fn find(&self, states: &[StateId]) -> Option<u32> {
        self.by_hash
            .get(&set_hash(states))?
            .iter()
            .copied()
            .find(|&id| self.nodes[id as usize].states == states)
    }

    fn apply(
        &mut self,
        compat: &Compatibility,
        l: u32,
        split: Split,
        fresh: &mut Vec<u32>,
        budget: usize,
    ) -> Result<(), IdentifyError> {
        let mut children = Vec::with_capacity(split.children.len());
        for c in split.children {
            let id = match self.find(&c) {
                Some(id) => id,
                None => {
                    if self.nodes.len() >= budget {
                        return Err(IdentifyError::Budget {
                            what: "the splitting graph's nodes".into(),
                            budget,
                            advice: "the splitting graph can be exponential (Lemma 3.31); use \
                                     pairwise distinguishing graphs instead"
                                .into(),
                        });
                    }
                    let pending = !compat.pairwise_compatible(&c);
                    let id = self.add_node(c);
                    if pending {
                        fresh.push(id);
                    }
                    id
                }
            };
            children.push(id);
        }
        children.sort_unstable();
        children.dedup();
        let node = &mut self.nodes[l as usize];
        node.children = children;
        node.witness = Some(split.witness);
        node.injective = split.injective;
        Ok(())
    }

    /// `LCA(Y, P)` (Def. 3.24): internal nodes containing `p` none of whose children does, in id
    /// order. Empty for sets of fewer than two states.
    pub fn lcas(&self, p: &[StateId]) -> Vec<u32> {
        if p.len() < 2 {
            return Vec::new();
        }
        let Some(pivot) = p.iter().min_by_key(|s| self.member_of[s.index()].len()) else {
            return Vec::new();
        };
        let containing: Vec<u32> = self.member_of[pivot.index()]
            .iter()
            .copied()
            .filter(|&v| subset(p, &self.nodes[v as usize].states))
            .collect();
        containing
            .iter()
            .copied()
            .filter(|&v| {
                let ch = &self.nodes[v as usize].children;
                !ch.is_empty() && ch.iter().all(|c| containing.binary_search(c).is_err())
            })
            .collect()
    }

    /// The preferred LCA of `p`: the first injective one met by a depth-first descent from the
    /// root through the children containing `p` (injective children first, then by id), else
    /// the first one met. The descent visits only nodes containing `p`, usually one path, where
    /// scanning every node that contains one state of `p` made the construction quadratic in the
    /// nodes (`S_n` of Lemma 3.31).
    ///
    /// With a `limit`, the descent gives up (no LCA now) after visiting that many nodes: a set
    /// whose LCA does not exist yet would otherwise cost a walk over every node containing it,
    /// and such sets are common while a graph like `S_n` grows. A round in which no leaf could
    /// be split is recomputed without the limit, so the limit only delays splits.
    fn pick_lca(&self, p: &[StateId], limit: Option<usize>) -> Option<u32> {
        if p.len() < 2 {
            return None;
        }
        // An internal node equal to `p` is an LCA (its children are proper subsets).
        if let Some(v) = self.find(p)
            && !self.nodes[v as usize].children.is_empty()
            && self.nodes[v as usize].injective
        {
            return Some(v);
        }
        let mut seen: std::collections::HashSet<u32> = std::collections::HashSet::new();
        let mut stack = vec![0u32];
        let mut fallback = None;
        while let Some(v) = stack.pop() {
            let node = &self.nodes[v as usize];
            if node.children.is_empty() || !seen.insert(v) {
                continue;
            }
            if limit.is_some_and(|limit| seen.len() > limit) {
                return fallback;
            }
            let mut containing: Vec<u32> = node
                .children
                .iter()
                .copied()
                .filter(|&c| subset(p, &self.nodes[c as usize].states))
                .collect();
            if containing.is_empty() {
                if node.injective {
                    return Some(v);
                }
                fallback.get_or_insert(v);
                continue;
            }
            // Popped in order: injective children first, then by id.
            containing.sort_by_key(|&c| (!self.nodes[c as usize].injective, c));
            stack.extend(containing.into_iter().rev());
        }
        fallback
    }

    /// The incompatible pairs of `set` that the witness of node `v` loses (see [`lost_pairs`])
    /// within its first `depth` labels; `set` is the current set when the witness starts.
    pub(crate) fn lost_by_witness(
        &self,
        sa: &SuspensionAutomaton,
        compat: &Compatibility,
        set: &[StateId],
        v: u32,
        depth: usize,
    ) -> u64 {
        match &self.nodes[v as usize].witness {
            Some(w) => self.lost_by(sa, compat, set, w, depth),
            None => 0,
        }
    }

    fn lost_by(
        &self,
        sa: &SuspensionAutomaton,
        compat: &Compatibility,
        set: &[StateId],
        witness: &Witness,
        depth: usize,
    ) -> u64 {
        if depth == 0 || set.len() < 2 {
            return 0;
        }
        let step = |l: LabelId, next: Option<u32>| {
            lost_pairs(sa, compat, set, l)
                + next.map_or(0, |w| {
                    self.lost_by_witness(sa, compat, &after(sa, set, l), w, depth - 1)
                })
        };
        match witness {
            Witness::Input(a, v) => step(*a, Some(*v)),
            Witness::Outputs(list) => list.iter().map(|&(x, w)| step(x, w)).sum(),
        }
    }

    /// `Π(l, µ, v)` (Def. 3.23) restricted to the states of `l` enabling `µ`.
    fn induced(
        &self,
        sa: &SuspensionAutomaton,
        l: &[StateId],
        mu: LabelId,
        v: u32,
    ) -> Vec<Vec<StateId>> {
        let mut out: Vec<Vec<StateId>> = Vec::new();
        for &c in &self.nodes[v as usize].children {
            let cs = &self.nodes[c as usize].states;
            let d: Vec<StateId> = l
                .iter()
                .copied()
                .filter(|&q| {
                    sa.after(q, mu)
                        .is_some_and(|t| cs.binary_search(&t).is_ok())
                })
                .collect();
            if !d.is_empty() {
                out.push(d);
            }
        }
        out
    }

    fn output_split(
        &self,
        sa: &SuspensionAutomaton,
        compat: &Compatibility,
        l: &[StateId],
        limit: Option<usize>,
    ) -> Option<Split> {
        let mut outs: Vec<LabelId> = l.iter().flat_map(|&q| sa.outputs_enabled(q)).collect();
        outs.sort_unstable();
        outs.dedup();
        let mut children = Vec::new();
        let mut witness = Vec::new();
        let mut inj = true;
        for x in outs {
            let enabled: Vec<StateId> = l
                .iter()
                .copied()
                .filter(|&q| sa.after(q, x).is_some())
                .collect();
            if enabled.len() < l.len() {
                children.push(enabled);
                witness.push((x, None));
            } else {
                let v = self.pick_lca(&after(sa, l, x), limit)?;
                children.extend(self.induced(sa, l, x, v));
                witness.push((x, Some(v)));
                inj &= self.nodes[v as usize].injective;
            }
            inj &= injective(sa, compat, l, x);
        }
        Some(Split {
            children: normalise(children),
            witness: Witness::Outputs(witness),
            injective: inj,
        })
    }

    fn input_split(
        &self,
        sa: &SuspensionAutomaton,
        compat: &Compatibility,
        l: &[StateId],
        a: LabelId,
        rule: InputSplitRule,
        limit: Option<usize>,
    ) -> Option<Split> {
        let v = self.pick_lca(&after(sa, l, a), limit)?;
        let rest: Vec<StateId> = l
            .iter()
            .copied()
            .filter(|&q| sa.after(q, a).is_none())
            .collect();
        let mut children = self.induced(sa, l, a, v);
        match rule {
            InputSplitRule::CopyNonEnabling => {
                for d in &mut children {
                    d.extend_from_slice(&rest);
                }
            }
            InputSplitRule::SeparateChild => {
                if !rest.is_empty() {
                    children.push(rest);
                }
            }
        }
        Some(Split {
            children: normalise(children),
            witness: Witness::Input(a, v),
            injective: self.nodes[v as usize].injective && injective(sa, compat, l, a),
        })
    }

    /// The candidate splits of `states` in order: the output split, then one per input enabled
    /// by some state, by label; a candidate without an LCA (within `limit`) is left out. Lazy,
    /// so that [`SplitPolicy::OutputsFirst`] builds only the candidates up to the one it takes.
    fn candidates<'a>(
        &'a self,
        sa: &'a SuspensionAutomaton,
        compat: &'a Compatibility,
        states: &'a [StateId],
        rule: InputSplitRule,
        limit: Option<usize>,
    ) -> impl Iterator<Item = Split> + 'a {
        let mut inputs: Vec<LabelId> = states.iter().flat_map(|&q| sa.inputs_enabled(q)).collect();
        inputs.sort_unstable();
        inputs.dedup();
        std::iter::once(None)
            .chain(inputs.into_iter().map(Some))
            .filter_map(move |label| match label {
                None => self.output_split(sa, compat, states, limit),
                Some(a) => self.input_split(sa, compat, states, a, rule, limit),
            })
    }

    /// The incompatible pairs of `states` that a split with `witness` and `children` loses
    /// (within [`LOOKAHEAD`] labels), plus, `depth` levels down, what the children's own least
    /// lossy splits lose: a child that is already an internal node counts its witness, a
    /// pairwise compatible child nothing, any other child its least lossy candidate (an
    /// injective one loses nothing).
    fn lost_ahead(
        &self,
        sa: &SuspensionAutomaton,
        compat: &Compatibility,
        states: &[StateId],
        split: &Split,
        depth: usize,
        memo: &mut LeastLost,
    ) -> u64 {
        let own = if split.injective {
            0
        } else {
            self.lost_by(sa, compat, states, &split.witness, LOOKAHEAD)
        };
        if depth == 0 {
            return own;
        }
        let mut below = 0;
        for child in &split.children {
            below += if let Some(v) = self.find(child)
                && self.nodes[v as usize].witness.is_some()
            {
                self.lost_by_witness(sa, compat, child, v, LOOKAHEAD)
            } else if let Some(&known) = memo.known.get(&(child.clone(), depth)) {
                known
            } else if compat.pairwise_compatible(child) {
                0
            } else {
                let least = self
                    .candidates(sa, compat, child, memo.rule, None)
                    .map(|s| self.lost_ahead(sa, compat, child, &s, depth - 1, memo))
                    .min()
                    .unwrap_or(0);
                memo.known.insert((child.clone(), depth), least);
                least
            };
        }
        own + below
    }

    /// The split to take now (the best injective candidate, or the best candidate when not
    /// preferring injectivity) and the best candidate of all, "best" as `options.policy` says.
    fn candidate_splits(
        &self,
        sa: &SuspensionAutomaton,
        compat: &Compatibility,
        l: u32,
        options: SplitOptions,
        forced: &ForcedSplits,
        limit: Option<usize>,
    ) -> (Option<Split>, Option<Split>) {
        let prefer_injective = options.prefer_injective;
        let states = &self.nodes[l as usize].states;
        let mut candidates = self.candidates(sa, compat, states, options.input_rule, limit);
        if let Some(&label) = forced.get(states.as_slice()) {
            match self
                .candidates(sa, compat, states, options.input_rule, limit)
                .find(|s| s.label() == label)
            {
                Some(split) => return (Some(split), None),
                // Its LCA may be found in a round searching every LCA; only then does the
                // leaf fall back on the policy.
                None if limit.is_some() => return (None, None),
                None => {}
            }
        }
        match options.policy {
            SplitPolicy::OutputsFirst => {
                let mut first: Option<Split> = None;
                for split in candidates.by_ref() {
                    if !prefer_injective || split.injective {
                        return (Some(split), None);
                    }
                    if first.is_none() {
                        first = Some(split);
                    }
                }
                (None, first)
            }
            SplitPolicy::FewestPairsTogether
            | SplitPolicy::FewestPairsLost
            | SplitPolicy::LostAhead(_)
            | SplitPolicy::Searched => {
                // Candidates in order (output split first), so `min_by_key` keeps the earliest
                // of equal scores.
                let mut all: Vec<(Split, (u64, u64))> = candidates
                    .by_ref()
                    .map(|s| {
                        let score = (0, together(&s));
                        (s, score)
                    })
                    .collect();
                let best = |all: &[(Split, (u64, u64))], injective_only: bool| {
                    all.iter()
                        .enumerate()
                        .filter(|(_, (s, _))| !injective_only || s.injective)
                        .min_by_key(|(_, (_, score))| *score)
                        .map(|(k, _)| k)
                };
                let chosen = best(&all, prefer_injective);
                let first = if chosen.is_none() {
                    // Lost pairs are counted only in a round searching every LCA, which is where
                    // non-injective splits are applied (except when many leaves starve); counting
                    // them in every round made S_16 (Lemma 3.31) take minutes.
                    if limit.is_none() {
                        match options.policy {
                            SplitPolicy::FewestPairsLost => {
                                for (s, score) in all.iter_mut().filter(|(s, _)| !s.injective) {
                                    score.0 =
                                        self.lost_by(sa, compat, states, &s.witness, LOOKAHEAD);
                                }
                            }
                            SplitPolicy::LostAhead(levels) => {
                                let mut memo = LeastLost::new(options.input_rule);
                                for (s, score) in all.iter_mut() {
                                    score.0 =
                                        self.lost_ahead(sa, compat, states, s, levels, &mut memo);
                                }
                            }
                            _ => {}
                        }
                    }
                    best(&all, false)
                } else {
                    None
                };
                let mut all: Vec<Option<Split>> = all.into_iter().map(|(s, _)| Some(s)).collect();
                let take =
                    |k: Option<usize>, all: &mut Vec<Option<Split>>| k.and_then(|k| all[k].take());
                (take(chosen, &mut all), take(first, &mut all))
            }
        }
    }

    /// All nodes; node 0 is the root.
    pub fn nodes(&self) -> &[SplitNode] {
        &self.nodes
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Always false: there is a root.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The node with exactly these (sorted) states.
    pub fn node_of(&self, states: &[StateId]) -> Option<u32> {
        self.find(states)
    }

    /// Leaves' ids.
    pub fn leaves(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.nodes.len() as u32).filter(|&v| self.nodes[v as usize].children.is_empty())
    }

    /// Whether every leaf is pairwise compatible (Def. 3.22).
    pub fn is_complete(&self, compat: &Compatibility) -> bool {
        self.leaves()
            .all(|v| compat.pairwise_compatible(&self.nodes[v as usize].states))
    }
}

/// Pairs of states a split keeps together: the sum of its children's squared sizes.
fn together(split: &Split) -> u64 {
    split.children.iter().map(|c| (c.len() as u64).pow(2)).sum()
}

fn normalise(mut children: Vec<Vec<StateId>>) -> Vec<Vec<StateId>> {
    for c in &mut children {
        c.sort_unstable();
        c.dedup();
    }
    children.sort();
    children.dedup();
    children
}

#[cfg(test)]
pub(crate) mod tests;
