//! Test support: exhaustive simulation of test cases against implementations (every race and
//! output choice), exact ioco and `|I|_S` (Def. 2.34) by product exploration, seeded random
//! suspension automata with compatible pairs, mutants (general, and classic ones for the
//! classic quiescence domain of `super::domain`), and the examples of van den Bos Ch. 2.

use crate::model::{
    Alphabet, LabelId, LabelKind, StateId, SuspensionAutomaton, suspension_from_marked,
};
use crate::rng::SplitMix64;
use crate::suite::{Next, SuiteModel, TestCase, TestNode, Verdict};
use std::collections::HashSet;

/// Exhaustive simulation of tests on one implementation (input-enabled, same label names).
pub struct Simulator<'a> {
    imp: &'a SuspensionAutomaton,
    input_label: Vec<LabelId>,
    /// Implementation label -> suite output id.
    out_id: Vec<Option<LabelId>>,
}

impl<'a> Simulator<'a> {
    pub fn new(model: &SuiteModel, imp: &'a SuspensionAutomaton) -> Self {
        let a = &imp.alphabet;
        let input_label = model
            .inputs
            .iter()
            .map(|n| a.get(n).expect("implementation shares the inputs"))
            .collect();
        let mut out_id = vec![None; a.len()];
        for (k, name) in model.outputs.iter().enumerate() {
            if let Some(l) = a.get(name) {
                out_id[l.index()] = Some(LabelId(k as u32));
            }
        }
        out_id[imp.quiescence().index()] = Some(LabelId(model.outputs.len() as u32));
        Simulator {
            imp,
            input_label,
            out_id,
        }
    }

    /// Whether some execution of `test` (every race and output choice) reaches `fail`.
    pub fn can_fail(&self, test: &TestCase) -> bool {
        let imp = self.imp;
        let states = imp.num_states();
        let mut seen = vec![false; test.nodes.len() * states];
        let mut stack = vec![(0u32, imp.initial())];
        while let Some((node, i)) = stack.pop() {
            let slot = node as usize * states + i.index();
            if seen[slot] {
                continue;
            }
            seen[slot] = true;
            let follow = |next: Next, j: StateId, stack: &mut Vec<(u32, StateId)>| match next {
                Next::Verdict(Verdict::Fail) => true,
                Next::Verdict(_) => false,
                Next::Node(k) => {
                    stack.push((k, j));
                    false
                }
            };
            let n = &test.nodes[node as usize];
            let racing = matches!(n, TestNode::Send { .. });
            for &(x, j) in imp.enabled(i) {
                let Some(o) = self.out_id[x.index()] else {
                    continue;
                };
                if !imp.alphabet.is_output(x) || (racing && x == imp.quiescence()) {
                    continue;
                }
                if follow(n.on_output(o), j, &mut stack) {
                    return true;
                }
            }
            if let TestNode::Send { input, then, .. } = n {
                let j = imp
                    .after(i, self.input_label[input.index()])
                    .expect("implementations are input-enabled");
                if follow(*then, j, &mut stack) {
                    return true;
                }
            }
        }
        false
    }
}

/// Whether any test of `tests` can fail on `imp`.
pub fn suite_can_fail<'a>(
    tests: impl IntoIterator<Item = &'a TestCase>,
    model: &SuiteModel,
    imp: &SuspensionAutomaton,
) -> bool {
    let sim = Simulator::new(model, imp);
    tests.into_iter().any(|t| sim.can_fail(t))
}

fn label_in(other: &SuspensionAutomaton, sa: &SuspensionAutomaton, l: LabelId) -> LabelId {
    other
        .alphabet
        .get(sa.alphabet.name(l))
        .expect("shared alphabet")
}

