//! `ioco-counting`: an `n`-complete ioco suite by state counting over sets of pairwise
//! incompatible states, with no merges and no recursion. It combines the counting bound of the
//! unconditional suite (van den Bos Def. 2.41-2.43, Lemma 2.42) with the distinguishing graphs of
//! the distinguishing test suite (Def. 2.27, Algorithm 1, Thm. 2.40).
//!
//! # The suite
//!
//! Let `𝒜` be a family of sets of pairwise incompatible reachable states of the specification `S`
//! (Def. 2.15), to which every singleton `{s}` is added. For a trace `σ` and a state `s`, let
//! `v_s(σ)` be the number of prefixes of `σ` (`ε` and `σ` included) that reach `s` (as in
//! Def. 2.41). `σ` is *`𝒜`-bounded* when `Σ_{s∈A} v_s(σ) ≤ n` for every `A ∈ 𝒜`; `B` is the set
//! of `𝒜`-bounded traces of `S`, and `B⁺ = B ∪ {σµ ∈ traces(S) | σ ∈ B}`. The suite consists of
//!
//! 1. every `σx` with `σ ∈ B` and `x` an output or quiescence (the observations of `U(S, n)`);
//! 2. after every `σ ∈ B⁺`, the harmonised distinguishing graph (Algorithm 1, Lemma 2.33) of every
//!    pair `{S after σ, r}` with `r ≠ S after σ` in a common set of `𝒜`.
//!
//! With `𝒜` empty this is exactly `U(S, n)`: only the singletons bound the traces and no pair
//! shares a set. Without compatible pairs and with `𝒜 = {all reachable states}`, `σ` is bounded
//! iff `|σ| + 1 ≤ n`, so `B = P(S, n)`, `B⁺ = P+(S, n)` and the graphs are those of every
//! inequivalent pair: exactly `T(S, n)` of Def. 2.37. The unit tests check both equalities test
//! by test.
//!
//! The families offered ([`IncompatibleSets`]): all maximal sets of pairwise incompatible states
//! (maximal cliques of the incompatibility graph, Bron–Kerbosch with pivoting in state order,
//! under a step budget), one largest such set, or none.
//!
//! # Completeness
//!
//! Let `I` be input-enabled with `|I|_S ≤ n` (Def. 2.34) that passes the suite, and suppose
//! `I` does not conform. By Lemma 2.7 it has an ioco counterexample `σx`: `σ ∈ traces(S) ∩
//! traces(I)` and `x ∈ out(I after σ) \ out(S after σ)`; take a shortest one.
//!
//! - If `σ ∈ B`, the suite executes `σ` and then observes; by fairness (Sec. 2.7.4) `x` is
//!   eventually observed after `σ` and the suite fails, a contradiction.
//! - Otherwise let `σ'` be the shortest prefix of `σ` not in `B`. Its proper prefixes are in
//!   `B`, so every prefix of `σ'` is in `B⁺`, and some `A ∈ 𝒜` has `Σ_{s∈A} v_s(σ') ≥ n + 1`:
//!   there are `n + 1` prefixes `ρ_0 < … < ρ_n` of `σ'` with `S after ρ_j ∈ A`. Each reaches a
//!   specified state `I after ρ_j`, and there are at most `n` of those, so by pigeonhole two
//!   prefixes `ρ < ρ'` reach the same implementation state `i`.
//!   - If `s = S after ρ` and `s' = S after ρ'` differ, they are in the common set `A`, hence
//!     incompatible, and the harmonised graph `w` of `{s, s'}` was executed from `i` both after
//!     `ρ` and after `ρ'` (both are in `B⁺`). By fairness one observation sequence `τ` of `w` is
//!     seen in both executions (the argument of Thm. 2.40); by construction of distinguishing
//!     graphs (Def. 2.27, Lemma 2.33) `τ` is an ioco counterexample for `S/s` or for `S/s'`, so
//!     `ρτ` or `ρ'τ` is one for `S` and the suite fails: a contradiction.
//!   - So `S after ρ = S after ρ'` and `I after ρ = I after ρ'`. Replacing the prefix `ρ'` of
//!     `σ` by `ρ` gives a trace `σ''` with the same states in `S` and in `I` at its end, so
//!     `σ''x` is a shorter ioco counterexample (as in the proof of Lemma 2.42): a contradiction
//!     with the choice of `σx`.
//!
//! Hence `I ioco S`: the suite is `n`-complete (Def. 2.35). The graphs after the cut points
//! `B⁺ \ B` are needed: `ρ'` may be `σ'` itself, and a unit test shows a fault that a suite
//! without them misses. The cuts are early: a trace is not extended once some set's sum would
//! exceed `n`, so traces are no longer than `|S|·n` (`U`) and usually much shorter.
//!
//! # Counting relative to the state cover (`ioco-cover-counting`)
//!
//! The access sequences of the states already reach, in any implementation that passes, states
//! that the distinguishing graphs keep apart (the argument behind H, SPY and SPYH for Mealy
//! machines), so a visit along them need not be counted, and a set's bound shrinks by the
//! states it pins. Output choices of the implementation stand in the way: an access sequence
//! with an output the specification merely allows need not be a trace of the implementation.
//! So only *forced* access sequences pin: let the forced cover be the breadth-first tree (labels
//! in id order) from the initial state over the inputs and over the outputs of states that
//! allow exactly one output (quiescence counted as one); `acc(s)` is the tree path to `s` when
//! `s` is in the tree, and `Pin ⊆ S` the states of the tree. Every prefix of an `acc(s)` is an
//! `acc` (tree paths).
//!
//! A prefix `ρ` of `σ` is a *new visit* unless `ρ = acc(S after ρ)`; `σ` is bounded when every
//! `A ∈ 𝒜` has at most `n - |A ∩ Pin|` new visits to `A` (saturating at 0). The suite is built
//! as above from these bounded traces (so every `acc(s)` is bounded, with its observation and
//! graphs). A trace thus runs for about `n - |A| + 1` new visits instead of `n + 1` visits.
//!
//! *Completeness.* Let `I` pass, `|I|_S ≤ n`, and suppose `I` does not conform; among the ioco
//! counterexamples `σx` take one with the fewest new visits, then shortest. (1) *Pins.* For
//! `s ∈ Pin`, `acc(s)` is a trace of `I`: along it every output step is the only output `S`
//! allows, the observation after each prefix (bounded) shows some output of `I` by fairness,
//! and any other output would fail the suite. Write `i_s = I after acc(s)`. For `s ≠ s'` in a
//! common `A`, `i_s ≠ i_{s'}`: else the graph of the incompatible pair, run from `i_s` after
//! both access sequences, fails (Thm. 2.40). So `A ∩ Pin` pins `|A ∩ Pin|` distinct specified
//! states of `I`. (2) If `σ` is bounded, the suite observes after it and fails. (3) Else let
//! `σ'` be the shortest unbounded prefix and `A` a set with more than `n - |A ∩ Pin|` new
//! visits `ρ` along `σ'` (all in `B⁺`, so each is followed by the graphs of its state). If a new
//! visit `ρ` reaches a pin `i_{s'}`: with `s' ≠ S after ρ` the graph of the pair is run from
//! `i_{s'}` after `ρ` and after `acc(s')`: the suite fails; with `s' = S after ρ`, replacing
//! `ρ` by `acc(s')` in `σ` gives a counterexample with fewer new visits (`ρ` was one, the
//! prefixes of `acc(s')` are none, and a later prefix that was an `acc` would have `ρ` as a
//! prefix of an `acc`, so it would be one itself): a contradiction. So every new visit reaches
//! one of the at most `n - |A ∩ Pin|` other specified states, and two of them, `ρ < ρ'`, reach
//! the same `i`: if their specification states differ the graph of the pair fails the suite;
//! if not, cutting `σ` from `ρ'` back to `ρ` removes the new visit `ρ'` and (by the same prefix
//! argument) adds none. Either way a contradiction, so `I ioco S`. In the classic domain the
//! shortenings of `super::domain` (dropping a quiescence that loops in `S`, rule 3, or a
//! repeated one) remove a new visit and add none (a tree edge never loops, so no access
//! sequence takes such a quiescence, and a later prefix that becomes an access sequence was a
//! new visit before), so the argument carries over to the classic traces. A unit test and the
//! adversary check that the suite for `n - 1` is beaten, so a cut one step too early is caught.
//!
//! # Pins behind a choice of outputs
//!
//! The cover (`PinningCover`) extends the forced cover at *branching* states: a cover state
//! `v` (not reached by quiescence) whose allowed outputs `x_1, …, x_m` (`m ≥ 2`, quiescence
//! among them when allowed) lead to `m` distinct states outside the cover so far gets all `m`
//! edges as tree edges (the forced edges first, to closure, then the first state in cover order
//! that can branch, and again). Its children are reached by *some* output the implementation
//! shows, not by a chosen one, so a set `A` is credited only with what every choice pins:
//! `g(A)` is computed on the tree by `g_v = [v ∈ A] + Σ g_c` over the children by an input or
//! by a single allowed output, `+ min_j g_{c_j}` over the output children of a branching
//! (`g(A) = g` of the initial state), and `A`'s bound is `n − g(A)` new visits. With no
//! branching this is `|A ∩ Pin|` as above.
//!
//! *Completeness.* Let `Pin_I` be the cover states `s` with `acc(s) ∈ traces(I)`. (1′) `|A ∩
//! Pin_I| ≥ g(A)`, by induction over the tree from the leaves: for `v ∈ Pin_I`, every input
//! child is in `Pin_I` (`I` is input-enabled); the single allowed output of a forced state is
//! the only one `I` may show after `acc(v)`, which is bounded and so observed; at a branching
//! `out(I after acc(v))` is not empty (quiescence counts) and, as `I` passes the observation
//! after `acc(v)`, within `{x_1, …, x_m}`, so some `acc(v)x_j` is a trace of `I` and `c_j ∈
//! Pin_I`, which credits at least `min_j g_{c_j}`. States of `Pin_I` in a common set reach
//! distinct states of `I` as in (1). (2), (3) and the classic domain go through with `Pin_I`
//! for `Pin`: the counterexample `σ` is a trace of `I`, so a prefix `ρ = acc(s)` has `s ∈
//! Pin_I`; a new visit `ρ` reaching `i_{s'}` with `s' ∈ Pin_I` fails the suite or is replaced by
//! `acc(s') ∈ traces(I)`; the tree is still prefix-closed; and the other states number at most
//! `n − |A ∩ Pin_I| ≤ n − g(A)`. Crediting a branching with its *best* child instead (one step
//! too early) is caught: a unit test finds two-state implementations that pass that suite and
//! do not conform, while the suite as built judges every one right.
//!
//! # Plan
//!
//! A plan node is a bounded trace's state together with its sums per constraint (the sets of `𝒜`
//! and the singletons of states in no set of two or more), shared between traces with equal
//! keys as in `super::unconditional`; a successor whose sums would exceed `n` becomes a node
//! that only enters the graphs of its state. Moves are ordered as in `T(S, n)`: the
//! observation, the inputs, then the graphs by partner state.
//!
//! The bounded traces are planned by `super::bounded_traces` (shared with `U(S, n)`), the
//! sets of `𝒜` found by the clique search of `super::cliques`.

