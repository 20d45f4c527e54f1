//! Attractor and joker strategies (van den Bos Ch. 6) on a goal's [`Arena`].
//!
//! - The attractor (Def. 6.7): `Attr⁰ = R`, `Attrᵏ⁺¹ = Attrᵏ ∪ CPre(Attrᵏ)` with
//!   `CPre(Q′) = {q | ∃a ∈ Γ1(q) ∀x ∈ Γ2(q): Moves(q, a, x) ⊆ Q′}`; a state's A-rank is the round
//!   that added it, and the action that witnessed `CPre` is its attracting move (Def. 6.8), which
//!   wins against any system (Theorem 6.9).
//! - The joker game (Def. 6.11): `Joker⁰ = Attr(R)`, `Jokerᵏ⁺¹ = Jokerᵏ ∪ Attr(Pre(Jokerᵏ))`
//!   with `Pre(Q′) = {q | ∃a ∃x ∃q′ ∈ Moves(q, a, x): q′ ∈ Q′}`; the J-rank of a state is the
//!   least k with the state in `Jokerᵏ`, i.e. the least number of jokers (moves in which the
//!   system helps) that reach the goal. The states that `Pre` adds are the joker states
//!   (Def. 6.14); their move is one with a helping move (Def. 6.15), every other state plays its
//!   attracting move within its joker set (Def. 6.18). States outside `Joker(R)` cannot reach the
//!   goal at all (Theorem 6.13).
//!
//! Each attractor is computed in rounds over the arena (a state joins when one action sends every
//! move into states of earlier rounds or lower joker sets), so ranks are exactly the thesis'
//! indices; Table 6.1 lists them as "joker set" and "attractor set". The compatibility
//! attractor of `analysis::compatibility` works on pairs of states with a different move rule, so
//! it is not shared.

use super::arena::Arena;
use crate::model::LabelId;

/// A tester action: wait for an output (θ) or apply an input.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// Apply this input (an automaton label).
    Input(LabelId),
    /// Apply no input and observe the next output or quiescence (θ).
    Wait,
}

/// How well the tester can reach a goal from a state.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Reachability {
    /// The state is in the attractor: a winning strategy reaches the goal whatever the system
    /// does.
    Winning,
    /// The goal is reached with this many jokers (at least 1): the system has to help that often.
    Jokers(u32),
    /// No play from the state reaches the goal.
    Unreachable,
}

impl std::fmt::Display for Reachability {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reachability::Winning => f.write_str("winning"),
            Reachability::Jokers(1) => f.write_str("1 joker"),
            Reachability::Jokers(k) => write!(f, "{k} jokers"),
            Reachability::Unreachable => f.write_str("unreachable"),
        }
    }
}

const NONE: u32 = u32::MAX;

/// The joker game of an arena: ranks and one positional joker strategy.
#[derive(Clone, Debug)]
pub struct JokerGame {
    jrank: Vec<u32>,
    arank: Vec<u32>,
    joker: Vec<bool>,
    chosen: Vec<Option<Move>>,
}

impl JokerGame {
    /// Solves the joker game of `arena` (goal nodes have ranks (0, 0)).
    ///
    /// The rounds are computed incrementally: a node can only join a round (or become a joker
    /// state) when one of its successors joined the round before, so each round examines only
    /// the predecessors of the nodes the previous round added. This gives the same ranks and
    /// moves as scanning every node each round, in time linear in the arena times the
    /// examinations per node.
    pub fn solve(arena: &Arena) -> JokerGame {
        let n = arena.len();
        let mut game = JokerGame {
            jrank: vec![NONE; n],
            arank: vec![NONE; n],
            joker: vec![false; n],
            chosen: vec![None; n],
        };
        let preds = Predecessors::of_arena(arena);
        let mut seen = Marks::new(n);
        // Level 0 starts from the goals; a playing node without any move is examined once too
        // (its empty θ move is vacuously attracting).
        let mut fresh: Vec<u32> = Vec::new();
        let mut stuck: Vec<u32> = Vec::new();
        for v in 0..n as u32 {
            if v != Arena::LOST && arena.is_goal(v) {
                game.jrank[v as usize] = 0;
                game.arank[v as usize] = 0;
                fresh.push(v);
            } else if arena.is_playing(v) && arena.successors(v).is_empty() {
                stuck.push(v);
            }
        }
        let mut level = 0;
        loop {
            let ranked = game.attract(arena, &preds, &mut seen, level, fresh, &stuck);
            stuck.clear();
            // The joker states of the next level: Pre(Jokerᵏ) \ Jokerᵏ. Nodes with a successor
            // of a lower level joined earlier, so only predecessors of this level are new.
            let next = level + 1;
            seen.next_epoch();
            let mut added: Vec<u32> = Vec::new();
            for &w in &ranked {
                for &v in preds.of(w) {
                    if game.jrank[v as usize] == NONE && arena.is_playing(v) && seen.mark(v) {
                        added.push(v);
                    }
                }
            }
            if added.is_empty() {
                break;
            }
            added.sort_unstable();
            for &v in &added {
                game.jrank[v as usize] = next;
                game.arank[v as usize] = 0;
                game.joker[v as usize] = true;
            }
            for &v in &added {
                game.chosen[v as usize] = game.helping_moves(arena, v).first().copied();
            }
            fresh = added;
            level = next;
        }
        game
    }

