//! The reader of suite JSON v1: streams the tests of a file one at a time to a consumer
//! (memory proportional to one test), checking the shape of every value and the labels of the
//! model, and reports what is wrong with its line and column or JSON path.

use super::{FORMAT, VERSION};
use crate::model::LabelId;
use crate::suite::case::{Next, SuiteHeader, SuiteModel, TestCase, TestNode, Verdict};
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::io;

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
