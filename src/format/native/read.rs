//! Native models read: the document checked (names, kinds, labels, states, annotations)
//! and built as a Mealy machine, a Moore machine, a nondeterministic Mealy machine or an LTS.

use super::super::error::FormatError;
use super::super::options::LoadOptions;
use super::super::position::{ParseError, excerpt};
use super::super::timeouts::{Annotation, Target, TimeoutAnnotations};
use super::errors::{json_error, locate, yaml_error};
use super::schema::{Document, Kind, Name, Place, Problem, Syntax, Timeouts, problem};
use crate::model::{
    Alphabet, Interner, LabelId, LabelKind, Lts, Mealy, Model, ModelError, Onfsm, StateId,
};
use std::collections::HashMap;

/// Parses the YAML form of the native schema.
pub fn parse_yaml(
    text: &str,
    file: &str,
    name: &str,
    opts: &LoadOptions,
) -> Result<Model, FormatError> {
    parse(text, file, name, opts, Syntax::Yaml).map(|(m, ..)| m)
}

/// Parses the JSON form of the native schema.
pub fn parse_json(
    text: &str,
    file: &str,
    name: &str,
    opts: &LoadOptions,
) -> Result<Model, FormatError> {
    parse(text, file, name, opts, Syntax::Json).map(|(m, ..)| m)
}

/// Parses the native schema in YAML (`yaml`) or JSON, with its timeout annotations and
/// requirement tags.
pub(crate) fn parse_annotated(
    text: &str,
    file: &str,
    name: &str,
    opts: &LoadOptions,
    yaml: bool,
) -> Result<(Model, TimeoutAnnotations, crate::model::RequirementTags), FormatError> {
    let syntax = if yaml { Syntax::Yaml } else { Syntax::Json };
    parse(text, file, name, opts, syntax)
}

fn parse(
    text: &str,
    file: &str,
    default_name: &str,
    opts: &LoadOptions,
    syntax: Syntax,
) -> Result<(Model, TimeoutAnnotations, crate::model::RequirementTags), FormatError> {
    let doc: Document = match syntax {
        Syntax::Yaml => {
            check_flow_nesting(text, file)?;
            serde_yaml_ng::from_str(text).map_err(|e| yaml_error(&e, file, text))?
        }
        Syntax::Json => serde_json::from_str(text).map_err(|e| json_error(&e, file, text))?,
    };
    let annotations = doc.timeouts.as_ref().map(annotations).unwrap_or_default();
    let (tagged, places) =
        requirement_annotations(&doc).map_err(|p| locate(p, text, file, syntax))?;
    let model = build(doc, file, default_name, opts).map_err(|p| match p {
        Built::Problem(p) => locate(p, text, file, syntax).into(),
        Built::Other(e) => e,
    })?;
    // Errors in annotations are located at the `timeouts` key's value.
    let timeouts =
        super::super::timeouts::check(&annotations, &model).map_err(|(_, found, expected)| {
            locate(
                problem(Place::Key("timeouts"), found, expected),
                text,
                file,
                syntax,
            )
        })?;
    // Errors in requirements are located at their transition or the `state_requirements` key.
    let requirements =
        super::super::requirements::check(&tagged, &model).map_err(|(k, found, expected)| {
            locate(problem(places[k], found, expected), text, file, syntax)
        })?;
    Ok((model, timeouts, requirements))
}