/// `imp ioco spec` (Def. 2.4 via Prop. 2.5), decided by exploring the product.
pub fn ioco(imp: &SuspensionAutomaton, spec: &SuspensionAutomaton) -> bool {
    let mut seen = HashSet::new();
    let mut stack = vec![(imp.initial(), spec.initial())];
    while let Some((i, s)) = stack.pop() {
        if !seen.insert((i, s)) {
            continue;
        }
        for x in imp.outputs_enabled(i) {
            match spec.after(s, label_in(spec, imp, x)) {
                None => return false,
                Some(s2) => stack.push((imp.after(i, x).expect("enabled"), s2)),
            }
        }
        for a in spec.inputs_enabled(s) {
            let i2 = imp
                .after(i, label_in(imp, spec, a))
                .expect("implementations are input-enabled");
            stack.push((i2, spec.after(s, a).expect("enabled")));
        }
    }
    true
}

/// `|I|_S`: reachable implementation states reached by a trace of the specification.
pub fn specified_states(imp: &SuspensionAutomaton, spec: &SuspensionAutomaton) -> usize {
    let mut seen = HashSet::new();
    let mut states = HashSet::new();
    let mut stack = vec![(imp.initial(), spec.initial())];
    while let Some((i, s)) = stack.pop() {
        if !seen.insert((i, s)) {
            continue;
        }
        states.insert(i);
        for &(l, s2) in spec.enabled(s) {
            if let Some(i2) = imp.after(i, label_in(imp, spec, l)) {
                stack.push((i2, s2));
            }
        }
    }
    states.len()
}

/// The crate's generator under the name the tests use, seeded as the campaigns were tuned.
pub struct Rng(SplitMix64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(SplitMix64::new(seed ^ 0x9E37_79B9_7F4A_7C15))
    }

    pub fn below(&mut self, n: usize) -> usize {
        self.0.below(n)
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.0.chance(percent as usize, 100)
    }
}

/// Editable transition table over a fixed alphabet.
#[derive(Clone, Debug)]
pub struct Table {
    pub alphabet: Alphabet,
    /// `edges[q][l]` = target.
    pub edges: Vec<Vec<Option<u32>>>,
}

impl Table {
    pub fn from_sa(sa: &SuspensionAutomaton) -> Self {
        let mut edges = vec![vec![None; sa.alphabet.len()]; sa.num_states()];
        for (q, l, t) in sa.triples() {
            edges[q.index()][l.index()] = Some(t.0);
        }
        Table {
            alphabet: sa.alphabet.clone(),
            edges,
        }
    }

    pub fn build(&self, name: &str) -> SuspensionAutomaton {
        let mut triples = Vec::new();
        for (q, row) in self.edges.iter().enumerate() {
            for (l, t) in row.iter().enumerate() {
                if let Some(t) = t {
                    triples.push((StateId(q as u32), LabelId(l as u32), StateId(*t)));
                }
            }
        }
        let names = (0..self.edges.len()).map(|i| i.to_string()).collect();
        SuspensionAutomaton::new(name, self.alphabet.clone(), names, StateId(0), triples)
            .expect("tables stay suspension automata")
    }

    /// Output label indices (quiescence included).
    pub fn outputs(&self) -> Vec<usize> {
        self.alphabet
            .outputs()
            .map(|l| l.index())
            .collect::<Vec<_>>()
    }

    /// Input label indices.
    pub fn inputs(&self) -> Vec<usize> {
        self.alphabet.inputs().map(|l| l.index()).collect()
    }
}

