//! Regular expressions over action labels, for the desired and forbidden behaviour of conf(D,F)
//! (EVEREST, seed 003, Def. 5), compiled to a Thompson NFA over a [`Vocabulary`].
//!
//! Syntax: a label is an identifier (`[A-Za-z0-9_]+`) or a quoted name (`"..."` or `'...'`, with
//! `\` escaping the next character); `.` is any label (quiescence included); concatenation is
//! juxtaposition or `;`; `|` is choice; postfix `*`, `+`, `?` repeat; parentheses group, and `()` is
//! the empty word. Whitespace separates. Errors carry the line and column of the offending character.
//!
//! Parentheses nest at most [`MAX_NESTING`] deep (deeper input is refused with its position rather
//! than overflowing the stack), and a run of postfix operators is folded into one (`a**` is `a*`,
//! `a+?` is `a*`), so the syntax tree is never deeper than the nesting.

pub use super::error::RegexError;
use super::observe::Vocabulary;
use crate::fast_hash::{FastBuild, FastMap};
use crate::format::position::excerpt;
use crate::model::LabelId;
use std::hash::BuildHasher;

#[derive(Clone, Debug, PartialEq, Eq)]
enum Node {
    Label {
        name: String,
        line: usize,
        col: usize,
    },
    Any,
    Epsilon,
    Concat(Vec<Node>),
    Alt(Vec<Node>),
    Star(Box<Node>),
    Plus(Box<Node>),
    Opt(Box<Node>),
}

/// A parsed regular expression over label names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Regex {
    source_name: String,
    root: Node,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Label(String),
    Any,
    Bar,
    Semi,
    Star,
    Plus,
    Quest,
    Open,
    Close,
    End,
}

/// The deepest nesting of parentheses accepted.
pub const MAX_NESTING: usize = 500;

struct Parser<'a> {
    source_name: &'a str,
    toks: Vec<(Tok, usize, usize)>,
    pos: usize,
    /// Parentheses open at `pos`.
    depth: usize,
}

fn describe(t: &Tok) -> String {
    match t {
        Tok::Label(n) => format!("label `{}`", excerpt(n)),
        Tok::Any => "`.`".into(),
        Tok::Bar => "`|`".into(),
        Tok::Semi => "`;`".into(),
        Tok::Star => "`*`".into(),
        Tok::Plus => "`+`".into(),
        Tok::Quest => "`?`".into(),
        Tok::Open => "`(`".into(),
        Tok::Close => "`)`".into(),
        Tok::End => "end of input".into(),
    }
}

fn tokenize(text: &str, source_name: &str) -> Result<Vec<(Tok, usize, usize)>, RegexError> {
    let mut toks = Vec::new();
    let (mut line, mut col) = (1usize, 1usize);
    let mut chars = text.chars().peekable();
    let err = |line, col, found: String, expected: &str| RegexError {
        source_name: source_name.to_owned(),
        line,
        col,
        found,
        expected: expected.to_owned(),
    };
    while let Some(&c) = chars.peek() {
        let (l0, c0) = (line, col);
        let simple = match c {
            '.' => Some(Tok::Any),
            '|' => Some(Tok::Bar),
            ';' => Some(Tok::Semi),
            '*' => Some(Tok::Star),
            '+' => Some(Tok::Plus),
            '?' => Some(Tok::Quest),
            '(' => Some(Tok::Open),
            ')' => Some(Tok::Close),
            _ => None,
        };
        if let Some(t) = simple {
            chars.next();
            col += 1;
            toks.push((t, l0, c0));
        } else if c == '\n' {
            chars.next();
            line += 1;
            col = 1;
        } else if c.is_whitespace() {
            chars.next();
            col += 1;
        } else if c.is_ascii_alphanumeric() || c == '_' {
            let mut name = String::new();
            while let Some(&d) = chars.peek() {
                if d.is_ascii_alphanumeric() || d == '_' {
                    name.push(d);
                    chars.next();
                    col += 1;
                } else {
                    break;
                }
            }
            toks.push((Tok::Label(name), l0, c0));
        } else if c == '"' || c == '\'' {
            chars.next();
            col += 1;
            let mut name = String::new();
            loop {
                match chars.next() {
                    None => {
                        return Err(err(
                            l0,
                            c0,
                            "an unterminated quoted label".into(),
                            &format!("a closing {c}"),
                        ));
                    }
                    Some(d) if d == c => {
                        col += 1;
                        break;
                    }
                    Some('\\') => {
                        col += 1;
                        match chars.next() {
                            Some(e) => {
                                col += 1;
                                name.push(e);
                            }
                            None => {
                                return Err(err(
                                    l0,
                                    c0,
                                    "an unterminated quoted label".into(),
                                    &format!("a closing {c}"),
                                ));
                            }
                        }
                    }
                    Some('\n') => {
                        return Err(err(
                            l0,
                            c0,
                            "a line break inside a quoted label".into(),
                            &format!("a closing {c} on the same line"),
                        ));
                    }
                    Some(d) => {
                        col += 1;
                        name.push(d);
                    }
                }
            }
            if name.is_empty() {
                return Err(err(l0, c0, "an empty quoted label".into(), "a label name"));
            }
            toks.push((Tok::Label(name), l0, c0));
        } else {
            return Err(err(
                l0,
                c0,
                format!("`{c}`"),
                "a label, `.`, `(`, `)`, `|`, `;`, `*`, `+` or `?`",
            ));
        }
    }
    toks.push((Tok::End, line, col));
    Ok(toks)
}

