//! The worked examples of the sources (EVEREST Fig. 1 and the ATM case study of seed 003 Sec. 3)
//! and seeded random models cross-checked against naive checkers that enumerate traces up to a
//! length bound.

use super::*;
use crate::audit::SplitMix64;
use crate::model::{Alphabet, LabelKind, Lts, Mealy, StateId, lts_from_marked, mealy_from_named};
use std::collections::BTreeSet;

fn lts(name: &str, n: usize, edges: &[(u32, &str, u32)]) -> Lts {
    lts_from_marked(name, n, edges).unwrap()
}

fn ioco_with(spec: &Lts, imp: &Lts, missing: MissingInputs, uioco: bool) -> IocoVerdict {
    check_ioco(
        Observable::Lts(spec),
        Observable::Lts(imp),
        &IocoOptions {
            uioco,
            missing_inputs: missing,
            ..Default::default()
        },
    )
    .unwrap()
}

fn cex_text(v: &IocoVerdict) -> String {
    match v {
        IocoVerdict::Conforms => "conforms".into(),
        IocoVerdict::Fails(c) => {
            let mut t = c.trace.clone();
            t.push(c.output.clone());
            t.join(" ")
        }
    }
}

fn conf(spec: &Lts, imp: &Lts, d: Option<&str>, f: Option<&str>) -> LanguageVerdict {
    let d = d.map(|t| Regex::parse(t, "D").unwrap());
    let f = f.map(|t| Regex::parse(t, "F").unwrap());
    check_language(
        Observable::Lts(spec),
        Observable::Lts(imp),
        d.as_ref().map(Language::Regex),
        f.as_ref().map(Language::Regex),
    )
    .unwrap()
}

// ---------------------------------------------------------------------------------------------
// EVEREST Fig. 1: specification S over L_I = {a, b}, L_U = {x}, implementations R and Q. The
// figure is not in the text; these models keep what Sec. 3.1-3.2 say about them: R fails ioco,
// found by every test of T1 = {b, aa, ba, aaa, ab, ax, abb, axb}; Q passes ioco but fails
// conf(D, ∅) for D = (a|b)*ax, found by the tests ababax and abaabax.

fn everest_s() -> Lts {
    lts(
        "S",
        4,
        &[
            (0, "?a", 1),
            (0, "?b", 3),
            (1, "!x", 2),
            (1, "?b", 2),
            (1, "?a", 3),
            (2, "!x", 0),
            (2, "?b", 3),
            (3, "?b", 0),
            (3, "?a", 3),
        ],
    )
}

fn everest_r() -> Lts {
    // After ?b it produces x (S is quiescent); after ?a !x and after ?a ?b it is quiescent (S
    // produces x).
    lts(
        "R",
        4,
        &[
            (0, "?a", 1),
            (0, "?b", 3),
            (1, "!x", 2),
            (1, "?b", 2),
            (1, "?a", 3),
            (2, "?a", 2),
            (2, "?b", 3),
            (3, "!x", 0),
            (3, "?b", 0),
            (3, "?a", 3),
        ],
    )
}

fn everest_q() -> Lts {
    // S, plus behaviour after ?a ?b ?a, which S does not specify.
    lts(
        "Q",
        7,
        &[
            (0, "?a", 1),
            (0, "?b", 3),
            (1, "!x", 2),
            (1, "?b", 2),
            (1, "?a", 3),
            (2, "!x", 0),
            (2, "?b", 3),
            (3, "?b", 0),
            (3, "?a", 3),
            (2, "?a", 4),
            (4, "?b", 5),
            (5, "?a", 6),
            (6, "!x", 0),
            (4, "?a", 4),
        ],
    )
}

