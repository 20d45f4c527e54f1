//! Test goals and the strategies that reach them (van den Bos Ch. 5-6; test purposes after TGV,
//! Goga seed 001, and EVEREST, seed 003).
//!
//! - [`goal`]: goals (a state, a transition, a switch, a test purpose, a regular expression) and
//!   the coverage criteria that make one goal per item;
//! - [`arena`]: the game arena of a suspension automaton and a goal (Def. 6.23, a product with the
//!   goal's trace monitor);
//! - [`solve`]: attractors, joker games and positional joker strategies (Defs. 6.7-6.18);
//! - `shortest`: the work shared by the goals of a suite when every move of the game has one
//!   outcome (suspension automata of Mealy machines): one breadth-first tree of least shortest
//!   paths gives the tests the per-goal games give for every state, transition and switch goal;
//! - [`cases`]: offline test cases that steer by a strategy (Theorems 6.30 and 6.35) and the
//!   suites of `generate --purpose` and `generate --cover`.
//!
//! The entry point for a tester that plays on the fly is [`reach_strategy`]: it solves the game
//! of one goal and answers, for the position reached by the trace so far, which move to play.
//!
//! ```
//! use ncomplete::goals::{reach_strategy, Goal, Move, Reachability};
//! use ncomplete::model::{suspension_from_marked, StateId};
//! let sa = suspension_from_marked("s", 2, &[(0, "?a", 1), (0, "delta", 0), (1, "!x", 0)]).unwrap();
//! let strategy = reach_strategy(&sa, &Goal::State(StateId(1))).unwrap();
//! assert_eq!(strategy.reachability(), Reachability::Winning);
//! let a = sa.alphabet.get("a").unwrap();
//! assert_eq!(strategy.move_at(strategy.start()), Some(Move::Input(a)));
//! let next = strategy.after(strategy.start(), a).unwrap();
//! assert!(strategy.reached(next));
//! ```

pub mod arena;
pub mod cases;
mod error;
pub mod goal;
mod shortest;
pub mod solve;
#[cfg(test)]
mod tcp;
#[cfg(test)]
mod tests;

pub use arena::{Arena, Monitor};
pub use cases::{GoalReport, GoalSuite, goal_suite};
pub use error::GoalSuiteError;
pub use goal::{Coverage, Goal, GoalError, RegexGoal, TestPurpose};
pub use solve::{JokerGame, Move, Reachability};

use crate::model::{LabelId, StateId, SuspensionAutomaton};

/// A position of a [`Strategy`]: the specification state and the goal's monitor state reached by
/// the trace so far.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position(pub(crate) u32);

/// A solved goal: the arena of the goal and a positional joker strategy on it (winning where the
/// goal is in reach whatever the system does).
#[derive(Clone, Debug)]
pub struct Strategy {
    arena: Arena,
    game: JokerGame,
}

/// Solves the game of `goal` on `sa`: the attractor of the goal, and joker strategies where the
/// initial state is outside it.
pub fn reach_strategy(sa: &SuspensionAutomaton, goal: &Goal) -> Result<Strategy, GoalError> {
    let mut monitor = goal.monitor();
    let arena = Arena::build(
        sa,
        monitor.as_mut(),
        &goal.describe(sa),
        arena::MAX_ARENA_NODES,
    )?;
    let game = JokerGame::solve(&arena);
    Ok(Strategy { arena, game })
}

impl Strategy {
    /// The position before any step.
    pub fn start(&self) -> Position {
        Position(self.arena.initial())
    }

    /// How well the goal can be reached from the initial state.
    pub fn reachability(&self) -> Reachability {
        self.game.reachability(self.arena.initial())
    }

    /// How well the goal can be reached from a position.
    pub fn reachability_at(&self, p: Position) -> Reachability {
        if self.arena.is_goal(p.0) && p.0 != Arena::LOST {
            return Reachability::Winning;
        }
        self.game.reachability(p.0)
    }

    /// The position after observing or applying `label`; `None` if the specification does not
    /// allow it there (an output: the system does not conform). After the goal was reached the
    /// position stays put.
    pub fn after(&self, p: Position, label: LabelId) -> Option<Position> {
        if self.reached(p) {
            return Some(p);
        }
        self.arena.after(p.0, label).map(Position)
    }

    /// Whether the goal is reached at this position.
    pub fn reached(&self, p: Position) -> bool {
        p.0 != Arena::LOST && self.arena.is_goal(p.0)
    }

    /// The move to play at a position: `None` once the goal is reached or when it cannot be
    /// reached any more.
    pub fn move_at(&self, p: Position) -> Option<Move> {
        self.game.chosen(p.0)
    }

    /// Whether the step from `from` to `to` is progress along the strategy: (jokers still
    /// needed, moves to the next joker state) decreased. A joker state's step that is not
    /// progress means the system did not help.
    pub fn progressed(&self, from: Position, to: Position) -> bool {
        if self.reached(to) {
            return true;
        }
        match (self.game.measure(from.0), self.game.measure(to.0)) {
            (Some(a), Some(b)) => b < a,
            _ => false,
        }
    }

    /// The specification state of a position (`None` for the position a test purpose refused).
    pub fn spec_state(&self, p: Position) -> Option<StateId> {
        (p.0 != Arena::LOST).then(|| self.arena.sa_state(p.0))
    }

    /// The arena the strategy plays on.
    pub fn arena(&self) -> &Arena {
        &self.arena
    }

    /// The solved joker game.
    pub fn game(&self) -> &JokerGame {
        &self.game
    }
}
