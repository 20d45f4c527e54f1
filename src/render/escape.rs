//! Escaping of text taken from a model or a suite (model, state, label and test names, method,
//! guarantee) for each place it lands in a generated program: one function per language and
//! context. The templates reach these functions only through the filters registered in
//! [`super::programs`], and the renderer refuses to print a model-supplied string that did not
//! pass through one of them.
//!
//! Contexts and their rules:
//! - string literals ([`python_string`], [`rust_string`], [`toml_string`], [`ttcn_charstring`])
//!   are exact: the generated program sees the original text. Printable characters stay as they
//!   are; quotes, backslashes, control, format (bidirectional overrides), separator and other
//!   non-printable characters become escapes of the target language. TTCN-3 literals keep only
//!   printable ASCII other than the backslash inside quotes and write every other character as a
//!   `char(0, plane, row, cell)` quadruple, because TTCN-3 tools differ on backslash escapes.
//! - Python docstrings ([`python_docstring`]) follow the string rule, so `"""` or `\N` in a name
//!   can neither end the docstring nor start an escape; the docstring's value is the original
//!   text.
//! - comments ([`comment_line`] for Rust, Python and TOML, [`ttcn_comment`], [`rust_doc`]) stay on
//!   one line: line breaks, control and non-printable characters are shown as `\n`, `\u{..}`, so
//!   no comment ends early and no forbidden character (TOML control characters, Rust's
//!   bidirectional-override lint, a bare carriage return in a doc comment) reaches the file. Doc
//!   comments also backslash-escape the Markdown characters that make links, code or raw HTML.
//! - HTML and SVG text and attribute values ([`html_text`], the report of `run --html`): the
//!   five markup characters as entities, so text can neither open an element nor close an
//!   attribute, and the comment rule for everything not printable (HTML forbids most controls).
//! - identifiers ([`identifier`], [`unreserved_identifier`], [`TestIdentifiers`]) are lowercase ASCII, valid in Python,
//!   Rust, TTCN-3, Cargo and as file names on every platform, never a keyword or reserved word of
//!   those (Rust 2024 strict, reserved and weak keywords; Python keywords and soft keywords;
//!   TTCN-3 keywords and predefined functions; Windows device names), at most
//!   [`MAX_IDENTIFIER_LEN`] bytes plus a suffix, and unique: names that collide after sanitising
//!   get `_2`, `_3`, … in order. Python names always carry a `test_` prefix (functions and
//!   modules), so no builtin and none of the runtime's names (`Model`, `run_test`) is shadowed;
//!   Rust and TTCN-3 use identifiers bare (`fn`, `testcase`), hence the keyword lists.
//!
//! "Printable" is Rust's own notion (`char::escape_debug` leaves the character as it is), so
//! letters of every script stay readable while invisible characters are made visible.

use std::fmt::Write;

/// Identifiers are cut to this many bytes before a collision suffix is added, so file names
/// stay short and the generated Rust stays rustfmt-clean (a test's call in `suite_tests!` keeps
/// its arguments within rustfmt's 60-column call width) whatever the length of a name.
pub const MAX_IDENTIFIER_LEN: usize = 28;

/// A character written as itself in every context: printable ASCII, or a non-ASCII character
/// that Rust's `escape_debug` keeps (letters, digits, symbols; not controls, format characters,
/// separators other than the space, combining marks or unassigned code points).
pub(crate) fn is_printable(c: char) -> bool {
    if c.is_ascii() {
        return c == ' ' || c.is_ascii_graphic();
    }
    let mut escaped = c.escape_debug();
    escaped.next() == Some(c) && escaped.next().is_none()
}

/// Appends `s` as the body of a double-quoted literal with C-like escapes (Python, Rust, TOML):
/// the backslash, the quote, newline, carriage return and tab get their two-character escapes,
/// printable characters stay, and `other` writes the escape of every other character.
fn escape_into(s: &str, out: &mut String, other: impl Fn(char, &mut String)) {
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if is_printable(c) => out.push(c),
            c => other(c, out),
        }
    }
}

