//! Timeout annotations of a model (issue 27): a state may carry a quiescence timeout, an input
//! label a response timeout, both in milliseconds. They are written where each format has room
//! for them: the native schema's `timeouts` key (`quiescence_ms` by state, `response_ms` by
//! input), DOT attributes (`quiescence_timeout_ms` on a node, `response_timeout_ms` on an edge,
//! naming the edge's input), and for formats without attributes (`.aut`, `.fsm`) a side file
//! beside the model, `MODEL.timeouts`, read when it exists:
//!
//! ```text
//! # comment
//! quiescence STATE MS
//! response INPUT MS
//! ```
//!
//! Annotations name states and inputs; [`resolve`] checks them against the parsed model (every
//! error a [`ParseError`] at the annotation), so runners only ever see names the model has. What
//! the runners do with them is in `exec::timeouts`.

use super::error::FormatError;
use super::position::{ParseError, excerpt};
use crate::model::Model;
use std::collections::BTreeMap;

/// The largest timeout accepted, in milliseconds (one day).
pub const MAX_TIMEOUT_MS: u64 = 86_400_000;

/// The side file of a model path (`vending.aut` → `vending.aut.timeouts`).
pub fn side_file(model_path: &str) -> String {
    crate::output::timeouts_side_file(model_path)
}

/// A model's timeout annotations, by name (states by their names in the file, inputs without
/// marks). Empty for a model without annotations.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TimeoutAnnotations {
    /// Quiescence timeout per state name.
    pub quiescence_ms: BTreeMap<String, u64>,
    /// Response timeout per input name.
    pub response_ms: BTreeMap<String, u64>,
}

impl TimeoutAnnotations {
    /// Whether the model has no annotation.
    pub fn is_empty(&self) -> bool {
        self.quiescence_ms.is_empty() && self.response_ms.is_empty()
    }

    /// The annotations with states and inputs renamed as a writer names them: `state` maps a
    /// state's index in `model` to its new name, `input` an input's name. An annotation naming
    /// no state of `model` is dropped (annotations are [`check`]ed against the model they come
    /// with, so there is none).
    pub fn renamed(
        &self,
        model: &Model,
        state: impl Fn(usize) -> String,
        input: impl Fn(&str) -> String,
    ) -> TimeoutAnnotations {
        let states = state_names(model);
        TimeoutAnnotations {
            quiescence_ms: (self.quiescence_ms.iter())
                .filter_map(|(name, &ms)| {
                    let k = states.iter().position(|s| s == name)?;
                    Some((state(k), ms))
                })
                .collect(),
            response_ms: (self.response_ms.iter())
                .map(|(name, &ms)| (input(name), ms))
                .collect(),
        }
    }

    /// The annotations as [`check`] takes them (states, then inputs, in name order; no
    /// offsets).
    pub fn to_annotations(&self) -> Vec<Annotation> {
        let states = (self.quiescence_ms.iter()).map(|(n, ms)| (Target::State(n.clone()), ms));
        let inputs = (self.response_ms.iter()).map(|(n, ms)| (Target::Input(n.clone()), ms));
        states
            .chain(inputs)
            .map(|(target, ms)| Annotation {
                target,
                value: ms.to_string(),
                at: 0,
            })
            .collect()
    }
}

/// The text of a side file holding `annotations` (one line each, states then inputs, in name
/// order), which [`parse_side_file`] reads back as them; the error names an annotation whose
/// name a side file cannot hold (empty, with whitespace or `#`, or an input starting with `?`).
pub fn write_side_file(annotations: &TimeoutAnnotations) -> Result<String, String> {
    let mut out = String::new();
    for (keyword, map) in [
        ("quiescence", &annotations.quiescence_ms),
        ("response", &annotations.response_ms),
    ] {
        for (name, ms) in map {
            let marked = keyword == "response" && name.starts_with('?');
            if name.is_empty() || marked || name.contains(|c: char| c == '#' || c.is_whitespace()) {
                let what = if keyword == "response" {
                    "input"
                } else {
                    "state"
                };
                return Err(format!(
                    "the {keyword} timeout of the {what} `{}` cannot be written in a side file, whose names are single words without `#`{}",
                    excerpt(name),
                    if what == "input" {
                        " not starting with `?`"
                    } else {
                        ""
                    }
                ));
            }
            out.push_str(&format!("{keyword} {name} {ms}\n"));
        }
    }
    Ok(out)
}

/// What an annotation is on, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// A state by name.
    State(String),
    /// An input by name (no mark).
    Input(String),
    /// A transition label as written in `.aut`/DOT (`?a`, `a / x`, an unmarked input).
    Label(String),
}

/// One annotation with the byte offset where it was written (for errors).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Annotation {
    /// What it is on.
    pub target: Target,
    /// The value as written.
    pub value: String,
    /// Byte offset of the value in the file.
    pub at: usize,
}

