//! The Z3 implementation of [`Solver`] (Cargo feature `smt`; the solver of van den Bos'
//! prototype and of TorXakis). Integers and enumeration constants are Z3 integers (constant `i`
//! of an enumeration is `i`, its symbol ranges over `0..n`), Booleans are Z3 Booleans, `/` and
//! `%` are SMT-LIB's `div` and `mod` (Euclidean, as `expr.rs` evaluates them). Each query gets
//! a fresh Z3 solver over one context.

use super::expr::{BinOp, UnOp, Value};
use super::solver::{Sat, Solver};
use super::symbolic::{Sym, Symbol};
use super::types::Type;
use z3::ast::{Ast, Bool, Int};
use z3::{Config, Context, SatResult};

/// Z3 through the `z3` crate.
pub struct Z3Solver {
    context: Context,
}

impl Default for Z3Solver {
    fn default() -> Self {
        Self::new()
    }
}

impl Z3Solver {
    /// A solver with Z3's default configuration.
    pub fn new() -> Self {
        Z3Solver {
            context: Context::new(&Config::new()),
        }
    }
}

enum Z<'c> {
    I(Int<'c>),
    B(Bool<'c>),
}

impl<'c> Z<'c> {
    fn int(self, ctx: &'c Context) -> Int<'c> {
        match self {
            Z::I(i) => i,
            Z::B(b) => b.ite(&Int::from_i64(ctx, 1), &Int::from_i64(ctx, 0)),
        }
    }

    fn bool(self) -> Bool<'c> {
        match self {
            Z::B(b) => b,
            Z::I(i) => {
                let zero = Int::from_i64(i.get_ctx(), 0);
                i._eq(&zero).not()
            }
        }
    }
}

fn symbol_var<'c>(ctx: &'c Context, s: &Symbol, i: usize) -> Z<'c> {
    let name = format!("s{i}_{}", s.name);
    match s.ty {
        Type::Bool => Z::B(Bool::new_const(ctx, name)),
        _ => Z::I(Int::new_const(ctx, name)),
    }
}

/// The symbol's domain as a constraint (none for Booleans and unbounded integers).
fn domain<'c>(ctx: &'c Context, s: &Symbol, v: &Z<'c>) -> Option<Bool<'c>> {
    let Z::I(x) = v else { return None };
    let (min, max) = match &s.ty {
        Type::Int { min, max } => (*min, *max),
        Type::Enum(_) => (Some(0), Some(s.enum_size as i64 - 1)),
        Type::Bool => return None,
    };
    let mut parts = Vec::new();
    if let Some(m) = min {
        parts.push(x.ge(&Int::from_i64(ctx, m)));
    }
    if let Some(m) = max {
        parts.push(x.le(&Int::from_i64(ctx, m)));
    }
    let refs: Vec<&Bool<'c>> = parts.iter().collect();
    (!refs.is_empty()).then(|| Bool::and(ctx, &refs))
}

fn translate<'c>(ctx: &'c Context, vars: &[Z<'c>], t: &Sym) -> Z<'c> {
    let same = |z: &Z<'c>| match z {
        Z::I(i) => Z::I(i.clone()),
        Z::B(b) => Z::B(b.clone()),
    };
    match t {
        Sym::Const(Value::Int(n)) => Z::I(Int::from_i64(ctx, *n)),
        Sym::Const(Value::Bool(b)) => Z::B(Bool::from_bool(ctx, *b)),
        Sym::Const(Value::Enum { index, .. }) => Z::I(Int::from_i64(ctx, *index as i64)),
        Sym::Symbol(i) => same(&vars[*i]),
        Sym::Unary(UnOp::Not, a) => Z::B(translate(ctx, vars, a).bool().not()),
        Sym::Unary(UnOp::Neg, a) => Z::I(translate(ctx, vars, a).int(ctx).unary_minus()),
        Sym::Binary(op, a, b) => {
            let x = translate(ctx, vars, a);
            let y = translate(ctx, vars, b);
            match op {
                BinOp::And => Z::B(Bool::and(ctx, &[&x.bool(), &y.bool()])),
                BinOp::Or => Z::B(Bool::or(ctx, &[&x.bool(), &y.bool()])),
                BinOp::Eq | BinOp::Ne => {
                    let eq = match (x, y) {
                        (Z::B(p), Z::B(q)) => p._eq(&q),
                        (p, q) => p.int(ctx)._eq(&q.int(ctx)),
                    };
                    Z::B(if *op == BinOp::Eq { eq } else { eq.not() })
                }
                _ => {
                    let (p, q) = (x.int(ctx), y.int(ctx));
                    match op {
                        BinOp::Lt => Z::B(p.lt(&q)),
                        BinOp::Le => Z::B(p.le(&q)),
                        BinOp::Gt => Z::B(p.gt(&q)),
                        BinOp::Ge => Z::B(p.ge(&q)),
                        BinOp::Add => Z::I(Int::add(ctx, &[&p, &q])),
                        BinOp::Sub => Z::I(Int::sub(ctx, &[&p, &q])),
                        BinOp::Mul => Z::I(Int::mul(ctx, &[&p, &q])),
                        BinOp::Div => Z::I(p.div(&q)),
                        _ => Z::I(p.modulo(&q)),
                    }
                }
            }
        }
    }
}

impl Z3Solver {
    fn query<T>(
        &mut self,
        symbols: &[Symbol],
        constraints: &[Sym],
        then: impl FnOnce(&z3::Solver<'_>, SatResult, &[Z<'_>]) -> T,
    ) -> T {
        let ctx = &self.context;
        let solver = z3::Solver::new(ctx);
        let vars: Vec<Z<'_>> = symbols
            .iter()
            .enumerate()
            .map(|(i, s)| symbol_var(ctx, s, i))
            .collect();
        for (s, v) in symbols.iter().zip(&vars) {
            if let Some(d) = domain(ctx, s, v) {
                solver.assert(&d);
            }
        }
        for c in constraints {
            solver.assert(&translate(ctx, &vars, c).bool());
        }
        let result = solver.check();
        then(&solver, result, &vars)
    }
}

impl Solver for Z3Solver {
    fn check(&mut self, symbols: &[Symbol], constraints: &[Sym]) -> Sat {
        self.query(symbols, constraints, |_, r, _| match r {
            SatResult::Sat => Sat::Sat,
            SatResult::Unsat => Sat::Unsat,
            SatResult::Unknown => Sat::Unknown,
        })
    }

    fn witness(&mut self, symbols: &[Symbol], constraints: &[Sym]) -> Option<Vec<Value>> {
        self.query(symbols, constraints, |solver, r, vars| {
            if r != SatResult::Sat {
                return None;
            }
            let model = solver.get_model()?;
            symbols
                .iter()
                .zip(vars)
                .map(|(s, v)| match (v, &s.ty) {
                    (Z::B(b), _) => model.eval(b, true)?.as_bool().map(Value::Bool),
                    (Z::I(i), Type::Enum(e)) => {
                        let index = usize::try_from(model.eval(i, true)?.as_i64()?).ok()?;
                        Some(Value::Enum {
                            enumeration: *e,
                            index,
                        })
                    }
                    (Z::I(i), _) => model.eval(i, true)?.as_i64().map(Value::Int),
                })
                .collect()
        })
    }
}
