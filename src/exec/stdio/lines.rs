//! The line reader of the stdio protocol: the system's output (a pipe or a socket) cut into
//! lines, one label each, in a bounded buffer: a line is the label's bytes exactly after one
//! trailing `\n` or `\r\n`; invalid UTF-8, an empty line or a line longer than
//! [`MAX_LINE_BYTES`] breaks the protocol (the rules of the [module doc](super)).

use std::io::Read;
use std::sync::mpsc::SyncSender;

/// The longest output line accepted, newline excluded.
pub const MAX_LINE_BYTES: usize = 64 * 1024;
/// Lines read ahead of the tester at most (a flooding system then blocks on its pipe).
pub(super) const QUEUED_LINES: usize = 1024;
/// Bytes of an unfinished line quoted in messages.
const QUOTED_BYTES: usize = 40;

/// What the reader thread passes on from the system's stdout.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Event {
    /// A complete line, without its line end.
    Line(String),
    /// Bytes of a line whose newline has not arrived yet (the first few, for messages).
    Partial(String),
    /// End of the output.
    End,
    /// Output that breaks the protocol; nothing more is read.
    Broken(String),
}

/// Reads `stdout` line by line into `events` until the end, a protocol violation, or until the
/// receiver is gone; `true` when the end of the output was read. Memory stays bounded by
/// [`MAX_LINE_BYTES`] whatever the system writes.
pub(super) fn read_lines(mut stdout: impl Read, events: &SyncSender<Event>) -> bool {
    let mut line: Vec<u8> = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        let n = match stdout.read(&mut chunk) {
            Ok(0) => {
                let _ = events.send(Event::End);
                return true;
            }
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            // A connection the system reset is closed, as one it shut down.
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => {
                let _ = events.send(Event::End);
                return true;
            }
            Err(e) => {
                let _ = events.send(Event::Broken(format!("cannot read the output: {e}")));
                return false;
            }
        };
        let mut rest = &chunk[..n];
        while let Some(end) = rest.iter().position(|&b| b == b'\n') {
            line.extend_from_slice(&rest[..end]);
            rest = &rest[end + 1..];
            let event = complete_line(std::mem::take(&mut line));
            let stop = matches!(event, Event::Broken(_));
            if events.send(event).is_err() || stop {
                return false;
            }
        }
        line.extend_from_slice(rest);
        let event = if line.len() > MAX_LINE_BYTES {
            Event::Broken(too_long())
        } else if line.is_empty() {
            continue;
        } else {
            Event::Partial(quoted(&line))
        };
        let stop = matches!(event, Event::Broken(_));
        if events.send(event).is_err() || stop {
            return false;
        }
    }
}

fn too_long() -> String {
    format!("the system wrote a line longer than {MAX_LINE_BYTES} bytes")
}

/// The first bytes of an unfinished line, readably.
fn quoted(line: &[u8]) -> String {
    let head = &line[..line.len().min(QUOTED_BYTES)];
    String::from_utf8_lossy(head).escape_debug().to_string()
}

/// A complete line (newline removed) as an event: a label, or why it is not one. One `\r`
/// before the newline is removed too; nothing else is trimmed.
fn complete_line(mut line: Vec<u8>) -> Event {
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    if line.len() > MAX_LINE_BYTES {
        return Event::Broken(too_long());
    }
    match String::from_utf8(line) {
        Err(e) => Event::Broken(format!(
            "the system wrote invalid UTF-8 (`{}`)",
            quoted(e.as_bytes())
        )),
        Ok(text) if text.is_empty() => Event::Broken(
            "the system wrote an empty line (the protocol is one label per line)".into(),
        ),
        Ok(text) => Event::Line(text),
    }
}
