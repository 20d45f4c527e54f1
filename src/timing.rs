//! The default timeouts of a run against a system (`run --sut`, `explore --sut`), shared by the
//! runners of `exec`, the generated runtimes' settings (`render`) and the suite's cost and
//! run-time figures (`suite::costs`, `suite::run_time`): plain numbers, no model knowledge.

use std::time::Duration;

/// Default start-up allowance in milliseconds.
pub const DEFAULT_STARTUP_MS: u64 = 1000;
/// Default quiescence timeout in milliseconds.
pub const DEFAULT_QUIESCENCE_MS: u64 = 200;
/// Default response timeout in milliseconds.
pub const DEFAULT_RESPONSE_MS: u64 = 5000;
/// Default number of re-runs of a test that ended in `retry`.
pub const DEFAULT_RETRIES: usize = 20;
/// How long `exec::stdio::startup_problem` watches a freshly started system for the shell's "cannot run"
/// statuses.
pub const START_CHECK: Duration = Duration::from_millis(250);

/// How long a runner listens for an output already on its way before it sends an input: a
/// twentieth of the quiescence timeout, at most 20 ms times `scale` (the factor of a re-run with
/// scaled timeouts); none when the suite has no quiescence (a Mealy machine only answers
/// inputs, so no output races one). The runners (`exec::stdio::send_grace`) wait this long and
/// the run-time prediction (`suite::run_time`) charges it.
pub fn send_grace(quiescence: Duration, scale: u32, has_quiescence: bool) -> Duration {
    if has_quiescence {
        (quiescence / 20).min(Duration::from_millis(20).saturating_mul(scale.max(1)))
    } else {
        Duration::ZERO
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_send_grace_is_a_twentieth_of_quiescence_capped_and_none_without_quiescence() {
        let ms = Duration::from_millis;
        assert_eq!(send_grace(ms(200), 1, true), ms(10));
        assert_eq!(send_grace(ms(1000), 1, true), ms(20));
        assert_eq!(send_grace(ms(16_000), 16, true), ms(320));
        assert_eq!(send_grace(ms(200), 0, true), ms(10));
        assert_eq!(send_grace(ms(200), 1, false), Duration::ZERO);
    }
}
