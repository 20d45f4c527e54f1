//! Source positions and the parse error every model parser reports.
//!
//! Parsers keep byte offsets while they work and convert an offset to a 1-based line and column
//! (counted in characters) only when they report an error or a warning, so the fast path never
//! pays for line bookkeeping.

use std::fmt;

/// A byte range `start..end` in a model file.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    /// Offset of the first byte.
    pub start: usize,
    /// Offset one past the last byte.
    pub end: usize,
}

impl Span {
    /// The range `start..end`.
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }
}

/// A 1-based line and column (in characters) of a file.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Position {
    /// Line, from 1.
    pub line: usize,
    /// Column in characters, from 1.
    pub column: usize,
}

impl Position {
    /// The position of byte `offset` in `text` (clamped to the end of the text; an offset inside
    /// a multi-byte character counts as that character).
    pub fn of_offset(text: &str, offset: usize) -> Self {
        let offset = offset.min(text.len());
        let before = &text.as_bytes()[..offset];
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
        // Count characters: every byte that does not continue a UTF-8 sequence starts one.
        let column = 1 + before[line_start..]
            .iter()
            .filter(|&&b| (b & 0xC0) != 0x80)
            .count();
        Position { line, column }
    }
}

/// A model file that does not follow its format, displayed as `FILE:LINE:COL: found X, expected Y`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{column}: found {found}, expected {expected}")]
pub struct ParseError {
    /// The file (as given by the user).
    pub file: String,
    /// Line, from 1.
    pub line: usize,
    /// Column in characters, from 1.
    pub column: usize,
    /// What the parser found there.
    pub found: String,
    /// What it expected instead.
    pub expected: String,
}

impl ParseError {
    /// An error at byte `offset` of `text`.
    pub fn at(
        file: &str,
        text: &str,
        offset: usize,
        found: impl Into<String>,
        expected: impl Into<String>,
    ) -> Self {
        let Position { line, column } = Position::of_offset(text, offset);
        ParseError {
            file: file.to_owned(),
            line,
            column,
            found: found.into(),
            expected: expected.into(),
        }
    }

    /// The position of the error.
    pub fn position(&self) -> Position {
        Position {
            line: self.line,
            column: self.column,
        }
    }
}

/// Something suspicious that is not an error, displayed as `FILE:LINE:COL: message`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// The file.
    pub file: String,
    /// Line, from 1.
    pub line: usize,
    /// Column in characters, from 1.
    pub column: usize,
    /// What is suspicious and what the parser did about it.
    pub message: String,
}

impl Warning {
    /// A warning at byte `offset` of `text`.
    pub fn at(file: &str, text: &str, offset: usize, message: impl Into<String>) -> Self {
        let Position { line, column } = Position::of_offset(text, offset);
        Warning {
            file: file.to_owned(),
            line,
            column,
            message: message.into(),
        }
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file, self.line, self.column, self.message
        )
    }
}

/// Describes the text at `offset` for a `found ...` message: the character in backticks, or
/// `end of file`.
pub fn describe_char_at(text: &str, offset: usize) -> String {
    match text.get(offset..).and_then(|rest| rest.chars().next()) {
        None => "end of file".to_owned(),
        Some('\n') => "end of line".to_owned(),
        Some(c) if c.is_control() => format!("control character {:?}", c),
        Some(c) => format!("`{c}`"),
    }
}

/// Shortens a piece of input quoted in a message to at most 40 characters.
pub fn excerpt(s: &str) -> String {
    const MAX: usize = 40;
    if s.chars().count() <= MAX {
        s.to_owned()
    } else {
        let cut: String = s.chars().take(MAX).collect();
        format!("{cut}…")
    }
}

/// Clamps a reported line and column to the text: parsers may report the line after a final
/// line break, or a column past the end of a line, for an error at the end of the input.
pub(crate) fn clamp(text: &str, line: usize, column: usize) -> (usize, usize) {
    let lines: Vec<&str> = text.split('\n').collect();
    let line = line.clamp(1, lines.len());
    let len = lines[line - 1].chars().count();
    (line, column.clamp(1, len + 1))
}

/// The byte offset of a 1-based line and column (in characters), if inside the text.
pub(crate) fn offset_of(text: &str, line: usize, column: usize) -> Option<usize> {
    let start = if line == 1 {
        0
    } else {
        text.match_indices('\n').nth(line - 2).map(|(i, _)| i + 1)?
    };
    let line_text = &text[start..];
    line_text
        .char_indices()
        .nth(column - 1)
        .map(|(i, _)| start + i)
        .or(Some(text.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_lines_and_characters() {
        let text = "ab\ncé d\n";
        assert_eq!(
            Position::of_offset(text, 0),
            Position { line: 1, column: 1 }
        );
        assert_eq!(
            Position::of_offset(text, 3),
            Position { line: 2, column: 1 }
        );
        // `é` is two bytes but one column.
        assert_eq!(
            Position::of_offset(text, 7),
            Position { line: 2, column: 4 }
        );
        assert_eq!(
            Position::of_offset(text, 100),
            Position { line: 3, column: 1 }
        );
    }

    #[test]
    fn parse_error_display_shape() {
        let e = ParseError::at("m.aut", "x\ny", 2, "`y`", "`des`");
        assert_eq!(e.to_string(), "m.aut:2:1: found `y`, expected `des`");
    }

    #[test]
    fn describes_characters() {
        assert_eq!(describe_char_at("a", 0), "`a`");
        assert_eq!(describe_char_at("a", 1), "end of file");
        assert_eq!(describe_char_at("\n", 0), "end of line");
    }
}
