//! The STS file format, in YAML or JSON (`schema/sts-v1.schema.json`): a document with the
//! top-level key `sts: 1` (the format version, and how a `.yaml`/`.json` file is told from the
//! native LTS schema), read into an [`Sts`] with every name resolved and every expression
//! parsed and type checked.
//!
//! ```yaml
//! sts: 1
//! name: counter                 # optional; defaults to the file stem
//! enums: [{name: colour, values: [red, green]}]
//! variables: [{name: x, type: int, min: 0, max: 20, initial: 0}]
//! gates:
//!   - {name: inc, kind: input, parameters: [{name: p, type: int, min: 1, max: 3}]}
//!   - {name: show, kind: output, parameters: [{name: v, type: int}]}
//! initial: idle
//! locations: [idle, busy]       # optional; declares order
//! switches:
//!   - {from: idle, gate: inc, guard: "x + p <= 20", assign: {x: "x + p"}, to: busy}
//!   - {from: busy, gate: show, guard: "v == x", to: idle}
//! ```
//!
//! Syntax errors carry serde's line and column; a name or expression error is located by
//! deserializing again up to the offending value, and an expression error then points at the
//! character inside the expression (exactly for plain and quoted one-line strings without
//! escapes, at the string's start otherwise).

use super::check::{Scope, sort_name};
use super::expr::{Term, Value};
use super::parse::{ExprError, KEYWORDS, is_identifier, parse_expr};
use super::types::{Direction, Enumeration, Gate, Parameter, Sort, Sts, Switch, Type, Variable};
use crate::format::ParseError;
use crate::format::locate::{Step, value_position};
use crate::format::native::{check_flow_nesting, json_error, yaml_error};
use crate::format::position::{excerpt, offset_of};
use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, Visitor};
use std::collections::{BTreeMap, HashSet};
use std::fmt;

/// The format version this reader understands.
pub const VERSION: u64 = 1;

/// Which syntax an STS file is in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Syntax {
    /// YAML.
    Yaml,
    /// JSON.
    Json,
}

/// A scalar written where a value or an expression is expected: YAML numbers and Booleans are
/// kept as such, so `guard: true` and `initial: 0` read naturally.
#[derive(Clone, Debug)]
enum Scalar {
    Int(i64),
    Bool(bool),
    Text(String),
}

