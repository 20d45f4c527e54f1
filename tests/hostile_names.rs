//! Hostile names (issue 12): model, state, label and test names, methods and guarantees holding
//! quotes, triple quotes, backslash escapes (`\U`, `\N`, `\x`), newlines, NUL, control and
//! bidirectional characters, non-ASCII text, template syntax, reserved words of Python, Rust and
//! TTCN-3, very long names and names differing only in case or punctuation. Each is rendered as
//! a pytest module, a Cargo package and TTCN-3 text:
//!
//! - the Python module must parse to the expected statements only, import, give back every name
//!   exactly (docstring, `MODEL`, test names) and pass against `ncomplete simulate` of the model;
//! - the Cargo package must be rustfmt-clean, build with `-D warnings` and pass against the same
//!   simulation, and its `MODEL.name` must equal the model name;
//! - the TTCN-3 text (no compiler here) must tokenize: comments on one line, charstrings
//!   well-formed and decoding to labels of the model, identifiers valid, not keywords, unique,
//!   and the token structure equal to that of the same suite with plain names;
//! - both come with their on-the-fly testers of the model (`render --explore-spec`), which must
//!   build (Rust, rustfmt-clean too) and pass a short run against the same simulation;
//! - nothing else runs: names try to create a canary file (`os.system`, `open`, shell
//!   substitution, `std::fs::write`, a build script through `Cargo.toml`), which must not exist
//!   afterwards.
//!
//! Labels are restricted to what the stdio protocol carries (no control characters, no leading
//! or trailing white space); every other name may hold anything. The Python runs need pytest
//! (skipped with a message when it is missing, an error under `CI=true`, as in
//! `tests/e2e_programs.rs`); Cargo builds share one target directory.

mod common;

use common::work_dir;

use ncomplete::render::{Format, RenderedFile, render_suite};
use ncomplete::suite::read_suite;
use proptest::prelude::*;
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_ncomplete");

/// Pieces of hostile names. `{CANARY}` stands for the path of the canary file.
const FRAGMENTS: &[&str] = &[
    "s2\"\"\"; import os; os.system(\"touch {CANARY}\"); \"\"\"",
    "'''; open(r'{CANARY}', 'w'); '''",
    "\"); open(\"{CANARY}\", \"w\"); (\"",
    "\"); std::fs::write(\"{CANARY}\", \"\").unwrap(); (\"",
    "*/ std::fs::write(\"{CANARY}\", \"\"); /*",
    "\n}\n#[test] fn pwn() { std::fs::write(\"{CANARY}\", \"\").unwrap(); }\n",
    "\"\nbuild = \"build.rs\"\n[package]\nx = \"",
    "\n[lib]\npath = \"{CANARY}\"\n",
    "$(touch {CANARY})",
    "`touch {CANARY}`",
    "\"); } testcase evil() runs on Tester { log(\"",
    "\n```\nstd::fs::write(\"{CANARY}\", \"\").unwrap();\n```\n",
    "\\U0001F600",
    "\\N{BULLET}",
    "\\x41\\u0041\\u{41}",
    "\\",
    "\\\\",
    "\\\"",
    "\"",
    "'",
    "\"\"\"",
    "'''",
    "\"\"",
    "\0",
    "\u{7}\u{8}",
    "\u{1b}[31m",
    "\r",
    "\n",
    "\r\n",
    "\t",
    "\u{b}\u{c}",
    "\u{7f}",
    "\u{85}",
    "\u{2028}\u{2029}",
    "\u{202e}\u{2066}",
    "\u{feff}",
    "\u{200b}",
    "é",
    "e\u{301}",
    "漢字",
    "😀",
    "Ω",
    "{{ model.name }}",
    "{% raw %}",
    "{#",
    "${HOME}",
    "<script>alert(1)</script>",
    "[x](javascript:alert(1))",
    "// ",
    "/* ",
    "# ",
    "-- ",
    "&",
    "loop",
    "Loop",
    "LOOP",
    "abstract",
    "box",
    "macro",
    "gen",
    "Self",
    "self",
    "crate",
    "super",
    "None",
    "True",
    "class",
    "lambda",
    "match",
    "case",
    "_",
    "type",
    "testcase",
    "control",
    "module",
    "alt",
    "goto",
    "label",
    "n0",
    "n1",
    "con",
    "NUL",
    "main",
    "test",
    "std",
    "a-b",
    "a_b",
    "a b",
    "A.B",
    "1",
    "42abc",
    " ",
    "",
];

/// Fills in the canary path.
fn with_canary(s: &str, canary: &Path) -> String {
    s.replace("{CANARY}", &canary.display().to_string())
}

/// A label the stdio protocol carries: control and white-space characters other than inner
/// spaces removed, never empty.
fn as_label(s: &str) -> String {
    let kept: String = s
        .chars()
        .filter(|&c| c == ' ' || !(c.is_control() || c.is_whitespace()))
        .collect();
    let kept = kept.trim();
    if kept.is_empty() {
        "l".to_owned()
    } else {
        kept.to_owned()
    }
}

