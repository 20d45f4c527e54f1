//! Tests of the native schema: models read and written, limits, error shapes.

use super::read::{parse_json, parse_yaml};
use super::write::{write_json, write_yaml};
use crate::format::FormatError;
use crate::format::LoadOptions;
use crate::model::{LabelId, Model, StateId};

mod models {
    use super::*;

    const VENDING: &str = "name: vending
kind: lts
inputs: [coin]
outputs: [coffee]
internal: [tau]
quiescence: delta
initial: idle
transitions:
  - {from: idle, label: coin, to: paid}
  - {from: paid, label: tau, to: brewing}
  - {from: brewing, label: coffee, to: idle}
  - {from: idle, label: delta, to: idle}
";

    fn yaml(text: &str) -> Result<Model, FormatError> {
        parse_yaml(text, "m.yaml", "m", &LoadOptions::default())
    }

    fn json(text: &str) -> Result<Model, FormatError> {
        parse_json(text, "m.json", "m", &LoadOptions::default())
    }

    #[test]
    fn reads_an_lts() {
        let Model::Lts(l) = yaml(VENDING).unwrap() else {
            panic!("expected an LTS")
        };
        assert_eq!(l.name, "vending");
        assert_eq!(l.state_names(), ["idle", "paid", "brewing"]);
        assert_eq!(l.num_transitions(), 4);
        assert_eq!(l.alphabet.quiescence(), l.alphabet.get("delta"));
        assert!(l.alphabet.is_internal(l.alphabet.get("tau").unwrap()));
    }

    #[test]
    fn reads_a_mealy_machine_with_numeric_names() {
        let text = "kind: mealy\ninputs: [0, 1]\noutputs: [yes]\ninitial: 0\nstates: [0, 1, 2]\ntransitions:\n  - {from: 0, input: 1, output: yes, to: 1}\n";
        let Model::Mealy(m) = yaml(text).unwrap() else {
            panic!("expected Mealy")
        };
        assert_eq!(m.name, "m");
        assert_eq!(m.state_names(), ["0", "1", "2"]);
        assert_eq!(m.inputs.names(), ["0", "1"]);
        assert_eq!(m.outputs.names(), ["yes"]);
    }

    #[test]
    fn yaml_and_json_writers_read_back() {
        let m = yaml(VENDING).unwrap();
        assert_eq!(yaml(&write_yaml(&m)).unwrap(), m);
        assert_eq!(json(&write_json(&m)).unwrap(), m);
        // Names that need quoting survive.
        let odd = "kind: mealy\ninputs: [\"a: b\", \"yes\"]\noutputs: [\"\\\"q\\\"\", \"1.5\"]\ninitial: \"s 0\"\ntransitions:\n  - {from: \"s 0\", input: \"a: b\", output: \"\\\"q\\\"\", to: \"s 0\"}\n  - {from: \"s 0\", input: \"yes\", output: \"1.5\", to: \"s 0\"}\n";
        let m = yaml(odd).unwrap();
        assert_eq!(yaml(&write_yaml(&m)).unwrap(), m);
        assert_eq!(json(&write_json(&m)).unwrap(), m);
    }

    #[test]
    fn empty_models_write_valid_text() {
        let m = yaml("kind: lts\ninitial: s\ntransitions: []\n").unwrap();
        assert_eq!(yaml(&write_yaml(&m)).unwrap(), m);
        assert_eq!(json(&write_json(&m)).unwrap(), m);
    }

    fn yaml_err(text: &str) -> String {
        yaml(text).unwrap_err().to_string()
    }

    fn json_err(text: &str) -> String {
        json(text).unwrap_err().to_string()
    }

    #[test]
    fn yaml_syntax_and_type_errors() {
        assert_eq!(
            yaml_err("kind: lts\ninitial: a\ntransitions: []\n  x: 1\n"),
            "m.yaml:4:3: found `x`, expected key"
        );
        assert_eq!(
            yaml_err("kind: lts\n\tinitial: a\n"),
            "m.yaml:2:1: found a tab character that violates indentation, expected valid YAML"
        );
        assert_eq!(
            yaml_err("kind: 'lts\n"),
            "m.yaml:2:1: found unexpected end of stream, expected valid YAML"
        );
        assert_eq!(
            yaml_err("kind: fsm\ninitial: a\ntransitions: []\n"),
            "m.yaml:1:7: found `fsm`, expected one of `lts`, `mealy`, `moore`, `onfsm`"
        );
        assert_eq!(
            yaml_err("kind: lts\ntransitions: []\n"),
            "m.yaml:1:1: found no field `initial`, expected a field `initial`"
        );
        assert_eq!(
            yaml_err("kind: lts\ninitial: a\ntransitions: []\nstate: [a]\n"),
            "m.yaml:4:1: found unknown field `state`, expected one of `name`, `kind`, `inputs`, `outputs`, `internal`, `quiescence`, `initial`, `states`, `state_outputs`, `transitions`, `timeouts`, `state_requirements`"
        );
        assert_eq!(
            yaml_err("kind: lts\ninitial: a\ntransitions: 3\n"),
            "m.yaml:3:14: found integer `3`, expected a sequence"
        );
    }

