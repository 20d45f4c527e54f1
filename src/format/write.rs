//! Writing models: the text of a model in a format, with its timeout annotations in the text or
//! a side file, suspension automata as LTSs, and the text written whole to a file or standard
//! output.

use super::error::FormatError;
use super::options::Format;
use super::{aut, dot, fsm, native, position, timeouts};
use crate::model::{Lts, Model, SuspensionAutomaton};

/// The text of a model in a format. Check [`unrepresentable`](super::unrepresentable) first: a model the format cannot
/// hold is written as well as it can (a Moore machine in `.aut` as its Mealy translation), and
/// an LTS, which `.fsm` cannot hold at all, in the YAML schema.
pub fn write_model(model: &Model, format: Format) -> String {
    write_with(model, &timeouts::TimeoutAnnotations::default(), format)
}

/// A model's text with its timeout annotations ([`write_model_annotated`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnnotatedText {
    /// The model file's text, holding the annotations when the format has room for them
    /// (YAML, JSON, DOT).
    pub model: String,
    /// The text of the side file `MODEL.timeouts` ([`timeouts::side_file`]) for formats without
    /// room (`.aut`, `.fsm`); `None` when there are no annotations or the model text holds them.
    pub side_file: Option<String>,
}

/// [`write_model`] with the model's timeout annotations where the format has room for them: the
/// native `timeouts` key, DOT node and edge attributes, or (`.aut`, `.fsm`) a side file whose
/// names are those the written file gives states and inputs when read back (`.aut` numbers
/// states, `.fsm` states and inputs). Without annotations the text is [`write_model`]'s. The
/// error says why a name cannot be written in a side file.
pub fn write_model_annotated(
    model: &Model,
    annotations: &timeouts::TimeoutAnnotations,
    format: Format,
) -> Result<AnnotatedText, String> {
    // A nondeterministic Mealy machine is written without the intermediate states of its LTS.
    if let (Model::Lts(l), Format::Aut | Format::Dot) = (model, format)
        && let Some(o) = l.onfsm()
        && let Some(s) = (annotations.quiescence_ms.keys()).find(|s| !o.state_names().contains(s))
    {
        return Err(format!(
            "the quiescence timeout of `{}`, an intermediate state of the nondeterministic Mealy machine, has no state to go on in {format}",
            position::excerpt(s)
        ));
    }
    let side_file = match (model, format) {
        _ if annotations.is_empty() => None,
        (_, Format::Aut) => {
            let numbered = |s: usize| s.to_string();
            let renamed = annotations.renamed(model, numbered, |i| i.to_owned());
            Some(timeouts::write_side_file(&renamed)?)
        }
        (Model::Mealy(m), Format::Fsm) => {
            let ids = fsm::file_ids(m);
            let input = |i: &str| {
                m.inputs
                    .get(i)
                    .map_or_else(String::new, |i| i.0.to_string())
            };
            let renamed = annotations.renamed(model, |s| ids[s].to_string(), input);
            Some(timeouts::write_side_file(&renamed)?)
        }
        _ => None,
    };
    Ok(AnnotatedText {
        model: write_with(model, annotations, format),
        side_file,
    })
}

/// [`write_model`] with the annotations in the text where the format has room for them.
fn write_with(model: &Model, annotations: &timeouts::TimeoutAnnotations, format: Format) -> String {
    match (model, format) {
        (Model::Lts(l), Format::Aut | Format::Dot) if l.onfsm().is_some() => {
            let o = l.onfsm().expect("matched");
            if format == Format::Aut {
                aut::write_onfsm(o)
            } else {
                dot::write_onfsm(o, annotations)
            }
        }
        (Model::Lts(l), Format::Aut) => aut::write_lts(l),
        (Model::Mealy(m), Format::Aut) => aut::write_mealy(m),
        (Model::Lts(l), Format::Dot) => dot::write_lts(l, annotations),
        (Model::Mealy(m), Format::Dot) => match m.state_outputs() {
            Some(outs) => dot::write_moore(m, outs, annotations),
            None => dot::write_mealy(m, annotations),
        },
        (Model::Mealy(m), Format::Fsm) => fsm::write(m),
        (Model::Lts(_), Format::Fsm) => native::write_annotated(model, annotations, true),
        (model, Format::Yaml) => native::write_annotated(model, annotations, true),
        (model, Format::Json) => native::write_annotated(model, annotations, false),
    }
}