#[test]
fn everest_fig1_ioco() {
    let (s, r, q) = (everest_s(), everest_r(), everest_q());
    let v = ioco_with(&s, &r, MissingInputs::Reject, false);
    assert_eq!(cex_text(&v), "?b !x");
    // Every test of EVEREST's suite T1 = {b, aa, ba, aaa, ab, ax, abb, axb} (and so of JTorX's
    // T2 = {b, ax, ab} ⊆ T1) reveals a fault of R: after it, R can show an output that S forbids.
    for t in ["b", "aa", "ba", "aaa", "ab", "ax", "abb", "axb"] {
        let names: Vec<String> = t
            .chars()
            .map(|c| {
                if c == 'x' {
                    "!x".into()
                } else {
                    format!("?{c}")
                }
            })
            .collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let (out_s, out_r) = (
            naive::outputs_after(&s, &names).unwrap(),
            naive::outputs_after(&r, &names).unwrap(),
        );
        assert!(!out_r.is_subset(&out_s), "{t}: {out_r:?} vs {out_s:?}");
    }
    assert!(ioco_with(&s, &q, MissingInputs::Reject, false).conforms());
    assert!(conf(&s, &q, None, None).conforms());
}

#[test]
fn everest_fig1_language_conformance_finds_what_ioco_misses() {
    let (s, q) = (everest_s(), everest_q());
    let LanguageVerdict::Fails(w) = conf(&s, &q, Some("(a|b)* a x"), None) else {
        panic!("Q must fail conf(D, ∅)")
    };
    assert_eq!(w.trace.join(" "), "?a ?b ?a ?b ?a !x");
    assert_eq!(w.violation, Violation::DesiredNotInSpecification);
    // Both tests EVEREST lists, ababax and abaabax, are such witnesses.
    for t in ["?a ?b ?a ?b ?a !x", "?a ?b ?a ?a ?b ?a !x"] {
        let t: Vec<String> = t.split(' ').map(String::from).collect();
        assert!(
            naive::has_trace(&q, &t) && !naive::has_trace(&s, &t),
            "{t:?}"
        );
    }
    // Lemma 1: with F = ∅ and D = otr(S)·L_U restricted to what the implementation shows, the
    // language relation reproduces ioco's verdict on R.
    let r = everest_r();
    let LanguageVerdict::Fails(w) = conf(&s, &r, Some(".* x"), None) else {
        panic!("R must fail")
    };
    assert_eq!(w.trace.join(" "), "?b !x");
}

// ---------------------------------------------------------------------------------------------
// The ATM case study (seed 003 Sec. 3.3): specification A (withdrawal, Fig. 4), B (with transfer
// and statement, Fig. 5), IUT Z (Fig. 6: after an insufficient balance the user enters a new
// amount, state s7) and IUT Y (Fig. 7: money without checking the amount).

/// Inserting the card and the PIN, checked or rejected (every ATM model starts so).
const ATM_LOGIN: [(u32, &str, u32); 4] = [
    (0, "?ic", 1),
    (1, "?pin", 2),
    (2, "!cpi", 3),
    (2, "!bpi", 1),
];

/// A model named `name` with `n` states: [`ATM_LOGIN`] and then `edges`.
fn atm(name: &str, n: usize, edges: &[&[(u32, &str, u32)]]) -> Lts {
    let all: Vec<(u32, &str, u32)> = std::iter::once(&ATM_LOGIN[..])
        .chain(edges.iter().copied())
        .flatten()
        .copied()
        .collect();
    lts(name, n, &all)
}

/// A's withdrawal: an amount, then money and a receipt, or "insufficient" back to the menu.
const ATM_WITHDRAWAL: [(u32, &str, u32); 5] = [
    (3, "?wd", 4),
    (4, "?amo", 5),
    (5, "!mon", 6),
    (5, "!ins", 3),
    (6, "!rec", 0),
];

fn atm_a() -> Lts {
    atm("A", 7, &[&ATM_WITHDRAWAL])
}

fn atm_b() -> Lts {
    let transfer_and_statement = [
        (3, "?tra", 7),
        (7, "?acc", 8),
        (8, "?amo", 9),
        (9, "!rec", 3),
        (3, "?sta", 10),
        (10, "!sho", 3),
    ];
    atm("B", 11, &[&ATM_WITHDRAWAL, &transfer_and_statement])
}

