//! Cheap lower bounds on the cost of the suites built from bounded traces (issue 43 item 2):
//! before a suite is planned, a count over the specification alone (seconds and kilobytes for
//! 30 states, where planning up to the plan-node budget takes minutes and a gigabyte) says when
//! no suite of a method can fit the budgets, and the method is refused with the bound.
//!
//! # The bound
//!
//! For `L ≥ 0` let `Tr_L` be the traces of `S` of at most `L` labels with no quiescence in
//! them (`S` is deterministic, so a trace is a path from the initial state). Then
//!
//! - `waits ≥ W_L = |{σ ∈ Tr_L : δ ∈ out(S after σ)}|`, and
//! - `steps ≥ X_L = Σ_{σ ∈ Tr_L} |out(S after σ)|` (`out` with quiescence),
//!
//! for the suites below with `L` as given:
//!
//! - `ioco-counting` with any family (and `U(S, n)`, its family empty) and `T(S, n)`:
//!   `L = n − 1`;
//! - `ioco-cover-counting`: `L = min_k (n − p_k) − 1` over its constraints `k` (the sets of its
//!   family and the singletons of states in none of them), `p_k` the states of constraint `k`
//!   the cover surely pins (`g` of [`super::counting`]); no bound when this is negative.
//!
//! *Proof.* (1) Every `σ ∈ Tr_L` is a bounded trace of the suite. A trace of `L` labels has
//! `L + 1` prefixes, so every constraint counts at most `L + 1` visits (or new visits) of it. In
//! `ioco-counting` every constraint allows `n` visits (Def. 2.41: `Σ_{s∈A} v_s(σ) ≤ n`), and
//! `L + 1 = n`; in `T(S, n)`, `P(S, n)` holds every trace of at most `n − 1` labels; in
//! `ioco-cover-counting` constraint `k` allows `n − p_k` new visits and `L + 1 ≤ n − p_k`. The
//! quiescence domain changes only what follows a quiescence (the classic domain's rules in
//! [`super::domain`] end or shorten traces at a quiescence), and `σ` has none. (2) Every bounded
//! trace `σ` is followed in the suite by the observation of every `x ∈ out(S after σ)`
//! (item 1 of [`super::counting`]; the traces of `P+(S, n)` in `T(S, n)`), so the trace `σx` is
//! a prefix of some path of some test, ending at an observation of `x`. (3) Distinct traces `σx`
//! end at distinct positions of the suite's paths (a position determines the trace before it),
//! and each such position is a step, a wait when `x = δ`; leaving out repeated tests keeps one
//! copy of each path. So the suite as written, and its plan, have at least `X_L` steps and `W_L`
//! waits, and an estimated time of at least `W_L · quiescence_ms + X_L · step_ms`.
//!
//! The counts are a dynamic programme over (length, state): `O(L · |transitions|)` time and
//! `O(|states|)` memory, in saturating `u128`. The unit tests check the bound against the
//! counted figures of the planned suites of random automata and the bundled models.

use super::access::reachable_states;
use super::counting::{IncompatibleSets, PinningCover, incompatible_family_of};
use super::error::IocoSuiteError;
use super::method::IocoMethod;
use super::pairs::compatibility;
use crate::model::SuspensionAutomaton;
use crate::suite::costs::{Budget, CostRefusal, Figure, SuiteCosts, thousands};

/// A lower bound on the figures of a method's suite.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct LowerBound {
    /// The longest quiescence-free traces counted (`L` of the module doc).
    pub length: usize,
    /// The traces counted (`|Tr_L|`).
    pub traces: u128,
    /// At least this many waits.
    pub waits: u128,
    /// At least this many steps.
    pub steps: u128,
}

impl LowerBound {
    /// The estimated time of the bound at the budget's timing, in milliseconds.
    pub fn millis(&self, budget: &Budget) -> u128 {
        let t = &budget.timing;
        self.waits
            .saturating_mul(u128::from(t.quiescence_ms))
            .saturating_add(self.steps.saturating_mul(u128::from(t.step_ms)))
    }

