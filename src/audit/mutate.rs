//! Seeded mutants of a model, the fault domain of mutation audits (Goga, seed 001; van den Bos
//! Sec. 2.3: an n-complete suite must detect every non-conforming implementation with at most n
//! states). Each mutant carries its exact verdict, decided by [`crate::check`]: ioco for suspension
//! automata, equivalence for Mealy machines. A non-conforming mutant of a suspension automaton
//! is also marked *observable* or not: whether some observation of it through the input/output
//! race has no reading in the original ([`crate::check::race`]). Runners read outputs both ways
//! around an input in flight, so an unobservable fault passes them all, and mutation tests
//! require only the observable ones to be caught.
//!
//! Fault kinds: output faults (a transition produces another output, or quiescence instead of an
//! output and back), transfer faults (a transition goes to another state), added and removed
//! outputs (suspension automata only: a state offers one output more or one fewer), and cloned
//! states (a copy of a state takes over one of its incoming transitions, and half of the time
//! carries one further fault; without it the mutant conforms). Mutants of suspension automata keep
//! quiescence consistent (quiescence leads to a quiescent state, and a state only loses quiescence
//! if no other state's quiescence leads to it) and are made input-enabled with self-loops, since implementations are input-enabled
//! (van den Bos: SAIE). Every mutant has at most the bound's number of states.

use super::error::AuditError;
use crate::check::{
    IocoOptions, MissingInputs, Observable, check_ioco, check_ioco_under_race, check_mealy,
};
use crate::format::{Format, suspension_as_lts, write_model};
use crate::model::{
    LabelId, Mealy, Model, StateId, SuspensionAutomaton, SuspensionOptions, lts_to_suspension,
};
use rayon::prelude::*;
use serde_json::json;
use std::collections::HashSet;
use std::path::Path;

use crate::rng::SplitMix64;

type Result<T, E = AuditError> = std::result::Result<T, E>;

/// The size bound of mutants.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SizeBound {
    /// At most this many states (`--n`).
    States(usize),
    /// At most this many states more than the model (`--extra-states`).
    Extra(usize),
}

impl SizeBound {
    /// The maximal number of states of a mutant of a model with `model_states` states (`None`
    /// when `model_states + E` does not fit in a `usize`).
    pub fn max_states(self, model_states: usize) -> Option<usize> {
        match self {
            SizeBound::States(n) => Some(n),
            SizeBound::Extra(e) => model_states.checked_add(e),
        }
    }
}

/// Options of mutant generation.
#[derive(Copy, Clone, Debug)]
pub struct MutateOptions {
    /// How many mutants to make.
    pub count: usize,
    /// The size bound.
    pub bound: SizeBound,
    /// The seed of the generator.
    pub seed: u64,
}

/// The kind of fault a mutant carries.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FaultKind {
    /// A transition's output changed.
    Output,
    /// A transition's target changed.
    Transfer,
    /// A state offers an extra output.
    AddedOutput,
    /// A state offers one output fewer.
    RemovedOutput,
    /// A state was cloned (possibly with a further fault in the clone).
    ClonedState,
}

impl FaultKind {
    /// The name used in index files.
    pub fn as_str(self) -> &'static str {
        match self {
            FaultKind::Output => "output",
            FaultKind::Transfer => "transfer",
            FaultKind::AddedOutput => "added-output",
            FaultKind::RemovedOutput => "removed-output",
            FaultKind::ClonedState => "cloned-state",
        }
    }
}

/// A model that can be mutated (and a mutant).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MutantModel {
    /// A suspension automaton (verdict: ioco).
    Suspension(SuspensionAutomaton),
    /// A Mealy machine (verdict: equivalence).
    Mealy(Mealy),
}

impl MutantModel {
    /// Number of states.
    pub fn num_states(&self) -> usize {
        match self {
            MutantModel::Suspension(s) => s.num_states(),
            MutantModel::Mealy(m) => m.num_states(),
        }
    }
}