/// A random suspension automaton: `states` states, `inputs` inputs (each enabled with some
/// probability), `outputs` outputs plus quiescence, every state with at least one output. Few
/// outputs make compatible pairs likely.
pub fn random_sa(
    rng: &mut Rng,
    states: usize,
    inputs: usize,
    outputs: usize,
) -> SuspensionAutomaton {
    let mut alphabet = Alphabet::new();
    for i in 0..inputs {
        alphabet
            .add(&format!("a{i}"), LabelKind::Input)
            .expect("fresh");
    }
    for o in 0..outputs {
        alphabet
            .add(&format!("x{o}"), LabelKind::Output)
            .expect("fresh");
    }
    alphabet.set_quiescence("delta").expect("fresh");
    let mut t = Table {
        alphabet,
        edges: vec![vec![None; inputs + outputs + 1]; states],
    };
    let outs = t.outputs();
    let ins = t.inputs();
    for q in 0..states {
        for &a in &ins {
            if rng.chance(70) {
                t.edges[q][a] = Some(rng.below(states) as u32);
            }
        }
        let first = outs[rng.below(outs.len())];
        t.edges[q][first] = Some(rng.below(states) as u32);
        for &x in &outs {
            if rng.chance(30) {
                t.edges[q][x] = Some(rng.below(states) as u32);
            }
        }
    }
    // Make every state reachable: chain unreachable states from reachable ones by an output.
    let sa = t.build("random");
    let reach = super::access::reachable_states(&sa);
    let mut reachable = vec![false; states];
    for s in reach {
        reachable[s.index()] = true;
    }
    for (q, r) in reachable.iter().enumerate() {
        if !r {
            let from = rng.below(q.max(1));
            let x = outs[rng.below(outs.len())];
            t.edges[from][x] = Some(q as u32);
        }
    }
    let sa = t.build("random");
    // Chained states may still be unreachable if `from` was; repeat until closed.
    if super::access::reachable_states(&sa).len() < states {
        return random_sa(rng, states, inputs, outputs);
    }
    sa
}

/// An input-enabled implementation derived from `spec`: missing inputs go to a sink (an extra,
/// unspecified state that is quiescent and ignores inputs) or to a random state, some optional
/// outputs are dropped, and then `faults` random mutations are applied (added, changed or
/// relabelled outputs, redirected transitions, cloned states).
pub fn mutant(rng: &mut Rng, spec: &SuspensionAutomaton, faults: usize) -> SuspensionAutomaton {
    let mut t = Table::from_sa(spec);
    let outs = t.outputs();
    let ins = t.inputs();
    let q = spec.quiescence().index();
    let sink = t.edges.len();
    t.edges.push(vec![None; t.alphabet.len()]);
    t.edges[sink][q] = Some(sink as u32);
    for &a in &ins {
        t.edges[sink][a] = Some(sink as u32);
    }
    for s in 0..sink {
        for &a in &ins {
            if t.edges[s][a].is_none() {
                t.edges[s][a] = Some(if rng.chance(50) {
                    sink as u32
                } else {
                    rng.below(sink) as u32
                });
            }
        }
        // Drop optional outputs (conforming behaviour).
        let enabled: Vec<usize> = outs
            .iter()
            .copied()
            .filter(|&x| t.edges[s][x].is_some())
            .collect();
        if enabled.len() > 1 && rng.chance(30) {
            let x = enabled[rng.below(enabled.len())];
            t.edges[s][x] = None;
        }
    }
    for _ in 0..faults {
        let n = t.edges.len();
        let s = rng.below(n);
        match rng.below(6) {
            0 => {
                // Add an output.
                let x = outs[rng.below(outs.len())];
                t.edges[s][x] = Some(rng.below(n) as u32);
            }
            1 => {
                // Redirect an output.
                let en: Vec<usize> = outs
                    .iter()
                    .copied()
                    .filter(|&x| t.edges[s][x].is_some())
                    .collect();
                let x = en[rng.below(en.len())];
                t.edges[s][x] = Some(rng.below(n) as u32);
            }
            2 if !ins.is_empty() => {
                let a = ins[rng.below(ins.len())];
                t.edges[s][a] = Some(rng.below(n) as u32);
            }
            3 => {
                // Relabel an output.
                let en: Vec<usize> = outs
                    .iter()
                    .copied()
                    .filter(|&x| t.edges[s][x].is_some())
                    .collect();
                let x = en[rng.below(en.len())];
                let y = outs[rng.below(outs.len())];
                let target = t.edges[s][x].take();
                t.edges[s][y] = target;
            }
            _ => {
                // Clone a state, redirect one transition into the clone, then change the clone.
                let clone = t.edges[s].clone();
                let c = t.edges.len();
                t.edges.push(clone);
                let incoming: Vec<(usize, usize)> = (0..c)
                    .flat_map(|p| (0..t.alphabet.len()).map(move |l| (p, l)))
                    .filter(|&(p, l)| t.edges[p][l] == Some(s as u32))
                    .collect();
                if !incoming.is_empty() {
                    let (p, l) = incoming[rng.below(incoming.len())];
                    t.edges[p][l] = Some(c as u32);
                }
                let x = outs[rng.below(outs.len())];
                t.edges[c][x] = Some(rng.below(c + 1) as u32);
            }
        }
    }
    t.build("mutant")
}

