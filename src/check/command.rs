//! The `check` command: chooses the relation from the models and options (Mealy equivalence for
//! two Mealy machines; conf(D,F) when desired or forbidden behaviour is given; ioco or uioco
//! otherwise, a Mealy machine taking part as its suspension automaton) and words the verdict.

use super::error::CheckError;
use super::ioco::{IocoOptions, IocoVerdict, MissingInputs, check_ioco};
use super::language::{Language, LanguageVerdict, check_language};
use super::mealy::{MealyVerdict, check_mealy};
use super::observe::{DEFAULT_BUDGET, Observable};
use super::race::check_ioco_under_race;
use super::regex::Regex;
use crate::model::{Model, SuspensionAutomaton, mealy_to_suspension};

type Result<T, E = CheckError> = std::result::Result<T, E>;

/// Desired or forbidden behaviour: a regular expression, or the traces of a model.
// A model is built once per run; boxing it would only add an indirection.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum LanguageSource {
    /// A regular expression (see [`Regex`]), with where it came from for error positions.
    Regex {
        /// The expression.
        text: String,
        /// `--desired`, or the file it was read from.
        source: String,
    },
    /// A model whose suspension traces form the language.
    Model(Model),
}

/// What to check.
#[derive(Clone, Debug, Default)]
pub struct CheckRequest {
    /// uioco instead of ioco.
    pub uioco: bool,
    /// What an input the implementation refuses means.
    pub missing_inputs: MissingInputs,
    /// Mealy quasi-equivalence (inputs undefined in the specification are don't-care).
    pub quasi: bool,
    /// Desired behaviour D of conf(D,F).
    pub desired: Option<LanguageSource>,
    /// Forbidden behaviour F of conf(D,F).
    pub forbidden: Option<LanguageSource>,
    /// Bound on determinised states per model (0: the default).
    pub budget: usize,
    /// ioco as a tester observes it through the input/output race ([`super::race`]): whether
    /// some observation of the implementation has no reading in the specification.
    pub race: bool,
}

/// A verdict in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckReport {
    /// Whether the implementation conforms.
    pub conforms: bool,
    /// The report printed on standard output.
    pub text: String,
}

enum Side<'a> {
    Lts(&'a crate::model::Lts),
    Sa(Box<SuspensionAutomaton>),
}

impl Side<'_> {
    fn observable(&self) -> Observable<'_> {
        match self {
            Side::Lts(l) => Observable::Lts(l),
            Side::Sa(s) => Observable::Suspension(s),
        }
    }
}

fn side<'a>(m: &'a Model, path: &str) -> Result<Side<'a>> {
    Ok(match m {
        Model::Lts(l) => Side::Lts(l),
        Model::Mealy(m) => Side::Sa(Box::new(mealy_to_suspension(m).map_err(|source| {
            CheckError::Model {
                path: path.to_owned(),
                source,
            }
        })?)),
    })
}

/// Checks `imp` against `spec` (named by their files in the report).
pub fn check_models(
    spec: &Model,
    spec_name: &str,
    imp: &Model,
    imp_name: &str,
    req: &CheckRequest,
) -> Result<CheckReport> {
    let budget = if req.budget == 0 {
        DEFAULT_BUDGET
    } else {
        req.budget
    };
    if req.race && (req.uioco || req.quasi || req.desired.is_some() || req.forbidden.is_some()) {
        return Err(CheckError::Usage(
            "--race decides ioco through the input/output race; drop --uioco, --quasi, --desired and --forbidden".into(),
        ));
    }
    if req.desired.is_some() || req.forbidden.is_some() {
        if req.uioco {
            return Err(CheckError::Usage(
                "--uioco does not apply to conf(D,F); drop it or drop --desired/--forbidden".into(),
            ));
        }
        let (s, i) = (side(spec, spec_name)?, side(imp, imp_name)?);
        let regex = |l: &Option<LanguageSource>| -> Result<Option<Regex>> {
            match l {
                Some(LanguageSource::Regex { text, source }) => {
                    Ok(Some(Regex::parse(text, source)?))
                }
                _ => Ok(None),
            }
        };
        let (dr, fr) = (regex(&req.desired)?, regex(&req.forbidden)?);
        let (dm, fm) = (model_side(&req.desired)?, model_side(&req.forbidden)?);
        let v = check_language(
            s.observable(),
            i.observable(),
            language(&dr, &dm),
            language(&fr, &fm),
        )?;
        let relation = format!("{imp_name} conf(D,F) {spec_name}");
        return Ok(match v {
            LanguageVerdict::Conforms => CheckReport {
                conforms: true,
                text: format!("conforms: {relation}\n"),
            },
            LanguageVerdict::Fails(w) => CheckReport {
                conforms: false,
                text: format!(
                    "does not conform: {relation}\nwitness: {}\n{w}\n",
                    join(&w.trace)
                ),
            },
        });
    }
    if let (Model::Mealy(s), Model::Mealy(i)) = (spec, imp) {
        if req.race {
            return Err(CheckError::Usage(
                "--race applies to ioco; two Mealy machines are checked for equivalence, and their tests wait for each output before the next input".into(),
            ));
        }
        if req.uioco {
            return Err(CheckError::Usage(
                "--uioco applies to labelled transition systems; two Mealy machines are checked for equivalence".into(),
            ));
        }
        let v = check_mealy(s, i, req.quasi)?;
        let relation = if req.quasi {
            "quasi-equivalent"
        } else {
            "equivalent"
        };
        return Ok(match &v {
            MealyVerdict::Equivalent => CheckReport {
                conforms: true,
                text: format!("conforms: {imp_name} is {relation} to {spec_name}\n"),
            },
            MealyVerdict::Distinguished { inputs, .. } => CheckReport {
                conforms: false,
                text: format!(
                    "does not conform: {imp_name} is not {relation} to {spec_name}\ndistinguishing inputs: {}\n{v}\n",
                    inputs.join(" ")
                ),
            },
        });
    }
    let (s, i) = (side(spec, spec_name)?, side(imp, imp_name)?);
    let opts = IocoOptions {
        uioco: req.uioco,
        missing_inputs: req.missing_inputs,
        budget,
    };
    let (v, relation) = if req.race {
        (
            check_ioco_under_race(s.observable(), i.observable(), &opts)?,
            format!("{imp_name} ioco {spec_name} through the input/output race"),
        )
    } else {
        (
            check_ioco(s.observable(), i.observable(), &opts)?,
            format!(
                "{imp_name} {} {spec_name}",
                if req.uioco { "uioco" } else { "ioco" }
            ),
        )
    };
    Ok(match v {
        IocoVerdict::Conforms => CheckReport {
            conforms: true,
            text: format!("conforms: {relation}\n"),
        },
        IocoVerdict::Fails(c) => {
            let mut t = c.trace.clone();
            t.push(c.output.clone());
            CheckReport {
                conforms: false,
                text: format!(
                    "does not conform: {relation}\ncounterexample: {}\n{c}\n",
                    t.join(" ")
                ),
            }
        }
    })
}

