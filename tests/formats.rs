//! Round trips through every format for every bundled model, and property tests feeding random
//! and mutated files to every parser: no panic, and every parse error points inside the input.

use ncomplete::format::FormatError;
use ncomplete::format::{Format, LoadOptions, parse_model, write_model};
use ncomplete::model::{LabelKind, Model};
use proptest::prelude::*;
use std::path::PathBuf;

fn models_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("models")
}

/// Every bundled model file with its text.
fn bundled() -> Vec<(String, String)> {
    let mut files: Vec<_> = std::fs::read_dir(models_dir())
        .expect("models/ exists")
        .map(|e| e.expect("readable entry").path())
        // Model files of the LTS formats; `models/sts/` (symbolic transition systems) has its
        // own tests in tests/sts.rs.
        .filter(|p| p.is_file() && p.extension().and_then(|e| e.to_str()) != Some("md"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("readable model");
            (p.file_name().unwrap().to_string_lossy().into_owned(), text)
        })
        .collect()
}

fn parse(text: &str, file: &str) -> Model {
    parse_model(text, file, &LoadOptions::default())
        .unwrap_or_else(|e| panic!("{file} does not parse: {e}"))
}

/// A format-independent view: transitions by state id and label name/kind, the initial state,
/// the labels, and the state names unless the format numbers states.
#[derive(Debug, PartialEq, Eq)]
struct Canonical {
    kind: &'static str,
    states: usize,
    names: Option<Vec<String>>,
    initial: u32,
    labels: Vec<(String, String)>,
    transitions: Vec<(u32, String, u32)>,
}

fn canonical(m: &Model, keep_names: bool) -> Canonical {
    match m {
        Model::Mealy(m) => {
            let mut labels: Vec<_> = m
                .inputs
                .names()
                .iter()
                .map(|i| ("in".to_owned(), i.clone()))
                .chain(
                    m.outputs
                        .names()
                        .iter()
                        .map(|o| ("out".to_owned(), o.clone())),
                )
                .collect();
            labels.sort();
            let mut transitions: Vec<_> = m
                .quads()
                .map(|(s, i, o, t)| {
                    (
                        s.0,
                        format!("{} / {}", m.inputs.name(i), m.outputs.name(o)),
                        t.0,
                    )
                })
                .collect();
            transitions.sort();
            Canonical {
                kind: "mealy",
                states: m.num_states(),
                names: keep_names.then(|| m.state_names().to_vec()),
                initial: m.initial().0,
                labels,
                transitions,
            }
        }
        Model::Lts(l) => {
            let a = &l.alphabet;
            let kind = |id| {
                if a.quiescence() == Some(id) {
                    "quiescence".to_owned()
                } else {
                    format!("{:?}", a.kind(id))
                }
            };
            // Internal labels are all written `tau`: compare them by kind only.
            let name = |id| {
                if a.kind(id) == LabelKind::Internal {
                    "tau".to_owned()
                } else {
                    a.name(id).to_owned()
                }
            };
            let mut labels: Vec<_> = a.ids().map(|id| (kind(id), name(id))).collect();
            labels.sort();
            labels.dedup();
            let mut transitions: Vec<_> = l
                .triples()
                .map(|(s, lab, t)| (s.0, format!("{}:{}", kind(lab), name(lab)), t.0))
                .collect();
            transitions.sort();
            Canonical {
                kind: "lts",
                states: l.num_states(),
                names: keep_names.then(|| l.state_names().to_vec()),
                initial: l.initial().0,
                labels,
                transitions,
            }
        }
    }
}

#[test]
fn every_bundled_model_parses() {
    let files = bundled();
    assert!(files.len() >= 7, "bundled models: {files:?}");
    for (file, text) in &files {
        parse(text, file);
    }
}

