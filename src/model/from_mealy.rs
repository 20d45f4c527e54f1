//! From a Mealy machine to a suspension automaton (and to an LTS with some inputs hidden); and
//! the LTS embedding of a nondeterministic Mealy machine ([`Onfsm::to_lts`]), the same steps
//! without the determinism.
//!
//! A Mealy transition `q --i/o--> q'` becomes two steps `q --?i--> q/i --!o--> q'`: the
//! intermediate state `q/i` (named after the source state and the input) has exactly one
//! output, and the original states, which wait for input and produce nothing, are quiescent and
//! get a δ self-loop. Inputs of the result are the Mealy inputs, outputs are the Mealy outputs plus
//! δ (named `delta`, or a fresh `delta_1`, ... if a Mealy label already uses that name). A partial
//! Mealy machine gives a suspension automaton in which the missing inputs are not enabled, which
//! ioco reads as underspecification (anything may happen after them).
//!
//! ioco needs disjoint input and output labels (TorX thesis Def. 2.2.4), so a Mealy machine that
//! uses a name both as input and as output is rejected with [`ModelError::InputOutputClash`].
//!
//! [`mealy_to_lts_with`] builds the same structure as an LTS but turns the given inputs into
//! internal steps (`tau`: the environment can no longer choose them, and the outputs that follow
//! them appear spontaneously) and merges labels `A=B` into one name (as van den Bos Sec. 3.7
//! removed data parameters from labels). Benchmarks use this to create output nondeterminism;
//! the result goes through [`lts_to_suspension`](super::lts_to_suspension). Without hidden or
//! merged labels, that route yields the same automaton as [`mealy_to_suspension`].

use super::alphabet::{Alphabet, LabelKind};
use super::automaton::SuspensionAutomaton;
use super::error::ModelError;
use super::ids::{LabelId, StateId, id32};
use super::lts::Lts;
use super::mealy::Mealy;
use super::naming::{fresh_name, make_unique};
use super::onfsm::Onfsm;

impl Onfsm {
    /// The LTS embedding `q --?i--> q/i --!o--> q'` (the module doc of `onfsm.rs`): states
    /// first, then one `q/i` per state and input that has transitions, in that order. The LTS
    /// remembers the machine ([`Lts::onfsm`]).
    pub fn to_lts(&self) -> Result<Lts, ModelError> {
        if let Some(name) = self
            .inputs
            .names()
            .iter()
            .find(|i| self.outputs.get(i).is_some())
        {
            return Err(ModelError::InputOutputClash { name: name.clone() });
        }
        let mut alphabet = Alphabet::new();
        let mut input_label = Vec::with_capacity(self.inputs.len());
        for i in self.inputs.names() {
            input_label.push(alphabet.add(i, LabelKind::Input)?);
        }
        let mut output_label = Vec::with_capacity(self.outputs.len());
        for o in self.outputs.names() {
            output_label.push(alphabet.add(o, LabelKind::Output)?);
        }
        let mut names = self.state_names().to_vec();
        let mut triples = Vec::with_capacity(2 * self.quads().len());
        let mut last: Option<(StateId, LabelId, StateId)> = None;
        for &(q, i, o, t) in self.quads() {
            let mid = match last {
                Some((lq, li, mid)) if (lq, li) == (q, i) => mid,
                _ => {
                    let mid = StateId(id32(names.len()));
                    names.push(format!(
                        "{}/{}",
                        self.state_names()[q.index()],
                        self.inputs.name(i)
                    ));
                    triples.push((q, input_label[i.index()], mid));
                    last = Some((q, i, mid));
                    mid
                }
            };
            triples.push((mid, output_label[o.index()], t));
        }
        make_unique(&mut names);
        let mut lts = Lts::new(self.name.clone(), alphabet, names, self.initial(), triples)?;
        lts.set_onfsm(self.clone());
        Ok(lts)
    }
}

