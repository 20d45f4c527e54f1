//! The `info` and `convert` commands end to end: text and JSON reports on bundled models,
//! conversions that read back, and bad input rejected with exit status 2 and a position.

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

/// A fresh path in the test scratch folder.
fn scratch(name: &str) -> String {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli_info");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name).to_string_lossy().into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

#[test]
fn info_text_on_the_coffee_machine() {
    let o = ncomplete(&["info", &model("coffeemachine.dot")]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "model:                                coffeemachine
kind:                                 mealy
states:                               6 (6 reachable)
inputs:                               4
outputs:                              3
transitions:                          24
deterministic:                        yes
input-enabled:                        yes
longest shortest access sequence:     3
minimal:                              yes
longest shortest separating sequence: 2
"
    );
    assert_eq!(stderr(&o), "");
}

#[test]
fn info_text_on_the_vending_machine() {
    let o = ncomplete(&["info", &model("vending.aut")]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "model:                            vending
kind:                             lts
states:                           7 (7 reachable)
inputs:                           3
outputs:                          4
internal labels:                  1
transitions:                      11
deterministic:                    no
input-enabled:                    no
quiescent states:                 2
longest shortest access sequence: 3
"
    );
}

#[test]
fn info_json() {
    let o = ncomplete(&[
        "info",
        "--json",
        &model("lee_yannakakis_distinguishable.dot"),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["name"], "lee_yannakakis_distinguishable");
    assert_eq!(v["kind"], "mealy");
    assert_eq!(v["states"], 6);
    assert_eq!(v["inputs"], 2);
    assert_eq!(v["outputs"], 2);
    assert_eq!(v["transitions"], 12);
    assert_eq!(v["deterministic"], true);
    assert_eq!(v["input_enabled"], true);
    assert_eq!(v["longest_access_sequence"], 5);
    assert!(v.get("quiescent_states").is_none());

    let o = ncomplete(&["info", "--json", &model("vdbos_fig3_1.aut")]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["kind"], "lts");
    assert_eq!(v["quiescent_states"], 0);
    assert_eq!(v["deterministic"], true);
}

/// `info --json` without the name, to compare models across formats.
fn figures(path: &str) -> serde_json::Value {
    let o = ncomplete(&["info", "--json", path]);
    assert!(o.status.success(), "{path}: {}", stderr(&o));
    let mut v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    v.as_object_mut().unwrap().remove("name");
    v
}

#[test]
fn convert_round_trips_through_every_format() {
    for source in ["vending.aut", "coffeemachine.dot", "tea_machine.dot"] {
        let original = figures(&model(source));
        let stem = source.split('.').next().unwrap();
        for to in ["aut", "dot", "yaml", "json"] {
            let out = scratch(&format!("{stem}.{to}"));
            let o = ncomplete(&["convert", &model(source), "--to", to, "--out", &out]);
            assert!(o.status.success(), "{source} -> {to}: {}", stderr(&o));
            assert_eq!(stdout(&o), "", "--out writes the file, not stdout");
            assert_eq!(figures(&out), original, "{source} -> {to}");
            // And back to the source format, through standard output.
            let back_ext = source.rsplit('.').next().unwrap();
            let o = ncomplete(&["convert", &out, "--to", back_ext]);
            assert!(o.status.success());
            let back = scratch(&format!("{stem}.{to}.back.{back_ext}"));
            std::fs::write(&back, stdout(&o)).unwrap();
            assert_eq!(figures(&back), original, "{source} -> {to} -> {back_ext}");
        }
    }
}

#[test]
fn convert_is_deterministic() {
    let a = ncomplete(&["convert", &model("TCP_Linux_Client.dot"), "--to", "yaml"]);
    let b = ncomplete(&["convert", &model("TCP_Linux_Client.dot"), "--to", "yaml"]);
    assert!(a.status.success());
    assert_eq!(a.stdout, b.stdout);
}

#[test]
fn bad_input_exits_2_with_the_position() {
    let bad = scratch("bad.aut");
    std::fs::write(&bad, "des (0, 1, 2)\n(0, coin, 1)\n").unwrap();
    let o = ncomplete(&["info", &bad]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stdout(&o), "");
    assert_eq!(
        stderr(&o),
        format!(
            "error: {bad}:2:5: found unmarked label `coin`, expected `?coin` or `coin?` for an input, `!coin` or `coin!` for an output, `tau`, `delta`, or `--inputs`/`--outputs` naming it\n"
        )
    );
    // The same file with the label classified on the command line.
    let o = ncomplete(&["info", &bad, "--inputs", "coin"]);
    assert!(o.status.success(), "{}", stderr(&o));

    let bad_dot = scratch("bad.dot");
    std::fs::write(&bad_dot, "digraph {\n  a -> b [label=\"x / y\"\n}\n").unwrap();
    let o = ncomplete(&["convert", &bad_dot, "--to", "yaml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with(&format!("error: {bad_dot}:3:1: found `}}`, expected")),
        "{}",
        stderr(&o)
    );
}

#[test]
fn missing_file_and_unknown_format_exit_2() {
    let o = ncomplete(&["info", "no/such/model.dot"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with("error: no/such/model.dot: "),
        "{}",
        stderr(&o)
    );

    let txt = scratch("model.txt");
    std::fs::write(&txt, "des (0, 0, 1)\n").unwrap();
    let o = ncomplete(&["info", &txt]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("use --model-format aut|dot|yaml|json"));
    let o = ncomplete(&["info", &txt, "--model-format", "aut"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stderr(&o).contains("deprecated"), "{}", stderr(&o));
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(ncomplete(&[]).status.code(), Some(2));
    assert_eq!(ncomplete(&["frobnicate"]).status.code(), Some(2));
    let o = ncomplete(&["convert", &model("vending.aut"), "--to", "xml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unknown format `xml`"),
        "{}",
        stderr(&o)
    );
    let o = ncomplete(&["info", &model("vending.aut"), "--initial", "99"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("has no state named `99`"),
        "{}",
        stderr(&o)
    );
    // Choices are checked by the argument parser, which lists the known ones.
    let vending = model("vending.aut");
    for (args, known) in [
        (
            &["render", "s.json", "--format", "java", "--out", "d"][..],
            "ttcn, rust, python",
        ),
        (&["simulate", &vending, "--choose", "last"], "first, random"),
        (
            &[
                "run",
                "s.json",
                "--model",
                &vending,
                "--input-enable",
                "drop",
            ],
            "reject, self-loop",
        ),
        (
            &["generate", &vending, "--complete", "drop"],
            "self-loop, sink",
        ),
    ] {
        let o = ncomplete(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let expected = format!("[possible values: {known}]");
        assert!(stderr(&o).contains(&expected), "{}", stderr(&o));
    }
}

#[test]
fn warnings_go_to_stderr_unless_quiet() {
    let dot = scratch("nostart.dot");
    std::fs::write(&dot, "digraph {\n  a -> b [label=\"x / y\"]\n}\n").unwrap();
    let o = ncomplete(&["info", &dot]);
    assert!(o.status.success());
    assert_eq!(
        stderr(&o),
        format!(
            "warning: {dot}:2:17: no `__start0 -> STATE` edge and no --initial: taking `a`, the source of the first edge, as the initial state\n"
        )
    );
    let o = ncomplete(&["--quiet", "info", &dot]);
    assert_eq!(stderr(&o), "");
    let o = ncomplete(&["info", &dot, "--quiet"]);
    assert_eq!(stderr(&o), "");
    let o = ncomplete(&["info", &dot, "--initial", "a"]);
    assert_eq!(stderr(&o), "");
}

#[test]
fn convert_writes_suspension_automata_with_explicit_quiescence() {
    let out = scratch("vending_sa.aut");
    let o = ncomplete(&[
        "convert",
        &model("vending.aut"),
        "--suspension",
        "--to",
        "aut",
        "--out",
        &out,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v = figures(&out);
    assert_eq!(v["deterministic"], true);
    assert_eq!(v["internal_labels"], 0);
    assert_eq!(v["quiescence_label"], "delta");
    // idle, {paid, choosing, refunding} (choosing waits for a button) and choosing itself.
    assert_eq!(v["quiescent_states"], 3);
    // The written suspension automaton reads back and converts again to the same figures.
    let again = scratch("vending_sa.yaml");
    let o = ncomplete(&["convert", &out, "--to", "yaml", "--out", &again]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(figures(&again), v);
}