/// Makes `names` pairwise different (and different from `taken`) by appending ` #k`.
fn distinct(names: Vec<String>, taken: &mut BTreeSet<String>) -> Vec<String> {
    names
        .into_iter()
        .map(|name| {
            let mut candidate = name.clone();
            let mut k = 2;
            while !taken.insert(candidate.clone()) {
                candidate = format!("{name} #{k}");
                k += 1;
            }
            candidate
        })
        .collect()
}

/// The names of one hostile model and suite.
#[derive(Clone, Debug)]
struct Names {
    model: String,
    /// The three states; the third one appears in the `ioco-ads` guarantee.
    states: Vec<String>,
    /// Input `a`, outputs `x`, `y`, quiescence `q` of the model.
    labels: Vec<String>,
    method: String,
    /// Extra text appended to the guarantee.
    guarantee: String,
    /// Names of the tests, used in turn.
    tests: Vec<String>,
}

impl Names {
    fn fill(&self, canary: &Path) -> Names {
        let states = self.states.iter().map(|s| with_canary(s, canary)).collect();
        let labels = self
            .labels
            .iter()
            .map(|s| as_label(&with_canary(s, canary)))
            .collect();
        Names {
            model: with_canary(&self.model, canary),
            states: distinct(states, &mut BTreeSet::new()),
            labels: distinct(labels, &mut BTreeSet::new()),
            method: with_canary(&self.method, canary),
            guarantee: with_canary(&self.guarantee, canary),
            tests: self.tests.iter().map(|s| with_canary(s, canary)).collect(),
        }
    }

    /// Every fragment at once: the long model name is all of them, the tests are named one
    /// fragment each.
    fn all_fragments() -> Names {
        let all: String = FRAGMENTS.concat();
        Names {
            model: all.clone(),
            states: vec![
                "\"\"\"".to_owned(),
                "s1\\N{x}".to_owned(),
                FRAGMENTS[0].to_owned(),
            ],
            labels: vec![
                "a \"\"\" \\U \\N{x} 'q'".to_owned(),
                "x é 漢字 😀 \u{202e}".to_owned(),
                "{{ y }} /* */ // # \\".to_owned(),
                "\"); } δ".to_owned(),
            ],
            method: all.clone(),
            guarantee: all,
            tests: FRAGMENTS.iter().map(|s| (*s).to_owned()).collect(),
        }
    }
}

fn fragment() -> impl Strategy<Value = String> {
    (0..FRAGMENTS.len()).prop_map(|k| FRAGMENTS[k].to_owned())
}

/// A name: one to four fragments, or one fragment repeated into a long name.
fn hostile_name() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => proptest::collection::vec(fragment(), 1..5).prop_map(|v| v.concat()),
        1 => (fragment(), 40..300usize).prop_map(|(f, n)| format!("{f}x").repeat(n)),
    ]
}

fn hostile_names() -> impl Strategy<Value = Names> {
    (
        hostile_name(),
        proptest::collection::vec(hostile_name(), 3),
        proptest::collection::vec(hostile_name(), 4),
        hostile_name(),
        hostile_name(),
        proptest::collection::vec(hostile_name(), 1..12),
    )
        .prop_map(|(model, states, labels, method, guarantee, tests)| Names {
            model,
            states,
            labels,
            method,
            guarantee,
            tests,
        })
}

