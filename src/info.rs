//! `ncomplete info`: the figures that characterise a model (size, determinism,
//! input-enabledness, quiescent states, depth of access sequences), as text or JSON.
//!
//! Quiescence follows the TorX thesis (Sec. 2.2): a state is quiescent when it enables no output
//! and no internal step; in a file with explicit quiescence, a state with a `delta` transition is
//! quiescent too. Input-enabledness of an LTS is weak (every input enabled after internal
//! steps, TorX thesis Def. 2.2.4). Access sequences are shortest traces (internal steps do not
//! count) from the initial state, found by breadth-first search.

use crate::identify::mealy::{SplittingTree, minimize_mealy_with_tree};
use crate::model::{LabelKind, Lts, Mealy, Model, StateId};
use serde::Serialize;
use std::collections::VecDeque;
use std::fmt::Write;

/// The figures `ncomplete info` reports.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ModelInfo {
    /// Model name.
    pub name: String,
    /// `lts`, `mealy`, `moore` (figures of its Mealy translation) or `onfsm` (a nondeterministic
    /// Mealy machine; figures of its LTS embedding).
    pub kind: &'static str,
    /// Number of states.
    pub states: usize,
    /// States reachable from the initial state.
    pub reachable_states: usize,
    /// Number of inputs.
    pub inputs: usize,
    /// Number of outputs (for an LTS, not counting the quiescence label).
    pub outputs: usize,
    /// Number of internal labels (LTS only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub internal_labels: Option<usize>,
    /// The label of explicit quiescence transitions (LTS only, when the file has one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quiescence_label: Option<String>,
    /// Number of transitions.
    pub transitions: usize,
    /// No internal steps and at most one successor per state and label.
    pub deterministic: bool,
    /// Every state accepts every input (for a Mealy machine: the machine is complete).
    pub input_enabled: bool,
    /// Quiescent states (LTS only; every state of a Mealy machine waits for input).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quiescent_states: Option<usize>,
    /// Length of the longest shortest access sequence over the reachable states.
    pub longest_access_sequence: usize,
    /// Whether the model is minimal. For a complete Mealy machine: every state is reachable and
    /// no two states are equivalent (partition refinement, `identify::mealy::minimize_mealy`).
    /// For an LTS that is a suspension automaton (deterministic, no internal steps,
    /// non-blocking): no two states are ioco-equivalent, no state is unreachable and no
    /// chaos-equivalent state can be removed (van den Bos Def. 2.13; see
    /// `model::minimize_suspension`). Absent for other models.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub minimal: Option<bool>,
    /// Length of the longest shortest separating sequence over pairs of inequivalent states of
    /// the minimised machine (complete Mealy machines only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub longest_separating_sequence: Option<usize>,
}

/// Computes the figures of a model.
pub fn model_info(model: &Model) -> ModelInfo {
    match model {
        Model::Mealy(m) => mealy_info(m),
        Model::Lts(l) => lts_info(l),
    }
}

fn mealy_info(m: &Mealy) -> ModelInfo {
    let depth = mealy_access_depths(m);
    let reachable = depth.iter().filter(|d| d.is_some()).count();
    let minimised = m.is_complete().then(|| minimize_mealy_with_tree(m));
    ModelInfo {
        name: m.name.clone(),
        kind: if m.state_outputs().is_some() {
            "moore"
        } else {
            "mealy"
        },
        states: m.num_states(),
        reachable_states: reachable,
        inputs: m.num_inputs(),
        outputs: m.outputs.len(),
        internal_labels: None,
        quiescence_label: None,
        transitions: m.num_transitions(),
        deterministic: true,
        input_enabled: m.is_complete(),
        quiescent_states: None,
        longest_access_sequence: depth.iter().flatten().copied().max().unwrap_or(0),
        minimal: minimised
            .as_ref()
            .map(|(min, _)| min.num_states() == m.num_states()),
        longest_separating_sequence: minimised.as_ref().map(|(min, tree)| match tree {
            Some(tree) => tree.max_word_len(),
            None => SplittingTree::new(min).max_word_len(),
        }),
    }
}