#[test]
fn same_format_round_trips_are_exact() {
    for (file, text) in bundled() {
        let original = parse(&text, &file);
        for format in Format::ALL {
            // Parse -> write -> parse gives an equal model, and writing is a fixpoint.
            let name = format!("{}.{}", file.split('.').next().unwrap(), format.name());
            let first = parse(&write_model(&original, format), &name);
            let written = write_model(&first, format);
            let second = parse(&written, &name);
            assert_eq!(first, second, "{file} via {format}");
            assert_eq!(written, write_model(&second, format), "{file} via {format}");
        }
        // A file rewritten in its own format reads back as the original model, with the same
        // state names and ids (labels are numbered in the order the written file first uses
        // them, so only the label numbering may differ).
        let own = Format::from_path(&file).unwrap();
        let rewritten = parse(&write_model(&original, own), &file);
        assert_eq!(
            canonical(&rewritten, true),
            canonical(&original, true),
            "{file} in its own format"
        );
    }
}

#[test]
fn cross_format_conversions_keep_the_model() {
    for (file, text) in bundled() {
        let original = parse(&text, &file);
        let own_names = !file.ends_with(".aut");
        for format in Format::ALL {
            let name = format!("x.{}", format.name());
            let converted = parse(&write_model(&original, format), &name);
            let keep_names = own_names && format != Format::Aut;
            assert_eq!(
                canonical(&converted, keep_names),
                canonical(&original, keep_names),
                "{file} -> {format}"
            );
            // And back again.
            let back = parse(&write_model(&converted, Format::Dot), "y.dot");
            assert_eq!(
                canonical(&back, keep_names),
                canonical(&original, keep_names),
                "{file} -> {format} -> dot"
            );
        }
    }
}

/// Checks that an error from parsing `text` points inside it (line and column of an existing
/// character or one past the end of a line).
fn assert_position_inside(result: Result<Model, FormatError>, text: &str) {
    if let Err(FormatError::Parse(e)) = result {
        let lines: Vec<&str> = text.split('\n').collect();
        assert!(
            e.line >= 1 && e.line <= lines.len(),
            "line {} outside 1..={} for {e}",
            e.line,
            lines.len()
        );
        let len = lines[e.line - 1].chars().count();
        assert!(
            e.column >= 1 && e.column <= len + 1,
            "column {} outside 1..={} for {e}",
            e.column,
            len + 1
        );
    }
}

fn parse_as(text: &str, format: Format) -> Result<Model, FormatError> {
    parse_model(
        text,
        &format!("fuzz.{}", format.name()),
        &LoadOptions::default(),
    )
}

/// Seeds for mutation: every bundled model in every format.
fn seeds() -> Vec<(Format, String)> {
    let mut out = Vec::new();
    for (file, text) in bundled() {
        let m = parse(&text, &file);
        for f in Format::EVERY {
            if f == Format::Fsm && ncomplete::format::unrepresentable(&m, f).is_some() {
                continue;
            }
            out.push((f, write_model(&m, f)));
        }
        out.push((Format::from_path(&file).unwrap(), text));
    }
    out
}

/// Characters that matter to some parser.
const SIGNIFICANT: &[char] = &[
    '{', '}', '[', ']', '(', ')', '"', '\'', '\\', ';', ',', ':', '=', '-', '>', '<', '/', '*',
    '#', '?', '!', '\n', '\t', ' ', '0', '9', 'a', 'é', '&', '|', '@', '%',
];

#[derive(Clone, Debug)]
enum Mutation {
    Delete(usize, usize),
    Insert(usize, char),
    Duplicate(usize, usize),
    Replace(usize, char),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let ch = proptest::sample::select(SIGNIFICANT);
    prop_oneof![
        (any::<usize>(), 1usize..20).prop_map(|(a, n)| Mutation::Delete(a, n)),
        (any::<usize>(), ch.clone()).prop_map(|(a, c)| Mutation::Insert(a, c)),
        (any::<usize>(), 1usize..80).prop_map(|(a, n)| Mutation::Duplicate(a, n)),
        (any::<usize>(), ch).prop_map(|(a, c)| Mutation::Replace(a, c)),
    ]
}

