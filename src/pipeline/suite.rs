//! A complete suite in memory: the one step from a model, a method and a bound to a suite that
//! `ncomplete generate` and the Python package share. Nothing is written here, and no test is
//! built yet: a [`BuiltSuite`] holds what its tests are built from (the Mealy suite's access
//! sequences and state identifiers, or the ioco suite's plan, van den Bos Sec. 2.4), checked
//! against the budget, and its tests are built while they are written or iterated.
//!
//! The rules are the command line's: `auto` is ioco-auto for a labelled transition system and the
//! smallest Mealy method for a Mealy machine; ioco suites are built for the minimised suspension
//! automaton in the classic quiescence domain unless [`IocoOptions`] says otherwise; Mealy
//! suites count their budget before prefix removal.

use super::Method;
use super::options::IocoOptions;
use crate::Error;
use crate::model::{Completion, Model};
use crate::suite::costs::{Budget, SuiteCosts};
use crate::suite::ioco::{self, Bound, IocoMethod, IocoSuite};
use crate::suite::mealy::{LeastCosts, MealyMethod, MealySuite, MealySuiteOptions};

/// What a suite is built with.
#[derive(Clone, Debug, Default)]
pub struct SuiteRequest {
    /// The method ([`Method::Auto`] by default).
    pub method: Method,
    /// Complete for implementations with at most `n` (specified) states (ioco methods).
    pub n: Option<usize>,
    /// Extra states beyond the (minimised) model (default 0 for the Mealy methods).
    pub extra_states: Option<usize>,
    /// Limits on the suite's cost, checked before any test is built.
    pub budget: Budget,
    /// Domain, minimisation and sets of the ioco methods.
    pub ioco: IocoOptions,
    /// Keep Mealy tests that are prefixes of other tests.
    pub keep_prefixes: bool,
    /// Complete a partial Mealy machine first.
    pub complete: Option<Completion>,
    /// The suite is written as words (one line of inputs per test), whose costs the budget then
    /// counts, instead of suite JSON; refused for ioco suites, which are trees.
    pub as_words: bool,
}

/// A suite ready to be written or iterated.
pub enum BuiltSuite {
    /// A Mealy suite: its tests are input words.
    Mealy(Box<MealySuite>),
    /// An ioco suite: its tests are trees over the suspension automaton's labels.
    Ioco {
        /// The suite.
        suite: Box<IocoSuite>,
        /// The ioco-auto table of candidates and the one chosen (ioco-auto only).
        choice: Option<String>,
    },
}

/// The suite of `model` (read from `path`, which names it in messages and in the suite header)
/// as `request` says, and the method it was built with (`auto` resolved). Refuses a Mealy method
/// on a labelled transition system, a bound the method does not take, and a suite over budget.
pub fn build_suite(
    model: &Model,
    path: &str,
    request: &SuiteRequest,
) -> Result<(Method, BuiltSuite), Error> {
    let chosen = request.method.resolve(model);
    let built = match chosen.ioco(request.ioco.incompatible_sets) {
        Some(method) => build_ioco(model, path, request, method)?,
        None => BuiltSuite::Mealy(Box::new(build_mealy(model, path, request, chosen)?)),
    };
    Ok((chosen, built))
}

/// An ioco method: the suite of the model's suspension automaton.
fn build_ioco(
    model: &Model,
    path: &str,
    request: &SuiteRequest,
    method: IocoMethod,
) -> Result<BuiltSuite, Error> {
    if request.as_words {
        return Err(Error::Usage(
            "the ioco methods write suite JSON (--format json); words are for Mealy suites".into(),
        ));
    }
    let bound = match (request.n, request.extra_states) {
        (Some(n), _) => Bound::States(n),
        (None, Some(e)) => Bound::ExtraStates(e),
        (None, None) => return Err(Error::Usage("give --n N or --extra-states E".into())),
    };
    let (sa, options) = request.ioco.specification(model, path)?;
    // Every figure is counted and checked against the budget here, before any test is built.
    Ok(if method == IocoMethod::Auto {
        let (suite, choice) = ioco::auto::choose_with(&sa, bound, request.budget, options)?;
        BuiltSuite::Ioco {
            suite: Box::new(suite),
            choice: Some(choice.to_text()),
        }
    } else {
        BuiltSuite::Ioco {
            suite: Box::new(ioco::generate_with(
                &sa,
                method,
                bound,
                request.budget,
                options,
            )?),
            choice: None,
        }
    })
}

