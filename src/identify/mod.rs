//! State identification for suspension automata (van den Bos Ch. 2-3): distinguishing
//! experiments as explicit DAGs ([`experiment`]), pairwise distinguishing graphs giving harmonised
//! state identifiers (Algorithm 1, [`distinguishing_graph`]), splitting graphs (Algorithms 3-4)
//! and adaptive distinguishing graphs (Algorithm 5) topped up with pairwise graphs. Mealy machines
//! have their own identification structures in [`mealy`] (splitting trees, adaptive distinguishing
//! sequences, separating families, UIO sequences).

pub mod adg;
pub mod analysed;
pub mod canonical;
pub mod distinguishing_graph;
mod error;
pub mod experiment;
pub mod forced;
mod injective;
mod loss_game;
pub mod mealy;
pub mod random;
pub mod repair;
pub mod report;
pub(crate) mod sets;
pub mod split_options;
pub mod splitting_graph;

pub use crate::analysis::Preference;
pub use adg::{AdaptiveIdentification, PrefixInputs, adaptive_graph, adaptive_graph_as_built};
pub use analysed::{AdgMetrics, AnalysedGraph};
pub use distinguishing_graph::{ExperimentId, StateIdentifiers, pairwise_graph, set_graph};
pub use error::IdentifyError;
pub use experiment::{Experiment, ExperimentNode, Race, Step};
pub use forced::{ForcedLosses, forced_losses};
pub use repair::RepairMemo;
pub use report::{BoundReport, DistinguishOptions, DistinguishReport, Distinguished, distinguish};
pub use split_options::{InputSplitRule, SplitOptions, SplitPolicy};
pub use splitting_graph::{SplitNode, SplittingGraph, Witness};
