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

use super::expr::{Term, UnOp, Value};
use super::solver::{Sat, Solver};
pub use super::term::{Sym, Symbol};
use super::types::{Sts, Type};

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
