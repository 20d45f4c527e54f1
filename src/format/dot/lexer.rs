//! The DOT tokenizer: tokens as kinds and byte spans (quoted strings with escapes, line
//! continuations and `+` concatenation, bare and numeric ids, HTML strings, comments), read one
//! ahead by the parser.

use super::super::position::{ParseError, Span, describe_char_at, excerpt};
use std::borrow::Cow;

/// A token: its kind and span, nothing owned, so that peeking copies 24 bytes. The text of an id
/// is taken from its span when the parser wants it ([`Lexer::value`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Tok {
    /// A bare, numeric, quoted or HTML id (keywords are bare ids).
    Id(IdKind),
    LBrace,
    RBrace,
    LBracket,
    RBracket,
    Eq,
    Semi,
    Comma,
    Colon,
    Plus,
    /// `->` (directed) or `--` (undirected).
    EdgeOp(bool),
    Eof,
}

/// What kind of id a [`Tok::Id`] is, which says how its text is read from its span.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum IdKind {
    /// An identifier (or keyword): the span.
    Bare,
    /// A numeral: the span.
    Numeral,
    /// `<...>`: the span without its outer brackets.
    Html,
    /// `"..."`: the span without its quotes, with escapes (`\"`, `\\`, line continuations)
    /// resolved when `escaped`.
    Quoted { escaped: bool },
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Token {
    pub(super) tok: Tok,
    pub(super) span: Span,
}

pub(super) struct Lexer<'a> {
    pub(super) file: &'a str,
    pub(super) text: &'a str,
    pub(super) pos: usize,
}

/// The parser's results: the error is boxed, so that the `Ok` side of the many small results
/// (a token is 24 bytes, a `ParseError` 88) is what gets moved.
pub(super) type PResult<T> = Result<T, Box<ParseError>>;

#[inline]
pub(super) fn is_id_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b >= 0x80
}

#[inline]
pub(super) fn is_id_continue(b: u8) -> bool {
    ID_CONTINUE[b as usize]
}

/// [`is_id_continue`] as a table: letters, digits, `_` and every byte of a multi-byte UTF-8
/// character.
static ID_CONTINUE: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80;
        b += 1;
    }
    t
};

/// Scans a double-quoted string whose opening quote is at `open`: the offset of the closing
/// quote and whether the text has escapes to resolve ([`unescape`]), or `None` when it is not
/// closed.
#[inline]
fn scan_quoted(b: &[u8], open: usize) -> Option<(usize, bool)> {
    let mut escaped = false;
    let mut i = open + 1;
    while i < b.len() {
        match b[i] {
            b'"' => return Some((i, escaped)),
            b'\\' => match b.get(i + 1) {
                Some(b'"' | b'\n' | b'\\') => {
                    escaped = true;
                    i += 2;
                }
                Some(b'\r') if b.get(i + 2) == Some(&b'\n') => {
                    escaped = true;
                    i += 3;
                }
                _ => i += 1,
            },
            _ => i += 1,
        }
    }
    None
}

/// The value of the inside of a quoted string: `\"` is a quote, `\\` a backslash,
/// backslash-newline continues the line, every other backslash stays as written (Graphviz
/// escapes such as `\n` are kept verbatim). The writer doubles every backslash, so any text reads
/// back as written.
fn unescape(inner: &str) -> String {
    let b = inner.as_bytes();
    let mut out = String::with_capacity(inner.len());
    let (mut i, mut chunk) = (0, 0);
    while i < b.len() {
        if b[i] != b'\\' {
            i += 1;
            continue;
        }
        // The text before the backslash is kept, then `skip` bytes are dropped, `keep` kept.
        let (skip, keep) = match b.get(i + 1) {
            Some(b'"' | b'\\') => (1, 1),
            Some(b'\n') => (2, 0),
            Some(b'\r') if b.get(i + 2) == Some(&b'\n') => (3, 0),
            _ => {
                i += 1;
                continue;
            }
        };
        out.push_str(&inner[chunk..i]);
        chunk = i + skip;
        i += skip + keep;
    }
    out.push_str(&inner[chunk..]);
    out
}

impl<'a> Lexer<'a> {
    pub(super) fn error(
        &self,
        at: usize,
        found: impl Into<String>,
        expected: impl Into<String>,
    ) -> Box<ParseError> {
        Box::new(ParseError::at(self.file, self.text, at, found, expected))
    }

