//! The expression language of guards and assignments (the terms `T(V)` of van den Bos
//! Sec. 4.2.2 over a fixed signature): integer literals and arithmetic `+ - * / %`, the
//! comparisons `== != < <= > >=`, `and`/`or`/`not` (also written `&&`, `||`, `!`), `true`,
//! `false`, names (location variables, gate parameters, enumeration constants) and parentheses.
//! No `if`, no functions.
//!
//! Precedence from loosest to tightest: `or`, `and`, `not`, comparisons (not chained),
//! `+ -`, `* / %`, unary `-`. Binary operators associate to the left. [`Expr`]'s `Display`
//! prints the canonical text, with the fewest parentheses that read back to the same tree
//! (the property test of this module).
//!
//! Integers are 64-bit; `/` and `%` are Euclidean (the remainder is never negative), as `div`
//! and `mod` of SMT-LIB's integer theory. An overflow or a division by zero makes an
//! evaluation fail ([`EvalError`]); what that means for a guard or an assignment is decided by
//! the caller ([`super::types`]).

use std::fmt;

/// A byte range in an expression's text.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ExprSpan {
    /// Offset of the first byte.
    pub start: usize,
    /// Offset one past the last byte.
    pub end: usize,
}

/// Unary operators.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum UnOp {
    /// Boolean negation.
    Not,
    /// Integer negation.
    Neg,
}

