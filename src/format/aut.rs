//! The Aldebaran `.aut` format of CADP and the TorX tool family: a header
//! `des (INITIAL, TRANSITIONS, STATES)` followed by one `(FROM, LABEL, TO)` line per transition,
//! states numbered `0..STATES`. Labels are quoted (`"?coin"`) or bare (`?coin`); a bare label runs
//! to the last comma before the line's last `)`, so `(0, ACK+RST(V,V,0) / TIMEOUT, 1)` works.
//!
//! Labels follow the conventions of `super::build` (`?a`/`a?` input, `!x`/`x!` output, `tau`
//! and `i` internal, `delta` quiescence, `in / out` Mealy). The declared numbers of transitions
//! and states are checked against the content.

use super::build::{RawEdge, RawGraph, build_model};
use super::error::FormatError;
use super::options::LoadOptions;
use super::position::{ParseError, describe_char_at, excerpt};
use crate::model::{LabelKind, Lts, Mealy, Model};
use std::borrow::Cow;
use std::fmt::Write;

/// States without any transition beyond this many are refused (a guard against a header that
/// declares billions of states).
const ISOLATED_STATE_BUDGET: u64 = 1_000_000;

struct Cursor<'a> {
    file: &'a str,
    text: &'a str,
    pos: usize,
}

impl<'a> Cursor<'a> {
    fn bytes(&self) -> &'a [u8] {
        self.text.as_bytes()
    }

    fn peek(&self) -> Option<u8> {
        self.bytes().get(self.pos).copied()
    }

    /// Skips spaces, tabs and line breaks.
    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\r' | b'\n') = self.peek() {
            self.pos += 1;
        }
    }

    /// Skips spaces and tabs only.
    fn skip_blank(&mut self) {
        while let Some(b' ' | b'\t' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    fn error(
        &self,
        at: usize,
        found: impl Into<String>,
        expected: impl Into<String>,
    ) -> ParseError {
        ParseError::at(self.file, self.text, at, found, expected)
    }

    fn found_here(&self) -> String {
        describe_char_at(self.text, self.pos)
    }

    fn expect_byte(&mut self, b: u8, expected: &str) -> Result<(), ParseError> {
        if self.peek() == Some(b) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.error(self.pos, self.found_here(), expected))
        }
    }

    /// A decimal number; returns it with its offset.
    fn number(&mut self, what: &str) -> Result<(u64, usize), ParseError> {
        let start = self.pos;
        let mut value: u64 = 0;
        while let Some(d @ b'0'..=b'9') = self.peek() {
            value = value
                .checked_mul(10)
                .and_then(|v| v.checked_add(u64::from(d - b'0')))
                .filter(|&v| v < u64::from(u32::MAX))
                .ok_or_else(|| {
                    self.error(
                        start,
                        "a number too large",
                        format!("{what} below {}", u32::MAX),
                    )
                })?;
            self.pos += 1;
        }
        if self.pos == start {
            return Err(self.error(start, self.found_here(), what));
        }
        Ok((value, start))
    }
}

/// Parses `.aut` text into a model named `name`.
pub fn parse(text: &str, file: &str, name: &str, opts: &LoadOptions) -> Result<Model, FormatError> {
    parse_with_warnings(text, file, name, opts, &mut Vec::new())
}

/// [`parse`], appending warnings (a nondeterministic Mealy machine read as an ONFSM) to
/// `warnings`.
pub fn parse_with_warnings(
    text: &str,
    file: &str,
    name: &str,
    opts: &LoadOptions,
    warnings: &mut Vec<super::position::Warning>,
) -> Result<Model, FormatError> {
    let raw = parse_raw(text, file)?;
    build_model(raw, name, file, text, opts, warnings)
}

