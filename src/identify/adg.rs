//! Adaptive distinguishing graphs (van den Bos Algorithm 5, Def. 3.21) with top-ups.
//!
//! Algorithm 5 walks the witnesses of a complete splitting graph while tracking the current set
//! `P`: with nothing left to run it picks an LCA of `P` and runs its witness; an output edge
//! continues with `P after x`, an input with `P after a`; once `P` is pairwise compatible the
//! branch ends in a leaf. At line 8 we pick the LCA whose witness loses the fewest incompatible
//! pairs of `P` (a label leads them to equal or compatible states, Def. 3.34, counted along the
//! witness for [`LOOKAHEAD`] labels), then an LCA whose split was injective, then the oldest.
//!
//! One addition to Algorithm 5: when even the best LCA loses pairs, the ADG may first take one
//! step of its own, an input or waiting for an output, if the pairs that step loses plus those
//! the best LCAs of the sets it leads to lose are fewer; then it chooses LCAs for those sets.
//! Which inputs qualify is a rule ([`PrefixInputs`]): only inputs injective for `P` (Def. 3.34),
//! or also inputs that lose pairs themselves. Every prefix step spends one of a path's budget
//! of steps, which never grows along a path, so no cycle can arise. [`adaptive_graph`] builds
//! the graph for injective prefix inputs with a budget of `PREFIX_BUDGET` steps, and for lossy
//! ones with `PREFIX_BUDGET` and with `LOSSY_PREFIX_BUDGET` steps, and keeps the one leaving the
//! fewest pairs undistinguished: neither rule wins on every embedding of the shared Mealy
//! models (README, `cargo bench --bench identify -- embed`). Nodes are shared per (current set,
//! witness position, prefix steps left), so the result is a DAG.
//!
//! The graph need not distinguish every incompatible pair (Fig. 3.5 has no adaptive
//! distinguishing graph at all). A pair counts as distinguished when the two states share no
//! observation (Def. 3.18) and neither is still possible when the other meets an input it does not
//! specify. For every other incompatible pair we add the pairwise distinguishing graph
//! (Algorithm 1): the top-up. The ADG plus the top-ups of a state form its state identifier.
//!
//! The metrics of Table 3.2 are computed on the way: depth, the average size of leaves (number of
//! initial states that can produce the leaf's observation), and the size weighted by the
//! probability of the observation when every allowed output is equally likely.

use super::IdentifyError;
use super::distinguishing_graph::{pairwise_graph, pairwise_graph_size};
use super::experiment::{Experiment, ExperimentNode, Race, Step, assemble, post_order};
use super::splitting_graph::{LOOKAHEAD, SplittingGraph, Witness, lost_pairs};
use crate::analysis::compatibility::pair_index;
use crate::analysis::{Compatibility, Preference};
use crate::model::{LabelId, StateId, SuspensionAutomaton};
use rayon::prelude::*;
use std::collections::HashMap;

/// Largest current set for which several LCAs are ranked by injectivity (quadratic in the set).
const LCA_SCORING_LIMIT: usize = 4096;

/// Default budget on the nodes of an adaptive distinguishing graph.
pub const DEFAULT_ADG_BUDGET: usize = 5_000_000;

/// Position in the witnesses: the node whose witness runs next, a step taken before choosing an
/// LCA, or a leaf.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Key {
    states: Vec<StateId>,
    /// The node whose witness runs next; `None` with no `prefix`: leaf (pairwise compatible
    /// current set, or no LCA).
    witness: Option<u32>,
    /// A step taken before an LCA is chosen for the sets it leads to.
    prefix: Option<Prefix>,
    /// Prefix steps still allowed on this path (never increases along a path, so prefix steps
    /// cannot close a cycle).
    budget: u8,
}

/// A step the ADG takes before choosing an LCA, when the best LCA's witness loses pairs and the
/// step leads to sets whose best LCAs lose fewer.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum Prefix {
    /// Apply an input injective for the current set (Def. 3.34).
    Input(LabelId),
    /// Wait for an output.
    Outputs,
}

/// Prefix steps allowed on a path of the ADG (with injective prefix inputs only, a budget of 4
/// gave the same graphs as 2 on the embeddings of `cargo bench --bench identify -- embed`,
/// measured once, not tested).
const PREFIX_BUDGET: u8 = 2;

/// The larger budget also tried with lossy prefix inputs (its effect on the embeddings is in the
/// README table of `cargo bench --bench identify -- embed`; no test asserts a gain).
const LOSSY_PREFIX_BUDGET: u8 = 4;

pub(crate) fn after(sa: &SuspensionAutomaton, set: &[StateId], l: LabelId) -> Vec<StateId> {
    let mut out: Vec<StateId> = set.iter().filter_map(|&s| sa.after(s, l)).collect();
    out.sort_unstable();
    out.dedup();
    out
}