fn atm_z() -> Lts {
    atm(
        "Z",
        11,
        &[&[
            (3, "?wd", 4),
            (4, "?amo", 5),
            (5, "!mon", 6),
            (5, "!ins", 7),
            (7, "?amo", 5),
            (6, "!rec", 0),
            (3, "?tra", 8),
            (8, "?acc", 9),
            (9, "?amo", 10),
            (10, "!rec", 3),
        ]],
    )
}

fn atm_y() -> Lts {
    atm("Y", 7, &[&[(3, "?wd", 4), (4, "!mon", 6), (6, "!rec", 0)]])
}

#[test]
fn atm_withdrawal_conf_finds_a_fault_ioco_misses() {
    let (a, z) = (atm_a(), atm_z());
    // EVEREST's ioco treats inputs Z refuses as unobservable: Z conforms.
    assert!(ioco_with(&a, &z, MissingInputs::Cut, false).conforms());
    // By default we say why the verdict is not defined: Z refuses ?wd in state 7.
    let err = check_ioco(
        Observable::Lts(&a),
        Observable::Lts(&z),
        &IocoOptions::default(),
    )
    .unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("state `{7}`") && msg.contains("input `wd`"),
        "{msg}"
    );
    assert!(
        msg.contains("?ic ?pin !cpi ?wd ?amo !ins"),
        "the message names the trace: {msg}"
    );
    // conf(D, ∅) with D = {ic pin cpi wd amo ins amo} finds the fault.
    let LanguageVerdict::Fails(w) = conf(&a, &z, Some("ic pin cpi wd amo ins amo"), None) else {
        panic!("Z must fail conf(D, ∅)")
    };
    assert_eq!(w.trace.join(" "), "?ic ?pin !cpi ?wd ?amo !ins ?amo");
    assert_eq!(w.violation, Violation::DesiredNotInSpecification);
    // The same D given as an automaton: its traces (prefix-closed) are the desired behaviour.
    let d_model = lts(
        "D",
        8,
        &[
            (0, "?ic", 1),
            (1, "?pin", 2),
            (2, "!cpi", 3),
            (3, "?wd", 4),
            (4, "?amo", 5),
            (5, "!ins", 6),
            (6, "?amo", 7),
        ],
    );
    let v = check_language(
        Observable::Lts(&a),
        Observable::Lts(&z),
        Some(Language::Traces(Observable::Lts(&d_model))),
        None,
    )
    .unwrap();
    let LanguageVerdict::Fails(w2) = v else {
        panic!("Z must fail")
    };
    assert_eq!(w2, w);
}

#[test]
fn atm_completion_with_self_loops_gives_a_false_positive() {
    let (b, z) = (atm_b(), atm_z());
    // JTorX completes Z with self-loops: after ?sta, Z stays quiescent where B shows !sho.
    let v = ioco_with(&b, &z, MissingInputs::SelfLoop, false);
    assert_eq!(cex_text(&v), "?ic ?pin !cpi ?sta delta");
    // Without the completion there is no fault (Z has no statement at all).
    assert!(ioco_with(&b, &z, MissingInputs::Cut, false).conforms());
}

#[test]
fn atm_money_without_amount_fails_ioco() {
    let v = ioco_with(&atm_a(), &atm_y(), MissingInputs::SelfLoop, false);
    assert_eq!(cex_text(&v), "?ic ?pin !cpi ?wd !mon");
    let v = ioco_with(&atm_a(), &atm_y(), MissingInputs::Cut, false);
    assert_eq!(cex_text(&v), "?ic ?pin !cpi ?wd !mon");
}

// ---------------------------------------------------------------------------------------------
// Naive checkers: explicit state sets, traces enumerated up to a bound.

mod naive {
    use super::*;

    pub type Set = BTreeSet<StateId>;

