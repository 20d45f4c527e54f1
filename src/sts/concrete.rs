//! Concrete execution of an STS without instantiating it (van den Bos Defs. 4.5-4.8 on one
//! semantic state at a time), for data domains of any size: gate values as labels and back,
//! which switches a concrete state enables for a gate value, whether a state is quiescent (no
//! output switch has parameter values satisfying its guard: a solver query), and gate values
//! chosen by the solver, at random where the constraint leaves freedom.
//!
//! Labels are those of the bounded instantiation (`instantiate.rs`): `gate(v1,v2)`, a gate
//! without parameters by its name alone; values as [`Sts::show_value`] writes them.
//!
//! [`StsSystem`] is an STS acting as a system under test (`ncomplete simulate X.sts.yaml`): it
//! takes inputs by label, ignoring those no switch enables, and picks its outputs (switch and
//! values) with a seeded generator and the solver.

use super::expr::{BinOp, Value};
use super::solver::{Sat, Solver};
use super::symbolic::{Sym, Symbol, substitute};
use super::types::{Direction, SemState, StepError, Sts, Type};
use crate::rng::SplitMix64;

/// Integers without a bound are drawn within this distance of their one bound, or of 0.
pub const RANDOM_SPAN: i64 = 100;

impl Sts {
    /// The gate value a label names (`coin(5)`, `serve(tea,2)`, `done`), if it names one:
    /// a gate of the model with one value of its parameter's domain per parameter.
    pub fn parse_gate_value(&self, label: &str) -> Option<(usize, Vec<Value>)> {
        let (name, args) = match label.split_once('(') {
            Some((name, rest)) => (name, Some(rest.strip_suffix(')')?)),
            None => (label, None),
        };
        let gate = self.gates.iter().position(|g| g.name == name)?;
        let parameters = &self.gates[gate].parameters;
        let texts: Vec<&str> = match args {
            None => Vec::new(),
            Some(a) => a.split(',').collect(),
        };
        if texts.len() != parameters.len() {
            return None;
        }
        let values = parameters
            .iter()
            .zip(texts)
            .map(|(p, text)| {
                let v = match p.ty {
                    Type::Int { .. } => Value::Int(text.parse().ok()?),
                    Type::Bool => Value::Bool(text.parse().ok()?),
                    Type::Enum(e) => Value::Enum {
                        enumeration: e,
                        index: self.enums[e].values.iter().position(|c| c == text)?,
                    },
                };
                p.ty.contains(v).then_some(v)
            })
            .collect::<Option<Vec<Value>>>()?;
        Some((gate, values))
    }

    /// The symbols of a gate's parameters (named as the parameters).
    pub fn parameter_symbols(&self, gate: usize) -> Vec<Symbol> {
        self.gates[gate]
            .parameters
            .iter()
            .map(|p| Symbol {
                name: p.name.clone(),
                ty: p.ty.clone(),
                enum_size: match p.ty {
                    Type::Enum(e) => self.enums[e].values.len(),
                    _ => 0,
                },
            })
            .collect()
    }

    /// The guard of `switch` in `state` as a constraint over its gate's parameter symbols (with
    /// its divisors non-zero), `None` when the switch does not leave the state's location.
    pub fn guard_in(&self, state: &SemState, switch: usize) -> Option<Vec<Sym>> {
        let s = &self.switches[switch];
        if s.from != state.location {
            return None;
        }
        let vars: Vec<Sym> = state.values.iter().map(|v| Sym::Const(*v)).collect();
        let params: Vec<usize> = (0..self.gates[s.gate].parameters.len()).collect();
        let guard = substitute(&s.guard, &vars, &params);
        let mut constraints = Vec::new();
        guard.divisors_non_zero(&mut constraints);
        constraints.push(guard);
        Some(constraints)
    }

    /// The switches from `state` that the gate value enables, with their successors
    /// (Def. 4.7).
    pub fn steps(
        &self,
        state: &SemState,
        gate: usize,
        values: &[Value],
    ) -> Result<Vec<(usize, SemState)>, StepError> {
        let mut out = Vec::new();
        for (k, s) in self.switches.iter().enumerate() {
            if s.gate == gate && self.enabled(state, s, values) {
                out.push((k, self.successor(state, s, values)?));
            }
        }
        Ok(out)
    }

    /// The output switches whose guard the solver can satisfy in `state` (`Sat`), or cannot
    /// decide (`Unknown`), with its answer.
    pub fn output_switches(&self, solver: &mut dyn Solver, state: &SemState) -> Vec<(usize, Sat)> {
        let mut out = Vec::new();
        for (k, s) in self.switches.iter().enumerate() {
            if self.gates[s.gate].direction != Direction::Output {
                continue;
            }
            let Some(constraints) = self.guard_in(state, k) else {
                continue;
            };
            let answer = solver.check(&self.parameter_symbols(s.gate), &constraints);
            if answer != Sat::Unsat {
                out.push((k, answer));
            }
        }
        out
    }