use super::access::reachable_states;
use super::bounded_traces::{BoundedTraces, Cover, TraceCap};
use super::cliques::cliques;
use super::conjunction::names;
use super::error::IocoSuiteError;
use super::pairs::PairAnalysis;
use super::plan::{Plan, PlanId, Target};
use super::weakening::pins_as_most;
use crate::model::{LabelId, StateId, SuspensionAutomaton};
use serde_json::{Value, json};

/// Which sets of pairwise incompatible states bound the traces of `ioco-counting` (every single
/// state is always a set of its own).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum IncompatibleSets {
    /// Every maximal set of pairwise incompatible reachable states.
    #[default]
    Maximal,
    /// One largest set of pairwise incompatible reachable states.
    Largest,
    /// No set: the suite is `U(S, n)`.
    None,
}

impl IncompatibleSets {
    /// The spelling of `--incompatible-sets` and of the suite header.
    pub fn name(self) -> &'static str {
        match self {
            IncompatibleSets::Maximal => "maximal",
            IncompatibleSets::Largest => "largest",
            IncompatibleSets::None => "none",
        }
    }
}

impl std::str::FromStr for IncompatibleSets {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "maximal" => Ok(IncompatibleSets::Maximal),
            "largest" => Ok(IncompatibleSets::Largest),
            "none" => Ok(IncompatibleSets::None),
            _ => Err(format!("found `{s}`, expected maximal, largest or none")),
        }
    }
}

