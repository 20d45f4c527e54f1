//! Hostile sizes and bytes on the command line (issue 12, items 5 and 6): budgets refuse before
//! allocating, bounds never wrap, deep regular expressions and huge labels give short, positioned
//! errors, byte order marks are accepted and bad bytes located.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn ncomplete(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ncomplete"))
        .args(args)
        .output()
        .expect("runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn fails_with_2(args: &[&str]) -> String {
    let o = ncomplete(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    stderr(&o)
}

fn model(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("models")
        .join(name)
        .display()
        .to_string()
}

fn scratch(name: &str, contents: &[u8]) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("ncomplete-limits");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

#[test]
fn extra_state_bounds_are_refused_before_building_and_never_wrap() {
    let vending = model("vending.aut");
    for e in ["1000000", "4294967295", "18446744073709551615"] {
        let started = std::time::Instant::now();
        let err = fails_with_2(&[
            "generate",
            &vending,
            "--method",
            "ioco-ads",
            "--extra-states",
            e,
        ]);
        assert!(err.contains("exceeds the budget"), "{e}: {err}");
        assert!(
            !err.contains("18446744073709551610"),
            "a saturated bound shown: {err}"
        );
        // Refused from a size computed up front, not after building (1.4 GB and 10 s before).
        assert!(
            started.elapsed().as_secs() < 5,
            "{e} took {:?}",
            started.elapsed()
        );
    }
    let err = fails_with_2(&[
        "mutate",
        &model("coffeemachine.dot"),
        "--extra-states",
        "18446744073709551615",
        "--out",
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join("ncomplete-limits-never")
            .to_str()
            .unwrap(),
    ]);
    assert!(err.contains("exceed"), "{err}");
    assert!(
        !std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join("ncomplete-limits-never")
            .exists()
    );
}

#[test]
fn deep_regular_expressions_give_positioned_errors() {
    let vending = model("vending.aut");
    let deep = format!("{}coin{}", "(".repeat(10_000), ")".repeat(10_000));
    let err = fails_with_2(&["check", &vending, &vending, "--desired", &deep]);
    assert!(
        err.contains("--desired:1:501: found `(` nested more than 500 deep"),
        "{err}"
    );
    // 30,000 stars are one star: the check runs.
    let stars = format!("coin{}", "*".repeat(30_000));
    let o = ncomplete(&["check", &vending, &vending, "--desired", &stars]);
    assert!(
        o.status.code() == Some(0) || o.status.code() == Some(1),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_huge_label_gives_a_short_error() {
    let label = "x".repeat(10_000_000);
    let dot = scratch(
        "huge.dot",
        format!("digraph {{ a -> b [label=\"{label}\"] }}\n").as_bytes(),
    );
    let err = fails_with_2(&["info", dot.to_str().unwrap()]);
    assert!(err.len() < 1_500, "{} bytes", err.len());
    assert!(
        err.contains("huge.dot:1:25: found unmarked label"),
        "{}",
        &err[..200]
    );
    let long_state = format!("s{}", "y".repeat(100_000));
    let err = fails_with_2(&[
        "info",
        &model("coffeemachine.dot"),
        "--initial",
        &long_state,
    ]);
    assert!(err.len() < 1_500, "{} bytes", err.len());
}

#[test]
fn byte_order_marks_and_bad_bytes() {
    let text = std::fs::read(model("vending.aut")).unwrap();
    let with_bom = scratch("bom.aut", &[b"\xef\xbb\xbf".as_slice(), &text].concat());
    let o = ncomplete(&["info", with_bom.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let bad = scratch("bad.json", b"{\"kind\": \"lts\",\n \"initial\": \"s\xff\"}");
    let err = fails_with_2(&["info", bad.to_str().unwrap()]);
    assert!(
        err.contains("bad.json:2:15: found the byte 0xFF, which is not UTF-8"),
        "{err}"
    );
    let suite = scratch("bad.suite.json", b"{\n \"x\xff\": 1}");
    let vending = model("vending.aut");
    let err = fails_with_2(&["run", suite.to_str().unwrap(), "--model", &vending]);
    assert!(
        err.contains("bad.suite.json:2:4: found the byte 0xFF"),
        "{err}"
    );
}

#[test]
fn odd_labels_are_refused_and_convert_refuses_lossy_targets() {
    let newline = scratch(
        "nl.json",
        br#"{"kind": "lts", "inputs": ["a\nb"], "initial": "s", "transitions": []}"#,
    );
    let err = fails_with_2(&["info", newline.to_str().unwrap()]);
    assert!(err.contains("nl.json:1:"), "{err}");
    assert!(err.contains("control character U+000A"), "{err}");
    let empty = scratch(
        "empty.yaml",
        b"kind: mealy\ninputs: ['']\noutputs: [x]\ninitial: s\ntransitions: []\n",
    );
    let err = fails_with_2(&["info", empty.to_str().unwrap()]);
    assert!(err.contains("empty.yaml:2:"), "{err}");
    assert!(err.contains("an empty label name"), "{err}");
    let slash = scratch(
        "slash.json",
        br#"{"kind": "mealy", "inputs": ["a/b"], "outputs": ["x"], "initial": "s",
            "transitions": [{"from": "s", "input": "a/b", "output": "x", "to": "s"}]}"#,
    );
    let s = slash.to_str().unwrap();
    let err = fails_with_2(&["convert", s, "--to", "aut"]);
    assert!(err.contains("cannot convert to aut"), "{err}");
    assert!(ncomplete(&["convert", s, "--to", "yaml"]).status.success());
    // A backslash survives DOT round trips unchanged.
    let backslash = scratch(
        "bs.json",
        br#"{"kind": "mealy", "inputs": ["a\\"], "outputs": ["x\\\\y"], "initial": "s\\",
            "transitions": [{"from": "s\\", "input": "a\\", "output": "x\\\\y", "to": "s\\"}]}"#,
    );
    let once = ncomplete(&["convert", backslash.to_str().unwrap(), "--to", "dot"]);
    assert!(once.status.success(), "{}", stderr(&once));
    let dot = scratch("bs.dot", &once.stdout);
    let twice = ncomplete(&["convert", dot.to_str().unwrap(), "--to", "dot"]);
    assert_eq!(
        String::from_utf8_lossy(&twice.stdout),
        String::from_utf8_lossy(&once.stdout)
    );
    let json = ncomplete(&["convert", dot.to_str().unwrap(), "--to", "json"]);
    let text = String::from_utf8_lossy(&json.stdout);
    assert!(text.contains(r#""x\\\\y""#), "{text}");
}