/// One mutant with its verdict.
#[derive(Clone, Debug)]
pub struct Mutant {
    /// Name, `<model>_m<k>`.
    pub name: String,
    /// The fault kind.
    pub kind: FaultKind,
    /// What was changed, in words.
    pub description: String,
    /// The mutated model.
    pub model: MutantModel,
    /// Whether it conforms to the original (ioco, or equivalence for Mealy machines).
    pub conforms: bool,
    /// Whether a tester can see its fault: it does not conform and, for a suspension
    /// automaton, some observation through the input/output race has no reading in the original
    /// ([`crate::check::check_ioco_under_race`]). A non-conforming mutant that is not observable
    /// passes every runner of this crate, by design.
    pub observable: bool,
}

/// Up to `opts.count` distinct mutants of `model` (fewer if the model has fewer), in a
/// deterministic order for a given seed.
pub fn mutants(model: &MutantModel, opts: &MutateOptions) -> Result<Vec<Mutant>> {
    let n0 = model.num_states();
    let max_states = opts.bound.max_states(n0).ok_or_else(|| {
        AuditError::Usage(format!(
            "--extra-states: {n0} model states plus the extra states exceed {}; give a smaller bound",
            usize::MAX
        ))
    })?;
    if max_states < n0 {
        return Err(AuditError::Usage(format!(
            "the bound of {max_states} states is smaller than the model's {n0} states; mutants keep every state, so use --n {n0} or more"
        )));
    }
    let mut rng = SplitMix64::new(opts.seed);
    let mut seen = HashSet::new();
    let mut made: Vec<(FaultKind, String, MutantModel)> = Vec::new();
    let attempts = opts.count.saturating_mul(50).max(100);
    for _ in 0..attempts {
        if made.len() >= opts.count {
            break;
        }
        let m = match model {
            MutantModel::Suspension(sa) => mutate_suspension(sa, max_states, &mut rng)?,
            MutantModel::Mealy(m) => mutate_mealy(m, max_states, &mut rng)?,
        };
        if let Some((kind, desc, mutant)) = m
            && seen.insert(canonical(&mutant))
        {
            made.push((kind, desc, mutant));
        }
    }
    let base = match model {
        MutantModel::Suspension(s) => s.name.clone(),
        MutantModel::Mealy(m) => m.name.clone(),
    };
    made.into_par_iter()
        .enumerate()
        .map(|(k, (kind, description, mutant))| {
            let conforms = verdict(model, &mutant)?;
            let observable = !conforms && observable(model, &mutant)?;
            Ok(Mutant {
                name: format!("{base}_m{:03}", k + 1),
                kind,
                description,
                model: mutant,
                conforms,
                observable,
            })
        })
        .collect()
}

/// The exact verdict of a mutant against its original.
pub fn verdict(original: &MutantModel, mutant: &MutantModel) -> Result<bool> {
    match (original, mutant) {
        (MutantModel::Suspension(s), MutantModel::Suspension(i)) => {
            let opts = IocoOptions {
                missing_inputs: MissingInputs::Reject,
                ..Default::default()
            };
            Ok(check_ioco(Observable::Suspension(s), Observable::Suspension(i), &opts)?.conforms())
        }
        (MutantModel::Mealy(s), MutantModel::Mealy(i)) => Ok(check_mealy(s, i, false)?.conforms()),
        _ => Err(AuditError::Usage(
            "a mutant must have the type of its original".into(),
        )),
    }
}

/// Whether a non-conforming mutant's fault shows to a tester: through the input/output race for
/// suspension automata; always for Mealy machines, whose runners wait for each output before the
/// next input.
pub fn observable(original: &MutantModel, mutant: &MutantModel) -> Result<bool> {
    match (original, mutant) {
        (MutantModel::Suspension(s), MutantModel::Suspension(i)) => Ok(!check_ioco_under_race(
            Observable::Suspension(s),
            Observable::Suspension(i),
            &IocoOptions::default(),
        )?
        .conforms()),
        _ => Ok(true),
    }
}