pub(crate) fn outputs_of(sa: &SuspensionAutomaton, set: &[StateId]) -> Vec<LabelId> {
    let mut out: Vec<LabelId> = set.iter().flat_map(|&q| sa.outputs_enabled(q)).collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The inputs the ADG may apply as prefix steps (see the module documentation).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PrefixInputs {
    /// Only inputs injective for the current set (Def. 3.34): the step loses nothing itself.
    Injective,
    /// Also inputs that lose pairs, when the pairs they lose plus those the best LCAs of the
    /// set they lead to lose are fewer than the best LCA of the current set loses.
    Lossy,
}

struct Builder<'a> {
    sa: &'a SuspensionAutomaton,
    compat: &'a Compatibility,
    graph: &'a SplittingGraph,
    prefix_inputs: PrefixInputs,
}

impl Builder<'_> {
    /// Resolves `compDG(P, F)`: a leaf if `⋈(P)`, else the witness to run (an LCA if `F = 0`),
    /// or a prefix step when it leads to sets whose LCAs lose fewer pairs.
    fn resolve(&self, states: Vec<StateId>, witness: Option<u32>, budget: u8) -> Key {
        if self.compat.pairwise_compatible(&states) {
            return Key {
                states,
                witness: None,
                prefix: None,
                budget,
            };
        }
        if witness.is_some() {
            return Key {
                states,
                witness,
                prefix: None,
                budget,
            };
        }
        let chosen = self.choose_lca(&states);
        let prefix = match chosen {
            Some((_, lost)) if lost > 0 && budget > 0 => self.choose_prefix(&states, lost),
            _ => None,
        };
        Key {
            witness: if prefix.is_some() {
                None
            } else {
                chosen.map(|c| c.0)
            },
            states,
            prefix,
            budget,
        }
    }

    /// The least number of pairs an LCA's witness loses on `p` (see [`Self::choose_lca`]).
    fn least_lost(&self, p: &[StateId]) -> u64 {
        if p.len() < 2 || self.compat.pairwise_compatible(p) {
            return 0;
        }
        self.choose_lca(p).map_or(0, |c| c.1)
    }

    /// A prefix step whose successor sets' best LCAs lose fewer than `lost` pairs in total (an
    /// input first, by fewest, then by label; waiting for an output last).
    fn choose_prefix(&self, p: &[StateId], lost: u64) -> Option<Prefix> {
        let sa = self.sa;
        let mut best: Option<(u64, Prefix)> = None;
        let mut inputs: Vec<LabelId> = p.iter().flat_map(|&q| sa.inputs_enabled(q)).collect();
        inputs.sort_unstable();
        inputs.dedup();
        for a in inputs {
            let direct = lost_pairs(sa, self.compat, p, a);
            if direct >= lost || (direct > 0 && self.prefix_inputs == PrefixInputs::Injective) {
                continue;
            }
            let next = after(sa, p, a);
            let estimate = direct + self.least_lost(&next);
            if estimate < lost && best.is_none_or(|b| estimate < b.0) {
                best = Some((estimate, Prefix::Input(a)));
            }
        }
        let outputs = outputs_of(sa, p);
        if !outputs.is_empty() {
            let estimate: u64 = outputs
                .iter()
                .map(|&x| lost_pairs(sa, self.compat, p, x) + self.least_lost(&after(sa, p, x)))
                .sum();
            if estimate < lost && best.is_none_or(|b| estimate < b.0) {
                best = Some((estimate, Prefix::Outputs));
            }
        }
        best.map(|b| b.1)
    }

    /// The LCA of `p` whose witness loses the fewest incompatible pairs of `p` within
    /// [`LOOKAHEAD`] labels, then one whose split was injective, then the oldest; with the pairs
    /// it loses (0 when not counted: one LCA, or a set beyond [`LCA_SCORING_LIMIT`]).
    fn choose_lca(&self, p: &[StateId]) -> Option<(u32, u64)> {
        let lcas = self.graph.lcas(p);
        if p.len() > LCA_SCORING_LIMIT {
            return lcas
                .iter()
                .copied()
                .find(|&v| self.graph.nodes()[v as usize].injective)
                .or_else(|| lcas.first().copied())
                .map(|v| (v, 0));
        }
        lcas.iter()
            .map(|&v| {
                let node = &self.graph.nodes()[v as usize];
                let lost = self
                    .graph
                    .lost_by_witness(self.sa, self.compat, p, v, LOOKAHEAD);
                ((lost, !node.injective, v), v)
            })
            .min()
            .map(|((lost, _, _), v)| (v, lost))
    }

    fn children(&self, key: &Key) -> Vec<(LabelId, Key, bool)> {
        let budget = key.budget;
        match key.prefix {
            Some(Prefix::Input(a)) => {
                return vec![(
                    a,
                    self.resolve(after(self.sa, &key.states, a), None, budget - 1),
                    true,
                )];
            }
            Some(Prefix::Outputs) => {
                return outputs_of(self.sa, &key.states)
                    .into_iter()
                    .map(|x| {
                        let p = after(self.sa, &key.states, x);
                        (x, self.resolve(p, None, budget - 1), false)
                    })
                    .collect();
            }
            None => {}
        }
        let Some(v) = key.witness else {
            return Vec::new();
        };
        match self.graph.nodes()[v as usize].witness.as_ref() {
            Some(Witness::Input(a, next)) => {
                vec![(
                    *a,
                    self.resolve(after(self.sa, &key.states, *a), Some(*next), budget),
                    true,
                )]
            }
            Some(Witness::Outputs(list)) => list
                .iter()
                .filter_map(|&(x, next)| {
                    let p = after(self.sa, &key.states, x);
                    (!p.is_empty()).then(|| (x, self.resolve(p, next, budget), false))
                })
                .collect(),
            None => Vec::new(),
        }
    }
}

