//! The `generate` and `sizes` subcommands for the ioco methods, end to end: suites are valid JSON
//! v1, identical for any thread count, pass the conforming model and fail the faulty one when run
//! by `ncomplete run`, and bad input exits with status 2 and a clear message.

use ncomplete::suite::read_suite;
use std::path::PathBuf;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_ncomplete");

fn path(rel: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(rel)
        .display()
        .to_string()
}

fn run_env(args: &[&str], env: &[(&str, &str)]) -> (i32, Vec<u8>, String) {
    let mut cmd = Command::new(BIN);
    cmd.args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn run(args: &[&str]) -> (i32, Vec<u8>, String) {
    run_env(args, &[])
}

fn temp(name: &str) -> String {
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("ncomplete-cli-generate-{name}"))
        .display()
        .to_string()
}

#[test]
fn every_ioco_method_passes_the_model_and_fails_the_fault() {
    let model = path("tests/fixtures/coffee.aut");
    for method in [
        "ioco-complete",
        "unconditional",
        "ioco-ads",
        "ioco-counting",
    ] {
        let out = temp(&format!("{method}.json"));
        let (code, _, err) = run(&[
            "generate", &model, "--method", method, "--n", "3", "--format", "json", "--out", &out,
        ]);
        assert_eq!(code, 0, "{err}");
        assert!(
            err.contains("guarantee: complete for every implementation"),
            "{err}"
        );
        let text = std::fs::read_to_string(&out).unwrap();
        let (header, tests) = read_suite(&text).unwrap();
        assert_eq!(header.method, method);
        assert_eq!(header.n, Some(3));
        assert!(!tests.is_empty());
        let (code, report, _) = run(&["run", &out, "--model", &model]);
        assert_eq!(code, 0, "{}", String::from_utf8_lossy(&report));
        let (code, report, _) = run(&[
            "run",
            &out,
            "--model",
            &path("tests/fixtures/coffee-faulty.aut"),
        ]);
        let report = String::from_utf8_lossy(&report);
        assert_eq!(code, 1, "{method}: {report}");
        assert!(report.contains("suite: fail"), "{report}");
        std::fs::remove_file(&out).ok();
    }
}

#[test]
fn output_is_byte_identical_for_one_and_four_threads() {
    let model = path("models/vdbos_fig3_1.aut");
    let args = [
        "generate",
        &model,
        "--method",
        "ioco-complete",
        "--n",
        "3",
        "--quiet",
    ];
    let (c1, one, e1) = run_env(&args, &[("RAYON_NUM_THREADS", "1")]);
    let (c4, four, e4) = run_env(&args, &[("RAYON_NUM_THREADS", "4")]);
    assert_eq!((c1, c4), (0, 0), "{e1}{e4}");
    assert!(one.len() > 10_000);
    assert!(one == four, "outputs differ between 1 and 4 threads");
    let (header, _) = read_suite(std::str::from_utf8(&one).unwrap()).unwrap();
    // Fig. 3.1 has compatible states whose merge recursion does not terminate: said so.
    assert!(
        header.guarantee.contains("unconditional suite U"),
        "{}",
        header.guarantee
    );
}

#[test]
fn ads_guarantee_names_the_states_that_break_completeness() {
    let (code, out, err) = run(&[
        "generate",
        &path("models/vdbos_fig3_1.aut"),
        "--method",
        "ioco-ads",
        "--extra-states",
        "0",
        "--quiet",
    ]);
    assert_eq!(code, 0, "{err}");
    let (header, _) = read_suite(std::str::from_utf8(&out).unwrap()).unwrap();
    assert!(
        header.guarantee.starts_with("not 4-complete"),
        "{}",
        header.guarantee
    );
    assert!(
        header.guarantee.contains("compatible"),
        "{}",
        header.guarantee
    );
}