impl Parser<'_> {
    fn peek(&self) -> &(Tok, usize, usize) {
        &self.toks[self.pos]
    }

    fn error(&self, expected: &str) -> RegexError {
        let (t, line, col) = self.peek();
        RegexError {
            source_name: self.source_name.to_owned(),
            line: *line,
            col: *col,
            found: describe(t),
            expected: expected.to_owned(),
        }
    }

    fn alt(&mut self) -> Result<Node, RegexError> {
        let mut branches = vec![self.seq()?];
        while self.peek().0 == Tok::Bar {
            self.pos += 1;
            branches.push(self.seq()?);
        }
        Ok(if branches.len() == 1 {
            branches.pop().unwrap_or(Node::Epsilon)
        } else {
            Node::Alt(branches)
        })
    }

    fn seq(&mut self) -> Result<Node, RegexError> {
        let mut items = vec![self.postfix()?];
        loop {
            match self.peek().0 {
                Tok::Semi => {
                    self.pos += 1;
                    items.push(self.postfix()?);
                }
                Tok::Label(_) | Tok::Any | Tok::Open => items.push(self.postfix()?),
                _ => break,
            }
        }
        Ok(if items.len() == 1 {
            items.pop().unwrap_or(Node::Epsilon)
        } else {
            Node::Concat(items)
        })
    }

    fn postfix(&mut self) -> Result<Node, RegexError> {
        let mut node = self.atom()?;
        loop {
            let op = self.peek().0.clone();
            if !matches!(op, Tok::Star | Tok::Plus | Tok::Quest) {
                return Ok(node);
            }
            self.pos += 1;
            // Fold repeated operators: r** = r*, r++ = r+, r?? = r?, and any mix of `+` and `?`
            // (or with `*`) is r*.
            node = match (node, op) {
                (Node::Star(r), _) => Node::Star(r),
                (Node::Plus(r), Tok::Plus) => Node::Plus(r),
                (Node::Opt(r), Tok::Quest) => Node::Opt(r),
                (Node::Plus(r) | Node::Opt(r), _) => Node::Star(r),
                (r, Tok::Star) => Node::Star(Box::new(r)),
                (r, Tok::Plus) => Node::Plus(Box::new(r)),
                (r, _) => Node::Opt(Box::new(r)),
            };
        }
    }

    fn atom(&mut self) -> Result<Node, RegexError> {
        let (t, line, col) = self.peek().clone();
        match t {
            Tok::Label(name) => {
                self.pos += 1;
                Ok(Node::Label { name, line, col })
            }
            Tok::Any => {
                self.pos += 1;
                Ok(Node::Any)
            }
            Tok::Open => {
                if self.depth >= MAX_NESTING {
                    return Err(RegexError {
                        source_name: self.source_name.to_owned(),
                        line,
                        col,
                        found: format!("`(` nested more than {MAX_NESTING} deep"),
                        expected: "a less deeply nested expression".into(),
                    });
                }
                self.pos += 1;
                if self.peek().0 == Tok::Close {
                    self.pos += 1;
                    return Ok(Node::Epsilon);
                }
                self.depth += 1;
                let inner = self.alt()?;
                self.depth -= 1;
                if self.peek().0 != Tok::Close {
                    return Err(self.error("`)` or `|`"));
                }
                self.pos += 1;
                Ok(inner)
            }
            _ => Err(self.error("a label, `.` or `(`")),
        }
    }
}

