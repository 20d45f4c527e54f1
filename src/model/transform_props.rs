//! Property tests of the model transformations on random small models: the suspension
//! automaton has exactly the suspension traces of its LTS (computed by brute force from the
//! definitions), minimisation preserves the traces of the demonic completion and never adds
//! states, and the suspension automaton of a Mealy machine has exactly the traces of its runs.

use super::*;
use proptest::prelude::*;
use std::collections::BTreeSet;

type Trace = Vec<String>;

/// Traces up to length `k` of a deterministic step function, by depth-first enumeration.
fn traces_of<S: Clone>(
    start: S,
    labels: &[String],
    k: usize,
    step: &dyn Fn(&S, &str) -> Option<S>,
) -> BTreeSet<Trace> {
    let mut out = BTreeSet::new();
    let mut stack = vec![(start, Vec::<String>::new())];
    while let Some((s, trace)) = stack.pop() {
        if trace.len() < k {
            for l in labels {
                if let Some(t) = step(&s, l) {
                    let mut longer = trace.clone();
                    longer.push(l.clone());
                    stack.push((t, longer));
                }
            }
        }
        out.insert(trace);
    }
    out
}

fn sa_labels(sa: &SuspensionAutomaton) -> Vec<String> {
    sa.alphabet.interner().names().to_vec()
}

fn sa_traces(sa: &SuspensionAutomaton, k: usize) -> BTreeSet<Trace> {
    traces_of(sa.initial(), &sa_labels(sa), k, &|&q, l| {
        sa.after(q, sa.alphabet.get(l)?)
    })
}

/// Straces of an LTS straight from the definitions (TorX thesis Def. 2.2.12 and the module
/// documentation of `suspension`), with sets of states and no subset construction.
fn lts_straces(lts: &Lts, k: usize) -> BTreeSet<Trace> {
    let delta = lts.alphabet.quiescence();
    let closure = |set: BTreeSet<u32>| -> BTreeSet<u32> {
        let mut set = set;
        loop {
            let more: BTreeSet<u32> = set
                .iter()
                .flat_map(|&s| lts.transitions_from(StateId(s)).iter())
                .filter(|(l, _)| lts.alphabet.is_internal(*l))
                .map(|(_, t)| t.0)
                .collect();
            let before = set.len();
            set.extend(more);
            if set.len() == before {
                return set;
            }
        }
    };
    let quiescence_succ = |s: u32| -> Vec<u32> {
        let edges = lts.transitions_from(StateId(s));
        let explicit: Vec<u32> = edges
            .iter()
            .filter(|(l, _)| Some(*l) == delta)
            .map(|(_, t)| t.0)
            .collect();
        if !explicit.is_empty() {
            return explicit;
        }
        let busy = edges
            .iter()
            .any(|(l, _)| lts.alphabet.is_output(*l) || lts.alphabet.is_internal(*l));
        if busy { vec![] } else { vec![s] }
    };
    let mut labels: Vec<String> = lts
        .alphabet
        .ids()
        .filter(|&l| !lts.alphabet.is_internal(l) && Some(l) != delta)
        .map(|l| lts.alphabet.name(l).to_owned())
        .collect();
    labels.push("delta".to_owned());
    let start = closure(BTreeSet::from([lts.initial().0]));
    traces_of(start, &labels, k, &|set: &BTreeSet<u32>, l: &str| {
        let next: BTreeSet<u32> = if l == "delta" {
            set.iter().flat_map(|&s| quiescence_succ(s)).collect()
        } else {
            let id = lts.alphabet.get(l)?;
            set.iter()
                .flat_map(|&s| lts.successors(StateId(s), id))
                .map(|t| t.0)
                .collect()
        };
        let next = closure(next);
        (!next.is_empty()).then_some(next)
    })
}

/// Traces up to `k` of the demonic completion (van den Bos Def. 2.10); `None` is χ.
fn completed_traces(sa: &SuspensionAutomaton, k: usize) -> BTreeSet<Trace> {
    traces_of(Some(sa.initial()), &sa_labels(sa), k, &|q, l| {
        let l = sa.alphabet.get(l)?;
        match q {
            None => Some(None),
            Some(q) => match sa.after(*q, l) {
                Some(t) => Some(Some(t)),
                None if sa.alphabet.is_input(l) => Some(None),
                None => None,
            },
        }
    })
}

