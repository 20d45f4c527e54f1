//! Test plans: a compact DAG of choice points from which the test cases of an ioco suite are
//! enumerated one at a time (so suites stream), with the execution semantics of van den Bos
//! Sec. 2.7.4 applied while a test case is built.
//!
//! A plan node is a list of *moves*; a test case picks one move at every node it visits:
//! - `Observe` waits for an output and branches on it (this is how a trace's outputs are executed
//!   adaptively: instead of resetting when another allowed output arrives, the test continues
//!   along the trace that output starts);
//! - `Send` applies an input;
//! - `Enter` starts an experiment (a distinguishing graph or a nested suite) rooted elsewhere.
//!
//! The number of tests of a node is the sum over its moves; an `Observe` needs as many tests as
//! its most demanding branch (the branches share tests, since a run takes only one of them). Test
//! `k` of a node is therefore a pure function of the plan, which makes output identical for any
//! number of threads.
//!
//! While a test is built, the state of the top-level specification `S` is tracked along the
//! labels: an output that `S` does not allow there is an ioco counterexample and leads to `fail`
//! (also when it races an input); an output that `S` allows but the plan does not follow ends
//! the run with the node's `otherwise` verdict (`retry` for traces whose intended output did not
//! occur, `pass` after an experiment made its observation); an output that races an input is
//! `retry` (the distinguishing graph's Reset). After an input that `S` does not enable (possible
//! inside the suite of a merge, whose other member enables it), `S` allows everything; the normal
//! form (`normal`) cuts such inputs, so its tests never send one.

use crate::model::{LabelId, StateId, SuspensionAutomaton};
use crate::suite::{Next, TestCase, TestNode, Verdict};
use std::collections::HashMap;

/// Index of a plan node.
pub(crate) type PlanId = u32;

/// Where a move continues.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Target {
    /// Another plan node.
    Node(PlanId),
    /// A leaf verdict (never `Fail`: failing is decided by the specification).
    Verdict(Verdict),
}

/// One way to continue a test at a plan node.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Move {
    /// Wait for an output; `branches` are sorted by (specification) label id; an allowed output
    /// not listed ends the run with `otherwise`.
    Observe {
        branches: Vec<(LabelId, Target)>,
        otherwise: Verdict,
    },
    /// Apply an input; an output that arrives first ends the run with `retry` (or `fail`).
    Send { input: LabelId, then: Target },
    /// Run the tests of another node from here.
    Enter(PlanId),
}

/// Maps specification labels to the ids of the suite JSON (inputs and outputs counted
/// separately, quiescence last among the outputs, as [`crate::identify::experiment::suite_model`]
/// lists them); also used by the goal suites of `goals::cases`.
#[derive(Clone, Debug)]
pub(crate) struct LabelMap {
    suite_id: Vec<LabelId>,
    /// Specification output labels that may race an input (all outputs but quiescence).
    racing: Vec<LabelId>,
    /// All specification output labels, quiescence included, in label order.
    outputs: Vec<LabelId>,
}

impl LabelMap {
    pub(crate) fn new(sa: &SuspensionAutomaton) -> Self {
        let a = &sa.alphabet;
        let mut suite_id = vec![LabelId(0); a.len()];
        for (k, l) in a.inputs().enumerate() {
            suite_id[l.index()] = LabelId(k as u32);
        }
        let racing: Vec<LabelId> = a.outputs().filter(|&l| l != sa.quiescence()).collect();
        for (k, &l) in racing.iter().enumerate() {
            suite_id[l.index()] = LabelId(k as u32);
        }
        suite_id[sa.quiescence().index()] = LabelId(racing.len() as u32);
        LabelMap {
            suite_id,
            racing,
            outputs: a.outputs().collect(),
        }
    }

    /// The suite id of the specification label `l`.
    pub(crate) fn id(&self, l: LabelId) -> LabelId {
        self.suite_id[l.index()]
    }
}