/// One symbol of the NFA: a label, or any label.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Sym {
    Label(LabelId),
    Any,
}

/// A lazily determinised [`Nfa`]: DFA states are ε-closed NFA state sets from which the
/// accepting state is still reachable (sets without such a state are never made: a step into one
/// is `None`); state 0 is the initial one.
///
/// A DFA state is the set of *important* NFA states of an ε-closure (those with a labelled
/// edge, and the accepting one): two closures with the same important states have the same
/// future, so they are one DFA state, and the set of a long concatenation is a single state.
///
/// Memory is a few words per DFA state and per step taken, with no allocation per state: the
/// sets lie end to end in one arena; a single-state set is found through an index by NFA
/// state, a larger one through a map from its hash to the first state with that hash (states
/// of equal hash are chained). Steps taken are kept in a dense row per DFA state when the
/// vocabulary is small, in a map otherwise, so the common case touches memory in the order the
/// states were made (`docs/src/design/linear-scaling.md` has the figures).
#[derive(Clone, Debug)]
pub(crate) struct LazyDfa {
    nfa: Nfa,
    live: Vec<bool>,
    /// Whether acceptance is reachable from the initial state (from every other state it is).
    initial_alive: bool,
    scratch: NfaScratch,
    /// The successor set being computed (kept for its capacity).
    successor: Vec<u32>,
    /// The NFA states of DFA state `d` are `arena[starts[d]..starts[d + 1]]`.
    arena: Vec<u32>,
    starts: Vec<usize>,
    accepting: Vec<bool>,
    /// Per NFA state `s`, the DFA state whose set is `{s}` (or `NO_STATE`).
    by_single: Vec<u32>,
    /// The first DFA state of each hash of a larger set; `same_hash[d]` is the next one with
    /// d's hash.
    by_hash: FastMap<u64, u32>,
    same_hash: Vec<u32>,
    step: StepCache,
}

/// No DFA state (also: a step not taken yet, in a dense row).
const NO_STATE: u32 = u32::MAX;
/// A step taken to no state (acceptance out of reach), in a dense row.
const DEAD_STEP: u32 = u32::MAX - 1;
/// Vocabularies up to this size get a dense row of steps per DFA state.
const DENSE_LABELS: usize = 16;

/// The steps of the DFA taken so far.
#[derive(Clone, Debug)]
enum StepCache {
    /// `rows[d * labels + l]`: the successor, `NO_STATE` if not taken, `DEAD_STEP` if dead.
    Dense {
        labels: usize,
        rows: Vec<u32>,
    },
    Sparse(FastMap<(u32, LabelId), Option<u32>>),
}

impl StepCache {
    fn get(&self, d: u32, l: LabelId) -> Option<Option<u32>> {
        match self {
            StepCache::Dense { labels, rows } => match rows[d as usize * labels + l.index()] {
                NO_STATE => None,
                DEAD_STEP => Some(None),
                t => Some(Some(t)),
            },
            StepCache::Sparse(map) => map.get(&(d, l)).copied(),
        }
    }

    fn insert(&mut self, d: u32, l: LabelId, t: Option<u32>) {
        match self {
            StepCache::Dense { labels, rows } => {
                rows[d as usize * *labels + l.index()] = t.unwrap_or(DEAD_STEP);
            }
            StepCache::Sparse(map) => {
                map.insert((d, l), t);
            }
        }
    }