impl<'de> Deserialize<'de> for Scalar {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Scalar;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a number, a Boolean or a string")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Scalar, E> {
                Ok(Scalar::Text(v.to_owned()))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Scalar, E> {
                Ok(Scalar::Int(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Scalar, E> {
                i64::try_from(v)
                    .map(Scalar::Int)
                    .map_err(|_| E::custom("a number above the 64-bit range"))
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Scalar, E> {
                Ok(Scalar::Bool(v))
            }
        }
        d.deserialize_any(V)
    }
}

impl Scalar {
    fn text(&self) -> String {
        match self {
            Scalar::Int(n) => n.to_string(),
            Scalar::Bool(b) => b.to_string(),
            Scalar::Text(s) => s.clone(),
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Document {
    sts: u64,
    name: Option<String>,
    #[serde(default)]
    enums: Vec<EnumDoc>,
    #[serde(default)]
    variables: Vec<VariableDoc>,
    gates: Vec<GateDoc>,
    locations: Option<Vec<String>>,
    initial: String,
    switches: Vec<SwitchDoc>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct EnumDoc {
    name: String,
    values: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct VariableDoc {
    name: String,
    #[serde(rename = "type")]
    ty: String,
    min: Option<i64>,
    max: Option<i64>,
    initial: Scalar,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ParameterDoc {
    name: String,
    #[serde(rename = "type")]
    ty: String,
    min: Option<i64>,
    max: Option<i64>,
}

#[derive(Copy, Clone, Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Kind {
    Input,
    Output,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct GateDoc {
    name: String,
    kind: Kind,
    #[serde(default)]
    parameters: Vec<ParameterDoc>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SwitchDoc {
    name: Option<String>,
    from: String,
    gate: String,
    guard: Option<Scalar>,
    #[serde(default, deserialize_with = "crate::format::unique_keys::unique_keys")]
    assign: BTreeMap<String, Scalar>,
    to: String,
}

/// A semantic error before it has a position: the value's path, and for an expression the
/// offset inside it with the expression's text.
struct Problem {
    path: Vec<Step>,
    inner: Option<(usize, String)>,
    found: String,
    expected: String,
}

fn key(k: &str) -> Step {
    Step::Key(k.to_owned())
}

fn problem(path: Vec<Step>, found: impl Into<String>, expected: impl Into<String>) -> Problem {
    Problem {
        path,
        inner: None,
        found: found.into(),
        expected: expected.into(),
    }
}

fn expr_problem(path: Vec<Step>, text: &str, e: ExprError) -> Problem {
    Problem {
        path,
        inner: Some((e.offset, text.to_owned())),
        found: e.found,
        expected: e.expected,
    }
}

/// Whether `text` is an STS document: YAML or JSON whose top-level map has the key `sts`
/// (the other keys are not looked at).
pub fn is_sts_document(text: &str, syntax: Syntax) -> bool {
    #[derive(Deserialize)]
    struct Probe {
        sts: Option<IgnoredAny>,
    }
    let probe: Option<Probe> = match syntax {
        Syntax::Yaml => serde_yaml_ng::from_str(text).ok(),
        Syntax::Json => serde_json::from_str(text).ok(),
    };
    probe.is_some_and(|p| p.sts.is_some())
}

/// The file name ends in `.sts.yaml`, `.sts.yml` or `.sts.json`: the syntax it names.
pub fn sts_syntax_of_path(path: &str) -> Option<Syntax> {
    let lower = path.to_ascii_lowercase();
    if lower.ends_with(".sts.yaml") || lower.ends_with(".sts.yml") {
        Some(Syntax::Yaml)
    } else if lower.ends_with(".sts.json") {
        Some(Syntax::Json)
    } else {
        None
    }
}

/// Parses an STS file's text; `file` names it in messages and `default_name` names the model
/// when the file does not.
pub fn parse_sts(
    text: &str,
    file: &str,
    default_name: &str,
    syntax: Syntax,
) -> Result<Sts, ParseError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let doc: Document = match syntax {
        Syntax::Yaml => {
            check_flow_nesting(text, file)?;
            serde_yaml_ng::from_str(text).map_err(|e| yaml_error(&e, file, text))?
        }
        Syntax::Json => serde_json::from_str(text).map_err(|e| json_error(&e, file, text))?,
    };
    build(doc, default_name).map_err(|p| locate(p, text, file, syntax))
}

/// The model name of an STS file without a `name`: the file stem without `.sts`.
pub fn default_model_name(file: &str) -> String {
    let base = std::path::Path::new(file)
        .file_name()
        .and_then(|s| s.to_str())
        .unwrap_or("model");
    let lower = base.to_ascii_lowercase();
    for ext in [
        ".sts.yaml",
        ".sts.yml",
        ".sts.json",
        ".yaml",
        ".yml",
        ".json",
    ] {
        if lower.ends_with(ext) && base.len() > ext.len() {
            return base[..base.len() - ext.len()].to_owned();
        }
    }
    base.to_owned()
}

fn identifier(path: Vec<Step>, name: &str, what: &str) -> Result<(), Problem> {
    if !is_identifier(name) || KEYWORDS.contains(&name) {
        return Err(problem(
            path,
            format!("{what} `{}`", excerpt(name)),
            format!(
                "{what} that is an identifier (a letter or `_`, then letters, digits, `_`) and not one of {}",
                KEYWORDS.join(", ")
            ),
        ));
    }
    Ok(())
}

fn type_of(
    path: Vec<Step>,
    ty: &str,
    min: Option<i64>,
    max: Option<i64>,
    enums: &[Enumeration],
) -> Result<Type, Problem> {
    let t = match ty {
        "int" => Type::Int { min, max },
        "bool" => Type::Bool,
        other => match enums.iter().position(|e| e.name == other) {
            Some(i) => Type::Enum(i),
            None => {
                return Err(problem(
                    path,
                    format!("type `{}`", excerpt(other)),
                    "int, bool or the name of an enumeration under `enums`",
                ));
            }
        },
    };
    if !matches!(t, Type::Int { .. }) && (min.is_some() || max.is_some()) {
        return Err(problem(
            path,
            format!("bounds on a `{ty}`"),
            "`min` and `max` only with `type: int`",
        ));
    }
    if let (Some(a), Some(b)) = (min, max)
        && a > b
    {
        return Err(problem(
            path,
            format!("min {a} above max {b}"),
            "min <= max",
        ));
    }
    Ok(t)
}

fn build(doc: Document, default_name: &str) -> Result<Sts, Problem> {
    if doc.sts != VERSION {
        return Err(problem(
            vec![key("sts")],
            format!("version {}", doc.sts),
            format!("`sts: {VERSION}`, the version this ncomplete reads"),
        ));
    }
    // Every name an expression can use is used once.
    let mut taken: HashSet<String> = HashSet::new();
    let mut enums = Vec::with_capacity(doc.enums.len());
    for (i, e) in doc.enums.iter().enumerate() {
        let at = |k: &str| vec![key("enums"), Step::Index(i), key(k)];
        claim(&mut taken, at("name"), &e.name, "an enumeration")?;
        if e.values.is_empty() {
            return Err(problem(at("values"), "no values", "at least one value"));
        }
        for (j, v) in e.values.iter().enumerate() {
            let mut p = at("values");
            p.push(Step::Index(j));
            claim(&mut taken, p, v, "an enumeration value")?;
        }
        enums.push(Enumeration {
            name: e.name.clone(),
            values: e.values.clone(),
        });
    }
    let mut variables: Vec<Variable> = Vec::with_capacity(doc.variables.len());
    for (i, v) in doc.variables.iter().enumerate() {
        let at = |k: &str| vec![key("variables"), Step::Index(i), key(k)];
        claim(&mut taken, at("name"), &v.name, "a variable")?;
        let ty = type_of(at("type"), &v.ty, v.min, v.max, &enums)?;
        let scope = Scope {
            enums: &enums,
            variables: &[],
            parameters: &[],
        };
        let initial = match &v.initial {
            Scalar::Int(n) => Some(Value::Int(*n)),
            Scalar::Bool(b) => Some(Value::Bool(*b)),
            Scalar::Text(s) => scope.enum_constant(s),
        }
        .filter(|value| ty.contains(*value))
        .ok_or_else(|| {
            let expected = match &ty {
                Type::Int { min, max } => format!(
                    "an integer{}{}",
                    min.map_or(String::new(), |m| format!(" >= {m}")),
                    max.map_or(String::new(), |m| format!(" <= {m}"))
                ),
                t => sort_name(t.sort(), &enums),
            };
            problem(
                at("initial"),
                format!("initial value `{}`", excerpt(&v.initial.text())),
                expected,
            )
        })?;
        variables.push(Variable {
            name: v.name.clone(),
            ty,
            initial,
        });
    }
    let mut gates: Vec<Gate> = Vec::with_capacity(doc.gates.len());
    for (i, g) in doc.gates.iter().enumerate() {
        let at = |k: &str| vec![key("gates"), Step::Index(i), key(k)];
        claim(&mut taken, at("name"), &g.name, "a gate")?;
        let mut parameters: Vec<Parameter> = Vec::with_capacity(g.parameters.len());
        for (j, p) in g.parameters.iter().enumerate() {
            let at = |k: &str| {
                vec![
                    key("gates"),
                    Step::Index(i),
                    key("parameters"),
                    Step::Index(j),
                    key(k),
                ]
            };
            identifier(at("name"), &p.name, "a parameter")?;
            if taken.contains(&p.name) || parameters.iter().any(|q| q.name == p.name) {
                return Err(problem(
                    at("name"),
                    format!("parameter `{}`, a name used before", p.name),
                    "a parameter name used by no enumeration, value, variable, gate or other parameter of the gate",
                ));
            }
            parameters.push(Parameter {
                name: p.name.clone(),
                ty: type_of(at("type"), &p.ty, p.min, p.max, &enums)?,
            });
        }
        gates.push(Gate {
            name: g.name.clone(),
            direction: match g.kind {
                Kind::Input => Direction::Input,
                Kind::Output => Direction::Output,
            },
            parameters,
        });
    }
    // Locations: the declared list, or the initial location then first mentions.
    let declared = doc.locations.is_some();
    let mut locations: Vec<String> = Vec::new();
    for (i, l) in doc.locations.iter().flatten().enumerate() {
        let at = vec![key("locations"), Step::Index(i)];
        location_name(at.clone(), l)?;
        if locations.contains(l) {
            return Err(problem(
                at,
                format!("location `{}` listed twice", excerpt(l)),
                "each location once",
            ));
        }
        locations.push(l.clone());
    }
    let mut location = |path: Vec<Step>, name: &str| -> Result<usize, Problem> {
        if let Some(i) = locations.iter().position(|l| l == name) {
            return Ok(i);
        }
        if declared {
            return Err(problem(
                path,
                format!("location `{}`", excerpt(name)),
                "a location listed under `locations`",
            ));
        }
        location_name(path, name)?;
        locations.push(name.to_owned());
        Ok(locations.len() - 1)
    };
    let initial = location(vec![key("initial")], &doc.initial)?;
    let mut switches: Vec<Switch> = Vec::with_capacity(doc.switches.len());
    for (i, s) in doc.switches.iter().enumerate() {
        let at = |k: &str| vec![key("switches"), Step::Index(i), key(k)];
        let name = s.name.clone().unwrap_or_else(|| format!("s{i}"));
        if let Some(given) = &s.name {
            location_name(at("name"), given)?;
        }
        if switches.iter().any(|t| t.name == name) {
            return Err(problem(
                at("name"),
                format!("switch name `{}` used before", excerpt(&name)),
                "a name per switch (unnamed switch k is called `s<k>`)",
            ));
        }
        let from = location(at("from"), &s.from)?;
        let to = location(at("to"), &s.to)?;
        let gate = gates.iter().position(|g| g.name == s.gate).ok_or_else(|| {
            problem(
                at("gate"),
                format!("gate `{}`", excerpt(&s.gate)),
                "a gate listed under `gates`",
            )
        })?;
        let scope = Scope {
            enums: &enums,
            variables: &variables,
            parameters: &gates[gate].parameters,
        };
        let guard_text = s
            .guard
            .as_ref()
            .map_or_else(|| "true".to_owned(), Scalar::text);
        let guard = expression(&scope, at("guard"), &guard_text, Sort::Bool)?;
        let mut assignments: Vec<(usize, Term)> = Vec::new();
        let mut assignment_texts = Vec::new();
        for (var_name, value) in &s.assign {
            let mut path = at("assign");
            path.push(key(var_name));
            let var = variables
                .iter()
                .position(|v| &v.name == var_name)
                .ok_or_else(|| {
                    problem(
                        path.clone(),
                        format!("an assignment to `{}`", excerpt(var_name)),
                        "assignments to variables listed under `variables`",
                    )
                })?;
            let text = value.text();
            let term = expression(&scope, path, &text, variables[var].ty.sort())?;
            assignments.push((var, term));
            assignment_texts.push(text);
        }
        // In variable order, as the assignment is simultaneous.
        let mut order: Vec<usize> = (0..assignments.len()).collect();
        order.sort_by_key(|&k| assignments[k].0);
        let assignments_sorted = order.iter().map(|&k| assignments[k].clone()).collect();
        let texts_sorted = order.iter().map(|&k| assignment_texts[k].clone()).collect();
        switches.push(Switch {
            name,
            from,
            gate,
            guard,
            guard_text,
            assignments: assignments_sorted,
            assignment_texts: texts_sorted,
            to,
        });
    }
    Ok(Sts {
        name: doc.name.unwrap_or_else(|| default_name.to_owned()),
        enums,
        locations,
        initial,
        variables,
        gates,
        switches,
    })
}

/// Reserves `name` for one enumeration, value, variable or gate.
fn claim(
    taken: &mut HashSet<String>,
    path: Vec<Step>,
    name: &str,
    what: &str,
) -> Result<(), Problem> {
    identifier(path.clone(), name, what)?;
    if !taken.insert(name.to_owned()) {
        return Err(problem(
            path,
            format!("{what} `{name}`, a name used before"),
            "names of enumerations, their values, variables and gates used once each",
        ));
    }
    Ok(())
}

fn location_name(path: Vec<Step>, name: &str) -> Result<(), Problem> {
    crate::format::name_problem(name).map_err(|(found, expected)| {
        problem(
            path,
            found.replace("label", "name"),
            expected.replace("a label name", "a name"),
        )
    })
}

fn expression(scope: &Scope<'_>, path: Vec<Step>, text: &str, want: Sort) -> Result<Term, Problem> {
    let parsed = parse_expr(text).map_err(|e| expr_problem(path.clone(), text, e))?;
    scope
        .check(&parsed, want)
        .map_err(|e| expr_problem(path, text, e))
}

fn locate(p: Problem, text: &str, file: &str, syntax: Syntax) -> ParseError {
    let (line, column) = value_position(text, syntax == Syntax::Yaml, &p.path);
    let mut offset = offset_of(text, line, column).unwrap_or(0);
    if let Some((inner, expr)) = &p.inner {
        offset = inner_offset(text, offset, expr, syntax).map_or(offset, |start| start + inner);
    }
    ParseError::at(file, text, offset, p.found, p.expected)
}

/// The offset of the first character of the string `expr` whose value was located at `at`
/// (YAML: the scalar's start; JSON: just after its closing quote), when the file holds it
/// verbatim on one line.
fn inner_offset(text: &str, at: usize, expr: &str, syntax: Syntax) -> Option<usize> {
    let verbatim = |start: usize| text.get(start..start + expr.len()) == Some(expr);
    match syntax {
        Syntax::Yaml => {
            let first = text.as_bytes().get(at)?;
            let start = if matches!(first, b'"' | b'\'') {
                at + 1
            } else {
                at
            };
            verbatim(start).then_some(start)
        }
        Syntax::Json => {
            // The reported column is that of the closing quote or the character after it.
            [at, at + 1]
                .into_iter()
                .filter_map(|end| end.checked_sub(expr.len() + 1))
                .find(|&start| {
                    verbatim(start) && text.as_bytes().get(start.wrapping_sub(1)) == Some(&b'"')
                })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const COUNTER: &str = "sts: 1
variables: [{name: x, type: int, min: 0, max: 20, initial: 0}]
gates:
  - {name: inc, kind: input, parameters: [{name: p, type: int, min: 1, max: 3}]}
  - {name: show, kind: output, parameters: [{name: v, type: int}]}
initial: idle
switches:
  - {from: idle, gate: inc, guard: \"x + p <= 20\", assign: {x: x + p}, to: busy}
  - {from: busy, gate: show, guard: v == x, to: idle}
";

    fn err(text: &str, syntax: Syntax) -> String {
        parse_sts(text, "m.sts.yaml", "m", syntax)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn reads_a_counter() {
        let sts = parse_sts(COUNTER, "counter.sts.yaml", "counter", Syntax::Yaml).unwrap();
        assert_eq!(sts.locations, ["idle", "busy"]);
        assert_eq!(sts.switches.len(), 2);
        assert_eq!(sts.switches[0].assignment_texts, ["x + p"]);
        assert!(is_sts_document(COUNTER, Syntax::Yaml));
        assert!(!is_sts_document("kind: lts\n", Syntax::Yaml));
    }

    #[test]
    fn expression_errors_point_into_the_expression() {
        // `x + q`: `q` is at line 8, column 41.
        let text = COUNTER.replace("\"x + p <= 20\"", "\"x + q <= 20\"");
        let e = err(&text, Syntax::Yaml);
        assert!(
            e.starts_with("m.sts.yaml:8:41: found unknown name `q`"),
            "{e}"
        );
        // Plain scalar.
        let text = COUNTER.replace("guard: v == x", "guard: v == tru");
        let e = err(&text, Syntax::Yaml);
        assert!(e.starts_with("m.sts.yaml:9:42:"), "{e}");
        // A sort error in an assignment.
        let text = COUNTER.replace("{x: x + p}", "{x: x > p}");
        let e = err(&text, Syntax::Yaml);
        assert!(
            e.starts_with("m.sts.yaml:8:63: found `x > p`, a Boolean, expected an integer"),
            "{e}"
        );
    }

    #[test]
    fn json_errors_point_into_the_expression() {
        let text = r#"{"sts": 1, "gates": [{"name": "a", "kind": "input"}], "initial": "l",
 "switches": [{"from": "l", "gate": "a", "guard": "1 < * 2", "to": "l"}]}"#;
        let e = err(text, Syntax::Json);
        assert!(e.starts_with("m.sts.yaml:2:56: found `*`"), "{e}");
    }

    #[test]
    fn names_and_types_are_checked() {
        let e = err(&COUNTER.replace("gate: show", "gate: shw"), Syntax::Yaml);
        assert!(e.starts_with("m.sts.yaml:9:24: found gate `shw`"), "{e}");
        let e = err(&COUNTER.replace("initial: 0", "initial: 30"), Syntax::Yaml);
        assert!(e.contains("expected an integer >= 0 <= 20"), "{e}");
        let e = err(&COUNTER.replace("name: v,", "name: x,"), Syntax::Yaml);
        assert!(e.contains("parameter `x`, a name used before"), "{e}");
        let e = err(&COUNTER.replace("sts: 1", "sts: 2"), Syntax::Yaml);
        assert!(e.starts_with("m.sts.yaml:1:6: found version 2"), "{e}");
        let e = err(
            &COUNTER.replace("type: int, min: 1", "type: float, min: 1"),
            Syntax::Yaml,
        );
        assert!(e.contains("type `float`"), "{e}");
        let e = err(&COUNTER.replace("kind: input", "kind: in"), Syntax::Yaml);
        assert!(e.starts_with("m.sts.yaml:4:"), "{e}");
    }

    #[test]
    fn default_names_drop_the_extension() {
        assert_eq!(default_model_name("dir/brp.sts.yaml"), "brp");
        assert_eq!(default_model_name("brp.json"), "brp");
    }
}