    /// The bound as the figures of a suite: more steps and waits than one less than counted,
    /// the others unknown.
    fn as_costs(&self) -> SuiteCosts {
        SuiteCosts {
            tests: Figure::Unknown,
            runs: Figure::Unknown,
            steps: Figure::MoreThan(self.steps.saturating_sub(1)),
            waits: Figure::MoreThan(self.waits.saturating_sub(1)),
            nodes: Figure::Unknown,
            longest: Figure::Unknown,
            bytes: Figure::Unknown,
        }
    }

    /// Refuses the suite named `suite` when the bound exceeds a budget, as a refusal of its
    /// figures that says they are a lower bound counted before planning.
    pub fn check(
        &self,
        budget: &Budget,
        suite: &str,
        advice: &str,
    ) -> Result<(), Box<CostRefusal>> {
        self.as_costs().check(
            budget,
            &format!(
                "{suite} (by a lower bound counted before planning: its {} traces of at most {} \
                 labels without quiescence are each followed by an observation, {} waits and {} \
                 steps)",
                thousands(self.traces),
                self.length,
                thousands(self.waits),
                thousands(self.steps)
            ),
            advice,
        )
    }

    /// Why the bound refuses the suite under `budget`, if it does: the figures over their
    /// limits, with the bound's reason.
    pub fn refusal(&self, budget: &Budget) -> Option<String> {
        let mut over = Vec::new();
        if self.steps > budget.max_steps {
            over.push(format!(
                "at least {} total steps, over {} (--max-steps)",
                thousands(self.steps),
                thousands(budget.max_steps)
            ));
        }
        let millis = self.millis(budget);
        if millis > budget.max_seconds.saturating_mul(1000) {
            over.push(format!(
                "at least {} estimated seconds, over {} (--max-seconds)",
                thousands(millis / 1000),
                thousands(budget.max_seconds)
            ));
        }
        (!over.is_empty()).then(|| {
            format!(
                "{}: a lower bound counted before planning (its {} traces of at most {} labels \
                 without quiescence are each followed by an observation: {} waits, {} steps)",
                over.join(", "),
                thousands(self.traces),
                self.length,
                thousands(self.waits),
                thousands(self.steps)
            )
        })
    }
}

/// `W_L` and `X_L` of the module doc.
pub fn quiescence_free_traces(sa: &SuspensionAutomaton, length: usize) -> LowerBound {
    let delta = sa.quiescence();
    let mut at = vec![0u128; sa.num_states()];
    at[sa.initial().index()] = 1;
    let (mut traces, mut waits, mut steps) = (0u128, 0u128, 0u128);
    for l in 0..=length {
        let mut next = vec![0u128; sa.num_states()];
        let mut any = false;
        for q in sa.states() {
            let count = at[q.index()];
            if count == 0 {
                continue;
            }
            traces = traces.saturating_add(count);
            for &(label, t) in sa.enabled(q) {
                if sa.alphabet.is_output(label) {
                    steps = steps.saturating_add(count);
                    if label == delta {
                        waits = waits.saturating_add(count);
                        continue;
                    }
                }
                if l < length {
                    next[t.index()] = next[t.index()].saturating_add(count);
                    any = true;
                }
            }
        }
        at = next;
        if !any {
            break;
        }
    }
    LowerBound {
        length,
        traces,
        waits,
        steps,
    }
}

/// Whether [`lower_bound`] covers `method`: the suites built from bounded traces (not
/// `ioco-ads`, whose traces end after the state cover and `n − |S| + 1` labels, nor `ioco-auto`).
pub fn is_bounded(method: IocoMethod) -> bool {
    match method {
        IocoMethod::Complete
        | IocoMethod::Unconditional
        | IocoMethod::Counting(_)
        | IocoMethod::CoverCounting(_) => true,
        IocoMethod::Ads | IocoMethod::Auto => false,
    }
}

