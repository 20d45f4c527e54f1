//! Symbolic transition systems (van den Bos Def. 4.3): locations, an initial location,
//! location variables with their initial values (the initialisation `m_ini`), input and output
//! gates with typed parameters, and switches `(l1, λ, p̄, φ, ψ, l2)` with a guard φ and an
//! assignment ψ over the variables and the gate's parameters.
//!
//! Differences from the thesis, all restrictions: every switch of a gate uses the gate's own
//! parameter names (the thesis lets each switch name them); sorts are integers (optionally
//! bounded), Booleans and enumerations; bounds of a parameter are part of its gate's domain
//! (conjoined to every guard of the gate), bounds of a variable are an invariant the model must
//! keep (an assignment leaving them is a model error found when it happens).
//!
//! Semantics (Defs. 4.5-4.8): a semantic state is a location and a value per variable; a gate
//! value `(λ, w̄)` enables a switch from the state's location when the guard holds for the
//! variables and `p̄ ↦ w̄`; the successor takes the switch's target location and evaluates the
//! assignment (variables not assigned keep their value). A guard whose evaluation overflows or
//! divides by zero does not hold.

use super::expr::{EvalError, Term, Value};
use std::fmt;

/// The sort and domain of a variable or parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Type {
    /// An integer in `min..=max` (each bound optional).
    Int {
        /// Least value, if bounded below.
        min: Option<i64>,
        /// Greatest value, if bounded above.
        max: Option<i64>,
    },
    /// A Boolean.
    Bool,
    /// Enumeration `i` of [`Sts::enums`].
    Enum(usize),
}

/// The sort of a term, without domains.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Sort {
    /// Integers.
    Int,
    /// Booleans.
    Bool,
    /// Enumeration `i`.
    Enum(usize),
}

impl Type {
    /// The sort of the type.
    pub fn sort(&self) -> Sort {
        match self {
            Type::Int { .. } => Sort::Int,
            Type::Bool => Sort::Bool,
            Type::Enum(i) => Sort::Enum(*i),
        }
    }

    /// Whether `v` is in the domain.
    pub fn contains(&self, v: Value) -> bool {
        match (self, v) {
            (Type::Int { min, max }, Value::Int(n)) => {
                min.is_none_or(|m| n >= m) && max.is_none_or(|m| n <= m)
            }
            (Type::Bool, Value::Bool(_)) => true,
            (Type::Enum(e), Value::Enum { enumeration, .. }) => *e == enumeration,
            _ => false,
        }
    }
}

/// An enumeration: a name and its constants, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Enumeration {
    /// The type's name.
    pub name: String,
    /// Its constants.
    pub values: Vec<String>,
}

/// A location variable with its type and initial value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variable {
    /// Its name.
    pub name: String,
    /// Its type.
    pub ty: Type,
    /// Its value in the initial state.
    pub initial: Value,
}

/// A gate parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parameter {
    /// Its name.
    pub name: String,
    /// Its type (its bounds are the gate's domain).
    pub ty: Type,
}

/// Whether a gate is an input or an output.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Direction {
    /// The tester sends it (Γ_I).
    Input,
    /// The system produces it (Γ_O).
    Output,
}

/// A gate with its parameters (their sorts are `sort_g(λ)`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gate {
    /// Its name.
    pub name: String,
    /// Input or output.
    pub direction: Direction,
    /// Its parameters, in order.
    pub parameters: Vec<Parameter>,
}

/// A switch `(from, gate, p̄, guard, assignment, to)` of Def. 4.3.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Switch {
    /// Its name (given, or `s<index>`), used in coverage reports.
    pub name: String,
    /// Source location.
    pub from: usize,
    /// Its gate.
    pub gate: usize,
    /// The guard, a Boolean term over variables and the gate's parameters.
    pub guard: Term,
    /// Its text as written (for reports and symbolic test cases).
    pub guard_text: String,
    /// Assigned variables with their new values' terms, in variable order.
    pub assignments: Vec<(usize, Term)>,
    /// The assignments' texts as written, in the same order.
    pub assignment_texts: Vec<String>,
    /// Target location.
    pub to: usize,
}

/// A symbolic transition system (Def. 4.3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sts {
    /// Model name.
    pub name: String,
    /// Enumeration types.
    pub enums: Vec<Enumeration>,
    /// Locations, in declaration (or first mention) order.
    pub locations: Vec<String>,
    /// The initial location.
    pub initial: usize,
    /// Location variables with their initial values.
    pub variables: Vec<Variable>,
    /// Gates, inputs and outputs.
    pub gates: Vec<Gate>,
    /// Switches, in file order.
    pub switches: Vec<Switch>,
}

