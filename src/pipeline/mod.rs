//! The pipeline: the one front-end-neutral entry point of every command.
//!
//! Each command of the program (`generate`, `sizes`, `run`, `explore`, `check`, `mutate`,
//! `render`, `convert`, `info`, `distinguish`, `audit`, `simulate`, `results merge`) is one plain function here over
//! an option struct of plain data (`#[derive(Debug, Clone)]`, no command-line types), returning a
//! typed result or an [`crate::Error`]. The command line (`src/main.rs`, `src/cli/`) only parses
//! its arguments, converts them to these structs, calls one function and prints what it returns;
//! the Python package calls the same functions. Everything between the options and the library's
//! layers lives here: the choice of a method for the model (`auto` is ioco-auto for a labelled
//! transition system, the smallest Mealy suite for a Mealy machine), the validation of option
//! combinations (with the messages the user sees), the refusal of outputs that are inputs before
//! anything is read, and the order in which models are read and files written.
//!
//! Options keep the library's own types where they exist ([`crate::format::LoadOptions`],
//! [`crate::suite::costs::Budget`], [`crate::identify::DistinguishOptions`],
//! [`crate::exec::explore::Policy`], [`crate::exec::sut::SutOptions`], ...). Messages and
//! progress go to stderr unless an option's `quiet` is set, as the command line's `--quiet`.

mod execute;
mod generate;
mod merge;
mod models;
mod options;
mod sts;
mod suite;
#[cfg(test)]
mod tests;

pub use execute::{RenderRequest, RunOutcome, RunRequest, explore, render, run, simulate};
pub use generate::{SizesReport, SizesRequest, generate, generate_model, sizes, write_suite_file};
pub use merge::{MergedResults, merge_results};
pub use models::{
    AuditOutcome, AuditRequest, CheckModels, ConvertRequest, Converted, DistinguishRequest,
    DrawFormat, DrawRequest, InfoReport, LanguageInput, MutateRequest, audit, check, convert,
    distinguish, draw, info, info_report, mutate,
};
pub use options::{
    ExploreRequest, GenerateOptions, GeneratedSuite, IocoOptions, StsPurposes, SuiteFileFormat,
};
pub use sts::{generate_purposes, is_sts_file};
pub use suite::{BuiltSuite, SuiteRequest, build_suite};

use crate::Error;
use crate::format::LoadOptions;
use crate::model::Model;
use crate::suite::ioco::{IncompatibleSets, IocoMethod};
use crate::suite::mealy::MealyMethod;

/// Reads a model file (`-`: standard input) as `options` say, printing the parser's warnings on
/// stderr unless `quiet`.
pub fn load_model(path: &str, options: &LoadOptions, quiet: bool) -> Result<Model, Error> {
    load_annotated_model(path, options, quiet).map(|(model, _)| model)
}

/// [`load_model`] with the model's timeout annotations as runners use them
/// ([`crate::exec::timeouts`]; `None` when it has none).
pub fn load_annotated_model(
    path: &str,
    options: &LoadOptions,
    quiet: bool,
) -> Result<(Model, Option<crate::exec::timeouts::ModelTimeouts>), Error> {
    let (model, annotations) = load_model_and_annotations(path, options, quiet)?;
    let timeouts = crate::exec::timeouts::ModelTimeouts::new(&model, &annotations);
    Ok((model, timeouts))
}

/// [`load_annotated_model`] with the model's requirement tags ([`crate::format::requirements`]).
pub fn load_tagged_model(
    path: &str,
    options: &LoadOptions,
    quiet: bool,
) -> Result<
    (
        Model,
        Option<crate::exec::timeouts::ModelTimeouts>,
        crate::model::RequirementTags,
    ),
    Error,
> {
    let loaded = load_showing_warnings(path, options, quiet)?;
    let timeouts = crate::exec::timeouts::ModelTimeouts::new(&loaded.model, &loaded.timeouts);
    Ok((loaded.model, timeouts, loaded.requirements))
}

/// [`load_model`] with the model's timeout annotations as written ([`crate::format::timeouts`]).
pub fn load_model_and_annotations(
    path: &str,
    options: &LoadOptions,
    quiet: bool,
) -> Result<(Model, crate::format::timeouts::TimeoutAnnotations), Error> {
    let loaded = load_showing_warnings(path, options, quiet)?;
    Ok((loaded.model, loaded.timeouts))
}

