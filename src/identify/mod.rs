//! State identification for suspension automata (van den Bos Ch. 2-3): distinguishing
//! experiments as explicit DAGs, pairwise distinguishing graphs giving harmonised state
//! identifiers (Algorithm 1), splitting graphs (Algorithms 3-4) and adaptive distinguishing graphs
//! (Algorithm 5) topped up with pairwise graphs.

pub mod random;
