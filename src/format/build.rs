//! The graph shape shared by the `.aut` and DOT parsers, and how its edge labels become a Mealy
//! machine or an LTS.
//!
//! Label conventions (the same in both formats):
//! - `in / out` (a `/` and no leading `?` or `!`): a Mealy transition, split at the first `/`,
//!   both sides trimmed, further `/` kept in the output;
//! - `?a` or `a?`: input `a`; `!x` or `x!`: output `x`;
//! - `tau` or `i`: an internal step; `delta`: explicit quiescence (TorX thesis Sec. 2.2);
//! - anything else is unmarked and must be named by `--inputs` or `--outputs`.
//!
//! The first labelled edge decides whether the file is a Mealy machine or an LTS; every other
//! edge must agree. A Mealy file with two transitions for one state and input that differ in
//! output or target is a nondeterministic Mealy machine (ONFSM, as AALpy writes them) and is
//! read as its LTS embedding ([`Onfsm::to_lts`]), with a warning at the second transition.
//! Edges whose labels are all unmarked, between DOT nodes labelled `name|output`, are a Moore
//! machine (see [`super::dot`]). Raw labels are interned once by the parsers, so each distinct label text is
//! classified once, however many edges carry it.

use super::error::FormatError;
use super::options::LoadOptions;
use super::position::Warning;
use super::position::{ParseError, excerpt};
use crate::fast_hash::NameMap;
use crate::model::{Alphabet, Interner, LabelId, LabelKind, Lts, Mealy, Model, Onfsm, StateId};
use std::borrow::Cow;
use std::collections::HashMap;
use std::collections::hash_map::Entry;

/// A distinct edge label and the byte offset of its first use.
pub(crate) struct RawLabel<'a> {
    pub text: Cow<'a, str>,
    pub offset: usize,
}

/// An edge between states (indices into [`RawGraph::states`]) with an index into
/// [`RawGraph::labels`] and the byte offset of its label (or of the edge when it has none).
#[derive(Copy, Clone)]
pub(crate) struct RawEdge {
    pub from: u32,
    pub to: u32,
    pub label: u32,
    pub offset: usize,
}

/// A parsed graph before its labels are interpreted.
#[derive(Default)]
pub(crate) struct RawGraph<'a> {
    /// State names in id order.
    pub states: Vec<Cow<'a, str>>,
    /// The initial state.
    pub initial: u32,
    /// Distinct labels in first-seen order.
    pub labels: Vec<RawLabel<'a>>,
    label_index: HashMap<Cow<'a, str>, u32>,
    /// Edges in file order.
    pub edges: Vec<RawEdge>,
}

impl<'a> RawGraph<'a> {
    /// The index of label `text`, interning it (first use at `offset`) if new.
    pub fn intern_label(&mut self, text: Cow<'a, str>, offset: usize) -> u32 {
        if let Some(&i) = self.label_index.get(&text) {
            return i;
        }
        let i = self.labels.len() as u32;
        self.label_index.insert(text.clone(), i);
        self.labels.push(RawLabel { text, offset });
        i
    }

    /// Appends label `text` (first use at `offset`), which the caller knows is not among the
    /// labels yet, and returns its index; [`RawGraph::intern_label`] will not find it.
    pub fn push_distinct_label(&mut self, text: Cow<'a, str>, offset: usize) -> u32 {
        let i = self.labels.len() as u32;
        self.labels.push(RawLabel { text, offset });
        i
    }
}

