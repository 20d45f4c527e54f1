//! Pictures of models: `ncomplete draw MODEL` (SVG or Graphviz DOT) and the specification in
//! the HTML report of a run ([`crate::exec::report_html`]).
//!
//! A [`Picture`] is the graph as a person reads it: states by name, and transitions labelled as
//! the model's kind writes them: a Mealy machine (or a nondeterministic one, or a Moore
//! machine's translation) with `input/output` edges, an LTS with `?input`, `!output` and its
//! internal labels, and quiescence distinctly: explicit `δ` transitions of a suspension
//! automaton drawn dotted, and in an LTS the quiescent states (no output and no internal step
//! enabled: TorX Sec. 2.2, the definition after Def. 2.2.8) drawn with a double border.
//! Coverage marks, when a run's results are given, colour transitions covered or missed and
//! states visited or not.
//!
//! The layout is a layered drawing in the manner of Sugiyama, Tagawa and Toda (1981), our own:
//! - transitions between the same two states (in one direction) are merged into one edge whose
//!   label is the list of their labels, one per line;
//! - states go on the levels of a breadth-first search from the initial state (states it does
//!   not reach start their own searches, in state order), one column per level, left to right;
//! - within a column, states are ordered by the barycentre of their neighbours in the column
//!   before (then after), a fixed number of sweeps, ties kept in their previous order;
//! - every state is a rounded box as wide as its whole name (names are never cut);
//! - edge labels sit in the gap to the right of the lower of their two levels; each gap is as
//!   wide as its widest label, and the labels in a gap are packed top to bottom in the order of
//!   the height where their straight edge crosses it, so no two labels overlap; a self-loop's
//!   label sits above its state, inside its column, whose width and height make room for it;
//! - each edge is a quadratic curve from state border to state border through its label's
//!   centre.
//!
//! Widths are estimated for a monospace font (0.6 em per character, two for wide East Asian
//! characters), which the SVG asks for. Everything is computed in model order with stable
//! sorts: the same model gives the same bytes. Every name and label passes through
//! [`html_text`] in SVG and [`dot_string`] in DOT.

use super::escape::{html_text, is_printable};
use crate::model::{LabelId, Lts, Mealy, Model};
use std::fmt::Write as _;

/// The font size of the drawing, in pixels.
const FONT: f64 = 13.0;
/// The estimated width of one character of the monospace font.
const CHAR_WIDTH: f64 = 0.6 * FONT;
/// The height of one line of an edge label.
const LINE: f64 = 16.0;
/// The height of a state's box.
const STATE_HEIGHT: f64 = 34.0;
/// Horizontal padding inside a state's box.
const STATE_PAD: f64 = 14.0;
/// Vertical space between two states of a column.
const STATE_GAP: f64 = 30.0;
/// Space between labels packed in one gap.
const LABEL_GAP: f64 = 6.0;
/// Margin around the drawing (the left one holds the initial arrow).
const MARGIN: f64 = 24.0;
const LEFT: f64 = 56.0;
/// Height of a self-loop above its state.
const LOOP_HEIGHT: f64 = 26.0;
/// Barycentre sweeps (down and up count one each).
const SWEEPS: usize = 8;

/// How a transition is drawn.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EdgeKind {
    /// An input of an LTS or automaton (`?a`).
    Input,
    /// An output (`!x`).
    Output,
    /// An internal step.
    Internal,
    /// Quiescence δ made explicit (suspension automata).
    Quiescence,
    /// A Mealy transition `i/o`.
    Mealy,
}

impl EdgeKind {
    fn class(self) -> &'static str {
        match self {
            EdgeKind::Input => "input",
            EdgeKind::Output => "output",
            EdgeKind::Internal => "internal",
            EdgeKind::Quiescence => "quiescence",
            EdgeKind::Mealy => "mealy",
        }
    }
}

/// A state of a picture.
#[derive(Clone, Debug, PartialEq)]
pub struct PictureState {
    /// Its name, shown whole.
    pub name: String,
    /// Quiescent in an LTS (drawn with a double border).
    pub quiescent: bool,
    /// Visited by a run (`None`: no coverage shown).
    pub visited: Option<bool>,
}

/// A transition of a picture.
#[derive(Clone, Debug, PartialEq)]
pub struct PictureTransition {
    /// Source state (index into [`Picture::states`]).
    pub from: usize,
    /// Target state.
    pub to: usize,
    /// The label as shown (`?a`, `!x`, `δ`, `a/x`, an internal label's name).
    pub label: String,
    /// How it is drawn.
    pub kind: EdgeKind,
    /// Covered by a run (`None`: no coverage shown).
    pub covered: Option<bool>,
}

/// A model as a graph to draw.
#[derive(Clone, Debug, PartialEq)]
pub struct Picture {
    /// The model's name (the drawing's title).
    pub name: String,
    /// What kind of machine it is, for the legend (`Mealy machine`, `LTS`, ...).
    pub kind: &'static str,
    pub states: Vec<PictureState>,
    pub initial: usize,
    pub transitions: Vec<PictureTransition>,
}

