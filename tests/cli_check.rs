//! The `check` and `mutate` commands end to end: verdicts and exit statuses on the EVEREST
//! examples and bundled models, positioned errors for bad expressions, and mutants whose recorded
//! verdicts agree with `check`, respect the size bound and are reproducible from the seed.

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

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli_check");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    let _ = std::fs::remove_dir_all(&p);
    p
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

fn code(o: &Output) -> i32 {
    o.status.code().unwrap_or(-1)
}

#[test]
fn ioco_verdicts_and_exit_codes() {
    let (s, r, q) = (
        model("everest_s.aut"),
        model("everest_r.aut"),
        model("everest_q.aut"),
    );
    let o = ncomplete(&["check", &s, &q]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o), format!("conforms: {q} ioco {s}\n"));
    let o = ncomplete(&["check", &s, &r]);
    assert_eq!(code(&o), 1);
    let out = stdout(&o);
    assert!(out.contains("counterexample: ?b !x\n"), "{out}");
    assert!(out.contains("allows only {delta}"), "{out}");
    // uioco agrees here (S is deterministic).
    let o = ncomplete(&["check", &s, &r, "--uioco"]);
    assert_eq!(code(&o), 1);
    assert!(stdout(&o).starts_with(&format!("does not conform: {r} uioco {s}")));
}