    /// Room for the steps of one more DFA state.
    fn add_state(&mut self) {
        if let StepCache::Dense { labels, rows } = self {
            rows.resize(rows.len() + *labels, NO_STATE);
        }
    }
}

impl LazyDfa {
    /// The automaton with its initial state (0) made.
    pub fn new(nfa: Nfa) -> Self {
        let live = nfa.live();
        let scratch = nfa.scratch();
        let init = nfa.closure(&[nfa.start]);
        let initial_alive = init.iter().any(|&s| live[s as usize]);
        let step = if nfa.labels <= DENSE_LABELS {
            StepCache::Dense {
                labels: nfa.labels,
                rows: Vec::new(),
            }
        } else {
            StepCache::Sparse(FastMap::default())
        };
        let mut dfa = LazyDfa {
            by_single: vec![NO_STATE; nfa.num_states()],
            nfa,
            live,
            initial_alive,
            scratch,
            successor: Vec::new(),
            arena: Vec::new(),
            starts: vec![0],
            accepting: Vec::new(),
            by_hash: FastMap::default(),
            same_hash: Vec::new(),
            step,
        };
        dfa.intern(&init);
        dfa
    }

    /// How many DFA states are made.
    pub fn len(&self) -> usize {
        self.accepting.len()
    }

    /// Whether state `d` accepts.
    pub fn accepting(&self, d: u32) -> bool {
        self.accepting[d as usize]
    }

    /// Whether acceptance is reachable from `d`: states other than the initial one are made
    /// only when it is.
    pub fn alive(&self, d: u32) -> bool {
        d != 0 || self.initial_alive
    }

    fn set(&self, d: u32) -> &[u32] {
        &self.arena[self.starts[d as usize]..self.starts[d as usize + 1]]
    }

    /// The DFA state of the sorted set `set`, made if new.
    fn intern(&mut self, set: &[u32]) -> u32 {
        if let [s] = set {
            let d = self.by_single[*s as usize];
            if d != NO_STATE {
                return d;
            }
            let d = self.push(set);
            self.by_single[*s as usize] = d;
            self.same_hash.push(NO_STATE);
            return d;
        }
        let hash = FastBuild::default().hash_one(set);
        let first = self.by_hash.get(&hash).copied();
        let mut d = first.unwrap_or(NO_STATE);
        while d != NO_STATE {
            if self.set(d) == set {
                return d;
            }
            d = self.same_hash[d as usize];
        }
        let d = self.push(set);
        self.by_hash.insert(hash, d);
        self.same_hash.push(first.unwrap_or(NO_STATE));
        d
    }

    /// Adds `set` as a new DFA state (the caller indexes it).
    fn push(&mut self, set: &[u32]) -> u32 {
        let d = self.accepting.len() as u32;
        self.arena.extend_from_slice(set);
        self.starts.push(self.arena.len());
        self.accepting
            .push(set.binary_search(&self.nfa.accept).is_ok());
        self.step.add_state();
        d
    }

    /// The successor of `d` on `l`, made if new; `None` when acceptance is out of reach.
    pub fn next(&mut self, d: u32, l: LabelId) -> Option<u32> {
        if let Some(t) = self.step.get(d, l) {
            return t;
        }
        let range = self.starts[d as usize]..self.starts[d as usize + 1];
        let mut set = std::mem::take(&mut self.successor);
        self.nfa
            .step_into(&self.arena[range], l, &mut self.scratch, &mut set);
        let t = if set.iter().any(|&s| self.live[s as usize]) {
            Some(self.intern(&set))
        } else {
            None
        };
        self.successor = set;
        self.step.insert(d, l, t);
        t
    }
}

/// Reusable buffers of the ε-closure: a visit stamp per NFA state (so that no set is cleared or
/// allocated per closure) and the stack.
#[derive(Clone, Debug)]
pub(crate) struct NfaScratch {
    mark: Vec<u32>,
    stamp: u32,
    stack: Vec<u32>,
}

