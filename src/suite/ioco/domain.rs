//! The quiescence domain an ioco suite is complete for, and the options every ioco
//! construction takes (domain, minimisation note).
//!
//! # The two domains
//!
//! - *General* ([`Domain::General`]): every input-enabled suspension automaton, as in van den Bos
//!   Ch. 2 (Def. 2.1, 2.34): after quiescence an implementation may still produce outputs, and
//!   quiescence after quiescence may change state. The suites of the thesis are complete here.
//! - *Classic* ([`Domain::Classic`], the default of the command line): the suspension
//!   automata of input-enabled LTSs observed through a timeout (TorX Def. 2.2.12; Tretmans'
//!   quiescence): quiescence is *stable*. In a classic implementation every state `i` reached by
//!   quiescence shows no output but quiescence, and quiescence loops on it: `out(i) = {δ}` and
//!   `i --δ--> i`. And quiescence only *narrows*: if `j --δ--> i`, then `i ≤ j`, that is every
//!   trace `τ` of `i` is one of `j` and `out(i after τ) ⊆ out(j after τ)`. Both hold for the
//!   suspension automaton of an LTS: its states are sets of LTS states, `i` is the set of the
//!   quiescent states of `j` (so `i ⊆ j`), and `after` and `out` are monotone in the set.
//!
//! A classic suite never observes twice in a row after quiescence, and never waits for an
//! output right after quiescence, wherever the specification is classic too, that is where the
//! specification state `t` reached by the quiescence has `t --δ--> t` (every suspension
//! automaton of an LTS, and so of every bundled model, has this everywhere). Call such a
//! position *quiet*. Two rules make the suites classic:
//!
//! 1. (`plan::Plan::classic`) When a test is built, an observation at a quiet position is not
//!    waited for: the test continues with the observation's quiescence branch (or ends with its
//!    `otherwise` verdict when it has none), still quiet. Against a classic implementation the
//!    observation it replaces could only have shown quiescence, into the same implementation
//!    state (it loops), and the specification state is the same too (`t --δ--> t`). So every
//!    execution of the classic test against a classic implementation is an execution of the
//!    general test with the deterministic quiescence steps left out, and the other way round:
//!    both tests can reach exactly the same verdicts (**verdict preservation**). This applies to
//!    every method, the distinguishing graphs and merge suites inside a test included.
//! 2. (`counting::BoundedTraces`, the traces of `U(S, n)` and `ioco-counting`) A bounded trace
//!    that reaches a quiet position is not extended by an observation: it is extended by inputs
//!    only, and the graphs of its state are still entered there.
//! 3. (`counting::BoundedTraces` too) A bounded trace `σ` whose specification state `s` has
//!    `s --δ--> s` is not extended by quiescence at all: the observation after `σ` is its last
//!    step (its quiescence branch passes), and `σ` continues by its inputs, sent without
//!    waiting. Only where quiescence leads from `s` to another state (`s` shows outputs too)
//!    does `σδ` go on, by rule 2.
//!
//! # Completeness in the classic domain
//!
//! Let `I` be a classic implementation with `|I|_S ≤ n` that passes the classic suite, and
//! suppose `I` does not conform; take a shortest ioco counterexample `σx` (Lemma 2.7).
//!
//! - *`σ` takes no quiescence that loops in `S`.* If `σ = σ₁δσ₂` with `s = S after σ₁` and
//!   `s --δ--> s`, then `S after σ₁δσ₂ = S after σ₁σ₂`, and `I after σ₁δ ≤ I after σ₁`
//!   (quiescence narrows), so `σ₂` is a trace of `I after σ₁` and `out(I after σ₁δσ₂) ⊆
//!   out(I after σ₁σ₂)`: `σ₁σ₂x` is a shorter counterexample (with `σ₂ = ε` too). The same
//!   holds for `σ = σ₁δδσ₂` with `S after σ₁δ = t` quiet (`t --δ--> t`): `I after σ₁δδ = I
//!   after σ₁δ`. And if `σ` ends in a quiet position, `out(I after σ) = {δ}` and `δ ∈ out(S
//!   after σ)`: no `x` is a counterexample there. So `σ` is a trace of the pruned traces of
//!   rules 2 and 3 (a *classic trace*) and `σx` is observed at a position that is not quiet.
//!   Rule 3 saves a wait in every run through `σδ`: the test that observed after `σ` and then
//!   went on now ends there, and the runs that went on send their inputs at once.
//! - The argument of `counting` (and of Lemma 2.42 for `U(S, n)`) now goes through over
//!   classic traces: if `σ` is bounded, the suite executes `σ` and observes after it (not a
//!   quiet position), and fairness shows `x`. Otherwise the pigeonhole gives prefixes `ρ < ρ'`
//!   of the cut trace in one implementation state `i`; when their specification states differ
//!   the distinguishing graph of the pair is run from `i` after both (both prefixes are
//!   classic traces in `B⁺`; `B⁺` needs no trace `σδ` of rule 3, since the prefixes `ρ` are
//!   prefixes of `σ`). By verdict preservation (rule 1) the classic graph run from `i`
//!   can show exactly the observation sequences the general graph shows from `i` against `I`,
//!   so the argument of Thm. 2.40 (one sequence `τ` seen after both, a counterexample for one
//!   of the two states) applies unchanged. When their states are equal, cutting `ρ'` down to
//!   `ρ` gives a shorter counterexample (perhaps no longer classic; it is shorter all the same):
//!   a contradiction either way.
//! - For `T(S, n)` and `ioco-ads`, whose traces are not pruned, verdict preservation alone
//!   carries their completeness from the general domain (which contains the classic one) over
//!   to their classic tests.
//!
//! Soundness is verdict preservation too: a classic test fails a classic implementation only
//! when the general test can, and that needs a counterexample. Where the specification is not
//! classic (`t` reached by quiescence without `t --δ--> t`, possible only in a suspension
//! automaton given as such), nothing is left out there, so the suite stays exact. The tests of
//! `tests.rs` and `adversary.rs` check both domains: classic suites against classic mutants and
//! the adversary over classic implementations, general ones against general implementations;
//! both must fail every non-conforming implementation with at most `n` states and the suites
//! for `n - 1` must miss some.

