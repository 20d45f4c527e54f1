//! m-complete test suites for complete deterministic Mealy machines: W (Chow), Wp (Fujiwara et
//! al.), HSI (pairwise and splitting-tree identifiers), hybrid-ADS (Moerman), UIO and UIOv (Goga
//! Sec. 3.3), H (Dorofeeva et al., separating sequences chosen per pair of traces; built as a test
//! tree in [`h_method`]), SPY (Simão et al., identifiers shared through convergent traces; [`spy`]),
//! SPYH (Soucha and Bogdanov, convergence classes with per-pair separating sequences; [`spyh`]),
//! and `auto`, which builds several identifier families (and the H, SPY and SPYH trees where
//! affordable) in parallel and keeps the one giving the smallest suite by exact count.
//!
//! A suite for `E` extra states is the set of words `p·x·h` where `p` is a shortest access
//! sequence, `x` a middle part of at most `E + 1` inputs, and `h` a word of the identifier of the
//! state reached by `p·x` (not by `p`). Each word `p·x` is generated once, from its canonical
//! split (`p` the longest access sequence that is a prefix; so `x` does not start with a
//! spanning-tree edge).
//!
//! Streaming: the words are produced in lexicographic order by walking the spanning tree depth
//! first and generating, for every state `c` and every non-tree input `a`, the unit of words that
//! start with `access(c)·a`. Units are generated in parallel in batches and emitted in their fixed
//! order, so the output is the same for any thread count, and memory is bounded by a batch.
//! Because the stream is sorted, a word that is a prefix of another is immediately followed by an
//! extension of itself; dropping such words (and duplicates) needs one word of look-behind.
//!
//! The suite is generated for the minimised reachable part of the specification; its bound `N`
//! counts the states of that minimal machine plus `E`.
//!
//! The files: `options` (what is asked), `families` (identifier families), `least` (lower
//! bounds of the costs, refusals of test trees), `suite` (a built suite and its word stream),
//! `auto` (the smallest candidate); this file builds a suite ([`MealySuite::new`]) by calling
//! down into them.

mod auto;
pub mod block;
mod estimate;
mod families;
pub mod h_method;
mod least;
mod options;
pub mod spy;
pub mod spyh;
pub mod stream;
mod suite;

pub use auto::{
    AUTO_EXACT_LIMIT, AUTO_FULL_LIMIT, AUTO_GRID_BUDGET, AUTO_GRID_LIMIT, AUTO_H_PAIR_LIMIT,
    AUTO_SPY_FAMILIES, AUTO_SPY_POOL_LIMIT, AUTO_SPYH_PAIR_LIMIT,
};
pub use block::WordBlock;
pub use estimate::SuiteSize;
pub use families::HADS_CONFIG;
pub use least::{LeastCosts, least_bytes, least_costs};
pub use options::{MIDDLE_BUDGET, MealyMethod, MealySuiteOptions, SuiteStats};
pub use suite::{GeneratedBatch, MealySuite, PlannedBatch, SuiteWords, WORD_CHUNK};

use auto::auto_choice;
use families::{build_family, hads_family, hsi_st_family};
use least::{check_tree_limits, tree_nodes_error};
use options::TreeMethod;

use crate::identify::mealy::{
    AccessTree, FamilyKind, LySplittingTree, SplittingTree, minimize_mealy_with_tree,
};
use crate::model::{Mealy, ModelError};
use crate::suite::costs::CostRefusal;