impl NfaScratch {
    /// A stamp no state carries yet; the marks are cleared once every 2^32 - 1 closures.
    fn next_stamp(&mut self) {
        if self.stamp == u32::MAX {
            self.mark.fill(0);
            self.stamp = 0;
        }
        self.stamp += 1;
    }
}

/// Per state, a list of items, all lists in one vector (compressed rows): no allocation per
/// state, whatever the size of the automaton.
#[derive(Clone, Debug)]
struct Adjacency<T> {
    /// The items of state `s` are `items[start[s]..start[s + 1]]`.
    start: Vec<u32>,
    items: Vec<T>,
}

impl<T: Copy> Adjacency<T> {
    /// The lists of `n` states from (state, item) pairs, each list in the order of the pairs.
    fn of(n: usize, pairs: &[(u32, T)]) -> Self {
        let mut start = vec![0u32; n + 1];
        for &(s, _) in pairs {
            start[s as usize + 1] += 1;
        }
        for k in 0..n {
            start[k + 1] += start[k];
        }
        let mut next: Vec<u32> = start[..n].to_vec();
        let mut items: Vec<Option<T>> = vec![None; pairs.len()];
        for &(s, item) in pairs {
            items[next[s as usize] as usize] = Some(item);
            next[s as usize] += 1;
        }
        Adjacency {
            start,
            items: items.into_iter().flatten().collect(),
        }
    }

    fn get(&self, s: u32) -> &[T] {
        &self.items[self.start[s as usize] as usize..self.start[s as usize + 1] as usize]
    }
}

/// A Thompson NFA under construction: a state count and its ε and labelled edges as pairs.
struct NfaBuilder {
    states: u32,
    eps: Vec<(u32, u32)>,
    edges: Vec<(u32, (Sym, u32))>,
}

impl NfaBuilder {
    fn state(&mut self) -> u32 {
        self.states += 1;
        self.states - 1
    }
}

/// A Thompson NFA: one start and one accepting state, its edges in compressed rows.
#[derive(Clone, Debug)]
pub(crate) struct Nfa {
    eps: Adjacency<u32>,
    edges: Adjacency<(Sym, u32)>,
    /// Per state: whether it has a labelled edge or is the accepting state (the states a
    /// closure is represented by).
    important: Vec<bool>,
    /// The size of the vocabulary the labels are drawn from.
    labels: usize,
    pub start: u32,
    pub accept: u32,
}

impl Nfa {
    fn num_states(&self) -> usize {
        self.eps.start.len() - 1
    }

    /// Work space for [`Nfa::closure_into`] and [`Nfa::step_into`], sized to this automaton.
    pub fn scratch(&self) -> NfaScratch {
        NfaScratch {
            mark: vec![0; self.num_states()],
            stamp: 0,
            stack: Vec::new(),
        }
    }

    /// The important states of the ε-closure of a set of states, sorted.
    pub fn closure(&self, set: &[u32]) -> Vec<u32> {
        let mut out = Vec::new();
        self.closure_into(set.iter().copied(), &mut self.scratch(), &mut out);
        out
    }

    /// The important states of the ε-closure of `seeds`, sorted, in `out`. Time in the size of the closure and
    /// its ε edges, not of the whole automaton (a DFA state of a long concatenation is a handful
    /// of NFA states, and determinising it takes one closure per step), and no allocation once
    /// the scratch buffers have grown.
    fn closure_into(
        &self,
        seeds: impl Iterator<Item = u32>,
        scratch: &mut NfaScratch,
        out: &mut Vec<u32>,
    ) {
        scratch.next_stamp();
        let stamp = scratch.stamp;
        out.clear();
        scratch.stack.clear();
        for s in seeds {
            if scratch.mark[s as usize] != stamp {
                scratch.mark[s as usize] = stamp;
                scratch.stack.push(s);
            }
        }
        while let Some(s) = scratch.stack.pop() {
            if self.important[s as usize] {
                out.push(s);
            }
            for &t in self.eps.get(s) {
                if scratch.mark[t as usize] != stamp {
                    scratch.mark[t as usize] = stamp;
                    scratch.stack.push(t);
                }
            }
        }
        out.sort_unstable();
    }