/// Which implementations a suite is complete for (see the module doc).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Domain {
    /// Quiescence is stable: suspension automata of LTSs observed through a timeout.
    Classic,
    /// Every input-enabled suspension automaton (van den Bos Ch. 2).
    #[default]
    General,
}

impl Domain {
    /// The spelling of `--domain` and of the suite header.
    pub fn name(self) -> &'static str {
        match self {
            Domain::Classic => "classic",
            Domain::General => "general",
        }
    }

    /// The sentence the guarantee of a suite of this domain ends with.
    pub fn guarantee(self) -> &'static str {
        match self {
            Domain::Classic => {
                "classic quiescence domain: implementations are LTSs observed through a timeout, \
                 so after quiescence they show no output and quiescence again leaves them where \
                 they are; no test waits for an output right after quiescence"
            }
            Domain::General => {
                "general quiescence domain of van den Bos: any input-enabled suspension automaton"
            }
        }
    }
}

impl std::str::FromStr for Domain {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "classic" => Ok(Domain::Classic),
            "general" => Ok(Domain::General),
            _ => Err(format!("found `{s}`, expected classic or general")),
        }
    }
}

/// How an ioco suite is built beyond method, bound and budget.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SuiteOptions {
    /// The implementations the suite is complete for.
    pub domain: Domain,
    /// When the specification was minimised by `≈` (van den Bos Def. 2.13) before the
    /// construction: its number of states before, so that the guarantee says what `n` counts.
    pub minimised_from: Option<usize>,
}

#[cfg(test)]
mod tests {
    use super::super::testkit::*;
    use super::super::{
        Bound, Budget, IncompatibleSets, IocoMethod, IocoSuiteError, generate_with,
    };
    use super::*;
    use crate::model::SuspensionAutomaton;
    use crate::suite::{Next, TestCase, TestNode};
    use std::collections::HashMap;

    const METHODS: [IocoMethod; 5] = [
        IocoMethod::Complete,
        IocoMethod::Unconditional,
        IocoMethod::Ads,
        IocoMethod::Counting(IncompatibleSets::Maximal),
        IocoMethod::Counting(IncompatibleSets::None),
    ];

