//! Execution of test suites: exactly, in simulation against a model of the implementation
//! ([`simulate`]), or against a real process speaking the stdio protocol ([`stdio`]); and the
//! reverse direction, a model acting as a system under test on stdin/stdout ([`sut`]).
//!
//! Verdicts follow the suite JSON v1 semantics (van den Bos Def. 3.12 test cases with `retry`
//! leaves for branches the system may take under fairness): a test fails when some execution
//! reaches `fail`; `retry` means "reset and run again".

pub mod commands;
pub mod simulate;
pub mod stdio;
pub mod sut;

pub use simulate::{
    InputEnabling, SimulatedSystem, Step, SuiteReport, TestOutcome, TestVerdict, run_suite,
    run_test,
};

/// Problems that prevent a suite from being executed at all (not verdicts).
#[derive(Debug, thiserror::Error)]
pub enum ExecError {
    /// The implementation model does not accept an input of the suite in a reachable state.
    #[error(
        "the implementation is not input-enabled: state `{state}` does not accept input `{input}` (use --input-enable self-loop to let it ignore such inputs)"
    )]
    NotInputEnabled {
        /// State name.
        state: String,
        /// Input name.
        input: String,
    },
    /// The implementation model cannot act as a system (wrong kind, internal steps, ...).
    #[error("{0}")]
    Unsupported(String),
    /// The system under test could not be started or talked to.
    #[error("system under test `{command}`: {message}")]
    System {
        /// The command line.
        command: String,
        /// What went wrong.
        message: String,
    },
}

use crate::model::{LabelKind, Lts, Model, SuspensionAutomaton};
use crate::suite::SuiteModel;

/// The suspension automaton of an LTS that needs no determinisation: no internal steps, at most
/// one transition per state and label. Quiescence is added as a self-loop on every state that
/// enables no output (TorX thesis Def. 2.2.12 specialised to τ-free deterministic systems); an
/// LTS that already has quiescence transitions is taken as a suspension automaton as it is.
pub fn deterministic_suspension(lts: &Lts) -> Result<SuspensionAutomaton, ExecError> {
    if !lts.is_deterministic() {
        return Err(ExecError::Unsupported(format!(
            "model `{}` has internal steps or nondeterministic transitions; convert it to its suspension automaton first (ncomplete convert --suspension)",
            lts.name
        )));
    }
    let mut alphabet = lts.alphabet.clone();
    let mut triples: Vec<_> = lts.triples().collect();
    let explicit = alphabet
        .quiescence()
        .is_some_and(|d| triples.iter().any(|&(_, l, _)| l == d));
    if !explicit {
        let delta = match alphabet.quiescence() {
            Some(d) => d,
            None => alphabet
                .set_quiescence("delta")
                .map_err(|e| ExecError::Unsupported(e.to_string()))?,
        };
        for q in lts.states() {
            let has_output = lts.transitions_from(q).iter().any(|&(l, _)| {
                alphabet.kind(l) == LabelKind::Output && Some(l) != alphabet.quiescence()
            });
            if !has_output {
                triples.push((q, delta, q));
            }
        }
    }
    SuspensionAutomaton::new(
        lts.name.clone(),
        alphabet,
        lts.state_names().to_vec(),
        lts.initial(),
        triples,
    )
    .map_err(|e| ExecError::Unsupported(format!("model `{}`: {e}", lts.name)))
}

/// The implementation model as a system over the labels of a suite: Mealy machines directly,
/// LTSs through their suspension automaton.
pub fn system_for_suite(
    model: &Model,
    suite: &SuiteModel,
    enabling: InputEnabling,
) -> Result<SimulatedSystem, ExecError> {
    match model {
        Model::Mealy(m) => SimulatedSystem::from_mealy(m, suite, enabling),
        Model::Lts(lts) => {
            SimulatedSystem::from_suspension(&deterministic_suspension(lts)?, suite, enabling)
        }
    }
}

/// The model as a system under test speaking the stdio protocol.
pub fn sut_for_model(model: &Model) -> Result<sut::Sut, ExecError> {
    match model {
        Model::Mealy(m) => sut::Sut::from_mealy(m),
        Model::Lts(lts) => sut::Sut::from_suspension(&deterministic_suspension(lts)?),
    }
}

/// A readable report of a simulated run: one line per test, then the suite verdict.
pub fn simulation_text(report: &SuiteReport, sys: &SimulatedSystem) -> String {
    let mut text = String::new();
    for t in &report.tests {
        match (&t.counterexample, t.verdict) {
            (Some(trace), TestVerdict::Fail) => {
                let (last, before) = trace.split_last().expect("a counterexample has a step");
                text.push_str(&format!(
                    "{} fail: {} {} after {}\n",
                    t.name,
                    if matches!(last, Step::Input(_)) {
                        "the test fails after input"
                    } else {
                        "unexpected"
                    },
                    sys.step_name(*last),
                    sys.trace_string(before)
                ));
            }
            (_, TestVerdict::Inconclusive) => text.push_str(&format!(
                "{} inconclusive: every execution ends in retry\n",
                t.name
            )),
            (_, v) => text.push_str(&format!("{} {v}\n", t.name)),
        }
    }
    text.push_str(&summary_line(
        report.verdict(),
        report.count(TestVerdict::Pass),
        report.count(TestVerdict::Fail),
        report.count(TestVerdict::Inconclusive),
    ));
    text
}

/// The suite verdict of runs against a system: the worst test verdict.
pub fn system_verdict(outcomes: &[stdio::SystemOutcome]) -> TestVerdict {
    outcomes
        .iter()
        .map(|o| o.verdict)
        .max()
        .unwrap_or(TestVerdict::Pass)
}

/// One line per test run against a system.
pub fn system_line(o: &stdio::SystemOutcome) -> String {
    match &o.message {
        Some(m) if o.verdict == TestVerdict::Inconclusive => format!("{} {m}", o.name),
        Some(m) => format!("{} {}: {m}", o.name, o.verdict),
        None => format!("{} {}", o.name, o.verdict),
    }
}

/// The closing line of a run report.
pub fn summary_line(verdict: TestVerdict, pass: usize, fail: usize, inconclusive: usize) -> String {
    format!("suite: {verdict} ({pass} pass, {fail} fail, {inconclusive} inconclusive)\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::lts_from_marked;

    #[test]
    fn deterministic_ltss_get_quiescence_where_no_output_is_enabled() {
        let lts = lts_from_marked("l", 2, &[(0, "?a", 1), (1, "!x", 0)]).unwrap();
        let sa = deterministic_suspension(&lts).unwrap();
        let d = sa.quiescence();
        assert_eq!(
            sa.after(crate::model::StateId(0), d),
            Some(crate::model::StateId(0))
        );
        assert_eq!(sa.after(crate::model::StateId(1), d), None);
        let nondet = lts_from_marked("n", 2, &[(0, "?a", 1), (0, "tau", 0)]).unwrap();
        assert!(
            deterministic_suspension(&nondet)
                .unwrap_err()
                .to_string()
                .contains("suspension automaton first")
        );
    }
}