/// Binary operators.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `or`
    Or,
    /// `and`
    And,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/` (Euclidean)
    Div,
    /// `%` (Euclidean)
    Mod,
}

impl BinOp {
    /// Binding strength: higher binds tighter.
    pub fn precedence(self) -> u8 {
        match self {
            BinOp::Or => 1,
            BinOp::And => 2,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => 4,
            BinOp::Add | BinOp::Sub => 5,
            BinOp::Mul | BinOp::Div | BinOp::Mod => 6,
        }
    }

    /// The canonical spelling.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Or => "or",
            BinOp::And => "and",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Mod => "%",
        }
    }

    /// A comparison (operands of one sort, result Boolean).
    pub fn is_comparison(self) -> bool {
        self.precedence() == 4
    }
}

/// Precedence of `not`.
const NOT_PRECEDENCE: u8 = 3;
/// Precedence of unary minus.
const NEG_PRECEDENCE: u8 = 7;

/// A parsed expression: names are not resolved yet ([`super::check`] resolves and types them).
#[derive(Clone, Debug)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where it is in the expression's text.
    pub span: ExprSpan,
}

/// The forms of [`Expr`].
#[derive(Clone, Debug)]
pub enum ExprKind {
    /// A non-negative integer literal.
    Int(i64),
    /// `true` or `false`.
    Bool(bool),
    /// A variable, parameter or enumeration constant.
    Name(String),
    /// `not e` or `-e`.
    Unary(UnOp, Box<Expr>),
    /// `a op b`.
    Binary(BinOp, Box<Expr>, Box<Expr>),
}

impl PartialEq for Expr {
    /// Equality of trees; positions are ignored.
    fn eq(&self, other: &Self) -> bool {
        match (&self.kind, &other.kind) {
            (ExprKind::Int(a), ExprKind::Int(b)) => a == b,
            (ExprKind::Bool(a), ExprKind::Bool(b)) => a == b,
            (ExprKind::Name(a), ExprKind::Name(b)) => a == b,
            (ExprKind::Unary(o, a), ExprKind::Unary(p, b)) => o == p && a == b,
            (ExprKind::Binary(o, a1, a2), ExprKind::Binary(p, b1, b2)) => {
                o == p && a1 == b1 && a2 == b2
            }
            _ => false,
        }
    }
}

impl Expr {
    fn precedence(&self) -> u8 {
        match &self.kind {
            ExprKind::Int(n) if *n < 0 => NEG_PRECEDENCE,
            ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Name(_) => u8::MAX,
            ExprKind::Unary(UnOp::Not, _) => NOT_PRECEDENCE,
            ExprKind::Unary(UnOp::Neg, _) => NEG_PRECEDENCE,
            ExprKind::Binary(op, _, _) => op.precedence(),
        }
    }
}

fn write_operand(f: &mut fmt::Formatter<'_>, e: &Expr, parenthesise: bool) -> fmt::Result {
    if parenthesise {
        write!(f, "({e})")
    } else {
        write!(f, "{e}")
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ExprKind::Int(n) => write!(f, "{n}"),
            ExprKind::Bool(b) => write!(f, "{b}"),
            ExprKind::Name(n) => f.write_str(n),
            ExprKind::Unary(op, e) => {
                let (text, own) = match op {
                    UnOp::Not => ("not ", NOT_PRECEDENCE),
                    UnOp::Neg => ("-", NEG_PRECEDENCE),
                };
                f.write_str(text)?;
                // `- -x` would lex as two minus signs either way; `-(-x)` reads clearer.
                let nested_neg = *op == UnOp::Neg
                    && (matches!(e.kind, ExprKind::Unary(UnOp::Neg, _))
                        || matches!(e.kind, ExprKind::Int(n) if n < 0));
                write_operand(f, e, e.precedence() < own || nested_neg)
            }
            ExprKind::Binary(op, a, b) => {
                let own = op.precedence();
                // Comparisons do not chain: either side that is a comparison needs parentheses.
                let left = a.precedence() < own || (op.is_comparison() && a.precedence() == own);
                let right = b.precedence() <= own;
                write_operand(f, a, left)?;
                write!(f, " {} ", op.symbol())?;
                write_operand(f, b, right)
            }
        }
    }
}

/// A value of one of the sorts: an integer, a Boolean, or a constant of an enumeration
/// (its type's index and the constant's index in it).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Value {
    /// An integer.
    Int(i64),
    /// A Boolean.
    Bool(bool),
    /// Constant `index` of enumeration `enumeration`.
    Enum {
        /// The enumeration's index in the model.
        enumeration: usize,
        /// The constant's index in its enumeration.
        index: usize,
    },
}

/// Why an evaluation has no value.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EvalError {
    /// A 64-bit overflow.
    #[error("integer overflow")]
    Overflow,
    /// `/` or `%` by zero.
    #[error("division by zero")]
    DivisionByZero,
}

/// A resolved, well-sorted term ([`super::check`] builds them from [`Expr`]s): what is
/// evaluated, instantiated and handed to the solver.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Term {
    /// A constant.
    Const(Value),
    /// Location variable `i` of the model.
    Var(usize),
    /// Parameter `i` of the switch's gate.
    Param(usize),
    /// `not t` or `-t`.
    Unary(UnOp, Box<Term>),
    /// `a op b`.
    Binary(BinOp, Box<Term>, Box<Term>),
}

impl Term {
    /// The value of the term for the variables' values `vars` and the parameters' `params`
    /// (a valuation of Sec. 4.2.2 extended to terms). `and`/`or` evaluate both sides, so an
    /// error on either side is an error whatever the other side's value.
    pub fn eval(&self, vars: &[Value], params: &[Value]) -> Result<Value, EvalError> {
        Ok(match self {
            Term::Const(v) => *v,
            Term::Var(i) => vars[*i],
            Term::Param(i) => params[*i],
            Term::Unary(UnOp::Not, t) => Value::Bool(!t.eval(vars, params)?.as_bool()),
            Term::Unary(UnOp::Neg, t) => Value::Int(
                t.eval(vars, params)?
                    .as_int()
                    .checked_neg()
                    .ok_or(EvalError::Overflow)?,
            ),
            Term::Binary(op, a, b) => {
                let x = a.eval(vars, params)?;
                let y = b.eval(vars, params)?;
                apply(*op, x, y)?
            }
        })
    }
}

impl Value {
    /// The Boolean (well-sorted terms only ask Booleans for it).
    pub fn as_bool(self) -> bool {
        matches!(self, Value::Bool(true))
    }

    /// The integer (well-sorted terms only ask integers for it).
    pub fn as_int(self) -> i64 {
        match self {
            Value::Int(n) => n,
            _ => 0,
        }
    }
}

fn apply(op: BinOp, x: Value, y: Value) -> Result<Value, EvalError> {
    let ints = || (x.as_int(), y.as_int());
    Ok(match op {
        BinOp::Or => Value::Bool(x.as_bool() || y.as_bool()),
        BinOp::And => Value::Bool(x.as_bool() && y.as_bool()),
        BinOp::Eq => Value::Bool(x == y),
        BinOp::Ne => Value::Bool(x != y),
        BinOp::Lt => Value::Bool(x.as_int() < y.as_int()),
        BinOp::Le => Value::Bool(x.as_int() <= y.as_int()),
        BinOp::Gt => Value::Bool(x.as_int() > y.as_int()),
        BinOp::Ge => Value::Bool(x.as_int() >= y.as_int()),
        BinOp::Add => {
            let (a, b) = ints();
            Value::Int(a.checked_add(b).ok_or(EvalError::Overflow)?)
        }
        BinOp::Sub => {
            let (a, b) = ints();
            Value::Int(a.checked_sub(b).ok_or(EvalError::Overflow)?)
        }
        BinOp::Mul => {
            let (a, b) = ints();
            Value::Int(a.checked_mul(b).ok_or(EvalError::Overflow)?)
        }
        BinOp::Div | BinOp::Mod => {
            let (a, b) = ints();
            if b == 0 {
                return Err(EvalError::DivisionByZero);
            }
            let r = if op == BinOp::Div {
                a.checked_div_euclid(b)
            } else {
                a.checked_rem_euclid(b)
            };
            Value::Int(r.ok_or(EvalError::Overflow)?)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn euclidean_division_and_errors() {
        let t = |op, a, b| apply(op, Value::Int(a), Value::Int(b));
        assert_eq!(t(BinOp::Div, -7, 2), Ok(Value::Int(-4)));
        assert_eq!(t(BinOp::Mod, -7, 2), Ok(Value::Int(1)));
        assert_eq!(t(BinOp::Mod, 7, -2), Ok(Value::Int(1)));
        assert_eq!(t(BinOp::Div, 1, 0), Err(EvalError::DivisionByZero));
        assert_eq!(t(BinOp::Add, i64::MAX, 1), Err(EvalError::Overflow));
        assert_eq!(t(BinOp::Div, i64::MIN, -1), Err(EvalError::Overflow));
    }
}
