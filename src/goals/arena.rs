//! The game arena of a suspension automaton with a reachability goal (van den Bos Def. 6.23,
//! collapsing `(q, 1)` and `(q, 2)`, which enable the same moves): the product of the automaton
//! with a deterministic *monitor* of the trace that says when the goal is reached.
//!
//! A node is a pair (automaton state, monitor state) reachable from the initial pair. Player 1
//! (the tester) picks an enabled input or θ (wait); Player 2 (the system) picks an enabled output
//! or δ; under the nondeterministic test assumption the next node is
//! `Moves(q, θ, x) = {T(q, x)}`, `Moves(q, a, δ) = {T(q, a)}` and
//! `Moves(q, a, x) = {T(q, a), T(q, x)}` otherwise. `stop?` is left out: it never reaches a goal.
//!
//! Goal nodes are not expanded (the game is won there). A monitor may *refuse* a step (a test
//! purpose's refuse state, a regular expression that can no longer match): the step then leads to
//! the one node [`Arena::LOST`], from which nothing is reachable.

use crate::model::{LabelId, StateId, SuspensionAutomaton};
use std::collections::HashMap;

/// A deterministic observer of the trace: its state after each step decides whether the goal is
/// reached. Monitor states are small integers the monitor hands out.
pub trait Monitor {
    /// The monitor state before any step.
    fn initial(&mut self) -> u32;
    /// The monitor state after the automaton took `from --label--> ...`; `None` refuses the step.
    fn step(&mut self, m: u32, from: StateId, label: LabelId) -> Option<u32>;
    /// Whether the goal is reached in automaton state `q` with monitor state `m`.
    fn accepting(&self, m: u32, q: StateId) -> bool;
    /// How many monitor states there are, when known before the product is built (they are
    /// then `0..count`); the product is then indexed by a dense table instead of a hash map.
    fn state_count(&self) -> Option<u32> {
        None
    }
}

/// The reachable product of a suspension automaton and a goal monitor.
#[derive(Clone, Debug)]
pub struct Arena {
    /// Automaton state per node (unused for [`Arena::LOST`]).
    sa_state: Vec<StateId>,
    /// Per node `v`: its successors are `succ[succ_start[v]..succ_start[v + 1]]`, one per
    /// enabled automaton label, sorted by label (none for goal nodes and for [`Arena::LOST`]).
    succ_start: Vec<u32>,
    succ: Vec<(LabelId, u32)>,
    goal: Vec<bool>,
    /// Per automaton label: whether it is an input.
    is_input: Vec<bool>,
    quiescence: LabelId,
    initial: u32,
}

/// The product has more nodes than the budget allows.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "the game arena of goal `{goal}` has more than {limit} nodes (automaton states times monitor states); use a smaller model or a simpler goal"
)]
pub struct ArenaTooLarge {
    /// The goal's description.
    pub goal: String,
    /// The node budget.
    pub limit: usize,
}

/// Most arena nodes built for one goal.
pub const MAX_ARENA_NODES: usize = 4_000_000;

impl Arena {
    /// The node that refused steps lead to.
    pub const LOST: u32 = 0;

