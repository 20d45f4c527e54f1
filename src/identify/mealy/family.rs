//! Separating families: for every state a set of input words (its identifier) that the suite
//! generators append after each access sequence and middle part.
//!
//! - `W`: one characterisation set for all states (Chow): the words of the splitting tree's
//!   internal nodes.
//! - `Wp` (Fujiwara et al.): the characterisation set after the state cover and shorter middles,
//!   and after the longest middles the identification set of the reached state (its splitting-tree
//!   path words, a subset of W that separates it from every other state).
//! - `HSI` pairwise: for each other state a shortest separating sequence (the word at the lowest
//!   common ancestor in the splitting tree of minimal separating sequences).
//! - `HSI-ST`: harmonised identifiers read off the splitting tree adaptively, as Soucha's HSI
//!   with splitting-tree sequences (FSMlib) does: a state's identifier applies the word of the
//!   lowest node whose block holds every state it is not yet separated from, follows its own
//!   output to the successors of those with the same output, and repeats from there; states
//!   whose successors merge start over on the initial states still confused. Every state of a
//!   confusion set shares the word applied to it, so the family is harmonised, and a state's
//!   identifier is one adaptive path rather than every splitting word of its block's ancestors.
//!   [`HSI_ST_CONFIGS`] gives the choices of splitting word.
//! - `hybrid-ADS` (Moerman): the state's word of the (partial) adaptive distinguishing sequence,
//!   topped up with the splitting-tree words that separate it from the states the ADS leaves with
//!   it.
//! - `UIO` / `UIOv` (Goga Sec. 3.3): the UIO sequence of the state; UIOv also applies every UIO
//!   input word after the state cover (its "UIO uniqueness" part), making it a Wp instance whose
//!   characterisation set is the set of UIO words.
//!
//! Every family except UIO is harmonised: two different states have a common word (up to
//! prefixes) that separates them, which is what m-completeness of the HSI scheme needs.

use super::ads::LySplittingTree;
use super::radix;
use super::splitting::SplittingTree;
use super::uio::UioSet;
use crate::model::{LabelId, Mealy, StateId};
use rayon::prelude::*;
use std::collections::HashMap;

/// Which identifiers a family holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FamilyKind {
    /// One characterisation set W for every state.
    W,
    /// W after short middles, identification sets after the longest.
    Wp,
    /// Pairwise shortest separating sequences.
    Hsi,
    /// Harmonised identifiers read adaptively off the splitting tree.
    HsiSt,
    /// Adaptive distinguishing sequence plus pairwise top-up.
    Hads,
    /// UIO sequences only (not complete).
    Uio,
    /// UIO sequences with the UIO uniqueness check (Wp over UIO words).
    Uiov,
}

impl FamilyKind {
    /// The name used on the command line and in suite files.
    pub fn name(self) -> &'static str {
        match self {
            FamilyKind::W => "w",
            FamilyKind::Wp => "wp",
            FamilyKind::Hsi => "hsi",
            FamilyKind::HsiSt => "hsi-st",
            FamilyKind::Hads => "hads",
            FamilyKind::Uio => "uio",
            FamilyKind::Uiov => "uiov",
        }
    }
}

/// Identifiers per state, words shared in one table.
#[derive(Clone, Debug)]
pub struct Family {
    kind: FamilyKind,
    words: Vec<Vec<LabelId>>,
    per_state: Vec<Vec<u32>>,
    global: Option<Vec<u32>>,
    without_uio: usize,
}

#[derive(Default)]
struct WordTable {
    words: Vec<Vec<LabelId>>,
    index: HashMap<Vec<LabelId>, u32>,
}

impl WordTable {
    fn id(&mut self, w: Vec<LabelId>) -> u32 {
        if let Some(&k) = self.index.get(&w) {
            return k;
        }
        let k = self.words.len() as u32;
        self.index.insert(w.clone(), k);
        self.words.push(w);
        k
    }

    /// Sorts a set of word ids by word, dropping duplicates, empty words and words that are
    /// proper prefixes of others in the set (running the longer word observes the shorter one).
    fn normalise(&self, set: &mut Vec<u32>) {
        set.sort_by(|&x, &y| self.words[x as usize].cmp(&self.words[y as usize]));
        set.dedup();
        let keep: Vec<u32> = set
            .iter()
            .enumerate()
            .filter(|&(k, &x)| {
                let w = &self.words[x as usize];
                !w.is_empty()
                    && set
                        .get(k + 1)
                        .is_none_or(|&y| !self.words[y as usize].starts_with(w))
            })
            .map(|(_, &x)| x)
            .collect();
        *set = keep;
    }
}

