//! `ioco-ads`: a practical ioco suite in the style of FSM methods (van den Bos Sec. 2.3 and the
//! related work of Ch. 2; Ch. 3 Sec. 3.8): a state cover, every trace of up to `E+1` labels after
//! it, and then the experiments identifying the state reached — the adaptive distinguishing graph
//! of the whole automaton plus top-up graphs for the incompatible pairs it leaves undistinguished
//! (pairwise distinguishing graphs if no adaptive graph can be built), and for compatible,
//! inequivalent pairs the `ioco-ads` suite of their merge, recursively (merges whose suites would
//! recurse without end are left out and listed in the notes).
//!
//! The state cover takes, per state, the shortest access sequence whose outputs are *forced*
//! (each output is the only one the specification allows at that point), falling back to the
//! shortest access sequence. Such a state is *certainly reachable*: an implementation that passes
//! executes the sequence, since any other output fails.
//!
//! **When it is n-complete** (`n = |S| + E`, `|S|` the reachable states). If every reachable state
//! is certainly reachable and no two distinct reachable states are compatible, then an
//! implementation with at most `n` specified states that passes conforms:
//! 1. the `|S|` access sequences reach pairwise distinct implementation states (two of them would
//!    run the same experiments — the identification is harmonised: the ADG everywhere, a top-up
//!    in both states of its pair — from one state, and by fairness the same run, which is a
//!    counterexample for one of the two contexts);
//! 2. likewise, every implementation state reached by cover·L^≤(E+1) is reached in the context of
//!    one specification state only;
//! 3. the states reached by cover·L^≤d grow with `d` until closed under specified transitions,
//!    so by `d ≤ E` they are all specified states, and every transition out of them has been
//!    followed and its target identified; every state's outputs have been observed;
//! 4. pairing every reached implementation state with its unique specification state is then a
//!    coinductive ioco relation (Def. 2.4).
//!
//! When the condition fails the suite is still sound, and complete for implementations with at
//! most `n` specified states that execute every access sequence of the cover and in which no
//! state is reached in the contexts of two different specification states; the guarantee names
//! the states that break the condition.

use super::access::reachable_states;
use super::conjunction::{Conjunction, conjunction, names, unrooted_form};
use super::error::IocoSuiteError;
use super::pairs::PairAnalysis;
use super::plan::{Move, Plan, Target, traces_then_experiments};
use crate::model::{LabelId, StateId, SuspensionAutomaton};
use crate::suite::Verdict;
use crate::suite::costs::Budget;
use std::collections::{BTreeSet, HashMap, VecDeque};

/// Whether the completeness condition of `ioco-ads` (module doc) can hold for `sa`, decided
/// without building the suite: every reachable state certainly reachable and no two distinct
/// reachable states compatible. The suite's own check (`Condition`) looks at the same two
/// things of the same automaton.
pub(crate) fn condition_may_hold(sa: &SuspensionAutomaton) -> Result<bool, IocoSuiteError> {
    let reachable = reachable_states(sa);
    let cover = certain_state_cover(sa);
    if reachable.iter().any(|q| {
        cover[q.index()]
            .as_ref()
            .is_some_and(|(_, certain)| !certain)
    }) {
        return Ok(false);
    }
    let compat = super::pairs::compatibility(sa)?;
    Ok(!reachable
        .iter()
        .enumerate()
        .any(|(i, &p)| reachable[i + 1..].iter().any(|&q| compat.compatible(p, q))))
}

/// The state cover of `ioco-ads`: per state, the shortest access sequence with forced outputs if
/// there is one (`true`), else the shortest access sequence (`false`); `None` if unreachable.
pub fn certain_state_cover(sa: &SuspensionAutomaton) -> Vec<Option<(Vec<LabelId>, bool)>> {
    let forced =
        |q: StateId, l: LabelId| sa.alphabet.is_input(l) || sa.outputs_enabled(q).count() == 1;
    let mut cover: Vec<Option<(Vec<LabelId>, bool)>> = vec![None; sa.num_states()];
    cover[sa.initial().index()] = Some((Vec::new(), true));
    // First the forced edges only, then all edges from everything found so far.
    for pass_forced in [true, false] {
        let mut queue: VecDeque<StateId> =
            sa.states().filter(|q| cover[q.index()].is_some()).collect();
        if !pass_forced {
            // Breadth-first by access length so that fallback sequences stay shortest.
            let mut v: Vec<StateId> = queue.into_iter().collect();
            v.sort_by_key(|q| cover[q.index()].as_ref().map_or(0, |c| c.0.len()));
            queue = v.into();
        }
        while let Some(q) = queue.pop_front() {
            for &(l, t) in sa.enabled(q) {
                if cover[t.index()].is_some() || (pass_forced && !forced(q, l)) {
                    continue;
                }
                let (mut seq, certain) = cover[q.index()].clone().expect("visited");
                seq.push(l);
                cover[t.index()] = Some((seq, certain && pass_forced));
                queue.push_back(t);
            }
        }
    }
    cover
}

