//! Bounded instantiation: the interpretation `⟦S⟧` of an STS (van den Bos Def. 4.8) built
//! explicitly as a finite [`Lts`], when every gate parameter has a finite domain and the
//! reachable semantic states fit a budget. Every existing LTS command (ioco suites, `explore`,
//! `simulate`, `check`, `mutate`) then applies to a small STS.
//!
//! States are the semantic states reachable from `(l0, ⟦m_ini⟧)`, found breadth-first with
//! switches in file order and gate values in domain order (integers ascending, `false` before
//! `true`, enumeration constants in declaration order), so the same file gives the same LTS.
//! A state is named `location{x=1,y=true}`, a label `gate(v1,v2)` (a gate without parameters is
//! its name alone); labels are numbered in first-seen order.

use super::expr::Value;
use super::types::{Direction, SemState, StepError, Sts, Type};
use crate::model::{Alphabet, LabelKind, Lts, StateId};
use std::collections::{HashMap, HashSet, VecDeque};

/// The limits of an instantiation.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct InstantiateBudget {
    /// Most values of one gate (the product of its parameters' domain sizes).
    pub gate_values: u64,
    /// Most reachable semantic states.
    pub states: usize,
    /// Most transitions.
    pub transitions: usize,
}

impl Default for InstantiateBudget {
    fn default() -> Self {
        InstantiateBudget {
            gate_values: 10_000,
            states: 100_000,
            transitions: 1_000_000,
        }
    }
}

/// Why an STS has no finite instantiation within the budget.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InstantiateError {
    /// A parameter has an unbounded domain.
    #[error(
        "parameter `{parameter}` of gate `{gate}` is an integer without both `min` and `max`, so the gate has infinitely many values; give it bounds to instantiate the STS as an LTS"
    )]
    Unbounded {
        /// The gate.
        gate: String,
        /// The parameter.
        parameter: String,
    },
    /// A gate has too many values.
    #[error(
        "gate `{gate}` has {count} values, more than the {limit} an instantiation allows; narrow its parameters' bounds"
    )]
    TooManyValues {
        /// The gate.
        gate: String,
        /// Its number of values (saturated).
        count: u64,
        /// The budget.
        limit: u64,
    },
    /// Too many reachable semantic states.
    #[error(
        "the STS has more than {limit} reachable semantic states (location and variable values); bound its variables more tightly to instantiate it"
    )]
    TooManyStates {
        /// The budget.
        limit: usize,
    },
    /// Too many transitions.
    #[error(
        "the instantiation has more than {limit} transitions; narrow the gates' parameter bounds"
    )]
    TooManyTransitions {
        /// The budget.
        limit: usize,
    },
    /// A switch's assignment fails from a reachable state.
    #[error(transparent)]
    Step(#[from] StepError),
}

/// The values of a type's domain in order, or `None` when it is infinite.
fn domain(ty: &Type, sts: &Sts) -> Option<Vec<Value>> {
    match ty {
        Type::Int {
            min: Some(a),
            max: Some(b),
        } => Some((*a..=*b).map(Value::Int).collect()),
        Type::Int { .. } => None,
        Type::Bool => Some(vec![Value::Bool(false), Value::Bool(true)]),
        Type::Enum(e) => Some(
            (0..sts.enums[*e].values.len())
                .map(|index| Value::Enum {
                    enumeration: *e,
                    index,
                })
                .collect(),
        ),
    }
}

fn domain_size(ty: &Type, sts: &Sts) -> Option<u64> {
    match ty {
        Type::Int {
            min: Some(a),
            max: Some(b),
        } => Some(
            (i128::from(*b) - i128::from(*a) + 1)
                .try_into()
                .unwrap_or(u64::MAX),
        ),
        Type::Int { .. } => None,
        Type::Bool => Some(2),
        Type::Enum(e) => Some(sts.enums[*e].values.len() as u64),
    }
}

/// Every value of each gate (tuples of parameter values in lexicographic domain order).
pub fn gate_values(
    sts: &Sts,
    budget: &InstantiateBudget,
) -> Result<Vec<Vec<Vec<Value>>>, InstantiateError> {
    let mut all = Vec::with_capacity(sts.gates.len());
    for gate in &sts.gates {
        let mut count: u64 = 1;
        for p in &gate.parameters {
            let size = domain_size(&p.ty, sts).ok_or_else(|| InstantiateError::Unbounded {
                gate: gate.name.clone(),
                parameter: p.name.clone(),
            })?;
            count = count.saturating_mul(size);
        }
        if count > budget.gate_values {
            return Err(InstantiateError::TooManyValues {
                gate: gate.name.clone(),
                count,
                limit: budget.gate_values,
            });
        }
        let mut tuples: Vec<Vec<Value>> = vec![Vec::new()];
        for p in &gate.parameters {
            let values = domain(&p.ty, sts).unwrap_or_default();
            tuples = tuples
                .into_iter()
                .flat_map(|t| {
                    values.iter().map(move |v| {
                        let mut t = t.clone();
                        t.push(*v);
                        t
                    })
                })
                .collect();
        }
        all.push(tuples);
    }
    Ok(all)
}

