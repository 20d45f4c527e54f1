//! The parser of the expression language of [`super::expr`]: a tokenizer and a recursive
//! descent over the precedence levels, with errors at the byte offset in the expression's text
//! that the loader turns into `FILE:LINE:COL`.
//!
//! Every later pass over an expression (sort checking, the canonical printer, evaluation,
//! symbolic simplification, the Z3 translation, even dropping the tree) recurses along its
//! depth, and a left-associative chain `a + b + ... + z` is as deep as it is long. So the
//! parser refuses a tree deeper than [`MAX_TREE_DEPTH`] (at the operator that goes beyond it),
//! which keeps every pass within a small stack, besides [`MAX_DEPTH`] for its own recursion.

use super::expr::{BinOp, Expr, ExprKind, ExprSpan, UnOp};
use crate::format::position::excerpt;

/// Deepest nesting of parentheses and unary operators accepted (the parser recurses).
pub const MAX_DEPTH: usize = 100;

/// Deepest expression tree accepted: operators on the longest path from the root to a leaf
/// (a chain of `n` terms joined by one operator is `n - 1` deep). Every pass over the tree
/// recurses this deep at most.
pub const MAX_TREE_DEPTH: usize = 1000;

/// An expression that does not parse: what was found at `offset` and what was expected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("found {found}, expected {expected}")]
pub struct ExprError {
    /// Byte offset in the expression's text.
    pub offset: usize,
    /// What is there.
    pub found: String,
    /// What should be.
    pub expected: String,
}