    /// Rounds of `CPre` within joker set `level`, starting from its states of A-rank 0
    /// (`fresh`); `extra` are further nodes to examine in round 1. Returns every node ranked in
    /// this level, `fresh` included.
    fn attract(
        &mut self,
        arena: &Arena,
        preds: &Predecessors,
        seen: &mut Marks,
        level: u32,
        fresh: Vec<u32>,
        extra: &[u32],
    ) -> Vec<u32> {
        let mut ranked = fresh;
        let mut frontier_start = 0;
        let mut round = 1;
        loop {
            seen.next_epoch();
            let mut candidates: Vec<u32> = Vec::new();
            let sources = ranked[frontier_start..]
                .iter()
                .flat_map(|&w| preds.of(w).iter().copied());
            for v in sources.chain(if round == 1 { extra } else { &[] }.iter().copied()) {
                if self.jrank[v as usize] == NONE && arena.is_playing(v) && seen.mark(v) {
                    candidates.push(v);
                }
            }
            let added: Vec<(u32, Move)> = candidates
                .into_iter()
                .filter_map(|v| {
                    self.attracting_moves(arena, v, level, round)
                        .into_iter()
                        .next()
                        .map(|m| (v, m))
                })
                .collect();
            if added.is_empty() {
                return ranked;
            }
            frontier_start = ranked.len();
            for (v, m) in added {
                self.jrank[v as usize] = level;
                self.arank[v as usize] = round;
                self.chosen[v as usize] = Some(m);
                ranked.push(v);
            }
            round += 1;
        }
    }

    /// Whether `w` lies in joker set `level` with A-rank below `round`, or in a lower joker set.
    fn below(&self, w: u32, level: u32, round: u32) -> bool {
        let j = self.jrank[w as usize];
        j != NONE && (j < level || (j == level && self.arank[w as usize] < round))
    }

    /// The moves of `v` all of whose outcomes lie below (`level`, `round`): inputs in label order,
    /// then θ.
    fn attracting_moves(&self, arena: &Arena, v: u32, level: u32, round: u32) -> Vec<Move> {
        let q = arena.quiescence();
        let outputs_ok = arena
            .outputs(v)
            .all(|(x, w)| x == q || self.below(w, level, round));
        let mut moves = Vec::new();
        if outputs_ok {
            moves.extend(
                arena
                    .inputs(v)
                    .filter(|&(_, w)| self.below(w, level, round))
                    .map(|(a, _)| Move::Input(a)),
            );
        }
        if arena.outputs(v).all(|(_, w)| self.below(w, level, round)) {
            moves.push(Move::Wait);
        }
        moves
    }

    /// The moves of joker state `v` that have a helping move (Def. 6.15): some outcome with a
    /// lower J-rank. Inputs whose own successor is lower come first (the system only has to let
    /// the input through), nearest the goal first, then θ, then inputs helped by a racing output.
    pub fn helping_moves_at(&self, arena: &Arena, v: u32) -> Vec<Move> {
        self.helping_moves(arena, v)
    }

    fn helping_moves(&self, arena: &Arena, v: u32) -> Vec<Move> {
        let level = self.jrank[v as usize];
        let lower = |w: u32| self.jrank[w as usize] < level;
        let q = arena.quiescence();
        let output_helps = arena.outputs(v).any(|(x, w)| x != q && lower(w));
        // Inputs that help by themselves, the one nearest the goal first.
        let mut direct: Vec<(u32, u32, LabelId)> = arena
            .inputs(v)
            .filter(|&(_, w)| lower(w))
            .map(|(a, w)| (self.jrank[w as usize], self.arank[w as usize], a))
            .collect();
        direct.sort_unstable();
        let mut moves: Vec<Move> = direct.into_iter().map(|(_, _, a)| Move::Input(a)).collect();
        if arena.outputs(v).any(|(_, w)| lower(w)) {
            moves.push(Move::Wait);
        }
        if output_helps {
            moves.extend(
                arena
                    .inputs(v)
                    .filter(|&(_, w)| !lower(w))
                    .map(|(a, _)| Move::Input(a)),
            );
        }
        moves
    }

