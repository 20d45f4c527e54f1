//! How the tester reaches a system under test on the line protocol of [`super::stdio`]: the
//! pipes of a process it starts (`--sut COMMAND`), a TCP connection it makes to a system that
//! listens (`--sut-connect HOST:PORT`), or one the system makes to the tester
//! (`--sut-listen HOST:PORT`), the way TorX-style adapters reach a system over sockets (TorX
//! thesis Sec. 4: the adapter translates labels to real interactions).
//!
//! Only the carrier differs: lines, timeouts and verdicts are those of the module doc of
//! [`super::stdio`]. A connection plays the role of a process: each one is a fresh instance of
//! the system (reset = close it and connect, or accept, anew), unless the system names a reset
//! label, which is then sent as a line over the open connection instead (outputs not yet taken
//! are dropped; a connection that ended or broke the protocol is replaced). The system closing
//! the connection is what a process exiting is: it fails the running test. Connecting and
//! accepting wait at most the start-up allowance; a system that is not there by then is an
//! error of the run, not a verdict.

use std::fmt;
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

/// How often connecting and accepting are tried again until their deadline.
const RETRY: Duration = Duration::from_millis(20);

/// How the tester reaches the system, as the user named it (plain data: nothing is bound or
/// started; [`SystemAccess::open`] does that).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SystemAccess {
    /// A shell command started anew for every test; the lines go over its stdin and stdout.
    Command(String),
    /// A system listening at `HOST:PORT`; every test connects anew, or sends `reset_label`.
    Connect {
        /// `HOST:PORT`.
        address: String,
        /// A line that resets the system over the open connection.
        reset_label: Option<String>,
    },
    /// The tester listens at `HOST:PORT` and every test waits for the system to connect, or
    /// sends `reset_label`.
    Listen {
        /// `HOST:PORT`.
        address: String,
        /// A line that resets the system over the open connection.
        reset_label: Option<String>,
    },
}

impl SystemAccess {
    /// The system ready to be reached: for [`SystemAccess::Listen`], the address bound (one
    /// listener shared by every adapter of the run).
    pub fn open(&self) -> Result<System, String> {
        if let SystemAccess::Connect {
            reset_label: Some(label),
            ..
        }
        | SystemAccess::Listen {
            reset_label: Some(label),
            ..
        } = self
            && (label.is_empty() || label.chars().any(char::is_control))
        {
            return Err(format!(
                "the reset label `{}` is not one line (it is empty or holds a control character)",
                super::stdio::shown_label(label)
            ));
        }
        Ok(match self {
            SystemAccess::Command(command) => System::Command(command.clone()),
            SystemAccess::Connect {
                address,
                reset_label,
            } => System::Connect {
                address: address.clone(),
                reset_label: reset_label.clone(),
            },
            SystemAccess::Listen {
                address,
                reset_label,
            } => System::Listen {
                listener: Arc::new(Listener::bind(address)?),
                reset_label: reset_label.clone(),
            },
        })
    }
}

impl fmt::Display for SystemAccess {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SystemAccess::Command(command) => f.write_str(command),
            SystemAccess::Connect { address, .. } => write!(f, "connect to {address}"),
            SystemAccess::Listen { address, .. } => write!(f, "listen at {address}"),
        }
    }
}

/// A system ready to be reached by [`super::stdio::LineAdapter`]s (cloned for each).
#[derive(Clone, Debug)]
pub enum System {
    /// A shell command.
    Command(String),
    /// A system listening at `address`.
    Connect {
        /// `HOST:PORT`.
        address: String,
        /// A line that resets the system over the open connection.
        reset_label: Option<String>,
    },
    /// The tester's listener the system connects to.
    Listen {
        /// Bound once for the run.
        listener: Arc<Listener>,
        /// A line that resets the system over the open connection.
        reset_label: Option<String>,
    },
}

