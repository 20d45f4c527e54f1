//! Tests of the DOT reader and writer: models, warnings, error positions and their order,
//! quoted strings against a reference reading, line endings.

use super::lexer::{Lexer, Tok};
use super::read::parse;
use super::write::{write_mealy, write_moore};
use crate::format::LoadOptions;
use crate::format::position::Warning;
use crate::format::timeouts::TimeoutAnnotations;
use crate::model::{LabelId, Mealy, Model};

mod models {
    use super::*;
    use crate::model::StateId;

    fn parse_ok(text: &str) -> (Model, Vec<Warning>) {
        let mut w = Vec::new();
        let m = parse(text, "t.dot", "t", &LoadOptions::default(), &mut w).unwrap();
        (m, w)
    }

    fn mealy(text: &str) -> Mealy {
        match parse_ok(text).0 {
            Model::Mealy(m) => m,
            other => panic!("expected Mealy, got {other:?}"),
        }
    }

    fn parse_err(text: &str) -> String {
        let mut w = Vec::new();
        match parse(text, "t.dot", "t", &LoadOptions::default(), &mut w) {
            Err(e) => e.to_string(),
            Ok(m) => panic!("expected an error, got {m:?}"),
        }
    }

    /// `count` bare ids whose [`FastMap`] hashes (the node-name hash before issue 44) agree in
    /// their low 20 bits, so they all share one bucket of any table up to a million slots.
    fn names_colliding_under_the_fast_hash(count: usize) -> Vec<String> {
        use std::hash::BuildHasher;
        let hash = |name: &str| crate::fast_hash::FastBuild::default().hash_one(name);
        let low = |h: u64| h & ((1 << 20) - 1);
        let target = low(hash("col00000"));
        (0..)
            .map(|i: u32| format!("col{i:05}"))
            .filter(|name| low(hash(name)) == target)
            .take(count)
            .collect()
    }

    /// A Mealy machine over `names` with its edges listed out of state order, so that first
    /// mention decides the numbering: `a` to the next state, `b` further on.
    fn machine_over(names: &[String]) -> String {
        let n = names.len();
        let mut text = String::from("digraph g {\n");
        for i in (0..n).rev() {
            let (next, far) = (&names[(i + 1) % n], &names[(i * 7 + 3) % n]);
            text.push_str(&format!(
                "{} -> {next} [label=\"a / o{}\"];\n{} -> {far} [label=\"b / o{}\"];\n",
                names[i],
                i % 3,
                names[i],
                i % 5
            ));
        }
        text.push_str("}\n");
        text
    }