impl MealySuite {
    /// Prepares the suite for `spec`: minimises it, computes access sequences and the identifier
    /// family. Fails on partial machines and when the middle parts exceed [`MIDDLE_BUDGET`].
    ///
    /// ```
    /// use ncomplete::format::{LoadOptions, load_model};
    /// use ncomplete::model::Model;
    /// use ncomplete::suite::mealy::{MealyMethod, MealySuite, MealySuiteOptions};
    ///
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/models/coffeemachine.dot");
    /// let Model::Mealy(machine) = load_model(path, &LoadOptions::default())? else {
    ///     panic!("a Mealy machine");
    /// };
    /// // An HSI suite that catches every faulty implementation with one state more.
    /// let suite = MealySuite::new(&machine, MealySuiteOptions::new(MealyMethod::Hsi, 1))?;
    /// assert!(suite.guarantee().starts_with("m-complete"));
    /// let mut tests = Vec::new();
    /// suite.stream(|word| {
    ///     tests.push(suite.test_case(word));
    ///     Ok::<(), std::convert::Infallible>(())
    /// })?;
    /// // Bounded before generation: the counted figures are upper bounds of the real suite.
    /// let bound = suite.size_before_pruning().tests;
    /// assert!(!tests.is_empty() && tests.len() as u64 <= bound);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(spec: &Mealy, opts: MealySuiteOptions) -> Result<MealySuite, ModelError> {
        Ok(Self::new_within(spec, opts, |_| Ok(()))?.expect("nothing is refused"))
    }

    /// [`MealySuite::new`] under a budget known before the identifiers are built: for every
    /// method, `precheck` is given lower bounds of the suite's costs ([`LeastCosts`]) once the
    /// machine is minimised, and its refusal is returned before any identifier or tree is built.
    /// A SPY or SPYH tree whose least node count already exceeds its node budget is refused
    /// then too.
    pub fn new_within(
        spec: &Mealy,
        opts: MealySuiteOptions,
        precheck: impl FnOnce(LeastCosts<'_>) -> Result<(), Box<CostRefusal>>,
    ) -> Result<Result<MealySuite, Box<CostRefusal>>, ModelError> {
        spec.require_complete()?;
        let k = spec.num_inputs() as u64;
        let middles = (0..opts.extra_states).try_fold(1u64, |acc, _| acc.checked_mul(k));
        if middles.is_none_or(|x| x > MIDDLE_BUDGET) {
            return Err(ModelError::Budget {
                what: format!(
                    "{} extra states with {} inputs (|I|^E middle parts per transition)",
                    opts.extra_states, k
                ),
                budget: MIDDLE_BUDGET as usize,
                advice: "try a smaller --extra-states".into(),
            });
        }
        let (min, tree) = minimize_mealy_with_tree(spec);
        let access = AccessTree::new(&min);
        let least = LeastCosts {
            min: &min,
            access: &access,
            method: opts.method,
            extra: opts.extra_states,
            json: None,
        };
        // The limits no flag raises come first, so the refusal of a flag's limit never advises
        // raising it for a suite that cannot be built anyway.
        check_tree_limits(&min, &access, opts)?;
        if let Err(refusal) = precheck(least) {
            return Ok(Err(refusal));
        }
        let tree = tree.unwrap_or_else(|| SplittingTree::new(&min));
        let needs_ads = matches!(
            opts.method,
            MealyMethod::Hads | MealyMethod::Uio | MealyMethod::Uiov | MealyMethod::Auto
        );
        let mut h_tree = None;
        let family = match opts.method.family() {
            None if opts.method == MealyMethod::H => {
                let h = h_method::build_h(
                    &min,
                    &access,
                    &tree,
                    opts.extra_states,
                    h_method::H_NODE_BUDGET,
                )
                .ok_or_else(|| {
                    tree_nodes_error("H", &min, opts.extra_states, h_method::H_NODE_BUDGET)
                })?;
                h_tree = Some((TreeMethod::H, h));
                build_family(&min, FamilyKind::Hsi, &tree, None)
            }
            None if opts.method == MealyMethod::Spy => {
                let ly = LySplittingTree::new(&min);
                let family = hads_family(&min, &access, &tree, &ly, opts.extra_states);
                let spy_tree = spy::build_spy(&min, &access, &family, opts.extra_states)
                    .ok_or_else(|| {
                        tree_nodes_error("SPY", &min, opts.extra_states, spy::SPY_NODE_BUDGET)
                    })?;
                h_tree = Some((TreeMethod::Spy, spy_tree));
                family
            }
            None if opts.method == MealyMethod::Spyh => {
                let spyh_tree = spyh::build_spyh(&min, &access, &tree, opts.extra_states)
                    .ok_or_else(|| {
                        tree_nodes_error("SPYH", &min, opts.extra_states, spyh::SPYH_NODE_BUDGET)
                    })?;
                h_tree = Some((TreeMethod::Spyh, spyh_tree));
                build_family(&min, FamilyKind::Hsi, &tree, None)
            }
            Some(FamilyKind::Hads) => {
                let ly = LySplittingTree::new(&min);
                hads_family(&min, &access, &tree, &ly, opts.extra_states)
            }
            Some(FamilyKind::HsiSt) => hsi_st_family(&min, &access, &tree, opts.extra_states),
            Some(kind) => {
                let ly = needs_ads.then(|| LySplittingTree::new(&min));
                build_family(&min, kind, &tree, ly.as_ref())
            }
            None => {
                let (family, tree) = auto_choice(&min, &access, &tree, opts);
                h_tree = tree;
                family
            }
        };
        Ok(Ok(MealySuite {
            spec: min,
            access,
            family,
            tree: h_tree,
            method: opts.method,
            extra: opts.extra_states,
            prune: opts.prune_prefixes,
        }))
    }
}

#[cfg(test)]
mod tests;
