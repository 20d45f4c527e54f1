//! Errors of the native schema located: serde's YAML and JSON messages as `found X, expected
//! Y` at a clamped line and column, and problems found after reading at the value they concern.

use super::super::position::{ParseError, clamp, describe_char_at, offset_of};
use super::schema::{Place, Problem, Syntax};

/// Deserializes again, failing at `place`, to learn the line and column of a semantic problem.
pub(super) fn locate(p: Problem, text: &str, file: &str, syntax: Syntax) -> ParseError {
    use super::super::locate::{Step, value_position};
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
