//! The DOT parser: statements, attribute lists, subgraphs and edge chains read into the raw
//! graph (`build.rs`) with the node labels and the timeout and requirement annotations of its
//! statements.

use super::super::build::{RawEdge, RawGraph};
use super::super::options::LoadOptions;
use super::super::position::{ParseError, Span, Warning};
use super::super::requirements;
use super::super::timeouts::{Annotation, Target};
use super::lexer::{IdKind, Lexer, PResult, Tok, Token, describe};
use crate::fast_hash::{FastMap, NameMap};
use std::borrow::Cow;

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

/// The label a DOT node statement gave each state, if any.
pub(super) type StateLabels<'a> = Vec<Option<(Cow<'a, str>, usize)>>;

pub(super) fn parse_raw<'a>(
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
