//! Rendering of suites as TTCN-3 modules (with a Titan test port in C++ speaking the stdio
//! protocol) and as standalone Python (pytest) and Rust (cargo test) programs, through minijinja
//! templates embedded in the binary and overridable from a directory.
//!
//! Every format renders a suite in parts of bounded size ([`PART_LIMIT`]), one part at a time
//! ([`SuiteRenderer`]): pytest modules, Rust modules, or TTCN-3 part modules that import one
//! definitions module (types, the port, the components, the reset hook) and are run in suite
//! order by one control module.
//!
//! The templates see one context, built here: the suite header, identifiers that are valid in
//! every target language, and the tests as flat node lists whose references are either a node
//! index or a verdict. Flat lists keep templates free of recursion, so deep tests (long Mealy
//! chains) render in time and stack proportional to their size.
//!
//! Every string a model or suite supplies reaches a generated program through a filter that
//! escapes it for its context (string literal, docstring, comment, TOML, TTCN-3 charstring; the
//! functions are in [`super::escape`]). The printing of the environment enforces this: a template
//! that prints such a string without a filter fails to render.

use super::escape;
use crate::model::{LabelKind, SuspensionAutomaton};
use crate::suite::case::allowed;
use crate::suite::timeouts::ModelTimeouts;
use crate::suite::{Next, SuiteHeader, SuiteModel, TestCase, TestNode};
use minijinja::syntax::SyntaxConfig;
use minijinja::value::{Enumerator, Object, ObjectRepr};
use minijinja::value::{Value, ValueKind};
use minijinja::{AutoEscape, Environment, Output, State, context};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A target format of `ncomplete render`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// TTCN-3 text, one `testcase` per test, and a Titan test port (C++) speaking the stdio
    /// protocol.
    Ttcn,
    /// A pytest module and its runtime.
    Python,
    /// A standalone Cargo package.
    Rust,
}

impl Format {
    /// Parses the command-line spelling.
    pub fn parse(s: &str) -> Option<Format> {
        match s {
            "ttcn" => Some(Format::Ttcn),
            "python" => Some(Format::Python),
            "rust" => Some(Format::Rust),
            _ => None,
        }
    }

    /// The command-line spelling (also what an output directory's marker records).
    pub fn name(self) -> &'static str {
        match self {
            Format::Ttcn => "ttcn",
            Format::Python => "python",
            Format::Rust => "rust",
        }
    }

    /// The template files of the format, its on-the-fly tester's (`render --explore-spec`; none
    /// for TTCN-3) included.
    fn files(self) -> &'static [TemplateFile] {
        match self {
            Format::Ttcn => &[
                TemplateFile {
                    name: "ttcn/part.ttcn.j2",
                    out: "{{ ident }}_{{ part.module }}.ttcn",
                    embedded: include_str!("../../templates/ttcn/part.ttcn.j2"),
                    role: Role::Part,
                },
                TemplateFile {
                    name: "ttcn/definitions.ttcn.j2",
                    out: "{{ ident }}_tests.ttcn",
                    embedded: include_str!("../../templates/ttcn/definitions.ttcn.j2"),
                    role: Role::Suite,
                },
                TemplateFile {
                    name: "ttcn/control.ttcn.j2",
                    out: "{{ ident }}_control.ttcn",
                    embedded: include_str!("../../templates/ttcn/control.ttcn.j2"),
                    role: Role::Suite,
                },
                TemplateFile {
                    name: "ttcn/LabelPort.hh.j2",
                    out: "LabelPort.hh",
                    embedded: include_str!("../../templates/ttcn/LabelPort.hh.j2"),
                    role: Role::Suite,
                },
                TemplateFile {
                    name: "ttcn/LabelPort.cc.j2",
                    out: "LabelPort.cc",
                    embedded: include_str!("../../templates/ttcn/LabelPort.cc.j2"),
                    role: Role::Suite,
                },
            ],
            Format::Python => &[
                TemplateFile {
                    name: "python/test_suite.py.j2",
                    out: "test_{{ ident }}{{ shard.suffix }}{{ part.suffix }}.py",
                    embedded: include_str!("../../templates/python/test_suite.py.j2"),
                    role: Role::Part,
                },
                TemplateFile {
                    name: "gitignore.j2",
                    out: ".gitignore",
                    embedded: include_str!("../../templates/gitignore.j2"),
                    role: Role::Suite,
                },
                TemplateFile {
                    name: "python/ncomplete_runtime.py.j2",
                    out: "ncomplete_runtime.py",
                    embedded: include_str!("../../templates/python/ncomplete_runtime.py.j2"),
                    role: Role::Suite,
                },
                TemplateFile {
                    name: "python/explore.py.j2",
                    out: "explore_{{ ident }}.py",
                    embedded: include_str!("../../templates/python/explore.py.j2"),
                    role: Role::Explorer,
                },
            ],
            Format::Rust => &[
                TemplateFile {
                    name: "rust/Cargo.toml.j2",
                    out: "Cargo.toml",
                    embedded: include_str!("../../templates/rust/Cargo.toml.j2"),
                    role: Role::Suite,
                },
                TemplateFile {
                    name: "gitignore.j2",
                    out: ".gitignore",
                    embedded: include_str!("../../templates/gitignore.j2"),
                    role: Role::Suite,
                },
                TemplateFile {
                    name: "rust/lib.rs.j2",
                    out: "src/lib.rs",
                    embedded: include_str!("../../templates/rust/lib.rs.j2"),
                    role: Role::Suite,
                },
                TemplateFile {
                    name: "rust/part.rs.j2",
                    out: "src/{{ part.module }}.rs",
                    embedded: include_str!("../../templates/rust/part.rs.j2"),
                    role: Role::Part,
                },
                TemplateFile {
                    name: "rust/runtime.rs.j2",
                    out: "src/runtime.rs",
                    embedded: include_str!("../../templates/rust/runtime.rs.j2"),
                    role: Role::Suite,
                },
                TemplateFile {
                    name: "rust/suite.rs.j2",
                    out: "tests/suite.rs",
                    embedded: include_str!("../../templates/rust/suite.rs.j2"),
                    role: Role::Suite,
                },
                TemplateFile {
                    name: "rust/explore/main.rs.j2",
                    out: "src/bin/explore_{{ ident }}/main.rs",
                    embedded: include_str!("../../templates/rust/explore/main.rs.j2"),
                    role: Role::Explorer,
                },
                TemplateFile {
                    name: "rust/explore/spec.rs.j2",
                    out: "src/bin/explore_{{ ident }}/spec.rs",
                    embedded: include_str!("../../templates/rust/explore/spec.rs.j2"),
                    role: Role::Explorer,
                },
            ],
        }
    }

    /// Whether the format has an on-the-fly tester (`render --explore-spec`).
    pub fn has_explorer(self) -> bool {
        self.files().iter().any(|f| f.role == Role::Explorer)
    }
}