impl System {
    /// The reset label, if the system has one.
    pub fn reset_label(&self) -> Option<&str> {
        match self {
            System::Command(_) => None,
            System::Connect { reset_label, .. } | System::Listen { reset_label, .. } => {
                reset_label.as_deref()
            }
        }
    }
}

impl fmt::Display for System {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            System::Command(command) => f.write_str(command),
            System::Connect { address, .. } => write!(f, "connect to {address}"),
            System::Listen { listener, .. } => write!(f, "listen at {}", listener.address),
        }
    }
}

/// The addresses `address` (`HOST:PORT`) names.
fn resolve(address: &str) -> Result<Vec<SocketAddr>, String> {
    let addresses: Vec<SocketAddr> = address
        .to_socket_addrs()
        .map_err(|e| format!("cannot resolve `{address}` (expected HOST:PORT): {e}"))?
        .collect();
    if addresses.is_empty() {
        return Err(format!("`{address}` names no address"));
    }
    Ok(addresses)
}

/// A connection to the system listening at `address`, tried again until `wait` has passed
/// (the system may still be starting); the last error after that.
pub fn connect(address: &str, wait: Duration) -> Result<TcpStream, String> {
    let addresses = resolve(address)?;
    let deadline = Instant::now() + wait;
    loop {
        let mut last = None;
        for a in &addresses {
            let left = deadline.saturating_duration_since(Instant::now());
            match TcpStream::connect_timeout(a, left.max(RETRY)) {
                Ok(stream) => return Ok(stream),
                Err(e) => last = Some(e),
            }
        }
        if Instant::now() >= deadline {
            let why = last.map_or_else(String::new, |e| format!(": {e}"));
            return Err(format!(
                "cannot connect to {address} within the start-up allowance of {} ms{why}",
                wait.as_millis()
            ));
        }
        thread::sleep(RETRY);
    }
}

/// The tester's listening socket, which systems connect to.
#[derive(Debug)]
pub struct Listener {
    socket: TcpListener,
    /// As the user gave it.
    address: String,
}

impl Listener {
    /// Listens at `address`.
    pub fn bind(address: &str) -> Result<Listener, String> {
        let socket = TcpListener::bind(resolve(address)?.as_slice())
            .map_err(|e| format!("cannot listen at {address}: {e}"))?;
        socket
            .set_nonblocking(true)
            .map_err(|e| format!("cannot listen at {address}: {e}"))?;
        Ok(Listener {
            socket,
            address: address.to_owned(),
        })
    }

    /// The address bound (its port chosen by the system for port 0).
    pub fn local_address(&self) -> Option<SocketAddr> {
        self.socket.local_addr().ok()
    }

    /// The next connection of a system, waited for at most `wait`.
    pub fn accept(&self, wait: Duration) -> Result<TcpStream, String> {
        let deadline = Instant::now() + wait;
        loop {
            match self.socket.accept() {
                Ok((stream, _)) => {
                    stream
                        .set_nonblocking(false)
                        .map_err(|e| format!("cannot use the connection: {e}"))?;
                    return Ok(stream);
                }
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(format!("cannot accept at {}: {e}", self.address)),
            }
            if Instant::now() >= deadline {
                return Err(format!(
                    "no system connected to {} within the start-up allowance of {} ms",
                    self.address,
                    wait.as_millis()
                ));
            }
            thread::sleep(RETRY.min(deadline.saturating_duration_since(Instant::now())));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufRead, BufReader, Write};

    #[test]
    fn a_missing_system_is_a_clear_error_after_the_wait() {
        // A port just freed: nothing listens there.
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let started = Instant::now();
        let e = connect(&format!("127.0.0.1:{port}"), Duration::from_millis(100)).unwrap_err();
        assert!(started.elapsed() >= Duration::from_millis(100));
        assert!(e.starts_with("cannot connect to 127.0.0.1:"), "{e}");
        assert!(e.contains("within the start-up allowance of 100 ms"), "{e}");
        let listener = Listener::bind("127.0.0.1:0").unwrap();
        let e = listener.accept(Duration::from_millis(50)).unwrap_err();
        assert_eq!(
            e,
            "no system connected to 127.0.0.1:0 within the start-up allowance of 50 ms"
        );
        let e = connect("no port here", Duration::ZERO).unwrap_err();
        assert!(e.contains("expected HOST:PORT"), "{e}");
    }

    /// A server answering each line with `pong` (and `reset` with nothing) on `connections`
    /// connections one after the other, closing each after `lines` lines; the lines it read.
    fn pong_server(connections: usize, lines: usize) -> (String, thread::JoinHandle<Vec<String>>) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let address = listener.local_addr().unwrap().to_string();
        let server = thread::spawn(move || {
            let mut read = Vec::new();
            for _ in 0..connections {
                let (stream, _) = listener.accept().unwrap();
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                for _ in 0..lines {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap() == 0 {
                        break;
                    }
                    if line != "reset\n" {
                        (&stream).write_all(b"pong\n").unwrap();
                    }
                    read.push(line);
                }
            }
            read
        });
        (address, server)
    }

