//! The native model schema, in YAML (`.yaml`, `.yml`) or JSON (`.json`): the model says its kind,
//! its labels and its states explicitly, so nothing is guessed.
//!
//! ```yaml
//! name: vending          # optional; defaults to the file stem
//! kind: lts              # lts | mealy | moore | onfsm
//! inputs: [coin]
//! outputs: [coffee]
//! internal: [tau]        # lts only
//! quiescence: delta      # lts only: the label of explicit quiescence transitions
//! initial: idle
//! states: [idle, paid]   # optional; declares order and states without transitions
//! transitions:
//!   - {from: idle, label: coin, to: paid}              # lts
//!   - {from: paid, label: coffee, to: idle}
//! # mealy: - {from: s0, input: a, output: x, to: s1}
//! ```
//!
//! An optional `timeouts` key annotates states with quiescence timeouts and inputs with response
//! timeouts, in milliseconds (`timeouts: {quiescence_ms: {paid: 1500}, response_ms: {coin:
//! 2000}}`; [`super::timeouts`]); its errors are located at the key's value.
//!
//! Requirement tags ([`super::requirements`]): a transition's optional `requirements` list and
//! the top-level `state_requirements` map from state names to lists; errors are located at the
//! transition or the key's value.
//!
//! `kind: onfsm` is a nondeterministic Mealy machine: the transitions of `mealy`, several per
//! state and input allowed (read as its LTS embedding, [`crate::model::Onfsm::to_lts`]).
//! `kind: moore` is a Moore machine: `states` is required, `state_outputs` lists the output of
//! each state in that order, and transitions are `{from, input, to}` (read as its Mealy
//! translation, [`crate::model::Mealy::from_moore`]).
//!
//! Syntax and type errors come with the line and column serde_json or serde_yaml_ng report.
//! Errors found after deserializing (an undeclared label, a nondeterministic Mealy transition)
//! are located by deserializing again up to the offending key or transition, so they carry a
//! position too.

mod errors;
mod read;
mod schema;
#[cfg(test)]
mod tests;
mod write;

pub(crate) use errors::{json_error, yaml_error};
pub(crate) use read::{check_flow_nesting, parse_annotated};
pub use read::{parse_json, parse_yaml};
pub use write::{write_annotated, write_json, write_yaml};
