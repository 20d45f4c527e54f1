//! The options of an STS run ([`StsRunOptions`]): rounds, seed, attempts per purpose, timeouts.

use crate::exec::stdio::Timeouts;
use crate::sts::purposes::{Criterion, Item};

/// The options of a run.
#[derive(Clone, Debug)]
pub struct StsRunOptions {
    /// Seed of the tester's value choices.
    pub seed: u64,
    /// Attempts per purpose while it ends inconclusive.
    pub attempts: usize,
    /// Times the whole set of purposes is executed (each time with fresh values), stopping at
    /// the first failure: the thesis' repetition "all test purposes are executed before these
    /// are tried again".
    pub rounds: usize,
    /// The stdio timeouts.
    pub timeouts: Timeouts,
    /// The criterion whose a posteriori coverage is reported beyond switches.
    pub criterion: Criterion,
    /// Its feasible items beyond switches ([`crate::sts::purposes::feasible_items`]).
    pub items: Vec<Item>,
}

/// Attempts per purpose unless told otherwise (`explore --attempts`' default).
pub const DEFAULT_ATTEMPTS: usize = 5;

impl StsRunOptions {
    /// A run of `rounds` rounds seeded with `seed`, with [`DEFAULT_ATTEMPTS`] attempts per
    /// purpose and no items beyond switches counted (see [`StsRunOptions::with_items`]).
    pub fn new(seed: u64, rounds: usize, timeouts: Timeouts, criterion: Criterion) -> Self {
        StsRunOptions {
            seed,
            attempts: DEFAULT_ATTEMPTS,
            rounds,
            timeouts,
            criterion,
            items: Vec::new(),
        }
    }

    /// The same with `attempts` attempts per purpose.
    pub fn with_attempts(self, attempts: usize) -> Self {
        StsRunOptions { attempts, ..self }
    }

    /// The same counting the a posteriori coverage of `items` (the criterion's feasible items
    /// beyond switches).
    pub fn with_items(self, items: Vec<Item>) -> Self {
        StsRunOptions { items, ..self }
    }
}
