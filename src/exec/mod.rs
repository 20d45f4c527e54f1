//! Execution of test suites: exactly, in simulation against a model of the implementation
//! ([`simulate`]), or against a real process speaking the stdio protocol ([`stdio`]); and the
//! reverse direction, a model acting as a system under test on stdin/stdout ([`sut`]).
//!
//! Verdicts follow the suite JSON v1 semantics (van den Bos Def. 3.12 test cases with `retry`
//! leaves for branches the system may take under fairness): a test fails when some execution
//! reaches `fail`; `retry` means "reset and run again".

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