/// The body of a Python string literal (without quotes): exact for any text.
fn python_string_body(s: &str, out: &mut String) {
    escape_into(s, out, |c, out| {
        let code = c as u32;
        let _ = match code {
            0..0x100 => write!(out, "\\x{code:02x}"),
            0x100..0x10000 => write!(out, "\\u{code:04x}"),
            _ => write!(out, "\\U{code:08x}"),
        };
    });
}

/// A Python string literal in double quotes whose value is `s`.
pub fn python_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    python_string_body(s, &mut out);
    out.push('"');
    out
}

/// Text to place inside a `"""` docstring whose value then contains `s` exactly: every quote
/// and backslash is escaped, so the text can neither close the docstring nor start an escape.
pub fn python_docstring(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    python_string_body(s, &mut out);
    out
}

/// A Rust string literal whose value is `s` (for ordinary text the same as `{:?}`).
pub fn rust_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    escape_into(s, &mut out, |c, out| {
        let _ = match c {
            '\0' => write!(out, "\\0"),
            c => write!(out, "\\u{{{:x}}}", c as u32),
        };
    });
    out.push('"');
    out
}

/// A TOML basic string whose value is `s`.
pub fn toml_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    escape_into(s, &mut out, |c, out| {
        let code = c as u32;
        let _ = if code < 0x10000 {
            write!(out, "\\u{code:04X}")
        } else {
            write!(out, "\\U{code:08X}")
        };
    });
    out.push('"');
    out
}

/// A TTCN-3 charstring expression whose value is `s`: runs of printable ASCII (other than the
/// backslash) in quotes with `"` doubled, every other character as a `char(0, plane, row, cell)`
/// quadruple, joined by `&`. The empty string is `""`.
pub fn ttcn_charstring(s: &str) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut run: Option<String> = None;
    for c in s.chars() {
        if (' '..='~').contains(&c) && c != '\\' {
            let text = run.get_or_insert_with(|| "\"".to_owned());
            if c == '"' {
                text.push_str("\"\"");
            } else {
                text.push(c);
            }
        } else {
            if let Some(mut text) = run.take() {
                text.push('"');
                parts.push(text);
            }
            let code = c as u32;
            parts.push(format!(
                "char(0, {}, {}, {})",
                (code >> 16) & 0xff,
                (code >> 8) & 0xff,
                code & 0xff
            ));
        }
    }
    if let Some(mut text) = run {
        text.push('"');
        parts.push(text);
    }
    if parts.is_empty() {
        "\"\"".to_owned()
    } else {
        parts.join(" & ")
    }
}

/// Whether `s` holds a character outside ASCII, so a TTCN-3 port needs `universal charstring`.
pub fn needs_universal_charstring(s: &str) -> bool {
    !s.is_ascii()
}

/// `s` as the rest of a one-line comment (`//`, `#`): printable characters as they are, line
/// breaks and tabs as `\n`, `\r`, `\t`, every other character as `\u{..}`. With `ascii_only`,
/// non-ASCII characters are written as `\u{..}` too.
fn comment_text(s: &str, ascii_only: bool) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if is_printable(c) && (c.is_ascii() || !ascii_only) => out.push(c),
            c => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
        }
    }
    out
}

/// `s` as the rest of a Rust `//`, Python `#` or TOML `#` comment line.
pub fn comment_line(s: &str) -> String {
    comment_text(s, false)
}

/// `s` as HTML or SVG character data or a quoted attribute value: `&`, `<`, `>`, `"` and `'`
/// as entities, printable characters as they are, and line breaks, tabs and every other
/// character as `\n`, `\r`, `\t` and `\u{..}` text (as [`comment_line`] shows them).
pub fn html_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if is_printable(c) => out.push(c),
            c => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
        }
    }
    out
}

/// `s` as the rest of a TTCN-3 `//` comment line (ASCII only).
pub fn ttcn_comment(s: &str) -> String {
    comment_text(s, true)
}

