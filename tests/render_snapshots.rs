//! Snapshot tests of every template on small hand-written suites: the rendered files must equal
//! the ones under `tests/snapshots/` byte for byte. `UPDATE_SNAPSHOTS=1 cargo test --test
//! render_snapshots` rewrites them (review the diff before committing).

use ncomplete::render::{Format, PART_LIMIT, PartLimit, render_suite, render_suite_in_parts};
use ncomplete::suite::read_suite;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn check(suite: &str, format: Format, format_name: &str) {
    check_in_parts(suite, format, format_name, PART_LIMIT);
}

/// [`check`] with parts bounded by `limit`; the snapshots are under `format_name`. With a limit
/// of its own, only the TTCN-3 modules are kept: the other files equal those of the rendering
/// with [`PART_LIMIT`].
fn check_in_parts(suite: &str, format: Format, format_name: &str, limit: PartLimit) {
    let text = std::fs::read_to_string(root().join("tests/fixtures").join(suite)).unwrap();
    let (header, tests) = read_suite(&text).unwrap();
    let render = || {
        let mut files = render_suite_in_parts(&header, &tests, format, None, limit).unwrap();
        if limit != PART_LIMIT {
            files.retain(|f| f.path.extension().is_some_and(|e| e == "ttcn"));
        }
        files
    };
    let files = render();
    if limit == PART_LIMIT {
        assert_eq!(files, render_suite(&header, &tests, format, None).unwrap());
    }
    let stem = suite.trim_end_matches(".suite.json");
    let dir = root().join("tests/snapshots").join(stem).join(format_name);
    let update = std::env::var_os("UPDATE_SNAPSHOTS").is_some_and(|v| v == "1");
    let mut mismatches = Vec::new();
    for f in &files {
        let path = dir.join(&f.path);
        if update {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &f.contents).unwrap();
            continue;
        }
        match std::fs::read_to_string(&path) {
            Ok(expected) if expected == f.contents => {}
            Ok(expected) => {
                let line = expected
                    .lines()
                    .zip(f.contents.lines())
                    .position(|(a, b)| a != b)
                    .map_or(
                        expected.lines().count().min(f.contents.lines().count()),
                        |k| k,
                    )
                    + 1;
                mismatches.push(format!("{} differs from line {line}", path.display()));
            }
            Err(_) => mismatches.push(format!("{} is missing", path.display())),
        }
    }
    assert!(
        mismatches.is_empty(),
        "rendered output changed (rerun with UPDATE_SNAPSHOTS=1 and review):\n{}",
        mismatches.join("\n")
    );
    // Rendering is deterministic.
    assert_eq!(files, render());
}

#[test]
fn ttcn_snapshots() {
    check("coffee.suite.json", Format::Ttcn, "ttcn");
    check("mealy.suite.json", Format::Ttcn, "ttcn");
    // In parts of at most two tests: a definitions module, two part modules, a control module.
    let two = PartLimit {
        tests: 2,
        nodes: 1000,
    };
    check_in_parts("coffee.suite.json", Format::Ttcn, "ttcn-parts", two);
}

#[test]
fn python_snapshots() {
    check("coffee.suite.json", Format::Python, "python");
    check("mealy.suite.json", Format::Python, "python");
}

#[test]
fn rust_snapshots() {
    check("coffee.suite.json", Format::Rust, "rust");
    check("mealy.suite.json", Format::Rust, "rust");
}

#[test]
fn templates_can_be_overridden_from_a_directory() {
    let text = std::fs::read_to_string(root().join("tests/fixtures/mealy.suite.json")).unwrap();
    let (header, tests) = read_suite(&text).unwrap();
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("ncomplete-templates");
    std::fs::create_dir_all(dir.join("ttcn")).unwrap();
    std::fs::write(
        dir.join("ttcn/part.ttcn.j2"),
        "{% for t in tests %}{{ t.name | safe }}:{{ t.nodes | length }}\n{% endfor %}",
    )
    .unwrap();
    let files = render_suite(&header, &tests, Format::Ttcn, Some(&dir)).unwrap();
    assert_eq!(files[0].contents, "t0001:4\nt0002:6\n");
    assert_eq!(files[0].path, Path::new("toggle_part_001.ttcn"));
    // A name printed without an escaping filter (or an explicit `safe`) is refused.
    std::fs::write(dir.join("ttcn/part.ttcn.j2"), "// {{ model.name }}\n").unwrap();
    let err = render_suite(&header, &tests, Format::Ttcn, Some(&dir)).unwrap_err();
    assert!(
        err.to_string()
            .contains("printed without an escaping filter"),
        "{err}"
    );
    std::fs::write(dir.join("ttcn/part.ttcn.j2"), "{% for t in tests %}").unwrap();
    let err = render_suite(&header, &tests, Format::Ttcn, Some(&dir)).unwrap_err();
    assert!(
        err.to_string().starts_with("template ttcn/part.ttcn.j2:"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
