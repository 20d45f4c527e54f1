//! Execution of test suites: exactly, in simulation against a model of the implementation
//! ([`simulate`]), or against a real process speaking the stdio protocol ([`stdio`]); and the
//! reverse direction, a model acting as a system under test on stdin/stdout ([`sut`]); and
//! switch-coverage purposes of an STS executed on the fly ([`sts_run`]).
//!
//! Verdicts follow the suite JSON v1 semantics (van den Bos Def. 3.12 test cases with `retry`
//! leaves for branches the system may take under fairness): a test fails when some execution
//! reaches `fail`; `retry` means "reset and run again".

pub mod commands;
pub mod error;
pub mod explore;
pub mod goal_coverage;
pub mod records;
pub mod report_html;
pub mod requirements;
pub mod results;
pub mod simulate;
pub mod spec_automaton;
pub mod spec_readings;
pub mod stdio;
pub mod sts_report_html;
pub mod sts_run;
pub mod sut;
pub mod tcp;
pub mod word;

/// The timeout annotations of a model at run time, kept at their old path.
pub use crate::suite::timeouts;

use records::VerdictCounts;

pub use error::ExecError;
pub use spec_automaton::suspension_of;

pub use simulate::{
    InputEnabling, SimulatedSystem, Step, SuiteReport, TestOutcome, TestVerdict, run_suite,
    run_test,
};

use crate::model::Model;
use crate::suite::{Next, SuiteModel, TestCase, TestNode};

/// The implementation model as a system over the labels of a suite: Mealy machines and
/// nondeterministic Mealy machines (an LTS read as one) directly, other LTSs through their
/// suspension automaton.
pub fn system_for_suite(
    model: &Model,
    suite: &SuiteModel,
    enabling: InputEnabling,
) -> Result<SimulatedSystem, ExecError> {
    match model {
        Model::Mealy(m) => SimulatedSystem::from_mealy(m, suite, enabling),
        Model::Lts(lts) => match lts.onfsm() {
            Some(m) => SimulatedSystem::from_onfsm(m, suite, enabling),
            None => SimulatedSystem::from_suspension(&suspension_of(lts)?, suite, enabling),
        },
    }
}

/// The model as a system under test speaking the stdio protocol.
pub fn sut_for_model(model: &Model) -> Result<sut::Sut, ExecError> {
    match model {
        Model::Mealy(m) => sut::Sut::from_mealy(m),
        Model::Lts(lts) => match lts.onfsm() {
            Some(m) => sut::Sut::from_onfsm(m),
            None => sut::Sut::from_suspension(&suspension_of(lts)?),
        },
    }
}

/// A readable report of a simulated run of `tests`: one line per test, then the suite verdict.
/// A failure names the offending observation, what the test allowed there, and the trace before.
pub fn simulation_text(report: &SuiteReport, sys: &SimulatedSystem, tests: &[TestCase]) -> String {
    let mut text = String::new();
    for (t, case) in report.tests.iter().zip(tests) {
        text.push_str(&simulation_line(t, sys, case));
    }
    text.push_str(&VerdictCounts::of(report.tests.iter().map(|t| t.verdict)).summary_line());
    text
}

/// The line of [`simulation_text`] for one test.
pub fn simulation_line(t: &TestOutcome, sys: &SimulatedSystem, case: &TestCase) -> String {
    match simulation_message(t, sys, case) {
        Some(m) => format!("{} {}: {m}\n", t.name, t.verdict),
        None => format!("{} {}\n", t.name, t.verdict),
    }
}

/// Why a test failed or was inconclusive in simulation (`None` for a pass): for a failure the
/// offending observation, what the test allowed there, and the trace before.
pub fn simulation_message(
    t: &TestOutcome,
    sys: &SimulatedSystem,
    case: &TestCase,
) -> Option<String> {
    match (
        &t.counterexample,
        simulation_failure(t, sys, case),
        t.verdict,
    ) {
        (Some(trace), Some(what), TestVerdict::Fail) => Some(format!(
            "{what} after {}",
            sys.trace_string(&trace[..trace.len() - 1])
        )),
        (_, _, TestVerdict::Inconclusive) => Some("every execution ends in retry".to_owned()),
        _ => None,
    }
}

/// For a failed test in simulation: what its witness's last step did and what the test allowed
/// there instead (the first part of [`simulation_message`]).
pub fn simulation_failure(
    t: &TestOutcome,
    sys: &SimulatedSystem,
    case: &TestCase,
) -> Option<String> {
    let (trace, k) = match (&t.counterexample, t.failing_node, t.verdict) {
        (Some(trace), Some(k), TestVerdict::Fail) => (trace, k),
        _ => return None,
    };
    let last = trace.last()?;
    Some(match (last, &case.nodes[k]) {
        (Step::Input(_), _) => {
            format!("the test fails after input {}", sys.step_name(*last))
        }
        (Step::Output(_), node) => {
            let list = match node {
                TestNode::Send { race, .. } => race,
                TestNode::Expect { branches } => branches,
            };
            let allowed: Vec<String> = list
                .iter()
                .filter(|&&(_, n)| n != Next::FAIL)
                .map(|&(o, _)| sys.step_name(Step::Output(o)))
                .collect();
            let allowed = if allowed.is_empty() {
                "nothing".to_owned()
            } else {
                allowed.join(", ")
            };
            if matches!(node, TestNode::Send { .. }) {
                format!(
                    "output {} before the input could be applied (allowed instead: {allowed})",
                    sys.step_name(*last)
                )
            } else {
                format!(
                    "unexpected {} (expected one of: {allowed})",
                    sys.step_name(*last)
                )
            }
        }
    })
}

/// The witness of a failed test in simulation as observed steps (empty for other tests).
pub fn simulation_trace(t: &TestOutcome, sys: &SimulatedSystem) -> Vec<records::ObservedStep> {
    use records::ObservedStep;
    let steps = t.counterexample.as_deref().unwrap_or_default();
    steps
        .iter()
        .map(|&step| match step {
            Step::Input(i) => ObservedStep::Input(sys.input_name(i).to_owned()),
            Step::Output(o) if o == sys.quiescence() => ObservedStep::Quiescence,
            Step::Output(o) => ObservedStep::Output(sys.output_name(o).to_owned()),
        })
        .collect()
}

/// One line per test run against a system.
pub fn system_line(o: &stdio::SystemOutcome) -> String {
    match &o.message {
        Some(m) if o.verdict == TestVerdict::Inconclusive => format!("{} {m}", o.name),
        Some(m) => format!("{} {}: {m}", o.name, o.verdict),
        None => format!("{} {}", o.name, o.verdict),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::lts_from_marked;

    #[test]
    fn nondeterministic_ltss_run_through_their_suspension_automaton() {
        // ?a leads nondeterministically to a state that outputs x or to a quiescent one.
        let lts = lts_from_marked(
            "l",
            3,
            &[(0, "?a", 1), (0, "?a", 2), (1, "!x", 0), (2, "tau", 0)],
        )
        .unwrap();
        let suite = SuiteModel {
            name: "l".into(),
            inputs: vec!["a".into()],
            outputs: vec!["x".into()],
            quiescence: Some("delta".into()),
        };
        let sys = system_for_suite(&Model::Lts(lts), &suite, InputEnabling::SelfLoop).unwrap();
        // After ?a both x and quiescence (after the internal step) are possible.
        let q = sys
            .after_input(sys.initial(), crate::model::LabelId(0))
            .unwrap();
        let outs: Vec<u32> = sys.outputs(q).iter().map(|&(o, _)| o.0).collect();
        assert_eq!(outs, [0, 1]);
    }
}