/// The lower bound of `method`'s suite for bound `n` (see the module doc); `None` for methods
/// it does not cover ([`is_bounded`]) or when its `L` is negative.
pub fn lower_bound(
    sa: &SuspensionAutomaton,
    method: IocoMethod,
    n: usize,
) -> Result<Option<LowerBound>, IocoSuiteError> {
    let length = match method {
        _ if !is_bounded(method) => None,
        IocoMethod::CoverCounting(choice) => cover_counting_length(sa, n, choice)?,
        _ => n.checked_sub(1),
    };
    Ok(length.map(|l| quiescence_free_traces(sa, l)))
}

/// A lower bound of `method`'s suite that needs no pair analysis (milliseconds where
/// [`lower_bound`] may take the compatibility relation, the distinguishing graphs and a clique
/// search): the same for all methods but `ioco-cover-counting`, whose `L` it takes as
/// `n − g(R) − 1`, `R` all reachable states (`g` of [`super::counting`]). No constraint pins
/// more than all states do (`g` grows with the set), so this `L` is at most the one of the
/// module doc, and
/// `Tr_L` and its counts only grow with `L`: a lower bound of the lower bound.
pub fn cheap_lower_bound(
    sa: &SuspensionAutomaton,
    method: IocoMethod,
    n: usize,
) -> Option<LowerBound> {
    let length = match method {
        _ if !is_bounded(method) => None,
        IocoMethod::CoverCounting(_) => {
            let mut member = vec![false; sa.num_states()];
            for s in reachable_states(sa) {
                member[s.index()] = true;
            }
            let pins = PinningCover::compute(sa).guaranteed(sa, &member);
            n.checked_sub(pins).and_then(|m| m.checked_sub(1))
        }
        _ => n.checked_sub(1),
    };
    length.map(|l| quiescence_free_traces(sa, l))
}

/// `L` of `ioco-cover-counting`: the fewest new visits any constraint allows, less one.
fn cover_counting_length(
    sa: &SuspensionAutomaton,
    n: usize,
    choice: IncompatibleSets,
) -> Result<Option<usize>, IocoSuiteError> {
    let reachable = reachable_states(sa);
    let family = if choice == IncompatibleSets::None {
        Vec::new()
    } else {
        let compat = compatibility(sa)?;
        incompatible_family_of(&reachable, |p, q| compat.compatible(p, q), choice)?
    };
    let cover = PinningCover::compute(sa);
    let mut in_a_set = vec![false; sa.num_states()];
    let mut most_pinned = 0usize;
    for set in &family {
        let mut member = vec![false; sa.num_states()];
        for s in set {
            member[s.index()] = true;
            in_a_set[s.index()] = true;
        }
        most_pinned = most_pinned.max(cover.guaranteed(sa, &member));
    }
    // The singletons of states in no set pin one state each when the cover surely reaches them.
    for s in reachable.iter().filter(|s| !in_a_set[s.index()]) {
        let mut member = vec![false; sa.num_states()];
        member[s.index()] = true;
        most_pinned = most_pinned.max(cover.guaranteed(sa, &member));
        if most_pinned >= 1 {
            break;
        }
    }
    Ok(n.checked_sub(most_pinned).and_then(|m| m.checked_sub(1)))
}

#[cfg(test)]
mod tests {
    use super::super::auto::CANDIDATES;
    use super::super::testkit::{Rng, bundled_model, classic_sa, random_sa};
    use super::super::{Bound, Domain, SuiteOptions, generate_with};
    use super::*;
    use crate::identify::random::random_suspension;
    use crate::suite::costs::Figure;

    /// The candidates of `ioco-auto` the bound covers.
    fn bounded() -> impl Iterator<Item = IocoMethod> {
        CANDIDATES.iter().copied().filter(|&m| is_bounded(m))
    }

