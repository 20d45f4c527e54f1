//! The line adapter: [`LineAdapter`] drives a real system over one `Session` per reset, the
//! lines of a process it starts (its pipes) or of a TCP connection, with a reader and a writer
//! thread each; a wait turns the reader's events into observations under the timeouts. Also
//! the check before the first test that the system can be started at all
//! ([`startup_problem`]).

use super::lines::{Event, QUEUED_LINES, read_lines};
#[cfg(unix)]
use super::process::{STARTING, SYSTEM_GROUPS, register_group};
use super::process::{STOPPED, StoppablePipe, WatchedOutput, exit_text, kill_systems_on_interrupt};
use super::{Adapter, Observation, START_CHECK, TIMING_SCALE_VARIABLE, Timeouts, starved};
use crate::exec::tcp::{self, System};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::thread;
use std::time::{Duration, Instant};

/// How often a waiting tester checks whether the system has exited.
pub(super) const POLL: Duration = Duration::from_millis(10);
/// How long the tester waits for the rest of the output after the system exited, and for the
/// exit status after the system closed a pipe.
const EXIT_GRACE: Duration = Duration::from_millis(500);
/// Shell statuses of a command that cannot run: not executable (126), not found (127).
const CANNOT_RUN: [i32; 2] = [126, 127];

/// What carries the lines of a session: the pipes of a process the tester started, or a TCP
/// connection.
enum Peer {
    /// A process, in a group of its own.
    Process {
        child: Child,
        /// The slot of [`SYSTEM_GROUPS`] holding the system's group, while it is registered.
        #[cfg(unix)]
        group_slot: Option<usize>,
    },
    /// A TCP connection; `closed` is set once the system closed it (the end of its output).
    Socket {
        stream: TcpStream,
        closed: Arc<AtomicBool>,
    },
}

/// One run of the system since a reset: the line protocol over its [`Peer`]. Lines are read by
/// one thread and inputs written by another, whatever carries them.
struct Session {
    peer: Peer,
    /// Set when the test ends: the reader and writer threads then end too.
    stop: Arc<AtomicBool>,
    input: Option<Sender<String>>,
    output: Receiver<Event>,
    /// The start of an unfinished line and when it was first seen.
    partial: Option<(String, Instant)>,
    /// The exit status once the system was seen to exit (its group is killed then).
    exited: Option<ExitStatus>,
    /// After the exit: until when the rest of the output is still read.
    drain_until: Option<Instant>,
    /// Set when the session broke the protocol or ended: a reset label is not sent over it.
    broken: bool,
    /// A duplicate of the output's descriptor, to look without reading whether output is
    /// waiting for the reader ([`Session::output_pending`]).
    #[cfg(unix)]
    watch: Option<std::os::fd::OwnedFd>,
}

/// What a connection's closing is called in every message.
const CLOSED: &str = "the system closed the connection";

impl Session {
    /// The line protocol over `output` (read) and `input` (written); `closed` is set when the
    /// output ends.
    fn over<R, W>(peer: Peer, output: R, input: W, stop: Arc<AtomicBool>) -> Session
    where
        R: Read + Send + 'static + WatchedOutput,
        W: Write + Send + 'static,
    {
        #[cfg(unix)]
        let watch = output.watch();
        let closed = match &peer {
            Peer::Socket { closed, .. } => Some(Arc::clone(closed)),
            Peer::Process { .. } => None,
        };
        let (out_tx, out_rx) = mpsc::sync_channel(QUEUED_LINES);
        thread::spawn(move || {
            if read_lines(output, &out_tx)
                && let Some(closed) = closed
            {
                closed.store(true, Ordering::SeqCst);
            }
        });
        let (in_tx, in_rx) = mpsc::channel::<String>();
        let mut input = input;
        thread::spawn(move || {
            for line in in_rx {
                if writeln!(input, "{line}")
                    .and_then(|_| input.flush())
                    .is_err()
                {
                    return;
                }
            }
        });
        Session {
            peer,
            stop,
            input: Some(in_tx),
            output: out_rx,
            partial: None,
            exited: None,
            drain_until: None,
            broken: false,
            #[cfg(unix)]
            watch,
        }
    }

