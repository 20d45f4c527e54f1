//! Native models written, in YAML or JSON, with their timeout annotations and requirement tags.

use super::super::timeouts::TimeoutAnnotations;
use crate::model::{LabelKind, Model, StateId};
use std::fmt::Write;

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