fn parse_raw<'a>(text: &'a str, file: &'a str) -> Result<RawGraph<'a>, ParseError> {
    let mut c = Cursor { file, text, pos: 0 };
    c.skip_ws();
    const HEADER: &str = "`des (INITIAL, TRANSITIONS, STATES)`";
    if !c.bytes()[c.pos..].starts_with(b"des") {
        let found = match text[c.pos..].split_whitespace().next() {
            Some(w) => format!("`{}`", excerpt(w)),
            None => "end of file".to_owned(),
        };
        return Err(c.error(c.pos, found, HEADER));
    }
    c.pos += 3;
    c.skip_blank();
    c.expect_byte(b'(', "`(` after `des`")?;
    c.skip_blank();
    let (initial, initial_at) = c.number("the initial state number")?;
    c.skip_blank();
    c.expect_byte(b',', "`,` after the initial state")?;
    c.skip_blank();
    let (ntrans, _) = c.number("the number of transitions")?;
    c.skip_blank();
    c.expect_byte(b',', "`,` after the number of transitions")?;
    c.skip_blank();
    let (nstates, nstates_at) = c.number("the number of states")?;
    c.skip_blank();
    c.expect_byte(b')', "`)` closing the `des` header")?;
    if nstates == 0 {
        return Err(c.error(nstates_at, "0 states", "at least one state"));
    }
    if nstates > 2 * ntrans + ISOLATED_STATE_BUDGET {
        return Err(c.error(
            nstates_at,
            format!("{nstates} states for {ntrans} transitions"),
            format!(
                "at most {} states (more states without transitions are refused)",
                2 * ntrans + ISOLATED_STATE_BUDGET
            ),
        ));
    }
    if initial >= nstates {
        return Err(c.error(
            initial_at,
            format!("initial state {initial}"),
            format!("a state below {nstates}, the declared number of states"),
        ));
    }
    let mut raw = RawGraph::default();
    // Reserve at most what the text can hold, whatever the header claims.
    raw.edges.reserve((ntrans as usize).min(text.len() / 7 + 1));
    loop {
        c.skip_ws();
        let Some(b) = c.peek() else { break };
        let start = c.pos;
        if b != b'(' {
            return Err(c.error(
                start,
                c.found_here(),
                "`(` starting a transition `(FROM, LABEL, TO)`",
            ));
        }
        if raw.edges.len() as u64 == ntrans {
            return Err(c.error(
                start,
                format!("transition {}", ntrans + 1),
                format!("{ntrans} transitions, as the `des` header declares"),
            ));
        }
        c.pos += 1;
        c.skip_blank();
        let from = state(&mut c, nstates, "the source state number")?;
        c.skip_blank();
        c.expect_byte(b',', "`,` after the source state")?;
        c.skip_blank();
        let label_at = c.pos;
        let label = if c.peek() == Some(b'"') {
            let l = quoted(&mut c)?;
            c.skip_blank();
            c.expect_byte(b',', "`,` after the label")?;
            l
        } else {
            bare_label(&mut c)?
        };
        c.skip_blank();
        let to = state(&mut c, nstates, "the target state number")?;
        c.skip_blank();
        c.expect_byte(b')', "`)` closing the transition")?;
        let label = raw.intern_label(label, label_at);
        raw.edges.push(RawEdge {
            from,
            to,
            label,
            offset: label_at,
        });
    }
    if (raw.edges.len() as u64) < ntrans {
        return Err(c.error(
            c.pos,
            format!("end of file after {} transitions", raw.edges.len()),
            format!("{ntrans} transitions, as the `des` header declares"),
        ));
    }
    raw.states = (0..nstates).map(|i| Cow::Owned(i.to_string())).collect();
    raw.initial = initial as u32;
    Ok(raw)
}

fn state(c: &mut Cursor<'_>, nstates: u64, what: &str) -> Result<u32, ParseError> {
    let (s, at) = c.number(what)?;
    if s >= nstates {
        return Err(c.error(
            at,
            format!("state {s}"),
            format!("a state below {nstates}, the declared number of states"),
        ));
    }
    Ok(s as u32)
}

/// A quoted label: `\"` and `\\` are escapes; other characters are taken as they are.
fn quoted<'a>(c: &mut Cursor<'a>) -> Result<Cow<'a, str>, ParseError> {
    let open = c.pos;
    c.pos += 1;
    let start = c.pos;
    let mut owned: Option<String> = None;
    let mut chunk = start;
    loop {
        match c.peek() {
            None | Some(b'\n') => {
                return Err(c.error(
                    open,
                    "an unterminated quoted label",
                    "a closing `\"` on the same line",
                ));
            }
            Some(b'"') => {
                let end = c.pos;
                c.pos += 1;
                return Ok(match owned {
                    None => Cow::Borrowed(&c.text[start..end]),
                    Some(mut s) => {
                        s.push_str(&c.text[chunk..end]);
                        Cow::Owned(s)
                    }
                });
            }
            Some(b'\\') if matches!(c.bytes().get(c.pos + 1), Some(b'"' | b'\\')) => {
                let s = owned.get_or_insert_with(String::new);
                s.push_str(&c.text[chunk..c.pos]);
                chunk = c.pos + 1;
                c.pos += 2;
            }
            Some(_) => c.pos += 1,
        }
    }
}