fn canonical(m: &MutantModel) -> (usize, Vec<(u32, u32, u32, u32)>) {
    match m {
        MutantModel::Suspension(s) => (
            s.num_states(),
            s.triples().map(|(p, l, t)| (p.0, l.0, 0, t.0)).collect(),
        ),
        MutantModel::Mealy(m) => (
            m.num_states(),
            m.quads().map(|(p, i, o, t)| (p.0, i.0, o.0, t.0)).collect(),
        ),
    }
}

/// Working copy of a suspension automaton's transitions.
struct SaEdit<'a> {
    sa: &'a SuspensionAutomaton,
    names: Vec<String>,
    edges: Vec<(u32, LabelId, u32)>,
}

impl SaEdit<'_> {
    fn delta(&self) -> LabelId {
        self.sa.quiescence()
    }
    fn is_output(&self, l: LabelId) -> bool {
        self.sa.alphabet.is_output(l) && l != self.delta()
    }
    fn name(&self, p: u32) -> &str {
        &self.names[p as usize]
    }
    fn label(&self, l: LabelId) -> String {
        if l == self.delta() {
            self.sa.alphabet.name(l).to_owned()
        } else if self.sa.alphabet.is_input(l) {
            format!("?{}", self.sa.alphabet.name(l))
        } else {
            format!("!{}", self.sa.alphabet.name(l))
        }
    }

    /// One fault (not a clone) on the transitions of the states in `scope`; None if none applies.
    fn simple_fault(&mut self, scope: &[u32], rng: &mut SplitMix64) -> Option<(FaultKind, String)> {
        let all_outputs: Vec<LabelId> = self
            .sa
            .alphabet
            .outputs()
            .filter(|&l| l != self.delta())
            .collect();
        let n = self.names.len() as u32;
        // Per state: its outputs and whether it is quiescent (edges change only on return).
        let mut outs_cache: Vec<Vec<LabelId>> = vec![Vec::new(); n as usize];
        let mut quiet = vec![false; n as usize];
        let mut in_scope_state = vec![false; n as usize];
        for &p in scope {
            in_scope_state[p as usize] = true;
        }
        // Whether another state's quiescence leads to the state.
        let mut delta_from_elsewhere = vec![false; n as usize];
        for &(p, l, t) in &self.edges {
            if self.is_output(l) {
                outs_cache[p as usize].push(l);
            } else if l == self.delta() {
                quiet[p as usize] = true;
                if t != p {
                    delta_from_elsewhere[t as usize] = true;
                }
            }
        }
        let kinds = [
            FaultKind::Output,
            FaultKind::Transfer,
            FaultKind::AddedOutput,
            FaultKind::RemovedOutput,
        ];
        let first = rng.below(kinds.len());
        for k in 0..kinds.len() {
            let kind = kinds[(first + k) % kinds.len()];
            let in_scope: Vec<usize> = (0..self.edges.len())
                .filter(|&e| in_scope_state[self.edges[e].0 as usize])
                .collect();
            match kind {
                FaultKind::Output => {
                    // Candidates: an output edge whose state lacks another output (or may become
                    // quiescent), or a quiescence edge of a state no other quiescence leads to.
                    let mut cands = Vec::new();
                    for &e in &in_scope {
                        let (p, l, _) = self.edges[e];
                        let outs = outs_cache[p as usize].clone();
                        if self.is_output(l) {
                            let fresh: Vec<LabelId> = all_outputs
                                .iter()
                                .copied()
                                .filter(|o| !outs.contains(o))
                                .collect();
                            if !fresh.is_empty() || outs.len() == 1 {
                                cands.push(e);
                            }
                        } else if l == self.delta()
                            && !all_outputs.is_empty()
                            && !delta_from_elsewhere[p as usize]
                        {
                            cands.push(e);
                        }
                    }
                    if cands.is_empty() {
                        continue;
                    }
                    let e = *rng.pick(&cands);
                    let (p, l, t) = self.edges[e];
                    let old = self.label(l);
                    if l == self.delta() {
                        let outs = outs_cache[p as usize].clone();
                        let fresh: Vec<LabelId> = all_outputs
                            .iter()
                            .copied()
                            .filter(|o| !outs.contains(o))
                            .collect();
                        if fresh.is_empty() {
                            continue;
                        }
                        let y = *rng.pick(&fresh);
                        let t2 = rng.below(n as usize) as u32;
                        self.edges[e] = (p, y, t2);
                        return Some((
                            FaultKind::Output,
                            format!(
                                "state {} produces {} (to {}) instead of being quiescent",
                                self.name(p),
                                self.label(y),
                                self.name(t2)
                            ),
                        ));
                    }
                    let outs = outs_cache[p as usize].clone();
                    let mut options: Vec<Option<LabelId>> = all_outputs
                        .iter()
                        .copied()
                        .filter(|o| !outs.contains(o))
                        .map(Some)
                        .collect();
                    if outs.len() == 1 && !quiet[p as usize] {
                        options.push(None);
                    }
                    if options.is_empty() {
                        continue;
                    }
                    match *rng.pick(&options) {
                        Some(y) => {
                            self.edges[e] = (p, y, t);
                            return Some((
                                FaultKind::Output,
                                format!(
                                    "state {} produces {} instead of {}",
                                    self.name(p),
                                    self.label(y),
                                    old
                                ),
                            ));
                        }
                        None => {
                            self.edges[e] = (p, self.delta(), p);
                            return Some((
                                FaultKind::Output,
                                format!(
                                    "state {} is quiescent instead of producing {old}",
                                    self.name(p)
                                ),
                            ));
                        }
                    }
                }
                FaultKind::Transfer => {
                    let quiet_states: Vec<u32> = (0..n).filter(|&q| quiet[q as usize]).collect();
                    let cands: Vec<usize> = in_scope
                        .iter()
                        .copied()
                        .filter(|&e| {
                            let (_, l, t) = self.edges[e];
                            if l == self.delta() {
                                quiet_states.iter().any(|&q| q != t)
                            } else {
                                n > 1
                            }
                        })
                        .collect();
                    if cands.is_empty() {
                        continue;
                    }
                    let e = *rng.pick(&cands);
                    let (p, l, t) = self.edges[e];
                    let targets: Vec<u32> = if l == self.delta() {
                        quiet_states.iter().copied().filter(|&q| q != t).collect()
                    } else {
                        (0..n).filter(|&q| q != t).collect()
                    };
                    let t2 = *rng.pick(&targets);
                    self.edges[e] = (p, l, t2);
                    return Some((
                        FaultKind::Transfer,
                        format!(
                            "{} from state {} goes to {} instead of {}",
                            self.label(l),
                            self.name(p),
                            self.name(t2),
                            self.name(t)
                        ),
                    ));
                }
                FaultKind::AddedOutput => {
                    let cands: Vec<(u32, LabelId)> = scope
                        .iter()
                        .flat_map(|&p| {
                            let outs = outs_cache[p as usize].clone();
                            let ok = !outs.is_empty();
                            all_outputs
                                .iter()
                                .copied()
                                .filter(move |o| ok && !outs.contains(o))
                                .map(move |o| (p, o))
                        })
                        .collect();
                    if cands.is_empty() {
                        continue;
                    }
                    let (p, y) = *rng.pick(&cands);
                    let t = rng.below(n as usize) as u32;
                    self.edges.push((p, y, t));
                    return Some((
                        FaultKind::AddedOutput,
                        format!(
                            "state {} can also produce {} (to {})",
                            self.name(p),
                            self.label(y),
                            self.name(t)
                        ),
                    ));
                }
                FaultKind::RemovedOutput => {
                    let cands: Vec<usize> = in_scope
                        .iter()
                        .copied()
                        .filter(|&e| {
                            let (p, l, _) = self.edges[e];
                            self.is_output(l) && outs_cache[p as usize].clone().len() >= 2
                        })
                        .collect();
                    if cands.is_empty() {
                        continue;
                    }
                    let e = *rng.pick(&cands);
                    let (p, l, _) = self.edges.remove(e);
                    return Some((
                        FaultKind::RemovedOutput,
                        format!(
                            "state {} no longer produces {}",
                            self.name(p),
                            self.label(l)
                        ),
                    ));
                }
                FaultKind::ClonedState => unreachable!("not a simple fault"),
            }
        }
        None
    }
}

