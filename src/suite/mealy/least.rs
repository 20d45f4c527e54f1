//! What a Mealy suite costs at least, known before any identifier or test tree is built
//! ([`least_costs`], [`LeastCosts`]), and the refusals of test trees (H, SPY, SPYH) whose
//! limits no flag raises.

use super::estimate::{self, SuiteSize};
use super::options::{MealyMethod, MealySuiteOptions};
use super::{h_method, spy, spyh};
use crate::identify::mealy::AccessTree;
use crate::model::{Mealy, ModelError};
use crate::suite::costs::{Figure, SuiteCosts};

/// Lower bounds of the cost figures of a `method` suite for `extra` extra states on the
/// minimised machine `min`, known before any identifier or test tree is built: the identifier
/// families from `estimate::least_suite_size`, H from `estimate::least_h_tree`, SPY and SPYH
/// from `estimate::least_shared_tree`, and `auto` the least of all of them figure by figure, so
/// a budget refused by it is refused by every suite `auto` could choose. They bound the figures
/// the budgets are checked against ([`MealySuite::costs`](super::MealySuite::costs), counted
/// before prefix removal). Bytes are bounded for the file format `json` names (`Some(true)`
/// suite JSON, `Some(false)` words, [`least_bytes`]) and left unknown without one; the longest
/// test is left unknown.
pub fn least_costs(
    min: &Mealy,
    access: &AccessTree,
    method: MealyMethod,
    extra: usize,
    json: Option<bool>,
) -> SuiteCosts {
    let family = || estimate::least_suite_size(min, access, extra);
    let h = || estimate::least_h_tree(min, access, extra);
    let shared = || estimate::least_shared_tree(min, access).0;
    let least = match method {
        MealyMethod::H => h(),
        MealyMethod::Spy | MealyMethod::Spyh => shared(),
        MealyMethod::Auto => [family(), h(), shared()]
            .into_iter()
            .reduce(|x, y| SuiteSize {
                tests: x.tests.min(y.tests),
                symbols: x.symbols.min(y.symbols),
            })
            .expect("three candidates"),
        _ => family(),
    };
    let at_least = |x: u128| match x.checked_sub(1) {
        Some(below) => Figure::MoreThan(below),
        None => Figure::Exact(0),
    };
    let (tests, symbols) = (u128::from(least.tests), u128::from(least.symbols));
    let bytes = json.map_or(Figure::Unknown, |json| {
        at_least(least_bytes(min, tests, symbols, json))
    });
    chain_costs(tests, symbols, at_least, Figure::Unknown, bytes)
}

/// The bytes of `text` as a JSON string, quotes included (serialising a string cannot fail;
/// the fallback is the longest escaping, six bytes a byte).
pub(super) fn json_string_len(text: &str) -> usize {
    serde_json::to_string(text).map_or(6 * text.len() + 2, |q| q.len())
}

/// A lower bound on the bytes of a Mealy suite of at least `tests` tests and `symbols` inputs
/// (counted before prefix removal, as [`MealySuite::costs`](super::MealySuite::costs) bounds
/// them from above), the header left out.
///
/// - Words: a test of `k > 0` inputs is a line of `k` tokens, each followed by a space or the
///   newline, so every input takes its token's length plus one byte.
/// - Suite JSON: every input is a node `{"send":I,"then":R,"race":{}}` (27 bytes besides `I`
///   and `R`) and a node `{"expect":{O:R}}` (14 besides `O` and `R`), with a reference `R` of at
///   least one byte each, at least one comma between nodes per input (a test of `k` inputs has
///   `2k - 1`), and its token in the test's name; every test line has its prefix (3 bytes or
///   more) and the frame `{"name":"","root":0,"nodes":[]}` (31 bytes).
pub fn least_bytes(min: &Mealy, tests: u128, symbols: u128, json: bool) -> u128 {
    let least = |lengths: &mut dyn Iterator<Item = usize>| lengths.min().unwrap_or(0) as u128;
    let inputs = min.inputs.names();
    let token = |n: &String| crate::suite::names::word_token(n);
    if !json {
        return symbols * (least(&mut inputs.iter().map(|n| token(n).len())) + 1);
    }
    let input = least(&mut inputs.iter().map(|n| json_string_len(n)));
    let output = least(&mut min.outputs.names().iter().map(|n| json_string_len(n)));
    let in_name = least(&mut inputs.iter().map(|n| json_string_len(&token(n)) - 2));
    tests * (3 + 31) + symbols * (27 + 14 + 2 + 1 + input + output + in_name)
}