/// The requirement annotations of the document (states in name order, then transitions in
/// file order), each with its index as its offset, and where each sits.
fn requirement_annotations(
    doc: &Document,
) -> Result<(Vec<super::super::requirements::Annotation>, Vec<Place>), Problem> {
    use super::super::requirements::{Annotation, Element, LabelText};
    let tags = |place: Place, names: &[Name]| {
        let mut out: Vec<String> = Vec::new();
        for n in names {
            match super::super::requirements::parse_tags(&n.0) {
                Ok(t) if t.len() == 1 && t[0] == n.0 => {
                    if !out.contains(&n.0) {
                        out.push(n.0.clone());
                    }
                }
                Ok(_) => {
                    return Err(problem(
                        place,
                        format!("the requirement `{}`", excerpt(&n.0)),
                        "one requirement name per list item",
                    ));
                }
                Err((_, found, expected)) => return Err(problem(place, found, expected)),
            }
        }
        if out.is_empty() {
            return Err(problem(
                place,
                "an empty list of requirements",
                "at least one requirement name",
            ));
        }
        Ok(out)
    };
    let (mut out, mut places) = (Vec::new(), Vec::new());
    let mut states: Vec<(&Name, &Vec<Name>)> = doc.state_requirements.iter().collect();
    states.sort_by(|a, b| a.0.0.cmp(&b.0.0));
    for (state, names) in states {
        let place = Place::Key("state_requirements");
        out.push(Annotation {
            element: Element::State(state.0.clone()),
            tags: tags(place, names)?,
            at: places.len(),
        });
        places.push(place);
    }
    for (k, t) in doc.transitions.iter().enumerate() {
        let Some(names) = &t.requirements else {
            continue;
        };
        let place = Place::Transition(k);
        let label = match (&t.label, &t.input, &t.output) {
            (Some(l), ..) => LabelText::Named(l.0.clone()),
            (None, Some(i), Some(o)) => LabelText::Mealy(i.0.clone(), o.0.clone()),
            (None, Some(i), None) => LabelText::Input(i.0.clone()),
            // The model's own checks refuse such a transition.
            _ => continue,
        };
        out.push(Annotation {
            element: Element::Transition {
                from: t.from.0.clone(),
                label,
                to: t.to.0.clone(),
            },
            tags: tags(place, names)?,
            at: places.len(),
        });
        places.push(place);
    }
    Ok((out, places))
}

/// The annotations of the `timeouts` key, sorted by name (so the first error is the same in
/// every run).
fn annotations(t: &Timeouts) -> Vec<Annotation> {
    let mut out: Vec<Annotation> = Vec::new();
    for (map, target) in [
        (&t.quiescence_ms, Target::State as fn(String) -> Target),
        (&t.response_ms, Target::Input),
    ] {
        let mut entries: Vec<(&Name, &Name)> = map.iter().collect();
        entries.sort_by(|a, b| a.0.0.cmp(&b.0.0));
        out.extend(entries.into_iter().map(|(k, v)| Annotation {
            target: target(k.0.clone()),
            value: v.0.clone(),
            at: 0,
        }));
    }
    out
}

/// Deepest `[`/`{` nesting accepted in YAML: the YAML scanner takes time quadratic in the
/// nesting depth, so deeper input is refused before it reaches the scanner.
const MAX_FLOW_NESTING: usize = 100;