/// The sets of two or more pairwise incompatible reachable states that `choice` asks for, each
/// in state order, the family sorted (singletons are implicit).
pub(crate) fn incompatible_family(
    reachable: &[StateId],
    analysis: &PairAnalysis,
    choice: IncompatibleSets,
) -> Result<Vec<Vec<StateId>>, IocoSuiteError> {
    incompatible_family_of(reachable, |p, q| analysis.compatible(p, q), choice)
}

/// [`incompatible_family`] from the compatibility relation alone.
pub(crate) fn incompatible_family_of(
    reachable: &[StateId],
    compatible: impl Fn(StateId, StateId) -> bool,
    choice: IncompatibleSets,
) -> Result<Vec<Vec<StateId>>, IocoSuiteError> {
    if choice == IncompatibleSets::None {
        return Ok(Vec::new());
    }
    let m = reachable.len();
    let mut adjacent = vec![vec![0u64; m.div_ceil(64)]; m];
    for i in 0..m {
        for j in 0..m {
            if i != j && !compatible(reachable[i], reachable[j]) {
                adjacent[i][j / 64] |= 1 << (j % 64);
            }
        }
    }
    Ok(cliques(&adjacent, choice == IncompatibleSets::Largest)?
        .into_iter()
        .filter(|set| set.len() >= 2)
        .map(|set| set.into_iter().map(|k| reachable[k]).collect())
        .collect())
}

