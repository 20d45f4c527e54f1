//! From a labelled transition system to its suspension automaton (TorX thesis Sec. 2.2,
//! Def. 2.2.12), with the divergence strategies of TorX thesis Sec. 4.1.
//!
//! # Construction
//!
//! 1. **Quiescence is made explicit.** A state is *quiescent* when it enables no output and no
//!    internal step; it gets a δ self-loop (δ is the alphabet's quiescence label, `delta` if the
//!    LTS has none, or a fresh `delta_1`, ... if `delta` is taken). Explicit δ transitions in the
//!    LTS (transitions labelled with the alphabet's quiescence label, e.g. `delta` in `.aut`) are
//!    honoured as written: a state with an explicit δ transition takes exactly those as its
//!    quiescence and gets no implicit self-loop.
//! 2. **Determinisation over reachable subsets.** States of the result are the non-empty,
//!    τ-closed sets of LTS states reached by suspension traces: the initial state is the τ-closure
//!    of the initial LTS state and `P --µ--> closure({s' | s ∈ P, s --µ--> s'})` for every input,
//!    output and δ (all internal labels count as τ). Only reachable subsets are built. States are
//!    numbered in breadth-first order with labels explored in label-id order, and named after
//!    their members, e.g. `{s0,s2}`, so the output is reproducible.
//! 3. **Budget.** More than [`SuspensionOptions::max_subsets`] subsets stops the construction with
//!    [`ModelError::Budget`] instead of exhausting memory.
//!
//! # Divergence (τ-cycles)
//!
//! A state is *divergent* when it lies on a cycle of internal steps (found with Tarjan's strongly
//! connected components on the τ-graph; a τ self-loop counts).
//!
//! * [`Divergence::Fair`] (default; TorX thesis Sec. 4.1.2, "avoid looping"): a τ-cycle is
//!   eventually left, so divergent states are not quiescent (they have a τ step). The one
//!   exception is a set that would otherwise be blocking: when no member enables an output or δ,
//!   every member has a τ step inside the set, so the set runs into a τ-cycle that offers no output
//!   at all (a livelock). Such a system never produces output, which the tester observes as
//!   quiescence; the set then gets δ to the input-only copies of its divergent members, exactly as
//!   under `QuiescentCopy`. This is the only way the result could be blocking, so the result is
//!   always a valid, non-blocking [`SuspensionAutomaton`].
//! * [`Divergence::QuiescentCopy`] (TorX thesis Sec. 4.1.4, strategy 3, after Stokkink et al.):
//!   every divergent state `s` gets a δ transition to a copy `d-s` that keeps only the input
//!   transitions of `s` (same targets) and a δ self-loop, but none of its outputs or internal
//!   steps. After observing quiescence the system may not produce output until an input is
//!   applied, which a plain δ self-loop on `s` would not express.
//!
//! The traces of the result are the suspension traces of the LTS (TorX thesis, remark after
//! Def. 2.2.12); the unit tests check this by brute force on random LTSs.

use super::alphabet::{Alphabet, LabelKind};
use super::automaton::SuspensionAutomaton;
use super::error::ModelError;
use super::ids::{LabelId, StateId, id32};
use super::lts::Lts;
use super::naming::{fresh_name, make_unique};
use indexmap::IndexSet;
use petgraph::algo::tarjan_scc;
use petgraph::graph::{DiGraph, NodeIndex};

/// Default for [`SuspensionOptions::max_subsets`].
pub const DEFAULT_MAX_SUBSETS: usize = 1_000_000;

/// How divergent states (states on a τ-cycle) are treated; see the module documentation.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Divergence {
    /// τ-cycles are left eventually: divergent states are not quiescent (TorX thesis Sec. 4.1.2).
    #[default]
    Fair,
    /// Divergent states get δ to an input-only copy (TorX thesis Sec. 4.1.4, strategy 3).
    QuiescentCopy,
}

/// Options of [`lts_to_suspension`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SuspensionOptions {
    /// Treatment of divergent states.
    pub divergence: Divergence,
    /// Largest number of subsets (states of the result) the construction may build.
    pub max_subsets: usize,
}

