//! The command reference of the user guide (`docs/src/reference/`) is the program's own help,
//! one page per command (a section per subcommand), so it cannot drift from the clap definitions:
//! this test renders every page from `ncomplete <command> --help` and compares.
//! `UPDATE_REFERENCE=1 cargo test --test reference_pages` rewrites them; the book's table of
//! contents must list each page.

mod common;

use std::path::PathBuf;

fn help(args: &[&str]) -> String {
    let (status, stdout, stderr) = common::run(args);
    assert_eq!(status, 0, "ncomplete {args:?} failed: {stderr}");
    stdout
}

/// The subcommands listed under `Commands:` in the top-level help, `help` left out.
fn commands(top: &str) -> Vec<String> {
    top.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_owned)
        .collect()
}

fn page(title: &str, source: &str, body: &str) -> String {
    format!(
        "# {title}\n\n<!-- Generated from `{source}` by tests/reference_pages.rs; \
         `UPDATE_REFERENCE=1 cargo test --test reference_pages` rewrites it. -->\n\n\
         ```text\n{}\n```\n",
        body.trim_end()
    )
}

#[test]
fn reference_pages_are_the_programs_help() {
    let dir = common::root().join("docs/src/reference");
    let update = std::env::var_os("UPDATE_REFERENCE").is_some();
    let top = help(&["--help"]);
    let names = commands(&top);
    assert!(names.len() >= 10, "commands found: {names:?}");
    let mut expected: Vec<(PathBuf, String)> = vec![(
        dir.join("index.md"),
        page("Commands", "ncomplete --help", &top),
    )];
    for command in &names {
        let body = help(&[command, "--help"]);
        let mut text = page(
            &format!("ncomplete {command}"),
            &format!("ncomplete {command} --help"),
            &body,
        );
        // A command with subcommands (`results merge`): each one's help in a section.
        for sub in commands(&body) {
            let sub_help = help(&[command, &sub, "--help"]);
            text.push_str(&format!(
                "\n## ncomplete {command} {sub}\n\n```text\n{}\n```\n",
                sub_help.trim_end()
            ));
        }
        expected.push((dir.join(format!("{command}.md")), text));
    }
    let summary = std::fs::read_to_string(common::root().join("docs/src/SUMMARY.md")).unwrap();
    let mut stale = Vec::new();
    for (path, text) in &expected {
        let name = path.file_name().unwrap().to_string_lossy();
        assert!(
            summary.contains(&format!("(reference/{name})")),
            "docs/src/SUMMARY.md does not list reference/{name}"
        );
        if update {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(path, text).unwrap();
        } else if std::fs::read_to_string(path).ok().as_deref() != Some(text.as_str()) {
            stale.push(name.into_owned());
        }
    }
    // No page of a command that no longer exists.
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if !expected.iter().any(|(p, _)| *p == path) {
            if update {
                std::fs::remove_file(&path).unwrap();
            } else {
                stale.push(path.display().to_string());
            }
        }
    }
    assert!(
        stale.is_empty(),
        "stale reference pages {stale:?}: run UPDATE_REFERENCE=1 cargo test --test reference_pages"
    );
}