    #[inline]
    pub(super) fn skip_trivia(&mut self) -> PResult<()> {
        let b = self.text.as_bytes();
        loop {
            match b.get(self.pos) {
                Some(b' ' | b'\t' | b'\r' | b'\n' | b'\x0c') => self.pos += 1,
                Some(b'#') => self.skip_line(),
                Some(b'/') if b.get(self.pos + 1) == Some(&b'/') => self.skip_line(),
                Some(b'/') if b.get(self.pos + 1) == Some(&b'*') => {
                    let start = self.pos;
                    match self.text[self.pos + 2..].find("*/") {
                        Some(i) => self.pos += 2 + i + 2,
                        None => {
                            return Err(self.error(
                                start,
                                "an unterminated comment `/*`",
                                "`*/` closing it",
                            ));
                        }
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    pub(super) fn skip_line(&mut self) {
        self.pos = self.text[self.pos..]
            .find('\n')
            .map_or(self.text.len(), |i| self.pos + i);
    }

    #[inline]
    pub(super) fn next(&mut self) -> PResult<Token> {
        self.skip_trivia()?;
        let b = self.text.as_bytes();
        let start = self.pos;
        let Some(&c) = b.get(start) else {
            return Ok(Token {
                tok: Tok::Eof,
                span: Span::new(start, start),
            });
        };
        let single = |tok| (tok, start + 1);
        let (tok, end) = match c {
            b'{' => single(Tok::LBrace),
            b'}' => single(Tok::RBrace),
            b'[' => single(Tok::LBracket),
            b']' => single(Tok::RBracket),
            b'=' => single(Tok::Eq),
            b';' => single(Tok::Semi),
            b',' => single(Tok::Comma),
            b':' => single(Tok::Colon),
            b'+' => single(Tok::Plus),
            b'-' if b.get(start + 1) == Some(&b'>') => (Tok::EdgeOp(true), start + 2),
            b'-' if b.get(start + 1) == Some(&b'-') => (Tok::EdgeOp(false), start + 2),
            b'"' => self.quoted()?,
            b'<' => self.html()?,
            b'-' | b'.' | b'0'..=b'9' => self.numeral()?,
            c if is_id_start(c) => {
                let mut end = start + 1;
                while end < b.len() && is_id_continue(b[end]) {
                    end += 1;
                }
                (Tok::Id(IdKind::Bare), end)
            }
            _ => {
                return Err(self.error(
                    start,
                    describe_char_at(self.text, start),
                    "an id, a quoted string, `{`, `}`, `[`, `]`, `=`, `;`, `,` or an edge `->`",
                ));
            }
        };
        self.pos = end;
        Ok(Token {
            tok,
            span: Span::new(start, end),
        })
    }

    /// The text of id token `t` of kind `kind`.
    #[inline]
    pub(super) fn value(&self, t: &Token, kind: IdKind) -> Cow<'a, str> {
        let (start, end) = (t.span.start, t.span.end);
        match kind {
            IdKind::Bare | IdKind::Numeral => Cow::Borrowed(&self.text[start..end]),
            IdKind::Html | IdKind::Quoted { escaped: false } => {
                Cow::Borrowed(&self.text[start + 1..end - 1])
            }
            IdKind::Quoted { escaped: true } => {
                Cow::Owned(unescape(&self.text[start + 1..end - 1]))
            }
        }
    }

    /// Whether `t` is the keyword `kw` (a bare id, any case).
    #[inline]
    pub(super) fn is_keyword(&self, t: &Token, kw: &str) -> bool {
        t.tok == Tok::Id(IdKind::Bare)
            && self.text[t.span.start..t.span.end].eq_ignore_ascii_case(kw)
    }

    /// `[-]?(.[0-9]+ | [0-9]+(.[0-9]*)?)`
    #[inline]
    pub(super) fn numeral(&self) -> PResult<(Tok, usize)> {
        let b = self.text.as_bytes();
        let start = self.pos;
        let mut i = start;
        if b[i] == b'-' {
            i += 1;
        }
        let digits_start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let mut digits = i - digits_start;
        if i < b.len() && b[i] == b'.' {
            i += 1;
            let frac = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            digits += i - frac;
        }
        if digits == 0 {
            return Err(self.error(
                start,
                describe_char_at(self.text, start),
                "a number, an id or an edge `->`",
            ));
        }
        Ok((Tok::Id(IdKind::Numeral), i))
    }

    /// A double-quoted string ([`scan_quoted`]).
    #[inline]
    pub(super) fn quoted(&self) -> PResult<(Tok, usize)> {
        match scan_quoted(self.text.as_bytes(), self.pos) {
            Some((close, escaped)) => Ok((Tok::Id(IdKind::Quoted { escaped }), close + 1)),
            None => Err(self.error(self.pos, "an unterminated string", "a closing `\"`")),
        }
    }

    /// An HTML string `<...>` with balanced angle brackets; the value is the text inside.
    pub(super) fn html(&self) -> PResult<(Tok, usize)> {
        let b = self.text.as_bytes();
        let open = self.pos;
        let mut depth = 0usize;
        for (i, &c) in b.iter().enumerate().skip(open) {
            match c {
                b'<' => depth += 1,
                b'>' => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok((Tok::Id(IdKind::Html), i + 1));
                    }
                }
                _ => {}
            }
        }
        Err(self.error(open, "an unterminated HTML string", "a `>` closing the `<`"))
    }
}

pub(super) fn describe(tok: &Token, text: &str) -> String {
    match &tok.tok {
        Tok::Eof => "end of file".to_owned(),
        Tok::Id(..) => format!("`{}`", excerpt(&text[tok.span.start..tok.span.end])),
        _ => format!("`{}`", &text[tok.span.start..tok.span.end]),
    }
}
