//! The guide's and the README's examples run: every command block of `README.md` and
//! `docs/src/**/*.md` is executed and the output it shows is compared, so a guide whose output
//! drifts fails CI until it follows. A block that cannot run here is listed in [`NOT_RUN`] with
//! the reason, and a block neither run nor listed fails the test (as does a listed block that no
//! longer exists).
//!
//! The blocks looked at are fenced ` ```console `, ` ```sh `, ` ```text ` and bare ` ``` `
//! ones (` ```python `, ` ```yaml ` and the like are file contents: the formats' and
//! packages' own tests read them).
//! - ` ```console `: `$ COMMAND` lines, each followed by the lines it prints (standard output
//!   and error together).
//! - ` ```sh `: command lines as a reader pastes them; comment lines `# ...` right after a
//!   command are the lines it prints (`# ` taken off), comment lines before the first command
//!   are comments.
//! - ` ```text ` and bare blocks show no command: diagrams, file contents, or output whose
//!   command is in the prose. They are listed (or the output is moved into a ` ```console `
//!   block under its command).
//!
//! In either command form a line ending in `\` or inside an open quote goes on in the next.
//! A command shown with output must print lines matching it; a command shown without output
//! must exit with status 0, or `N` where the comment on its line says `exit N`. The
//! normalisations, the only ones: in the expected lines a line `...` stands for any number of
//! lines and `[..]` for any text within a line (times, temporary paths, machine figures).
//!
//! The blocks of a page run in order, each as one `sh` script (a `cd` carries on to the block's
//! later commands, a file written stays for the page's later blocks), in a scratch directory of
//! the page's own where `models/`, `purposes/` and `python/` are the repository's, a page naming
//! `examples/` gets a copy of them, and `ncomplete` on `PATH` is this build; pages run side by
//! side. Pages that run pytest are skipped (loudly, and never under CI) when pytest cannot be
//! imported, those of [`NEEDS_SMT`] in a build without the `smt` feature.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

mod common;