/// A plan under construction or finished.
#[derive(Clone, Debug, Default)]
pub(crate) struct Plan {
    nodes: Vec<Vec<Move>>,
    counts: Vec<u128>,
    /// The classic quiescence domain (`super::domain`): an `Observe` right after quiescence in a
    /// state where quiescence loops is not waited for; the test continues as if quiescence
    /// had been observed again.
    pub(crate) classic: bool,
}

/// Where a test stands while it is built or counted: the state of the top-level specification
/// (`None` after an input it does not enable: it allows everything from there) and whether the
/// test has just observed quiescence into a state where quiescence loops, in the classic
/// domain (see [`Plan::classic`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct At {
    pub(crate) s: Option<StateId>,
    pub(crate) quiet: bool,
}

impl At {
    /// At `s`, nothing observed yet.
    pub(crate) fn start(s: StateId) -> At {
        At {
            s: Some(s),
            quiet: false,
        }
    }
}

/// Saturating test counts: suites beyond `u128::MAX` tests are reported as such.
fn add(a: u128, b: u128) -> u128 {
    a.saturating_add(b)
}

impl Plan {
    /// An empty plan, classic (see [`Plan::classic`]) or not.
    pub(crate) fn new(classic: bool) -> Plan {
        Plan {
            classic,
            ..Plan::default()
        }
    }

    /// Adds a node with the given moves.
    pub(crate) fn push(&mut self, moves: Vec<Move>) -> PlanId {
        self.nodes.push(moves);
        (self.nodes.len() - 1) as PlanId
    }

    /// Reserves a node whose moves are set later (for recursive structures built top-down).
    pub(crate) fn reserve(&mut self) -> PlanId {
        self.push(Vec::new())
    }

    /// Sets the moves of a reserved node.
    pub(crate) fn set(&mut self, id: PlanId, moves: Vec<Move>) {
        self.nodes[id as usize] = moves;
    }

    /// The moves of a node.
    pub(crate) fn moves(&self, id: PlanId) -> &[Move] {
        &self.nodes[id as usize]
    }

    /// Number of plan nodes.
    pub(crate) fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Computes the number of tests of every node; call once the plan is complete.
    /// Nodes without moves count as one (empty) test.
    pub(crate) fn finish(&mut self) {
        let n = self.nodes.len();
        self.counts = vec![0; n];
        let mut done = vec![false; n];
        for start in 0..n {
            if done[start] {
                continue;
            }
            // Iterative post-order over the DAG (plans can be deep: U(S, n) traces have length
            // up to |S|·n).
            let mut stack = vec![(start as PlanId, false)];
            while let Some((p, expanded)) = stack.pop() {
                let pi = p as usize;
                if done[pi] {
                    continue;
                }
                if !expanded {
                    stack.push((p, true));
                    for child in self.children(p) {
                        if !done[child as usize] {
                            stack.push((child, false));
                        }
                    }
                    continue;
                }
                let count = self.nodes[pi]
                    .iter()
                    .map(|m| self.move_count(m))
                    .fold(0u128, add);
                self.counts[pi] = count.max(1);
                done[pi] = true;
            }
        }
    }

    fn children(&self, p: PlanId) -> Vec<PlanId> {
        let mut out = Vec::new();
        for m in &self.nodes[p as usize] {
            match m {
                Move::Observe { branches, .. } => {
                    for &(_, t) in branches {
                        if let Target::Node(c) = t {
                            out.push(c);
                        }
                    }
                }
                Move::Send {
                    then: Target::Node(c),
                    ..
                } => out.push(*c),
                Move::Send { .. } => {}
                Move::Enter(c) => out.push(*c),
            }
        }
        out
    }

    fn target_count(&self, t: Target) -> u128 {
        match t {
            Target::Node(c) => self.counts[c as usize],
            Target::Verdict(_) => 1,
        }
    }

    /// The move test `k` of node `p` takes, with the test index within that move (`None` for a
    /// node without moves, whose one test is an empty `pass`).
    fn chosen_move(&self, p: PlanId, mut k: u128) -> Option<(&Move, u128)> {
        for m in self.moves(p) {
            let c = self.move_count(m);
            if k < c {
                return Some((m, k));
            }
            k -= c;
        }
        None
    }

