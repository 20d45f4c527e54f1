//! The options of the splitting-graph construction ([`super::splitting_graph`]): the node budget,
//! where an input split puts the states that do not enable the input, and the policy that chooses
//! a leaf's split among its candidates.

/// Default limit on splitting-graph nodes.
pub const DEFAULT_SPLIT_BUDGET: usize = 2_000_000;

/// Options of the construction.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SplitOptions {
    /// Stop with [`IdentifyError::Budget`] beyond this many nodes.
    ///
    /// [`IdentifyError::Budget`]: super::IdentifyError::Budget
    pub node_budget: usize,
    /// Prefer injective splits (needed for Theorem 3.36); without it, the first possible split of
    /// each leaf is taken (output before input), as in the thesis' experiments.
    pub prefer_injective: bool,
    /// Where an input split puts the states that do not enable the input.
    pub input_rule: InputSplitRule,
    /// How a leaf's split is chosen among its candidates.
    pub policy: SplitPolicy,
    /// Rounds of re-splitting after the search of [`SplitPolicy::Searched`] (see
    /// [`SplittingGraph::build_searched`]); each round builds up to
    /// `RESPLIT_NODES * RESPLIT_ALTERNATIVES` = 12 more graphs.
    ///
    /// [`SplittingGraph::build_searched`]: super::SplittingGraph::build_searched
    pub resplit_rounds: usize,
}

/// How the split of a leaf is chosen among its candidates (the output split and one split per
/// input), after injectivity (Def. 3.34) when that is preferred.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum SplitPolicy {
    /// The thesis' order: the output split, then input splits by label name; the first that
    /// qualifies is taken.
    OutputsFirst,
    /// Every candidate is built and the one whose children keep the fewest pairs of states
    /// together (least sum of squared child sizes: the smallest expected leaf) is taken; ties go
    /// to the output split, then to inputs by label name.
    FewestPairsTogether,
    /// Every candidate is built and scored by what it achieves: first the incompatible pairs of
    /// the leaf its witness loses (Def. 3.34 fails for them: a label leads them to equal or
    /// compatible states, or an input is enabled by one and not the other), counted along the
    /// witness for [`LOOKAHEAD`] labels; then, as [`SplitPolicy::FewestPairsTogether`], the pairs
    /// its children keep together. Injective candidates lose nothing and are still preferred;
    /// lost pairs are counted only in rounds that search every LCA. On the embeddings of the
    /// shared Mealy models (`cargo bench --bench identify -- embed`) it leaves the fewest pairs
    /// undistinguished of the three policies (merged, as built: median 0.314% and worst 0.910%,
    /// against 0.362% and 1.607% for fewest pairs together); it is the first policy
    /// [`SplitPolicy::Searched`] tries.
    FewestPairsLost,
    /// As [`SplitPolicy::FewestPairsLost`], but a candidate applied without an injective one
    /// also counts what its children's least lossy splits lose, this many levels down (the
    /// children's candidates are built against the graph as it is, every LCA searched).
    LostAhead(usize),
    /// A search scored by the adaptive distinguishing graph each graph leads to
    /// ([`SplittingGraph::build_searched`]): the graphs of [`SEARCHED_POLICIES`], then
    /// re-splitting the nodes whose witnesses lose pairs. [`SplittingGraph::build_with`] alone
    /// builds the graph of the first policy.
    ///
    /// [`SplittingGraph::build_searched`]: super::SplittingGraph::build_searched
    /// [`SplittingGraph::build_with`]: super::SplittingGraph::build_with
    #[default]
    Searched,
}

impl SplitPolicy {
    /// The policy a single build follows.
    pub(super) fn built(self) -> SplitPolicy {
        match self {
            SplitPolicy::Searched => SEARCHED_POLICIES[0],
            p => p,
        }
    }
}

/// The policies whose graphs [`SplitPolicy::Searched`] compares, in order of preference.
/// [`SplitPolicy::OutputsFirst`] is left out: on the six TCP_Linux_Server embeddings it does no
/// better than this search on any and worse on three as built (merge 4,5: 0.658% against
/// 0.236%), and its graph can take seconds to grow (22,718 nodes, 31 s on hide 0,1 as built;
/// `cargo bench --bench identify -- embed --no-bound --policy outputs-first TCP_Linux_Server`).
pub const SEARCHED_POLICIES: [SplitPolicy; 4] = [
    SplitPolicy::FewestPairsLost,
    SplitPolicy::LostAhead(1),
    SplitPolicy::LostAhead(2),
    SplitPolicy::FewestPairsTogether,
];

/// Labels of a witness along which [`SplitPolicy::FewestPairsLost`] and the LCA choice of
/// Algorithm 5 count the pairs a witness loses.
pub const LOOKAHEAD: usize = 2;

/// Where a split on input `a` puts the states of the leaf that do not enable `a`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum InputSplitRule {
    /// Into a child of their own, next to the induced split (the default).
    #[default]
    SeparateChild,
    /// Into every child of the induced split, as line 17 of Algorithm 4 does.
    CopyNonEnabling,
}

impl Default for SplitOptions {
    fn default() -> Self {
        SplitOptions {
            node_budget: DEFAULT_SPLIT_BUDGET,
            prefer_injective: true,
            input_rule: InputSplitRule::default(),
            policy: SplitPolicy::default(),
            resplit_rounds: 0,
        }
    }
}
