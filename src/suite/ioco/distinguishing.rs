//! The distinguishing test suite `T(S, n)` (van den Bos Def. 2.37, Theorem 2.40):
//! `{(σ, τ) | σ ∈ P+(S, n), τ ∈ DE(S, S after σ)}` with
//! `DE(S, q) = W(q) ∪ {T(q ∧ q', n) | q ◇ q', q ≉ q'}`.
//!
//! Since `P+(S, n)` is *all* traces of length at most `n`, the tests after `σ` depend only on
//! the state `S after σ` and on `|σ|`, so the plan has one node per (state, length) and the
//! suite is enumerated from it without storing `P+`.
//!
//! The suites of merges are built recursively on the conjunction of the merged specification
//! states ([`super::conjunction`]) and memoised up to isomorphism whatever the root: the plan
//! has a node per (state, length) for every state of a merge, so a merge reached at another of
//! its states is entered at that state's node instead of being built again. `DE(S, q)` is a set:
//! an experiment shared by several partners is entered once. When the recursion would
//! return to a merge it is still building (so Def. 2.37 would define an infinite suite, Sec.
//! 2.7.6), that merge is tested with its unconditional suite `U(q ∧ q', n)` instead, which is
//! `n`-complete as well (Cor. 2.44); the suite records this in its guarantee and notes.

use super::access::reachable_states;
use super::bounded_traces::TraceCap;
use super::conjunction::{Conjunction, conjunction, names, unrooted_form};
use super::error::IocoSuiteError;
use super::pairs::PairAnalysis;
use super::plan::{Plan, Target, traces_then_experiments};
use super::unconditional::unconditional_plan;
use crate::model::{StateId, SuspensionAutomaton};
use crate::suite::costs::Budget;
use std::collections::{BTreeSet, HashMap};

/// Builds `T(S, n)` plans.
pub(crate) struct CompleteBuilder<'a> {
    spec: &'a SuspensionAutomaton,
    n: usize,
    budget: Budget,
    /// Per automaton up to isomorphism whatever the root: the suite's node for every state
    /// (by the state's number in the unrooted form), so one merge reached at several of its
    /// states is built once and entered at the node of each root.
    memo: HashMap<Vec<u32>, Vec<Target>>,
    /// `U(merge, n)` per unrooted form and root number.
    fallback_memo: HashMap<(Vec<u32>, u32), Target>,
    stack: Vec<Vec<u32>>,
    merge_states: usize,
    /// Merges tested with `U` because their recursion does not terminate, by name.
    pub(crate) fallbacks: BTreeSet<String>,
    /// Number of distinct merges (up to isomorphism) with their own suite.
    pub(crate) merges: usize,
}

impl<'a> CompleteBuilder<'a> {
    pub(crate) fn new(spec: &'a SuspensionAutomaton, n: usize, budget: Budget) -> Self {
        CompleteBuilder {
            spec,
            n,
            budget,
            memo: HashMap::new(),
            fallback_memo: HashMap::new(),
            stack: Vec::new(),
            merge_states: 0,
            fallbacks: BTreeSet::new(),
            merges: 0,
        }
    }

    /// The plan of `T(S, n)` for the specification.
    pub(crate) fn build(&mut self, plan: &mut Plan) -> Result<Target, IocoSuiteError> {
        let members: Vec<Vec<StateId>> = self.spec.states().map(|q| vec![q]).collect();
        let spec = self.spec;
        self.suite(plan, spec, &members)
    }