/// Reachable states of a transition list, from `initial`.
fn reachable(n: usize, initial: u32, edges: impl Iterator<Item = (u32, u32)>) -> Vec<bool> {
    let mut succ: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (s, t) in edges {
        succ[s as usize].push(t);
    }
    let mut seen = vec![false; n];
    seen[initial as usize] = true;
    let mut stack = vec![initial];
    while let Some(p) = stack.pop() {
        for &t in &succ[p as usize] {
            if !seen[t as usize] {
                seen[t as usize] = true;
                stack.push(t);
            }
        }
    }
    seen
}

/// Clones a reachable state: the copy takes over one incoming transition (of a reachable state).
/// Returns the clone's id and the description.
fn clone_state<T: Copy>(
    names: &mut Vec<String>,
    edges: &mut Vec<(u32, T, u32)>,
    initial: u32,
    rng: &mut SplitMix64,
    label: impl Fn(T) -> String,
) -> Option<(u32, String)> {
    let reach = reachable(names.len(), initial, edges.iter().map(|&(s, _, t)| (s, t)));
    let incoming: Vec<usize> = (0..edges.len())
        .filter(|&e| reach[edges[e].0 as usize])
        .collect();
    if incoming.is_empty() {
        return None;
    }
    let e = *rng.pick(&incoming);
    let (p, l, s) = edges[e];
    let c = names.len() as u32;
    let mut name = format!("{}_clone", names[s as usize]);
    while names.contains(&name) {
        name.push('_');
    }
    names.push(name);
    let copies: Vec<(u32, T, u32)> = edges
        .iter()
        .filter(|&&(q, _, _)| q == s)
        .map(|&(_, m, t)| (c, m, if t == s { c } else { t }))
        .collect();
    edges.extend(copies);
    edges[e] = (p, l, c);
    let desc = format!(
        "state {} is cloned as {}, reached by {} from {}",
        names[s as usize],
        names[c as usize],
        label(l),
        names[p as usize]
    );
    Some((c, desc))
}