    /// Whether `state` may be quiescent: no output switch is certainly enabled (a switch the
    /// solver cannot decide does not rule quiescence out, so a verdict never rests on it).
    pub fn may_be_quiescent(&self, solver: &mut dyn Solver, state: &SemState) -> bool {
        self.output_switches(solver, state)
            .iter()
            .all(|(_, answer)| *answer != Sat::Sat)
    }
}

/// A random candidate value of a type: uniform in its domain, integers within
/// [`RANDOM_SPAN`] of a missing bound.
fn candidate(ty: &Type, enum_size: usize, rng: &mut SplitMix64) -> Value {
    match *ty {
        Type::Bool => Value::Bool(rng.below(2) == 1),
        Type::Enum(e) => Value::Enum {
            enumeration: e,
            index: rng.below(enum_size.max(1)),
        },
        Type::Int { min, max } => {
            let (lo, hi) = match (min, max) {
                (Some(a), Some(b)) => (a, b),
                (Some(a), None) => (a, a.saturating_add(RANDOM_SPAN)),
                (None, Some(b)) => (b.saturating_sub(RANDOM_SPAN), b),
                (None, None) => (-RANDOM_SPAN, RANDOM_SPAN),
            };
            let width = (hi as i128 - lo as i128 + 1) as u128;
            let offset = (u128::from(rng.next_u64()) % width) as i128;
            Value::Int((lo as i128 + offset) as i64)
        }
    }
}

/// Values for `symbols` satisfying `constraints`, random where they leave freedom: each symbol
/// in `free` in turn is tried at a random value of its domain, then (integers) at a random
/// value within [`RANDOM_SPAN`] of a witness and within 2 of it, and kept at the first that
/// the constraints allow; the solver's witness completes the rest. The same generator state
/// and constraints give the same values. `None` when the solver finds no witness.
pub fn random_solution(
    solver: &mut dyn Solver,
    symbols: &[Symbol],
    constraints: &[Sym],
    free: &[usize],
    rng: &mut SplitMix64,
) -> Option<Vec<Value>> {
    let mut fixed = constraints.to_vec();
    let mut witness = solver.witness(symbols, &fixed)?;
    for &i in free {
        let mut tries = vec![candidate(&symbols[i].ty, symbols[i].enum_size, rng)];
        if let Value::Int(w) = witness[i] {
            for span in [RANDOM_SPAN, 2] {
                let offset = rng.below(2 * span as usize + 1) as i64 - span;
                tries.push(Value::Int(w.saturating_add(offset)));
            }
        }
        for v in tries {
            if v == witness[i] {
                fixed.push(Sym::binary(BinOp::Eq, Sym::Symbol(i), Sym::Const(v)));
                break;
            }
            fixed.push(Sym::binary(BinOp::Eq, Sym::Symbol(i), Sym::Const(v)));
            if let Some(w) = solver.witness(symbols, &fixed) {
                witness = w;
                break;
            }
            fixed.pop();
        }
    }
    Some(witness)
}

/// An STS acting as a system under test on concrete states: a seeded generator picks among
/// enabled output switches and, with the solver, their values.
pub struct StsSystem<'a> {
    sts: &'a Sts,
    solver: Box<dyn Solver>,
    rng: SplitMix64,
    random: bool,
    state: SemState,
}

impl<'a> StsSystem<'a> {
    /// The system in its initial state; `random`: outputs and their values at random (from
    /// `seed`), else the first enabled output switch with the solver's first witness.
    pub fn new(sts: &'a Sts, solver: Box<dyn Solver>, seed: u64, random: bool) -> Self {
        StsSystem {
            sts,
            solver,
            rng: SplitMix64::new(seed),
            random,
            state: sts.initial_state(),
        }
    }

    /// Back to the initial state (the generator goes on).
    pub fn reset(&mut self) {
        self.state = self.sts.initial_state();
    }

    /// Takes an input by label: `Ok(false)` when it names no input gate value or no switch
    /// enables it (the system ignores it), a model error when the switch's assignment fails.
    pub fn input(&mut self, label: &str) -> Result<bool, StepError> {
        let Some((gate, values)) = self.sts.parse_gate_value(label) else {
            return Ok(false);
        };
        if self.sts.gates[gate].direction != Direction::Input {
            return Ok(false);
        }
        let steps = self.sts.steps(&self.state, gate, &values)?;
        if steps.is_empty() {
            return Ok(false);
        }
        self.state = steps[self.rng.below(steps.len())].1.clone();
        Ok(true)
    }

