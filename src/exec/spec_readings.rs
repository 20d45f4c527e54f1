//! Refuting readings with the specification (`run --spec MODEL` against a system): the
//! input/output race of [`super::stdio`] read against the specification's suspension automaton
//! instead of the test tree alone.
//!
//! A test tree follows the reading in which the system read every input as soon as it was sent;
//! for an output that may have been written before an input still unread, the generated ioco
//! suites give the send node's `race` branch, which is `retry` (van den Bos Sec. 2.7.4: the
//! distinguishing graph's Reset): the test cannot follow that reading, so it cannot refute it
//! either. A faulty system whose fault shows only after it read an input that an output of the
//! specification races (everest_q's mutant `?b` from state 2 going to 4 instead of 3, where
//! state 2 owes `!x`) is then never failed by the tree: every execution that shows the fault
//! also has the reading in which the `!x` the system wrote late came before the input, and that
//! reading ends in `retry`. The specification refutes it (after `!x !x` the specification is in
//! a state where `?b ?b ?a` leads to a state that is not quiescent), and so does exact
//! simulation (`run --model`), which knows the order.
//!
//! The check (design (b) of issue 41; the generated suites are unchanged): when an execution
//! ends in `retry`, [`SpecReadings::allows`] takes the trace since the reset (inputs sent,
//! outputs and quiescence observed, in the order the tester saw them) and keeps every reading
//! of it as a pair (specification state, inputs read): an input sent is read at any later point
//! but in the order sent; an output is read in every pair, each after any number of the inputs
//! still unread; quiescence only in pairs that have read every input (the rule of the test
//! tree: a quiescent system has read what it was sent). If no pair is left, the execution is a
//! `fail` instead of a `retry`.
//!
//! Soundness (a conforming system is never failed by the check): let `i ioco s` and let `σ` be
//! the order in which the system really read the inputs and wrote the outputs of the trace. `σ`
//! is one of the readings kept: the system reads its inputs in the order they were written to
//! it, its outputs arrive in the order it wrote them, every output it wrote before reading an
//! input is observed after the tester wrote that input or before (both are kept), and quiescence
//! is observed only after it read every input. Along `σ`, every prefix `ρ` followed by an
//! output `x` (quiescence included) has `x ∈ out(i after ρ) ⊆ out(s after ρ)` while `ρ` is a
//! suspension trace of `s`, which is exactly the step of the pair that follows `σ`; once `ρ`
//! reads an input that `s` does not enable after it, ioco says nothing more and the check
//! allows the whole trace. So the pair of `σ` is never dropped. The check assumes what the test
//! tree's readings assume (in-order reading, quiescence after reading), so it adds no new
//! premise; where a descheduled system breaks the quiescence premise, the observation is
//! timing-dependent and the timing rule re-runs the test before a `fail` is reported.
//!
//! Completeness is the suite's: the check only turns `retry` into `fail`, never a `fail` or a
//! `pass` into anything else, so every fault the suite detects is still detected; in addition a
//! fault hidden behind a race branch is failed as soon as an execution shows it.

use super::error::ExecError;
use crate::model::{LabelId, Model, StateId, SuspensionAutomaton};
use crate::suite::SuiteModel;

/// One observable step of an execution, as the suite numbers labels (quiescence is the output
/// id `outputs.len()`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TraceStep {
    /// An input sent.
    Input(LabelId),
    /// An output (or quiescence) observed.
    Output(LabelId),
}

/// The specification as the check of the module doc reads traces: its suspension automaton and
/// the suite's label ids mapped to its labels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecReadings {
    sa: SuspensionAutomaton,
    /// Per suite input id, the specification's input.
    inputs: Vec<LabelId>,
    /// Per suite output id (quiescence last, id `outputs.len()` of the suite), the
    /// specification's output.
    outputs: Vec<LabelId>,
}

/// Where a reading of a trace stands.
enum Step {
    /// The pairs (specification state, inputs read) left.
    Pairs(Vec<(StateId, usize)>),
    /// A reading read an input the specification does not enable: ioco allows anything.
    Unspecified,
}

