//! `convert --suspension/--divergence/--minimize/--complete` and `info`'s `minimal` end to end,
//! on the bundled models and on small files written by the tests.

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
