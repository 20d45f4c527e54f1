//! The guide's and the README's examples run: every command of a ` ```console ` block in
//! `README.md` and `docs/src/**/*.md` that is shown with its output is run, and its output must
//! match (a guide whose output drifts fails CI until it follows).
//!
//! A block is `$ COMMAND` lines (a line ending in `\` continues on the next) each followed by
//! the lines it prints, standard output and error together. A block that shows no output at all
//! is not run (it names a system of the reader's, or only shows calls); in one that does, every
//! command runs and those shown with output are compared. In the expected lines, a
//! line `...` stands for any number of lines and `[..]` for any text within a line (times,
//! paths). Commands run with `sh` in a scratch directory where `models/` is the repository's
//! bundled models and `ncomplete` is this build, one directory per block, in order, so a later
//! command may read what an earlier one wrote.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;

/// One command of a block with the output the page shows (none: not compared).
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

/// The console blocks of `text` that show output, each as its commands.
fn blocks(page: &str, text: &str) -> Vec<Vec<Example>> {
    let mut blocks = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((_, line)) = lines.next() {
        if line.trim_end() != "```console" {
            continue;
        }
        let mut block: Vec<Example> = Vec::new();
        let mut continued = false;
        for (k, line) in lines.by_ref() {
            if line.starts_with("```") {
                break;
            }
            if continued {
                let last = block.last_mut().expect("a command to continue");
                last.command.push('\n');
                last.command.push_str(line);
                continued = line.ends_with('\\');
            } else if let Some(command) = line.strip_prefix("$ ") {
                block.push(Example {
                    place: format!("{page}:{}", k + 1),
                    command: command.to_owned(),
                    expected: Vec::new(),
                });
                continued = line.ends_with('\\');
            } else if let Some(last) = block.last_mut() {
                last.expected.push(line.to_owned());
            }
        }
        if block.iter().any(|e| !e.expected.is_empty()) {
            blocks.push(block);
        }
    }
    blocks
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

#[test]
fn every_console_example_prints_what_the_page_shows() {
    let bin = Path::new(env!("CARGO_BIN_EXE_ncomplete")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut failures = Vec::new();
    let mut checked = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        let name = page
            .strip_prefix(common::root())
            .unwrap()
            .display()
            .to_string();
        for (b, block) in blocks(&name, &text).into_iter().enumerate() {
            let dir = common::work_dir(&format!("guide-{}-{b}", name.replace('/', "-")));
            std::os::unix::fs::symlink(common::root().join("models"), dir.join("models")).unwrap();
            for example in block {
                let out = Command::new("sh")
                    .arg("-c")
                    .arg(format!("{{ {}\n}} 2>&1", example.command))
                    .current_dir(&dir)
                    .env("PATH", &path)
                    .output()
                    .unwrap();
                let actual = String::from_utf8_lossy(&out.stdout);
                let actual: Vec<&str> = actual.lines().collect();
                if example.expected.is_empty() {
                    continue;
                }
                checked += 1;
                if !lines_match(&example.expected, &actual) {
                    failures.push(format!(
                        "{}: `$ {}` printed other lines than the page shows:\n{}\
                         Update the lines after the command in {} to the actual output (a \
                         `[..]` stands for text that varies, a `...` line for lines left out).\n",
                        example.place,
                        example.command,
                        difference(&example.expected, &actual),
                        example.place
                    ));
                }
            }
        }
    }
    assert!(checked >= 2, "the guide's examples were found ({checked})");
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