/// Applies mutations at character positions (taken modulo the length).
fn mutate(text: &str, mutations: &[Mutation]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for m in mutations {
        let n = chars.len().max(1);
        match *m {
            Mutation::Delete(at, len) => {
                let at = at % n;
                let end = (at + len).min(chars.len());
                if at < end {
                    chars.drain(at..end);
                }
            }
            Mutation::Insert(at, c) => chars.insert(at % (chars.len() + 1), c),
            Mutation::Duplicate(at, len) => {
                let at = at % n;
                let end = (at + len).min(chars.len());
                let piece: Vec<char> = chars[at.min(end)..end].to_vec();
                let pos = end;
                for (k, c) in piece.into_iter().enumerate() {
                    chars.insert(pos + k, c);
                }
            }
            Mutation::Replace(at, c) => {
                if !chars.is_empty() {
                    let at = at % chars.len();
                    chars[at] = c;
                }
            }
        }
    }
    chars.into_iter().collect()
}

proptest! {
    // 256 cases each by default; set PROPTEST_CASES for a longer run.
    #![proptest_config(ProptestConfig::default())]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let text = String::from_utf8_lossy(&bytes);
        for f in Format::EVERY {
            assert_position_inside(parse_as(&text, f), &text);
        }
    }

    #[test]
    fn random_significant_text_never_panics(chars in proptest::collection::vec(proptest::sample::select(SIGNIFICANT), 0..300)) {
        let text: String = chars.into_iter().collect();
        for f in Format::EVERY {
            assert_position_inside(parse_as(&text, f), &text);
        }
    }

    #[test]
    fn mutated_models_never_panic(
        seed in any::<prop::sample::Index>(),
        mutations in proptest::collection::vec(mutation(), 1..6),
    ) {
        let seeds = seeds();
        let (format, text) = &seeds[seed.index(seeds.len())];
        let mutated = mutate(text, &mutations);
        assert_position_inside(parse_as(&mutated, *format), &mutated);
    }

    #[test]
    fn headers_with_random_numbers_never_panic(init in 0u64..20, ntrans in 0u64..20, nstates in 0u64..20, body in proptest::collection::vec((0u64..25, 0usize..4, 0u64..25), 0..20)) {
        let labels = ["?a", "!x", "tau", "delta"];
        let mut text = format!("des ({init}, {ntrans}, {nstates})\n");
        for (s, l, t) in body {
            text.push_str(&format!("({s}, {}, {t})\n", labels[l]));
        }
        assert_position_inside(parse_as(&text, Format::Aut), &text);
    }

    #[test]
    fn fsm_files_with_random_numbers_never_panic(
        head in proptest::collection::vec(0i64..5, 6),
        body in proptest::collection::vec((-2i64..6, any::<bool>()), 0..40),
    ) {
        let mut text = format!("{} {}\n{} {} {}\n{}\n", head[0], head[1] % 2, head[2], head[3], head[4], head[5]);
        for (v, newline) in body {
            text.push_str(&v.to_string());
            text.push(if newline { '\n' } else { '\t' });
        }
        assert_position_inside(parse_as(&text, Format::Fsm), &text);
    }
}

#[test]
fn guide_yaml_examples_parse() {
    let readme = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/src/models.md"),
    )
    .expect("docs/src/models.md");
    let mut blocks = 0;
    let mut rest = readme.as_str();
    while let Some(start) = rest.find("```yaml\n") {
        let body = &rest[start + 8..];
        let end = body.find("```").expect("closed code block");
        parse(&body[..end], "readme.yaml");
        blocks += 1;
        rest = &body[end..];
    }
    assert!(blocks >= 2, "the guide shows an LTS and a Mealy example");
}

/// Characters that stress the writers: quotes, backslashes, the label marks `?`, `!` and `/`,
/// comment and syntax characters of every format, inner spaces and non-ASCII.
const NAME: &str = "[ab\"\\\\/?!#é' {}:,<>=;.\\-]{1,6}";

