//! Removal of temporary outputs when the process is interrupted (SIGINT, SIGTERM, SIGHUP).
//!
//! [`crate::output`] writes every file to a temporary name first; a process stopped by Ctrl-C,
//! `kill` or `timeout` would leave that file behind (a suite can be many megabytes). Here the
//! temporary paths live in one registry, and an interrupt removes them before the process dies:
//!
//! - the signal handler only writes the signal number into a pipe (`write(2)` is
//!   async-signal-safe; nothing else is done in the handler);
//! - a watcher thread, started with the first registration, reads the pipe, takes the registry
//!   lock, removes every registered path (files, or directories with their contents), and then,
//!   still holding the lock, restores the default action and raises the signal again, so the
//!   process ends with the status the sender expects (killed by SIGTERM, not exit 0);
//! - creating a temporary path and registering it, and renaming one into place and unregistering
//!   it, happen under the same lock ([`guarded`]), so the watcher never runs between the two: a
//!   temporary path exists only while it is registered, and a rename is never half done when the
//!   process dies.
//!
//! Other work an interrupt must do before the process ends (killing the systems under test,
//! `exec::stdio`) is registered with [`on_interrupt`]; the watcher runs it first, outside the
//! handler, so it may take locks and wait.
//!
//! A signal ignored when the handlers are installed (`nohup`, a background job of a
//! non-interactive shell) stays ignored, and one the host program handles itself (Python's
//! SIGINT, which raises `KeyboardInterrupt`, when the library runs inside the Python package)
//! keeps its handler: the host then stops the work its own way. SIGKILL cannot be caught; after it the temporary files
//! stay, under names starting with `.` and ending in `.tmp`. On platforms without Unix signals
//! the registry is kept but nothing is installed.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

/// The temporary paths that exist now, removed on an interrupt.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// The registry of temporary paths, handed to [`guarded`]'s closure.
pub struct Pending<'a>(MutexGuard<'a, Vec<PathBuf>>);

impl Pending<'_> {
    /// Registers `path` (a file or a directory) for removal on an interrupt.
    pub fn add(&mut self, path: &Path) {
        self.0.push(path.to_path_buf());
    }

    /// Unregisters `path` (it was renamed into place or removed).
    pub fn remove(&mut self, path: &Path) {
        if let Some(k) = self.0.iter().rposition(|p| p == path) {
            self.0.swap_remove(k);
        }
    }
}

/// What an interrupt does before the process ends, besides removing temporary paths.
static HOOKS: Mutex<Vec<fn()>> = Mutex::new(Vec::new());

/// Installs the handlers (once per process) and has every later interrupt run `hook` (on the
/// watcher thread, before the temporary paths are removed and the process ends). A hook added
/// twice runs once.
pub fn on_interrupt(hook: fn()) {
    #[cfg(unix)]
    unix::install();
    let mut hooks = HOOKS.lock().unwrap_or_else(|e| e.into_inner());
    if !hooks.iter().any(|h| std::ptr::fn_addr_eq(*h, hook)) {
        hooks.push(hook);
    }
}

/// Runs the hooks of [`on_interrupt`].
fn run_hooks() {
    let hooks = HOOKS.lock().unwrap_or_else(|e| e.into_inner()).clone();
    for hook in hooks {
        hook();
    }
}

/// Runs `f` with the registry locked, after installing the handlers (once per process). An
/// interrupt arriving meanwhile is handled when `f` returns.
pub fn guarded<T>(f: impl FnOnce(&mut Pending<'_>) -> T) -> T {
    #[cfg(unix)]
    unix::install();
    let mut pending = Pending(PENDING.lock().unwrap_or_else(|e| e.into_inner()));
    f(&mut pending)
}

/// Removes every registered path; returns the lock so the caller can end the process holding
/// it.
fn remove_pending() -> MutexGuard<'static, Vec<PathBuf>> {
    let mut pending = PENDING.lock().unwrap_or_else(|e| e.into_inner());
    remove_paths(&mut pending);
    pending
}