/// The plan of an `ioco-counting` suite with its family of sets.
pub(crate) struct CountingPlan {
    /// The root of the suite.
    pub(crate) root: Target,
    /// The sets of two or more states of `𝒜`.
    pub(crate) family: Vec<Vec<StateId>>,
    /// With counting relative to the cover: the states of the cover, and how many of them
    /// are behind an output choice.
    pub(crate) pinned: Option<(usize, usize)>,
}

/// Adds the plan of the `ioco-counting` suite of `sa` for bound `n` to `plan` (with
/// `relative_to_cover`: `ioco-cover-counting`, see the module doc).
pub(crate) fn counting_plan(
    plan: &mut Plan,
    sa: &SuspensionAutomaton,
    n: usize,
    choice: IncompatibleSets,
    max_plan_nodes: usize,
    relative_to_cover: bool,
    cap: TraceCap,
) -> Result<CountingPlan, IocoSuiteError> {
    build(
        plan,
        sa,
        n,
        choice,
        (max_plan_nodes, cap),
        true,
        relative_to_cover,
    )
}

/// The state cover of `ioco-cover-counting` (see the module doc): the forced cover, extended at
/// *branching* states, whose allowed outputs all lead to distinct states outside the cover so far
/// (all of them become tree edges).
pub(crate) struct PinningCover {
    /// Per state, the tree edge that reaches it (`None` for the initial state and for states
    /// outside the cover).
    pub(crate) parent: Vec<Option<(StateId, LabelId)>>,
    /// Per state, whether it is in the cover.
    pub(crate) in_cover: Vec<bool>,
    /// The states of the cover, each after its parent.
    order: Vec<StateId>,
    /// Per state, whether its outputs are tree edges as a branching.
    branching: Vec<bool>,
}