/// The pairwise graph of an undistinguished (hence incompatible) pair.
fn pairwise(
    sa: &SuspensionAutomaton,
    compat: &Compatibility,
    q: StateId,
    r: StateId,
    preference: Preference,
) -> Experiment {
    pairwise_graph(sa, compat, q, r, preference).expect("undistinguished pairs are incompatible")
}

/// Builds the adaptive distinguishing graph of `sa` from a complete splitting graph
/// (Algorithm 5), with at most `budget` nodes: three graphs (injective prefix inputs; lossy ones
/// with two and with four prefix steps, see the module documentation), of which the one leaving
/// the fewest pairs undistinguished is kept (ties to the earlier). Neither rule wins everywhere:
/// on the embeddings of the shared Mealy models lossy prefix inputs help most where hidden inputs
/// give output nondeterminism and hurt on some merged ones (README, `cargo bench --bench
/// identify -- embed`). The winner comes with its analysis, so [`AdaptiveIdentification::top_up`]
/// does not repeat it.
/// The adaptive distinguishing graph of [`adaptive_graph_as_built`], with sub-DAGs replaced by
/// optimal strategies of the exact game where that loses fewer pairs ([`super::repair`]).
pub fn adaptive_graph(
    sa: &SuspensionAutomaton,
    compat: &Compatibility,
    graph: &SplittingGraph,
    budget: usize,
) -> Result<AnalysedGraph, IdentifyError> {
    let built = adaptive_graph_as_built(sa, compat, graph, budget)?;
    Ok(super::repair::repaired(sa, compat, built))
}

pub fn adaptive_graph_as_built(
    sa: &SuspensionAutomaton,
    compat: &Compatibility,
    graph: &SplittingGraph,
    budget: usize,
) -> Result<AnalysedGraph, IdentifyError> {
    let mut best: Option<AnalysedGraph> = None;
    let mut failure = None;
    for (rule, steps) in [
        (PrefixInputs::Injective, PREFIX_BUDGET),
        (PrefixInputs::Lossy, PREFIX_BUDGET),
        (PrefixInputs::Lossy, LOSSY_PREFIX_BUDGET),
    ] {
        match adaptive_graph_steps(sa, compat, graph, budget, rule, steps) {
            Ok(adg) => {
                let analysed = AnalysedGraph::new(sa, compat, adg);
                let lost = analysed.undistinguished.len();
                if best.as_ref().is_none_or(|b| lost < b.undistinguished.len()) {
                    best = Some(analysed);
                }
            }
            Err(e) => failure = Some(e),
        }
    }
    match (best, failure) {
        (Some(analysed), _) => Ok(analysed),
        (None, Some(e)) => Err(e),
        (None, None) => unreachable!("three rules were tried"),
    }
}

/// Algorithm 5 with prefix inputs chosen by `rule` and at most `steps` prefix steps per path.
fn adaptive_graph_steps(
    sa: &SuspensionAutomaton,
    compat: &Compatibility,
    graph: &SplittingGraph,
    budget: usize,
    rule: PrefixInputs,
    steps: u8,
) -> Result<Experiment, IdentifyError> {
    let b = Builder {
        sa,
        compat,
        graph,
        prefix_inputs: rule,
    };
    let root = b.resolve(sa.states().collect(), None, steps);
    let mut count = 0usize;
    let mut over = false;
    let (order, index, kids) = post_order(root, |k| {
        count += 1;
        if count > budget {
            over = true;
            return Vec::new();
        }
        b.children(k).into_iter().map(|(_, c, _)| c).collect()
    });
    if over {
        return Err(IdentifyError::Budget {
            what: "the adaptive distinguishing graph's nodes".into(),
            budget,
            advice: "use pairwise distinguishing graphs instead".into(),
        });
    }
    let _ = kids;
    Ok(assemble(&order, &index, |k, idx| {
        let ch = b.children(k);
        let step = match ch.first() {
            None => Step::Leaf,
            Some((a, next, true)) => Step::Input {
                input: *a,
                then: idx(next),
                race: outputs_of(sa, &k.states)
                    .into_iter()
                    .filter(|&x| x != sa.quiescence())
                    .map(|x| (x, Race::Retry))
                    .collect(),
            },
            Some(_) => Step::Outputs {
                branches: ch.iter().map(|(x, c, _)| (*x, idx(c))).collect(),
            },
        };
        ExperimentNode {
            states: k.states.clone(),
            step,
        }
    }))
}