/// The model, in the native JSON format: `s0 -a-> s1 -x|y-> s2 -a-> s0`, quiescence `q` in
/// `s0` and `s2`. `s2` is reached through an optional output, so the `ioco-ads` guarantee names
/// it.
fn model_json(names: &Names) -> Value {
    let [s0, s1, s2] = [&names.states[0], &names.states[1], &names.states[2]];
    let [a, x, y, q] = [
        &names.labels[0],
        &names.labels[1],
        &names.labels[2],
        &names.labels[3],
    ];
    json!({
        "name": names.model, "kind": "lts", "inputs": [a], "outputs": [x, y], "quiescence": q,
        "initial": s0, "states": [s0, s1, s2],
        "transitions": [
            {"from": s0, "label": a, "to": s1},
            {"from": s0, "label": q, "to": s0},
            {"from": s1, "label": x, "to": s2},
            {"from": s1, "label": y, "to": s2},
            {"from": s2, "label": q, "to": s2},
            {"from": s2, "label": a, "to": s0},
        ],
    })
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// One hostile case on disk: the model, its `ioco-ads` suite with the hostile method, guarantee
/// and test names, and the names as they ended up in the suite.
struct Case {
    dir: PathBuf,
    canary: PathBuf,
    model_path: PathBuf,
    suite_path: PathBuf,
    suite: Value,
}

fn prepare(dir: PathBuf, names: &Names, tests_at_least: usize) -> Case {
    let canary = dir.join("canary");
    let names = names.fill(&canary);
    let model_path = dir.join("model.json");
    std::fs::write(&model_path, model_json(&names).to_string()).unwrap();
    let generated = dir.join("generated.json");
    let out = Command::new(BIN)
        .arg("generate")
        .arg(&model_path)
        .args([
            "--method",
            "ioco-ads",
            "--extra-states",
            "0",
            "--quiet",
            "--out",
        ])
        .arg(&generated)
        .output()
        .unwrap();
    assert!(out.status.success(), "generate: {}", text(&out));
    let mut suite: Value =
        serde_json::from_str(&std::fs::read_to_string(&generated).unwrap()).unwrap();
    assert!(
        suite["guarantee"]
            .as_str()
            .unwrap()
            .contains(names.states[2].as_str()),
        "the guarantee quotes the state name"
    );
    suite["method"] = json!(names.method);
    let guarantee = format!(
        "{} {}",
        suite["guarantee"].as_str().unwrap(),
        names.guarantee
    );
    suite["guarantee"] = json!(guarantee);
    let tests = suite["tests"].as_array().unwrap().clone();
    let count = tests.len().max(tests_at_least);
    let renamed: Vec<Value> = (0..count)
        .map(|k| {
            let mut test = tests[k % tests.len()].clone();
            test["name"] = json!(names.tests[k % names.tests.len()]);
            test
        })
        .collect();
    suite["tests"] = json!(renamed);
    let suite_path = dir.join("suite.json");
    std::fs::write(&suite_path, suite.to_string()).unwrap();
    Case {
        dir,
        canary,
        model_path,
        suite_path,
        suite,
    }
}

impl Case {
    /// Renders the suite, in Python and Rust with the on-the-fly tester of the model.
    fn render(&self, format: &str) -> PathBuf {
        let out_dir = self.dir.join(format);
        let mut render = Command::new(BIN);
        render
            .arg("render")
            .arg(&self.suite_path)
            .args(["--format", format, "--out"])
            .arg(&out_dir);
        if format != "ttcn" {
            render.arg("--explore-spec").arg(&self.model_path);
        }
        let out = render.output().unwrap();
        assert!(out.status.success(), "render {format}: {}", text(&out));
        out_dir
    }

    fn sut(&self) -> String {
        format!(
            "'{BIN}' simulate '{}' --choose random",
            self.model_path.display()
        )
    }

    fn test_names(&self) -> Vec<String> {
        self.suite["tests"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_owned())
            .collect()
    }

    fn labels(&self) -> BTreeSet<String> {
        let m = &self.suite["model"];
        let mut labels: BTreeSet<String> = ["inputs", "outputs"]
            .iter()
            .flat_map(|k| m[k].as_array().unwrap().iter())
            .map(|l| l.as_str().unwrap().to_owned())
            .collect();
        labels.extend(m["quiescence"].as_str().map(str::to_owned));
        labels
    }

    /// Nothing a name holds has run.
    fn assert_no_canary(&self) {
        for marker in [self.canary.clone(), self.dir.join("python/canary")] {
            assert!(
                !marker.exists(),
                "{} exists: a name ran as code",
                marker.display()
            );
        }
    }
}

/// Parses the module (only the docstring, the import, `pytest_plugins`, `SUT_VARIABLE`, `MODEL`
/// and one function per test may appear), imports it and compares every name with the suite's.
const PYTHON_CHECK: &str = r#"
import ast, importlib, json, os, sys
sys.path.insert(0, os.getcwd())
expect = json.load(open(sys.argv[1], encoding="utf-8"))
module = expect["module"]
tree = ast.parse(open(module + ".py", encoding="utf-8").read())
kinds = [type(n).__name__ for n in tree.body]
assert kinds == ["Expr", "ImportFrom", "Assign", "Assign", "Assign"] + ["FunctionDef"] * len(expect["tests"]), kinds
funcs = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
assert len({f.name for f in funcs}) == len(funcs), "test functions are unique"
names = [ast.literal_eval(f.body[0].value.args[2]) for f in funcs]
assert names == expect["tests"], (names, expect["tests"])
for f in funcs:
    first = ast.literal_eval(f.decorator_list[0].keywords[0].value)
    assert first is None or first in expect["inputs"], first
doc = ast.get_docstring(tree, clean=False)
for key in ("model", "method", "guarantee"):
    assert expect[key] in doc, key
if expect["import"]:
    m = importlib.import_module(module)
    assert m.__doc__ == doc
    assert m.MODEL.name == expect["model"]
    assert list(m.MODEL.inputs) == expect["inputs"], m.MODEL.inputs
    assert list(m.MODEL.outputs) == expect["outputs"], m.MODEL.outputs
    assert m.MODEL.quiescence == expect["quiescence"]
    assert m.SUT_VARIABLE.startswith("NCOMPLETE_SUT_") and m.SUT_VARIABLE.isascii(), m.SUT_VARIABLE
print("ok")
"#;

/// Checks the pytest module statically and, with pytest, imports it, collects it and (with
/// `run`) runs it against the simulated model.
fn check_python(case: &Case, run: bool) {
    let dir = case.render("python");
    let module = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .find(|n| n.starts_with("test_") && n.ends_with(".py"))
        .expect("a test module");
    let with_pytest = common::pytest_available("hostile-names Python runs");
    let m = &case.suite["model"];
    let expect = json!({
        "module": module.trim_end_matches(".py"),
        "import": with_pytest,
        "model": m["name"], "inputs": m["inputs"], "outputs": m["outputs"],
        "quiescence": m["quiescence"],
        "method": case.suite["method"], "guarantee": case.suite["guarantee"],
        "tests": case.test_names(),
    });
    std::fs::write(case.dir.join("expect.json"), expect.to_string()).unwrap();
    std::fs::write(case.dir.join("check.py"), PYTHON_CHECK).unwrap();
    let out = Command::new("python3")
        .arg(case.dir.join("check.py"))
        .arg(case.dir.join("expect.json"))
        .current_dir(&dir)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .unwrap();
    assert!(out.status.success(), "python check: {}", text(&out));
    case.assert_no_canary();
    if !with_pytest {
        return;
    }
    let mode: &[&str] = if run { &["-q"] } else { &["--co", "-q"] };
    let out = Command::new("python3")
        .args(["-m", "pytest"])
        .args(mode)
        .args(["-p", "no:cacheprovider"])
        .arg(&dir)
        .current_dir(&dir)
        .env("NCOMPLETE_SUT", case.sut())
        .env("NCOMPLETE_QUIESCENCE_MS", "400")
        .env("NCOMPLETE_RETRIES", "30")
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .unwrap();
    let report = text(&out);
    assert!(out.status.success(), "pytest: {report}");
    let count = case.test_names().len();
    let passed = if run {
        format!("{count} passed")
    } else {
        format!("{count} tests collected")
    };
    assert!(report.contains(&passed), "expected {passed}: {report}");
    case.assert_no_canary();
    if run {
        let mut python = Command::new("python3");
        python
            .arg(explorer_in(&dir))
            .current_dir(&dir)
            .env("PYTHONDONTWRITEBYTECODE", "1");
        check_explorer(case, python);
    }
}

/// The name of the on-the-fly tester in `dir` (the entry starting with `explore_`).
fn explorer_in(dir: &Path) -> String {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .find(|n| n.starts_with("explore_"))
        .expect("an explorer")
}

/// Runs an on-the-fly tester for 10 steps against the simulated model, whose outputs wait 100 ms
/// for an input that overtakes them (so a race resolves as the tester sees it): it passes and
/// runs nothing else.
fn check_explorer(case: &Case, mut program: Command) {
    let out = program
        .args(["--steps", "10"])
        .env("NCOMPLETE_SUT", format!("{} --delay-ms 100", case.sut()))
        .env("NCOMPLETE_QUIESCENCE_MS", "200")
        .output()
        .unwrap();
    let report = text(&out);
    assert!(out.status.success(), "{program:?}: {report}");
    assert!(report.contains("pass: 10 steps"), "{program:?}: {report}");
    case.assert_no_canary();
}

/// Builds and runs the Cargo package against the simulated model, with an extra test file that
/// compares `MODEL.name` with the model name.
fn check_rust(case: &Case) {
    let dir = case.render("rust");
    let cargo_toml = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    let lib = cargo_toml
        .split("[lib]\nname = \"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("a [lib] name");
    let model_name = case.suite["model"]["name"].as_str().unwrap();
    std::fs::write(dir.join("model_name.txt"), model_name).unwrap();
    std::fs::write(
        dir.join("tests/names.rs"),
        format!(
            "#[test]\nfn model_name_is_exact() {{\n    let expected = std::fs::read_to_string(\
             concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/model_name.txt\")).unwrap();\n    \
             assert_eq!({lib}::MODEL.name, expected);\n}}\n"
        ),
    )
    .unwrap();
    let explorer = explorer_in(&dir.join("src/bin"));
    let fmt = Command::new("rustfmt")
        .args(["--edition", "2021", "--check"])
        .arg(dir.join("src/lib.rs"))
        .arg(dir.join("tests/suite.rs"))
        .arg(dir.join("src/bin").join(&explorer).join("main.rs"))
        .output();
    if let Ok(fmt) = fmt {
        assert!(fmt.status.success(), "not rustfmt-clean:\n{}", text(&fmt));
    }
    let target = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("hostile-rust-target");
    let out = Command::new(env!("CARGO"))
        .args(["test", "--offline", "--quiet"])
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", &target)
        .env("RUSTFLAGS", "-D warnings")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("RUSTC_WRAPPER")
        .env("NCOMPLETE_SUT", case.sut())
        .env("NCOMPLETE_QUIESCENCE_MS", "400")
        .env("NCOMPLETE_RETRIES", "30")
        .output()
        .unwrap();
    let report = text(&out);
    assert!(out.status.success(), "cargo test: {report}");
    let passed = format!("{} passed", case.test_names().len());
    assert!(report.contains(&passed), "expected {passed}: {report}");
    case.assert_no_canary();
    // `cargo test` built the explorer too.
    check_explorer(case, Command::new(target.join("debug").join(&explorer)));
}

// ---------------------------------------------------------------------------------------------
// TTCN-3: a tokenizer-level check.

#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Ident(String),
    Number(String),
    /// A charstring literal, decoded.
    Str(String),
    Punct(String),
}

/// Tokenizes TTCN-3-like text: `//` comments to the end of the line (printable ASCII only),
/// charstrings of printable ASCII without backslashes and with `""` for a quote, identifiers,
/// numbers and punctuation. Block comments and any other character are errors.
fn tokenize(text: &str) -> Result<Vec<Token>, String> {
    let bytes = text.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    let line = |i: usize| text[..i].matches('\n').count() + 1;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b' ' | b'\n' => i += 1,
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                let end = text[i..].find('\n').map_or(bytes.len(), |k| i + k);
                if let Some(c) = text[i..end].chars().find(|c| !(' '..='~').contains(c)) {
                    return Err(format!("line {}: comment holds {c:?}", line(i)));
                }
                i = end;
            }
            b'"' => {
                let mut value = String::new();
                i += 1;
                loop {
                    match bytes.get(i) {
                        None => return Err(format!("line {}: unterminated charstring", line(i))),
                        Some(b'"') if bytes.get(i + 1) == Some(&b'"') => {
                            value.push('"');
                            i += 2;
                        }
                        Some(b'"') => {
                            i += 1;
                            break;
                        }
                        Some(b'\\') => {
                            return Err(format!("line {}: backslash in a charstring", line(i)));
                        }
                        Some(&c) if (b' '..=b'~').contains(&c) => {
                            value.push(c as char);
                            i += 1;
                        }
                        Some(c) => {
                            return Err(format!("line {}: byte {c:#x} in a charstring", line(i)));
                        }
                    }
                }
                tokens.push(Token::Str(value));
            }
            b if b.is_ascii_alphabetic() => {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                tokens.push(Token::Ident(text[start..i].to_owned()));
            }
            b if b.is_ascii_digit() => {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'.') {
                    i += 1;
                }
                tokens.push(Token::Number(text[start..i].to_owned()));
            }
            b':' | b'=' | b'!' if bytes.get(i + 1) == Some(&b'=') => {
                tokens.push(Token::Punct(text[i..i + 2].to_owned()));
                i += 2;
            }
            b'-' if bytes.get(i + 1) == Some(&b'>') => {
                tokens.push(Token::Punct(text[i..i + 2].to_owned()));
                i += 2;
            }
            b'(' | b')' | b'{' | b'}' | b'[' | b']' | b';' | b',' | b'.' | b'&' | b':' | b'<'
            | b'>' | b'+' | b'*' | b'?' => {
                tokens.push(Token::Punct((b as char).to_string()));
                i += 1;
            }
            _ => {
                let c = text[i..].chars().next().unwrap_or('?');
                return Err(format!("line {}: unexpected {c:?}", line(i)));
            }
        }
    }
    Ok(tokens)
}