impl Picture {
    /// The picture of any model: a Mealy machine (or an LTS read as a nondeterministic Mealy
    /// machine) with `i/o` edges, an LTS with `?`/`!` labels and its quiescent states marked.
    pub fn of_model(model: &Model) -> Picture {
        match model {
            Model::Mealy(m) => Picture::of_mealy(m),
            Model::Lts(lts) => match lts.onfsm() {
                Some(m) => {
                    let transitions = m
                        .quads()
                        .iter()
                        .map(|&(q, i, o, t)| PictureTransition {
                            from: q.index(),
                            to: t.index(),
                            label: format!("{}/{}", m.inputs.name(i), m.outputs.name(o)),
                            kind: EdgeKind::Mealy,
                            covered: None,
                        })
                        .collect();
                    Picture {
                        name: m.name.clone(),
                        kind: "nondeterministic Mealy machine",
                        states: plain_states(m.state_names()),
                        initial: m.initial().index(),
                        transitions,
                    }
                }
                None => Picture::of_lts(lts),
            },
        }
    }

    /// A Mealy machine: one `input/output` edge per defined transition; a Moore machine's
    /// translation shows each state's output beside its name.
    pub fn of_mealy(m: &Mealy) -> Picture {
        let mut states = plain_states(m.state_names());
        if let Some(outputs) = m.state_outputs() {
            for (state, &o) in states.iter_mut().zip(outputs) {
                state.name = format!("{} | {}", state.name, m.outputs.name(o));
            }
        }
        let transitions = m
            .quads()
            .map(|(q, i, o, t)| PictureTransition {
                from: q.index(),
                to: t.index(),
                label: mealy_label(m, i, o),
                kind: EdgeKind::Mealy,
                covered: None,
            })
            .collect();
        Picture {
            name: m.name.clone(),
            kind: if m.state_outputs().is_some() {
                "Moore machine"
            } else {
                "Mealy machine"
            },
            states,
            initial: m.initial().index(),
            transitions,
        }
    }

    /// An LTS (or a suspension automaton written as one): `?a`, `!x`, internal labels by name,
    /// explicit quiescence as `δ`; states where neither an output nor an internal step is
    /// enabled are marked quiescent (unless the model writes its δ transitions itself).
    pub fn of_lts(lts: &Lts) -> Picture {
        let alphabet = &lts.alphabet;
        let delta = alphabet.quiescence();
        let mut states = plain_states(lts.state_names());
        if delta.is_none() {
            for q in lts.states() {
                states[q.index()].quiescent = lts
                    .transitions_from(q)
                    .iter()
                    .all(|&(l, _)| alphabet.is_input(l));
            }
        }
        let transitions = lts
            .triples()
            .map(|(q, l, t)| {
                let (label, kind) = marked_label(alphabet, delta, l);
                PictureTransition {
                    from: q.index(),
                    to: t.index(),
                    label,
                    kind,
                    covered: None,
                }
            })
            .collect();
        Picture {
            name: lts.name.clone(),
            kind: if delta.is_some() {
                "LTS with explicit quiescence"
            } else {
                "LTS"
            },
            states,
            initial: lts.initial().index(),
            transitions,
        }
    }

    /// Whether coverage marks are shown.
    fn has_coverage(&self) -> bool {
        self.states.iter().any(|s| s.visited.is_some())
            || self.transitions.iter().any(|t| t.covered.is_some())
    }

    /// The picture as a standalone SVG document.
    pub fn svg(&self) -> String {
        let mut s = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        self.svg_element(&mut s, "model", false);
        s
    }

