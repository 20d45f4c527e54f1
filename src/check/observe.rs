//! Observable behaviour of two models over one shared vocabulary: each model becomes a
//! deterministic graph of observation states whose traces are its suspension traces
//! (TorX thesis Def. 2.2.12; van den Bos Def. 2.1).
//!
//! A [`SuspensionAutomaton`] is mapped directly. An [`Lts`] is determinised on the fly over its
//! reachable τ-closed state sets with the semantics of [`crate::model::lts_to_suspension`] under fair
//! divergence (a test checks that both build the same automaton), within a budget on the number of
//! sets: δ leads from a set to its quiescent members (stable, no output) and along explicit δ
//! transitions; divergent states are not quiescent, except in a livelock (no member offers an
//! output or δ), where δ leads to input-only copies of the divergent members. Building lazily
//! explores only what a check needs. Every observation state also records the inputs enabled in
//! *all* stable states of its set (TorX thesis Sec. 4.2.6), needed for uioco (Def. 2.2.17).

use super::error::CheckError;
use crate::model::{LabelId, LabelKind, Lts, StateId, SuspensionAutomaton};
use std::collections::{BTreeSet, HashMap};

/// Default bound on the observation states built when determinising an LTS.
pub const DEFAULT_BUDGET: usize = 1_000_000;

/// A model whose observable behaviour is checked: an LTS or a suspension automaton.
#[derive(Copy, Clone, Debug)]
pub enum Observable<'a> {
    /// A (possibly nondeterministic) labelled transition system.
    Lts(&'a Lts),
    /// A suspension automaton, used as it is.
    Suspension(&'a SuspensionAutomaton),
}

impl Observable<'_> {
    fn labels(&self) -> Vec<(String, LabelKind, bool)> {
        let alphabet = match self {
            Observable::Lts(l) => &l.alphabet,
            Observable::Suspension(s) => &s.alphabet,
        };
        alphabet
            .ids()
            .map(|l| {
                (
                    alphabet.name(l).to_owned(),
                    alphabet.kind(l),
                    alphabet.quiescence() == Some(l),
                )
            })
            .collect()
    }
}

/// The labels of both models, by name; quiescence of either model maps to one label.
#[derive(Clone, Debug)]
pub struct Vocabulary {
    names: Vec<String>,
    kinds: Vec<LabelKind>,
    index: HashMap<String, LabelId>,
    quiescence: LabelId,
}