/// How one label text reads under the conventions of the module documentation.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Shape<'s> {
    /// `in / out`.
    Mealy(&'s str, &'s str),
    /// A marked LTS label (`?a`, `!x`, `tau`, `i`) with its kind and name.
    Marked(LabelKind, &'s str),
    /// `delta`.
    Quiescence,
    /// A name without marks.
    Unmarked(&'s str),
}

/// What is wrong with a label name no model format can carry whole: an empty name, a control
/// character (a newline would also end a line of a test program or a stdio exchange), or
/// whitespace at either end (the `.aut` and DOT conventions trim names). The error is
/// `(found, expected)`.
pub(crate) fn name_problem(name: &str) -> Result<(), (String, String)> {
    const EXPECTED: &str =
        "a label name that is not empty, has no control characters and no whitespace at either end";
    if name.is_empty() {
        return Err(("an empty label name".into(), EXPECTED.into()));
    }
    if let Some(c) = name.chars().find(|c| c.is_control()) {
        return Err((
            format!(
                "label `{}` with the control character U+{:04X}",
                excerpt(&name.escape_debug().to_string()),
                c as u32
            ),
            EXPECTED.into(),
        ));
    }
    if name.starts_with(char::is_whitespace) || name.ends_with(char::is_whitespace) {
        return Err((
            format!("label `{}` with whitespace at an end", excerpt(name)),
            EXPECTED.into(),
        ));
    }
    Ok(())
}

/// Classifies a label text; the error is `(found, expected)`.
pub(crate) fn shape(text: &str) -> Result<Shape<'_>, (String, String)> {
    let t = text.trim();
    if t.chars().any(char::is_control) {
        name_problem(t)?;
    }
    let nonempty = |name: &'static str, s: &str| {
        if s.is_empty() {
            Err((
                format!("label `{}` with an empty {name}", excerpt(t)),
                format!("a non-empty {name}"),
            ))
        } else {
            Ok(())
        }
    };
    if t.is_empty() {
        return Err(("an empty label".into(), "a label".into()));
    }
    if let Some(rest) = t.strip_prefix('?') {
        let name = rest.trim();
        nonempty("input name", name)?;
        return Ok(Shape::Marked(LabelKind::Input, name));
    }
    if let Some(rest) = t.strip_prefix('!') {
        let name = rest.trim();
        nonempty("output name", name)?;
        return Ok(Shape::Marked(LabelKind::Output, name));
    }
    match t {
        "tau" | "i" => return Ok(Shape::Marked(LabelKind::Internal, t)),
        "delta" => return Ok(Shape::Quiescence),
        _ => {}
    }
    if let Some((input, output)) = t.split_once('/') {
        let (input, output) = (input.trim(), output.trim());
        nonempty("Mealy input", input)?;
        nonempty("Mealy output", output)?;
        return Ok(Shape::Mealy(input, output));
    }
    if let Some(rest) = t.strip_suffix('?') {
        let name = rest.trim();
        nonempty("input name", name)?;
        return Ok(Shape::Marked(LabelKind::Input, name));
    }
    if let Some(rest) = t.strip_suffix('!') {
        let name = rest.trim();
        nonempty("output name", name)?;
        return Ok(Shape::Marked(LabelKind::Output, name));
    }
    Ok(Shape::Unmarked(t))
}

/// Interprets a raw graph as a Mealy machine or an LTS.
pub(crate) fn build_model(
    mut raw: RawGraph<'_>,
    name: &str,
    file: &str,
    text: &str,
    opts: &LoadOptions,
    warnings: &mut Vec<Warning>,
) -> Result<Model, FormatError> {
    let mut shapes = Vec::with_capacity(raw.labels.len());
    for l in &raw.labels {
        let s = shape(&l.text)
            .map_err(|(found, expected)| ParseError::at(file, text, l.offset, found, expected))?;
        shapes.push(s);
    }
    let mealy = raw
        .edges
        .first()
        .is_some_and(|e| matches!(shapes[e.label as usize], Shape::Mealy(..)));
    // Every label must have the shape the first edge chose.
    for (l, s) in raw.labels.iter().zip(&shapes) {
        if matches!(s, Shape::Mealy(..)) != mealy {
            let (found, expected) = if mealy {
                (
                    format!("LTS label `{}`", excerpt(&l.text)),
                    "a Mealy label `input / output` like the file's first edge",
                )
            } else {
                (
                    format!("Mealy label `{}`", excerpt(&l.text)),
                    "an LTS label (`?input`, `!output`, `tau`, `delta`) like the file's first edge",
                )
            };
            return Err(ParseError::at(file, text, l.offset, found, expected).into());
        }
    }
    let initial = resolve_initial(&raw, file, opts)?;
    let state_names: Vec<String> = raw.states.iter().map(|s| s.to_string()).collect();
    let model_error = |source| FormatError::Model {
        path: file.to_owned(),
        source,
    };
    if mealy {
        let mut inputs = Interner::new();
        let mut outputs = Interner::new();
        let ids: Vec<(LabelId, LabelId)> = shapes
            .iter()
            .map(|s| match s {
                Shape::Mealy(i, o) => (inputs.intern(i), outputs.intern(o)),
                _ => unreachable!("checked above: every label is a Mealy label"),
            })
            .collect();
        let conflict = first_mealy_conflict(&raw, &ids, &inputs, text);
        let quads: Vec<_> = raw
            .edges
            .iter()
            .map(|e| {
                let (i, o) = ids[e.label as usize];
                (StateId(e.from), i, o, StateId(e.to))
            })
            .collect();
        // The machine's tables are built from `quads` alone.
        drop(std::mem::take(&mut raw.edges));
        if let Some((offset, message)) = conflict {
            warnings.push(Warning::at(
                file,
                text,
                offset,
                format!("{message}: reading the file as a nondeterministic Mealy machine (ONFSM), tested with ioco through its suspension automaton"),
            ));
            let m = Onfsm::new(name, inputs, outputs, state_names, initial, quads)
                .map_err(model_error)?;
            return Ok(Model::Lts(m.to_lts().map_err(model_error)?));
        }
        let m =
            Mealy::new(name, inputs, outputs, state_names, initial, &quads).map_err(model_error)?;
        Ok(Model::Mealy(m))
    } else {
        let mut alphabet = Alphabet::new();
        let mut ids = Vec::with_capacity(shapes.len());
        for (l, s) in raw.labels.iter().zip(&shapes) {
            let added = match *s {
                Shape::Marked(kind, n) => alphabet.add(n, kind),
                Shape::Quiescence => alphabet.set_quiescence("delta"),
                Shape::Unmarked(n) => {
                    let kind = classify_unmarked(n, opts)
                        .map_err(|e| e.into_parse_error(file, text, l.offset))?;
                    alphabet.add(n, kind)
                }
                Shape::Mealy(..) => unreachable!("checked above: no label is a Mealy label"),
            };
            let id = added.map_err(|c| {
                ParseError::at(
                    file,
                    text,
                    l.offset,
                    format!("label `{}` used as {:?}", excerpt(&l.text), c.second),
                    format!(
                        "`{}` used only as {:?}, as at its first use",
                        c.name, c.first
                    ),
                )
            })?;
            ids.push(id);
        }
        add_declared(&mut alphabet, opts).map_err(model_error)?;
        let triples = raw
            .edges
            .iter()
            .map(|e| (StateId(e.from), ids[e.label as usize], StateId(e.to)))
            .collect();
        let lts = Lts::new(name, alphabet, state_names, initial, triples).map_err(model_error)?;
        Ok(Model::Lts(lts))
    }
}