    #[test]
    fn json_syntax_and_type_errors() {
        assert_eq!(
            json_err("{\"kind\": \"lts\",\n \"initial\": }"),
            "m.json:2:13: found `}`, expected a value"
        );
        assert_eq!(
            json_err("{\"kind\": \"lts\", \"initial\": \"a\""),
            "m.json:1:30: found end of file, expected the rest of the document"
        );
        assert_eq!(
            json_err("{\"kind\": 1, \"initial\": \"a\", \"transitions\": []}"),
            "m.json:1:10: found `1`, expected a value"
        );
        assert_eq!(
            json_err("{\"kind\": \"fsm\", \"initial\": \"a\", \"transitions\": []}"),
            "m.json:1:14: found `fsm`, expected one of `lts`, `mealy`, `moore`, `onfsm`"
        );
    }

    #[test]
    fn semantic_errors_carry_positions() {
        let undeclared = VENDING.replace("label: coffee", "label: tea");
        assert_eq!(
            yaml_err(&undeclared),
            "m.yaml:11:5: found label `tea`, expected a label listed under inputs, outputs, internal or quiescence"
        );
        let mealy_label = "kind: mealy\ninputs: [a]\noutputs: [x]\ninitial: s\ntransitions:\n  - {from: s, input: a, output: x, to: s}\n  - {from: s, label: a, to: s}\n";
        assert_eq!(
            yaml_err(mealy_label),
            "m.yaml:7:5: found a `label` in a Mealy transition, expected `input` and `output` (a Mealy transition is {from, input, output, to}; a Moore one {from, input, to})"
        );
        let nondet = "kind: mealy\ninputs: [a]\noutputs: [x, y]\ninitial: s\ntransitions:\n  - {from: s, input: a, output: x, to: s}\n  - {from: s, input: a, output: y, to: s}\n";
        assert_eq!(
            yaml_err(nondet),
            "m.yaml:7:5: found a second transition for input `a` from state `s` (the first is transition 1), expected one transition per state and input (a deterministic machine; `kind: onfsm` allows several)"
        );
        // The same transitions are an ONFSM's.
        let onfsm = nondet.replace("kind: mealy", "kind: onfsm");
        match parse_yaml(&onfsm, "m.yaml", "m", &LoadOptions::default()) {
            Ok(Model::Lts(l)) => assert_eq!(l.onfsm().map(|o| o.quads().len()), Some(2)),
            other => panic!("{other:?}"),
        }
        let moore = "kind: moore\ninputs: [a]\noutputs: [x, y]\ninitial: s\nstates: [s, t]\nstate_outputs: [x, y]\ntransitions:\n  - {from: s, input: a, to: t}\n";
        match parse_yaml(moore, "m.yaml", "m", &LoadOptions::default()) {
            Ok(Model::Mealy(m)) => {
                assert_eq!(m.state_outputs(), Some(&[LabelId(0), LabelId(1)][..]));
                assert_eq!(
                    m.step(StateId(0), LabelId(0)),
                    Some((StateId(1), LabelId(1)))
                );
            }
            other => panic!("{other:?}"),
        }
        let wrong = [
            (
                moore.replace("state_outputs: [x, y]", "state_outputs: [x]"),
                "m.yaml:6:16: found 1 state outputs for 2 states, expected `states` and one output per state in `state_outputs`",
            ),
            (
                moore.replace("state_outputs: [x, y]", "state_outputs: [x, z]"),
                "m.yaml:6:16: found output `z`, expected an output listed under `outputs`",
            ),
            (
                moore.replace("state_outputs: [x, y]\n", ""),
                "m.yaml:1:7: found a Moore model without `state_outputs`, expected `states` and `state_outputs`, the output of each state in that order",
            ),
            (
                moore.replace("to: t}", "output: x, to: t}"),
                "m.yaml:8:5: found an `output` in a Moore transition, expected {from, input, to} (a Moore machine's outputs are under `state_outputs`)",
            ),
            (
                moore.replace("kind: moore", "kind: mealy"),
                "m.yaml:6:16: found `state_outputs` in a Mealy model, expected `state_outputs` only in a `moore` model",
            ),
        ]
        .into_iter()
        .filter(|(text, want)| yaml_err(text) != *want)
        .map(|(text, want)| format!("{text}\n  got:  {}\n  want: {want}", yaml_err(&text)))
        .collect::<Vec<_>>();
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
        let bad_initial = "kind: lts\nstates: [a]\ninitial: b\ntransitions: []\n";
        assert_eq!(
            yaml_err(bad_initial),
            "m.yaml:3:10: found state `b`, expected a state listed under `states`"
        );
        let conflict = "kind: lts\ninputs: [a]\noutputs: [a]\ninitial: s\ntransitions: []\n";
        assert_eq!(
            yaml_err(conflict),
            "m.yaml:3:10: found label `a` listed as Output, expected each label in one of inputs, outputs and internal (it is already Input)"
        );
        let json_undeclared = "{\"kind\": \"lts\", \"initial\": \"s\",\n \"transitions\": [\n  {\"from\": \"s\", \"label\": \"a\", \"to\": \"s\"}\n ]}";
        assert_eq!(
            json_err(json_undeclared),
            "m.json:3:3: found label `a`, expected a label listed under inputs, outputs, internal or quiescence"
        );
        let mealy_quiescence = "kind: mealy\nquiescence: delta\ninitial: s\ntransitions: []\n";
        assert_eq!(
            yaml_err(mealy_quiescence),
            "m.yaml:2:13: found `quiescence` in a Mealy model, expected `internal` and `quiescence` only in an `lts` model"
        );
        let missing_output =
            "kind: mealy\ninputs: [a]\ninitial: s\ntransitions:\n  - {from: s, input: a, to: s}\n";
        assert_eq!(
            yaml_err(missing_output),
            "m.yaml:5:5: found a Mealy transition without `input` or `output`, expected {from, input, output, to}"
        );
    }
}

