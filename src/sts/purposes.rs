//! Test purposes of an STS (van den Bos Sec. 4.4): a test purpose (Def. 4.16) is a path
//! `r0 … rn` of the symbolic execution graph with the path condition of the state it reaches.
//! Two selection criteria choose them.
//!
//! **Switch coverage** (the thesis' criterion): a set of purposes has a priori switch coverage
//! `|⋃ {r0, …, rn}| / |R|`. Purposes are found breadth-first, as the thesis suggests: the graph
//! is unfolded until every switch labels an edge (or the depth or node budget is reached);
//! then, switch by switch in file order, a switch not on an earlier purpose's path gets the
//! path to the first node (in breadth-first order) it leads to, so each purpose is a shortest
//! path for its switch.
//!
//! **Switch-pair coverage** (`switch-pairs`, ours): its items are every switch, every pair of
//! consecutive switches `(r, r')` some trace of `⟦S⟧` takes (Chow's switch pairs, lifted from
//! FSM transitions to STS switches), and every switch taken with an integer variable its guard
//! reads at one of the variable's declared bounds (boundary values of the data, after
//! White and Cohen's domain testing: a bounded counter such as a chunk index or a retry count
//! is driven to its extremes). The feasible items and a shortest trace for each are found by
//! breadth-first search over the reachable semantic states (Def. 4.5) paired with the last
//! switch, so the STS needs finite gate domains, as for instantiation; each trace's switches
//! are then lifted to a symbolic path, a boundary item *pinning* its variable's value at its
//! step (a conjunct `term == bound` of the path condition), so that the solver's values keep
//! the item. Item by item in search order, an item no earlier purpose covers gets its trace.
//! A priori, a purpose covers the switches and pairs of its path and the bounds it pins or its
//! symbolic state makes constant.
//!
//! Either way a path that is a prefix of another purpose's (with no pin the other lacks) is
//! dropped, and purposes are written longest first, the order of the thesis' case study.
//!
//! Both are selection criteria: sound (a purpose's verdict `fail` means non-conformance) but
//! not exhaustive, and NOT n-completeness: a system that conforms on every covered path can
//! still fail elsewhere.

use super::expr::{BinOp, Term, Value};
use super::instantiate::{InstantiateBudget, InstantiateError, gate_values};
use super::solver::{Sat, Solver};
use super::symbolic::{SegLimits, SegNode, Sym, root, successor, unfold};
use super::types::{SemState, Sts, Type};
use serde_json::json;
use std::collections::{HashMap, HashSet};

/// The identifier of the purposes file format.
pub const FORMAT: &str = "ncomplete-sts-purposes";
/// Its version.
pub const VERSION: u64 = 1;

/// A selection criterion for test purposes: switch coverage, optionally strengthened by the
/// items of switch-pair coverage (the flags exist apart so that tests can weaken it).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Criterion {
    /// Every feasible pair of consecutive switches.
    pub pairs: bool,
    /// Every switch with each bounded integer variable its guard reads at each bound.
    pub bounds: bool,
}

impl Criterion {
    /// Switch coverage (Sec. 4.4).
    pub const SWITCHES: Criterion = Criterion {
        pairs: false,
        bounds: false,
    };
    /// Switch-pair coverage: switches, pairs of switches and boundary values.
    pub const SWITCH_PAIRS: Criterion = Criterion {
        pairs: true,
        bounds: true,
    };