    fn suite(
        &mut self,
        plan: &mut Plan,
        a: &SuspensionAutomaton,
        members: &[Vec<StateId>],
    ) -> Result<Target, IocoSuiteError> {
        let form = unrooted_form(a);
        let root_number = form.number[a.initial().index()] as usize;
        if let Some(roots) = self.memo.get(&form.code) {
            return Ok(roots[root_number]);
        }
        let key = form.code;
        self.stack.push(key.clone());
        let mut analysis = PairAnalysis::compute(a)?;
        let reachable = reachable_states(a);
        // Distinguishing experiments per state (harmonised: one graph or merge suite per pair).
        let mut experiments: HashMap<StateId, Vec<Target>> = HashMap::new();
        let mut nested: HashMap<(StateId, StateId), Option<Target>> = HashMap::new();
        for &q in &reachable {
            let mut de = Vec::new();
            for &r in reachable.iter().filter(|&&r| r != q) {
                let t = if !analysis.compatible(q, r) {
                    Some(analysis.graph(plan, q, r))
                } else if !analysis.equivalent(q, r) {
                    let pair = (q.min(r), q.max(r));
                    match nested.get(&pair) {
                        Some(&t) => t,
                        None => {
                            let mut set = members[q.index()].clone();
                            set.extend(&members[r.index()]);
                            let t = self.merge_suite(plan, &set)?;
                            nested.insert(pair, t);
                            t
                        }
                    }
                } else {
                    None
                };
                // DE(S, q) is a set: an experiment shared by several partners counts once.
                if let Some(Target::Node(id)) = t
                    && !de.contains(&Target::Node(id))
                {
                    de.push(Target::Node(id));
                }
            }
            experiments.insert(q, de);
        }
        // P+(A, n) followed by the experiments: node (q, d) for traces of length d reaching q.
        let n = self.n;
        let level = traces_then_experiments(plan, a, &reachable, n, &experiments);
        let root = level[&a.initial()];
        let mut roots = vec![Target::Verdict(crate::suite::Verdict::Pass); reachable.len()];
        for &q in &reachable {
            roots[form.number[q.index()] as usize] = level[&q];
        }
        self.stack.pop();
        self.memo.insert(key, roots);
        if plan.len() > self.budget.max_plan_nodes {
            return Err(IocoSuiteError::Budget {
                what: format!("T(S, {n}) needs {} plan nodes, which", plan.len()),
                budget: self.budget.max_plan_nodes as u128,
                advice: "try a smaller n".into(),
            });
        }
        Ok(root)
    }

    /// The suite of the merge of a set of specification states (`None` if it is not valid).
    pub(crate) fn merge_suite(
        &mut self,
        plan: &mut Plan,
        set: &[StateId],
    ) -> Result<Option<Target>, IocoSuiteError> {
        let budget = self
            .budget
            .max_plan_nodes
            .saturating_sub(self.merge_states)
            .max(1);
        let Some(Conjunction { sa, members }) = conjunction(self.spec, set, budget)? else {
            return Ok(None);
        };
        self.merge_states += sa.num_states();
        let form = unrooted_form(&sa);
        let root_number = form.number[sa.initial().index()];
        if let Some(roots) = self.memo.get(&form.code) {
            return Ok(Some(roots[root_number as usize]));
        }
        let key = (form.code, root_number);
        if self.stack.contains(&key.0) {
            if let Some(&t) = self.fallback_memo.get(&key) {
                return Ok(Some(t));
            }
            let mut sorted = set.to_vec();
            sorted.sort_unstable();
            sorted.dedup();
            self.fallbacks.insert(names(self.spec, &sorted));
            let t = unconditional_plan(
                plan,
                &sa,
                sa.initial(),
                self.n,
                self.budget.max_plan_nodes,
                TraceCap::default(),
            )?;
            self.fallback_memo.insert(key, t);
            return Ok(Some(t));
        }
        self.merges += 1;
        Ok(Some(self.suite(plan, &sa, &members)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_merge_entered_at_two_of_its_states_is_built_once() {
        // 0 ◇ 2 and 1 ◇ 3 (they differ in inputs only); the merge {0,2} --x--> {1,3} --x--> {0,2}
        // is the merge of {1,3} rooted at its other state: one suite, entered at two nodes.
        let spec = crate::model::suspension_from_marked(
            "cycles",
            4,
            &[
                (0, "!x", 1),
                (1, "!x", 0),
                (0, "!y", 2),
                (2, "!x", 3),
                (3, "!x", 2),
                (0, "?a", 0),
                (1, "?a", 1),
                (2, "?b", 2),
                (3, "?b", 3),
            ],
        )
        .unwrap();
        let mut builder = CompleteBuilder::new(&spec, 1, Budget::default());
        let mut plan = Plan::default();
        builder.build(&mut plan).unwrap();
        let m02 = builder.merge_suite(&mut plan, &[StateId(0), StateId(2)]);
        let m13 = builder.merge_suite(&mut plan, &[StateId(1), StateId(3)]);
        let (Ok(Some(a)), Ok(Some(b))) = (m02, m13) else {
            panic!("both merges exist")
        };
        assert_ne!(a, b, "entered at different states");
        let merges = builder.merges;
        assert!(
            builder
                .memo
                .values()
                .any(|roots| roots.contains(&a) && roots.contains(&b)),
            "one suite holds both roots"
        );
        // Asking again builds nothing.
        builder
            .merge_suite(&mut plan, &[StateId(3), StateId(1)])
            .unwrap();
        assert_eq!(builder.merges, merges);
    }
}