    fn move_count(&self, m: &Move) -> u128 {
        match m {
            Move::Observe { branches, .. } => branches
                .iter()
                .map(|&(_, t)| self.target_count(t))
                .max()
                .unwrap_or(1),
            Move::Send { then, .. } => self.target_count(*then),
            Move::Enter(c) => self.counts[*c as usize],
        }
    }

    /// Where a test stands after sending `input` from specification state `s`.
    fn sent(&self, sa: &SuspensionAutomaton, s: Option<StateId>, input: LabelId) -> At {
        At {
            s: s.and_then(|s| sa.after(s, input)),
            quiet: false,
        }
    }

    /// Where a test stands after observing `x` in specification state `s`: quiet in the classic
    /// domain when `x` is quiescence and quiescence loops on the state it leads to.
    fn observed(&self, sa: &SuspensionAutomaton, s: Option<StateId>, x: LabelId) -> At {
        let s = s.and_then(|s| sa.after(s, x));
        let quiet =
            self.classic && x == sa.quiescence() && s.is_some_and(|t| sa.after(t, x) == Some(t));
        At { s, quiet }
    }

    /// Where an `Observe` continues in a quiet position without waiting: its quiescence branch
    /// (the implementation of the classic domain can only show quiescence again, which loops
    /// in the specification too), or its `otherwise` verdict when it has none.
    fn quiet_target(&self, sa: &SuspensionAutomaton, m: &Move) -> Option<Target> {
        let Move::Observe {
            branches,
            otherwise,
        } = m
        else {
            return None;
        };
        Some(
            match branches.binary_search_by_key(&sa.quiescence(), |&(l, _)| l) {
                Ok(i) => branches[i].1,
                Err(_) => Target::Verdict(*otherwise),
            },
        )
    }

    /// Number of tests of a target (after [`Plan::finish`]).
    pub(crate) fn count(&self, t: Target) -> u128 {
        self.target_count(t)
    }

    /// Builds test `k` (`k < count(root)`) rooted at `root`, for specification `sa` starting in
    /// `start`.
    pub(crate) fn build_test(
        &self,
        sa: &SuspensionAutomaton,
        labels: &LabelMap,
        root: Target,
        start: StateId,
        k: u128,
        name: String,
    ) -> TestCase {
        let mut b = Builder {
            plan: self,
            sa,
            labels,
            post: Vec::new(),
            memo: HashMap::new(),
        };
        let top = b.target(root, k, At::start(start));
        let len = b.post.len();
        if len == 0 {
            // The root is a verdict: a test that observes nothing. Plans never produce this for
            // a root, but keep the format valid: wait for one output.
            let verdict = match top {
                Next::Verdict(v) => v,
                Next::Node(_) => Verdict::Pass,
            };
            let branches = labels
                .outputs
                .iter()
                .filter(|&&x| sa.after(start, x).is_some())
                .map(|&x| (labels.id(x), Next::Verdict(verdict)))
                .collect::<Vec<_>>();
            let mut branches = branches;
            branches.sort_unstable_by_key(|&(o, _)| o);
            return TestCase {
                name,
                nodes: vec![TestNode::Expect { branches }],
            };
        }
        // Post-order puts children first; reversing gives a topological order with the root at 0.
        let renumber = |n: Next| match n {
            Next::Node(i) => Next::Node((len - 1 - i as usize) as u32),
            v => v,
        };
        let nodes = b
            .post
            .into_iter()
            .rev()
            .map(|node| node.renumbered(renumber))
            .collect();
        TestCase { name, nodes }
    }
}

struct Builder<'a> {
    plan: &'a Plan,
    sa: &'a SuspensionAutomaton,
    labels: &'a LabelMap,
    post: Vec<TestNode>,
    memo: HashMap<(PlanId, u128, At), Next>,
}

