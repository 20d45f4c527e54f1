//! Dense integer identifiers for states and labels.
//!
//! Invariant: ids are dense (`0..count`) and stable for the lifetime of the model that issued them;
//! they index plain vectors throughout the crate.

use std::fmt;

/// A state of an [`Lts`](super::Lts), [`SuspensionAutomaton`](super::SuspensionAutomaton) or
/// [`Mealy`](super::Mealy) machine.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StateId(pub u32);

/// A label (action) interned in an [`Alphabet`](super::Alphabet) or an [`Interner`](super::Interner).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LabelId(pub u32);

impl StateId {
    /// The id as a vector index.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl LabelId {
    /// The id as a vector index.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for StateId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl fmt::Display for LabelId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Converts a count or index to a `u32` id; models never exceed `u32::MAX` states or labels
/// (constructors reject larger ones before ids are issued).
#[inline]
pub(crate) fn id32(i: usize) -> u32 {
    debug_assert!(i < u32::MAX as usize);
    i as u32
}