    /// The name in files and on the command line (`switches`, `switch-pairs`; the weakened
    /// ones of tests `pairs-without-bounds`, `bounds-without-pairs`).
    pub fn name(self) -> &'static str {
        match (self.pairs, self.bounds) {
            (false, false) => "switches",
            (true, true) => "switch-pairs",
            (true, false) => "pairs-without-bounds",
            (false, true) => "bounds-without-pairs",
        }
    }

    /// The criterion of a name [`Criterion::name`] gives.
    pub fn from_name(name: &str) -> Option<Criterion> {
        [
            Criterion::SWITCHES,
            Criterion::SWITCH_PAIRS,
            Criterion {
                pairs: true,
                bounds: false,
            },
            Criterion {
                pairs: false,
                bounds: true,
            },
        ]
        .into_iter()
        .find(|c| c.name() == name)
    }

    /// What the criterion is, for files and reports.
    pub fn description(self) -> &'static str {
        if self == Criterion::SWITCHES {
            "switch coverage (van den Bos Sec. 4.4); not n-complete"
        } else {
            "switch-pair coverage (every switch, every feasible pair of consecutive switches, every switch at the declared bounds of the integer variables its guard reads); not n-complete"
        }
    }
}

/// An item of a criterion: what a purpose covers.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Item {
    /// A switch.
    Switch(usize),
    /// Two switches taken one after the other.
    Pair(usize, usize),
    /// A switch taken from a state where an integer variable its guard reads is at a bound.
    Bound {
        /// The switch.
        switch: usize,
        /// The variable.
        variable: usize,
        /// The bound.
        value: i64,
    },
}

impl Item {
    /// The item as reports name it: `r`, `r1,r2`, `r[x=4]`.
    pub fn name(&self, sts: &Sts) -> String {
        match *self {
            Item::Switch(k) => sts.switches[k].name.clone(),
            Item::Pair(a, b) => format!("{},{}", sts.switches[a].name, sts.switches[b].name),
            Item::Bound {
                switch,
                variable,
                value,
            } => format!(
                "{}[{}={value}]",
                sts.switches[switch].name, sts.variables[variable].name
            ),
        }
    }
}

impl Item {
    /// The item in a purposes file's `item_coverage.feasible`: a switch `{"switch": "r"}`, a
    /// pair `{"switches": ["r1", "r2"]}`, a bound `{"switch": "r", "variable": "x", "value": 4}`.
    pub fn to_json(&self, sts: &Sts) -> serde_json::Value {
        let name = |k: usize| sts.switches[k].name.as_str();
        match *self {
            Item::Switch(k) => json!({"switch": name(k)}),
            Item::Pair(a, b) => json!({"switches": [name(a), name(b)]}),
            Item::Bound {
                switch,
                variable,
                value,
            } => json!({
                "switch": name(switch),
                "variable": sts.variables[variable].name,
                "value": value,
            }),
        }
    }

    /// The item [`Item::to_json`] wrote, `None` when the value is not one of `sts` (an unknown
    /// switch, a variable that is not an integer variable, another shape).
    pub fn from_json(sts: &Sts, value: &serde_json::Value) -> Option<Item> {
        let switch = |v: &serde_json::Value| {
            let name = v.as_str()?;
            sts.switches.iter().position(|s| s.name == name)
        };
        let object = value.as_object()?;
        if let Some(pair) = object.get("switches") {
            return match pair.as_array()?.as_slice() {
                [a, b] if object.len() == 1 => Some(Item::Pair(switch(a)?, switch(b)?)),
                _ => None,
            };
        }
        let k = switch(object.get("switch")?)?;
        match (object.get("variable"), object.get("value")) {
            (None, None) if object.len() == 1 => Some(Item::Switch(k)),
            (Some(variable), Some(bound)) if object.len() == 3 => {
                let name = variable.as_str()?;
                let variable = sts.variables.iter().position(|v| v.name == name)?;
                matches!(sts.variables[variable].ty, Type::Int { .. }).then_some(())?;
                Some(Item::Bound {
                    switch: k,
                    variable,
                    value: bound.as_i64()?,
                })
            }
            _ => None,
        }
    }
}

/// A boundary item's pin: at `step` (from 1), the variable's value before the step's switch.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Pin {
    /// The step, from 1.
    pub step: usize,
    /// The variable.
    pub variable: usize,
    /// Its value.
    pub value: i64,
}