/// A bare label: up to the last `,` before the last `)` of the line.
fn bare_label<'a>(c: &mut Cursor<'a>) -> Result<Cow<'a, str>, ParseError> {
    let start = c.pos;
    let line_end = c.text[start..]
        .find('\n')
        .map_or(c.text.len(), |i| start + i);
    let line = &c.text[start..line_end];
    let Some(close) = line.rfind(')') else {
        return Err(c.error(
            line_end,
            describe_char_at(c.text, line_end),
            "`)` closing the transition",
        ));
    };
    let Some(comma) = line[..close].rfind(',') else {
        return Err(c.error(start + close, "`)`", "`, TO)` after the label"));
    };
    c.pos = start + comma + 1;
    Ok(Cow::Borrowed(line[..comma].trim_end()))
}

fn quote_label(out: &mut String, label: &str) {
    out.push('"');
    for ch in label.chars() {
        if ch == '"' || ch == '\\' {
            out.push('\\');
        }
        out.push(ch);
    }
    out.push('"');
}

/// The `.aut` text of an LTS: inputs written `?a`, outputs `!x`, the quiescence label `delta`,
/// internal labels `tau` (or `i`). States are numbered by id, so names are not kept.
pub fn write_lts(lts: &Lts) -> String {
    let mut out = String::with_capacity(32 + lts.num_transitions() * 24);
    let _ = writeln!(
        out,
        "des ({}, {}, {})",
        lts.initial(),
        lts.num_transitions(),
        lts.num_states()
    );
    let labels: Vec<String> = lts
        .alphabet
        .ids()
        .map(|l| marked_label(&lts.alphabet, l))
        .collect();
    for (s, l, t) in lts.triples() {
        let _ = write!(out, "({s}, ");
        quote_label(&mut out, &labels[l.index()]);
        let _ = writeln!(out, ", {t})");
    }
    out
}

/// The label text of an LTS label under the `?`/`!`/`tau`/`delta` conventions.
pub(crate) fn marked_label(alphabet: &crate::model::Alphabet, l: crate::model::LabelId) -> String {
    let name = alphabet.name(l);
    if alphabet.quiescence() == Some(l) {
        return "delta".to_owned();
    }
    match alphabet.kind(l) {
        LabelKind::Input => format!("?{name}"),
        LabelKind::Output => format!("!{name}"),
        LabelKind::Internal if name == "i" => "i".to_owned(),
        LabelKind::Internal => "tau".to_owned(),
    }
}

/// The `.aut` text of a Mealy machine: each transition labelled `input / output`.
pub fn write_mealy(m: &Mealy) -> String {
    let mut out = String::with_capacity(32 + m.num_transitions() * 24);
    let _ = writeln!(
        out,
        "des ({}, {}, {})",
        m.initial(),
        m.num_transitions(),
        m.num_states()
    );
    for (s, i, o, t) in m.quads() {
        let _ = write!(out, "({s}, ");
        quote_label(
            &mut out,
            &format!("{} / {}", m.inputs.name(i), m.outputs.name(o)),
        );
        let _ = writeln!(out, ", {t})");
    }
    out
}