/// The Table 3.2 figures of an adaptive distinguishing graph.
#[derive(Clone, Debug, PartialEq)]
pub struct AdgMetrics {
    /// Nodes of the DAG.
    pub nodes: usize,
    /// Length of the longest observation.
    pub depth: usize,
    /// Number of observations (root-to-leaf paths).
    pub observations: f64,
    /// Average number of initial states that can produce a leaf's observation.
    pub average_leaf_size: f64,
    /// The same, weighted by the probability of the observation (uniform over allowed outputs).
    pub weighted_average_leaf_size: f64,
    /// Unordered incompatible pairs the graph does not distinguish: they share an observation, or
    /// one of them meets an input it does not specify while the other is still possible.
    pub undistinguished_pairs: usize,
    /// Unordered incompatible pairs that share an observation (Def. 3.18, the thesis' count).
    pub sharing_an_observation: usize,
}

/// Origins of the current states: `(initial state, current state)`, sorted.
type Origins = Vec<(StateId, StateId)>;

/// Per (node, origins): (observations, sum of leaf sizes, weighted sum of leaf sizes).
struct Analysis<'a> {
    sa: &'a SuspensionAutomaton,
    compat: &'a Compatibility,
    adg: &'a Experiment,
    memo: HashMap<(u32, Origins), (f64, f64, f64)>,
    undistinguished: PairSet,
    /// Pairs whose states can both produce the observation of some leaf.
    sharing: PairSet,
}

/// A set of unordered pairs of distinct states, one bit per pair.
struct PairSet {
    bits: Vec<u64>,
}

impl PairSet {
    fn new(n: usize) -> PairSet {
        PairSet {
            bits: vec![0; (n * n.saturating_sub(1) / 2).div_ceil(64)],
        }
    }

    fn insert(&mut self, p: StateId, q: StateId) {
        let k = pair_index(p.min(q).index(), p.max(q).index());
        self.bits[k / 64] |= 1 << (k % 64);
    }

    fn len(&self) -> usize {
        self.bits.iter().map(|b| b.count_ones() as usize).sum()
    }

    /// The pairs `(q, r)`, `q < r`, sorted.
    fn into_sorted(self, n: usize) -> Vec<(StateId, StateId)> {
        let mut out = Vec::new();
        for r in 1..n {
            for q in 0..r {
                let k = pair_index(q, r);
                if self.bits[k / 64] >> (k % 64) & 1 == 1 {
                    out.push((StateId(q as u32), StateId(r as u32)));
                }
            }
        }
        out.sort_unstable();
        out
    }
}