impl SpecReadings {
    /// The check for suites with the labels `suite`, against the specification model `spec`
    /// (an LTS through its suspension automaton, a Mealy machine through
    /// `mealy_to_suspension`); an error when a label of the suite is not one of the
    /// specification's of the same kind.
    pub fn new(spec: &Model, suite: &SuiteModel) -> Result<SpecReadings, ExecError> {
        let sa = super::spec_automaton::specification_automaton(spec)?;
        let a = &sa.alphabet;
        let missing = |kind: &str, name: &str| {
            ExecError::Unsupported(format!(
                "--spec: the suite's {kind} `{name}` is not one of the specification's {kind}s (give the model the suite was generated from)"
            ))
        };
        let inputs = suite
            .inputs
            .iter()
            .map(|n| {
                a.get(n)
                    .filter(|&l| a.is_input(l))
                    .ok_or_else(|| missing("input", n))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut outputs = suite
            .outputs
            .iter()
            .map(|n| {
                a.get(n)
                    .filter(|&l| a.is_output(l) && l != sa.quiescence())
                    .ok_or_else(|| missing("output", n))
            })
            .collect::<Result<Vec<_>, _>>()?;
        outputs.push(sa.quiescence());
        Ok(SpecReadings {
            sa,
            inputs,
            outputs,
        })
    }

    /// Whether some reading of `steps` (the trace since the reset, suite label ids) is a trace
    /// the specification allows (the module doc); `false` refutes every reading.
    pub fn allows(&self, steps: &[TraceStep]) -> bool {
        let mut sent: Vec<LabelId> = Vec::new();
        let mut pairs = vec![(self.sa.initial(), 0usize)];
        for &step in steps {
            match step {
                TraceStep::Input(i) => match self.inputs.get(i.index()) {
                    Some(&input) => sent.push(input),
                    None => return true,
                },
                TraceStep::Output(o) => {
                    let Some(&output) = self.outputs.get(o.index()) else {
                        return false;
                    };
                    let quiescence = output == self.sa.quiescence();
                    let Step::Pairs(closed) = self.read_any(&pairs, &sent) else {
                        return true;
                    };
                    pairs.clear();
                    for (s, read) in closed {
                        if quiescence && read < sent.len() {
                            continue;
                        }
                        if let Some(t) = self.sa.after(s, output)
                            && !pairs.contains(&(t, read))
                        {
                            pairs.push((t, read));
                        }
                    }
                    if pairs.is_empty() {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// `pairs` with, besides each, the pairs after reading any number of the inputs in `sent`
    /// it has not read.
    fn read_any(&self, pairs: &[(StateId, usize)], sent: &[LabelId]) -> Step {
        let mut out: Vec<(StateId, usize)> = Vec::with_capacity(pairs.len());
        for &(mut s, mut read) in pairs {
            loop {
                if !out.contains(&(s, read)) {
                    out.push((s, read));
                }
                let Some(&input) = sent.get(read) else { break };
                match self.sa.after(s, input) {
                    Some(t) => (s, read) = (t, read + 1),
                    None => return Step::Unspecified,
                }
            }
        }
        Step::Pairs(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{LoadOptions, parse_model};

    const EVEREST_Q: &str = include_str!("../../models/everest_q.aut");

    fn check() -> SpecReadings {
        let model = parse_model(EVEREST_Q, "everest_q.aut", &LoadOptions::default()).unwrap();
        let suite = SuiteModel {
            name: "everest_q".into(),
            inputs: vec!["a".into(), "b".into()],
            outputs: vec!["x".into()],
            quiescence: Some("delta".into()),
        };
        SpecReadings::new(&model, &suite).unwrap()
    }

    /// `?a !x ?b` as suite steps: inputs `a` = 0, `b` = 1; output `x` = 0, quiescence 1.
    fn steps(trace: &str) -> Vec<TraceStep> {
        trace
            .split_whitespace()
            .map(|l| match l {
                "?a" => TraceStep::Input(LabelId(0)),
                "?b" => TraceStep::Input(LabelId(1)),
                "!x" => TraceStep::Output(LabelId(0)),
                "delta" => TraceStep::Output(LabelId(1)),
                other => panic!("{other}"),
            })
            .collect()
    }

    #[test]
    fn the_mutants_trace_has_no_reading_in_the_specification() {
        let c = check();
        // everest_q's mutant: ?b from state 2 goes to 4; the tree's own order fails at delta,
        // the order with the second !x before the first ?b is refuted by the specification.
        assert!(!c.allows(&steps("?a !x ?b ?b ?a !x delta")));
        // Only the tree's own order is refuted at the end; a prefix is allowed.
        assert!(c.allows(&steps("?a !x ?b ?b ?a !x")));
        assert!(c.allows(&steps("?a !x ?b ?b ?a !x !x delta")));
    }

    #[test]
    fn an_output_written_before_an_input_was_read_is_allowed() {
        let c = check();
        // State 2 owes !x; a system that wrote it before reading ?b: ?a !x !x ?b (state 3).
        assert!(c.allows(&steps("?a !x ?b !x delta")));
        // Two inputs in flight: !x after both is allowed only before the first was read.
        assert!(c.allows(&steps("?a !x ?b ?a !x delta")));
        // Quiescence means every input was read: in state 1 after ?a, quiescence is refuted.
        assert!(!c.allows(&steps("?a delta")));
        // An output no order allows.
        assert!(!c.allows(&steps("!x")));
        assert!(!c.allows(&steps("?b !x")));
    }

    #[test]
    fn a_suite_label_the_specification_lacks_is_an_error() {
        let model = parse_model(EVEREST_Q, "everest_q.aut", &LoadOptions::default()).unwrap();
        let suite = SuiteModel {
            name: "other".into(),
            inputs: vec!["a".into(), "c".into()],
            outputs: vec!["x".into()],
            quiescence: Some("delta".into()),
        };
        let e = SpecReadings::new(&model, &suite).unwrap_err().to_string();
        assert!(e.contains("input `c`"), "{e}");
    }
}
