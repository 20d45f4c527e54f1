//! The analysis of an adaptive distinguishing graph (van den Bos Table 3.2): its depth, the
//! average size of its leaves (initial states that can produce the leaf's observation), the same
//! weighted by the probability of the observation when every allowed output is equally likely,
//! and the incompatible pairs it leaves undistinguished (sharing an observation, Def. 3.18, or
//! one of them meeting an input it does not specify while the other is still possible).

use super::experiment::{Experiment, Step};
use crate::analysis::Compatibility;
use crate::analysis::compatibility::pair_index;
use crate::fast_hash::FastMap;
use crate::model::{StateId, SuspensionAutomaton};

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

/// For every node, the lists of origins reaching it ([`origins_per_node`]).
pub(crate) type NodeOrigins = Vec<Vec<Origins>>;

/// Per (node, origins): (observations, sum of leaf sizes, weighted sum of leaf sizes). The memo
/// is only looked up, and drained into lists sorted afterwards ([`origins_per_node`]), so no
/// result depends on its order; its keys are our own, hence [`FastMap`] (with SipHash, hashing
/// the origin lists led `perf record` of `distinguish` on `random_suspension(1, 3000, 4, 4)`;
/// the change took that run from 14.9 to 10.8 s of CPU on a loaded machine).
struct Analysis<'a> {
    sa: &'a SuspensionAutomaton,
    compat: &'a Compatibility,
    adg: &'a Experiment,
    memo: FastMap<(u32, Origins), (f64, f64, f64)>,
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

    /// The pairs `(q, r)`, `q < r`, sorted (only the words holding pairs are decoded).
    fn into_sorted(self) -> Vec<(StateId, StateId)> {
        let mut out = Vec::new();
        // Row `r` holds the pairs `(q, r)` at `pair_index(0, r)..pair_index(0, r + 1)`.
        let mut r = 1usize;
        for (w, &word) in self.bits.iter().enumerate() {
            let mut word = word;
            while word != 0 {
                let k = w * 64 + word.trailing_zeros() as usize;
                word &= word - 1;
                while pair_index(0, r + 1) <= k {
                    r += 1;
                }
                out.push((StateId((k - pair_index(0, r)) as u32), StateId(r as u32)));
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
                    let key = (k, origins);
                    if self.memo.contains_key(&key) {
                        continue;
                    }
                    let (k, origins) = key;
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
        memo: FastMap::default(),
        undistinguished: PairSet::new(sa.num_states()),
        sharing: PairSet::new(sa.num_states()),
    }
}

/// The Table 3.2 metrics of `adg` and the incompatible pairs `(q, r)`, `q < r`, it leaves
/// undistinguished, sorted, with the analysis that found them (its memo holds the origins per
/// node, see [`origins_per_node`]).
fn analyse<'a>(
    sa: &'a SuspensionAutomaton,
    compat: &'a Compatibility,
    adg: &'a Experiment,
) -> (AdgMetrics, Vec<(StateId, StateId)>, Analysis<'a>) {
    let mut analysis = analysis(sa, compat, adg);
    let root: Origins = adg.root_states().iter().map(|&q| (q, q)).collect();
    let (obs, sizes, weighted) = analysis.run(0, root);
    let sharing_an_observation = analysis.sharing.len();
    let topup_pairs =
        std::mem::replace(&mut analysis.undistinguished, PairSet::new(0)).into_sorted();
    let metrics = AdgMetrics {
        nodes: adg.len(),
        depth: adg.depth(),
        observations: obs,
        average_leaf_size: if obs > 0.0 { sizes / obs } else { 0.0 },
        weighted_average_leaf_size: weighted,
        undistinguished_pairs: topup_pairs.len(),
        sharing_an_observation,
    };
    (metrics, topup_pairs, analysis)
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
    analysis.undistinguished.into_sorted()
}

/// For every node of `adg`, the ways the initial states reach it: one list of
/// `(initial state, current state)` per observation prefix class the analysis distinguishes
/// (sorted, each sorted). Nodes no run reaches have none.
pub(crate) fn origins_per_node(
    sa: &SuspensionAutomaton,
    compat: &Compatibility,
    adg: &Experiment,
) -> NodeOrigins {
    let mut analysis = analysis(sa, compat, adg);
    let root: Origins = adg.root_states().iter().map(|&q| (q, q)).collect();
    analysis.run(0, root);
    origins_of(analysis)
}

/// The origins per node of [`origins_per_node`] from an analysis run from the root.
fn origins_of(analysis: Analysis<'_>) -> NodeOrigins {
    let mut out: Vec<Vec<Origins>> = vec![Vec::new(); analysis.adg.len()];
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
    pub(super) adg: Experiment,
    pub(super) metrics: AdgMetrics,
    pub(super) undistinguished: Vec<(StateId, StateId)>,
}

impl AnalysedGraph {
    /// Analyses `adg`, whose root is all states of `sa`.
    pub fn new(sa: &SuspensionAutomaton, compat: &Compatibility, adg: Experiment) -> Self {
        let (metrics, undistinguished, _) = analyse(sa, compat, &adg);
        AnalysedGraph {
            adg,
            metrics,
            undistinguished,
        }
    }

    /// [`AnalysedGraph::new`] with the origins per node of [`origins_per_node`], taken from the
    /// same analysis (one pass where the repair would otherwise run it again).
    pub(crate) fn with_origins(
        sa: &SuspensionAutomaton,
        compat: &Compatibility,
        adg: Experiment,
    ) -> (Self, NodeOrigins) {
        let (metrics, undistinguished, analysis) = analyse(sa, compat, &adg);
        let origins = origins_of(analysis);
        let analysed = AnalysedGraph {
            adg,
            metrics,
            undistinguished,
        };
        (analysed, origins)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pair_sets_list_their_pairs_sorted() {
        let n = 70usize;
        let mut set = PairSet::new(n);
        let mut expected = Vec::new();
        for r in 1..n {
            for q in 0..r {
                // Rows and words of every fill, the last pair included.
                if (q * 7 + r * 3) % 11 == 0 || (q, r) == (0, 1) || (q, r) == (n - 2, n - 1) {
                    set.insert(StateId(r as u32), StateId(q as u32));
                    expected.push((StateId(q as u32), StateId(r as u32)));
                }
            }
        }
        expected.sort_unstable();
        assert_eq!(set.len(), expected.len());
        assert_eq!(set.into_sorted(), expected);
    }
}