    pub fn closure(l: &Lts, set: Set) -> Set {
        let mut out = set.clone();
        let mut stack: Vec<StateId> = set.into_iter().collect();
        while let Some(s) = stack.pop() {
            for t in l
                .transitions_from(s)
                .iter()
                .filter_map(|&(m, t)| l.alphabet.is_internal(m).then_some(t))
            {
                if out.insert(t) {
                    stack.push(t);
                }
            }
        }
        out
    }

    fn stable(l: &Lts, s: StateId) -> bool {
        l.transitions_from(s)
            .iter()
            .all(|&(m, _)| !l.alphabet.is_internal(m))
    }

    /// Stable with no output (the random models have no τ-cycles, so no livelocks).
    fn quiescent(l: &Lts, s: StateId) -> bool {
        stable(l, s)
            && l.transitions_from(s)
                .iter()
                .all(|&(m, _)| !l.alphabet.is_output(m))
    }

    /// Marked names of the outputs of a set, `delta` for quiescence.
    pub fn out(l: &Lts, set: &Set) -> BTreeSet<String> {
        let mut o = BTreeSet::new();
        for &s in set {
            if quiescent(l, s) {
                o.insert("delta".to_owned());
            }
            for &(m, _) in l.transitions_from(s) {
                if l.alphabet.is_output(m) {
                    o.insert(format!("!{}", l.alphabet.name(m)));
                }
            }
        }
        o
    }

    /// Marked names of inputs: in some state (ioco) or in every stable state (uioco).
    pub fn inputs(l: &Lts, set: &Set, uioco: bool) -> BTreeSet<String> {
        let of = |s: StateId| -> BTreeSet<String> {
            l.transitions_from(s)
                .iter()
                .filter(|&&(m, _)| l.alphabet.is_input(m))
                .map(|&(m, _)| format!("?{}", l.alphabet.name(m)))
                .collect()
        };
        let union: BTreeSet<String> = set.iter().flat_map(|&s| of(s)).collect();
        if !uioco {
            return union;
        }
        let stable: Vec<StateId> = set.iter().copied().filter(|&s| stable(l, s)).collect();
        if stable.is_empty() {
            return union;
        }
        stable
            .iter()
            .map(|&s| of(s))
            .reduce(|a, b| a.intersection(&b).cloned().collect())
            .unwrap_or_default()
    }

    pub fn after(l: &Lts, set: &Set, label: &str) -> Set {
        if label == "delta" {
            return set.iter().copied().filter(|&s| quiescent(l, s)).collect();
        }
        let name = &label[1..];
        let next: Set = set
            .iter()
            .flat_map(|&s| {
                l.transitions_from(s)
                    .iter()
                    .filter(|&&(m, _)| !l.alphabet.is_internal(m) && l.alphabet.name(m) == name)
                    .map(|&(_, t)| t)
                    .collect::<Vec<_>>()
            })
            .collect();
        closure(l, next)
    }

    pub fn initial(l: &Lts) -> Set {
        closure(l, [l.initial()].into())
    }

    pub fn outputs_after(l: &Lts, trace: &[&str]) -> Option<BTreeSet<String>> {
        let mut set = initial(l);
        for t in trace {
            set = after(l, &set, t);
            if set.is_empty() {
                return None;
            }
        }
        Some(out(l, &set))
    }

    /// The LTS with a self-loop for every input of `inputs` a state does not enable.
    pub fn complete(l: &Lts, inputs: &BTreeSet<String>) -> Lts {
        let mut alphabet = l.alphabet.clone();
        let mut triples: Vec<_> = l.triples().collect();
        for name in inputs {
            let a = alphabet.add(&name[1..], LabelKind::Input).unwrap();
            for s in l.states() {
                if l.successors(s, a).next().is_none() {
                    triples.push((s, a, s));
                }
            }
        }
        Lts::new(
            l.name.clone(),
            alphabet,
            l.state_names().to_vec(),
            l.initial(),
            triples,
        )
        .unwrap()
    }

