//! The Z3 implementation of [`Solver`] (Cargo feature `smt`; the solver of van den Bos'
//! prototype and of TorXakis). Integers and enumeration constants are Z3 integers (constant `i`
//! of an enumeration is `i`, its symbol ranges over `0..n`), Booleans are Z3 Booleans, `/` and
//! `%` are SMT-LIB's `div` and `mod` (Euclidean, as `expr.rs` evaluates them).
//!
//! One Z3 solver lives beside its context for the whole life of a [`Z3Solver`]; each query is
//! asserted inside a `push`/`pop` scope, so no assertion outlives its query. Creating a Z3
//! solver parses its parameters and builds its tactics (about 5 ms on the 2-core machine, where
//! the on-the-fly STS runs spent nearly all their time); a scope on a live solver costs about
//! 0.06 ms. Satisfiability is the same either way (nonlinear integer queries too, such as
//! `x * y == 391` over `2..1000`); the model Z3 returns for a satisfiable query may differ, also
//! between two identical queries of one run (any model of the constraints is a correct
//! witness, and a run's sequence of queries, hence its answers, is fixed by its seed).

use super::expr::{BinOp, UnOp, Value};
use super::solver::{Sat, Solver};
use super::term::{Sym, Symbol};
use super::types::Type;
use z3::ast::{Ast, Bool, Int};
use z3::{Config, Context, SatResult};

/// A Z3 solver borrows its context.
type LiveSolver<'c> = z3::Solver<'c>;

self_cell::self_cell!(
    /// A Z3 context and the one solver over it.
    struct ContextAndSolver {
        owner: Context,
        #[covariant]
        dependent: LiveSolver,
    }
);

/// Z3 through the `z3` crate.
pub struct Z3Solver {
    z3: ContextAndSolver,
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
            z3: ContextAndSolver::new(Context::new(&Config::new()), |ctx| z3::Solver::new(ctx)),
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
        let ctx = self.z3.borrow_owner();
        let solver = self.z3.borrow_dependent();
        solver.push();
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
        let answer = then(solver, result, &vars);
        solver.pop(1);
        answer
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

    fn limit_time(&mut self, limit: Option<std::time::Duration>) {
        // Z3's `timeout` is in milliseconds; u32::MAX (about 50 days) is none.
        let ms = limit.map_or(u32::MAX, |d| {
            u32::try_from(d.as_millis()).unwrap_or(u32::MAX).max(1)
        });
        let mut params = z3::Params::new(self.z3.borrow_owner());
        params.set_u32("timeout", ms);
        self.z3.borrow_dependent().set_params(&params);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn int(name: &str, min: i64, max: i64) -> Symbol {
        Symbol {
            name: name.into(),
            ty: Type::Int {
                min: Some(min),
                max: Some(max),
            },
            enum_size: 0,
        }
    }

    fn cmp(op: BinOp, symbol: usize, n: i64) -> Sym {
        Sym::Binary(
            op,
            Box::new(Sym::Symbol(symbol)),
            Box::new(Sym::Const(Value::Int(n))),
        )
    }

    /// One solver answers every query of a `Z3Solver`: a query's assertions (its constraints and
    /// its symbols' bounds) must not constrain the next one, even under the same symbol names.
    #[test]
    fn each_query_sees_only_its_own_constraints() {
        let mut z3 = Z3Solver::new();
        let x = [int("x", 0, 10)];
        assert_eq!(z3.check(&x, &[cmp(BinOp::Gt, 0, 7)]), Sat::Sat);
        assert_eq!(z3.check(&x, &[cmp(BinOp::Lt, 0, 3)]), Sat::Sat);
        assert_eq!(
            z3.check(&x, &[cmp(BinOp::Gt, 0, 5), cmp(BinOp::Lt, 0, 3)]),
            Sat::Unsat
        );
        assert_eq!(
            z3.witness(&x, &[cmp(BinOp::Eq, 0, 2)]),
            Some(vec![Value::Int(2)])
        );
        // Other bounds under the same name: the first query's `x <= 10` is gone.
        let wide = [int("x", 0, 100)];
        assert_eq!(
            z3.witness(&wide, &[cmp(BinOp::Eq, 0, 50)]),
            Some(vec![Value::Int(50)])
        );
        assert_eq!(z3.check(&x, &[cmp(BinOp::Eq, 0, 50)]), Sat::Unsat);
    }

    /// Nonlinear integer queries are decided inside a scope too, again and again.
    #[test]
    fn nonlinear_queries_are_decided_in_scopes() {
        let mut z3 = Z3Solver::new();
        let xy = [int("x", 2, 1000), int("y", 2, 1000)];
        let product = |a: usize, b: usize, n: i64| {
            Sym::Binary(
                BinOp::Eq,
                Box::new(Sym::Binary(
                    BinOp::Mul,
                    Box::new(Sym::Symbol(a)),
                    Box::new(Sym::Symbol(b)),
                )),
                Box::new(Sym::Const(Value::Int(n))),
            )
        };
        for _ in 0..3 {
            let w = z3.witness(&xy, &[product(0, 1, 391)]).expect("17 * 23");
            let [Value::Int(x), Value::Int(y)] = w[..] else {
                panic!("{w:?}")
            };
            assert_eq!(x * y, 391);
            assert_eq!(z3.check(&xy, &[product(0, 0, 2)]), Sat::Unsat);
        }
    }
}