/// Why an unmarked label could not be classified.
pub(crate) enum Unclassified {
    /// Named by neither option.
    Neither(String),
    /// Named by both options.
    Both(String),
}

impl Unclassified {
    pub(crate) fn into_parse_error(self, file: &str, text: &str, offset: usize) -> ParseError {
        match self {
            Unclassified::Neither(n) => {
                let n = excerpt(&n);
                ParseError::at(
                    file,
                    text,
                    offset,
                    format!("unmarked label `{n}`"),
                    format!(
                        "`?{n}` or `{n}?` for an input, `!{n}` or `{n}!` for an output, `tau`, `delta`, or `--inputs`/`--outputs` naming it"
                    ),
                )
            }
            Unclassified::Both(n) => ParseError::at(
                file,
                text,
                offset,
                format!(
                    "label `{}` named by both --inputs and --outputs",
                    excerpt(&n)
                ),
                "each label in only one of --inputs and --outputs",
            ),
        }
    }
}

/// The kind `--inputs`/`--outputs` give an unmarked label.
pub(crate) fn classify_unmarked(name: &str, opts: &LoadOptions) -> Result<LabelKind, Unclassified> {
    let input = opts.inputs.iter().any(|i| i == name);
    let output = opts.outputs.iter().any(|o| o == name);
    match (input, output) {
        (true, false) => Ok(LabelKind::Input),
        (false, true) => Ok(LabelKind::Output),
        (true, true) => Err(Unclassified::Both(name.to_owned())),
        (false, false) => Err(Unclassified::Neither(name.to_owned())),
    }
}

/// Adds the labels of `--inputs`/`--outputs` that the file never uses: they still belong to the
/// alphabet (an unused input makes the model not input-enabled).
fn add_declared(
    alphabet: &mut Alphabet,
    opts: &LoadOptions,
) -> Result<(), crate::model::ModelError> {
    for i in &opts.inputs {
        alphabet.add(i, LabelKind::Input)?;
    }
    for o in &opts.outputs {
        alphabet.add(o, LabelKind::Output)?;
    }
    Ok(())
}

/// The initial state: `--initial` if given, otherwise the one the parser found.
fn resolve_initial(
    raw: &RawGraph<'_>,
    file: &str,
    opts: &LoadOptions,
) -> Result<StateId, FormatError> {
    match &opts.initial {
        None => Ok(StateId(raw.initial)),
        Some(name) => raw
            .states
            .iter()
            .position(|s| s == name)
            .map(|i| StateId(i as u32))
            .ok_or_else(|| {
                let name = excerpt(name);
                FormatError::Usage(format!(
                    "--initial {name}: {file} has no state named `{name}`"
                ))
            }),
    }
}