    /// The process of `command`, told the runner's timing scale (`NCOMPLETE_TIMING_SCALE`).
    fn start(command: &str, timing_scale: u32) -> Result<Session, String> {
        let mut cmd = if cfg!(windows) {
            let mut c = Command::new("cmd");
            c.arg("/C").arg(command);
            c
        } else {
            let mut c = Command::new("sh");
            c.arg("-c").arg(command);
            c
        };
        cmd.env(TIMING_SCALE_VARIABLE, timing_scale.to_string());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            // A group of its own, so that reset kills everything the system started.
            cmd.process_group(0);
        }
        kill_systems_on_interrupt();
        // From the start to the registration an interrupt waits (see STARTING).
        #[cfg(unix)]
        let starting = STARTING.read().unwrap_or_else(|e| e.into_inner());
        if STOPPED.load(Ordering::SeqCst) {
            return Err("not started: the run was interrupted".into());
        }
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start: {e}"))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err("cannot open the pipes of the process".into());
        };
        #[cfg(unix)]
        let group_slot = register_group(child.id());
        #[cfg(unix)]
        drop(starting);
        let stop = Arc::new(AtomicBool::new(false));
        let stdout = StoppablePipe {
            pipe: stdout,
            stop: Arc::clone(&stop),
        };
        let stdin = StoppablePipe {
            pipe: stdin,
            stop: Arc::clone(&stop),
        };
        let peer = Peer::Process {
            child,
            #[cfg(unix)]
            group_slot,
        };
        Ok(Session::over(peer, stdout, stdin, stop))
    }

    /// The line protocol over a connection to the system.
    fn connected(stream: TcpStream) -> Result<Session, String> {
        let clone = |s: &TcpStream| {
            s.try_clone()
                .map_err(|e| format!("cannot use the connection: {e}"))
        };
        // Lines are small and answered one by one: no waiting to fill a segment.
        let _ = stream.set_nodelay(true);
        let stop = Arc::new(AtomicBool::new(false));
        let reader = StoppablePipe {
            pipe: clone(&stream)?,
            stop: Arc::clone(&stop),
        };
        let writer = StoppablePipe {
            pipe: clone(&stream)?,
            stop: Arc::clone(&stop),
        };
        let peer = Peer::Socket {
            stream,
            closed: Arc::new(AtomicBool::new(false)),
        };
        Ok(Session::over(peer, reader, writer, stop))
    }

    /// Kills the system's process group, unless an exit was handled already (the group id
    /// could have been reused since). [`Session::note_exit`] calls it right after the leader
    /// was reaped: a member still alive keeps the id reserved, and an empty group has nothing
    /// to kill.
    fn kill_group(&mut self) {
        let Peer::Process { child, .. } = &mut self.peer else {
            return;
        };
        #[cfg(unix)]
        if self.exited.is_none()
            && let Ok(pid) = libc::pid_t::try_from(child.id())
        {
            // SAFETY: kill(2) takes plain integers and touches no memory of ours; a negative
            // pid names the process group the child leads (started with process_group(0)).
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
        let _ = child.kill();
    }

    /// Forgets the system's group once it was killed after its leader was reaped (the id may
    /// be reused from then on).
    fn unregister_group(&mut self) {
        #[cfg(unix)]
        if let Peer::Process { group_slot, .. } = &mut self.peer
            && let Some(slot) = group_slot.take()
        {
            SYSTEM_GROUPS[slot].store(0, Ordering::SeqCst);
        }
    }

    /// Records the exit and kills what the system left behind.
    fn note_exit(&mut self, status: ExitStatus) {
        // The group must be killed before the exit is recorded (which forbids later kills).
        self.kill_group();
        self.unregister_group();
        self.exited = Some(status);
        self.drain_until = Some(Instant::now() + EXIT_GRACE);
    }

    /// Checks without blocking whether the system has exited (a connection's end arrives as
    /// the end of its output instead).
    fn poll_exit(&mut self) {
        if let Peer::Process { child, .. } = &mut self.peer
            && self.exited.is_none()
            && let Ok(Some(status)) = child.try_wait()
        {
            self.note_exit(status);
        }
    }

    /// Why the system can no longer be said to behave, checked without waiting.
    fn gone(&mut self) -> Option<String> {
        self.poll_exit();
        match (&self.peer, self.exited) {
            (_, Some(status)) => Some(exit_text(status)),
            (Peer::Socket { closed, .. }, None) if closed.load(Ordering::SeqCst) => {
                Some(CLOSED.into())
            }
            _ => None,
        }
    }

    /// The exit of the system if it comes within [`EXIT_GRACE`], else `otherwise`; over a
    /// connection, that it was closed.
    fn exit_or(&mut self, otherwise: &str) -> String {
        if let Peer::Socket { .. } = self.peer {
            return CLOSED.into();
        }
        let deadline = Instant::now() + EXIT_GRACE;
        while self.exited.is_none() && Instant::now() < deadline {
            self.poll_exit();
            if self.exited.is_none() {
                thread::sleep(POLL);
            }
        }
        self.exited.map_or_else(|| otherwise.to_owned(), exit_text)
    }

    /// Why the output ended.
    fn end_message(&mut self) -> String {
        let what = self.exit_or("the system closed its standard output");
        match &self.partial {
            Some((text, _)) => format!("{what} after writing `{text}` without a newline"),
            None => what,
        }
    }

    /// Sends `label` as the reset of a system that stays connected, after dropping every
    /// output not yet taken; `false` when the session cannot carry it (it broke the protocol
    /// or ended), so that the caller connects anew.
    fn reset_in_place(&mut self, label: &str) -> bool {
        if self.broken || self.gone().is_some() {
            return false;
        }
        while self.output.try_recv().is_ok() {}
        self.partial = None;
        self.input
            .as_ref()
            .is_some_and(|tx| tx.send(label.to_owned()).is_ok())
    }

    fn stop(&mut self) {
        // Closing stdin first lets the writer thread end; the flag ends both threads even if
        // something outside the group holds the pipes.
        drop(self.input.take());
        self.stop.store(true, Ordering::SeqCst);
        self.kill_group();
        match &mut self.peer {
            Peer::Process { child, .. } => {
                let _ = child.wait();
            }
            Peer::Socket { stream, .. } => {
                let _ = stream.shutdown(std::net::Shutdown::Both);
            }
        }
        self.unregister_group();
    }
}

