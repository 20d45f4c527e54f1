//! Traces bounded by visit sums per constraint, each followed by an observation and the
//! distinguishing graphs of its state: the common core of `U(S, n)` (van den Bos Def. 2.43,
//! one singleton constraint per state, no graphs) and of `ioco-counting` (see
//! [`super::counting`]), planned as nodes shared between traces with equal sums.

use super::error::IocoSuiteError;
use super::plan::{Move, Plan, PlanId, Target};
use super::weakening::rule_3_everywhere;
use crate::model::{LabelId, StateId, SuspensionAutomaton};
use crate::suite::Verdict;
use crate::suite::costs::{Timing, thousands};
use std::collections::HashMap;

/// Most bytes of visit sums (with their map entries) while a plan is built.
const MAX_SUMS_BYTES: usize = 256 << 20;

/// Counting relative to the forced cover: the tree edges, and per constraint the new visits
/// allowed.
pub(crate) struct Cover<'a> {
    /// Per state, the tree edge into it.
    pub(crate) parent: &'a [Option<(StateId, LabelId)>],
    /// Per constraint, the most new visits of a bounded trace.
    pub(crate) limits: &'a [usize],
}

/// Traces bounded by visit sums per constraint (a set of states), each followed by the
/// observation of an output and by the graphs of the state it reaches; the traces one label past
/// the bound get only the graphs. The common core of `ioco-counting` and `U(S, n)` (one
/// singleton constraint per state, no graphs).
pub(crate) struct BoundedTraces<'a> {
    /// Per state, the constraints it counts towards.
    pub(crate) constraints_of: &'a [Vec<usize>],
    /// Number of constraints.
    pub(crate) constraints: usize,
    /// Per state, the experiments entered after a trace reaching it.
    pub(crate) graphs: &'a [Vec<PlanId>],
    /// Whether the traces one label past the bound run their graphs.
    pub(crate) graphs_at_cuts: bool,
    /// Most plan nodes for the traces.
    pub(crate) max_plan_nodes: usize,
    /// The suite's name in budget errors.
    pub(crate) suite: &'a str,
    /// What to do when the plan-node budget is exceeded.
    pub(crate) advice: &'a str,
    /// Count only the visits off the forced cover, each constraint up to its own limit
    /// (`ioco-cover-counting`); `None`: every visit, up to `n`.
    pub(crate) cover: Option<Cover<'a>>,
    /// `ioco-auto` only: where the plan stops because its suite cannot win or cannot fit.
    pub(crate) cap: TraceCap,
}

/// `ioco-auto` only: when a plan of bounded traces stops early, by lower bounds of its suite as
/// written (proof in `super::auto`): a trace node is a distinct trace executed by some test,
/// followed by a step into it (all nodes but the root), and, when it observes and its state
/// allows quiescence, by a wait of its own.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct TraceCap {
    /// More trace nodes than this and the suite cannot win ([`IocoSuiteError::CannotWin`]).
    pub(crate) nodes: Option<usize>,
    /// `--max-seconds` and the timing: once the steps and waits the trace nodes give come to
    /// more estimated time than that, the suite is over the budget ([`IocoSuiteError::Budget`]).
    pub(crate) seconds: Option<(u128, Timing)>,
}