    /// Checks the bound of every method against the figures of its suite as written, in both
    /// domains, for every `n` up to `|S| + 1` whose suite is small enough to build; returns how
    /// many suites were compared.
    fn check(sa: &SuspensionAutomaton) -> usize {
        let small = Budget {
            max_tests: 3_000,
            max_plan_nodes: 30_000,
            max_seconds: u128::MAX / 1000,
            ..Budget::default()
        };
        let states = reachable_states(sa).len();
        let mut compared = 0;
        for (domain, spec) in [
            (Domain::General, sa.clone()),
            (Domain::Classic, classic_sa(sa)),
        ] {
            let options = SuiteOptions {
                domain,
                minimised_from: None,
            };
            for n in 1..=states + 1 {
                for method in bounded() {
                    let Some(bound) = lower_bound(&spec, method, n).unwrap() else {
                        continue;
                    };
                    if let Some(cheap) = cheap_lower_bound(&spec, method, n) {
                        assert!(cheap.waits <= bound.waits && cheap.steps <= bound.steps);
                    }
                    let Ok(suite) = generate_with(&spec, method, Bound::States(n), small, options)
                    else {
                        continue;
                    };
                    let c = suite.costs();
                    let what = format!(
                        "{} {} {domain:?} n = {n}: {bound:?}",
                        sa.name,
                        method.name()
                    );
                    let (Figure::Exact(waits), Figure::Exact(steps)) = (c.waits, c.steps) else {
                        panic!("{what}: {c:?}");
                    };
                    assert!(bound.waits <= waits, "{what}: {waits} waits");
                    assert!(bound.steps <= steps, "{what}: {steps} steps");
                    compared += 1;
                }
            }
        }
        compared
    }

    #[test]
    fn the_bound_never_exceeds_the_suites_of_random_automata() {
        let mut compared = 0;
        let mut rng = Rng::new(43);
        for seed in 0..24u64 {
            let sa = if seed % 2 == 0 {
                random_suspension(seed, 3 + (seed as usize % 4), 2, 2)
            } else {
                random_sa(&mut rng, 3 + (seed as usize % 3), 2, 1)
            };
            compared += check(&sa);
        }
        assert!(compared >= 300, "only {compared} suites compared");
    }

    #[test]
    fn the_bound_never_exceeds_the_suites_of_the_bundled_models() {
        let mut compared = 0;
        for file in [
            "vending.aut",
            "atm_withdrawal.aut",
            "vdbos_fig2_1.aut",
            "vdbos_fig3_1.aut",
            "everest_s.aut",
            "coffeemachine.dot",
            "tea_machine.dot",
        ] {
            let (_, sa) = bundled_model(file);
            let sa = crate::model::minimize_suspension(&sa).unwrap();
            compared += check(&sa);
        }
        assert!(compared >= 40, "only {compared} suites compared");
    }

    /// A 30-state random automaton (the generator of the `ioco_costs` bench) at n = |S| with
    /// the default budgets: every candidate of `ioco-auto` but `ioco-ads` is refused by its
    /// bound, none planned (planning them took minutes and 1.2 GB); the refusal states the
    /// bound.
    #[test]
    fn a_thirty_state_automaton_is_refused_by_the_bounds_without_planning() {
        let sa = random_suspension(1030, 30, 2, 2);
        let n = reachable_states(&sa).len();
        let e = super::super::auto::choose(&sa, Bound::States(n), Budget::default()).unwrap_err();
        let IocoSuiteError::NoCandidate { reasons, .. } = &e else {
            panic!("{e}");
        };
        let by_bound = reasons
            .iter()
            .filter(|r| r.contains("a lower bound counted before planning"))
            .count();
        assert_eq!(by_bound, bounded().count(), "{e}");
        assert!(e.to_string().contains("(--max-seconds)"), "{e}");
    }
}