mod limits {
    use super::*;

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep_yaml = format!("kind: lts\ninitial: {}\n", "[".repeat(100_000));
        let e = parse_yaml(&deep_yaml, "d.yaml", "d", &LoadOptions::default()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "d.yaml:2:110: found a flow collection nested 101 deep, expected at most 100 levels of `[` and `{`"
        );
        let deep_yaml = format!("kind: lts\ninitial: {}\n", "{a: ".repeat(20_000));
        let e = parse_yaml(&deep_yaml, "d.yaml", "d", &LoadOptions::default()).unwrap_err();
        assert!(e.to_string().contains("nested 101 deep"), "{e}");
        // Brackets inside quoted scalars and comments do not count.
        let quoted = format!(
            "kind: lts # {}\ninitial: \"{}\"\nstates: [\"{}\", '{}']\ntransitions: []\n",
            "[".repeat(200),
            "[".repeat(200),
            "[".repeat(200),
            "{".repeat(200)
        );
        let m = parse_yaml(&quoted, "q.yaml", "q", &LoadOptions::default());
        assert!(matches!(m, Ok(Model::Lts(l)) if l.num_states() == 2));
        let deep_json = format!("{{\"initial\": {}", "[".repeat(100_000));
        let e = parse_json(&deep_json, "d.json", "d", &LoadOptions::default()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "d.json:1:13: found sequence, expected a name (a string or a number)"
        );
    }

    #[test]
    fn alias_bombs_are_refused() {
        let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..12 {
            let p = i - 1;
            text.push_str(&format!(
                "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
            ));
        }
        text.push_str("kind: lts\ninitial: s\ntransitions: []\n");
        let e = parse_yaml(&text, "b.yaml", "b", &LoadOptions::default()).unwrap_err();
        assert!(matches!(e, FormatError::Parse(_)), "{e}");
    }
}

mod more_error_shapes {
    use super::*;

    #[test]
    fn semantic_checks() {
        let cases: &[(&str, &str)] = &[
            (
                "kind: lts\nstates: [a, a]\ninitial: a\ntransitions: []\n",
                "m.yaml:2:9: found state `a` listed twice, expected each state once",
            ),
            (
                "kind: mealy\ninputs: [a]\noutputs: [x]\ninitial: s\ntransitions:\n  - {from: s, input: b, output: x, to: s}\n",
                "m.yaml:6:5: found input `b`, expected an input listed under `inputs`",
            ),
            (
                "kind: mealy\ninputs: [a]\noutputs: [x]\ninitial: s\ntransitions:\n  - {from: s, input: a, output: y, to: s}\n",
                "m.yaml:6:5: found output `y`, expected an output listed under `outputs`",
            ),
            (
                "kind: lts\ninputs: [a]\ninitial: s\ntransitions:\n  - {from: s, input: a, output: a, to: s}\n",
                "m.yaml:5:5: found `input`/`output` in an LTS transition, expected `label` (an LTS transition is {from, label, to})",
            ),
            (
                "kind: lts\ninitial: s\ntransitions:\n  - {from: s, to: s}\n",
                "m.yaml:4:5: found an LTS transition without `label`, expected {from, label, to}",
            ),
            (
                "kind: lts\ninputs: [d]\nquiescence: d\ninitial: s\ntransitions: []\n",
                "m.yaml:3:13: found quiescence label `d`, already Input, expected a label that is not an input or internal",
            ),
            (
                "kind: mealy\ninternal: [tau]\ninitial: s\ntransitions: []\n",
                "m.yaml:2:11: found `internal` in a Mealy model, expected `internal` and `quiescence` only in an `lts` model",
            ),
            (
                "kind: lts\nstates: [s]\ninitial: s\ntransitions:\n  - {from: s, label: a, to: t}\n",
                "m.yaml:5:5: found state `t`, expected a state listed under `states`",
            ),
        ];
        for (text, want) in cases {
            let got = parse_yaml(text, "m.yaml", "m", &LoadOptions::default())
                .unwrap_err()
                .to_string();
            assert_eq!(&got, want, "input: {text:?}");
        }
    }
}