/// The reachable part of `⟦S⟧` as an LTS, within `budget`.
pub fn instantiate(sts: &Sts, budget: &InstantiateBudget) -> Result<Lts, InstantiateError> {
    let values = gate_values(sts, budget)?;
    let mut alphabet = Alphabet::new();
    let mut index: HashMap<SemState, StateId> = HashMap::new();
    let mut states: Vec<SemState> = Vec::new();
    let mut queue = VecDeque::new();
    let initial = sts.initial_state();
    index.insert(initial.clone(), StateId(0));
    states.push(initial.clone());
    queue.push_back(initial);
    let mut triples = Vec::new();
    let mut by_location: Vec<Vec<usize>> = vec![Vec::new(); sts.locations.len()];
    for (k, s) in sts.switches.iter().enumerate() {
        by_location[s.from].push(k);
    }
    while let Some(state) = queue.pop_front() {
        let from = index[&state];
        let mut seen = HashSet::new();
        for &k in &by_location[state.location] {
            let switch = &sts.switches[k];
            let gate = &sts.gates[switch.gate];
            for params in &values[switch.gate] {
                if !sts.enabled(&state, switch, params) {
                    continue;
                }
                let next = sts.successor(&state, switch, params)?;
                let to = match index.get(&next) {
                    Some(&id) => id,
                    None => {
                        if states.len() >= budget.states {
                            return Err(InstantiateError::TooManyStates {
                                limit: budget.states,
                            });
                        }
                        let id = StateId(states.len() as u32);
                        index.insert(next.clone(), id);
                        states.push(next.clone());
                        queue.push_back(next);
                        id
                    }
                };
                let kind = match gate.direction {
                    Direction::Input => LabelKind::Input,
                    Direction::Output => LabelKind::Output,
                };
                let label = alphabet
                    .add(&sts.show_gate_value(switch.gate, params), kind)
                    .expect("gate names are distinct identifiers, so a label has one kind");
                if seen.insert((label, to)) {
                    if triples.len() >= budget.transitions {
                        return Err(InstantiateError::TooManyTransitions {
                            limit: budget.transitions,
                        });
                    }
                    triples.push((from, label, to));
                }
            }
        }
    }
    let names = states.iter().map(|s| sts.show_state(s)).collect();
    Ok(
        Lts::new(sts.name.clone(), alphabet, names, StateId(0), triples)
            .expect("ids are dense by construction"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sts::load::{Syntax, parse_sts};

    /// Example 4.4 of the thesis (Fig. 4.1) with `inX`'s parameter bounded by its guard,
    /// `outX`'s by the largest reachable sum, and `inX` refused once `x > 20` so that finitely
    /// many states are reachable.
    const FIG_4_1: &str = "sts: 1
variables: [{name: x, type: int, initial: 0}]
gates:
  - {name: inX, kind: input, parameters: [{name: p, type: int, min: 1, max: 10}]}
  - {name: outX, kind: output, parameters: [{name: q, type: int, min: 0, max: 30}]}
  - {name: done, kind: output}
initial: l0
switches:
  - {name: r0, from: l0, gate: inX, guard: 1 <= p and p <= 10 and x <= 20, assign: {x: x + p}, to: l1}
  - {name: r1, from: l1, gate: outX, guard: q == x, to: l0}
  - {name: r2, from: l0, gate: done, guard: x > 15, to: l2}
";

    #[test]
    fn instantiates_figure_4_1() {
        let sts = parse_sts(FIG_4_1, "fig.sts.yaml", "fig", Syntax::Yaml).unwrap();
        let lts = instantiate(&sts, &InstantiateBudget::default()).unwrap();
        assert_eq!(lts.state_name(lts.initial()), "l0{x=0}");
        // Example 4.9: (l0, x=0) --inX(3)--> (l1, x=3).
        let in3 = lts.alphabet.get("inX(3)").unwrap();
        let next: Vec<_> = lts.successors(lts.initial(), in3).collect();
        assert_eq!(lts.state_name(next[0]), "l1{x=3}");
        // done is not enabled initially, but after x > 15.
        let done = lts.alphabet.get("done").unwrap();
        assert_eq!(lts.successors(lts.initial(), done).count(), 0);
        let l2 = lts
            .states()
            .filter(|&s| lts.state_name(s).starts_with("l2"))
            .count();
        assert!(l2 > 0);
    }

    #[test]
    fn refuses_unbounded_and_oversized() {
        let sts = parse_sts(
            &FIG_4_1.replace(", min: 0, max: 30", ""),
            "f.sts.yaml",
            "f",
            Syntax::Yaml,
        )
        .unwrap();
        let e = instantiate(&sts, &InstantiateBudget::default()).unwrap_err();
        assert!(matches!(e, InstantiateError::Unbounded { .. }), "{e}");
        let sts = parse_sts(FIG_4_1, "f.sts.yaml", "f", Syntax::Yaml).unwrap();
        let small = InstantiateBudget {
            states: 5,
            ..InstantiateBudget::default()
        };
        let e = instantiate(&sts, &small).unwrap_err();
        assert_eq!(e, InstantiateError::TooManyStates { limit: 5 });
    }

    #[test]
    fn out_of_bounds_assignments_are_model_errors() {
        let sts = parse_sts(
            &FIG_4_1.replace(
                "type: int, initial: 0",
                "type: int, min: 0, max: 12, initial: 0",
            ),
            "f.sts.yaml",
            "f",
            Syntax::Yaml,
        )
        .unwrap();
        let e = instantiate(&sts, &InstantiateBudget::default()).unwrap_err();
        assert!(e.to_string().contains("outside its declared bounds"), "{e}");
    }
}