    /// Builds the reachable product of `sa` and `monitor` breadth-first (successors in label
    /// order, so node numbers are reproducible).
    pub fn build(
        sa: &SuspensionAutomaton,
        monitor: &mut dyn Monitor,
        goal_name: &str,
        limit: usize,
    ) -> Result<Arena, ArenaTooLarge> {
        let is_input = sa.alphabet.ids().map(|l| sa.alphabet.is_input(l)).collect();
        let mut arena = Arena {
            sa_state: vec![StateId(0)],
            succ_start: vec![0, 0],
            succ: Vec::new(),
            goal: vec![false],
            is_input,
            quiescence: sa.quiescence(),
            initial: 1,
        };
        let mut index = PairIndex::new(sa.num_states(), monitor.state_count());
        let m0 = monitor.initial();
        let mut pairs: Vec<(StateId, u32)> = vec![(StateId(0), 0)];
        let mut add = |arena: &mut Arena,
                       pairs: &mut Vec<(StateId, u32)>,
                       q: StateId,
                       m: u32,
                       monitor: &dyn Monitor|
         -> Result<u32, ArenaTooLarge> {
            if let Some(v) = index.get(q, m) {
                return Ok(v);
            }
            if arena.sa_state.len() > limit {
                return Err(ArenaTooLarge {
                    goal: goal_name.to_owned(),
                    limit,
                });
            }
            let v = arena.sa_state.len() as u32;
            index.insert(q, m, v);
            arena.sa_state.push(q);
            arena.goal.push(monitor.accepting(m, q));
            pairs.push((q, m));
            Ok(v)
        };
        add(&mut arena, &mut pairs, sa.initial(), m0, monitor)?;
        // Nodes are expanded in number order, so their successor ranges follow each other.
        let mut next = 1;
        while next < pairs.len() {
            let v = next;
            next += 1;
            if !arena.goal[v] {
                let (q, m) = pairs[v];
                for &(l, q2) in sa.enabled(q) {
                    let w = match monitor.step(m, q, l) {
                        Some(m2) => add(&mut arena, &mut pairs, q2, m2, monitor)?,
                        None => Arena::LOST,
                    };
                    arena.succ.push((l, w));
                }
            }
            arena.succ_start.push(arena.succ.len() as u32);
        }
        Ok(arena)
    }

    /// Number of nodes, [`Arena::LOST`] included.
    pub fn len(&self) -> usize {
        self.sa_state.len()
    }

    /// Whether the arena has only the lost node (never: the initial node always exists).
    pub fn is_empty(&self) -> bool {
        self.sa_state.len() <= 1
    }

    /// The initial node.
    pub fn initial(&self) -> u32 {
        self.initial
    }

    /// The automaton state of a node.
    pub fn sa_state(&self, v: u32) -> StateId {
        self.sa_state[v as usize]
    }

    /// Whether the node reached the goal.
    pub fn is_goal(&self, v: u32) -> bool {
        self.goal[v as usize]
    }

    /// Successors per enabled label, sorted by label.
    pub fn successors(&self, v: u32) -> &[(LabelId, u32)] {
        &self.succ[self.succ_start[v as usize] as usize..self.succ_start[v as usize + 1] as usize]
    }

    /// The node after `label`, if the label is enabled.
    pub fn after(&self, v: u32, label: LabelId) -> Option<u32> {
        let s = self.successors(v);
        s.binary_search_by_key(&label, |&(l, _)| l)
            .ok()
            .map(|k| s[k].1)
    }

    /// Whether a label is an input.
    pub fn is_input(&self, l: LabelId) -> bool {
        self.is_input[l.index()]
    }

    /// The quiescence label δ.
    pub fn quiescence(&self) -> LabelId {
        self.quiescence
    }

    /// The enabled inputs of a node, in label order.
    pub fn inputs(&self, v: u32) -> impl Iterator<Item = (LabelId, u32)> + '_ {
        self.successors(v)
            .iter()
            .copied()
            .filter(|&(l, _)| self.is_input(l))
    }

    /// The enabled outputs of a node (δ included), in label order.
    pub fn outputs(&self, v: u32) -> impl Iterator<Item = (LabelId, u32)> + '_ {
        self.successors(v)
            .iter()
            .copied()
            .filter(|&(l, _)| !self.is_input(l))
    }

    /// Whether a node is expanded (neither a goal nor lost): only such nodes have moves.
    pub fn is_playing(&self, v: u32) -> bool {
        v != Arena::LOST && !self.goal[v as usize]
    }

    /// Whether a goal node is reachable from the initial node without winning a race: inputs
    /// are applied only in nodes that allow quiescence, outputs and δ are taken anywhere (the
    /// system helps with its choices). A goal that is not is *race-dependent*: every play that
    /// reaches it applies an input in a state where the system must output, so a fast
    /// conforming system, whose output always comes first, never lets the tester reach it.
    pub fn reachable_without_races(&self) -> bool {
        let mut seen = vec![false; self.len()];
        let mut stack = vec![self.initial];
        seen[self.initial as usize] = true;
        while let Some(v) = stack.pop() {
            if v == Arena::LOST {
                continue;
            }
            if self.goal[v as usize] {
                return true;
            }
            let quiescent = self.after(v, self.quiescence).is_some();
            for &(l, w) in self.successors(v) {
                if (quiescent || !self.is_input(l)) && !seen[w as usize] {
                    seen[w as usize] = true;
                    stack.push(w);
                }
            }
        }
        false
    }
}

