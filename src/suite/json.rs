//! The suite JSON, version 1: the public interchange format of generated suites.
//!
//! ```json
//! {"format": "ncomplete-suite", "version": 1,
//!  "model": {"name": "m", "inputs": ["a"], "outputs": ["x"], "quiescence": "delta"},
//!  "method": "ioco-complete", "n": 4, "guarantee": "...",
//!  "tests": [{"name": "t0001", "root": 0, "nodes": [
//!    {"send": "a", "then": 1, "race": {"x": "retry"}},
//!    {"expect": {"x": "pass", "delta": "fail"}}]}]}
//! ```
//!
//! A reference is a node index of the same test or one of the verdicts `"pass"`, `"fail"`,
//! `"retry"`. The writer streams: it emits the header, then one test per line as tests are
//! produced, so memory stays proportional to one test. Output is a pure function of the header and
//! the tests (maps are written in label-id order), hence byte-identical across runs. The reader
//! refuses a model whose inputs, or outputs with quiescence, name a label twice or hold a name
//! that no runner could exchange as one line (empty, a control character, whitespace at an end),
//! with the JSON path of the name.

use super::case::{Next, SuiteHeader, SuiteModel, TestCase, TestNode};
use crate::model::LabelId;
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Value, json};
use std::io::{self, Write};

/// The `format` field of every suite file.
pub const FORMAT: &str = "ncomplete-suite";
/// The `version` field this crate reads and writes.
pub const VERSION: u64 = 1;

/// Streams a suite as JSON v1.
pub struct SuiteWriter<W: Write> {
    out: W,
    model: SuiteModel,
    written: usize,
}

fn model_json(m: &SuiteModel) -> Value {
    json!({
        "name": m.name,
        "inputs": m.inputs,
        "outputs": m.outputs,
        "quiescence": m.quiescence,
    })
}

/// One test case as JSON, serialized straight to its output without building a [`Value`]:
/// `{"name": .., "root": 0, "nodes": [..]}`, each node `{"send": .., "then": .., "race": {..}}`
/// or `{"expect": {..}}`, branch maps in the order of the test's lists (label-id order).
pub fn test_json<'a>(model: &'a SuiteModel, test: &'a TestCase) -> impl Serialize + 'a {
    TestJson { model, test }
}

struct TestJson<'a> {
    model: &'a SuiteModel,
    test: &'a TestCase,
}

struct NodeJson<'a> {
    model: &'a SuiteModel,
    node: &'a TestNode,
}

struct BranchesJson<'a> {
    model: &'a SuiteModel,
    list: &'a [(LabelId, Next)],
}

struct NextJson(Next);

impl Serialize for TestJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(3))?;
        map.serialize_entry("name", &self.test.name)?;
        map.serialize_entry("root", &0u32)?;
        map.serialize_entry("nodes", &NodesJson(self))?;
        map.end()
    }
}

struct NodesJson<'a>(&'a TestJson<'a>);

impl Serialize for NodesJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let TestJson { model, test } = *self.0;
        s.collect_seq(test.nodes.iter().map(|node| NodeJson { model, node }))
    }
}

impl Serialize for NodeJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let branches = |list| BranchesJson {
            model: self.model,
            list,
        };
        match self.node {
            TestNode::Send { input, then, race } => {
                let mut map = s.serialize_map(Some(3))?;
                map.serialize_entry("send", self.model.input_name(*input))?;
                map.serialize_entry("then", &NextJson(*then))?;
                map.serialize_entry("race", &branches(race))?;
                map.end()
            }
            TestNode::Expect { branches: list } => {
                let mut map = s.serialize_map(Some(1))?;
                map.serialize_entry("expect", &branches(list))?;
                map.end()
            }
        }
    }
}

impl Serialize for BranchesJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(
            self.list
                .iter()
                .map(|&(o, n)| (self.model.output_name(o), NextJson(n))),
        )
    }
}

impl Serialize for NextJson {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Next::Node(k) => s.serialize_u32(k),
            Next::Verdict(v) => s.serialize_str(v.as_str()),
        }
    }
}

/// How many tests the writers of large suites serialize in parallel before writing them in order
/// ([`test_line`] per test; goal suites and ioco cost measurement).
pub const LINE_CHUNK: usize = 4096;

/// One test as the line [`SuiteWriter::write_test_line`] writes.
pub fn test_line(model: &SuiteModel, test: &TestCase) -> io::Result<String> {
    serde_json::to_string(&test_json(model, test)).map_err(io::Error::other)
}

