//! The command line as its users meet it (issue 14, item 5): models from standard input,
//! `--model-format` everywhere with the old `--format` still accepted, errors that name the right
//! flag, `--method auto` on an LTS, the guarantee and the budget of every `generate`, progress in
//! logs, shell completions and manual pages, and the wording of `render` and `audit`.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn ncomplete(args: &[&str]) -> Output {
    ncomplete_with(args, None, &[])
}

/// Runs the binary with `stdin` as its standard input and extra environment variables.
fn ncomplete_with(args: &[&str], stdin: Option<&[u8]>, env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ncomplete"));
    cmd.args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env_remove("NCOMPLETE_PROGRESS_INTERVAL");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("starts");
    if let Some(bytes) = stdin {
        let mut pipe = child.stdin.take().expect("piped");
        pipe.write_all(bytes).expect("writes stdin");
    }
    child.wait_with_output().expect("runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli-usability");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn model(name: &str) -> String {
    format!("{}/models/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn read(name: &str) -> Vec<u8> {
    std::fs::read(model(name)).unwrap()
}

#[test]
fn a_model_is_read_from_standard_input_with_its_format_told_from_the_text() {
    // DOT, sniffed: the same figures as from the file, under the name `stdin` unless the file
    // names its graph.
    let piped = ncomplete_with(
        &["info", "-", "--json"],
        Some(&read("coffeemachine.dot")),
        &[],
    );
    assert!(piped.status.success(), "{}", stderr(&piped));
    let file = ncomplete(&["info", &model("coffeemachine.dot"), "--json"]);
    let strip_name = |s: String| {
        s.lines()
            .filter(|l| !l.contains("\"name\""))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert!(stdout(&piped).contains("\"name\": \"stdin\""));
    assert_eq!(strip_name(stdout(&piped)), strip_name(stdout(&file)));

    // .aut, sniffed, straight into generate: the suite equals the one generated from the file.
    let piped = ncomplete_with(
        &["generate", "-", "--n", "2", "--quiet"],
        Some(&read("vending.aut")),
        &[],
    );
    assert!(piped.status.success(), "{}", stderr(&piped));
    let file = ncomplete(&["generate", &model("vending.aut"), "--n", "2", "--quiet"]);
    let tests_of = |s: String| s[s.find("\"tests\"").unwrap()..].to_owned();
    assert_eq!(tests_of(stdout(&piped)), tests_of(stdout(&file)));

    // An explicit --model-format wins over sniffing; text nobody can tell asks for it.
    let yaml = ncomplete(&["convert", &model("vending.aut"), "--to", "yaml", "--quiet"]);
    let piped = ncomplete_with(
        &["info", "-", "--model-format", "yaml"],
        Some(&yaml.stdout),
        &[],
    );
    assert!(piped.status.success(), "{}", stderr(&piped));
    assert!(stdout(&piped).contains("kind:"), "{}", stdout(&piped));
    let o = ncomplete_with(&["info", "-"], Some(b"hello there\n"), &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("standard input") && stderr(&o).contains("--model-format"),
        "{}",
        stderr(&o)
    );
    // Standard input holds one model: a second `-` is refused, not read as empty.
    let o = ncomplete_with(&["check", "-", "-"], Some(&read("vending.aut")), &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("read already"), "{}", stderr(&o));
    let o = ncomplete_with(
        &["check", "-", &model("vending.aut")],
        Some(&read("vending.aut")),
        &[],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    // Positions in a bad model on standard input are reported against `<stdin>`.
    let o = ncomplete_with(&["info", "-"], Some(b"des (0, 1, 2)\n(0, \"a\"\n"), &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("<stdin>:2:"), "{}", stderr(&o));
}

#[test]
fn model_format_is_the_flag_everywhere_and_the_old_spelling_warns() {
    let txt = scratch("vending.txt");
    std::fs::write(&txt, read("vending.aut")).unwrap();
    let txt = txt.display().to_string();
    // The unknown-extension error names --model-format, in generate as in every command.
    for args in [
        vec!["generate", txt.as_str(), "--n", "2"],
        vec!["info", txt.as_str()],
        vec!["check", txt.as_str(), txt.as_str()],
    ] {
        let o = ncomplete(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&o).contains("use --model-format aut|dot|yaml|json"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
    for args in [
        vec![
            "generate",
            txt.as_str(),
            "--model-format",
            "aut",
            "--n",
            "2",
        ],
        vec!["info", txt.as_str(), "--model-format", "aut"],
        vec!["check", txt.as_str(), txt.as_str(), "--model-format", "aut"],
        vec!["sizes", txt.as_str(), "--model-format", "aut", "--n", "2"],
    ] {
        let o = ncomplete(&args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("deprecated"), "{}", stderr(&o));
    }
    // The old spelling still reads the model, once warned about; --quiet silences the warning.
    let o = ncomplete(&["check", &txt, &txt, "--format", "aut"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stderr(&o)
            .matches("--format for the model format is deprecated; use --model-format")
            .count(),
        1,
        "{}",
        stderr(&o)
    );
    let o = ncomplete(&["info", &txt, "--format", "aut", "--quiet"]);
    assert!(o.status.success());
    assert_eq!(stderr(&o), "");
    // The old spelling is not in the help.
    let help = ncomplete(&["info", "--help"]);
    assert!(stdout(&help).contains("--model-format"));
    assert!(!stdout(&help).contains("--format"), "{}", stdout(&help));
    // In generate --format is the suite format: a model format there is refused with advice.
    let o = ncomplete(&["generate", &txt, "--format", "aut", "--n", "2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("words"), "{}", stderr(&o));
}

#[test]
fn auto_on_an_lts_is_ioco_auto_and_every_generate_states_its_guarantee() {
    // No --method: auto, which is ioco-auto for a labelled transition system.
    let o = ncomplete(&["generate", &model("vending.aut"), "--n", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let suite: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(suite["method"], "ioco-auto", "{}", suite["method"]);
    assert!(suite["auto"].is_object() || suite["auto"].is_string());
    let guarantee = suite["guarantee"].as_str().unwrap();
    assert!(
        stderr(&o).contains(&format!("guarantee: {guarantee}")),
        "{}",
        stderr(&o)
    );

    // Mealy suites print theirs too, in JSON and words, and not with --quiet.
    for format in ["json", "words"] {
        let o = ncomplete(&[
            "generate",
            &model("coffeemachine.dot"),
            "--method",
            "hsi",
            "--format",
            format,
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(
            stderr(&o).contains("tests; guarantee: m-complete"),
            "{}",
            stderr(&o)
        );
    }
    let o = ncomplete(&["generate", &model("coffeemachine.dot"), "--quiet"]);
    assert_eq!(stderr(&o), "");
}

#[test]
fn mealy_suites_are_refused_by_their_budget_before_a_file_is_written() {
    let out = scratch("too-big.json");
    let _ = std::fs::remove_file(&out);
    for method in ["w", "wp", "hsi", "hsi-st", "hads", "uio", "uiov", "auto"] {
        let o = ncomplete(&[
            "generate",
            &model("TCP_Linux_Client.dot"),
            "--method",
            method,
            "--extra-states",
            "2",
            "--max-tests",
            "50",
            "--out",
            &out.display().to_string(),
        ]);
        assert_eq!(o.status.code(), Some(2), "{method}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains("--max-tests"), "{method}: {err}");
        // A family suite of TCP has at least 151 tests without extra states, so fewer extra
        // states are advised only for auto (at least 15 tests), and auto for the others.
        let family = method != "auto";
        assert_eq!(err.contains("--extra-states"), !family, "{method}: {err}");
        assert_eq!(err.contains("--method auto"), family, "{method}: {err}");
        assert!(!out.exists(), "{method} wrote a refused suite");
    }
}

#[test]
fn progress_is_a_plain_line_in_logs_and_nothing_when_quiet() {
    let every = [("NCOMPLETE_PROGRESS_INTERVAL", "0")];
    let suite = scratch("tcp.json");
    let suite_s = suite.display().to_string();
    // generate (Mealy): lines with count, total, rate, then a closing line.
    let o = ncomplete_with(
        &[
            "generate",
            &model("TCP_Linux_Client.dot"),
            "--extra-states",
            "1",
            "--out",
            &suite_s,
        ],
        None,
        &every,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    let line = err
        .lines()
        .find(|l| l.starts_with("writing tests: ") && l.contains('/'))
        .unwrap_or_else(|| panic!("no progress line: {err}"));
    assert!(line.contains(" tests (") && line.contains("/s"), "{line}");
    assert!(err.contains("writing tests: done, "), "{err}");
    // generate (ioco), render, run and audit report too.
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec![
                "generate".into(),
                model("vending.aut"),
                "--n".into(),
                "3".into(),
            ],
            "writing tests: ",
        ),
        (
            vec![
                "render".into(),
                suite_s.clone(),
                "--format".into(),
                "python".into(),
                "--out".into(),
                scratch("tcp-python").display().to_string(),
            ],
            "rendering",
        ),
        (
            vec![
                "run".into(),
                suite_s.clone(),
                "--model".into(),
                model("TCP_Linux_Client.dot"),
            ],
            "running: ",
        ),
        (
            vec![
                "audit".into(),
                model("coffeemachine.dot"),
                "--method".into(),
                "hsi".into(),
                "--mutants".into(),
                "5".into(),
                "--extra-states".into(),
                "0".into(),
            ],
            "auditing (hsi E = 0): ",
        ),
    ];
    for (args, prefix) in &cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = ncomplete_with(&args, None, &every);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).lines().any(|l| l.starts_with(prefix)),
            "{args:?}: {}",
            stderr(&o)
        );
        // Progress goes to stderr only: stdout is the command's output.
        assert!(!stdout(&o).contains(prefix.trim_end()), "{args:?}");
        let mut quiet = args.clone();
        quiet.push("--quiet");
        let o = ncomplete_with(&quiet, None, &every);
        assert!(o.status.success(), "{quiet:?}: {}", stderr(&o));
        assert_eq!(stderr(&o), "", "{quiet:?}");
    }
    // At the default interval a short command prints no progress at all.
    let o = ncomplete(&["run", &suite_s, "--model", &model("TCP_Linux_Client.dot")]);
    assert!(o.status.success());
    assert!(!stderr(&o).contains("running"), "{}", stderr(&o));
}

#[test]
fn completions_and_manual_pages_come_from_the_command_definition() {
    for (shell, marker) in [
        ("bash", "_ncomplete()"),
        ("zsh", "#compdef ncomplete"),
        ("fish", "complete -c ncomplete"),
    ] {
        let o = ncomplete(&["completions", shell]);
        assert!(o.status.success(), "{shell}: {}", stderr(&o));
        let script = stdout(&o);
        assert!(script.contains(marker), "{shell}");
        for word in ["generate", "model-format", "extra-states"] {
            assert!(script.contains(word), "{shell} lacks {word}");
        }
    }
    let o = ncomplete(&["completions", "tcsh"]);
    assert_eq!(o.status.code(), Some(2));

    let o = ncomplete(&["man"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let page = stdout(&o);
    assert!(page.contains(".TH ncomplete 1"), "{page}");
    assert!(page.contains("generate"));
    let dir = scratch("man");
    let _ = std::fs::remove_dir_all(&dir);
    let o = ncomplete(&["man", "--out", &dir.display().to_string()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let generate = std::fs::read_to_string(dir.join("ncomplete-generate.1")).unwrap();
    assert!(generate.contains(".TH ncomplete-generate 1"), "{generate}");
    assert!(generate.contains("\\-\\-extra\\-states"), "{generate}");
    assert!(generate.contains("ncomplete generate"), "{generate}");
    assert!(dir.join("ncomplete.1").exists());
    assert!(dir.join("ncomplete-audit.1").exists());
}

#[test]
fn render_counts_files_in_words_and_audit_headers_name_each_bound_once() {
    let suite = scratch("coffee.json");
    let o = ncomplete(&[
        "generate",
        &model("coffeemachine.dot"),
        "--out",
        &suite.display().to_string(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = scratch("coffee-ttcn");
    let o = ncomplete(&[
        "render",
        &suite.display().to_string(),
        "--format",
        "ttcn",
        "--out",
        &out.display().to_string(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    // The definitions, part and control modules and the Titan test port (header and source).
    assert!(stderr(&o).contains("wrote 5 files to "), "{}", stderr(&o));

    let svg = scratch("strength.svg");
    let o = ncomplete(&[
        "audit",
        &model("coffeemachine.dot"),
        "--n",
        "6..8",
        "--method",
        "w",
        "--no-time",
        "--plot",
        &svg.display().to_string(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let header = stdout(&o).lines().nth(1).unwrap().to_owned();
    let words: Vec<&str> = header.split_whitespace().collect();
    assert_eq!(&words[..3], ["method", "n", "tests"], "{header}");
    let text = stdout(&o);
    let row: Vec<&str> = text.lines().nth(2).unwrap().split_whitespace().collect();
    assert_eq!(row.len(), words.len(), "{header}");
    // E ranges keep both columns: the bound and the n it stands for.
    let o = ncomplete(&[
        "audit",
        &model("coffeemachine.dot"),
        "--extra-states",
        "0..1",
        "--method",
        "w",
        "--no-time",
    ]);
    let header: Vec<String> = stdout(&o)
        .lines()
        .nth(1)
        .unwrap()
        .split_whitespace()
        .map(str::to_owned)
        .collect();
    assert_eq!(&header[..4], ["method", "E", "n", "tests"]);
    // The log axis reaches 10^4 steps (w at n = 8 has 14,656): labels read 1e4 or 2e4, never
    // as 10000.0 (no label of five digits or more).
    let chart = std::fs::read_to_string(&svg).unwrap();
    let labels: Vec<&str> = chart
        .split("</text>")
        .filter_map(|t| t.rsplit('>').next())
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .collect();
    assert!(labels.contains(&"1e4"), "{labels:?}");
    assert!(
        !labels
            .iter()
            .any(|l| l.chars().take_while(char::is_ascii_digit).count() >= 5),
        "{labels:?}"
    );
}

/// Issue 26, item 6: a closed output pipe ends quietly, `run` names both targets, one test is
/// one test, and `explore` lists what it missed.
#[test]
fn small_wording_and_pipe_items() {
    // `ncomplete generate ... | head -c 100`: the reader goes away, ncomplete ends quietly.
    let mut child = Command::new(env!("CARGO_BIN_EXE_ncomplete"))
        .args([
            "generate",
            &model("coffeemachine.dot"),
            "--method",
            "w",
            "--extra-states",
            "3",
        ])
        .args(["--quiet"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 100];
    std::io::Read::read_exact(child.stdout.as_mut().unwrap(), &mut first).unwrap();
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{:?}: {}", o.status, stderr(&o));
    assert_eq!(stderr(&o), "");
    // `run` without a target names both ways to give one.
    let suite = scratch("one.json");
    let o = ncomplete(&[
        "generate",
        &model("coffeemachine.dot"),
        "--method",
        "w",
        "--extra-states",
        "0",
    ]);
    std::fs::write(&suite, &o.stdout).unwrap();
    let o = ncomplete(&["run", suite.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--model") && stderr(&o).contains("--sut"),
        "{}",
        stderr(&o)
    );
    // A suite of one test says so in the singular.
    let one = scratch("one.dot");
    std::fs::write(
        &one,
        "digraph one {\n  __start0 [label=\"\" shape=\"none\"];\n  __start0 -> s0;\n  s0 -> s0 [label=\"a / x\"];\n}\n",
    )
    .unwrap();
    let o = ncomplete(&[
        "generate",
        one.to_str().unwrap(),
        "--method",
        "w",
        "--extra-states",
        "0",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).starts_with("1 test; guarantee:"),
        "{}",
        stderr(&o)
    );
    // `explore` that stops early lists the missed transitions and says quiescence loops count.
    let vending = model("vending.aut");
    let report = scratch("explore.json");
    let o = ncomplete(&[
        "explore",
        &vending,
        "--model",
        &vending,
        "--max-steps",
        "2",
        "--seed",
        "1",
        "--out",
        report.to_str().unwrap(),
    ]);
    let text = stdout(&o) + &stderr(&o);
    assert!(text.contains("missed transitions: "), "{text}");
    assert!(text.contains("quiescence loops"), "{text}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let c = &json["coverage"];
    assert!(c["quiescence_loops"].as_u64().unwrap() > 0, "{c}");
    let missed = c["transitions_total"].as_u64().unwrap() - c["transitions"].as_u64().unwrap();
    let listed = c["uncovered_transitions"].as_array().unwrap().len() as u64;
    assert!(
        missed > 0 && listed == missed.min(c["uncovered_listed"].as_u64().unwrap()),
        "{c}"
    );
}

/// Issue 26, item 5: renderings carry a `.gitignore`, and a directory holding another format is
/// replaced only with `--force`.
#[test]
fn renderings_ignore_caches_and_keep_to_their_format() {
    let suite = scratch("hygiene.json");
    let o = ncomplete(&[
        "generate",
        &model("coffeemachine.dot"),
        "--method",
        "w",
        "--extra-states",
        "0",
    ]);
    std::fs::write(&suite, &o.stdout).unwrap();
    let dir = scratch("hygiene");
    let _ = std::fs::remove_dir_all(&dir);
    let render = |format: &str, force: bool| {
        let mut args = vec![
            "render",
            suite.to_str().unwrap(),
            "--format",
            format,
            "--out",
        ];
        args.push(dir.to_str().unwrap());
        if force {
            args.push("--force");
        }
        ncomplete(&args)
    };
    let o = render("python", false);
    assert!(o.status.success(), "{}", stderr(&o));
    let ignore = std::fs::read_to_string(dir.join(".gitignore")).unwrap();
    for cache in ["target/", "__pycache__/", ".pytest_cache/"] {
        assert!(ignore.lines().any(|l| l == cache), "{ignore}");
    }
    let o = render("rust", false);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("holds a python rendering") && stderr(&o).contains("--force"),
        "{}",
        stderr(&o)
    );
    assert!(dir.join("test_coffeemachine.py").is_file());
    let o = render("rust", true);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(dir.join("Cargo.toml").is_file() && !dir.join("test_coffeemachine.py").exists());
    assert!(
        std::fs::read_to_string(dir.join(".gitignore"))
            .unwrap()
            .contains("target/")
    );
    // The same format again needs no force; `generate --out DIR` keeps to it too.
    assert!(render("rust", false).status.success());
    let o = ncomplete(&[
        "generate",
        &model("coffeemachine.dot"),
        "--method",
        "w",
        "--extra-states",
        "0",
        "--format",
        "python",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}