/// A timeout value: a whole number of milliseconds from 1 to [`MAX_TIMEOUT_MS`]; the error is
/// `(found, expected)`.
pub fn parse_ms(value: &str) -> Result<u64, (String, String)> {
    let expected = || format!("a timeout in milliseconds from 1 to {MAX_TIMEOUT_MS}");
    match value.trim().parse::<u64>() {
        Ok(ms) if (1..=MAX_TIMEOUT_MS).contains(&ms) => Ok(ms),
        _ => Err((format!("`{}`", excerpt(value)), expected())),
    }
}

fn state_names(model: &Model) -> &[String] {
    match model {
        Model::Lts(l) => l.state_names(),
        Model::Mealy(m) => m.state_names(),
    }
}

fn is_input(model: &Model, name: &str) -> bool {
    match model {
        Model::Lts(l) => l
            .alphabet
            .get(name)
            .is_some_and(|id| l.alphabet.is_input(id)),
        Model::Mealy(m) => m.inputs.get(name).is_some(),
    }
}

/// The input a transition label names (`?a`, `a?`, `a / x`, or an unmarked input), if any.
fn label_input<'a>(model: &Model, label: &'a str) -> Option<&'a str> {
    use super::build::Shape;
    let name = match super::build::shape(label).ok()? {
        Shape::Marked(crate::model::LabelKind::Input, name) => name,
        Shape::Mealy(input, _) => input,
        Shape::Unmarked(name) => name,
        _ => return None,
    };
    is_input(model, name).then_some(name)
}

/// [`check`] with its error located in `text` at the annotation's offset.
pub fn resolve(
    annotations: &[Annotation],
    model: &Model,
    file: &str,
    text: &str,
) -> Result<TimeoutAnnotations, ParseError> {
    check(annotations, model)
        .map_err(|(at, found, expected)| ParseError::at(file, text, at, found, expected))
}

/// A problem with an annotation: its offset, what was found and what was expected.
pub type Problem = (usize, String, String);

/// Checks `annotations` against `model` and collects them by name: every state must be a state
/// of the model and every label an input (an edge's label must name one); a state or input
/// annotated twice must be given the same value.
pub fn check(annotations: &[Annotation], model: &Model) -> Result<TimeoutAnnotations, Problem> {
    let mut out = TimeoutAnnotations::default();
    let err = |a: &Annotation, found: String, expected: &str| (a.at, found, expected.to_owned());
    for a in annotations {
        let ms = parse_ms(&a.value).map_err(|(found, expected)| err(a, found, &expected))?;
        let (map, name, what) = match &a.target {
            Target::State(name) => {
                if !state_names(model).iter().any(|s| s == name) {
                    return Err(err(
                        a,
                        format!("a timeout of state `{}`", excerpt(name)),
                        "a state of the model",
                    ));
                }
                (&mut out.quiescence_ms, name.as_str(), "quiescence")
            }
            Target::Input(name) => {
                if !is_input(model, name) {
                    return Err(err(
                        a,
                        format!("a response timeout of `{}`", excerpt(name)),
                        "an input of the model (response timeouts are per input)",
                    ));
                }
                (&mut out.response_ms, name.as_str(), "response")
            }
            Target::Label(label) => {
                let Some(name) = label_input(model, label) else {
                    return Err(err(
                        a,
                        format!(
                            "a response timeout on an edge labelled `{}`",
                            excerpt(label)
                        ),
                        "`response_timeout_ms` on an edge of an input (response timeouts are per input)",
                    ));
                };
                (&mut out.response_ms, name, "response")
            }
        };
        match map.get(name) {
            Some(&earlier) if earlier != ms => {
                return Err(err(
                    a,
                    format!(
                        "a second {what} timeout of `{}` ({ms} ms, {earlier} ms before)",
                        excerpt(name)
                    ),
                    "one timeout per state or input",
                ));
            }
            _ => {
                map.insert(name.to_owned(), ms);
            }
        }
    }
    Ok(out)
}