/// TTCN-3 keywords (ETSI ES 201 873-1), checked independently of the renderer's list.
#[rustfmt::skip]
const TTCN_KEYWORDS: &[&str] = &[
    "action", "activate", "address", "alive", "all", "alt", "altstep", "and", "and4b", "any",
    "anytype", "bitstring", "boolean", "break", "case", "call", "catch", "char", "charstring",
    "check", "clear", "complement", "component", "connect", "const", "continue", "control",
    "create", "deactivate", "default", "disconnect", "display", "do", "done", "else", "encode",
    "enumerated", "error", "except", "exception", "execute", "extends", "extension", "external",
    "fail", "false", "float", "for", "friend", "from", "function", "getverdict", "getcall",
    "getreply", "goto", "group", "halt", "hexstring", "if", "ifpresent", "import", "in", "inconc",
    "infinity", "inout", "integer", "interleave", "kill", "killed", "label", "language", "length",
    "log", "map", "match", "message", "mixed", "mod", "modifies", "module", "modulepar", "mtc",
    "noblock", "none", "not", "not4b", "nowait", "null", "objid", "octetstring", "of", "omit",
    "on", "optional", "or", "or4b", "out", "override", "param", "pass", "pattern", "permutation",
    "port", "present", "private", "procedure", "public", "raise", "read", "receive", "record",
    "recursive", "rem", "repeat", "reply", "return", "running", "runs", "select", "self", "send",
    "sender", "set", "setverdict", "signature", "start", "stop", "subset", "superset", "system",
    "template", "testcase", "timeout", "timer", "to", "trigger", "true", "type", "union",
    "universal", "unmap", "value", "valueof", "var", "variant", "verdicttype", "while", "with",
    "xor", "xor4b",
];