/// The adapter of a real system on the line protocol: one label per line, carried by the pipes
/// of a process it starts or by a TCP connection ([`System`]). A process is restarted on every
/// reset; a connection is made anew, unless the system has a reset label.
pub struct LineAdapter {
    system: System,
    timeouts: Timeouts,
    session: Option<Session>,
    /// Set by an observation that is timing-dependent beyond the trace
    /// ([`Adapter::take_timing_note`]).
    timing_note: bool,
    /// Set by reading a declared timer output ([`Adapter::take_timer_note`]).
    timer_note: bool,
    /// When the earliest input not yet followed by an output was written (or the session
    /// started): the start of the delay measured at the next output.
    waiting_since: Option<Instant>,
    /// The largest such delay.
    largest_latency: Option<Duration>,
    /// The factor exported to each process started ([`Adapter::set_timing_scale`]).
    timing_scale: u32,
}

impl LineAdapter {
    /// An adapter for `system`; nothing is started or connected before the first reset. The
    /// response timeout bounds the wait for the rest of an unfinished line, the start-up
    /// allowance the wait for a connection.
    pub fn new(system: System, timeouts: Timeouts) -> Self {
        LineAdapter {
            system,
            timing_scale: timeouts.scale,
            timeouts,
            session: None,
            timing_note: false,
            timer_note: false,
            waiting_since: None,
            largest_latency: None,
        }
    }

    /// An adapter for the process of a shell command; `line_timeout` bounds the wait for the
    /// rest of an unfinished line (the response timeout).
    pub fn process(command: impl Into<String>, line_timeout: Duration) -> Self {
        let timeouts = Timeouts {
            response: line_timeout,
            ..Timeouts::default()
        };
        LineAdapter::new(System::Command(command.into()), timeouts)
    }

    fn stop(&mut self) {
        if let Some(mut p) = self.session.take() {
            p.stop();
        }
    }

