//! The purposes an STS run executes ([`PurposePath`]): from the purposes of a coverage
//! criterion, or read from a purposes file (`--purposes FILE`, [`purposes_from_json`]).

use crate::sts::purposes::{Criterion, Item, Pin, pinned_path};
use crate::sts::solver::Solver;
use crate::sts::symbolic::SegNode;
use crate::sts::types::Sts;

/// A purpose to execute: its switches and the node of the symbolic execution graph it reaches
/// (symbols and path condition).
#[derive(Clone, Debug)]
pub struct PurposePath {
    /// The switches, in order.
    pub switches: Vec<usize>,
    /// The symbolic state at its end.
    pub node: SegNode,
}

impl From<crate::sts::purposes::Purpose> for PurposePath {
    fn from(p: crate::sts::purposes::Purpose) -> Self {
        PurposePath {
            switches: p.path,
            node: p.end,
        }
    }
}

/// Why purpose paths could not be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PurposeError {
    /// The purposes file is not what `generate --cover switches` writes.
    #[error("{0}")]
    Shape(String),
    /// A switch named in the file is not in the model.
    #[error("purpose {purpose}: the model has no switch `{switch}`")]
    UnknownSwitch {
        /// The purpose's number, from 1.
        purpose: usize,
        /// The name.
        switch: String,
    },
    /// The path is not a path of the model's symbolic execution graph.
    #[error(
        "purpose {purpose}: switch `{switch}` at step {step} does not continue the path (wrong location, or its guard contradicts the path condition)"
    )]
    NotAPath {
        /// The purpose's number, from 1.
        purpose: usize,
        /// The switch.
        switch: String,
        /// Its step, from 1.
        step: usize,
    },
}

/// The symbolic path of `switches` from the root with its pins, checked with the solver.
pub fn purpose_path(
    sts: &Sts,
    solver: &mut dyn Solver,
    switches: Vec<usize>,
    pins: &[Pin],
    number: usize,
) -> Result<PurposePath, PurposeError> {
    match pinned_path(sts, solver, &switches, pins) {
        Ok((node, _)) => Ok(PurposePath { switches, node }),
        Err(step) => Err(PurposeError::NotAPath {
            purpose: number,
            switch: sts.switches[switches[step - 1]].name.clone(),
            step,
        }),
    }
}

/// What a purposes file holds for a run: its purposes, the criterion that selected them and
/// the criterion's feasible items beyond switches when the file lists them.
#[derive(Clone, Debug)]
pub struct PurposeFile {
    /// The purposes, in the file's order.
    pub paths: Vec<PurposePath>,
    /// `cover` (switch coverage when absent).
    pub criterion: Criterion,
    /// `item_coverage.feasible`; `None` when the file has no such key (a file written before
    /// the key existed, or of switch coverage).
    pub items: Option<Vec<Item>>,
}

/// The purposes of an `ncomplete-sts-purposes` JSON document for `sts`.
pub fn purposes_from_json(
    sts: &Sts,
    solver: &mut dyn Solver,
    text: &str,
) -> Result<PurposeFile, PurposeError> {
    let shape = |m: &str| PurposeError::Shape(m.to_owned());
    let doc: serde_json::Value = serde_json::from_str(text).map_err(|e| {
        PurposeError::Shape(format!(
            "not JSON at line {}, column {}: {e}",
            e.line(),
            e.column()
        ))
    })?;
    if doc["format"] != crate::sts::purposes::FORMAT
        || doc["version"] != crate::sts::purposes::VERSION
    {
        return Err(shape(
            "expected `\"format\": \"ncomplete-sts-purposes\"`, `\"version\": 1` (what `generate --cover switches` writes)",
        ));
    }
    if doc["model"] != sts.name.as_str() {
        return Err(PurposeError::Shape(format!(
            "the purposes are of model {}, not of {}",
            doc["model"], sts.name
        )));
    }
    let criterion = match doc.get("cover") {
        None => Criterion::SWITCHES,
        Some(c) => c
            .as_str()
            .and_then(Criterion::from_name)
            .ok_or_else(|| shape("`cover` must be `switches` or `switch-pairs`"))?,
    };
    let purposes = doc["purposes"]
        .as_array()
        .ok_or_else(|| shape("`purposes` must be an array"))?;
    let mut out = Vec::new();
    for (i, p) in purposes.iter().enumerate() {
        let steps = p["steps"]
            .as_array()
            .ok_or_else(|| shape("every purpose needs its `steps` array"))?;
        let mut switches = Vec::new();
        for step in steps {
            let name = step["switch"]
                .as_str()
                .ok_or_else(|| shape("every step needs its `switch` name"))?;
            let k = sts
                .switches
                .iter()
                .position(|s| s.name == name)
                .ok_or_else(|| PurposeError::UnknownSwitch {
                    purpose: i + 1,
                    switch: name.to_owned(),
                })?;
            switches.push(k);
        }
        let mut pins = Vec::new();
        for pin in p.get("pins").map_or(Ok(&Vec::new()), |x| {
            x.as_array().ok_or_else(|| shape("`pins` must be an array"))
        })? {
            let bad = || {
                PurposeError::Shape(format!(
                    "purpose {}: a pin needs `step` (1 to {}), `variable` (an integer variable of the model) and `value`",
                    i + 1,
                    switches.len()
                ))
            };
            let step = pin["step"]
                .as_u64()
                .and_then(|n| usize::try_from(n).ok())
                .filter(|n| (1..=switches.len()).contains(n))
                .ok_or_else(bad)?;
            let variable = pin["variable"]
                .as_str()
                .and_then(|name| sts.variables.iter().position(|v| v.name == name))
                .filter(|&v| matches!(sts.variables[v].ty, crate::sts::types::Type::Int { .. }))
                .ok_or_else(bad)?;
            let value = pin["value"].as_i64().ok_or_else(bad)?;
            pins.push(Pin {
                step,
                variable,
                value,
            });
        }
        out.push(purpose_path(sts, solver, switches, &pins, i + 1)?);
    }
    let items = match doc.get("item_coverage").and_then(|c| c.get("feasible")) {
        None => None,
        Some(list) => Some(
            list.as_array()
                .ok_or_else(|| shape("`item_coverage.feasible` must be an array"))?
                .iter()
                .map(|x| {
                    Item::from_json(sts, x).ok_or_else(|| {
                        PurposeError::Shape(format!(
                            "`item_coverage.feasible`: {x} is no item of the model (`{{\"switches\": [r1, r2]}}` or `{{\"switch\": r, \"variable\": x, \"value\": n}}`)"
                        ))
                    })
                })
                .collect::<Result<Vec<_>, _>>()?,
        ),
    };
    Ok(PurposeFile {
        paths: out,
        criterion,
        items,
    })
}