/// Whether a template renders once per suite or once per part.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Role {
    /// Once, with the suite header and the list of parts (`tests` is empty).
    Suite,
    /// Once per part, with the part's tests.
    Part,
    /// Once, as [`Role::Suite`], with the specification's automaton as `spec`; only when an
    /// on-the-fly tester was asked for.
    Explorer,
}

/// One template of a format.
#[derive(Debug)]
struct TemplateFile {
    /// Path relative to `templates/`.
    name: &'static str,
    /// Template of the output path.
    out: &'static str,
    /// The built-in source.
    embedded: &'static str,
    /// Once per suite or per part.
    role: Role,
}

/// The bound on one part of a rendering: a part ends when it holds `tests` tests or `nodes`
/// nodes (a single test larger than that is a part of its own).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PartLimit {
    /// Most tests in a part.
    pub tests: usize,
    /// Most nodes in a part (unless one test has more).
    pub nodes: usize,
}

/// The parts of every rendering: 1,000 tests or 32,768 nodes, whichever comes first. Python
/// modules, Rust modules and TTCN-3 part modules are bounded alike, so large suites become many
/// files that pytest collects, rustc and Titan compile in pieces, and the renderer holds one part
/// at a time.
pub const PART_LIMIT: PartLimit = PartLimit {
    tests: 1000,
    nodes: 32_768,
};

/// Splits tests, given one at a time in suite order, into parts: the number of tests of each.
#[derive(Clone, Debug)]
pub struct PartSizes {
    limit: PartLimit,
    sizes: Vec<usize>,
    nodes: usize,
}

impl PartSizes {
    /// No tests yet, for parts bounded by `limit` ([`PART_LIMIT`] in every rendering; tests use
    /// small limits to get several parts from small suites).
    pub fn with_limit(limit: PartLimit) -> Self {
        PartSizes {
            limit,
            sizes: Vec::new(),
            nodes: 0,
        }
    }

    /// Accounts for the next test, which has `nodes` nodes.
    pub fn push(&mut self, nodes: usize) {
        let full = match self.sizes.last() {
            None => true,
            Some(&tests) => {
                tests >= self.limit.tests || (tests > 0 && self.nodes + nodes > self.limit.nodes)
            }
        };
        if full {
            self.sizes.push(0);
            self.nodes = 0;
        }
        if let Some(last) = self.sizes.last_mut() {
            *last += 1;
        }
        self.nodes += nodes;
    }

    /// The number of tests of each part; one empty part for an empty suite.
    pub fn finish(mut self) -> Vec<usize> {
        if self.sizes.is_empty() {
            self.sizes.push(0);
        }
        self.sizes
    }
}

/// Rendering failed.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// A template override could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// A template does not compile or fails while rendering.
    #[error("template {name}: {message}")]
    Template {
        /// Template path relative to the templates directory.
        name: String,
        /// minijinja's explanation, with line.
        message: String,
    },
}

/// One rendered file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenderedFile {
    /// Path relative to the output directory.
    pub path: PathBuf,
    /// Contents.
    pub contents: String,
}

fn reference(n: Next) -> Value {
    match n {
        Next::Node(k) => context! {node => k, verdict => ()},
        Next::Verdict(v) => {
            context! {node => (), verdict => Value::from_safe_string(v.as_str().to_owned())}
        }
    }
}

