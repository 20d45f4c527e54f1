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
