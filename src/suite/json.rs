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

use super::case::{Next, SuiteHeader, SuiteModel, TestCase, TestNode, Verdict};
use crate::model::LabelId;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Map, Value, json};
use std::collections::HashMap;
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
/// written in order by [`SuiteWriter::write_rendered_all`].
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

    /// Appends buffers of tests rendered by [`push_test_line`] at positions `written()..`
    /// onwards, each with its number of tests, in order, in vectored writes
    /// ([`crate::output::write_all_vectored`]).
    pub fn write_rendered_all(&mut self, buffers: &[(Vec<u8>, usize)]) -> io::Result<()> {
        crate::output::write_all_vectored(&mut self.out, buffers.iter().map(|(b, _)| &b[..]))?;
        self.written += buffers.iter().map(|(_, tests)| tests).sum::<usize>();
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

/// A suite file that is not valid JSON v1.
#[derive(Debug, thiserror::Error)]
pub enum SuiteFormatError {
    /// Not JSON at all.
    #[error("{line}:{column}: {message}")]
    Syntax {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What serde_json said.
        message: String,
    },
    /// JSON, but not the expected shape.
    #[error("{path}: expected {expected}")]
    Shape {
        /// JSON path of the offending value (`tests[3].nodes[1].expect`).
        path: String,
        /// What was expected there.
        expected: String,
    },
}

fn shape(path: impl Into<String>, expected: impl Into<String>) -> SuiteFormatError {
    SuiteFormatError::Shape {
        path: path.into(),
        expected: expected.into(),
    }
}

fn strings(v: Option<&Value>, path: &str) -> Result<Vec<String>, SuiteFormatError> {
    v.and_then(Value::as_array)
        .ok_or_else(|| shape(path, "an array of label names"))?
        .iter()
        .enumerate()
        .map(|(k, x)| {
            x.as_str()
                .map(str::to_owned)
                .ok_or_else(|| shape(format!("{path}[{k}]"), "a string"))
        })
        .collect()
}

fn parse_next(v: &Value, path: &str) -> Result<Next, SuiteFormatError> {
    match v {
        Value::Number(n) => n
            .as_u64()
            .and_then(|k| u32::try_from(k).ok())
            .map(Next::Node)
            .ok_or_else(|| shape(path, "a node index or a verdict")),
        Value::String(s) => Verdict::parse(s)
            .map(Next::Verdict)
            .ok_or_else(|| shape(path, "a node index or one of \"pass\", \"fail\", \"retry\"")),
        _ => Err(shape(path, "a node index or a verdict")),
    }
}

struct Labels {
    inputs: HashMap<String, LabelId>,
    outputs: HashMap<String, LabelId>,
}

fn parse_branches(
    v: Option<&Value>,
    labels: &Labels,
    path: &str,
) -> Result<Vec<(LabelId, Next)>, SuiteFormatError> {
    let map = v
        .and_then(Value::as_object)
        .ok_or_else(|| shape(path, "an object from output labels to references"))?;
    let mut list = Vec::with_capacity(map.len());
    for (name, next) in map {
        let p = format!("{path}.{name}");
        let o = labels
            .outputs
            .get(name)
            .copied()
            .ok_or_else(|| shape(&p, "an output label of the model"))?;
        list.push((o, parse_next(next, &p)?));
    }
    list.sort_unstable_by_key(|&(o, _)| o);
    Ok(list)
}

/// Refuses a label list (its JSON paths beside the names) holding a name no runner can exchange
/// whole (empty, a control character such as a newline, whitespace at an end:
/// `format::name_problem`) or a name twice (a runner could not tell the two labels apart).
fn check_labels<'a>(
    labels: impl IntoIterator<Item = (String, &'a str)>,
) -> Result<(), SuiteFormatError> {
    let mut seen: HashMap<&str, String> = HashMap::new();
    for (path, name) in labels {
        if let Err((found, expected)) = crate::format::name_problem(name) {
            return Err(shape(path, format!("{expected}, found {found}")));
        }
        if let Some(first) = seen.get(name) {
            return Err(shape(
                path,
                format!(
                    "a label name of its own, found `{}` again (first at {first})",
                    crate::format::position::excerpt(name)
                ),
            ));
        }
        seen.insert(name, path);
    }
    Ok(())
}

/// The model of a suite header: its inputs, and its outputs with quiescence, each a list of
/// distinct names ([`check_labels`]).
fn parse_model_json(m: &Value) -> Result<SuiteModel, SuiteFormatError> {
    let model = parse_model_fields(m)?;
    check_labels(
        model
            .inputs
            .iter()
            .enumerate()
            .map(|(k, name)| (format!("model.inputs[{k}]"), name.as_str())),
    )?;
    check_labels(
        model
            .outputs
            .iter()
            .enumerate()
            .map(|(k, name)| (format!("model.outputs[{k}]"), name.as_str()))
            .chain(
                model
                    .quiescence
                    .iter()
                    .map(|q| ("model.quiescence".to_owned(), q.as_str())),
            ),
    )?;
    Ok(model)
}

/// The fields of a suite header's model, unchecked.
fn parse_model_fields(m: &Value) -> Result<SuiteModel, SuiteFormatError> {
    let m = m.as_object().ok_or_else(|| shape("model", "an object"))?;
    Ok(SuiteModel {
        name: m
            .get("name")
            .and_then(Value::as_str)
            .ok_or_else(|| shape("model.name", "a string"))?
            .to_owned(),
        inputs: strings(m.get("inputs"), "model.inputs")?,
        outputs: strings(m.get("outputs"), "model.outputs")?,
        quiescence: match m.get("quiescence") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(_) => return Err(shape("model.quiescence", "a string or null")),
        },
    })
}

