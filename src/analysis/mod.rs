//! Analyses of suspension automata that state identification and suite construction build on
//! (van den Bos Sections 2.4-2.5 and 3.3): compatibility of states via the synchronous
//! self-composition and Algorithm 2, validity of specifications, equivalence of states on the
//! demonic completion (Def. 2.13) and the merge of compatible states (Def. 2.20-2.23).

pub mod compatibility;
pub mod equivalence;
pub mod merge;
pub mod validity;

pub use compatibility::{
    Compatibility, DEFAULT_PAIR_BUDGET, Move, Neighbours, PairBudgetExceeded, Preference,
};
pub use equivalence::{Equivalence, equivalence_classes};
pub use merge::{MergeError, merge};
pub use validity::{InvalidSpecification, Strategy, Validity};