/// Shortest access-sequence length of every state (`None` when unreachable).
pub fn mealy_access_depths(m: &Mealy) -> Vec<Option<usize>> {
    let mut depth = vec![None; m.num_states()];
    let mut queue = VecDeque::new();
    depth[m.initial().index()] = Some(0);
    queue.push_back(m.initial());
    while let Some(s) = queue.pop_front() {
        let d = depth[s.index()].unwrap_or(0);
        for i in m.input_ids() {
            if let Some((t, _)) = m.step(s, i)
                && depth[t.index()].is_none()
            {
                depth[t.index()] = Some(d + 1);
                queue.push_back(t);
            }
        }
    }
    depth
}

/// Shortest trace length to every state of an LTS (internal steps cost nothing; `None` when
/// unreachable), by 0-1 breadth-first search.
pub fn lts_access_depths(l: &Lts) -> Vec<Option<usize>> {
    let mut depth: Vec<Option<usize>> = vec![None; l.num_states()];
    let mut queue = VecDeque::new();
    depth[l.initial().index()] = Some(0);
    queue.push_back(l.initial());
    while let Some(s) = queue.pop_front() {
        let d = depth[s.index()].unwrap_or(0);
        for &(lab, t) in l.transitions_from(s) {
            let cost = usize::from(!l.alphabet.is_internal(lab));
            if depth[t.index()].is_none_or(|old| d + cost < old) {
                depth[t.index()] = Some(d + cost);
                if cost == 0 {
                    queue.push_front(t);
                } else {
                    queue.push_back(t);
                }
            }
        }
    }
    depth
}

fn lts_info(l: &Lts) -> ModelInfo {
    let a = &l.alphabet;
    let q = a.quiescence();
    let depth = lts_access_depths(l);
    let quiescent = l
        .states()
        .filter(|&s| {
            let out = l.transitions_from(s);
            out.iter().any(|&(lab, _)| Some(lab) == q)
                || out.iter().all(|&(lab, _)| a.is_input(lab))
        })
        .count();
    ModelInfo {
        name: l.name.clone(),
        kind: if l.onfsm().is_some() { "onfsm" } else { "lts" },
        states: l.num_states(),
        reachable_states: depth.iter().filter(|d| d.is_some()).count(),
        inputs: a.inputs().count(),
        outputs: a.outputs().filter(|&o| Some(o) != q).count(),
        internal_labels: Some(a.of_kind(LabelKind::Internal).count()),
        quiescence_label: q.map(|q| a.name(q).to_owned()),
        transitions: l.num_transitions(),
        deterministic: l.is_deterministic(),
        input_enabled: weakly_input_enabled(l),
        quiescent_states: Some(quiescent),
        longest_access_sequence: depth.iter().flatten().copied().max().unwrap_or(0),
        minimal: crate::model::as_suspension_automaton(l)
            .and_then(|sa| crate::model::is_minimal_suspension(&sa).ok()),
        longest_separating_sequence: None,
    }
}

/// Whether every state enables every input, possibly after internal steps.
fn weakly_input_enabled(l: &Lts) -> bool {
    let a = &l.alphabet;
    let n = l.num_states();
    // Predecessors under internal steps, to propagate "enables input i after τ*" backwards:
    // O(inputs × (states + internal transitions)) in all.
    let mut tau_pred: Vec<Vec<StateId>> = vec![Vec::new(); n];
    for (s, lab, t) in l.triples() {
        if a.is_internal(lab) {
            tau_pred[t.index()].push(s);
        }
    }
    let mut enabled = vec![false; n];
    let mut stack = Vec::new();
    for i in a.inputs() {
        enabled.iter_mut().for_each(|e| *e = false);
        stack.clear();
        for s in l.states() {
            // Edges are sorted by label, so a binary search finds any edge with label `i`.
            if l.transitions_from(s)
                .binary_search_by(|&(lab, _)| lab.cmp(&i))
                .is_ok()
            {
                enabled[s.index()] = true;
                stack.push(s);
            }
        }
        while let Some(t) = stack.pop() {
            for &p in &tau_pred[t.index()] {
                if !enabled[p.index()] {
                    enabled[p.index()] = true;
                    stack.push(p);
                }
            }
        }
        if enabled.iter().any(|&e| !e) {
            return false;
        }
    }
    true
}