impl Builder<'_> {
    fn target(&mut self, t: Target, k: u128, at: At) -> Next {
        match t {
            Target::Verdict(v) => Next::Verdict(v),
            Target::Node(p) => self.node(p, k, at),
        }
    }

    fn allows(&self, s: Option<StateId>, x: LabelId) -> bool {
        s.is_none_or(|s| self.sa.after(s, x).is_some())
    }

    fn node(&mut self, p: PlanId, k: u128, at: At) -> Next {
        let key = (p, k, at);
        let s = at.s;
        if let Some(&n) = self.memo.get(&key) {
            return n;
        }
        let plan = self.plan;
        let (chosen, k) = plan
            .chosen_move(p, k)
            .map_or((None, k), |(m, k)| (Some(m), k));
        let quiet = chosen.and_then(|m| plan.quiet_target(self.sa, m));
        let result = match chosen {
            None => Next::PASS,
            Some(Move::Enter(c)) => self.node(*c, k, at),
            Some(_) if at.quiet && quiet.is_some() => {
                let t = quiet.expect("checked");
                self.target(t, k % plan.count(t), at)
            }
            Some(Move::Send { input, then }) => {
                // After an input S does not enable, S allows everything (χ): `after` is None.
                let then = self.target(*then, k, plan.sent(self.sa, s, *input));
                let mut race: Vec<(LabelId, Next)> = self
                    .labels
                    .racing
                    .iter()
                    .filter(|&&x| self.allows(s, x))
                    .map(|&x| (self.labels.id(x), Next::RETRY))
                    .collect();
                race.sort_unstable_by_key(|&(o, _)| o);
                self.emit(TestNode::Send {
                    input: self.labels.id(*input),
                    then,
                    race,
                })
            }
            Some(Move::Observe {
                branches,
                otherwise,
            }) => {
                let mut list = Vec::with_capacity(self.labels.outputs.len());
                for &x in &self.labels.outputs.clone() {
                    if !self.allows(s, x) {
                        continue; // unlisted: fail
                    }
                    let next = match branches.binary_search_by_key(&x, |&(l, _)| l) {
                        Ok(i) => {
                            let t = branches[i].1;
                            let c = plan.count(t);
                            self.target(t, k % c, plan.observed(self.sa, s, x))
                        }
                        Err(_) => Next::Verdict(*otherwise),
                    };
                    list.push((self.labels.id(x), next));
                }
                list.sort_unstable_by_key(|&(o, _)| o);
                self.emit(TestNode::Expect { branches: list })
            }
        };
        self.memo.insert(key, result);
        result
    }

    fn emit(&mut self, node: TestNode) -> Next {
        self.post.push(node);
        Next::Node((self.post.len() - 1) as u32)
    }
}

/// The plan nodes for "every trace of at most `depth` labels, then the experiments of the state
/// reached": node `(q, d)` observes every output of `q` (continuing at `(q', d+1)`), may send
/// every input of `q`, and may enter each experiment of `q`; at depth `depth` only the
/// experiments remain. Returns the nodes of depth 0 by state.
pub(crate) fn traces_then_experiments(
    plan: &mut Plan,
    a: &SuspensionAutomaton,
    reachable: &[StateId],
    depth: usize,
    experiments: &HashMap<StateId, Vec<Target>>,
) -> HashMap<StateId, Target> {
    let mut level: HashMap<StateId, Target> = HashMap::new();
    for d in (0..=depth).rev() {
        let mut this = HashMap::new();
        for &q in reachable {
            let mut moves = Vec::new();
            if d < depth {
                let mut branches = Vec::new();
                for &(l, t) in a.enabled(q) {
                    let child = level
                        .get(&t)
                        .copied()
                        .unwrap_or(Target::Verdict(Verdict::Pass));
                    if a.alphabet.is_output(l) {
                        branches.push((l, child));
                    } else if matches!(child, Target::Node(_)) {
                        moves.push(Move::Send {
                            input: l,
                            then: child,
                        });
                    }
                }
                moves.insert(
                    0,
                    Move::Observe {
                        branches,
                        otherwise: Verdict::Pass,
                    },
                );
            }
            for e in &experiments[&q] {
                if let Target::Node(id) = e {
                    moves.push(Move::Enter(*id));
                }
            }
            let t = if moves.is_empty() {
                Target::Verdict(Verdict::Pass)
            } else {
                Target::Node(plan.push(moves))
            };
            this.insert(q, t);
        }
        level = this;
    }
    level
}