/// Parses a side file (`MODEL.timeouts`): lines `quiescence STATE MS` and `response INPUT MS`,
/// blank lines and `#` comments ignored. Names are single words (no whitespace); a `?` mark on an
/// input is allowed.
pub fn parse_side_file(text: &str, file: &str) -> Result<Vec<Annotation>, ParseError> {
    let mut out = Vec::new();
    let mut line_start = 0usize;
    for line in text.split_inclusive('\n') {
        let start = line_start;
        line_start += line.len();
        let content = line.split('#').next().unwrap_or("");
        // Words with their offsets.
        let mut words = Vec::new();
        let mut rest = content;
        let mut offset = start;
        while let Some(k) = rest.find(|c: char| !c.is_whitespace()) {
            let word_len = rest[k..]
                .find(char::is_whitespace)
                .unwrap_or(rest.len() - k);
            words.push((&rest[k..k + word_len], offset + k));
            offset += k + word_len;
            rest = &rest[k + word_len..];
        }
        let Some(&(keyword, at)) = words.first() else {
            continue;
        };
        let target = match keyword {
            "quiescence" => Target::State,
            "response" => |name: String| {
                Target::Input(name.strip_prefix('?').map_or(name.clone(), str::to_owned))
            },
            _ => {
                return Err(ParseError::at(
                    file,
                    text,
                    at,
                    format!("`{}`", excerpt(keyword)),
                    "`quiescence STATE MS` or `response INPUT MS`",
                ));
            }
        };
        let expected = if keyword == "quiescence" {
            "`quiescence STATE MS`"
        } else {
            "`response INPUT MS`"
        };
        if words.len() != 3 {
            let (found, at) = match words.get(3) {
                Some(&(w, at)) => (format!("`{}`", excerpt(w)), at),
                None => (
                    "the end of the line".to_owned(),
                    start + content.trim_end().len(),
                ),
            };
            return Err(ParseError::at(file, text, at, found, expected));
        }
        out.push(Annotation {
            target: target(words[1].0.to_owned()),
            value: words[2].0.to_owned(),
            at: words[2].1,
        });
    }
    Ok(out)
}

/// The bytes of the side file `path`, or none when it does not exist. Only a regular file is
/// read: the side file is found by its name, not given, so a FIFO (whose open and read wait for
/// a writer), a device or a directory there is refused instead of read. On Unix the file is
/// opened without blocking and checked on the open descriptor, so nothing can swap it between
/// the check and the read.
pub(super) fn read_side_file(
    path: &str,
    model_path: &str,
    what: &str,
) -> Result<Option<Vec<u8>>, FormatError> {
    use std::io::Read as _;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let mut file = match options.open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(FormatError::io(path, e)),
    };
    let meta = file.metadata().map_err(|e| FormatError::io(path, e))?;
    if !meta.is_file() {
        return Err(FormatError::Usage(format!(
            "{path}: the {what} side file of {model_path} is not a regular file (a FIFO, a \
             device or a directory), so it is not read; replace it by a file or remove it"
        )));
    }
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)
        .map_err(|e| FormatError::io(path, e))?;
    Ok(Some(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{LoadOptions, parse_model};

    fn vending() -> Model {
        let text = "des (0, 3, 3)\n(0, \"?coin\", 1)\n(1, \"!coffee\", 2)\n(2, \"tau\", 0)\n";
        parse_model(text, "v.aut", &LoadOptions::default()).unwrap()
    }

    fn side(text: &str) -> Result<TimeoutAnnotations, String> {
        let model = vending();
        parse_side_file(text, "v.aut.timeouts")
            .and_then(|a| resolve(&a, &model, "v.aut.timeouts", text))
            .map_err(|e| e.to_string())
    }

    #[test]
    fn side_files_name_states_and_inputs() {
        let t = side("# slow\nquiescence 1 1500\n\nresponse ?coin 2000 # marked\n").unwrap();
        assert_eq!(t.quiescence_ms.get("1"), Some(&1500));
        assert_eq!(t.response_ms.get("coin"), Some(&2000));
        assert!(side("").unwrap().is_empty());
    }

    #[test]
    fn side_file_errors_are_located() {
        for (text, error) in [
            (
                "quiescence 9 10\n",
                "v.aut.timeouts:1:14: found a timeout of state `9`, expected a state of the model",
            ),
            (
                "response coffee 10\n",
                "v.aut.timeouts:1:17: found a response timeout of `coffee`, expected an input of the model (response timeouts are per input)",
            ),
            (
                "quiescence 1 0\n",
                "v.aut.timeouts:1:14: found `0`, expected a timeout in milliseconds from 1 to 86400000",
            ),
            (
                "\nquiescence 1 -5\n",
                "v.aut.timeouts:2:14: found `-5`, expected a timeout in milliseconds from 1 to 86400000",
            ),
            (
                "quiescence 1\n",
                "v.aut.timeouts:1:13: found the end of the line, expected `quiescence STATE MS`",
            ),
            (
                "response coin 1 2\n",
                "v.aut.timeouts:1:17: found `2`, expected `response INPUT MS`",
            ),
            (
                "  slow 1 2\n",
                "v.aut.timeouts:1:3: found `slow`, expected `quiescence STATE MS` or `response INPUT MS`",
            ),
            (
                "quiescence 1 5\nquiescence 1 6\n",
                "v.aut.timeouts:2:14: found a second quiescence timeout of `1` (6 ms, 5 ms before), expected one timeout per state or input",
            ),
        ] {
            assert_eq!(side(text).unwrap_err(), error, "{text:?}");
        }
    }
}