fn mutate_suspension(
    sa: &SuspensionAutomaton,
    max_states: usize,
    rng: &mut SplitMix64,
) -> Result<Option<(FaultKind, String, MutantModel)>> {
    let mut ed = SaEdit {
        sa,
        names: sa.state_names().to_vec(),
        edges: sa.triples().map(|(p, l, t)| (p.0, l, t.0)).collect(),
    };
    let all: Vec<u32> = (0..ed.names.len() as u32).collect();
    let can_clone = max_states > ed.names.len();
    let result = if can_clone && rng.chance(1, 4) {
        let Some((c, desc)) = clone_state(&mut ed.names, &mut ed.edges, sa.initial().0, rng, |l| {
            if l == sa.quiescence() {
                sa.alphabet.name(l).to_owned()
            } else if sa.alphabet.is_input(l) {
                format!("?{}", sa.alphabet.name(l))
            } else {
                format!("!{}", sa.alphabet.name(l))
            }
        }) else {
            return Ok(None);
        };
        let desc = if rng.chance(1, 2) {
            match ed.simple_fault(&[c], rng) {
                Some((_, more)) => format!("{desc}; in the clone, {more}"),
                None => desc,
            }
        } else {
            desc
        };
        Some((FaultKind::ClonedState, desc))
    } else {
        ed.simple_fault(&all, rng)
    };
    let Some((kind, desc)) = result else {
        return Ok(None);
    };
    // Input-enabled: self-loops on refused inputs.
    let inputs: Vec<LabelId> = sa.alphabet.inputs().collect();
    for p in 0..ed.names.len() as u32 {
        for &a in &inputs {
            if !ed.edges.iter().any(|&(s, l, _)| s == p && l == a) {
                ed.edges.push((p, a, p));
            }
        }
    }
    let triples = ed
        .edges
        .iter()
        .map(|&(p, l, t)| (StateId(p), l, StateId(t)))
        .collect();
    let mutant = SuspensionAutomaton::new(
        sa.name.clone(),
        sa.alphabet.clone(),
        ed.names,
        sa.initial(),
        triples,
    )
    .map_err(|source| AuditError::Model {
        path: format!("mutant of {}", sa.name),
        source,
    })?;
    Ok(Some((kind, desc, MutantModel::Suspension(mutant))))
}