/// Removes the files and directories (with their contents) of `paths`, emptying it.
fn remove_paths(paths: &mut Vec<PathBuf>) {
    for path in paths.drain(..) {
        match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.is_dir() => {
                let _ = std::fs::remove_dir_all(&path);
            }
            Ok(_) => {
                let _ = std::fs::remove_file(&path);
            }
            Err(_) => {}
        }
    }
}

#[cfg(unix)]
mod unix {
    use std::sync::Once;
    use std::sync::atomic::{AtomicI32, Ordering};

    /// The signals after which temporary outputs are removed.
    const SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

    /// The write end of the pipe from the handler to the watcher thread (-1: none).
    static PIPE_WRITE: AtomicI32 = AtomicI32::new(-1);

    static INSTALL: Once = Once::new();

    /// The handler: passes the signal number to the watcher. Only async-signal-safe calls.
    extern "C" fn on_signal(signal: libc::c_int) {
        let fd = PIPE_WRITE.load(Ordering::Relaxed);
        if fd >= 0 {
            let byte = signal as u8;
            // SAFETY: write(2) on a pipe with a valid one-byte buffer is async-signal-safe.
            unsafe {
                libc::write(fd, (&byte as *const u8).cast(), 1);
            }
        }
    }

    /// Starts the watcher thread and installs the handlers, once.
    pub(super) fn install() {
        INSTALL.call_once(|| {
            let mut fds: [libc::c_int; 2] = [-1; 2];
            // SAFETY: `fds` has room for the two descriptors pipe(2) writes.
            if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
                return;
            }
            for fd in fds {
                // SAFETY: fcntl on descriptors just created; close-on-exec keeps them from the
                // systems and tools ncomplete starts.
                unsafe {
                    libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
                }
            }
            let read_fd = fds[0];
            let spawned = std::thread::Builder::new()
                .name("ncomplete-interrupt".into())
                .spawn(move || watch(read_fd));
            if spawned.is_err() {
                return;
            }
            PIPE_WRITE.store(fds[1], Ordering::Relaxed);
            for signal in SIGNALS {
                // SAFETY: sigaction with a zeroed struct, an empty mask and a handler that only
                // calls write(2); the previous action is read to keep an ignored signal ignored
                // and a host's handler in place.
                unsafe {
                    let mut action: libc::sigaction = std::mem::zeroed();
                    action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as usize;
                    action.sa_flags = libc::SA_RESTART;
                    libc::sigemptyset(&mut action.sa_mask);
                    let mut old: libc::sigaction = std::mem::zeroed();
                    if libc::sigaction(signal, std::ptr::null(), &mut old) == 0
                        && old.sa_sigaction != libc::SIG_DFL
                    {
                        continue;
                    }
                    libc::sigaction(signal, &action, std::ptr::null_mut());
                }
            }
        });
    }

    /// The watcher thread: on a signal, removes the temporary paths and ends the process by the
    /// same signal.
    fn watch(read_fd: libc::c_int) {
        loop {
            let mut byte = 0u8;
            // SAFETY: read(2) into a valid one-byte buffer.
            let n = unsafe { libc::read(read_fd, (&mut byte as *mut u8).cast(), 1) };
            if n == 1 {
                super::run_hooks();
                let _held = super::remove_pending();
                let signal = libc::c_int::from(byte);
                // SAFETY: restoring the default action and raising the signal ends the process
                // (every signal of SIGNALS terminates by default).
                unsafe {
                    libc::signal(signal, libc::SIG_DFL);
                    libc::raise(signal);
                }
            } else if n == 0
                || std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted
            {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registered_files_and_directories_are_removed_and_others_kept() {
        let dir = crate::scratch::Scratch::new("interrupt");
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("sub/f"), "x").unwrap();
        std::fs::write(dir.join("a.tmp"), "x").unwrap();
        std::fs::write(dir.join("kept"), "x").unwrap();
        let mut pending = vec![dir.join("sub"), dir.join("a.tmp"), dir.join("gone")];
        remove_paths(&mut pending);
        assert!(pending.is_empty());
        assert!(!dir.join("sub").exists() && !dir.join("a.tmp").exists());
        assert!(dir.join("kept").exists());
    }
}