    /// The session, marked broken when `result` is an error.
    fn note<T>(&mut self, result: Result<T, String>) -> Result<T, String> {
        if result.is_err()
            && let Some(s) = self.session.as_mut()
        {
            s.broken = true;
        }
        result
    }
}

impl Drop for LineAdapter {
    fn drop(&mut self) {
        self.stop();
    }
}

impl Adapter for LineAdapter {
    fn reset(&mut self) -> Result<(), String> {
        self.waiting_since = Some(Instant::now());
        if let Some(label) = self.system.reset_label()
            && let Some(s) = self.session.as_mut()
            && s.reset_in_place(label)
        {
            return Ok(());
        }
        self.stop();
        let wait = self.timeouts.startup;
        self.session = Some(match &self.system {
            System::Command(command) => Session::start(command, self.timing_scale)?,
            System::Connect { address, .. } => Session::connected(tcp::connect(address, wait)?)?,
            System::Listen { listener, .. } => Session::connected(listener.accept(wait)?)?,
        });
        Ok(())
    }

    fn check_alive(&mut self) -> Result<(), String> {
        match self.session.as_mut().and_then(Session::gone) {
            Some(why) => Err(format!("{why} at the end of the test")),
            None => Ok(()),
        }
    }

    fn send(&mut self, input: &str) -> Result<(), String> {
        let p = self.session.as_mut().ok_or("the system is not running")?;
        let result = if let Some(status) = p.exited {
            Err(format!("{} before input `{input}`", exit_text(status)))
        } else if p
            .input
            .as_ref()
            .is_some_and(|tx| tx.send(input.to_owned()).is_ok())
        {
            self.waiting_since.get_or_insert_with(Instant::now);
            Ok(())
        } else {
            let why = p.exit_or("the system closed its standard input");
            Err(format!("{why} before input `{input}`"))
        };
        self.note(result)
    }

    fn receive(&mut self, timeout: Duration) -> Result<Observation, String> {
        let result = self.receive_line(timeout);
        match &result {
            Ok(Observation::Output(label)) => {
                if self.timeouts.timer_outputs.contains(label) {
                    self.timer_note = true;
                }
                if let Some(since) = self.waiting_since.take() {
                    let delay = since.elapsed();
                    self.largest_latency =
                        Some(self.largest_latency.map_or(delay, |d| d.max(delay)));
                }
            }
            // Answered by silence: the next output answers a later input.
            Ok(Observation::Quiescence) => self.waiting_since = None,
            Err(_) => {}
        }
        self.note(result)
    }

    fn take_timing_note(&mut self) -> bool {
        std::mem::take(&mut self.timing_note)
    }

    fn take_timer_note(&mut self) -> bool {
        std::mem::take(&mut self.timer_note)
    }

    fn largest_latency(&self) -> Option<Duration> {
        self.largest_latency
    }

    fn set_timing_scale(&mut self, scale: u32) {
        self.timing_scale = scale;
    }
}