    /// The important states of the ε-closed successor set of `set` on `l`.
    #[cfg(test)]
    pub fn step(&self, set: &[u32], l: LabelId) -> Vec<u32> {
        let mut out = Vec::new();
        self.step_into(set, l, &mut self.scratch(), &mut out);
        out
    }

    /// The important states of the ε-closed successor set of `set` on `l`, sorted, in `out`.
    pub fn step_into(&self, set: &[u32], l: LabelId, scratch: &mut NfaScratch, out: &mut Vec<u32>) {
        let edges = &self.edges;
        let targets = set.iter().flat_map(|&s| {
            edges
                .get(s)
                .iter()
                .filter(move |&&(sym, _)| sym == Sym::Any || sym == Sym::Label(l))
                .map(|&(_, t)| t)
        });
        self.closure_into(targets, scratch, out);
    }

    /// Per state: whether the accepting state is reachable from it.
    pub fn live(&self) -> Vec<bool> {
        let n = self.num_states();
        let mut reversed: Vec<(u32, u32)> = Vec::with_capacity(self.eps.items.len());
        for s in 0..n as u32 {
            reversed.extend(self.eps.get(s).iter().map(|&t| (t, s)));
            reversed.extend(self.edges.get(s).iter().map(|&(_, t)| (t, s)));
        }
        let rev = Adjacency::of(n, &reversed);
        let mut live = vec![false; n];
        live[self.accept as usize] = true;
        let mut stack = vec![self.accept];
        while let Some(t) = stack.pop() {
            for &s in rev.get(t) {
                if !live[s as usize] {
                    live[s as usize] = true;
                    stack.push(s);
                }
            }
        }
        live
    }
}

impl Regex {
    /// Parses `text`; `source_name` prefixes error positions (a file name or an option name).
    pub fn parse(text: &str, source_name: &str) -> Result<Regex, RegexError> {
        let toks = tokenize(text, source_name)?;
        let mut p = Parser {
            source_name,
            toks,
            pos: 0,
            depth: 0,
        };
        let root = p.alt()?;
        if p.peek().0 != Tok::End {
            return Err(p.error("a label, `.`, `(`, `|`, `;` or the end of the expression"));
        }
        Ok(Regex {
            source_name: source_name.to_owned(),
            root,
        })
    }

    /// The label names the expression mentions, in order of appearance.
    pub fn labels(&self) -> Vec<String> {
        fn walk(n: &Node, out: &mut Vec<String>) {
            match n {
                Node::Label { name, .. } => out.push(name.clone()),
                Node::Concat(v) | Node::Alt(v) => v.iter().for_each(|c| walk(c, out)),
                Node::Star(c) | Node::Plus(c) | Node::Opt(c) => walk(c, out),
                Node::Any | Node::Epsilon => {}
            }
        }
        let mut out = Vec::new();
        walk(&self.root, &mut out);
        out
    }

    /// Compiles to an NFA over `vocab`, failing on a label no model has.
    pub(crate) fn compile(&self, vocab: &Vocabulary) -> Result<Nfa, RegexError> {
        let mut b = NfaBuilder {
            states: 0,
            eps: Vec::new(),
            edges: Vec::new(),
        };
        let (start, accept) = self.fragment(&self.root, &mut b, vocab)?;
        let n = b.states as usize;
        let edges = Adjacency::of(n, &b.edges);
        let important = (0..n as u32)
            .map(|s| s == accept || !edges.get(s).is_empty())
            .collect();
        Ok(Nfa {
            eps: Adjacency::of(n, &b.eps),
            edges,
            important,
            labels: vocab.len(),
            start,
            accept,
        })
    }

