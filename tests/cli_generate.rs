//! The `generate` command on Mealy machines: formats, determinism, statistics, execution of the
//! generated suite against the model, and clear errors.

use std::process::Command;

fn ncomplete(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_ncomplete"))
        .args(args)
        .output()
        .expect("runs")
}

const LY: &str = "models/lee_yannakakis_distinguishable.dot";
const TCP: &str = "models/TCP_Linux_Client.dot";

#[test]
fn words_are_sorted_prefix_free_and_deterministic() {
    let a = ncomplete(&["generate", TCP, "--method", "auto", "--format", "words"]);
    assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
    let text = String::from_utf8(a.stdout.clone()).unwrap();
    assert!(text.starts_with("# ncomplete words v1\n# model: TCP_Linux_Client\n# method: "));
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(lines.len() > 100);
    assert!(text.ends_with(&format!("\n# end: {} tests\n", lines.len())));
    for pair in lines.windows(2) {
        assert!(
            !pair[1].starts_with(&format!("{} ", pair[0])),
            "prefix kept"
        );
        assert_ne!(pair[0], pair[1]);
    }
    let b = ncomplete(&["generate", TCP, "--method", "auto", "--format", "words"]);
    assert_eq!(a.stdout, b.stdout);
}

/// `generate` makes the main thread one of the pool's threads (src/main.rs): with one thread
/// the main thread is the whole pool and must work through the words stream's chunks itself,
/// and any thread count writes the same bytes, in words and in suite JSON.
#[test]
fn a_pool_of_the_main_thread_alone_writes_the_same_suite() {
    for format in ["words", "json"] {
        let args = [
            "generate",
            TCP,
            "--method",
            "hads",
            "--extra-states",
            "1",
            "--format",
            format,
            "--quiet",
        ];
        let run = |threads: &str| {
            let out = Command::new(env!("CARGO_BIN_EXE_ncomplete"))
                .args(args)
                .env("RAYON_NUM_THREADS", threads)
                .output()
                .expect("runs");
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            out.stdout
        };
        let one = run("1");
        assert!(one.len() > 10_000, "{format}");
        for threads in ["2", "3"] {
            assert!(
                one == run(threads),
                "{format}: 1 and {threads} threads differ"
            );
        }
    }
}

#[test]
fn every_method_writes_a_suite_the_model_passes() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("ncomplete-generate");
    std::fs::create_dir_all(&dir).unwrap();
    // The SPY tree is held in memory: beyond its budget it is refused with advice.
    let refused = ncomplete(&["generate", LY, "--method", "spy", "--extra-states", "20"]);
    assert_eq!(refused.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains("SPY") && stderr.contains("--method auto"),
        "{stderr}"
    );
    // SPYH's work grows with the pairs it separates: refused like H, before building.
    let refused = ncomplete(&["generate", LY, "--method", "spyh", "--extra-states", "20"]);
    assert_eq!(refused.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains("pairs of traces to separate by the SPYH method"),
        "{stderr}"
    );
    for method in [
        "w", "wp", "hsi", "hsi-st", "hads", "uio", "uiov", "h", "spy", "spyh", "auto",
    ] {
        for e in ["0", "1"] {
            let out = dir.join(format!("{method}-{e}.json"));
            let out = out.to_str().unwrap();
            let gen_out = ncomplete(&[
                "generate",
                LY,
                "--method",
                method,
                "--extra-states",
                e,
                "--out",
                out,
                "--stats",
            ]);
            assert!(
                gen_out.status.success(),
                "{}",
                String::from_utf8_lossy(&gen_out.stderr)
            );
            let stats = String::from_utf8_lossy(&gen_out.stderr);
            assert!(stats.contains("tests: ") && stats.contains("total input symbols: "));
            let text = std::fs::read_to_string(out).unwrap();
            let (header, tests) = ncomplete::suite::read_suite(&text).unwrap();
            assert_eq!(header.method, method);
            assert_eq!(header.n, Some(6 + e.parse::<usize>().unwrap()));
            assert!(!tests.is_empty());
            if method == "uio" {
                assert!(header.guarantee.starts_with("not complete"));
            } else {
                assert!(header.guarantee.starts_with("m-complete"));
            }
            let run = ncomplete(&["run", out, "--model", LY]);
            assert!(
                run.status.success(),
                "{}",
                String::from_utf8_lossy(&run.stdout)
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_inputs_fail_with_status_2() {
    let lts = ncomplete(&["generate", "models/tea_machine.dot", "--method", "hads"]);
    assert_eq!(lts.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&lts.stderr).contains("need a deterministic Mealy machine"));
    // `auto` on an LTS is ioco-auto, which needs a bound.
    let auto = ncomplete(&["generate", "models/tea_machine.dot"]);
    assert_eq!(auto.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&auto.stderr).contains("give --n N or --extra-states E"));
    let huge = ncomplete(&["generate", TCP, "--extra-states", "30"]);
    assert_eq!(huge.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&huge.stderr).contains("try a smaller --extra-states"));
    let method = ncomplete(&["generate", LY, "--method", "nope"]);
    assert_eq!(method.status.code(), Some(2));
}

