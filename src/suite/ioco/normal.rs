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
//! entered at one state of the specification:
//! - `Enter` moves are flattened: a node stands for the closure of its old nodes under `Enter`,
//!   so an experiment entered twice, or reachable in two ways, counts once;
//! - branches of outputs the specification state does not allow are dropped;
//! - sends of inputs the specification state does not enable are cut (the suite of a merge, or
//!   an adaptive graph, entered from a state that lacks the input its other states take): after
//!   such an input the specification allows everything (ioco, van den Bos Def. 2.4, demands
//!   nothing there), so no run through it can fail, and a test that went on would wait for
//!   outputs only another state gives, ending in `retry` against every implementation that
//!   ignores the input: undecidable against the specification itself. A node left with cut
//!   moves only waits for one output, judged by the specification, so the outputs that could
//!   race the cut input are still observed and no failing run is lost;
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
//! The set of runs that can fail is therefore unchanged (an output racing a cut input is the same
//! observation as the output waited for in its place), and with it soundness and the
//! completeness of Theorem 2.40: its proof uses a merge's suite, or a distinguishing experiment,
//! run in the context of a state `q` only through runs that are counterexamples for `q`, and
//! those never pass an input `q` does not enable. Every test of the normal plan is one of the old plan's tests or
//! the union of several of them, so the test count never grows.
//!
//! A normal node enumerates distinct tests: an `Observe` lists only allowed outputs, so its
//! largest branch is part of every test it builds and its tests differ there; different moves
//! start differently (another input, or an input versus an observation) or, for two `Observe`
//! moves that could not be merged, differ in a continuation that is not contained in the
//! other's; the tests module checks distinctness exhaustively on figures, bundled models and
//! random automata.