/// The integer variables with declared bounds that a switch's guard reads, in order.
fn guard_bounds(sts: &Sts, switch: usize) -> Vec<(usize, Vec<i64>)> {
    fn read(term: &Term, out: &mut Vec<usize>) {
        match term {
            Term::Var(v) => out.push(*v),
            Term::Const(_) | Term::Param(_) => {}
            Term::Unary(_, t) => read(t, out),
            Term::Binary(_, a, b) => {
                read(a, out);
                read(b, out);
            }
        }
    }
    let mut vars = Vec::new();
    read(&sts.switches[switch].guard, &mut vars);
    vars.sort_unstable();
    vars.dedup();
    vars.into_iter()
        .filter_map(|v| match sts.variables[v].ty {
            Type::Int { min, max } => {
                let mut bounds: Vec<i64> = min.into_iter().chain(max).collect();
                bounds.dedup();
                (!bounds.is_empty()).then_some((v, bounds))
            }
            _ => None,
        })
        .collect()
}

/// The items of `criterion` that taking switch `k` from `state`, after the switch `last` (if
/// the step before took a known one), covers.
pub fn step_items(
    sts: &Sts,
    criterion: Criterion,
    last: Option<usize>,
    state: &SemState,
    k: usize,
) -> Vec<Item> {
    let mut items = vec![Item::Switch(k)];
    if criterion.pairs
        && let Some(p) = last
    {
        items.push(Item::Pair(p, k));
    }
    if criterion.bounds {
        for (variable, bounds) in guard_bounds(sts, k) {
            for value in bounds {
                if state.values[variable] == Value::Int(value) {
                    items.push(Item::Bound {
                        switch: k,
                        variable,
                        value,
                    });
                }
            }
        }
    }
    items
}

/// Every item of `criterion` some trace of `⟦S⟧` covers, in breadth-first order, each with the
/// switches of a shortest trace covering it at its last step: a breadth-first search over the
/// reachable semantic states paired with the last switch taken (Chow's pairs need it), within
/// the instantiation's budget; an STS with unbounded gate parameters is refused.
pub fn feasible_items(
    sts: &Sts,
    criterion: Criterion,
) -> Result<Vec<(Item, Vec<usize>)>, InstantiateError> {
    let budget = InstantiateBudget::default();
    let values = gate_values(sts, &budget)?;
    type Key = (SemState, Option<usize>);
    let mut index: HashMap<Key, usize> = HashMap::new();
    let mut nodes: Vec<(Key, Option<(usize, usize)>)> = Vec::new();
    let start = (sts.initial_state(), None);
    index.insert(start.clone(), 0);
    nodes.push((start, None));
    let path = |nodes: &[(Key, Option<(usize, usize)>)], mut i: usize| {
        let mut path = Vec::new();
        while let Some((parent, k)) = nodes[i].1 {
            path.push(k);
            i = parent;
        }
        path.reverse();
        path
    };
    let mut seen: HashSet<Item> = HashSet::new();
    let mut found = Vec::new();
    let mut next = 0;
    while next < nodes.len() {
        let ((state, last), _) = nodes[next].clone();
        for (k, switch) in sts.switches.iter().enumerate() {
            if switch.from != state.location {
                continue;
            }
            let items = step_items(sts, criterion, last, &state, k);
            let mut enabled = false;
            for params in &values[switch.gate] {
                if !sts.enabled(&state, switch, params) {
                    continue;
                }
                enabled = true;
                let key = (
                    sts.successor(&state, switch, params)?,
                    criterion.pairs.then_some(k),
                );
                if !index.contains_key(&key) {
                    if nodes.len() >= budget.states {
                        return Err(InstantiateError::TooManyStates {
                            limit: budget.states,
                        });
                    }
                    index.insert(key.clone(), nodes.len());
                    nodes.push((key, Some((next, k))));
                }
            }
            if enabled {
                for item in items {
                    if seen.insert(item) {
                        let mut p = path(&nodes, next);
                        p.push(k);
                        found.push((item, p));
                    }
                }
            }
        }
        next += 1;
    }
    Ok(found)
}