/// The blocks not run, each as (page, the block's first line, why). A page ending in `/`
/// stands for every page under it and an empty first line for every block of the page: only
/// the command reference, whose pages `tests/reference_pages.rs` writes.
const NOT_RUN: &[(&str, &str, &str)] = &[
    ("README.md", "  model (.dot .aut .yaml .json)", "a diagram"),
    (
        "README.md",
        "./scripts/test",
        "the whole test suite, of which this test is a part",
    ),
    (
        "docs/src/adapter.md",
        "ncomplete run suite.json --sut-connect 127.0.0.1:7000",
        "the reader's system listening on TCP (tests/hostile_runners.rs runs systems over TCP)",
    ),
    (
        "docs/src/audit.md",
        "audit of vdbos_fig3_1 (suspension, 4 states): 100 mutants per bound, seed 1",
        "ioco-complete at E = 1 runs 3.3 million steps per mutant set: over a minute",
    ),
    (
        "docs/src/benchmarks-ioco.md",
        "budgets: tests 1000000, runs 1000000000, steps 100000000000, nodes 30000000, bytes \
         1000000000, plan nodes 300000",
        "benchmark tables of sweeps that take hours (benches/, scripts/bench_check)",
    ),
    (
        "docs/src/benchmarks.md",
        "budgets: tests 1000000, runs 1000000000, steps 100000000000, nodes 30000000, bytes \
         1000000000, plan nodes 300000",
        "benchmark tables of sweeps that take hours (benches/, scripts/bench_check)",
    ),
    (
        "docs/src/ci.md",
        "#!/bin/sh",
        "a hook's file (the examples' hooks run in tests/examples.rs)",
    ),
    (
        "docs/src/conference.md",
        " ncomplete run / explore / pytest / cargo test",
        "a diagram",
    ),
    (
        "docs/src/design/scaling.md",
        "ESM=/work/shared/models/esm/esm.dot",
        "design notes: measurements on models outside the repository (/work/shared) over minutes",
    ),
    (
        "docs/src/conference.md",
        "examples/conference/test-cpe -- python3 examples/conference/cpe.py            # exit 0: pass",
        "explores the Conference Protocol CPE for minutes; tests/conference.rs runs test-cpe on it \
         and its mutants",
    ),
    (
        "docs/src/conference.md",
        "cd examples/conference",
        "drives the CPE over UDP with 600 ms waits; tests/conference.rs runs a generated test \
         through the same adapter",
    ),
    (
        "docs/src/conference.md",
        "verdict: fail (7 steps, 0 resets, stopped: failure)",
        "an excerpt of test-cpe's report on a mutant (ports and path vary); tests/conference.rs \
         checks its parts",
    ),
    (
        "docs/src/explore.md",
        "ncomplete generate models/vending.aut --method unconditional --n 1 --format json --out vending.json",
        "builds a generated Cargo package and explores a system with 100 ms delays: minutes; \
         tests/explore_programs.rs builds and runs the Rust and Python testers",
    ),
    (
        "docs/src/explore.md",
        "ncomplete render vending.json --format python --out py --explore-spec models/vending.aut",
        "reads the suite of the block above; tests/explore_programs.rs runs the Python tester",
    ),
    (
        "docs/src/explore.md",
        "cd py",
        "900 steps against a system with 100 ms delays; tests/explore_programs.rs runs the \
         tester under pytest",
    ),
    (
        "docs/src/introduction.md",
        "  model (.dot .aut .yaml .json)",
        "a diagram",
    ),
    (
        "docs/src/ioco.md",
        "ncomplete generate model.aut --method ioco-ads --extra-states 1 --format json --out suite.json",
        "a synopsis: model.aut is the reader's model",
    ),
    (
        "docs/src/learned-formats.md",
        "q --?i--> q/i --!o--> q'      for every transition q --i/o--> q'",
        "notation, no command",
    ),
    (
        "docs/src/learned-formats.md",
        "2 1          type (2 Mealy, 3 Moore, 4 DFA) and reduced flag",
        "a file format's layout, no command",
    ),
    (
        "docs/src/models.md",
        "ncomplete convert partial.dot --complete sink --to dot              # complete a partial Mealy machine",
        "partial.dot and machine.dot are the reader's machines",
    ),
    (
        "docs/src/examples.md",
        "ln -s ../../pre-commit .git/hooks/pre-commit",
        "run in the reader's clone (tests/examples.rs installs the hook so in a scratch repository)",
    ),
    (
        "docs/src/python.md",
        "python3 -m venv .venv && . .venv/bin/activate",
        "a release build of the Python extension: minutes (scripts/python-test builds and tests it)",
    ),
    (
        "docs/src/reference/",
        "",
        "the program's --help, compared with it by tests/reference_pages.rs",
    ),
    (
        "docs/src/running.md",
        "ncomplete generate models/coffeemachine.dot --method hads --extra-states 1 --out suite.json",
        "a synopsis: ./my-system and impl.aut are the reader's",
    ),
    (
        "docs/src/running.md",
        "ran 173 tests in 45.4 s; predicted 44.0 s (mean over the system's random choices: one \
         branch per test, outputs uniform among those allowed, up to 20 retries, 200 ms per \
         quiescence (start-up allowance 1000 ms), 5 ms per restart, 2 jobs); every run once 1 \
         min 15 s",
        "what a real system's run of 45 s printed (the prediction is tested in tests/cli_exec.rs)",
    ),
    (
        "docs/src/running.md",
        "ncomplete run suite.json --model impl.aut --spec coffee.aut --html report.html",
        "a synopsis: ./my-system, impl.aut and coffee.aut are the reader's",
    ),
    (
        "docs/src/running.md",
        "ncomplete render suite.json --format ttcn --out ttcn && cd ttcn",
        "needs Eclipse Titan (tests/ttcn_programs.rs runs these steps where it is installed)",
    ),
    (
        "docs/src/sts.md",
        "$ ncomplete convert models/sts/login.sts.yaml --to aut          # the instantiated LTS",
        "./my-brp-sender is the reader's system",
    ),
    (
        "docs/src/sts.md",
        "$ ncomplete explore models/sts/brp.sts.yaml --cover switches --sut ./my-brp-sender",
        "./my-brp-sender is the reader's system",
    ),
];

/// A fenced block of a page.
struct Block {
    /// Page and line of the opening fence.
    place: String,
    page: String,
    /// The info string: `console`, `sh`, `text` or empty.
    kind: String,
    lines: Vec<String>,
}

/// One command of a block with the lines the page shows for it (none: its status must be 0).
struct Example {
    /// Page and line of the command.
    place: String,
    command: String,
    expected: Vec<String>,
}