    #[test]
    fn names_colliding_under_the_old_hash_parse_to_the_same_machine_as_sequential_names() {
        let colliding = names_colliding_under_the_fast_hash(1_500);
        let sequential: Vec<String> = (0..colliding.len()).map(|i| format!("s{i}")).collect();
        let m = mealy(&machine_over(&colliding));
        // Numbered in first-mention order: sources from the last state down, each followed
        // by its targets.
        let mut expected: Vec<&str> = Vec::new();
        let n = colliding.len();
        for i in (0..n).rev() {
            for j in [i, (i + 1) % n, (i * 7 + 3) % n] {
                if !expected.contains(&colliding[j].as_str()) {
                    expected.push(&colliding[j]);
                }
            }
        }
        assert_eq!(m.state_names(), expected);
        // The same structure as the machine over `s0`, `s1`, ...: every transition agrees
        // once states are renamed.
        let renamed = mealy(&machine_over(&sequential));
        let rename = |name: &str| &sequential[colliding.iter().position(|c| c == name).unwrap()];
        let quads = |m: &Mealy, rename: &dyn Fn(&str) -> String| {
            m.quads()
                .map(|(s, i, o, t)| {
                    (
                        rename(m.state_name(s)),
                        i.index(),
                        o.index(),
                        rename(m.state_name(t)),
                    )
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(
            quads(&m, &|s| rename(s).clone()),
            quads(&renamed, &|s| s.to_owned())
        );
        // Parsing again (each name map gets a fresh random key) writes the same file.
        let again = mealy(&machine_over(&colliding));
        let none = TimeoutAnnotations::default();
        assert_eq!(write_mealy(&m, &none), write_mealy(&again, &none));
    }

    #[test]
    fn automata_wiki_mealy_with_start_marker() {
        let m = mealy(
            "digraph g {\n  __start0 [label=\"\" shape=\"none\"];\n  __start0 -> s1;\n  s0 [shape=\"circle\" label=\"0\"];\n  s1 -> s0 [label=\"a / x\"];\n  s0 -> s1 [label=\"a / y / z\"];\n}\n",
        );
        assert_eq!(m.state_names(), ["s1", "s0"]);
        assert_eq!(m.initial(), StateId(0));
        assert_eq!(m.outputs.names(), ["x", "y / z"]);
        assert_eq!(m.num_transitions(), 2);
    }

    #[test]
    fn tcp_style_declared_nodes_and_missing_semicolons() {
        let text = "digraph G {\nlabel=\"\"\ns0 [color=\"red\"]\ns1\ns2\ns0 [label=\"s0\"];\ns0 -> s1[label=\"CONNECT / SYN(FRESH,ZERO,0)\"]\ns1 -> s0[label=\"CLOSE / TIMEOUT\"]\n}";
        let (m, w) = parse_ok(text);
        let Model::Mealy(m) = m else { panic!() };
        // s2 has no edges but is a state.
        assert_eq!(m.num_states(), 3);
        assert_eq!(m.initial(), StateId(0));
        assert_eq!(w.len(), 1);
        assert_eq!(
            w[0].to_string(),
            "t.dot:7:16: no `__start0 -> STATE` edge and no --initial: taking `s0`, the source of the first edge, as the initial state"
        );
    }

    #[test]
    fn initial_option_silences_the_warning() {
        let mut w = Vec::new();
        let o = LoadOptions {
            initial: Some("s1".into()),
            ..LoadOptions::default()
        };
        let m = parse(
            "digraph { s0 -> s1 [label=\"a/b\"] }",
            "t.dot",
            "t",
            &o,
            &mut w,
        )
        .unwrap();
        let Model::Mealy(m) = m else { panic!() };
        assert_eq!(m.initial(), StateId(1));
        assert!(w.is_empty());
    }

    #[test]
    fn full_tokenizer() {
        let text = r#"/* block
comment */ strict digraph "my graph" {
  # preprocessor-style line
  graph [rankdir=LR]; node [shape=circle] // trailing comment
  edge [color=blue, label="?coin"]
  1 -> 2
  2 -> 3 [label=<!tea>; weight=2] [penwidth=1.5]
  subgraph cluster_0 { 3:n -> -1.5 [label="t" + "au"] }
  -1.5 -> { 1 2 } [label="!\"q\""]
  "long \
name" -> 1 [label=delta]
}"#;
        let (m, w) = parse_ok(text);
        assert_eq!(w.len(), 1, "the initial state is guessed: {w:?}");
        let Model::Lts(l) = m else {
            panic!("expected an LTS")
        };
        assert_eq!(l.state_names(), ["1", "2", "3", "-1.5", "long name"]);
        assert_eq!(l.initial(), StateId(0));
        let a = &l.alphabet;
        assert!(a.is_input(a.get("coin").unwrap()));
        assert!(a.is_output(a.get("tea").unwrap()));
        assert!(a.is_internal(a.get("tau").unwrap()));
        assert!(a.is_output(a.get("\"q\"").unwrap()));
        assert_eq!(a.quiescence(), a.get("delta"));
        // `-1.5 -> { 1 2 }` makes two edges.
        assert_eq!(l.num_transitions(), 6);
        let q = a.get("\"q\"").unwrap();
        assert_eq!(
            l.successors(StateId(3), q).collect::<Vec<_>>(),
            [StateId(0), StateId(1)]
        );
    }

    #[test]
    fn html_labels_keep_their_inner_text() {
        let (m, _) = parse_ok("digraph { __start0 -> a; a -> b [label=<in / <i>out</i>>] }");
        let Model::Mealy(m) = m else { panic!() };
        assert_eq!(m.inputs.names(), ["in"]);
        assert_eq!(m.outputs.names(), ["<i>out</i>"]);
    }

    #[test]
    fn undirected_graphs_use_double_dash() {
        let (m, _) = parse_ok("graph { __start0 -- a; a -- b [label=\"?x\"] }");
        assert!(matches!(m, Model::Lts(_)));
    }

    #[test]
    fn error_shapes() {
        let deep = format!("digraph {{ {} }}", "{ ".repeat(101));
        let nodes: String = (0..2000).map(|i| format!("n{i} ")).collect();
        let wide = format!("digraph {{ {{{nodes}}} -> {{{nodes}}} }}");
        let cases: &[(&str, &str)] = &[
            (
                &deep,
                "t.dot:1:211: found a subgraph nested 101 deep, expected at most 100 nested subgraphs",
            ),
            (
                &wide,
                "t.dot:1:10904: found an edge statement that expands to 4000000 edges, expected at most 1087200 edges in all (subgraph endpoints multiply)",
            ),
            (
                "",
                "t.dot:1:1: found end of file, expected `digraph` or `graph`",
            ),
            (
                "graf { }",
                "t.dot:1:1: found `graf`, expected `digraph` or `graph`",
            ),
            (
                "digraph [",
                "t.dot:1:9: found `[`, expected `{` opening the graph",
            ),
            (
                "digraph { a -> b [label=\"?a\"] ",
                "t.dot:1:31: found end of file, expected a statement or `}` closing the graph",
            ),
            (
                "digraph { a -> ; }",
                "t.dot:1:16: found `;`, expected a node id or a subgraph after the edge",
            ),
            (
                "digraph { a -- b }",
                "t.dot:1:13: found `--`, expected `->` (the graph is a digraph)",
            ),
            (
                "graph { a -> b }",
                "t.dot:1:11: found `->`, expected `--` (the graph is undirected)",
            ),
            (
                "digraph { a [label] }",
                "t.dot:1:19: found `]`, expected `=` after the attribute name",
            ),
            (
                "digraph { a [label=] }",
                "t.dot:1:20: found `]`, expected an attribute value after `=`",
            ),
            (
                "digraph { a [=b] }",
                "t.dot:1:14: found `=`, expected an attribute `name = value` or `]`",
            ),
            (
                "digraph { a -> b [label=\"?a] }",
                "t.dot:1:25: found an unterminated string, expected a closing `\"`",
            ),
            (
                "digraph { a -> b [label=<?a] }",
                "t.dot:1:25: found an unterminated HTML string, expected a `>` closing the `<`",
            ),
            (
                "digraph { /* a -> b }",
                "t.dot:1:11: found an unterminated comment `/*`, expected `*/` closing it",
            ),
            (
                "digraph { a -> b @ }",
                "t.dot:1:18: found `@`, expected an id, a quoted string, `{`, `}`, `[`, `]`, `=`, `;`, `,` or an edge `->`",
            ),
            (
                "digraph { a -> - }",
                "t.dot:1:16: found `-`, expected a number, an id or an edge `->`",
            ),
            (
                "digraph { } x",
                "t.dot:1:13: found `x`, expected end of file after the graph's closing `}`",
            ),
            (
                "digraph { node a }",
                "t.dot:1:16: found `a`, expected `[` opening an attribute list",
            ),
            (
                "digraph { a -> b [label=\"x\" + y] }",
                "t.dot:1:31: found `y`, expected a quoted string after `+`",
            ),
            (
                "digraph { ] }",
                "t.dot:1:11: found `]`, expected a statement (node, edge, attribute or subgraph) or `}`",
            ),
            (
                "digraph { { a } [x=1] }",
                "t.dot:1:17: found `[`, expected an edge `->` (attributes follow nodes and edges, not subgraphs)",
            ),
            (
                "digraph { a -> b }",
                "t.dot:1:13: found an edge without a label, expected `[label=\"input / output\"]` or an LTS label such as `[label=\"?a\"]`",
            ),
            (
                "digraph { __start0 }",
                "t.dot:1:20: found a graph without states, expected at least one node",
            ),
            (
                "digraph { a -> __start0 [label=\"?a\"] }",
                "t.dot:1:32: found an edge into `__start0`, expected start markers (`__start...`) only as edge sources",
            ),
            (
                "digraph { __start0 -> a; __start0 -> b }",
                "t.dot:1:35: found a second initial state `b`, expected one initial state",
            ),
            (
                "digraph { a -> b [label=\"x / y\"]; b -> a [label=\"?z\"] }",
                "t.dot:1:49: found LTS label `?z`, expected a Mealy label `input / output` like the file's first edge",
            ),
            (
                "digraph { a [label=\"a|1\"]; a -> b [label=x] }",
                "t.dot:1:42: found state `b` without a label, expected a Moore node label `name|output` on every state, like the other states",
            ),
            (
                "digraph { a [label=\"a|1\"]; b [label=\"b\"]; a -> b [label=x] }",
                "t.dot:1:37: found node label `b` without `|`, expected a Moore node label `name|output`, like the other states",
            ),
            (
                "digraph { a [label=\"a|1\"]; b [label=\"b|0\"]; a -> b [label=x]; a -> a [label=x] }",
                "t.dot:1:77: found a second transition for input `x` from state `a` (the first is at line 1, column 59), expected one transition per state and input (a Moore machine is deterministic)",
            ),
            (
                "digraph { a -> b [label=\"coin\"] }",
                "t.dot:1:25: found unmarked label `coin`, expected `?coin` or `coin?` for an input, `!coin` or `coin!` for an output, `tau`, `delta`, or `--inputs`/`--outputs` naming it",
            ),
        ];
        let wrong: Vec<String> = cases
            .iter()
            .filter_map(|(text, want)| {
                let got = parse_err(text);
                (got != *want).then(|| format!("input: {text}\n  got:  {got}\n  want: {want}"))
            })
            .collect();
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    #[test]
    fn aalpy_moore_machine_is_its_mealy_translation() {
        let text = "digraph m {\ns0 [label=\"s0|1\", shape=record, style=rounded];\ns1 [label=\"{s1|0}\", shape=record];\ns0 -> s1 [label=a];\ns1 -> s0 [label=a];\ns1 -> s1 [label=b];\n__start0 [label=\"\", shape=none];\n__start0 -> s0 [label=\"\"];\n}\n";
        let (m, warnings) = parse_ok(text);
        assert!(warnings.is_empty(), "{warnings:?}");
        let Model::Mealy(m) = m else {
            panic!("expected Mealy, got {m:?}")
        };
        assert_eq!(m.outputs.names(), ["1", "0"]);
        assert_eq!(m.state_outputs(), Some(&[LabelId(0), LabelId(1)][..]));
        // The output of a transition is the output of the state it enters.
        let (a, b) = (m.inputs.get("a").unwrap(), m.inputs.get("b").unwrap());
        assert_eq!(m.step(StateId(0), a), Some((StateId(1), LabelId(1))));
        assert_eq!(m.step(StateId(1), a), Some((StateId(0), LabelId(0))));
        assert_eq!(m.step(StateId(1), b), Some((StateId(1), LabelId(1))));
        assert_eq!(m.step(StateId(0), b), None);
        // Written back as AALpy writes it, it reads as the same machine.
        let back = match parse_ok(&write_moore(
            &m,
            m.state_outputs().unwrap(),
            &TimeoutAnnotations::default(),
        ))
        .0
        {
            Model::Mealy(b) => b,
            other => panic!("{other:?}"),
        };
        assert_eq!(back, m);
    }

    #[test]
    fn nondeterministic_mealy_is_an_onfsm_with_a_located_warning() {
        let (m, warnings) = parse_ok(
            "digraph { __start0 -> a; a -> b [label=\"x / y\"]; a -> a [label=\"x / z\"] }",
        );
        let Model::Lts(l) = m else {
            panic!("expected the LTS embedding, got {m:?}")
        };
        assert_eq!(l.onfsm().map(|o| o.quads().len()), Some(2));
        assert_eq!(
            warnings.iter().map(|w| w.to_string()).collect::<Vec<_>>(),
            [
                "t.dot:1:64: a second transition for input `x` from state `a` (the first is at line 1, column 40): reading the file as a nondeterministic Mealy machine (ONFSM), tested with ioco through its suspension automaton"
            ]
        );
    }

    #[test]
    fn writes_what_it_reads() {
        let text = "digraph g {\n    __start0 [label=\"\" shape=\"none\"];\n    __start0 -> s0;\n\n    s0 [shape=\"circle\" label=\"s0\"];\n    \"s 1\" [shape=\"circle\" label=\"s 1\"];\n\n    s0 -> \"s 1\" [label=\"a / x\"];\n    \"s 1\" -> s0 [label=\"a / \\\"y\\\"\"];\n}\n";
        let m = mealy(text);
        let mut m2 = m.clone();
        m2.name = "g".into();
        assert_eq!(write_mealy(&m2, &TimeoutAnnotations::default()), text);
    }
}

/// Asserts that each text of `cases` fails to parse as `t.dot` with the message given.
fn assert_parse_errors(cases: &[(&str, &str)]) {
    for (text, want) in cases {
        let mut w = Vec::new();
        let got = parse(text, "t.dot", "t", &LoadOptions::default(), &mut w)
            .unwrap_err()
            .to_string();
        assert_eq!(&got, want, "input: {text:?}");
    }
}

mod more_error_shapes {
    use super::*;

    #[test]
    fn ports_and_subgraphs() {
        let cases: &[(&str, &str)] = &[
            (
                "digraph { a: -> b }",
                "t.dot:1:14: found `->`, expected a port name after `:`",
            ),
            (
                "digraph { subgraph x y }",
                "t.dot:1:22: found `y`, expected `{` opening the subgraph",
            ),
            (
                "digraph { a -> subgraph [ }",
                "t.dot:1:25: found `[`, expected `{` opening the subgraph",
            ),
        ];
        assert_parse_errors(cases);
    }
}

mod error_order {
    use super::*;

    /// The parser reads one token ahead: a lexing error in that token must not hide the parser
    /// error at the token before it.
    #[test]
    fn a_bad_token_after_the_error_does_not_hide_it() {
        let cases: &[(&str, &str)] = &[
            (
                "digraph { a [label ] \"",
                "t.dot:1:20: found `]`, expected `=` after the attribute name",
            ),
            (
                "digraph { a -> ; \"x",
                "t.dot:1:16: found `;`, expected a node id or a subgraph after the edge",
            ),
            (
                "digraph { a -> b [label=\"x\" + y \"",
                "t.dot:1:31: found `y`, expected a quoted string after `+`",
            ),
            (
                "graf \"",
                "t.dot:1:1: found `graf`, expected `digraph` or `graph`",
            ),
            (
                "digraph { } x \"",
                "t.dot:1:13: found `x`, expected end of file after the graph's closing `}`",
            ),
            (
                "digraph { a -- b /*",
                "t.dot:1:13: found `--`, expected `->` (the graph is a digraph)",
            ),
            (
                "digraph { a [=b] <",
                "t.dot:1:14: found `=`, expected an attribute `name = value` or `]`",
            ),
            (
                "digraph { a -> b [label=\"?a\"] ; \"",
                "t.dot:1:33: found an unterminated string, expected a closing `\"`",
            ),
        ];
        assert_parse_errors(cases);
    }
}

mod quoted_strings {
    use super::*;
    use proptest::prelude::*;

    /// The quoted-string reading of the tokenizer before tokens kept only their spans (it built
    /// the value while scanning): the value and the offset after the closing quote.
    fn reference(text: &str) -> Option<(String, usize)> {
        let b = text.as_bytes();
        let (mut out, mut i, mut chunk) = (String::new(), 1, 1);
        while i < b.len() {
            match (b[i], b.get(i + 1), b.get(i + 2)) {
                (b'"', ..) => {
                    out.push_str(&text[chunk..i]);
                    return Some((out, i + 1));
                }
                (b'\\', Some(b'"'), _) => {
                    out.push_str(&text[chunk..i]);
                    chunk = i + 1;
                    i += 2;
                }
                (b'\\', Some(b'\n'), _) => {
                    out.push_str(&text[chunk..i]);
                    chunk = i + 2;
                    i += 2;
                }
                (b'\\', Some(b'\r'), Some(b'\n')) => {
                    out.push_str(&text[chunk..i]);
                    chunk = i + 3;
                    i += 3;
                }
                (b'\\', Some(b'\\'), _) => {
                    out.push_str(&text[chunk..i + 1]);
                    chunk = i + 2;
                    i += 2;
                }
                _ => i += 1,
            }
        }
        None
    }

    fn lexed(text: &str) -> Option<(String, usize)> {
        let mut lexer = Lexer {
            file: "t.dot",
            text,
            pos: 0,
        };
        let t = lexer.next().ok()?;
        let Tok::Id(kind) = t.tok else {
            panic!("a quoted string lexed as {t:?}")
        };
        Some((lexer.value(&t, kind).into_owned(), t.span.end))
    }

    proptest! {
        #[test]
        fn values_and_ends_are_those_of_the_old_reading(
            body in proptest::collection::vec(
                prop_oneof![
                    Just("a"), Just(" "), Just("\\"), Just("\""), Just("\n"), Just("\r"),
                    Just("é"), Just("/"),
                ],
                0..24,
            )
        ) {
            let text = format!("\"{}", body.concat());
            prop_assert_eq!(lexed(&text), reference(&text));
        }
    }

    #[test]
    fn escapes_concatenation_and_html_ids() {
        let text = "digraph { __start0 -> \"a\\\"b\" + <c<d>> + \"e\\\\\\\nf\"; \"a\\\"b\" -> x [label=\"in\\n\" + \" / \\\\o\"] }";
        let mut w = Vec::new();
        let m = parse(text, "t.dot", "t", &LoadOptions::default(), &mut w).unwrap();
        let Model::Mealy(m) = m else {
            panic!("expected Mealy, got {m:?}")
        };
        assert_eq!(m.state_names(), ["a\"bc<d>e\\f", "a\"b", "x"]);
        assert_eq!(m.inputs.names(), ["in\\n"]);
        assert_eq!(m.outputs.names(), ["\\o"]);
    }
}

mod line_endings {
    use super::*;

    #[test]
    fn crlf_files_parse() {
        let text = "digraph {\r\n  __start0 -> a;\r\n  a -> b [label=\"x / y\"]\r\n}\r\n";
        let mut w = Vec::new();
        let m = parse(text, "t.dot", "t", &LoadOptions::default(), &mut w).unwrap();
        assert!(matches!(m, Model::Mealy(m) if m.num_transitions() == 1));
        assert!(w.is_empty());
    }
}