/// The node number of each (automaton state, monitor state) pair built so far: a dense table
/// when the monitor's states are known in advance, else a hash map.
enum PairIndex {
    Dense {
        table: Vec<u32>,
        monitor_states: u32,
    },
    Sparse(HashMap<(StateId, u32), u32>),
}

impl PairIndex {
    const ABSENT: u32 = u32::MAX;

    fn new(sa_states: usize, monitor_states: Option<u32>) -> PairIndex {
        match monitor_states {
            Some(k) if (sa_states as u64) * u64::from(k) <= MAX_ARENA_NODES as u64 * 4 => {
                PairIndex::Dense {
                    table: vec![PairIndex::ABSENT; sa_states * k as usize],
                    monitor_states: k,
                }
            }
            _ => PairIndex::Sparse(HashMap::new()),
        }
    }

    fn slot(q: StateId, m: u32, monitor_states: u32) -> usize {
        q.index() * monitor_states as usize + m as usize
    }

    fn get(&self, q: StateId, m: u32) -> Option<u32> {
        match self {
            PairIndex::Dense {
                table,
                monitor_states,
            } => Some(table[PairIndex::slot(q, m, *monitor_states)])
                .filter(|&v| v != PairIndex::ABSENT),
            PairIndex::Sparse(map) => map.get(&(q, m)).copied(),
        }
    }

    fn insert(&mut self, q: StateId, m: u32, v: u32) {
        match self {
            PairIndex::Dense {
                table,
                monitor_states,
            } => table[PairIndex::slot(q, m, *monitor_states)] = v,
            PairIndex::Sparse(map) => {
                map.insert((q, m), v);
            }
        }
    }
}

/// The monitor of a state goal: reached in the given automaton state.
pub struct StateMonitor(pub StateId);

impl Monitor for StateMonitor {
    fn initial(&mut self) -> u32 {
        0
    }
    fn step(&mut self, _: u32, _: StateId, _: LabelId) -> Option<u32> {
        Some(0)
    }
    fn accepting(&self, _: u32, q: StateId) -> bool {
        q == self.0
    }
    fn state_count(&self) -> Option<u32> {
        Some(1)
    }
}

/// The monitor of a transition goal: reached once `from --label-->` was taken.
pub struct TransitionMonitor {
    /// Source state.
    pub from: StateId,
    /// Label.
    pub label: LabelId,
}

impl Monitor for TransitionMonitor {
    fn initial(&mut self) -> u32 {
        0
    }
    fn step(&mut self, m: u32, q: StateId, l: LabelId) -> Option<u32> {
        Some(u32::from(m == 1 || (q == self.from && l == self.label)))
    }
    fn accepting(&self, m: u32, _: StateId) -> bool {
        m == 1
    }
    fn state_count(&self) -> Option<u32> {
        Some(2)
    }
}

/// The monitor of a switch goal: reached once `from --first--> middle --second-->` was taken as
/// two consecutive steps.
pub struct SwitchMonitor {
    /// Source state of the first transition.
    pub from: StateId,
    /// Label of the first transition.
    pub first: LabelId,
    /// Target of the first transition, source of the second.
    pub middle: StateId,
    /// Label of the second transition.
    pub second: LabelId,
}

impl Monitor for SwitchMonitor {
    fn initial(&mut self) -> u32 {
        0
    }
    fn step(&mut self, m: u32, q: StateId, l: LabelId) -> Option<u32> {
        Some(
            if m == 2 || (m == 1 && q == self.middle && l == self.second) {
                2
            } else if q == self.from && l == self.first {
                1
            } else {
                0
            },
        )
    }
    fn accepting(&self, m: u32, _: StateId) -> bool {
        m == 2
    }
    fn state_count(&self) -> Option<u32> {
        Some(3)
    }
}