/// The pages: the README and the guide's chapters.
fn pages() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    let mut pages = vec![common::root().join("README.md")];
    walk(&common::root().join("docs/src"), &mut pages);
    pages
}

/// The console, sh, text and bare fenced blocks of `text`.
fn blocks(page: &str, text: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((k, line)) = lines.next() {
        let Some(info) = line.trim_end().strip_prefix("```") else {
            continue;
        };
        let body: Vec<String> = lines
            .by_ref()
            .take_while(|(_, l)| !l.starts_with("```"))
            .map(|(_, l)| l.to_owned())
            .collect();
        if ["console", "sh", "text", ""].contains(&info) {
            blocks.push(Block {
                place: format!("{page}:{}", k + 1),
                page: page.to_owned(),
                kind: info.to_owned(),
                lines: body,
            });
        }
    }
    blocks
}

/// The commands of a console or sh block with the output each shows (none for other blocks).
fn examples(block: &Block) -> Option<Vec<Example>> {
    let console = match block.kind.as_str() {
        "console" => true,
        "sh" => false,
        _ => return None,
    };
    let first_line: usize = block.place.rsplit(':').next().unwrap().parse().unwrap();
    let mut examples: Vec<Example> = Vec::new();
    let mut continued = false;
    for (k, line) in block.lines.iter().enumerate() {
        if continued {
            let last = examples.last_mut().expect("a command to continue");
            last.command.push('\n');
            last.command.push_str(line);
            continued = continues(&last.command);
            continue;
        }
        let command = if console {
            line.strip_prefix("$ ")
        } else if line.starts_with('#') || line.trim().is_empty() {
            None
        } else {
            Some(line.as_str())
        };
        if let Some(command) = command {
            examples.push(Example {
                place: format!("{}:{}", block.page, first_line + k + 1),
                command: command.to_owned(),
                expected: Vec::new(),
            });
            continued = continues(command);
        } else if let Some(last) = examples.last_mut() {
            let shown = if console {
                Some(line.as_str())
            } else {
                line.strip_prefix("# ").or((line == "#").then_some(""))
            };
            if let Some(shown) = shown {
                last.expected.push(shown.to_owned());
            }
        }
    }
    Some(examples)
}

/// Whether a command goes on in the next line: its last ends in `\\`, or a quote is open.
fn continues(command: &str) -> bool {
    let (mut single, mut double, mut escaped) = (false, false, false);
    for c in command.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' if !single => escaped = true,
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            _ => {}
        }
    }
    single || double || command.ends_with('\\')
}

/// The entry of [`NOT_RUN`] that lists `block`.
fn listed(block: &Block) -> Option<usize> {
    NOT_RUN.iter().position(|(page, first, _)| {
        let page_matches = match page.strip_suffix('/') {
            Some(dir) => block.page.starts_with(&format!("{dir}/")),
            None => block.page == *page,
        };
        page_matches && (first.is_empty() || block.lines.first().is_some_and(|l| l == first))
    })
}

/// Whether `actual` matches the pattern line `expected` (`[..]`: any text).
fn line_matches(expected: &str, actual: &str) -> bool {
    let parts: Vec<&str> = expected.split("[..]").collect();
    if parts.len() == 1 {
        return expected == actual;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !actual.starts_with(first) || actual.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &actual[first.len()..];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.ends_with(last)
}

/// Whether the lines `actual` match the pattern lines `expected` (`...`: any lines).
fn lines_match(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first == "..." => {
            (0..=actual.len()).any(|skip| lines_match(rest, &actual[skip..]))
        }
        Some((first, rest)) => {
            !actual.is_empty() && line_matches(first, actual[0]) && lines_match(rest, &actual[1..])
        }
    }
}

/// What the page shows and what the command printed, and the first line where they part.
fn difference(expected: &[String], actual: &[&str]) -> String {
    let first = expected
        .iter()
        .zip(actual)
        .position(|(e, a)| e == "..." || !line_matches(e, a))
        .unwrap_or(expected.len().min(actual.len()));
    let mut out = String::from("--- the page shows:\n");
    for line in expected {
        out.push_str(&format!("  {line}\n"));
    }
    out.push_str("+++ the command printed:\n");
    for line in actual {
        out.push_str(&format!("  {line}\n"));
    }
    out.push_str(&format!(
        "(they part at output line {}{})\n",
        first + 1,
        if expected.get(first).is_some_and(|e| e == "...") {
            ", after a `...`: at or after it"
        } else {
            ""
        }
    ));
    out
}

