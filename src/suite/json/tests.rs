//! Tests of the suite JSON: round trips, the exact bytes written, and every refusal of the
//! reader with its position or JSON path.

use super::*;
use serde_json::Map;

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
    let (path, why) = path_of(&text.replace(r#""outputs":["x","y"]"#, r#""outputs":["x","x"]"#));
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