impl Labels {
    fn of(model: &SuiteModel) -> Self {
        Labels {
            inputs: model
                .inputs
                .iter()
                .enumerate()
                .map(|(k, s)| (s.clone(), LabelId(k as u32)))
                .collect(),
            outputs: model
                .outputs
                .iter()
                .chain(model.quiescence.iter())
                .enumerate()
                .map(|(k, s)| (s.clone(), LabelId(k as u32)))
                .collect(),
        }
    }
}

/// One node of a test (`np` is its JSON path).
fn parse_node(
    nj: &Value,
    np: &str,
    labels: &Labels,
    quiescence: Option<LabelId>,
) -> Result<TestNode, SuiteFormatError> {
    if let Some(send) = nj.get("send") {
        let input = send
            .as_str()
            .and_then(|s| labels.inputs.get(s).copied())
            .ok_or_else(|| shape(format!("{np}.send"), "an input label of the model"))?;
        let then = parse_next(
            nj.get("then")
                .ok_or_else(|| shape(format!("{np}.then"), "a reference"))?,
            &format!("{np}.then"),
        )?;
        let race = match nj.get("race") {
            None => Vec::new(),
            Some(r) => {
                let race = parse_branches(Some(r), labels, &format!("{np}.race"))?;
                if let Some(q) = quiescence
                    && race.iter().any(|&(o, _)| o == q)
                {
                    return Err(shape(
                        format!("{np}.race"),
                        "outputs only (quiescence never races)",
                    ));
                }
                race
            }
        };
        Ok(TestNode::Send { input, then, race })
    } else if nj.get("expect").is_some() {
        Ok(TestNode::Expect {
            branches: parse_branches(nj.get("expect"), labels, &format!("{np}.expect"))?,
        })
    } else {
        Err(shape(np, "a node with \"send\" or \"expect\""))
    }
}

/// The fields of a test read so far.
#[derive(Default)]
struct TestParts {
    name: Option<Value>,
    root: Option<Value>,
    nodes: Option<Vec<TestNode>>,
}