/// Checked sums over the runs (root-to-verdict paths) and steps (labels on those paths) of
/// tests `0..r` of a plan target; `None` when a sum does not fit in `u128`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct PathSums {
    pub(crate) runs: Option<u128>,
    pub(crate) steps: Option<u128>,
    /// Quiescence observations on those paths.
    pub(crate) waits: Option<u128>,
}

fn checked_add(a: Option<u128>, b: Option<u128>) -> Option<u128> {
    a?.checked_add(b?)
}

fn checked_mul(a: u128, b: Option<u128>) -> Option<u128> {
    b?.checked_mul(a)
}

impl PathSums {
    const ZERO: PathSums = PathSums {
        runs: Some(0),
        steps: Some(0),
        waits: Some(0),
    };

    fn add(self, o: PathSums) -> PathSums {
        PathSums {
            runs: checked_add(self.runs, o.runs),
            steps: checked_add(self.steps, o.steps),
            waits: checked_add(self.waits, o.waits),
        }
    }

    /// `times` copies.
    fn times(self, times: u128) -> PathSums {
        PathSums {
            runs: checked_mul(times, self.runs),
            steps: checked_mul(times, self.steps),
            waits: checked_mul(times, self.waits),
        }
    }

    /// The same paths, one label longer (the edge into them).
    fn extended(self) -> PathSums {
        PathSums {
            steps: checked_add(self.steps, self.runs),
            ..self
        }
    }

    /// The same paths, their first label quiescence (one more wait each).
    fn waited(self) -> PathSums {
        PathSums {
            waits: checked_add(self.waits, self.runs),
            ..self
        }
    }

    /// `leaves` paths of one label each.
    fn leaves(leaves: u128) -> PathSums {
        PathSums {
            runs: Some(leaves),
            steps: Some(leaves),
            waits: Some(0),
        }
    }

    /// `r` paths of no label.
    fn verdicts(r: u128) -> PathSums {
        PathSums {
            runs: Some(r),
            steps: Some(0),
            waits: Some(0),
        }
    }
}

/// Default of [`PlanCosts::memo_limit`]. An entry with its share of the hash table takes about
/// 100 bytes (heaptrack of `generate` on a random 5-state model with the earlier limit of
/// 1,000,000: one 203 MB table allocation while the 101 MB one it grew from was alive), so this
/// keeps the memo in the tens of megabytes.
const MEMO_LIMIT: usize = 250_000;

/// Counts the costs of a plan's tests from the plan alone, with the semantics of
/// [`Plan::build_test`] (the same move choice by `k`, the same `k % count` on every output
/// branch, the same specification tracking), without building a test.
///
/// Runs and steps are sums over `k < r` of a target's per-test figures. For an `Observe` move
/// over `q` tests, branch `t` (with `c` tests) sees `k % c`, so its share is `q / c` times the
/// sum over all of `t`'s tests plus the sum over its first `q % c` tests: the recursion needs
/// prefix sums, memoised per (target, specification state, prefix length). The longest test is
/// a maximum over all `k`, and every test of a branch is reached from some `k` of its parent, so
/// it needs only one value per (target, state).
pub(crate) struct PlanCosts<'a> {
    plan: &'a Plan,
    sa: &'a SuspensionAutomaton,
    labels: &'a LabelMap,
    sums: HashMap<(Target, At, u128), PathSums>,
    longest: HashMap<(Target, At), u128>,
    /// Most memo entries before the path sums give up (reported as unknown).
    pub(crate) memo_limit: usize,
}

impl<'a> PlanCosts<'a> {
    pub(crate) fn new(plan: &'a Plan, sa: &'a SuspensionAutomaton, labels: &'a LabelMap) -> Self {
        PlanCosts {
            plan,
            sa,
            labels,
            sums: HashMap::new(),
            longest: HashMap::new(),
            memo_limit: MEMO_LIMIT,
        }
    }

