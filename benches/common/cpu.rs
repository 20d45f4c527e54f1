//! CPU time for the benches' tables: on a shared machine the wall clock also counts the time
//! other guests hold the CPU, so the tables print the process's CPU time beside (or instead of)
//! the wall time.

use std::time::{Duration, Instant};

/// The CPU time the process has used, all threads, to the nanosecond the clock gives (the wall
/// clock since the first call where it cannot be read).
pub fn cpu_time() -> Duration {
    #[cfg(unix)]
    {
        let mut t = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `t` is a valid timespec for the call to fill.
        if unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) } == 0 {
            return Duration::new(t.tv_sec as u64, t.tv_nsec as u32);
        }
    }
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}