impl TestParts {
    /// The test, checked against the format's invariants.
    fn finish(self, tp: &str, model: &SuiteModel) -> Result<TestCase, SuiteFormatError> {
        let name = self
            .name
            .as_ref()
            .and_then(Value::as_str)
            .ok_or_else(|| shape(format!("{tp}.name"), "a string"))?
            .to_owned();
        if self.root.as_ref().and_then(Value::as_u64) != Some(0) {
            return Err(shape(format!("{tp}.root"), "0 (the first node)"));
        }
        let nodes = self
            .nodes
            .ok_or_else(|| shape(format!("{tp}.nodes"), "an array of nodes"))?;
        let test = TestCase { name, nodes };
        test.validate(model.inputs.len(), model.num_output_ids())
            .map_err(|e| shape(tp, e.to_string()))?;
        Ok(test)
    }

    /// A whole test read as a value (tests that precede the model in the document).
    fn of_value(
        tj: &Value,
        tp: &str,
        labels: &Labels,
        quiescence: Option<LabelId>,
    ) -> Result<Self, SuiteFormatError> {
        let nodes = match tj.get("nodes").and_then(Value::as_array) {
            None => None,
            Some(list) => Some(
                list.iter()
                    .enumerate()
                    .map(|(k, nj)| parse_node(nj, &format!("{tp}.nodes[{k}]"), labels, quiescence))
                    .collect::<Result<Vec<_>, _>>()?,
            ),
        };
        Ok(TestParts {
            name: tj.get("name").cloned(),
            root: tj.get("root").cloned(),
            nodes,
        })
    }
}

/// Why reading a suite stream stopped.
#[derive(Debug)]
pub enum SuiteReadError<E> {
    /// The document is not valid suite JSON v1.
    Format(SuiteFormatError),
    /// The consumer of the tests returned an error.
    Consumer(E),
}

/// What stopped the deserializer (serde errors carry no payload of ours).
enum Stop<E> {
    Shape(SuiteFormatError),
    Consumer(E),
}

/// The state of a streaming read: the header fields seen so far, the tests that precede the
/// model (kept as compact JSON text until the labels are known), and the consumer.
struct Stream<'f, E> {
    format: Option<Value>,
    version: Option<Value>,
    model: Option<(SuiteModel, Labels)>,
    method: Option<Value>,
    n: Option<Value>,
    guarantee: Option<Value>,
    extra: Map<String, Value>,
    deferred: Vec<String>,
    tests: Option<usize>,
    stop: Option<Stop<E>>,
    each: &'f mut dyn FnMut(&SuiteModel, TestCase) -> Result<(), E>,
}

impl<E> Stream<'_, E> {
    fn fail<T, X: de::Error>(&mut self, e: SuiteFormatError) -> Result<T, X> {
        self.stop = Some(Stop::Shape(e));
        Err(X::custom("invalid suite"))
    }

    fn deliver<X: de::Error>(&mut self, test: TestCase) -> Result<(), X> {
        let (model, _) = self
            .model
            .as_ref()
            .expect("tests are delivered after the model");
        match (self.each)(model, test) {
            Ok(()) => Ok(()),
            Err(e) => {
                self.stop = Some(Stop::Consumer(e));
                Err(X::custom("stopped by the consumer"))
            }
        }
    }

    /// Checks the header once the document is read; delivers deferred tests.
    fn finish(mut self) -> Result<SuiteHeader, SuiteReadError<E>> {
        let format_err = SuiteReadError::Format;
        if self.format.as_ref().and_then(Value::as_str) != Some(FORMAT) {
            return Err(format_err(shape("format", format!("\"{FORMAT}\""))));
        }
        if self.version.as_ref().and_then(Value::as_u64) != Some(VERSION) {
            return Err(format_err(shape("version", format!("{VERSION}"))));
        }
        let Some((model, labels)) = self.model.take() else {
            return Err(format_err(shape("model", "an object")));
        };
        let n = match &self.n {
            None | Some(Value::Null) => None,
            Some(v) => Some(
                v.as_u64()
                    .ok_or_else(|| format_err(shape("n", "a natural number or null")))?
                    as usize,
            ),
        };
        let text = |v: &Option<Value>, what: &str| {
            v.as_ref()
                .and_then(Value::as_str)
                .map(str::to_owned)
                .ok_or_else(|| format_err(shape(what, "a string")))
        };
        let method = text(&self.method, "method")?;
        let guarantee = text(&self.guarantee, "guarantee")?;
        if self.tests.is_none() {
            return Err(format_err(shape("tests", "an array of tests")));
        }
        let quiescence = model.quiescence_id();
        for (t, raw) in std::mem::take(&mut self.deferred).into_iter().enumerate() {
            let tp = format!("tests[{t}]");
            let tj: Value = serde_json::from_str(&raw).map_err(|e| {
                format_err(SuiteFormatError::Syntax {
                    line: e.line(),
                    column: e.column(),
                    message: e.to_string(),
                })
            })?;
            let test = TestParts::of_value(&tj, &tp, &labels, quiescence)
                .and_then(|p| p.finish(&tp, &model))
                .map_err(format_err)?;
            (self.each)(&model, test).map_err(SuiteReadError::Consumer)?;
        }
        Ok(SuiteHeader {
            model,
            method,
            n,
            guarantee,
            extra: self.extra,
        })
    }
}