    /// The shortest ioco (uioco) counterexample length up to `bound`, enumerating the
    /// specification's (U)traces; missing implementation inputs cut the trace.
    pub fn shortest_failure(spec: &Lts, imp: &Lts, uioco: bool, bound: usize) -> Option<usize> {
        let mut best: Option<usize> = None;
        let mut frontier = vec![(initial(spec), initial(imp))];
        for depth in 0..bound {
            let mut next = Vec::new();
            for (s, i) in &frontier {
                let (os, oi) = (out(spec, s), out(imp, i));
                if oi.iter().any(|x| !os.contains(x)) {
                    best = Some(depth + 1);
                    return best;
                }
                let labels: Vec<String> = os.into_iter().chain(inputs(spec, s, uioco)).collect();
                for l in labels {
                    let (s2, i2) = (after(spec, s, &l), after(imp, i, &l));
                    if !s2.is_empty() && !i2.is_empty() {
                        next.push((s2, i2));
                    }
                }
            }
            next.sort();
            next.dedup();
            frontier = next;
        }
        best
    }

    /// Whether `trace` is a suspension trace of `l`.
    pub fn has_trace(l: &Lts, trace: &[String]) -> bool {
        let mut set = initial(l);
        for t in trace {
            set = after(l, &set, t);
            if set.is_empty() {
                return false;
            }
        }
        true
    }

    /// All suspension traces of `l` up to length `bound`, shortest first.
    pub fn traces(l: &Lts, bound: usize) -> Vec<Vec<String>> {
        let mut all = vec![Vec::new()];
        let mut frontier = vec![(Vec::<String>::new(), initial(l))];
        for _ in 0..bound {
            let mut next = Vec::new();
            for (t, set) in &frontier {
                let labels: Vec<String> = out(l, set)
                    .into_iter()
                    .chain(inputs(l, set, false))
                    .collect();
                for lab in labels {
                    let s2 = after(l, set, &lab);
                    if !s2.is_empty() {
                        let mut t2 = t.clone();
                        t2.push(lab);
                        all.push(t2.clone());
                        next.push((t2, s2));
                    }
                }
            }
            frontier = next;
        }
        all
    }
}

/// A random LTS without τ-cycles (the naive checkers do not model livelocks).
fn random_acyclic_tau_lts(rng: &mut SplitMix64, name: &str) -> Lts {
    loop {
        let l = random_lts(rng, name);
        if !crate::model::divergent_states(&l).contains(&true) {
            return l;
        }
    }
}

/// A random LTS over inputs a, b and outputs x, y, with internal steps and nondeterminism.
fn random_lts(rng: &mut SplitMix64, name: &str) -> Lts {
    let n = 1 + rng.below(4);
    let labels = ["?a", "?b", "!x", "!y", "tau"];
    let mut edges = Vec::new();
    for s in 0..n as u32 {
        for (k, l) in labels.iter().enumerate() {
            let p = if k == 4 { 1 } else { 5 };
            if rng.chance(p, 10) {
                edges.push((s, *l, rng.below(n) as u32));
                if rng.chance(1, 6) {
                    edges.push((s, *l, rng.below(n) as u32));
                }
            }
        }
    }
    // Keep every label in the alphabet, so that both models share it.
    let mut alphabet = Alphabet::new();
    for l in labels {
        match l.as_bytes()[0] {
            b'?' => alphabet.add(&l[1..], LabelKind::Input),
            b'!' => alphabet.add(&l[1..], LabelKind::Output),
            _ => alphabet.add(l, LabelKind::Internal),
        }
        .unwrap();
    }
    let triples = edges
        .iter()
        .map(|&(s, l, t)| {
            let name = l.trim_start_matches(['?', '!']);
            (StateId(s), alphabet.get(name).unwrap(), StateId(t))
        })
        .collect();
    let names = (0..n).map(|i| i.to_string()).collect();
    Lts::new(name, alphabet, names, StateId(0), triples).unwrap()
}