    fn fragment(
        &self,
        n: &Node,
        nfa: &mut NfaBuilder,
        vocab: &Vocabulary,
    ) -> Result<(u32, u32), RegexError> {
        let s = nfa.state();
        let a = nfa.state();
        match n {
            Node::Label { name, line, col } => {
                let Some(l) = vocab.get(name) else {
                    const SHOWN: usize = 20;
                    let mut known: Vec<String> = vocab
                        .ids()
                        .take(SHOWN)
                        .map(|l| excerpt(vocab.name(l)))
                        .collect();
                    let count = vocab.ids().count();
                    if count > SHOWN {
                        known.push(format!("… ({} more)", count - SHOWN));
                    }
                    return Err(RegexError {
                        source_name: self.source_name.clone(),
                        line: *line,
                        col: *col,
                        found: format!("label `{}`, which neither model has", excerpt(name)),
                        expected: format!("one of {}", known.join(", ")),
                    });
                };
                nfa.edges.push((s, (Sym::Label(l), a)));
            }
            Node::Any => nfa.edges.push((s, (Sym::Any, a))),
            Node::Epsilon => nfa.eps.push((s, a)),
            Node::Concat(items) => {
                let mut prev = s;
                for item in items {
                    let (is, ia) = self.fragment(item, nfa, vocab)?;
                    nfa.eps.push((prev, is));
                    prev = ia;
                }
                nfa.eps.push((prev, a));
            }
            Node::Alt(branches) => {
                for b in branches {
                    let (bs, ba) = self.fragment(b, nfa, vocab)?;
                    nfa.eps.push((s, bs));
                    nfa.eps.push((ba, a));
                }
            }
            Node::Star(c) | Node::Plus(c) | Node::Opt(c) => {
                let (cs, ca) = self.fragment(c, nfa, vocab)?;
                nfa.eps.push((s, cs));
                nfa.eps.push((ca, a));
                if !matches!(n, Node::Plus(_)) {
                    nfa.eps.push((s, a));
                }
                if !matches!(n, Node::Opt(_)) {
                    nfa.eps.push((ca, cs));
                }
            }
        }
        Ok((s, a))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::observe::Observable;
    use crate::model::lts_from_marked;
    use proptest::prelude::*;

    fn vocab() -> Vocabulary {
        let lts = lts_from_marked("t", 1, &[(0, "?a", 0), (0, "?b", 0), (0, "!x", 0)]).unwrap();
        Vocabulary::of(&[Observable::Lts(&lts)]).unwrap()
    }

    fn accepts(re: &str, word: &[&str]) -> bool {
        let v = vocab();
        let nfa = Regex::parse(re, "re").unwrap().compile(&v).unwrap();
        let mut set = nfa.closure(&[nfa.start]);
        for w in word {
            set = nfa.step(&set, v.get(w).unwrap());
        }
        set.contains(&nfa.accept)
    }

    /// The lazy DFA answers as the NFA does, with its steps in dense rows (this vocabulary) and
    /// in the map of large vocabularies alike.
    #[test]
    fn lazy_dfa_agrees_with_the_nfa_whatever_its_step_cache() {
        let v = vocab();
        let labels: Vec<LabelId> = ["a", "b", "x"].iter().map(|l| v.get(l).unwrap()).collect();
        let mut rng = crate::rng::SplitMix64::new(11);
        for re in ["(a|b)*a x", "a (b x)+ a?", "(a|b x)* x", "a . b*"] {
            let nfa = Regex::parse(re, "re").unwrap().compile(&v).unwrap();
            let mut dense = LazyDfa::new(nfa.clone());
            assert!(matches!(dense.step, StepCache::Dense { .. }));
            let mut sparse = LazyDfa::new(nfa.clone());
            sparse.step = StepCache::Sparse(FastMap::default());
            for _ in 0..200 {
                let word: Vec<LabelId> = (0..rng.below(7)).map(|_| *rng.pick(&labels)).collect();
                let mut set = nfa.closure(&[nfa.start]);
                for &l in &word {
                    set = nfa.step(&set, l);
                }
                let in_nfa = set.contains(&nfa.accept);
                for dfa in [&mut dense, &mut sparse] {
                    let mut d = Some(0);
                    for &l in &word {
                        d = d.and_then(|d| dfa.next(d, l));
                    }
                    assert_eq!(d.is_some_and(|d| dfa.accepting(d)), in_nfa, "{re} {word:?}");
                }
            }
        }
    }

    #[test]
    fn operators() {
        assert!(accepts("(a|b)*a x", &["b", "a", "b", "a", "x"]));
        assert!(!accepts("(a|b)*a x", &["a", "b", "x"]));
        assert!(accepts("a; b; x", &["a", "b", "x"]));
        assert!(accepts("a+ x?", &["a", "a"]));
        assert!(!accepts("a+ x?", &[]));
        assert!(accepts(". . x", &["b", "delta", "x"]));
        assert!(accepts("'a' \"x\" ()", &["a", "x"]));
        assert!(accepts("()", &[]));
    }

    #[test]
    fn positioned_errors() {
        let e = Regex::parse("a (b | ", "--desired").unwrap_err();
        assert_eq!(
            e.to_string(),
            "--desired:1:8: found end of input, expected a label, `.` or `(`"
        );
        let e = Regex::parse("a\n  b)", "d.re").unwrap_err();
        assert_eq!((e.line, e.col), (2, 4));
        assert!(e.to_string().contains("found `)`"), "{e}");
        let e = Regex::parse("a # b", "re").unwrap_err();
        assert_eq!((e.col, e.found.as_str()), (3, "`#`"));
        let e = Regex::parse("a 'b", "re").unwrap_err();
        assert!(
            e.to_string()
                .contains("re:1:3: found an unterminated quoted label"),
            "{e}"
        );
        let e = Regex::parse("a zz", "re")
            .unwrap()
            .compile(&vocab())
            .unwrap_err();
        assert_eq!((e.line, e.col), (1, 3));
        assert!(
            e.to_string().contains("expected one of delta, a, b, x"),
            "{e}"
        );
    }

    #[test]
    fn deep_nesting_is_refused_with_its_position() {
        let deep = format!("{}a{}", "(".repeat(10_000), ")".repeat(10_000));
        let e = Regex::parse(&deep, "--desired").unwrap_err();
        assert_eq!((e.line, e.col), (1, MAX_NESTING + 1));
        assert!(e.to_string().contains("nested more than 500 deep"), "{e}");
        let ok = format!("{}a{}", "(".repeat(MAX_NESTING), ")".repeat(MAX_NESTING));
        assert!(Regex::parse(&ok, "re").is_ok());
        assert!(accepts(&ok, &["a"]));
    }

    #[test]
    fn runs_of_postfix_operators_fold_into_one() {
        let stars = format!("a{}", "*".repeat(30_000));
        let re = Regex::parse(&stars, "re").unwrap();
        assert_eq!(re.root, Regex::parse("a*", "re").unwrap().root);
        for (long, short) in [
            ("a**", "a*"),
            ("a++", "a+"),
            ("a??", "a?"),
            ("a+?", "a*"),
            ("a?+", "a*"),
            ("a*+?", "a*"),
        ] {
            assert_eq!(
                Regex::parse(long, "re").unwrap().root,
                Regex::parse(short, "re").unwrap().root,
                "{long}"
            );
        }
        assert!(accepts("a+?", &[]));
        assert!(accepts("a?+", &["a", "a"]));
        assert!(!accepts("a++", &[]));
    }

    #[test]
    fn long_labels_are_quoted_short() {
        let long = "z".repeat(1_000_000);
        let e = Regex::parse(&format!("a {long}"), "re")
            .unwrap()
            .compile(&vocab())
            .unwrap_err();
        assert!(e.to_string().len() < 300, "{} bytes", e.to_string().len());
    }

    proptest! {
        /// The parser never panics, and errors point inside the text (or just past its end).
        #[test]
        fn parser_total(text in "[ab() |;*+?.'\"\\n#x]{0,24}") {
            match Regex::parse(&text, "p") {
                Ok(re) => { let _ = re.compile(&vocab()); }
                Err(e) => {
                    let lines: Vec<&str> = text.split('\n').collect();
                    prop_assert!(e.line >= 1 && e.line <= lines.len());
                    prop_assert!(e.col >= 1 && e.col <= lines[e.line - 1].chars().count() + 1);
                }
            }
        }
    }
}
