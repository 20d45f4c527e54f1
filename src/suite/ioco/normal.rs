//! The normal form of a test plan ([`super::plan`]): a plan whose every node enumerates pairwise
//! distinct test cases, so a suite built from it has no duplicate tests.
//!
//! The constructions of van den Bos Def. 2.37 (`T(S, n)`) and of `ioco-ads` describe suites as
//! *sets* of pairs (trace, experiment), but their plans produce the same test case several times:
//! - the same experiment is entered once per partner state (`DE(S, q)` is a set, Def. 2.37), and
//!   equal experiments can sit in different plan nodes (isomorphic merges, harmonised graphs);
//! - an experiment that starts with an input `a` (or an output) repeats a test of the trace
//!   `σa` followed by the rest of the experiment, which `P+(S, n)` also contains (harmonised
//!   graphs continue with the graph of the successor pair, Lemma 2.33);
//! - an `Observe` needs as many tests as its largest branch, but a branch the specification does
//!   not allow in the state the test is in is cut (`fail`), so the other branches repeat;
//! - the access sequences of `ioco-ads` overlap (one is a prefix of another followed by labels
//!   the extension also takes).
//!
//! Normalisation rebuilds the plan node by node, each new node standing for a *set* of old nodes
//! entered at one state of the specification (`None` after an input the specification does not
//! enable, where it allows everything):
//! - `Enter` moves are flattened: a node stands for the closure of its old nodes under `Enter`,
//!   so an experiment entered twice, or reachable in two ways, counts once;
//! - branches of outputs the specification state does not allow are dropped;
//! - moves are grouped by their first step (one group per input, outputs together) and a group
//!   is merged into one move whose continuations are the unions of the members' continuations,
//!   per label. Merging stays within nodes that already exist: two continuations are merged
//!   only when one contains the other's closure, so the normal plan has at most one node per
//!   (old node, specification state) and no product of traces arises (merging the suites of
//!   different merges would make nodes depend on the whole history of a trace). Members that
//!   cannot be merged stay separate moves;
//! - a verdict continuation (`pass` after an experiment made its observation, or `retry`) next to
//!   a continuation that goes on is dropped: its run is a prefix of the other's runs and never
//!   fails, so no implementation that the suite fails passes after the change, and none that
//!   it passes fails (failing is decided by the specification alone). Two verdicts meet only as
//!   `pass` and `retry`; `pass` is kept (the other test made its judgement there).
//!
//! The set of runs that can fail is therefore unchanged, and with it soundness and the
//! completeness of Theorem 2.40. Every test of the normal plan is one of the old plan's tests or
//! the union of several of them, so the test count never grows.
//!
//! A normal node enumerates distinct tests: an `Observe` lists only allowed outputs, so its
//! largest branch is part of every test it builds and its tests differ there; different moves
//! start differently (another input, or an input versus an observation) or, for two `Observe`
//! moves that could not be merged, differ in a continuation that is not contained in the
//! other's; the tests module checks distinctness exhaustively on figures, bundled models and
//! random automata.

use super::IocoSuiteError;
use super::plan::{Move, Plan, PlanId, Target};
use crate::model::{LabelId, StateId, SuspensionAutomaton};
use crate::suite::Verdict;
use std::collections::HashMap;
use std::rc::Rc;

/// A normal node: the sorted closure of old nodes, at a specification state.
type Key = (Rc<[PlanId]>, Option<StateId>);

struct Normaliser<'a> {
    old: &'a Plan,
    sa: &'a SuspensionAutomaton,
    out: Plan,
    memo: HashMap<Key, PlanId>,
    /// Closures of old nodes that have `Enter` moves (others are their own closure).
    closures: HashMap<PlanId, Rc<[PlanId]>>,
    work: Vec<(PlanId, Rc<[PlanId]>, Option<StateId>)>,
    max_nodes: usize,
}

/// Rebuilds `plan` from `root`, entered at the initial state of `sa`, in normal form.
pub(crate) fn normalise(
    plan: &Plan,
    sa: &SuspensionAutomaton,
    root: Target,
    max_nodes: usize,
) -> Result<(Plan, Target), IocoSuiteError> {
    let mut n = Normaliser {
        old: plan,
        sa,
        out: Plan::default(),
        memo: HashMap::new(),
        closures: HashMap::new(),
        work: Vec::new(),
        max_nodes,
    };
    let root = n.resolve(&[root], Some(sa.initial()))?;
    while let Some((id, nodes, s)) = n.work.pop() {
        let moves = n.moves(&nodes, s)?;
        n.out.set(id, moves);
    }
    Ok((n.out, root))
}

