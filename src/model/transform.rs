//! The transformation pipeline behind `ncomplete convert --complete/--suspension/--minimize`:
//! optionally complete a partial Mealy machine, optionally build the suspension automaton
//! (of an LTS or of a Mealy machine) and optionally minimise it.
//!
//! Order: completion (Mealy only) → suspension automaton → minimisation. `--minimize` works on
//! suspension automata, so for an LTS it implies `--suspension`; a Mealy machine needs
//! `--suspension` to be minimised here (Mealy minimisation proper is a different operation).

use super::Model;
use super::automaton::SuspensionAutomaton;
use super::complete::{Completion, complete_mealy};
use super::error::ModelError;
use super::from_mealy::mealy_to_suspension;
use super::lts::Lts;
use super::sa_minimize::minimize_suspension;
use super::suspension::{DEFAULT_MAX_SUBSETS, Divergence, SuspensionOptions, lts_to_suspension};

/// What to do to a model.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TransformOptions {
    /// Complete a partial Mealy machine.
    pub complete: Option<Completion>,
    /// Build the suspension automaton.
    pub suspension: bool,
    /// Divergence strategy (LTS only); `None` is the default ([`Divergence::Fair`]).
    pub divergence: Option<Divergence>,
    /// Minimise the suspension automaton (van den Bos Def. 2.13).
    pub minimize: bool,
    /// Subset budget of the LTS determinisation.
    pub max_subsets: usize,
}

impl Default for TransformOptions {
    fn default() -> Self {
        TransformOptions {
            complete: None,
            suspension: false,
            divergence: None,
            minimize: false,
            max_subsets: DEFAULT_MAX_SUBSETS,
        }
    }
}

/// The result of [`transform`]: the model as it was (possibly completed) or a suspension
/// automaton.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Transformed {
    /// A model of the input kind.
    Model(Model),
    /// A suspension automaton.
    Suspension(SuspensionAutomaton),
}

impl TransformOptions {
    /// Checks that the options fit together and fit the model; the message says what to change.
    pub fn check(&self, model: &Model) -> Result<(), String> {
        let to_suspension = self.suspension || self.minimize;
        match model {
            Model::Lts(_) => {
                if self.complete.is_some() {
                    return Err(
                        "--complete applies to Mealy machines, but the model is an LTS".into(),
                    );
                }
                if self.divergence.is_some() && !to_suspension {
                    return Err("--divergence applies when building the suspension automaton; add --suspension".into());
                }
            }
            Model::Mealy(_) => {
                if self.divergence.is_some() {
                    return Err("--divergence applies to LTS models with internal steps; a Mealy machine has none".into());
                }
                if self.minimize && !self.suspension {
                    return Err("--minimize minimises suspension automata; add --suspension to minimise the suspension automaton of this Mealy machine".into());
                }
            }
        }
        Ok(())
    }
}

fn suspension_of_lts(l: &Lts, opts: &TransformOptions) -> Result<SuspensionAutomaton, ModelError> {
    lts_to_suspension(
        l,
        &SuspensionOptions {
            divergence: opts.divergence.unwrap_or_default(),
            max_subsets: opts.max_subsets,
        },
    )
}

/// Applies the options to a model (call [`TransformOptions::check`] first for usage errors;
/// options that do not apply to the model kind are ignored here).
pub fn transform(model: Model, opts: &TransformOptions) -> Result<Transformed, ModelError> {
    let model = match (model, opts.complete) {
        (Model::Mealy(m), Some(c)) => Model::Mealy(complete_mealy(&m, c)?),
        (model, _) => model,
    };
    let to_suspension = opts.suspension || (opts.minimize && matches!(model, Model::Lts(_)));
    if !to_suspension {
        return Ok(Transformed::Model(model));
    }
    let sa = match &model {
        Model::Lts(l) => suspension_of_lts(l, opts)?,
        Model::Mealy(m) => mealy_to_suspension(m)?,
    };
    Ok(Transformed::Suspension(if opts.minimize {
        minimize_suspension(&sa)?
    } else {
        sa
    }))
}

/// The LTS read as a suspension automaton, if it is one: deterministic, no internal steps, an
/// output (or quiescence) in every state. An LTS without a quiescence label gets `delta`.
pub fn as_suspension_automaton(l: &Lts) -> Option<SuspensionAutomaton> {
    if !l.is_deterministic() {
        return None;
    }
    SuspensionAutomaton::new(
        l.name.clone(),
        l.alphabet.clone(),
        l.state_names().to_vec(),
        l.initial(),
        l.triples().collect(),
    )
    .ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{lts_from_marked, mealy_from_named};

    #[test]
    fn options_are_checked_against_the_model_kind() {
        let lts = Model::Lts(lts_from_marked("l", 1, &[(0, "?a", 0)]).unwrap());
        let mealy = Model::Mealy(mealy_from_named("m", 1, &[(0, "a", "x", 0)]).unwrap());
        let complete = TransformOptions {
            complete: Some(Completion::Sink),
            ..Default::default()
        };
        assert!(complete.check(&lts).unwrap_err().contains("--complete"));
        assert!(complete.check(&mealy).is_ok());
        let minimize = TransformOptions {
            minimize: true,
            ..Default::default()
        };
        assert!(minimize.check(&lts).is_ok());
        assert!(minimize.check(&mealy).unwrap_err().contains("--suspension"));
        let divergence = TransformOptions {
            divergence: Some(Divergence::QuiescentCopy),
            ..Default::default()
        };
        assert!(divergence.check(&lts).unwrap_err().contains("--suspension"));
        assert!(divergence.check(&mealy).is_err());
    }

    #[test]
    fn minimize_on_an_lts_builds_the_minimal_suspension_automaton() {
        // Two copies of the same loop: the suspension automaton has 4 states, the minimal one 2.
        let lts = lts_from_marked(
            "l",
            4,
            &[(0, "?a", 1), (1, "!x", 2), (2, "?a", 3), (3, "!x", 0)],
        )
        .unwrap();
        let opts = TransformOptions {
            minimize: true,
            ..Default::default()
        };
        let Transformed::Suspension(sa) = transform(Model::Lts(lts), &opts).unwrap() else {
            panic!("expected a suspension automaton");
        };
        assert_eq!(sa.num_states(), 2);
    }

    #[test]
    fn completion_comes_before_the_suspension_automaton() {
        let m = mealy_from_named("m", 1, &[(0, "a", "x", 0)]).unwrap();
        let mut inputs = m.inputs.clone();
        inputs.intern("b");
        let m = crate::model::Mealy::new(
            "m",
            inputs,
            m.outputs.clone(),
            m.state_names().to_vec(),
            m.initial(),
            &m.quads().collect::<Vec<_>>(),
        )
        .unwrap();
        let opts = TransformOptions {
            complete: Some(Completion::SelfLoop),
            suspension: true,
            ..Default::default()
        };
        let Transformed::Suspension(sa) = transform(Model::Mealy(m), &opts).unwrap() else {
            panic!("expected a suspension automaton");
        };
        assert!(sa.alphabet.get("undefined").is_some());
        assert_eq!(sa.inputs_enabled(sa.initial()).count(), 2);
        assert!(
            as_suspension_automaton(&lts_from_marked("l", 1, &[(0, "?a", 0)]).unwrap()).is_none()
        );
    }
}
