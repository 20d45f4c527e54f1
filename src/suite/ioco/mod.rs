//! n-complete ioco test suites for suspension automata (van den Bos Ch. 2, Sec. 2.7):
//!
//! - [`IocoMethod::Complete`]: the distinguishing test suite `T(S, n)` of Def. 2.37 — every trace
//!   of `P+(S, n)` followed by every distinguishing experiment of the state it reaches:
//!   harmonised distinguishing graphs for incompatible pairs, and for compatible but inequivalent
//!   pairs the suite of their merge, recursively (Theorem 2.40);
//! - [`IocoMethod::Unconditional`]: `U(S, n)` of Def. 2.43, `n`-bounded traces followed by an
//!   observation (Corollary 2.44);
//! - [`IocoMethod::Ads`]: a practical suite from the shortest state cover (see [`ads`]);
//! - [`IocoMethod::Counting`]: state counting over sets of pairwise incompatible states with
//!   distinguishing graphs, no merges and no recursion (see [`counting`]);
//! - [`IocoMethod::CoverCounting`]: the same with visits counted relative to the forced state
//!   cover (see [`counting`]).
//!
//! Every method is built for a quiescence domain ([`domain`]): the general one of the thesis, or
//! the classic one of LTSs observed through a timeout, whose suites never wait for an output
//! right after quiescence. The command line minimises the specification by `≈` (Def. 2.13)
//! first ([`specification_for`]), so `n` counts states of the minimal equivalent automaton.
//!
//! Suites are plans (`plan`) from which test cases are built one at a time with the execution
//! semantics of Sec. 2.7.4, and streamed through [`crate::suite::SuiteWriter`]. Plans of
//! `T(S, n)` and `ioco-ads` are brought to normal form (`normal`) and the few tests that still
//! repeat are filtered out exactly, so no suite has two equal tests. Test `k` depends only on
//! the plan, so the output is byte-identical for any number of threads.
//!
//! Below everything else lies `error` (the folder's error); above the constructions (plans,
//! pairs, state counting, distinguishing graphs, normal form, costs) lie `method` (methods
//! and bounds), [`bounds`] (lower bounds of suite sizes), `suite` (a planned suite and its
//! tests), [`auto`] (the cheapest candidate) and [`sizes`] (size tables). This file holds
//! only the entry functions, which call down.

pub mod access;
pub mod ads;
pub mod auto;
mod bounded_traces;
pub mod bounds;
mod cliques;
mod conjunction;
mod costs;
pub mod counting;
mod distinguishing;
pub mod domain;
mod error;
mod method;
mod normal;
mod pairs;
mod plan;
pub mod sizes;
mod suite;
mod unconditional;
mod weakening;

use crate::model::{
    Model, SuspensionAutomaton, SuspensionOptions, lts_to_suspension, mealy_to_suspension,
};
use suite::{Counting, plan_counted};

pub use access::{
    count_extended_access, count_traces_shorter_than, extended_access, reachable_states,
    shortest_state_cover, traces_shorter_than,
};
pub(crate) use costs::measure_with_raw;
pub use counting::IncompatibleSets;
pub use domain::{Domain, SuiteOptions};
pub use error::IocoSuiteError;
pub use method::{Bound, IocoMethod, refusal_advice, resolve_bound};
pub(crate) use plan::LabelMap;
pub use suite::{IocoSuite, suite_model};

pub use crate::suite::costs::{Budget, CostRefusal, Figure, SuiteCosts};