/// The end of each command's output in a block's script: the marker, the command's index and
/// its exit status.
const MARKER: &str = "@@guide-example-end";

/// The status a command shown without output must exit with: 0, or `N` where the comment on
/// its last line says `exit N` (`# exit 1`, `# ...: a counterexample, exit 1`).
fn expected_status(command: &str) -> String {
    let last = command.lines().last().unwrap_or("");
    last.split_once(" # ")
        .and_then(|(_, comment)| comment.split_once("exit "))
        .map(|(_, rest)| rest.chars().take_while(char::is_ascii_digit).collect())
        .filter(|status: &String| !status.is_empty())
        .unwrap_or_else(|| "0".to_owned())
}

/// Runs the blocks of one page in order, each as one script, in a scratch directory of the
/// page's own (a block may read what an earlier one wrote); the failures.
fn run_page(index: usize, blocks: &[(&Block, Vec<Example>)], path: &str) -> Vec<String> {
    let root = common::root();
    let dir = common::work_dir(&format!("guide-{index}"));
    for linked in ["models", "purposes", "python"] {
        std::os::unix::fs::symlink(root.join(linked), dir.join(linked)).unwrap();
    }
    let mut failures = Vec::new();
    for (block, examples) in blocks {
        if block.lines.iter().any(|l| l.contains("examples/")) && !dir.join("examples").exists() {
            common::copy_tree(&root.join("examples"), &dir.join("examples"));
        }
        failures.extend(run_block(block, examples, &dir, path));
    }
    let _ = std::fs::remove_dir_all(&dir);
    failures
}

/// Runs the commands of a block as one script in `dir`; the failures.
fn run_block(block: &Block, examples: &[Example], dir: &Path, path: &str) -> Vec<String> {
    let mut script = String::new();
    for (k, example) in examples.iter().enumerate() {
        script.push_str(&format!(
            "{{ {}\n}} 2>&1 </dev/null\nprintf '\\n{MARKER} {k} %d\\n' $?\n",
            example.command
        ));
    }
    let out = Command::new("sh")
        .arg("-c")
        .arg(&script)
        .current_dir(dir)
        .env("PATH", path)
        .output()
        .unwrap();
    let printed = String::from_utf8_lossy(&out.stdout);
    let mut failures = Vec::new();
    let mut rest: &str = &printed;
    for (k, example) in examples.iter().enumerate() {
        let marker = format!("\n{MARKER} {k} ");
        let Some(at) = rest.find(&marker) else {
            failures.push(format!(
                "{}: `$ {}` did not finish (the script of the block at {} stopped: {})",
                example.place, example.command, block.place, out.status
            ));
            break;
        };
        let actual: Vec<&str> = rest[..at].lines().collect();
        let after = &rest[at + marker.len()..];
        let (status, next) = after.split_once('\n').unwrap_or((after, ""));
        rest = next;
        if example.expected.is_empty() {
            let expected = expected_status(&example.command);
            if status != expected {
                failures.push(format!(
                    "{}: `$ {}` exited with status {status}, not {expected}; it printed:\n  {}\n",
                    example.place,
                    example.command,
                    actual.join("\n  ")
                ));
            }
        } else if !lines_match(&example.expected, &actual) {
            failures.push(format!(
                "{}: `$ {}` printed other lines than the page shows:\n{}\
                 Update the lines after the command in {} to the actual output (a `[..]` \
                 stands for text that varies, a `...` line for lines left out).\n",
                example.place,
                example.command,
                difference(&example.expected, &actual),
                example.place
            ));
        }
    }
    failures
}

/// The pages whose commands need the `smt` feature (symbolic STS models): run only in a build
/// with it, as CI's is.
const NEEDS_SMT: &[&str] = &["docs/src/sts.md"];