/// Builds `ioco-ads` plans, recursively for the merges of compatible pairs.
struct AdsBuilder<'a> {
    spec: &'a SuspensionAutomaton,
    /// Labels after the access sequence (E + 1).
    k: usize,
    budget: Budget,
    /// Per automaton up to isomorphism whatever the root: the extension-and-experiments node of
    /// every state (by its number in the unrooted form), built once and shared by all roots.
    levels: HashMap<Vec<u32>, Vec<Target>>,
    /// The suite per unrooted form and root number (its state cover depends on the root).
    memo: HashMap<(Vec<u32>, u32), Target>,
    stack: Vec<Vec<u32>>,
    merge_states: usize,
    /// Merges left out because their suites would recurse without end.
    skipped: BTreeSet<String>,
    merges: usize,
    /// Some automaton had no adaptive distinguishing graph; pairwise graphs were used.
    pairwise_fallback: bool,
}

/// What the top-level suite learns about the completeness condition.
struct Condition {
    uncertain: Vec<StateId>,
    compatible_pairs: Vec<(StateId, StateId)>,
}

impl AdsBuilder<'_> {
    fn suite(
        &mut self,
        plan: &mut Plan,
        a: &SuspensionAutomaton,
        members: &[Vec<StateId>],
    ) -> Result<(Target, Condition), IocoSuiteError> {
        let form = unrooted_form(a);
        let key = form.code;
        let reachable = reachable_states(a);
        let cover = certain_state_cover(a);
        let mut compatible_pairs = Vec::new();
        let level_of: Vec<Target> = match self.levels.get(&key) {
            Some(levels) => reachable
                .iter()
                .map(|q| levels[form.number[q.index()] as usize])
                .collect(),
            None => {
                self.stack.push(key.clone());
                let level = self.levels_of(plan, a, members, &reachable, &mut compatible_pairs)?;
                self.stack.pop();
                let mut levels = vec![Target::Verdict(Verdict::Pass); reachable.len()];
                for (&q, &t) in reachable.iter().zip(&level) {
                    levels[form.number[q.index()] as usize] = t;
                }
                self.levels.insert(key.clone(), levels);
                level
            }
        };
        let level: HashMap<StateId, Target> = reachable.iter().copied().zip(level_of).collect();
        // Access sequences: a chain per state; an allowed output other than the intended one is
        // `retry` (Sec. 2.7.4), a disallowed one `fail`.
        let mut roots = Vec::new();
        let mut uncertain = Vec::new();
        for &q in &reachable {
            let (seq, certain) = cover[q.index()].clone().expect("reachable");
            if !certain {
                uncertain.push(q);
            }
            let mut next = level[&q];
            for &l in seq.iter().rev() {
                let moves = if a.alphabet.is_input(l) {
                    vec![Move::Send {
                        input: l,
                        then: next,
                    }]
                } else {
                    vec![Move::Observe {
                        branches: vec![(l, next)],
                        otherwise: Verdict::Retry,
                    }]
                };
                next = Target::Node(plan.push(moves));
            }
            if let Target::Node(id) = next {
                roots.push(Move::Enter(id));
            }
        }
        let root = Target::Node(plan.push(roots));
        self.memo
            .insert((key, form.number[a.initial().index()]), root);
        if plan.len() > self.budget.max_plan_nodes {
            return Err(IocoSuiteError::Budget {
                what: format!("ioco-ads needs {} plan nodes, which", plan.len()),
                budget: self.budget.max_plan_nodes as u128,
                advice: "try fewer extra states".into(),
            });
        }
        Ok((
            root,
            Condition {
                uncertain,
                compatible_pairs,
            },
        ))
    }

    /// The extension of up to `k` labels followed by the experiments, per reachable state of
    /// `a` (in the order of `reachable`); collects the compatible pairs.
    fn levels_of(
        &mut self,
        plan: &mut Plan,
        a: &SuspensionAutomaton,
        members: &[Vec<StateId>],
        reachable: &[StateId],
        compatible_pairs: &mut Vec<(StateId, StateId)>,
    ) -> Result<Vec<Target>, IocoSuiteError> {
        let k = self.k;
        let mut analysis = PairAnalysis::compute(a)?;
        let adaptive = analysis.adaptive(a, plan);
        if adaptive.is_none() {
            self.pairwise_fallback = true;
        }
        let mut experiments: HashMap<StateId, Vec<Target>> = HashMap::new();
        let mut nested: HashMap<(StateId, StateId), Option<Target>> = HashMap::new();
        for &q in reachable {
            let mut de = match &adaptive {
                Some(per_state) => per_state[q.index()].clone(),
                None => Vec::new(),
            };
            for &r in reachable.iter().filter(|&&r| r != q) {
                if !analysis.compatible(q, r) {
                    if adaptive.is_none() {
                        let g = analysis.graph(plan, q, r);
                        if !de.contains(&g) {
                            de.push(g);
                        }
                    }
                    continue;
                }
                if q < r {
                    compatible_pairs.push((q, r));
                }
                if analysis.equivalent(q, r) {
                    continue;
                }
                let pair = (q.min(r), q.max(r));
                let t = match nested.get(&pair) {
                    Some(&t) => t,
                    None => {
                        let mut set = members[q.index()].clone();
                        set.extend(&members[r.index()]);
                        let t = self.merge_suite(plan, &set)?;
                        nested.insert(pair, t);
                        t
                    }
                };
                // DE is a set: a merge suite shared by several partners is entered once.
                if let Some(t) = t
                    && !de.contains(&t)
                {
                    de.push(t);
                }
            }
            experiments.insert(q, de);
        }
        // Extension: every trace of up to k labels after the access sequence, then the experiments.
        // It takes one plan node per reachable state and level: refused before it is built when
        // that exceeds the budget.
        let extension = k
            .checked_add(1)
            .and_then(|levels| levels.checked_mul(reachable.len()))
            .and_then(|nodes| nodes.checked_add(plan.len()));
        match extension {
            Some(total) if total <= self.budget.max_plan_nodes => {}
            _ => {
                return Err(IocoSuiteError::Budget {
                    what: format!(
                        "ioco-ads needs {} plan nodes for traces of up to {k} labels from {} states, which",
                        extension.map_or_else(|| "more than 2^64".to_owned(), |t| t.to_string()),
                        reachable.len()
                    ),
                    budget: self.budget.max_plan_nodes as u128,
                    advice: "try fewer extra states".into(),
                });
            }
        }
        let level = traces_then_experiments(plan, a, reachable, k, &experiments);
        Ok(reachable.iter().map(|q| level[q]).collect())
    }

    /// The `ioco-ads` suite of the merge of a set of specification states.
    fn merge_suite(
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
        let key = (form.code, form.number[sa.initial().index()]);
        if let Some(&t) = self.memo.get(&key) {
            return Ok(Some(t));
        }
        if self.stack.contains(&key.0) {
            let mut sorted = set.to_vec();
            sorted.sort_unstable();
            sorted.dedup();
            self.skipped.insert(names(self.spec, &sorted));
            return Ok(None);
        }
        self.merges += 1;
        Ok(Some(self.suite(plan, &sa, &members)?.0))
    }
}

