//! Mealy test words run against a system given as functions (a step function from an input's
//! name to an output's name, and a reset), for systems that live in the caller's process: a
//! Python object through the Python package, a closure in a Rust test.
//!
//! A test word of a Mealy suite is a send/expect chain (the suite JSON's Mealy tests): after a
//! reset each input is sent in turn and the system's output must equal the specification's; the
//! test fails at the first output that differs and nothing after it is sent. Running a suite
//! stops at its first failing test, as an equivalence oracle of automata learning needs (the
//! counterexample is the failing test's inputs up to the differing output).

use crate::model::{LabelId, Mealy};

/// Where a word's run first left the specification.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// 0-based position of the input whose output differs.
    pub position: usize,
    /// The inputs sent, the last one answered by the wrong output.
    pub inputs: Vec<String>,
    /// The specification's output at `position`.
    pub expected: String,
    /// The system's output at `position`.
    pub observed: String,
}

/// Runs `word` (inputs of `spec`) from `spec`'s initial state against `step`, which the caller
/// has reset; `Ok(None)` when every output is the specification's. An error of `step` ends the
/// run and is returned as is.
pub fn run_word<E>(
    spec: &Mealy,
    word: &[LabelId],
    step: &mut impl FnMut(&str) -> Result<String, E>,
) -> Result<Option<Mismatch>, E> {
    let expected = spec.run(spec.initial(), word);
    for (position, (&input, &output)) in word.iter().zip(&expected).enumerate() {
        let observed = step(spec.inputs.name(input))?;
        let expected = spec.outputs.name(output);
        if observed != expected {
            return Ok(Some(Mismatch {
                position,
                inputs: word[..=position]
                    .iter()
                    .map(|&i| spec.inputs.name(i).to_owned())
                    .collect(),
                expected: expected.to_owned(),
                observed,
            }));
        }
    }
    Ok(None)
}

/// What [`run_words`] did: tests and inputs sent, and the first failure.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WordsRun {
    /// Tests started (the failing one included).
    pub tests: u64,
    /// Inputs sent over all tests.
    pub steps: u64,
    /// The first failing test: its word and where it failed.
    pub failure: Option<(Vec<LabelId>, Mismatch)>,
}

/// Runs `words` in order, each after `reset`, until the first failing test.
pub fn run_words<E>(
    spec: &Mealy,
    words: impl IntoIterator<Item = Vec<LabelId>>,
    reset: &mut impl FnMut() -> Result<(), E>,
    step: &mut impl FnMut(&str) -> Result<String, E>,
) -> Result<WordsRun, E> {
    let mut run = WordsRun::default();
    for word in words {
        reset()?;
        run.tests += 1;
        let mismatch = run_word(spec, &word, step)?;
        run.steps += mismatch.as_ref().map_or(word.len(), |m| m.position + 1) as u64;
        if let Some(mismatch) = mismatch {
            run.failure = Some((word, mismatch));
            break;
        }
    }
    Ok(run)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{StateId, mealy_from_named};
    use crate::suite::mealy::{MealyMethod, MealySuite, MealySuiteOptions};
    use std::convert::Infallible;

    /// A toggle: `t` flips the state and says where it went, `r` reads it.
    fn toggle(flipped: &str) -> Mealy {
        mealy_from_named(
            "toggle",
            2,
            &[
                (0, "t", "on", 1),
                (1, "t", "off", 0),
                (0, "r", "0", 0),
                (1, "r", flipped, 1),
            ],
        )
        .expect("valid")
    }

    /// A system running `machine` in the caller's process.
    fn system(
        machine: &Mealy,
    ) -> (
        impl FnMut() -> Result<(), Infallible>,
        impl FnMut(&str) -> Result<String, Infallible>,
    ) {
        let state = std::rc::Rc::new(std::cell::Cell::new(machine.initial()));
        let reset_state = std::rc::Rc::clone(&state);
        let initial = machine.initial();
        let m = machine.clone();
        (
            move || {
                reset_state.set(initial);
                Ok(())
            },
            move |input: &str| {
                let i = m.inputs.get(input).expect("known input");
                let (next, out): (StateId, LabelId) = m.step(state.get(), i).expect("complete");
                state.set(next);
                Ok(m.outputs.name(out).to_owned())
            },
        )
    }

    #[test]
    fn a_conforming_system_passes_every_word() {
        let spec = toggle("1");
        let suite = MealySuite::new(&spec, MealySuiteOptions::new(MealyMethod::W, 1)).unwrap();
        let (mut reset, mut step) = system(&spec);
        let run = run_words(suite.spec(), suite.words(), &mut reset, &mut step).unwrap();
        assert_eq!(run.failure, None);
        assert_eq!(run.tests, suite.words().count() as u64);
        assert_eq!(
            run.steps,
            suite.words().map(|w| w.len() as u64).sum::<u64>()
        );
    }

    #[test]
    fn a_planted_output_fault_is_caught_at_its_position() {
        let spec = toggle("1");
        let suite = MealySuite::new(&spec, MealySuiteOptions::new(MealyMethod::W, 0)).unwrap();
        let faulty = toggle("0");
        let (mut reset, mut step) = system(&faulty);
        let run = run_words(suite.spec(), suite.words(), &mut reset, &mut step).unwrap();
        let (word, mismatch) = run.failure.expect("the fault is caught");
        assert_eq!(mismatch.inputs.last().map(String::as_str), Some("r"));
        let names: Vec<&str> = word.iter().map(|&i| spec.inputs.name(i)).collect();
        assert_eq!(mismatch.inputs, names[..=mismatch.position]);
        assert_eq!(
            (mismatch.expected.as_str(), mismatch.observed.as_str()),
            ("1", "0")
        );
        // The run stopped at the failing test.
        assert!(run.tests <= suite.words().count() as u64);
    }

    #[test]
    fn an_error_of_the_system_ends_the_run() {
        let spec = toggle("1");
        let t = spec.inputs.get("t").unwrap();
        let mut calls = 0;
        let mut step = |_: &str| {
            calls += 1;
            if calls == 2 {
                Err("gone")
            } else {
                Ok("on".to_owned())
            }
        };
        assert_eq!(run_word(&spec, &[t, t, t], &mut step), Err("gone"));
    }
}