/// The token structure with every charstring expression (literals and `char(...)` quadruples
/// joined by `&`) replaced by one decoded [`Token::Str`], the `universal` of the port type
/// dropped, and `f_label(...)` around a message (of a universal charstring port) removed.
fn fold_charstrings(tokens: &[Token]) -> Result<Vec<Token>, String> {
    let mut out: Vec<Token> = Vec::new();
    let mut i = 0;
    let quad = |i: usize| -> Option<char> {
        let t = tokens.get(i..i + 10)?;
        let ident = |k: usize, s: &str| t[k] == Token::Ident(s.to_owned());
        let punct = |k: usize, s: &str| t[k] == Token::Punct(s.to_owned());
        let num = |k: usize| match &t[k] {
            Token::Number(n) => n.parse::<u32>().ok().filter(|&v| v < 256),
            _ => None,
        };
        let shape = ident(0, "char")
            && punct(1, "(")
            && [3, 5, 7].iter().all(|&k| punct(k, ","))
            && punct(9, ")");
        if !shape {
            return None;
        }
        let code = (num(2)? << 24) | (num(4)? << 16) | (num(6)? << 8) | num(8)?;
        char::from_u32(code)
    };
    while i < tokens.len() {
        let piece = match &tokens[i] {
            Token::Str(s) => Some((s.clone(), 1)),
            Token::Ident(c) if c == "char" => {
                Some((quad(i).ok_or("malformed char(...)")?.to_string(), 10))
            }
            _ => None,
        };
        match piece {
            Some((s, len)) => {
                // Joined to a charstring before the `&` (not to a call's result).
                let joined = i > 0
                    && tokens[i - 1] == Token::Punct("&".to_owned())
                    && matches!(out.last(), Some(Token::Punct(p)) if p == "&")
                    && matches!(
                        out.len().checked_sub(2).map(|k| &out[k]),
                        Some(Token::Str(_))
                    );
                if joined {
                    out.pop();
                    match out.last_mut() {
                        Some(Token::Str(prev)) => prev.push_str(&s),
                        _ => return Err("`&` after something other than a charstring".into()),
                    }
                } else {
                    out.push(Token::Str(s));
                }
                i += len;
            }
            None => {
                if tokens[i] != Token::Ident("universal".to_owned()) {
                    out.push(tokens[i].clone());
                }
                i += 1;
            }
        }
    }
    // A universal charstring port's messages pass through `f_label(...)`: the charstring alone.
    let mut unwrapped: Vec<Token> = Vec::with_capacity(out.len());
    let mut k = 0;
    while k < out.len() {
        match &out[k..] {
            [
                Token::Ident(f),
                Token::Punct(open),
                Token::Str(label),
                Token::Punct(close),
                ..,
            ] if f == "f_label" && open == "(" && close == ")" => {
                unwrapped.push(Token::Str(label.clone()));
                k += 4;
            }
            _ => {
                unwrapped.push(out[k].clone());
                k += 1;
            }
        }
    }
    Ok(unwrapped)
}

