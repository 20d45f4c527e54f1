//! Process handling of the stdio adapter: the pipe ends the reader and writer threads wait on
//! in slices (so no thread outlives its test), how a process ended in words, and the registry
//! of the systems' process groups that an interrupt of the tester kills
//! ([`kill_systems_on_interrupt`]).

use std::io::{Read, Write};
use std::process::ExitStatus;
use std::sync::Arc;
#[cfg(unix)]
use std::sync::atomic::AtomicI32;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How long the reader and writer threads wait on a pipe before they check whether their test
/// has ended.
pub const PIPE_POLL: Duration = Duration::from_millis(50);
/// Bytes a pipe that polls writable takes without blocking (POSIX's least `PIPE_BUF`).
#[cfg(unix)]
const PIPE_CHUNK: usize = 512;

/// How a process ended, in the words of every runner.
pub(super) fn exit_text(status: ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return format!("the system was killed by signal {signal}");
        }
    }
    match status.code() {
        Some(code) => format!("the system exited with status {code}"),
        None => format!("the system exited ({status})"),
    }
}

/// A pipe end of the system's that a thread of the tester reads or writes: every wait on it is
/// cut into slices of [`PIPE_POLL`], and once `stop` is set it reports the end (reading) or an
/// error (writing), so the thread ends with its test even if a process the tester cannot kill
/// keeps the other end open.
pub(super) struct StoppablePipe<P> {
    pub(super) pipe: P,
    pub(super) stop: Arc<AtomicBool>,
}

impl<P> StoppablePipe<P> {
    /// Waits until the pipe is ready for `events` (`POLLIN` or `POLLOUT`); `false` once the
    /// test has ended.
    #[cfg(unix)]
    fn ready(&self, fd: std::os::fd::RawFd, events: libc::c_short) -> bool {
        let slice = libc::c_int::try_from(PIPE_POLL.as_millis()).unwrap_or(50);
        loop {
            if self.stop.load(Ordering::SeqCst) {
                return false;
            }
            let mut poll = libc::pollfd {
                fd,
                events,
                revents: 0,
            };
            // SAFETY: `poll` is a valid pollfd for the duration of the call, and the count is 1.
            let ready = unsafe { libc::poll(&mut poll, 1, slice) };
            // Ready, hung up or in error (the next call reports which), or poll itself failed:
            // the read or write decides.
            if ready != 0
                && !(ready < 0
                    && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted)
            {
                return true;
            }
        }
    }
}

#[cfg(unix)]
impl<P: Read + std::os::fd::AsRawFd> Read for StoppablePipe<P> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if !self.ready(self.pipe.as_raw_fd(), libc::POLLIN) {
            return Ok(0);
        }
        self.pipe.read(buf)
    }
}

#[cfg(unix)]
impl<P: Write + std::os::fd::AsRawFd> Write for StoppablePipe<P> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if !self.ready(self.pipe.as_raw_fd(), libc::POLLOUT) {
            return Err(std::io::ErrorKind::BrokenPipe.into());
        }
        // A pipe that polls writable takes at least this much without blocking.
        let atomic = buf.len().min(PIPE_CHUNK);
        self.pipe.write(&buf[..atomic])
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.pipe.flush()
    }
}

#[cfg(not(unix))]
impl<P: Read> Read for StoppablePipe<P> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.pipe.read(buf)
    }
}

#[cfg(not(unix))]
impl<P: Write> Write for StoppablePipe<P> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.pipe.write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.pipe.flush()
    }
}

/// The process groups of the systems alive in this process (their leaders' ids; 0 = a free
/// slot), for the interrupt handler of [`kill_systems_on_interrupt`]. Fixed-size, so the handler
/// only reads atomics; a system started while every slot is taken is not killed on an interrupt
/// (it still is on reset and drop).
#[cfg(unix)]
pub(super) static SYSTEM_GROUPS: [AtomicI32; 64] = [const { AtomicI32::new(0) }; 64];

/// Registers a system's process group; the slot to free, if one was free.
#[cfg(unix)]
pub(super) fn register_group(leader: u32) -> Option<usize> {
    let pid = i32::try_from(leader).ok()?;
    SYSTEM_GROUPS.iter().position(|slot| {
        slot.compare_exchange(0, pid, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
    })
}

/// Held for reading while a system is started and until its group is registered, and taken
/// for writing (for good) by [`kill_all_systems`]: a group is never started unregistered while
/// the tester dies, nor started after its systems were killed.
#[cfg(unix)]
pub(super) static STARTING: std::sync::RwLock<()> = std::sync::RwLock::new(());

/// Kills the process group of every system alive and keeps new ones from starting: what an
/// interrupt does before the process ends ([`crate::interrupt::on_interrupt`]).
#[cfg(unix)]
fn kill_all_systems() {
    // The process is about to end: no system may start in the meantime.
    stop_all_systems();
    std::mem::forget(STARTING.write().unwrap_or_else(|e| e.into_inner()));
}

/// Set by [`stop_all_systems`]: no system starts until [`allow_systems`].
pub(super) static STOPPED: AtomicBool = AtomicBool::new(false);

/// Stops every run of this process: kills the process group of every system alive and makes
/// starting a system fail until [`allow_systems`], so the runs end soon with errors. For a host
/// that handles an interrupt itself (the Python package on `KeyboardInterrupt`).
pub fn stop_all_systems() {
    STOPPED.store(true, Ordering::SeqCst);
    #[cfg(unix)]
    {
        // Waits for the systems being started to be registered.
        let _no_starts = STARTING.write().unwrap_or_else(|e| e.into_inner());
        for slot in &SYSTEM_GROUPS {
            let pid = slot.load(Ordering::SeqCst);
            if pid > 0 {
                // SAFETY: kill(2) takes plain integers and touches no memory of ours.
                unsafe {
                    libc::kill(-pid, libc::SIGKILL);
                }
            }
        }
    }
}

/// Lets systems start again after [`stop_all_systems`].
pub fn allow_systems() {
    STOPPED.store(false, Ordering::SeqCst);
}

/// Makes SIGINT, SIGTERM and SIGHUP kill the process group of every system alive, then end the
/// process as they would have ([`crate::interrupt`]: a watcher thread does it, not the handler,
/// so it can wait for a system being started to be registered): Ctrl-C, `kill` or `timeout` on
/// a tester leaves no system behind, although the systems run in process groups of their own
/// (which a terminal's Ctrl-C does not reach). Signals that were ignored when it is installed
/// stay ignored (`nohup`). Called when the first system starts.
pub fn kill_systems_on_interrupt() {
    #[cfg(unix)]
    crate::interrupt::on_interrupt(kill_all_systems);
}

/// An output the tester can look at without reading it ([`Session::output_pending`](super::adapter::Session::output_pending)).
pub(super) trait WatchedOutput {
    /// A duplicate of its descriptor, if one can be made.
    #[cfg(unix)]
    fn watch(&self) -> Option<std::os::fd::OwnedFd>;
}

#[cfg(unix)]
impl<P: std::os::fd::AsFd> WatchedOutput for StoppablePipe<P> {
    fn watch(&self) -> Option<std::os::fd::OwnedFd> {
        self.pipe.as_fd().try_clone_to_owned().ok()
    }
}

#[cfg(not(unix))]
impl<P> WatchedOutput for StoppablePipe<P> {}