/// The first input a test applies: the input of the first send node on its first path (from
/// the root, an expect node continues at its first branch that leads to a node); `None` for a
/// test that applies no input.
pub fn first_input(t: &TestCase) -> Option<crate::model::LabelId> {
    let mut k = 0;
    loop {
        match t.nodes.get(k)? {
            TestNode::Send { input, .. } => return Some(*input),
            TestNode::Expect { branches } => {
                k = branches.iter().find_map(|&(_, n)| match n {
                    Next::Node(next) => Some(next as usize),
                    Next::Verdict(_) => None,
                })?;
            }
        }
    }
}

/// The template context of one test (see [`context`]).
fn test_context(model: &SuiteModel, t: &TestCase, ident: &str) -> Value {
    let quiescence_id = model.outputs.len();
    // Nodes that a TTCN-3 `goto` jumps to (every reference but a send's to the next node).
    let mut jumped_to = vec![false; t.nodes.len()];
    for (k, node) in t.nodes.iter().enumerate() {
        let (then, branches) = match node {
            TestNode::Send { then, race, .. } => (Some(*then), race),
            TestNode::Expect { branches } => (None, branches),
        };
        let targets = branches
            .iter()
            .map(|&(_, n)| n)
            .chain(then.filter(|&n| n != Next::Node(k as u32 + 1)));
        for n in targets {
            if let Next::Node(j) = n
                && let Some(flag) = jumped_to.get_mut(j as usize)
            {
                *flag = true;
            }
        }
    }
    let branch = |o: crate::model::LabelId, n: Next| {
        context! {
            label => model.output_name(o),
            quiescence => o.index() == quiescence_id,
            next => reference(n),
        }
    };
    let nodes: Vec<Value> = t
        .nodes
        .iter()
        .enumerate()
        .map(|(k, node)| match node {
            TestNode::Send { input, then, race } => context! {
                index => k,
                jumped_to => jumped_to[k],
                kind => "send",
                input => model.input_name(*input),
                then => reference(*then),
                branches => race.iter().map(|&(o, n)| branch(o, n)).collect::<Vec<_>>(),
                expected => allowed(model, race),
            },
            TestNode::Expect { branches } => context! {
                index => k,
                jumped_to => jumped_to[k],
                kind => "expect",
                input => (),
                then => (),
                quiescence_allowed => branches
                    .iter()
                    .any(|&(o, n)| o.index() == quiescence_id && n != Next::FAIL),
                branches => branches.iter().map(|&(o, n)| branch(o, n)).collect::<Vec<_>>(),
                expected => allowed(model, branches),
            },
        })
        .collect();
    context! {
        name => t.name.as_str(),
        first_input => first_input(t).map(|i| model.input_name(i)),
        ident_upper => Value::from_safe_string(ident.to_ascii_uppercase()),
        ident => Value::from_safe_string(ident.to_owned()),
        nodes => nodes,
    }
}

/// Per node of `test`: the largest annotated response timeout of the inputs the tester may have
/// sent last when it reaches the node (for programs that fix a wait per node, TTCN-3).
fn node_response_ms(
    model: &SuiteModel,
    test: &TestCase,
    timeouts: &ModelTimeouts,
) -> Vec<Option<u64>> {
    let mut last: Vec<Option<u64>> = vec![None; test.nodes.len()];
    for (n, node) in test.nodes.iter().enumerate() {
        let here = last[n];
        let mut pass = |next: Next, ms: Option<u64>| {
            if let Next::Node(k) = next
                && let Some(slot) = last.get_mut(k as usize)
            {
                *slot = (*slot).max(ms);
            }
        };
        match node {
            TestNode::Send { input, then, race } => {
                pass(*then, timeouts.response_ms(model.input_name(*input)));
                race.iter().for_each(|&(_, next)| pass(next, here));
            }
            TestNode::Expect { branches } => {
                branches.iter().for_each(|&(_, next)| pass(next, here))
            }
        }
    }
    last
}

/// The `tests` of the template context, built one test at a time as a template reads them, so
/// rendering holds the test cases and the output, not the context of every test at once.
#[derive(Debug)]
struct LazyTests {
    model: SuiteModel,
    tests: Vec<TestCase>,
    idents: Vec<String>,
    timeouts: Option<Arc<ModelTimeouts>>,
    /// The requirements each test touches (`crate::suite::requirements`), by test name.
    requirements: std::collections::HashMap<String, Vec<String>>,
}

impl Object for LazyTests {
    fn repr(self: &Arc<Self>) -> ObjectRepr {
        ObjectRepr::Seq
    }

    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        let k = key.as_usize()?;
        let t = self.tests.get(k)?;
        let ctx = test_context(&self.model, t, &self.idents[k]);
        // `R1, R2`, or none for a test touching no requirement.
        let requirements = self.requirements.get(&t.name).map(|r| r.join(", "));
        let ctx = context! { requirements => requirements, ..ctx };
        Some(match &self.timeouts {
            None => ctx,
            Some(timeouts) => {
                let listed = |waits: Vec<Option<u64>>| -> Vec<Value> {
                    waits
                        .into_iter()
                        .enumerate()
                        .filter_map(|(node, ms)| {
                            ms.map(|ms| {
                                context! {
                                    node => node,
                                    ms => ms,
                                    seconds => Value::from_safe_string(format!("{}.{:03}", ms / 1000, ms % 1000)),
                                }
                            })
                        })
                        .collect()
                };
                context! {
                    quiescence_ms => listed(timeouts.node_quiescence_ms(&self.model, t)),
                    response_ms => listed(node_response_ms(&self.model, t, timeouts)),
                    ..ctx
                }
            }
        })
    }

    fn enumerate(self: &Arc<Self>) -> Enumerator {
        Enumerator::Seq(self.tests.len())
    }
}