    /// The `<svg>` element, its ids prefixed with `id` (several drawings can share a page);
    /// `fit` makes it fill the width of its container (a page), at most twice its natural size
    /// and at least three quarters of it (a wider drawing scrolls rather than shrinks).
    pub fn svg_element(&self, s: &mut String, id: &str, fit: bool) {
        let layout = Layout::of(self);
        let (width, height) = (layout.width.ceil(), layout.height.ceil());
        let style = if fit {
            format!(
                " style=\"width:100%;max-width:{:.0}px;min-width:{:.0}px\"",
                2.0 * width,
                0.75 * width
            )
        } else {
            String::new()
        };
        let _ = writeln!(
            s,
            "<svg class=\"ncomplete-model\" id=\"{id}\"{style} xmlns=\"http://www.w3.org/2000/svg\" \
             width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" \
             font-family=\"ui-monospace, Menlo, Consolas, 'DejaVu Sans Mono', monospace\" \
             font-size=\"{FONT}\" role=\"img\" aria-label=\"{}: {}\">",
            html_text(self.kind),
            html_text(&self.name)
        );
        let _ = writeln!(
            s,
            "<title>{} ({})</title>\n<style>{SVG_STYLE}</style>",
            html_text(&self.name),
            html_text(self.kind)
        );
        s.push_str("<defs>");
        for class in ["plain", "covered", "missed", "quiescence"] {
            let _ = write!(
                s,
                "<marker id=\"{id}-arrow-{class}\" class=\"arrow {class}\" viewBox=\"0 0 10 10\" \
                 refX=\"10\" refY=\"5\" markerWidth=\"8\" markerHeight=\"8\" orient=\"auto\">\
                 <path d=\"M0,0 L10,5 L0,10 z\"/></marker>"
            );
        }
        s.push_str("</defs>\n");
        let coverage = self.has_coverage();
        // The initial arrow.
        let init = &layout.boxes[self.initial];
        let _ = writeln!(
            s,
            "<path class=\"initial\" d=\"M{:.1} {:.1} L{:.1} {:.1}\" marker-end=\"url(#{id}-arrow-plain)\"/>",
            init.x - init.w / 2.0 - 30.0,
            init.y,
            init.x - init.w / 2.0 - 1.0,
            init.y
        );
        for edge in &layout.edges {
            let items: Vec<&PictureTransition> =
                edge.items.iter().map(|&k| &self.transitions[k]).collect();
            let class = edge_class(&items, coverage);
            let marker = if coverage {
                if items.iter().any(|t| t.covered == Some(true)) {
                    "covered"
                } else {
                    "missed"
                }
            } else if items.iter().all(|t| t.kind == EdgeKind::Quiescence) {
                "quiescence"
            } else {
                "plain"
            };
            let (from, to) = (&self.states[edge.from].name, &self.states[edge.to].name);
            let _ = write!(
                s,
                "<g class=\"transition {class}\"><title>{} → {}: {}</title>",
                html_text(from),
                html_text(to),
                html_text(
                    &items
                        .iter()
                        .map(|t| t.label.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            );
            let _ = write!(
                s,
                "<path d=\"{}\" marker-end=\"url(#{id}-arrow-{marker})\"/>",
                edge.path
            );
            let (lx, ly) = (edge.label_x, edge.label_top);
            let _ = write!(
                s,
                "<rect class=\"label-box\" x=\"{:.1}\" y=\"{ly:.1}\" width=\"{:.1}\" height=\"{:.1}\" rx=\"3\"/>",
                lx - edge.label_w / 2.0,
                edge.label_w,
                edge.label_h
            );
            let _ = write!(s, "<text class=\"edge-label\" text-anchor=\"middle\">");
            for (k, t) in items.iter().enumerate() {
                let mut classes = vec!["label", t.kind.class()];
                match t.covered {
                    Some(true) => classes.push("covered"),
                    Some(false) => classes.push("missed"),
                    None => {}
                }
                let _ = write!(
                    s,
                    "<tspan class=\"{}\" x=\"{lx:.1}\" y=\"{:.1}\">{}</tspan>",
                    classes.join(" "),
                    ly + LINE * (k as f64 + 1.0) - 4.0,
                    html_text(&t.label)
                );
            }
            s.push_str("</text></g>\n");
        }
        for (k, state) in self.states.iter().enumerate() {
            let b = &layout.boxes[k];
            let mut class = vec!["state"];
            if k == self.initial {
                class.push("initial-state");
            }
            match state.visited {
                Some(true) => class.push("visited"),
                Some(false) => class.push("unvisited"),
                None => {}
            }
            if state.quiescent {
                class.push("quiescent");
            }
            let (x0, y0) = (b.x - b.w / 2.0, b.y - STATE_HEIGHT / 2.0);
            let _ = write!(
                s,
                "<g class=\"{}\" id=\"{id}-state-{k}\"><title>{}{}</title>\
                 <rect x=\"{x0:.1}\" y=\"{y0:.1}\" width=\"{:.1}\" height=\"{STATE_HEIGHT}\" rx=\"{}\"/>",
                class.join(" "),
                html_text(&state.name),
                if state.quiescent { " (quiescent)" } else { "" },
                b.w,
                STATE_HEIGHT / 2.0
            );
            if state.quiescent {
                let _ = write!(
                    s,
                    "<rect class=\"inner\" x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" rx=\"{:.1}\"/>",
                    x0 + 3.0,
                    y0 + 3.0,
                    b.w - 6.0,
                    STATE_HEIGHT - 6.0,
                    STATE_HEIGHT / 2.0 - 3.0
                );
            }
            let _ = writeln!(
                s,
                "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text></g>",
                b.x,
                b.y + FONT / 2.0 - 2.0,
                html_text(&state.name)
            );
        }
        s.push_str("</svg>\n");
    }

    /// The picture as a Graphviz DOT digraph (`dot -Tsvg` lays it out): states `n0`, `n1`, ...
    /// labelled with their names, merged edge labels one per line, coverage as colours.
    pub fn dot(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "digraph {} {{", dot_string(&self.name));
        let _ = writeln!(
            s,
            "  // {}{}",
            self.kind,
            if self.has_coverage() {
                ", coloured by coverage: green covered, grey dashed missed"
            } else {
                ""
            }
        );
        s.push_str(
            "  rankdir=LR;\n  node [shape=box, style=\"rounded\", fontname=\"monospace\"];\n  \
             edge [fontname=\"monospace\"];\n  start [shape=point, label=\"\"];\n",
        );
        let _ = writeln!(s, "  start -> n{};", self.initial);
        for (k, state) in self.states.iter().enumerate() {
            let mut attrs = vec![format!("label={}", dot_string(&state.name))];
            if state.quiescent {
                attrs.push("peripheries=2".into());
            }
            match state.visited {
                Some(true) => attrs.push(
                    "style=\"rounded,filled\", fillcolor=\"#c8e6c9\", color=\"#2e7d32\"".into(),
                ),
                Some(false) => attrs.push(
                    "style=\"rounded,filled,dashed\", fillcolor=\"#eeeeee\", color=\"#9e9e9e\""
                        .into(),
                ),
                None => {}
            }
            let _ = writeln!(s, "  n{k} [{}];", attrs.join(", "));
        }
        for edge in merged_edges(self) {
            let items: Vec<&PictureTransition> =
                edge.items.iter().map(|&k| &self.transitions[k]).collect();
            let label = items
                .iter()
                .map(|t| t.label.as_str())
                .collect::<Vec<_>>()
                .join("\n");
            let mut attrs = vec![format!("label={}", dot_string(&label))];
            if self.has_coverage() {
                if items.iter().any(|t| t.covered == Some(true)) {
                    attrs.push("color=\"#2e7d32\", fontcolor=\"#1b5e20\"".into());
                } else {
                    attrs.push("color=\"#9e9e9e\", fontcolor=\"#757575\", style=dashed".into());
                }
            } else if items.iter().all(|t| t.kind == EdgeKind::Quiescence) {
                attrs.push("color=\"#1565c0\", style=dotted".into());
            } else if items.iter().all(|t| t.kind == EdgeKind::Internal) {
                attrs.push("style=dotted".into());
            }
            let _ = writeln!(
                s,
                "  n{} -> n{} [{}];",
                edge.from,
                edge.to,
                attrs.join(", ")
            );
        }
        s.push_str("}\n");
        s
    }
}

/// The CSS of a drawing (inside its `<svg>`, so a standalone file and the HTML report look
/// the same).
const SVG_STYLE: &str = "\
.ncomplete-model .state rect{fill:#fff;stroke:#37474f;stroke-width:1.4}\
.ncomplete-model .state .inner{fill:none}\
.ncomplete-model .state text{fill:#212121}\
.ncomplete-model .state.visited rect{fill:#e8f5e9;stroke:#2e7d32}\
.ncomplete-model .state.unvisited rect{fill:#f5f5f5;stroke:#9e9e9e;stroke-dasharray:4 3}\
.ncomplete-model .state.visited .inner,.ncomplete-model .state.unvisited .inner{fill:none}\
.ncomplete-model .transition path{fill:none;stroke:#546e7a;stroke-width:1.3}\
.ncomplete-model .transition.quiescence path{stroke:#1565c0;stroke-dasharray:2 3}\
.ncomplete-model .transition.internal path{stroke-dasharray:5 3}\
.ncomplete-model .transition.covered path{stroke:#2e7d32;stroke-width:1.8;stroke-dasharray:none}\
.ncomplete-model .transition.missed path{stroke:#9e9e9e;stroke-dasharray:5 4}\
.ncomplete-model .initial{fill:none;stroke:#37474f;stroke-width:1.4}\
.ncomplete-model .arrow path{fill:#546e7a}\
.ncomplete-model .arrow.plain path{fill:#37474f}\
.ncomplete-model .arrow.covered path{fill:#2e7d32}\
.ncomplete-model .arrow.missed path{fill:#9e9e9e}\
.ncomplete-model .arrow.quiescence path{fill:#1565c0}\
.ncomplete-model .label-box{fill:#fff;fill-opacity:0.88}\
.ncomplete-model .edge-label{fill:#37474f}\
.ncomplete-model .label.quiescence{fill:#1565c0}\
.ncomplete-model .label.internal{fill:#757575;font-style:italic}\
.ncomplete-model .label.covered{fill:#1b5e20;font-weight:bold}\
.ncomplete-model .label.missed{fill:#9e9e9e}";

fn plain_states(names: &[String]) -> Vec<PictureState> {
    names
        .iter()
        .map(|name| PictureState {
            name: name.clone(),
            quiescent: false,
            visited: None,
        })
        .collect()
}

/// `input/output` of a Mealy transition.
pub fn mealy_label(m: &Mealy, i: LabelId, o: LabelId) -> String {
    format!("{}/{}", m.inputs.name(i), m.outputs.name(o))
}

/// A label of an LTS or automaton as shown: `?a`, `!x`, `δ`, an internal label by name.
pub fn marked_label(
    alphabet: &crate::model::Alphabet,
    quiescence: Option<LabelId>,
    l: LabelId,
) -> (String, EdgeKind) {
    let name = alphabet.name(l);
    if Some(l) == quiescence {
        ("δ".to_owned(), EdgeKind::Quiescence)
    } else if alphabet.is_input(l) {
        (format!("?{name}"), EdgeKind::Input)
    } else if alphabet.is_output(l) {
        (format!("!{name}"), EdgeKind::Output)
    } else {
        (name.to_owned(), EdgeKind::Internal)
    }
}

/// The class of a drawn edge: its kind when all its labels share one (`mixed` otherwise), and
/// `covered` or `missed` when coverage is shown.
fn edge_class(items: &[&PictureTransition], coverage: bool) -> String {
    let kind = items[0].kind;
    let mut class = if items.iter().all(|t| t.kind == kind) {
        kind.class().to_owned()
    } else {
        "mixed".to_owned()
    };
    if coverage {
        if items.iter().any(|t| t.covered == Some(true)) {
            class.push_str(" covered");
        } else {
            class.push_str(" missed");
        }
    }
    class
}

/// `s` as a DOT double-quoted string: `"` and `\` escaped (so no `\n`, `\l` or `\N` of the
/// model becomes a Graphviz escape), line breaks of merged labels as `\n`, and other characters
/// that are not printable as `\u{..}` text.
pub fn dot_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if is_printable(c) => out.push(c),
            c => {
                let _ = write!(out, "\\\\u{{{:x}}}", c as u32);
            }
        }
    }
    out.push('"');
    out
}

