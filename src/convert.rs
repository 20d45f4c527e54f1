//! `ncomplete convert`: writes a model in another format, optionally as its suspension automaton
//! (TorX thesis Def. 2.2.12 for an LTS; `q --i--> (q,i) --o--> q'` for a Mealy machine) and
//! optionally minimised (Mealy machines by partition refinement; suspension automata up to
//! equivalence, van den Bos Def. 2.13).

use crate::error::Error;
use crate::format::{Format, write_model, write_suspension};
use crate::identify::mealy::minimize_mealy;
use crate::model::{
    Model, ModelError, SuspensionOptions, lts_to_suspension, mealy_to_suspension,
    minimize_suspension,
};

/// What `convert` produces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConvertOptions {
    /// Target format.
    pub to: Format,
    /// Write the suspension automaton (explicit `delta` transitions) instead of the model.
    pub suspension: bool,
    /// Minimise first (an LTS only together with `suspension`).
    pub minimize: bool,
}

/// The text of `model` (read from `file`) converted as `opts` says.
pub fn convert(model: &Model, file: &str, opts: &ConvertOptions) -> Result<String, Error> {
    let model_error = |source: ModelError| Error::Model {
        path: file.to_owned(),
        source,
    };
    if opts.suspension {
        let sa = match model {
            Model::Lts(l) => {
                lts_to_suspension(l, &SuspensionOptions::default()).map_err(model_error)?
            }
            Model::Mealy(m) => mealy_to_suspension(m).map_err(model_error)?,
        };
        let sa = if opts.minimize {
            minimize_suspension(&sa).map_err(model_error)?
        } else {
            sa
        };
        return Ok(write_suspension(&sa, opts.to));
    }
    match (model, opts.minimize) {
        (_, false) => Ok(write_model(model, opts.to)),
        (Model::Mealy(m), true) => Ok(write_model(&Model::Mealy(minimize_mealy(m)), opts.to)),
        (Model::Lts(_), true) => Err(Error::Usage(format!(
            "{file} is an LTS: --minimize minimises its suspension automaton, so it needs --suspension"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{LoadOptions, parse_model};
    use crate::model::{lts_from_marked, mealy_from_named};

    fn opts(to: Format, suspension: bool, minimize: bool) -> ConvertOptions {
        ConvertOptions {
            to,
            suspension,
            minimize,
        }
    }

    #[test]
    fn minimising_a_mealy_machine_merges_equivalent_states() {
        // s1 and s2 are equivalent.
        let m = mealy_from_named(
            "m",
            3,
            &[(0, "a", "x", 1), (1, "a", "y", 2), (2, "a", "y", 2)],
        )
        .unwrap();
        let text = convert(&Model::Mealy(m), "m.dot", &opts(Format::Dot, false, true)).unwrap();
        let Model::Mealy(min) = parse_model(&text, "m.dot", &LoadOptions::default()).unwrap()
        else {
            panic!("Mealy expected")
        };
        assert_eq!(min.num_states(), 2);
    }

    #[test]
    fn suspension_of_an_lts_has_explicit_quiescence() {
        let l = lts_from_marked("v", 3, &[(0, "?coin", 1), (1, "tau", 2), (2, "!tea", 0)]).unwrap();
        let text = convert(&Model::Lts(l), "v.aut", &opts(Format::Aut, true, false)).unwrap();
        let Model::Lts(sa) = parse_model(&text, "v.aut", &LoadOptions::default()).unwrap() else {
            panic!("LTS expected")
        };
        let d = sa.alphabet.quiescence().expect("delta");
        assert!(sa.is_deterministic());
        // The initial state waits for a coin: quiescent.
        assert_eq!(sa.successors(sa.initial(), d).count(), 1);
        assert!(!sa.has_internal());
    }

    #[test]
    fn minimising_an_lts_needs_the_suspension_automaton() {
        let l = lts_from_marked("v", 1, &[(0, "?a", 0)]).unwrap();
        let e = convert(&Model::Lts(l), "v.aut", &opts(Format::Aut, false, true)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "v.aut is an LTS: --minimize minimises its suspension automaton, so it needs --suspension"
        );
    }
}