fn mutate_mealy(
    m: &Mealy,
    max_states: usize,
    rng: &mut SplitMix64,
) -> Result<Option<(FaultKind, String, MutantModel)>> {
    let mut names = m.state_names().to_vec();
    let mut edges: Vec<(u32, (LabelId, LabelId), u32)> =
        m.quads().map(|(p, i, o, t)| (p.0, (i, o), t.0)).collect();
    if edges.is_empty() {
        return Ok(None);
    }
    let no = m.outputs.len();
    let simple = |names: &Vec<String>,
                  edges: &mut Vec<(u32, (LabelId, LabelId), u32)>,
                  scope: &[u32],
                  rng: &mut SplitMix64|
     -> Option<(FaultKind, String)> {
        let cands: Vec<usize> = (0..edges.len())
            .filter(|&e| scope.len() == names.len() || scope.contains(&edges[e].0))
            .collect();
        if cands.is_empty() {
            return None;
        }
        let e = *rng.pick(&cands);
        let (p, (i, o), t) = edges[e];
        let n = names.len();
        let output_fault = no >= 2 && (n < 2 || rng.chance(1, 2));
        if output_fault {
            let mut o2 = LabelId(rng.below(no - 1) as u32);
            if o2 >= o {
                o2 = LabelId(o2.0 + 1);
            }
            edges[e] = (p, (i, o2), t);
            Some((
                FaultKind::Output,
                format!(
                    "state {} answers {} with {} instead of {}",
                    names[p as usize],
                    m.inputs.name(i),
                    m.outputs.name(o2),
                    m.outputs.name(o)
                ),
            ))
        } else if n >= 2 {
            let mut t2 = rng.below(n - 1) as u32;
            if t2 >= t {
                t2 += 1;
            }
            edges[e] = (p, (i, o), t2);
            Some((
                FaultKind::Transfer,
                format!(
                    "input {} from state {} goes to {} instead of {}",
                    m.inputs.name(i),
                    names[p as usize],
                    names[t2 as usize],
                    names[t as usize]
                ),
            ))
        } else {
            None
        }
    };
    let all: Vec<u32> = (0..names.len() as u32).collect();
    let result = if max_states > names.len() && rng.chance(1, 4) {
        let Some((c, desc)) = clone_state(
            &mut names,
            &mut edges,
            m.initial().0,
            rng,
            |(i, o): (LabelId, LabelId)| format!("{}/{}", m.inputs.name(i), m.outputs.name(o)),
        ) else {
            return Ok(None);
        };
        let desc = if rng.chance(1, 2) {
            match simple(&names, &mut edges, &[c], rng) {
                Some((_, more)) => format!("{desc}; in the clone, {more}"),
                None => desc,
            }
        } else {
            desc
        };
        Some((FaultKind::ClonedState, desc))
    } else {
        simple(&names, &mut edges, &all, rng)
    };
    let Some((kind, desc)) = result else {
        return Ok(None);
    };
    let quads: Vec<_> = edges
        .iter()
        .map(|&(p, (i, o), t)| (StateId(p), i, o, StateId(t)))
        .collect();
    let mutant = Mealy::new(
        m.name.clone(),
        m.inputs.clone(),
        m.outputs.clone(),
        names,
        m.initial(),
        &quads,
    )
    .map_err(|source| AuditError::Model {
        path: format!("mutant of {}", m.name),
        source,
    })?;
    Ok(Some((kind, desc, MutantModel::Mealy(mutant))))
}