/// The template context of a suite: its header and its tests, as the context of one part
/// holding them all.
pub fn context(header: &SuiteHeader, tests: &[TestCase]) -> Value {
    let mut idents = escape::TestIdentifiers::new("_test");
    let idents = tests.iter().map(|t| idents.next(&t.name)).collect();
    let parts = [part_context(0, 1, tests.len())];
    PartContext {
        header,
        tests: tests.to_vec(),
        idents,
        parts: &parts,
        part: 0,
    }
    .with_timeouts(None)
}

/// The context of part `k` (0-based) of `count`: its number, its file-name suffix (empty for a
/// single part, else `_001`, `_002`, … as wide as the part count needs), its Rust module name
/// and its number of tests.
fn part_context(k: usize, count: usize, tests: usize) -> Value {
    let width = count.to_string().len().max(3);
    let number = format!("{:0width$}", k + 1);
    context! {
        number => k + 1,
        suffix => Value::from_safe_string(if count == 1 { String::new() } else { format!("_{number}") }),
        module => Value::from_safe_string(format!("part_{number}")),
        tests => tests,
    }
}

/// The context of the shard a suite file holds (`shard: "K/N"` in its header): its `label` and
/// the file-name `suffix` (`_shard_K_of_N`, empty for a whole suite) that keeps the pytest
/// modules of different shards apart in one session.
fn shard_context(header: &SuiteHeader) -> Value {
    let shard = header
        .extra
        .get("shard")
        .and_then(|s| s.as_str())
        .and_then(|s| crate::suite::names::Shard::parse(s).ok());
    context! {
        label => shard.map(|s| s.label()),
        suffix => Value::from_safe_string(shard.map_or_else(String::new, |s| {
            format!("_shard_{}_of_{}", s.index, s.count)
        })),
    }
}

/// The template context of part `part` of a suite: the suite header, the list of `parts`, the
/// part itself (`part`) and its `tests` with their identifiers, and those identifiers alone
/// (`test_idents`: `ident`, `ident_upper`) for a template's second pass over the tests. Strings a model or suite
/// supplies (names, labels, method, guarantee) are plain values that a template can print only
/// through an escaping filter; identifiers and the generator string are built here and marked
/// safe. The tests' contexts are built lazily, one test at a time. [`PartContext::with_timeouts`]
/// builds it.
struct PartContext<'a> {
    header: &'a SuiteHeader,
    tests: Vec<TestCase>,
    idents: Vec<String>,
    parts: &'a [Value],
    part: usize,
}

impl PartContext<'_> {
    /// The context, with the specification's timeout annotations when given: each test's
    /// `quiescence_ms` (the nodes whose largest annotation is known) and the suite's
    /// `timeouts.response_ms`; `timeouts` is none for an unannotated suite.
    fn with_timeouts(self, timeouts: Option<Arc<ModelTimeouts>>) -> Value {
        let PartContext {
            header,
            tests,
            idents,
            parts,
            part,
        } = self;
        let model = &header.model;
        let test_idents: Vec<Value> = idents
            .iter()
            .map(|ident| {
                context! {
                    ident => Value::from_safe_string(ident.clone()),
                    ident_upper => Value::from_safe_string(ident.to_ascii_uppercase()),
                }
            })
            .collect();
        let timeouts_context = timeouts.as_ref().map(|t| {
            let response_ms: Vec<Value> = model
                .inputs
                .iter()
                .filter_map(|i| t.response_ms(i).map(|ms| context! { input => i, ms => ms }))
                .collect();
            context! { response_ms => response_ms }
        });
        let tests = LazyTests {
            model: model.clone(),
            tests,
            idents,
            timeouts,
            requirements: crate::suite::requirements::by_test(header),
        };
        let ident = escape::unreserved_identifier(&model.name, "_model");
        let universal = model
            .inputs
            .iter()
            .chain(&model.outputs)
            .chain(&model.quiescence)
            .any(|l| escape::needs_universal_charstring(l));
        context! {
            generator => Value::from_safe_string(format!("ncomplete {}", env!("CARGO_PKG_VERSION"))),
            ident_dashed => Value::from_safe_string(ident.replace('_', "-")),
            // Titan's C++ namespace of a module name doubles its underscores.
            ident_cpp => Value::from_safe_string(ident.replace('_', "__")),
            ident_upper => Value::from_safe_string(ident.to_ascii_uppercase()),
            ident => Value::from_safe_string(ident),
            model => context! {
                name => model.name.as_str(),
                inputs => &model.inputs,
                outputs => &model.outputs,
                quiescence => model.quiescence.as_deref(),
                universal => universal,
            },
            method => header.method.as_str(),
            n => header.n,
            guarantee => header.guarantee.as_str(),
            tests => Value::from_object(tests),
            test_idents => test_idents,
            shard => shard_context(header),
            parts => parts,
            part => parts.get(part).cloned().unwrap_or_default(),
            timeouts => timeouts_context,
        }
    }
}