/// What to do about a Mealy suite over `budget`, never advising the impossible: a smaller
/// `--extra-states` only when there are extra states and the method's suite without them is not
/// already over the budget by its lower bounds, `--method auto` only for another method and when
/// its lower bounds (the least of every suite it could choose) are within the budget.
fn mealy_advice(least: LeastCosts<'_>, budget: &Budget) -> String {
    let fits = |costs: SuiteCosts| costs.check(budget, "", "").is_ok();
    let (method, extra) = (least.method(), least.extra_states());
    let mut ways = vec!["raise the limits named"];
    if extra > 0 && fits(least.of(method, 0)) {
        ways.push("try a smaller --extra-states");
    }
    if method != MealyMethod::Auto && fits(least.of(MealyMethod::Auto, extra)) {
        ways.push("try --method auto (the smallest suite)");
    }
    match ways.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{}, or {last}", rest.join(", ")),
        _ => ways.concat(),
    }
}

/// A Mealy method: the suite of the minimised (and, if asked, completed) machine.
fn build_mealy(
    model: &Model,
    path: &str,
    request: &SuiteRequest,
    chosen: Method,
) -> Result<MealySuite, Error> {
    let method = chosen.mealy().expect("a method that is not ioco is Mealy");
    let mealy = match model {
        Model::Mealy(m) => m,
        Model::Lts(l) => {
            let what = if l.onfsm().is_some() {
                "a nondeterministic Mealy machine (ONFSM), which is tested with ioco through its suspension automaton"
            } else {
                "a labelled transition system"
            };
            return Err(Error::Usage(format!(
                "{path}: the Mealy methods need a deterministic Mealy machine, but this model is {what} (use --method ioco-complete|unconditional|ioco-ads|ioco-counting)"
            )));
        }
    };
    if request.n.is_some() {
        return Err(Error::Usage(
            "the Mealy methods take --extra-states E (the bound is the minimised model's size plus E)".into(),
        ));
    }
    let model_error = |source| Error::Model {
        path: path.to_owned(),
        source,
    };
    let completed = match request.complete {
        Some(c) => Some(crate::model::complete_mealy(mealy, c).map_err(model_error)?),
        None => None,
    };
    let options = MealySuiteOptions {
        method,
        extra_states: request.extra_states.unwrap_or(0),
        prune_prefixes: !request.keep_prefixes,
    };
    let name = format!(
        "{} suite for {} extra states (counted before prefix removal)",
        method.name(),
        options.extra_states
    );
    let json = !request.as_words;
    let budget = &request.budget;
    let suite = MealySuite::new_within(completed.as_ref().unwrap_or(mealy), options, |least| {
        let least = least.in_format(json);
        least
            .suite()
            .check(budget, &name, &mealy_advice(least, budget))
    })
    .map_err(model_error)??;
    let least = suite.least_costs().in_format(json);
    suite
        .costs(json)
        .check(budget, &name, &mealy_advice(least, budget))?;
    Ok(suite)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::identify::mealy::tests_support::random_mealy;

    /// The advice never suggests fewer extra states at none, never the method used, and
    /// `auto` exactly when another method was used and `auto`'s least costs fit the budget.
    #[test]
    fn mealy_advice_never_suggests_the_impossible() {
        let m = random_mealy(4, 7, 3, 2);
        for extra in 0..2 {
            for method in MealyMethod::ALL {
                let suite = MealySuite::new(&m, MealySuiteOptions::new(method, extra)).unwrap();
                let least = suite.least_costs();
                let auto_tests = match least.of(MealyMethod::Auto, extra).tests {
                    crate::suite::costs::Figure::MoreThan(x) => x + 1,
                    other => panic!("{other:?}"),
                };
                for max_tests in [1, auto_tests - 1, auto_tests, 1_000_000] {
                    let budget = Budget {
                        max_tests,
                        ..Budget::default()
                    };
                    let advice = mealy_advice(least, &budget);
                    assert!(advice.starts_with("raise the limits named"), "{advice}");
                    // At no extra states never; else when the method fits without them.
                    let fewer = extra > 0 && least.of(method, 0).check(&budget, "", "").is_ok();
                    assert_eq!(
                        advice.contains("--extra-states"),
                        fewer,
                        "{method:?} E={extra} max {max_tests}: {advice}"
                    );
                    let named = format!("--method {} ", method.name());
                    assert!(!advice.contains(&named), "{method:?}: {advice}");
                    assert_eq!(
                        advice.contains("--method auto"),
                        method != MealyMethod::Auto && max_tests >= auto_tests,
                        "{method:?} E={extra} max {max_tests}: {advice}"
                    );
                }
            }
        }
    }
}