    fn allows(&self, s: Option<StateId>, x: LabelId) -> bool {
        s.is_none_or(|s| self.sa.after(s, x).is_some())
    }

    /// Outputs the specification allows in `s` (the branches of the lone expect node of a test
    /// whose root is a verdict).
    pub(crate) fn allowed_outputs(&self, s: Option<StateId>) -> u128 {
        self.labels
            .outputs
            .iter()
            .filter(|&&x| self.allows(s, x))
            .count() as u128
    }

    /// Runs and steps summed over all tests of `root` started in `start`; `None` if the memo
    /// outgrew [`PlanCosts::memo_limit`].
    pub(crate) fn path_sums(&mut self, root: Target, start: StateId) -> Option<PathSums> {
        let at = At::start(start);
        if let Target::Verdict(_) = root {
            let quiescent = self.allows(at.s, self.sa.quiescence());
            return Some(PathSums {
                waits: Some(u128::from(quiescent)),
                ..PathSums::leaves(self.allowed_outputs(at.s))
            });
        }
        let r = self.plan.count(root);
        self.prefix(root, at, r)
    }

    fn prefix(&mut self, t: Target, at: At, r: u128) -> Option<PathSums> {
        if r == 0 {
            return Some(PathSums::ZERO);
        }
        let Target::Node(p) = t else {
            return Some(PathSums::verdicts(r));
        };
        if let Some(&v) = self.sums.get(&(t, at, r)) {
            return Some(v);
        }
        if self.sums.len() >= self.memo_limit {
            return None;
        }
        let plan = self.plan;
        let moves = plan.moves(p);
        let mut total = if moves.is_empty() {
            // One test, a `pass` leaf (see `Builder::node`).
            PathSums::verdicts(r)
        } else {
            PathSums::ZERO
        };
        let mut left = r;
        for m in moves {
            if left == 0 {
                break;
            }
            let q = left.min(plan.move_count(m));
            total = total.add(self.move_prefix(m, at, q)?);
            left -= q;
        }
        self.sums.insert((t, at, r), total);
        Some(total)
    }

    /// The sums of the first `q` of the tests of target `t` that see `k % count(t)`, for the `k`
    /// below `q` (the share of an output branch, or of a quiet `Observe`).
    fn branch_prefix(&mut self, t: Target, at: At, q: u128) -> Option<PathSums> {
        let c = self.plan.count(t);
        let whole = if q / c > 0 {
            self.prefix(t, at, c)?.times(q / c)
        } else {
            PathSums::ZERO
        };
        Some(whole.add(self.prefix(t, at, q % c)?))
    }

    fn move_prefix(&mut self, m: &Move, at: At, q: u128) -> Option<PathSums> {
        let s = at.s;
        if at.quiet
            && let Some(t) = self.plan.quiet_target(self.sa, m)
        {
            return self.branch_prefix(t, at, q);
        }
        Some(match m {
            Move::Enter(c) => self.prefix(Target::Node(*c), at, q)?,
            Move::Send { input, then } => {
                let races = self
                    .labels
                    .racing
                    .iter()
                    .filter(|&&x| self.allows(s, x))
                    .count() as u128;
                let next = self.prefix(*then, self.plan.sent(self.sa, s, *input), q)?;
                next.extended().add(PathSums::leaves(races).times(q))
            }
            Move::Observe { branches, .. } => {
                let mut total = PathSums::ZERO;
                for &x in &self.labels.outputs {
                    if !self.allows(s, x) {
                        continue;
                    }
                    let share = match branches.binary_search_by_key(&x, |&(l, _)| l) {
                        Ok(i) => {
                            let ax = self.plan.observed(self.sa, s, x);
                            self.branch_prefix(branches[i].1, ax, q)?.extended()
                        }
                        Err(_) => PathSums::leaves(q),
                    };
                    let share = if x == self.sa.quiescence() {
                        share.waited()
                    } else {
                        share
                    };
                    total = total.add(share);
                }
                total
            }
        })
    }

    /// Labels on the longest path of any test of `root` started in `start`.
    pub(crate) fn longest_test(&mut self, root: Target, start: StateId) -> u128 {
        if let Target::Verdict(_) = root {
            return 1;
        }
        self.longest(root, At::start(start))
    }

