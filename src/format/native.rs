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
//! translation, [`Mealy::from_moore`]).
//!
//! Syntax and type errors come with the line and column serde_json or serde_yaml_ng report.
//! Errors found after deserializing (an undeclared label, a nondeterministic Mealy transition)
//! are located by deserializing again up to the offending key or transition, so they carry a
//! position too.

use super::error::FormatError;
use super::options::LoadOptions;
use super::position::{ParseError, clamp, describe_char_at, excerpt, offset_of};
use super::timeouts::{Annotation, Target, TimeoutAnnotations};
use super::unique_keys::unique_keys;
use crate::model::{
    Alphabet, Interner, LabelId, LabelKind, Lts, Mealy, Model, ModelError, Onfsm, StateId,
};
use serde::Deserialize;
use serde::de::{self, Deserializer, Visitor};
use std::collections::HashMap;
use std::fmt::{self, Write};

/// A label or state name; YAML numbers and booleans are accepted as their text.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Name(String);

impl AsRef<str> for Name {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl<'de> Deserialize<'de> for Name {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Name;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a name (a string or a number)")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Name, E> {
                Ok(Name(v.to_owned()))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Name, E> {
                Ok(Name(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Name, E> {
                Ok(Name(v.to_string()))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Name, E> {
                Ok(Name(v.to_string()))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Name, E> {
                Ok(Name(v.to_string()))
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Name, E> {
                Ok(Name(v.to_string()))
            }
        }
        d.deserialize_any(V)
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Kind {
    Lts,
    Mealy,
    Moore,
    Onfsm,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Transition {
    from: Name,
    to: Name,
    label: Option<Name>,
    input: Option<Name>,
    output: Option<Name>,
    /// Requirement tags ([`super::requirements`]).
    requirements: Option<Vec<Name>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Document {
    name: Option<Name>,
    kind: Kind,
    #[serde(default)]
    inputs: Vec<Name>,
    #[serde(default)]
    outputs: Vec<Name>,
    #[serde(default)]
    internal: Vec<Name>,
    quiescence: Option<Name>,
    initial: Name,
    states: Option<Vec<Name>>,
    /// Moore only: the output of each state, in the order of `states`.
    state_outputs: Option<Vec<Name>>,
    transitions: Vec<Transition>,
    /// Timeout annotations ([`super::timeouts`]).
    timeouts: Option<Timeouts>,
    /// Requirement tags of states, by state name ([`super::requirements`]).
    #[serde(default, deserialize_with = "unique_keys")]
    state_requirements: HashMap<Name, Vec<Name>>,
}

/// The `timeouts` key: quiescence timeouts by state, response timeouts by input, in ms.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Timeouts {
    #[serde(default, deserialize_with = "unique_keys")]
    quiescence_ms: HashMap<Name, Name>,
    #[serde(default, deserialize_with = "unique_keys")]
    response_ms: HashMap<Name, Name>,
}

/// Where a semantic error sits: the value of a top-level key or the n-th transition.
#[derive(Copy, Clone, Debug)]
enum Place {
    Key(&'static str),
    Transition(usize),
}

/// A semantic error before it has a position.
struct Problem {
    place: Place,
    found: String,
    expected: String,
}

fn problem(place: Place, found: impl Into<String>, expected: impl Into<String>) -> Problem {
    Problem {
        place,
        found: found.into(),
        expected: expected.into(),
    }
}

/// Which syntax the text is in.
#[derive(Copy, Clone)]
enum Syntax {
    Yaml,
    Json,
}

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
        super::timeouts::check(&annotations, &model).map_err(|(_, found, expected)| {
            locate(
                problem(Place::Key("timeouts"), found, expected),
                text,
                file,
                syntax,
            )
        })?;
    // Errors in requirements are located at their transition or the `state_requirements` key.
    let requirements =
        super::requirements::check(&tagged, &model).map_err(|(k, found, expected)| {
            locate(problem(places[k], found, expected), text, file, syntax)
        })?;
    Ok((model, timeouts, requirements))
}

/// The requirement annotations of the document (states in name order, then transitions in
/// file order), each with its index as its offset, and where each sits.
fn requirement_annotations(
    doc: &Document,
) -> Result<(Vec<super::requirements::Annotation>, Vec<Place>), Problem> {
    use super::requirements::{Annotation, Element, LabelText};
    let tags = |place: Place, names: &[Name]| {
        let mut out: Vec<String> = Vec::new();
        for n in names {
            match super::requirements::parse_tags(&n.0) {
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

/// Refuses a label name no format can carry ([`super::build::name_problem`]).
fn check_name(place: Place, name: &Name) -> Result<(), Problem> {
    super::build::name_problem(&name.0).map_err(|(found, expected)| problem(place, found, expected))
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

/// Deserializes again, failing at `place`, to learn the line and column of a semantic problem.
fn locate(p: Problem, text: &str, file: &str, syntax: Syntax) -> ParseError {
    use super::locate::{Step, value_position};
    let path = match p.place {
        Place::Key(k) => vec![Step::Key(k.to_owned())],
        Place::Transition(k) => vec![Step::Key("transitions".to_owned()), Step::Index(k)],
    };
    let (line, column) = value_position(text, matches!(syntax, Syntax::Yaml), &path);
    ParseError {
        file: file.to_owned(),
        line,
        column,
        found: p.found,
        expected: p.expected,
    }
}

/// Turns a serde message into `found ..., expected ...`.
fn split_message(msg: &str, text: &str, offset: Option<usize>) -> (String, String) {
    let here = || offset.map_or_else(|| "this".to_owned(), |o| describe_char_at(text, o));
    if let Some(rest) = msg.strip_prefix("invalid type: ")
        && let Some((found, expected)) = rest.split_once(", expected ")
    {
        return (found.to_owned(), expected.to_owned());
    }
    if let Some(rest) = msg.strip_prefix("invalid value: ")
        && let Some((found, expected)) = rest.split_once(", expected ")
    {
        return (found.to_owned(), expected.to_owned());
    }
    if let Some(rest) = msg.strip_prefix("unknown variant ")
        && let Some((found, expected)) = rest.split_once(", expected ")
    {
        return (found.to_owned(), expected.to_owned());
    }
    if let Some(rest) = msg.strip_prefix("unknown field ")
        && let Some((found, expected)) = rest.split_once(", expected ")
    {
        return (format!("unknown field {found}"), expected.to_owned());
    }
    if let Some(field) = msg.strip_prefix("missing field ") {
        return (format!("no field {field}"), format!("a field {field}"));
    }
    if let Some(field) = msg.strip_prefix("duplicate field ") {
        return (
            format!("a second field {field}"),
            "each field once".to_owned(),
        );
    }
    if msg == "expected value" {
        return (here(), "a value".to_owned());
    }
    if let Some(expected) = msg.strip_prefix("expected ") {
        return (here(), expected.to_owned());
    }
    // YAML scanner and parser messages.
    let (msg, context) = msg.split_once(", while ").unwrap_or((msg, ""));
    let context = if context.is_empty() {
        String::new()
    } else {
        format!(" (while {context})")
    };
    if let Some(expected) = msg.strip_prefix("did not find expected ") {
        return (here(), format!("{expected}{context}"));
    }
    if let Some(found) = msg.strip_prefix("found ") {
        return (found.to_owned(), format!("valid YAML{context}"));
    }
    if msg.starts_with("EOF while parsing") {
        return (
            "end of file".to_owned(),
            "the rest of the document".to_owned(),
        );
    }
    (here(), format!("valid input ({msg})"))
}

pub(crate) fn json_error(e: &serde_json::Error, file: &str, text: &str) -> ParseError {
    let msg = e.to_string();
    let msg = msg
        .rsplit_once(" at line ")
        .map_or(msg.as_str(), |(m, _)| m);
    let (line, column) = clamp(text, e.line(), e.column());
    let offset = offset_of(text, line, column);
    let (found, expected) = split_message(msg, text, offset);
    ParseError {
        file: file.to_owned(),
        line,
        column,
        found,
        expected,
    }
}

pub(crate) fn yaml_error(e: &serde_yaml_ng::Error, file: &str, text: &str) -> ParseError {
    let msg = e.to_string();
    let (line, column) = match e.location() {
        Some(l) => clamp(text, l.line(), l.column()),
        None => (1, 1),
    };
    let index = offset_of(text, line, column);
    // Drop serde_yaml_ng's own " at line L column C" and the document-path prefix.
    let mut msg = msg.as_str();
    if let Some((m, _)) = msg.split_once(" at line ") {
        msg = m;
    }
    if let Some((path, rest)) = msg.split_once(": ")
        && !path.contains(' ')
    {
        msg = rest;
    }
    let (found, expected) = split_message(msg, text, index);
    ParseError {
        file: file.to_owned(),
        line,
        column,
        found,
        expected,
    }
}

/// Writes a string as a YAML scalar: plain when unambiguous, JSON-quoted otherwise.
fn yaml_scalar(out: &mut String, s: &str) {
    let plain = s
        .bytes()
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        && !matches!(
            s.to_ascii_lowercase().as_str(),
            "true" | "false" | "yes" | "no" | "on" | "off" | "null" | "y" | "n"
        );
    if plain {
        out.push_str(s);
    } else {
        json_string(out, s);
    }
}

fn json_string(out: &mut String, s: &str) {
    out.push_str(&serde_json::Value::String(s.to_owned()).to_string());
}

struct Writer {
    out: String,
    yaml: bool,
}

impl Writer {
    fn scalar(&mut self, s: &str) {
        if self.yaml {
            yaml_scalar(&mut self.out, s);
        } else {
            json_string(&mut self.out, s);
        }
    }

    fn key(&mut self, k: &str) {
        if self.yaml {
            let _ = write!(self.out, "{k}: ");
        } else {
            let _ = write!(self.out, "  \"{k}\": ");
        }
    }

    fn end_field(&mut self) {
        self.out.push_str(if self.yaml { "\n" } else { ",\n" });
    }

    fn field(&mut self, k: &str, v: &str) {
        self.key(k);
        self.scalar(v);
        self.end_field();
    }

    fn list<'s>(&mut self, k: &str, items: impl IntoIterator<Item = &'s str>) {
        self.key(k);
        self.out.push('[');
        for (n, s) in items.into_iter().enumerate() {
            if n > 0 {
                self.out.push_str(", ");
            }
            self.scalar(s);
        }
        self.out.push(']');
        self.end_field();
    }

    /// The `transitions` key and one line per transition.
    fn transitions<'s>(&mut self, all: impl ExactSizeIterator<Item = &'s [(&'s str, &'s str)]>) {
        self.key("transitions");
        self.out.push_str(if self.yaml { "\n" } else { "[\n" });
        let n = all.len();
        for (k, t) in all.enumerate() {
            self.transition(t, k + 1 == n);
        }
        if self.yaml && n == 0 {
            self.out.truncate(self.out.len() - 1);
            self.out.push_str(" []\n");
        }
    }

    /// One transition per line: `{"from": .., ...}`.
    fn transition(&mut self, fields: &[(&str, &str)], last: bool) {
        self.out.push_str(if self.yaml { "  - {" } else { "    {" });
        for (n, (k, v)) in fields.iter().enumerate() {
            if n > 0 {
                self.out.push_str(", ");
            }
            if self.yaml {
                let _ = write!(self.out, "{k}: ");
            } else {
                let _ = write!(self.out, "\"{k}\": ");
            }
            self.scalar(v);
        }
        self.out.push('}');
        if !self.yaml && !last {
            self.out.push(',');
        }
        self.out.push('\n');
    }

    /// The `timeouts` key last (after `transitions`): the maps `quiescence_ms` and
    /// `response_ms` in name order, each on one line.
    fn timeouts(&mut self, annotations: &TimeoutAnnotations) {
        if self.yaml {
            self.out.push_str("timeouts:\n");
        } else {
            self.out.push_str(",\n  \"timeouts\": {\n");
        }
        let maps = [
            ("quiescence_ms", &annotations.quiescence_ms),
            ("response_ms", &annotations.response_ms),
        ];
        let maps: Vec<_> = maps.into_iter().filter(|(_, m)| !m.is_empty()).collect();
        for (k, (key, map)) in maps.iter().enumerate() {
            if self.yaml {
                let _ = write!(self.out, "  {key}: {{");
            } else {
                let _ = write!(self.out, "    \"{key}\": {{");
            }
            for (n, (name, ms)) in map.iter().enumerate() {
                if n > 0 {
                    self.out.push_str(", ");
                }
                self.scalar(name);
                let _ = write!(self.out, ": {ms}");
            }
            self.out.push('}');
            if !self.yaml && k + 1 < maps.len() {
                self.out.push(',');
            }
            self.out.push('\n');
        }
        if !self.yaml {
            self.out.push_str("  }");
        }
    }
}

/// [`write_yaml`] (`yaml`) or [`write_json`] with the `timeouts` key (last) when `annotations`
/// are not empty.
pub fn write_annotated(model: &Model, annotations: &TimeoutAnnotations, yaml: bool) -> String {
    let mut w = Writer {
        out: String::new(),
        yaml,
    };
    if !yaml {
        w.out.push_str("{\n");
    }
    match model {
        Model::Mealy(m) if m.state_outputs().is_some() => {
            let outs = m.state_outputs().unwrap_or_default();
            w.out.reserve(m.num_transitions() * 50);
            w.field("name", &m.name);
            w.field("kind", "moore");
            w.list("inputs", m.inputs.names().iter().map(String::as_str));
            w.list("outputs", m.outputs.names().iter().map(String::as_str));
            w.field("initial", m.state_name(m.initial()));
            w.list("states", m.state_names().iter().map(String::as_str));
            w.list("state_outputs", outs.iter().map(|&o| m.outputs.name(o)));
            let transitions: Vec<_> = m
                .quads()
                .map(|(s, i, _, t)| {
                    [
                        ("from", m.state_name(s)),
                        ("input", m.inputs.name(i)),
                        ("to", m.state_name(t)),
                    ]
                })
                .collect();
            w.transitions(transitions.iter().map(|t| &t[..]));
        }
        Model::Lts(l) if l.onfsm().is_some() => {
            let o = l.onfsm().expect("matched");
            w.out.reserve(o.quads().len() * 60);
            w.field("name", &o.name);
            w.field("kind", "onfsm");
            w.list("inputs", o.inputs.names().iter().map(String::as_str));
            w.list("outputs", o.outputs.names().iter().map(String::as_str));
            w.field("initial", &o.state_names()[o.initial().index()]);
            w.list("states", o.state_names().iter().map(String::as_str));
            let name = |s: StateId| o.state_names()[s.index()].as_str();
            let transitions: Vec<_> = o
                .quads()
                .iter()
                .map(|&(s, i, out, t)| {
                    [
                        ("from", name(s)),
                        ("input", o.inputs.name(i)),
                        ("output", o.outputs.name(out)),
                        ("to", name(t)),
                    ]
                })
                .collect();
            w.transitions(transitions.iter().map(|t| &t[..]));
        }
        Model::Mealy(m) => {
            w.out.reserve(m.num_transitions() * 60);
            w.field("name", &m.name);
            w.field("kind", "mealy");
            w.list("inputs", m.inputs.names().iter().map(String::as_str));
            w.list("outputs", m.outputs.names().iter().map(String::as_str));
            w.field("initial", m.state_name(m.initial()));
            w.list("states", m.state_names().iter().map(String::as_str));
            w.key("transitions");
            w.out.push_str(if yaml { "\n" } else { "[\n" });
            let n = m.num_transitions();
            for (k, (s, i, o, t)) in m.quads().enumerate() {
                w.transition(
                    &[
                        ("from", m.state_name(s)),
                        ("input", m.inputs.name(i)),
                        ("output", m.outputs.name(o)),
                        ("to", m.state_name(t)),
                    ],
                    k + 1 == n,
                );
            }
            if yaml && n == 0 {
                w.out.truncate(w.out.len() - 1);
                w.out.push_str(" []\n");
            }
        }
        Model::Lts(l) => {
            w.out.reserve(l.num_transitions() * 50);
            let a = &l.alphabet;
            let q = a.quiescence();
            let names = |kind: LabelKind| {
                a.of_kind(kind)
                    .filter(|&id| Some(id) != q)
                    .map(|id| a.name(id))
                    .collect::<Vec<_>>()
            };
            w.field("name", &l.name);
            w.field("kind", "lts");
            w.list("inputs", names(LabelKind::Input));
            w.list("outputs", names(LabelKind::Output));
            w.list("internal", names(LabelKind::Internal));
            if let Some(q) = q {
                w.field("quiescence", a.name(q));
            }
            w.field("initial", l.state_name(l.initial()));
            w.list("states", l.state_names().iter().map(String::as_str));
            w.key("transitions");
            w.out.push_str(if yaml { "\n" } else { "[\n" });
            let n = l.num_transitions();
            for (k, (s, lab, t)) in l.triples().enumerate() {
                w.transition(
                    &[
                        ("from", l.state_name(s)),
                        ("label", a.name(lab)),
                        ("to", l.state_name(t)),
                    ],
                    k + 1 == n,
                );
            }
            if yaml && n == 0 {
                w.out.truncate(w.out.len() - 1);
                w.out.push_str(" []\n");
            }
        }
    }
    if !yaml {
        w.out.push_str("  ]");
    }
    if !annotations.is_empty() {
        w.timeouts(annotations);
    }
    if !yaml {
        w.out.push_str("\n}\n");
    }
    w.out
}

/// The YAML text of a model in the native schema.
pub fn write_yaml(model: &Model) -> String {
    write_annotated(model, &TimeoutAnnotations::default(), true)
}

/// The JSON text of a model in the native schema.
pub fn write_json(model: &Model) -> String {
    write_annotated(model, &TimeoutAnnotations::default(), false)
}

#[cfg(test)]
mod tests {
    use super::*;

    const VENDING: &str = "name: vending
kind: lts
inputs: [coin]
outputs: [coffee]
internal: [tau]
quiescence: delta
initial: idle
transitions:
  - {from: idle, label: coin, to: paid}
  - {from: paid, label: tau, to: brewing}
  - {from: brewing, label: coffee, to: idle}
  - {from: idle, label: delta, to: idle}
";

    fn yaml(text: &str) -> Result<Model, FormatError> {
        parse_yaml(text, "m.yaml", "m", &LoadOptions::default())
    }

    fn json(text: &str) -> Result<Model, FormatError> {
        parse_json(text, "m.json", "m", &LoadOptions::default())
    }

    #[test]
    fn reads_an_lts() {
        let Model::Lts(l) = yaml(VENDING).unwrap() else {
            panic!("expected an LTS")
        };
        assert_eq!(l.name, "vending");
        assert_eq!(l.state_names(), ["idle", "paid", "brewing"]);
        assert_eq!(l.num_transitions(), 4);
        assert_eq!(l.alphabet.quiescence(), l.alphabet.get("delta"));
        assert!(l.alphabet.is_internal(l.alphabet.get("tau").unwrap()));
    }

    #[test]
    fn reads_a_mealy_machine_with_numeric_names() {
        let text = "kind: mealy\ninputs: [0, 1]\noutputs: [yes]\ninitial: 0\nstates: [0, 1, 2]\ntransitions:\n  - {from: 0, input: 1, output: yes, to: 1}\n";
        let Model::Mealy(m) = yaml(text).unwrap() else {
            panic!("expected Mealy")
        };
        assert_eq!(m.name, "m");
        assert_eq!(m.state_names(), ["0", "1", "2"]);
        assert_eq!(m.inputs.names(), ["0", "1"]);
        assert_eq!(m.outputs.names(), ["yes"]);
    }

    #[test]
    fn yaml_and_json_writers_read_back() {
        let m = yaml(VENDING).unwrap();
        assert_eq!(yaml(&write_yaml(&m)).unwrap(), m);
        assert_eq!(json(&write_json(&m)).unwrap(), m);
        // Names that need quoting survive.
        let odd = "kind: mealy\ninputs: [\"a: b\", \"yes\"]\noutputs: [\"\\\"q\\\"\", \"1.5\"]\ninitial: \"s 0\"\ntransitions:\n  - {from: \"s 0\", input: \"a: b\", output: \"\\\"q\\\"\", to: \"s 0\"}\n  - {from: \"s 0\", input: \"yes\", output: \"1.5\", to: \"s 0\"}\n";
        let m = yaml(odd).unwrap();
        assert_eq!(yaml(&write_yaml(&m)).unwrap(), m);
        assert_eq!(json(&write_json(&m)).unwrap(), m);
    }

    #[test]
    fn empty_models_write_valid_text() {
        let m = yaml("kind: lts\ninitial: s\ntransitions: []\n").unwrap();
        assert_eq!(yaml(&write_yaml(&m)).unwrap(), m);
        assert_eq!(json(&write_json(&m)).unwrap(), m);
    }

    fn yaml_err(text: &str) -> String {
        yaml(text).unwrap_err().to_string()
    }

    fn json_err(text: &str) -> String {
        json(text).unwrap_err().to_string()
    }

    #[test]
    fn yaml_syntax_and_type_errors() {
        assert_eq!(
            yaml_err("kind: lts\ninitial: a\ntransitions: []\n  x: 1\n"),
            "m.yaml:4:3: found `x`, expected key"
        );
        assert_eq!(
            yaml_err("kind: lts\n\tinitial: a\n"),
            "m.yaml:2:1: found a tab character that violates indentation, expected valid YAML"
        );
        assert_eq!(
            yaml_err("kind: 'lts\n"),
            "m.yaml:2:1: found unexpected end of stream, expected valid YAML"
        );
        assert_eq!(
            yaml_err("kind: fsm\ninitial: a\ntransitions: []\n"),
            "m.yaml:1:7: found `fsm`, expected one of `lts`, `mealy`, `moore`, `onfsm`"
        );
        assert_eq!(
            yaml_err("kind: lts\ntransitions: []\n"),
            "m.yaml:1:1: found no field `initial`, expected a field `initial`"
        );
        assert_eq!(
            yaml_err("kind: lts\ninitial: a\ntransitions: []\nstate: [a]\n"),
            "m.yaml:4:1: found unknown field `state`, expected one of `name`, `kind`, `inputs`, `outputs`, `internal`, `quiescence`, `initial`, `states`, `state_outputs`, `transitions`, `timeouts`, `state_requirements`"
        );
        assert_eq!(
            yaml_err("kind: lts\ninitial: a\ntransitions: 3\n"),
            "m.yaml:3:14: found integer `3`, expected a sequence"
        );
    }

    #[test]
    fn json_syntax_and_type_errors() {
        assert_eq!(
            json_err("{\"kind\": \"lts\",\n \"initial\": }"),
            "m.json:2:13: found `}`, expected a value"
        );
        assert_eq!(
            json_err("{\"kind\": \"lts\", \"initial\": \"a\""),
            "m.json:1:30: found end of file, expected the rest of the document"
        );
        assert_eq!(
            json_err("{\"kind\": 1, \"initial\": \"a\", \"transitions\": []}"),
            "m.json:1:10: found `1`, expected a value"
        );
        assert_eq!(
            json_err("{\"kind\": \"fsm\", \"initial\": \"a\", \"transitions\": []}"),
            "m.json:1:14: found `fsm`, expected one of `lts`, `mealy`, `moore`, `onfsm`"
        );
    }

    #[test]
    fn semantic_errors_carry_positions() {
        let undeclared = VENDING.replace("label: coffee", "label: tea");
        assert_eq!(
            yaml_err(&undeclared),
            "m.yaml:11:5: found label `tea`, expected a label listed under inputs, outputs, internal or quiescence"
        );
        let mealy_label = "kind: mealy\ninputs: [a]\noutputs: [x]\ninitial: s\ntransitions:\n  - {from: s, input: a, output: x, to: s}\n  - {from: s, label: a, to: s}\n";
        assert_eq!(
            yaml_err(mealy_label),
            "m.yaml:7:5: found a `label` in a Mealy transition, expected `input` and `output` (a Mealy transition is {from, input, output, to}; a Moore one {from, input, to})"
        );
        let nondet = "kind: mealy\ninputs: [a]\noutputs: [x, y]\ninitial: s\ntransitions:\n  - {from: s, input: a, output: x, to: s}\n  - {from: s, input: a, output: y, to: s}\n";
        assert_eq!(
            yaml_err(nondet),
            "m.yaml:7:5: found a second transition for input `a` from state `s` (the first is transition 1), expected one transition per state and input (a deterministic machine; `kind: onfsm` allows several)"
        );
        // The same transitions are an ONFSM's.
        let onfsm = nondet.replace("kind: mealy", "kind: onfsm");
        match parse_yaml(&onfsm, "m.yaml", "m", &LoadOptions::default()) {
            Ok(Model::Lts(l)) => assert_eq!(l.onfsm().map(|o| o.quads().len()), Some(2)),
            other => panic!("{other:?}"),
        }
        let moore = "kind: moore\ninputs: [a]\noutputs: [x, y]\ninitial: s\nstates: [s, t]\nstate_outputs: [x, y]\ntransitions:\n  - {from: s, input: a, to: t}\n";
        match parse_yaml(moore, "m.yaml", "m", &LoadOptions::default()) {
            Ok(Model::Mealy(m)) => {
                assert_eq!(m.state_outputs(), Some(&[LabelId(0), LabelId(1)][..]));
                assert_eq!(
                    m.step(StateId(0), LabelId(0)),
                    Some((StateId(1), LabelId(1)))
                );
            }
            other => panic!("{other:?}"),
        }
        let wrong = [
            (
                moore.replace("state_outputs: [x, y]", "state_outputs: [x]"),
                "m.yaml:6:16: found 1 state outputs for 2 states, expected `states` and one output per state in `state_outputs`",
            ),
            (
                moore.replace("state_outputs: [x, y]", "state_outputs: [x, z]"),
                "m.yaml:6:16: found output `z`, expected an output listed under `outputs`",
            ),
            (
                moore.replace("state_outputs: [x, y]\n", ""),
                "m.yaml:1:7: found a Moore model without `state_outputs`, expected `states` and `state_outputs`, the output of each state in that order",
            ),
            (
                moore.replace("to: t}", "output: x, to: t}"),
                "m.yaml:8:5: found an `output` in a Moore transition, expected {from, input, to} (a Moore machine's outputs are under `state_outputs`)",
            ),
            (
                moore.replace("kind: moore", "kind: mealy"),
                "m.yaml:6:16: found `state_outputs` in a Mealy model, expected `state_outputs` only in a `moore` model",
            ),
        ]
        .into_iter()
        .filter(|(text, want)| yaml_err(text) != *want)
        .map(|(text, want)| format!("{text}\n  got:  {}\n  want: {want}", yaml_err(&text)))
        .collect::<Vec<_>>();
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
        let bad_initial = "kind: lts\nstates: [a]\ninitial: b\ntransitions: []\n";
        assert_eq!(
            yaml_err(bad_initial),
            "m.yaml:3:10: found state `b`, expected a state listed under `states`"
        );
        let conflict = "kind: lts\ninputs: [a]\noutputs: [a]\ninitial: s\ntransitions: []\n";
        assert_eq!(
            yaml_err(conflict),
            "m.yaml:3:10: found label `a` listed as Output, expected each label in one of inputs, outputs and internal (it is already Input)"
        );
        let json_undeclared = "{\"kind\": \"lts\", \"initial\": \"s\",\n \"transitions\": [\n  {\"from\": \"s\", \"label\": \"a\", \"to\": \"s\"}\n ]}";
        assert_eq!(
            json_err(json_undeclared),
            "m.json:3:3: found label `a`, expected a label listed under inputs, outputs, internal or quiescence"
        );
        let mealy_quiescence = "kind: mealy\nquiescence: delta\ninitial: s\ntransitions: []\n";
        assert_eq!(
            yaml_err(mealy_quiescence),
            "m.yaml:2:13: found `quiescence` in a Mealy model, expected `internal` and `quiescence` only in an `lts` model"
        );
        let missing_output =
            "kind: mealy\ninputs: [a]\ninitial: s\ntransitions:\n  - {from: s, input: a, to: s}\n";
        assert_eq!(
            yaml_err(missing_output),
            "m.yaml:5:5: found a Mealy transition without `input` or `output`, expected {from, input, output, to}"
        );
    }
}

#[cfg(test)]
mod limits {
    use super::*;

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep_yaml = format!("kind: lts\ninitial: {}\n", "[".repeat(100_000));
        let e = parse_yaml(&deep_yaml, "d.yaml", "d", &LoadOptions::default()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "d.yaml:2:110: found a flow collection nested 101 deep, expected at most 100 levels of `[` and `{`"
        );
        let deep_yaml = format!("kind: lts\ninitial: {}\n", "{a: ".repeat(20_000));
        let e = parse_yaml(&deep_yaml, "d.yaml", "d", &LoadOptions::default()).unwrap_err();
        assert!(e.to_string().contains("nested 101 deep"), "{e}");
        // Brackets inside quoted scalars and comments do not count.
        let quoted = format!(
            "kind: lts # {}\ninitial: \"{}\"\nstates: [\"{}\", '{}']\ntransitions: []\n",
            "[".repeat(200),
            "[".repeat(200),
            "[".repeat(200),
            "{".repeat(200)
        );
        let m = parse_yaml(&quoted, "q.yaml", "q", &LoadOptions::default());
        assert!(matches!(m, Ok(Model::Lts(l)) if l.num_states() == 2));
        let deep_json = format!("{{\"initial\": {}", "[".repeat(100_000));
        let e = parse_json(&deep_json, "d.json", "d", &LoadOptions::default()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "d.json:1:13: found sequence, expected a name (a string or a number)"
        );
    }

    #[test]
    fn alias_bombs_are_refused() {
        let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..12 {
            let p = i - 1;
            text.push_str(&format!(
                "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
            ));
        }
        text.push_str("kind: lts\ninitial: s\ntransitions: []\n");
        let e = parse_yaml(&text, "b.yaml", "b", &LoadOptions::default()).unwrap_err();
        assert!(matches!(e, FormatError::Parse(_)), "{e}");
    }
}

#[cfg(test)]
mod more_error_shapes {
    use super::*;

    #[test]
    fn semantic_checks() {
        let cases: &[(&str, &str)] = &[
            (
                "kind: lts\nstates: [a, a]\ninitial: a\ntransitions: []\n",
                "m.yaml:2:9: found state `a` listed twice, expected each state once",
            ),
            (
                "kind: mealy\ninputs: [a]\noutputs: [x]\ninitial: s\ntransitions:\n  - {from: s, input: b, output: x, to: s}\n",
                "m.yaml:6:5: found input `b`, expected an input listed under `inputs`",
            ),
            (
                "kind: mealy\ninputs: [a]\noutputs: [x]\ninitial: s\ntransitions:\n  - {from: s, input: a, output: y, to: s}\n",
                "m.yaml:6:5: found output `y`, expected an output listed under `outputs`",
            ),
            (
                "kind: lts\ninputs: [a]\ninitial: s\ntransitions:\n  - {from: s, input: a, output: a, to: s}\n",
                "m.yaml:5:5: found `input`/`output` in an LTS transition, expected `label` (an LTS transition is {from, label, to})",
            ),
            (
                "kind: lts\ninitial: s\ntransitions:\n  - {from: s, to: s}\n",
                "m.yaml:4:5: found an LTS transition without `label`, expected {from, label, to}",
            ),
            (
                "kind: lts\ninputs: [d]\nquiescence: d\ninitial: s\ntransitions: []\n",
                "m.yaml:3:13: found quiescence label `d`, already Input, expected a label that is not an input or internal",
            ),
            (
                "kind: mealy\ninternal: [tau]\ninitial: s\ntransitions: []\n",
                "m.yaml:2:11: found `internal` in a Mealy model, expected `internal` and `quiescence` only in an `lts` model",
            ),
            (
                "kind: lts\nstates: [s]\ninitial: s\ntransitions:\n  - {from: s, label: a, to: t}\n",
                "m.yaml:5:5: found state `t`, expected a state listed under `states`",
            ),
        ];
        for (text, want) in cases {
            let got = parse_yaml(text, "m.yaml", "m", &LoadOptions::default())
                .unwrap_err()
                .to_string();
            assert_eq!(&got, want, "input: {text:?}");
        }
    }
}
