//! Graphviz DOT models: Mealy machines with `label="in / out"` edges (the automata-wiki and
//! LearnLib convention) and LTSs with `?a`/`!x`/`tau`/`delta` edge labels.
//!
//! A real tokenizer covers the DOT language as Graphviz defines it: quoted strings with `\"`
//! escapes, line continuations and `+` concatenation, bare and numeric ids, HTML strings `<...>`
//! with nesting, `//`, `/* */` and `#` comments, optional `;` and `,`, attribute lists, default
//! `node`/`edge`/`graph` statements (a default edge `label` applies to later edges of its scope),
//! `ID = ID` graph attributes, `subgraph` blocks (also as edge endpoints) and ports.
//!
//! Moore machines (AALpy's and LearnLib's): when every edge label is unmarked and some node has
//! a label `name|output` (a record label, `{...}` allowed), the file is a Moore machine whose
//! edges carry inputs; every state must then have such a label. It is read as its Mealy
//! translation ([`Mealy::from_moore`]). Mealy edges with several transitions for a state and
//! input are a nondeterministic Mealy machine (see `format/build.rs`).
//!
//! Initial state: the target of `__start0 -> X` (a node named `__start...` is not a state), else
//! `--initial NAME`, else the source of the first edge with a warning. Nodes declared without
//! edges are states too; states are numbered in first-mention order.
//!
//! Speed (the 9.6 MB, 266k-edge ESM model is read before every ESM suite, issue 29): a token is
//! its kind and byte span only (24 bytes, `Copy`), so peeking copies nothing owned; an id's text
//! is a slice of the input, made an owned string only for a quoted string with escapes or a `+`
//! concatenation. Edge labels are interned as the parser reads them (one hash lookup per edge
//! statement; the raw labels are numbered afterwards in the order the state edges first use
//! them, as before), the endpoints of edge statements live on two reusable stacks instead of
//! vectors per statement, and the last two nodes found are compared before hashing (edge lists
//! are usually grouped by source). Node names and labels are chosen by whoever wrote the file,
//! so they are looked up in [`NameMap`]s, keyed by a per-process random key: the unkeyed
//! [`FastMap`] hash put `s0`..`s399999` into a few hundred buckets
//! and names chosen against it into one, which made parsing quadratic (issue 44; the generated
//! rows of `cargo bench --bench parse`). The
//! parser reads one token ahead, always; a lexing error in that token waits until the parser
//! wants the token, so a parser error before it is still the one reported. Parse errors are
//! boxed inside the parser, so its results are small. The ESM parse went from about 135 ms to
//! about 56 ms (`cargo bench --bench parse`, docs/src/design/scaling.md).

use super::build::{RawEdge, RawGraph, Shape, build_model, name_problem, shape};
use super::error::FormatError;
use super::options::LoadOptions;
use super::position::{ParseError, Span, Warning, describe_char_at, excerpt};
use super::requirements;
use super::timeouts::{Annotation, Target, TimeoutAnnotations};
use crate::fast_hash::{FastMap, NameMap};
use crate::model::{Interner, LabelId, LabelKind, Lts, Mealy, Model, Onfsm, StateId};
use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::Write;

/// A token: its kind and span, nothing owned, so that peeking copies 24 bytes. The text of an id
/// is taken from its span when the parser wants it ([`Lexer::value`]).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Tok {
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
enum IdKind {
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
struct Token {
    tok: Tok,
    span: Span,
}

struct Lexer<'a> {
    file: &'a str,
    text: &'a str,
    pos: usize,
}

/// The parser's results: the error is boxed, so that the `Ok` side of the many small results
/// (a token is 24 bytes, a `ParseError` 88) is what gets moved.
type PResult<T> = Result<T, Box<ParseError>>;

fn is_id_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b >= 0x80
}

