//! Rendering of suites as TTCN-3-like text and as standalone Python (pytest) and Rust (cargo
//! test) programs, through minijinja templates embedded in the binary and overridable from a
//! directory.
//!
//! The templates see one context, built here: the suite header, identifiers that are valid in
//! every target language, and the tests as flat node lists whose references are either a node
//! index or a verdict. Flat lists keep templates free of recursion, so deep tests (long Mealy
//! chains) render in time and stack proportional to their size. Every string that reaches a
//! generated program goes through a quoting filter (`py`, `rs`, `ttcn`).

use crate::suite::{Next, SuiteHeader, SuiteModel, TestCase, TestNode};
use minijinja::Environment;
use minijinja::syntax::SyntaxConfig;
use serde_json::{Value as Json, json};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A target format of `ncomplete render`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// TTCN-3-like text, one `testcase` per test.
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

    /// The template files of the format: (template path relative to `templates/`, output path
    /// template, embedded source).
    fn files(self) -> &'static [(&'static str, &'static str, &'static str)] {
        match self {
            Format::Ttcn => &[(
                "ttcn/suite.ttcn.j2",
                "{{ ident }}.ttcn",
                include_str!("../../templates/ttcn/suite.ttcn.j2"),
            )],
            Format::Python => &[
                (
                    "python/test_suite.py.j2",
                    "test_{{ ident }}.py",
                    include_str!("../../templates/python/test_suite.py.j2"),
                ),
                (
                    "python/ncomplete_runtime.py.j2",
                    "ncomplete_runtime.py",
                    include_str!("../../templates/python/ncomplete_runtime.py.j2"),
                ),
            ],
            Format::Rust => &[
                (
                    "rust/Cargo.toml.j2",
                    "Cargo.toml",
                    include_str!("../../templates/rust/Cargo.toml.j2"),
                ),
                (
                    "rust/lib.rs.j2",
                    "src/lib.rs",
                    include_str!("../../templates/rust/lib.rs.j2"),
                ),
                (
                    "rust/runtime.rs.j2",
                    "src/runtime.rs",
                    include_str!("../../templates/rust/runtime.rs.j2"),
                ),
                (
                    "rust/suite.rs.j2",
                    "tests/suite.rs",
                    include_str!("../../templates/rust/suite.rs.j2"),
                ),
            ],
        }
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

/// `name` made into a lowercase identifier valid in Python, Rust and TTCN-3 (letters, digits,
/// single underscores, not starting with a digit, never empty).
pub fn identifier(name: &str) -> String {
    let mut id = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            id.push(c.to_ascii_lowercase());
        } else if !id.ends_with('_') && !id.is_empty() {
            id.push('_');
        }
    }
    while id.ends_with('_') {
        id.pop();
    }
    if id.is_empty() || id.starts_with(|c: char| c.is_ascii_digit()) {
        id.insert_str(0, "m_");
    }
    id
}

/// Keywords of the target languages that a test identifier must avoid.
const RESERVED: &[&str] = &[
    "and", "as", "assert", "async", "await", "break", "class", "const", "continue", "crate", "def",
    "del", "do", "dyn", "elif", "else", "enum", "except", "extern", "false", "finally", "fn",
    "for", "from", "global", "if", "impl", "import", "in", "is", "lambda", "let", "loop", "match",
    "mod", "move", "mut", "none", "nonlocal", "not", "or", "pass", "pub", "raise", "ref", "return",
    "self", "static", "struct", "super", "trait", "true", "try", "type", "unsafe", "use", "where",
    "while", "with", "yield", "label", "goto", "alt", "testcase", "control", "module",
];

/// Unique identifiers for the test names, in order.
fn test_identifiers<'a>(names: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut used = BTreeSet::new();
    names
        .map(|name| {
            let mut base = identifier(name);
            if RESERVED.contains(&base.as_str()) {
                base.push_str("_test");
            }
            let mut id = base.clone();
            let mut k = 2;
            while !used.insert(id.clone()) {
                id = format!("{base}_{k}");
                k += 1;
            }
            id
        })
        .collect()
}