impl Family {
    /// Builds the family of `kind` for a complete minimal machine `m` from its splitting tree,
    /// its Lee–Yannakakis tree (needed by `Hads`) and UIO sequences (needed by `Uio`, `Uiov`).
    pub fn build(
        m: &Mealy,
        kind: FamilyKind,
        tree: &SplittingTree,
        ly: Option<&LySplittingTree>,
        uio: Option<&UioSet>,
    ) -> Family {
        let n = m.num_states();
        let mut table = WordTable::default();
        let mut per_state: Vec<Vec<u32>> = vec![Vec::new(); n];
        let mut global = None;
        let mut without_uio = 0;
        let node_words = |table: &mut WordTable, memo: &mut HashMap<u32, u32>, node: u32| -> u32 {
            *memo
                .entry(node)
                .or_insert_with(|| table.id(tree.word(node)))
        };
        let mut memo: HashMap<u32, u32> = HashMap::new();
        match kind {
            FamilyKind::W | FamilyKind::Wp | FamilyKind::Hsi => {
                for s in m.states() {
                    per_state[s.index()] = tree
                        .path(s)
                        .into_iter()
                        .map(|v| node_words(&mut table, &mut memo, v))
                        .collect();
                }
                if kind != FamilyKind::Hsi {
                    let mut all: Vec<u32> = per_state.iter().flatten().copied().collect();
                    table.normalise(&mut all);
                    global = Some(all);
                }
            }
            FamilyKind::HsiSt => {
                return Family::build_hsi_st(m, tree, HSI_ST_CONFIGS[0], None);
            }
            FamilyKind::Hads => {
                let ly = ly.expect("hybrid-ADS needs the Lee-Yannakakis tree");
                return Family::build_adaptive(m, tree, ly, AdaptiveConfig::default(), None);
            }
            FamilyKind::Uio | FamilyKind::Uiov => {
                let uio = uio.expect("UIO families need UIO sequences");
                for s in m.states() {
                    per_state[s.index()] = match &uio.uio[s.index()] {
                        Some(u) => vec![table.id(u.clone())],
                        None => {
                            without_uio += 1;
                            tree.path(s)
                                .into_iter()
                                .map(|v| node_words(&mut table, &mut memo, v))
                                .collect()
                        }
                    };
                }
                if kind == FamilyKind::Uiov {
                    let mut all: Vec<u32> = per_state.iter().flatten().copied().collect();
                    table.normalise(&mut all);
                    global = Some(all);
                }
            }
        }
        for set in &mut per_state {
            table.normalise(set);
        }
        Family {
            kind,
            words: table.words,
            per_state,
            global,
            without_uio,
        }
    }

    /// The hybrid-ADS family with the given choice of splitting words: each state's word of an
    /// adaptive sequence (which may merge states), topped up, for the states it leaves together,
    /// by an adaptive sequence started afresh on just those states, and so on.
    ///
    /// `weights[s] = (w, wl)`: how many tests will end with the identifier of `s` and their total
    /// prefix length (used by `cost_score`; `None` counts every state once with empty prefixes).
    pub fn build_adaptive(
        m: &Mealy,
        tree: &SplittingTree,
        ly: &LySplittingTree,
        cfg: AdaptiveConfig,
        weights: Option<&[(f64, f64)]>,
    ) -> Family {
        Family::adaptive(m, tree, Some(ly), cfg, weights, FamilyKind::Hads)
    }

    /// The `HSI-ST` family with the choice of splitting words `cfg` (one of [`HSI_ST_CONFIGS`]):
    /// [`Family::build_adaptive`] with splitting-tree words only, no Lee–Yannakakis sequence.
    /// `weights` as for [`Family::build_adaptive`].
    pub fn build_hsi_st(
        m: &Mealy,
        tree: &SplittingTree,
        cfg: AdaptiveConfig,
        weights: Option<&[(f64, f64)]>,
    ) -> Family {
        Family::adaptive(m, tree, None, cfg, weights, FamilyKind::HsiSt)
    }