impl PinningCover {
    /// The cover of `sa`: breadth-first over the forced edges (labels in id order) until
    /// closed, then the first cover state (in the order found) that can branch branches, and
    /// so on until none can.
    pub(crate) fn compute(sa: &SuspensionAutomaton) -> Self {
        let n = sa.num_states();
        let mut cover = PinningCover {
            parent: vec![None; n],
            in_cover: vec![false; n],
            order: vec![sa.initial()],
            branching: vec![false; n],
        };
        cover.in_cover[sa.initial().index()] = true;
        let outputs = |q: StateId| {
            sa.enabled(q)
                .iter()
                .filter(|&&(l, _)| sa.alphabet.is_output(l))
                .copied()
                .collect::<Vec<_>>()
        };
        let (mut next, mut scan) = (0, 0);
        loop {
            // Forced edges from the states not yet expanded.
            while next < cover.order.len() {
                let q = cover.order[next];
                next += 1;
                let forced_output = outputs(q).len() == 1;
                for &(l, t) in sa.enabled(q) {
                    let forced = sa.alphabet.is_input(l) || forced_output;
                    if forced && !cover.in_cover[t.index()] {
                        cover.add(t, q, l);
                    }
                }
            }
            // The first state that can branch. A state reached by quiescence is left out: in
            // the classic domain its node may be quiet (no observation after it).
            let can_branch = |cover: &PinningCover, q: StateId| {
                let outs = outputs(q);
                let reached_by_quiescence =
                    cover.parent[q.index()].is_some_and(|(_, l)| l == sa.quiescence());
                outs.len() >= 2
                    && !reached_by_quiescence
                    && outs.iter().enumerate().all(|(k, &(_, t))| {
                        !cover.in_cover[t.index()] && outs[..k].iter().all(|&(_, u)| u != t)
                    })
            };
            while scan < cover.order.len() && !can_branch(&cover, cover.order[scan]) {
                scan += 1;
            }
            let Some(&q) = cover.order.get(scan) else {
                break;
            };
            scan += 1;
            cover.branching[q.index()] = true;
            for (l, t) in outputs(q) {
                cover.add(t, q, l);
            }
        }
        cover
    }

    fn add(&mut self, t: StateId, q: StateId, l: LabelId) {
        self.in_cover[t.index()] = true;
        self.parent[t.index()] = Some((q, l));
        self.order.push(t);
    }

    /// States of the cover behind a branching.
    pub(crate) fn behind_a_choice(&self) -> usize {
        self.order
            .iter()
            .filter(|t| {
                let mut at = **t;
                while let Some((q, _)) = self.parent[at.index()] {
                    if self.branching[q.index()] {
                        return true;
                    }
                    at = q;
                }
                false
            })
            .count()
    }

    /// `g(A)` of the module doc: the fewest states of `A` (`member`) whose access sequences
    /// an implementation that passes executes, whichever allowed outputs it shows at the
    /// branchings.
    pub(crate) fn guaranteed(&self, sa: &SuspensionAutomaton, member: &[bool]) -> usize {
        let mut g = vec![0usize; sa.num_states()];
        // Per branching state, the least of its output children (none seen yet: `None`).
        let mut least: Vec<Option<usize>> = vec![None; sa.num_states()];
        for &t in self.order.iter().rev() {
            let own = usize::from(member[t.index()]) + least[t.index()].unwrap_or(0);
            g[t.index()] += own;
            if let Some((q, l)) = self.parent[t.index()] {
                if self.branching[q.index()] && sa.alphabet.is_output(l) {
                    let m = least[q.index()].get_or_insert(g[t.index()]);
                    *m = if pins_as_most() {
                        (*m).max(g[t.index()])
                    } else {
                        (*m).min(g[t.index()])
                    };
                } else {
                    g[q.index()] += g[t.index()];
                }
            }
        }
        g[sa.initial().index()]
    }
}