    /// Every move a positional joker strategy may take at `v` (Def. 6.18): the helping moves of a
    /// joker state, the attracting moves of any other state; empty for goals and lost states.
    pub fn strategy_moves(&self, arena: &Arena, v: u32) -> Vec<Move> {
        if !arena.is_playing(v) || self.jrank[v as usize] == NONE {
            return Vec::new();
        }
        if self.joker[v as usize] {
            let mut m = self.helping_moves(arena, v);
            m.sort();
            m
        } else {
            let mut m =
                self.attracting_moves(arena, v, self.jrank[v as usize], self.arank[v as usize]);
            m.sort();
            m
        }
    }

    /// The move this strategy takes at `v` (`None` for goals and states outside `Joker(R)`).
    pub fn chosen(&self, v: u32) -> Option<Move> {
        self.chosen[v as usize]
    }

    /// The J-rank (number of jokers still needed), `None` outside `Joker(R)`.
    pub fn jrank(&self, v: u32) -> Option<u32> {
        Some(self.jrank[v as usize]).filter(|&j| j != NONE)
    }

    /// The A-rank within the node's joker set, `None` outside `Joker(R)`.
    pub fn arank(&self, v: u32) -> Option<u32> {
        Some(self.arank[v as usize]).filter(|&a| a != NONE)
    }

    /// Whether `v` is a joker state (Def. 6.14).
    pub fn is_joker_state(&self, v: u32) -> bool {
        self.joker[v as usize]
    }

    /// The (J-rank, A-rank) pair, which strictly decreases along every attracting move and every
    /// helped joker move; `None` outside `Joker(R)`.
    pub fn measure(&self, v: u32) -> Option<(u32, u32)> {
        self.jrank(v).map(|j| (j, self.arank[v as usize]))
    }

    /// How well the goal can be reached from `v`.
    pub fn reachability(&self, v: u32) -> Reachability {
        match self.jrank(v) {
            Some(0) => Reachability::Winning,
            Some(k) => Reachability::Jokers(k),
            None => Reachability::Unreachable,
        }
    }
}

/// The Player 2/3 controllable predecessor attractor (Def. 6.38): states from which the system
/// (choosing an output, then the successor) forces a visit to `target`, with their ranks
/// (`None` for states it cannot force). Used to compare joker strategies (Example 6.39).
pub fn adversary_attractor(arena: &Arena, target: &[bool]) -> Vec<Option<u32>> {
    let n = arena.len();
    let mut rank: Vec<Option<u32>> = (0..n).map(|v| target[v].then_some(0)).collect();
    let q = arena.quiescence();
    let mut round = 1;
    loop {
        let inside = |w: u32, rank: &[Option<u32>]| rank[w as usize].is_some_and(|r| r < round);
        let added: Vec<usize> = (0..n as u32)
            .filter(|&v| rank[v as usize].is_none() && arena.is_playing(v))
            .filter(|&v| {
                // ∃x ∀a: Moves(v, a, x) ∩ target ≠ ∅ (a ranges over the inputs and θ).
                arena.outputs(v).any(|(x, wx)| {
                    let via_output = x != q && inside(wx, &rank);
                    inside(wx, &rank)
                        && arena
                            .inputs(v)
                            .all(|(_, wa)| via_output || inside(wa, &rank))
                })
            })
            .map(|v| v as usize)
            .collect();
        if added.is_empty() {
            return rank;
        }
        for v in added {
            rank[v] = Some(round);
        }
        round += 1;
    }
}

/// The predecessors of every arena node (with a repeat per label that leads there).
struct Predecessors {
    start: Vec<u32>,
    sources: Vec<u32>,
}

impl Predecessors {
    fn of_arena(arena: &Arena) -> Predecessors {
        let n = arena.len();
        let mut start = vec![0u32; n + 1];
        for v in 0..n as u32 {
            for &(_, w) in arena.successors(v) {
                start[w as usize + 1] += 1;
            }
        }
        for k in 0..n {
            start[k + 1] += start[k];
        }
        let mut fill = start.clone();
        let mut sources = vec![0u32; start[n] as usize];
        for v in 0..n as u32 {
            for &(_, w) in arena.successors(v) {
                sources[fill[w as usize] as usize] = v;
                fill[w as usize] += 1;
            }
        }
        Predecessors { start, sources }
    }

    fn of(&self, w: u32) -> &[u32] {
        &self.sources[self.start[w as usize] as usize..self.start[w as usize + 1] as usize]
    }
}

/// Marks nodes as seen within one pass; a new pass clears them all in constant time.
struct Marks {
    epoch: Vec<u32>,
    current: u32,
}

impl Marks {
    fn new(n: usize) -> Marks {
        Marks {
            epoch: vec![0; n],
            current: 0,
        }
    }

    fn next_epoch(&mut self) {
        self.current += 1;
    }

    /// Marks `v`; whether it was unmarked in this pass.
    fn mark(&mut self, v: u32) -> bool {
        let fresh = self.epoch[v as usize] != self.current;
        self.epoch[v as usize] = self.current;
        fresh
    }
}
