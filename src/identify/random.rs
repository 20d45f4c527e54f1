//! Seeded random suspension automata for property tests and benchmarks: reproducible from the
//! seed alone (`crate::rng::SplitMix64`, no external state), with every state non-blocking.

use super::canonical::reinterned;
use crate::model::{Alphabet, LabelId, LabelKind, StateId, SuspensionAutomaton};
use crate::rng::SplitMix64;

/// A copy of `sa` with its states renumbered by a seeded random permutation (the initial state
/// included), its labels interned in a shuffled order and its edges listed shuffled: the same
/// automaton as another model file could give it.
pub fn renumbered(sa: &SuspensionAutomaton, seed: u64) -> SuspensionAutomaton {
    let mut rng = generator(seed);
    let mut shuffle = |v: &mut Vec<usize>| {
        for i in (1..v.len()).rev() {
            let j = rng.below(i + 1);
            v.swap(i, j);
        }
    };
    let n = sa.num_states();
    let mut perm: Vec<usize> = (0..n).collect();
    shuffle(&mut perm);
    let mut label_order: Vec<usize> = (0..sa.alphabet.len()).collect();
    shuffle(&mut label_order);
    let label_order: Vec<LabelId> = label_order.into_iter().map(|k| LabelId(k as u32)).collect();
    let (alphabet, new_label) =
        reinterned(sa, &label_order).expect("the labels of a valid automaton");
    let mut names = vec![String::new(); n];
    for q in sa.states() {
        names[perm[q.index()]] = sa.state_name(q).to_owned();
    }
    let triples: Vec<(StateId, LabelId, StateId)> = sa
        .triples()
        .map(|(p, l, q)| {
            (
                StateId(perm[p.index()] as u32),
                new_label[l.index()],
                StateId(perm[q.index()] as u32),
            )
        })
        .collect();
    let mut order: Vec<usize> = (0..triples.len()).collect();
    shuffle(&mut order);
    SuspensionAutomaton::new(
        sa.name.clone(),
        alphabet,
        names,
        StateId(perm[sa.initial().index()] as u32),
        order.into_iter().map(|k| triples[k]).collect(),
    )
    .expect("a renumbering of a valid automaton")
}

/// The crate's generator, seeded so that each seed gives the sequence these models were
/// tuned with.
fn generator(seed: u64) -> SplitMix64 {
    SplitMix64::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03)
}

/// A random suspension automaton with `n` states, `inputs` inputs `a0..` and `outputs` outputs
/// `x0..` plus quiescence `delta`. Each state enables each input with probability 2/3 and between
/// one and all outputs (quiescence, when chosen, is a self-loop), with uniformly random targets.
pub fn random_suspension(
    seed: u64,
    n: usize,
    inputs: usize,
    outputs: usize,
) -> SuspensionAutomaton {
    let mut rng = generator(seed);
    let mut alphabet = Alphabet::new();
    let ins: Vec<LabelId> = (0..inputs)
        .map(|i| {
            alphabet
                .add(&format!("a{i}"), LabelKind::Input)
                .expect("fresh label")
        })
        .collect();
    let mut outs: Vec<LabelId> = (0..outputs)
        .map(|i| {
            alphabet
                .add(&format!("x{i}"), LabelKind::Output)
                .expect("fresh label")
        })
        .collect();
    let delta = alphabet.set_quiescence("delta").expect("fresh label");
    outs.push(delta);
    let mut triples = Vec::new();
    for s in 0..n {
        let q = StateId(s as u32);
        for &a in &ins {
            if rng.below(3) < 2 {
                triples.push((q, a, StateId(rng.below(n) as u32)));
            }
        }
        let k = 1 + rng.below(outs.len().min(3));
        let mut chosen: Vec<LabelId> = Vec::new();
        while chosen.len() < k {
            let x = outs[rng.below(outs.len())];
            if !chosen.contains(&x) {
                chosen.push(x);
            }
        }
        for x in chosen {
            let t = if x == delta {
                q
            } else {
                StateId(rng.below(n) as u32)
            };
            triples.push((q, x, t));
        }
    }
    let names = (0..n).map(|i| format!("s{i}")).collect();
    SuspensionAutomaton::new(
        format!("random{seed}"),
        alphabet,
        names,
        StateId(0),
        triples,
    )
    .expect("generated automata are valid suspension automata")
}

/// A random suspension automaton shaped like an embedded Mealy machine with some output
/// nondeterminism (van den Bos Sec. 3.7.1): half of the states are input states (every input
/// enabled, as in an embedded complete Mealy machine, plus a quiescence self-loop), the others output
/// states with one output (probability 3/4) or two, all targets uniformly random.
pub fn random_io_suspension(
    seed: u64,
    n: usize,
    inputs: usize,
    outputs: usize,
) -> SuspensionAutomaton {
    let mut rng = generator(seed ^ 0x5EED);
    let mut alphabet = Alphabet::new();
    let ins: Vec<LabelId> = (0..inputs.max(1))
        .map(|i| {
            alphabet
                .add(&format!("a{i}"), LabelKind::Input)
                .expect("fresh label")
        })
        .collect();
    let outs: Vec<LabelId> = (0..outputs.max(1))
        .map(|i| {
            alphabet
                .add(&format!("x{i}"), LabelKind::Output)
                .expect("fresh label")
        })
        .collect();
    let delta = alphabet.set_quiescence("delta").expect("fresh label");
    let mut triples = Vec::new();
    for s in 0..n {
        let q = StateId(s as u32);
        if rng.below(2) == 0 {
            for &a in &ins {
                triples.push((q, a, StateId(rng.below(n) as u32)));
            }
            triples.push((q, delta, q));
        } else {
            let k = if rng.below(4) < 3 { 1 } else { 2 };
            let first = rng.below(outs.len());
            for j in 0..k.min(outs.len()) {
                let x = outs[(first + j) % outs.len()];
                triples.push((q, x, StateId(rng.below(n) as u32)));
            }
        }
    }
    let names = (0..n).map(|i| format!("s{i}")).collect();
    SuspensionAutomaton::new(
        format!("random-io{seed}"),
        alphabet,
        names,
        StateId(0),
        triples,
    )
    .expect("generated automata are valid suspension automata")
}