/// A piece of the reasons the TTCN-3 testcases give: fixed text, a label of the model, or the
/// list of expected outputs (`nothing`, or labels, outputs after `!`, joined by `, `).
enum Piece {
    Text(&'static str),
    Label,
    List,
}

/// The reasons' charstrings: the fixed texts of the definitions module, and the texts the
/// testcases put together from labels (`ncomplete run`'s messages without the trace).
const REASONS: &[&[Piece]] = {
    use Piece::{Label, List, Text};
    &[
        &[Text("")],
        &[Text("unexpected !")],
        &[Text("output !")],
        &[Text(")")],
        &[Text(" ms")],
        &[Text("the system wrote `")],
        &[Text(
            "` without a newline and did not finish the line within ",
        )],
        &[Text("no output within the response timeout of ")],
        &[Text(" ms (expected one of: ")],
        &[List],
        &[Text(" (expected one of: "), List, Text(")")],
        &[
            Text("unexpected !"),
            Label,
            Text(" (expected one of: "),
            List,
            Text(")"),
        ],
        &[
            Text(" arrived before input ?"),
            Label,
            Text(" could be sent (allowed instead: "),
            List,
            Text(")"),
        ],
        &[
            Text("output !"),
            Label,
            Text(" arrived before input ?"),
            Label,
            Text(" could be sent (allowed instead: "),
            List,
            Text(")"),
        ],
        &[Text("the test fails after input ?"), Label],
    ]
};

/// Whether `s` is made of `pieces` with labels from `labels` (trying every way to split it).
fn made_of(s: &str, pieces: &[Piece], labels: &BTreeSet<String>) -> bool {
    match pieces.split_first() {
        None => s.is_empty(),
        Some((Piece::Text(t), rest)) => s.strip_prefix(t).is_some_and(|r| made_of(r, rest, labels)),
        Some((Piece::Label, rest)) => labels.iter().any(|l| {
            s.strip_prefix(l.as_str())
                .is_some_and(|r| made_of(r, rest, labels))
        }),
        Some((Piece::List, rest)) => {
            if s.strip_prefix("nothing")
                .is_some_and(|r| made_of(r, rest, labels))
            {
                return true;
            }
            labels.iter().any(|l| {
                [
                    s.strip_prefix('!').and_then(|r| r.strip_prefix(l.as_str())),
                    s.strip_prefix(l.as_str()),
                ]
                .into_iter()
                .flatten()
                .any(|r| {
                    made_of(r, rest, labels)
                        || r.strip_prefix(", ")
                            .is_some_and(|r| made_of(r, pieces, labels))
                })
            })
        }
    }
}

/// Checks rendered TTCN-3 text: tokens as above, every charstring a label of the model or a
/// reason made of labels ([`REASONS`]), the testcase and module identifiers valid, not keywords
/// and unique.
fn check_ttcn(text: &str, labels: &BTreeSet<String>, tests: usize) -> Result<Vec<Token>, String> {
    let tokens = fold_charstrings(&tokenize(text)?)?;
    let mut testcases = BTreeSet::new();
    for (k, token) in tokens.iter().enumerate() {
        match token {
            Token::Str(s)
                if !labels.contains(s) && !REASONS.iter().any(|r| made_of(s, r, labels)) =>
            {
                return Err(format!("charstring {s:?} is neither a label nor a reason"));
            }
            Token::Ident(kw) if kw == "testcase" || kw == "module" => {
                let Some(Token::Ident(id)) = tokens.get(k + 1) else {
                    return Err(format!("{kw} without an identifier"));
                };
                if TTCN_KEYWORDS.contains(&id.as_str()) {
                    return Err(format!("{kw} named by the keyword {id}"));
                }
                if kw == "testcase" && !testcases.insert(id.clone()) {
                    return Err(format!("two testcases named {id}"));
                }
            }
            _ => {}
        }
    }
    if testcases.len() != tests {
        return Err(format!("{} testcases for {tests} tests", testcases.len()));
    }
    Ok(tokens)
}

/// The structure of a token list: identifiers that are not keywords become `ID`, charstrings
/// `STR`.
fn skeleton(tokens: &[Token]) -> Vec<Token> {
    tokens
        .iter()
        .map(|t| match t {
            Token::Ident(id) if !TTCN_KEYWORDS.contains(&id.as_str()) => {
                Token::Ident("ID".to_owned())
            }
            Token::Str(_) => Token::Str("STR".to_owned()),
            other => other.clone(),
        })
        .collect()
}

fn check_ttcn_case(case: &Case) {
    let dir = case.render("ttcn");
    // The definitions, part and control modules, beside the Titan test port (LabelPort.hh,
    // LabelPort.cc), checked as one text: the testcases of all parts together.
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|f| f.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ttcn"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 3, "{files:?}");
    let text: String = files
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect();
    if let Err(e) = check_ttcn(&text, &case.labels(), case.test_names().len()) {
        panic!("TTCN-3 text: {e}\n{text}");
    }
}

// ---------------------------------------------------------------------------------------------
// Rendering only, in process: many cases, against the bundled fixture suites.

/// `suite` with labels renamed by `map` everywhere (model and nodes).
fn rename_labels(suite: &Value, map: &BTreeMap<String, String>) -> Value {
    let rename = |v: &Value| json!(map[v.as_str().unwrap()]);
    let mut out = suite.clone();
    for key in ["inputs", "outputs"] {
        out["model"][key] = json!(
            suite["model"][key]
                .as_array()
                .unwrap()
                .iter()
                .map(rename)
                .collect::<Vec<_>>()
        );
    }
    if suite["model"]["quiescence"].is_string() {
        out["model"]["quiescence"] = rename(&suite["model"]["quiescence"]);
    }
    for test in out["tests"].as_array_mut().unwrap() {
        for node in test["nodes"].as_array_mut().unwrap() {
            let node = node.as_object_mut().unwrap();
            if let Some(send) = node.get("send") {
                let renamed = rename(send);
                node.insert("send".into(), renamed);
            }
            for key in ["race", "expect"] {
                if let Some(Value::Object(branches)) = node.get(key) {
                    let renamed: serde_json::Map<String, Value> = branches
                        .iter()
                        .map(|(l, next)| (map[l.as_str()].clone(), next.clone()))
                        .collect();
                    node.insert(key.into(), Value::Object(renamed));
                }
            }
        }
    }
    out
}

fn render(suite: &Value, format: Format) -> Vec<RenderedFile> {
    let (header, tests) = read_suite(&suite.to_string()).unwrap();
    render_suite(&header, &tests, format, None).unwrap()
}

fn fixture(name: &str) -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// The fixture suites (an LTS with quiescence and a Mealy machine) with hostile names: the
    /// TTCN-3 text keeps the structure of the plain rendering and decodes to the hostile labels;
    /// the Python module parses to the expected statements with the names back exactly.
    #[test]
    fn hostile_renderings_keep_their_structure(names in hostile_names(), mealy in any::<bool>()) {
        let plain = fixture(if mealy { "mealy.suite.json" } else { "coffee.suite.json" });
        let dir = work_dir(&format!("hostile-render-{}", std::process::id()));
        let names = names.fill(&dir.join("canary"));
        let m = &plain["model"];
        let old: Vec<String> = ["inputs", "outputs"]
            .iter()
            .flat_map(|k| m[k].as_array().unwrap().iter())
            .chain(m["quiescence"].as_str().map(|_| &m["quiescence"]))
            .map(|l| l.as_str().unwrap().to_owned())
            .collect();
        let mut taken = BTreeSet::new();
        let new = distinct(
            (0..old.len()).map(|k| names.labels[k % names.labels.len()].clone()).collect(),
            &mut taken,
        );
        let map: BTreeMap<String, String> = old.iter().cloned().zip(new.iter().cloned()).collect();
        let mut suite = rename_labels(&plain, &map);
        suite["model"]["name"] = json!(names.model);
        suite["method"] = json!(names.method);
        suite["guarantee"] = json!(names.guarantee);
        let count = suite["tests"].as_array().unwrap().len();
        for (k, test) in suite["tests"].as_array_mut().unwrap().iter_mut().enumerate() {
            test["name"] = json!(names.tests[k % names.tests.len()]);
        }
        let labels: BTreeSet<String> = new.iter().cloned().collect();

        let hostile = render(&suite, Format::Ttcn).remove(0).contents;
        let tokens = check_ttcn(&hostile, &labels, count).map_err(|e| {
            TestCaseError::fail(format!("{e}\n{hostile}"))
        })?;
        let plain_text = render(&plain, Format::Ttcn).remove(0).contents;
        let plain_labels: BTreeSet<String> = old.iter().cloned().collect();
        let plain_tokens = check_ttcn(&plain_text, &plain_labels, count)
            .map_err(TestCaseError::fail)?;
        prop_assert_eq!(skeleton(&tokens), skeleton(&plain_tokens));

        // Every label of the plain rendering maps to the hostile one at the same place (the
        // other charstrings are reasons, checked above).
        let strings = |t: &[Token]| -> Vec<String> {
            t.iter().filter_map(|t| match t { Token::Str(s) => Some(s.clone()), _ => None }).collect()
        };
        let (hostile_strings, plain_strings) = (strings(&tokens), strings(&plain_tokens));
        prop_assert_eq!(hostile_strings.len(), plain_strings.len());
        for (h, p) in hostile_strings.iter().zip(&plain_strings) {
            if let Some(label) = map.get(p) {
                prop_assert_eq!(h, label);
            }
        }

        // The Rust package: the model name and labels appear only as literals and comments; the
        // package and crate names stay valid Cargo names.
        let rust = render(&suite, Format::Rust);
        let cargo_toml = &rust.iter().find(|f| f.path.ends_with("Cargo.toml")).unwrap().contents;
        for line in cargo_toml.lines() {
            prop_assert!(
                line.starts_with('#') || line.is_empty() || line.starts_with('[')
                    || line.split_once(" = ").is_some_and(|(k, v)| {
                        k.bytes().all(|b| b.is_ascii_lowercase())
                            && (v.starts_with('"') && v.ends_with('"') && v.len() >= 2
                                && v[1..v.len() - 1].bytes().all(|b| b.is_ascii_alphanumeric()
                                    || b"-_./".contains(&b))
                                || v == "false")
                    }),
                "Cargo.toml line {:?}", line
            );
            prop_assert!(!line.chars().any(|c| c.is_control()), "control character in {:?}", line);
        }

        let py = render(&suite, Format::Python);
        for f in &py {
            std::fs::write(dir.join(&f.path), &f.contents).unwrap();
        }
        let module = py[0].path.file_stem().unwrap().to_str().unwrap();
        let m = &suite["model"];
        let expect = json!({
            "module": module, "import": false,
            "model": m["name"], "inputs": m["inputs"], "outputs": m["outputs"],
            "quiescence": m["quiescence"],
            "method": suite["method"], "guarantee": suite["guarantee"],
            "tests": suite["tests"].as_array().unwrap().iter().map(|t| t["name"].clone()).collect::<Vec<_>>(),
        });
        std::fs::write(dir.join("expect.json"), expect.to_string()).unwrap();
        std::fs::write(dir.join("check.py"), PYTHON_CHECK).unwrap();
        let out = Command::new("python3")
            .arg("check.py")
            .arg("expect.json")
            .current_dir(&dir)
            .env("PYTHONDONTWRITEBYTECODE", "1")
            .output()
            .unwrap();
        prop_assert!(out.status.success(), "python check: {}", text(&out));
        prop_assert!(!dir.join("canary").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

// ---------------------------------------------------------------------------------------------
// End to end: generate, render, compile and run.

proptest! {
    #![proptest_config(ProptestConfig { cases: 4, max_shrink_iters: 8, ..ProptestConfig::default() })]

    /// Random hostile models: generate an `ioco-ads` suite, render it in every format, run the
    /// Python module against the simulated model (the Cargo package for the first case only, as
    /// builds are slow) and check the TTCN-3 text.
    #[test]
    fn hostile_models_render_compile_and_pass(names in hostile_names()) {
        static FIRST: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(true);
        let case = prepare(work_dir("hostile-e2e"), &names, 0);
        check_ttcn_case(&case);
        check_python(&case, true);
        if FIRST.swap(false, std::sync::atomic::Ordering::SeqCst) {
            check_rust(&case);
        }
        case.assert_no_canary();
    }
}

/// One model and suite holding every fragment at once (the model name and guarantee are all of
/// them, each test is named by one): the Cargo package builds and passes, the Python module
/// imports and pytest collects every test (the random cases above run the Python modules; here
/// the Rust names matter), the TTCN-3 text tokenizes.
#[test]
fn every_hostile_fragment_at_once_compiles_and_passes() {
    let case = prepare(
        work_dir("hostile-all"),
        &Names::all_fragments(),
        FRAGMENTS.len(),
    );
    check_ttcn_case(&case);
    check_rust(&case);
    check_python(&case, false);
    case.assert_no_canary();
}