#[test]
fn ioco_agrees_with_trace_enumeration_on_random_models() {
    const BOUND: usize = 6;
    let mut rng = SplitMix64::new(2024);
    let mut outcomes = [0usize; 2];
    for case in 0..400 {
        let spec = random_acyclic_tau_lts(&mut rng, "s");
        let imp = if rng.chance(1, 3) {
            spec.clone()
        } else {
            random_acyclic_tau_lts(&mut rng, "i")
        };
        let uioco = case % 2 == 1;
        for missing in [MissingInputs::SelfLoop, MissingInputs::Cut] {
            let v = ioco_with(&spec, &imp, missing, uioco);
            let naive_imp = match missing {
                MissingInputs::SelfLoop => {
                    naive::complete(&imp, &["?a".into(), "?b".into()].into())
                }
                _ => imp.clone(),
            };
            let naive = naive::shortest_failure(&spec, &naive_imp, uioco, BOUND);
            match &v {
                IocoVerdict::Conforms => assert_eq!(naive, None, "case {case} {missing:?}"),
                IocoVerdict::Fails(c) => {
                    let len = c.trace.len() + 1;
                    if len <= BOUND {
                        assert_eq!(naive, Some(len), "case {case} {missing:?}: {c}");
                    } else {
                        assert_eq!(naive, None, "case {case}");
                    }
                    let t: Vec<&str> = c.trace.iter().map(String::as_str).collect();
                    let (os, oi) = (
                        naive::outputs_after(&spec, &t).unwrap(),
                        naive::outputs_after(&naive_imp, &t).unwrap(),
                    );
                    assert!(
                        oi.contains(&c.output) && !os.contains(&c.output),
                        "case {case}"
                    );
                    let allowed: BTreeSet<String> = c.allowed.iter().cloned().collect();
                    assert_eq!(allowed, os, "case {case}");
                }
            }
            outcomes[usize::from(v.conforms())] += 1;
        }
    }
    // Both verdicts occur often enough for the comparison to mean something.
    assert!(outcomes[0] > 100 && outcomes[1] > 100, "{outcomes:?}");
}

/// A random regular expression over a, b, x, y, `.`, and its naive matcher.
#[derive(Clone, Debug)]
enum Re {
    Label(&'static str),
    Any,
    Eps,
    Cat(Box<Re>, Box<Re>),
    Alt(Box<Re>, Box<Re>),
    Star(Box<Re>),
}

impl Re {
    fn random(rng: &mut SplitMix64, depth: usize) -> Re {
        let k = if depth == 0 {
            rng.below(3)
        } else {
            rng.below(7)
        };
        match k {
            0 => {
                const LABELS: [&str; 5] = ["a", "b", "x", "y", "delta"];
                Re::Label(LABELS[rng.below(LABELS.len())])
            }
            1 => Re::Any,
            2 => Re::Eps,
            3 | 4 => Re::Cat(
                Box::new(Re::random(rng, depth - 1)),
                Box::new(Re::random(rng, depth - 1)),
            ),
            5 => Re::Alt(
                Box::new(Re::random(rng, depth - 1)),
                Box::new(Re::random(rng, depth - 1)),
            ),
            _ => Re::Star(Box::new(Re::random(rng, depth - 1))),
        }
    }

    fn text(&self) -> String {
        match self {
            Re::Label(l) => (*l).to_owned(),
            Re::Any => ".".into(),
            Re::Eps => "()".into(),
            Re::Cat(a, b) => format!("({} ; {})", a.text(), b.text()),
            Re::Alt(a, b) => format!("({} | {})", a.text(), b.text()),
            Re::Star(a) => format!("({})*", a.text()),
        }
    }

    /// End positions reachable by matching `self` on `w` from each position in `from`.
    fn ends(&self, w: &[&str], from: &BTreeSet<usize>) -> BTreeSet<usize> {
        match self {
            Re::Label(l) => from
                .iter()
                .filter(|&&i| i < w.len() && w[i] == *l)
                .map(|&i| i + 1)
                .collect(),
            Re::Any => from
                .iter()
                .filter(|&&i| i < w.len())
                .map(|&i| i + 1)
                .collect(),
            Re::Eps => from.clone(),
            Re::Cat(a, b) => b.ends(w, &a.ends(w, from)),
            Re::Alt(a, b) => a.ends(w, from).union(&b.ends(w, from)).copied().collect(),
            Re::Star(a) => {
                let mut all = from.clone();
                loop {
                    let more = a.ends(w, &all);
                    let before = all.len();
                    all.extend(more);
                    if all.len() == before {
                        return all;
                    }
                }
            }
        }
    }