impl Default for SuspensionOptions {
    fn default() -> Self {
        SuspensionOptions {
            divergence: Divergence::Fair,
            max_subsets: DEFAULT_MAX_SUBSETS,
        }
    }
}

/// For every state of `lts`, whether it lies on a cycle of internal steps.
pub fn divergent_states(lts: &Lts) -> Vec<bool> {
    let n = lts.num_states();
    let mut graph: DiGraph<(), ()> = DiGraph::with_capacity(n, 0);
    for _ in 0..n {
        graph.add_node(());
    }
    let mut divergent = vec![false; n];
    for (s, l, t) in lts.triples() {
        if lts.alphabet.is_internal(l) {
            if s == t {
                divergent[s.index()] = true;
            }
            graph.add_edge(NodeIndex::new(s.index()), NodeIndex::new(t.index()), ());
        }
    }
    for scc in tarjan_scc(&graph) {
        if scc.len() > 1 {
            for v in scc {
                divergent[v.index()] = true;
            }
        }
    }
    divergent
}

/// The LTS with quiescence made explicit, over states `0..n` (the LTS states) and `n..` (the
/// input-only copies of divergent states). Labels are those of the result alphabet.
struct Explicit {
    names: Vec<String>,
    tau: Vec<Vec<u32>>,
    visible: Vec<Vec<(LabelId, u32)>>,
    copy: Vec<Option<u32>>,
}

/// The alphabet of the suspension automaton: the observable labels of `lts` in their order, plus
/// the quiescence label, and the map from LTS label ids to result label ids.
fn observable_alphabet(lts: &Lts) -> Result<(Alphabet, Vec<Option<LabelId>>, LabelId), ModelError> {
    let old = &lts.alphabet;
    let mut alphabet = Alphabet::new();
    let mut map = vec![None; old.len()];
    for l in old.ids() {
        let kind = old.kind(l);
        if kind == LabelKind::Internal {
            continue;
        }
        map[l.index()] = Some(if old.quiescence() == Some(l) {
            alphabet.set_quiescence(old.name(l))?
        } else {
            alphabet.add(old.name(l), kind)?
        });
    }
    let delta = match alphabet.quiescence() {
        Some(d) => d,
        None => {
            let name = fresh_name("delta", |n| old.get(n).is_some());
            alphabet.set_quiescence(&name)?
        }
    };
    Ok((alphabet, map, delta))
}

fn make_explicit(
    lts: &Lts,
    label_map: &[Option<LabelId>],
    delta: LabelId,
    divergence: Divergence,
    alphabet: &Alphabet,
) -> Explicit {
    let n = lts.num_states();
    let divergent = divergent_states(lts);
    let mut names: Vec<String> = lts.state_names().to_vec();
    let mut copy = vec![None; n];
    for s in 0..n {
        if divergent[s] {
            copy[s] = Some(id32(names.len()));
            names.push(format!("d-{}", lts.state_name(StateId(id32(s)))));
        }
    }
    let total = names.len();
    let mut tau = vec![Vec::new(); total];
    let mut visible = vec![Vec::new(); total];
    for s in lts.states() {
        let mut has_output = false;
        let mut has_internal = false;
        let mut has_delta = false;
        for &(l, t) in lts.transitions_from(s) {
            match label_map[l.index()] {
                None => {
                    has_internal = true;
                    tau[s.index()].push(t.0);
                }
                Some(m) => {
                    has_output |= alphabet.is_output(m);
                    has_delta |= m == delta;
                    visible[s.index()].push((m, t.0));
                }
            }
        }
        if !has_delta && !has_output && !has_internal {
            visible[s.index()].push((delta, s.0));
        }
        if let Some(c) = copy[s.index()] {
            let inputs: Vec<(LabelId, u32)> = visible[s.index()]
                .iter()
                .copied()
                .filter(|&(l, _)| alphabet.is_input(l))
                .collect();
            let cv = &mut visible[c as usize];
            cv.extend(inputs);
            cv.push((delta, c));
            if divergence == Divergence::QuiescentCopy {
                visible[s.index()].push((delta, c));
            }
        }
    }
    for v in &mut visible {
        v.sort_unstable();
        v.dedup();
    }
    Explicit {
        names,
        tau,
        visible,
        copy,
    }
}