fn check_disjoint(m: &Mealy) -> Result<(), ModelError> {
    match m.inputs.names().iter().find(|i| m.outputs.get(i).is_some()) {
        Some(name) => Err(ModelError::InputOutputClash { name: name.clone() }),
        None => Ok(()),
    }
}

/// The machine with every output that is also the name of an input renamed `NAME_out`, and how
/// many were renamed: the embeddings need one alphabet in which inputs and outputs differ
/// (OpenSSH, for one, has `DISCONNECT` as both).
pub fn disjoint_labels(m: &Mealy) -> (Mealy, usize) {
    let mut outputs = super::alphabet::Interner::new();
    let mut renamed = 0;
    for o in m.outputs.names() {
        if m.inputs.get(o).is_some() {
            outputs.intern(&fresh_name(&format!("{o}_out"), taken_by_mealy(m)));
            renamed += 1;
        } else {
            outputs.intern(o);
        }
    }
    let quads: Vec<_> = m.quads().collect();
    let m = Mealy::new(
        m.name.clone(),
        m.inputs.clone(),
        outputs,
        m.state_names().to_vec(),
        m.initial(),
        &quads,
    )
    .expect("renaming outputs to fresh names keeps the machine valid");
    (m, renamed)
}

/// The two-step structure shared by both conversions: states (originals first, then one `q/i`
/// per defined transition in state-then-input order) and triples, with each Mealy input mapped
/// to `input_label[i]`.
fn two_step(
    m: &Mealy,
    input_label: &[LabelId],
    output_label: &[LabelId],
) -> (Vec<String>, Vec<(StateId, LabelId, StateId)>) {
    let mut names: Vec<String> = m.state_names().to_vec();
    let mut triples = Vec::with_capacity(2 * m.num_transitions());
    for (q, i, o, t) in m.quads() {
        let mid = StateId(id32(names.len()));
        names.push(format!("{}/{}", m.state_name(q), m.inputs.name(i)));
        triples.push((q, input_label[i.index()], mid));
        triples.push((mid, output_label[o.index()], t));
    }
    make_unique(&mut names);
    (names, triples)
}

fn taken_by_mealy(m: &Mealy) -> impl Fn(&str) -> bool + '_ {
    |n| m.inputs.get(n).is_some() || m.outputs.get(n).is_some()
}

/// The suspension automaton of a Mealy machine; see the module documentation.
pub fn mealy_to_suspension(m: &Mealy) -> Result<SuspensionAutomaton, ModelError> {
    check_disjoint(m)?;
    let mut alphabet = Alphabet::new();
    let inputs = m
        .inputs
        .names()
        .iter()
        .map(|n| alphabet.add(n, LabelKind::Input))
        .collect::<Result<Vec<_>, _>>()?;
    let outputs = m
        .outputs
        .names()
        .iter()
        .map(|n| alphabet.add(n, LabelKind::Output))
        .collect::<Result<Vec<_>, _>>()?;
    let delta = alphabet.set_quiescence(&fresh_name("delta", taken_by_mealy(m)))?;
    let (names, mut triples) = two_step(m, &inputs, &outputs);
    triples.extend(m.states().map(|q| (q, delta, q)));
    SuspensionAutomaton::new(m.name.clone(), alphabet, names, m.initial(), triples)
}

/// How a Mealy machine is embedded as an LTS before determinisation (see [`mealy_to_lts_with`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MealyEmbedding {
    /// Inputs turned into internal steps.
    pub hidden: Vec<String>,
    /// Merges `A=B` of inputs: `B` becomes `A`.
    pub merged_inputs: Vec<String>,
    /// Merges `A=B` of outputs: `B` becomes `A`.
    pub merged_outputs: Vec<String>,
}

impl MealyEmbedding {
    /// Whether the embedding changes nothing (then it equals [`mealy_to_suspension`]).
    pub fn is_plain(&self) -> bool {
        self.hidden.is_empty() && self.merged_inputs.is_empty() && self.merged_outputs.is_empty()
    }
}