impl Vocabulary {
    /// The shared vocabulary of a specification and an implementation: labels in the
    /// specification's order, then the implementation's new ones. Fails if a label is an input in
    /// one model and an output in the other.
    pub fn of(models: &[Observable<'_>]) -> Result<Self, CheckError> {
        let all: Vec<Vec<(String, LabelKind, bool)>> = models.iter().map(|m| m.labels()).collect();
        let quiescence_name = all
            .iter()
            .flatten()
            .find(|(_, _, q)| *q)
            .map(|(n, _, _)| n.clone())
            .unwrap_or_else(|| "delta".to_owned());
        let mut v = Vocabulary {
            names: Vec::new(),
            kinds: Vec::new(),
            index: HashMap::new(),
            quiescence: LabelId(0),
        };
        v.quiescence = v.add(&quiescence_name, LabelKind::Output, "")?;
        for (m, labels) in all.iter().enumerate() {
            let which = if m == 0 {
                "specification"
            } else {
                "implementation"
            };
            for (name, kind, q) in labels {
                if *q || *kind == LabelKind::Internal {
                    continue;
                }
                v.add(name, *kind, which)?;
            }
        }
        Ok(v)
    }

    fn add(&mut self, name: &str, kind: LabelKind, which: &str) -> Result<LabelId, CheckError> {
        if let Some(&id) = self.index.get(name) {
            if self.kinds[id.index()] != kind {
                return Err(CheckError::KindMismatch {
                    label: name.to_owned(),
                    first: self.kinds[id.index()],
                    model: which.to_owned(),
                    second: kind,
                });
            }
            return Ok(id);
        }
        let id = LabelId(self.names.len() as u32);
        self.names.push(name.to_owned());
        self.kinds.push(kind);
        self.index.insert(name.to_owned(), id);
        Ok(id)
    }

    /// The id of a label name.
    pub fn get(&self, name: &str) -> Option<LabelId> {
        self.index.get(name).copied()
    }

    /// The name of a label.
    pub fn name(&self, l: LabelId) -> &str {
        &self.names[l.index()]
    }

    /// The kind of a label.
    pub fn kind(&self, l: LabelId) -> LabelKind {
        self.kinds[l.index()]
    }

    /// The quiescence label.
    pub fn quiescence(&self) -> LabelId {
        self.quiescence
    }

    /// Number of labels.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether there are no labels (never: quiescence is always present).
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// All label ids.
    pub fn ids(&self) -> impl Iterator<Item = LabelId> + use<> {
        (0..self.names.len() as u32).map(LabelId)
    }

    /// A label as written in traces: `?a` for inputs, `!x` for outputs, quiescence by its name.
    pub fn marked(&self, l: LabelId) -> String {
        if l == self.quiescence {
            self.names[l.index()].clone()
        } else if self.kinds[l.index()] == LabelKind::Input {
            format!("?{}", self.names[l.index()])
        } else {
            format!("!{}", self.names[l.index()])
        }
    }

    /// A trace as space-separated marked labels (`ε` when empty).
    pub fn trace(&self, trace: &[LabelId]) -> String {
        if trace.is_empty() {
            return "ε".to_owned();
        }
        trace
            .iter()
            .map(|&l| self.marked(l))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The enabled labels of a built observation state with their targets, and its certain inputs.
type BuiltState = (Vec<(LabelId, u32)>, Vec<LabelId>);

/// A deterministic observation graph over a [`Vocabulary`], built lazily.
pub struct Observer<'a> {
    model: Observable<'a>,
    label_map: Vec<Option<LabelId>>,
    budget: usize,
    self_loop_inputs: Vec<LabelId>,
    divergent: Vec<bool>,
    output_labels: Vec<bool>,
    sets: Vec<Vec<StateId>>,
    set_index: HashMap<Vec<StateId>, u32>,
    /// Per built state: enabled labels with targets (sorted by label) and the inputs enabled in all
    /// stable states.
    built: Vec<Option<BuiltState>>,
}

impl<'a> Observer<'a> {
    /// The observer of `model` over `vocab`, allowed at most `budget` observation states.
    pub fn new(model: Observable<'a>, vocab: &Vocabulary, budget: usize) -> Self {
        let labels = model.labels();
        let label_map = labels
            .iter()
            .map(|(name, kind, q)| {
                if *q {
                    Some(vocab.quiescence())
                } else if *kind == LabelKind::Internal {
                    None
                } else {
                    vocab.get(name)
                }
            })
            .collect();
        let mut o = Observer {
            model,
            label_map,
            budget,
            self_loop_inputs: Vec::new(),
            divergent: Vec::new(),
            output_labels: vocab
                .ids()
                .map(|l| vocab.kind(l) == LabelKind::Output)
                .collect(),
            sets: Vec::new(),
            set_index: HashMap::new(),
            built: Vec::new(),
        };
        match model {
            Observable::Suspension(sa) => {
                for s in sa.states() {
                    o.sets.push(vec![s]);
                    o.built.push(None);
                }
            }
            Observable::Lts(lts) => {
                o.divergent = crate::model::divergent_states(lts);
                let init = o.closure(vec![lts.initial()]);
                o.set_index.insert(init.clone(), 0);
                o.sets.push(init);
                o.built.push(None);
            }
        }
        o
    }

    /// Makes the model input-enabled the way JTorX does (TorX thesis Sec. 3.2): every state that
    /// does not enable an input of `vocab` gets a self-loop on it.
    pub fn with_self_loops(mut self, vocab: &Vocabulary) -> Self {
        self.self_loop_inputs = vocab
            .ids()
            .filter(|&l| vocab.kind(l) == LabelKind::Input)
            .collect();
        self
    }

    /// The initial observation state.
    pub fn initial(&self) -> u32 {
        match self.model {
            Observable::Suspension(sa) => sa.initial().0,
            Observable::Lts(_) => 0,
        }
    }

    /// A readable name of an observation state: the state name, or `{s1,s2}` for a set.
    pub fn state_name(&self, q: u32) -> String {
        match self.model {
            Observable::Suspension(sa) => sa.state_name(StateId(q)).to_owned(),
            Observable::Lts(lts) => {
                let n = lts.num_states();
                let names: Vec<String> = self.sets[q as usize]
                    .iter()
                    .map(|&s| {
                        if s.index() < n {
                            lts.state_name(s).to_owned()
                        } else {
                            format!("d-{}", lts.state_name(StateId(s.0 - n as u32)))
                        }
                    })
                    .collect();
                format!("{{{}}}", names.join(","))
            }
        }
    }

    fn closure(&self, mut set: Vec<StateId>) -> Vec<StateId> {
        let Observable::Lts(lts) = self.model else {
            return set;
        };
        let n = lts.num_states();
        let mut seen: BTreeSet<StateId> = set.iter().copied().collect();
        while let Some(s) = set.pop() {
            if s.index() >= n {
                continue;
            }
            for &(l, t) in lts.transitions_from(s) {
                if lts.alphabet.is_internal(l) && seen.insert(t) {
                    set.push(t);
                }
            }
        }
        seen.into_iter().collect()
    }

    fn intern(&mut self, set: Vec<StateId>) -> Result<u32, CheckError> {
        if let Some(&i) = self.set_index.get(&set) {
            return Ok(i);
        }
        if self.sets.len() >= self.budget {
            return Err(CheckError::Budget {
                what: format!(
                    "determinising `{}`",
                    match self.model {
                        Observable::Lts(l) => l.name.as_str(),
                        Observable::Suspension(s) => s.name.as_str(),
                    }
                ),
                budget: self.budget,
            });
        }
        let i = self.sets.len() as u32;
        self.set_index.insert(set.clone(), i);
        self.sets.push(set);
        self.built.push(None);
        Ok(i)
    }

    fn build(&mut self, q: u32) -> Result<(), CheckError> {
        if self.built[q as usize].is_some() {
            return Ok(());
        }
        let entry = match self.model {
            Observable::Suspension(sa) => {
                let mut edges: Vec<(LabelId, u32)> = sa
                    .enabled(StateId(q))
                    .iter()
                    .filter_map(|&(l, t)| self.label_map[l.index()].map(|v| (v, t.0)))
                    .collect();
                for &a in &self.self_loop_inputs {
                    if !edges.iter().any(|&(l, _)| l == a) {
                        edges.push((a, q));
                    }
                }
                edges.sort_unstable();
                let inputs = sa
                    .inputs_enabled(StateId(q))
                    .filter_map(|l| self.label_map[l.index()])
                    .collect();
                (edges, inputs)
            }
            Observable::Lts(lts) => {
                let set = self.sets[q as usize].clone();
                let n = lts.num_states();
                let delta = self.quiescence_label();
                let mut succ: std::collections::BTreeMap<LabelId, BTreeSet<StateId>> =
                    Default::default();
                let mut quiescent = Vec::new();
                let mut common_inputs: Option<BTreeSet<LabelId>> = None;
                let mut all_inputs: BTreeSet<LabelId> = BTreeSet::new();
                let mut any_stable = false;
                for &s in &set {
                    let mut stable = true;
                    let mut has_output = false;
                    let mut inputs = BTreeSet::new();
                    // A copy `n + s` of a divergent state keeps its inputs and is quiescent.
                    let (real, is_copy) = if s.index() >= n {
                        (StateId(s.0 - n as u32), true)
                    } else {
                        (s, false)
                    };
                    for &(l, t) in lts.transitions_from(real) {
                        match self.label_map[l.index()] {
                            None => stable = stable && is_copy,
                            Some(v) => match lts.alphabet.kind(l) {
                                LabelKind::Input => {
                                    succ.entry(v).or_default().insert(t);
                                    inputs.insert(v);
                                }
                                _ if is_copy => {}
                                _ => {
                                    succ.entry(v).or_default().insert(t);
                                    has_output = true;
                                }
                            },
                        }
                    }
                    if is_copy {
                        succ.entry(delta).or_default().insert(s);
                        has_output = true;
                    }
                    all_inputs.extend(inputs.iter().copied());
                    for &a in &self.self_loop_inputs {
                        if !inputs.contains(&a) {
                            succ.entry(a).or_default().insert(s);
                        }
                    }
                    if stable && !has_output {
                        quiescent.push(s);
                    }
                    if stable {
                        any_stable = true;
                        common_inputs = Some(match common_inputs {
                            None => inputs,
                            Some(c) => c.intersection(&inputs).copied().collect(),
                        });
                    }
                }
                if !quiescent.is_empty() {
                    succ.entry(delta).or_default().extend(quiescent);
                }
                if !succ.keys().any(|&l| self.is_output_label(l)) {
                    // A livelock: no member offers an output or quiescence, so the set runs into
                    // τ-cycles without output; δ leads to the copies of its divergent members.
                    let copies: BTreeSet<StateId> = set
                        .iter()
                        .filter(|s| s.index() < n && self.divergent[s.index()])
                        .map(|s| StateId(s.0 + n as u32))
                        .collect();
                    if !copies.is_empty() {
                        succ.insert(delta, copies);
                    }
                }
                let mut edges = Vec::with_capacity(succ.len());
                for (l, ts) in succ {
                    let closed = self.closure(ts.into_iter().collect());
                    edges.push((l, self.intern(closed)?));
                }
                edges.sort_unstable();
                let uinputs = if any_stable {
                    common_inputs.unwrap_or_default()
                } else {
                    all_inputs
                };
                (edges, uinputs.into_iter().collect())
            }
        };
        self.built[q as usize] = Some(entry);
        Ok(())
    }

    fn is_output_label(&self, l: LabelId) -> bool {
        self.output_labels[l.index()]
    }

    fn quiescence_label(&self) -> LabelId {
        // The vocabulary always puts quiescence first.
        LabelId(0)
    }

    /// The enabled labels of `q` with their targets, sorted by label.
    pub fn enabled(&mut self, q: u32) -> Result<&[(LabelId, u32)], CheckError> {
        self.build(q)?;
        Ok(self.built[q as usize]
            .as_ref()
            .map(|(e, _)| e.as_slice())
            .unwrap_or(&[]))
    }

    /// The inputs enabled in every stable state of `q` (uioco's inputs), sorted.
    pub fn certain_inputs(&mut self, q: u32) -> Result<&[LabelId], CheckError> {
        self.build(q)?;
        Ok(self.built[q as usize]
            .as_ref()
            .map(|(_, i)| i.as_slice())
            .unwrap_or(&[]))
    }

    /// `q after l`, if `l` is enabled.
    pub fn after(&mut self, q: u32, l: LabelId) -> Result<Option<u32>, CheckError> {
        let e = self.enabled(q)?;
        Ok(e.binary_search_by_key(&l, |&(m, _)| m).ok().map(|i| e[i].1))
    }

    /// Number of observation states built so far.
    pub fn num_states(&self) -> usize {
        self.sets.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::lts_from_marked;

    #[test]
    fn determinises_with_quiescence_and_certain_inputs() {
        // 0 -tau-> 1, 0 -?a-> 2, 1 -?b-> 2, 2 -!x-> 0: {0,1} has inputs a (from 0) and b (from 1);
        // only 1 is stable, so the certain inputs are {b}; 1 is quiescent.
        let lts = lts_from_marked(
            "t",
            3,
            &[(0, "tau", 1), (0, "?a", 2), (1, "?b", 2), (2, "!x", 0)],
        )
        .unwrap();
        let v = Vocabulary::of(&[Observable::Lts(&lts)]).unwrap();
        let mut o = Observer::new(Observable::Lts(&lts), &v, 100);
        let q0 = o.initial();
        assert_eq!(o.state_name(q0), "{0,1}");
        let labels: Vec<String> = o
            .enabled(q0)
            .unwrap()
            .iter()
            .map(|&(l, _)| v.marked(l))
            .collect();
        assert_eq!(labels, ["delta", "?a", "?b"]);
        let b = v.get("b").unwrap();
        assert_eq!(o.certain_inputs(q0).unwrap(), &[b]);
        let d = o.after(q0, v.quiescence()).unwrap().unwrap();
        assert_eq!(o.state_name(d), "{1}");
        let x = v.get("x").unwrap();
        assert_eq!(o.after(q0, x).unwrap(), None);
    }

    #[test]
    fn budget_fails_cleanly() {
        let lts = lts_from_marked("t", 3, &[(0, "?a", 1), (0, "?a", 2), (1, "!x", 0)]).unwrap();
        let v = Vocabulary::of(&[Observable::Lts(&lts)]).unwrap();
        let mut o = Observer::new(Observable::Lts(&lts), &v, 1);
        assert!(matches!(o.enabled(0), Err(CheckError::Budget { .. })));
    }

    #[test]
    fn kinds_must_agree() {
        let a = lts_from_marked("s", 1, &[(0, "?a", 0)]).unwrap();
        let b = lts_from_marked("i", 1, &[(0, "!a", 0)]).unwrap();
        let err = Vocabulary::of(&[Observable::Lts(&a), Observable::Lts(&b)]).unwrap_err();
        assert!(err.to_string().contains("`a`"), "{err}");
    }
}