/// Prints a value into a template's output: numbers, booleans and strings marked safe (escaped
/// by a filter, built as identifiers, or macro output); anything else, in particular a string
/// from the model or suite that no escaping filter saw, is an error.
fn print_escaped(out: &mut Output, _: &mut State, value: &Value) -> Result<(), minijinja::Error> {
    let printable = value.is_safe() || matches!(value.kind(), ValueKind::Number | ValueKind::Bool);
    if !printable {
        return Err(minijinja::Error::new(
            minijinja::ErrorKind::InvalidOperation,
            format!(
                "{} printed without an escaping filter (py, py_doc, py_comment, rs, rs_doc, \
                 rs_comment, toml, toml_comment, ttcn, ttcn_comment; `safe` for text that is \
                 not source code)",
                value.kind()
            ),
        ));
    }
    write!(out, "{value}").map_err(|e| {
        minijinja::Error::new(minijinja::ErrorKind::WriteFailure, "writing output").with_source(e)
    })
}

fn filter(f: fn(&str) -> String) -> impl Fn(&str) -> Value + Send + Sync + 'static {
    move |s: &str| Value::from_safe_string(f(s))
}

fn environment() -> Environment<'static> {
    let mut env = Environment::new();
    let syntax = SyntaxConfig::builder()
        .trim_blocks(true)
        .lstrip_blocks(true)
        .keep_trailing_newline(true)
        .build()
        .expect("the default delimiters are valid");
    env.set_syntax(syntax);
    env.set_undefined_behavior(minijinja::UndefinedBehavior::Strict);
    // Every template is escaped the same way: nothing prints unless escaped or safe.
    env.set_auto_escape_callback(|_| AutoEscape::Custom("source".into()));
    env.set_formatter(print_escaped);
    env.add_filter("py", filter(escape::python_string));
    env.add_filter("py_doc", filter(escape::python_docstring));
    env.add_filter("py_comment", filter(escape::comment_line));
    env.add_filter("rs", filter(escape::rust_string));
    env.add_filter("rs_doc", filter(escape::rust_doc));
    env.add_filter("rs_comment", filter(escape::comment_line));
    env.add_filter("toml", filter(escape::toml_string));
    env.add_filter("toml_comment", filter(escape::comment_line));
    env.add_filter("ttcn", filter(escape::ttcn_charstring));
    env.add_filter("ttcn_comment", filter(escape::ttcn_comment));
    env
}

/// Renders a suite part by part, so a suite read from a stream is rendered with only one part
/// in memory: [`SuiteRenderer::render_part`] for each part in order, then
/// [`SuiteRenderer::render_suite_files`] for the files rendered once per suite (with the
/// on-the-fly tester's when the renderer was made by [`SuiteRenderer::with_explorer`]).
pub struct SuiteRenderer {
    /// The environment with every template of the format and its output path compiled, each
    /// once: a file's template under its [`TemplateFile::name`], its path under [`path_name`].
    env: Environment<'static>,
    files: Vec<&'static TemplateFile>,
    header: SuiteHeader,
    parts: Vec<Value>,
    idents: escape::TestIdentifiers,
    /// The `spec` of the on-the-fly tester's context ([`explorer_context`]).
    spec: Option<Value>,
    /// The specification's timeout annotations, rendered into the tests when present.
    timeouts: Option<Arc<ModelTimeouts>>,
}

/// The name under which the output path template of `file` is kept in the environment.
fn path_name(file: &TemplateFile) -> String {
    format!("{} (file name)", file.name)
}

/// The source of `file`: the override in `overrides` when that directory has the file, else
/// the embedded one.
fn template_source(file: &TemplateFile, overrides: Option<&Path>) -> Result<String, RenderError> {
    match overrides.map(|dir| dir.join(file.name)) {
        Some(path) if path.is_file() => {
            std::fs::read_to_string(&path).map_err(|source| RenderError::Io {
                path: path.display().to_string(),
                source,
            })
        }
        _ => Ok(file.embedded.to_owned()),
    }
}

fn template_error(file: &TemplateFile) -> impl Fn(minijinja::Error) -> RenderError + '_ {
    move |e| RenderError::Template {
        name: file.name.to_owned(),
        message: format!("{e:#}"),
    }
}