/// Visitor methods that reject every kind of value but the one the visitor reads.
macro_rules! reject_other_values {
    ($self:ident, $error:expr) => {
        fn visit_bool<X: de::Error>(self, _: bool) -> Result<(), X> {
            let $self = self;
            $error
        }
        fn visit_i64<X: de::Error>(self, _: i64) -> Result<(), X> {
            let $self = self;
            $error
        }
        fn visit_u64<X: de::Error>(self, _: u64) -> Result<(), X> {
            let $self = self;
            $error
        }
        fn visit_f64<X: de::Error>(self, _: f64) -> Result<(), X> {
            let $self = self;
            $error
        }
        fn visit_str<X: de::Error>(self, _: &str) -> Result<(), X> {
            let $self = self;
            $error
        }
        fn visit_unit<X: de::Error>(self) -> Result<(), X> {
            let $self = self;
            $error
        }
    };
}

/// The top-level object.
struct Document<'s, 'f, E>(&'s mut Stream<'f, E>);

impl<'de, E> DeserializeSeed<'de> for Document<'_, '_, E> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, E> Visitor<'de> for Document<'_, '_, E> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a suite object")
    }
    reject_other_values!(this, this.0.fail(shape("$", "a JSON object")));
    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<(), A::Error> {
        self.0.fail(shape("$", "a JSON object"))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let st = self.0;
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "tests" => {
                    map.next_value_seed(Tests(&mut *st))?;
                    st.tests.get_or_insert(0);
                }
                "model" => {
                    let v: Value = map.next_value()?;
                    match parse_model_json(&v) {
                        Ok(model) => {
                            let labels = Labels::of(&model);
                            st.model = Some((model, labels));
                        }
                        Err(e) => return st.fail(e),
                    }
                }
                "format" => {
                    let v: Value = map.next_value()?;
                    if v.as_str() != Some(FORMAT) {
                        return st.fail(shape("format", format!("\"{FORMAT}\"")));
                    }
                    st.format = Some(v);
                }
                "version" => {
                    let v: Value = map.next_value()?;
                    if v.as_u64() != Some(VERSION) {
                        return st.fail(shape("version", format!("{VERSION}")));
                    }
                    st.version = Some(v);
                }
                "method" => st.method = Some(map.next_value()?),
                "n" => st.n = Some(map.next_value()?),
                "guarantee" => st.guarantee = Some(map.next_value()?),
                _ => {
                    let v: Value = map.next_value()?;
                    st.extra.insert(key, v);
                }
            }
        }
        Ok(())
    }
}

/// The `tests` array: each test is read, checked and delivered before the next is read.
struct Tests<'s, 'f, E>(&'s mut Stream<'f, E>);

