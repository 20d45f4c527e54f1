//! Requirement tags in model files (issue 45; GraphWalker's `requirements`): which states and
//! transitions stand for which requirements, read into [`RequirementTags`].
//!
//! Each format carries them where it has room:
//! - DOT: a `requirements` attribute on a node or an edge statement,
//!   `s1 -> s2 [label="?coin", requirements="PAY-1, PAY-2"]`;
//! - the native YAML/JSON schema: a `requirements` list on a transition
//!   (`{from: idle, label: coin, to: paid, requirements: [PAY-1]}`) and the top-level
//!   `state_requirements` map from state names to lists;
//! - `.aut` and `.fsm`, which have no room: the side file `MODEL.requirements` beside the model,
//!   read when it exists:
//!
//! ```text
//! # comment
//! state 2: SERVE-1
//! transition 0 "?coin" 1: PAY-1, PAY-2
//! ```
//!
//! (labels quoted as in `.aut`: `?a`, `!x`, `tau`, `in / out`; `.fsm` states and labels by the
//! names `info` shows.) A requirement name is letters, digits, `_`, `-`, `.` and `/`; a list
//! separates names by commas or spaces. Annotations are checked against the parsed model (a
//! state must be a state of the model, a transition one of its transitions); every error is a
//! [`ParseError`] at the annotation.

use super::build::{Shape, shape};
use super::position::{ParseError, excerpt};
use crate::model::{LabelKind, Model, RequirementTags, TaggedStep, TaggedTransition};

/// The side file of a model path (`vending.aut` → `vending.aut.requirements`).
pub fn side_file(model_path: &str) -> String {
    format!("{model_path}.requirements")
}

/// A transition label as an annotation names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LabelText {
    /// As written in `.aut` or DOT (`?a`, `!x`, `tau`, `delta`, `in / out`, an unmarked name).
    Written(String),
    /// An LTS label by name (native schema).
    Named(String),
    /// A Mealy transition by input and output (native schema).
    Mealy(String, String),
    /// A Moore transition by its input (native schema).
    Input(String),
}

/// What an annotation tags.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Element {
    /// A state by name.
    State(String),
    /// A transition by source, label and target.
    Transition {
        /// Source state name.
        from: String,
        /// The label.
        label: LabelText,
        /// Target state name.
        to: String,
    },
}

/// One annotation: the element, its requirement names, and the byte offset where it was
/// written (for errors).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Annotation {
    /// What is tagged.
    pub element: Element,
    /// The requirement names.
    pub tags: Vec<String>,
    /// Byte offset in the file.
    pub at: usize,
}

/// A problem: its offset, what was found and what was expected.
pub type Problem = (usize, String, String);

const TAG_EXPECTED: &str =
    "requirement names of letters, digits, `_`, `-`, `.` and `/`, separated by commas or spaces";