    #[test]
    fn a_line_adapter_reads_lines_over_a_connection_and_fails_when_it_closes() {
        use crate::exec::stdio::{Adapter, LineAdapter, Observation, Timeouts};
        let (address, server) = pong_server(2, 1);
        let system = SystemAccess::Connect {
            address,
            reset_label: None,
        };
        let timeouts = Timeouts::from_millis(2000, 100, 500);
        let mut adapter = LineAdapter::new(system.open().unwrap(), timeouts);
        for _ in 0..2 {
            adapter.reset().unwrap();
            adapter.send("ping").unwrap();
            let wait = Duration::from_millis(500);
            assert_eq!(
                adapter.receive(wait),
                Ok(Observation::Output("pong".into()))
            );
            assert_eq!(
                adapter.receive(wait),
                Err("the system closed the connection".into())
            );
            assert_eq!(
                adapter.check_alive(),
                Err("the system closed the connection at the end of the test".into())
            );
        }
        assert_eq!(server.join().unwrap(), ["ping\n", "ping\n"]);
    }

    #[test]
    fn a_reset_label_resets_over_the_open_connection() {
        use crate::exec::stdio::{Adapter, LineAdapter, Observation, Timeouts};
        let (address, server) = pong_server(1, 6);
        let system = SystemAccess::Listen {
            address: "127.0.0.1:0".into(),
            reset_label: Some("bad\nlabel".into()),
        };
        assert!(system.open().unwrap_err().contains("not one line"));
        let system = SystemAccess::Connect {
            address,
            reset_label: Some("reset".into()),
        };
        let timeouts = Timeouts::from_millis(2000, 100, 500);
        let mut adapter = LineAdapter::new(system.open().unwrap(), timeouts);
        for _ in 0..3 {
            adapter.reset().unwrap();
            adapter.send("ping").unwrap();
            let wait = Duration::from_millis(500);
            assert_eq!(
                adapter.receive(wait),
                Ok(Observation::Output("pong".into()))
            );
            assert_eq!(adapter.check_alive(), Ok(()));
        }
        drop(adapter);
        assert_eq!(
            server.join().unwrap(),
            ["ping\n", "reset\n", "ping\n", "reset\n", "ping\n"]
        );
    }

    #[test]
    fn a_system_started_late_is_connected_within_the_wait() {
        let probe = TcpListener::bind("127.0.0.1:0").unwrap();
        let address = probe.local_addr().unwrap();
        drop(probe);
        let server = thread::spawn(move || {
            thread::sleep(Duration::from_millis(100));
            let listener = TcpListener::bind(address).unwrap();
            let (stream, _) = listener.accept().unwrap();
            let mut line = String::new();
            BufReader::new(&stream).read_line(&mut line).unwrap();
            line
        });
        let mut stream = connect(&address.to_string(), Duration::from_secs(5)).unwrap();
        stream.write_all(b"ping\n").unwrap();
        assert_eq!(server.join().unwrap(), "ping\n");
    }
}