    /// [`Family::build_adaptive`] with the Lee–Yannakakis sequences only when `ly` is given,
    /// labelled `kind`.
    fn adaptive(
        m: &Mealy,
        tree: &SplittingTree,
        ly: Option<&LySplittingTree>,
        cfg: AdaptiveConfig,
        weights: Option<&[(f64, f64)]>,
        kind: FamilyKind,
    ) -> Family {
        let n = m.num_states();
        let mut table = WordTable::default();
        let mut per_state: Vec<Vec<u32>> = vec![Vec::new(); n];
        let leaves = Leaves::new(m, tree);
        let mut responses = Responses::default();
        let mut blocks: Vec<Vec<u32>> = vec![(0..n as u32).collect()];
        while let Some(block) = blocks.pop() {
            let context = AdaptiveContext {
                m,
                tree,
                ly,
                leaves: &leaves,
                cfg,
                weights,
            };
            let mut identified = |s: u32, w: Vec<LabelId>| {
                let id = table.id(w);
                per_state[s as usize].push(id);
            };
            let merged = adaptive_identifiers(&context, block, &mut responses, &mut identified);
            blocks.extend(merged.into_iter().rev());
        }
        for set in &mut per_state {
            table.normalise(set);
        }
        Family {
            kind,
            words: table.words,
            per_state,
            global: None,
            without_uio: 0,
        }
    }

    /// The kind.
    pub fn kind(&self) -> FamilyKind {
        self.kind
    }

    /// The word with id `k`.
    #[inline]
    pub fn word(&self, k: u32) -> &[LabelId] {
        &self.words[k as usize]
    }

    /// The identifier of state `s` (word ids, sorted by word).
    pub fn identifier(&self, s: StateId) -> &[u32] {
        &self.per_state[s.index()]
    }

    /// The words to append after a prefix and a middle of length `middle_len` that reach state
    /// `s`, in a suite for `extra` extra states.
    #[inline]
    pub fn suffixes(&self, s: StateId, middle_len: usize, extra: usize) -> &[u32] {
        match (&self.global, self.kind) {
            (Some(w), FamilyKind::W) => w,
            (Some(w), _) if middle_len <= extra => w,
            _ => &self.per_state[s.index()],
        }
    }

    /// The characterisation set, for W, Wp and UIOv.
    pub fn global(&self) -> Option<&[u32]> {
        self.global.as_deref()
    }

    /// For UIO families: states that have no UIO sequence and use splitting-tree words instead.
    pub fn states_without_uio(&self) -> usize {
        self.without_uio
    }
}

/// A preorder numbering of the splitting tree's nodes and the preorder number of every state's
/// leaf, made once per family. A subtree's nodes have consecutive numbers, so the lowest common
/// ancestor of a set of leaves is that of its first and last in preorder, and sorting the states
/// of a block by their leaf's number lays out every subtree's states as one range.
struct Leaves<'a> {
    tree: &'a SplittingTree,
    /// The preorder number of each state's leaf.
    rank: Vec<u32>,
    /// The node with each preorder number.
    node_at: Vec<u32>,
    /// The preorder number of each node.
    preorder: Vec<u32>,
}

impl<'a> Leaves<'a> {
    fn new(m: &Mealy, tree: &'a SplittingTree) -> Self {
        let (preorder, node_at) = super::preorder(tree.num_nodes(), |v| tree.children(v));
        Leaves {
            tree,
            rank: m
                .states()
                .map(|s| preorder[tree.leaf(s) as usize])
                .collect(),
            node_at,
            preorder,
        }
    }

    /// The lowest common ancestor of the leaves with preorder numbers `lo <= hi`, found by
    /// descending from node `v`, an ancestor of both whose subtree's numbers end before `end`:
    /// while one child's range holds both numbers, go down to it. Returns the node and the end
    /// of its range.
    fn lca_below(&self, mut v: u32, mut end: u32, lo: u32, hi: u32) -> (u32, u32) {
        loop {
            let children = self.tree.children(v);
            if children.is_empty() {
                return (v, end);
            }
            // The first child's number follows v's, and `lo` is a leaf below v, so i >= 0.
            let i = children.partition_point(|&c| self.preorder[c as usize] <= lo) - 1;
            let child_end = children
                .get(i + 1)
                .map_or(end, |&c| self.preorder[c as usize]);
            if hi >= child_end {
                return (v, end);
            }
            (v, end) = (children[i], child_end);
        }
    }

    /// The lowest common ancestor of the leaves of `states` (not empty).
    fn lca(&self, states: impl IntoIterator<Item = u32>) -> u32 {
        let mut ranks = states.into_iter().map(|s| self.rank[s as usize]);
        let first = ranks.next().expect("a state");
        let (lo, hi) = ranks.fold((first, first), |(lo, hi), r| (lo.min(r), hi.max(r)));
        self.tree
            .lca(self.node_at[lo as usize], self.node_at[hi as usize])
    }
}

