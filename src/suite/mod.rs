//! Suite construction: test cases as send/expect DAGs, the suite JSON v1 interchange format, and
//! (in submodules added per method) the generators of n-complete suites.

pub mod case;
pub mod costs;
pub mod distinguish;
pub mod ioco;
pub mod json;
pub mod mealy;
pub mod names;
pub mod requirements;
pub mod run_time;
pub mod timeouts;

pub use case::{Next, SuiteHeader, SuiteModel, TestCase, TestCaseError, TestNode, Verdict};
pub use json::{
    SuiteFormatError, SuiteReadError, SuiteWriter, read_suite, read_suite_stream, suite_to_string,
};

/// A test count for messages: exact, except the saturated `u128::MAX` of counts that overflowed,
/// which is shown as what it means (`more than 3.4e38`).
pub fn count_text(n: u128) -> String {
    if n == u128::MAX {
        format!("more than {:.1e}", u128::MAX as f64)
    } else {
        n.to_string()
    }
}

#[cfg(test)]
mod count_tests {
    #[test]
    fn saturated_counts_are_not_shown_as_exact() {
        assert_eq!(super::count_text(42), "42");
        assert_eq!(super::count_text(u128::MAX), "more than 3.4e38");
    }
}