impl LineAdapter {
    fn receive_line(&mut self, timeout: Duration) -> Result<Observation, String> {
        let line_timeout = self.timeouts.response;
        let p = self.session.as_mut().ok_or("the system is not running")?;
        let deadline = Instant::now() + timeout;
        // Until when the drain at the end of the wait keeps reading output already written.
        let mut drain_limit = None;
        loop {
            // After an exit, only the rest of the output is read; an unfinished line means an
            // output is on its way, so it gets the response timeout.
            let limit = match (p.drain_until, &p.partial) {
                (Some(until), _) => until,
                (None, Some((_, since))) => deadline.max(*since + line_timeout),
                (None, None) => deadline,
            };
            // A wait that is over (or a timeout of zero) still takes what has already arrived.
            let now = Instant::now();
            let event = if now >= limit {
                p.output.try_recv().map_err(|e| match e {
                    TryRecvError::Empty => RecvTimeoutError::Timeout,
                    TryRecvError::Disconnected => RecvTimeoutError::Disconnected,
                })
            } else {
                let asked = (limit - now).min(POLL);
                let event = p.output.recv_timeout(asked);
                if starved(asked, now.elapsed()) {
                    self.timing_note = true;
                }
                event
            };
            if now >= limit && matches!(event, Err(RecvTimeoutError::Timeout)) {
                // Before silence is concluded: output the system has written but the reader
                // has not passed on yet (a starved tester) is waited for, not read as silence.
                if p.exited.is_none() && p.output_pending() {
                    let until = *drain_limit.get_or_insert(now + line_timeout);
                    if now < until {
                        self.timing_note = true;
                        if let Ok(event) = p.output.recv_timeout(POLL) {
                            match p.take_event(event) {
                                Some(result) => return result,
                                None => continue,
                            }
                        }
                        continue;
                    }
                }
                if p.partial.is_some() {
                    // An unfinished line given up on: the rest may be late, not missing.
                    self.timing_note = true;
                }
                return match (&p.exited, &p.partial) {
                    (Some(_), _) => Err(p.end_message()),
                    (None, Some((text, _))) => Err(format!(
                        "the system wrote `{text}` without a newline and did not finish the line within {} ms",
                        line_timeout.as_millis()
                    )),
                    (None, None) => Ok(Observation::Quiescence),
                };
            }
            match event {
                Ok(event) => {
                    if let Some(result) = p.take_event(event) {
                        return result;
                    }
                }
                Err(RecvTimeoutError::Disconnected) => return Err(p.ended()),
                Err(RecvTimeoutError::Timeout) => p.poll_exit(),
            }
        }
    }
}

impl Session {
    /// What an event from the reader means to a wait: its end (an output or a failure), or
    /// `None` to wait on (the start of an unfinished line).
    fn take_event(&mut self, event: Event) -> Option<Result<Observation, String>> {
        match event {
            Event::Line(label) => {
                self.partial = None;
                Some(Ok(Observation::Output(label)))
            }
            Event::Partial(text) => {
                if self.partial.is_none() {
                    self.partial = Some((text, Instant::now()));
                }
                None
            }
            Event::Broken(why) => Some(Err(why)),
            Event::End => Some(Err(self.ended())),
        }
    }

    /// The end of the output: why it ended.
    fn ended(&mut self) -> String {
        if let Peer::Socket { closed, .. } = &self.peer {
            // Known from now on, whether or not the reader has marked it yet.
            closed.store(true, Ordering::SeqCst);
        }
        self.end_message()
    }

    /// Whether the system's output holds bytes (or its end) that the reader has not taken
    /// yet: a non-blocking look at the pipe or socket.
    fn output_pending(&self) -> bool {
        #[cfg(unix)]
        if let Some(fd) = &self.watch {
            use std::os::fd::AsRawFd;
            let mut poll = libc::pollfd {
                fd: fd.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            };
            // SAFETY: `poll` is a valid pollfd for the duration of the call, and the count is 1;
            // a timeout of 0 never blocks.
            let ready = unsafe { libc::poll(&mut poll, 1, 0) };
            return ready > 0 && poll.revents != 0;
        }
        false
    }
}

/// Why the system cannot be tested at all, or `None`. A command: it cannot be started, or the
/// shell reports within [`START_CHECK`] that it cannot run it (status 126: not executable, 127:
/// not found). A system to connect to: no connection within the start-up allowance `startup`.
/// (A system that connects to the tester is waited for by every reset.) The pytest and Cargo
/// runtimes make the same check once per session, so such a system is one error of the run
/// (exit status 2), not a failure per test.
pub fn startup_problem(system: &System, startup: Duration) -> Option<String> {
    let command = match system {
        System::Command(command) => command,
        System::Connect { address, .. } => {
            return tcp::connect(address, startup).err();
        }
        System::Listen { .. } => return None,
    };
    let mut session = match Session::start(command, 1) {
        Ok(p) => p,
        Err(e) => return Some(e),
    };
    let deadline = Instant::now() + START_CHECK;
    let mut problem = None;
    while Instant::now() < deadline {
        session.poll_exit();
        if let Some(status) = session.exited {
            if status.code().is_some_and(|c| CANNOT_RUN.contains(&c)) {
                problem = Some(format!("cannot start: {}", exit_text(status)));
            }
            break;
        }
        thread::sleep(POLL);
    }
    session.stop();
    problem
}