#[test]
fn spy_writes_the_same_suite_as_before_its_tree_was_compacted() {
    let out = ncomplete(&[
        "generate",
        TCP,
        "--method",
        "spy",
        "--extra-states",
        "1",
        "--format",
        "words",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let before = std::fs::read("tests/fixtures/spy-tcp-linux-client-e1.words").unwrap();
    assert!(out.stdout == before, "the SPY suite changed");
}

/// Every budget a Mealy suite exceeds is named in one refusal, made before the suite is built
/// from its least costs, and the advice names only what those do not already refuse: no fewer
/// extra states at none (or when none would not do either), never the method used, `auto` only
/// when its least costs are within the limits.
#[test]
fn a_mealy_refusal_names_every_budget_and_advises_only_the_possible() {
    let refusal = |model: &str, method: &str, extra: &str, limits: &[&str]| {
        let mut args = vec![
            "generate",
            model,
            "--method",
            method,
            "--extra-states",
            extra,
            "--out",
            "-",
        ];
        args.extend_from_slice(limits);
        let o = ncomplete(&args);
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(o.status.code(), Some(2), "{method} E={extra}: {err}");
        err
    };
    // TCP: 15 states, 10 inputs, 136 transitions outside the spanning tree. Every suite has at
    // least 15 tests (auto's least), a family suite at least 151 (1,511 with an extra state).
    let tiny = ["--max-tests", "3", "--max-nodes", "10"];
    for method in [
        "w", "wp", "hsi", "hsi-st", "hads", "uio", "uiov", "h", "spy", "spyh", "auto",
    ] {
        let err = refusal(TCP, method, "0", &tiny);
        assert!(
            err.contains("(--max-tests), and ") && err.contains("(--max-nodes)"),
            "{method}: {err}"
        );
        assert!(!err.contains("--extra-states"), "{method}: {err}");
        // Even auto's least tests are over 3: no other method is advised.
        assert!(!err.contains("--method"), "{method}: {err}");
        assert!(err.contains("raise the limits named"), "{method}: {err}");
    }
    let err = refusal(TCP, "hads", "0", &["--max-tests", "100"]);
    assert!(err.contains("would have >150 tests"), "{err}");
    assert!(err.contains("or try --method auto"), "{err}");
    assert!(!err.contains("--extra-states"), "{err}");
    let err = refusal(TCP, "hads", "1", &["--max-tests", "200"]);
    assert!(
        err.contains("try a smaller --extra-states, or try --method auto"),
        "{err}"
    );
    let err = refusal(TCP, "auto", "1", &["--max-tests", "3"]);
    assert!(
        !err.contains("--extra-states") && !err.contains("--method"),
        "{err}"
    );
    let err = refusal(TCP, "auto", "1", &["--max-tests", "20"]);
    assert!(err.contains("or try a smaller --extra-states"), "{err}");
    assert!(!err.contains("--method"), "{err}");
    // The SPY tree of 20 extra states would outgrow its node budget while it is built; the least
    // costs refuse it first, by the flag's limit.
    let err = refusal(LY, "spy", "20", &["--max-tests", "3"]);
    assert!(err.contains("(--max-tests)"), "{err}");
    assert!(!err.contains("node count"), "{err}");
    // So does a byte budget, by the least bytes of the format written.
    for format in ["json", "words"] {
        let err = refusal(LY, "spy", "20", &["--max-bytes", "10", "--format", format]);
        assert!(
            err.contains("bytes of the suite file, over the limit of 10 (--max-bytes)"),
            "{format}: {err}"
        );
        assert!(err.contains("would have >"), "{format}: {err}");
        assert!(!err.contains("node count"), "{format}: {err}");
    }
}