/// The classic-domain automaton closest to `t` (see `super::domain`): the suspension automaton
/// of an LTS observed through a timeout. Quiescence from a state `q` that is not stable (it shows
/// another output, or quiescence does not loop on it) goes to a quiet copy of `q` (its inputs
/// and their targets, quiescence looping, no output): the part of `q` that is quiescent, whose
/// behaviour is a part of `q`'s, as a subset of an LTS's states is of the set. Tables already
/// in this form are returned unchanged.
pub fn classic_table(t: &Table) -> Table {
    let delta = t
        .alphabet
        .quiescence()
        .expect("suspension alphabets have δ")
        .index();
    let outs = t.outputs();
    let ins = t.inputs();
    let stable = |row: &[Option<u32>], q: usize| {
        row[delta] == Some(q as u32) && outs.iter().all(|&x| x == delta || row[x].is_none())
    };
    let mut out = t.clone();
    for q in 0..t.edges.len() {
        let Some(target) = t.edges[q][delta].map(|x| x as usize) else {
            continue;
        };
        if target == q && stable(&t.edges[q], q) {
            continue;
        }
        // A quiet copy of a state whose quiet part is already that state's target is not needed.
        if stable(&t.edges[target], target)
            && ins.iter().all(|&a| t.edges[target][a] == t.edges[q][a])
        {
            continue;
        }
        let c = out.edges.len();
        let mut row = vec![None; t.alphabet.len()];
        for &a in &ins {
            row[a] = t.edges[q][a];
        }
        row[delta] = Some(c as u32);
        out.edges.push(row);
        out.edges[q][delta] = Some(c as u32);
    }
    out
}

/// Whether quiescence from every state of `sa` reaches a quiet part of it: a state that
/// shows no output but quiescence, loops on quiescence, and has the same input transitions
/// (what [`classic_table`] builds; the suspension automata of LTSs satisfy the weaker
/// inclusion of `super::domain`).
pub fn quiescence_keeps_inputs(sa: &SuspensionAutomaton) -> bool {
    let delta = sa.quiescence();
    sa.states().all(|q| {
        sa.after(q, delta).is_none_or(|t| {
            sa.alphabet
                .inputs()
                .all(|a| sa.after(q, a) == sa.after(t, a))
        })
    })
}

/// [`classic_table`] of a suspension automaton.
pub fn classic_sa(sa: &SuspensionAutomaton) -> SuspensionAutomaton {
    classic_table(&Table::from_sa(sa)).build(&sa.name)
}

/// Whether `sa` is in the classic domain: every state reached by quiescence shows only
/// quiescence, which loops on it.
pub fn is_classic(sa: &SuspensionAutomaton) -> bool {
    let delta = sa.quiescence();
    sa.states().all(|q| {
        sa.after(q, delta).is_none_or(|t| {
            sa.after(t, delta) == Some(t)
                && sa
                    .enabled(t)
                    .iter()
                    .all(|&(l, _)| l == delta || !sa.alphabet.is_output(l))
        })
    })
}

/// Van den Bos Fig. 2.1a: the bundled reconstruction shared by every unit test
/// (`models/vdbos_fig2_1.aut`); thesis state k is `StateId(k - 1)`.
pub fn fig_2_1() -> SuspensionAutomaton {
    crate::analysis::compatibility::tests::vdbos_fig_2_1()
}

/// Conforming to Fig. 2.1 (Example 2.8): one state implements both 2 and 3, one both 4 and 5.
pub fn fig_2_1_conforming() -> SuspensionAutomaton {
    suspension_from_marked(
        "fig2.1b",
        4,
        &[
            (0, "!x", 1),
            (0, "?a", 1),
            (1, "!w", 3),
            (1, "?a", 2),
            (2, "!y", 3),
            (2, "?a", 2),
            (3, "!z", 3),
            (3, "?a", 3),
        ],
    )
    .unwrap()
}