impl ExprError {
    /// An error at `offset`.
    pub fn new(offset: usize, found: impl Into<String>, expected: impl Into<String>) -> Self {
        ExprError {
            offset,
            found: found.into(),
            expected: expected.into(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Int(i64),
    Ident(String),
    Op(&'static str),
    Open,
    Close,
    End,
}

/// An identifier: a letter or `_`, then letters, digits or `_`.
pub fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Words that are operators or constants, never names.
pub const KEYWORDS: [&str; 5] = ["and", "or", "not", "true", "false"];

const OPERATORS: [&str; 16] = [
    "==", "!=", "<=", ">=", "&&", "||", "<", ">", "+", "-", "*", "/", "%", "!", "=", "&",
];

fn tokenize(text: &str) -> Result<Vec<(Token, ExprSpan)>, ExprError> {
    let bytes = text.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        let token = if c.is_ascii_digit() {
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            let digits = &text[start..i];
            let n = digits.parse::<i64>().map_err(|_| {
                ExprError::new(
                    start,
                    format!("the number {}", excerpt(digits)),
                    format!("an integer of at most {}", i64::MAX),
                )
            })?;
            Token::Int(n)
        } else if c.is_ascii_alphabetic() || c == b'_' {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            Token::Ident(text[start..i].to_owned())
        } else if c == b'(' {
            i += 1;
            Token::Open
        } else if c == b')' {
            i += 1;
            Token::Close
        } else if let Some(op) = OPERATORS.iter().find(|op| text[i..].starts_with(*op)) {
            if *op == "=" || *op == "&" {
                let wanted = if *op == "=" { "`==`" } else { "`&&` or `and`" };
                return Err(ExprError::new(start, format!("`{op}`"), wanted));
            }
            i += op.len();
            Token::Op(op)
        } else {
            let ch = text[i..].chars().next().unwrap_or(' ');
            return Err(ExprError::new(
                start,
                format!("`{}`", ch.escape_debug()),
                "a number, a name, an operator or a parenthesis",
            ));
        };
        tokens.push((token, ExprSpan { start, end: i }));
    }
    tokens.push((
        Token::End,
        ExprSpan {
            start: text.len(),
            end: text.len(),
        },
    ));
    Ok(tokens)
}

/// Parses one expression.
pub fn parse_expr(text: &str) -> Result<Expr, ExprError> {
    let tokens = tokenize(text)?;
    let mut p = Parser {
        tokens,
        at: 0,
        depth: 0,
    };
    let (e, _) = p.or()?;
    match p.peek() {
        Token::End => Ok(e),
        _ => Err(p.unexpected("an operator or the end of the expression")),
    }
}

struct Parser {
    tokens: Vec<(Token, ExprSpan)>,
    at: usize,
    depth: usize,
}

/// An expression and the depth of its tree (0 for a leaf).
type Parsed = (Expr, usize);

impl Parser {
    /// `a op b` with its depth, refused at the operator (`at`) beyond [`MAX_TREE_DEPTH`].
    fn binary(
        &self,
        op: BinOp,
        (a, da): Parsed,
        (b, db): Parsed,
        at: usize,
    ) -> Result<Parsed, ExprError> {
        let depth = tree_depth(da.max(db) + 1, at)?;
        let span = ExprSpan {
            start: a.span.start,
            end: b.span.end,
        };
        Ok((
            Expr {
                kind: ExprKind::Binary(op, Box::new(a), Box::new(b)),
                span,
            },
            depth,
        ))
    }

    /// `op e` with its depth; the operator starts at `start`.
    fn unary(&self, op: UnOp, (e, de): Parsed, start: usize) -> Result<Parsed, ExprError> {
        let depth = tree_depth(de + 1, start)?;
        let span = ExprSpan {
            start,
            end: e.span.end,
        };
        Ok((
            Expr {
                kind: ExprKind::Unary(op, Box::new(e)),
                span,
            },
            depth,
        ))
    }
}

/// `depth`, or the error at `at` when it is beyond [`MAX_TREE_DEPTH`].
fn tree_depth(depth: usize, at: usize) -> Result<usize, ExprError> {
    if depth > MAX_TREE_DEPTH {
        return Err(ExprError::new(
            at,
            format!("an expression more than {MAX_TREE_DEPTH} operators deep"),
            format!(
                "at most {MAX_TREE_DEPTH} operators on any path of the expression (a chain `a + b + ...` of n terms is n - 1 deep); split it with a location variable or simplify it"
            ),
        ));
    }
    Ok(depth)
}

impl Parser {
    fn peek(&self) -> &Token {
        &self.tokens[self.at].0
    }

    fn span(&self) -> ExprSpan {
        self.tokens[self.at].1
    }

    fn bump(&mut self) {
        if self.at + 1 < self.tokens.len() {
            self.at += 1;
        }
    }

    fn unexpected(&self, expected: &str) -> ExprError {
        let found = match self.peek() {
            Token::Int(n) => format!("the number {n}"),
            Token::Ident(s) => format!("`{}`", excerpt(s)),
            Token::Op(o) => format!("`{o}`"),
            Token::Open => "`(`".into(),
            Token::Close => "`)`".into(),
            Token::End => "the end of the expression".into(),
        };
        ExprError::new(self.span().start, found, expected)
    }

    fn deeper(&mut self) -> Result<(), ExprError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(ExprError::new(
                self.span().start,
                format!("nesting deeper than {MAX_DEPTH}"),
                "a shallower expression",
            ));
        }
        Ok(())
    }

    fn or(&mut self) -> Result<Parsed, ExprError> {
        let mut e = self.and()?;
        while matches!(self.peek(), Token::Op("||")) || self.peek() == &Token::Ident("or".into()) {
            let at = self.span().start;
            self.bump();
            let r = self.and()?;
            e = self.binary(BinOp::Or, e, r, at)?;
        }
        Ok(e)
    }

    fn and(&mut self) -> Result<Parsed, ExprError> {
        let mut e = self.not()?;
        while matches!(self.peek(), Token::Op("&&")) || self.peek() == &Token::Ident("and".into()) {
            let at = self.span().start;
            self.bump();
            let r = self.not()?;
            e = self.binary(BinOp::And, e, r, at)?;
        }
        Ok(e)
    }

    fn not(&mut self) -> Result<Parsed, ExprError> {
        if matches!(self.peek(), Token::Op("!")) || self.peek() == &Token::Ident("not".into()) {
            let start = self.span().start;
            self.bump();
            self.deeper()?;
            let e = self.not()?;
            self.depth -= 1;
            return self.unary(UnOp::Not, e, start);
        }
        self.comparison()
    }

    fn comparison(&mut self) -> Result<Parsed, ExprError> {
        let e = self.sum()?;
        let op = match self.peek() {
            Token::Op("==") => BinOp::Eq,
            Token::Op("!=") => BinOp::Ne,
            Token::Op("<") => BinOp::Lt,
            Token::Op("<=") => BinOp::Le,
            Token::Op(">") => BinOp::Gt,
            Token::Op(">=") => BinOp::Ge,
            _ => return Ok(e),
        };
        let at = self.span().start;
        self.bump();
        let r = self.sum()?;
        if let Token::Op("==" | "!=" | "<" | "<=" | ">" | ">=") = self.peek() {
            return Err(self
                .unexpected("no second comparison (write `a < b and b < c`, or use parentheses)"));
        }
        self.binary(op, e, r, at)
    }

    fn sum(&mut self) -> Result<Parsed, ExprError> {
        let mut e = self.product()?;
        loop {
            let op = match self.peek() {
                Token::Op("+") => BinOp::Add,
                Token::Op("-") => BinOp::Sub,
                _ => return Ok(e),
            };
            let at = self.span().start;
            self.bump();
            let r = self.product()?;
            e = self.binary(op, e, r, at)?;
        }
    }

    fn product(&mut self) -> Result<Parsed, ExprError> {
        let mut e = self.negation()?;
        loop {
            let op = match self.peek() {
                Token::Op("*") => BinOp::Mul,
                Token::Op("/") => BinOp::Div,
                Token::Op("%") => BinOp::Mod,
                _ => return Ok(e),
            };
            let at = self.span().start;
            self.bump();
            let r = self.negation()?;
            e = self.binary(op, e, r, at)?;
        }
    }

    fn negation(&mut self) -> Result<Parsed, ExprError> {
        if matches!(self.peek(), Token::Op("-")) {
            let start = self.span().start;
            self.bump();
            self.deeper()?;
            let e = self.negation()?;
            self.depth -= 1;
            return self.unary(UnOp::Neg, e, start);
        }
        self.atom()
    }

    fn atom(&mut self) -> Result<Parsed, ExprError> {
        let span = self.span();
        let kind = match self.peek().clone() {
            Token::Int(n) => ExprKind::Int(n),
            Token::Ident(s) if s == "true" || s == "false" => ExprKind::Bool(s == "true"),
            Token::Ident(s) if KEYWORDS.contains(&s.as_str()) => {
                return Err(self.unexpected("a number, a name or `(`"));
            }
            Token::Ident(s) => ExprKind::Name(s),
            Token::Open => {
                self.bump();
                self.deeper()?;
                let (mut e, depth) = self.or()?;
                self.depth -= 1;
                if self.peek() != &Token::Close {
                    return Err(self.unexpected("`)`"));
                }
                e.span = ExprSpan {
                    start: span.start,
                    end: self.span().end,
                };
                self.bump();
                return Ok((e, depth));
            }
            _ => return Err(self.unexpected("a number, a name or `(`")),
        };
        self.bump();
        Ok((Expr { kind, span }, 0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn round(text: &str) -> String {
        parse_expr(text).unwrap().to_string()
    }

    #[test]
    fn precedence_and_canonical_text() {
        assert_eq!(round("1 <= p && p <= 10"), "1 <= p and p <= 10");
        assert_eq!(round("x + p * 2"), "x + p * 2");
        assert_eq!(round("(x + p) * 2"), "(x + p) * 2");
        assert_eq!(round("a - (b - c)"), "a - (b - c)");
        assert_eq!(round("(a - b) - c"), "a - b - c");
        assert_eq!(round("!(a || b) and c"), "not (a or b) and c");
        assert_eq!(round("not a == b"), "not a == b");
        assert_eq!(round("(not a) == b"), "(not a) == b");
        assert_eq!(round("- -x"), "-(-x)");
        assert_eq!(round("(a == b) == c"), "(a == b) == c");
    }

    #[test]
    fn errors_are_positioned() {
        let e = parse_expr("x + * 2").unwrap_err();
        assert_eq!((e.offset, e.found.as_str()), (4, "`*`"));
        let e = parse_expr("a < b < c").unwrap_err();
        assert_eq!(e.offset, 6);
        let e = parse_expr("x = 1").unwrap_err();
        assert_eq!((e.offset, e.expected.as_str()), (2, "`==`"));
        let e = parse_expr("(x + 1").unwrap_err();
        assert_eq!(
            (e.offset, e.found.as_str()),
            (6, "the end of the expression")
        );
        let e = parse_expr("99999999999999999999").unwrap_err();
        assert_eq!(e.offset, 0);
        let e = parse_expr("x $ 1").unwrap_err();
        assert_eq!(e.offset, 2);
        let e = parse_expr("").unwrap_err();
        assert_eq!(e.found, "the end of the expression");
        let deep = format!("{}x{}", "(".repeat(500), ")".repeat(500));
        assert!(parse_expr(&deep).unwrap_err().found.contains("nesting"));
        assert!(parse_expr(&"-".repeat(10_000)).is_err());
    }

    #[test]
    fn trees_deeper_than_the_limit_are_refused_at_the_operator() {
        // `x + x + ... + x` of n terms is n - 1 deep.
        let chain = |n: usize, op: &str| vec!["x"; n].join(&format!(" {op} "));
        for op in ["+", "-", "*", "/", "%", "and", "or", "&&", "||"] {
            assert!(parse_expr(&chain(MAX_TREE_DEPTH + 1, op)).is_ok(), "{op}");
            let text = chain(MAX_TREE_DEPTH + 2, op);
            let e = parse_expr(&text).unwrap_err();
            // The last operator goes beyond the limit.
            assert_eq!(e.offset, text.rfind(op).unwrap(), "{op}");
            assert!(e.found.contains("operators deep"), "{e}");
        }
        // A comparison adds a level; parentheses count their contents.
        let sum = chain(MAX_TREE_DEPTH + 1, "+");
        assert!(parse_expr(&format!("{sum} >= 0")).is_err());
        assert!(parse_expr(&format!("(({sum})) * 2")).is_err());
        assert!(parse_expr(&chain(15_000, "and")).is_err());
    }

    fn expr_strategy() -> impl Strategy<Value = Expr> {
        let leaf = prop_oneof![
            (0i64..1000).prop_map(ExprKind::Int),
            any::<bool>().prop_map(ExprKind::Bool),
            "[a-z_][a-z0-9_]{0,3}"
                .prop_filter("not a keyword", |s| !KEYWORDS.contains(&s.as_str()))
                .prop_map(ExprKind::Name),
        ]
        .prop_map(|kind| Expr {
            kind,
            span: ExprSpan::default(),
        });
        leaf.prop_recursive(6, 64, 2, |inner| {
            let ops = prop_oneof![
                Just(BinOp::Or),
                Just(BinOp::And),
                Just(BinOp::Eq),
                Just(BinOp::Ne),
                Just(BinOp::Lt),
                Just(BinOp::Le),
                Just(BinOp::Gt),
                Just(BinOp::Ge),
                Just(BinOp::Add),
                Just(BinOp::Sub),
                Just(BinOp::Mul),
                Just(BinOp::Div),
                Just(BinOp::Mod),
            ];
            prop_oneof![
                (prop_oneof![Just(UnOp::Not), Just(UnOp::Neg)], inner.clone())
                    .prop_map(|(op, e)| ExprKind::Unary(op, Box::new(e))),
                (ops, inner.clone(), inner).prop_map(|(op, a, b)| ExprKind::Binary(
                    op,
                    Box::new(a),
                    Box::new(b)
                )),
            ]
            .prop_map(|kind| Expr {
                kind,
                span: ExprSpan::default(),
            })
        })
    }

    proptest! {
        /// Printing then parsing gives the same tree, and the printed text is a fixed point.
        #[test]
        fn print_parse_round_trip(e in expr_strategy()) {
            let text = e.to_string();
            let back = parse_expr(&text).map_err(|err| TestCaseError::fail(format!("{text}: {err}")))?;
            prop_assert_eq!(&back, &e, "{}", text);
            prop_assert_eq!(back.to_string(), text);
        }

        /// The parser never panics and reports offsets inside the text.
        #[test]
        fn parser_never_panics(text in "[a-z0-9 ()+*/%<>=!&|-]{0,40}") {
            if let Err(e) = parse_expr(&text) {
                prop_assert!(e.offset <= text.len());
            }
        }
    }
}