/// Appends to `buf` what [`SuiteWriter::write_test_line`] writes for the test at position `index`
/// of the file (its separator, then its line), so that tests are serialized in parallel and
/// written in order by [`SuiteWriter::write_rendered`].
pub fn push_test_line(
    buf: &mut Vec<u8>,
    index: usize,
    model: &SuiteModel,
    test: &TestCase,
) -> io::Result<()> {
    buf.extend_from_slice(line_prefix(index).as_bytes());
    serde_json::to_writer(&mut *buf, &test_json(model, test)).map_err(io::Error::other)
}

/// The length in bytes of [`test_line`], counted without building the line.
pub fn test_line_bytes(model: &SuiteModel, test: &TestCase) -> io::Result<u64> {
    let mut counter = ByteCounter(0);
    serde_json::to_writer(&mut counter, &test_json(model, test)).map_err(io::Error::other)?;
    Ok(counter.0)
}

/// A sink that only counts the bytes written to it: a [`SuiteWriter`] into one measures the
/// file it would write.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ByteCounter(pub u64);

impl Write for ByteCounter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0 += buf.len() as u64;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// What [`SuiteWriter::write_test_line`] writes before the line of test `index`.
fn line_prefix(index: usize) -> &'static str {
    if index == 0 { "\n  " } else { ",\n  " }
}

impl SuiteWriter<ByteCounter> {
    /// Counts a test whose line, of `line_bytes` bytes ([`test_line_bytes`]), is not written.
    pub fn count_test_line(&mut self, line_bytes: u64) {
        self.out.0 += line_prefix(self.written).len() as u64 + line_bytes;
        self.written += 1;
    }
}

impl<W: Write> SuiteWriter<W> {
    /// Writes the header and opens the test list.
    pub fn begin(out: W, header: &SuiteHeader) -> io::Result<Self> {
        SuiteWriter::begin_with_raw(out, header, &[])
    }

    /// [`SuiteWriter::begin`] with further header entries after `header.extra`, each a key and
    /// its value already serialized as JSON (for entries too large to hold as a [`Value`]).
    pub fn begin_with_raw(
        mut out: W,
        header: &SuiteHeader,
        raw: &[(&str, &str)],
    ) -> io::Result<Self> {
        let s = |v: &Value| serde_json::to_string(v).map_err(io::Error::other);
        write!(
            out,
            "{{\"format\": \"{FORMAT}\", \"version\": {VERSION},\n \"model\": {},\n \"method\": {}, \"n\": {},\n \"guarantee\": {}",
            s(&model_json(&header.model))?,
            s(&Value::from(header.method.as_str()))?,
            s(&header.n.map_or(Value::Null, Value::from))?,
            s(&Value::from(header.guarantee.as_str()))?,
        )?;
        for (k, v) in &header.extra {
            write!(out, ",\n {}: {}", s(&Value::from(k.as_str()))?, s(v)?)?;
        }
        for (k, v) in raw {
            write!(out, ",\n {}: {v}", s(&Value::from(*k))?)?;
        }
        write!(out, ",\n \"tests\": [")?;
        Ok(SuiteWriter {
            out,
            model: header.model.clone(),
            written: 0,
        })
    }

    /// Appends one test.
    pub fn write_test(&mut self, test: &TestCase) -> io::Result<()> {
        let line = test_line(&self.model, test)?;
        self.write_test_line(&line)
    }

    /// Appends one test already serialized by [`test_line`] (so that tests can be serialized
    /// in parallel and written in order).
    pub fn write_test_line(&mut self, line: &str) -> io::Result<()> {
        write!(self.out, "{}{line}", line_prefix(self.written))?;
        self.written += 1;
        Ok(())
    }

    /// Appends a buffer of `tests` tests rendered by [`push_test_line`] at positions
    /// `written()..` onwards.
    pub fn write_rendered(&mut self, buffer: &[u8], tests: usize) -> io::Result<()> {
        self.out.write_all(buffer)?;
        self.written += tests;
        Ok(())
    }

    /// Number of tests written so far.
    pub fn written(&self) -> usize {
        self.written
    }

    /// Closes the list and the document; returns the writer.
    pub fn finish(mut self) -> io::Result<W> {
        writeln!(self.out, "\n]}}")?;
        self.out.flush()?;
        Ok(self.out)
    }
}

/// Writes a whole suite to a string (convenience for tests and small suites).
pub fn suite_to_string<'a>(
    header: &SuiteHeader,
    tests: impl IntoIterator<Item = &'a TestCase>,
) -> String {
    let mut w = SuiteWriter::begin(Vec::new(), header).expect("writing to memory");
    for t in tests {
        w.write_test(t).expect("writing to memory");
    }
    String::from_utf8(w.finish().expect("writing to memory")).expect("JSON is UTF-8")
}

mod read;
pub use read::{SuiteFormatError, SuiteReadError, read_suite, read_suite_stream};

#[cfg(test)]
mod tests;