/// Candidate separating words for a block: the splitting-tree nodes of the tree induced by the
/// block's leaves, top-down (breadth first, children in order), at most `limit`.
///
/// The block's leaf numbers are sorted once; a group of the search is then a range of them
/// below a known node (the child of the previous top that holds it), its top node the common
/// ancestor of the range's ends found by descending from there, and its parts (one per child
/// of the top holding some of its leaves) the subranges cut at the children's numbers. Most
/// groups span several children of that node, so most descents take no step.
fn candidates(tree: &SplittingTree, block: &[u32], leaves: &Leaves, limit: usize) -> Vec<u32> {
    let mut ranks: Vec<u32> = block.iter().map(|&s| leaves.rank[s as usize]).collect();
    ranks.sort_unstable();
    let mut out = Vec::new();
    let root_end = tree.num_nodes() as u32;
    // (range of `ranks`, a node above its leaves, the end of that node's numbers)
    let mut queue = std::collections::VecDeque::from([(0, ranks.len(), 0, root_end)]);
    while let Some((lo, hi, above, above_end)) = queue.pop_front() {
        if out.len() >= limit {
            break;
        }
        let (top, top_end) = leaves.lca_below(above, above_end, ranks[lo], ranks[hi - 1]);
        if !tree.is_internal(top) {
            continue;
        }
        out.push(top);
        let children = tree.children(top);
        let mut start = lo;
        for (i, &child) in children.iter().enumerate() {
            let child_end = children
                .get(i + 1)
                .map_or(top_end, |&c| leaves.preorder[c as usize]);
            let end = start + ranks[start..hi].partition_point(|&r| r < child_end);
            if end - start > 1 {
                queue.push_back((start, end, child, child_end));
            }
            start = end;
        }
    }
    out
}

/// How the adaptive sequences of the hybrid-ADS family choose their splitting words.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct AdaptiveConfig {
    /// Splitting-tree nodes considered per step (top-down in the tree induced by the states).
    pub candidates: usize,
    /// Also consider, for every input `a`, `a` followed by the word separating the successors.
    pub input_candidates: bool,
    /// Rank by merged states per class instead of merged states first, then classes.
    pub ratio_score: bool,
    /// Rank by an estimate of the symbols the choice adds to the suite, using per-state weights
    /// (overrides `ratio_score`).
    pub cost_score: bool,
    /// Cost score: symbols charged per test for a state that needs a top-up word (besides its
    /// prefix).
    pub top_up_cost: u32,
    /// Cost score: symbols charged per test for each halving of a class still to be split.
    pub level_cost: u32,
}

impl Default for AdaptiveConfig {
    fn default() -> Self {
        AdaptiveConfig {
            candidates: 16,
            input_candidates: false,
            ratio_score: false,
            cost_score: false,
            top_up_cost: 2,
            level_cost: 1,
        }
    }
}

/// The choices of splitting words of [`FamilyKind::HsiSt`]; a suite keeps the family whose suite
/// is estimated smaller (`suite::mealy`). The first applies the word of the lowest
/// splitting-tree node above the states still confused, or an input followed by the word of the
/// lowest node above their successors, whichever merges the fewest states (then splits into the
/// most classes, then is shortest). The second looks at 64 nodes of the tree induced by the
/// states and the inputs, and ranks by the estimated symbols the choice adds, as `hads` does
/// without its Lee–Yannakakis sequences. Neither alone is below FSMlib's splitting-tree HSI
/// everywhere (unweighted, E = 0: the first 7,489 symbols on OpenSSH against FSMlib's 6,719,
/// the second 5.02 million on m182 against 3.18 million); docs/src/benchmarks.md has the
/// figures of the choice. [`Family::build`] uses the first.
pub const HSI_ST_CONFIGS: [AdaptiveConfig; 2] = [
    AdaptiveConfig {
        candidates: 1,
        input_candidates: true,
        ratio_score: false,
        cost_score: false,
        top_up_cost: 0,
        level_cost: 0,
    },
    AdaptiveConfig {
        candidates: 64,
        input_candidates: true,
        ratio_score: false,
        cost_score: true,
        top_up_cost: 2,
        level_cost: 1,
    },
];

/// Words per state of a part of a block, and the blocks of states left together.
type AdaptiveResult = (Vec<(u32, Vec<LabelId>)>, Vec<Vec<u32>>);