/// What is known of a Mealy suite's costs before it is built: [`least_costs`] of the minimised
/// machine for the requested method and extra states, and of any other, so a refusal can say
/// which alternatives are not already refused.
#[derive(Copy, Clone, Debug)]
pub struct LeastCosts<'a> {
    pub(super) min: &'a Mealy,
    pub(super) access: &'a AccessTree,
    pub(super) method: MealyMethod,
    pub(super) extra: usize,
    pub(super) json: Option<bool>,
}

impl LeastCosts<'_> {
    /// The same bounds with bytes bounded for suite JSON (`json`) or words files.
    pub fn in_format(self, json: bool) -> Self {
        LeastCosts {
            json: Some(json),
            ..self
        }
    }

    /// The lower bounds of the requested suite.
    pub fn suite(&self) -> SuiteCosts {
        self.of(self.method, self.extra)
    }

    /// The lower bounds of a `method` suite for `extra` extra states on the same machine.
    pub fn of(&self, method: MealyMethod, extra: usize) -> SuiteCosts {
        least_costs(self.min, self.access, method, extra, self.json)
    }

    /// The requested method.
    pub fn method(&self) -> MealyMethod {
        self.method
    }

    /// The requested extra states.
    pub fn extra_states(&self) -> usize {
        self.extra
    }
}

/// The cost figures of a Mealy suite of `tests` tests and `symbols` inputs in all, each count
/// turned into a figure by `figure` (an upper or a lower bound): every test is a send/expect
/// chain, so it has one run, and two steps and two nodes per input; every output is required,
/// so no quiescence is observed.
pub(super) fn chain_costs(
    tests: u128,
    symbols: u128,
    figure: impl Fn(u128) -> Figure,
    longest: Figure,
    bytes: Figure,
) -> SuiteCosts {
    SuiteCosts {
        tests: figure(tests),
        runs: figure(tests),
        steps: figure(2 * symbols),
        waits: Figure::Exact(0),
        nodes: figure(2 * symbols),
        longest,
        bytes,
    }
}

/// The refusal of a test tree (H, SPY) over its budget: `what` exceeds `budget`. A smaller
/// `--extra-states` is advised only when there are extra states to remove.
fn tree_budget_error(what: String, budget: usize, extra: usize) -> ModelError {
    let advice = if extra > 0 {
        "use --method auto or hads, or a smaller --extra-states"
    } else {
        "use --method auto or hads"
    };
    ModelError::Budget {
        what,
        budget,
        advice: advice.into(),
    }
}

/// Refuses the H and SPYH methods when the pairs of traces they separate (one check each)
/// exceed [`h_method::H_PAIR_BUDGET`].
fn check_h_pairs(method: &str, min: &Mealy, extra: usize) -> Result<(), ModelError> {
    let pairs = h_method::h_pairs(min, extra);
    if pairs <= h_method::H_PAIR_BUDGET {
        return Ok(());
    }
    Err(tree_budget_error(
        format!(
            "{pairs} pairs of traces to separate by the {method} method ({} states, {} inputs, {extra} extra states)",
            min.num_states(),
            min.num_inputs()
        ),
        h_method::H_PAIR_BUDGET as usize,
        extra,
    ))
}

/// Refuses, before building, a test tree whose method is known to exceed a limit no flag
/// raises: H and SPYH by their pairs of traces ([`check_h_pairs`]), SPY and SPYH when their
/// least node count ([`estimate::least_shared_tree`]) exceeds their node budget.
pub(super) fn check_tree_limits(
    min: &Mealy,
    access: &AccessTree,
    opts: MealySuiteOptions,
) -> Result<(), ModelError> {
    let extra = opts.extra_states;
    let (name, node_budget) = match opts.method {
        MealyMethod::H => return check_h_pairs("H", min, extra),
        MealyMethod::Spy => ("SPY", spy::SPY_NODE_BUDGET),
        MealyMethod::Spyh => {
            check_h_pairs("SPYH", min, extra)?;
            ("SPYH", spyh::SPYH_NODE_BUDGET)
        }
        _ => return Ok(()),
    };
    if estimate::least_shared_tree(min, access).1 > node_budget as u64 {
        return Err(tree_nodes_error(name, min, extra, node_budget));
    }
    Ok(())
}

/// The refusal of a `method` test tree (SPY, SPYH) that grew past `budget` nodes.
pub(super) fn tree_nodes_error(
    method: &str,
    min: &Mealy,
    extra: usize,
    budget: usize,
) -> ModelError {
    tree_budget_error(
        format!(
            "the node count of the {method} test tree ({} states, {} inputs, {extra} extra states)",
            min.num_states(),
            min.num_inputs()
        ),
        budget,
        extra,
    )
}