/// A model in the native JSON schema over the given names (deduplicated; LTS outputs that are
/// also inputs dropped), with transitions picked by index.
fn native_json(
    mealy: bool,
    inputs: &[String],
    outputs: &[String],
    states: &[String],
    edges: &[(usize, usize, usize, usize)],
) -> String {
    fn dedup(v: &[String], except: &[String]) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for n in v {
            if !out.contains(n) && !except.contains(n) {
                out.push(n.clone());
            }
        }
        out
    }
    let inputs = dedup(inputs, &[]);
    let outputs = dedup(outputs, if mealy { &[] } else { &inputs });
    let states = dedup(states, &[]);
    let mut seen = std::collections::HashSet::new();
    let mut transitions = Vec::new();
    for &(from, label, out, to) in edges {
        let (from, to) = (&states[from % states.len()], &states[to % states.len()]);
        if mealy {
            let i = &inputs[label % inputs.len()];
            if seen.insert((from.clone(), i.clone())) {
                let o = &outputs[out % outputs.len()];
                transitions
                    .push(serde_json::json!({"from": from, "input": i, "output": o, "to": to}));
            }
        } else {
            let labels: Vec<&String> = inputs.iter().chain(&outputs).collect();
            let l = labels[label % labels.len()];
            transitions.push(serde_json::json!({"from": from, "label": l, "to": to}));
        }
    }
    // `.aut` and DOT carry labels only on edges: declare the used ones (and the first of each
    // list, so the lists are never empty).
    let used = |v: &[String], keys: &[&str]| -> Vec<String> {
        v.iter()
            .enumerate()
            .filter(|&(k, n)| {
                k == 0
                    || transitions
                        .iter()
                        .any(|t| keys.iter().any(|key| t[key] == **n))
            })
            .map(|(_, n)| n.clone())
            .collect()
    };
    let inputs = used(&inputs, &["input", "label"]);
    let outputs = used(&outputs, &["output", "label"]);
    let mut doc = serde_json::json!({
        "name": "odd",
        "kind": if mealy { "mealy" } else { "lts" },
        "inputs": inputs,
        "outputs": outputs,
        "initial": states[0],
        "states": states,
        "transitions": transitions,
    });
    if !mealy && !states.is_empty() {
        // Quiescence and an internal step, under the names `.aut` and DOT write.
        doc["quiescence"] = "delta".into();
        doc["internal"] = serde_json::json!(["tau"]);
        let s0 = &states[0];
        for l in ["delta", "tau"] {
            if let Some(t) = doc["transitions"].as_array_mut() {
                t.push(serde_json::json!({"from": s0, "label": l, "to": s0}));
            }
        }
    }
    doc.to_string()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Every writer's output reads back to the same model (state names too, except in `.aut`,
    /// which numbers states), or the writer's format is reported unable to carry the model
    /// (`ncomplete convert` then refuses); a name no format can carry is refused by the parser.
    #[test]
    fn every_writer_reads_back_over_odd_names(
        mealy in any::<bool>(),
        inputs in proptest::collection::vec(NAME, 1..4),
        outputs in proptest::collection::vec(NAME, 1..4),
        states in proptest::collection::vec(NAME, 1..4),
        edges in proptest::collection::vec((0usize..8, 0usize..8, 0usize..8, 0usize..8), 0..8),
    ) {
        let text = native_json(mealy, &inputs, &outputs, &states, &edges);
        let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
        let outer_space = |n: &serde_json::Value| {
            n.as_str().is_some_and(|n| n.starts_with(' ') || n.ends_with(' '))
        };
        let parsed = parse_model(&text, "odd.json", &LoadOptions::default());
        let lists = [&doc["inputs"], &doc["outputs"]];
        if lists.iter().flat_map(|l| l.as_array().unwrap()).any(outer_space) {
            let Err(FormatError::Parse(e)) = parsed else {
                panic!("a label with outer whitespace was accepted: {text}");
            };
            prop_assert!(e.found.contains("whitespace"), "{e}");
            return Ok(());
        }
        let model = parsed.unwrap_or_else(|e| panic!("{e}\n{text}"));
        for format in Format::ALL {
            if let Some(why) = ncomplete::format::unrepresentable(&model, format) {
                prop_assert!(format == Format::Aut || format == Format::Dot, "{why}");
                continue;
            }
            let written = write_model(&model, format);
            let back = parse_model(&written, &format!("odd.{}", format.name()), &LoadOptions::default())
                .unwrap_or_else(|e| panic!("{format} output does not read back: {e}\n{written}"));
            let keep_names = format != Format::Aut;
            prop_assert_eq!(
                canonical(&back, keep_names),
                canonical(&model, keep_names),
                "via {}:\n{}", format, written
            );
            // Writing is a fixpoint after one round trip (label ids then follow the file): no
            // escape grows.
            let again = write_model(&back, format);
            let file = format!("odd.{}", format.name());
            let back2 = parse_model(&again, &file, &LoadOptions::default()).unwrap();
            prop_assert_eq!(write_model(&back2, format), again);
        }
    }

    /// Control characters in a label are refused in every format, at the label's position.
    #[test]
    fn control_characters_in_labels_are_refused(
        prefix in "[a-z]{1,3}",
        control in proptest::sample::select(vec!['\n', '\t', '\r', '\0', '\u{1b}', '\u{7f}', '\u{85}']),
    ) {
        let name = format!("{prefix}{control}x");
        let quoted = format!("\"?{name}\"");
        let texts = [
            (Format::Json, native_json(false, std::slice::from_ref(&name), &["o".into()], &["s".into()], &[(0, 0, 0, 0)])),
            (Format::Aut, format!("des (0, 1, 1)\n(0, {quoted}, 0)\n")),
            (Format::Dot, format!("digraph {{ s -> s [label={quoted}] }}\n")),
        ];
        for (format, text) in texts {
            let result = parse_as(&text, format);
            assert_position_inside(result, &text);
            let result = parse_as(&text, format);
            prop_assert!(
                matches!(&result, Err(FormatError::Parse(e)) if e.found.contains("control character") || e.found.contains("unterminated")),
                "{format}: {result:?}\n{text:?}"
            );
        }
    }
}

