//! The bundled figures of van den Bos (seed 002) have the properties the thesis text states about
//! them; the drawings are not in the text, so these checks are what the reconstructions in
//! `models/README.md` rest on. Thesis state `k` is `.aut` state `k - 1`.

use ncomplete::analysis::{Compatibility, equivalence_classes, merge};
use ncomplete::format::{LoadOptions, load_model};
use ncomplete::model::{Model, StateId, SuspensionAutomaton, SuspensionOptions, lts_to_suspension};
use std::path::PathBuf;

fn suspension(file: &str) -> SuspensionAutomaton {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("models")
        .join(file);
    let Model::Lts(l) = load_model(&path.to_string_lossy(), &LoadOptions::default()).unwrap()
    else {
        panic!("{file}: an LTS expected")
    };
    assert!(
        l.is_deterministic(),
        "{file} is already a suspension automaton"
    );
    // Deterministic and non-blocking already: the LTS construction adds nothing.
    let built = lts_to_suspension(&l, &SuspensionOptions::default()).unwrap();
    assert_eq!(built.num_states(), l.num_states(), "{file}");
    assert_eq!(built.num_transitions(), l.num_transitions(), "{file}");
    // The file as a suspension automaton, keeping the state numbering.
    SuspensionAutomaton::new(
        l.name.clone(),
        l.alphabet.clone(),
        l.state_names().to_vec(),
        l.initial(),
        l.triples().collect(),
    )
    .unwrap()
}

/// Thesis state `k`.
fn s(k: u32) -> StateId {
    StateId(k - 1)
}

fn compatible_pairs(sa: &SuspensionAutomaton) -> Vec<(u32, u32)> {
    Compatibility::compute(sa)
        .compatible_pairs()
        .map(|(q, r)| (q.0 + 1, r.0 + 1))
        .collect()
}

#[test]
fn figure_2_1_facts() {
    let sa = suspension("vdbos_fig2_1.aut");
    let l = |name: &str| sa.alphabet.get(name).unwrap();
    // Example 2.32: outputs overlap only for (1,4), (2,3), (4,5); out(1) ∩ out(4) = {x};
    // 1 after x = 2, 4 after x = 6.
    let out = |k| sa.outputs_enabled(s(k)).collect::<Vec<_>>();
    for p in 1..=6u32 {
        for q in p + 1..=6 {
            let common = out(p).iter().filter(|o| out(q).contains(o)).count();
            let overlapping = [(1, 4), (2, 3), (4, 5)].contains(&(p, q));
            assert_eq!(common > 0, overlapping, "outputs of {p} and {q}");
        }
    }
    assert_eq!(
        out(1)
            .iter()
            .filter(|o| out(4).contains(o))
            .collect::<Vec<_>>(),
        [&l("x")]
    );
    assert_eq!(sa.after(s(1), l("x")), Some(s(2)));
    assert_eq!(sa.after(s(4), l("x")), Some(s(6)));
    // Examples 2.32 and 2.38: 2 ⋈ 3 and 4 ⋈ 5 are the only compatible pairs; (1,4) is found
    // incompatible in the second iteration, every other pair in the first.
    assert_eq!(compatible_pairs(&sa), [(2, 3), (4, 5)]);
    let eq = equivalence_classes(&sa);
    assert!(!eq.equivalent(s(2), s(3)) && !eq.equivalent(s(4), s(5)));
    // Six singleton classes plus the class of the chaos state.
    assert!(sa.states().all(|q| !eq.is_chaos_equivalent(q)));
    assert_eq!(eq.num_classes(), 7, "no two states are equivalent");
    let c = Compatibility::compute(&sa);
    for p in 1..=6u32 {
        for q in p + 1..=6 {
            let expected = match (p, q) {
                (2, 3) | (4, 5) => None,
                (1, 4) => Some(1),
                _ => Some(0),
            };
            assert_eq!(c.rank(s(p), s(q)), expected, "rank of ({p},{q})");
        }
    }
    // Example 2.8: awzx is an ioco counterexample (awz is a trace, x is not allowed after it).
    let awz = sa
        .after_trace(s(1), &[l("a"), l("w"), l("z")])
        .expect("awz is a trace");
    assert_eq!(sa.after(awz, l("x")), None);
    // Example 2.39: after the access sequence a, trace ax is not one of 2 ∧ 3, and aax is no
    // counterexample for S.
    assert_eq!(sa.after(s(1), l("a")), Some(s(2)));
    let m23 = merge(&sa, s(2), s(3)).unwrap();
    let a_m = m23.alphabet.get("a").unwrap();
    let x_m = m23.alphabet.get("x").unwrap();
    let after_a = m23.after(m23.initial(), a_m).unwrap();
    assert_eq!(m23.after(after_a, x_m), None);
    assert!(
        sa.after_trace(s(1), &[l("a"), l("a"), l("x")]).is_some(),
        "aax is a trace of S"
    );
    // Example 2.38: without the chaos pair, 2 ∧ 3 has 3 states and 4 ∧ 5 has 2, and 4 ∧ 5 is a
    // sub-automaton of 2 ∧ 3.
    let real = |m: &SuspensionAutomaton| {
        let mut names: Vec<String> = m
            .state_names()
            .iter()
            .filter(|n| n.as_str() != "chaos&chaos")
            .cloned()
            .collect();
        names.sort();
        names
    };
    let m45 = merge(&sa, s(4), s(5)).unwrap();
    assert_eq!(real(&m23).len(), 3, "{:?}", m23.state_names());
    assert_eq!(real(&m45).len(), 2, "{:?}", m45.state_names());
    let in23 = real(&m23);
    assert!(real(&m45).iter().all(|n| in23.contains(n)));
    // Explicit quiescence: state 6 is the quiescent one.
    let d = sa.quiescence();
    assert_eq!(
        sa.states()
            .filter(|&q| sa.after(q, d).is_some())
            .collect::<Vec<_>>(),
        [s(6)]
    );
}

#[test]
fn figure_3_1_facts() {
    let sa = suspension("vdbos_fig3_1.aut");
    // Example 3.11: six valid states in S‖S, i.e. 2 ⋈ 3 is the only compatible pair of distinct
    // states.
    assert_eq!(compatible_pairs(&sa), [(2, 3)]);
    // Non-blocking without quiescence: no state is quiescent.
    let d = sa.quiescence();
    assert!(sa.states().all(|q| sa.after(q, d).is_none()));
}