fn model_side(l: &Option<LanguageSource>) -> Result<Option<Side<'_>>> {
    match l {
        Some(LanguageSource::Model(m)) => side(m, "language model").map(Some),
        _ => Ok(None),
    }
}

fn language<'a>(r: &'a Option<Regex>, m: &'a Option<Side<'_>>) -> Option<Language<'a>> {
    r.as_ref()
        .map(Language::Regex)
        .or_else(|| m.as_ref().map(|m| Language::Traces(m.observable())))
}

fn join(trace: &[String]) -> String {
    if trace.is_empty() {
        "ε".to_owned()
    } else {
        trace.join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{lts_from_marked, mealy_from_named};

    #[test]
    fn relations_and_reports() {
        let spec = Model::Lts(lts_from_marked("s", 2, &[(0, "?a", 1), (1, "!x", 0)]).unwrap());
        let imp = Model::Lts(lts_from_marked("i", 2, &[(0, "?a", 1), (1, "!y", 0)]).unwrap());
        let r = check_models(&spec, "s.aut", &imp, "i.aut", &CheckRequest::default()).unwrap();
        assert!(!r.conforms);
        assert!(
            r.text
                .starts_with("does not conform: i.aut ioco s.aut\ncounterexample: ?a !y\n"),
            "{}",
            r.text
        );
        let r = check_models(&spec, "s.aut", &spec, "s.aut", &CheckRequest::default()).unwrap();
        assert_eq!(r.text, "conforms: s.aut ioco s.aut\n");
        let req = CheckRequest {
            forbidden: Some(LanguageSource::Regex {
                text: "a (x".into(),
                source: "--forbidden".into(),
            }),
            ..Default::default()
        };
        let err = check_models(&spec, "s", &imp, "i", &req).unwrap_err();
        assert_eq!(crate::Error::from(err.clone()).exit_code(), 2);
        assert!(
            err.to_string()
                .starts_with("--forbidden:1:5: found end of input"),
            "{err}"
        );
        let m1 = Model::Mealy(mealy_from_named("m", 1, &[(0, "a", "x", 0)]).unwrap());
        let m2 = Model::Mealy(mealy_from_named("m", 1, &[(0, "a", "y", 0)]).unwrap());
        let r = check_models(&m1, "m1", &m2, "m2", &CheckRequest::default()).unwrap();
        assert!(r.text.contains("distinguishing inputs: a\n"), "{}", r.text);
        // A Mealy machine against an LTS: ioco on its suspension automaton.
        let sa =
            mealy_to_suspension(&mealy_from_named("m", 1, &[(0, "a", "x", 0)]).unwrap()).unwrap();
        let as_lts = Model::Lts(crate::format::suspension_as_lts(&sa));
        let r = check_models(&m1, "m1", &as_lts, "sa", &CheckRequest::default()).unwrap();
        assert_eq!(r.text, "conforms: sa ioco m1\n");
        let r = check_models(
            &m1,
            "m1",
            &m2,
            "m2",
            &CheckRequest {
                uioco: true,
                ..Default::default()
            },
        );
        assert_eq!(crate::Error::from(r.unwrap_err()).exit_code(), 2);
    }
}