fn reference(n: Next) -> Json {
    match n {
        Next::Node(k) => json!({"node": k, "verdict": null}),
        Next::Verdict(v) => json!({"node": null, "verdict": v.as_str()}),
    }
}

/// The template context of one test.
fn test_context(model: &SuiteModel, t: &TestCase, ident: &str) -> Json {
    let quiescence_id = model.outputs.len();
    let branch = |o: crate::model::LabelId, n: Next| {
        json!({
            "label": model.output_name(o),
            "quiescence": o.index() == quiescence_id,
            "next": reference(n),
        })
    };
    let nodes: Vec<Json> = t
        .nodes
        .iter()
        .enumerate()
        .map(|(k, node)| match node {
            TestNode::Send { input, then, race } => json!({
                "index": k,
                "kind": "send",
                "input": model.input_name(*input),
                "then": reference(*then),
                "branches": race.iter().map(|&(o, n)| branch(o, n)).collect::<Vec<_>>(),
            }),
            TestNode::Expect { branches } => json!({
                "index": k,
                "kind": "expect",
                "input": null,
                "then": null,
                "branches": branches.iter().map(|&(o, n)| branch(o, n)).collect::<Vec<_>>(),
            }),
        })
        .collect();
    json!({"name": t.name, "ident": ident, "nodes": nodes})
}

/// The template context of a suite without its tests.
fn header_context(header: &SuiteHeader) -> Json {
    let model = &header.model;
    let ident = identifier(&model.name);
    json!({
        "generator": format!("ncomplete {}", env!("CARGO_PKG_VERSION")),
        "ident": ident,
        "model": {
            "name": model.name,
            "inputs": model.inputs,
            "outputs": model.outputs,
            "quiescence": model.quiescence,
        },
        "method": header.method,
        "n": header.n,
        "guarantee": header.guarantee,
    })
}

/// The template context of a suite.
pub fn context(header: &SuiteHeader, tests: &[TestCase]) -> Json {
    let idents = test_identifiers(tests.iter().map(|t| t.name.as_str()));
    let tests_json: Vec<Json> = tests
        .iter()
        .zip(idents)
        .map(|(t, ident)| test_context(&header.model, t, &ident))
        .collect();
    let mut ctx = header_context(header);
    ctx["tests"] = Json::Array(tests_json);
    ctx
}

/// The `tests` of the template context, built one test at a time as a template reads them, so
/// rendering holds the test cases and the output, not the context of every test at once.
#[derive(Debug)]
struct LazyTests {
    model: SuiteModel,
    tests: Vec<TestCase>,
    idents: Vec<String>,
}

impl minijinja::value::Object for LazyTests {
    fn repr(self: &std::sync::Arc<Self>) -> minijinja::value::ObjectRepr {
        minijinja::value::ObjectRepr::Seq
    }

    fn get_value(self: &std::sync::Arc<Self>, key: &minijinja::Value) -> Option<minijinja::Value> {
        let k = key.as_usize()?;
        let t = self.tests.get(k)?;
        Some(to_value(&test_context(&self.model, t, &self.idents[k])))
    }

    fn enumerate(self: &std::sync::Arc<Self>) -> minijinja::value::Enumerator {
        minijinja::value::Enumerator::Seq(self.tests.len())
    }
}

/// The template context as a template value: [`context`], with the tests built lazily.
fn lazy_context(header: &SuiteHeader, tests: &[TestCase]) -> minijinja::Value {
    let Json::Object(fields) = header_context(header) else {
        unreachable!("the header context is an object")
    };
    let mut map: BTreeMap<String, minijinja::Value> = fields
        .iter()
        .map(|(k, v)| (k.clone(), to_value(v)))
        .collect();
    let lazy = LazyTests {
        model: header.model.clone(),
        tests: tests.to_vec(),
        idents: test_identifiers(tests.iter().map(|t| t.name.as_str())),
    };
    map.insert("tests".into(), minijinja::Value::from_object(lazy));
    minijinja::Value::from(map)
}

