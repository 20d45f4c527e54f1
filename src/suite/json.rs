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
//! the tests (maps are written in label-id order), hence byte-identical across runs.

use super::case::{Next, SuiteHeader, SuiteModel, TestCase, TestNode, Verdict};
use crate::model::LabelId;
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

fn next_json(n: Next) -> Value {
    match n {
        Next::Node(k) => Value::from(k),
        Next::Verdict(v) => Value::from(v.as_str()),
    }
}

fn branches_json(model: &SuiteModel, list: &[(LabelId, Next)]) -> Value {
    let map: Map<String, Value> = list
        .iter()
        .map(|&(o, n)| (model.output_name(o).to_owned(), next_json(n)))
        .collect();
    Value::Object(map)
}

/// The JSON value of one test case.
pub fn test_json(model: &SuiteModel, test: &TestCase) -> Value {
    let nodes: Vec<Value> = test
        .nodes
        .iter()
        .map(|node| match node {
            TestNode::Send { input, then, race } => json!({
                "send": model.input_name(*input),
                "then": next_json(*then),
                "race": branches_json(model, race),
            }),
            TestNode::Expect { branches } => json!({ "expect": branches_json(model, branches) }),
        })
        .collect();
    json!({"name": test.name, "root": 0, "nodes": nodes})
}

impl<W: Write> SuiteWriter<W> {
    /// Writes the header and opens the test list.
    pub fn begin(mut out: W, header: &SuiteHeader) -> io::Result<Self> {
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
        write!(out, ",\n \"tests\": [")?;
        Ok(SuiteWriter {
            out,
            model: header.model.clone(),
            written: 0,
        })
    }

    /// Appends one test.
    pub fn write_test(&mut self, test: &TestCase) -> io::Result<()> {
        let sep = if self.written == 0 { "\n" } else { ",\n" };
        let line =
            serde_json::to_string(&test_json(&self.model, test)).map_err(io::Error::other)?;
        write!(self.out, "{sep}  {line}")?;
        self.written += 1;
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

/// Reads a suite JSON v1 document.
pub fn read_suite(text: &str) -> Result<(SuiteHeader, Vec<TestCase>), SuiteFormatError> {
    let doc: Value = serde_json::from_str(text).map_err(|e| SuiteFormatError::Syntax {
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    })?;
    let obj = doc.as_object().ok_or_else(|| shape("$", "a JSON object"))?;
    if obj.get("format").and_then(Value::as_str) != Some(FORMAT) {
        return Err(shape("format", format!("\"{FORMAT}\"")));
    }
    if obj.get("version").and_then(Value::as_u64) != Some(VERSION) {
        return Err(shape("version", format!("{VERSION}")));
    }
    let m = obj
        .get("model")
        .and_then(Value::as_object)
        .ok_or_else(|| shape("model", "an object"))?;
    let model = SuiteModel {
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
    };
    let n = match obj.get("n") {
        None | Some(Value::Null) => None,
        Some(v) => Some(
            v.as_u64()
                .ok_or_else(|| shape("n", "a natural number or null"))? as usize,
        ),
    };
    let method = obj
        .get("method")
        .and_then(Value::as_str)
        .ok_or_else(|| shape("method", "a string"))?
        .to_owned();
    let guarantee = obj
        .get("guarantee")
        .and_then(Value::as_str)
        .ok_or_else(|| shape("guarantee", "a string"))?
        .to_owned();
    const KNOWN: [&str; 7] = [
        "format",
        "version",
        "model",
        "method",
        "n",
        "guarantee",
        "tests",
    ];
    let extra = obj
        .iter()
        .filter(|(k, _)| !KNOWN.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let labels = Labels {
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
    };
    let quiescence = model.quiescence_id();
    let tests_json = obj
        .get("tests")
        .and_then(Value::as_array)
        .ok_or_else(|| shape("tests", "an array of tests"))?;
    let mut tests = Vec::with_capacity(tests_json.len());
    for (t, tj) in tests_json.iter().enumerate() {
        let tp = format!("tests[{t}]");
        let name = tj
            .get("name")
            .and_then(Value::as_str)
            .ok_or_else(|| shape(format!("{tp}.name"), "a string"))?
            .to_owned();
        if tj.get("root").and_then(Value::as_u64) != Some(0) {
            return Err(shape(format!("{tp}.root"), "0 (the first node)"));
        }
        let nodes_json = tj
            .get("nodes")
            .and_then(Value::as_array)
            .ok_or_else(|| shape(format!("{tp}.nodes"), "an array of nodes"))?;
        let mut nodes = Vec::with_capacity(nodes_json.len());
        for (k, nj) in nodes_json.iter().enumerate() {
            let np = format!("{tp}.nodes[{k}]");
            let node = if let Some(send) = nj.get("send") {
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
                        let race = parse_branches(Some(r), &labels, &format!("{np}.race"))?;
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
                TestNode::Send { input, then, race }
            } else if nj.get("expect").is_some() {
                TestNode::Expect {
                    branches: parse_branches(nj.get("expect"), &labels, &format!("{np}.expect"))?,
                }
            } else {
                return Err(shape(np, "a node with \"send\" or \"expect\""));
            };
            nodes.push(node);
        }
        let test = TestCase { name, nodes };
        test.validate(model.inputs.len(), model.num_output_ids())
            .map_err(|e| shape(tp, e.to_string()))?;
        tests.push(test);
    }
    Ok((
        SuiteHeader {
            model,
            method,
            n,
            guarantee,
            extra,
        },
        tests,
    ))
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
    fn round_trips() {
        let text = suite_to_string(&header(), [&example(), &example()]);
        let (h, tests) = read_suite(&text).unwrap();
        assert_eq!(h, header());
        assert_eq!(tests, vec![example(), example()]);
        assert_eq!(suite_to_string(&h, &tests), text);
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