#[test]
fn every_guide_example_prints_what_the_page_shows() {
    let bin = Path::new(env!("CARGO_BIN_EXE_ncomplete")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut failures = Vec::new();
    let mut used = vec![false; NOT_RUN.len()];
    let mut pages_blocks = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        let name = page
            .strip_prefix(common::root())
            .unwrap()
            .display()
            .to_string();
        pages_blocks.push(blocks(&name, &text));
    }
    let mut runnable: Vec<Vec<(&Block, Vec<Example>)>> = Vec::new();
    for blocks in &pages_blocks {
        let mut page = Vec::new();
        for block in blocks {
            if let Some(entry) = listed(block) {
                used[entry] = true;
                continue;
            }
            match examples(block) {
                Some(examples) if !examples.is_empty() => page.push((block, examples)),
                _ => failures.push(format!(
                    "{}: a ```{} block that is neither run nor listed: show its commands in a \
                     ```console or ```sh block, or list it in NOT_RUN of tests/guide_examples.rs \
                     with the reason (first line: {:?})\n",
                    block.place,
                    block.kind,
                    block.lines.first().map_or("", |l| l.as_str())
                )),
            }
        }
        runnable.push(page);
    }
    for (entry, (page, first, _)) in NOT_RUN.iter().enumerate() {
        if !used[entry] {
            failures.push(format!(
                "NOT_RUN lists a block that no page has: {page} {first:?}\n"
            ));
        }
    }
    let commands: usize = runnable.iter().flatten().map(|(_, e)| e.len()).sum();
    assert!(
        commands >= 50,
        "the guide's commands were found ({commands})"
    );
    let uses_pytest = |page: &Vec<(&Block, Vec<Example>)>| {
        page.iter()
            .any(|(b, _)| b.lines.iter().any(|l| l.contains("pytest")))
    };
    let pytest = !runnable.iter().any(uses_pytest)
        || common::pytest_available("the guide's pages whose examples run pytest");
    runnable.retain(|page| {
        let Some((block, _)) = page.first() else {
            return false;
        };
        if !cfg!(feature = "smt") && NEEDS_SMT.contains(&block.page.as_str()) {
            eprintln!(
                "SKIPPED: the examples of {} need the smt feature (cargo test --features smt)",
                block.page
            );
            return false;
        }
        pytest || !uses_pytest(page)
    });
    // The pages run side by side, a few at a time; their failures are reported in page order.
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, Vec<String>)>> = Mutex::new(Vec::new());
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(page) = runnable.get(k) else {
                        break;
                    };
                    let started = std::time::Instant::now();
                    let found = run_page(k, page, &path);
                    eprintln!(
                        "{}: {} blocks in {:.1} s",
                        page[0].0.page,
                        page.len(),
                        started.elapsed().as_secs_f64()
                    );
                    results.lock().unwrap().push((k, found));
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|(k, _)| *k);
    failures.extend(results.into_iter().flat_map(|(_, f)| f));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn patterns_match_as_documented() {
    assert!(line_matches("time: [..] s", "time: 0.34 s"));
    assert!(!line_matches("time: [..] s", "time: 0.34 ms"));
    assert!(line_matches("a[..]b[..]c", "a-b-c"));
    assert!(!line_matches("abc", "abd"));
    let lines = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(lines_match(
        &lines(&["a", "...", "d"]),
        &["a", "b", "c", "d"]
    ));
    assert!(lines_match(&lines(&["a", "...", "b"]), &["a", "b"]));
    assert!(!lines_match(&lines(&["a", "d"]), &["a", "b", "d"]));
}

#[test]
fn blocks_read_as_documented() {
    let text = "```sh\n# a comment\nncomplete info m.aut \\\n  --json   # why\n# line one\n#\n\
                ncomplete draw 'm\n.aut'\n```\n```console\n$ a\nout\n$ b\n```\n```python\nx\n```\n";
    let blocks = blocks("p.md", text);
    assert_eq!(blocks.len(), 2, "python blocks are not looked at");
    let sh = examples(&blocks[0]).unwrap();
    assert_eq!(sh.len(), 2);
    assert_eq!(sh[0].command, "ncomplete info m.aut \\\n  --json   # why");
    assert_eq!(sh[0].expected, ["line one", ""]);
    assert_eq!(sh[0].place, "p.md:3");
    assert!(sh[1].expected.is_empty());
    assert_eq!(sh[1].command, "ncomplete draw 'm\n.aut'", "a quote goes on");
    let console = examples(&blocks[1]).unwrap();
    assert_eq!(console[0].expected, ["out"]);
    assert!(console[1].expected.is_empty());
    assert_eq!(console[1].place, "p.md:13");
}