/// Refuses YAML whose flow collections nest deeper than [`MAX_FLOW_NESTING`] (brackets in
/// quoted scalars and comments do not count).
pub(crate) fn check_flow_nesting(text: &str, file: &str) -> Result<(), ParseError> {
    let b = text.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'\'' => {
                i += 1;
                while i < b.len() && b[i] != b'\'' {
                    i += 1;
                }
            }
            b'#' if i == 0 || b[i - 1].is_ascii_whitespace() => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_FLOW_NESTING {
                    return Err(ParseError::at(
                        file,
                        text,
                        i,
                        format!("a flow collection nested {depth} deep"),
                        format!("at most {MAX_FLOW_NESTING} levels of `[` and `{{`"),
                    ));
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

enum Built {
    Problem(Problem),
    Other(FormatError),
}

/// Refuses a label name no format can carry ([`crate::format::name_problem`]).
fn check_name(place: Place, name: &Name) -> Result<(), Problem> {
    super::super::build::name_problem(&name.0)
        .map_err(|(found, expected)| problem(place, found, expected))
}

impl From<Problem> for Built {
    fn from(p: Problem) -> Self {
        Built::Problem(p)
    }
}

fn build(
    doc: Document,
    file: &str,
    default_name: &str,
    opts: &LoadOptions,
) -> Result<Model, Built> {
    // Label names every format (and every rendering) can carry.
    let lists = [
        ("inputs", &doc.inputs),
        ("outputs", &doc.outputs),
        ("internal", &doc.internal),
    ];
    for (key, names) in lists {
        for n in names {
            check_name(Place::Key(key), n)?;
        }
    }
    if let Some(q) = &doc.quiescence {
        check_name(Place::Key("quiescence"), q)?;
    }
    for (k, t) in doc.transitions.iter().enumerate() {
        for n in [&t.label, &t.input, &t.output].into_iter().flatten() {
            check_name(Place::Transition(k), n)?;
        }
    }
    let name = doc
        .name
        .as_ref()
        .map_or_else(|| default_name.to_owned(), |n| n.0.clone());
    // States: the declared list, or the initial state then first mentions in transitions.
    let declared = doc.states.is_some();
    let mut state_names: Vec<String> = Vec::new();
    let mut state_index: HashMap<String, u32> = HashMap::new();
    for s in doc.states.iter().flatten() {
        if state_index.contains_key(&s.0) {
            return Err(problem(
                Place::Key("states"),
                format!("state `{}` listed twice", excerpt(&s.0)),
                "each state once",
            )
            .into());
        }
        state_index.insert(s.0.clone(), state_names.len() as u32);
        state_names.push(s.0.clone());
    }
    let mut state = |n: &Name, place: Place| -> Result<StateId, Problem> {
        if let Some(&i) = state_index.get(&n.0) {
            return Ok(StateId(i));
        }
        if declared {
            return Err(problem(
                place,
                format!("state `{}`", excerpt(&n.0)),
                "a state listed under `states`",
            ));
        }
        let i = state_names.len() as u32;
        state_index.insert(n.0.clone(), i);
        state_names.push(n.0.clone());
        Ok(StateId(i))
    };
    let mut initial = state(&doc.initial, Place::Key("initial"))?;
    let mut edges = Vec::with_capacity(doc.transitions.len());
    for (k, t) in doc.transitions.iter().enumerate() {
        let place = Place::Transition(k);
        edges.push((state(&t.from, place)?, state(&t.to, place)?));
    }
    if let Some(name) = &opts.initial {
        initial = state_index.get(name).map(|&i| StateId(i)).ok_or_else(|| {
            let name = excerpt(name);
            Built::Other(FormatError::Usage(format!(
                "--initial {name}: {file} has no state named `{name}`"
            )))
        })?;
    }
    let model_error = |source: ModelError| {
        Built::Other(FormatError::Model {
            path: file.to_owned(),
            source,
        })
    };
    match doc.kind {
        Kind::Mealy | Kind::Moore | Kind::Onfsm => {
            let kind = match doc.kind {
                Kind::Mealy => "Mealy",
                Kind::Moore => "Moore",
                _ => "ONFSM",
            };
            for key in ["internal", "quiescence"] {
                let present = if key == "internal" {
                    !doc.internal.is_empty()
                } else {
                    doc.quiescence.is_some()
                };
                if present {
                    return Err(problem(
                        Place::Key(key),
                        format!("`{key}` in a {kind} model"),
                        "`internal` and `quiescence` only in an `lts` model",
                    )
                    .into());
                }
            }
            let mut inputs = Interner::new();
            let mut outputs = Interner::new();
            for i in &doc.inputs {
                inputs.intern(&i.0);
            }
            for o in &doc.outputs {
                outputs.intern(&o.0);
            }
            let moore = doc.kind == Kind::Moore;
            let state_outputs = match (&doc.state_outputs, moore) {
                (Some(_), false) => {
                    return Err(problem(
                        Place::Key("state_outputs"),
                        format!("`state_outputs` in a {kind} model"),
                        "`state_outputs` only in a `moore` model",
                    )
                    .into());
                }
                (None, false) => Vec::new(),
                (None, true) => {
                    return Err(problem(
                        Place::Key("kind"),
                        "a Moore model without `state_outputs`",
                        "`states` and `state_outputs`, the output of each state in that order",
                    )
                    .into());
                }
                (Some(list), true) => {
                    if !declared || list.len() != state_names.len() {
                        return Err(problem(
                            Place::Key("state_outputs"),
                            format!(
                                "{} state outputs for {} states",
                                list.len(),
                                if declared { state_names.len() } else { 0 }
                            ),
                            "`states` and one output per state in `state_outputs`",
                        )
                        .into());
                    }
                    let mut ids = Vec::with_capacity(list.len());
                    for o in list {
                        ids.push(outputs.get(&o.0).ok_or_else(|| {
                            problem(
                                Place::Key("state_outputs"),
                                format!("output `{}`", excerpt(&o.0)),
                                "an output listed under `outputs`",
                            )
                        })?);
                    }
                    ids
                }
            };
            let mut quads = Vec::with_capacity(edges.len());
            let mut seen: HashMap<(StateId, LabelId), usize> = HashMap::new();
            for (k, (t, &(from, to))) in doc.transitions.iter().zip(&edges).enumerate() {
                let place = Place::Transition(k);
                if t.label.is_some() {
                    return Err(problem(
                        place,
                        format!("a `label` in a {kind} transition"),
                        "`input` and `output` (a Mealy transition is {from, input, output, to}; a Moore one {from, input, to})",
                    )
                    .into());
                }
                let (i, o) = match (&t.input, &t.output, moore) {
                    (Some(i), None, true) => (i, None),
                    (Some(_), Some(_), true) => {
                        return Err(problem(
                            place,
                            "an `output` in a Moore transition",
                            "{from, input, to} (a Moore machine's outputs are under `state_outputs`)",
                        )
                        .into());
                    }
                    (Some(i), Some(o), false) => (i, Some(o)),
                    _ => {
                        return Err(problem(
                            place,
                            format!("a {kind} transition without `input` or `output`"),
                            if moore {
                                "{from, input, to}"
                            } else {
                                "{from, input, output, to}"
                            },
                        )
                        .into());
                    }
                };
                let i = inputs.get(&i.0).ok_or_else(|| {
                    problem(
                        place,
                        format!("input `{}`", excerpt(&i.0)),
                        "an input listed under `inputs`",
                    )
                })?;
                let o = match o {
                    None => state_outputs[to.index()],
                    Some(o) => outputs.get(&o.0).ok_or_else(|| {
                        problem(
                            place,
                            format!("output `{}`", excerpt(&o.0)),
                            "an output listed under `outputs`",
                        )
                    })?,
                };
                if doc.kind != Kind::Onfsm
                    && let Some(&first) = seen.get(&(from, i))
                {
                    let (_, fi, fo, ft) = quads[first];
                    if (fi, fo, ft) != (i, o, to) {
                        return Err(problem(
                            place,
                            format!(
                                "a second transition for input `{}` from state `{}` (the first is transition {})",
                                inputs.name(i),
                                state_names[from.index()],
                                first + 1
                            ),
                            "one transition per state and input (a deterministic machine; `kind: onfsm` allows several)",
                        )
                        .into());
                    }
                }
                seen.entry((from, i)).or_insert(quads.len());
                quads.push((from, i, o, to));
            }
            match doc.kind {
                Kind::Moore => {
                    let transitions: Vec<_> = quads.iter().map(|&(s, i, _, t)| (s, i, t)).collect();
                    let m = Mealy::from_moore(
                        name,
                        inputs,
                        outputs,
                        state_names,
                        initial,
                        state_outputs,
                        &transitions,
                    )
                    .map_err(model_error)?;
                    Ok(Model::Mealy(m))
                }
                Kind::Onfsm => {
                    let m = Onfsm::new(name, inputs, outputs, state_names, initial, quads)
                        .map_err(model_error)?;
                    Ok(Model::Lts(m.to_lts().map_err(model_error)?))
                }
                _ => {
                    let m = Mealy::new(name, inputs, outputs, state_names, initial, &quads)
                        .map_err(model_error)?;
                    Ok(Model::Mealy(m))
                }
            }
        }
        Kind::Lts => {
            let mut alphabet = Alphabet::new();
            let lists = [
                ("inputs", &doc.inputs, LabelKind::Input),
                ("outputs", &doc.outputs, LabelKind::Output),
                ("internal", &doc.internal, LabelKind::Internal),
            ];
            for (key, names, kind) in lists {
                for n in names {
                    alphabet.add(&n.0, kind).map_err(|c| {
                        problem(
                            Place::Key(key),
                            format!("label `{}` listed as {:?}", excerpt(&c.name), c.second),
                            format!("each label in one of inputs, outputs and internal (it is already {:?})", c.first),
                        )
                    })?;
                }
            }
            if let Some(q) = &doc.quiescence {
                alphabet.set_quiescence(&q.0).map_err(|c| {
                    problem(
                        Place::Key("quiescence"),
                        format!(
                            "quiescence label `{}`, already {:?}",
                            excerpt(&c.name),
                            c.first
                        ),
                        "a label that is not an input or internal",
                    )
                })?;
            }
            let mut triples = Vec::with_capacity(edges.len());
            for (k, (t, &(from, to))) in doc.transitions.iter().zip(&edges).enumerate() {
                let place = Place::Transition(k);
                if t.input.is_some() || t.output.is_some() {
                    return Err(problem(
                        place,
                        "`input`/`output` in an LTS transition",
                        "`label` (an LTS transition is {from, label, to})",
                    )
                    .into());
                }
                let Some(l) = &t.label else {
                    return Err(problem(
                        place,
                        "an LTS transition without `label`",
                        "{from, label, to}",
                    )
                    .into());
                };
                let l = alphabet.get(&l.0).ok_or_else(|| {
                    problem(
                        place,
                        format!("label `{}`", excerpt(&l.0)),
                        "a label listed under inputs, outputs, internal or quiescence",
                    )
                })?;
                triples.push((from, l, to));
            }
            let lts =
                Lts::new(name, alphabet, state_names, initial, triples).map_err(model_error)?;
            Ok(Model::Lts(lts))
        }
    }
}