/// The `.aut` text of a nondeterministic Mealy machine: `input / output` labels, several per
/// state and input.
pub fn write_onfsm(m: &crate::model::Onfsm) -> String {
    let mut out = String::with_capacity(32 + m.quads().len() * 24);
    let _ = writeln!(
        out,
        "des ({}, {}, {})",
        m.initial(),
        m.quads().len(),
        m.num_states()
    );
    for (s, i, o, t) in m.quads_by_name() {
        let _ = write!(out, "({s}, ");
        quote_label(
            &mut out,
            &format!("{} / {}", m.inputs.name(i), m.outputs.name(o)),
        );
        let _ = writeln!(out, ", {t})");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::StateId;

    fn opts() -> LoadOptions {
        LoadOptions::default()
    }

    fn parse_err(text: &str) -> String {
        match parse(text, "t.aut", "t", &opts()) {
            Err(e) => e.to_string(),
            Ok(m) => panic!("expected an error, got {m:?}"),
        }
    }

    fn lts(text: &str, opts: &LoadOptions) -> Lts {
        match parse(text, "t.aut", "t", opts) {
            Ok(Model::Lts(l)) => l,
            other => panic!("expected an LTS, got {other:?}"),
        }
    }

    #[test]
    fn parses_marked_quoted_and_bare_labels() {
        let text = "des (0, 6, 3)\n(0, \"?coin\", 1)\n(1, tau, 2)\n(1, !tea, 0)\n(2, coffee!, 0)\n(0, delta, 0)\n(0, \"button?\", 0)\n";
        let l = lts(text, &opts());
        assert_eq!(l.num_states(), 3);
        assert_eq!(l.num_transitions(), 6);
        let a = &l.alphabet;
        assert!(a.is_input(a.get("coin").unwrap()));
        assert!(a.is_input(a.get("button").unwrap()));
        assert!(a.is_output(a.get("tea").unwrap()));
        assert!(a.is_output(a.get("coffee").unwrap()));
        assert!(a.is_internal(a.get("tau").unwrap()));
        assert_eq!(a.quiescence(), a.get("delta"));
        assert_eq!(l.state_name(StateId(2)), "2");
        assert_eq!(l.initial(), StateId(0));
    }

    #[test]
    fn options_classify_unmarked_labels() {
        let text = "des (1, 2, 2)\n(1, coin, 0)\n(0, tea, 1)\n";
        let o = LoadOptions {
            inputs: vec!["coin".into()],
            outputs: vec!["tea".into(), "coffee".into()],
            ..LoadOptions::default()
        };
        let l = lts(text, &o);
        assert_eq!(l.initial(), StateId(1));
        assert!(l.alphabet.is_input(l.alphabet.get("coin").unwrap()));
        // Declared but unused labels are part of the alphabet.
        assert!(l.alphabet.is_output(l.alphabet.get("coffee").unwrap()));
    }

    #[test]
    fn mealy_labels_and_bare_labels_with_parentheses() {
        let text = "des (0, 2, 2)\n(0, ACK+RST(V,V,0) / TIMEOUT, 1)\n(1, \"a / b / c\", 0)\n";
        let Model::Mealy(m) = parse(text, "t.aut", "t", &opts()).unwrap() else {
            panic!("expected a Mealy machine")
        };
        assert_eq!(m.inputs.names(), ["ACK+RST(V,V,0)", "a"]);
        assert_eq!(m.outputs.names(), ["TIMEOUT", "b / c"]);
    }

    #[test]
    fn quoted_label_escapes() {
        let l = lts("des (0, 1, 1)\n(0, \"!say \\\"hi\\\"\", 0)\n", &opts());
        assert!(l.alphabet.get("say \"hi\"").is_some());
    }

    #[test]
    fn error_missing_header() {
        assert_eq!(
            parse_err("(0, a, 1)\n"),
            "t.aut:1:1: found `(0,`, expected `des (INITIAL, TRANSITIONS, STATES)`"
        );
        assert_eq!(
            parse_err("  \n"),
            "t.aut:2:1: found end of file, expected `des (INITIAL, TRANSITIONS, STATES)`"
        );
    }

    #[test]
    fn error_bad_header_fields() {
        assert_eq!(
            parse_err("des (0 1, 2)\n"),
            "t.aut:1:8: found `1`, expected `,` after the initial state"
        );
        assert_eq!(
            parse_err("des (x, 1, 2)\n"),
            "t.aut:1:6: found `x`, expected the initial state number"
        );
        assert_eq!(
            parse_err("des (0, 0, 0)\n"),
            "t.aut:1:12: found 0 states, expected at least one state"
        );
        assert_eq!(
            parse_err("des (3, 0, 2)\n"),
            "t.aut:1:6: found initial state 3, expected a state below 2, the declared number of states"
        );
        assert_eq!(
            parse_err("des (0, 0, 99999999999)\n"),
            "t.aut:1:12: found a number too large, expected the number of states below 4294967295"
        );
        assert_eq!(
            parse_err("des (0, 0, 9999999)\n"),
            "t.aut:1:12: found 9999999 states for 0 transitions, expected at most 1000000 states (more states without transitions are refused)"
        );
    }

    #[test]
    fn error_transition_counts() {
        assert_eq!(
            parse_err("des (0, 2, 2)\n(0, \"?a\", 1)\n"),
            "t.aut:3:1: found end of file after 1 transitions, expected 2 transitions, as the `des` header declares"
        );
        assert_eq!(
            parse_err("des (0, 1, 2)\n(0, \"?a\", 1)\n(1, \"!x\", 0)\n"),
            "t.aut:3:1: found transition 2, expected 1 transitions, as the `des` header declares"
        );
    }

    #[test]
    fn error_state_out_of_range() {
        assert_eq!(
            parse_err("des (0, 1, 2)\n(0, \"?a\", 2)\n"),
            "t.aut:2:11: found state 2, expected a state below 2, the declared number of states"
        );
    }

    #[test]
    fn error_malformed_transitions() {
        assert_eq!(
            parse_err("des (0, 1, 2)\n0, a, 1)\n"),
            "t.aut:2:1: found `0`, expected `(` starting a transition `(FROM, LABEL, TO)`"
        );
        assert_eq!(
            parse_err("des (0, 1, 2)\n(0, \"?a, 1)\n"),
            "t.aut:2:5: found an unterminated quoted label, expected a closing `\"` on the same line"
        );
        assert_eq!(
            parse_err("des (0, 1, 2)\n(0, ?a 1\n"),
            "t.aut:2:9: found end of line, expected `)` closing the transition"
        );
        assert_eq!(
            parse_err("des (0, 1, 2)\n(0, ?a)\n"),
            "t.aut:2:7: found `)`, expected `, TO)` after the label"
        );
        assert_eq!(
            parse_err("des (0, 1, 2)\n(0, \"?a\" 1)\n"),
            "t.aut:2:10: found `1`, expected `,` after the label"
        );
        assert_eq!(
            parse_err("des (0, 1, 2)\n(0, \"?a\", 1\n"),
            "t.aut:2:12: found end of line, expected `)` closing the transition"
        );
    }

    #[test]
    fn error_labels() {
        assert_eq!(
            parse_err("des (0, 1, 2)\n(0, coin, 1)\n"),
            "t.aut:2:5: found unmarked label `coin`, expected `?coin` or `coin?` for an input, `!coin` or `coin!` for an output, `tau`, `delta`, or `--inputs`/`--outputs` naming it"
        );
        assert_eq!(
            parse_err("des (0, 2, 2)\n(0, ?a, 1)\n(1, !a, 0)\n"),
            "t.aut:3:5: found label `!a` used as Output, expected `a` used only as Input, as at its first use"
        );
        assert_eq!(
            parse_err("des (0, 2, 2)\n(0, ?a, 1)\n(1, b / c, 0)\n"),
            "t.aut:3:5: found Mealy label `b / c`, expected an LTS label (`?input`, `!output`, `tau`, `delta`) like the file's first edge"
        );
        assert_eq!(
            parse_err("des (0, 2, 2)\n(0, a / b, 1)\n(1, ?c, 0)\n"),
            "t.aut:3:5: found LTS label `?c`, expected a Mealy label `input / output` like the file's first edge"
        );
        assert_eq!(
            parse_err("des (0, 1, 2)\n(0, \"\", 1)\n"),
            "t.aut:2:5: found an empty label, expected a label"
        );
        assert_eq!(
            parse_err("des (0, 1, 2)\n(0, \"a / \", 1)\n"),
            "t.aut:2:5: found label `a /` with an empty Mealy output, expected a non-empty Mealy output"
        );
        let both = LoadOptions {
            inputs: vec!["a".into()],
            outputs: vec!["a".into()],
            ..LoadOptions::default()
        };
        let e = parse("des (0, 1, 1)\n(0, a, 0)\n", "t.aut", "t", &both).unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.aut:2:5: found label `a` named by both --inputs and --outputs, expected each label in only one of --inputs and --outputs"
        );
    }

    #[test]
    fn nondeterministic_mealy_is_an_onfsm_with_a_located_warning() {
        let text = "des (0, 3, 2)\n(0, a / x, 1)\n(0, a / y, 1)\n(1, a / x, 0)\n";
        let mut warnings = Vec::new();
        let m = parse_with_warnings(text, "t.aut", "t", &opts(), &mut warnings).unwrap();
        let Model::Lts(l) = m else {
            panic!("expected the LTS embedding, got {m:?}")
        };
        let o = l.onfsm().expect("read as an ONFSM");
        assert_eq!(o.quads().len(), 3);
        assert_eq!(warnings.len(), 1);
        assert_eq!(
            warnings[0].to_string(),
            "t.aut:3:5: a second transition for input `a` from state `0` (the first is at line 2, column 5): reading the file as a nondeterministic Mealy machine (ONFSM), tested with ioco through its suspension automaton"
        );
        // Written back as `.aut`, it reads as the same machine.
        let again = parse(&write_onfsm(o), "u.aut", "t", &opts()).unwrap();
        let Model::Lts(again) = again else {
            panic!("expected an LTS")
        };
        assert_eq!(again.onfsm().map(|a| a.quads()), Some(o.quads()));
    }

    #[test]
    fn initial_option_overrides_and_is_checked() {
        let o = LoadOptions {
            initial: Some("1".into()),
            ..LoadOptions::default()
        };
        assert_eq!(lts("des (0, 1, 2)\n(0, ?a, 1)\n", &o).initial(), StateId(1));
        let bad = LoadOptions {
            initial: Some("7".into()),
            ..LoadOptions::default()
        };
        let e = parse("des (0, 1, 2)\n(0, ?a, 1)\n", "t.aut", "t", &bad).unwrap_err();
        assert_eq!(e.to_string(), "--initial 7: t.aut has no state named `7`");
    }

    #[test]
    fn writes_what_it_reads() {
        let text = "des (0, 4, 3)\n(0, \"?coin\", 1)\n(1, \"tau\", 2)\n(1, \"!tea\", 0)\n(2, \"delta\", 2)\n";
        let l = lts(text, &opts());
        assert_eq!(write_lts(&l), text);
    }
}