/// Faulty for Fig. 2.1: after `a w x` (specification state 6, quiescent) it outputs `z`.
pub fn fig_2_1_faulty() -> SuspensionAutomaton {
    suspension_from_marked(
        "fig2.1c",
        6,
        &[
            (0, "!x", 1),
            (0, "?a", 2),
            (1, "!w", 3),
            (1, "?a", 4),
            (2, "!w", 5),
            (2, "?a", 4),
            (3, "!z", 3),
            (3, "?a", 3),
            (4, "!y", 3),
            (4, "?a", 4),
            (5, "!z", 3),
            (5, "!x", 3),
            (5, "?a", 5),
        ],
    )
    .unwrap()
}

/// Van den Bos Fig. 2.8a: states 2 and 3 are not certainly reachable.
pub fn fig_2_8() -> SuspensionAutomaton {
    suspension_from_marked(
        "fig2.8",
        3,
        &[(0, "!x", 1), (0, "!y", 2), (1, "!w", 1), (2, "!z", 2)],
    )
    .unwrap()
}

/// Fig. 2.8c: omits state 2 and shows `y` after `yzz`; three specified states.
pub fn fig_2_8_faulty() -> SuspensionAutomaton {
    let sa =
        suspension_from_marked("fig2.8c", 3, &[(0, "!y", 1), (1, "!z", 2), (2, "!z", 0)]).unwrap();
    with_alphabet(&sa, &fig_2_8())
}

/// Rebuilds `sa` over the alphabet of `like` (same names, ids of `like`).
pub fn with_alphabet(sa: &SuspensionAutomaton, like: &SuspensionAutomaton) -> SuspensionAutomaton {
    let triples = sa
        .triples()
        .map(|(q, l, t)| (q, label_in(like, sa, l), t))
        .collect();
    SuspensionAutomaton::new(
        sa.name.clone(),
        like.alphabet.clone(),
        sa.state_names().to_vec(),
        sa.initial(),
        triples,
    )
    .unwrap()
}

/// A specification in the spirit of van den Bos Fig. 2.9: every pair of states is compatible,
/// and the shortest counterexample of [`fig_2_9_faulty`] is `yyxyyxyyxyyx`, of length
/// `|S|·|I|_S = 4·3 = 12`.
pub fn fig_2_9() -> SuspensionAutomaton {
    suspension_from_marked(
        "fig2.9",
        4,
        &[
            (0, "!x", 1),
            (0, "!y", 1),
            (1, "!x", 2),
            (1, "!y", 2),
            (2, "!x", 3),
            (2, "!y", 3),
            (3, "!y", 0),
        ],
    )
    .unwrap()
}

/// The three-state implementation `yyx` cycle of Fig. 2.9.
pub fn fig_2_9_faulty() -> SuspensionAutomaton {
    let sa =
        suspension_from_marked("fig2.9b", 3, &[(0, "!y", 1), (1, "!y", 2), (2, "!x", 0)]).unwrap();
    with_alphabet(&sa, &fig_2_9())
}

/// The bundled models of `models/` the ioco tests sweep (figures, LTSs with internal steps and
/// quiescence, one Mealy machine).
pub const BUNDLED_MODELS: [&str; 8] = [
    "vdbos_fig2_1.aut",
    "vdbos_fig3_1.aut",
    "everest_s.aut",
    "tea_machine.dot",
    "coffeemachine.dot",
    "vending.aut",
    "atm_withdrawal.aut",
    "selfkicking_coffee.aut",
];

/// A bundled model (file name under `models/`) and the suspension automaton it is tested against.
pub fn bundled_model(file: &str) -> (crate::model::Model, SuspensionAutomaton) {
    let path = format!("{}/models/{file}", env!("CARGO_MANIFEST_DIR"));
    let model = crate::format::load_model(&path, &crate::format::LoadOptions::default()).unwrap();
    let sa = super::suspension_for(&model, &path).unwrap();
    (model, sa)
}