/// τ-closure of a set of states, as a sorted vector. `mark`/`generation` avoid clearing a
/// visited set per call.
fn closure(
    ex: &Explicit,
    seeds: &[u32],
    mark: &mut [u32],
    generation: &mut u32,
    out: &mut Vec<u32>,
) {
    *generation += 1;
    let g = *generation;
    out.clear();
    for &s in seeds {
        if mark[s as usize] != g {
            mark[s as usize] = g;
            out.push(s);
        }
    }
    let mut i = 0;
    while i < out.len() {
        let s = out[i] as usize;
        for &t in &ex.tau[s] {
            if mark[t as usize] != g {
                mark[t as usize] = g;
                out.push(t);
            }
        }
        i += 1;
    }
    out.sort_unstable();
}

/// The suspension automaton of `lts` (TorX thesis Def. 2.2.12); see the module documentation.
pub fn lts_to_suspension(
    lts: &Lts,
    options: &SuspensionOptions,
) -> Result<SuspensionAutomaton, ModelError> {
    let (alphabet, label_map, delta) = observable_alphabet(lts)?;
    let ex = make_explicit(lts, &label_map, delta, options.divergence, &alphabet);
    let budget_error = || ModelError::Budget {
        what: format!(
            "the number of subsets in the suspension automaton of `{}`",
            lts.name
        ),
        budget: options.max_subsets,
        advice: "the LTS is too nondeterministic to determinise: reduce nondeterminism or \
                 internal steps (e.g. hide fewer inputs), or raise the subset budget"
            .into(),
    };
    let mut mark = vec![0u32; ex.names.len()];
    let mut generation = 0u32;
    // Subsets in discovery order; the index of a subset is its state id.
    let mut subsets: IndexSet<Vec<u32>> = IndexSet::new();
    let mut triples: Vec<(StateId, LabelId, StateId)> = Vec::new();

    let mut set = Vec::new();
    closure(
        &ex,
        &[lts.initial().0],
        &mut mark,
        &mut generation,
        &mut set,
    );
    if options.max_subsets == 0 {
        return Err(budget_error());
    }
    subsets.insert(set.clone());

    let mut members: Vec<u32> = Vec::new();
    let mut edges: Vec<(LabelId, u32)> = Vec::new();
    let mut targets: Vec<u32> = Vec::new();
    let mut next = 0usize;
    while let Some(current) = subsets.get_index(next) {
        let from = StateId(id32(next));
        members.clear();
        members.extend_from_slice(current);
        edges.clear();
        for &s in &members {
            edges.extend_from_slice(&ex.visible[s as usize]);
        }
        edges.sort_unstable();
        edges.dedup();
        let has_output = edges.iter().any(|&(l, _)| alphabet.is_output(l));
        let mut i = 0;
        loop {
            let l = if i < edges.len() {
                let l = edges[i].0;
                targets.clear();
                while i < edges.len() && edges[i].0 == l {
                    targets.push(edges[i].1);
                    i += 1;
                }
                l
            } else if !has_output && i == edges.len() {
                // A livelock under fair divergence: δ to the input-only copies of the divergent
                // members (see the module documentation).
                i += 1;
                targets.clear();
                targets.extend(
                    members
                        .iter()
                        .filter_map(|&s| ex.copy.get(s as usize).copied().flatten()),
                );
                if targets.is_empty() {
                    break;
                }
                delta
            } else {
                break;
            };
            closure(&ex, &targets, &mut mark, &mut generation, &mut set);
            let to = match subsets.get_index_of(&set) {
                Some(k) => k,
                None => {
                    if subsets.len() >= options.max_subsets {
                        return Err(budget_error());
                    }
                    subsets.insert_full(set.clone()).0
                }
            };
            triples.push((from, l, StateId(id32(to))));
        }
        next += 1;
    }

    let mut names: Vec<String> = subsets
        .iter()
        .map(|members| {
            let mut name = String::from("{");
            for (k, &s) in members.iter().enumerate() {
                if k > 0 {
                    name.push(',');
                }
                name.push_str(&ex.names[s as usize]);
            }
            name.push('}');
            name
        })
        .collect();
    make_unique(&mut names);
    SuspensionAutomaton::new(lts.name.clone(), alphabet, names, StateId(0), triples)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::lts_from_marked;
    use std::collections::BTreeSet;

    fn names(sa: &SuspensionAutomaton, q: StateId) -> Vec<String> {
        sa.enabled(q)
            .iter()
            .map(|&(l, t)| format!("{}->{}", sa.alphabet.name(l), sa.state_name(t)))
            .collect()
    }

    fn step(sa: &SuspensionAutomaton, q: StateId, label: &str) -> Option<StateId> {
        sa.after(q, sa.alphabet.get(label)?)
    }

    /// TorX thesis Fig. 3.4/4.1 style: the self-kicking coffee machine. State 0 takes ?coin to 1;
    /// 1 --τ--> 2 --τ--> 3 --τ--> 1 (the hidden kicks), 2 --!return--> 0 (the thesis writes
    /// !coin; our alphabets keep input and output names apart), and 1 and 3 offer ?tea and ?cof.
    fn self_kicking() -> Lts {
        lts_from_marked(
            "coffee",
            6,
            &[
                (0, "?coin", 1),
                (1, "tau", 2),
                (2, "tau", 3),
                (3, "tau", 1),
                (2, "!return", 0),
                (1, "?tea", 4),
                (3, "?cof", 5),
                (4, "!teacup", 0),
                (5, "!coffee", 0),
            ],
        )
        .unwrap()
    }

    #[test]
    fn fair_divergence_makes_cycle_states_not_quiescent() {
        let sa = lts_to_suspension(&self_kicking(), &SuspensionOptions::default()).unwrap();
        let q = step(&sa, sa.initial(), "coin").unwrap();
        assert_eq!(sa.state_name(q), "{1,2,3}");
        let out: Vec<_> = sa
            .outputs_enabled(q)
            .map(|l| sa.alphabet.name(l).to_owned())
            .collect();
        // Sec. 4.1.2: out({1,2,3}) = {!coin}; δ after ?coin fails.
        assert_eq!(out, ["return"]);
        assert_eq!(sa.inputs_enabled(q).count(), 2);
        assert!(step(&sa, q, "delta").is_none());
        // The initial state is quiescent (no output, no τ).
        assert_eq!(step(&sa, sa.initial(), "delta"), Some(sa.initial()));
    }

    #[test]
    fn quiescent_copy_divergence_follows_strategy_three() {
        let options = SuspensionOptions {
            divergence: Divergence::QuiescentCopy,
            ..Default::default()
        };
        let sa = lts_to_suspension(&self_kicking(), &options).unwrap();
        let q = step(&sa, sa.initial(), "coin").unwrap();
        let out: BTreeSet<_> = sa
            .outputs_enabled(q)
            .map(|l| sa.alphabet.name(l).to_owned())
            .collect();
        // Sec. 4.1.4: out({1,2,3}) = {!coin, δ}, after ?coin·δ only δ and the inputs remain.
        assert_eq!(
            out,
            BTreeSet::from(["return".to_owned(), "delta".to_owned()])
        );
        let d = step(&sa, q, "delta").unwrap();
        assert_eq!(sa.state_name(d), "{d-1,d-2,d-3}");
        assert_eq!(names(&sa, d).len(), 3);
        assert_eq!(step(&sa, d, "delta"), Some(d));
        assert!(step(&sa, d, "return").is_none());
        let tea = step(&sa, d, "tea").unwrap();
        assert_eq!(sa.state_name(tea), "{4}");
        assert_eq!(sa.state_name(step(&sa, d, "cof").unwrap()), "{5}");
    }

    #[test]
    fn livelock_is_observed_as_quiescence_under_fair_divergence() {
        // 0 --?a--> 1, 1 --τ--> 1, 1 --?b--> 0: after ?a nothing can ever be output.
        let lts = lts_from_marked("l", 2, &[(0, "?a", 1), (1, "tau", 1), (1, "?b", 0)]).unwrap();
        let sa = lts_to_suspension(&lts, &SuspensionOptions::default()).unwrap();
        let q = step(&sa, sa.initial(), "a").unwrap();
        let d = step(&sa, q, "delta").unwrap();
        assert_eq!(sa.state_name(d), "{d-1}");
        assert_eq!(step(&sa, d, "delta"), Some(d));
        assert_eq!(step(&sa, d, "b"), Some(sa.initial()));
        assert!(sa.blocking_state().is_none());
    }

    #[test]
    fn nondeterminism_and_tau_are_resolved_by_subsets() {
        // TorX-style vending machine: ?coin leads nondeterministically to a state offering !tea
        // and (via τ) to one offering !coffee.
        let lts = lts_from_marked(
            "v",
            5,
            &[
                (0, "?coin", 1),
                (0, "?coin", 2),
                (2, "tau", 3),
                (1, "!tea", 4),
                (3, "!coffee", 4),
                (4, "?take", 0),
            ],
        )
        .unwrap();
        let sa = lts_to_suspension(&lts, &SuspensionOptions::default()).unwrap();
        assert_eq!(sa.num_states(), 3);
        let q = step(&sa, sa.initial(), "coin").unwrap();
        assert_eq!(sa.state_name(q), "{1,2,3}");
        assert_eq!(names(&sa, q), ["tea->{4}", "coffee->{4}"]);
        // State 4 is quiescent, 1,2,3 are not.
        let done = step(&sa, q, "tea").unwrap();
        assert_eq!(step(&sa, done, "delta"), Some(done));
        assert_eq!(sa.quiescence(), sa.alphabet.get("delta").unwrap());
    }

    #[test]
    fn explicit_delta_is_honoured() {
        // 0 has an explicit δ to 1 (not a self-loop) and no outputs; 1 is implicitly quiescent.
        let lts = lts_from_marked("e", 2, &[(0, "delta", 1), (0, "?a", 0), (1, "?a", 0)]).unwrap();
        let sa = lts_to_suspension(&lts, &SuspensionOptions::default()).unwrap();
        let d = step(&sa, sa.initial(), "delta").unwrap();
        assert_eq!(sa.state_name(d), "{1}");
        assert_eq!(step(&sa, d, "delta"), Some(d));
    }

    #[test]
    fn a_fresh_quiescence_label_avoids_taken_names() {
        // `lts_from_marked` makes `delta` the quiescence label, so build the alphabet by hand.
        let mut alphabet = Alphabet::new();
        let x = alphabet.add("delta", LabelKind::Input).unwrap();
        let lts = Lts::new(
            "f",
            alphabet,
            vec!["s".into()],
            StateId(0),
            vec![(StateId(0), x, StateId(0))],
        )
        .unwrap();
        let sa = lts_to_suspension(&lts, &SuspensionOptions::default()).unwrap();
        assert_eq!(sa.alphabet.name(sa.quiescence()), "delta_1");
        assert!(sa.alphabet.is_input(sa.alphabet.get("delta").unwrap()));
    }

    #[test]
    fn the_subset_budget_fails_cleanly() {
        // The classic (n+1)-state NFA whose determinisation has 2^n subsets, over outputs.
        let n = 8u32;
        let mut edges = vec![(0, "!a", 0), (0, "!b", 0), (0, "!a", 1)];
        for k in 1..n {
            edges.push((k, "!a", k + 1));
            edges.push((k, "!b", k + 1));
        }
        let lts = lts_from_marked("blowup", n as usize + 1, &edges).unwrap();
        let small = SuspensionOptions {
            max_subsets: 50,
            ..Default::default()
        };
        let err = lts_to_suspension(&lts, &small).unwrap_err();
        assert!(matches!(err, ModelError::Budget { budget: 50, .. }));
        assert!(err.to_string().contains("raise the subset budget"));
        let sa = lts_to_suspension(&lts, &SuspensionOptions::default()).unwrap();
        // Every subset of {1..n} together with 0, plus {n} reached by δ.
        assert_eq!(sa.num_states(), (1 << n) + 1);
    }
}