    /// Whether some output switch is enabled (or the solver cannot tell).
    pub fn has_output(&mut self) -> bool {
        !self
            .sts
            .output_switches(self.solver.as_mut(), &self.state)
            .is_empty()
    }

    /// Produces an output: a random enabled output switch with random values satisfying its
    /// guard; `None` when quiescent.
    pub fn output(&mut self) -> Result<Option<String>, StepError> {
        let mut enabled = self.sts.output_switches(self.solver.as_mut(), &self.state);
        while !enabled.is_empty() {
            let pick = if self.random {
                self.rng.below(enabled.len())
            } else {
                0
            };
            let (k, _) = enabled.remove(pick);
            let gate = self.sts.switches[k].gate;
            let symbols = self.sts.parameter_symbols(gate);
            let Some(constraints) = self.sts.guard_in(&self.state, k) else {
                continue;
            };
            let free: Vec<usize> = if self.random {
                (0..symbols.len()).collect()
            } else {
                Vec::new()
            };
            let Some(values) = random_solution(
                self.solver.as_mut(),
                &symbols,
                &constraints,
                &free,
                &mut self.rng,
            ) else {
                continue;
            };
            let switch = &self.sts.switches[k];
            if !self.sts.enabled(&self.state, switch, &values) {
                continue;
            }
            self.state = self.sts.successor(&self.state, switch, &values)?;
            return Ok(Some(self.sts.show_gate_value(gate, &values)));
        }
        Ok(None)
    }
}

#[cfg(all(test, feature = "smt"))]
mod tests {
    use super::*;
    use crate::sts::load::{Syntax, parse_sts};
    use crate::sts::z3::Z3Solver;

    const UNBOUNDED: &str = "sts: 1
enums: [{name: drink, values: [tea, coffee]}]
variables: [{name: x, type: int, initial: 0}]
gates:
  - {name: put, kind: input, parameters: [{name: p, type: int}]}
  - {name: get, kind: output, parameters: [{name: q, type: int}, {name: d, type: drink}]}
initial: a
switches:
  - {name: r0, from: a, gate: put, guard: p > 1000, assign: {x: p}, to: b}
  - {name: r1, from: b, gate: get, guard: q > x and q < x + 3 and d == coffee, to: a}
";

    #[test]
    fn labels_read_back_and_unbounded_systems_run() {
        let sts = parse_sts(UNBOUNDED, "u.sts.yaml", "u", Syntax::Yaml).unwrap();
        let coffee = Value::Enum {
            enumeration: 0,
            index: 1,
        };
        assert_eq!(
            sts.parse_gate_value("get(5,coffee)"),
            Some((1, vec![Value::Int(5), coffee]))
        );
        for bad in ["get(5)", "get(x,tea)", "put(1", "nothing", "get(5,milk)"] {
            assert_eq!(sts.parse_gate_value(bad), None, "{bad}");
        }
        let mut sys = StsSystem::new(&sts, Box::new(Z3Solver::new()), 7, true);
        assert!(!sys.has_output());
        assert_eq!(sys.input("put(5)"), Ok(false), "the guard refuses it");
        assert_eq!(sys.input("put(123456)"), Ok(true));
        let out = sys.output().unwrap().unwrap();
        assert!(
            out == "get(123457,coffee)" || out == "get(123458,coffee)",
            "{out}"
        );
        assert_eq!(sys.output().unwrap(), None, "quiescent after the output");
        // The same seed gives the same values; the generator varies them.
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..40 {
            let mut sys = StsSystem::new(&sts, Box::new(Z3Solver::new()), seed, true);
            sys.input("put(2000)").unwrap();
            seen.insert(sys.output().unwrap().unwrap());
        }
        assert_eq!(seen.len(), 2, "{seen:?}");
    }

    #[test]
    fn random_solutions_satisfy_the_constraints_and_follow_the_seed() {
        let sts = parse_sts(UNBOUNDED, "u.sts.yaml", "u", Syntax::Yaml).unwrap();
        let symbols = sts.parameter_symbols(0);
        let state = sts.initial_state();
        let constraints = sts.guard_in(&state, 0).unwrap();
        let draw = |seed| {
            random_solution(
                &mut Z3Solver::new(),
                &symbols,
                &constraints,
                &[0],
                &mut SplitMix64::new(seed),
            )
            .unwrap()
        };
        for seed in 0..5 {
            let v = draw(seed);
            assert!(v[0].as_int() > 1000, "{v:?}");
            assert_eq!(v, draw(seed));
        }
    }
}