/// Splits `A=B` at the `=` whose both sides are names `known` accepts (names may hold `=`).
fn split_merge(spec: &str, known: impl Fn(&str) -> bool) -> Option<(&str, &str)> {
    spec.match_indices('=')
        .map(|(k, _)| (&spec[..k], &spec[k + 1..]))
        .find(|(a, b)| known(a) && known(b))
}

/// For each label of `names`, the label it is merged into after the merges `specs` (in order).
fn merged_into(
    names: &super::alphabet::Interner,
    specs: &[String],
    kind: &'static str,
) -> Result<Vec<usize>, ModelError> {
    let mut into: Vec<usize> = (0..names.len()).collect();
    for spec in specs {
        let Some((a, b)) = split_merge(spec, |n| names.get(n).is_some()) else {
            return Err(ModelError::BadMerge {
                spec: spec.clone(),
                kind,
                known: names.names().join(", "),
            });
        };
        let (a, b) = (names.get(a), names.get(b));
        if let (Some(a), Some(b)) = (a, b) {
            let (target, merged) = (into[a.index()], into[b.index()]);
            for x in &mut into {
                if *x == merged {
                    *x = target;
                }
            }
        }
    }
    Ok(into)
}

/// The two-step LTS of a Mealy machine with the inputs named in `hidden` turned into internal
/// steps (label `tau`, or a fresh name if `tau` is taken). Quiescence stays implicit.
pub fn mealy_to_lts(m: &Mealy, hidden: &[impl AsRef<str>]) -> Result<Lts, ModelError> {
    let embedding = MealyEmbedding {
        hidden: hidden.iter().map(|h| h.as_ref().to_owned()).collect(),
        ..MealyEmbedding::default()
    };
    mealy_to_lts_with(m, &embedding)
}