/// The width of `s` as [`html_text`] shows it, in characters of the monospace font (wide East
/// Asian characters and emoji count two).
pub fn display_width(s: &str) -> usize {
    s.chars()
        .map(|c| match c {
            '\n' | '\r' | '\t' => 2,
            c if is_printable(c) => {
                if is_wide(c) {
                    2
                } else {
                    1
                }
            }
            c => format!("\\u{{{:x}}}", c as u32).len(),
        })
        .sum()
}

fn is_wide(c: char) -> bool {
    matches!(c as u32,
        0x1100..=0x115F | 0x2E80..=0xA4CF | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF | 0xFE30..=0xFE4F
        | 0xFF00..=0xFF60 | 0xFFE0..=0xFFE6 | 0x1F300..=0x1FAFF | 0x20000..=0x3FFFD)
}

fn text_width(s: &str) -> f64 {
    display_width(s) as f64 * CHAR_WIDTH
}

/// The transitions between one ordered pair of states, drawn as one edge.
struct MergedEdge {
    from: usize,
    to: usize,
    /// Indices into [`Picture::transitions`], in model order.
    items: Vec<usize>,
}

/// The edges of a picture in the order of their first transition.
fn merged_edges(p: &Picture) -> Vec<MergedEdge> {
    let mut index: std::collections::BTreeMap<(usize, usize), usize> = Default::default();
    let mut edges: Vec<MergedEdge> = Vec::new();
    for (k, t) in p.transitions.iter().enumerate() {
        let e = *index.entry((t.from, t.to)).or_insert_with(|| {
            edges.push(MergedEdge {
                from: t.from,
                to: t.to,
                items: Vec::new(),
            });
            edges.len() - 1
        });
        edges[e].items.push(k);
    }
    edges
}

