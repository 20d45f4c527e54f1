//! Symbolic transition systems end to end (`src/sts/`): the bundled STSs (coffee machine of
//! van den Bos Fig. 1.3, the BRP sender reconstructed from Sec. 4.6, our login protocol) load,
//! validate against `schema/sts-v1.schema.json`, are described by `info`, instantiated by
//! `convert`, and tested through their instantiation: `check` and `explore` find every
//! bundled mutant non-conforming and every refactored variant conforming, over seeds. The
//! STS HTML report is checked in headless Chromium too (`common::browser`).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_ncomplete");

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(BIN)
        .args(args)
        .output()
        .expect("ncomplete runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn dir(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("models/sts")
        .join(sub)
}

fn files(sub: &str) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir(sub))
        .expect("models/sts")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.to_string_lossy().ends_with(".sts.yaml"))
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// The specification a mutant or variant file belongs to: `brp_first.sts.yaml` → `brp.sts.yaml`.
fn spec_of(path: &str) -> String {
    let name = Path::new(path).file_name().unwrap().to_string_lossy();
    let base = name.split(['_', '.']).next().unwrap();
    dir(&format!("{base}.sts.yaml"))
        .to_string_lossy()
        .into_owned()
}

/// A path for scratch file `name` under Cargo's temporary directory for tests (each test uses
/// its own names).
fn temp(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("sts");
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

#[test]
fn bundled_models_validate_against_the_schema_and_are_described_by_info() {
    let schema: serde_json::Value =
        serde_json::from_str(include_str!("../schema/sts-v1.schema.json")).expect("schema");
    let validator = jsonschema::validator_for(&schema).expect("a JSON Schema");
    let all = [files(""), files("mutants"), files("variants")].concat();
    assert_eq!(all.len(), 3 + 12 + 3);
    for path in &all {
        let text = std::fs::read_to_string(path).unwrap();
        let doc: serde_json::Value = serde_yaml_ng::from_str(&text).unwrap();
        let errors: Vec<String> = validator.iter_errors(&doc).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{path}: {errors:?}");
        let (code, out, err) = run(&["info", path]);
        assert_eq!(code, 0, "{path}: {err}");
        assert!(out.contains("kind:            sts"), "{out}");
        assert!(
            out.contains("instantiation:   ") && out.contains(" states, "),
            "{out}"
        );
    }
    let (code, out, _) = run(&["info", "--json", &files("")[0]]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["kind"], "sts");
    assert!(v["instantiation"]["finite"]["states"].as_u64().unwrap() > 0);
}

#[test]
fn check_finds_every_mutant_non_conforming_and_every_variant_conforming() {
    for m in files("mutants") {
        let (code, out, err) = run(&["check", &spec_of(&m), &m]);
        assert_eq!(code, 1, "{m}: {out}{err}");
        assert!(out.contains("does not conform"), "{out}");
    }
    for v in files("variants") {
        let (code, out, err) = run(&["check", &spec_of(&v), &v]);
        assert_eq!(code, 0, "{v}: {out}{err}");
    }
}

#[test]
fn explore_fails_every_mutant_and_never_a_variant_over_seeds() {
    for seed in ["1", "2", "3"] {
        for m in files("mutants") {
            let (code, out, err) = run(&[
                "explore",
                &spec_of(&m),
                "--model",
                &m,
                "--seed",
                seed,
                "--quiet",
            ]);
            assert_eq!(code, 1, "{m} seed {seed}: {out}{err}");
            assert!(out.contains("explore: fail: "), "{out}");
        }
        for v in files("variants").iter().chain(&files("")) {
            let (code, out, err) = run(&[
                "explore",
                &spec_of(v),
                "--model",
                v,
                "--seed",
                seed,
                "--quiet",
            ]);
            assert_eq!(code, 0, "{v} seed {seed}: {out}{err}");
        }
    }
}

#[test]
fn convert_instantiates_and_the_result_reads_back() {
    let spec = dir("login.sts.yaml");
    let out = temp("login.aut");
    let (code, _, err) = run(&[
        "convert",
        spec.to_str().unwrap(),
        "--to",
        "yaml",
        "--out",
        out.with_extension("yaml").to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(out.with_extension("yaml")).unwrap();
    assert!(text.contains("kind: lts"), "{text}");
    assert!(text.contains("idle{tries=0}"), "{text}");
    // The instantiation conforms to the STS both ways.
    let converted = out.with_extension("yaml");
    let (code, _, err) = run(&["check", spec.to_str().unwrap(), converted.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn sts_json_is_recognised_by_its_top_level_key_and_errors_are_positioned() {
    let good = temp("counter.json");
    std::fs::write(
        &good,
        r#"{"sts": 1, "variables": [{"name": "x", "type": "int", "min": 0, "max": 3, "initial": 0}],
 "gates": [{"name": "inc", "kind": "input"}, {"name": "show", "kind": "output", "parameters": [{"name": "v", "type": "int", "min": 0, "max": 3}]}],
 "initial": "idle",
 "switches": [{"from": "idle", "gate": "inc", "guard": "x < 3", "assign": {"x": "x + 1"}, "to": "busy"},
              {"from": "busy", "gate": "show", "guard": "v == x", "to": "idle"}]}"#,
    )
    .unwrap();
    let (code, out, err) = run(&["info", good.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("locations:       2"), "{out}");
    let (code, out, err) = run(&[
        "generate",
        good.to_str().unwrap(),
        "--cover",
        "transitions",
        "--out",
        "-",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("show(3)"), "{out}");

    let bad = temp("bad.sts.yaml");
    std::fs::write(
        &bad,
        "sts: 1\ngates: [{name: a, kind: input}]\ninitial: l\nswitches:\n  - {from: l, gate: a, guard: x > 1, to: l}\n",
    )
    .unwrap();
    let bad = bad.to_str().unwrap();
    for args in [
        vec!["info", bad],
        vec!["generate", bad],
        vec!["check", bad, bad],
    ] {
        let (code, _, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            err.contains("bad.sts.yaml:5:31: found unknown name `x`"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn unbounded_parameters_are_refused_with_advice() {
    let path = temp("open.sts.yaml");
    std::fs::write(
        &path,
        "sts: 1\ngates: [{name: put, kind: input, parameters: [{name: n, type: int, min: 0}]}]\ninitial: l\nswitches:\n  - {from: l, gate: put, to: l}\n",
    )
    .unwrap();
    let (code, out, _) = run(&["info", path.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(
        out.contains("instantiation:   none: parameter `n` of gate `put`"),
        "{out}"
    );
    let (code, _, err) = run(&["generate", path.to_str().unwrap(), "--out", "-"]);
    assert_eq!(code, 2);
    assert!(err.contains("give it bounds"), "{err}");
}

/// `generate --cover switches --out -` of a bundled STS.
fn purposes_of(name: &str) -> (i32, String, String) {
    let spec = dir(&format!("{name}.sts.yaml"));
    run(&[
        "generate",
        spec.to_str().unwrap(),
        "--cover",
        "switches",
        "--out",
        "-",
    ])
}

#[cfg(feature = "smt")]
#[test]
fn generate_cover_switches_writes_purposes_with_full_a_priori_coverage() {
    let schema: serde_json::Value =
        serde_json::from_str(include_str!("../schema/sts-purposes-v1.schema.json"))
            .expect("schema");
    let purposes_schema = jsonschema::validator_for(&schema).expect("a JSON Schema");
    // The schema refuses what it should: a purpose without steps, an unknown direction.
    for bad in [
        r#"{"format":"ncomplete-sts-purposes","version":1,"model":"m","criterion":"c","depth":1,"coverage":{"switches":1,"covered":0,"uncovered":["r"]},"inputs_and_outputs":0,"purposes":[{"steps":[],"constraint":[],"solver":"sat"}]}"#,
        r#"{"format":"ncomplete-sts-purposes","version":1,"model":"m","criterion":"c","depth":1,"coverage":{"switches":1,"covered":1,"uncovered":[]},"inputs_and_outputs":1,"purposes":[{"steps":[{"switch":"r","gate":"g","direction":"sideways","symbols":[],"guard":"true"}],"constraint":[],"solver":"sat"}]}"#,
    ] {
        let v: serde_json::Value = serde_json::from_str(bad).unwrap();
        assert!(!purposes_schema.is_valid(&v), "{bad}");
    }
    for name in ["coffee", "brp", "login"] {
        let (code, out, err) = purposes_of(name);
        assert_eq!(code, 0, "{name}: {err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let complaints: Vec<String> = purposes_schema
            .iter_errors(&v)
            .map(|e| e.to_string())
            .collect();
        assert!(complaints.is_empty(), "{name}: {complaints:?}");
        // Path conditions are simplified: no `x and true`, no `0 + x`.
        assert!(
            !out.contains("and true") && !out.contains("0 + "),
            "{name}: {out}"
        );
        assert_eq!(v["format"], "ncomplete-sts-purposes");
        assert_eq!(v["version"], 1);
        assert_eq!(
            v["coverage"]["covered"], v["coverage"]["switches"],
            "{name}: {out}"
        );
        assert!(err.contains("a priori switch coverage"), "{err}");
        // Purposes are written longest first.
        let lengths: Vec<usize> = v["purposes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["steps"].as_array().unwrap().len())
            .collect();
        assert!(lengths.windows(2).all(|w| w[0] >= w[1]), "{lengths:?}");
        if name == "login" {
            // The right unlock code is a constraint for the solver, not left to chance.
            assert!(out.contains("code_") && out.contains("== 42"), "{out}");
        }
    }
}

#[cfg(not(feature = "smt"))]
#[test]
fn generate_cover_switches_without_smt_says_how_to_enable_it() {
    let (code, _, err) = purposes_of("login");
    assert_eq!(code, 2);
    assert!(err.contains("--features smt"), "{err}");
}

/// `explore SPEC --cover switches` against `system` (`--model IMPL` or `--sut CMD`).
#[cfg(feature = "smt")]
fn explore_purposes(spec: &str, system: &[&str], extra: &[&str]) -> (i32, String, String) {
    let mut args = vec!["--quiet", "explore", spec, "--cover", "switches"];
    args.extend_from_slice(system);
    args.extend_from_slice(extra);
    run(&args)
}

#[cfg(feature = "smt")]
fn stem(path: &str) -> String {
    let name = Path::new(path).file_name().unwrap().to_string_lossy();
    name.trim_end_matches(".sts.yaml").to_owned()
}

#[cfg(feature = "smt")]
#[test]
fn switch_purposes_pass_the_specification_with_full_a_posteriori_coverage() {
    for name in ["coffee", "brp", "login"] {
        let spec = dir(&format!("{name}.sts.yaml"));
        let spec = spec.to_str().unwrap();
        let switches = ncomplete::sts::load_sts(spec).unwrap().switches.len();
        for seed in ["0", "1", "2"] {
            let (code, out, err) =
                explore_purposes(spec, &["--model", spec], &["--seed", seed, "--rounds", "2"]);
            assert_eq!(code, 0, "{name} seed {seed}: {out}{err}");
            assert!(
                out.contains(&format!(
                    "a posteriori switch coverage {switches}/{switches} (100.0%)"
                )),
                "{name} seed {seed}: {out}"
            );
            assert!(out.ends_with("verdict: pass\n"), "{out}");
        }
    }
}

/// Mutants whose fault no switch-coverage purpose of the bundled models reaches: the fault
/// needs a path longer than the shortest one per switch (BRP's third or fourth frame, a login
/// after a successful one). They show that switch coverage is a selection criterion, not
/// n-completeness; `check` and `explore` of the instantiation find them (the tests above), and
/// so do the switch-pair purposes (below).
#[cfg(feature = "smt")]
const MISSED_BY_SWITCH_COVERAGE: [&str; 3] = ["brp_last", "brp_last_dk", "login_assign"];

#[cfg(feature = "smt")]
#[test]
fn switch_purposes_fail_every_mutant_they_reach_and_never_a_variant() {
    for mutant in files("mutants") {
        let name = stem(&mutant);
        let spec = spec_of(&mutant);
        let mut failing = None;
        for seed in ["0", "1", "2"] {
            let (code, out, err) = explore_purposes(
                &spec,
                &["--model", &mutant],
                &["--seed", seed, "--rounds", "8"],
            );
            assert!(code == 0 || code == 1 || code == 3, "{name}: {out}{err}");
            if code == 1 {
                failing = Some(out);
                break;
            }
        }
        if MISSED_BY_SWITCH_COVERAGE.contains(&name.as_str()) {
            assert!(
                failing.is_none(),
                "{name} is now detected by switch coverage: update MISSED_BY_SWITCH_COVERAGE and the docs\n{failing:?}"
            );
        } else {
            let out = failing.unwrap_or_else(|| panic!("{name}: no seed detected it"));
            assert!(
                out.contains(": fail after") && out.contains("  trace: "),
                "{out}"
            );
            assert!(out.ends_with("verdict: fail\n"), "{out}");
        }
    }
    for variant in files("variants") {
        let spec = spec_of(&variant);
        for seed in ["0", "1", "2", "3", "4"] {
            let (code, out, err) = explore_purposes(
                &spec,
                &["--model", &variant],
                &["--seed", seed, "--rounds", "3"],
            );
            assert!(code == 0 || code == 3, "{variant} seed {seed}: {out}{err}");
        }
    }
}

/// `generate SPEC --cover switch-pairs` into a file named after `tag`, checked against the
/// schema and for full a priori coverage; the file's path.
#[cfg(feature = "smt")]
fn switch_pair_purposes(name: &str, tag: &str) -> String {
    let schema: serde_json::Value =
        serde_json::from_str(include_str!("../schema/sts-purposes-v1.schema.json"))
            .expect("schema");
    let purposes_schema = jsonschema::validator_for(&schema).expect("a JSON Schema");
    let spec = dir(&format!("{name}.sts.yaml"));
    let file = temp(&format!("{name}-{tag}-pairs.json"));
    let file = file.to_str().unwrap();
    let (code, out, err) = run(&[
        "generate",
        spec.to_str().unwrap(),
        "--cover",
        "switch-pairs",
        "--out",
        file,
    ]);
    assert_eq!(code, 0, "{name}: {out}{err}");
    assert!(
        err.contains("a priori switch-pairs coverage") && err.contains("(100.0%) (pairs"),
        "{name}: {err}"
    );
    let text = std::fs::read_to_string(file).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let complaints: Vec<String> = purposes_schema
        .iter_errors(&v)
        .map(|e| e.to_string())
        .collect();
    assert!(complaints.is_empty(), "{name}: {complaints:?}");
    assert_eq!(v["cover"], "switch-pairs");
    assert_eq!(
        v["coverage"]["covered"], v["coverage"]["switches"],
        "{text}"
    );
    assert_eq!(
        v["item_coverage"]["covered"], v["item_coverage"]["items"],
        "{text}"
    );
    if name == "brp" {
        // Pairs and the chunk index at its bound: the fourth frame and a lost last chunk of
        // four (BRP's longest purposes), which switch coverage never reaches.
        let paths: Vec<Vec<&str>> = v["purposes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                p["steps"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|s| s["switch"].as_str().unwrap())
                    .collect()
            })
            .collect();
        let chunks = |p: &Vec<&str>| p.iter().filter(|&&k| k == "next_chunk").count();
        assert!(
            paths
                .iter()
                .any(|p| chunks(p) == 3 && p.last() == Some(&"give_up_last")),
            "{paths:?}"
        );
        // The file length is pinned where the path alone leaves it free.
        assert!(text.contains("\"pins\""), "{text}");
    }
    file.to_owned()
}

#[cfg(feature = "smt")]
#[test]
fn switch_pair_purposes_pass_the_specification_with_full_a_posteriori_coverage() {
    for name in ["coffee", "brp", "login"] {
        let purposes = switch_pair_purposes(name, "spec");
        let spec = dir(&format!("{name}.sts.yaml"));
        let spec = spec.to_str().unwrap();
        let report = temp(&format!("{name}-pairs-run.json"));
        let (code, out, err) = run(&[
            "--quiet",
            "explore",
            spec,
            "--purposes",
            &purposes,
            "--model",
            spec,
            "--seed",
            "0",
            // The coffee machine may fail to brew: a second round passes what the first left
            // inconclusive (seeded, so the same every time).
            "--rounds",
            "2",
            "--out",
            report.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{name}: {out}{err}");
        assert!(out.contains("a posteriori switch coverage"), "{out}");
        let line = out
            .lines()
            .find(|l| l.starts_with("a posteriori switch-pairs coverage"))
            .unwrap_or_else(|| panic!("{name}: {out}"));
        assert!(line.contains("(100.0%)"), "{name}: {line}");
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
        let items = &v["a_posteriori_item_coverage"];
        assert_eq!(items["criterion"], "switch-pairs");
        assert_eq!(items["exercised"], items["items"], "{name}: {v}");
    }
}

#[cfg(feature = "smt")]
#[test]
fn switch_pair_purposes_fail_every_mutant_and_never_a_variant() {
    let purposes: Vec<(String, String)> = ["coffee", "brp", "login"]
        .into_iter()
        .map(|name| {
            let file = switch_pair_purposes(name, "mutants");
            (
                dir(&format!("{name}.sts.yaml"))
                    .to_string_lossy()
                    .into_owned(),
                file,
            )
        })
        .collect();
    let file_of = |spec: &str| {
        purposes
            .iter()
            .find(|(s, _)| s == spec)
            .map(|(_, f)| f.clone())
            .unwrap()
    };
    let mutants = files("mutants");
    assert_eq!(mutants.len(), 12);
    for mutant in mutants {
        let spec = spec_of(&mutant);
        let file = file_of(&spec);
        // The three switch coverage misses are found in the first round whatever the seed
        // (the path and its pins decide); a guard fault on one value (login_guard's PIN 3) is
        // found by the solver's random values over rounds.
        let mut failing = None;
        for seed in ["0", "1", "2"] {
            let (code, out, err) = run(&[
                "--quiet",
                "explore",
                &spec,
                "--purposes",
                &file,
                "--model",
                &mutant,
                "--seed",
                seed,
                "--rounds",
                if MISSED_BY_SWITCH_COVERAGE.contains(&stem(&mutant).as_str()) {
                    "1"
                } else {
                    "8"
                },
            ]);
            assert!(code == 0 || code == 1 || code == 3, "{mutant}: {out}{err}");
            if code == 1 {
                failing = Some(out);
                break;
            }
            assert!(
                !MISSED_BY_SWITCH_COVERAGE.contains(&stem(&mutant).as_str()),
                "{mutant} seed {seed}: {out}"
            );
        }
        let out = failing.unwrap_or_else(|| panic!("{mutant}: no seed detected it"));
        assert!(out.ends_with("verdict: fail\n"), "{out}");
    }
    for variant in files("variants") {
        let spec = spec_of(&variant);
        let (code, out, err) = run(&[
            "--quiet",
            "explore",
            &spec,
            "--purposes",
            &file_of(&spec),
            "--model",
            &variant,
            "--seed",
            "3",
        ]);
        assert!(code == 0 || code == 3, "{variant}: {out}{err}");
    }
}

/// The quiescence timeout against `ncomplete simulate` of an STS: each of its outputs costs solver
/// calls, which a loaded machine (a parallel test run) can stretch past the default 200 ms.
#[cfg(feature = "smt")]
const SLOW_QUIESCENCE_MS: &str = "2000";

#[cfg(feature = "smt")]
#[test]
fn purposes_run_against_simulated_processes_even_with_unbounded_data() {
    // A purposes file from `generate`, executed against `ncomplete simulate` of the model.
    let brp = dir("brp.sts.yaml");
    let brp = brp.to_str().unwrap();
    let file = temp("brp-purposes.json");
    let (code, _, err) = run(&[
        "--quiet",
        "generate",
        brp,
        "--cover",
        "switches",
        "--out",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let sut = format!("{BIN} simulate {brp} --choose random --seed 5");
    let report = temp("brp-run.json");
    let (code, out, err) = run(&[
        "--quiet",
        "explore",
        brp,
        "--purposes",
        file.to_str().unwrap(),
        "--sut",
        &sut,
        "--out",
        report.to_str().unwrap(),
        "--quiescence-ms",
        SLOW_QUIESCENCE_MS,
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(json["format"], "ncomplete-sts-run");
    assert_eq!(json["verdict"], "pass");
    assert_eq!(
        json["a_posteriori_coverage"]["exercised"],
        json["a_posteriori_coverage"]["switches"]
    );
    // A mutant simulated as a process fails: its coffee is out of the specified range. (Not
    // `coffee_switch`: whether its extra `error!` comes before `button?` is sent depends on
    // the process's timing, and after it the output is allowed.)
    let coffee = dir("coffee.sts.yaml");
    let mutant = dir("mutants/coffee_guard.sts.yaml");
    // Seed 2: the simulator brews (with seed 1 it reports `error!` at every attempt).
    let sut = format!(
        "{BIN} simulate {} --choose random --seed 2",
        mutant.display()
    );
    let (code, out, _) = explore_purposes(
        coffee.to_str().unwrap(),
        &["--sut", &sut],
        &["--quiescence-ms", SLOW_QUIESCENCE_MS],
    );
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("!coffee"), "{out}");
    // Unbounded parameters: no instantiation is possible, purposes and simulation still run.
    let unbounded = temp("unbounded.sts.yaml");
    std::fs::write(
        &unbounded,
        "sts: 1
variables: [{name: x, type: int, initial: 0}]
gates:
  - {name: put, kind: input, parameters: [{name: p, type: int}]}
  - {name: get, kind: output, parameters: [{name: q, type: int}]}
initial: a
switches:
  - {name: big, from: a, gate: put, guard: p > 100000, assign: {x: p}, to: b}
  - {name: small, from: a, gate: put, guard: p < -5, assign: {x: 0 - p}, to: b}
  - {name: echo, from: b, gate: get, guard: q > x and q < x + 3, to: a}
",
    )
    .unwrap();
    let u = unbounded.to_str().unwrap();
    let sut = format!("{BIN} simulate {u} --choose random --seed 2");
    let (code, out, err) = explore_purposes(
        u,
        &["--sut", &sut],
        &["--seed", "4", "--quiescence-ms", SLOW_QUIESCENCE_MS],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("coverage 3/3 (100.0%)"), "{out}");
    // An off-by-one system fails: it answers x + 3.
    let wrong = temp("unbounded_wrong.sts.yaml");
    std::fs::write(
        &wrong,
        std::fs::read_to_string(&unbounded)
            .unwrap()
            .replace("q < x + 3", "q < x + 4 and q > x + 2"),
    )
    .unwrap();
    let sut = format!("{BIN} simulate {} --seed 2", wrong.display());
    let (code, out, _) = explore_purposes(u, &["--sut", &sut], &[]);
    assert_eq!(code, 1, "{out}");
}

/// A conforming STS whose outputs compete with inputs: in `idle` it may write `note` while the
/// tester sends `ping`, in `busy` `pong` while it sends `cancel`; switch-pair purposes send
/// up to three inputs in a row (`ask drop ask`), so several inputs can be unread at once.
#[cfg(feature = "smt")]
const RACE_STS: &str = "sts: 1
name: race
variables:
  - {name: k, type: int, min: 0, max: 3, initial: 0}
  - {name: v, type: int, min: 0, max: 9, initial: 0}
gates:
  - {name: ping, kind: input, parameters: [{name: x, type: int, min: 0, max: 9}]}
  - {name: cancel, kind: input}
  - {name: pong, kind: output, parameters: [{name: y, type: int, min: 0, max: 9}]}
  - {name: note, kind: output, parameters: [{name: n, type: int, min: 0, max: 3}]}
initial: idle
switches:
  - {name: ask, from: idle, gate: ping, assign: {v: x}, to: busy}
  - {name: answer, from: busy, gate: pong, guard: y == v, to: idle}
  - {name: drop, from: busy, gate: cancel, to: idle}
  - {name: tick, from: idle, gate: note, guard: n == k and k < 3, assign: {k: k + 1}, to: idle}
  - {name: ignore, from: idle, gate: cancel, to: idle}
";

/// `explore --cover switch-pairs` of [`RACE_STS`] against `simulate --delay-ms D` of itself,
/// for each delay in parallel: the exit statuses and reports of the failing runs.
#[cfg(feature = "smt")]
fn race_sweep(delays: &[u64], seeds: &[&str]) -> Vec<String> {
    let model = temp("race.sts.yaml");
    std::fs::write(&model, RACE_STS).unwrap();
    let model = model.to_str().unwrap();
    std::thread::scope(|scope| {
        let runs: Vec<_> = delays
            .iter()
            .flat_map(|d| seeds.iter().map(move |s| (*d, *s)))
            .map(|(delay, seed)| {
                scope.spawn(move || {
                    let sut = format!(
                        "{BIN} simulate {model} --choose random --seed {seed} --delay-ms {delay}"
                    );
                    let (code, out, err) = run(&[
                        "--quiet",
                        "explore",
                        model,
                        "--cover",
                        "switch-pairs",
                        "--sut",
                        &sut,
                        "--seed",
                        seed,
                        "--quiescence-ms",
                        SLOW_QUIESCENCE_MS,
                    ]);
                    assert!(
                        code == 0 || code == 1 || code == 3,
                        "delay {delay}: {out}{err}"
                    );
                    (code == 1).then(|| format!("delay {delay} ms, seed {seed}: {out}"))
                })
            })
            .collect();
        runs.into_iter().filter_map(|r| r.join().unwrap()).collect()
    })
}

/// Soundness against a slow real process, swept over its output delay: outputs that overtake
/// several unread inputs never fail a conforming system.
#[cfg(feature = "smt")]
#[test]
fn purposes_never_fail_a_conforming_process_whatever_its_output_delay() {
    let failures = race_sweep(&[0, 10, 20, 30], &["1"]);
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The longer sweep: every 2 ms from 0 to 30, three seeds (`cargo test --features smt --test
/// sts -- --ignored`).
#[cfg(feature = "smt")]
#[test]
#[ignore]
fn purposes_never_fail_a_conforming_process_over_a_fine_delay_sweep() {
    let delays: Vec<u64> = (0..=30).step_by(2).collect();
    for chunk in delays.chunks(4) {
        let failures = race_sweep(chunk, &["1", "2", "3"]);
        assert!(failures.is_empty(), "{failures:#?}");
    }
}

/// Every quote of an HTML document delimits an attribute: an even number per tag, so no model
/// text opened or closed one.
#[cfg(feature = "smt")]
fn assert_tags_balanced(html: &str) {
    for tag in html.split('<').skip(1) {
        let tag = tag.split('>').next().unwrap();
        assert_eq!(tag.matches('"').count() % 2, 0, "{tag}");
    }
}

#[cfg(feature = "smt")]
#[test]
fn explore_html_report_shows_verdict_traces_failure_reason_and_switch_coverage() {
    let coffee = dir("coffee.sts.yaml");
    let coffee = coffee.to_str().unwrap();
    let switches = ncomplete::sts::load_sts(coffee).unwrap().switches.len();
    // The specification against itself: pass, every purpose's trace with the water poured
    // and the coffee brewed, full a posteriori coverage, the guards as written (escaped).
    let html_path = temp("coffee-pass.html");
    let html_arg = html_path.to_str().unwrap();
    let (code, out, err) = explore_purposes(
        coffee,
        &["--model", coffee],
        &["--seed", "3", "--html", html_arg],
    );
    assert_eq!(code, 0, "{out}{err}");
    let html = std::fs::read_to_string(&html_path).unwrap();
    assert!(html.contains("<p id=\"verdict\" class=\"badge pass\">pass</p>"));
    let figure = format!("{switches}/{switches} (100.0%)");
    assert!(out.contains(&figure), "{out}");
    assert!(
        html.contains(&format!(
            "A posteriori switch coverage: <b id=\"switches-covered\">{figure}</b>"
        )),
        "{html}"
    );
    assert_eq!(html.matches("<tr id=\"switch-").count(), switches);
    assert_eq!(
        html.matches("class=\"covered\"><td class=\"name\">")
            .count(),
        switches
    );
    assert!(!html.contains("id=\"switches-missed\""));
    // One row per purpose, each with its trace: concrete water amounts and coffee values.
    let purposes = out.lines().filter(|l| l.starts_with("purpose ")).count();
    assert!(purposes > 1, "{out}");
    assert_eq!(html.matches("<code class=\"trace\">").count(), purposes);
    let with_value = |gate: &str| {
        html.match_indices(gate)
            .any(|(i, _)| html[i + gate.len()..].starts_with(|c: char| c.is_ascii_digit()))
    };
    assert!(with_value("?water(") && with_value("!coffee("), "{html}");
    assert!(
        html.contains("<code>c &gt;= t - 5 and c &lt;= t</code>"),
        "{html}"
    );
    assert!(html.contains("<code>t := t + w</code>"));
    assert!(!html.contains("c <= t"));
    assert_tags_balanced(&html);
    // A model in process gives the same report for the same seed.
    let again = temp("coffee-pass-again.html");
    let (code, _, _) = explore_purposes(
        coffee,
        &["--model", coffee],
        &["--seed", "3", "--html", again.to_str().unwrap()],
    );
    assert_eq!(code, 0);
    assert_eq!(std::fs::read_to_string(&again).unwrap(), html);

    // A mutant brewing too little coffee: fail, with the reason and the failing trace drawn.
    let mutant = dir("mutants/coffee_guard.sts.yaml");
    let html_path = temp("coffee-fail.html");
    let json_path = temp("coffee-fail.json");
    let failing = ["0", "1", "2", "3", "4"].into_iter().find(|seed| {
        let (code, out, err) = explore_purposes(
            coffee,
            &["--model", mutant.to_str().unwrap()],
            &[
                "--seed",
                seed,
                "--rounds",
                "3",
                "--html",
                html_path.to_str().unwrap(),
                "--out",
                json_path.to_str().unwrap(),
            ],
        );
        assert!(code == 0 || code == 1 || code == 3, "{out}{err}");
        code == 1
    });
    assert!(failing.is_some(), "no seed detected coffee_guard");
    let html = std::fs::read_to_string(&html_path).unwrap();
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json_path).unwrap()).unwrap();
    let failed = json["purposes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["verdict"] == "fail")
        .unwrap();
    let reason = failed["reason"].as_str().unwrap();
    assert!(reason.contains("which the STS does not allow"), "{reason}");
    assert!(html.contains("<p id=\"verdict\" class=\"badge fail\">fail</p>"));
    assert!(
        html.contains(&format!("<p class=\"failure\">{reason}</p>")),
        "{reason}\n{html}"
    );
    assert!(html.contains("<g class=\"step fail\">"), "{html}");
    let last = failed["trace"].as_array().unwrap().last().unwrap();
    assert!(last.as_str().unwrap().starts_with("!coffee("), "{last}");
    assert!(html.contains(&format!(
        "inputs and outputs to failure</th><td>{}</td>",
        json["inputs_and_outputs_to_failure"]
    )));
    let exercised = json["a_posteriori_coverage"]["exercised"].as_u64().unwrap();
    assert!(html.contains(&format!(
        "<b id=\"switches-covered\">{exercised}/{switches} ("
    )));
    assert_tags_balanced(&html);

    // A browser shows it: the verdict, the reason, the failing step and the coverage figure
    // are in the DOM Chromium builds from the page, and a screenshot is kept.
    let Some(browser) = common::browser::chromium("the STS HTML report") else {
        return;
    };
    let profile = temp("chromium-profile");
    let dom = common::browser::headless(browser, &html_path, &profile, &["--dump-dom"]);
    assert!(
        dom.contains("<p id=\"verdict\" class=\"badge fail\">fail</p>"),
        "{dom}"
    );
    assert!(
        dom.contains(&format!("<p class=\"failure\">{reason}</p>")),
        "{dom}"
    );
    assert!(dom.contains("<g class=\"step fail\">"), "{dom}");
    assert!(
        dom.contains(&format!(
            "<b id=\"switches-covered\">{exercised}/{switches} ("
        )),
        "{dom}"
    );
    assert_eq!(dom.matches("<tr id=\"switch-").count(), switches, "{dom}");
    common::browser::screenshot(browser, &html_path, &profile, "sts-report-failing.png");
}

#[cfg(feature = "smt")]
#[test]
fn sts_html_reports_escape_model_and_system_text() {
    // Location and switch names are free text; guards hold `<` and `&&`-like operators.
    let model = temp("hostile.sts.yaml");
    std::fs::write(
        &model,
        r#"sts: 1
name: "<b>&\"x\""
variables: [{name: v, type: int, min: 0, max: 5, initial: 0}]
gates:
  - {name: put, kind: input, parameters: [{name: p, type: int, min: 0, max: 5}]}
  - {name: get, kind: output, parameters: [{name: q, type: int, min: 0, max: 5}]}
initial: "<idle & 'ready'>"
switches:
  - {name: "go<&>", from: "<idle & 'ready'>", gate: put, guard: p < 3, assign: {v: p}, to: "\"busy\""}
  - {name: back, from: "\"busy\"", gate: get, guard: q == v and q <= 2, to: "<idle & 'ready'>"}
"#,
    )
    .unwrap();
    let model = model.to_str().unwrap();
    let html_path = temp("hostile.html");
    let (code, out, err) = explore_purposes(
        model,
        &["--model", model],
        &["--html", html_path.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{out}{err}");
    let html = std::fs::read_to_string(&html_path).unwrap();
    assert!(!html.contains("<b>&") && !html.contains("<idle") && !html.contains("go<&>"));
    assert!(html.contains("&lt;b&gt;&amp;&quot;x&quot;"), "{html}");
    assert!(
        html.contains("&lt;idle &amp; &#39;ready&#39;&gt;"),
        "{html}"
    );
    assert!(html.contains("go&lt;&amp;&gt;"));
    assert!(html.contains("<code>p &lt; 3</code>"));
    assert_tags_balanced(&html);
    // A system writing markup: its line is the failure reason and the trace, escaped.
    let html_path = temp("hostile-system.html");
    let (code, out, err) = explore_purposes(
        model,
        &["--sut", "echo '<script>&amp;'; cat >/dev/null"],
        &[
            "--html",
            html_path.to_str().unwrap(),
            "--quiescence-ms",
            SLOW_QUIESCENCE_MS,
        ],
    );
    assert_eq!(code, 1, "{out}{err}");
    let html = std::fs::read_to_string(&html_path).unwrap();
    assert!(!html.to_lowercase().contains("<script"), "{html}");
    assert!(html.contains("!&lt;script&gt;&amp;amp;"), "{html}");
    assert!(html.contains("no output gate value of the STS"), "{html}");
    assert_tags_balanced(&html);
    // The report is never written over an input.
    let (code, _, err) = run(&[
        "--quiet",
        "explore",
        model,
        "--purposes",
        model,
        "--model",
        model,
        "--html",
        model,
    ]);
    assert_eq!(code, 2, "{err}");
}

/// An STS whose gate parameters [`twin`] bounds or not (`BOUNDS_P`, `BOUNDS_Q`), with the same
/// name and switches either way: switch-pair coverage can search the bounded one only.
#[cfg(feature = "smt")]
const TWIN_STS: &str = "sts: 1
name: twin
variables:
  - {name: n, type: int, min: 0, max: 2, initial: 0}
  - {name: v, type: int, initial: 0}
gates:
  - {name: put, kind: input, parameters: [{name: p, type: int BOUNDS_P}]}
  - {name: ack, kind: output, parameters: [{name: q, type: int BOUNDS_Q}]}
  - {name: clear, kind: input}
initial: idle
switches:
  - {name: store, from: idle, gate: put, guard: n < 2, assign: {n: n + 1, v: p}, to: busy}
  - {name: echo, from: busy, gate: ack, guard: q == v + 1, to: idle}
  - {name: wipe, from: idle, gate: clear, assign: {n: 0}, to: idle}
";

/// [`TWIN_STS`] in the temporary file `name`, its parameters bounded or not, `echo`'s guard
/// replaced by `echo` (a mutant); the file's path.
#[cfg(feature = "smt")]
fn twin(name: &str, bounded: bool, echo: &str) -> String {
    let (p, q) = if bounded {
        (", min: 0, max: 8", ", min: 0, max: 9")
    } else {
        ("", "")
    };
    let path = temp(name);
    std::fs::write(
        &path,
        TWIN_STS
            .replace(" BOUNDS_P", p)
            .replace(" BOUNDS_Q", q)
            .replace("q == v + 1", echo),
    )
    .unwrap();
    path.to_string_lossy().into_owned()
}

#[cfg(feature = "smt")]
#[test]
fn purposes_files_run_on_unbounded_domains_and_give_the_files_item_coverage() {
    let unbounded = twin("twin-unbounded.sts.yaml", false, "q == v + 1");
    let mutant = twin("twin-mutant.sts.yaml", false, "q == v + 2");
    // Switch coverage: purposes generated from the unbounded STS, executed from the file
    // against the simulated specification (pass, every switch) and a simulated mutant (fail).
    let switches_file = temp("twin-switches.json");
    let switches_file = switches_file.to_str().unwrap();
    let (code, _, err) = run(&[
        "--quiet",
        "generate",
        &unbounded,
        "--cover",
        "switches",
        "--out",
        switches_file,
    ]);
    assert_eq!(code, 0, "{err}");
    let simulated = |model: &str| format!("{BIN} simulate {model} --choose random --seed 3");
    let explore_file = |file: &str, system: &[&str], extra: &[&str]| {
        let mut args = vec!["--quiet", "explore", &unbounded, "--purposes", file];
        args.extend_from_slice(system);
        args.extend_from_slice(extra);
        run(&args)
    };
    // `run` is for suites: a purposes file is refused with the command that executes it.
    let (code, _, err) = run(&["run", switches_file, "--model", &unbounded]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("explore MODEL.sts.yaml --purposes"), "{err}");
    let sut = simulated(&unbounded);
    let (code, out, err) = explore_file(
        switches_file,
        &["--sut", &sut],
        &["--quiescence-ms", SLOW_QUIESCENCE_MS],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("a posteriori switch coverage 3/3 (100.0%)"),
        "{out}"
    );
    assert!(out.ends_with("verdict: pass\n"), "{out}");
    let sut = simulated(&mutant);
    let (code, out, err) = explore_file(
        switches_file,
        &["--sut", &sut],
        &["--quiescence-ms", SLOW_QUIESCENCE_MS],
    );
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("!ack(") && out.ends_with("verdict: fail\n"),
        "{out}"
    );

    // Switch-pair coverage needs the feasible items, found over the semantic states: refused on
    // the unbounded STS, written for its bounded twin (same name and switches).
    let (code, _, err) = run(&[
        "--quiet",
        "generate",
        &unbounded,
        "--cover",
        "switch-pairs",
        "--out",
        "-",
    ]);
    assert_eq!(code, 2, "{err}");
    let bounded = twin("twin-bounded.sts.yaml", true, "q == v + 1");
    let pairs_file = temp("twin-pairs.json");
    let pairs_file = pairs_file.to_str().unwrap();
    let (code, _, err) = run(&[
        "--quiet",
        "generate",
        &bounded,
        "--cover",
        "switch-pairs",
        "--out",
        pairs_file,
    ]);
    assert_eq!(code, 0, "{err}");
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(pairs_file).unwrap()).unwrap();
    let feasible = doc["item_coverage"]["feasible"].as_array().unwrap().len();
    assert!(feasible >= 4, "{doc}");
    // The file's items, executed against the unbounded STS: its a posteriori item coverage is
    // counted against the file's `feasible` list, with no search of the model.
    let report = temp("twin-pairs-run.json");
    let html = temp("twin-pairs-run.html");
    let (code, out, err) = explore_file(
        pairs_file,
        &["--model", &unbounded],
        &[
            "--out",
            report.to_str().unwrap(),
            "--html",
            html.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{out}{err}");
    let figure = format!("{feasible}/{feasible} (100.0%)");
    assert!(
        out.contains(&format!("a posteriori switch-pairs coverage {figure}")),
        "{out}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(json["verdict"], "pass");
    assert_eq!(json["a_posteriori_item_coverage"]["items"], feasible);
    assert_eq!(json["a_posteriori_item_coverage"]["exercised"], feasible);
    let html = std::fs::read_to_string(&html).unwrap();
    assert!(
        html.contains(&format!("<b id=\"items-covered\">{figure}</b>")),
        "{html}"
    );
    let (code, out, err) = explore_file(pairs_file, &["--model", &mutant], &["--rounds", "2"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.ends_with("verdict: fail\n"), "{out}");
    // The figure is the file's: with one item fewer listed, one item fewer is counted.
    let mut fewer = doc.clone();
    fewer["item_coverage"]["feasible"]
        .as_array_mut()
        .unwrap()
        .pop();
    let fewer_file = temp("twin-pairs-fewer.json");
    std::fs::write(&fewer_file, fewer.to_string()).unwrap();
    let (code, out, err) =
        explore_file(fewer_file.to_str().unwrap(), &["--model", &unbounded], &[]);
    assert_eq!(code, 0, "{out}{err}");
    let less = feasible - 1;
    assert!(
        out.contains(&format!(
            "a posteriori switch-pairs coverage {less}/{less} (100.0%)"
        )),
        "{out}"
    );
    // Without the `feasible` list the items would have to be searched: refused on this model.
    let mut old = doc.clone();
    old["item_coverage"]
        .as_object_mut()
        .unwrap()
        .remove("feasible");
    let old_file = temp("twin-pairs-old.json");
    std::fs::write(&old_file, old.to_string()).unwrap();
    let (code, out, err) = explore_file(old_file.to_str().unwrap(), &["--model", &unbounded], &[]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("--cover switches"), "{err}");
}

/// An STS whose one switch has the guard `guard` (over the variable `x` and the parameter `p`,
/// both in 0..3), written to scratch file `name`; the guard is on line 9.
fn guarded(name: &str, guard: &str) -> PathBuf {
    let path = temp(name);
    std::fs::write(
        &path,
        format!(
            "sts: 1\nvariables:\n  - {{name: x, type: int, min: 0, max: 3, initial: 1}}\ngates:\n  - {{name: go, kind: input, parameters: [{{name: p, type: int, min: 0, max: 3}}]}}\n  - {{name: done, kind: output}}\ninitial: a\nswitches:\n  - {{from: a, gate: go, guard: \"{guard}\", to: b}}\n  - {{from: b, gate: done, to: a}}\n"
        ),
    )
    .unwrap();
    path
}

/// `n` copies of `term` joined by `op`.
fn chain(term: &str, op: &str, n: usize) -> String {
    vec![term; n].join(&format!(" {op} "))
}

/// The commands that read an STS and recurse over its guards: `info` (parse, sort check,
/// instantiation by evaluation), `generate --cover switches` (symbolic execution, the Z3
/// translation, the canonical printer), `explore --cover switches` (concrete execution).
fn commands_over(path: &Path) -> Vec<Vec<String>> {
    let p = path.to_str().unwrap().to_owned();
    let s = |v: &[&str]| v.iter().map(|a| a.to_string()).collect::<Vec<_>>();
    let mut commands = vec![s(&["info", &p])];
    if cfg!(feature = "smt") {
        commands.push(s(&[
            "--quiet", "generate", &p, "--cover", "switches", "--out", "-",
        ]));
        commands.push(s(&[
            "--quiet", "explore", &p, "--cover", "switches", "--model", &p, "--seed", "1",
        ]));
    }
    commands
}

#[test]
fn guards_of_any_size_are_refused_or_handled_never_a_crash() {
    let long = 15_000;
    for (name, guard) in [
        ("sum", format!("{} >= 0", chain("x", "+", long))),
        ("difference", format!("{} <= 3", chain("x", "-", long))),
        ("product", format!("{} >= 0", chain("x", "*", long))),
        ("quotient", format!("{} >= 0", chain("x", "/", long))),
        ("and", chain("x >= 0", "and", long)),
        ("or", chain("p == 1", "or", long)),
        ("and_symbols", chain("p >= 0", "&&", long)),
        ("minus", format!("{}x >= 0", "-".repeat(long))),
        ("not", format!("{}true", "not ".repeat(long))),
        (
            "parentheses",
            format!("{}p{} >= 0", "(".repeat(long), ")".repeat(long)),
        ),
    ] {
        let path = guarded(&format!("deep-{name}.sts.yaml"), &guard);
        for args in commands_over(&path) {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let (code, _, err) = run(&args);
            assert_eq!(code, 2, "{name} {args:?}: {err}");
            assert!(
                err.contains(&format!("deep-{name}.sts.yaml:9:")),
                "{name} {args:?}: {err}"
            );
            assert!(err.contains("deep"), "{name}: {err}");
        }
    }
    // At the limit every pass still works: 1,000 terms and a comparison are 1,000 operators
    // deep.
    let limit = ncomplete::sts::parse::MAX_TREE_DEPTH;
    for (name, guard) in [
        ("sum", format!("{} >= 0", chain("x", "+", limit))),
        ("and", chain("p >= 0", "and", limit)),
        ("or", chain("p == 1", "or", limit)),
        ("product", format!("{} >= 0", chain("p", "*", limit))),
    ] {
        let path = guarded(&format!("limit-{name}.sts.yaml"), &guard);
        for args in commands_over(&path) {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let (code, _, err) = run(&args);
            assert!(code == 0 || code == 3, "{name} {args:?}: {code} {err}");
        }
    }
}

/// Ten lines whose guards and assignment are nonlinear (`*`, `/`, `%` of symbols): every query
/// is hard for Z3 and the unfolding to depth 40 would run for minutes.
#[cfg(feature = "smt")]
const NONLINEAR: &str = "sts: 1
variables:
  - {name: x, type: int, min: 0, max: 1000000, initial: 5}
gates:
  - {name: go, kind: input, parameters: [{name: p, type: int, min: 1, max: 1000000}]}
  - {name: done, kind: output}
initial: a
switches:
  - {from: a, gate: go, guard: \"(x * p) % 7 == 3 and p / 3 > 2\", assign: {x: \"x * p / 3 + x % p\"}, to: a}
  - {from: a, gate: go, guard: \"x % 1013 == 1012 and x / p == 5 and p % 11 == 10\", to: b}
  - {from: b, gate: done, to: a}
";

#[cfg(feature = "smt")]
#[test]
fn a_nonlinear_purpose_search_is_refused_at_its_budget_with_progress() {
    let path = temp("nonlinear.sts.yaml");
    std::fs::write(&path, NONLINEAR).unwrap();
    let p = path.to_str().unwrap();
    let search = |args: &[&str], seconds: &str| {
        let start = std::time::Instant::now();
        let out = Command::new(BIN)
            .args(args)
            .env("NCOMPLETE_SOLVER_SECONDS", seconds)
            .env("NCOMPLETE_PROGRESS_INTERVAL", "0.5")
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
            start.elapsed(),
        )
    };
    let generate = ["generate", p, "--cover", "switches", "--out", "-"];
    let (code, err, took) = search(&generate, "2");
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("solver queries or 2 s of solver time"),
        "{err}"
    );
    assert!(err.contains("--n"), "{err}");
    assert!(took < std::time::Duration::from_secs(60), "{took:?}");
    // Progress: the queries against the budget, with the time left to reach it.
    assert!(err.contains("searching test purposes: "), "{err}");
    assert!(err.contains("/20,000 solver queries"), "{err}");
    assert!(err.contains("left"), "{err}");
    let quiet = [
        "--quiet", "generate", p, "--cover", "switches", "--out", "-",
    ];
    let (code, err, _) = search(&quiet, "2");
    assert_eq!(code, Some(2), "{err}");
    assert!(!err.contains("searching test purposes"), "{err}");
    let explore = ["--quiet", "explore", p, "--cover", "switches", "--model", p];
    let (code, err, _) = search(&explore, "2");
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("solver queries or 2 s of solver time"),
        "{err}"
    );
    let (code, err, _) = search(&generate, "soon");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("NCOMPLETE_SOLVER_SECONDS=soon"), "{err}");
}

/// Bursts in the purpose runner (issue 41): the purpose of `full_inc` sends 64 `?inc` in a
/// row after `!ready`, and the system writes `hello` (allowed before the first `?inc` only)
/// after `D` ms and reads its inputs only then; the reading in which it read none of them
/// explains `hello`, so no purpose may fail, whatever the number of inputs in flight. Before,
/// the runner dropped the readings with 8 inputs unread and failed with "output `hello`, which
/// the STS does not allow".
#[cfg(feature = "smt")]
#[test]
fn the_purpose_runner_never_fails_a_conforming_system_with_a_burst_of_inputs_in_flight() {
    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ready_hello.sts.yaml");
    let spec = spec.to_str().unwrap();
    // The default depth of `explore --cover` (40 steps) is too short for `full_inc`'s 65:
    // its purposes are written with `generate --n 70` and executed with `--purposes`.
    let purposes = temp("ready_hello.purposes.json");
    let purposes = purposes.to_str().unwrap();
    let (code, _, err) = run(&[
        "--quiet", "generate", spec, "--cover", "switches", "--n", "70", "--out", purposes,
    ]);
    assert_eq!(code, 0, "{err}");
    // The purpose of `full_inc` sends its 64 inputs about 20 ms apart, so `hello` at 0.5 s,
    // 1 s or 2 s finds from a few up to all 64 of them in flight, always within the
    // quiescence timeout of the last one.
    for delay in ["0", "0.5", "1", "2"] {
        let system = format!("echo ready; sleep {delay}; echo hello; cat >/dev/null");
        let (code, out, err) = run(&[
            "explore",
            spec,
            "--purposes",
            purposes,
            "--sut",
            &system,
            "--attempts",
            "1",
            "--quiescence-ms",
            "2000",
        ]);
        assert!(out.contains("65 steps: say_ready first_inc"), "{out}{err}");
        assert_ne!(code, 1, "delay {delay}: {out}{err}");
        assert!(!out.contains("does not allow"), "delay {delay}: {out}{err}");
    }
}