/// The items of [`feasible_items`] other than switches, in its order: what a criterion's item
/// coverage counts.
pub fn beyond_switches(feasible: &[(Item, Vec<usize>)]) -> Vec<Item> {
    feasible
        .iter()
        .map(|(item, _)| *item)
        .filter(|item| !matches!(item, Item::Switch(_)))
        .collect()
}

/// The symbolic path of `switches` from the root with `pins` added to its path condition (a
/// pin before its step's switch), and the variables' terms before each step; `Err(step)` (from
/// 1) names the step where the solver found the path infeasible.
pub fn pinned_path(
    sts: &Sts,
    solver: &mut dyn Solver,
    switches: &[usize],
    pins: &[Pin],
) -> Result<(SegNode, Vec<Vec<Sym>>), usize> {
    let mut node = root(sts);
    let mut sources = Vec::with_capacity(switches.len());
    for (i, &k) in switches.iter().enumerate() {
        for pin in pins.iter().filter(|p| p.step == i + 1) {
            match Sym::binary(
                BinOp::Eq,
                node.vars[pin.variable].clone(),
                Sym::Const(Value::Int(pin.value)),
            ) {
                Sym::Const(Value::Bool(true)) => {}
                Sym::Const(Value::Bool(false)) => return Err(i + 1),
                c => node.condition.push(c),
            }
        }
        sources.push(node.vars.clone());
        node = successor(sts, solver, &node, k).ok_or(i + 1)?;
    }
    Ok((node, sources))
}

/// One test purpose: a path of the symbolic execution graph.
#[derive(Clone, Debug)]
pub struct Purpose {
    /// The switches of the path.
    pub path: Vec<usize>,
    /// Values of variables the path condition fixes (boundary items).
    pub pins: Vec<Pin>,
    /// The symbolic state the path reaches (its symbols and path condition, pins included).
    pub end: SegNode,
}

/// The purposes of an STS with their a priori coverage.
#[derive(Clone, Debug)]
pub struct Purposes {
    /// The criterion they were selected by.
    pub criterion: Criterion,
    /// The purposes, longest first.
    pub purposes: Vec<Purpose>,
    /// Per switch, whether a purpose covers it.
    pub covered: Vec<bool>,
    /// The criterion's feasible items beyond switches (empty for switch coverage).
    pub items: Vec<Item>,
    /// Per item, whether a purpose covers it.
    pub items_covered: Vec<bool>,
    /// The depth bound used (switch coverage's unfolding).
    pub depth: usize,
    /// Whether the unfolding stopped at its node budget.
    pub truncated: bool,
}

/// Drops purposes that are prefixes of others whose path condition has every conjunct of
/// theirs (pins included) and orders the rest longest first, in creation order among equals.
fn prune_and_order(purposes: &mut Vec<Purpose>) {
    let all: Vec<(Vec<usize>, Vec<Sym>)> = purposes
        .iter()
        .map(|p| (p.path.clone(), p.end.condition.clone()))
        .collect();
    purposes.retain(|p| {
        !all.iter().any(|(q, condition)| {
            q.len() > p.path.len()
                && q.starts_with(&p.path)
                && p.end.condition.iter().all(|c| condition.contains(c))
        })
    });
    // A stable sort keeps creation order among equal lengths.
    purposes.sort_by_key(|p| std::cmp::Reverse(p.path.len()));
}

/// Purposes of `sts` by `criterion`: switch coverage by [`switch_purposes`] within `limits`,
/// the stronger criteria by [`item_purposes`].
pub fn select_purposes(
    sts: &Sts,
    solver: &mut dyn Solver,
    criterion: Criterion,
    limits: SegLimits,
) -> Result<Purposes, InstantiateError> {
    if criterion == Criterion::SWITCHES {
        Ok(switch_purposes(sts, solver, limits))
    } else {
        item_purposes(sts, solver, criterion)
    }
}

