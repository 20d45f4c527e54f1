//! `convert --suspension/--divergence/--minimize/--complete` and `info`'s `minimal` end to end,
//! on the bundled models and on small files written by the tests.

use ncomplete::format::timeouts::TimeoutAnnotations;
use ncomplete::format::{Format, LoadOptions, load_model_with_warnings};
use std::path::PathBuf;
use std::process::{Command, Output};

fn ncomplete(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ncomplete"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn model(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("models")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// Writes `text` to a fresh file in the test scratch folder and returns its path.
fn scratch(name: &str, text: &str) -> String {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli_transforms");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

fn ok(args: &[&str]) -> String {
    let o = ncomplete(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

fn fails_with_2(args: &[&str]) -> String {
    let o = ncomplete(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stdout(&o));
    let err = stderr(&o);
    assert!(err.starts_with("error: "), "{err}");
    err
}

#[test]
fn suspension_automaton_of_the_vending_machine() {
    // Hand-checked: after ?coin the machine is in {1,2,3}; state 2 waits for a button
    // (quiescent), 1 and 3 do not (τ, !refund), so δ leads to {2}.
    let text = ok(&[
        "convert",
        &model("vending.aut"),
        "--suspension",
        "--to",
        "aut",
    ]);
    assert_eq!(
        text,
        r#"des (0, 15, 6)
(0, "?coin", 1)
(0, "delta", 0)
(1, "?coin", 2)
(1, "?coffee_button", 3)
(1, "?tea_button", 4)
(1, "!refund", 0)
(1, "delta", 2)
(2, "?coin", 2)
(2, "?coffee_button", 3)
(2, "?tea_button", 4)
(2, "delta", 2)
(3, "!coffee", 5)
(4, "!tea", 5)
(5, "?coin", 5)
(5, "!change", 0)
"#
    );
    let again = ok(&[
        "convert",
        &model("vending.aut"),
        "--suspension",
        "--to",
        "aut",
    ]);
    assert_eq!(text, again);
}

#[test]
fn divergence_strategies_on_the_self_kicking_coffee_machine() {
    let path = model("selfkicking_coffee.aut");
    let fair = ok(&["convert", &path, "--suspension", "--to", "dot"]);
    // TorX thesis Sec. 4.1.2: after ?coin only !coin (here !refund) is allowed, no δ.
    assert!(
        fair.contains(r#""{1,2,3}" -> "{0}" [label="!refund"];"#),
        "{fair}"
    );
    assert!(!fair.contains(r#""{1,2,3}" -> "{d-1"#), "{fair}");
    assert!(!fair.contains("d-"), "{fair}");
    let explicit_fair = ok(&[
        "convert",
        &path,
        "--suspension",
        "--divergence",
        "fair",
        "--to",
        "dot",
    ]);
    assert_eq!(fair, explicit_fair);
    // Sec. 4.1.4: δ leads to the copies, where only δ and inputs remain.
    let copy = ok(&[
        "convert",
        &path,
        "--suspension",
        "--divergence",
        "quiescent-copy",
        "--to",
        "dot",
    ]);
    assert!(
        copy.contains(r#""{1,2,3}" -> "{d-1,d-2,d-3}" [label="delta"];"#),
        "{copy}"
    );
    assert!(
        copy.contains(r#""{d-1,d-2,d-3}" -> "{d-1,d-2,d-3}" [label="delta"];"#),
        "{copy}"
    );
    assert!(!copy.contains(r#""{d-1,d-2,d-3}" -> "{0}""#), "{copy}");
}

#[test]
fn minimize_merges_equivalent_states_and_info_reports_minimality() {
    // The same request/response loop written twice.
    let twice = scratch(
        "twice.aut",
        "des (0, 4, 4)\n(0, \"?req\", 1)\n(1, \"!resp\", 2)\n(2, \"?req\", 3)\n(3, \"!resp\", 0)\n",
    );
    let sa = scratch(
        "twice_sa.aut",
        &ok(&["convert", &twice, "--suspension", "--to", "aut"]),
    );
    let info = ok(&["info", &sa]);
    assert!(
        info.contains("\nstates:                           4 "),
        "{info}"
    );
    assert!(
        info.contains("\nminimal:                          no\n"),
        "{info}"
    );
    let min = scratch(
        "twice_min.aut",
        &ok(&["convert", &twice, "--minimize", "--to", "aut"]),
    );
    let json: serde_json::Value = serde_json::from_str(&ok(&["info", "--json", &min])).unwrap();
    assert_eq!(json["states"], 2);
    assert_eq!(json["minimal"], true);
    // A nondeterministic LTS is not a suspension automaton: no `minimal` figure.
    let json: serde_json::Value =
        serde_json::from_str(&ok(&["info", "--json", &model("vending.aut")])).unwrap();
    assert!(json.get("minimal").is_none());
}

const PARTIAL_MEALY: &str = r#"digraph partial {
    __start0 -> s0;
    s0 -> s1 [label="a / x"];
    s1 -> s0 [label="b / y"];
}
"#;

#[test]
fn complete_fills_missing_transitions() {
    let partial = scratch("partial.dot", PARTIAL_MEALY);
    let info = ok(&["info", &partial]);
    assert!(
        info.contains("\ninput-enabled:                    no\n"),
        "{info}"
    );

    let sink = scratch(
        "partial_sink.dot",
        &ok(&["convert", &partial, "--complete", "sink", "--to", "dot"]),
    );
    let json: serde_json::Value = serde_json::from_str(&ok(&["info", "--json", &sink])).unwrap();
    assert_eq!(json["states"], 3);
    assert_eq!(json["input_enabled"], true);
    assert_eq!(json["outputs"], 3);
    let text = std::fs::read_to_string(&sink).unwrap();
    assert!(text.contains("undefined"), "{text}");
    assert!(text.contains("sink"), "{text}");

    let looped = ok(&[
        "convert",
        &partial,
        "--complete",
        "self-loop",
        "--to",
        "yaml",
    ]);
    let looped = scratch("partial_loop.yaml", &looped);
    let json: serde_json::Value = serde_json::from_str(&ok(&["info", "--json", &looped])).unwrap();
    assert_eq!(json["states"], 2);
    assert_eq!(json["input_enabled"], true);
}

#[test]
fn mealy_suspension_automaton_and_its_minimisation() {
    let partial = scratch("partial_sa.dot", PARTIAL_MEALY);
    let text = ok(&["convert", &partial, "--suspension", "--to", "yaml"]);
    // q --a--> q/a --x--> q', δ on the states that wait for input.
    assert!(
        text.contains(r#"{from: s0, label: a, to: "s0/a"}"#),
        "{text}"
    );
    assert!(
        text.contains(r#"{from: "s0/a", label: x, to: s1}"#),
        "{text}"
    );
    assert!(text.contains("{from: s0, label: delta, to: s0}"), "{text}");
    let min = ok(&[
        "convert",
        &partial,
        "--complete",
        "self-loop",
        "--suspension",
        "--minimize",
        "--to",
        "json",
    ]);
    let min = scratch("partial_min.json", &min);
    let json: serde_json::Value = serde_json::from_str(&ok(&["info", "--json", &min])).unwrap();
    assert_eq!(json["minimal"], true);
}

#[test]
fn transformation_errors_exit_2_with_advice() {
    let partial = scratch("partial_err.dot", PARTIAL_MEALY);
    let err = fails_with_2(&[
        "convert",
        &model("vending.aut"),
        "--complete",
        "sink",
        "--to",
        "aut",
    ]);
    assert!(
        err.contains("--complete applies to Mealy machines"),
        "{err}"
    );
    let err = fails_with_2(&["convert", &partial, "--minimize", "--to", "aut"]);
    assert!(err.contains("add --suspension"), "{err}");
    let err = fails_with_2(&[
        "convert",
        &partial,
        "--suspension",
        "--divergence",
        "fair",
        "--to",
        "aut",
    ]);
    assert!(err.contains("--divergence applies to LTS models"), "{err}");
    let err = fails_with_2(&[
        "convert",
        &model("vending.aut"),
        "--divergence",
        "fair",
        "--to",
        "aut",
    ]);
    assert!(err.contains("add --suspension"), "{err}");
    let o = ncomplete(&[
        "convert",
        &model("vending.aut"),
        "--suspension",
        "--divergence",
        "sometimes",
        "--to",
        "aut",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("quiescent-copy"), "{}", stderr(&o));
    let err = fails_with_2(&[
        "convert",
        &model("vending.aut"),
        "--suspension",
        "--max-subsets",
        "3",
        "--to",
        "aut",
    ]);
    assert!(err.contains("exceeds the budget of 3"), "{err}");
    assert!(err.contains("raise the subset budget"), "{err}");
    let clash = scratch(
        "clash.dot",
        "digraph clash {\n  __start0 -> s0;\n  s0 -> s0 [label=\"ping / ping\"];\n}\n",
    );
    let err = fails_with_2(&["convert", &clash, "--suspension", "--to", "aut"]);
    assert!(
        err.contains("`ping` is both an input and an output"),
        "{err}"
    );
}

/// An LTS with a quiescence timeout on both states and response timeouts on both inputs.
const ANNOTATED_LTS: &str = "digraph slow {
  __start0 -> idle;
  idle [quiescence_timeout_ms=1500];
  paid [quiescence_timeout_ms=2500];
  idle -> paid [label=\"?coin\", response_timeout_ms=2000];
  paid -> idle [label=\"!coffee\"];
  paid -> paid [label=\"?button\" response_timeout_ms=300];
}
";

/// A Mealy machine with a quiescence timeout on one state and a response timeout on one input.
const ANNOTATED_MEALY: &str = "digraph m {
  __start0 -> s0;
  s0 [quiescence_timeout_ms=100];
  s0 -> s1 [label=\"a / x\" response_timeout_ms=700];
  s1 -> s0 [label=\"b / y\"];
  s1 -> s1 [label=\"a / x\" response_timeout_ms=700];
}
";

/// The timeout annotations of a model file, as `run` and `generate` read them.
fn annotated(path: &str) -> TimeoutAnnotations {
    load_model_with_warnings(path, &LoadOptions::default())
        .unwrap()
        .timeouts
}

fn annotations(quiescence: &[(&str, u64)], response: &[(&str, u64)]) -> TimeoutAnnotations {
    let map = |pairs: &[(&str, u64)]| pairs.iter().map(|&(n, ms)| (n.to_owned(), ms)).collect();
    TimeoutAnnotations {
        quiescence_ms: map(quiescence),
        response_ms: map(response),
    }
}

/// `convert --out` into a scratch file; returns its path.
fn convert_to(from: &str, to: &str, name: &str, extra: &[&str]) -> String {
    let out = scratch(name, "");
    let mut args = vec!["convert", from, "--to", to, "--out", &out];
    args.extend(extra);
    ok(&args);
    out
}

#[test]
fn timeout_annotations_survive_conversions_through_every_format() {
    let dot = scratch("slow.dot", ANNOTATED_LTS);
    let original = annotated(&dot);
    let by_name = annotations(
        &[("idle", 1500), ("paid", 2500)],
        &[("coin", 2000), ("button", 300)],
    );
    assert_eq!(original, by_name);
    // DOT -> YAML -> JSON -> DOT keeps the names and the annotations.
    let yaml = convert_to(&dot, "yaml", "slow.yaml", &[]);
    let yaml_text = std::fs::read_to_string(&yaml).unwrap();
    assert!(yaml_text.contains("timeouts:\n"), "{yaml_text}");
    assert_eq!(annotated(&yaml), by_name);
    let json = convert_to(&yaml, "json", "slow.json", &[]);
    assert_eq!(annotated(&json), by_name);
    let dot_again = convert_to(&json, "dot", "slow_again.dot", &[]);
    assert_eq!(annotated(&dot_again), by_name);
    // DOT -> .aut writes the side file, with the states as .aut numbers them.
    let aut = convert_to(&dot_again, "aut", "slow.aut", &[]);
    let side = std::fs::read_to_string(format!("{aut}.timeouts")).unwrap();
    assert_eq!(
        side,
        "quiescence 0 1500\nquiescence 1 2500\nresponse button 300\nresponse coin 2000\n"
    );
    let numbered = annotated(&aut);
    assert_eq!(
        numbered,
        annotations(
            &[("0", 1500), ("1", 2500)],
            &[("coin", 2000), ("button", 300)]
        )
    );
    // ... and back: .aut with its side file -> YAML -> DOT -> .aut gives the same two files.
    let yaml_back = convert_to(&aut, "yaml", "slow_back.yaml", &[]);
    assert_eq!(annotated(&yaml_back), numbered);
    let dot_back = convert_to(&yaml_back, "dot", "slow_back.dot", &[]);
    assert_eq!(annotated(&dot_back), numbered);
    let aut_back = convert_to(&dot_back, "aut", "slow_back.aut", &[]);
    assert_eq!(
        std::fs::read_to_string(&aut_back).unwrap(),
        std::fs::read_to_string(&aut).unwrap()
    );
    assert_eq!(
        std::fs::read_to_string(format!("{aut_back}.timeouts")).unwrap(),
        side
    );
}

#[test]
fn timeout_annotations_of_a_mealy_machine_go_to_the_side_file_of_fsm() {
    let dot = scratch("m.dot", ANNOTATED_MEALY);
    let by_name = annotations(&[("s0", 100)], &[("a", 700)]);
    assert_eq!(annotated(&dot), by_name);
    // .fsm numbers states and inputs: s0 is 0 (initial), a is input 0.
    let fsm = convert_to(&dot, "fsm", "m.fsm", &[]);
    let numbered = annotated(&fsm);
    assert_eq!(numbered, annotations(&[("0", 100)], &[("0", 700)]));
    let back = convert_to(&fsm, "dot", "m_back.dot", &[]);
    assert_eq!(annotated(&back), numbered);
    // --complete keeps the states and inputs, so the annotations are carried.
    let sink = convert_to(&dot, "yaml", "m_sink.yaml", &["--complete", "sink"]);
    assert_eq!(annotated(&sink), by_name);
    // The suspension automaton of a Mealy machine keeps its states (adding `s0/a`, ...).
    let sa = convert_to(&dot, "dot", "m_sa.dot", &["--suspension"]);
    assert_eq!(annotated(&sa), by_name);
}

#[test]
fn annotations_without_room_are_refused_not_dropped() {
    let dot = scratch("slow_refused.dot", ANNOTATED_LTS);
    let mealy = scratch("m_refused.dot", ANNOTATED_MEALY);
    for (model, to) in [(&dot, "aut"), (&mealy, "fsm")] {
        let err = fails_with_2(&["convert", model, "--to", to]);
        assert!(err.contains("timeout annotations"), "{err}");
        assert!(err.contains("--out FILE"), "{err}");
        assert!(err.contains("--to yaml"), "{err}");
    }
    let out = scratch("m_refused.aut", "");
    let err = fails_with_2(&["convert", &mealy, "--to", "aut", "--out", "-"]);
    assert!(err.contains("--out FILE"), "{err}");
    // The suspension automaton of an LTS names its states after sets of states, minimisation
    // merges states: quiescence timeouts cannot follow.
    for option in ["--suspension", "--minimize"] {
        let err = fails_with_2(&["convert", &dot, option, "--to", "yaml"]);
        assert!(err.contains(option), "{err}");
        assert!(err.contains("`idle`, `paid`"), "{err}");
    }
    let err = fails_with_2(&[
        "convert",
        &mealy,
        "--suspension",
        "--minimize",
        "--to",
        "aut",
        "--out",
        &out,
    ]);
    assert!(err.contains("`s0`"), "{err}");
    // Response timeouts alone are carried into the suspension automaton (inputs keep names).
    let responses_only = scratch(
        "responses.dot",
        "digraph r {\n  __start0 -> a;\n  a -> b [label=\"?coin\" response_timeout_ms=50];\n  b -> a [label=\"!tea\"];\n}\n",
    );
    let sa = convert_to(
        &responses_only,
        "json",
        "responses_sa.json",
        &["--minimize"],
    );
    assert_eq!(annotated(&sa), annotations(&[], &[("coin", 50)]));
    // An input name a side file cannot hold is refused with the way out.
    let with_response = scratch(
        "spaced.yaml",
        "kind: lts\ninputs: [insert coin]\noutputs: [tea]\ninitial: a\ntransitions:\n  - {from: a, label: insert coin, to: b}\n  - {from: b, label: tea, to: a}\ntimeouts: {response_ms: {insert coin: 5}}\n",
    );
    assert_eq!(
        annotated(&with_response),
        annotations(&[], &[("insert coin", 5)])
    );
    // An intermediate state of a nondeterministic Mealy machine's LTS is not written in DOT.
    let onfsm = scratch(
        "o.yaml",
        "kind: onfsm\ninputs: [a]\noutputs: [x, y]\ninitial: s0\ntransitions:\n  - {from: s0, input: a, output: x, to: s0}\n  - {from: s0, input: a, output: y, to: s0}\ntimeouts: {quiescence_ms: {s0/a: 7}}\n",
    );
    let err = fails_with_2(&["convert", &onfsm, "--to", "dot"]);
    assert!(err.contains("`s0/a`, an intermediate state"), "{err}");
    let _ = std::fs::remove_file(format!("{out}.timeouts"));
    let err = fails_with_2(&["convert", &with_response, "--to", "aut", "--out", &out]);
    assert!(err.contains("`insert coin`"), "{err}");
    assert!(err.contains("--to yaml"), "{err}");
    assert!(!std::path::Path::new(&format!("{out}.timeouts")).exists());
}

#[test]
fn models_without_annotations_convert_as_before() {
    for name in ["vending.aut", "coffeemachine.dot"] {
        let path = model(name);
        let m = ncomplete::format::load_model(&path, &LoadOptions::default()).unwrap();
        for to in Format::EVERY {
            if ncomplete::format::unrepresentable(&m, to).is_some() {
                continue;
            }
            let text = ok(&["convert", &path, "--to", to.name()]);
            assert_eq!(text, ncomplete::format::write_model(&m, to), "{name} {to}");
            assert!(!text.contains("timeout"), "{name} {to}");
        }
        let out = convert_to(&path, "aut", &format!("plain_{name}.aut"), &[]);
        let side = format!("{out}.timeouts");
        assert!(!std::path::Path::new(&side).exists());
        // A side file left beside the output would be read with it: convert warns.
        std::fs::write(&side, "quiescence 0 5\n").unwrap();
        let o = ncomplete(&["convert", &path, "--to", "aut", "--out", &out]);
        assert!(o.status.success());
        assert!(
            stderr(&o).contains("has no timeout annotations"),
            "{}",
            stderr(&o)
        );
        std::fs::remove_file(&side).unwrap();
    }
}
