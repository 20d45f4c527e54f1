//! Switches that weaken a construction one step too far, each for the unit test that must
//! catch the weakened suite: set only by tests, and `false` in every other build.

/// A switch that weakens a construction one step too far, for the test that must catch it:
/// a thread-local `$switch` (tests only) and `$read()`, which reads it in tests and is `false`
/// in every build.
macro_rules! weakening_for_tests {
    ($(#[$doc:meta])* $switch:ident, $read:ident) => {
        #[cfg(test)]
        thread_local! {
            $(#[$doc])*
            pub(crate) static $switch: std::cell::Cell<bool> =
                const { std::cell::Cell::new(false) };
        }

        #[cfg(test)]
        pub(super) fn $read() -> bool {
            $switch.with(|w| w.get())
        }

        #[cfg(not(test))]
        #[inline]
        pub(super) fn $read() -> bool {
            false
        }
    };
}

weakening_for_tests!(
    /// Tests only: rule 3 of `super::domain` one step too weak, applied to every quiescence
    /// (also where it leads to another state), for the test that must catch it.
    RULE_3_EVERYWHERE,
    rule_3_everywhere
);

weakening_for_tests!(
    /// Tests only: a cover cut one step too early, counting at a branching the output child
    /// that pins the most instead of the fewest, for the test that must catch it.
    PINS_AS_MOST,
    pins_as_most
);