fn yes_no(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

impl ModelInfo {
    /// The human-readable report: one `key: value` line per figure.
    pub fn to_text(&self) -> String {
        let mut rows: Vec<(&str, String)> = vec![
            ("model", self.name.clone()),
            (
                "kind",
                match self.kind {
                    "moore" => "moore (tested as its Mealy translation: Mealy methods)".to_owned(),
                    "onfsm" => "onfsm (nondeterministic Mealy machine, tested as its LTS q --?i--> q/i --!o--> q': ioco methods)".to_owned(),
                    k => k.to_owned(),
                },
            ),
            (
                "states",
                format!("{} ({} reachable)", self.states, self.reachable_states),
            ),
            ("inputs", self.inputs.to_string()),
            ("outputs", self.outputs.to_string()),
        ];
        if let Some(n) = self.internal_labels {
            rows.push(("internal labels", n.to_string()));
        }
        if let Some(q) = &self.quiescence_label {
            rows.push(("quiescence label", q.clone()));
        }
        rows.push(("transitions", self.transitions.to_string()));
        rows.push(("deterministic", yes_no(self.deterministic).to_owned()));
        rows.push(("input-enabled", yes_no(self.input_enabled).to_owned()));
        if let Some(n) = self.quiescent_states {
            rows.push(("quiescent states", n.to_string()));
        }
        rows.push((
            "longest shortest access sequence",
            self.longest_access_sequence.to_string(),
        ));
        if let Some(m) = self.minimal {
            rows.push(("minimal", yes_no(m).to_owned()));
        }
        if let Some(n) = self.longest_separating_sequence {
            rows.push(("longest shortest separating sequence", n.to_string()));
        }
        let width = rows.iter().map(|(k, _)| k.len()).max().unwrap_or(0) + 1;
        let mut out = String::new();
        for (k, v) in rows {
            let _ = writeln!(out, "{:<width$} {v}", format!("{k}:"), width = width);
        }
        out
    }

    /// The JSON report (pretty-printed, fields in declaration order).
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("ModelInfo serializes");
        s.push('\n');
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{lts_from_marked, mealy_from_named};

    #[test]
    fn mealy_figures() {
        // s0 -a-> s1 -a-> s2 -a-> s0; s3 only has an outgoing edge, so it is unreachable.
        let m = mealy_from_named(
            "m",
            4,
            &[
                (0, "a", "x", 1),
                (1, "a", "x", 2),
                (2, "a", "y", 0),
                (0, "b", "x", 0),
                (3, "a", "x", 0),
            ],
        )
        .unwrap();
        let i = model_info(&Model::Mealy(m));
        assert_eq!(i.states, 4);
        assert_eq!(i.reachable_states, 3);
        assert_eq!(i.inputs, 2);
        assert_eq!(i.outputs, 2);
        assert_eq!(i.transitions, 5);
        assert!(!i.input_enabled);
        assert_eq!(i.longest_access_sequence, 2);
        assert_eq!(i.quiescent_states, None);
    }

    #[test]
    fn lts_figures() {
        // 0 -?coin-> 1 -tau-> 2 -!tea-> 0; 1 -!coffee-> 0; 0 -delta-> 0; 3 unreachable, no outputs.
        let l = lts_from_marked(
            "v",
            4,
            &[
                (0, "?coin", 1),
                (1, "tau", 2),
                (2, "!tea", 0),
                (1, "!coffee", 0),
                (0, "delta", 0),
                (2, "?coin", 2),
                (3, "?coin", 3),
            ],
        )
        .unwrap();
        let i = model_info(&Model::Lts(l));
        assert_eq!(i.kind, "lts");
        assert_eq!(i.inputs, 1);
        assert_eq!(i.outputs, 2);
        assert_eq!(i.internal_labels, Some(1));
        assert_eq!(i.quiescence_label.as_deref(), Some("delta"));
        assert!(!i.deterministic);
        // State 1 enables coin only after tau: weakly input-enabled.
        assert!(i.input_enabled);
        // 0 (explicit delta) and 3 (inputs only) are quiescent.
        assert_eq!(i.quiescent_states, Some(2));
        // 2 is reached by `coin` (the tau is free).
        assert_eq!(i.longest_access_sequence, 1);
        assert_eq!(i.reachable_states, 3);
    }

    #[test]
    fn minimal_is_reported_for_suspension_automata_only() {
        // A suspension automaton (deterministic, non-blocking) whose states 0 and 2 (and 1
        // and 3) are equivalent: not minimal.
        let twice = lts_from_marked(
            "t",
            4,
            &[
                (0, "?a", 1),
                (0, "delta", 0),
                (1, "!x", 2),
                (2, "?a", 3),
                (2, "delta", 2),
                (3, "!x", 0),
            ],
        )
        .unwrap();
        assert_eq!(model_info(&Model::Lts(twice)).minimal, Some(false));
        let once = lts_from_marked("o", 2, &[(0, "?a", 1), (0, "delta", 0), (1, "!x", 0)]).unwrap();
        let info = model_info(&Model::Lts(once));
        assert_eq!(info.minimal, Some(true));
        assert!(
            info.to_text()
                .ends_with("minimal:                          yes\n")
        );
        // Blocking (state 1 has no output): not a suspension automaton.
        let blocking = lts_from_marked("b", 2, &[(0, "?a", 1), (0, "delta", 0)]).unwrap();
        assert_eq!(model_info(&Model::Lts(blocking)).minimal, None);
    }

    #[test]
    fn text_and_json_reports() {
        let m = mealy_from_named("m", 1, &[(0, "a", "x", 0)]).unwrap();
        let i = model_info(&Model::Mealy(m));
        let text = i.to_text();
        assert!(text.starts_with("model:"), "{text}");
        assert!(text.contains("\ninput-enabled:"), "{text}");
        assert!(
            text.contains("longest shortest access sequence:     0\n"),
            "{text}"
        );
        assert!(text.ends_with("separating sequence: 0\n"), "{text}");
        let json: serde_json::Value = serde_json::from_str(&i.to_json()).unwrap();
        assert_eq!(json["kind"], "mealy");
        assert_eq!(json["states"], 1);
        assert!(json.get("quiescent_states").is_none());
    }

    /// Shortest separating sequence of two states by BFS over pairs (None: equivalent).
    fn naive_separating_length(m: &Mealy, p: StateId, q: StateId) -> Option<usize> {
        let mut seen = std::collections::HashSet::new();
        let mut queue = VecDeque::from([(p, q, 0usize)]);
        seen.insert((p, q));
        while let Some((a, b, d)) = queue.pop_front() {
            for i in m.input_ids() {
                let (Some((a2, oa)), Some((b2, ob))) = (m.step(a, i), m.step(b, i)) else {
                    continue;
                };
                if oa != ob {
                    return Some(d + 1);
                }
                if seen.insert((a2, b2)) {
                    queue.push_back((a2, b2, d + 1));
                }
            }
        }
        None
    }

    #[test]
    fn mealy_minimality_and_separation_agree_with_pairwise_search() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/models/");
        for file in [
            "coffeemachine.dot",
            "lee_yannakakis_distinguishable.dot",
            "lee_yannakakis_non_distinguishable.dot",
            "TCP_Linux_Client.dot",
        ] {
            let model = crate::format::load_model(
                &format!("{path}{file}"),
                &crate::format::LoadOptions::default(),
            )
            .unwrap();
            let Model::Mealy(m) = &model else {
                panic!("{file} is a Mealy machine")
            };
            let info = model_info(&model);
            let states: Vec<StateId> = m.states().collect();
            let mut longest = 0;
            let mut all_distinct = true;
            for (k, &p) in states.iter().enumerate() {
                for &q in &states[k + 1..] {
                    match naive_separating_length(m, p, q) {
                        Some(d) => longest = longest.max(d),
                        None => all_distinct = false,
                    }
                }
            }
            let all_reachable = info.reachable_states == info.states;
            assert_eq!(info.minimal, Some(all_distinct && all_reachable), "{file}");
            assert_eq!(info.longest_separating_sequence, Some(longest), "{file}");
        }
    }
}