/// The `spec` of an on-the-fly tester's context: the suspension automaton `spec` as data. Its
/// `labels` (name and kind: `?` input, `!` output, `delta` quiescence, `tau` internal) in label
/// order, the `quiescence` label's name and index (`quiescence_index`), `states` (names),
/// the `initial` state and the `transitions` (`source`, `kind`, `label` name, `label_index`,
/// `target`) in state and label order. Names are model strings: printed through a filter. With
/// annotations, `timeouts` holds `quiescence_ms` (per state, the largest annotation of the model
/// states it stands for, 0 for none) and `response_ms` (`label_index`, `label`, `ms` of each
/// annotated input); without, `timeouts` is none and the tester is rendered as before, byte for
/// byte.
fn explorer_context(explorer: &ExplorerSpec<'_>) -> Value {
    let spec = explorer.automaton;
    let automaton = spec.automaton();
    let alphabet = &automaton.alphabet;
    let kind = |label| {
        let kind = if label == spec.quiescence() {
            "delta"
        } else {
            match alphabet.kind(label) {
                LabelKind::Input => "?",
                LabelKind::Output => "!",
                LabelKind::Internal => "tau",
            }
        };
        Value::from_safe_string(kind.to_owned())
    };
    let labels: Vec<Value> = alphabet
        .ids()
        .map(|label| context! { name => alphabet.name(label), kind => kind(label) })
        .collect();
    let transitions: Vec<Value> = automaton
        .triples()
        .map(|(source, label, target)| {
            context! {
                source => source.index(),
                kind => kind(label),
                label => alphabet.name(label),
                label_index => label.index(),
                target => target.index(),
            }
        })
        .collect();
    let timeouts = explorer.timeouts.map(|t| {
        let quiescence_ms: Vec<u64> = t
            .sa_quiescence_ms(spec)
            .into_iter()
            .map(|ms| ms.unwrap_or(0))
            .collect();
        let response_ms: Vec<Value> = alphabet
            .ids()
            .filter(|&l| alphabet.kind(l) == LabelKind::Input)
            .filter_map(|l| {
                let name = alphabet.name(l);
                t.response_ms(name)
                    .map(|ms| context! { label_index => l.index(), label => name, ms => ms })
            })
            .collect();
        context! { quiescence_ms => quiescence_ms, response_ms => response_ms }
    });
    context! {
        quiescence => alphabet.name(spec.quiescence()),
        quiescence_index => spec.quiescence().index(),
        labels => labels,
        states => automaton.state_names().to_vec(),
        initial => automaton.initial().index(),
        transitions => transitions,
        timeouts => timeouts,
    }
}

/// The specification of an on-the-fly tester (`render --explore-spec`): its suspension
/// automaton and the timeout annotations of the model it was made from, which the tester honours
/// as `ncomplete explore` does ([`crate::suite::timeouts`]).
#[derive(Copy, Clone)]
pub struct ExplorerSpec<'a> {
    /// The suspension automaton the tester walks.
    pub automaton: &'a SuspensionAutomaton,
    /// The annotations of the model `automaton` was made from, over its labels and states.
    pub timeouts: Option<&'a ModelTimeouts>,
}

impl SuiteRenderer {
    /// A renderer for a suite with this header in `format`, whose tests come in parts of
    /// `part_sizes` tests (from [`PartSizes`]). Templates are taken from `overrides` (same
    /// relative paths as in the crate's `templates/` directory) when a file exists there, else
    /// the embedded ones.
    pub fn new(
        header: &SuiteHeader,
        format: Format,
        overrides: Option<&Path>,
        part_sizes: &[usize],
    ) -> Result<Self, RenderError> {
        Self::with_explorer(header, format, overrides, part_sizes, None)
    }

    /// [`SuiteRenderer::new`], and with `spec` the format's on-the-fly tester of that
    /// specification among the files rendered once per suite (`render --explore-spec`): a
    /// program that embeds the suspension automaton `spec` as data (every model string through
    /// an escaping filter) and walks it against a system through the rendered runtime's adapter
    /// and timeouts (the TorX algorithm of `ncomplete explore`, uniform random choice).
    pub fn with_explorer(
        header: &SuiteHeader,
        format: Format,
        overrides: Option<&Path>,
        part_sizes: &[usize],
        spec: Option<ExplorerSpec<'_>>,
    ) -> Result<Self, RenderError> {
        // The tester's templates are compiled only when it is rendered.
        let files: Vec<&'static TemplateFile> = format
            .files()
            .iter()
            .filter(|f| f.role != Role::Explorer || spec.is_some())
            .collect();
        let mut env = environment();
        for file in &files {
            let source = template_source(file, overrides)?;
            env.add_template_owned(file.name, source)
                .and_then(|()| env.add_template_owned(path_name(file), file.out))
                .map_err(template_error(file))?;
        }
        let count = part_sizes.len();
        Ok(SuiteRenderer {
            env,
            files,
            header: header.clone(),
            parts: part_sizes
                .iter()
                .enumerate()
                .map(|(k, &n)| part_context(k, count, n))
                .collect(),
            idents: escape::TestIdentifiers::new("_test"),
            spec: spec.as_ref().map(explorer_context),
            timeouts: None,
        })
    }

    /// This renderer with the specification's timeout annotations: each test gets the largest
    /// annotated quiescence timeout of its nodes (`quiescence_ms`: `node`, `ms`) and the
    /// context `timeouts` the annotated inputs (`response_ms`: `input`, `ms`); without them
    /// (`None`) the rendering is that of an unannotated suite, byte for byte.
    pub fn with_timeouts(mut self, timeouts: Option<Arc<ModelTimeouts>>) -> Self {
        self.timeouts = timeouts;
        self
    }