    fn matches(&self, w: &[&str]) -> bool {
        self.ends(w, &[0].into()).contains(&w.len())
    }
}

#[test]
fn language_conformance_agrees_with_trace_enumeration() {
    const BOUND: usize = 5;
    let mut rng = SplitMix64::new(77);
    let mut outcomes = [0usize; 2];
    for case in 0..300 {
        let spec = random_acyclic_tau_lts(&mut rng, "s");
        let imp = random_acyclic_tau_lts(&mut rng, "i");
        let d = rng.chance(2, 3).then(|| Re::random(&mut rng, 3));
        let f = rng.chance(2, 3).then(|| Re::random(&mut rng, 3));
        let dt = d.as_ref().map(Re::text);
        let ft = f.as_ref().map(Re::text);
        let v = conf(&spec, &imp, dt.as_deref(), ft.as_deref());
        let violates = |t: &Vec<String>| {
            let w: Vec<&str> = t.iter().map(|l| l.trim_start_matches(['?', '!'])).collect();
            let in_s = naive::has_trace(&spec, t);
            (d.as_ref().is_some_and(|d| d.matches(&w)) && !in_s)
                || (f.as_ref().is_some_and(|f| f.matches(&w)) && in_s)
        };
        let naive = naive::traces(&imp, BOUND).into_iter().find(|t| violates(t));
        match &v {
            LanguageVerdict::Conforms => assert_eq!(naive, None, "case {case} {dt:?} {ft:?}"),
            LanguageVerdict::Fails(w) => {
                assert!(naive::has_trace(&imp, &w.trace), "case {case}");
                assert!(violates(&w.trace), "case {case}: {w}");
                if w.trace.len() <= BOUND {
                    assert_eq!(
                        naive.map(|t| t.len()),
                        Some(w.trace.len()),
                        "case {case}: not shortest"
                    );
                } else {
                    assert_eq!(naive, None, "case {case}");
                }
            }
        }
        outcomes[usize::from(v.conforms())] += 1;
    }
    assert!(outcomes[0] > 50 && outcomes[1] > 50, "{outcomes:?}");
}

/// The observer builds the same suspension automaton as `model::lts_to_suspension`: walking both
/// in lockstep, every pair of states enables the same labels. Includes τ-cycles, livelocks and
/// explicit quiescence.
#[test]
fn observer_agrees_with_lts_to_suspension() {
    use crate::model::{SuspensionOptions, lts_to_suspension};
    let mut rng = SplitMix64::new(99);
    let mut livelocks = 0;
    for case in 0..500 {
        let mut l = random_lts(&mut rng, "m");
        if case % 5 == 0 {
            // Explicit quiescence on some states.
            let mut alphabet = l.alphabet.clone();
            let d = alphabet.set_quiescence("delta").unwrap();
            let mut triples: Vec<_> = l.triples().collect();
            triples.push((StateId(0), d, StateId(0)));
            l = Lts::new(
                "m",
                alphabet,
                l.state_names().to_vec(),
                l.initial(),
                triples,
            )
            .unwrap();
        }
        let sa = lts_to_suspension(&l, &SuspensionOptions::default()).unwrap();
        let vocab = Vocabulary::of(&[Observable::Lts(&l)]).unwrap();
        let mut obs = Observer::new(Observable::Lts(&l), &vocab, 10_000);
        let mut seen = std::collections::HashMap::new();
        let mut stack = vec![(obs.initial(), sa.initial())];
        seen.insert(obs.initial(), sa.initial());
        while let Some((o, q)) = stack.pop() {
            let mine: Vec<(String, u32)> = obs
                .enabled(o)
                .unwrap()
                .iter()
                .map(|&(lab, t)| (vocab.name(lab).to_owned(), t))
                .collect();
            let theirs: Vec<(String, StateId)> = sa
                .enabled(q)
                .iter()
                .map(|&(lab, t)| (sa.alphabet.name(lab).to_owned(), t))
                .collect();
            let (a, b): (BTreeSet<String>, BTreeSet<String>) = (
                mine.iter().map(|(n, _)| n.clone()).collect(),
                theirs.iter().map(|(n, _)| n.clone()).collect(),
            );
            assert_eq!(
                a,
                b,
                "case {case}: {} vs {}",
                obs.state_name(o),
                sa.state_name(q)
            );
            if obs.state_name(o).contains("d-") {
                livelocks += 1;
            }
            for (n, t) in &mine {
                let t2 = theirs
                    .iter()
                    .find(|(m, _)| m == n)
                    .map(|&(_, t)| t)
                    .unwrap();
                match seen.get(t) {
                    Some(&q2) => assert_eq!(q2, t2, "case {case}: not a bijection"),
                    None => {
                        seen.insert(*t, t2);
                        stack.push((*t, t2));
                    }
                }
            }
        }
        assert_eq!(seen.len(), sa.num_states(), "case {case}");
    }
    assert!(livelocks > 0, "no livelock among the random models");
}

fn random_mealy(rng: &mut SplitMix64, name: &str) -> Mealy {
    let n = 1 + rng.below(4);
    let mut edges = Vec::new();
    for s in 0..n as u32 {
        for i in ["a", "b"] {
            if rng.chance(9, 10) {
                edges.push((s, i, *rng.pick(&["0", "1"]), rng.below(n) as u32));
            }
        }
    }
    if edges.is_empty() {
        edges.push((0, "a", "0", 0));
    }
    mealy_from_named(name, n, &edges).unwrap()
}

#[test]
fn mealy_equivalence_agrees_with_word_enumeration() {
    const BOUND: usize = 7;
    let mut rng = SplitMix64::new(5);
    let mut outcomes = [0usize; 2];
    // Runs a word by name: outputs until the first undefined step, and whether it was defined.
    let run = |m: &Mealy, w: &[&str]| -> (Vec<String>, bool) {
        let mut s = m.initial();
        let mut out = Vec::new();
        for i in w {
            match m.inputs.get(i).and_then(|i| m.step(s, i)) {
                Some((t, o)) => {
                    out.push(m.outputs.name(o).to_owned());
                    s = t;
                }
                None => return (out, false),
            }
        }
        (out, true)
    };
    for case in 0..300 {
        let spec = random_mealy(&mut rng, "s");
        let imp = if rng.chance(1, 3) {
            spec.clone()
        } else {
            random_mealy(&mut rng, "i")
        };
        let v = check_mealy(&spec, &imp, false).unwrap();
        // Shortest word on which the runs differ, by enumeration.
        let mut naive = None;
        let mut words: Vec<Vec<&str>> = vec![vec![]];
        'outer: for len in 1..=BOUND {
            let mut next = Vec::new();
            for w in &words {
                for i in ["a", "b"] {
                    let mut w2 = w.clone();
                    w2.push(i);
                    if run(&spec, &w2) != run(&imp, &w2) {
                        naive = Some(len);
                        break 'outer;
                    }
                    next.push(w2);
                }
            }
            words = next;
        }
        match &v {
            MealyVerdict::Equivalent => assert_eq!(naive, None, "case {case}"),
            MealyVerdict::Distinguished { inputs, .. } => {
                let w: Vec<&str> = inputs.iter().map(String::as_str).collect();
                assert_ne!(run(&spec, &w), run(&imp, &w), "case {case}");
                if w.len() <= BOUND {
                    assert_eq!(naive, Some(w.len()), "case {case}");
                }
            }
        }
        outcomes[usize::from(v.conforms())] += 1;
    }
    assert!(outcomes[0] > 50 && outcomes[1] > 50, "{outcomes:?}");
}