    fn options(domain: Domain) -> SuiteOptions {
        SuiteOptions {
            domain,
            minimised_from: None,
        }
    }

    /// The tests of `method` for `n` in `domain` when complete and within a small budget.
    fn tests_in(
        spec: &SuspensionAutomaton,
        method: IocoMethod,
        n: usize,
        domain: Domain,
    ) -> Option<Vec<TestCase>> {
        let budget = Budget {
            max_tests: 3000,
            max_plan_nodes: 50_000,
            ..Budget::default()
        };
        match generate_with(spec, method, Bound::States(n), budget, options(domain)) {
            Ok(s) if s.header().guarantee.starts_with("complete") => Some(s.tests().collect()),
            Ok(_) => None,
            Err(IocoSuiteError::Budget { .. } | IocoSuiteError::Refused(_)) => None,
            Err(e) => panic!("{e}"),
        }
    }

    /// Whether some run of `test` observes right after quiescence into a specification state
    /// where quiescence loops (a wait the classic domain leaves out).
    fn waits_after_quiet(spec: &SuspensionAutomaton, test: &TestCase) -> bool {
        let delta_id = crate::suite::ioco::suite_model(spec).quiescence_id();
        let labels = super::super::LabelMap::new(spec);
        let delta = spec.quiescence();
        // Specification output label of each suite output id.
        let by_id: HashMap<_, _> = spec.alphabet.outputs().map(|l| (labels.id(l), l)).collect();
        let inputs: Vec<_> = spec.alphabet.inputs().collect();
        let mut stack = vec![(0usize, Some(spec.initial()), false)];
        while let Some((k, s, quiet)) = stack.pop() {
            match &test.nodes[k] {
                TestNode::Expect { branches } => {
                    if quiet {
                        return true;
                    }
                    for &(o, next) in branches {
                        let t = s.and_then(|s| spec.after(s, by_id[&o]));
                        let q = Some(o) == delta_id
                            && t.is_some_and(|t| spec.after(t, delta) == Some(t));
                        if let Next::Node(j) = next {
                            stack.push((j as usize, t, q));
                        }
                    }
                }
                TestNode::Send { input, then, race } => {
                    let t = s.and_then(|s| spec.after(s, inputs[input.index()]));
                    if let Next::Node(j) = then {
                        stack.push((*j as usize, t, false));
                    }
                    for &(o, next) in race {
                        if let Next::Node(j) = next {
                            stack.push((
                                j as usize,
                                s.and_then(|s| spec.after(s, by_id[&o])),
                                false,
                            ));
                        }
                    }
                }
            }
        }
        false
    }

    fn specs() -> Vec<SuspensionAutomaton> {
        let mut out = vec![classic_sa(&fig_2_1()), classic_sa(&fig_2_9())];
        for seed in 0..60u64 {
            let mut rng = Rng::new(4100 + seed);
            let states = 2 + rng.below(3);
            let (inputs, outputs) = (1 + rng.below(2), 1 + rng.below(2));
            let spec = random_sa(&mut rng, states, inputs, outputs);
            // Half the specifications classic (as every LTS's is), half as drawn.
            out.push(if seed % 2 == 0 {
                classic_sa(&spec)
            } else {
                spec
            });
        }
        out
    }