/// The two-step LTS of a Mealy machine embedded as `embedding` says: hidden inputs become
/// internal steps (`tau`, or a fresh name), so the outputs after them appear spontaneously;
/// merged labels `A=B` share the name `A`, so a state offers one input where the machine had two
/// (the tester no longer chooses between them: the thesis' benchmarks dropped data parameters
/// from labels this way) or an output no longer tells two outputs apart. Both make the LTS
/// nondeterministic; determinising it gives output nondeterminism. Hiding one input of a
/// complete machine alone does not: every state then offers the same single internal step.
pub fn mealy_to_lts_with(m: &Mealy, embedding: &MealyEmbedding) -> Result<Lts, ModelError> {
    check_disjoint(m)?;
    let mut is_hidden = vec![false; m.num_inputs()];
    for h in &embedding.hidden {
        match m.inputs.get(h) {
            Some(i) => is_hidden[i.index()] = true,
            None => {
                return Err(ModelError::UnknownInput {
                    input: h.to_owned(),
                    known: m.inputs.names().join(", "),
                });
            }
        }
    }
    let input_into = merged_into(&m.inputs, &embedding.merged_inputs, "input")?;
    let output_into = merged_into(&m.outputs, &embedding.merged_outputs, "output")?;
    let mut alphabet = Alphabet::new();
    let tau = fresh_name("tau", taken_by_mealy(m));
    let mut inputs = Vec::with_capacity(m.num_inputs());
    for k in 0..m.num_inputs() {
        let into = input_into[k];
        inputs.push(if is_hidden[k] || is_hidden[into] {
            alphabet.add(&tau, LabelKind::Internal)?
        } else {
            alphabet.add(&m.inputs.names()[into], LabelKind::Input)?
        });
    }
    let outputs = output_into
        .iter()
        .map(|&into| alphabet.add(&m.outputs.names()[into], LabelKind::Output))
        .collect::<Result<Vec<_>, _>>()?;
    let (names, triples) = two_step(m, &inputs, &outputs);
    Lts::new(m.name.clone(), alphabet, names, m.initial(), triples)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{SuspensionOptions, lts_to_suspension, mealy_from_named};

    #[test]
    fn disjoint_labels_rename_outputs_named_like_inputs() {
        let m = mealy_from_named(
            "ssh",
            2,
            &[(0, "DISCONNECT", "DISCONNECT", 1), (1, "KEX", "ok", 0)],
        )
        .unwrap();
        assert!(mealy_to_suspension(&m).is_err());
        let (d, renamed) = disjoint_labels(&m);
        assert_eq!(renamed, 1);
        assert_eq!(d.outputs.names(), ["DISCONNECT_out", "ok"]);
        assert_eq!(d.num_transitions(), m.num_transitions());
        assert_eq!(mealy_to_suspension(&d).unwrap().num_states(), 4);
        assert_eq!(disjoint_labels(&d).1, 0);
    }

    fn coffee() -> Mealy {
        // A small partial coffee machine: s0 --coin/ok--> s1 --button/coffee--> s0,
        // s1 --coin/refund--> s1; `button` is missing in s0.
        mealy_from_named(
            "coffee",
            2,
            &[
                (0, "coin", "ok", 1),
                (1, "button", "coffee", 0),
                (1, "coin", "refund", 1),
            ],
        )
        .unwrap()
    }

    #[test]
    fn transitions_become_input_then_output_with_quiescent_originals() {
        let m = coffee();
        let sa = mealy_to_suspension(&m).unwrap();
        assert_eq!(sa.num_states(), 2 + 3);
        assert_eq!(
            sa.state_names()[2..],
            ["s0/coin".to_owned(), "s1/coin".into(), "s1/button".into()]
        );
        let name = |l: LabelId| sa.alphabet.name(l).to_owned();
        assert_eq!(
            sa.alphabet.inputs().map(name).collect::<Vec<_>>(),
            ["coin", "button"]
        );
        assert_eq!(
            sa.alphabet.outputs().map(name).collect::<Vec<_>>(),
            ["ok", "coffee", "refund", "delta"]
        );
        let d = sa.quiescence();
        for q in m.states() {
            assert_eq!(sa.after(q, d), Some(q));
            assert_eq!(sa.outputs_enabled(q).collect::<Vec<_>>(), [d]);
        }
        // s0 lacks `button`: not enabled in the suspension automaton.
        assert!(
            sa.after(StateId(0), sa.alphabet.get("button").unwrap())
                .is_none()
        );
        for mid in 2..5 {
            assert_eq!(sa.outputs_enabled(StateId(mid)).count(), 1);
            assert_eq!(sa.inputs_enabled(StateId(mid)).count(), 0);
        }
    }

    #[test]
    fn shared_input_output_names_are_rejected() {
        let m = mealy_from_named("x", 1, &[(0, "a", "b", 0), (0, "b", "c", 0)]).unwrap();
        let err = mealy_to_suspension(&m).unwrap_err();
        assert_eq!(err, ModelError::InputOutputClash { name: "b".into() });
        assert!(err.to_string().contains("disjoint"));
        assert!(mealy_to_lts(&m, &[] as &[&str]).is_err());
    }

    #[test]
    fn a_mealy_label_named_delta_gets_a_fresh_quiescence_label() {
        let m = mealy_from_named("x", 1, &[(0, "a", "delta", 0)]).unwrap();
        let sa = mealy_to_suspension(&m).unwrap();
        assert_eq!(sa.alphabet.name(sa.quiescence()), "delta_1");
    }

    #[test]
    fn without_hidden_inputs_the_lts_route_gives_the_same_automaton() {
        let m = coffee();
        let direct = mealy_to_suspension(&m).unwrap();
        let lts = mealy_to_lts(&m, &[] as &[&str]).unwrap();
        let via = lts_to_suspension(&lts, &SuspensionOptions::default()).unwrap();
        assert_eq!(direct.num_states(), via.num_states());
        let name = |sa: &SuspensionAutomaton, (s, l, t): (StateId, LabelId, StateId)| {
            (
                sa.state_name(s).trim_matches(['{', '}']).to_owned(),
                sa.alphabet.name(l).to_owned(),
                sa.state_name(t).trim_matches(['{', '}']).to_owned(),
            )
        };
        let mut a: Vec<_> = direct.triples().map(|t| name(&direct, t)).collect();
        let mut b: Vec<_> = via.triples().map(|t| name(&via, t)).collect();
        a.sort();
        b.sort();
        assert_eq!(a, b);
    }

    #[test]
    fn hidden_inputs_produce_output_nondeterminism() {
        let m = coffee();
        let lts = mealy_to_lts(&m, &["coin"]).unwrap();
        assert!(lts.alphabet.get("coin").is_none());
        assert!(lts.has_internal());
        let sa = lts_to_suspension(&lts, &SuspensionOptions::default()).unwrap();
        // Initially the machine may spontaneously say `ok`; it is not quiescent (τ enabled).
        let out: Vec<_> = sa
            .outputs_enabled(sa.initial())
            .map(|l| sa.alphabet.name(l).to_owned())
            .collect();
        assert_eq!(out, ["ok"]);
        let q = sa
            .after(sa.initial(), sa.alphabet.get("ok").unwrap())
            .unwrap();
        let out: Vec<_> = sa
            .outputs_enabled(q)
            .map(|l| sa.alphabet.name(l).to_owned())
            .collect();
        assert_eq!(out, ["refund"]);
        // One hidden input of a complete machine: every state offers the same τ, so the result
        // is output-deterministic (coffee is partial in `button`, hence the ok/refund choice).
        let complete = mealy_from_named("c", 2, &[(0, "a", "x", 1), (1, "a", "y", 0)]).unwrap();
        let sa = lts_to_suspension(
            &mealy_to_lts(&complete, &["a"]).unwrap(),
            &SuspensionOptions::default(),
        )
        .unwrap();
        assert!(sa.states().all(|q| sa.outputs_enabled(q).count() == 1));
        let err = mealy_to_lts(&m, &["kick"]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the model has no input `kick`; its inputs are: coin, button"
        );
    }
}