impl<'de, E> DeserializeSeed<'de> for Tests<'_, '_, E> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, E> Visitor<'de> for Tests<'_, '_, E> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an array of tests")
    }
    reject_other_values!(this, this.0.fail(shape("tests", "an array of tests")));
    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<(), A::Error> {
        self.0.fail(shape("tests", "an array of tests"))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let st = self.0;
        let mut t = 0usize;
        loop {
            if st.model.is_none() {
                // The labels are not known yet: keep the test as text.
                match seq.next_element::<Value>()? {
                    Some(v) => st.deferred.push(v.to_string()),
                    None => break,
                }
            } else {
                let tp = format!("tests[{t}]");
                let Some(parts) = seq.next_element_seed(OneTest {
                    st: &mut *st,
                    tp: &tp,
                })?
                else {
                    break;
                };
                let (model, _) = st.model.as_ref().expect("checked above");
                match parts.finish(&tp, model) {
                    Ok(test) => st.deliver(test)?,
                    Err(e) => return st.fail(e),
                }
            }
            t += 1;
        }
        st.tests = Some(t);
        Ok(())
    }
}

/// One test object, its nodes read one at a time.
struct OneTest<'s, 'f, 'p, E> {
    st: &'s mut Stream<'f, E>,
    tp: &'p str,
}

impl<'de, E> DeserializeSeed<'de> for OneTest<'_, '_, '_, E> {
    type Value = TestParts;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<TestParts, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, E> Visitor<'de> for OneTest<'_, '_, '_, E> {
    type Value = TestParts;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a test object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<TestParts, A::Error> {
        let mut parts = TestParts::default();
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "name" => parts.name = Some(map.next_value()?),
                "root" => parts.root = Some(map.next_value()?),
                "nodes" => {
                    parts.nodes = map.next_value_seed(Nodes {
                        st: &mut *self.st,
                        tp: self.tp,
                    })?;
                }
                _ => {
                    map.next_value::<de::IgnoredAny>()?;
                }
            }
        }
        Ok(parts)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<TestParts, A::Error> {
        self.st.fail(shape(format!("{}.name", self.tp), "a string"))
    }
    fn visit_bool<X: de::Error>(self, _: bool) -> Result<TestParts, X> {
        self.st.fail(shape(format!("{}.name", self.tp), "a string"))
    }
    fn visit_i64<X: de::Error>(self, _: i64) -> Result<TestParts, X> {
        self.st.fail(shape(format!("{}.name", self.tp), "a string"))
    }
    fn visit_u64<X: de::Error>(self, _: u64) -> Result<TestParts, X> {
        self.st.fail(shape(format!("{}.name", self.tp), "a string"))
    }
    fn visit_f64<X: de::Error>(self, _: f64) -> Result<TestParts, X> {
        self.st.fail(shape(format!("{}.name", self.tp), "a string"))
    }
    fn visit_str<X: de::Error>(self, _: &str) -> Result<TestParts, X> {
        self.st.fail(shape(format!("{}.name", self.tp), "a string"))
    }
    fn visit_unit<X: de::Error>(self) -> Result<TestParts, X> {
        self.st.fail(shape(format!("{}.name", self.tp), "a string"))
    }
}

/// The `nodes` array of a test: `None` if it is not an array.
struct Nodes<'s, 'f, 'p, E> {
    st: &'s mut Stream<'f, E>,
    tp: &'p str,
}