const LTS_LABELS: [&str; 6] = ["?a", "?b", "!x", "!y", "tau", "delta"];

fn arb_lts(acyclic_tau: bool, with_delta: bool) -> impl Strategy<Value = Lts> {
    (1usize..=4).prop_flat_map(move |n| {
        let label_count: usize = if with_delta { 6 } else { 5 };
        proptest::collection::vec((0..n as u32, 0..label_count, 0..n as u32), 0..10).prop_map(
            move |edges| {
                let edges: Vec<(u32, &str, u32)> = edges
                    .into_iter()
                    .map(|(s, l, t)| (s, LTS_LABELS[l], t))
                    .filter(|&(s, l, t)| !(acyclic_tau && l == "tau" && s >= t))
                    .collect();
                lts_from_marked("random", n, &edges).expect("generated ids are in range")
            },
        )
    })
}

fn arb_sa() -> impl Strategy<Value = SuspensionAutomaton> {
    const LABELS: [&str; 4] = ["?a", "?b", "!x", "delta"];
    (1usize..=5).prop_flat_map(|n| {
        proptest::collection::vec(proptest::option::weighted(0.6, 0..n as u32), n * 4).prop_map(
            move |table| {
                let mut edges = Vec::new();
                for s in 0..n {
                    for (k, label) in LABELS.iter().enumerate() {
                        if let Some(t) = table[s * 4 + k] {
                            edges.push((s as u32, *label, t));
                        }
                    }
                    if table[s * 4 + 2].is_none() && table[s * 4 + 3].is_none() {
                        edges.push((s as u32, "delta", s as u32));
                    }
                }
                suspension_from_marked("random", n, &edges).expect("non-blocking by construction")
            },
        )
    })
}

