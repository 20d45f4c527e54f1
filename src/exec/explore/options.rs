//! The options of an exploration: how the tester chooses its moves ([`Policy`]), what it
//! aims to cover, when it stops ([`ExploreOptions`], [`StopReason`]), and the constants of its
//! random and goal-directed choices.

use crate::exec::stdio::Timeouts;
use crate::goals::Goal;
use std::time::Duration;

/// Resolution of probabilities given as fractions.
pub(super) const PROBABILITY_SCALE: usize = 1_000_000;
/// Share of goal-directed moves replaced by a uniformly random one, so that a goal the system
/// keeps avoiding (an output it never gives) cannot trap the tester.
pub(super) const GOAL_RANDOM_PERMILLE: usize = 100;
/// Steps `Policy::Strategy` plays for one goal without progress (the system not helping at
/// joker states, or resets for a goal out of reach from the current position) before it skips
/// the goal.
pub(super) const STRATEGY_PATIENCE: u32 = 40;
/// Tries `Policy::Goal` gives an uncovered transition before it sets it aside: waits in its
/// state for an output the system does not give, or runs that ended in a reset because it went
/// out of reach while it was the target.
pub(super) const GOAL_PATIENCE: u32 = 6;

/// How the tester chooses its next move.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Policy {
    /// Uniformly among the inputs the specification enables and waiting for an output; the run
    /// is ended (reset) with the reset probability.
    Random,
    /// Goga's probabilities: send an input (uniformly among the enabled ones) with probability
    /// `input`, else wait; the run is ended with the reset probability.
    InputBias {
        /// Probability of sending an input when one is enabled.
        input: f64,
    },
    /// Steer to the nearest state with an uncovered transition by shortest paths over the
    /// specification; reset when nothing uncovered is reachable; uniform once all is covered.
    Goal,
    /// Play the attractor or joker strategy (van den Bos Ch. 6, [`crate::goals`]) of one goal at
    /// a time: the goals of [`ExploreOptions::goals`] first, then every transition of the
    /// specification in state and label order, each taken while still uncovered; a goal out of
    /// reach from the current position is retried after a reset, skipped when out of reach from
    /// the initial state or when the system kept refusing to help; uniform once all are done.
    Strategy,
}

/// When a run stops (besides a failure).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CoverageTarget {
    /// Every reachable state of the specification visited.
    States,
    /// Every transition of the specification's reachable part taken (inputs, outputs, δ).
    Transitions,
}

/// The options of an exploration.
#[derive(Clone, Debug)]
pub struct ExploreOptions {
    /// The move policy.
    pub policy: Policy,
    /// Seed of the tester's choices.
    pub seed: u64,
    /// Probability of ending the run and resetting the system before a move (Goga's `p1`).
    pub reset_probability: f64,
    /// Stop after this many steps (inputs sent and observations made).
    pub max_steps: u64,
    /// Stop once this coverage is complete.
    pub target: Option<CoverageTarget>,
    /// Stop after this much time.
    pub time_limit: Option<Duration>,
    /// The timeouts of observations.
    pub timeouts: Timeouts,
    /// Goals `Policy::Strategy` steers to before the transition coverage goals (a test purpose,
    /// a regular expression goal).
    pub goals: Vec<Goal>,
}

impl Default for ExploreOptions {
    fn default() -> Self {
        ExploreOptions {
            policy: Policy::Random,
            seed: 0,
            reset_probability: 0.01,
            max_steps: 1000,
            target: None,
            time_limit: None,
            timeouts: Timeouts::default(),
            goals: Vec::new(),
        }
    }
}

/// Why a run stopped.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// An observation the specification does not allow (or a broken system).
    Failure,
    /// The step budget was used up.
    StepBudget,
    /// The coverage target was reached.
    Coverage,
    /// The time limit passed.
    TimeLimit,
}

impl StopReason {
    /// The name used in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            StopReason::Failure => "failure",
            StopReason::StepBudget => "step budget",
            StopReason::Coverage => "coverage target reached",
            StopReason::TimeLimit => "time limit",
        }
    }
}