    /// Classic suites of every method fail exactly the non-conforming classic mutants with at
    /// most `n` specified states, and never wait right after quiescence where it loops; the
    /// general suites of the same models do wait there.
    #[test]
    fn classic_suites_are_exact_on_classic_mutants_and_never_wait_after_quiescence() {
        let (mut judged, mut faulty, mut general_waits) = (0usize, 0usize, 0usize);
        for (k, spec) in specs().iter().enumerate() {
            let model = crate::suite::ioco::suite_model(spec);
            let mut rng = Rng::new(900 + k as u64);
            let mut suites: HashMap<(usize, usize), Option<Vec<TestCase>>> = HashMap::new();
            for _ in 0..40 {
                let faults = rng.below(3);
                let imp = classic_sa(&mutant(&mut rng, spec, faults));
                assert!(is_classic(&imp) && quiescence_keeps_inputs(&imp));
                let n = specified_states(&imp, spec);
                if n > 3 {
                    continue;
                }
                let conforms = ioco(&imp, spec);
                for (m, &method) in METHODS.iter().enumerate() {
                    let tests = suites.entry((m, n)).or_insert_with(|| {
                        let tests = tests_in(spec, method, n, Domain::Classic);
                        for t in tests.iter().flatten() {
                            assert!(!waits_after_quiet(spec, t), "{method:?}: {t:?}");
                        }
                        general_waits += tests_in(spec, method, n, Domain::General)
                            .into_iter()
                            .flatten()
                            .filter(|t| waits_after_quiet(spec, t))
                            .count();
                        tests
                    });
                    let Some(tests) = tests else { continue };
                    let fails = suite_can_fail(tests.iter(), &model, &imp);
                    assert_eq!(
                        fails, !conforms,
                        "{method:?} n = {n}: {imp:?}\nspecification {spec:?}"
                    );
                    judged += 1;
                    faulty += usize::from(!conforms);
                }
            }
        }
        // 3,573 and 895 since classic mutants narrow at quiescence (`classic_table`).
        assert!(judged > 3000 && faulty > 800, "{judged} {faulty}");
        assert!(general_waits > 100, "{general_waits}");
    }

    /// Rule 3 one step too weak is caught: ending the traces at every quiescence, also where
    /// it leads from a state with outputs to another state, misses some non-conforming classic
    /// mutant that the counting suite (and `U`) catch.
    #[test]
    fn ending_traces_at_quiescence_that_does_not_loop_misses_classic_faults() {
        use super::super::weakening::RULE_3_EVERYWHERE;
        let mut missed = 0;
        for (k, spec) in specs().iter().enumerate() {
            let model = crate::suite::ioco::suite_model(spec);
            let mut rng = Rng::new(900 + k as u64);
            for _ in 0..20 {
                let faults = 1 + rng.below(2);
                let imp = classic_sa(&mutant(&mut rng, spec, faults));
                let n = specified_states(&imp, spec);
                if n > 3 || ioco(&imp, spec) {
                    continue;
                }
                for method in [METHODS[3], METHODS[1]] {
                    let sound = tests_in(spec, method, n, Domain::Classic);
                    RULE_3_EVERYWHERE.with(|w| w.set(true));
                    let weak = tests_in(spec, method, n, Domain::Classic);
                    RULE_3_EVERYWHERE.with(|w| w.set(false));
                    let (Some(sound), Some(weak)) = (sound, weak) else {
                        continue;
                    };
                    assert!(suite_can_fail(&sound, &model, &imp));
                    missed += usize::from(!suite_can_fail(&weak, &model, &imp));
                }
            }
        }
        assert!(missed > 0);
    }

    /// The classic domain is a real restriction: on some model a classic suite passes a general
    /// (non-classic) implementation that does not conform, which the general suite fails.
    #[test]
    fn classic_suites_are_not_complete_for_general_implementations() {
        let mut missed = 0;
        for (k, spec) in specs().iter().enumerate().take(30) {
            let model = crate::suite::ioco::suite_model(spec);
            let method = IocoMethod::Counting(IncompatibleSets::Maximal);
            let mut rng = Rng::new(300 + k as u64);
            for _ in 0..30 {
                let faults = 1 + rng.below(2);
                let imp = mutant(&mut rng, spec, faults);
                let n = specified_states(&imp, spec);
                if n > 3 || ioco(&imp, spec) || is_classic(&imp) {
                    continue;
                }
                let (Some(classic), Some(general)) = (
                    tests_in(spec, method, n, Domain::Classic),
                    tests_in(spec, method, n, Domain::General),
                ) else {
                    continue;
                };
                assert!(suite_can_fail(&general, &model, &imp));
                missed += usize::from(!suite_can_fail(&classic, &model, &imp));
            }
        }
        assert!(missed > 0);
    }

    #[test]
    fn domains_parse_and_name_themselves() {
        assert_eq!("classic".parse(), Ok(Domain::Classic));
        assert_eq!("general".parse::<Domain>().map(Domain::name), Ok("general"));
        assert!(
            "stable"
                .parse::<Domain>()
                .unwrap_err()
                .contains("classic or general")
        );
    }
}