/// Where a state's box is: centre and width.
struct StateBox {
    x: f64,
    y: f64,
    w: f64,
}

/// An edge laid out.
struct LaidEdge {
    from: usize,
    to: usize,
    items: Vec<usize>,
    path: String,
    label_x: f64,
    label_top: f64,
    label_w: f64,
    label_h: f64,
}

struct Layout {
    boxes: Vec<StateBox>,
    edges: Vec<LaidEdge>,
    width: f64,
    height: f64,
}

/// Breadth-first levels from the initial state, then from each state not yet reached (in state
/// order); returns the level of each state and the states of each level in discovery order.
fn levels(p: &Picture, edges: &[MergedEdge]) -> (Vec<usize>, Vec<Vec<usize>>) {
    let n = p.states.len();
    let mut successors: Vec<Vec<usize>> = vec![Vec::new(); n];
    for e in edges {
        successors[e.from].push(e.to);
    }
    let mut level = vec![usize::MAX; n];
    let mut columns: Vec<Vec<usize>> = Vec::new();
    let starts = std::iter::once(p.initial).chain(0..n);
    for start in starts {
        if level[start] != usize::MAX {
            continue;
        }
        level[start] = 0;
        let mut queue = std::collections::VecDeque::from([start]);
        while let Some(q) = queue.pop_front() {
            let l = level[q];
            if columns.len() <= l {
                columns.push(Vec::new());
            }
            columns[l].push(q);
            for &t in &successors[q] {
                if level[t] == usize::MAX {
                    level[t] = l + 1;
                    queue.push_back(t);
                }
            }
        }
    }
    (level, columns)
}

