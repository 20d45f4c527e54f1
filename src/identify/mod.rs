//! State identification: distinguishing and splitting structures that tell states apart
//! (splitting trees, adaptive distinguishing sequences, separating families, UIO sequences).

pub mod mealy;