impl Analysis<'_> {
    fn mark(&mut self, a: &[(StateId, StateId)], b: &[(StateId, StateId)]) {
        for &(p, _) in a {
            for &(q, _) in b {
                if p != q && !self.compat.compatible(p, q) {
                    self.undistinguished.insert(p, q);
                }
            }
        }
    }

    /// Iterative evaluation (explicit stack) of the observation statistics of the sub-DAG from
    /// node `start`, entered with `root`.
    fn run(&mut self, start: u32, root: Origins) -> (f64, f64, f64) {
        enum Frame {
            Enter(u32, Origins),
            Combine(u32, Origins, Vec<((u32, Origins), f64)>),
        }
        let mut stack = vec![Frame::Enter(start, root.clone())];
        while let Some(frame) = stack.pop() {
            match frame {
                Frame::Enter(k, origins) => {
                    if self.memo.contains_key(&(k, origins.clone())) {
                        continue;
                    }
                    let node = &self.adg.nodes()[k as usize];
                    match &node.step {
                        Step::Leaf => {
                            let n = origins.len();
                            self.mark_within(&origins);
                            self.memo.insert((k, origins), (1.0, n as f64, n as f64));
                        }
                        Step::Input { input, then, .. } => {
                            let (mut moved, mut stuck) = (Vec::new(), Vec::new());
                            for &(o, s) in &origins {
                                match self.sa.after(s, *input) {
                                    Some(t) => moved.push((o, t)),
                                    None => stuck.push((o, s)),
                                }
                            }
                            if !stuck.is_empty() {
                                self.mark(&stuck, &origins);
                            }
                            moved.sort_unstable();
                            let next = vec![((*then, moved.clone()), 1.0)];
                            stack.push(Frame::Combine(k, origins, next));
                            stack.push(Frame::Enter(*then, moved));
                        }
                        Step::Outputs { branches } => {
                            let live: Vec<(u32, Origins)> = branches
                                .iter()
                                .map(|&(x, t)| {
                                    let mut m: Origins = origins
                                        .iter()
                                        .filter_map(|&(o, s)| self.sa.after(s, x).map(|u| (o, u)))
                                        .collect();
                                    m.sort_unstable();
                                    (t, m)
                                })
                                .filter(|(_, m)| !m.is_empty())
                                .collect();
                            let w = 1.0 / live.len().max(1) as f64;
                            let next: Vec<((u32, Origins), f64)> =
                                live.iter().map(|c| (c.clone(), w)).collect();
                            stack.push(Frame::Combine(k, origins, next));
                            for (t, m) in live {
                                stack.push(Frame::Enter(t, m));
                            }
                        }
                    }
                }
                Frame::Combine(k, origins, next) => {
                    let mut total = (0.0, 0.0, 0.0);
                    for (key, w) in &next {
                        let (o, s, ws) = self.memo.get(key).copied().unwrap_or((0.0, 0.0, 0.0));
                        total.0 += o;
                        total.1 += s;
                        total.2 += w * ws;
                    }
                    self.memo.insert((k, origins), total);
                }
            }
        }
        self.memo
            .get(&(start, root))
            .copied()
            .unwrap_or((0.0, 0.0, 0.0))
    }

    /// Marks the incompatible pairs of initial states that all produce a leaf's observation.
    fn mark_within(&mut self, origins: &[(StateId, StateId)]) {
        for (i, &(p, _)) in origins.iter().enumerate() {
            for &(q, _) in &origins[i + 1..] {
                if p != q && !self.compat.compatible(p, q) {
                    self.undistinguished.insert(p, q);
                    self.sharing.insert(p, q);
                }
            }
        }
    }
}

fn analysis<'a>(
    sa: &'a SuspensionAutomaton,
    compat: &'a Compatibility,
    adg: &'a Experiment,
) -> Analysis<'a> {
    Analysis {
        sa,
        compat,
        adg,
        memo: HashMap::new(),
        undistinguished: PairSet::new(sa.num_states()),
        sharing: PairSet::new(sa.num_states()),
    }
}

/// The Table 3.2 metrics of `adg` and the incompatible pairs `(q, r)`, `q < r`, it leaves
/// undistinguished, sorted.
fn analyse(
    sa: &SuspensionAutomaton,
    compat: &Compatibility,
    adg: &Experiment,
) -> (AdgMetrics, Vec<(StateId, StateId)>) {
    let mut analysis = analysis(sa, compat, adg);
    let root: Origins = adg.root_states().iter().map(|&q| (q, q)).collect();
    let (obs, sizes, weighted) = analysis.run(0, root);
    let sharing_an_observation = analysis.sharing.len();
    let topup_pairs = analysis.undistinguished.into_sorted(sa.num_states());
    let metrics = AdgMetrics {
        nodes: adg.len(),
        depth: adg.depth(),
        observations: obs,
        average_leaf_size: if obs > 0.0 { sizes / obs } else { 0.0 },
        weighted_average_leaf_size: weighted,
        undistinguished_pairs: topup_pairs.len(),
        sharing_an_observation,
    };
    (metrics, topup_pairs)
}

/// The incompatible pairs `(q, r)`, `q < r`, of the current set of node `node` that the sub-DAG
/// from `node` leaves undistinguished (the count of [`AdgMetrics::undistinguished_pairs`] for the
/// experiment rooted there), sorted.
pub(crate) fn undistinguished_below(
    sa: &SuspensionAutomaton,
    compat: &Compatibility,
    adg: &Experiment,
    node: u32,
) -> Vec<(StateId, StateId)> {
    let mut analysis = analysis(sa, compat, adg);
    let root: Origins = adg.nodes()[node as usize]
        .states
        .iter()
        .map(|&q| (q, q))
        .collect();
    analysis.run(node, root);
    analysis.undistinguished.into_sorted(sa.num_states())
}

/// For every node of `adg`, the ways the initial states reach it: one list of
/// `(initial state, current state)` per observation prefix class the analysis distinguishes
/// (sorted, each sorted). Nodes no run reaches have none.
pub(crate) fn origins_per_node(
    sa: &SuspensionAutomaton,
    compat: &Compatibility,
    adg: &Experiment,
) -> Vec<Vec<Vec<(StateId, StateId)>>> {
    let mut analysis = analysis(sa, compat, adg);
    let root: Origins = adg.root_states().iter().map(|&q| (q, q)).collect();
    analysis.run(0, root);
    let mut out: Vec<Vec<Origins>> = vec![Vec::new(); adg.len()];
    for (k, origins) in analysis.memo.into_keys() {
        out[k as usize].push(origins);
    }
    for o in &mut out {
        o.sort_unstable();
    }
    out
}

