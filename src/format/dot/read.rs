//! DOT models read: the raw graph built as a Mealy machine, an LTS or (record labels
//! `name|output` on every state) a Moore machine, with its annotations resolved.

use super::super::build::{RawEdge, RawGraph, Shape, build_model, name_problem, shape};
use super::super::error::FormatError;
use super::super::options::LoadOptions;
use super::super::position::{ParseError, Warning, excerpt};
use super::super::requirements;
use super::super::timeouts::TimeoutAnnotations;
use super::parser::{StateLabels, parse_raw};
use crate::model::{Interner, LabelId, Mealy, Model, StateId};
use std::collections::HashMap;

/// Parses DOT text into a model named `name`; warnings (such as a guessed initial state) are
/// appended to `warnings`.
pub fn parse(
    text: &str,
    file: &str,
    name: &str,
    opts: &LoadOptions,
    warnings: &mut Vec<Warning>,
) -> Result<Model, FormatError> {
    parse_annotated(text, file, name, opts, warnings).map(|(m, ..)| m)
}

/// [`parse`] with the model's timeout annotations (`quiescence_timeout_ms` on nodes,
/// `response_timeout_ms` on edges of inputs; [`crate::format::timeouts`]) and requirement tags
/// (`requirements` on nodes and edges; [`crate::format::requirements`]).
pub(crate) fn parse_annotated(
    text: &str,
    file: &str,
    name: &str,
    opts: &LoadOptions,
    warnings: &mut Vec<Warning>,
) -> Result<(Model, TimeoutAnnotations, crate::model::RequirementTags), FormatError> {
    let mut annotations = Vec::new();
    let mut tagged = Vec::new();
    let (raw, state_labels) = parse_raw(text, file, opts, warnings, &mut annotations, &mut tagged)?;
    let model = if is_moore(&raw, &state_labels, opts) {
        build_moore(raw, &state_labels, name, file, text, opts)?
    } else {
        build_model(raw, name, file, text, opts, warnings)?
    };
    let timeouts = super::super::timeouts::resolve(&annotations, &model, file, text)?;
    let requirements = requirements::resolve(&tagged, &model, file, text)?;
    Ok((model, timeouts, requirements))
}

/// The output of a Moore node label `name|output` (AALpy's record label, braces `{...}`
/// allowed), split at the first `|`.
fn moore_output(label: &str) -> Option<&str> {
    let t = label.trim();
    let t = t
        .strip_prefix('{')
        .and_then(|t| t.strip_suffix('}'))
        .unwrap_or(t);
    t.split_once('|').map(|(_, o)| o.trim())
}

/// Whether the graph is a Moore machine: every edge label is unmarked (an input), some state
/// has a label `name|output`, and no `--inputs`/`--outputs` ask for an LTS.
fn is_moore(raw: &RawGraph<'_>, state_labels: &StateLabels<'_>, opts: &LoadOptions) -> bool {
    opts.inputs.is_empty()
        && opts.outputs.is_empty()
        && !raw.labels.is_empty()
        && raw
            .labels
            .iter()
            .all(|l| matches!(shape(&l.text), Ok(Shape::Unmarked(_))))
        && state_labels
            .iter()
            .flatten()
            .any(|(l, _)| moore_output(l).is_some())
}

/// Builds the Mealy translation of the Moore machine `raw` whose states carry their outputs in
/// their labels ([`Mealy::from_moore`]).
fn build_moore(
    raw: RawGraph<'_>,
    state_labels: &StateLabels<'_>,
    name: &str,
    file: &str,
    text: &str,
    opts: &LoadOptions,
) -> Result<Model, FormatError> {
    let err =
        |at: usize, found: String, expected: &str| ParseError::at(file, text, at, found, expected);
    let mut outputs = Interner::new();
    let mut state_outputs = Vec::with_capacity(raw.states.len());
    for (k, s) in raw.states.iter().enumerate() {
        let Some((label, at)) = &state_labels[k] else {
            let at = raw
                .edges
                .iter()
                .find(|e| e.from as usize == k || e.to as usize == k)
                .map_or(0, |e| e.offset);
            return Err(err(
                at,
                format!("state `{}` without a label", excerpt(s)),
                "a Moore node label `name|output` on every state, like the other states",
            )
            .into());
        };
        let Some(o) = moore_output(label) else {
            return Err(err(
                *at,
                format!("node label `{}` without `|`", excerpt(label)),
                "a Moore node label `name|output`, like the other states",
            )
            .into());
        };
        name_problem(o).map_err(|(found, expected)| err(*at, found, &expected))?;
        state_outputs.push(outputs.intern(o));
    }
    let mut inputs = Interner::new();
    let input_ids: Vec<LabelId> = raw
        .labels
        .iter()
        .map(|l| inputs.intern(l.text.trim()))
        .collect();
    let mut seen: HashMap<(u32, LabelId), &RawEdge> = HashMap::new();
    let mut transitions = Vec::with_capacity(raw.edges.len());
    for e in &raw.edges {
        let i = input_ids[e.label as usize];
        if let Some(first) = seen.insert((e.from, i), e)
            && first.to != e.to
        {
            let p = super::super::position::Position::of_offset(text, first.offset);
            return Err(err(
                e.offset,
                format!(
                    "a second transition for input `{}` from state `{}` (the first is at line {}, column {})",
                    excerpt(inputs.name(i)),
                    excerpt(&raw.states[e.from as usize]),
                    p.line,
                    p.column
                ),
                "one transition per state and input (a Moore machine is deterministic)",
            )
            .into());
        }
        transitions.push((StateId(e.from), i, StateId(e.to)));
    }
    let initial = match &opts.initial {
        None => StateId(raw.initial),
        Some(n) => StateId(raw.states.iter().position(|s| s == n).ok_or_else(|| {
            let n = excerpt(n);
            FormatError::Usage(format!("--initial {n}: {file} has no state named `{n}`"))
        })? as u32),
    };
    let state_names = raw.states.iter().map(|s| s.to_string()).collect();
    let m = Mealy::from_moore(
        name,
        inputs,
        outputs,
        state_names,
        initial,
        state_outputs,
        &transitions,
    )
    .map_err(|source| FormatError::Model {
        path: file.to_owned(),
        source,
    })?;
    Ok(Model::Mealy(m))
}