fn is_id_continue(b: u8) -> bool {
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
    fn error(
        &self,
        at: usize,
        found: impl Into<String>,
        expected: impl Into<String>,
    ) -> Box<ParseError> {
        Box::new(ParseError::at(self.file, self.text, at, found, expected))
    }

    fn skip_trivia(&mut self) -> PResult<()> {
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

    fn skip_line(&mut self) {
        self.pos = self.text[self.pos..]
            .find('\n')
            .map_or(self.text.len(), |i| self.pos + i);
    }

    fn next(&mut self) -> PResult<Token> {
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
    fn value(&self, t: &Token, kind: IdKind) -> Cow<'a, str> {
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
    fn is_keyword(&self, t: &Token, kw: &str) -> bool {
        t.tok == Tok::Id(IdKind::Bare)
            && self.text[t.span.start..t.span.end].eq_ignore_ascii_case(kw)
    }

    /// `[-]?(.[0-9]+ | [0-9]+(.[0-9]*)?)`
    fn numeral(&self) -> PResult<(Tok, usize)> {
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
    fn quoted(&self) -> PResult<(Tok, usize)> {
        match scan_quoted(self.text.as_bytes(), self.pos) {
            Some((close, escaped)) => Ok((Tok::Id(IdKind::Quoted { escaped }), close + 1)),
            None => Err(self.error(self.pos, "an unterminated string", "a closing `\"`")),
        }
    }

    /// An HTML string `<...>` with balanced angle brackets; the value is the text inside.
    fn html(&self) -> PResult<(Tok, usize)> {
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

fn describe(tok: &Token, text: &str) -> String {
    match &tok.tok {
        Tok::Eof => "end of file".to_owned(),
        Tok::Id(..) => format!("`{}`", excerpt(&text[tok.span.start..tok.span.end])),
        _ => format!("`{}`", &text[tok.span.start..tok.span.end]),
    }
}

/// What a statement starts with, from its first token.
#[derive(Clone, Copy)]
enum Statement {
    /// `}`.
    Close,
    /// `;`.
    Semicolon,
    /// End of file.
    End,
    /// `node`, `edge` (true) or `graph` defaults.
    Defaults(bool),
    /// `{` or `subgraph`.
    Subgraph,
    /// A node id, or the name of an `ID = ID` statement.
    Id,
    /// Anything else (an error).
    Other,
}

/// Subgraphs nested deeper than this are refused (the parser recurses on them).
const MAX_NESTING: usize = 100;

/// Edges allowed per byte of input (plus a constant), bounding `{a b} -> {c d}` expansion.
const EDGES_PER_BYTE: usize = 4;

/// A label value with the offset where it was written.
type Label<'a> = Option<(Cow<'a, str>, usize)>;

/// An edge label as an index into [`Parser::labels`], with the offset where it was written.
type LabelRef = Option<(u32, usize)>;

/// An edge between node indices: its label (an index into [`Parser::labels`], [`NO_LABEL`] for
/// none) and the offset of the label or, without one, of the edge op. The raw graph's edge type,
/// so that [`parse_raw`] turns the parser's list into the raw graph's in place.
type ParsedEdge = RawEdge;

/// [`ParsedEdge::label`] of an edge without a label.
const NO_LABEL: u32 = u32::MAX;

struct Parser<'a> {
    lexer: Lexer<'a>,
    /// The next token, read one ahead; a lexing error waits in `lex_error` until the parser
    /// wants that token, so errors come in the order of the text.
    ahead: Token,
    lex_error: Option<Box<ParseError>>,
    directed: bool,
    /// Current subgraph nesting.
    depth: usize,
    /// Node name -> node index; nodes in first-mention order.
    node_index: NameMap<Cow<'a, str>, u32>,
    nodes: Vec<(Cow<'a, str>, usize)>,
    /// The last two nodes looked up in `node_index` (`u32::MAX` for none yet), and how many
    /// lookups there were (which says the slot to replace).
    recent: [u32; 2],
    lookups: usize,
    /// Edges in file order.
    edges: Vec<ParsedEdge>,
    /// The distinct edge label texts (of edge statements and default `edge [label=...]`), in
    /// first-seen order, and their index.
    labels: Vec<Cow<'a, str>>,
    label_index: NameMap<Cow<'a, str>, u32>,
    /// The endpoint nodes of the edge statements being read, endpoint after endpoint. A stack:
    /// the statements of a subgraph endpoint push above and pop back to where they started.
    chain: Vec<u32>,
    /// Where each endpoint of [`Parser::chain`] starts, with the offset of the edge op before
    /// it (0 for a statement's first endpoint); a stack like `chain`.
    endpoints: Vec<(usize, usize)>,
    /// The last `label` given to a node in a node statement.
    node_labels: FastMap<u32, (Cow<'a, str>, usize)>,
    /// Timeout attributes of the attribute list just read: whether it is
    /// `quiescence_timeout_ms` (else `response_timeout_ms`), the value and its offset.
    timeout_attributes: Vec<(bool, Cow<'a, str>, usize)>,
    /// The timeout annotations of node and edge statements.
    annotations: Vec<Annotation>,
    /// The `requirements` attribute of the attribute list just read: its names and offset.
    requirement_attribute: Option<(Vec<String>, usize)>,
    /// The requirement annotations of node and edge statements.
    requirements: Vec<requirements::Annotation>,
}

impl<'a> Parser<'a> {
    fn peek(&mut self) -> PResult<Token> {
        match self.lex_error.take() {
            Some(e) => Err(e),
            None => Ok(self.ahead),
        }
    }

    fn bump(&mut self) -> PResult<Token> {
        let t = self.peek()?;
        self.advance();
        Ok(t)
    }

    /// Reads the token after [`Parser::ahead`] (the end of file repeats).
    fn advance(&mut self) {
        match self.lexer.next() {
            Ok(t) => self.ahead = t,
            Err(e) => self.lex_error = Some(e),
        }
    }

    fn error_at(&self, tok: &Token, expected: impl Into<String>) -> Box<ParseError> {
        self.lexer
            .error(tok.span.start, describe(tok, self.lexer.text), expected)
    }

    fn expect(&mut self, want: Tok, expected: &str) -> PResult<Token> {
        let t = self.bump()?;
        if t.tok == want {
            Ok(t)
        } else {
            Err(self.error_at(&t, expected))
        }
    }

    /// An id, with `"a" + "b"` concatenation of quoted strings.
    fn id(&mut self, expected: &str) -> PResult<(Cow<'a, str>, usize)> {
        let t = self.bump()?;
        let Tok::Id(kind) = t.tok else {
            return Err(self.error_at(&t, expected));
        };
        let mut s = self.lexer.value(&t, kind);
        if kind != IdKind::Bare {
            while self.peek()?.tok == Tok::Plus {
                self.bump()?;
                let next = self.bump()?;
                match next.tok {
                    Tok::Id(more) if more != IdKind::Bare => {
                        s.to_mut().push_str(&self.lexer.value(&next, more));
                    }
                    _ => return Err(self.error_at(&next, "a quoted string after `+`")),
                }
            }
        }
        Ok((s, t.span.start))
    }

    fn node(&mut self, name: Cow<'a, str>, at: usize) -> u32 {
        // Edge lists are often grouped by source: the last two nodes found are tried first.
        for &i in &self.recent {
            if self.nodes.get(i as usize).is_some_and(|n| n.0 == name) {
                return i;
            }
        }
        let i = match self.node_index.get(name.as_ref()) {
            Some(&i) => i,
            None => self.new_node(name, at),
        };
        self.recent[self.lookups & 1] = i;
        self.lookups += 1;
        i
    }

    fn new_node(&mut self, name: Cow<'a, str>, at: usize) -> u32 {
        let i = self.nodes.len() as u32;
        self.node_index.insert(name.clone(), i);
        self.nodes.push((name, at));
        i
    }

    /// The index of edge label `text` in [`Parser::labels`], interning it if new.
    fn edge_label(&mut self, (text, at): (Cow<'a, str>, usize)) -> (u32, usize) {
        if let Some(&i) = self.label_index.get(text.as_ref()) {
            return (i, at);
        }
        let i = self.labels.len() as u32;
        self.label_index.insert(text.clone(), i);
        self.labels.push(text);
        (i, at)
    }

    fn graph(&mut self) -> PResult<()> {
        let mut t = self.bump()?;
        if self.lexer.is_keyword(&t, "strict") {
            t = self.bump()?;
        }
        self.directed = if self.lexer.is_keyword(&t, "digraph") {
            true
        } else if self.lexer.is_keyword(&t, "graph") {
            false
        } else {
            return Err(self.error_at(&t, "`digraph` or `graph`"));
        };
        if matches!(self.peek()?.tok, Tok::Id(..)) {
            self.id("a graph name")?;
        }
        self.expect(Tok::LBrace, "`{` opening the graph")?;
        let mut members = Vec::new();
        self.statements(None, &mut members)?;
        let end = self.bump()?;
        if end.tok != Tok::Eof {
            return Err(self.error_at(&end, "end of file after the graph's closing `}`"));
        }
        Ok(())
    }

    /// Statements up to and including the closing `}`; `edge_label` is the scope's default edge
    /// label; `members` collects the nodes mentioned (for subgraphs used as edge endpoints).
    fn statements(&mut self, mut edge_label: LabelRef, members: &mut Vec<u32>) -> PResult<()> {
        loop {
            // What the next token starts, decided on the peeked token without copying it.
            let t = self.peek()?;
            let kw = |k| self.lexer.is_keyword(&t, k);
            let next = match t.tok {
                Tok::RBrace => Statement::Close,
                Tok::Semi => Statement::Semicolon,
                Tok::Eof => Statement::End,
                Tok::LBrace => Statement::Subgraph,
                Tok::Id(IdKind::Bare) if kw("subgraph") => Statement::Subgraph,
                Tok::Id(IdKind::Bare) if kw("edge") => Statement::Defaults(true),
                Tok::Id(IdKind::Bare) if kw("node") || kw("graph") => Statement::Defaults(false),
                Tok::Id(..) => Statement::Id,
                _ => Statement::Other,
            };
            match next {
                Statement::Close => {
                    self.bump()?;
                    return Ok(());
                }
                Statement::Semicolon => {
                    self.bump()?;
                }
                Statement::End => {
                    let t = self.bump()?;
                    return Err(self.error_at(&t, "a statement or `}` closing the graph"));
                }
                Statement::Defaults(is_edge) => {
                    self.bump()?;
                    if self.peek()?.tok != Tok::LBracket {
                        let next = self.bump()?;
                        return Err(self.error_at(&next, "`[` opening an attribute list"));
                    }
                    let label = self.attributes()?;
                    if let Some((_, at)) = self.requirement_attribute.take() {
                        return Err(self.lexer.error(
                            at,
                            "requirements in a default attribute statement",
                            "requirements on node and edge statements (`s [requirements=\"R1\"]`, `a -> b [label=..., requirements=\"R1, R2\"]`)",
                        ));
                    }
                    if let Some(&(_, _, at)) = self.timeout_attributes.first() {
                        return Err(self.lexer.error(
                            at,
                            "a timeout in a default attribute statement",
                            "timeouts on node and edge statements (`s [quiescence_timeout_ms=...]`, `a -> b [label=..., response_timeout_ms=...]`)",
                        ));
                    }
                    if is_edge && let Some(label) = label {
                        edge_label = Some(self.edge_label(label));
                    }
                }
                Statement::Subgraph => {
                    let inner = self.subgraph(edge_label, members)?;
                    let first = self.endpoints.len();
                    self.endpoints.push((self.chain.len(), 0));
                    self.chain.extend_from_slice(&inner);
                    self.edge_rest(first, edge_label, members)?;
                }
                Statement::Id => {
                    let (name, at) = self.id("a node id")?;
                    if self.peek()?.tok == Tok::Eq {
                        self.bump()?;
                        self.id("a value after `=`")?;
                        continue;
                    }
                    self.port()?;
                    let n = self.node(name, at);
                    members.push(n);
                    if matches!(self.peek()?.tok, Tok::EdgeOp(_)) {
                        let first = self.endpoints.len();
                        self.endpoints.push((self.chain.len(), 0));
                        self.chain.push(n);
                        self.edge_rest(first, edge_label, members)?;
                    } else if self.peek()?.tok == Tok::LBracket {
                        if let Some(label) = self.attributes()? {
                            self.node_labels.insert(n, label);
                        }
                        self.node_timeouts(n)?;
                        if let Some((tags, at)) = self.requirement_attribute.take() {
                            let name = self.nodes[n as usize].0.to_string();
                            self.requirements.push(requirements::Annotation {
                                element: requirements::Element::State(name),
                                tags,
                                at,
                            });
                        }
                    }
                }
                Statement::Other => {
                    let t = self.bump()?;
                    return Err(
                        self.error_at(&t, "a statement (node, edge, attribute or subgraph) or `}`")
                    );
                }
            }
        }
    }

    /// `[subgraph [ID]] { ... }`; returns the nodes mentioned inside.
    fn subgraph(&mut self, edge_label: LabelRef, members: &mut Vec<u32>) -> PResult<Vec<u32>> {
        let t = self.peek()?;
        if self.lexer.is_keyword(&t, "subgraph") {
            self.bump()?;
            if matches!(self.peek()?.tok, Tok::Id(..)) {
                self.id("a subgraph name")?;
            }
        }
        let open = self.expect(Tok::LBrace, "`{` opening the subgraph")?;
        if self.depth >= MAX_NESTING {
            return Err(self.lexer.error(
                open.span.start,
                format!("a subgraph nested {} deep", self.depth + 1),
                format!("at most {MAX_NESTING} nested subgraphs"),
            ));
        }
        self.depth += 1;
        let mut inner = Vec::new();
        self.statements(edge_label, &mut inner)?;
        self.depth -= 1;
        members.extend_from_slice(&inner);
        Ok(inner)
    }

    /// `[: ID [: ID]]` after a node id (ports are ignored).
    fn port(&mut self) -> PResult<()> {
        for _ in 0..2 {
            if self.peek()?.tok != Tok::Colon {
                break;
            }
            self.bump()?;
            self.id("a port name after `:`")?;
        }
        Ok(())
    }

    /// The rest of an edge statement after its first endpoint, `(-> endpoint)+ [attrs]`; the
    /// first endpoint is `endpoints[first]`, the top of the endpoint stack, and is popped with
    /// the others at the end. A subgraph endpoint without an edge is just a subgraph statement.
    fn edge_rest(
        &mut self,
        first: usize,
        edge_label: LabelRef,
        members: &mut Vec<u32>,
    ) -> PResult<()> {
        while let Tok::EdgeOp(directed) = self.peek()?.tok {
            let op = self.bump()?;
            if directed != self.directed {
                let expected = if self.directed {
                    "`->` (the graph is a digraph)"
                } else {
                    "`--` (the graph is undirected)"
                };
                return Err(self.error_at(&op, expected));
            }
            let next = self.peek()?;
            let is_subgraph = match next.tok {
                Tok::LBrace => true,
                Tok::Id(..) => self.lexer.is_keyword(&next, "subgraph"),
                _ => {
                    let next = self.bump()?;
                    return Err(self.error_at(&next, "a node id or a subgraph after the edge"));
                }
            };
            if is_subgraph {
                // Its statements use the stacks above this statement's endpoints and pop them.
                let inner = self.subgraph(edge_label, members)?;
                self.endpoints.push((self.chain.len(), op.span.start));
                self.chain.extend_from_slice(&inner);
            } else {
                let (name, at) = self.id("a node id")?;
                self.port()?;
                let n = self.node(name, at);
                members.push(n);
                self.endpoints.push((self.chain.len(), op.span.start));
                self.chain.push(n);
            }
        }
        let chain_start = self.endpoints[first].0;
        if self.endpoints.len() == first + 1 {
            self.endpoints.truncate(first);
            self.chain.truncate(chain_start);
            if self.peek()?.tok == Tok::LBracket {
                let t = self.bump()?;
                return Err(self.error_at(
                    &t,
                    "an edge `->` (attributes follow nodes and edges, not subgraphs)",
                ));
            }
            return Ok(());
        }
        let label = if self.peek()?.tok == Tok::LBracket {
            self.attributes()?
        } else {
            None
        };
        let label = match label {
            Some(l) => Some(self.edge_label(l)),
            None => edge_label,
        };
        self.edge_timeouts(label)?;
        let requirement = self.requirement_attribute.take();
        // Endpoint k is chain[ends[k].0..end(k)].
        let ends = &self.endpoints[first..];
        let chain_len = self.chain.len();
        let end = |k: usize| ends.get(k + 1).map_or(chain_len, |e| e.0);
        // Subgraph endpoints multiply: refuse statements that expand beyond the budget.
        let expanded: usize = (1..ends.len())
            .map(|k| (end(k - 1) - ends[k - 1].0).saturating_mul(end(k) - ends[k].0))
            .fold(0, usize::saturating_add);
        let budget = EDGES_PER_BYTE * self.lexer.text.len() + 1_000_000;
        if self.edges.len().saturating_add(expanded) > budget {
            return Err(self.lexer.error(
                ends[1].1,
                format!("an edge statement that expands to {expanded} edges"),
                format!("at most {budget} edges in all (subgraph endpoints multiply)"),
            ));
        }
        for k in 1..ends.len() {
            let (id, offset) = label.unwrap_or((NO_LABEL, ends[k].1));
            for &from in &self.chain[ends[k - 1].0..ends[k].0] {
                for &to in &self.chain[ends[k].0..end(k)] {
                    self.edges.push(ParsedEdge {
                        from,
                        to,
                        label: id,
                        offset,
                    });
                    if let Some((tags, at)) = &requirement {
                        let text = label.map_or("", |(l, _)| self.labels[l as usize].as_ref());
                        self.requirements.push(requirements::Annotation {
                            element: requirements::Element::Transition {
                                from: self.nodes[from as usize].0.to_string(),
                                label: requirements::LabelText::Written(text.to_owned()),
                                to: self.nodes[to as usize].0.to_string(),
                            },
                            tags: tags.clone(),
                            at: *at,
                        });
                    }
                }
            }
        }
        self.endpoints.truncate(first);
        self.chain.truncate(chain_start);
        Ok(())
    }

    /// The timeout attributes of node `n`'s statement as annotations of its state.
    fn node_timeouts(&mut self, n: u32) -> PResult<()> {
        for (quiescence, value, at) in std::mem::take(&mut self.timeout_attributes) {
            if !quiescence {
                return Err(self.lexer.error(
                    at,
                    "`response_timeout_ms` on a node",
                    "`quiescence_timeout_ms` on a node (response timeouts go on edges of inputs)",
                ));
            }
            let name = self.nodes[n as usize].0.to_string();
            self.annotations.push(Annotation {
                target: Target::State(name),
                value: value.into_owned(),
                at,
            });
        }
        Ok(())
    }

    /// The timeout attributes of an edge statement labelled `label` as annotations of its
    /// input.
    fn edge_timeouts(&mut self, label: LabelRef) -> PResult<()> {
        for (quiescence, value, at) in std::mem::take(&mut self.timeout_attributes) {
            let label = match label {
                Some((l, _)) if !quiescence => self.labels[l as usize].to_string(),
                _ => {
                    return Err(self.lexer.error(
                        at,
                        if quiescence {
                            "`quiescence_timeout_ms` on an edge"
                        } else {
                            "`response_timeout_ms` on an edge without a label"
                        },
                        "`response_timeout_ms` on a labelled edge of an input (quiescence timeouts go on nodes)",
                    ));
                }
            };
            self.annotations.push(Annotation {
                target: Target::Label(label),
                value: value.into_owned(),
                at,
            });
        }
        Ok(())
    }

    /// One or more `[a = b, c = d; ...]` lists; returns the last `label` value and keeps the
    /// timeout attributes in `timeout_attributes`.
    fn attributes(&mut self) -> PResult<Label<'a>> {
        self.timeout_attributes.clear();
        self.requirement_attribute = None;
        let mut label = None;
        while self.peek()?.tok == Tok::LBracket {
            self.bump()?;
            loop {
                match self.peek()?.tok {
                    Tok::RBracket => {
                        self.bump()?;
                        break;
                    }
                    Tok::Comma | Tok::Semi => {
                        self.bump()?;
                    }
                    Tok::Id(..) => {
                        let (key, _) = self.id("an attribute name")?;
                        self.expect(Tok::Eq, "`=` after the attribute name")?;
                        let (value, at) = self.id("an attribute value after `=`")?;
                        match key.as_ref() {
                            "label" => label = Some((value, at)),
                            "quiescence_timeout_ms" => {
                                self.timeout_attributes.push((true, value, at));
                            }
                            "response_timeout_ms" => {
                                self.timeout_attributes.push((false, value, at));
                            }
                            "requirements" => {
                                // Offsets inside a quoted value count from after the quote.
                                let inner =
                                    at + usize::from(self.lexer.text.as_bytes()[at] == b'"');
                                let tags = requirements::parse_tags(&value).map_err(
                                    |(k, found, expected)| {
                                        self.lexer.error(inner + k, found, expected)
                                    },
                                )?;
                                self.requirement_attribute = Some((tags, at));
                            }
                            _ => {}
                        }
                    }
                    _ => {
                        let t = self.bump()?;
                        return Err(self.error_at(&t, "an attribute `name = value` or `]`"));
                    }
                }
            }
        }
        Ok(label)
    }
}

/// Whether a node name marks the initial state (`__start0` and the like).
pub(crate) fn is_start_marker(name: &str) -> bool {
    name.starts_with("__start")
}

/// Parses DOT text into a model named `name`; warnings (such as a guessed initial state) are
/// appended to `warnings`.
pub fn parse(
    text: &str,
    file: &str,
    name: &str,
    opts: &LoadOptions,
    warnings: &mut Vec<Warning>,
) -> Result<Model, FormatError> {
    parse_annotated(text, file, name, opts, warnings).map(|(m, ..)| m)
}

/// [`parse`] with the model's timeout annotations (`quiescence_timeout_ms` on nodes,
/// `response_timeout_ms` on edges of inputs; [`super::timeouts`]) and requirement tags
/// (`requirements` on nodes and edges; [`super::requirements`]).
pub(crate) fn parse_annotated(
    text: &str,
    file: &str,
    name: &str,
    opts: &LoadOptions,
    warnings: &mut Vec<Warning>,
) -> Result<(Model, TimeoutAnnotations, crate::model::RequirementTags), FormatError> {
    let mut annotations = Vec::new();
    let mut tagged = Vec::new();
    let (raw, state_labels) = parse_raw(text, file, opts, warnings, &mut annotations, &mut tagged)?;
    let model = if is_moore(&raw, &state_labels, opts) {
        build_moore(raw, &state_labels, name, file, text, opts)?
    } else {
        build_model(raw, name, file, text, opts, warnings)?
    };
    let timeouts = super::timeouts::resolve(&annotations, &model, file, text)?;
    let requirements = requirements::resolve(&tagged, &model, file, text)?;
    Ok((model, timeouts, requirements))
}

/// The label a DOT node statement gave each state, if any.
type StateLabels<'a> = Vec<Option<(Cow<'a, str>, usize)>>;

/// The output of a Moore node label `name|output` (AALpy's record label, braces `{...}`
/// allowed), split at the first `|`.
fn moore_output(label: &str) -> Option<&str> {
    let t = label.trim();
    let t = t
        .strip_prefix('{')
        .and_then(|t| t.strip_suffix('}'))
        .unwrap_or(t);
    t.split_once('|').map(|(_, o)| o.trim())
}

/// Whether the graph is a Moore machine: every edge label is unmarked (an input), some state
/// has a label `name|output`, and no `--inputs`/`--outputs` ask for an LTS.
fn is_moore(raw: &RawGraph<'_>, state_labels: &StateLabels<'_>, opts: &LoadOptions) -> bool {
    opts.inputs.is_empty()
        && opts.outputs.is_empty()
        && !raw.labels.is_empty()
        && raw
            .labels
            .iter()
            .all(|l| matches!(shape(&l.text), Ok(Shape::Unmarked(_))))
        && state_labels
            .iter()
            .flatten()
            .any(|(l, _)| moore_output(l).is_some())
}

/// Builds the Mealy translation of the Moore machine `raw` whose states carry their outputs in
/// their labels ([`Mealy::from_moore`]).
fn build_moore(
    raw: RawGraph<'_>,
    state_labels: &StateLabels<'_>,
    name: &str,
    file: &str,
    text: &str,
    opts: &LoadOptions,
) -> Result<Model, FormatError> {
    let err =
        |at: usize, found: String, expected: &str| ParseError::at(file, text, at, found, expected);
    let mut outputs = Interner::new();
    let mut state_outputs = Vec::with_capacity(raw.states.len());
    for (k, s) in raw.states.iter().enumerate() {
        let Some((label, at)) = &state_labels[k] else {
            let at = raw
                .edges
                .iter()
                .find(|e| e.from as usize == k || e.to as usize == k)
                .map_or(0, |e| e.offset);
            return Err(err(
                at,
                format!("state `{}` without a label", excerpt(s)),
                "a Moore node label `name|output` on every state, like the other states",
            )
            .into());
        };
        let Some(o) = moore_output(label) else {
            return Err(err(
                *at,
                format!("node label `{}` without `|`", excerpt(label)),
                "a Moore node label `name|output`, like the other states",
            )
            .into());
        };
        name_problem(o).map_err(|(found, expected)| err(*at, found, &expected))?;
        state_outputs.push(outputs.intern(o));
    }
    let mut inputs = Interner::new();
    let input_ids: Vec<LabelId> = raw
        .labels
        .iter()
        .map(|l| inputs.intern(l.text.trim()))
        .collect();
    let mut seen: HashMap<(u32, LabelId), &RawEdge> = HashMap::new();
    let mut transitions = Vec::with_capacity(raw.edges.len());
    for e in &raw.edges {
        let i = input_ids[e.label as usize];
        if let Some(first) = seen.insert((e.from, i), e)
            && first.to != e.to
        {
            let p = super::position::Position::of_offset(text, first.offset);
            return Err(err(
                e.offset,
                format!(
                    "a second transition for input `{}` from state `{}` (the first is at line {}, column {})",
                    excerpt(inputs.name(i)),
                    excerpt(&raw.states[e.from as usize]),
                    p.line,
                    p.column
                ),
                "one transition per state and input (a Moore machine is deterministic)",
            )
            .into());
        }
        transitions.push((StateId(e.from), i, StateId(e.to)));
    }
    let initial = match &opts.initial {
        None => StateId(raw.initial),
        Some(n) => StateId(raw.states.iter().position(|s| s == n).ok_or_else(|| {
            let n = excerpt(n);
            FormatError::Usage(format!("--initial {n}: {file} has no state named `{n}`"))
        })? as u32),
    };
    let state_names = raw.states.iter().map(|s| s.to_string()).collect();
    let m = Mealy::from_moore(
        name,
        inputs,
        outputs,
        state_names,
        initial,
        state_outputs,
        &transitions,
    )
    .map_err(|source| FormatError::Model {
        path: file.to_owned(),
        source,
    })?;
    Ok(Model::Mealy(m))
}

fn parse_raw<'a>(
    text: &'a str,
    file: &'a str,
    opts: &LoadOptions,
    warnings: &mut Vec<Warning>,
    annotations: &mut Vec<Annotation>,
    requirement_annotations: &mut Vec<requirements::Annotation>,
) -> Result<(RawGraph<'a>, StateLabels<'a>), ParseError> {
    let mut p = Parser {
        lexer: Lexer { file, text, pos: 0 },
        ahead: Token {
            tok: Tok::Eof,
            span: Span::new(0, 0),
        },
        lex_error: None,
        directed: true,
        depth: 0,
        node_index: NameMap::default(),
        node_labels: FastMap::default(),
        nodes: Vec::new(),
        recent: [u32::MAX; 2],
        lookups: 0,
        edges: Vec::new(),
        labels: Vec::new(),
        label_index: NameMap::default(),
        chain: Vec::new(),
        endpoints: Vec::new(),
        timeout_attributes: Vec::new(),
        annotations: Vec::new(),
        requirement_attribute: None,
        requirements: Vec::new(),
    };
    p.advance();
    p.graph().map_err(|e| *e)?;
    *annotations = std::mem::take(&mut p.annotations);
    *requirement_annotations = std::mem::take(&mut p.requirements);
    let err =
        |at: usize, found: String, expected: &str| ParseError::at(file, text, at, found, expected);
    // Node indices -> state ids, skipping start markers.
    let mut state_of = vec![u32::MAX; p.nodes.len()];
    let mut raw = RawGraph::default();
    let mut state_labels = Vec::new();
    for (i, (n, _)) in p.nodes.iter().enumerate() {
        if !is_start_marker(n) {
            state_of[i] = raw.states.len() as u32;
            raw.states.push(n.clone());
            state_labels.push(p.node_labels.remove(&(i as u32)));
        }
    }
    let mut initial: Option<(u32, usize)> = None;
    // Parser label -> raw label, numbered in the order the state edges first use them (labels
    // of start-marker edges and unused defaults are not raw labels).
    let mut raw_label = vec![u32::MAX; p.labels.len()];
    // The state edges are written over the parser's list, which becomes the raw graph's (one
    // list alive rather than two: on ESM 6.4 MB each).
    let mut edges = std::mem::take(&mut p.edges);
    let mut kept = 0;
    for k in 0..edges.len() {
        let ParsedEdge {
            from,
            to,
            label,
            offset,
        } = edges[k];
        let (f, t) = (state_of[from as usize], state_of[to as usize]);
        if t == u32::MAX {
            return Err(err(
                offset,
                format!("an edge into `{}`", p.nodes[to as usize].0),
                "start markers (`__start...`) only as edge sources",
            ));
        }
        if f == u32::MAX {
            match initial {
                None => initial = Some((t, offset)),
                Some((s, _)) if s == t => {}
                Some(_) => {
                    return Err(err(
                        offset,
                        format!("a second initial state `{}`", raw.states[t as usize]),
                        "one initial state",
                    ));
                }
            }
            continue;
        }
        if label == NO_LABEL {
            return Err(err(
                offset,
                "an edge without a label".into(),
                "`[label=\"input / output\"]` or an LTS label such as `[label=\"?a\"]`",
            ));
        }
        let label = match raw_label[label as usize] {
            u32::MAX => {
                // A labelled edge's offset is its label's.
                let text = std::mem::take(&mut p.labels[label as usize]);
                let r = raw.push_distinct_label(text, offset);
                raw_label[label as usize] = r;
                r
            }
            r => r,
        };
        edges[kept] = RawEdge {
            from: f,
            to: t,
            label,
            offset,
        };
        kept += 1;
    }
    edges.truncate(kept);
    raw.edges = edges;
    if raw.states.is_empty() {
        return Err(err(
            p.lexer.pos.saturating_sub(1),
            "a graph without states".into(),
            "at least one node",
        ));
    }
    raw.initial = match initial {
        Some((s, _)) => s,
        None if opts.initial.is_some() => 0, // replaced by --initial in build_model
        None => {
            let (s, at) = match raw.edges.first() {
                Some(e) => (e.from, e.offset),
                None => (
                    0,
                    p.nodes
                        .iter()
                        .find(|(n, _)| !is_start_marker(n))
                        .map_or(0, |n| n.1),
                ),
            };
            warnings.push(Warning::at(
                file,
                text,
                at,
                format!(
                    "no `__start0 -> STATE` edge and no --initial: taking `{}`, the {}, as the initial state",
                    raw.states[s as usize],
                    if raw.edges.is_empty() { "first node" } else { "source of the first edge" }
                ),
            ));
            s
        }
    };
    Ok((raw, state_labels))
}

/// A DOT id: bare when it is a plain identifier that is not a keyword, quoted otherwise.
fn write_id(out: &mut String, id: &str) {
    let plain = id.bytes().next().is_some_and(is_id_start)
        && id.bytes().all(is_id_continue)
        && !["node", "edge", "graph", "digraph", "subgraph", "strict"]
            .iter()
            .any(|k| id.eq_ignore_ascii_case(k));
    if plain {
        out.push_str(id);
    } else {
        write_quoted(out, id);
    }
}

fn write_quoted(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            _ => out.push(c),
        }
    }
    out.push('"');
}

fn write_header(
    out: &mut String,
    name: &str,
    states: &[String],
    initial: usize,
    annotations: &TimeoutAnnotations,
) {
    out.push_str("digraph ");
    write_id(out, name);
    out.push_str(" {\n    __start0 [label=\"\" shape=\"none\"];\n    __start0 -> ");
    write_id(out, &states[initial]);
    out.push_str(";\n\n");
    for s in states {
        out.push_str("    ");
        write_id(out, s);
        out.push_str(" [shape=\"circle\" label=");
        write_quoted(out, s);
        write_quiescence(out, s, annotations);
        out.push_str("];\n");
    }
    out.push('\n');
}

/// ` quiescence_timeout_ms=MS` when state `s` is annotated.
fn write_quiescence(out: &mut String, s: &str, annotations: &TimeoutAnnotations) {
    if let Some(ms) = annotations.quiescence_ms.get(s) {
        let _ = write!(out, " quiescence_timeout_ms={ms}");
    }
}

/// An edge; `input` is the input its label names, whose response timeout (if annotated) it
/// carries: the parser reads `response_timeout_ms` on an edge as the timeout of the edge's
/// input, so every edge of an annotated input repeats it.
fn write_edge(
    out: &mut String,
    states: &[String],
    (from, to): (usize, usize),
    label: &str,
    input: Option<&str>,
    annotations: &TimeoutAnnotations,
) {
    out.push_str("    ");
    write_id(out, &states[from]);
    out.push_str(" -> ");
    write_id(out, &states[to]);
    out.push_str(" [label=");
    write_quoted(out, label);
    if let Some(ms) = input.and_then(|i| annotations.response_ms.get(i)) {
        let _ = write!(out, " response_timeout_ms={ms}");
    }
    out.push_str("];\n");
}

/// The DOT text of a Mealy machine in the automata-wiki style (`__start0`, `label="in / out"`),
/// with its timeout annotations as attributes (none when `annotations` is empty).
pub fn write_mealy(m: &Mealy, annotations: &TimeoutAnnotations) -> String {
    let mut out = String::with_capacity(64 + m.num_transitions() * 40);
    let states = m.state_names();
    write_header(&mut out, &m.name, states, m.initial().index(), annotations);
    let mut label = String::new();
    for (s, i, o, t) in m.quads() {
        label.clear();
        let input = m.inputs.name(i);
        let _ = write!(label, "{input} / {}", m.outputs.name(o));
        let ends = (s.index(), t.index());
        write_edge(&mut out, states, ends, &label, Some(input), annotations);
    }
    out.push_str("}\n");
    out
}

/// The DOT text of a Moore machine (the Mealy translation of one, [`Mealy::state_outputs`]) as
/// AALpy writes it: record nodes labelled `name|output`, edges labelled by their input; with
/// its timeout annotations as attributes.
pub fn write_moore(
    m: &Mealy,
    state_outputs: &[LabelId],
    annotations: &TimeoutAnnotations,
) -> String {
    let states = m.state_names();
    let mut out = String::with_capacity(64 + m.num_transitions() * 30);
    out.push_str("digraph ");
    write_id(&mut out, &m.name);
    out.push_str(" {\n    __start0 [label=\"\" shape=\"none\"];\n    __start0 -> ");
    write_id(&mut out, &states[m.initial().index()]);
    out.push_str(";\n\n");
    for (s, o) in states.iter().zip(state_outputs) {
        out.push_str("    ");
        write_id(&mut out, s);
        out.push_str(" [shape=\"record\" style=\"rounded\" label=");
        write_quoted(&mut out, &format!("{s}|{}", m.outputs.name(*o)));
        write_quiescence(&mut out, s, annotations);
        out.push_str("];\n");
    }
    out.push('\n');
    // By source, then input name: a file read back (inputs numbered in first-use order) is
    // written the same.
    let mut quads: Vec<_> = m.quads().collect();
    quads.sort_by(|a, b| (a.0, m.inputs.name(a.1)).cmp(&(b.0, m.inputs.name(b.1))));
    for (s, i, _, t) in quads {
        let input = m.inputs.name(i);
        let ends = (s.index(), t.index());
        write_edge(&mut out, states, ends, input, Some(input), annotations);
    }
    out.push_str("}\n");
    out
}

/// The DOT text of a nondeterministic Mealy machine: `label="in / out"` edges, several per
/// state and input (AALpy's `onfsm` files, with spaces around the `/`); with its timeout
/// annotations as attributes.
pub fn write_onfsm(m: &Onfsm, annotations: &TimeoutAnnotations) -> String {
    let mut out = String::with_capacity(64 + m.quads().len() * 40);
    let states = m.state_names();
    write_header(&mut out, &m.name, states, m.initial().index(), annotations);
    let mut label = String::new();
    for (s, i, o, t) in m.quads_by_name() {
        label.clear();
        let input = m.inputs.name(i);
        let _ = write!(label, "{input} / {}", m.outputs.name(o));
        let ends = (s.index(), t.index());
        write_edge(&mut out, states, ends, &label, Some(input), annotations);
    }
    out.push_str("}\n");
    out
}

/// The DOT text of an LTS with `?a`, `!x`, `tau` and `delta` edge labels, with its timeout
/// annotations as attributes.
pub fn write_lts(lts: &Lts, annotations: &TimeoutAnnotations) -> String {
    let mut out = String::with_capacity(64 + lts.num_transitions() * 40);
    let (a, states) = (&lts.alphabet, lts.state_names());
    write_header(
        &mut out,
        &lts.name,
        states,
        lts.initial().index(),
        annotations,
    );
    let labels: Vec<String> = a.ids().map(|l| super::aut::marked_label(a, l)).collect();
    for (s, l, t) in lts.triples() {
        let input = (a.kind(l) == LabelKind::Input).then(|| a.name(l));
        let ends = (s.index(), t.index());
        write_edge(
            &mut out,
            states,
            ends,
            &labels[l.index()],
            input,
            annotations,
        );
    }
    out.push_str("}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::StateId;

    fn parse_ok(text: &str) -> (Model, Vec<Warning>) {
        let mut w = Vec::new();
        let m = parse(text, "t.dot", "t", &LoadOptions::default(), &mut w).unwrap();
        (m, w)
    }

    fn mealy(text: &str) -> Mealy {
        match parse_ok(text).0 {
            Model::Mealy(m) => m,
            other => panic!("expected Mealy, got {other:?}"),
        }
    }

    fn parse_err(text: &str) -> String {
        let mut w = Vec::new();
        match parse(text, "t.dot", "t", &LoadOptions::default(), &mut w) {
            Err(e) => e.to_string(),
            Ok(m) => panic!("expected an error, got {m:?}"),
        }
    }

    /// `count` bare ids whose [`FastMap`] hashes (the node-name hash before issue 44) agree in
    /// their low 20 bits, so they all share one bucket of any table up to a million slots.
    fn names_colliding_under_the_fast_hash(count: usize) -> Vec<String> {
        use std::hash::BuildHasher;
        let hash = |name: &str| crate::fast_hash::FastBuild::default().hash_one(name);
        let low = |h: u64| h & ((1 << 20) - 1);
        let target = low(hash("col00000"));
        (0..)
            .map(|i: u32| format!("col{i:05}"))
            .filter(|name| low(hash(name)) == target)
            .take(count)
            .collect()
    }

    /// A Mealy machine over `names` with its edges listed out of state order, so that first
    /// mention decides the numbering: `a` to the next state, `b` further on.
    fn machine_over(names: &[String]) -> String {
        let n = names.len();
        let mut text = String::from("digraph g {\n");
        for i in (0..n).rev() {
            let (next, far) = (&names[(i + 1) % n], &names[(i * 7 + 3) % n]);
            text.push_str(&format!(
                "{} -> {next} [label=\"a / o{}\"];\n{} -> {far} [label=\"b / o{}\"];\n",
                names[i],
                i % 3,
                names[i],
                i % 5
            ));
        }
        text.push_str("}\n");
        text
    }

    #[test]
    fn names_colliding_under_the_old_hash_parse_to_the_same_machine_as_sequential_names() {
        let colliding = names_colliding_under_the_fast_hash(1_500);
        let sequential: Vec<String> = (0..colliding.len()).map(|i| format!("s{i}")).collect();
        let m = mealy(&machine_over(&colliding));
        // Numbered in first-mention order: sources from the last state down, each followed
        // by its targets.
        let mut expected: Vec<&str> = Vec::new();
        let n = colliding.len();
        for i in (0..n).rev() {
            for j in [i, (i + 1) % n, (i * 7 + 3) % n] {
                if !expected.contains(&colliding[j].as_str()) {
                    expected.push(&colliding[j]);
                }
            }
        }
        assert_eq!(m.state_names(), expected);
        // The same structure as the machine over `s0`, `s1`, ...: every transition agrees
        // once states are renamed.
        let renamed = mealy(&machine_over(&sequential));
        let rename = |name: &str| &sequential[colliding.iter().position(|c| c == name).unwrap()];
        let quads = |m: &Mealy, rename: &dyn Fn(&str) -> String| {
            m.quads()
                .map(|(s, i, o, t)| {
                    (
                        rename(m.state_name(s)),
                        i.index(),
                        o.index(),
                        rename(m.state_name(t)),
                    )
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(
            quads(&m, &|s| rename(s).clone()),
            quads(&renamed, &|s| s.to_owned())
        );
        // Parsing again (each name map gets a fresh random key) writes the same file.
        let again = mealy(&machine_over(&colliding));
        let none = TimeoutAnnotations::default();
        assert_eq!(write_mealy(&m, &none), write_mealy(&again, &none));
    }

    #[test]
    fn automata_wiki_mealy_with_start_marker() {
        let m = mealy(
            "digraph g {\n  __start0 [label=\"\" shape=\"none\"];\n  __start0 -> s1;\n  s0 [shape=\"circle\" label=\"0\"];\n  s1 -> s0 [label=\"a / x\"];\n  s0 -> s1 [label=\"a / y / z\"];\n}\n",
        );
        assert_eq!(m.state_names(), ["s1", "s0"]);
        assert_eq!(m.initial(), StateId(0));
        assert_eq!(m.outputs.names(), ["x", "y / z"]);
        assert_eq!(m.num_transitions(), 2);
    }

    #[test]
    fn tcp_style_declared_nodes_and_missing_semicolons() {
        let text = "digraph G {\nlabel=\"\"\ns0 [color=\"red\"]\ns1\ns2\ns0 [label=\"s0\"];\ns0 -> s1[label=\"CONNECT / SYN(FRESH,ZERO,0)\"]\ns1 -> s0[label=\"CLOSE / TIMEOUT\"]\n}";
        let (m, w) = parse_ok(text);
        let Model::Mealy(m) = m else { panic!() };
        // s2 has no edges but is a state.
        assert_eq!(m.num_states(), 3);
        assert_eq!(m.initial(), StateId(0));
        assert_eq!(w.len(), 1);
        assert_eq!(
            w[0].to_string(),
            "t.dot:7:16: no `__start0 -> STATE` edge and no --initial: taking `s0`, the source of the first edge, as the initial state"
        );
    }

    #[test]
    fn initial_option_silences_the_warning() {
        let mut w = Vec::new();
        let o = LoadOptions {
            initial: Some("s1".into()),
            ..LoadOptions::default()
        };
        let m = parse(
            "digraph { s0 -> s1 [label=\"a/b\"] }",
            "t.dot",
            "t",
            &o,
            &mut w,
        )
        .unwrap();
        let Model::Mealy(m) = m else { panic!() };
        assert_eq!(m.initial(), StateId(1));
        assert!(w.is_empty());
    }

    #[test]
    fn full_tokenizer() {
        let text = r#"/* block
comment */ strict digraph "my graph" {
  # preprocessor-style line
  graph [rankdir=LR]; node [shape=circle] // trailing comment
  edge [color=blue, label="?coin"]
  1 -> 2
  2 -> 3 [label=<!tea>; weight=2] [penwidth=1.5]
  subgraph cluster_0 { 3:n -> -1.5 [label="t" + "au"] }
  -1.5 -> { 1 2 } [label="!\"q\""]
  "long \
name" -> 1 [label=delta]
}"#;
        let (m, w) = parse_ok(text);
        assert_eq!(w.len(), 1, "the initial state is guessed: {w:?}");
        let Model::Lts(l) = m else {
            panic!("expected an LTS")
        };
        assert_eq!(l.state_names(), ["1", "2", "3", "-1.5", "long name"]);
        assert_eq!(l.initial(), StateId(0));
        let a = &l.alphabet;
        assert!(a.is_input(a.get("coin").unwrap()));
        assert!(a.is_output(a.get("tea").unwrap()));
        assert!(a.is_internal(a.get("tau").unwrap()));
        assert!(a.is_output(a.get("\"q\"").unwrap()));
        assert_eq!(a.quiescence(), a.get("delta"));
        // `-1.5 -> { 1 2 }` makes two edges.
        assert_eq!(l.num_transitions(), 6);
        let q = a.get("\"q\"").unwrap();
        assert_eq!(
            l.successors(StateId(3), q).collect::<Vec<_>>(),
            [StateId(0), StateId(1)]
        );
    }

    #[test]
    fn html_labels_keep_their_inner_text() {
        let (m, _) = parse_ok("digraph { __start0 -> a; a -> b [label=<in / <i>out</i>>] }");
        let Model::Mealy(m) = m else { panic!() };
        assert_eq!(m.inputs.names(), ["in"]);
        assert_eq!(m.outputs.names(), ["<i>out</i>"]);
    }

    #[test]
    fn undirected_graphs_use_double_dash() {
        let (m, _) = parse_ok("graph { __start0 -- a; a -- b [label=\"?x\"] }");
        assert!(matches!(m, Model::Lts(_)));
    }

    #[test]
    fn error_shapes() {
        let deep = format!("digraph {{ {} }}", "{ ".repeat(101));
        let nodes: String = (0..2000).map(|i| format!("n{i} ")).collect();
        let wide = format!("digraph {{ {{{nodes}}} -> {{{nodes}}} }}");
        let cases: &[(&str, &str)] = &[
            (
                &deep,
                "t.dot:1:211: found a subgraph nested 101 deep, expected at most 100 nested subgraphs",
            ),
            (
                &wide,
                "t.dot:1:10904: found an edge statement that expands to 4000000 edges, expected at most 1087200 edges in all (subgraph endpoints multiply)",
            ),
            (
                "",
                "t.dot:1:1: found end of file, expected `digraph` or `graph`",
            ),
            (
                "graf { }",
                "t.dot:1:1: found `graf`, expected `digraph` or `graph`",
            ),
            (
                "digraph [",
                "t.dot:1:9: found `[`, expected `{` opening the graph",
            ),
            (
                "digraph { a -> b [label=\"?a\"] ",
                "t.dot:1:31: found end of file, expected a statement or `}` closing the graph",
            ),
            (
                "digraph { a -> ; }",
                "t.dot:1:16: found `;`, expected a node id or a subgraph after the edge",
            ),
            (
                "digraph { a -- b }",
                "t.dot:1:13: found `--`, expected `->` (the graph is a digraph)",
            ),
            (
                "graph { a -> b }",
                "t.dot:1:11: found `->`, expected `--` (the graph is undirected)",
            ),
            (
                "digraph { a [label] }",
                "t.dot:1:19: found `]`, expected `=` after the attribute name",
            ),
            (
                "digraph { a [label=] }",
                "t.dot:1:20: found `]`, expected an attribute value after `=`",
            ),
            (
                "digraph { a [=b] }",
                "t.dot:1:14: found `=`, expected an attribute `name = value` or `]`",
            ),
            (
                "digraph { a -> b [label=\"?a] }",
                "t.dot:1:25: found an unterminated string, expected a closing `\"`",
            ),
            (
                "digraph { a -> b [label=<?a] }",
                "t.dot:1:25: found an unterminated HTML string, expected a `>` closing the `<`",
            ),
            (
                "digraph { /* a -> b }",
                "t.dot:1:11: found an unterminated comment `/*`, expected `*/` closing it",
            ),
            (
                "digraph { a -> b @ }",
                "t.dot:1:18: found `@`, expected an id, a quoted string, `{`, `}`, `[`, `]`, `=`, `;`, `,` or an edge `->`",
            ),
            (
                "digraph { a -> - }",
                "t.dot:1:16: found `-`, expected a number, an id or an edge `->`",
            ),
            (
                "digraph { } x",
                "t.dot:1:13: found `x`, expected end of file after the graph's closing `}`",
            ),
            (
                "digraph { node a }",
                "t.dot:1:16: found `a`, expected `[` opening an attribute list",
            ),
            (
                "digraph { a -> b [label=\"x\" + y] }",
                "t.dot:1:31: found `y`, expected a quoted string after `+`",
            ),
            (
                "digraph { ] }",
                "t.dot:1:11: found `]`, expected a statement (node, edge, attribute or subgraph) or `}`",
            ),
            (
                "digraph { { a } [x=1] }",
                "t.dot:1:17: found `[`, expected an edge `->` (attributes follow nodes and edges, not subgraphs)",
            ),
            (
                "digraph { a -> b }",
                "t.dot:1:13: found an edge without a label, expected `[label=\"input / output\"]` or an LTS label such as `[label=\"?a\"]`",
            ),
            (
                "digraph { __start0 }",
                "t.dot:1:20: found a graph without states, expected at least one node",
            ),
            (
                "digraph { a -> __start0 [label=\"?a\"] }",
                "t.dot:1:32: found an edge into `__start0`, expected start markers (`__start...`) only as edge sources",
            ),
            (
                "digraph { __start0 -> a; __start0 -> b }",
                "t.dot:1:35: found a second initial state `b`, expected one initial state",
            ),
            (
                "digraph { a -> b [label=\"x / y\"]; b -> a [label=\"?z\"] }",
                "t.dot:1:49: found LTS label `?z`, expected a Mealy label `input / output` like the file's first edge",
            ),
            (
                "digraph { a [label=\"a|1\"]; a -> b [label=x] }",
                "t.dot:1:42: found state `b` without a label, expected a Moore node label `name|output` on every state, like the other states",
            ),
            (
                "digraph { a [label=\"a|1\"]; b [label=\"b\"]; a -> b [label=x] }",
                "t.dot:1:37: found node label `b` without `|`, expected a Moore node label `name|output`, like the other states",
            ),
            (
                "digraph { a [label=\"a|1\"]; b [label=\"b|0\"]; a -> b [label=x]; a -> a [label=x] }",
                "t.dot:1:77: found a second transition for input `x` from state `a` (the first is at line 1, column 59), expected one transition per state and input (a Moore machine is deterministic)",
            ),
            (
                "digraph { a -> b [label=\"coin\"] }",
                "t.dot:1:25: found unmarked label `coin`, expected `?coin` or `coin?` for an input, `!coin` or `coin!` for an output, `tau`, `delta`, or `--inputs`/`--outputs` naming it",
            ),
        ];
        let wrong: Vec<String> = cases
            .iter()
            .filter_map(|(text, want)| {
                let got = parse_err(text);
                (got != *want).then(|| format!("input: {text}\n  got:  {got}\n  want: {want}"))
            })
            .collect();
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    #[test]
    fn aalpy_moore_machine_is_its_mealy_translation() {
        let text = "digraph m {\ns0 [label=\"s0|1\", shape=record, style=rounded];\ns1 [label=\"{s1|0}\", shape=record];\ns0 -> s1 [label=a];\ns1 -> s0 [label=a];\ns1 -> s1 [label=b];\n__start0 [label=\"\", shape=none];\n__start0 -> s0 [label=\"\"];\n}\n";
        let (m, warnings) = parse_ok(text);
        assert!(warnings.is_empty(), "{warnings:?}");
        let Model::Mealy(m) = m else {
            panic!("expected Mealy, got {m:?}")
        };
        assert_eq!(m.outputs.names(), ["1", "0"]);
        assert_eq!(m.state_outputs(), Some(&[LabelId(0), LabelId(1)][..]));
        // The output of a transition is the output of the state it enters.
        let (a, b) = (m.inputs.get("a").unwrap(), m.inputs.get("b").unwrap());
        assert_eq!(m.step(StateId(0), a), Some((StateId(1), LabelId(1))));
        assert_eq!(m.step(StateId(1), a), Some((StateId(0), LabelId(0))));
        assert_eq!(m.step(StateId(1), b), Some((StateId(1), LabelId(1))));
        assert_eq!(m.step(StateId(0), b), None);
        // Written back as AALpy writes it, it reads as the same machine.
        let back = match parse_ok(&write_moore(
            &m,
            m.state_outputs().unwrap(),
            &TimeoutAnnotations::default(),
        ))
        .0
        {
            Model::Mealy(b) => b,
            other => panic!("{other:?}"),
        };
        assert_eq!(back, m);
    }

    #[test]
    fn nondeterministic_mealy_is_an_onfsm_with_a_located_warning() {
        let (m, warnings) = parse_ok(
            "digraph { __start0 -> a; a -> b [label=\"x / y\"]; a -> a [label=\"x / z\"] }",
        );
        let Model::Lts(l) = m else {
            panic!("expected the LTS embedding, got {m:?}")
        };
        assert_eq!(l.onfsm().map(|o| o.quads().len()), Some(2));
        assert_eq!(
            warnings.iter().map(|w| w.to_string()).collect::<Vec<_>>(),
            [
                "t.dot:1:64: a second transition for input `x` from state `a` (the first is at line 1, column 40): reading the file as a nondeterministic Mealy machine (ONFSM), tested with ioco through its suspension automaton"
            ]
        );
    }

    #[test]
    fn writes_what_it_reads() {
        let text = "digraph g {\n    __start0 [label=\"\" shape=\"none\"];\n    __start0 -> s0;\n\n    s0 [shape=\"circle\" label=\"s0\"];\n    \"s 1\" [shape=\"circle\" label=\"s 1\"];\n\n    s0 -> \"s 1\" [label=\"a / x\"];\n    \"s 1\" -> s0 [label=\"a / \\\"y\\\"\"];\n}\n";
        let m = mealy(text);
        let mut m2 = m.clone();
        m2.name = "g".into();
        assert_eq!(write_mealy(&m2, &TimeoutAnnotations::default()), text);
    }
}

/// Asserts that each text of `cases` fails to parse as `t.dot` with the message given.
#[cfg(test)]
fn assert_parse_errors(cases: &[(&str, &str)]) {
    for (text, want) in cases {
        let mut w = Vec::new();
        let got = parse(text, "t.dot", "t", &LoadOptions::default(), &mut w)
            .unwrap_err()
            .to_string();
        assert_eq!(&got, want, "input: {text:?}");
    }
}

#[cfg(test)]
mod more_error_shapes {
    use super::*;

    #[test]
    fn ports_and_subgraphs() {
        let cases: &[(&str, &str)] = &[
            (
                "digraph { a: -> b }",
                "t.dot:1:14: found `->`, expected a port name after `:`",
            ),
            (
                "digraph { subgraph x y }",
                "t.dot:1:22: found `y`, expected `{` opening the subgraph",
            ),
            (
                "digraph { a -> subgraph [ }",
                "t.dot:1:25: found `[`, expected `{` opening the subgraph",
            ),
        ];
        assert_parse_errors(cases);
    }
}

#[cfg(test)]
mod error_order {
    use super::*;

    /// The parser reads one token ahead: a lexing error in that token must not hide the parser
    /// error at the token before it.
    #[test]
    fn a_bad_token_after_the_error_does_not_hide_it() {
        let cases: &[(&str, &str)] = &[
            (
                "digraph { a [label ] \"",
                "t.dot:1:20: found `]`, expected `=` after the attribute name",
            ),
            (
                "digraph { a -> ; \"x",
                "t.dot:1:16: found `;`, expected a node id or a subgraph after the edge",
            ),
            (
                "digraph { a -> b [label=\"x\" + y \"",
                "t.dot:1:31: found `y`, expected a quoted string after `+`",
            ),
            (
                "graf \"",
                "t.dot:1:1: found `graf`, expected `digraph` or `graph`",
            ),
            (
                "digraph { } x \"",
                "t.dot:1:13: found `x`, expected end of file after the graph's closing `}`",
            ),
            (
                "digraph { a -- b /*",
                "t.dot:1:13: found `--`, expected `->` (the graph is a digraph)",
            ),
            (
                "digraph { a [=b] <",
                "t.dot:1:14: found `=`, expected an attribute `name = value` or `]`",
            ),
            (
                "digraph { a -> b [label=\"?a\"] ; \"",
                "t.dot:1:33: found an unterminated string, expected a closing `\"`",
            ),
        ];
        assert_parse_errors(cases);
    }
}

#[cfg(test)]
mod quoted_strings {
    use super::*;
    use proptest::prelude::*;

    /// The quoted-string reading of the tokenizer before tokens kept only their spans (it built
    /// the value while scanning): the value and the offset after the closing quote.
    fn reference(text: &str) -> Option<(String, usize)> {
        let b = text.as_bytes();
        let (mut out, mut i, mut chunk) = (String::new(), 1, 1);
        while i < b.len() {
            match (b[i], b.get(i + 1), b.get(i + 2)) {
                (b'"', ..) => {
                    out.push_str(&text[chunk..i]);
                    return Some((out, i + 1));
                }
                (b'\\', Some(b'"'), _) => {
                    out.push_str(&text[chunk..i]);
                    chunk = i + 1;
                    i += 2;
                }
                (b'\\', Some(b'\n'), _) => {
                    out.push_str(&text[chunk..i]);
                    chunk = i + 2;
                    i += 2;
                }
                (b'\\', Some(b'\r'), Some(b'\n')) => {
                    out.push_str(&text[chunk..i]);
                    chunk = i + 3;
                    i += 3;
                }
                (b'\\', Some(b'\\'), _) => {
                    out.push_str(&text[chunk..i + 1]);
                    chunk = i + 2;
                    i += 2;
                }
                _ => i += 1,
            }
        }
        None
    }

    fn lexed(text: &str) -> Option<(String, usize)> {
        let mut lexer = Lexer {
            file: "t.dot",
            text,
            pos: 0,
        };
        let t = lexer.next().ok()?;
        let Tok::Id(kind) = t.tok else {
            panic!("a quoted string lexed as {t:?}")
        };
        Some((lexer.value(&t, kind).into_owned(), t.span.end))
    }

    proptest! {
        #[test]
        fn values_and_ends_are_those_of_the_old_reading(
            body in proptest::collection::vec(
                prop_oneof![
                    Just("a"), Just(" "), Just("\\"), Just("\""), Just("\n"), Just("\r"),
                    Just("é"), Just("/"),
                ],
                0..24,
            )
        ) {
            let text = format!("\"{}", body.concat());
            prop_assert_eq!(lexed(&text), reference(&text));
        }
    }

    #[test]
    fn escapes_concatenation_and_html_ids() {
        let text = "digraph { __start0 -> \"a\\\"b\" + <c<d>> + \"e\\\\\\\nf\"; \"a\\\"b\" -> x [label=\"in\\n\" + \" / \\\\o\"] }";
        let mut w = Vec::new();
        let m = parse(text, "t.dot", "t", &LoadOptions::default(), &mut w).unwrap();
        let Model::Mealy(m) = m else {
            panic!("expected Mealy, got {m:?}")
        };
        assert_eq!(m.state_names(), ["a\"bc<d>e\\f", "a\"b", "x"]);
        assert_eq!(m.inputs.names(), ["in\\n"]);
        assert_eq!(m.outputs.names(), ["\\o"]);
    }
}

#[cfg(test)]
mod line_endings {
    use super::*;

    #[test]
    fn crlf_files_parse() {
        let text = "digraph {\r\n  __start0 -> a;\r\n  a -> b [label=\"x / y\"]\r\n}\r\n";
        let mut w = Vec::new();
        let m = parse(text, "t.dot", "t", &LoadOptions::default(), &mut w).unwrap();
        assert!(matches!(m, Model::Mealy(m) if m.num_transitions() == 1));
        assert!(w.is_empty());
    }
}