/// Orders each column by the barycentres of the neighbours in the column before (downward
/// sweeps) or after (upward sweeps).
fn order_columns(n: usize, edges: &[MergedEdge], level: &[usize], columns: &mut [Vec<usize>]) {
    let mut neighbours: Vec<Vec<usize>> = vec![Vec::new(); n];
    for e in edges.iter().filter(|e| e.from != e.to) {
        neighbours[e.from].push(e.to);
        neighbours[e.to].push(e.from);
    }
    let mut position = vec![0usize; n];
    let place = |columns: &[Vec<usize>], position: &mut Vec<usize>| {
        for column in columns {
            for (k, &q) in column.iter().enumerate() {
                position[q] = k;
            }
        }
    };
    place(columns, &mut position);
    let last = columns.len();
    for sweep in 0..SWEEPS {
        let down = sweep % 2 == 0;
        let order: Vec<usize> = if down {
            (1..last).collect()
        } else {
            (0..last.saturating_sub(1)).rev().collect()
        };
        for l in order {
            let beside = if down { l - 1 } else { l + 1 };
            let keys: Vec<f64> = columns[l]
                .iter()
                .map(|&q| {
                    let near: Vec<usize> = neighbours[q]
                        .iter()
                        .filter(|&&r| level[r] == beside)
                        .map(|&r| position[r])
                        .collect();
                    if near.is_empty() {
                        position[q] as f64
                    } else {
                        near.iter().sum::<usize>() as f64 / near.len() as f64
                    }
                })
                .collect();
            let mut ranked: Vec<(f64, usize)> =
                keys.into_iter().zip(columns[l].iter().copied()).collect();
            ranked.sort_by(|a, b| a.0.total_cmp(&b.0));
            columns[l] = ranked.into_iter().map(|(_, q)| q).collect();
            for (k, &q) in columns[l].iter().enumerate() {
                position[q] = k;
            }
        }
    }
}

impl Layout {
    fn of(p: &Picture) -> Layout {
        let n = p.states.len();
        let edges = merged_edges(p);
        let (level, mut columns) = levels(p, &edges);
        order_columns(n, &edges, &level, &mut columns);
        let label_size = |e: &MergedEdge| {
            let w = e
                .items
                .iter()
                .map(|&k| text_width(&p.transitions[k].label))
                .fold(0.0, f64::max)
                + 8.0;
            (w, LINE * e.items.len() as f64 + 4.0)
        };
        // Self-loop labels per state, and the width of each column.
        let mut loop_of: Vec<Option<usize>> = vec![None; n];
        for (k, e) in edges.iter().enumerate() {
            if e.from == e.to {
                loop_of[e.from] = Some(k);
            }
        }
        let state_w: Vec<f64> = p
            .states
            .iter()
            .map(|s| (text_width(&s.name) + 2.0 * STATE_PAD).max(STATE_HEIGHT + 10.0))
            .collect();
        let column_w: Vec<f64> = columns
            .iter()
            .map(|c| {
                c.iter()
                    .map(|&q| {
                        let loop_w = loop_of[q].map_or(0.0, |e| label_size(&edges[e]).0);
                        state_w[q].max(loop_w)
                    })
                    .fold(0.0, f64::max)
            })
            .collect();
        // The gap of each non-loop edge, and each gap's width.
        let gap_of = |e: &MergedEdge| level[e.from].min(level[e.to]);
        let mut gap_w = vec![40.0f64; columns.len()];
        for e in edges.iter().filter(|e| e.from != e.to) {
            let g = gap_of(e);
            gap_w[g] = gap_w[g].max(label_size(e).0 + 40.0);
        }
        // Horizontal positions.
        let mut x = LEFT;
        let mut column_x = Vec::with_capacity(columns.len());
        let mut gap_x = Vec::with_capacity(columns.len());
        for l in 0..columns.len() {
            column_x.push(x + column_w[l] / 2.0);
            x += column_w[l];
            gap_x.push(x + gap_w[l] / 2.0);
            x += gap_w[l];
        }
        // Vertical positions: states stacked, each with room for its self-loop's label.
        let mut boxes: Vec<StateBox> = (0..n)
            .map(|q| StateBox {
                x: column_x[level[q]],
                y: 0.0,
                w: state_w[q],
            })
            .collect();
        let mut bottom: f64 = MARGIN;
        for column in &columns {
            let mut y = MARGIN;
            for &q in column {
                if let Some(e) = loop_of[q] {
                    y += LOOP_HEIGHT + label_size(&edges[e]).1;
                }
                boxes[q].y = y + STATE_HEIGHT / 2.0;
                y += STATE_HEIGHT + STATE_GAP;
            }
            bottom = bottom.max(y);
        }
        // Labels: packed per gap in the order of where their straight edge crosses it.
        let mut laid: Vec<Option<LaidEdge>> = (0..edges.len()).map(|_| None).collect();
        let mut per_gap: Vec<Vec<(f64, usize)>> = vec![Vec::new(); columns.len()];
        for (k, e) in edges.iter().enumerate() {
            if e.from == e.to {
                let b = &boxes[e.from];
                let (w, h) = label_size(e);
                let top = b.y - STATE_HEIGHT / 2.0;
                let (x0, x1) = (b.x - 9.0, b.x + 9.0);
                laid[k] = Some(LaidEdge {
                    from: e.from,
                    to: e.to,
                    items: e.items.clone(),
                    path: format!(
                        "M{x0:.1} {top:.1} C{:.1} {:.1} {:.1} {:.1} {x1:.1} {:.1}",
                        x0 - 14.0,
                        top - LOOP_HEIGHT,
                        x1 + 14.0,
                        top - LOOP_HEIGHT,
                        top - 1.0
                    ),
                    label_x: b.x,
                    label_top: top - LOOP_HEIGHT - h + 2.0,
                    label_w: w,
                    label_h: h,
                });
                continue;
            }
            let g = gap_of(e);
            let (a, b) = (&boxes[e.from], &boxes[e.to]);
            let wanted = if (b.x - a.x).abs() < 1.0 {
                (a.y + b.y) / 2.0
            } else {
                a.y + (b.y - a.y) * ((gap_x[g] - a.x) / (b.x - a.x)).clamp(0.0, 1.0)
            };
            per_gap[g].push((wanted, k));
        }
        for (g, labels) in per_gap.iter_mut().enumerate() {
            labels.sort_by(|a, b| a.0.total_cmp(&b.0));
            let mut free = MARGIN;
            for &(wanted, k) in labels.iter() {
                let e = &edges[k];
                let (w, h) = label_size(e);
                let top = (wanted - h / 2.0).max(free);
                free = top + h + LABEL_GAP;
                bottom = bottom.max(free);
                let centre = (gap_x[g], top + h / 2.0);
                laid[k] = Some(LaidEdge {
                    from: e.from,
                    to: e.to,
                    items: e.items.clone(),
                    path: curve_through(&boxes[e.from], &boxes[e.to], centre),
                    label_x: centre.0,
                    label_top: top,
                    label_w: w,
                    label_h: h,
                });
            }
        }
        Layout {
            boxes,
            edges: laid.into_iter().flatten().collect(),
            width: x + MARGIN,
            height: bottom + MARGIN,
        }
    }
}