impl<'de, E> DeserializeSeed<'de> for Nodes<'_, '_, '_, E> {
    type Value = Option<Vec<TestNode>>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, E> Visitor<'de> for Nodes<'_, '_, '_, E> {
    type Value = Option<Vec<TestNode>>;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an array of nodes")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let (_, labels) = self
            .st
            .model
            .as_ref()
            .expect("nodes are read after the model");
        let quiescence = self.st.model.as_ref().and_then(|(m, _)| m.quiescence_id());
        let mut nodes = Vec::new();
        while let Some(nj) = seq.next_element::<Value>()? {
            let np = format!("{}.nodes[{}]", self.tp, nodes.len());
            match parse_node(&nj, &np, labels, quiescence) {
                Ok(node) => nodes.push(node),
                Err(e) => return self.st.fail(e),
            }
        }
        Ok(Some(nodes))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        while map
            .next_entry::<de::IgnoredAny, de::IgnoredAny>()?
            .is_some()
        {}
        Ok(None)
    }
    fn visit_bool<X: de::Error>(self, _: bool) -> Result<Self::Value, X> {
        Ok(None)
    }
    fn visit_i64<X: de::Error>(self, _: i64) -> Result<Self::Value, X> {
        Ok(None)
    }
    fn visit_u64<X: de::Error>(self, _: u64) -> Result<Self::Value, X> {
        Ok(None)
    }
    fn visit_f64<X: de::Error>(self, _: f64) -> Result<Self::Value, X> {
        Ok(None)
    }
    fn visit_str<X: de::Error>(self, _: &str) -> Result<Self::Value, X> {
        Ok(None)
    }
    fn visit_unit<X: de::Error>(self) -> Result<Self::Value, X> {
        Ok(None)
    }
}

fn read_with<'de, R: serde_json::de::Read<'de>, E>(
    mut de: serde_json::Deserializer<R>,
    each: &mut dyn FnMut(&SuiteModel, TestCase) -> Result<(), E>,
) -> Result<SuiteHeader, SuiteReadError<E>> {
    let mut st = Stream {
        format: None,
        version: None,
        model: None,
        method: None,
        n: None,
        guarantee: None,
        extra: Map::new(),
        deferred: Vec::new(),
        tests: None,
        stop: None,
        each,
    };
    let result = Document(&mut st)
        .deserialize(&mut de)
        .and_then(|()| de.end());
    if let Err(e) = result {
        return Err(match st.stop.take() {
            Some(Stop::Shape(s)) => SuiteReadError::Format(s),
            Some(Stop::Consumer(c)) => SuiteReadError::Consumer(c),
            None => SuiteReadError::Format(SuiteFormatError::Syntax {
                line: e.line(),
                column: e.column(),
                message: e.to_string(),
            }),
        });
    }
    st.finish()
}

/// Reads a suite JSON v1 document from `reader` without holding it: every test is checked and
/// handed to `each` (with the suite's model) as soon as it is read, so memory stays in
/// proportion to one test (tests that precede the model in the document are kept as text until
/// it arrives). Returns the header once the document is read.
pub fn read_suite_stream<R: io::Read, E>(
    reader: R,
    each: &mut dyn FnMut(&SuiteModel, TestCase) -> Result<(), E>,
) -> Result<SuiteHeader, SuiteReadError<E>> {
    read_with(serde_json::Deserializer::from_reader(reader), each)
}

/// Reads a suite JSON v1 document.
pub fn read_suite(text: &str) -> Result<(SuiteHeader, Vec<TestCase>), SuiteFormatError> {
    let mut tests = Vec::new();
    let mut keep = |_: &SuiteModel, t: TestCase| -> Result<(), std::convert::Infallible> {
        tests.push(t);
        Ok(())
    };
    match read_with(serde_json::Deserializer::from_str(text), &mut keep) {
        Ok(header) => Ok((header, tests)),
        Err(SuiteReadError::Format(e)) => Err(e),
        Err(SuiteReadError::Consumer(never)) => match never {},
    }
}