/// Generates the suite of `method` for `sa`, refusing it (before anything is written) when a
/// figure of [`IocoSuite::costs`] exceeds its budget. [`IocoMethod::Auto`] picks the cheapest
/// complete candidate ([`auto`]).
///
/// ```
/// use ncomplete::format::{LoadOptions, load_model};
/// use ncomplete::suite::costs::Budget;
/// use ncomplete::suite::ioco::{self, Bound, IocoMethod};
///
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/models/vending.aut");
/// let sa = ioco::suspension_for(&load_model(path, &LoadOptions::default())?, path)?;
/// let suite = ioco::generate(&sa, IocoMethod::Auto, Bound::States(2), Budget::default())?;
/// assert!(suite.is_complete());
/// assert_eq!(suite.tests().count() as u128, suite.num_tests());
/// // Budgets refuse a suite before a test is built.
/// let tight = Budget { max_tests: 1, ..Budget::default() };
/// assert!(ioco::generate(&sa, IocoMethod::Complete, Bound::States(2), tight).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn generate(
    sa: &SuspensionAutomaton,
    method: IocoMethod,
    bound: Bound,
    budget: Budget,
) -> Result<IocoSuite, IocoSuiteError> {
    generate_with(sa, method, bound, budget, SuiteOptions::default())
}

/// [`generate`] for the domain and with the minimisation note of `options`.
pub fn generate_with(
    sa: &SuspensionAutomaton,
    method: IocoMethod,
    bound: Bound,
    budget: Budget,
    options: SuiteOptions,
) -> Result<IocoSuite, IocoSuiteError> {
    if method == IocoMethod::Auto {
        return auto::choose_with(sa, bound, budget, options).map(|(suite, _)| suite);
    }
    let n = resolve_bound(sa, bound)?;
    if let Some(bound) = bounds::lower_bound(sa, method, n)? {
        bound.check(
            &budget,
            &format!("{} suite for n = {n}", method.name()),
            &refusal_advice(method.name()),
        )?;
    }
    let suite = plan_counted(sa, method, bound, budget, Counting::Always, options)?;
    suite.check(&budget)?;
    Ok(suite.without_repeated_tests())
}

/// Plans the suite of `method` (not [`IocoMethod::Auto`]) and counts its figures, without
/// checking them against the budget (only planning itself is bounded, by
/// [`Budget::max_plan_nodes`]; nodes and bytes are counted up to their budgets).
pub fn plan_suite(
    sa: &SuspensionAutomaton,
    method: IocoMethod,
    bound: Bound,
    budget: Budget,
) -> Result<IocoSuite, IocoSuiteError> {
    if method == IocoMethod::Auto {
        return auto::choose_with(sa, bound, budget, SuiteOptions::default())
            .map(|(suite, _)| suite);
    }
    plan_counted(
        sa,
        method,
        bound,
        budget,
        Counting::Always,
        SuiteOptions::default(),
    )
}

/// The suspension automaton a model is tested against: an LTS is determinised with quiescence
/// (its suspension automaton), a Mealy machine becomes one with every input followed by its
/// output.
pub fn suspension_for(model: &Model, path: &str) -> Result<SuspensionAutomaton, IocoSuiteError> {
    let sa = match model {
        Model::Lts(lts) => lts_to_suspension(lts, &SuspensionOptions::default()),
        Model::Mealy(m) => mealy_to_suspension(m),
    };
    sa.map_err(|source| IocoSuiteError::Model {
        path: path.to_owned(),
        source,
    })
}

/// The specification an ioco suite is built for: [`suspension_for`], minimised by `≈` (van den
/// Bos Def. 2.9, 2.13; [`crate::model::minimize_suspension`]) unless `minimise` is false, and the
/// options that record it (`minimised_from`: the reachable states before) for `domain`.
pub fn specification_for(
    model: &Model,
    path: &str,
    minimise: bool,
    domain: Domain,
) -> Result<(SuspensionAutomaton, SuiteOptions), IocoSuiteError> {
    let sa = suspension_for(model, path)?;
    let mut options = SuiteOptions {
        domain,
        minimised_from: None,
    };
    if !minimise {
        return Ok((sa, options));
    }
    options.minimised_from = Some(reachable_states(&sa).len());
    let min = crate::model::minimize_suspension(&sa).map_err(|source| IocoSuiteError::Model {
        path: path.to_owned(),
        source,
    })?;
    Ok((min, options))
}

#[cfg(test)]
pub(crate) mod testkit;

#[cfg(test)]
mod adversary;

#[cfg(test)]
mod tests;