/// Purposes covering every feasible item of `criterion` ([`feasible_items`]), item by item in
/// search order; an item whose lifted path the solver refutes stays uncovered.
pub fn item_purposes(
    sts: &Sts,
    solver: &mut dyn Solver,
    criterion: Criterion,
) -> Result<Purposes, InstantiateError> {
    let feasible = feasible_items(sts, criterion)?;
    let items = beyond_switches(&feasible);
    let position: HashMap<Item, usize> = items.iter().enumerate().map(|(i, x)| (*x, i)).collect();
    let mut covered = vec![false; sts.switches.len()];
    let mut items_covered = vec![false; items.len()];
    let mut purposes = Vec::new();
    for (item, path) in feasible {
        let done = match item {
            Item::Switch(k) => covered[k],
            _ => items_covered[position[&item]],
        };
        if done {
            continue;
        }
        let pins = match item {
            Item::Bound {
                variable, value, ..
            } => vec![Pin {
                step: path.len(),
                variable,
                value,
            }],
            _ => Vec::new(),
        };
        let Ok((end, sources)) = pinned_path(sts, solver, &path, &pins) else {
            continue;
        };
        let mut last = None;
        for (i, &k) in path.iter().enumerate() {
            covered[k] = true;
            let mut mark = |x: Item| {
                if let Some(&j) = position.get(&x) {
                    items_covered[j] = true;
                }
            };
            if let Some(p) = last {
                mark(Item::Pair(p, k));
            }
            last = Some(k);
            for (variable, bounds) in guard_bounds(sts, k) {
                for value in bounds {
                    // The bound holds when the term is that constant or the path condition
                    // has the conjunct (a pin of this step or of another on the same term).
                    let at = Sym::binary(
                        BinOp::Eq,
                        sources[i][variable].clone(),
                        Sym::Const(Value::Int(value)),
                    );
                    if at == Sym::Const(Value::Bool(true)) || end.condition.contains(&at) {
                        mark(Item::Bound {
                            switch: k,
                            variable,
                            value,
                        });
                    }
                }
            }
        }
        purposes.push(Purpose { path, pins, end });
    }
    prune_and_order(&mut purposes);
    Ok(Purposes {
        criterion,
        purposes,
        covered,
        items,
        items_covered,
        depth: 0,
        truncated: false,
    })
}

/// Switch-coverage purposes of `sts` within `limits`.
pub fn switch_purposes(sts: &Sts, solver: &mut dyn Solver, limits: SegLimits) -> Purposes {
    let seg = unfold(sts, solver, limits, true);
    let mut first: Vec<Option<usize>> = vec![None; sts.switches.len()];
    for (i, node) in seg.nodes.iter().enumerate() {
        if let Some((_, k)) = node.parent
            && first[k].is_none()
        {
            first[k] = Some(i);
        }
    }
    let mut covered = vec![false; sts.switches.len()];
    let mut purposes: Vec<(usize, Purpose)> = Vec::new();
    for k in 0..sts.switches.len() {
        if covered[k] {
            continue;
        }
        let Some(node) = first[k] else { continue };
        let path = seg.path(node);
        for &r in &path {
            covered[r] = true;
        }
        purposes.push((
            node,
            Purpose {
                path,
                pins: Vec::new(),
                end: seg.nodes[node].clone(),
            },
        ));
    }
    // Equal lengths in breadth-first (node) order.
    purposes.sort_by_key(|(node, _)| *node);
    let mut purposes: Vec<Purpose> = purposes.into_iter().map(|(_, p)| p).collect();
    prune_and_order(&mut purposes);
    Purposes {
        criterion: Criterion::SWITCHES,
        purposes,
        covered,
        items: Vec::new(),
        items_covered: Vec::new(),
        depth: limits.depth,
        truncated: seg.truncated,
    }
}

