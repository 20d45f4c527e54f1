//! The ioco methods ([`IocoMethod`]), the bound on implementation size a suite is generated
//! for ([`Bound`]) and what to advise when the budgets refuse a suite.

use super::access::reachable_states;
use super::counting::IncompatibleSets;
use super::error::IocoSuiteError;
use crate::model::SuspensionAutomaton;

/// The ioco suite generators.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum IocoMethod {
    /// `T(S, n)`, the distinguishing test suite (Def. 2.37).
    Complete,
    /// `U(S, n)`, the unconditional test suite (Def. 2.43).
    Unconditional,
    /// Shortest state cover, extension, adaptive distinguishing graph and top-ups.
    Ads,
    /// The cheapest complete suite among the candidates of [`auto`](super::auto), counted from
    /// their plans.
    Auto,
    /// State counting over sets of pairwise incompatible states ([`counting`](super::counting)).
    Counting(IncompatibleSets),
    /// [`IocoMethod::Counting`] with visits counted relative to the forced state cover.
    CoverCounting(IncompatibleSets),
}

impl IocoMethod {
    /// The name written to the suite's `method` field.
    pub fn name(self) -> &'static str {
        match self {
            IocoMethod::Complete => "ioco-complete",
            IocoMethod::Unconditional => "unconditional",
            IocoMethod::Ads => "ioco-ads",
            IocoMethod::Auto => "ioco-auto",
            IocoMethod::Counting(_) => "ioco-counting",
            IocoMethod::CoverCounting(_) => "ioco-cover-counting",
        }
    }
}

/// The bound on implementation size a suite is generated for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// At most `n` specified implementation states.
    States(usize),
    /// At most `|S| + e` specified implementation states, `|S|` the reachable specification states.
    ExtraStates(usize),
}

/// What to do about a suite of the method named `method` refused by the budgets, never naming
/// it: try a smaller `n`, raise the limits named, or (for one method) try `ioco-auto`; or
/// test without a completeness guarantee through coverage goals or `explore`.
pub fn refusal_advice(method: &str) -> String {
    let other = if method == IocoMethod::Auto.name() {
        ""
    } else {
        ", or --method ioco-auto (the cheapest complete suite that fits)"
    };
    format!(
        "try a smaller n (complete only for implementations with at most n states), raise the \
         limits named{other}; without a completeness guarantee, `generate --cover \
         transitions` writes one sound test per reachable transition and `explore` walks the \
         system at random for a set time (both fail only on outputs the model forbids, neither \
         proves an implementation correct)"
    )
}

/// Resolves a [`Bound`] to `n`.
pub fn resolve_bound(sa: &SuspensionAutomaton, bound: Bound) -> Result<usize, IocoSuiteError> {
    let n = match bound {
        Bound::States(n) => n,
        Bound::ExtraStates(e) => {
            let states = reachable_states(sa).len();
            states
                .checked_add(e)
                .ok_or_else(|| IocoSuiteError::Budget {
                    what: format!("{states} states plus {e} extra states"),
                    budget: usize::MAX as u128,
                    advice: "give fewer extra states".into(),
                })?
        }
    };
    if n == 0 {
        return Err(IocoSuiteError::ZeroBound);
    }
    Ok(n)
}