/// An adaptive distinguishing graph with its metrics and the incompatible pairs it leaves
/// undistinguished (sorted).
#[derive(Clone, Debug)]
pub struct AnalysedGraph {
    adg: Experiment,
    metrics: AdgMetrics,
    undistinguished: Vec<(StateId, StateId)>,
}

impl AnalysedGraph {
    /// Analyses `adg`, whose root is all states of `sa`.
    pub fn new(sa: &SuspensionAutomaton, compat: &Compatibility, adg: Experiment) -> Self {
        let (metrics, undistinguished) = analyse(sa, compat, &adg);
        AnalysedGraph {
            adg,
            metrics,
            undistinguished,
        }
    }

    /// The graph.
    pub fn adg(&self) -> &Experiment {
        &self.adg
    }

    /// The incompatible pairs `(q, r)`, `q < r`, it leaves undistinguished, sorted.
    pub fn undistinguished(&self) -> &[(StateId, StateId)] {
        &self.undistinguished
    }

    /// Its Table 3.2 metrics.
    pub fn metrics(&self) -> &AdgMetrics {
        &self.metrics
    }
}

/// The adaptive distinguishing graph with its top-ups: for every state, experiments that together
/// distinguish it from every incompatible state.
///
/// Top-up graphs are not stored: there can be millions (one per undistinguished pair), and each
/// follows the winning moves of [`Compatibility`], so [`AdaptiveIdentification::topup`] rebuilds
/// one in time proportional to its size.
#[derive(Clone, Debug)]
pub struct AdaptiveIdentification {
    adg: Experiment,
    preference: Preference,
    topup_pairs: Vec<(StateId, StateId)>,
    topup_nodes: usize,
    metrics: AdgMetrics,
}

impl AdaptiveIdentification {
    /// Builds the ADG from `graph`, finds the incompatible pairs it leaves undistinguished and adds
    /// a pairwise distinguishing graph for each (built in parallel, moves chosen by `preference`).
    pub fn compute(
        sa: &SuspensionAutomaton,
        compat: &Compatibility,
        graph: &SplittingGraph,
        preference: Preference,
    ) -> Result<AdaptiveIdentification, IdentifyError> {
        let analysed = adaptive_graph(sa, compat, graph, DEFAULT_ADG_BUDGET)?;
        Ok(Self::top_up(sa, compat, analysed, preference))
    }

    /// Adds top-ups to an analysed adaptive distinguishing graph (see [`AnalysedGraph::new`]).
    pub fn top_up(
        sa: &SuspensionAutomaton,
        compat: &Compatibility,
        analysed: AnalysedGraph,
        preference: Preference,
    ) -> AdaptiveIdentification {
        let AnalysedGraph {
            adg,
            metrics,
            undistinguished: topup_pairs,
        } = analysed;
        let topup_nodes = topup_pairs
            .par_iter()
            .map(|&(q, r)| {
                pairwise_graph_size(sa, compat, q, r, preference)
                    .expect("undistinguished pairs are incompatible")
            })
            .sum();
        AdaptiveIdentification {
            adg,
            preference,
            topup_pairs,
            topup_nodes,
            metrics,
        }
    }

    /// The adaptive distinguishing graph.
    pub fn adg(&self) -> &Experiment {
        &self.adg
    }

    /// The top-up graph of the `k`-th undistinguished pair (Algorithm 1); `sa` and `compat` must
    /// be those this identification was computed for.
    pub fn topup(&self, sa: &SuspensionAutomaton, compat: &Compatibility, k: usize) -> Experiment {
        let (q, r) = self.topup_pairs[k];
        pairwise(sa, compat, q, r, self.preference)
    }