/// A semantic state (Def. 4.5): a location and the variables' values.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SemState {
    /// The location.
    pub location: usize,
    /// A value per variable.
    pub values: Vec<Value>,
}

/// Why a switch cannot be taken from a semantic state although its guard holds.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StepError {
    /// Evaluating an assignment failed.
    #[error("switch `{switch}`: the assignment of `{variable}` fails ({cause}) from {state}")]
    Eval {
        /// The switch.
        switch: String,
        /// The variable.
        variable: String,
        /// Why.
        cause: EvalError,
        /// The state and gate value, shown.
        state: String,
    },
    /// An assignment leaves the variable's declared bounds.
    #[error(
        "switch `{switch}`: the assignment of `{variable}` gives {value}, outside its declared bounds, from {state}"
    )]
    OutOfBounds {
        /// The switch.
        switch: String,
        /// The variable.
        variable: String,
        /// The value.
        value: String,
        /// The state and gate value, shown.
        state: String,
    },
}

impl Sts {
    /// The initial semantic state `(l0, ⟦m_ini⟧)`.
    pub fn initial_state(&self) -> SemState {
        SemState {
            location: self.initial,
            values: self.variables.iter().map(|v| v.initial).collect(),
        }
    }

    /// Whether `switch` is enabled in `state` for the parameter values `params` (Def. 4.7):
    /// the values are in the gate's domain and the guard holds.
    pub fn enabled(&self, state: &SemState, switch: &Switch, params: &[Value]) -> bool {
        state.location == switch.from
            && self.gates[switch.gate]
                .parameters
                .iter()
                .zip(params)
                .all(|(p, v)| p.ty.contains(*v))
            && matches!(
                switch.guard.eval(&state.values, params),
                Ok(Value::Bool(true))
            )
    }

    /// The successor `succ(q, u, r)` of Def. 4.7 of an enabled switch.
    pub fn successor(
        &self,
        state: &SemState,
        switch: &Switch,
        params: &[Value],
    ) -> Result<SemState, StepError> {
        let mut values = state.values.clone();
        for (var, term) in &switch.assignments {
            let variable = &self.variables[*var];
            let shown = || {
                format!(
                    "{} with {}",
                    self.show_state(state),
                    self.show_gate_value(switch.gate, params)
                )
            };
            let v = term
                .eval(&state.values, params)
                .map_err(|cause| StepError::Eval {
                    switch: switch.name.clone(),
                    variable: variable.name.clone(),
                    cause,
                    state: shown(),
                })?;
            if !variable.ty.contains(v) {
                return Err(StepError::OutOfBounds {
                    switch: switch.name.clone(),
                    variable: variable.name.clone(),
                    value: self.show_value(v),
                    state: shown(),
                });
            }
            values[*var] = v;
        }
        Ok(SemState {
            location: switch.to,
            values,
        })
    }

    /// A value as written in models and labels: `5`, `-3`, `true`, an enumeration constant.
    pub fn show_value(&self, v: Value) -> String {
        match v {
            Value::Int(n) => n.to_string(),
            Value::Bool(b) => b.to_string(),
            Value::Enum { enumeration, index } => self.enums[enumeration].values[index].clone(),
        }
    }

    /// A gate value as a label: the gate's name, then its values in parentheses separated by
    /// commas when it has parameters (`coin(5)`, `serve(tea,2)`, `done`).
    pub fn show_gate_value(&self, gate: usize, params: &[Value]) -> String {
        let mut s = self.gates[gate].name.clone();
        if !params.is_empty() {
            s.push('(');
            for (i, v) in params.iter().enumerate() {
                if i > 0 {
                    s.push(',');
                }
                s.push_str(&self.show_value(*v));
            }
            s.push(')');
        }
        s
    }

    /// A semantic state as a state name: the location, then `name=value` per variable in
    /// braces when there are variables (`paid{credit=5}`).
    pub fn show_state(&self, state: &SemState) -> String {
        let mut s = self.locations[state.location].clone();
        if !self.variables.is_empty() {
            s.push('{');
            for (i, (var, v)) in self.variables.iter().zip(&state.values).enumerate() {
                if i > 0 {
                    s.push(',');
                }
                s.push_str(&var.name);
                s.push('=');
                s.push_str(&self.show_value(*v));
            }
            s.push('}');
        }
        s
    }

    /// The number of input gates.
    pub fn input_gates(&self) -> usize {
        self.gates
            .iter()
            .filter(|g| g.direction == Direction::Input)
            .count()
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Direction::Input => "input",
            Direction::Output => "output",
        })
    }
}