    fn longest(&mut self, t: Target, at: At) -> u128 {
        let Target::Node(p) = t else {
            return 0;
        };
        if let Some(&v) = self.longest.get(&(t, at)) {
            return v;
        }
        let s = at.s;
        let mut best = 0u128;
        for m in self.plan.moves(p) {
            let quiet = self.plan.quiet_target(self.sa, m).filter(|_| at.quiet);
            let l = match m {
                _ if quiet.is_some() => self.longest(quiet.expect("checked"), at),
                Move::Enter(c) => self.longest(Target::Node(*c), at),
                Move::Send { input, then } => {
                    1 + self.longest(*then, self.plan.sent(self.sa, s, *input))
                }
                Move::Observe { branches, .. } => {
                    let mut l = 0;
                    for &x in &self.labels.outputs {
                        if !self.allows(s, x) {
                            continue;
                        }
                        let below = match branches.binary_search_by_key(&x, |&(l, _)| l) {
                            Ok(i) => self.longest(branches[i].1, self.plan.observed(self.sa, s, x)),
                            Err(_) => 0,
                        };
                        l = l.max(1 + below);
                    }
                    l
                }
            };
            best = best.max(l);
        }
        self.longest.insert((t, at), best);
        best
    }
}

/// The JSON length of each label's quoted name, by specification label id.
pub(crate) fn quoted_name_lengths(sa: &SuspensionAutomaton) -> Vec<u64> {
    (0..sa.alphabet.len())
        .map(|l| {
            let name = sa.alphabet.name(LabelId(l as u32));
            serde_json::to_string(name).map_or(name.len() as u64 + 2, |q| q.len() as u64)
        })
        .collect()
}

/// The nodes of one test and the bytes of its `"nodes": [...]` list in the suite JSON, found
/// by walking the test's distinct (plan node, test index, state) choice points in the order
/// [`Plan::build_test`] emits them, without building the test.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct WalkedTest {
    pub(crate) nodes: u64,
    pub(crate) node_bytes: u64,
    /// The length of the test's content name (`crate::suite::names::tree_name`).
    pub(crate) name_len: u64,
}

/// Number of decimal digits of `x`.
pub(crate) fn digits(x: u64) -> u64 {
    x.checked_ilog10().map_or(1, |d| d as u64 + 1)
}

struct Walker<'a> {
    costs: &'a PlanCosts<'a>,
    quoted: &'a [u64],
    memo: HashMap<(PlanId, u128, At), Next>,
    emitted: u32,
    /// Bytes of the emitted nodes without their node references.
    bytes: u64,
    /// Post-order indices of the nodes referenced.
    refs: Vec<u32>,
    /// By post-order index, the node's label in the test's name and the node after it
    /// (`crate::suite::names::first_labels`).
    first: Vec<Option<(LabelId, Next)>>,
}