/// Where [`adaptive_identifiers`] hands each state's word, in order.
type Identified<'a> = dyn FnMut(u32, Vec<LabelId>) + 'a;

/// A node of the adaptive sequence under construction: (initial state, current state) pairs and
/// the word applied so far.
type AdaptiveNode = (Vec<(u32, u32)>, Vec<LabelId>);

/// What the adaptive sequences of one family are built from: the machine, its trees, the leaves
/// of the states in the splitting tree (made once per family, not per block), the choice of
/// splitting words and the per-state weights of the cost score.
struct AdaptiveContext<'a> {
    m: &'a Mealy,
    tree: &'a SplittingTree,
    ly: Option<&'a LySplittingTree>,
    leaves: &'a Leaves<'a>,
    cfg: AdaptiveConfig,
    weights: Option<&'a [(f64, f64)]>,
}

/// The responses of distinct states to one word, made so that evaluating a candidate allocates
/// nothing per state and sorts plain integers: the `k`-th state's outputs as one number `keys[k]`
/// (ordered as the output words are: the word in base |O| when it fits in 64 bits, else its rank
/// among the words), its end state `ends[k]`, and `sorted`, the entries `key·2⁶⁴ + end·2³² + k`
/// in increasing order, i.e. the states sorted by (outputs, end state, index).
#[derive(Default)]
struct Responses {
    keys: Vec<u64>,
    ends: Vec<u32>,
    sorted: Vec<u128>,
    /// The output words, flat, when they do not fit in a key.
    outs: Vec<LabelId>,
    order: Vec<u32>,
    /// The second buffer of the radix sort of `sorted`.
    scratch: Vec<u128>,
}

impl Responses {
    /// Runs `word` from each of `states` (of a complete machine) and sorts the results.
    fn compute(&mut self, m: &Mealy, states: &[u32], word: &[LabelId]) {
        let radix = m.outputs.len().max(1) as u64;
        let len = word.len();
        let packed = u32::try_from(len)
            .ok()
            .and_then(|l| radix.checked_pow(l))
            .is_some();
        self.keys.clear();
        self.ends.clear();
        self.outs.clear();
        for &q in states {
            let mut cur = StateId(q);
            let mut key = 0u64;
            for &a in word {
                let (t, o) = m.step(cur, a).expect("complete");
                if packed {
                    key = key * radix + u64::from(o.0);
                } else {
                    self.outs.push(o);
                }
                cur = t;
            }
            self.keys.push(key);
            self.ends.push(cur.0);
        }
        if !packed {
            // Rank the output words: equal words share a rank, ranks follow the words' order.
            self.order.clear();
            self.order.extend(0..states.len() as u32);
            let outs = &self.outs;
            let word_of = |k: u32| &outs[k as usize * len..][..len];
            self.order
                .sort_unstable_by(|&x, &y| word_of(x).cmp(word_of(y)).then(x.cmp(&y)));
            let mut rank = 0u64;
            for i in 0..self.order.len() {
                let k = self.order[i];
                if i > 0 && word_of(self.order[i - 1]) != word_of(k) {
                    rank += 1;
                }
                self.keys[k as usize] = rank;
            }
        }
        self.sorted.clear();
        self.sorted
            .extend(
                self.keys
                    .iter()
                    .zip(&self.ends)
                    .enumerate()
                    .map(|(k, (&key, &end))| {
                        (u128::from(key) << 64) | (u128::from(end) << 32) | k as u128
                    }),
            );
        // Built in index order, so sorting stably by the upper bits sorts the whole entries.
        if self.sorted.len() < RADIX_SORT_FROM {
            self.sorted.sort_unstable();
        } else {
            radix::sort_by_upper_bits(&mut self.sorted, &mut self.scratch);
        }
    }
}

/// Response tables of at least this many states are radix-sorted; smaller ones keep the
/// comparison sort, whose cost there is small next to a radix pass's 2,048 counters (a chosen
/// threshold, not a measured crossover; both give the same order).
const RADIX_SORT_FROM: usize = 4096;

/// Whether two entries of [`Responses::sorted`] have the same outputs.
#[inline]
fn same_outputs(x: u128, y: u128) -> bool {
    x >> 64 == y >> 64
}

/// Whether two entries of [`Responses::sorted`] have the same outputs and end state.
#[inline]
fn merge(x: u128, y: u128) -> bool {
    x >> 32 == y >> 32
}