    /// The top-up graphs in pair order, built one at a time.
    pub fn topups<'a>(
        &'a self,
        sa: &'a SuspensionAutomaton,
        compat: &'a Compatibility,
    ) -> impl Iterator<Item = Experiment> + 'a {
        (0..self.topup_pairs.len()).map(move |k| self.topup(sa, compat, k))
    }

    /// Number of top-up graphs (one per undistinguished pair).
    pub fn num_topups(&self) -> usize {
        self.topup_pairs.len()
    }

    /// Total number of nodes of the top-up graphs.
    pub fn topup_nodes(&self) -> usize {
        self.topup_nodes
    }

    /// The incompatible pairs `(q, r)`, `q < r`, the ADG does not distinguish, sorted.
    pub fn undistinguished_pairs(&self) -> &[(StateId, StateId)] {
        &self.topup_pairs
    }

    /// Whether the ADG distinguishes `q` and `r` (always true for compatible pairs' purposes:
    /// those need no distinguishing).
    pub fn adg_distinguishes(&self, q: StateId, r: StateId) -> bool {
        let p = if q < r { (q, r) } else { (r, q) };
        self.topup_pairs.binary_search(&p).is_err()
    }

    /// The indices of the top-ups involving `q`; with the ADG they identify `q`.
    pub fn topups_of(&self, q: StateId) -> Vec<usize> {
        (0..self.topup_pairs.len())
            .filter(|&k| self.topup_pairs[k].0 == q || self.topup_pairs[k].1 == q)
            .collect()
    }

    /// Table 3.2 metrics of the ADG.
    pub fn metrics(&self) -> &AdgMetrics {
        &self.metrics
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::identify::splitting_graph::SplittingGraph;
    use crate::identify::splitting_graph::tests::{all_options, fig_3_1, fig_3_5, fig_3_7, s_n};

    fn identify(sa: &SuspensionAutomaton) -> (Compatibility, AdaptiveIdentification) {
        let c = Compatibility::compute(sa);
        let g = SplittingGraph::build(sa, &c).unwrap();
        let a = AdaptiveIdentification::compute(sa, &c, &g, Preference::Outputs).unwrap();
        (c, a)
    }

    /// The CCS-like term of an experiment, for comparison with the thesis.
    fn term(sa: &SuspensionAutomaton, e: &Experiment, k: u32) -> String {
        match &e.nodes()[k as usize].step {
            Step::Leaf => "0".into(),
            Step::Input { input, then, .. } => {
                format!("{}.{}", sa.alphabet.name(*input), term(sa, e, *then))
            }
            Step::Outputs { branches } => {
                let parts: Vec<String> = branches
                    .iter()
                    .map(|&(x, t)| format!("{}.{}", sa.alphabet.name(x), term(sa, e, t)))
                    .collect();
                format!("({})", parts.join(" + "))
            }
        }
    }

    #[test]
    fn fig_3_6_adaptive_distinguishing_graph() {
        let sa = fig_3_1();
        let (_, a) = identify(&sa);
        assert_eq!(
            term(&sa, a.adg(), 0),
            "(x.(x.0 + y.a.(x.0 + y.0)) + y.a.(x.0 + y.0))"
        );
        assert!(a.undistinguished_pairs().is_empty());
        assert_eq!(a.num_topups(), 0);
        let m = a.metrics();
        assert_eq!(m.depth, 4);
        assert_eq!(m.undistinguished_pairs, 0);
        // Observations: xx, xyax, xyay, yax, yay.
        assert_eq!(m.observations, 5.0);
        assert!(a.topups_of(StateId(0)).is_empty());
    }

    #[test]
    fn fig_3_5_has_no_adg_and_gets_top_ups() {
        let sa = fig_3_5();
        let (c, a) = identify(&sa);
        assert_eq!(c.num_incompatible_pairs(), 3);
        assert!(!a.undistinguished_pairs().is_empty());
        // With top-ups every state is identified: each incompatible pair is covered.
        for (q, r) in c.incompatible_pairs() {
            let covered = a.adg_distinguishes(q, r)
                || a.topups_of(q)
                    .into_iter()
                    .any(|k| a.topup(&sa, &c, k).root_states() == [q, r]);
            assert!(covered, "({q}, {r})");
        }
        assert!(!brute_force_adg_exists(&sa, &c));
    }

    #[test]
    fn fig_3_7_and_s_n_are_fully_distinguished() {
        let sa = fig_3_7();
        let (c, a) = identify(&sa);
        check_adg(&sa, &c, &a);
        for n in 3..=7 {
            let sa = s_n(n);
            let (c, a) = identify(&sa);
            check_adg(&sa, &c, &a);
            // S_n has an adaptive distinguishing graph (count the outputs before n).
            assert!(brute_force_adg_exists(&sa, &c));
            assert!(a.undistinguished_pairs().is_empty(), "S_{n}");
        }
    }

    /// Brute-force existence of an adaptive distinguishing graph for all states (Def. 3.21), for
    /// automata whose distinct states are pairwise incompatible (then, by Lemma 3.35, every label
    /// taken must be injective and the rest is an ADG for the successor set).
    fn brute_force_adg_exists(sa: &SuspensionAutomaton, c: &Compatibility) -> bool {
        if c.num_compatible_pairs() > 0 {
            return false;
        }
        let inputs: Vec<LabelId> = sa.alphabet.inputs().collect();
        let outputs: Vec<LabelId> = sa.alphabet.outputs().collect();
        let injective_after = |p: &[StateId], l: LabelId| -> Option<Vec<StateId>> {
            let mut t: Vec<StateId> = p.iter().filter_map(|&s| sa.after(s, l)).collect();
            t.sort_unstable();
            let k = t.len();
            t.dedup();
            (t.len() == k).then_some(t)
        };
        let mut memo: HashMap<Vec<StateId>, bool> = HashMap::new();
        let mut changed = true;
        let all: Vec<StateId> = sa.states().collect();
        // Collect reachable sets.
        let mut sets = vec![all.clone()];
        let mut seen: std::collections::HashSet<Vec<StateId>> = sets.iter().cloned().collect();
        let mut i = 0;
        while i < sets.len() {
            let p = sets[i].clone();
            i += 1;
            for &l in inputs.iter().chain(&outputs) {
                if let Some(t) = injective_after(&p, l)
                    && t.len() > 1
                    && seen.insert(t.clone())
                {
                    sets.push(t);
                }
            }
        }
        while changed {
            changed = false;
            for p in &sets {
                if memo.get(p) == Some(&true) {
                    continue;
                }
                let good = |t: &Vec<StateId>| t.len() <= 1 || memo.get(t) == Some(&true);
                let by_outputs = outputs
                    .iter()
                    .all(|&x| injective_after(p, x).is_some_and(|t| good(&t)))
                    && outputs
                        .iter()
                        .any(|&x| p.iter().any(|&s| sa.after(s, x).is_some()));
                let by_input = inputs.iter().any(|&a| {
                    p.iter().all(|&s| sa.after(s, a).is_some())
                        && injective_after(p, a).is_some_and(|t| good(&t))
                });
                if by_outputs || by_input {
                    memo.insert(p.clone(), true);
                    changed = true;
                }
            }
        }
        memo.get(&all) == Some(&true)
    }

    /// Invariants of the ADG and the reported distinguished pairs, by brute force.
    fn check_adg(sa: &SuspensionAutomaton, c: &Compatibility, a: &AdaptiveIdentification) {
        let adg = a.adg();
        // Every observation ends in a pairwise compatible set.
        for k in adg.leaves() {
            assert!(c.pairwise_compatible(&adg.nodes()[k].states));
        }
        // Every pair reported distinguished has disjoint observation sets (Def. 3.18).
        let obs: Vec<Vec<Vec<LabelId>>> = sa
            .states()
            .map(|q| adg.observations(sa, q, 100_000).unwrap())
            .collect();
        for (q, r) in c.incompatible_pairs() {
            if a.adg_distinguishes(q, r) {
                let (oq, or) = (&obs[q.index()], &obs[r.index()]);
                assert!(
                    oq.iter().all(|t| or.binary_search(t).is_err()),
                    "{}: ({q}, {r}) reported distinguished",
                    sa.name
                );
            }
        }
        // The Def. 3.18 count is exactly the incompatible pairs sharing an observation.
        let sharing = c
            .incompatible_pairs()
            .filter(|&(q, r)| {
                let (oq, or) = (&obs[q.index()], &obs[r.index()]);
                oq.iter().any(|t| or.binary_search(t).is_ok())
            })
            .count();
        let m = a.metrics();
        assert_eq!(m.sharing_an_observation, sharing, "{}", sa.name);
        assert!(m.sharing_an_observation <= m.undistinguished_pairs);
        // Top-ups distinguish their pair.
        for (e, &(q, r)) in a.topups(sa, c).zip(a.undistinguished_pairs()) {
            let oq = e.observations(sa, q, 100_000).unwrap();
            let or = e.observations(sa, r, 100_000).unwrap();
            assert!(oq.iter().all(|t| or.binary_search(t).is_err()));
        }
    }

    #[test]
    fn random_adgs_satisfy_the_invariants() {
        let mut theorem_cases = 0;
        for seed in 0..400u64 {
            let n = 2 + (seed % 6) as usize;
            let sa = crate::identify::random::random_suspension(seed, n, 2, 3);
            let c = Compatibility::compute(&sa);
            for options in all_options() {
                let prefer_injective = options.prefer_injective;
                let g = SplittingGraph::build_with(&sa, &c, options).unwrap();
                let a = AdaptiveIdentification::compute(&sa, &c, &g, Preference::Outputs).unwrap();
                check_adg(&sa, &c, &a);
                // Theorem 3.36: all pairs incompatible and an ADG exists => we find one.
                if prefer_injective && brute_force_adg_exists(&sa, &c) {
                    theorem_cases += 1;
                    assert!(
                        a.undistinguished_pairs().is_empty(),
                        "seed {seed}: an ADG exists but {:?} are not distinguished",
                        a.undistinguished_pairs()
                    );
                }
            }
        }
        assert!(
            theorem_cases > 40,
            "only {theorem_cases} automata exercise Theorem 3.36"
        );
    }
}