#[test]
fn counting_takes_its_family_from_incompatible_sets() {
    let model = path("models/vdbos_fig2_1.aut");
    let generate = |args: &[&str]| {
        let mut all = vec!["generate", &model, "--n", "2", "--quiet"];
        all.extend(args);
        let (code, out, err) = run(&all);
        assert_eq!(code, 0, "{err}");
        read_suite(std::str::from_utf8(&out).unwrap()).unwrap()
    };
    for (choice, sets) in [("maximal", 4), ("largest", 1), ("none", 0)] {
        let (header, _) = generate(&["--method", "ioco-counting", "--incompatible-sets", choice]);
        assert_eq!(header.method, "ioco-counting");
        let field = &header.extra["incompatible_sets"];
        assert_eq!(field["choice"], choice);
        assert_eq!(field["sets"].as_array().unwrap().len(), sets);
    }
    // The default is maximal; without sets the tests are those of U(S, n).
    let (header, _) = generate(&["--method", "ioco-counting"]);
    assert_eq!(header.extra["incompatible_sets"]["choice"], "maximal");
    let (_, none) = generate(&["--method", "ioco-counting", "--incompatible-sets", "none"]);
    let (_, unconditional) = generate(&["--method", "unconditional"]);
    assert_eq!(none, unconditional);
    let (code, _, err) = run(&[
        "generate",
        &model,
        "--method",
        "ioco-counting",
        "--incompatible-sets",
        "all",
        "--n",
        "2",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("expected maximal, largest or none"), "{err}");
}

#[test]
fn bad_bounds_and_budgets_exit_with_status_2() {
    let model = path("tests/fixtures/coffee.aut");
    let (code, _, err) = run(&["generate", &model, "--method", "ioco-complete", "--n", "0"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: n must be at least 1"), "{err}");
    let (code, _, err) = run(&["generate", &model, "--method", "ioco-complete"]);
    assert_eq!(code, 2);
    assert!(err.contains("--n"), "{err}");
    let (code, _, err) = run(&[
        "generate",
        &model,
        "--method",
        "ioco-complete",
        "--n",
        "12",
        "--max-tests",
        "1000",
        "--max-seconds",
        "100000000",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("tests, over the limit of 1,000 (--max-tests)"),
        "{err}"
    );
    // Over the default of one hour: refused by the lower bound, before planning, with the bound
    // and the advice.
    let (code, _, err) = run(&["generate", &model, "--method", "ioco-complete", "--n", "12"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("by a lower bound counted before planning"),
        "{err}"
    );
    assert!(
        err.contains("over the limit of 3,600 (--max-seconds); try a smaller n"),
        "{err}"
    );
    let (code, _, err) = run(&["generate", &model, "--n", "2", "--format", "words"]);
    assert_eq!(code, 2);
    assert!(err.contains("words are for Mealy suites"), "{err}");
}

#[test]
fn auto_is_the_default_for_lts_and_records_its_choice() {
    let model = path("tests/fixtures/coffee.aut");
    let out = temp("auto.json");
    let (code, _, err) = run(&["generate", &model, "--n", "3", "--stats", "--out", &out]);
    assert_eq!(code, 0, "{err}");
    for column in [
        "method", "runs", "steps", "nodes", "longest", "bytes", "chosen",
    ] {
        assert!(err.contains(column), "{column}: {err}");
    }
    assert!(err.contains("ioco-counting-maximal"), "{err}");
    let text = std::fs::read_to_string(&out).unwrap();
    let (header, tests) = read_suite(&text).unwrap();
    assert_eq!(header.method, "ioco-auto");
    let chosen = header.extra["auto"]["chosen"].as_str().unwrap().to_owned();
    assert!(err.contains(&format!("{chosen} ")), "{err}");
    // The bytes figure printed by --stats is the size of the file written.
    let line = err.lines().find(|l| l.starts_with("ioco-auto: ")).unwrap();
    let after = line.split("bytes ").nth(1).unwrap();
    let bytes = after.split(", ").next().unwrap().replace(',', "");
    assert_eq!(bytes.parse::<usize>().unwrap(), text.len(), "{line}");
    let tests_figure = line["ioco-auto: tests ".len()..].split(',').next().unwrap();
    assert_eq!(tests_figure.parse::<usize>().unwrap(), tests.len());
    let (code, report, _) = run(&[
        "run",
        &out,
        "--model",
        &path("tests/fixtures/coffee-faulty.aut"),
    ]);
    assert_eq!(code, 1, "{}", String::from_utf8_lossy(&report));
    std::fs::remove_file(&out).ok();
}

#[test]
fn every_budget_refuses_before_the_file_is_created() {
    let model = path("tests/fixtures/coffee.aut");
    for (flag, limit) in [
        ("--max-tests", "3"),
        ("--max-runs", "10"),
        ("--max-steps", "10"),
        ("--max-nodes", "10"),
        ("--max-bytes", "100"),
    ] {
        let out = temp(&format!("refused{flag}.json"));
        let (code, _, err) = run(&[
            "generate",
            &model,
            "--method",
            "unconditional",
            "--n",
            "3",
            flag,
            limit,
            "--out",
            &out,
        ]);
        assert_eq!(code, 2, "{flag}: {err}");
        assert!(err.contains(&format!("({flag}); try a smaller n")), "{err}");
        assert!(!std::path::Path::new(&out).exists(), "{flag} wrote {out}");
        // ioco-auto lists the candidates as refused and fails only when all are.
        let (code, _, err) = run(&["generate", &model, "--n", "3", flag, limit, "--out", &out]);
        assert_eq!(code, 2, "{flag}: {err}");
        assert!(err.contains("no complete suite for n = 3 fits"), "{err}");
        assert!(!std::path::Path::new(&out).exists(), "{flag} wrote {out}");
    }
}

/// Issue 43 item 5: a refusal of every ioco-auto candidate over six limits is longer than the
/// 1,000 bytes a line of an error may have, and comes whole: a line per candidate, nothing cut.
#[test]
fn a_refusal_of_every_candidate_is_printed_whole() {
    let out = temp("refused-all.json");
    let (code, _, err) = run(&[
        "generate",
        &path("models/vending.aut"),
        "--n",
        "3",
        "--max-tests",
        "1",
        "--max-runs",
        "1",
        "--max-steps",
        "1",
        "--max-seconds",
        "0",
        "--max-nodes",
        "1",
        "--max-bytes",
        "1",
        "--out",
        &out,
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.len() > 1000, "{err}");
    assert!(!err.contains("more bytes"), "{err}");
    for name in [
        "ioco-complete",
        "unconditional",
        "ioco-counting-maximal",
        "ioco-ads",
    ] {
        assert!(
            err.lines().any(|l| l.starts_with(&format!("  {name}"))),
            "{name}: {err}"
        );
    }
    assert!(err.contains("`explore`"), "{err}");
}

#[test]
fn a_mealy_suite_over_budget_is_refused_before_the_file_is_created() {
    let out = temp("coffee-e12.json");
    let (code, _, err) = run(&[
        "generate",
        &path("models/coffeemachine.dot"),
        "--extra-states",
        "12",
        "--out",
        &out,
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("(--max-tests)") && err.contains("try a smaller --extra-states"),
        "{err}"
    );
    assert!(!std::path::Path::new(&out).exists());
}

#[test]
fn sizes_prints_a_table_and_json_and_stops_at_the_budget() {
    let model = path("tests/fixtures/coffee.aut");
    let (code, out, err) = run(&[
        "sizes",
        &model,
        "--method",
        "ioco-complete",
        "--n",
        "1..9",
        "--max-tests",
        "5000",
    ]);
    assert_eq!(code, 0, "{err}");
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.contains("tests") && text.contains("peak_KiB"),
        "{text}"
    );
    assert!(text.contains("stopped at n ="), "{text}");
    let (code, out, _) = run(&[
        "sizes",
        &model,
        "--method",
        "unconditional",
        "--n",
        "1..3",
        "--json",
    ]);
    assert_eq!(code, 0);
    let doc: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(doc[0]["rows"].as_array().unwrap().len(), 3);
    assert_eq!(doc[0]["method"], "unconditional");
    assert!(doc[0]["rows"][2]["runs"].as_u64().unwrap() > 0);
    // Without --method: every ioco method and ioco-auto, with the method it chose.
    let (code, out, err) = run(&["sizes", &model, "--n", "2..3"]);
    assert_eq!(code, 0, "{err}");
    let text = String::from_utf8(out).unwrap();
    for method in [
        "ioco-complete",
        "unconditional",
        "ioco-counting",
        "ioco-ads",
        "ioco-auto",
    ] {
        assert!(text.contains(&format!("method {method}\n")), "{text}");
    }
    assert!(text.contains("chosen") && text.contains("runs"), "{text}");
    let (code, _, err) = run(&["sizes", &model, "--method", "unconditional", "--n", "3..1"]);
    assert_eq!(code, 2);
    assert!(err.contains("must be non-empty"), "{err}");
}