/// The mutable form of a model read from a file: a Mealy machine as it is, an LTS as its
/// suspension automaton (kept as written when it already is one).
pub fn mutable_model(model: &Model, path: &str) -> Result<MutantModel> {
    Ok(match model {
        Model::Mealy(m) => MutantModel::Mealy(m.clone()),
        Model::Lts(l) => {
            let direct = (l.is_deterministic() && l.alphabet.quiescence().is_some())
                .then(|| {
                    SuspensionAutomaton::new(
                        l.name.clone(),
                        l.alphabet.clone(),
                        l.state_names().to_vec(),
                        l.initial(),
                        l.triples().collect(),
                    )
                    .ok()
                })
                .flatten();
            match direct {
                Some(sa) => MutantModel::Suspension(sa),
                None => MutantModel::Suspension(
                    lts_to_suspension(l, &SuspensionOptions::default()).map_err(|source| {
                        AuditError::Model {
                            path: path.to_owned(),
                            source,
                        }
                    })?,
                ),
            }
        }
    })
}

/// The file of a mutant: its name and its model text (suspension automata as `.aut` with
/// explicit `delta`, Mealy machines as DOT, either as JSON when that format cannot carry the
/// mutant: a label left on no transition, an odd name), so every file reads back as the mutant
/// its verdict is about.
pub fn mutant_file(m: &Mutant) -> (String, String) {
    let (model, preferred) = match &m.model {
        MutantModel::Suspension(sa) => (Model::Lts(suspension_as_lts(sa)), Format::Aut),
        MutantModel::Mealy(me) => (Model::Mealy(me.clone()), Format::Dot),
    };
    let format = if crate::format::unrepresentable(&model, preferred).is_some() {
        Format::Json
    } else {
        preferred
    };
    (
        format!("{}.{}", m.name, format.name()),
        write_model(&model, format),
    )
}

/// The text of `index.json` describing `mutants` of the model at `model_path`, written as
/// `files` ([`mutant_file`], in the same order).
pub fn mutants_index(
    model_path: &str,
    original: &MutantModel,
    opts: &MutateOptions,
    mutants: &[Mutant],
    files: &[String],
) -> String {
    let entries: Vec<_> = mutants
        .iter()
        .zip(files)
        .map(|(m, file)| {
            json!({
                "file": file,
                "kind": m.kind.as_str(),
                "description": m.description,
                "states": m.model.num_states(),
                "conforms": m.conforms,
                "observable": m.observable,
            })
        })
        .collect();
    let n0 = original.num_states();
    let (kind, relation) = match original {
        MutantModel::Suspension(_) => ("suspension", "ioco"),
        MutantModel::Mealy(_) => ("mealy", "equivalence"),
    };
    let index = json!({
        "model": model_path,
        "model_kind": kind,
        "relation": relation,
        "states": n0,
        "max_states": opts.bound.max_states(n0),
        "seed": opts.seed,
        "mutants": entries,
    });
    let mut text = serde_json::to_string_pretty(&index).unwrap_or_default();
    text.push('\n');
    text
}