/// [`counting_plan`]; `graphs_at_cuts = false` leaves out the graphs after the traces of
/// `B⁺ \ B` (incomplete: for the test that shows they are needed).
fn build(
    plan: &mut Plan,
    sa: &SuspensionAutomaton,
    n: usize,
    choice: IncompatibleSets,
    (max_plan_nodes, cap): (usize, TraceCap),
    graphs_at_cuts: bool,
    relative_to_cover: bool,
) -> Result<CountingPlan, IocoSuiteError> {
    let reachable = reachable_states(sa);
    let mut analysis = PairAnalysis::compute(sa)?;
    let family = incompatible_family(&reachable, &analysis, choice)?;
    // Constraints: the sets of the family, then the singletons of states in none of them.
    let mut constraints_of: Vec<Vec<usize>> = vec![Vec::new(); sa.num_states()];
    for (k, set) in family.iter().enumerate() {
        for s in set {
            constraints_of[s.index()].push(k);
        }
    }
    let mut constraints = family.len();
    for &s in &reachable {
        if constraints_of[s.index()].is_empty() {
            constraints_of[s.index()].push(constraints);
            constraints += 1;
        }
    }
    // The graphs after a trace reaching q: one per partner sharing a set, in state order.
    let mut graphs: Vec<Vec<PlanId>> = vec![Vec::new(); sa.num_states()];
    for &q in &reachable {
        for &r in &reachable {
            let shares = constraints_of[q.index()]
                .iter()
                .any(|k| constraints_of[r.index()].contains(k));
            if r != q
                && shares
                && let Target::Node(id) = analysis.graph(plan, q, r)
            {
                graphs[q.index()].push(id);
            }
        }
    }
    let pinning = PinningCover::compute(sa);
    let cover = relative_to_cover.then(|| {
        // Per constraint, the new visits allowed: n minus the states it surely pins.
        let mut member = vec![false; sa.num_states()];
        let limits: Vec<usize> = (0..constraints)
            .map(|k| {
                for &s in &reachable {
                    member[s.index()] = constraints_of[s.index()].contains(&k);
                }
                n.saturating_sub(pinning.guaranteed(sa, &member))
            })
            .collect();
        let in_cover = pinning.in_cover.iter().filter(|&&x| x).count();
        (limits, (in_cover, pinning.behind_a_choice()))
    });
    let traces = BoundedTraces {
        constraints_of: &constraints_of,
        constraints,
        graphs: &graphs,
        graphs_at_cuts,
        max_plan_nodes,
        suite: "ioco-counting suite",
        advice: "try a smaller n, or --incompatible-sets maximal (more sets end the traces sooner)",
        cover: cover.as_ref().map(|(limits, _)| Cover {
            parent: &pinning.parent,
            limits,
        }),
        cap,
    };
    Ok(CountingPlan {
        root: traces.plan(plan, sa, sa.initial(), n)?,
        family,
        pinned: cover.map(|(_, pinned)| pinned),
    })
}

/// The guarantee text and the header field of an `ioco-counting` suite.
pub(crate) fn describe(
    sa: &SuspensionAutomaton,
    n: usize,
    choice: IncompatibleSets,
    family: &[Vec<StateId>],
    pinned: Option<(usize, usize)>,
) -> (String, Value) {
    const SHOWN: usize = 8;
    let mut listed: Vec<String> = family.iter().take(SHOWN).map(|s| names(sa, s)).collect();
    if family.len() > SHOWN {
        listed.push(format!("and {} more", family.len() - SHOWN));
    }
    let sets = match (choice, family.len()) {
        (IncompatibleSets::None, _) => {
            "single states only, which is the unconditional suite U(S, n)".to_owned()
        }
        (_, 0) => "single states only (no two states are incompatible), which is the \
                   unconditional suite U(S, n)"
            .to_owned(),
        (IncompatibleSets::Largest, _) => format!(
            "the largest set of pairwise incompatible states {} and single states",
            listed.join(", ")
        ),
        (IncompatibleSets::Maximal, k) => format!(
            "the {k} maximal sets of pairwise incompatible states {} and single states",
            listed.join(", ")
        ),
    };
    let relative = match pinned {
        Some((p, 0)) => format!(
            ", visits along the forced state cover not counted and each set's bound lowered by \
             the states of it the cover pins ({p} states pinned)"
        ),
        Some((p, b)) => format!(
            ", visits along the state cover not counted and each set's bound lowered by the \
             states of it the cover pins whichever allowed outputs the implementation shows \
             ({p} states in the cover, {b} of them behind a choice of outputs)"
        ),
        None => String::new(),
    };
    let guarantee = format!(
        "complete for every implementation with at most {n} specified states (state counting \
         over {sets}{relative}, with the distinguishing graphs of the pairs in a common set after \
         every bounded trace and one label more; van den Bos Lemma 2.42 and Thm. 2.40)"
    );
    let field = json!({
        "relative_to_cover": pinned.is_some(),
        "choice": choice.name(),
        "sets": family
            .iter()
            .map(|s| s.iter().map(|&q| sa.state_name(q)).collect::<Vec<_>>())
            .collect::<Vec<_>>(),
    });
    (guarantee, field)
}

#[cfg(test)]
mod tests;