/// `s` as the rest of a Rust doc comment line (`//!`, `///`): a comment line whose Markdown
/// characters for code spans, emphasis, links and raw HTML are backslash-escaped, so rustdoc
/// shows the text and neither runs it as a doctest nor passes HTML through.
pub fn rust_doc(s: &str) -> String {
    let line = comment_line(s);
    let mut out = String::with_capacity(line.len());
    for c in line.chars() {
        if matches!(c, '\\' | '`' | '*' | '[' | ']' | '<' | '>' | '&') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Rust 2024 keywords: strict, reserved and weak (lowercase; identifiers are lowercase, so
/// `Self` cannot occur), and names a `#[test] fn` of a generated package must not take.
#[rustfmt::skip]
const RUST_RESERVED: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern",
    "false", "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub",
    "ref", "return", "self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use",
    "where", "while", "abstract", "become", "box", "do", "final", "gen", "macro", "override",
    "priv", "try", "typeof", "unsized", "virtual", "yield", "macro_rules", "raw", "safe", "union",
    "alloc", "core", "main", "std", "test",
];

/// Python keywords and soft keywords, lowercased (`None`, `True`, `False` included).
#[rustfmt::skip]
const PYTHON_RESERVED: &[&str] = &[
    "and", "as", "assert", "async", "await", "break", "case", "class", "continue", "def", "del",
    "elif", "else", "except", "false", "finally", "for", "from", "global", "if", "import", "in",
    "is", "lambda", "match", "none", "nonlocal", "not", "or", "pass", "raise", "return", "true",
    "try", "type", "while", "with", "yield",
];

/// TTCN-3 keywords and predefined functions.
#[rustfmt::skip]
const TTCN_RESERVED: &[&str] = &[
    "action", "activate", "address", "alive", "all", "alt", "altstep", "and", "and4b", "any",
    "anytype", "bitstring", "boolean", "break", "call", "case", "catch", "char", "charstring",
    "check", "clear", "complement", "component", "connect", "const", "continue", "control",
    "create", "deactivate", "default", "disconnect", "display", "do", "done", "else", "encode",
    "enumerated", "error", "except", "exception", "execute", "extends", "extension", "external",
    "fail", "false", "float", "for", "friend", "from", "function", "getcall", "getreply",
    "getverdict", "goto", "group", "halt", "hexstring", "if", "ifpresent", "import", "in",
    "inconc", "infinity", "inout", "integer", "interleave", "kill", "killed", "label", "language",
    "length", "log", "map", "match", "message", "mixed", "mod", "modifies", "module", "modulepar",
    "mtc", "noblock", "none", "not", "not4b", "nowait", "null", "objid", "octetstring", "of",
    "omit", "on", "optional", "or", "or4b", "out", "override", "param", "pass", "pattern",
    "permutation", "port", "present", "private", "procedure", "public", "raise", "read", "receive",
    "record", "recursive", "rem", "repeat", "reply", "return", "running", "runs", "select", "self",
    "send", "sender", "set", "setverdict", "signature", "start", "stop", "subset", "superset",
    "system", "template", "testcase", "timeout", "timer", "to", "trigger", "true", "type", "union",
    "universal", "unmap", "value", "valueof", "var", "variant", "verdicttype", "while", "with",
    "xor", "xor4b", "any2unistr", "bit2hex", "bit2int", "bit2oct", "bit2str", "char2int",
    "char2oct", "decvalue", "decvalue_o", "decvalue_unichar", "encvalue", "encvalue_o",
    "encvalue_unichar", "enum2int", "float2int", "get_stringencoding", "hex2bit", "hex2int",
    "hex2oct", "hex2str", "hostid", "int2bit", "int2char", "int2enum", "int2float", "int2hex",
    "int2oct", "int2str", "int2unichar", "isbound", "ischosen", "ispresent", "istemplatekind",
    "isvalue", "lengthof", "oct2bit", "oct2char", "oct2hex", "oct2int", "oct2str", "oct2unichar",
    "regexp", "remove_bom", "replace", "rnd", "sizeof", "str2float", "str2hex", "str2int",
    "str2oct", "substr", "testcasename", "unichar2int", "unichar2oct",
];

/// Windows device names, which cannot be file names (identifiers name files).
#[rustfmt::skip]
const FILE_RESERVED: &[&str] = &[
    "aux", "con", "nul", "prn", "com1", "com2", "com3", "com4", "com5", "com6", "com7", "com8",
    "com9", "lpt1", "lpt2", "lpt3", "lpt4", "lpt5", "lpt6", "lpt7", "lpt8", "lpt9",
];

/// Whether `id` is reserved in some target: a keyword or reserved name of Rust, Python or
/// TTCN-3, a Windows device name, or `n` followed by digits (the step labels of the TTCN-3
/// rendering).
pub fn is_reserved(id: &str) -> bool {
    [RUST_RESERVED, PYTHON_RESERVED, TTCN_RESERVED, FILE_RESERVED]
        .iter()
        .any(|list| list.contains(&id))
        || id
            .strip_prefix('n')
            .is_some_and(|rest| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()))
}

/// `name` made into a lowercase identifier valid in Python, Rust and TTCN-3 and snake case
/// for Rust's lints: ASCII letters and digits, runs of other characters as one underscore
/// between them (never leading, trailing or doubled), `m` when nothing is left, `m_` in front of
/// a leading digit, cut to [`MAX_IDENTIFIER_LEN`] bytes. It may still be reserved; see
/// [`unreserved_identifier`] and [`TestIdentifiers`].
pub fn identifier(name: &str) -> String {
    identifier_and_cut(name).0
}

/// [`identifier`], and whether it was cut (a letter or digit of `name` is not in it).
fn identifier_and_cut(name: &str) -> (String, bool) {
    let mut id = String::new();
    let mut cut = false;
    for (at, c) in name.char_indices() {
        if id.len() >= MAX_IDENTIFIER_LEN {
            cut = name[at..].chars().any(|c| c.is_ascii_alphanumeric());
            break;
        }
        if c.is_ascii_alphanumeric() {
            id.push(c.to_ascii_lowercase());
        } else if !id.ends_with('_') && !id.is_empty() {
            id.push('_');
        }
    }
    while id.ends_with('_') {
        id.pop();
    }
    if id.is_empty() {
        id.push('m');
    } else if id.starts_with(|c: char| c.is_ascii_digit()) {
        id.insert_str(0, "m_");
    }
    (id, cut)
}

/// The identifier of a name that stands alone (the model's): [`identifier`], then
/// `reserved_suffix` appended to a reserved word, then `_2`, `_3`, … while still reserved.
pub fn unreserved_identifier(name: &str, reserved_suffix: &str) -> String {
    first_free(identifier(name), reserved_suffix, |_| true)
}

/// `base` with `reserved_suffix` appended if it is reserved, then the first of it and its
/// `_2`, `_3`, … that is not reserved and that `claim` takes (`claim` returns whether the
/// identifier was still free, and takes it if so).
fn first_free(
    mut base: String,
    reserved_suffix: &str,
    mut claim: impl FnMut(&str) -> bool,
) -> String {
    if is_reserved(&base) {
        base.push_str(reserved_suffix);
    }
    let mut id = base.clone();
    let mut k = 2u64;
    while is_reserved(&id) || !claim(&id) {
        id = format!("{base}_{k}");
        k += 1;
    }
    id
}

/// Identifiers of test names given one at a time in suite order, so a suite can be rendered
/// while it is read: [`identifier`]; a name whose identifier was cut (as the long input words of
/// Mealy tests are) is cut shorter and ends in 8 hex digits of a stable hash of the whole name,
/// so it depends on the name alone; then `reserved_suffix` for a reserved word, and `_2`, `_3`, …
/// for an identifier an earlier test took (only names that differ in nothing but punctuation
/// or case). Remembers 8 bytes per identifier.
#[derive(Debug)]
pub struct TestIdentifiers {
    used: std::collections::HashSet<u64>,
    reserved_suffix: &'static str,
}

impl TestIdentifiers {
    /// An empty set with the suffix for reserved words.
    pub fn new(reserved_suffix: &'static str) -> Self {
        TestIdentifiers {
            used: std::collections::HashSet::new(),
            reserved_suffix,
        }
    }

    /// The identifier of the next test, named `name`.
    pub fn next(&mut self, name: &str) -> String {
        use crate::suite::names::string_hash;
        let (mut base, cut) = identifier_and_cut(name);
        if cut {
            base.truncate(MAX_IDENTIFIER_LEN - 9);
            while base.ends_with('_') {
                base.pop();
            }
            let _ = write!(base, "_{:08x}", string_hash(name) >> 32);
        }
        first_free(base, self.reserved_suffix, |id| {
            self.used.insert(string_hash(id))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_text_escapes_markup_and_shows_invisible_characters() {
        assert_eq!(
            html_text("<script>alert('x\"y')</script> & caf\u{e9} \u{1}\u{202e}\n"),
            "&lt;script&gt;alert(&#39;x&quot;y&#39;)&lt;/script&gt; &amp; caf\u{e9} \\u{1}\\u{202e}\\n"
        );
        // Nothing of any text can open an element, an entity or end an attribute.
        let hostile: String = (0u32..0x300).filter_map(char::from_u32).collect();
        let escaped = html_text(&hostile);
        assert!(!escaped.contains(['<', '>', '"', '\'']));
        assert_eq!(
            escaped.matches('&').count(),
            escaped.matches("&amp;").count() + 4
        );
        assert!(!escaped.chars().any(|c| c.is_control()));
    }

    /// The identifiers of `names` in order, as a rendering gives its tests.
    fn unique_identifiers(names: &[&str], reserved_suffix: &'static str) -> Vec<String> {
        let mut ids = TestIdentifiers::new(reserved_suffix);
        names.iter().map(|name| ids.next(name)).collect()
    }

    #[test]
    fn identifiers_are_valid_and_unique() {
        assert_eq!(identifier("TCP client-2"), "tcp_client_2");
        assert_eq!(identifier("42"), "m_42");
        assert_eq!(identifier("--"), "m");
        assert_eq!(identifier("_a__b_"), "a_b");
        assert_eq!(identifier("Kaffee \u{e9}\u{301}x"), "kaffee_x");
        assert_eq!(identifier(&"a".repeat(1000)).len(), MAX_IDENTIFIER_LEN);
        assert_eq!(
            unique_identifiers(&["a b", "a-b", "loop", "t1", "A B", "loop"], "_test"),
            ["a_b", "a_b_2", "loop_test", "t1", "a_b_3", "loop_test_2"]
        );
        for word in [
            "abstract", "box", "macro", "gen", "Self", "None", "case", "testcase", "n12",
        ] {
            let id = &unique_identifiers(&[word], "_test")[0];
            assert!(!is_reserved(id), "{word} -> {id}");
            assert!(id.ends_with("_test"), "{word} -> {id}");
            assert_eq!(id, &unreserved_identifier(word, "_test"));
        }
        assert_eq!(
            unique_identifiers(&["n", "n1x", "con"], "_m"),
            ["n", "n1x", "con_m"]
        );
        assert_eq!(
            unique_identifiers(&["\"", "'", "2", "-"], "_t"),
            ["m", "m_2", "m_2_2", "m_3"]
        );
        // A name that is itself a collision suffix of another keeps the ids apart.
        assert_eq!(
            unique_identifiers(&["a_b_2", "a b", "a-b"], "_test"),
            ["a_b_2", "a_b", "a_b_3"]
        );
    }

    #[test]
    fn test_identifiers_stream_and_long_names_end_in_their_hash() {
        let mut ids = TestIdentifiers::new("_test");
        assert_eq!(ids.next("a b"), "a_b");
        assert_eq!(ids.next("a-b"), "a_b_2");
        assert_eq!(ids.next("loop"), "loop_test");
        let long = "i0 i12 i3 i5 i7 i9 i11 i13 i15 i17";
        let id = ids.next(long);
        assert!(
            id.len() <= MAX_IDENTIFIER_LEN && id.starts_with("i0_i12_i3_i5_i7_i9_"),
            "{id}"
        );
        // The hash part depends on the whole name: names sharing a long prefix stay apart
        // without a suffix, whatever came before.
        let other = ids.next("i0 i12 i3 i5 i7 i9 i11 i13 i15 i18");
        assert!(other.starts_with("i0_i12_i3_i5_i7_i9_"), "{other}");
        assert_ne!(id, other);
        assert_eq!(TestIdentifiers::new("_test").next(long), id);
        // A cut right after a word (27 bytes and a separator) is a cut too: both names end in
        // their hash, neither in a position.
        let word = "abcdefghijklmnopqrstuvwxyza";
        let mut ids = TestIdentifiers::new("_test");
        let (b, c) = (
            ids.next(&format!("{word} b")),
            ids.next(&format!("{word} c")),
        );
        assert!(
            b.starts_with("abcdefghijklmnopqrs_") && b.len() == 28,
            "{b}"
        );
        assert_ne!(b, c);
        assert_eq!(c, TestIdentifiers::new("_test").next(&format!("{word} c")));
        // Names that fit are not cut, even when they fill the length.
        assert_eq!(
            TestIdentifiers::new("_test").next(&"x".repeat(28)),
            "x".repeat(28)
        );
    }

    #[test]
    fn string_literals_escape_quotes_backslashes_and_invisible_characters() {
        assert_eq!(python_string("a\"b\\"), r#""a\"b\\""#);
        assert_eq!(
            python_string("\\U0001 \\N{x} \0\u{7}\u{85}\u{202e}\u{1f600}é"),
            r#""\\U0001 \\N{x} \x00\x07\x85\u202e😀é""#
        );
        assert_eq!(python_docstring("s2\"\"\"; x"), r#"s2\"\"\"; x"#);
        assert_eq!(rust_string("a\"b\n\0\u{202e}"), r#""a\"b\n\0\u{202e}""#);
        for s in [
            "plain text",
            "coffee \"deluxe\"",
            "é漢字",
            "tab\there",
            "\u{1b}[31m",
        ] {
            assert_eq!(rust_string(s), format!("{s:?}"), "{s}");
        }
        assert_eq!(toml_string("a\"\\\u{1}\u{7f}"), r#""a\"\\\u0001\u007F""#);
    }

    #[test]
    fn ttcn_charstrings_hold_only_printable_ascii_in_quotes() {
        assert_eq!(ttcn_charstring("say \"hi\""), r#""say ""hi""""#);
        assert_eq!(ttcn_charstring(""), r#""""#);
        assert_eq!(
            ttcn_charstring("a\nb\\"),
            r#""a" & char(0, 0, 0, 10) & "b" & char(0, 0, 0, 92)"#
        );
        assert_eq!(ttcn_charstring("\u{1f600}"), "char(0, 1, 246, 0)");
        assert!(needs_universal_charstring("é") && !needs_universal_charstring("e"));
    }

    #[test]
    fn comments_stay_on_one_line() {
        assert_eq!(
            comment_line("a\nb\r\u{0}\u{202e}é"),
            r"a\nb\r\u{0}\u{202e}é"
        );
        assert_eq!(ttcn_comment("*/é\n"), r"*/\u{e9}\n");
        assert_eq!(
            rust_doc("<img> `x` [l](u) *e* \\ &amp"),
            r"\<img\> \`x\` \[l\](u) \*e\* \\ \&amp"
        );
        assert_eq!(comment_line("coffee \"deluxe\""), "coffee \"deluxe\"");
    }
}