/// The summary line of `mutants` of the model at `model_path` written to `dir`.
pub fn mutants_summary(model_path: &str, mutants: &[Mutant], dir: &Path) -> String {
    let conforming = mutants.iter().filter(|m| m.conforms).count();
    let hidden = mutants
        .iter()
        .filter(|m| !m.conforms && !m.observable)
        .count();
    let hidden = if hidden > 0 {
        format!(", {hidden} of them hidden by the input/output race")
    } else {
        String::new()
    };
    format!(
        "wrote {} mutants of {model_path} ({conforming} conforming, {} not{hidden}) to {}\n",
        mutants.len(),
        mutants.len() - conforming,
        dir.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{mealy_from_named, suspension_from_marked};

    fn sa() -> SuspensionAutomaton {
        suspension_from_marked(
            "vend",
            4,
            &[
                (0, "?coin", 1),
                (0, "delta", 0),
                (1, "?tea", 2),
                (1, "?coffee", 3),
                (1, "delta", 1),
                (2, "!t", 0),
                (3, "!c", 0),
                (3, "!c2", 0),
            ],
        )
        .unwrap()
    }

    fn mealy() -> Mealy {
        mealy_from_named(
            "m",
            3,
            &[
                (0, "a", "0", 1),
                (0, "b", "1", 0),
                (1, "a", "0", 2),
                (1, "b", "1", 0),
                (2, "a", "1", 0),
                (2, "b", "0", 2),
            ],
        )
        .unwrap()
    }

    #[test]
    fn an_extra_state_bound_that_overflows_is_refused() {
        let model = MutantModel::Suspension(sa());
        let opts = MutateOptions {
            count: 2,
            bound: SizeBound::Extra(usize::MAX),
            seed: 1,
        };
        let e = mutants(&model, &opts).unwrap_err().to_string();
        assert!(e.contains("exceed"), "{e}");
    }

    #[test]
    fn verdicts_bounds_and_determinism() {
        for (model, bound) in [
            (MutantModel::Suspension(sa()), SizeBound::Extra(2)),
            (MutantModel::Mealy(mealy()), SizeBound::States(4)),
        ] {
            let opts = MutateOptions {
                count: 40,
                bound,
                seed: 11,
            };
            let ms = mutants(&model, &opts).unwrap();
            assert!(ms.len() >= 20, "only {} mutants", ms.len());
            let max = bound.max_states(model.num_states()).unwrap();
            let mut kinds = HashSet::new();
            for m in &ms {
                assert!(m.model.num_states() <= max, "{} too big", m.name);
                assert_eq!(verdict(&model, &m.model).unwrap(), m.conforms);
                // Observable faults are faults; Mealy faults are all observable.
                assert!(!(m.conforms && m.observable), "{}", m.name);
                if matches!(model, MutantModel::Mealy(_)) {
                    assert_eq!(m.observable, !m.conforms, "{}", m.name);
                }
                assert_ne!(m.model, model, "{} is the original", m.name);
                kinds.insert(m.kind);
                if let MutantModel::Suspension(s) = &m.model {
                    assert!(s.is_input_enabled(), "{} not input-enabled", m.name);
                }
            }
            assert!(kinds.contains(&FaultKind::ClonedState));
            assert!(kinds.len() >= 3, "{kinds:?}");
            assert!(ms.iter().any(|m| m.conforms) && ms.iter().any(|m| !m.conforms));
            let again = mutants(&model, &opts).unwrap();
            let sig = |v: &[Mutant]| -> Vec<(String, String, MutantModel)> {
                v.iter()
                    .map(|m| (m.name.clone(), m.description.clone(), m.model.clone()))
                    .collect()
            };
            assert_eq!(sig(&ms), sig(&again));
            let other = mutants(&model, &MutateOptions { seed: 12, ..opts }).unwrap();
            assert_ne!(sig(&ms), sig(&other));
        }
    }

    /// Determinised LTSs have states with both quiescence and outputs (a set with a quiescent
    /// member); mutants of them stay deterministic suspension automata.
    #[test]
    fn mutants_of_determinised_lts() {
        let lts = crate::model::lts_from_marked(
            "v",
            5,
            &[
                (0, "?coin", 1),
                (1, "tau", 2),
                (1, "tau", 3),
                (2, "?button", 4),
                (3, "!refund", 0),
                (4, "!coffee", 0),
                (4, "!tea", 0),
            ],
        )
        .unwrap();
        let model = mutable_model(&Model::Lts(lts), "v").unwrap();
        for seed in 0..20 {
            let ms = mutants(
                &model,
                &MutateOptions {
                    count: 30,
                    bound: SizeBound::Extra(2),
                    seed,
                },
            )
            .unwrap();
            assert!(ms.len() >= 15, "seed {seed}: {}", ms.len());
        }
    }

    #[test]
    fn bound_below_model_is_rejected() {
        let err = mutants(
            &MutantModel::Mealy(mealy()),
            &MutateOptions {
                count: 3,
                bound: SizeBound::States(2),
                seed: 0,
            },
        )
        .unwrap_err();
        assert!(err.to_string().contains("--n 3"), "{err}");
    }

    #[test]
    fn no_clones_without_room() {
        let ms = mutants(
            &MutantModel::Suspension(sa()),
            &MutateOptions {
                count: 30,
                bound: SizeBound::Extra(0),
                seed: 5,
            },
        )
        .unwrap();
        assert!(ms.iter().all(|m| m.kind != FaultKind::ClonedState));
        assert!(ms.iter().all(|m| m.model.num_states() == 4));
    }
}