#[test]
fn byte_order_marks_are_accepted_and_bad_bytes_located() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("ncomplete-formats");
    std::fs::create_dir_all(&dir).unwrap();
    for (file, text) in bundled() {
        let with_bom = format!("\u{feff}{text}");
        assert_eq!(
            parse_model(&with_bom, &file, &LoadOptions::default()).unwrap(),
            parse(&text, &file),
            "{file} with a BOM"
        );
    }
    let path = dir.join("bad.aut");
    std::fs::write(&path, b"des (0, 1, 1)\n(0, \"?caf\xe9\", 0)\n").unwrap();
    let e = ncomplete::format::load_model(path.to_str().unwrap(), &LoadOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.ends_with("bad.aut:2:10: found the byte 0xE9, which is not UTF-8, expected UTF-8 text"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The state outputs of a Moore machine by state name, if the model is one.
fn moore_view(m: &Model) -> Option<Vec<(String, String)>> {
    let Model::Mealy(m) = m else { return None };
    let outs = m.state_outputs()?;
    Some(
        m.state_names()
            .iter()
            .zip(outs)
            .map(|(s, &o)| (s.clone(), m.outputs.name(o).to_owned()))
            .collect(),
    )
}

/// A nondeterministic Mealy machine by names: initial state and `(from, input, output, to)`.
type OnfsmView = (
    String,
    std::collections::BTreeSet<(String, String, String, String)>,
);

fn onfsm_view(m: &Model) -> Option<OnfsmView> {
    let Model::Lts(l) = m else { return None };
    let o = l.onfsm()?;
    let name = |s: ncomplete::model::StateId| o.state_names()[s.index()].clone();
    Some((
        name(o.initial()),
        o.quads()
            .iter()
            .map(|&(s, i, out, t)| {
                (
                    name(s),
                    o.inputs.name(i).to_owned(),
                    o.outputs.name(out).to_owned(),
                    name(t),
                )
            })
            .collect(),
    ))
}

/// A random Moore machine (as its Mealy translation) or ONFSM (as its LTS) over small names.
fn learned_model(
    moore: bool,
    states: usize,
    state_outputs: &[usize],
    edges: &[(usize, usize, usize, usize)],
) -> Model {
    use ncomplete::model::{Interner, LabelId, Mealy, Onfsm, StateId};
    const INPUTS: [&str; 3] = ["a", "b", "go on"];
    const OUTPUTS: [&str; 3] = ["x", "0", "y|z"];
    let mut inputs = Interner::new();
    let mut outputs = Interner::new();
    for i in INPUTS {
        inputs.intern(i);
    }
    for o in OUTPUTS {
        outputs.intern(o);
    }
    let names: Vec<String> = (0..states).map(|k| format!("q{k}")).collect();
    if moore {
        let outs: Vec<LabelId> = (0..states)
            .map(|k| LabelId((state_outputs[k % state_outputs.len()] % 3) as u32))
            .collect();
        let mut seen = std::collections::HashSet::new();
        let transitions: Vec<_> = edges
            .iter()
            .map(|&(s, i, _, t)| {
                (
                    StateId((s % states) as u32),
                    LabelId((i % 3) as u32),
                    StateId((t % states) as u32),
                )
            })
            .filter(|&(s, i, _)| seen.insert((s, i)))
            .collect();
        Model::Mealy(
            Mealy::from_moore("m", inputs, outputs, names, StateId(0), outs, &transitions).unwrap(),
        )
    } else {
        let quads = edges
            .iter()
            .map(|&(s, i, o, t)| {
                (
                    StateId((s % states) as u32),
                    LabelId((i % 3) as u32),
                    LabelId((o % 3) as u32),
                    StateId((t % states) as u32),
                )
            })
            .collect();
        let m = Onfsm::new("m", inputs, outputs, names, StateId(0), quads).unwrap();
        Model::Lts(m.to_lts().unwrap())
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    /// Moore machines and ONFSMs read back from every writer that can hold them as the same
    /// machine: names, state outputs and transitions (`.aut` and `.fsm` number states, `.fsm`
    /// labels too: there the machine must answer every input word alike). YAML and JSON hold
    /// every one of them, and DOT every Moore machine whose labels are all used.
    #[test]
    fn learned_models_round_trip(
        moore in any::<bool>(),
        states in 1usize..5,
        state_outputs in proptest::collection::vec(0usize..3, 1..5),
        edges in proptest::collection::vec((0usize..5, 0usize..3, 0usize..3, 0usize..5), 0..12),
        words in proptest::collection::vec(proptest::collection::vec(0u32..3, 0..6), 4),
    ) {
        let model = learned_model(moore, states, &state_outputs, &edges);
        for format in Format::EVERY {
            if let Some(why) = ncomplete::format::unrepresentable(&model, format) {
                prop_assert!(!matches!(format, Format::Yaml | Format::Json), "{why}");
                continue;
            }
            let written = write_model(&model, format);
            let file = format!("m.{}", format.name());
            let back = parse_model(&written, &file, &LoadOptions::default())
                .unwrap_or_else(|e| panic!("{format} output does not read back: {e}\n{written}"));
            prop_assert_eq!(write_model(&back, format), written.clone(), "{} is not a fixpoint", format);
            match (&model, &back, format) {
                (Model::Mealy(a), Model::Mealy(b), Format::Fsm) => {
                    prop_assert!(b.state_outputs().is_some());
                    prop_assert_eq!(a.num_transitions(), b.num_transitions());
                    for w in &words {
                        let w: Vec<_> = w.iter().map(|&i| ncomplete::model::LabelId(i)).collect();
                        prop_assert_eq!(a.run(a.initial(), &w), b.run(b.initial(), &w));
                    }
                }
                (_, _, Format::Aut) => {
                    // `.aut` numbers states: compare with `qK` named `K`.
                    let numbered = |v: OnfsmView| {
                        let n = |s: &str| s.trim_start_matches('q').to_owned();
                        (n(&v.0), v.1.iter().map(|(a, i, o, b)| (n(a), i.clone(), o.clone(), n(b))).collect::<Vec<_>>())
                    };
                    prop_assert_eq!(onfsm_view(&back).map(numbered), onfsm_view(&model).map(numbered));
                }
                _ => {
                    prop_assert_eq!(moore_view(&back), moore_view(&model), "{}:\n{}", format, written);
                    prop_assert_eq!(onfsm_view(&back), onfsm_view(&model), "{}:\n{}", format, written);
                    if moore {
                        prop_assert_eq!(canonical(&back, true), canonical(&model, true));
                    }
                }
            }
        }
    }
}