    /// Renders the templates of `role` with `ctx`.
    fn render(&self, role: Role, ctx: &Value) -> Result<Vec<RenderedFile>, RenderError> {
        let mut files = Vec::new();
        for file in self.files.iter().filter(|f| f.role == role) {
            let render = |name: &str| self.env.get_template(name)?.render(ctx);
            let err = template_error(file);
            let contents = render(file.name).map_err(&err)?;
            let path = render(&path_name(file)).map_err(&err)?;
            files.push(RenderedFile {
                path: PathBuf::from(path),
                contents,
            });
        }
        Ok(files)
    }

    /// Renders part `k` (0-based) with its tests; parts must come in order, since a test's
    /// identifier depends on the tests before it.
    pub fn render_part(
        &mut self,
        k: usize,
        tests: Vec<TestCase>,
    ) -> Result<Vec<RenderedFile>, RenderError> {
        let idents = tests.iter().map(|t| self.idents.next(&t.name)).collect();
        let ctx = PartContext {
            header: &self.header,
            tests,
            idents,
            parts: &self.parts,
            part: k,
        }
        .with_timeouts(self.timeouts.clone());
        self.render(Role::Part, &ctx)
    }

    /// Renders the files made once per suite (runtimes, package files), then the on-the-fly
    /// tester's files when there is one.
    pub fn render_suite_files(&self) -> Result<Vec<RenderedFile>, RenderError> {
        let ctx = PartContext {
            header: &self.header,
            tests: Vec::new(),
            idents: Vec::new(),
            parts: &self.parts,
            part: 0,
        }
        .with_timeouts(self.timeouts.clone());
        let mut files = self.render(Role::Suite, &ctx)?;
        if let Some(spec) = &self.spec {
            let ctx = context! { spec => spec, ..ctx };
            files.extend(self.render(Role::Explorer, &ctx)?);
        }
        Ok(files)
    }
}

/// Renders a suite held in memory in `format`: the parts' files, then the suite's (see
/// [`SuiteRenderer`]).
///
/// ```
/// use ncomplete::exec::commands::load_suite;
/// use ncomplete::render::{Format, render_suite};
///
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/mealy.suite.json");
/// let (header, tests) = load_suite(path)?;
/// let files = render_suite(&header, &tests, Format::Ttcn, None)?;
/// let ttcn = &files[0];
/// assert_eq!(ttcn.path.extension(), Some("ttcn".as_ref()));
/// assert!(ttcn.contents.contains("testcase "));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn render_suite(
    header: &SuiteHeader,
    tests: &[TestCase],
    format: Format,
    overrides: Option<&Path>,
) -> Result<Vec<RenderedFile>, RenderError> {
    render_suite_in_parts(header, tests, format, overrides, PART_LIMIT)
}

/// [`render_suite`] with parts bounded by `limit` instead of [`PART_LIMIT`].
pub fn render_suite_in_parts(
    header: &SuiteHeader,
    tests: &[TestCase],
    format: Format,
    overrides: Option<&Path>,
    limit: PartLimit,
) -> Result<Vec<RenderedFile>, RenderError> {
    render_suite_with(header, tests, format, overrides, limit, None)
}

/// [`render_suite`] with the format's on-the-fly tester of `spec` (see
/// [`SuiteRenderer::with_explorer`]).
pub fn render_suite_with_explorer(
    header: &SuiteHeader,
    tests: &[TestCase],
    format: Format,
    overrides: Option<&Path>,
    spec: ExplorerSpec<'_>,
) -> Result<Vec<RenderedFile>, RenderError> {
    render_suite_with(header, tests, format, overrides, PART_LIMIT, Some(spec))
}

fn render_suite_with(
    header: &SuiteHeader,
    tests: &[TestCase],
    format: Format,
    overrides: Option<&Path>,
    limit: PartLimit,
    spec: Option<ExplorerSpec<'_>>,
) -> Result<Vec<RenderedFile>, RenderError> {
    let mut sizes = PartSizes::with_limit(limit);
    for t in tests {
        sizes.push(t.nodes.len());
    }
    let sizes = sizes.finish();
    let mut renderer = SuiteRenderer::with_explorer(header, format, overrides, &sizes, spec)?;
    let mut files = Vec::new();
    let mut rest = tests;
    for (k, &n) in sizes.iter().enumerate() {
        let (part, after) = rest.split_at(n);
        files.extend(renderer.render_part(k, part.to_vec())?);
        rest = after;
    }
    files.extend(renderer.render_suite_files()?);
    Ok(files)
}

