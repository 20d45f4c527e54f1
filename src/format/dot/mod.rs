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
//! translation ([`Mealy::from_moore`](crate::model::Mealy::from_moore)). Mealy edges with
//! several transitions for a state and input are a nondeterministic Mealy machine (see
//! `format/build.rs`).
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
//! so they are looked up in [`NameMap`](crate::fast_hash::NameMap)s, keyed by a per-process
//! random key: the unkeyed [`FastMap`](crate::fast_hash::FastMap) hash put `s0`..`s399999`
//! into a few hundred buckets and names chosen against it into one, which made parsing quadratic (issue 44; the generated
//! rows of `cargo bench --bench parse`). The
//! parser reads one token ahead, always; a lexing error in that token waits until the parser
//! wants the token, so a parser error before it is still the one reported. Parse errors are
//! boxed inside the parser, so its results are small. The ESM parse went from about 135 ms to
//! about 56 ms (`cargo bench --bench parse`, docs/src/design/scaling.md).
//!
//! The files: `lexer.rs` (tokens), `parser.rs` (statements into the raw graph), `read.rs` (the
//! raw graph as a model, Moore machines), `write.rs` (models as DOT), `tests.rs`.

mod lexer;
mod parser;
mod read;
#[cfg(test)]
mod tests;
mod write;

pub(crate) use parser::is_start_marker;
pub use read::parse;
pub(crate) use read::parse_annotated;
pub use write::{write_lts, write_mealy, write_moore, write_onfsm};