/// The text of a suspension automaton, written as an LTS whose quiescence transitions are
/// explicit (`delta`); it reads back as that LTS.
pub fn write_suspension(sa: &SuspensionAutomaton, format: Format) -> String {
    write_model(&Model::Lts(suspension_as_lts(sa)), format)
}

/// A suspension automaton as an LTS with explicit quiescence transitions.
pub fn suspension_as_lts(sa: &SuspensionAutomaton) -> Lts {
    Lts::new(
        sa.name.clone(),
        sa.alphabet.clone(),
        sa.state_names().to_vec(),
        sa.initial(),
        sa.triples().collect(),
    )
    .expect("a suspension automaton is a valid LTS")
}

/// Writes `text` to `out`, or to standard output when `out` is `None` or `-`; a file is written
/// whole or not at all ([`crate::output`]).
pub fn write_text(out: Option<&str>, text: &str) -> Result<(), FormatError> {
    Ok(crate::output::write_file(
        out.unwrap_or("-"),
        text.as_bytes(),
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{LoadOptions, parse_model, parse_model_with_warnings};
    use crate::model::suspension_from_marked;

    #[test]
    fn suspension_automata_round_trip_as_lts() {
        let sa = suspension_from_marked(
            "sa",
            2,
            &[(0, "?a", 1), (0, "delta", 0), (1, "!x", 0), (1, "!y", 1)],
        )
        .unwrap();
        for f in Format::ALL {
            let text = write_suspension(&sa, f);
            let file = format!("sa.{}", f.name());
            let Model::Lts(l) = parse_model(&text, &file, &LoadOptions::default()).unwrap() else {
                panic!("expected an LTS in {f}")
            };
            assert_eq!(l.num_transitions(), 4, "{f}");
            let d = l.alphabet.quiescence().expect("quiescence kept");
            assert_eq!(l.successors(l.initial(), d).count(), 1, "{f}");
            assert!(l.is_deterministic(), "{f}");
        }
    }

    #[test]
    fn annotations_read_back_from_every_format() {
        let text = "digraph t {\n  __start0 -> a;\n  a [quiescence_timeout_ms=10];\n  a -> b [label=\"?go\" response_timeout_ms=20];\n  b -> a [label=\"!done\"];\n  b -> b [label=\"?go\" response_timeout_ms=20];\n}\n";
        let loaded = parse_model_with_warnings(text, "t.dot", &LoadOptions::default()).unwrap();
        let annotations = loaded.timeouts;
        assert_eq!(annotations.quiescence_ms.get("a"), Some(&10));
        assert_eq!(annotations.response_ms.get("go"), Some(&20));
        for f in Format::ALL {
            let written = write_model_annotated(&loaded.model, &annotations, f).unwrap();
            let file = format!("t.{}", f.name());
            let back =
                parse_model_with_warnings(&written.model, &file, &LoadOptions::default()).unwrap();
            let read = match &written.side_file {
                Some(side) => {
                    let list = timeouts::parse_side_file(side, "side").unwrap();
                    timeouts::resolve(&list, &back.model, "side", side).unwrap()
                }
                None => back.timeouts,
            };
            let expected = if f == Format::Aut {
                annotations.renamed(&loaded.model, |s| s.to_string(), str::to_owned)
            } else {
                annotations.clone()
            };
            assert_eq!(read, expected, "{f}");
            assert_eq!(written.side_file.is_some(), f == Format::Aut, "{f}");
            let plain = write_model(&loaded.model, f);
            assert_eq!(written.model == plain, f == Format::Aut, "{f}");
        }
    }
}