/// An adaptive distinguishing sequence that may merge states: every node applies, to the current
/// states of the initial states it still confuses, the Lee–Yannakakis sequence of their lowest
/// common block when it is split (a valid word: nothing merges), and otherwise the candidate
/// splitting-tree word that merges the fewest states, then splits into the most classes, then is
/// shortest. Hands `identified` the input word the sequence applies from each state of `block`,
/// as it finds them (the words of a large block are not held all at once), and returns the sets
/// of initial states whose current states merged (they need a top-up).
///
/// A node costs its distinct current states times the candidates' lengths (and one sort of
/// integers per candidate): candidates are run into reused buffers ([`Responses`]), and the
/// initial states are mapped to their current state's response by binary search, so no
/// per-state vector is made per candidate.
fn adaptive_identifiers(
    context: &AdaptiveContext,
    block: Vec<u32>,
    resp: &mut Responses,
    identified: &mut Identified,
) -> Vec<Vec<u32>> {
    let root: Vec<(u32, u32)> = block.into_iter().map(|s| (s, s)).collect();
    let mut merged = Vec::new();
    adaptive_subtree(context, (root, Vec::new()), resp, identified, &mut merged);
    merged
}

/// The part of [`adaptive_identifiers`] below `root`: its words handed to `identified` and its
/// merged blocks appended to `merged`, in the order of the leaves (depth first, groups in
/// order). The subtrees of the groups of a large node ([`parallel`]) are built in parallel, each
/// into a result of its own, and handed on in group order: the order is the sequential one.
fn adaptive_subtree(
    context: &AdaptiveContext,
    root: AdaptiveNode,
    resp: &mut Responses,
    identified: &mut Identified,
    merged: &mut Vec<Vec<u32>>,
) {
    let AdaptiveContext {
        m,
        tree,
        ly,
        leaves,
        cfg,
        weights,
    } = *context;
    let weight = |s: u32| weights.map_or((1.0, 0.0), |w| w[s as usize]);
    let mut stack: Vec<AdaptiveNode> = vec![root];
    while let Some((set, word)) = stack.pop() {
        let mut currents: Vec<u32> = set.iter().map(|x| x.1).collect();
        currents.sort_unstable();
        currents.dedup();
        if currents.len() == 1 {
            for &(init, _) in &set {
                identified(init, word.clone());
            }
            if set.len() > 1 {
                let mut block: Vec<u32> = set.iter().map(|x| x.0).collect();
                block.sort_unstable();
                merged.push(block);
            }
            continue;
        }
        let mut cands: Vec<Vec<LabelId>> = Vec::new();
        if let Some(sigma) = ly.and_then(|ly| ly.sigma_for(&currents)) {
            cands.push(sigma.to_vec());
        }
        cands.extend(
            candidates(tree, &currents, leaves, cfg.candidates)
                .into_iter()
                .map(|v| tree.word(v)),
        );
        if cfg.input_candidates {
            for a in m.input_ids() {
                let top = leaves.lca(
                    currents
                        .iter()
                        .map(|&q| m.step(StateId(q), a).expect("complete").0.0),
                );
                let mut w = vec![a];
                if tree.is_internal(top) {
                    w.extend(tree.word(top));
                }
                cands.push(w);
            }
        }
        // Weight of each distinct current state (in the order of `currents`): the weights of
        // the initial states at it.
        let mut cur_weight: Vec<(u32, f64, f64)> = Vec::new();
        if cfg.cost_score {
            let mut by_cur: Vec<(u32, u32)> = set.iter().map(|&(i, c)| (c, i)).collect();
            by_cur.sort_unstable();
            for (c, i) in by_cur {
                let (w, wl) = weight(i);
                match cur_weight.last_mut() {
                    Some(last) if last.0 == c => {
                        last.1 += w;
                        last.2 += wl;
                    }
                    _ => cur_weight.push((c, w, wl)),
                }
            }
        }
        // (merged currents, -classes, length) or the estimated cost; then candidate index.
        let score = |resp: &mut Responses, w: &[LabelId]| {
            resp.compute(m, &currents, w);
            candidate_score(&resp.sorted, w.len(), cfg, &cur_weight)
        };
        let best = if parallel(currents.len()) {
            let scores: Vec<Option<Score>> = cands
                .par_iter()
                .map_init(Responses::default, |resp, w| score(resp, w))
                .collect();
            first_best(scores)
        } else {
            first_best(cands.iter().map(|w| score(resp, w)))
        };
        let (_, c) = best.expect("a block of distinct states has a separating candidate");
        let w = &cands[c];
        resp.compute(m, &currents, w);
        // (outputs, initial state, index of the current state in `currents`), sorted.
        let mut next: Vec<(u64, u32, u32)> = set
            .iter()
            .map(|&(init, cur)| {
                let k = currents.binary_search(&cur).expect("a current state");
                (resp.keys[k], init, k as u32)
            })
            .collect();
        next.sort_unstable();
        let mut k = 0;
        let mut groups = Vec::new();
        while k < next.len() {
            let mut j = k;
            while j < next.len() && next[j].0 == next[k].0 {
                j += 1;
            }
            let mut wk = word.clone();
            wk.extend_from_slice(w);
            let pairs = next[k..j]
                .iter()
                .map(|&(_, init, q)| (init, resp.ends[q as usize]))
                .collect();
            groups.push((pairs, wk));
            k = j;
        }
        if parallel(set.len()) {
            let parts: Vec<AdaptiveResult> = groups
                .into_par_iter()
                .map_init(Responses::default, |resp, group| {
                    let (mut words, mut merged) = (Vec::new(), Vec::new());
                    let mut identified = |s, w| words.push((s, w));
                    adaptive_subtree(context, group, resp, &mut identified, &mut merged);
                    (words, merged)
                })
                .collect();
            for (part_words, part_merged) in parts {
                for (s, w) in part_words {
                    identified(s, w);
                }
                merged.extend(part_merged);
            }
        } else {
            stack.extend(groups.into_iter().rev());
        }
    }
}