fn to_value(v: &Json) -> minijinja::Value {
    use minijinja::Value;
    match v {
        Json::Null => Value::from(()),
        Json::Bool(b) => Value::from(*b),
        Json::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => Value::from(u),
            (None, Some(i)) => Value::from(i),
            _ => Value::from(n.as_f64().unwrap_or(0.0)),
        },
        Json::String(s) => Value::from(s.as_str()),
        Json::Array(a) => a.iter().map(to_value).collect(),
        Json::Object(o) => Value::from(
            o.iter()
                .map(|(k, v)| (k.clone(), to_value(v)))
                .collect::<BTreeMap<String, Value>>(),
        ),
    }
}

/// A Python string literal (JSON strings are valid Python literals; non-ASCII stays UTF-8).
fn py(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

/// A Rust string literal.
fn rs(s: &str) -> String {
    format!("{s:?}")
}

/// A TTCN-3 charstring literal (a quote is written twice).
fn ttcn(s: &str) -> String {
    format!("\"{}\"", s.replace('"', "\"\""))
}

/// A comment-safe single line.
fn line(s: &str) -> String {
    s.replace(['\n', '\r'], " ")
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
    env.add_filter("py", |s: String| py(&s));
    env.add_filter("rs", |s: String| rs(&s));
    env.add_filter("ttcn", |s: String| ttcn(&s));
    env.add_filter("line", |s: String| line(&s));
    env
}

/// Renders a suite in `format`. Templates are taken from `overrides` (same relative paths as
/// in the crate's `templates/` directory) when a file exists there, else the embedded ones.
pub fn render_suite(
    header: &SuiteHeader,
    tests: &[TestCase],
    format: Format,
    overrides: Option<&Path>,
) -> Result<Vec<RenderedFile>, RenderError> {
    let ctx = lazy_context(header, tests);
    let env = environment();
    let mut files = Vec::new();
    for &(name, out, embedded) in format.files() {
        let source = match overrides.map(|dir| dir.join(name)) {
            Some(path) if path.is_file() => {
                std::fs::read_to_string(&path).map_err(|source| RenderError::Io {
                    path: path.display().to_string(),
                    source,
                })?
            }
            _ => embedded.to_owned(),
        };
        let err = |e: minijinja::Error| RenderError::Template {
            name: name.to_owned(),
            message: format!("{e:#}"),
        };
        let contents = env
            .template_from_str(&source)
            .and_then(|t| t.render(&ctx))
            .map_err(err)?;
        let path = env.render_str(out, &ctx).map_err(err)?;
        files.push(RenderedFile {
            path: PathBuf::from(path),
            contents,
        });
    }
    Ok(files)
}

/// Writes rendered files below `dir`, creating directories as needed.
pub fn write_files(dir: &Path, files: &[RenderedFile]) -> Result<(), RenderError> {
    for f in files {
        let path = dir.join(&f.path);
        let io = |source| RenderError::Io {
            path: path.display().to_string(),
            source,
        };
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(io)?;
        }
        std::fs::write(&path, &f.contents).map_err(io)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_are_valid_and_unique() {
        assert_eq!(identifier("TCP client-2"), "tcp_client_2");
        assert_eq!(identifier("42"), "m_42");
        assert_eq!(identifier("--"), "m_");
        assert_eq!(
            test_identifiers(["a b", "a-b", "loop", "t1"].into_iter()),
            ["a_b", "a_b_2", "loop_test", "t1"]
        );
    }

    #[test]
    fn literals_quote_every_character() {
        assert_eq!(py("a\"b\\"), r#""a\"b\\""#);
        assert_eq!(rs("a\"b\n"), r#""a\"b\n""#);
        assert_eq!(ttcn("say \"hi\""), r#""say ""hi""""#);
    }
}