impl Purposes {
    /// Switches covered.
    pub fn covered_count(&self) -> usize {
        self.covered.iter().filter(|&&c| c).count()
    }

    /// Items (beyond switches) covered.
    pub fn items_covered_count(&self) -> usize {
        self.items_covered.iter().filter(|&&c| c).count()
    }

    /// Inputs and outputs over all purposes.
    pub fn steps(&self) -> usize {
        self.purposes.iter().map(|p| p.path.len()).sum()
    }

    /// The purposes file: format, version, model, coverage, and per purpose its steps (switch,
    /// gate, direction, the step's symbols, the guard as written) and its path condition as a
    /// constraint over the symbols (`p_k`: parameter `p` at step `k`).
    pub fn to_json(&self, sts: &Sts) -> String {
        let purposes: Vec<serde_json::Value> = self
            .purposes
            .iter()
            .map(|p| {
                let node = &p.end;
                let steps: Vec<serde_json::Value> = p
                    .path
                    .iter()
                    .enumerate()
                    .map(|(i, &k)| {
                        let s = &sts.switches[k];
                        let gate = &sts.gates[s.gate];
                        json!({
                            "switch": s.name,
                            "gate": gate.name,
                            "direction": gate.direction.to_string(),
                            "symbols": gate.parameters.iter().map(|q| format!("{}_{}", q.name, i + 1)).collect::<Vec<_>>(),
                            "guard": s.guard_text,
                        })
                    })
                    .collect();
                let constraint: Vec<String> = node
                    .condition
                    .iter()
                    .map(|c| c.to_expr(sts, &node.symbols).to_string())
                    .collect();
                let mut purpose = json!({
                    "steps": steps,
                    "constraint": constraint,
                    "solver": match node.answer { Sat::Sat => "sat", Sat::Unsat => "unsat", Sat::Unknown => "unknown" },
                });
                if !p.pins.is_empty() {
                    purpose["pins"] = p
                        .pins
                        .iter()
                        .map(|pin| json!({"step": pin.step, "variable": sts.variables[pin.variable].name, "value": pin.value}))
                        .collect();
                }
                purpose
            })
            .collect();
        let uncovered: Vec<&str> = sts
            .switches
            .iter()
            .zip(&self.covered)
            .filter(|(_, c)| !**c)
            .map(|(s, _)| s.name.as_str())
            .collect();
        let mut doc = json!({
            "format": FORMAT,
            "version": VERSION,
            "model": sts.name,
            "cover": self.criterion.name(),
            "criterion": self.criterion.description(),
            "depth": self.depth,
            "coverage": {
                "switches": sts.switches.len(),
                "covered": self.covered_count(),
                "uncovered": uncovered,
            },
            "inputs_and_outputs": self.steps(),
            "purposes": purposes,
        });
        if self.criterion != Criterion::SWITCHES {
            let uncovered: Vec<String> = self
                .items
                .iter()
                .zip(&self.items_covered)
                .filter(|(_, c)| !**c)
                .map(|(x, _)| x.name(sts))
                .collect();
            doc["item_coverage"] = json!({
                "items": self.items.len(),
                "covered": self.items_covered_count(),
                "uncovered": uncovered,
                "feasible": self.items.iter().map(|x| x.to_json(sts)).collect::<Vec<_>>(),
            });
        }
        let mut text = serde_json::to_string_pretty(&doc).expect("JSON values serialize");
        text.push('\n');
        text
    }

    /// The one-line summary: purposes, steps and a priori coverage.
    pub fn summary(&self, sts: &Sts) -> String {
        format!(
            "{} {} test purposes, {} inputs and outputs, a priori switch coverage {}{}{}\n",
            self.purposes.len(),
            if self.criterion == Criterion::SWITCHES {
                "switch-coverage"
            } else {
                "switch-pair-coverage"
            },
            self.steps(),
            ratio(self.covered_count(), sts.switches.len()),
            if self.criterion == Criterion::SWITCHES {
                String::new()
            } else {
                format!(
                    ", a priori {} coverage {} (pairs and bounds)",
                    self.criterion.name(),
                    ratio(self.items_covered_count(), self.items.len())
                )
            },
            if self.truncated {
                " (unfolding stopped at its node budget)"
            } else {
                ""
            }
        )
    }
}

