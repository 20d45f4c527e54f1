//! `ncomplete audit`: mutation scores of complete methods, soundness, JSON stability, the SVG
//! chart and range errors.

use std::process::{Command, Output};

fn ncomplete(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ncomplete"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("runs")
}

fn json(out: &Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON")
}

/// Every row of every listed method: all non-conforming mutants detected, none wrongly failed.
fn assert_complete(report: &serde_json::Value, methods: &[&str]) {
    for m in report["methods"].as_array().unwrap() {
        let name = m["method"].as_str().unwrap();
        let rows = m["rows"].as_array().unwrap();
        assert!(!rows.is_empty(), "{name}: {m}");
        for r in rows {
            assert_eq!(r["wrongly_failed"], 0, "{name}: {r}");
            if methods.contains(&name) {
                assert!(r["non_conforming"].as_u64().unwrap() > 0, "{r}");
                assert_eq!(r["detected"], r["non_conforming"], "{name}: {r}");
                assert_eq!(r["score"], 1.0, "{name}: {r}");
            }
        }
    }
}

#[test]
fn mealy_complete_methods_score_one_and_never_fail_conforming_mutants() {
    let out = ncomplete(&[
        "audit",
        "models/coffeemachine.dot",
        "--mutants",
        "40",
        "--seed",
        "3",
        "--extra-states",
        "0..1",
        "--json",
        "--no-time",
    ]);
    let report = json(&out);
    let names: Vec<&str> = report["methods"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["method"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["w", "wp", "hsi", "hads", "uio"]);
    assert_complete(&report, &["w", "wp", "hsi", "hads"]);
}

#[test]
fn ioco_complete_methods_score_one_on_a_suspension_automaton() {
    let out = ncomplete(&[
        "audit",
        "models/vdbos_fig3_1.aut",
        "--mutants",
        "30",
        "--n",
        "4",
        "--method",
        "ioco-complete",
        "--method",
        "ioco-ads",
        "--json",
        "--no-time",
        "--quiet",
    ]);
    let report = json(&out);
    assert_complete(&report, &["ioco-complete"]);
}

#[test]
fn json_is_byte_identical_across_runs_and_the_plot_has_a_series_per_method() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("ncomplete-audit");
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("audit.svg");
    let svg_arg = svg.to_str().unwrap();
    let args = [
        "audit",
        "models/coffeemachine.dot",
        "--mutants",
        "20",
        "--extra-states",
        "0..1",
        "--method",
        "hsi",
        "--method",
        "uio",
        "--json",
        "--no-time",
        "--plot",
        svg_arg,
    ];
    let first = ncomplete(&args);
    let second = ncomplete(&args);
    json(&first);
    assert_eq!(first.stdout, second.stdout);
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg") && text.trim_end().ends_with("</svg>"));
    for name in ["hsi", "uio"] {
        let legend = text.lines().filter(|l| l.trim() == name).count();
        assert_eq!(legend, 2, "legend entries of {name} (one per panel)");
    }
    // Two panels (size and score), one data line (drawn 2 wide) per method in each.
    let series = text
        .split("<polyline")
        .skip(1)
        .filter(|tag| {
            tag.split('>')
                .next()
                .unwrap()
                .contains("stroke-width=\"2\"")
        })
        .count();
    assert_eq!(series, 4, "{text}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_table_names_every_column_and_time() {
    let out = ncomplete(&[
        "audit",
        "models/coffeemachine.dot",
        "--mutants",
        "10",
        "--extra-states",
        "0",
        "--method",
        "w",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for col in [
        "tests",
        "steps",
        "longest",
        "score",
        "wrong-fail",
        "seconds",
    ] {
        assert!(text.contains(col), "{col}: {text}");
    }
}

#[test]
fn bad_ranges_exit_2_with_a_clear_message() {
    for (flag, range, says) in [
        ("--extra-states", "3..1", "is empty"),
        ("--extra-states", "x", "found `x`"),
        ("--n", "0..2", "start at 1"),
    ] {
        let out = ncomplete(&[
            "audit",
            "models/coffeemachine.dot",
            "--mutants",
            "5",
            flag,
            range,
        ]);
        assert_eq!(out.status.code(), Some(2), "{flag} {range}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says) && err.contains(flag), "{err}");
    }
}

#[test]
fn methods_that_do_not_fit_the_model_exit_2() {
    let out = ncomplete(&[
        "audit",
        "models/coffeemachine.dot",
        "--mutants",
        "5",
        "--method",
        "ioco-ads",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("ioco method"));
}

#[test]
fn without_mutants_the_audit_reports_the_sizes_of_the_generated_suites() {
    let report = json(&ncomplete(&[
        "audit",
        "models/coffeemachine.dot",
        "--method",
        "hsi",
        "--extra-states",
        "0..1",
        "--json",
        "--quiet",
    ]));
    let rows = report["methods"][0]["rows"].as_array().unwrap().clone();
    assert_eq!(rows.len(), 2);
    for (e, row) in rows.iter().enumerate() {
        assert_eq!(row["non_conforming"], 0, "{row}");
        let e = e.to_string();
        let suite = json(&ncomplete(&[
            "generate",
            "models/coffeemachine.dot",
            "--method",
            "hsi",
            "--extra-states",
            &e,
            "--quiet",
        ]));
        assert_eq!(
            row["tests"].as_u64().unwrap() as usize,
            suite["tests"].as_array().unwrap().len(),
            "{row}"
        );
    }
}
