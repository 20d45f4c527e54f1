//! Suite construction: test cases as send/expect DAGs, the suite JSON v1 interchange format, and
//! (in submodules added per method) the generators of n-complete suites.

pub mod case;
pub mod costs;
pub mod ioco;
pub mod json;
pub mod mealy;

pub use case::{Next, SuiteHeader, SuiteModel, TestCase, TestCaseError, TestNode, Verdict};
pub use json::{SuiteFormatError, SuiteWriter, read_suite, suite_to_string};