/// The requirement names of a list as written (`R1, R2` or `R1 R2`); the error is the offset
/// in `text` of the bad name, what was found and what was expected.
pub fn parse_tags(text: &str) -> Result<Vec<String>, Problem> {
    let mut tags = Vec::new();
    let mut offset = 0;
    for piece in text.split_inclusive(|c: char| c == ',' || c.is_whitespace()) {
        let at = offset;
        offset += piece.len();
        let tag = piece.trim_end_matches(|c: char| c == ',' || c.is_whitespace());
        if tag.is_empty() {
            continue;
        }
        if let Some(bad) = tag
            .chars()
            .find(|&c| !(c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/')))
        {
            return Err((
                at,
                format!(
                    "the character `{}` in the requirement `{}`",
                    bad.escape_debug(),
                    excerpt(tag)
                ),
                TAG_EXPECTED.into(),
            ));
        }
        if !tags.iter().any(|t| t == tag) {
            tags.push(tag.to_owned());
        }
    }
    if tags.is_empty() {
        return Err((
            0,
            "an empty list of requirements".into(),
            "at least one requirement name".into(),
        ));
    }
    Ok(tags)
}

/// [`check`] with its error located in `text`.
pub fn resolve(
    annotations: &[Annotation],
    model: &Model,
    file: &str,
    text: &str,
) -> Result<RequirementTags, ParseError> {
    check(annotations, model)
        .map_err(|(at, found, expected)| ParseError::at(file, text, at, found, expected))
}

/// The names of the states annotations name: those of the file (an ONFSM's, not its LTS
/// embedding's).
fn state_names(model: &Model) -> &[String] {
    match model {
        Model::Lts(l) => l.onfsm().map_or(l.state_names(), |o| o.state_names()),
        Model::Mealy(m) => m.state_names(),
    }
}

/// Checks `annotations` against `model` and collects them by name.
pub fn check(annotations: &[Annotation], model: &Model) -> Result<RequirementTags, Problem> {
    let mut out = RequirementTags::default();
    let names = state_names(model);
    let state = |name: &str, at: usize| {
        names.iter().position(|s| s == name).ok_or_else(|| {
            (
                at,
                format!("requirements on the state `{}`", excerpt(name)),
                "a state of the model".to_owned(),
            )
        })
    };
    for a in annotations {
        match &a.element {
            Element::State(name) => {
                state(name, a.at)?;
                out.states
                    .entry(name.clone())
                    .or_default()
                    .extend(a.tags.iter().cloned());
            }
            Element::Transition { from, label, to } => {
                let (f, t) = (state(from, a.at)?, state(to, a.at)?);
                let steps = transition_steps(model, f, label, t).map_err(|found| {
                    let written = match label {
                        LabelText::Written(l) | LabelText::Named(l) | LabelText::Input(l) => {
                            l.clone()
                        }
                        LabelText::Mealy(i, o) => format!("{i} / {o}"),
                    };
                    (
                        a.at,
                        found.unwrap_or_else(|| {
                            format!(
                                "requirements on `{} --{}--> {}`, which the model does not have",
                                excerpt(from),
                                excerpt(&written),
                                excerpt(to)
                            )
                        }),
                        "a transition of the model".to_owned(),
                    )
                })?;
                for step in steps {
                    let key = TaggedTransition {
                        from: from.clone(),
                        step,
                        to: to.clone(),
                    };
                    out.transitions
                        .entry(key)
                        .or_default()
                        .extend(a.tags.iter().cloned());
                }
            }
        }
    }
    Ok(out)
}

/// The steps of `model` from state `f` to state `t` that `label` names (a Moore input names the
/// one transition of its Mealy translation); `Err(Some(found))` for a label of the wrong kind,
/// `Err(None)` when the model has no such transition.
fn transition_steps(
    model: &Model,
    f: usize,
    label: &LabelText,
    t: usize,
) -> Result<Vec<TaggedStep>, Option<String>> {
    let wrong = |what: &str| {
        Some(format!(
            "the label `{}`, {what}",
            excerpt(match label {
                LabelText::Written(l) | LabelText::Named(l) | LabelText::Input(l) => l,
                LabelText::Mealy(i, _) => i,
            })
        ))
    };
    let Some((_, quads)) = crate::model::named_quads(model) else {
        let Model::Lts(l) = model else {
            return Err(None);
        };
        let name = match label {
            LabelText::Named(n) => n.as_str(),
            LabelText::Written(w) => match shape(w) {
                Ok(Shape::Marked(_, n) | Shape::Unmarked(n)) => n,
                Ok(Shape::Quiescence) => l
                    .alphabet
                    .quiescence()
                    .map_or("delta", |q| l.alphabet.name(q)),
                _ => return Err(wrong("not a label of a labelled transition system")),
            },
            _ => return Err(wrong("not a label of a labelled transition system")),
        };
        let Some(id) = l.alphabet.get(name) else {
            return Err(None);
        };
        let from = crate::model::StateId(f as u32);
        if l.successors(from, id).any(|s| s.index() == t) {
            return Ok(vec![TaggedStep::Label(name.to_owned())]);
        }
        return Err(None);
    };
    let (input, output) = match label {
        LabelText::Mealy(i, o) => (i.as_str(), Some(o.as_str())),
        LabelText::Input(i) => (i.as_str(), None),
        LabelText::Written(w) => match shape(w) {
            Ok(Shape::Mealy(i, o)) => (i, Some(o)),
            Ok(Shape::Unmarked(i) | Shape::Marked(LabelKind::Input, i)) => (i, None),
            _ => return Err(wrong("not a label `input / output` of a Mealy machine")),
        },
        LabelText::Named(_) => return Err(wrong("not a Mealy label")),
    };
    let steps: Vec<TaggedStep> = (quads.into_iter())
        .filter(|(s, i, o, d)| {
            *s == f && *d == t && i == input && output.is_none_or(|want| want == o)
        })
        .map(|(_, i, o, _)| TaggedStep::Mealy(i, o))
        .collect();
    if steps.is_empty() {
        return Err(None);
    }
    Ok(steps)
}

/// Parses a side file (`MODEL.requirements`): lines `state STATE: TAGS` and
/// `transition FROM "LABEL" TO: TAGS`, blank lines and `#` comments ignored.
pub fn parse_side_file(text: &str, file: &str) -> Result<Vec<Annotation>, ParseError> {
    let mut out = Vec::new();
    let mut line_start = 0usize;
    for line in text.split_inclusive('\n') {
        let start = line_start;
        line_start += line.len();
        let content = line.split('#').next().unwrap_or("").trim_end();
        let err = |at: usize, found: String, expected: &str| {
            ParseError::at(file, text, start + at, found, expected)
        };
        let body = content.trim_start();
        if body.is_empty() {
            continue;
        }
        let lead = content.len() - body.len();
        let keyword = body.split_whitespace().next().unwrap_or("");
        let expected =
            "`state STATE: REQUIREMENTS` or `transition FROM \"LABEL\" TO: REQUIREMENTS`";
        let Some(colon) = content.rfind(':') else {
            return Err(err(
                content.len(),
                "the end of the line".into(),
                "`:` and the requirements",
            ));
        };
        let (head, tags_text) = (&content[..colon], &content[colon + 1..]);
        let tags = parse_tags(tags_text)
            .map_err(|(at, found, expected)| err(colon + 1 + at, found, &expected))?;
        let rest = &head[lead + keyword.len()..];
        let rest_at = lead + keyword.len();
        let element = match keyword {
            "state" => {
                let words: Vec<&str> = rest.split_whitespace().collect();
                if words.len() != 1 {
                    return Err(err(
                        rest_at,
                        format!("`{}`", excerpt(rest.trim())),
                        "one state name before `:`",
                    ));
                }
                Element::State(words[0].to_owned())
            }
            "transition" => {
                let (Some(open), Some(close)) = (rest.find('"'), rest.rfind('"')) else {
                    return Err(err(
                        rest_at,
                        format!("`{}`", excerpt(rest.trim())),
                        "FROM \"LABEL\" TO before `:`",
                    ));
                };
                let from: Vec<&str> = rest[..open].split_whitespace().collect();
                let to: Vec<&str> = rest[close + 1..].split_whitespace().collect();
                if open == close || from.len() != 1 || to.len() != 1 {
                    return Err(err(
                        rest_at,
                        format!("`{}`", excerpt(rest.trim())),
                        "FROM \"LABEL\" TO before `:`",
                    ));
                }
                Element::Transition {
                    from: from[0].to_owned(),
                    label: LabelText::Written(rest[open + 1..close].to_owned()),
                    to: to[0].to_owned(),
                }
            }
            _ => return Err(err(lead, format!("`{}`", excerpt(keyword)), expected)),
        };
        out.push(Annotation {
            element,
            tags,
            at: start + lead,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{LoadOptions, parse_model};
    use proptest::prelude::*;

    fn vending() -> Model {
        let text = "des (0, 3, 3)\n(0, \"?coin\", 1)\n(1, \"!coffee\", 2)\n(2, \"tau\", 0)\n";
        parse_model(text, "v.aut", &LoadOptions::default()).unwrap()
    }

    fn side(text: &str) -> Result<RequirementTags, String> {
        let model = vending();
        parse_side_file(text, "v.aut.requirements")
            .and_then(|a| resolve(&a, &model, "v.aut.requirements", text))
            .map_err(|e| e.to_string())
    }

    #[test]
    fn side_files_tag_states_and_transitions() {
        let t = side("# pay\nstate 1: SERVE\ntransition 0 \"?coin\" 1: PAY-1, PAY-2 # x\n\ntransition 2 \"tau\" 0: PAY-1\n")
            .unwrap();
        assert_eq!(t.names(), ["PAY-1", "PAY-2", "SERVE"]);
        let coin = TaggedTransition {
            from: "0".into(),
            step: TaggedStep::Label("coin".into()),
            to: "1".into(),
        };
        assert_eq!(t.transitions[&coin].len(), 2);
        assert!(side("").unwrap().is_empty());
    }

    #[test]
    fn side_file_errors_are_located() {
        for (text, error) in [
            (
                "state 9: R1\n",
                "v.aut.requirements:1:1: found requirements on the state `9`, expected a state of the model",
            ),
            (
                "transition 0 \"?coin\" 2: R1\n",
                "v.aut.requirements:1:1: found requirements on `0 --?coin--> 2`, which the model does not have, expected a transition of the model",
            ),
            (
                "\ntransition 0 \"a / b\" 1: R1\n",
                "v.aut.requirements:2:1: found the label `a / b`, not a label of a labelled transition system, expected a transition of the model",
            ),
            (
                "state 1: R1; R2\n",
                "v.aut.requirements:1:10: found the character `;` in the requirement `R1;`, expected requirement names of letters, digits, `_`, `-`, `.` and `/`, separated by commas or spaces",
            ),
            (
                "state 1:\n",
                "v.aut.requirements:1:9: found an empty list of requirements, expected at least one requirement name",
            ),
            (
                "state 1 R1\n",
                "v.aut.requirements:1:11: found the end of the line, expected `:` and the requirements",
            ),
            (
                "  covers 1: R1\n",
                "v.aut.requirements:1:3: found `covers`, expected `state STATE: REQUIREMENTS` or `transition FROM \"LABEL\" TO: REQUIREMENTS`",
            ),
            (
                "transition 0 ?coin 1: R1\n",
                "v.aut.requirements:1:11: found `0 ?coin 1`, expected FROM \"LABEL\" TO before `:`",
            ),
        ] {
            assert_eq!(side(text).unwrap_err(), error, "{text:?}");
        }
    }

    proptest! {
        /// A list of valid names reads back as those names (without repeats), whatever the
        /// separators; a name with a character outside the set is refused at that name.
        #[test]
        fn tag_lists_read_back(
            names in proptest::collection::vec("[A-Za-z0-9_./-]{1,8}", 1..6),
            seps in proptest::collection::vec(prop_oneof![Just(","), Just(" "), Just(", "), Just(" ,\t")], 6),
            bad in "[;:#\"=\\[\\]{}()]",
            at in 0usize..6,
        ) {
            let text: String = names.iter().zip(&seps).map(|(n, s)| format!("{n}{s}")).collect();
            let mut want: Vec<String> = Vec::new();
            for n in &names {
                if !want.contains(n) {
                    want.push(n.clone());
                }
            }
            prop_assert_eq!(parse_tags(&text).unwrap(), want);
            let k = at % names.len();
            let mut broken = names.clone();
            broken[k].push_str(&bad);
            let text: String = broken.iter().zip(&seps).map(|(n, s)| format!("{n}{s}")).collect();
            let (offset, found, _) = parse_tags(&text).unwrap_err();
            // The error sits at the first broken name.
            let first_bad = broken.iter().position(|n| n.contains(bad.as_str())).unwrap();
            let before: usize = broken[..first_bad].iter().zip(&seps).map(|(n, s)| n.len() + s.len()).sum();
            prop_assert_eq!(offset, before, "{}", found);
        }
    }
}
