//! The layer check itself (`scripts/layers`, run on the real tree by `scripts/test`): on a tiny
//! crate with a layer order, it reports an import from a lower layer to a higher one and a
//! circle of files, passes once both are listed as known debts, and reports an allowance that
//! matches nothing. What it must not read as imports (comments, strings, `#[cfg(test)]` code, a
//! re-export that only forwards a name) is in the fixture too.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A checkout holding `files` (path, text), made afresh under the test's own directory.
fn tree(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("layers-{name}"));
    let _ = std::fs::remove_dir_all(&root);
    for (path, text) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().expect("a file in a folder")).expect("mkdir");
        std::fs::write(path, text).expect("write fixture");
    }
    root
}

fn check(root: &Path) -> Output {
    Command::new("python3")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/layers"))
        .arg("--root")
        .arg(root)
        .output()
        .expect("python3 runs scripts/layers")
}

const ARCHITECTURE: &str = "# Architecture\n\n## Layers\n\n\
    1. **low**: `low/`\n\
    2. **high**: `high/`, `lib.rs`\n\n## Code map\n";

/// `low/a.rs` and `low/b.rs` import each other, and `low/a.rs` imports `high/`.
fn fixture() -> Vec<(&'static str, &'static str)> {
    vec![
        ("ARCHITECTURE.md", ARCHITECTURE),
        ("src/lib.rs", "pub mod high;\npub mod low;\n"),
        (
            "src/low/mod.rs",
            "//! Low.\npub mod a;\npub mod b;\npub mod c;\npub use a::A;\n",
        ),
        (
            "src/low/a.rs",
            "use super::b::B;\nuse crate::high::H;\npub struct A(pub B, pub H);\n",
        ),
        (
            "src/low/b.rs",
            "pub struct B;\npub fn f(_: &crate::low::A) {}\n",
        ),
        (
            "src/low/c.rs",
            "// use crate::high::H;\n/* crate::high::H */\n\
             pub const TEXT: &str = \"crate::high::H\";\n\
             #[cfg(test)]\nmod tests {\n    use crate::high::H;\n}\n",
        ),
        (
            "src/high/mod.rs",
            "pub struct H;\npub fn h(_: crate::low::c::C) {}\n",
        ),
    ]
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn an_arrow_up_and_a_circle_are_reported() {
    let root = tree("findings", &fixture());
    let out = check(&root);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines,
        [
            "up: src/low/a.rs (low) -> src/high/mod.rs (high): H",
            "circle: src/low/a.rs src/low/b.rs (src/low/a.rs -> src/low/b.rs: B; \
             src/low/b.rs -> src/low/a.rs: A)",
        ],
        "comments, strings, test code and the re-export of `low/mod.rs` are no imports"
    );
}

#[test]
fn listed_debts_pass_and_a_stale_allowance_fails() {
    let allow = "# why\nup src/low/a.rs -> src/high/mod.rs\n\
                 circle src/low/a.rs src/low/b.rs src/low/c.rs\n";
    let mut files = fixture();
    files.push(("scripts/layers.allow", allow));
    let root = tree("allowed", &files);
    let out = check(&root);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));

    // The arrow up removed: its allowance is reported, and the circle stays allowed.
    files.retain(|(path, _)| *path != "src/low/a.rs");
    files.push(("src/low/a.rs", "use super::b::B;\npub struct A(pub B);\n"));
    let root = tree("stale", &files);
    let out = check(&root);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert_eq!(
        stdout(&out).trim(),
        "layers.allow:2: the allowance `up src/low/a.rs -> src/high/mod.rs` matches no import: remove it"
    );
}

#[test]
fn a_file_in_no_layer_is_bad_input() {
    let mut files = fixture();
    files.push(("src/other.rs", "pub struct O;\n"));
    files.retain(|(path, _)| *path != "src/lib.rs");
    files.push((
        "src/lib.rs",
        "pub mod high;\npub mod low;\npub mod other;\n",
    ));
    let root = tree("unplaced", &files);
    let out = check(&root);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("src/other.rs is in no layer"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