/// Where the ray from a box's centre toward `(tx, ty)` leaves the box.
fn border_point(b: &StateBox, (tx, ty): (f64, f64)) -> (f64, f64) {
    let (dx, dy) = (tx - b.x, ty - b.y);
    let (hw, hh) = (b.w / 2.0, STATE_HEIGHT / 2.0);
    let scale = match (dx.abs() > 1e-9, dy.abs() > 1e-9) {
        (false, false) => return (b.x, b.y),
        (true, false) => hw / dx.abs(),
        (false, true) => hh / dy.abs(),
        (true, true) => (hw / dx.abs()).min(hh / dy.abs()),
    };
    (b.x + dx * scale, b.y + dy * scale)
}

/// A quadratic curve from the border of `a` to the border of `b` passing through `m` (its
/// point at t = 1/2).
fn curve_through(a: &StateBox, b: &StateBox, m: (f64, f64)) -> String {
    let control = |p: (f64, f64), q: (f64, f64)| {
        (2.0 * m.0 - (p.0 + q.0) / 2.0, 2.0 * m.1 - (p.1 + q.1) / 2.0)
    };
    let c = control((a.x, a.y), (b.x, b.y));
    let start = border_point(a, c);
    let end = border_point(b, c);
    let c = control(start, end);
    // Aim the end (where the arrow is) at the border again, from the final control point.
    let start = border_point(a, c);
    let end = border_point(b, c);
    format!(
        "M{:.1} {:.1} Q{:.1} {:.1} {:.1} {:.1}",
        start.0, start.1, c.0, c.1, end.0, end.1
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{LoadOptions, parse_model};

    fn model(text: &str, file: &str) -> Model {
        parse_model(text, file, &LoadOptions::default()).unwrap()
    }

    /// Boxes of the labels and states of a layout, to check for overlaps.
    fn boxes(p: &Picture) -> Vec<(f64, f64, f64, f64)> {
        let layout = Layout::of(p);
        let mut all: Vec<(f64, f64, f64, f64)> = layout
            .edges
            .iter()
            .map(|e| {
                (
                    e.label_x - e.label_w / 2.0,
                    e.label_top,
                    e.label_x + e.label_w / 2.0,
                    e.label_top + e.label_h,
                )
            })
            .collect();
        for b in &layout.boxes {
            all.push((
                b.x - b.w / 2.0,
                b.y - STATE_HEIGHT / 2.0,
                b.x + b.w / 2.0,
                b.y + STATE_HEIGHT / 2.0,
            ));
        }
        all
    }

    #[test]
    fn labels_and_states_never_overlap_and_names_are_whole() {
        let vending = model(include_str!("../../models/vending.aut"), "vending.aut");
        for p in [Picture::of_model(&vending)] {
            let all = boxes(&p);
            for (i, a) in all.iter().enumerate() {
                for b in &all[i + 1..] {
                    let apart = a.2 <= b.0 || b.2 <= a.0 || a.3 <= b.1 || b.3 <= a.1;
                    assert!(apart, "{a:?} overlaps {b:?}");
                }
            }
            let svg = p.svg();
            for s in &p.states {
                assert!(svg.contains(&format!(">{}</text>", html_text(&s.name))));
            }
        }
    }

    #[test]
    fn mealy_machines_are_drawn_with_input_output_labels_and_edges_merged() {
        let m = model(
            "digraph m {\n s0 -> s1 [label=\"a/x\"];\n s0 -> s1 [label=\"b/y\"];\n s1 -> s1 [label=\"a/x\"];\n s1 -> s0 [label=\"b/z\"];\n __start0 -> s0;\n}\n",
            "m.dot",
        );
        let p = Picture::of_model(&m);
        assert_eq!(p.kind, "Mealy machine");
        let svg = p.svg();
        assert_eq!(svg.matches("<g class=\"transition mealy\">").count(), 3);
        assert!(svg.contains(">a/x</tspan><tspan class=\"label mealy\""));
        let dot = p.dot();
        assert!(dot.contains("n0 -> n1 [label=\"a/x\\nb/y\"];"), "{dot}");
    }

    #[test]
    fn quiescence_is_shown_distinctly() {
        let lts = model(
            "des (0, 3, 2)\n(0, \"?a\", 1)\n(1, \"!x\", 0)\n(1, \"tau\", 0)\n",
            "q.aut",
        );
        let p = Picture::of_model(&lts);
        assert!(p.states[0].quiescent && !p.states[1].quiescent);
        assert!(p.svg().contains("class=\"state initial-state quiescent\""));
        assert!(p.dot().contains("n0 [label=\"0\", peripheries=2];"));
        let explicit = model(
            "des (0, 3, 2)\n(0, \"?a\", 1)\n(1, \"!x\", 0)\n(0, \"delta\", 0)\n",
            "d.aut",
        );
        let p = Picture::of_model(&explicit);
        assert!(p.svg().contains("<g class=\"transition quiescence\">"));
        assert!(
            p.dot()
                .contains("[label=\"δ\", color=\"#1565c0\", style=dotted]")
        );
    }

    #[test]
    fn dot_strings_escape_quotes_backslashes_and_controls() {
        assert_eq!(dot_string("a\"b\\n\u{1}"), "\"a\\\"b\\\\n\\\\u{1}\"");
        assert_eq!(display_width("ab\u{1}漢"), 2 + 5 + 2);
    }

    /// Names with markup, quotes, controls, bidirectional overrides and wide characters.
    fn hostile_name() -> impl proptest::strategy::Strategy<Value = String> {
        proptest::string::string_regex("[a-z<>&\"'\\\u{1}\u{202e}\n漢 ]{1,8}").unwrap()
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]
        /// Any legal model's names and labels are escaped: the SVG parses as XML and shows
        /// every state name as the escaping shows it; the DOT keeps its quotes balanced.
        #[test]
        fn any_models_pictures_parse_and_show_every_name(
            names in proptest::collection::vec(hostile_name(), 1..6),
            labels in proptest::collection::vec(hostile_name(), 1..5),
            edges in proptest::collection::vec((0usize..6, 0usize..5, 0usize..6, 0u8..3), 0..14),
        ) {
            use crate::model::{Alphabet, LabelKind, StateId};
            let n = names.len();
            let mut names = names;
            for (k, name) in names.iter_mut().enumerate() {
                name.push_str(&k.to_string());
            }
            let mut alphabet = Alphabet::new();
            let kinds = [LabelKind::Input, LabelKind::Output, LabelKind::Internal];
            let mut triples = Vec::new();
            for &(from, label, to, kind) in &edges {
                let name = format!("{}{}", labels[label % labels.len()], kind);
                let Ok(l) = alphabet.add(&name, kinds[kind as usize]) else { continue };
                triples.push((StateId((from % n) as u32), l, StateId((to % n) as u32)));
            }
            let lts = Lts::new("m<&\"", alphabet, names.clone(), StateId(0), triples).unwrap();
            let picture = Picture::of_model(&Model::Lts(lts));
            let svg = picture.svg();
            let doc = roxmltree::Document::parse(&svg).map_err(|e| {
                proptest::test_runner::TestCaseError::fail(format!("{e}\n{svg}"))
            })?;
            let texts: Vec<String> = doc
                .descendants()
                .filter(|d| d.has_tag_name("text") && d.parent().is_some_and(|p| p.has_tag_name("g")))
                .filter_map(|d| d.text().map(str::to_owned))
                .collect();
            for name in &names {
                let shown: String = html_text(name)
                    .replace("&lt;", "<")
                    .replace("&gt;", ">")
                    .replace("&quot;", "\"")
                    .replace("&#39;", "'")
                    .replace("&amp;", "&");
                proptest::prop_assert!(texts.contains(&shown), "{shown:?} in {texts:?}");
            }
            let dot = picture.dot();
            for line in dot.lines() {
                let unescaped_quotes = line.replace("\\\\", "").replace("\\\"", "").matches('"').count();
                proptest::prop_assert_eq!(unescaped_quotes % 2, 0, "{}", line);
            }
        }
    }
}