impl Verdict {
    /// Parses the JSON spelling.
    pub fn parse(s: &str) -> Option<Verdict> {
        match s {
            "pass" => Some(Verdict::Pass),
            "fail" => Some(Verdict::Fail),
            "retry" => Some(Verdict::Retry),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> SuiteHeader {
        let mut extra = Map::new();
        extra.insert("stats".into(), json!({"tests": 1}));
        SuiteHeader {
            model: SuiteModel {
                name: "m".into(),
                inputs: vec!["a".into(), "b".into()],
                outputs: vec!["x".into(), "y".into()],
                quiescence: Some("delta".into()),
            },
            method: "ioco-complete".into(),
            n: Some(4),
            guarantee: "complete for every implementation with at most 4 states".into(),
            extra,
        }
    }

    fn example() -> TestCase {
        TestCase {
            name: "t0001".into(),
            nodes: vec![
                TestNode::Send {
                    input: LabelId(0),
                    then: Next::Node(1),
                    race: vec![(LabelId(0), Next::RETRY)],
                },
                TestNode::Expect {
                    branches: vec![
                        (LabelId(0), Next::PASS),
                        (LabelId(1), Next::Node(2)),
                        (LabelId(2), Next::PASS),
                    ],
                },
                TestNode::Send {
                    input: LabelId(1),
                    then: Next::PASS,
                    race: vec![],
                },
            ],
        }
    }

    #[test]
    fn writes_the_documented_shape() {
        let text = suite_to_string(&header(), [&example()]);
        let doc: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(doc["format"], "ncomplete-suite");
        assert_eq!(doc["version"], 1);
        assert_eq!(doc["n"], 4);
        assert_eq!(doc["stats"]["tests"], 1);
        let nodes = &doc["tests"][0]["nodes"];
        assert_eq!(
            nodes[0],
            json!({"send": "a", "then": 1, "race": {"x": "retry"}})
        );
        assert_eq!(
            nodes[1],
            json!({"expect": {"x": "pass", "y": 2, "delta": "pass"}})
        );
    }

    #[test]
    fn test_lines_are_counted_and_written_in_the_documented_key_order() {
        let mut model = header().model;
        model.outputs[0] = "x \"quoted\" \u{e9}\n".into();
        let line = test_line(&model, &example()).unwrap();
        assert_eq!(
            test_line_bytes(&model, &example()).unwrap(),
            line.len() as u64
        );
        assert!(line.starts_with(r#"{"name":"t0001","root":0,"nodes":[{"send":"a","then":1,"race":{"x \"quoted\" é\n":"retry"}},{"expect":"#));
    }

    #[test]
    fn refuses_labels_a_runner_cannot_exchange_or_tell_apart() {
        let text = suite_to_string(&header(), [&example()]);
        let path_of = |text: &str| match read_suite(text) {
            Err(SuiteFormatError::Shape { path, expected }) => (path, expected),
            other => panic!("accepted: {other:?}"),
        };
        let (path, why) =
            path_of(&text.replace(r#""outputs":["x","y"]"#, r#""outputs":["x","x"]"#));
        assert_eq!(path, "model.outputs[1]");
        assert!(why.contains("first at model.outputs[0]"), "{why}");
        let (path, _) = path_of(&text.replace(r#""quiescence":"delta""#, r#""quiescence":"y""#));
        assert_eq!(path, "model.quiescence");
        let (path, _) = path_of(&text.replace(r#""inputs":["a","b"]"#, r#""inputs":["b","b"]"#));
        assert_eq!(path, "model.inputs[1]");
        for bad in [r#"x\n"#, r#"x\u001f"#, " x", r#"x\u000b"#, ""] {
            let changed = text.replace(
                r#""outputs":["x","y"]"#,
                &format!(r#""outputs":["{bad}","y"]"#),
            );
            let (path, why) = path_of(&changed);
            assert_eq!(path, "model.outputs[0]", "{bad}");
            assert!(why.contains("no control characters"), "{why}");
        }
        // A name may be an input and an output at once (Mealy alphabets are separate).
        let both = text.replace(r#""inputs":["a","b"]"#, r#""inputs":["x","b"]"#);
        assert!(read_suite(&both.replace(r#""send":"a""#, r#""send":"x""#)).is_ok());
    }

    #[test]
    fn round_trips() {
        let text = suite_to_string(&header(), [&example(), &example()]);
        let (h, tests) = read_suite(&text).unwrap();
        assert_eq!(h, header());
        assert_eq!(tests, vec![example(), example()]);
        assert_eq!(suite_to_string(&h, &tests), text);
    }

    #[test]
    fn streams_tests_to_the_consumer_in_order() {
        let text = suite_to_string(&header(), [&example(), &example(), &example()]);
        let mut seen = Vec::new();
        let mut each = |m: &SuiteModel, t: TestCase| -> Result<(), String> {
            assert_eq!(m, &header().model);
            seen.push(t);
            if seen.len() == 2 {
                return Err("enough".into());
            }
            Ok(())
        };
        match read_suite_stream(text.as_bytes(), &mut each) {
            Err(SuiteReadError::Consumer(e)) => assert_eq!(e, "enough"),
            other => panic!("unexpected {other:?}"),
        }
        assert_eq!(seen, vec![example(), example()]);
        let mut all = Vec::new();
        let h = read_suite_stream(text.as_bytes(), &mut |_: &SuiteModel, t| {
            all.push(t);
            Ok::<(), String>(())
        })
        .unwrap();
        assert_eq!(h, header());
        assert_eq!(all.len(), 3);
    }

    #[test]
    fn reads_any_key_order() {
        // Tests before the model are kept as text until the labels are known.
        let text = suite_to_string(&header(), [&example()]);
        let doc: Value = serde_json::from_str(&text).unwrap();
        let mut keys: Vec<(&String, &Value)> = doc.as_object().unwrap().iter().collect();
        keys.reverse();
        let reordered: Map<String, Value> = keys
            .into_iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let (h, tests) = read_suite(&Value::Object(reordered).to_string()).unwrap();
        assert_eq!(h, header());
        assert_eq!(tests, vec![example()]);
    }

    #[test]
    fn reports_shape_errors_of_the_document() {
        let path_of = |text: &str| match read_suite(text) {
            Err(SuiteFormatError::Shape { path, .. }) => path,
            other => panic!("unexpected {other:?}"),
        };
        assert_eq!(path_of("[1, 2]"), "$");
        assert_eq!(path_of("{\"format\": \"other\"}"), "format");
        let text = suite_to_string(&header(), [&example()]);
        assert_eq!(
            path_of(&text.replace("\"version\": 1", "\"version\": 2")),
            "version"
        );
        let no_tests = text.replace("\"tests\": [", "\"tests\": {\"x\": [");
        assert_eq!(path_of(&no_tests.replace("]}", "]}}")), "tests");
        assert_eq!(
            path_of(&text.replace("\"root\":0", "\"root\":1")),
            "tests[0].root"
        );
        assert_eq!(
            path_of(&text.replace("\"then\":1", "\"then\":0")),
            "tests[0]"
        );
        // A syntax error deep in the tests is reported at its line.
        let broken = suite_to_string(&header(), [&example(), &example()]).replacen(
            "\"expect\":{",
            "\"expect\":{,",
            2,
        );
        match read_suite(&broken) {
            Err(SuiteFormatError::Syntax { line, .. }) => assert_eq!(
                line,
                1 + broken.lines().position(|l| l.contains("{,")).unwrap()
            ),
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn reports_shape_and_syntax_errors() {
        let text = suite_to_string(&header(), [&example()]);
        let bad_label = text.replace("\"send\":\"b\"", "\"send\":\"zz\"");
        match read_suite(&bad_label) {
            Err(SuiteFormatError::Shape { path, .. }) => assert_eq!(path, "tests[0].nodes[2].send"),
            other => panic!("unexpected {other:?}"),
        }
        let racing_quiescence = text.replace("\"race\":{\"x\"", "\"race\":{\"delta\"");
        assert!(matches!(
            read_suite(&racing_quiescence),
            Err(SuiteFormatError::Shape { .. })
        ));
        match read_suite("{\n  \"format\": ") {
            Err(SuiteFormatError::Syntax { line, .. }) => assert_eq!(line, 2),
            other => panic!("unexpected {other:?}"),
        }
    }
}