/// Whether two Mealy transitions have the same source and input but different outputs or
/// targets: one pass remembering the first edge of each source and input (in a table of
/// `states x inputs` when that is not much larger than the edge list, else in a hash map), so
/// that the deterministic machines, nearly all, skip the sort of [`first_mealy_conflict`].
fn has_mealy_conflict(raw: &RawGraph<'_>, ids: &[(LabelId, LabelId)], inputs: usize) -> bool {
    let differ =
        |a: &RawEdge, b: &RawEdge| a.to != b.to || ids[a.label as usize] != ids[b.label as usize];
    let cells = raw.states.len().saturating_mul(inputs);
    if cells <= 4 * raw.edges.len() + 4096 {
        let mut first = vec![u32::MAX; cells];
        for (k, e) in raw.edges.iter().enumerate() {
            let cell = &mut first[e.from as usize * inputs + ids[e.label as usize].0.index()];
            match *cell {
                u32::MAX => *cell = k as u32,
                f if differ(&raw.edges[f as usize], e) => return true,
                _ => {}
            }
        }
    } else {
        let mut first: NameMap<(u32, LabelId), &RawEdge> = NameMap::default();
        for e in &raw.edges {
            match first.entry((e.from, ids[e.label as usize].0)) {
                Entry::Vacant(v) => {
                    v.insert(e);
                }
                Entry::Occupied(f) if differ(f.get(), e) => return true,
                Entry::Occupied(_) => {}
            }
        }
    }
    false
}

/// The first pair of Mealy transitions with the same source and input but different outputs or
/// targets: the offset of the second and a description naming the first.
fn first_mealy_conflict(
    raw: &RawGraph<'_>,
    ids: &[(LabelId, LabelId)],
    inputs: &Interner,
    text: &str,
) -> Option<(usize, String)> {
    if !has_mealy_conflict(raw, ids, inputs.len()) {
        return None;
    }
    let mut order: Vec<u32> = (0..raw.edges.len() as u32).collect();
    let key = |e: &RawEdge| (e.from, ids[e.label as usize].0);
    order.sort_by_key(|&k| {
        let e = &raw.edges[k as usize];
        (key(e), e.offset)
    });
    order.windows(2).find_map(|w| {
        let (a, b) = (&raw.edges[w[0] as usize], &raw.edges[w[1] as usize]);
        (key(a) == key(b) && (a.to != b.to || ids[a.label as usize] != ids[b.label as usize]))
            .then(|| {
                let first = super::position::Position::of_offset(text, a.offset);
                (
                    b.offset,
                    format!(
                        "a second transition for input `{}` from state `{}` (the first is at line {}, column {})",
                        excerpt(inputs.name(key(a).1)),
                        excerpt(&raw.states[a.from as usize]),
                        first.line,
                        first.column
                    ),
                )
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn label_shapes() {
        assert_eq!(shape("?a"), Ok(Shape::Marked(LabelKind::Input, "a")));
        assert_eq!(shape("a?"), Ok(Shape::Marked(LabelKind::Input, "a")));
        assert_eq!(shape("!x"), Ok(Shape::Marked(LabelKind::Output, "x")));
        assert_eq!(shape(" x! "), Ok(Shape::Marked(LabelKind::Output, "x")));
        assert_eq!(shape("tau"), Ok(Shape::Marked(LabelKind::Internal, "tau")));
        assert_eq!(shape("i"), Ok(Shape::Marked(LabelKind::Internal, "i")));
        assert_eq!(shape("delta"), Ok(Shape::Quiescence));
        assert_eq!(shape("a / b / c"), Ok(Shape::Mealy("a", "b / c")));
        assert_eq!(
            shape("BUTTON / coffee!"),
            Ok(Shape::Mealy("BUTTON", "coffee!"))
        );
        assert_eq!(shape("!x/y"), Ok(Shape::Marked(LabelKind::Output, "x/y")));
        assert_eq!(shape("coin"), Ok(Shape::Unmarked("coin")));
        assert!(shape(" ").is_err());
        assert!(shape("?").is_err());
        assert!(shape("a /").is_err());
        assert!(shape("/ b").is_err());
        assert!(shape("?a\nb").unwrap_err().0.contains("U+000A"));
        assert!(shape("!a\u{0}").unwrap_err().0.contains("U+0000"));
        assert!(name_problem(" a").is_err());
        assert!(name_problem("a\t").is_err());
        assert!(name_problem("").is_err());
        assert!(name_problem("a b/c").is_ok());
    }
}