/// Adds the `ioco-ads` plan for bound `n`; returns its root and the guarantee.
pub(crate) fn plan(
    sa: &SuspensionAutomaton,
    n: usize,
    budget: Budget,
    plan: &mut Plan,
    notes: &mut Vec<String>,
) -> Result<(Target, String), IocoSuiteError> {
    let size = reachable_states(sa).len();
    let k = n.saturating_sub(size) + 1;
    let mut builder = AdsBuilder {
        spec: sa,
        k,
        budget,
        levels: HashMap::new(),
        memo: HashMap::new(),
        stack: Vec::new(),
        merge_states: 0,
        skipped: BTreeSet::new(),
        merges: 0,
        pairwise_fallback: false,
    };
    let members: Vec<Vec<StateId>> = sa.states().map(|q| vec![q]).collect();
    let (
        root,
        Condition {
            uncertain,
            compatible_pairs,
        },
    ) = builder.suite(plan, sa, &members)?;
    if builder.merges > 0 {
        notes.push(format!(
            "{} merges of compatible, inequivalent states are tested with their own ioco-ads \
             suites (same extension)",
            builder.merges
        ));
    }
    if builder.pairwise_fallback {
        notes.push(
            "no adaptive distinguishing graph could be built for some automaton; its states are \
             identified by pairwise distinguishing graphs"
                .into(),
        );
    }
    if !builder.skipped.is_empty() {
        notes.push(format!(
            "the merges {} are not tested: their suites would recurse without end",
            builder
                .skipped
                .iter()
                .cloned()
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let name_list = |qs: &[StateId]| {
        qs.iter()
            .map(|&q| sa.state_name(q))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let guarantee = if uncertain.is_empty() && compatible_pairs.is_empty() {
        format!(
            "complete for every implementation with at most {n} specified states: every \
             state is certainly reachable and no two states are compatible"
        )
    } else {
        let mut why = Vec::new();
        if !uncertain.is_empty() {
            why.push(format!(
                "states {} are not certainly reachable (their access sequences pass optional outputs)",
                name_list(&uncertain)
            ));
        }
        if !compatible_pairs.is_empty() {
            let pairs: Vec<String> = compatible_pairs
                .iter()
                .map(|&(q, r)| format!("{{{}, {}}}", sa.state_name(q), sa.state_name(r)))
                .collect();
            why.push(format!("states {} are compatible", pairs.join(", ")));
        }
        let text = format!(
            "not {n}-complete: {}; it detects every non-conforming implementation with at most \
             {n} specified states that executes every access sequence of the state cover and \
             reaches no state in the contexts of two different specification states; use \
             --method ioco-complete for {n}-completeness",
            why.join("; ")
        );
        notes.push(text.clone());
        text
    };
    notes.push(format!(
        "state cover of {size} states, extended by up to {k} labels"
    ));
    Ok((root, guarantee))
}