/// Writes rendered files below `dir`, creating directories as needed; each file is written whole
/// or not at all.
pub fn write_files(dir: &Path, files: &[RenderedFile]) -> Result<(), RenderError> {
    for f in files {
        let path = dir.join(&f.path);
        let io = |source| RenderError::Io {
            path: path.display().to_string(),
            source,
        };
        if let Some(parent) = f.path.parent() {
            crate::output::create_dirs_below(dir, parent).map_err(io)?;
        }
        crate::output::write_path(&path, f.contents.as_bytes()).map_err(io)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn explorer(automaton: &SuspensionAutomaton) -> ExplorerSpec<'_> {
        ExplorerSpec {
            automaton,
            timeouts: None,
        }
    }

    fn render_str(template: &str, ctx: Value) -> Result<String, minijinja::Error> {
        environment().render_str(template, ctx)
    }

    #[test]
    fn parts_end_at_the_test_or_node_limit_and_a_large_test_is_a_part_of_its_own() {
        let limit = PartLimit {
            tests: 3,
            nodes: 10,
        };
        let sizes = |nodes: &[usize]| {
            let mut parts = PartSizes::with_limit(limit);
            for &n in nodes {
                parts.push(n);
            }
            parts.finish()
        };
        assert_eq!(sizes(&[]), [0]);
        assert_eq!(sizes(&[1; 7]), [3, 3, 1]);
        assert_eq!(sizes(&[4, 4, 4, 20, 1]), [2, 1, 1, 1]);
    }

    #[test]
    fn explorers_embed_the_automaton_with_escaped_strings() {
        use crate::format::{LoadOptions, parse_model};
        let text = r#"{"name": "m\"\"\"x", "kind": "lts",
            "inputs": ["go\"\"\""], "outputs": ["out\\n"], "internal": [],
            "quiescence": "delta", "initial": "s\n0", "states": ["s\n0", "s1"],
            "transitions": [{"from": "s\n0", "label": "go\"\"\"", "to": "s1"},
                            {"from": "s1", "label": "out\\n", "to": "s\n0"}]}"#;
        let model = parse_model(text, "hostile.json", &LoadOptions::default()).unwrap();
        let crate::model::Model::Lts(lts) = &model else {
            panic!("the hostile model is an LTS")
        };
        let options = crate::model::SuspensionOptions::default();
        let spec = crate::model::lts_to_suspension(lts, &options).unwrap();
        let header = SuiteHeader {
            model: SuiteModel {
                name: "m\"\"\"x".into(),
                inputs: vec!["go\"\"\"".into()],
                outputs: vec!["out\\n".into()],
                quiescence: Some("delta".into()),
            },
            method: "unconditional".into(),
            n: Some(1),
            guarantee: "g".into(),
            extra: serde_json::Map::new(),
        };
        let files = render_suite_with_explorer(&header, &[], Format::Python, None, explorer(&spec))
            .unwrap();
        let plain = render_suite(&header, &[], Format::Python, None).unwrap();
        // The tester is one file more, after the suite's.
        assert_eq!(files[..plain.len()], plain[..]);
        let [file] = &files[plain.len()..] else {
            panic!("{files:?}")
        };
        assert_eq!(file.path, PathBuf::from("explore_m_x.py"));
        let c = &file.contents;
        assert!(c.contains(r#"MODEL_NAME = "m\"\"\"x""#), "{c}");
        assert!(c.contains(r#"(0, "?", "go\"\"\"", 1),"#), "{c}");
        assert!(c.contains(r#"(1, "!", "out\\n", 0),"#), "{c}");
        assert!(c.contains(r#"(0, "delta", "delta", 0),"#), "{c}");
        assert!(c.contains("INITIAL = [0]"), "{c}");

        let files =
            render_suite_with_explorer(&header, &[], Format::Rust, None, explorer(&spec)).unwrap();
        let plain = render_suite(&header, &[], Format::Rust, None).unwrap();
        assert_eq!(files[..plain.len()], plain[..]);
        let paths: Vec<_> = files[plain.len()..].iter().map(|f| &f.path).collect();
        assert_eq!(
            paths,
            [
                Path::new("src/bin/explore_m_x/main.rs"),
                Path::new("src/bin/explore_m_x/spec.rs")
            ]
        );
        let main = &files[plain.len()].contents;
        assert!(
            main.contains("use m_x_ncomplete_tests::runtime::"),
            "{main}"
        );
        let c = &files[plain.len() + 1].contents;
        assert!(
            c.contains(r#"pub const MODEL_NAME: &str = "m\"\"\"x";"#),
            "{c}"
        );
        assert!(c.contains(r#"("go\"\"\"", Kind::Input),"#), "{c}");
        assert!(c.contains(r#"("out\\n", Kind::Output),"#), "{c}");
        assert!(c.contains(r#"("delta", Kind::Quiescence),"#), "{c}");
        assert!(c.contains(r#"    "{s\n0}","#), "{c}");
        assert!(c.contains("pub const QUIESCENCE: usize = 2;"), "{c}");
        assert!(
            c.contains("    (0, 0, 1),\n    (0, 2, 0),\n    (1, 1, 0),\n"),
            "{c}"
        );
        // TTCN-3 has no tester.
        assert!(!Format::Ttcn.has_explorer());
    }

    #[test]
    fn model_strings_print_only_through_an_escaping_filter() {
        let ctx = context! {name => "a\"\"\"b", n => 3, ok => Value::from_safe_string("x".into())};
        assert!(render_str("{{ name }}", ctx.clone()).is_err());
        assert!(render_str("{{ name | upper }}", ctx.clone()).is_err());
        assert_eq!(
            render_str("{{ name | py }} {{ n }} {{ ok }}", ctx.clone()).unwrap(),
            r#""a\"\"\"b" 3 x"#
        );
        assert_eq!(
            render_str("{{ name | safe }}|{{ name | py_doc }}", ctx).unwrap(),
            r#"a"""b|a\"\"\"b"#
        );
    }
}
