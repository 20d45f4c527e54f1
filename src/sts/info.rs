//! The figures `ncomplete info` prints for a symbolic transition system: its size (locations,
//! variables, gates, switches), which gate parameters have finite domains, and the size of its
//! bounded instantiation (`instantiate.rs`) or why there is none.

use super::instantiate::{InstantiateBudget, instantiate};
use super::types::{Direction, Sts};
use serde::Serialize;
use std::fmt::Write;

/// The size of an instantiation, or why it was refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Instantiation {
    /// The reachable part of the interpretation as an LTS.
    Finite {
        /// Reachable semantic states.
        states: usize,
        /// Transitions.
        transitions: usize,
        /// Gate values that occur (labels of the LTS).
        labels: usize,
    },
    /// Why there is no finite instantiation within the budget.
    Refused(String),
}

/// The figures of an STS.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StsInfo {
    /// Model name.
    pub name: String,
    /// Always `sts`.
    pub kind: &'static str,
    /// Number of locations.
    pub locations: usize,
    /// Number of location variables.
    pub variables: usize,
    /// Input gates.
    pub input_gates: usize,
    /// Output gates.
    pub output_gates: usize,
    /// Gate parameters in total.
    pub parameters: usize,
    /// Switches.
    pub switches: usize,
    /// Enumeration types.
    pub enumerations: usize,
    /// The bounded instantiation.
    pub instantiation: Instantiation,
}

/// Computes the figures of an STS, instantiating it within the default budget.
pub fn sts_info(sts: &Sts) -> StsInfo {
    let instantiation = match instantiate(sts, &InstantiateBudget::default()) {
        Ok(lts) => Instantiation::Finite {
            states: lts.num_states(),
            transitions: lts.num_transitions(),
            labels: lts.alphabet.len(),
        },
        Err(e) => Instantiation::Refused(e.to_string()),
    };
    StsInfo {
        name: sts.name.clone(),
        kind: "sts",
        locations: sts.locations.len(),
        variables: sts.variables.len(),
        input_gates: sts.input_gates(),
        output_gates: sts
            .gates
            .iter()
            .filter(|g| g.direction == Direction::Output)
            .count(),
        parameters: sts.gates.iter().map(|g| g.parameters.len()).sum(),
        switches: sts.switches.len(),
        enumerations: sts.enums.len(),
        instantiation,
    }
}

impl StsInfo {
    /// The human-readable report: one `key: value` line per figure.
    pub fn to_text(&self) -> String {
        let mut rows: Vec<(&str, String)> = vec![
            ("model", self.name.clone()),
            ("kind", "sts (symbolic transition system)".into()),
            ("locations", self.locations.to_string()),
            ("variables", self.variables.to_string()),
            ("input gates", self.input_gates.to_string()),
            ("output gates", self.output_gates.to_string()),
            ("gate parameters", self.parameters.to_string()),
            ("switches", self.switches.to_string()),
            ("enumerations", self.enumerations.to_string()),
        ];
        rows.push((
            "instantiation",
            match &self.instantiation {
                Instantiation::Finite {
                    states,
                    transitions,
                    labels,
                } => format!("{states} states, {transitions} transitions, {labels} labels"),
                Instantiation::Refused(why) => format!("none: {why}"),
            },
        ));
        let width = rows.iter().map(|(k, _)| k.len()).max().unwrap_or(0) + 1;
        let mut out = String::new();
        for (k, v) in rows {
            let _ = writeln!(out, "{:<width$} {v}", format!("{k}:"));
        }
        out
    }

    /// The JSON report (pretty-printed, fields in declaration order).
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("StsInfo serializes");
        s.push('\n');
        s
    }
}