/// Whether sorted `a` is a subset of sorted `b`.
fn subset(a: &[PlanId], b: &[PlanId]) -> bool {
    let mut j = 0;
    for &x in a {
        while j < b.len() && b[j] < x {
            j += 1;
        }
        if j == b.len() || b[j] != x {
            return false;
        }
        j += 1;
    }
    true
}

/// `pass` is kept over `retry` when two verdicts meet.
fn meet(a: Option<Verdict>, b: Verdict) -> Verdict {
    match a {
        Some(Verdict::Pass) => Verdict::Pass,
        _ => b,
    }
}

/// Continuations grouped so that each group's closure is the closure of one member.
struct Group {
    closure: Rc<[PlanId]>,
    members: Vec<Target>,
}

impl Normaliser<'_> {
    /// The old nodes a node stands for: itself if it has moves other than `Enter`, and the
    /// closure of its `Enter` targets.
    fn closure_of(&mut self, p: PlanId) -> Rc<[PlanId]> {
        let moves = self.old.moves(p);
        if !moves.iter().any(|m| matches!(m, Move::Enter(_))) {
            return Rc::from([p]);
        }
        if let Some(c) = self.closures.get(&p) {
            return c.clone();
        }
        let mut seen = vec![p];
        let mut stack = vec![p];
        let mut own = Vec::new();
        while let Some(q) = stack.pop() {
            let moves = self.old.moves(q);
            if moves.iter().any(|m| !matches!(m, Move::Enter(_))) {
                own.push(q);
            }
            for m in moves {
                if let Move::Enter(c) = m
                    && !seen.contains(c)
                {
                    seen.push(*c);
                    stack.push(*c);
                }
            }
        }
        own.sort_unstable();
        let c: Rc<[PlanId]> = Rc::from(own);
        self.closures.insert(p, c.clone());
        c
    }

    /// The closure of a list of continuations and the verdict among them, if any.
    fn closure(&mut self, targets: &[Target]) -> (Rc<[PlanId]>, Option<Verdict>) {
        let mut verdict = None;
        let mut parts: Vec<Rc<[PlanId]>> = Vec::new();
        for &t in targets {
            match t {
                Target::Verdict(v) => verdict = Some(meet(verdict, v)),
                Target::Node(p) => parts.push(self.closure_of(p)),
            }
        }
        let nodes: Rc<[PlanId]> = match parts.len() {
            0 => Rc::from([]),
            1 => parts.pop().expect("one part"),
            _ => {
                let mut all: Vec<PlanId> = parts.iter().flat_map(|c| c.iter().copied()).collect();
                all.sort_unstable();
                all.dedup();
                Rc::from(all)
            }
        };
        (nodes, verdict)
    }

    /// The normal target of the union of `targets` at specification state `s`.
    fn resolve(
        &mut self,
        targets: &[Target],
        s: Option<StateId>,
    ) -> Result<Target, IocoSuiteError> {
        let (nodes, verdict) = self.closure(targets);
        if nodes.is_empty() {
            return Ok(Target::Verdict(verdict.unwrap_or(Verdict::Pass)));
        }
        let key = (nodes, s);
        if let Some(&id) = self.memo.get(&key) {
            return Ok(Target::Node(id));
        }
        if self.out.len() >= self.max_nodes {
            return Err(IocoSuiteError::Budget {
                what: "the suite without duplicate tests needs more plan nodes than that, which"
                    .into(),
                budget: self.max_nodes as u128,
                advice: "try a smaller n".into(),
            });
        }
        let id = self.out.reserve();
        self.work.push((id, key.0.clone(), s));
        self.memo.insert(key, id);
        Ok(Target::Node(id))
    }

    /// Splits continuations into groups that can be merged without creating a new closure.
    fn groups(&mut self, targets: &[Target]) -> Vec<Group> {
        let mut groups: Vec<Group> = Vec::new();
        let mut verdicts = Vec::new();
        for &t in targets {
            let Target::Node(p) = t else {
                verdicts.push(t);
                continue;
            };
            let c = self.closure_of(p);
            match groups
                .iter_mut()
                .find(|g| subset(&c, &g.closure) || subset(&g.closure, &c))
            {
                Some(g) => {
                    if c.len() > g.closure.len() {
                        g.closure = c;
                    }
                    g.members.push(t);
                }
                None => groups.push(Group {
                    closure: c,
                    members: vec![t],
                }),
            }
        }
        match groups.first_mut() {
            Some(g) => g.members.extend(verdicts),
            None if !verdicts.is_empty() => groups.push(Group {
                closure: Rc::from([]),
                members: verdicts,
            }),
            None => {}
        }
        groups
    }

    fn allows(&self, s: Option<StateId>, x: LabelId) -> bool {
        s.is_none_or(|s| self.sa.after(s, x).is_some())
    }

    fn after(&self, s: Option<StateId>, l: LabelId) -> Option<StateId> {
        s.and_then(|s| self.sa.after(s, l))
    }

    /// The moves of the normal node for old nodes `nodes` at state `s`.
    fn moves(
        &mut self,
        nodes: &[PlanId],
        s: Option<StateId>,
    ) -> Result<Vec<Move>, IocoSuiteError> {
        let old = self.old;
        let outputs: Vec<LabelId> = self
            .sa
            .alphabet
            .outputs()
            .filter(|&x| self.allows(s, x))
            .collect();
        // Observations, as one continuation per allowed output (the `otherwise` verdict for
        // outputs a move does not list).
        let mut observes: Vec<Vec<Target>> = Vec::new();
        let mut sends: Vec<(LabelId, Target)> = Vec::new();
        for &p in nodes {
            for m in old.moves(p) {
                match m {
                    Move::Observe {
                        branches,
                        otherwise,
                    } => observes.push(
                        outputs
                            .iter()
                            .map(|&x| {
                                match branches.binary_search_by_key(&x, |&(l, _)| l) {
                                    Ok(i) => branches[i].1,
                                    Err(_) => Target::Verdict(*otherwise),
                                }
                            })
                            .collect(),
                    ),
                    Move::Send { input, then } => sends.push((*input, *then)),
                    Move::Enter(_) => {}
                }
            }
        }
        let mut moves = Vec::new();
        // Merge observations greedily: a move joins the first merged observation whose
        // continuation contains or is contained in its own, for every output.
        let mut merged: Vec<Vec<Group>> = Vec::new();
        for obs in observes {
            let mut joined = false;
            for m in merged.iter_mut() {
                let fits = obs.iter().zip(m.iter()).all(|(&t, g)| match t {
                    Target::Verdict(_) => true,
                    Target::Node(p) => {
                        let c = self.closure_of(p);
                        g.closure.is_empty() || subset(&c, &g.closure) || subset(&g.closure, &c)
                    }
                });
                if fits {
                    for (&t, g) in obs.iter().zip(m.iter_mut()) {
                        if let Target::Node(p) = t {
                            let c = self.closure_of(p);
                            if c.len() > g.closure.len() {
                                g.closure = c;
                            }
                        }
                        g.members.push(t);
                    }
                    joined = true;
                    break;
                }
            }
            if !joined {
                let mut groups = Vec::with_capacity(obs.len());
                for &t in &obs {
                    let closure = match t {
                        Target::Node(p) => self.closure_of(p),
                        Target::Verdict(_) => Rc::from([]),
                    };
                    groups.push(Group {
                        closure,
                        members: vec![t],
                    });
                }
                merged.push(groups);
            }
        }
        for m in merged {
            let mut branches = Vec::new();
            for (&x, g) in outputs.iter().zip(&m) {
                let t = self.resolve(&g.members, self.after(s, x))?;
                if t != Target::Verdict(Verdict::Pass) {
                    branches.push((x, t));
                }
            }
            moves.push(Move::Observe {
                branches,
                otherwise: Verdict::Pass,
            });
        }
        sends.sort_by_key(|&(a, _)| a);
        let mut k = 0;
        while k < sends.len() {
            let input = sends[k].0;
            let end = k + sends[k..].iter().take_while(|&&(a, _)| a == input).count();
            let thens: Vec<Target> = sends[k..end].iter().map(|&(_, t)| t).collect();
            for g in self.groups(&thens) {
                let then = self.resolve(&g.members, self.after(s, input))?;
                moves.push(Move::Send { input, then });
            }
            k = end;
        }
        Ok(moves)
    }
}