/// The loaded model, its warnings printed on stderr unless `quiet`.
fn load_showing_warnings(
    path: &str,
    options: &LoadOptions,
    quiet: bool,
) -> Result<crate::format::Loaded, Error> {
    let loaded = crate::sts::load_model_with_warnings(path, options)?;
    if !quiet {
        for w in &loaded.warnings {
            eprintln!("warning: {w}");
        }
    }
    Ok(loaded)
}

/// A suite generation method: a Mealy method (for Mealy machines), an ioco method (for any model,
/// through its suspension automaton), or `Auto`, resolved by the model.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Method {
    /// Chow's W method.
    W,
    /// Wp.
    Wp,
    /// HSI with pairwise shortest separating sequences.
    Hsi,
    /// HSI with harmonised identifiers from a splitting tree.
    HsiSt,
    /// Hybrid adaptive distinguishing sequences.
    Hads,
    /// UIO sequences (not complete).
    Uio,
    /// UIOv.
    Uiov,
    /// The H method.
    H,
    /// The SPY method.
    Spy,
    /// The SPYH method.
    Spyh,
    /// ioco-auto for a labelled transition system, the smallest Mealy suite for a Mealy machine.
    #[default]
    Auto,
    /// `T(S, n)` (van den Bos Def. 2.37).
    IocoComplete,
    /// `U(S, n)` (van den Bos Def. 2.43).
    Unconditional,
    /// ioco-ads.
    IocoAds,
    /// ioco-counting.
    IocoCounting,
    /// ioco-cover-counting.
    IocoCoverCounting,
    /// The cheapest complete ioco suite.
    IocoAuto,
}

impl Method {
    /// Every method with its name as `generate --method` spells it.
    pub const NAMED: [(&'static str, Method); 17] = [
        ("w", Method::W),
        ("wp", Method::Wp),
        ("hsi", Method::Hsi),
        ("hsi-st", Method::HsiSt),
        ("hads", Method::Hads),
        ("uio", Method::Uio),
        ("uiov", Method::Uiov),
        ("h", Method::H),
        ("spy", Method::Spy),
        ("spyh", Method::Spyh),
        ("auto", Method::Auto),
        ("ioco-complete", Method::IocoComplete),
        ("unconditional", Method::Unconditional),
        ("ioco-ads", Method::IocoAds),
        ("ioco-counting", Method::IocoCounting),
        ("ioco-cover-counting", Method::IocoCoverCounting),
        ("ioco-auto", Method::IocoAuto),
    ];

    /// The method named `name` (see [`Method::NAMED`]).
    pub fn from_name(name: &str) -> Option<Method> {
        Self::NAMED
            .iter()
            .find(|(known, _)| *known == name)
            .map(|&(_, m)| m)
    }

    /// The Mealy method, if this is one (`Auto` is the Mealy auto method).
    pub fn mealy(self) -> Option<MealyMethod> {
        use MealyMethod as M;
        Some(match self {
            Method::W => M::W,
            Method::Wp => M::Wp,
            Method::Hsi => M::Hsi,
            Method::HsiSt => M::HsiSt,
            Method::Hads => M::Hads,
            Method::Uio => M::Uio,
            Method::Uiov => M::Uiov,
            Method::H => M::H,
            Method::Spy => M::Spy,
            Method::Spyh => M::Spyh,
            Method::Auto => M::Auto,
            _ => return None,
        })
    }

    /// The ioco method, if this is one (`sets`: the family of `ioco-counting`).
    pub fn ioco(self, sets: IncompatibleSets) -> Option<IocoMethod> {
        Some(match self {
            Method::IocoComplete => IocoMethod::Complete,
            Method::Unconditional => IocoMethod::Unconditional,
            Method::IocoAds => IocoMethod::Ads,
            Method::IocoCounting => IocoMethod::Counting(sets),
            Method::IocoCoverCounting => IocoMethod::CoverCounting(sets),
            Method::IocoAuto => IocoMethod::Auto,
            _ => return None,
        })
    }

    /// The method `generate` uses for `model`: `Auto` is ioco-auto for a labelled transition
    /// system; any other method is itself.
    pub fn resolve(self, model: &Model) -> Method {
        match (self, model) {
            (Method::Auto, Model::Lts(_)) => Method::IocoAuto,
            (m, _) => m,
        }
    }
}

/// `COUNT tests`, or `1 test`.
pub fn tests_text(count: &str) -> String {
    if count == "1" {
        "1 test".to_owned()
    } else {
        format!("{count} tests")
    }
}
