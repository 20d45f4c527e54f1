//! The specification automaton every runner reads a model as: an LTS through its suspension
//! automaton (TorX thesis Def. 2.2.12, fair divergence), a Mealy machine through
//! `mealy_to_suspension` (outputs after inputs, quiescent in between). The bottom of `exec`:
//! the simulator, the specification readings of `run --spec`, `explore` and the HTML reports
//! all start from it.

use super::error::ExecError;
use crate::model::{Lts, SuspensionAutomaton, SuspensionOptions, lts_to_suspension};

/// The suspension automaton of an LTS (TorX thesis Def. 2.2.12, fair divergence).
pub fn suspension_of(lts: &Lts) -> Result<SuspensionAutomaton, ExecError> {
    lts_to_suspension(lts, &SuspensionOptions::default())
        .map_err(|e| ExecError::Unsupported(format!("model `{}`: {e}", lts.name)))
}

/// The specification automaton of a model: an LTS through its suspension automaton, a Mealy
/// machine through `mealy_to_suspension` (outputs after inputs, quiescent in between).
pub fn specification_automaton(
    model: &crate::model::Model,
) -> Result<SuspensionAutomaton, ExecError> {
    match model {
        crate::model::Model::Lts(lts) => suspension_of(lts),
        crate::model::Model::Mealy(m) => crate::model::mealy_to_suspension(m)
            .map_err(|e| ExecError::Unsupported(format!("model `{}`: {e}", m.name))),
    }
}