#[cfg(test)]
mod more_error_shapes {
    use super::*;

    #[test]
    fn every_expectation_has_its_message() {
        let cases: &[(&str, &str)] = &[
            (
                "des 0, 1, 2)\n",
                "t.aut:1:5: found `0`, expected `(` after `des`",
            ),
            (
                "des (0, x, 2)\n",
                "t.aut:1:9: found `x`, expected the number of transitions",
            ),
            (
                "des (0, 1 2)\n",
                "t.aut:1:11: found `2`, expected `,` after the number of transitions",
            ),
            (
                "des (0, 1, )\n",
                "t.aut:1:12: found `)`, expected the number of states",
            ),
            (
                "des (0, 1, 2\n",
                "t.aut:1:13: found end of line, expected `)` closing the `des` header",
            ),
            (
                "des (0, 1, 2)\n(x, ?a, 1)\n",
                "t.aut:2:2: found `x`, expected the source state number",
            ),
            (
                "des (0, 1, 2)\n(0 ?a, 1)\n",
                "t.aut:2:4: found `?`, expected `,` after the source state",
            ),
            (
                "des (0, 1, 2)\n(0, ?a, y)\n",
                "t.aut:2:9: found `y`, expected the target state number",
            ),
            (
                "des (0, 1, 2)\n(0, ?, 1)\n",
                "t.aut:2:5: found label `?` with an empty input name, expected a non-empty input name",
            ),
            (
                "des (0, 1, 2)\n(0, !, 1)\n",
                "t.aut:2:5: found label `!` with an empty output name, expected a non-empty output name",
            ),
            (
                "des (0, 1, 2)\n(0, \" / x\", 1)\n",
                "t.aut:2:5: found label `/ x` with an empty Mealy input, expected a non-empty Mealy input",
            ),
        ];
        for (text, want) in cases {
            let got = parse(text, "t.aut", "t", &LoadOptions::default())
                .unwrap_err()
                .to_string();
            assert_eq!(&got, want, "input: {text:?}");
        }
    }
}

#[cfg(test)]
mod line_endings {
    use super::*;

    #[test]
    fn crlf_files_parse() {
        let text = "des (0, 2, 2)\r\n(0, \"?a\", 1)\r\n(1, !x, 0)\r\n";
        let Model::Lts(l) = parse(text, "t.aut", "t", &LoadOptions::default()).unwrap() else {
            panic!("expected an LTS")
        };
        assert_eq!(l.num_transitions(), 2);
        assert!(l.alphabet.get("x").is_some());
    }
}