/// Whether a node of [`adaptive_identifiers`] with `states` current (or initial) states scores
/// its candidates in parallel, and builds the subtrees of its groups in parallel
/// ([`adaptive_subtree`]), each task with response buffers of its own: from
/// [`PARALLEL_NODES_FROM`] to [`PARALLEL_NODES_UP_TO`] states. Above that size the buffers of the
/// tasks in flight would cost more memory than the time they save: on a random 50,000-state
/// machine (`scripts/peak_rss`) subtrees built in parallel from the root on peaked 6 MiB higher
/// than the sequential build. The scores are compared in candidate order, and the subtrees'
/// words handed on in group order, so the family is the sequential one.
fn parallel(states: usize) -> bool {
    (PARALLEL_NODES_FROM..=PARALLEL_NODES_UP_TO).contains(&states)
}

const PARALLEL_NODES_FROM: usize = 256;
const PARALLEL_NODES_UP_TO: usize = 4096;

/// How a candidate ranks (less is better): (merged currents, -classes, length), the ratio
/// score or the estimated cost ([`AdaptiveConfig`]).
type Score = (f64, isize, usize);

/// The least score of `scores` (in candidate order, `None` for a candidate that splits
/// nothing) and its candidate's index, the first of equal ones.
fn first_best(scores: impl IntoIterator<Item = Option<Score>>) -> Option<(Score, usize)> {
    let mut best: Option<(Score, usize)> = None;
    for (c, score) in scores.into_iter().enumerate() {
        if let Some(score) = score
            && best.is_none_or(|(b, _)| score < b)
        {
            best = Some((score, c));
        }
    }
    best
}