/// `covered/total (percent%)`, 100% of nothing.
pub fn ratio(covered: usize, total: usize) -> String {
    format!(
        "{covered}/{total} ({:.1}%)",
        if total == 0 {
            100.0
        } else {
            100.0 * covered as f64 / total as f64
        }
    )
}

#[cfg(all(test, feature = "smt"))]
mod tests {
    use super::*;
    use crate::sts::load::{Syntax, parse_sts};
    use crate::sts::z3::Z3Solver;

    fn bundled(name: &str) -> Sts {
        let path = format!("{}/models/sts/{name}.sts.yaml", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap();
        parse_sts(&text, &path, name, Syntax::Yaml).unwrap()
    }

    const LIMITS: SegLimits = SegLimits {
        depth: 30,
        nodes: 50_000,
    };

    #[test]
    fn bundled_models_reach_full_a_priori_switch_coverage() {
        for name in ["coffee", "brp", "login"] {
            let sts = bundled(name);
            let p = switch_purposes(&sts, &mut Z3Solver::new(), LIMITS);
            assert_eq!(
                p.covered_count(),
                sts.switches.len(),
                "{name}: {}",
                p.summary(&sts)
            );
            // Every purpose's path condition has a witness (the solver says sat).
            for purpose in &p.purposes {
                let node = &purpose.end;
                let w = Z3Solver::new().witness(&node.symbols, &node.condition);
                assert!(w.is_some(), "{name}: no witness for {:?}", purpose.path);
            }
        }
    }

    #[test]
    fn infeasible_paths_are_pruned() {
        // Example 4.13: r2 (done!, x > 15) is not enabled initially, only after enough inX.
        let text = "sts: 1
variables: [{name: x, type: int, initial: 0}]
gates:
  - {name: inX, kind: input, parameters: [{name: p, type: int}]}
  - {name: outX, kind: output, parameters: [{name: p, type: int}]}
  - {name: done, kind: output}
initial: l0
switches:
  - {name: r0, from: l0, gate: inX, guard: 1 <= p and p <= 10, assign: {x: x + p}, to: l1}
  - {name: r1, from: l1, gate: outX, guard: p == x, to: l0}
  - {name: r2, from: l0, gate: done, guard: x > 15, to: l2}
";
        let sts = parse_sts(text, "fig.sts.yaml", "fig", Syntax::Yaml).unwrap();
        let p = switch_purposes(&sts, &mut Z3Solver::new(), LIMITS);
        assert_eq!(p.covered_count(), 3);
        // The shortest purpose reaching r2 is r0 r1 r0 r1 r2 (Example 4.17): r0 r1 r2 is
        // infeasible (p_1 <= 10 < 15), and the solver pruned it.
        assert_eq!(p.purposes[0].path, vec![0, 1, 0, 1, 2]);
        assert_eq!(p.purposes.len(), 1);
        let json = p.to_json(&sts);
        assert!(
            json.contains("\"format\": \"ncomplete-sts-purposes\""),
            "{json}"
        );
        assert!(json.contains("p_3 <= 10"), "{json}");
        // Too shallow an unfolding leaves r2 uncovered, and says so.
        let shallow = switch_purposes(
            &sts,
            &mut Z3Solver::new(),
            SegLimits {
                depth: 4,
                nodes: 100,
            },
        );
        assert_eq!(shallow.covered_count(), 2);
        assert!(
            shallow
                .to_json(&sts)
                .contains("\"uncovered\": [\n      \"r2\"")
        );
    }
}
