//! DOT models written: Mealy, Moore and nondeterministic Mealy machines and LTSs, with their
//! timeout annotations as node and edge attributes.

use super::super::timeouts::TimeoutAnnotations;
use super::lexer::{is_id_continue, is_id_start};
use crate::model::{LabelId, LabelKind, Lts, Mealy, Onfsm};
use std::fmt::Write;

/// A DOT id: bare when it is a plain identifier that is not a keyword, quoted otherwise.
fn write_id(out: &mut String, id: &str) {
    let plain = id.bytes().next().is_some_and(is_id_start)
        && id.bytes().all(is_id_continue)
        && !["node", "edge", "graph", "digraph", "subgraph", "strict"]
            .iter()
            .any(|k| id.eq_ignore_ascii_case(k));
    if plain {
        out.push_str(id);
    } else {
        write_quoted(out, id);
    }
}

fn write_quoted(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            _ => out.push(c),
        }
    }
    out.push('"');
}

fn write_header(
    out: &mut String,
    name: &str,
    states: &[String],
    initial: usize,
    annotations: &TimeoutAnnotations,
) {
    out.push_str("digraph ");
    write_id(out, name);
    out.push_str(" {\n    __start0 [label=\"\" shape=\"none\"];\n    __start0 -> ");
    write_id(out, &states[initial]);
    out.push_str(";\n\n");
    for s in states {
        out.push_str("    ");
        write_id(out, s);
        out.push_str(" [shape=\"circle\" label=");
        write_quoted(out, s);
        write_quiescence(out, s, annotations);
        out.push_str("];\n");
    }
    out.push('\n');
}

/// ` quiescence_timeout_ms=MS` when state `s` is annotated.
fn write_quiescence(out: &mut String, s: &str, annotations: &TimeoutAnnotations) {
    if let Some(ms) = annotations.quiescence_ms.get(s) {
        let _ = write!(out, " quiescence_timeout_ms={ms}");
    }
}

/// An edge; `input` is the input its label names, whose response timeout (if annotated) it
/// carries: the parser reads `response_timeout_ms` on an edge as the timeout of the edge's
/// input, so every edge of an annotated input repeats it.
fn write_edge(
    out: &mut String,
    states: &[String],
    (from, to): (usize, usize),
    label: &str,
    input: Option<&str>,
    annotations: &TimeoutAnnotations,
) {
    out.push_str("    ");
    write_id(out, &states[from]);
    out.push_str(" -> ");
    write_id(out, &states[to]);
    out.push_str(" [label=");
    write_quoted(out, label);
    if let Some(ms) = input.and_then(|i| annotations.response_ms.get(i)) {
        let _ = write!(out, " response_timeout_ms={ms}");
    }
    out.push_str("];\n");
}

/// The DOT text of a Mealy machine in the automata-wiki style (`__start0`, `label="in / out"`),
/// with its timeout annotations as attributes (none when `annotations` is empty).
pub fn write_mealy(m: &Mealy, annotations: &TimeoutAnnotations) -> String {
    let mut out = String::with_capacity(64 + m.num_transitions() * 40);
    let states = m.state_names();
    write_header(&mut out, &m.name, states, m.initial().index(), annotations);
    let mut label = String::new();
    for (s, i, o, t) in m.quads() {
        label.clear();
        let input = m.inputs.name(i);
        let _ = write!(label, "{input} / {}", m.outputs.name(o));
        let ends = (s.index(), t.index());
        write_edge(&mut out, states, ends, &label, Some(input), annotations);
    }
    out.push_str("}\n");
    out
}

/// The DOT text of a Moore machine (the Mealy translation of one, [`Mealy::state_outputs`]) as
/// AALpy writes it: record nodes labelled `name|output`, edges labelled by their input; with
/// its timeout annotations as attributes.
pub fn write_moore(
    m: &Mealy,
    state_outputs: &[LabelId],
    annotations: &TimeoutAnnotations,
) -> String {
    let states = m.state_names();
    let mut out = String::with_capacity(64 + m.num_transitions() * 30);
    out.push_str("digraph ");
    write_id(&mut out, &m.name);
    out.push_str(" {\n    __start0 [label=\"\" shape=\"none\"];\n    __start0 -> ");
    write_id(&mut out, &states[m.initial().index()]);
    out.push_str(";\n\n");
    for (s, o) in states.iter().zip(state_outputs) {
        out.push_str("    ");
        write_id(&mut out, s);
        out.push_str(" [shape=\"record\" style=\"rounded\" label=");
        write_quoted(&mut out, &format!("{s}|{}", m.outputs.name(*o)));
        write_quiescence(&mut out, s, annotations);
        out.push_str("];\n");
    }
    out.push('\n');
    // By source, then input name: a file read back (inputs numbered in first-use order) is
    // written the same.
    let mut quads: Vec<_> = m.quads().collect();
    quads.sort_by(|a, b| (a.0, m.inputs.name(a.1)).cmp(&(b.0, m.inputs.name(b.1))));
    for (s, i, _, t) in quads {
        let input = m.inputs.name(i);
        let ends = (s.index(), t.index());
        write_edge(&mut out, states, ends, input, Some(input), annotations);
    }
    out.push_str("}\n");
    out
}

/// The DOT text of a nondeterministic Mealy machine: `label="in / out"` edges, several per
/// state and input (AALpy's `onfsm` files, with spaces around the `/`); with its timeout
/// annotations as attributes.
pub fn write_onfsm(m: &Onfsm, annotations: &TimeoutAnnotations) -> String {
    let mut out = String::with_capacity(64 + m.quads().len() * 40);
    let states = m.state_names();
    write_header(&mut out, &m.name, states, m.initial().index(), annotations);
    let mut label = String::new();
    for (s, i, o, t) in m.quads_by_name() {
        label.clear();
        let input = m.inputs.name(i);
        let _ = write!(label, "{input} / {}", m.outputs.name(o));
        let ends = (s.index(), t.index());
        write_edge(&mut out, states, ends, &label, Some(input), annotations);
    }
    out.push_str("}\n");
    out
}

/// The DOT text of an LTS with `?a`, `!x`, `tau` and `delta` edge labels, with its timeout
/// annotations as attributes.
pub fn write_lts(lts: &Lts, annotations: &TimeoutAnnotations) -> String {
    let mut out = String::with_capacity(64 + lts.num_transitions() * 40);
    let (a, states) = (&lts.alphabet, lts.state_names());
    write_header(
        &mut out,
        &lts.name,
        states,
        lts.initial().index(),
        annotations,
    );
    let labels: Vec<String> = a
        .ids()
        .map(|l| super::super::aut::marked_label(a, l))
        .collect();
    for (s, l, t) in lts.triples() {
        let input = (a.kind(l) == LabelKind::Input).then(|| a.name(l));
        let ends = (s.index(), t.index());
        write_edge(
            &mut out,
            states,
            ends,
            &labels[l.index()],
            input,
            annotations,
        );
    }
    out.push_str("}\n");
    out
}
