//! The formats of automata-learning tools end to end: an AALpy Moore DOT, an AALpy ONFSM DOT
//! and FSMlib `.fsm` files each generate a suite that the model's own simulation passes and
//! that fails the non-conforming mutants `mutate` makes of it; `info` names their kind and
//! `convert` moves them between formats.

use std::path::PathBuf;
use std::process::{Command, Output};

fn ncomplete(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ncomplete"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("runs")
}

fn model(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("models")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let d =
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("ncomplete-learned-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn code(o: &Output) -> i32 {
    o.status.code().unwrap_or(-1)
}

fn kind(file: &str) -> String {
    let o = ncomplete(&["info", file, "--json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    v["kind"].as_str().unwrap().to_owned()
}

/// Generates a suite for `file` with `bound` (`--extra-states E` or `--n N` and the method),
/// runs it against the model itself (it must pass) and against every mutant `mutate` writes
/// with `mutate_bound`, adding `mutant_run` to their runs: conforming mutants and mutants whose
/// fault the input/output race hides pass, and every other one fails when the suite is
/// `complete` for the mutants' bound (some when it is not). Returns the number of failing
/// mutants.
fn suite_passes_model_and_fails_mutants(
    file: &str,
    tag: &str,
    generate: &[&str],
    mutate_bound: &[&str],
    mutant_run: &[&str],
    complete: bool,
) -> usize {
    let dir = scratch(tag);
    let suite = dir.join("suite.json");
    let suite = suite.to_str().unwrap();
    let mut args = vec!["generate", file];
    args.extend_from_slice(generate);
    args.extend_from_slice(&["--out", suite]);
    let o = ncomplete(&args);
    assert_eq!(code(&o), 0, "{tag}: generate: {}", stderr(&o));
    let o = ncomplete(&["run", suite, "--model", file]);
    assert_eq!(
        code(&o),
        0,
        "{tag}: the model fails its own suite: {}{}",
        stdout(&o),
        stderr(&o)
    );
    let mutants = dir.join("mutants");
    let mut args = vec!["mutate", file, "--count", "20", "--seed", "5"];
    args.extend_from_slice(mutate_bound);
    args.extend_from_slice(&["--out", mutants.to_str().unwrap()]);
    let o = ncomplete(&args);
    assert_eq!(code(&o), 0, "{tag}: mutate: {}", stderr(&o));
    let index: serde_json::Value =
        serde_json::from_slice(&std::fs::read(mutants.join("index.json")).unwrap()).unwrap();
    let mut failed = 0;
    for m in index["mutants"].as_array().unwrap() {
        let mutant = mutants.join(m["file"].as_str().unwrap());
        let mut args = vec!["run", suite, "--model", mutant.to_str().unwrap()];
        args.extend_from_slice(mutant_run);
        let o = ncomplete(&args);
        if m["conforms"].as_bool().unwrap() {
            assert_eq!(
                code(&o),
                0,
                "{tag}: a conforming mutant fails: {m}: {}",
                stdout(&o)
            );
        } else if m["observable"].as_bool().unwrap() {
            // A suite complete for the mutants' bound fails every observable fault; one below it
            // (`complete == false`) fails some.
            if complete {
                assert_eq!(
                    code(&o),
                    1,
                    "{tag}: a non-conforming mutant passes: {m}: {}{}",
                    stdout(&o),
                    stderr(&o)
                );
            }
            assert!(matches!(code(&o), 0 | 1), "{tag}: {m}: {}", stderr(&o));
            failed += usize::from(code(&o) == 1);
        } else {
            // ioco runs read the input/output race (exec/stdio/): a mutant that outputs where
            // the specification is quiet reads as answering the next input, and when every
            // observation has such a reading (`check --race`) no runner may fail it.
            assert_eq!(
                code(&o),
                0,
                "{tag}: a mutant the race hides fails: {m}: {}",
                stdout(&o)
            );
        }
    }
    assert!(failed > 0, "{tag}: no non-conforming mutant fails");
    failed
}

#[test]
fn aalpy_moore_dot_is_tested_as_its_mealy_translation() {
    let file = model("aalpy_angluin_moore.dot");
    assert_eq!(kind(&file), "moore");
    suite_passes_model_and_fails_mutants(
        &file,
        "moore",
        &["--method", "hsi", "--extra-states", "1"],
        &["--extra-states", "1"],
        &[],
        true,
    );
    // The Mealy methods only: an LTS flag is refused for it like for any Mealy machine, and the
    // text report says how it is tested.
    let o = ncomplete(&["info", &file]);
    assert!(
        stdout(&o).contains("moore (tested as its Mealy translation"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn aalpy_onfsm_is_tested_with_ioco() {
    let file = model("aalpy_benchmark_onfsm.dot");
    assert_eq!(kind(&file), "onfsm");
    let o = ncomplete(&["info", &file]);
    assert!(
        stderr(&o).contains("reading the file as a nondeterministic Mealy machine (ONFSM)"),
        "{}",
        stderr(&o)
    );
    suite_passes_model_and_fails_mutants(
        &file,
        "onfsm",
        &["--method", "ioco-complete", "--n", "1"],
        &["--extra-states", "0"],
        // Mutants are suspension automata, whose states after an input (an output pending)
        // take no input; the suite never sends one there, as its specification waits for the
        // output.
        &["--input-enable", "self-loop"],
        // n = 1 is far below the mutants' 12 states (complete suites at 12 have thousands of
        // tests): some observable faults are missed.
        false,
    );
    // Mealy methods are refused with the methods that apply.
    let out = scratch("onfsm-refused").join("s.json");
    let o = ncomplete(&[
        "generate",
        &file,
        "--method",
        "hsi",
        "--extra-states",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("nondeterministic Mealy machine (ONFSM)")
            && stderr(&o).contains("--method ioco-complete"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn fsmlib_files_generate_suites() {
    for (name, kind_name) in [
        ("fsmlib_Mealy_R4_ADS.fsm", "mealy"),
        ("fsmlib_Moore_R4_ADS.fsm", "moore"),
    ] {
        let file = model(name);
        assert_eq!(kind(&file), kind_name, "{name}");
        suite_passes_model_and_fails_mutants(
            &file,
            name,
            &["--method", "wp", "--extra-states", "1"],
            &["--extra-states", "1"],
            &[],
            true,
        );
    }
}

#[test]
fn conversions_between_the_new_formats() {
    let dir = scratch("convert");
    // Moore: DOT -> fsm -> DOT keeps the machine (up to numbering); .aut is refused.
    let moore = model("aalpy_angluin_moore.dot");
    let fsm = dir.join("m.fsm");
    let o = ncomplete(&[
        "convert",
        &moore,
        "--to",
        "fsm",
        "--out",
        fsm.to_str().unwrap(),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = std::fs::read_to_string(&fsm).unwrap();
    // Outputs are numbered in the order the states first show them: s0's `1` becomes 0.
    assert!(
        text.starts_with("3 0\n4 2 2\n4\n0 0\n1 1\n2 1\n3 1\n"),
        "{text}"
    );
    assert_eq!(kind(fsm.to_str().unwrap()), "moore");
    let o = ncomplete(&["convert", &moore, "--to", "aut"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("no state outputs"), "{}", stderr(&o));
    for to in ["yaml", "json", "dot"] {
        let out = dir.join(format!("m.{to}"));
        let o = ncomplete(&[
            "convert",
            fsm.to_str().unwrap(),
            "--to",
            to,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code(&o), 0, "{to}: {}", stderr(&o));
        assert_eq!(kind(out.to_str().unwrap()), "moore", "{to}");
    }
    // ONFSM: to every format but fsm, and back.
    let onfsm = model("aalpy_benchmark_onfsm.dot");
    for to in ["aut", "yaml", "json", "dot"] {
        let out = dir.join(format!("n.{to}"));
        let o = ncomplete(&[
            "convert",
            &onfsm,
            "--to",
            to,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code(&o), 0, "{to}: {}", stderr(&o));
        assert_eq!(kind(out.to_str().unwrap()), "onfsm", "{to}");
    }
    let o = ncomplete(&["convert", &onfsm, "--to", "fsm"]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("FSMlib .fsm holds deterministic"),
        "{}",
        stderr(&o)
    );
    // FSMlib Mealy to DOT and back to fsm gives the same tables.
    let mealy = model("fsmlib_Mealy_R4_ADS.fsm");
    let dot = dir.join("f.dot");
    let o = ncomplete(&[
        "convert",
        &mealy,
        "--to",
        "dot",
        "--out",
        dot.to_str().unwrap(),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = ncomplete(&["convert", dot.to_str().unwrap(), "--to", "fsm"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("2 0\n4 2 2\n4\n0\t0\t0\n1\t1\t0\n2\t0\t0\n3\t1\t0\n0\t1\t0\n1\t2\t0\n2\t3\t3\n3\t0\t0\n"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn fsm_errors_are_located() {
    let dir = scratch("errors");
    let bad = dir.join("bad.fsm");
    std::fs::write(&bad, "2 0\n2 1 1\n2\n0 0\n1 7\n").unwrap();
    let o = ncomplete(&["info", bad.to_str().unwrap()]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("bad.fsm:5:3: found 7, expected the output of input 0 or -1 (-1..=0)"),
        "{}",
        stderr(&o)
    );
}
