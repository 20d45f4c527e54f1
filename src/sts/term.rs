//! Symbolic terms (van den Bos Sec. 4.2): constants and the symbols of a path's steps combined by
//! the operators of the language. Symbolic states and path conditions are made of them
//! ([`super::symbolic`]), and solvers are asked about them ([`super::solver`]).

use super::expr::{BinOp, Expr, ExprKind, ExprSpan, Term, UnOp, Value};
use super::types::{Sts, Type};

/// A symbolic term: constants and symbols (parameters of a step) combined by operators.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sym {
    /// A constant.
    Const(Value),
    /// Symbol `i` of the path.
    Symbol(usize),
    /// `not t` or `-t`.
    Unary(UnOp, Box<Sym>),
    /// `a op b`.
    Binary(BinOp, Box<Sym>, Box<Sym>),
}

/// A symbol: one parameter of one step of a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    /// `p_k`: parameter `p` at step `k`.
    pub name: String,
    /// The parameter's type (its bounds constrain the symbol).
    pub ty: Type,
    /// The number of constants of its enumeration (0 for other types).
    pub enum_size: usize,
}

impl Sym {
    /// `a op b`, simplified: constants folded, and the identities `true and x = x`,
    /// `false and x = false`, `false or x = x`, `true or x = true`, `x + 0 = x`, `x - 0 = x`,
    /// `x * 1 = x` (either side where the operator commutes). A side that is dropped must hold
    /// no `/` or `%`, so that a division by zero still makes the guard false, as evaluation does.
    pub fn binary(op: BinOp, a: Sym, b: Sym) -> Sym {
        if let (Sym::Const(x), Sym::Const(y)) = (&a, &b) {
            let t = Term::Binary(op, Box::new(Term::Const(*x)), Box::new(Term::Const(*y)));
            if let Ok(v) = t.eval(&[], &[]) {
                return Sym::Const(v);
            }
        }
        let commutes = matches!(op, BinOp::And | BinOp::Or | BinOp::Add | BinOp::Mul);
        for (c, other, dropped) in
            [(&a, &b, &b), (&b, &a, &a)]
                .into_iter()
                .take(if commutes { 2 } else { 1 })
        {
            let Sym::Const(v) = c else { continue };
            match (op, v) {
                (BinOp::And, Value::Bool(true)) | (BinOp::Or, Value::Bool(false)) => {
                    return other.clone();
                }
                (BinOp::Add, Value::Int(0)) | (BinOp::Mul, Value::Int(1)) => return other.clone(),
                (BinOp::And, Value::Bool(false)) | (BinOp::Or, Value::Bool(true))
                    if !dropped.divides() =>
                {
                    return c.clone();
                }
                _ => {}
            }
        }
        if op == BinOp::Sub && b == Sym::Const(Value::Int(0)) {
            return a;
        }
        Sym::Binary(op, Box::new(a), Box::new(b))
    }

    /// `not t`, simplified: a constant negated, double negation removed.
    pub fn negation(t: Sym) -> Sym {
        match t {
            Sym::Const(Value::Bool(b)) => Sym::Const(Value::Bool(!b)),
            Sym::Unary(UnOp::Not, inner) => *inner,
            t => Sym::Unary(UnOp::Not, Box::new(t)),
        }
    }

    /// Whether the term holds a `/` or `%`.
    fn divides(&self) -> bool {
        match self {
            Sym::Const(_) | Sym::Symbol(_) => false,
            Sym::Unary(_, t) => t.divides(),
            Sym::Binary(op, a, b) => {
                matches!(op, BinOp::Div | BinOp::Mod) || a.divides() || b.divides()
            }
        }
    }

    /// The conjuncts `d != 0` for every divisor `d` of a `/` or `%` in the term.
    pub fn divisors_non_zero(&self, out: &mut Vec<Sym>) {
        match self {
            Sym::Const(_) | Sym::Symbol(_) => {}
            Sym::Unary(_, t) => t.divisors_non_zero(out),
            Sym::Binary(op, a, b) => {
                a.divisors_non_zero(out);
                b.divisors_non_zero(out);
                if matches!(op, BinOp::Div | BinOp::Mod) {
                    out.push(Sym::binary(
                        BinOp::Ne,
                        (**b).clone(),
                        Sym::Const(Value::Int(0)),
                    ));
                }
            }
        }
    }

    /// The term as an expression of the language, symbols by name (for reports and files).
    pub fn to_expr(&self, sts: &Sts, symbols: &[Symbol]) -> Expr {
        let kind = match self {
            Sym::Const(Value::Int(n)) => ExprKind::Int(*n),
            Sym::Const(Value::Bool(b)) => ExprKind::Bool(*b),
            Sym::Const(v @ Value::Enum { .. }) => ExprKind::Name(sts.show_value(*v)),
            Sym::Symbol(i) => ExprKind::Name(symbols[*i].name.clone()),
            Sym::Unary(op, t) => ExprKind::Unary(*op, Box::new(t.to_expr(sts, symbols))),
            Sym::Binary(op, a, b) => ExprKind::Binary(
                *op,
                Box::new(a.to_expr(sts, symbols)),
                Box::new(b.to_expr(sts, symbols)),
            ),
        };
        Expr {
            kind,
            span: ExprSpan::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sym(i: usize) -> Sym {
        Sym::Symbol(i)
    }
    fn int(n: i64) -> Sym {
        Sym::Const(Value::Int(n))
    }
    fn boolean(b: bool) -> Sym {
        Sym::Const(Value::Bool(b))
    }

    #[test]
    fn constants_are_folded_in_and_or_not_and_arithmetic() {
        let gt = Sym::binary(BinOp::Gt, sym(0), int(3));
        assert_eq!(Sym::binary(BinOp::And, gt.clone(), boolean(true)), gt);
        assert_eq!(Sym::binary(BinOp::And, boolean(true), gt.clone()), gt);
        assert_eq!(Sym::binary(BinOp::Or, boolean(false), gt.clone()), gt);
        assert_eq!(
            Sym::binary(BinOp::And, gt.clone(), boolean(false)),
            boolean(false)
        );
        assert_eq!(
            Sym::binary(BinOp::Or, boolean(true), gt.clone()),
            boolean(true)
        );
        assert_eq!(Sym::binary(BinOp::Add, int(0), sym(1)), sym(1));
        assert_eq!(Sym::binary(BinOp::Sub, sym(1), int(0)), sym(1));
        assert_eq!(Sym::binary(BinOp::Mul, int(1), sym(1)), sym(1));
        // `0 - x` is not `x`.
        assert_ne!(Sym::binary(BinOp::Sub, int(0), sym(1)), sym(1));
        assert_eq!(Sym::negation(Sym::negation(gt.clone())), gt);
        assert_eq!(Sym::negation(boolean(true)), boolean(false));
        // A side with a division is kept: dividing by zero makes the guard false.
        let div = Sym::binary(BinOp::Eq, Sym::binary(BinOp::Div, int(1), sym(0)), int(1));
        assert!(matches!(
            Sym::binary(BinOp::Or, boolean(true), div),
            Sym::Binary(BinOp::Or, _, _)
        ));
    }
}