impl BoundedTraces<'_> {
    /// Adds the plan of the traces of `a` from `start` bounded by `n` to `plan`.
    pub(crate) fn plan(
        &self,
        plan: &mut Plan,
        a: &SuspensionAutomaton,
        start: StateId,
        n: usize,
    ) -> Result<Target, IocoSuiteError> {
        let suite = self.suite;
        let bound = u8::try_from(n).map_err(|_| IocoSuiteError::Budget {
            what: format!("n = {n} for the {suite}"),
            budget: u8::MAX as u128,
            advice: "try a smaller n".into(),
        })?;
        let (constraints_of, graphs) = (self.constraints_of, self.graphs);
        let mut cut: Vec<Option<Target>> = vec![None; a.num_states()];
        let mut cut_node = |plan: &mut Plan, t: StateId| -> Target {
            *cut[t.index()].get_or_insert_with(|| {
                if graphs[t.index()].is_empty() || !self.graphs_at_cuts {
                    Target::Verdict(Verdict::Pass)
                } else {
                    let enter = graphs[t.index()].iter().map(|&g| Move::Enter(g));
                    Target::Node(plan.push(enter.collect()))
                }
            })
        };
        // The visit sums of the nodes stay within MAX_SUMS_BYTES, whatever the plan-node budget.
        let max_nodes = self
            .max_plan_nodes
            .min(MAX_SUMS_BYTES / (self.constraints + 64))
            .max(1);
        // In the classic domain a node reached by quiescence into a state where quiescence
        // loops is quiet: it does not observe (see `super::domain`), and it is a node of its own.
        let (delta, classic) = (a.quiescence(), plan.classic);
        let quiet_after = |l, t| classic && l == delta && a.after(t, delta) == Some(t);
        // A node: state, visit sums, quiet, and whether its trace is the state's access
        // sequence in the forced cover (then the visit is not new).
        type Key = (StateId, Vec<u8>, bool, bool);
        let mut memo: HashMap<Key, PlanId> = HashMap::new();
        let mut work: Vec<(PlanId, Key)> = Vec::new();
        let mut sums0 = vec![0u8; self.constraints];
        if self.cover.is_none() {
            for &k in &constraints_of[start.index()] {
                sums0[k] = 1;
            }
        }
        let limit = |k: usize| {
            self.cover
                .as_ref()
                .map_or(bound, |c| c.limits[k].min(u8::MAX as usize) as u8)
        };
        let root = plan.reserve();
        let key0 = (start, sums0, false, self.cover.is_some());
        memo.insert(key0.clone(), root);
        work.push((root, key0));
        // Nodes that observe where quiescence is allowed (each a wait of its own).
        let mut waits = usize::from(a.after(start, delta).is_some());
        while let Some((id, (q, sums, quiet, on_cover))) = work.pop() {
            let mut branches = Vec::new();
            let mut moves = Vec::new();
            for &(l, t) in a.enabled(q) {
                if quiet && a.alphabet.is_output(l) {
                    continue;
                }
                // Quiescence looping on `q` itself ends a classic trace: its observation is
                // the last step (see `super::domain`, rule 3).
                if classic && l == delta && (t == q || rule_3_everywhere()) {
                    branches.push((l, Target::Verdict(Verdict::Pass)));
                    continue;
                }
                let quiet_t = quiet_after(l, t);
                let on_cover_t = on_cover
                    && self
                        .cover
                        .as_ref()
                        .is_some_and(|c| c.parent[t.index()] == Some((q, l)));
                let mut next = sums.clone();
                let mut bounded = true;
                if !on_cover_t {
                    for &k in &constraints_of[t.index()] {
                        if next[k] >= limit(k) {
                            bounded = false;
                            break;
                        }
                        next[k] += 1;
                    }
                }
                let target = if !bounded {
                    cut_node(plan, t)
                } else if let Some(&c) = memo.get(&(t, next.clone(), quiet_t, on_cover_t)) {
                    Target::Node(c)
                } else {
                    if self.cap.nodes.is_some_and(|cap| memo.len() >= cap) {
                        return Err(IocoSuiteError::CannotWin {
                            trace_nodes: memo.len(),
                        });
                    }
                    let waits_t = !quiet_t && a.after(t, delta).is_some();
                    waits += usize::from(waits_t);
                    if let Some((max_seconds, timing)) = self.cap.seconds {
                        // The new node makes memo.len() + 1 nodes: a step into each but the
                        // root, and the waits counted.
                        let millis = (memo.len() as u128)
                            .saturating_mul(timing.step_ms.into())
                            .saturating_add(
                                (waits as u128).saturating_mul(timing.quiescence_ms.into()),
                            );
                        if millis > max_seconds.saturating_mul(1000) {
                            return Err(IocoSuiteError::Budget {
                                what: format!(
                                    "at least {} estimated seconds (--max-seconds; a lower \
                                     bound counted while planning the {suite} for n = {n}: a \
                                     step into each of its first {} bounded traces but the \
                                     empty one, a wait after each of the {} of them \
                                     observed where quiescence is allowed), which",
                                    thousands(millis / 1000),
                                    thousands(memo.len() as u128 + 1),
                                    thousands(waits as u128),
                                ),
                                budget: max_seconds,
                                advice: "raise --max-seconds or try a smaller n".into(),
                            });
                        }
                    }
                    let limit = if memo.len() >= max_nodes {
                        Some(max_nodes)
                    } else {
                        // Every plan alive at once counts (the suite and its nested suites).
                        (plan.len() >= self.max_plan_nodes).then_some(self.max_plan_nodes)
                    };
                    if let Some(limit) = limit {
                        return Err(IocoSuiteError::Budget {
                            what: format!(
                                "the {suite} for n = {n} needs more plan nodes (each with visit \
                                 sums for {} sets) than that, which",
                                self.constraints
                            ),
                            budget: limit as u128,
                            advice: self.advice.into(),
                        });
                    }
                    let c = plan.reserve();
                    let key = (t, next, quiet_t, on_cover_t);
                    memo.insert(key.clone(), c);
                    work.push((c, key));
                    Target::Node(c)
                };
                if a.alphabet.is_output(l) {
                    branches.push((l, target));
                } else if matches!(target, Target::Node(_)) {
                    moves.push(Move::Send {
                        input: l,
                        then: target,
                    });
                }
            }
            if !quiet {
                moves.insert(
                    0,
                    Move::Observe {
                        branches,
                        otherwise: Verdict::Pass,
                    },
                );
            }
            moves.extend(graphs[q.index()].iter().map(|&g| Move::Enter(g)));
            plan.set(id, moves);
        }
        Ok(Target::Node(root))
    }
}