/// `check --race`: a tea machine that refunds where tea is due fails ioco, but every observation
/// of it has a reading in the specification (the refund overtook the button), so no tester can
/// see the fault; quiescence where tea is due is seen all the same.
#[test]
fn race_tells_faults_a_tester_can_see_from_those_it_cannot() {
    let spec = model("tea_machine.dot");
    let dir = scratch("race");
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, after_button: &str| {
        let path = dir.join(format!("{name}.dot"));
        std::fs::write(
            &path,
            format!(
                "digraph {name} {{\n  __start0 [label=\"\" shape=\"none\"];\n  __start0 -> idle;\n  \
                 idle -> paid [label=\"?coin\"];\n  paid -> brewing [label=\"?button\"];\n  \
                 paid -> empty [label=\"tau\"];\n  empty -> idle [label=\"!refund\"];\n  {after_button}\n}}\n"
            ),
        )
        .unwrap();
        path.display().to_string()
    };
    let refunds = write("refunds", "brewing -> idle [label=\"!refund\"];");
    let o = ncomplete(&["check", &spec, &refunds, "--missing-inputs", "self-loop"]);
    assert_eq!(code(&o), 1, "{}", stdout(&o));
    assert!(stdout(&o).contains("counterexample: ?coin ?button !refund\n"));
    let o = ncomplete(&[
        "check",
        &spec,
        &refunds,
        "--race",
        "--missing-inputs",
        "self-loop",
    ]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    assert_eq!(
        stdout(&o),
        format!("conforms: {refunds} ioco {spec} through the input/output race\n")
    );
    let silent = write("silent", "brewing -> brewing [label=\"?button\"];");
    let o = ncomplete(&[
        "check",
        &spec,
        &silent,
        "--race",
        "--missing-inputs",
        "self-loop",
    ]);
    assert_eq!(code(&o), 1, "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains("counterexample: ?coin ?button delta\n"),
        "{}",
        stdout(&o)
    );
    // The race is about ioco: refused with the relations it does not decide.
    let o = ncomplete(&["check", &spec, &refunds, "--race", "--uioco"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("--race"), "{}", stderr(&o));
}

#[test]
fn language_conformance_finds_what_ioco_misses() {
    let (s, q) = (model("everest_s.aut"), model("everest_q.aut"));
    let o = ncomplete(&["check", &s, &q, "--desired", "(a|b)* a x"]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(
        stdout(&o).contains("witness: ?a ?b ?a ?b ?a !x\n"),
        "{}",
        stdout(&o)
    );
    // Forbidding what S does not have is fine.
    let o = ncomplete(&["check", &s, &q, "--forbidden", "b x"]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));

    let (a, z) = (model("atm_withdrawal.aut"), model("atm_z.aut"));
    let o = ncomplete(&["check", &a, &z]);
    assert_eq!(code(&o), 2);
    let err = stderr(&o);
    assert!(
        err.starts_with("error: the implementation is not input-enabled"),
        "{err}"
    );
    assert!(
        err.contains("input `wd`") && err.contains("--missing-inputs"),
        "{err}"
    );
    let o = ncomplete(&["check", &a, &z, "--missing-inputs", "cut"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = ncomplete(&["check", &a, &z, "--desired", "ic pin cpi wd amo ins amo"]);
    assert_eq!(code(&o), 1);
    assert!(stdout(&o).contains("witness: ?ic ?pin !cpi ?wd ?amo !ins ?amo\n"));
    // The same D from a file and as a model.
    let dir = scratch("lang");
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("d.re");
    std::fs::write(&f, "ic pin cpi\n  wd amo ins amo\n").unwrap();
    let o = ncomplete(&["check", &a, &z, "--desired-file", f.to_str().unwrap()]);
    assert_eq!(code(&o), 1);
    let m = dir.join("d.aut");
    std::fs::write(
        &m,
        "des (0, 7, 8)\n(0, \"?ic\", 1)\n(1, \"?pin\", 2)\n(2, \"!cpi\", 3)\n(3, \"?wd\", 4)\n(4, \"?amo\", 5)\n(5, \"!ins\", 6)\n(6, \"?amo\", 7)\n",
    )
    .unwrap();
    let o = ncomplete(&["check", &a, &z, "--desired-model", m.to_str().unwrap()]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(stdout(&o).contains("witness: ?ic ?pin !cpi ?wd ?amo !ins ?amo\n"));
}

#[test]
fn bad_expressions_are_positioned() {
    let (s, q) = (model("everest_s.aut"), model("everest_q.aut"));
    let o = ncomplete(&["check", &s, &q, "--desired", "a (b | "]);
    assert_eq!(code(&o), 2);
    assert_eq!(
        stderr(&o),
        "error: --desired:1:8: found end of input, expected a label, `.` or `(`\n"
    );
    let o = ncomplete(&["check", &s, &q, "--forbidden", "a zz"]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).starts_with("error: --forbidden:1:3: found label `zz`, which neither model has"),
        "{}",
        stderr(&o)
    );
    let dir = scratch("badre");
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("bad.re");
    std::fs::write(&f, "a b\n  x ) a\n").unwrap();
    let o = ncomplete(&["check", &s, &q, "--desired-file", f.to_str().unwrap()]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains(&format!("{}:2:5: found `)`", f.display())),
        "{}",
        stderr(&o)
    );
    // Two sources for D are a usage error.
    let o = ncomplete(&["check", &s, &q, "--desired", "a", "--desired-file", "x"]);
    assert_eq!(code(&o), 2);
    let o = ncomplete(&["check", &s, &model("missing.aut")]);
    assert_eq!(code(&o), 2);
}

#[test]
fn mealy_equivalence() {
    let coffee = model("coffeemachine.dot");
    let o = ncomplete(&["check", &coffee, &coffee]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).contains("is equivalent to"));
    // A machine that differs is said not to be equivalent.
    let fixture = |f: &str| format!("{}/tests/fixtures/{f}", env!("CARGO_MANIFEST_DIR"));
    let o = ncomplete(&[
        "check",
        &fixture("toggle.dot"),
        &fixture("toggle-faulty.dot"),
    ]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("does not conform: ")
            && lines[0].ends_with(&format!(
                "toggle-faulty.dot is not equivalent to {}",
                fixture("toggle.dot")
            )),
        "{text}"
    );
    // The word once, then where the machines part.
    assert_eq!(lines[1], "distinguishing inputs: a b", "{text}");
    assert!(lines[2].starts_with("after a/0, on input b "), "{text}");
    assert_eq!(lines.len(), 3, "{text}");
}

fn index(dir: &std::path::Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("index.json")).unwrap()).unwrap()
}

/// Every mutant's recorded verdict is what `check` says, and mutants stay within the bound.
fn audit_mutants(model_file: &str, dir: &std::path::Path, max_states: u64) {
    let idx = index(dir);
    let mutants = idx["mutants"].as_array().unwrap();
    assert!(!mutants.is_empty());
    let (mut conforming, mut failing) = (0, 0);
    for m in mutants {
        let file = dir.join(m["file"].as_str().unwrap());
        assert!(m["states"].as_u64().unwrap() <= max_states, "{m}");
        let o = ncomplete(&["check", model_file, file.to_str().unwrap()]);
        let expected = if m["conforms"].as_bool().unwrap() {
            conforming += 1;
            0
        } else {
            failing += 1;
            1
        };
        assert_eq!(code(&o), expected, "{m}: {}{}", stdout(&o), stderr(&o));
        // The file reads back with the recorded number of states.
        let info = ncomplete(&["info", file.to_str().unwrap(), "--json"]);
        assert!(info.status.success(), "{}", stderr(&info));
    }
    assert!(conforming + failing == mutants.len());
    assert!(failing > 0);
}

fn same_files(a: &std::path::Path, b: &std::path::Path) {
    let mut names: Vec<_> = std::fs::read_dir(a)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    names.sort();
    assert!(names.len() > 1);
    for n in names {
        assert_eq!(
            std::fs::read(a.join(&n)).unwrap(),
            std::fs::read(b.join(&n)).unwrap(),
            "{n:?} differs"
        );
    }
}

#[test]
fn mutate_suspension_automata() {
    let vending = model("vending.aut");
    let (d1, d2, d3) = (scratch("m1"), scratch("m2"), scratch("m3"));
    let args = |d: &PathBuf, seed: &str| -> Output {
        ncomplete(&[
            "mutate",
            &vending,
            "--count",
            "12",
            "--extra-states",
            "2",
            "--seed",
            seed,
            "--out",
            d.to_str().unwrap(),
        ])
    };
    let o = args(&d1, "7");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("wrote 12 mutants of"),
        "{}",
        stdout(&o)
    );
    let idx = index(&d1);
    assert_eq!(idx["relation"], "ioco");
    assert_eq!(idx["seed"], 7);
    let max = idx["max_states"].as_u64().unwrap();
    assert_eq!(max, idx["states"].as_u64().unwrap() + 2);
    audit_mutants(&vending, &d1, max);
    assert_eq!(code(&args(&d2, "7")), 0);
    same_files(&d1, &d2);
    assert_eq!(code(&args(&d3, "8")), 0);
    assert_ne!(
        std::fs::read(d1.join("index.json")).unwrap(),
        std::fs::read(d3.join("index.json")).unwrap()
    );
}