#[cfg(test)]
mod merge_tests {
    use super::*;
    use crate::model::{SuspensionOptions, lts_to_suspension, mealy_from_named};

    #[test]
    fn merged_inputs_give_output_nondeterminism() {
        // s0 --a/x--> s0, s0 --b=c/y--> s1, s1 --a/x--> s0, s1 --b=c/x--> s1.
        let m = mealy_from_named(
            "m",
            2,
            &[
                (0, "a", "x", 0),
                (0, "b=c", "y", 1),
                (1, "a", "x", 0),
                (1, "b=c", "x", 1),
            ],
        )
        .unwrap();
        let embedding = MealyEmbedding {
            merged_inputs: vec!["a=b=c".into()],
            ..MealyEmbedding::default()
        };
        let lts = mealy_to_lts_with(&m, &embedding).unwrap();
        assert!(lts.alphabet.get("b=c").is_none());
        let sa = lts_to_suspension(&lts, &SuspensionOptions::default()).unwrap();
        let a = sa.alphabet.get("a").unwrap();
        let after = sa.after(sa.initial(), a).unwrap();
        let outs: Vec<&str> = sa
            .outputs_enabled(after)
            .map(|l| sa.alphabet.name(l))
            .collect();
        assert_eq!(outs, ["x", "y"]);
        // Merging outputs x=y instead makes the first two transitions look alike.
        let embedding = MealyEmbedding {
            merged_outputs: vec!["x=y".into()],
            ..MealyEmbedding::default()
        };
        let lts = mealy_to_lts_with(&m, &embedding).unwrap();
        assert!(lts.alphabet.get("y").is_none() && lts.alphabet.get("x").is_some());
        for (spec, kind) in [("a=d", "input"), ("x", "input")] {
            let embedding = MealyEmbedding {
                merged_inputs: vec![spec.into()],
                ..MealyEmbedding::default()
            };
            let err = mealy_to_lts_with(&m, &embedding).unwrap_err();
            assert!(
                err.to_string()
                    .contains(&format!("does not name two {kind}s")),
                "{err}"
            );
        }
    }
}