impl Walker<'_> {
    /// Bytes of a reference, or records it for later (node indices are known at the end).
    fn reference(&mut self, n: Next) -> u64 {
        match n {
            Next::Verdict(v) => v.as_str().len() as u64 + 2,
            Next::Node(i) => {
                self.refs.push(i);
                0
            }
        }
    }

    fn emit(&mut self, bytes: u64, first: Option<(LabelId, Next)>) -> Next {
        self.first.push(first);
        self.bytes += bytes;
        self.emitted += 1;
        Next::Node(self.emitted - 1)
    }

    fn target(&mut self, t: Target, k: u128, at: At) -> Next {
        match t {
            Target::Verdict(v) => Next::Verdict(v),
            Target::Node(p) => self.node(p, k, at),
        }
    }

    /// Mirrors `Builder::node`, counting bytes instead of building nodes.
    fn node(&mut self, p: PlanId, k: u128, at: At) -> Next {
        let key = (p, k, at);
        let s = at.s;
        if let Some(&n) = self.memo.get(&key) {
            return n;
        }
        let costs = self.costs;
        let plan = costs.plan;
        let (chosen, k) = plan
            .chosen_move(p, k)
            .map_or((None, k), |(m, k)| (Some(m), k));
        let quiet = chosen.and_then(|m| plan.quiet_target(costs.sa, m));
        let result = match chosen {
            None => Next::PASS,
            Some(Move::Enter(c)) => self.node(*c, k, at),
            Some(_) if at.quiet && quiet.is_some() => {
                let t = quiet.expect("checked");
                self.target(t, k % plan.count(t), at)
            }
            Some(Move::Send { input, then }) => {
                let then = self.target(*then, k, plan.sent(costs.sa, s, *input));
                // {"send":I,"then":R,"race":{O:"retry",...}}
                let mut bytes = 8 + self.quoted[input.index()] + 8 + self.reference(then) + 9 + 2;
                let mut races = 0;
                for &x in &costs.labels.racing {
                    if costs.allows(s, x) {
                        bytes += self.quoted[x.index()] + 1 + Verdict::Retry.as_str().len() as u64;
                        bytes += 2;
                        races += 1;
                    }
                }
                bytes += races.max(1) - 1;
                self.emit(bytes, Some((*input, then)))
            }
            Some(Move::Observe {
                branches,
                otherwise,
            }) => {
                // {"expect":{O:R,...}}
                let mut bytes = 11 + 2;
                let mut listed = 0;
                let mut first: Option<(LabelId, Next)> = None;
                for &x in &costs.labels.outputs {
                    if !costs.allows(s, x) {
                        continue;
                    }
                    let next = match branches.binary_search_by_key(&x, |&(l, _)| l) {
                        Ok(i) => {
                            let t = branches[i].1;
                            let c = plan.count(t);
                            self.target(t, k % c, plan.observed(costs.sa, s, x))
                        }
                        Err(_) => Next::Verdict(*otherwise),
                    };
                    bytes += self.quoted[x.index()] + 1 + self.reference(next);
                    listed += 1;
                    let name = |l: LabelId| costs.sa.alphabet.name(l);
                    if matches!(next, Next::Node(_)) && first.is_none_or(|(f, _)| name(x) < name(f))
                    {
                        first = Some((x, next));
                    }
                }
                bytes += listed.max(1) - 1;
                self.emit(bytes, first)
            }
        };
        self.memo.insert(key, result);
        result
    }
}

impl PlanCosts<'_> {
    /// Walks test `k` of `root` (see [`WalkedTest`]); `quoted` from [`quoted_name_lengths`].
    pub(crate) fn walk_test(
        &self,
        root: Target,
        start: StateId,
        k: u128,
        quoted: &[u64],
    ) -> WalkedTest {
        let mut w = Walker {
            costs: self,
            quoted,
            memo: HashMap::new(),
            emitted: 0,
            bytes: 0,
            refs: Vec::new(),
            first: Vec::new(),
        };
        let top = w.target(root, k, At::start(start));
        let mut at = top;
        let labels = std::iter::from_fn(|| {
            let Next::Node(i) = at else { return None };
            let (label, next) = w.first.get(i as usize).copied().flatten()?;
            at = next;
            Some(self.sa.alphabet.name(label))
        });
        let name_len =
            crate::suite::names::content_name_len(crate::suite::names::stem(labels).len()) as u64;
        if w.emitted == 0 {
            // The lone expect node of `build_test` for a verdict root.
            let mut bytes = 11 + 2;
            let mut listed = 0;
            for &x in &self.labels.outputs {
                if self.allows(Some(start), x) {
                    bytes += quoted[x.index()] + 1 + w.reference(top);
                    listed += 1;
                }
            }
            bytes += listed.max(1) - 1;
            return WalkedTest {
                nodes: 1,
                node_bytes: bytes,
                name_len,
            };
        }
        let len = w.emitted as u64;
        let refs: u64 = w.refs.iter().map(|&i| digits(len - 1 - i as u64)).sum();
        WalkedTest {
            nodes: len,
            // Nodes separated by commas.
            node_bytes: w.bytes + refs + len - 1,
            name_len,
        }
    }
}