#[test]
fn mutate_mealy_machines() {
    let coffee = model("coffeemachine.dot");
    let d = scratch("mealy");
    let o = ncomplete(&[
        "mutate",
        &coffee,
        "--count",
        "10",
        "--n",
        "7",
        "--seed",
        "1",
        "--out",
        d.to_str().unwrap(),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(index(&d)["relation"], "equivalence");
    audit_mutants(&coffee, &d, 7);
    // The bound must leave room for the model itself.
    let o = ncomplete(&["mutate", &coffee, "--n", "3", "--out", d.to_str().unwrap()]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("smaller than the model's 6 states"),
        "{}",
        stderr(&o)
    );
    let o = ncomplete(&["mutate", &coffee, "--out", d.to_str().unwrap()]);
    assert_eq!(code(&o), 2);
}

/// Every bundled model (LTS, suspension automaton or Mealy machine) yields mutants whose recorded
/// verdicts `check` confirms.
#[test]
fn mutate_every_bundled_model() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("models");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".aut") || n.ends_with(".dot"))
        .collect();
    names.sort();
    assert!(names.len() >= 5);
    for name in names {
        let file = model(&name);
        let out = scratch(&format!("all_{name}"));
        let o = ncomplete(&[
            "mutate",
            &file,
            "--count",
            "25",
            "--extra-states",
            "1",
            "--seed",
            "3",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code(&o), 0, "{name}: {}", stderr(&o));
        let max = index(&out)["max_states"].as_u64().unwrap();
        audit_mutants(&file, &out, max);
    }
}