fn arb_mealy() -> impl Strategy<Value = Mealy> {
    (1usize..=4).prop_flat_map(|n| {
        proptest::collection::vec(
            proptest::option::weighted(0.8, (0..2usize, 0..n as u32)),
            n * 2,
        )
        .prop_map(move |table| {
            let mut quads = Vec::new();
            for s in 0..n {
                for (k, input) in ["a", "b"].iter().enumerate() {
                    if let Some((o, t)) = table[s * 2 + k] {
                        quads.push((s as u32, *input, ["o0", "o1"][o], t));
                    }
                }
            }
            mealy_from_named("random", n, &quads).expect("deterministic by construction")
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn suspension_traces_are_the_straces(lts in arb_lts(true, true)) {
        let k = 5;
        let expected = lts_straces(&lts, k);
        for divergence in [Divergence::Fair, Divergence::QuiescentCopy] {
            let options = SuspensionOptions { divergence, ..Default::default() };
            let sa = lts_to_suspension(&lts, &options).unwrap();
            prop_assert_eq!(&sa_traces(&sa, k), &expected);
        }
    }

    #[test]
    fn divergence_strategies_give_valid_automata(lts in arb_lts(false, false)) {
        let fair = lts_to_suspension(&lts, &SuspensionOptions::default()).unwrap();
        let copy = lts_to_suspension(
            &lts,
            &SuspensionOptions { divergence: Divergence::QuiescentCopy, ..Default::default() },
        )
        .unwrap();
        prop_assert!(fair.blocking_state().is_none());
        prop_assert!(copy.blocking_state().is_none());
        // Quiescence adds behaviour: every fair trace is allowed with quiescent copies.
        prop_assert!(sa_traces(&fair, 5).is_subset(&sa_traces(&copy, 5)));
        // After quiescence no output other than quiescence until an input (TorX Sec. 4.1).
        for q in copy.states() {
            if let Some(t) = copy.after(q, copy.quiescence()) {
                let outs: Vec<_> = copy.outputs_enabled(t).collect();
                prop_assert_eq!(outs, vec![copy.quiescence()]);
            }
        }
    }

    #[test]
    fn minimisation_preserves_completed_traces(sa in arb_sa()) {
        let min = minimize_suspension(&sa).unwrap();
        prop_assert!(min.num_states() <= sa.num_states());
        prop_assert_eq!(completed_traces(&min, 5), completed_traces(&sa, 5));
        let again = minimize_suspension(&min).unwrap();
        prop_assert_eq!(again.num_states(), min.num_states());
        let eq = equivalence_classes(&min);
        for p in min.states() {
            for q in min.states() {
                prop_assert_eq!(eq.equivalent(p, q), p == q);
            }
        }
        // Equivalent states of the original have the same completed traces from them.
        let eq = equivalence_classes(&sa);
        let from: Vec<BTreeSet<Trace>> = sa
            .states()
            .map(|s| {
                let sub = SuspensionAutomaton::new(
                    "sub",
                    sa.alphabet.clone(),
                    sa.state_names().to_vec(),
                    s,
                    sa.triples().collect(),
                )
                .unwrap();
                completed_traces(&sub, 5)
            })
            .collect();
        for p in sa.states() {
            for q in sa.states() {
                prop_assert_eq!(eq.equivalent(p, q), from[p.index()] == from[q.index()]);
            }
        }
    }

    #[test]
    fn a_suspension_automaton_read_as_lts_determinises_to_itself(sa in arb_sa()) {
        // Written out with explicit `delta` transitions (as the file writers do), a suspension
        // automaton is an LTS whose suspension automaton is the same, state for state.
        let lts = Lts::new(
            "sa",
            sa.alphabet.clone(),
            sa.state_names().to_vec(),
            sa.initial(),
            sa.triples().collect(),
        )
        .unwrap();
        let back = lts_to_suspension(&lts, &SuspensionOptions::default()).unwrap();
        let reachable = sa.reachable().iter().filter(|&&r| r).count();
        prop_assert_eq!(back.num_states(), reachable);
        prop_assert_eq!(sa_traces(&back, 6), sa_traces(&sa, 6));
    }

    #[test]
    fn mealy_suspension_traces_are_the_runs(m in arb_mealy()) {
        let sa = mealy_to_suspension(&m).unwrap();
        let k = 7;
        let traces = sa_traces(&sa, k);
        // Every trace alternates input and output, with δ only while waiting for input, and
        // the outputs are those of the Mealy run.
        for trace in &traces {
            let mut word = Vec::new();
            let mut outs = Vec::new();
            let mut waiting = true;
            for l in trace {
                if l == "delta" {
                    prop_assert!(waiting);
                } else if waiting {
                    word.push(m.inputs.get(l).unwrap());
                    waiting = false;
                } else {
                    outs.push(l.clone());
                    waiting = true;
                }
            }
            let run: Vec<String> = m
                .run(m.initial(), &word)
                .into_iter()
                .map(|o| m.outputs.name(o).to_owned())
                .collect();
            prop_assert_eq!(&run[..outs.len()], &outs[..]);
            prop_assert_eq!(run.len(), word.len());
        }
        // Conversely every defined run of up to three inputs is a trace.
        let inputs: Vec<LabelId> = m.input_ids().collect();
        let mut words: Vec<Vec<LabelId>> = vec![vec![]];
        for _ in 0..3 {
            let longer: Vec<Vec<LabelId>> = words
                .iter()
                .flat_map(|w| inputs.iter().map(move |&i| [w.clone(), vec![i]].concat()))
                .collect();
            words.extend(longer);
        }
        for w in words.iter().filter(|w| m.after(m.initial(), w).is_some()) {
            let outs = m.run(m.initial(), w);
            let trace: Trace = w
                .iter()
                .zip(&outs)
                .flat_map(|(&i, &o)| [m.inputs.name(i).to_owned(), m.outputs.name(o).to_owned()])
                .collect();
            prop_assert!(traces.contains(&trace));
        }
    }

    #[test]
    fn completion_keeps_defined_transitions(m in arb_mealy()) {
        for completion in [Completion::SelfLoop, Completion::Sink] {
            let c = complete_mealy(&m, completion).unwrap();
            prop_assert!(c.is_complete());
            for (s, i, o, t) in m.quads() {
                let (t2, o2) = c.step(s, i).unwrap();
                prop_assert_eq!((t2, c.outputs.name(o2)), (t, m.outputs.name(o)));
            }
            let extra = usize::from(completion == Completion::Sink && !m.is_complete());
            prop_assert_eq!(c.num_states(), m.num_states() + extra);
        }
    }
}
