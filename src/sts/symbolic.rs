//! Symbolic execution (van den Bos Sec. 4.3): symbolic states `(l, m, η)` of Def. 4.11 — a
//! location, a term per variable over the parameters met so far, and a path condition — and
//! the symbolic execution graph of Def. 4.14 unfolded breadth-first to a bounded depth, a
//! switch enabled when the solver answers `sat` or `unknown` for its guard and the path
//! condition (Def. 4.12).
//!
//! The thesis primes every parameter each time a switch is taken (Def. 4.10); here each step
//! of a path gets fresh symbols instead, named `p_k` for parameter `p` of the switch at step
//! `k` (from 1), which is the same renaming. A symbol's type is its parameter's, so its bounds
//! are part of the path condition.

use super::expr::{BinOp, Expr, ExprKind, ExprSpan, Term, UnOp, Value};
use super::solver::{Sat, Solver};
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

/// A node of the symbolic execution graph: a symbolic state and how it was reached.
#[derive(Clone, Debug)]
pub struct SegNode {
    /// The location.
    pub location: usize,
    /// A symbolic term per variable.
    pub vars: Vec<Sym>,
    /// The path condition, as conjuncts.
    pub condition: Vec<Sym>,
    /// The symbols of the path, in step order.
    pub symbols: Vec<Symbol>,
    /// The parent node and the switch taken from it (`None` for the root).
    pub parent: Option<(usize, usize)>,
    /// Number of switches from the root.
    pub depth: usize,
    /// The solver's answer for the path condition (`Sat` for the root).
    pub answer: Sat,
}

/// The symbolic execution graph unfolded to a depth, nodes in breadth-first order.
#[derive(Clone, Debug)]
pub struct Seg {
    /// The nodes; node 0 is `(l0, m_ini, true)`.
    pub nodes: Vec<SegNode>,
    /// Whether the unfolding stopped at the node budget before reaching its depth.
    pub truncated: bool,
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

/// `t[m']` of Def. 4.12: the term with variables replaced by their symbolic values and the
/// gate's parameters by the step's symbols.
pub fn substitute(term: &Term, vars: &[Sym], params: &[usize]) -> Sym {
    match term {
        Term::Const(v) => Sym::Const(*v),
        Term::Var(i) => vars[*i].clone(),
        Term::Param(i) => Sym::Symbol(params[*i]),
        Term::Unary(UnOp::Not, t) => Sym::negation(substitute(t, vars, params)),
        Term::Unary(UnOp::Neg, t) => match substitute(t, vars, params) {
            Sym::Const(Value::Int(n)) if n.checked_neg().is_some() => Sym::Const(Value::Int(-n)),
            s => Sym::Unary(UnOp::Neg, Box::new(s)),
        },
        Term::Binary(op, a, b) => Sym::binary(
            *op,
            substitute(a, vars, params),
            substitute(b, vars, params),
        ),
    }
}

/// The limits of an unfolding.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SegLimits {
    /// Most switches on a path.
    pub depth: usize,
    /// Most nodes.
    pub nodes: usize,
}

/// The successor `succ(s, r)` of Def. 4.12 when `enab(s, r)`: the solver is asked about the
/// guard (with the new symbols' domains and non-zero divisors) and the path condition.
pub fn successor(
    sts: &Sts,
    solver: &mut dyn Solver,
    node: &SegNode,
    switch_index: usize,
) -> Option<SegNode> {
    let switch = &sts.switches[switch_index];
    if switch.from != node.location {
        return None;
    }
    let step = node.depth + 1;
    let mut symbols = node.symbols.clone();
    let params: Vec<usize> = sts.gates[switch.gate]
        .parameters
        .iter()
        .map(|p| {
            symbols.push(Symbol {
                name: format!("{}_{step}", p.name),
                ty: p.ty.clone(),
                enum_size: match p.ty {
                    Type::Enum(e) => sts.enums[e].values.len(),
                    _ => 0,
                },
            });
            symbols.len() - 1
        })
        .collect();
    let guard = substitute(&switch.guard, &node.vars, &params);
    if guard == Sym::Const(Value::Bool(false)) {
        return None;
    }
    let mut condition = node.condition.clone();
    guard.divisors_non_zero(&mut condition);
    if guard != Sym::Const(Value::Bool(true)) {
        condition.push(guard);
    }
    let answer = solver.check(&symbols, &condition);
    if answer == Sat::Unsat {
        return None;
    }
    let mut vars = node.vars.clone();
    for (var, term) in &switch.assignments {
        vars[*var] = substitute(term, &node.vars, &params);
    }
    Some(SegNode {
        location: switch.to,
        vars,
        condition,
        symbols,
        parent: None,
        depth: step,
        answer,
    })
}

/// The root `(l0, m_ini, true)` of the symbolic execution graph.
pub fn root(sts: &Sts) -> SegNode {
    SegNode {
        location: sts.initial,
        vars: sts
            .variables
            .iter()
            .map(|v| Sym::Const(v.initial))
            .collect(),
        condition: Vec::new(),
        symbols: Vec::new(),
        parent: None,
        depth: 0,
        answer: Sat::Sat,
    }
}

/// The symbolic execution graph of `sts` unfolded breadth-first within `limits`, children in
/// switch order; with `until_covered`, unfolding stops once every switch labels some edge.
pub fn unfold(sts: &Sts, solver: &mut dyn Solver, limits: SegLimits, until_covered: bool) -> Seg {
    let mut nodes = vec![root(sts)];
    let mut covered = vec![false; sts.switches.len()];
    let mut uncovered = sts.switches.len();
    let mut next = 0;
    while next < nodes.len() {
        if until_covered && uncovered == 0 {
            break;
        }
        if nodes[next].depth >= limits.depth {
            next += 1;
            continue;
        }
        for (k, seen) in covered.iter_mut().enumerate() {
            if let Some(mut child) = successor(sts, solver, &nodes[next], k) {
                if nodes.len() >= limits.nodes {
                    return Seg {
                        nodes,
                        truncated: true,
                    };
                }
                child.parent = Some((next, k));
                if !*seen {
                    *seen = true;
                    uncovered -= 1;
                }
                nodes.push(child);
            }
        }
        next += 1;
    }
    Seg {
        nodes,
        truncated: false,
    }
}

impl Seg {
    /// The switches from the root to `node`.
    pub fn path(&self, mut node: usize) -> Vec<usize> {
        let mut path = Vec::new();
        while let Some((parent, switch)) = self.nodes[node].parent {
            path.push(switch);
            node = parent;
        }
        path.reverse();
        path
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