/// The score of a candidate word of length `len` from its sorted responses ([`Responses`]),
/// `None` if it does not split the states; `cur_weight` holds the weights of the current
/// states for the cost score.
fn candidate_score(
    order: &[u128],
    len: usize,
    cfg: AdaptiveConfig,
    cur_weight: &[(u32, f64, f64)],
) -> Option<Score> {
    let mut classes = 0;
    let mut merges = 0;
    for k in 0..order.len() {
        if k == 0 || !same_outputs(order[k - 1], order[k]) {
            classes += 1;
        }
        let same_prev = k > 0 && merge(order[k - 1], order[k]);
        let same_next = k + 1 < order.len() && merge(order[k + 1], order[k]);
        if same_prev || same_next {
            merges += 1;
        }
    }
    if classes < 2 {
        return None;
    }
    Some(if cfg.cost_score {
        let top_up = f64::from(cfg.top_up_cost);
        let per_level = f64::from(cfg.level_cost);
        let mut cost = 0.0;
        let mut k = 0;
        while k < order.len() {
            let mut j = k;
            let mut group_w = 0.0;
            while j < order.len() && same_outputs(order[j], order[k]) {
                let (_, wq, wlq) = cur_weight[order[j] as u32 as usize];
                group_w += wq;
                cost += wq * len as f64;
                let merged = (j > k && merge(order[j - 1], order[j]))
                    || (j + 1 < order.len() && merge(order[j + 1], order[j]));
                if merged {
                    cost += wlq + wq * top_up;
                }
                j += 1;
            }
            cost += group_w * per_level * ((j - k) as f64).log2();
            k = j;
        }
        (cost, 0, 0)
    } else if cfg.ratio_score {
        (0.0, (merges as isize * 1000) / classes as isize, len)
    } else {
        (merges as f64, -(classes as isize), len)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::identify::mealy::LySplittingTree;
    use crate::identify::mealy::tests_support::random_mealy;
    use crate::identify::mealy::uio_sequences;

    fn harmonised(m: &Mealy, f: &Family) -> bool {
        m.states().all(|s| {
            m.states().all(|t| {
                s == t
                    || f.identifier(s).iter().any(|&x| {
                        let w = f.word(x);
                        f.identifier(t).iter().any(|&y| {
                            let v = f.word(y);
                            let common = w.iter().zip(v).take_while(|(a, b)| a == b).count();
                            m.run(s, &w[..common]) != m.run(t, &w[..common])
                        })
                    })
            })
        })
    }

    #[test]
    fn adaptive_variants_are_harmonised() {
        for seed in 0..40u64 {
            let m = crate::identify::mealy::minimize_mealy(&random_mealy(
                seed,
                2 + seed as usize % 12,
                2 + seed as usize % 3,
                2,
            ));
            let tree = SplittingTree::new(&m);
            let ly = LySplittingTree::new(&m);
            for (candidates, input_candidates, ratio_score, cost_score) in [
                (16, false, false, false),
                (1, false, false, false),
                (64, true, false, false),
                (64, true, true, false),
                (64, true, false, true),
            ] {
                let cfg = AdaptiveConfig {
                    candidates,
                    input_candidates,
                    ratio_score,
                    cost_score,
                    ..AdaptiveConfig::default()
                };
                let weights: Vec<(f64, f64)> = m
                    .states()
                    .map(|s| (1.0 + s.0 as f64, 3.0 * s.0 as f64))
                    .collect();
                let f = Family::build_adaptive(&m, &tree, &ly, cfg, Some(&weights));
                assert!(harmonised(&m, &f), "seed {seed} {cfg:?}");
            }
            // The cost grid of `auto`: extreme top-up and level costs, with and without weights.
            for (top_up_cost, level_cost) in [(0, 0), (0, 3), (8, 0), (8, 3)] {
                let cfg = AdaptiveConfig {
                    candidates: 16,
                    input_candidates: true,
                    cost_score: true,
                    top_up_cost,
                    level_cost,
                    ..AdaptiveConfig::default()
                };
                let f = Family::build_adaptive(&m, &tree, &ly, cfg, None);
                assert!(harmonised(&m, &f), "seed {seed} {cfg:?} unweighted");
            }
        }
    }

    #[test]
    fn complete_families_are_harmonised() {
        for seed in 0..40u64 {
            let m = crate::identify::mealy::minimize_mealy(&random_mealy(
                seed,
                2 + seed as usize % 10,
                2 + seed as usize % 2,
                2,
            ));
            let tree = SplittingTree::new(&m);
            let ly = LySplittingTree::new(&m);
            let uio = uio_sequences(&m, &ly.ads(&m));
            for kind in [
                FamilyKind::W,
                FamilyKind::Wp,
                FamilyKind::Hsi,
                FamilyKind::HsiSt,
                FamilyKind::Hads,
                FamilyKind::Uiov,
            ] {
                let f = Family::build(&m, kind, &tree, Some(&ly), Some(&uio));
                // UIOv is a Wp instance: each identifier separates its state from all others,
                // but identifiers need not share words.
                if kind != FamilyKind::Uiov {
                    assert!(harmonised(&m, &f), "seed {seed} {kind:?}");
                }
                for s in m.states() {
                    for t in m.states().filter(|&t| t != s) {
                        assert!(
                            f.identifier(s)
                                .iter()
                                .any(|&x| m.run(s, f.word(x)) != m.run(t, f.word(x))),
                            "seed {seed} {kind:?}: identifier of {s} misses {t}"
                        );
                    }
                }
                if let Some(w) = f.global() {
                    for s in m.states() {
                        for t in m.states().filter(|&t| t != s) {
                            assert!(
                                w.iter()
                                    .any(|&x| m.run(s, f.word(x)) != m.run(t, f.word(x)))
                            );
                        }
                    }
                }
            }
        }
    }
}
