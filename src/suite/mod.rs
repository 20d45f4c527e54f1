//! Suite construction: test cases as send/expect DAGs, the suite JSON v1 interchange format, and
//! (in submodules added per method) the generators of n-complete suites.

pub mod case;
pub mod ioco;
pub mod json;
pub mod mealy;

pub use case::{Next, SuiteHeader, SuiteModel, TestCase, TestCaseError, TestNode, Verdict};
pub use json::{
    SuiteFormatError, SuiteReadError, SuiteWriter, read_suite, read_suite_stream, suite_to_string,
};