use super::error::IocoSuiteError;
use super::plan::{Move, Plan, PlanId, Target};
use crate::model::{LabelId, StateId, SuspensionAutomaton};
use crate::suite::{Next, TestCase, TestNode, Verdict};
use rayon::prelude::*;
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
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
        out: Plan::new(plan.classic),
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
        // Both plans are alive: the budget counts their nodes together.
        if self.out.len() + self.old.len() >= self.max_nodes {
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
    fn moves(&mut self, nodes: &[PlanId], s: Option<StateId>) -> Result<Vec<Move>, IocoSuiteError> {
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
        let mut cut = false;
        for &p in nodes {
            for m in old.moves(p) {
                match m {
                    Move::Observe {
                        branches,
                        otherwise,
                    } => observes.push(
                        outputs
                            .iter()
                            .map(|&x| match branches.binary_search_by_key(&x, |&(l, _)| l) {
                                Ok(i) => branches[i].1,
                                Err(_) => Target::Verdict(*otherwise),
                            })
                            .collect(),
                    ),
                    // An input the specification does not enable in `s`: nothing observed
                    // after it is an ioco counterexample, so the move is cut.
                    Move::Send { input, .. } if s.is_some() && self.after(s, *input).is_none() => {
                        cut = true;
                    }
                    Move::Send { input, then } => sends.push((*input, *then)),
                    Move::Enter(_) => {}
                }
            }
        }
        if cut && observes.is_empty() && sends.is_empty() {
            // Only cut moves: wait for one output, judged by the specification. The outputs that
            // could race the cut input are observed here, so no failing run is lost.
            return Ok(vec![Move::Observe {
                branches: Vec::new(),
                otherwise: Verdict::Pass,
            }]);
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

/// A test case's tree up to the sharing of its nodes: two tests get the same id from one
/// interner exactly when they unfold to the same tree.
#[derive(Default)]
struct TreeInterner {
    ids: HashMap<TreeNode, u32>,
}

/// An interned node: send (with its input) or expect, and its continuations by label
/// (`u32::MAX` for a send's `then`).
type TreeNode = (bool, u32, Vec<(u32, Ref)>);

/// A continuation of an interned node.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
enum Ref {
    Verdict(Verdict),
    Node(u32),
}

impl TreeInterner {
    fn root(&mut self, test: &TestCase) -> Ref {
        let mut at = vec![Ref::Verdict(Verdict::Pass); test.nodes.len()];
        let refer = |at: &[Ref], n: Next| match n {
            Next::Verdict(v) => Ref::Verdict(v),
            Next::Node(i) => at[i as usize],
        };
        for k in (0..test.nodes.len()).rev() {
            let key = match &test.nodes[k] {
                TestNode::Send { input, then, race } => {
                    let mut list = vec![(u32::MAX, refer(&at, *then))];
                    list.extend(race.iter().map(|&(o, n)| (o.0, refer(&at, n))));
                    (true, input.0, list)
                }
                TestNode::Expect { branches } => (
                    false,
                    0,
                    branches
                        .iter()
                        .map(|&(o, n)| (o.0, refer(&at, n)))
                        .collect(),
                ),
            };
            let next = self.ids.len() as u32;
            at[k] = Ref::Node(*self.ids.entry(key).or_insert(next));
        }
        at.first().copied().unwrap_or(Ref::Verdict(Verdict::Pass))
    }
}

/// A hash of a test case's tree, independent of how its nodes are shared.
fn tree_hash(test: &TestCase) -> u64 {
    let mut at = vec![0u64; test.nodes.len()];
    let refer = |at: &[u64], n: Next| match n {
        Next::Verdict(v) => v as u64,
        Next::Node(i) => at[i as usize],
    };
    for k in (0..test.nodes.len()).rev() {
        let mut h = DefaultHasher::new();
        match &test.nodes[k] {
            TestNode::Send { input, then, race } => {
                (1u8, input.0, refer(&at, *then)).hash(&mut h);
                for &(o, n) in race {
                    (o.0, refer(&at, n)).hash(&mut h);
                }
            }
            TestNode::Expect { branches } => {
                2u8.hash(&mut h);
                for &(o, n) in branches {
                    (o.0, refer(&at, n)).hash(&mut h);
                }
            }
        }
        at[k] = h.finish() | 8; // never a verdict's value
    }
    at.first().copied().unwrap_or(0)
}

/// The indices (below `count`) of the tests that differ from every earlier test, or `None` if
/// all differ. Tests are built in parallel in fixed chunks and compared in order, by a hash of
/// their trees and, when hashes meet, exactly; so the result depends on the tests alone.
pub(crate) fn first_occurrences(
    count: u128,
    build: &(dyn Fn(u128) -> TestCase + Sync),
) -> Option<Vec<u128>> {
    match first_occurrences_until(count, build, None, &|_| false).0 {
        Occurrences::AllDistinct => None,
        Occurrences::Kept(kept) => Some(kept),
        Occurrences::Stopped(_) => unreachable!("never stopped"),
    }
}

/// Figures of the distinct tests found so far by [`first_occurrences_until`]: lower bounds of
/// the figures of the whole suite without its repeated tests (they only grow as tests are kept).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct KeptSums {
    /// Distinct tests.
    pub(crate) tests: u128,
    /// Root-to-verdict paths over them.
    pub(crate) runs: u128,
    /// Labels over those paths.
    pub(crate) steps: u128,
    /// Quiescence observations over those paths.
    pub(crate) waits: u128,
    /// Send/expect nodes over them.
    pub(crate) nodes: u128,
}

/// What [`first_occurrences_until`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Occurrences {
    /// Every test differs from every other.
    AllDistinct,
    /// The indices of the tests that differ from every earlier test.
    Kept(Vec<u128>),
    /// Stopped after a chunk, with the figures of the distinct tests up to there.
    Stopped(KeptSums),
}

/// Tests built per chunk of [`first_occurrences_until`] (the granularity of its stop).
pub(crate) const OCCURRENCE_CHUNK: u128 = 1024;

/// [`first_occurrences`], adding up the figures of the distinct tests as they are found (runs,
/// steps and waits with `quiescence` as the suite's quiescence id) and stopping after the first
/// chunk where `stop` holds for them. Also returns the number of tests built (repeated tests
/// are built again for the exact comparison), the work done.
pub(crate) fn first_occurrences_until(
    count: u128,
    build: &(dyn Fn(u128) -> TestCase + Sync),
    quiescence: Option<LabelId>,
    stop: &dyn Fn(&KeptSums) -> bool,
) -> (Occurrences, u128) {
    let mut by_hash: HashMap<u64, Vec<u128>> = HashMap::new();
    let mut kept: Vec<u128> = Vec::new();
    let mut sums = KeptSums::default();
    let mut built = 0u128;
    let mut start = 0u128;
    while start < count {
        let end = (start + OCCURRENCE_CHUNK).min(count);
        let hashed: Vec<(u64, [u128; 4])> = (start as u64..end as u64)
            .into_par_iter()
            .map(|k| {
                let t = build(k as u128);
                let (runs, steps, waits) = t.runs_steps_waits(quiescence);
                (tree_hash(&t), [runs, steps, waits, t.nodes.len() as u128])
            })
            .collect();
        built += end - start;
        for (k, (h, [runs, steps, waits, nodes])) in (start..end).zip(hashed) {
            let earlier = by_hash.entry(h).or_default();
            let duplicate = !earlier.is_empty() && {
                let mut interner = TreeInterner::default();
                let this = interner.root(&build(k));
                built += 1 + earlier.len() as u128;
                earlier.iter().any(|&e| interner.root(&build(e)) == this)
            };
            if !duplicate {
                earlier.push(k);
                kept.push(k);
                sums.tests += 1;
                sums.runs = sums.runs.saturating_add(runs);
                sums.steps = sums.steps.saturating_add(steps);
                sums.waits = sums.waits.saturating_add(waits);
                sums.nodes = sums.nodes.saturating_add(nodes);
            }
        }
        start = end;
        if start < count && stop(&sums) {
            return (Occurrences::Stopped(sums), built);
        }
    }
    let found = if kept.len() as u128 == count {
        Occurrences::AllDistinct
    } else {
        Occurrences::Kept(kept)
    };
    (found, built)
}

#[cfg(test)]
mod tests {
    use super::super::testkit::*;
    use super::super::{Bound, Budget, IocoMethod, IocoSuiteError, distinguishing, generate};
    use super::*;
    use crate::model::Model;

    /// Asserts that the suite's tests are pairwise distinct trees; returns how many there are.
    fn assert_distinct(sa: &SuspensionAutomaton, method: IocoMethod, bound: Bound) -> usize {
        let budget = Budget {
            max_tests: 20_000,
            ..Budget::default()
        };
        let suite = match generate(sa, method, bound, budget) {
            Ok(s) => s,
            Err(IocoSuiteError::Budget { .. } | IocoSuiteError::Refused(_)) => return 0,
            Err(e) => panic!("{e}"),
        };
        let mut interner = TreeInterner::default();
        let mut seen = HashMap::new();
        for t in suite.tests() {
            if let Some(first) = seen.insert(interner.root(&t), t.name.clone()) {
                panic!(
                    "{} {:?} of {}: {} repeats {first}",
                    method.name(),
                    bound,
                    sa.name,
                    t.name
                );
            }
        }
        seen.len()
    }

    const METHODS: [IocoMethod; 3] = [
        IocoMethod::Complete,
        IocoMethod::Ads,
        IocoMethod::Unconditional,
    ];

    #[test]
    fn suites_of_the_figures_have_no_duplicate_tests() {
        for sa in [fig_2_1(), fig_2_8(), fig_2_9()] {
            for method in METHODS {
                for n in 1..=sa.num_states() + 1 {
                    assert_distinct(&sa, method, Bound::States(n));
                }
            }
        }
    }

    #[test]
    fn suites_of_the_bundled_models_have_no_duplicate_tests() {
        let mut checked = 0;
        for file in BUNDLED_MODELS {
            let (model, sa) = bundled_model(file);
            for method in METHODS {
                let bound = match (&model, method) {
                    (Model::Mealy(_), _) | (_, IocoMethod::Ads) => Bound::ExtraStates(0),
                    _ => Bound::States(2),
                };
                if assert_distinct(&sa, method, bound) > 0 {
                    checked += 1;
                }
            }
        }
        assert!(checked >= 12, "only {checked} suites within the budget");
    }

    #[test]
    fn suites_of_random_automata_have_no_duplicate_tests() {
        let mut nonempty = 0;
        for seed in 0..60 {
            let mut rng = Rng::new(seed);
            let states = 2 + rng.below(3);
            let (inputs, outputs) = (1 + rng.below(2), 1 + rng.below(2));
            let sa = random_sa(&mut rng, states, inputs, outputs);
            for method in METHODS {
                for n in [states, states + 1] {
                    if assert_distinct(&sa, method, Bound::States(n)) > 0 {
                        nonempty += 1;
                    }
                }
            }
        }
        assert!(nonempty > 200, "{nonempty}");
    }

    #[test]
    fn repeated_trees_are_found_whatever_their_sharing() {
        use crate::model::LabelId;
        let expect = |branches: Vec<(u32, Next)>| TestNode::Expect {
            branches: branches.into_iter().map(|(o, n)| (LabelId(o), n)).collect(),
        };
        let send = |then: Next| TestNode::Send {
            input: LabelId(0),
            then,
            race: vec![(LabelId(0), Next::RETRY)],
        };
        // send; expect {0 -> leaf, 1 -> leaf} with the leaf shared, and with two copies.
        let shared = vec![
            send(Next::Node(1)),
            expect(vec![(0, Next::Node(2)), (1, Next::Node(2))]),
            expect(vec![(0, Next::PASS)]),
        ];
        let copied = vec![
            send(Next::Node(1)),
            expect(vec![(0, Next::Node(2)), (1, Next::Node(3))]),
            expect(vec![(0, Next::PASS)]),
            expect(vec![(0, Next::PASS)]),
        ];
        let other = vec![
            send(Next::Node(1)),
            expect(vec![(0, Next::Node(2)), (1, Next::Node(3))]),
            expect(vec![(0, Next::PASS)]),
            expect(vec![(0, Next::FAIL)]),
        ];
        let tests = [shared, other.clone(), copied, other];
        let build = |k: u128| TestCase {
            name: format!("t{k}"),
            nodes: tests[k as usize].clone(),
        };
        assert_eq!(first_occurrences(4, &build), Some(vec![0, 1]));
        assert_eq!(first_occurrences(2, &build), None);
    }

    #[test]
    fn normal_plans_never_have_more_tests() {
        // And usually far fewer: count the tests of T(S, n) before and after normalisation.
        let mut fewer = 0;
        for seed in 0..40 {
            let mut rng = Rng::new(seed);
            let states = 2 + rng.below(3);
            let (inputs, outputs) = (1 + rng.below(2), 1 + rng.below(2));
            let sa = random_sa(&mut rng, states, inputs, outputs);
            let mut plan = Plan::default();
            let mut builder = distinguishing::CompleteBuilder::new(&sa, states, Budget::default());
            let root = builder.build(&mut plan).unwrap();
            // Both plans count against the plan-node budget; some raw plans here are large.
            let (mut normal, normal_root) = normalise(&plan, &sa, root, 4_000_000).unwrap();
            plan.finish();
            normal.finish();
            let (before, after) = (plan.count(root), normal.count(normal_root));
            assert!(after <= before, "seed {seed}: {after} > {before}");
            if after < before {
                fewer += 1;
            }
        }
        assert!(fewer > 20, "{fewer}");
    }
}
