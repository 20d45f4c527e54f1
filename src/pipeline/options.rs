//! The options and results of the pipeline's commands that more than one command file shares:
//! how `generate` writes a suite and what it wrote (also used by the STS commands of
//! `sts.rs` and by `build_suite`), and what `explore` is asked (also the STS purposes). Plain
//! data that the binary and the Python package fill in; the commands live above it.

use super::Method;
use crate::Error;
use crate::exec::explore::{CoverageTarget, ExploreOptions, Policy};
use crate::exec::stdio::Timeouts;
use crate::exec::tcp::SystemAccess;
use crate::format::LoadOptions;
use crate::goals::cases::GoalSource;
use crate::model::{Completion, Model, SuspensionAutomaton};
use crate::suite::costs::Budget;
use crate::suite::ioco::{self, Domain, IncompatibleSets, SuiteOptions};
use crate::suite::names::Shard;
use std::path::PathBuf;

/// The file format of a generated suite.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum SuiteFileFormat {
    /// One test per line, inputs separated by spaces (Mealy suites).
    Words,
    /// Suite JSON version 1.
    #[default]
    Json,
    /// TTCN-3 and a Titan test port: the output directory gets `suite.json` and the rendering.
    Ttcn,
    /// A pytest module and its runtime, beside `suite.json`.
    Python,
    /// A standalone Cargo package, beside `suite.json`.
    Rust,
}

impl SuiteFileFormat {
    /// The program format this suite is rendered in after generation, if any.
    pub fn rendering(self) -> Option<crate::render::Format> {
        use crate::render::Format as F;
        match self {
            SuiteFileFormat::Words | SuiteFileFormat::Json => None,
            SuiteFileFormat::Ttcn => Some(F::Ttcn),
            SuiteFileFormat::Python => Some(F::Python),
            SuiteFileFormat::Rust => Some(F::Rust),
        }
    }
}

/// How an ioco suite is built: the quiescence domain, the minimisation of the model and the
/// sets of `ioco-counting`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct IocoOptions {
    /// The implementations the suite is complete for (default: classic, as on the command line).
    pub domain: Domain,
    /// Minimise the suspension automaton first (≈, van den Bos Def. 2.13); bounds then count the
    /// minimised states.
    pub minimize: bool,
    /// The sets of pairwise incompatible states that bound the traces of ioco-counting.
    pub incompatible_sets: IncompatibleSets,
}

impl Default for IocoOptions {
    fn default() -> Self {
        IocoOptions {
            domain: Domain::Classic,
            minimize: true,
            incompatible_sets: IncompatibleSets::default(),
        }
    }
}

impl IocoOptions {
    /// The suspension automaton of `model` (read from `path`) and the options of its suites.
    pub fn specification(
        &self,
        model: &Model,
        path: &str,
    ) -> Result<(SuspensionAutomaton, SuiteOptions), Error> {
        Ok(ioco::specification_for(
            model,
            path,
            self.minimize,
            self.domain,
        )?)
    }
}

/// The options of [`generate`](fn@super::generate) (`ncomplete generate`).
#[derive(Clone, Debug)]
pub struct GenerateOptions {
    /// How the model file is read.
    pub load: LoadOptions,
    /// The method ([`Method::Auto`] by default).
    pub method: Method,
    /// Complete for implementations with at most `n` (specified) states (ioco methods).
    pub n: Option<usize>,
    /// Extra states beyond the (minimised) model (default 0 for the Mealy methods).
    pub extra_states: Option<usize>,
    /// Limits on the suite's cost, checked before anything is written.
    pub budget: Budget,
    /// Domain, minimisation and sets of the ioco methods.
    pub ioco: IocoOptions,
    /// The suite's file format.
    pub format: SuiteFileFormat,
    /// The suite file (`-`: standard output), or the directory of a rendering.
    pub out: String,
    /// Templates overriding the built-in ones (renderings).
    pub templates: Option<PathBuf>,
    /// Replace an output directory holding a rendering in another format.
    pub force: bool,
    /// Write only this shard of the suite.
    pub shard: Option<Shard>,
    /// Keep Mealy tests that are prefixes of other tests.
    pub keep_prefixes: bool,
    /// Complete a partial Mealy machine first.
    pub complete: Option<Completion>,
    /// Goal-directed tests instead of a complete suite.
    pub goals: Option<GoalSource>,
    /// Steps that do not help a goal-directed test tolerates before `retry`.
    pub patience: u32,
    /// Fill [`GeneratedSuite::stats`].
    pub stats: bool,
    /// No warnings or progress on stderr.
    pub quiet: bool,
}

impl Default for GenerateOptions {
    fn default() -> Self {
        GenerateOptions {
            load: LoadOptions::default(),
            method: Method::Auto,
            n: None,
            extra_states: None,
            budget: Budget::default(),
            ioco: IocoOptions::default(),
            format: SuiteFileFormat::Json,
            out: "-".to_owned(),
            templates: None,
            force: false,
            shard: None,
            keep_prefixes: false,
            complete: None,
            goals: None,
            patience: 2,
            stats: false,
            quiet: false,
        }
    }
}

/// What [`generate`](fn@super::generate) wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneratedSuite {
    /// The method the suite was built with (`auto` resolved; the ioco-auto choice is in
    /// [`GeneratedSuite::choice`]); `None` for goal-directed tests.
    pub method: Option<Method>,
    /// The suite file written (`-`: standard output; `suite.json` in the directory of a
    /// rendering).
    pub suite_path: String,
    /// The number of tests (of the whole suite, shards included), as text.
    pub tests: String,
    /// What the suite guarantees (empty for goal-directed tests).
    pub guarantee: String,
    /// The suite's figures, one line, when [`GenerateOptions::stats`] asked for them.
    pub stats: Option<String>,
    /// The ioco-auto table of candidates and the one chosen.
    pub choice: Option<String>,
    /// What the command line prints on stderr after writing unless quiet: the tests and the
    /// guarantee, or the per-goal table of goal-directed tests.
    pub summary: String,
}

/// The options of [`explore`](fn@super::explore) (`ncomplete explore`): on-the-fly testing of a model of the
/// implementation (`implementation`) or a process (`sut`) against a specification.
#[derive(Clone, Debug)]
pub struct ExploreRequest {
    /// How model files are read.
    pub load: LoadOptions,
    /// A model of the implementation, run in process (its output choices seeded).
    pub implementation: Option<String>,
    /// How the system under test is reached (when there is no implementation model): a
    /// command, or a TCP connection.
    pub sut: Option<SystemAccess>,
    /// How moves are chosen (an input bias must be a probability).
    pub policy: Policy,
    /// The goal `Policy::Strategy` steers to first.
    pub purpose: Option<GoalSource>,
    /// Probability of ending the run and resetting before a move.
    pub reset_probability: f64,
    /// Seed of the tester's choices.
    pub seed: u64,
    /// Stop after this many steps.
    pub max_steps: u64,
    /// Stop once this coverage is complete.
    pub until: Option<CoverageTarget>,
    /// Stop after this many seconds (non-negative, fitting a duration).
    pub time_limit: Option<f64>,
    /// The timeouts of the system under test.
    pub timeouts: Timeouts,
    /// Write the verdict, trace and coverage as JSON to this file.
    pub out: Option<String>,
    /// Write a self-contained HTML report to this file.
    pub html: Option<String>,
    /// No warnings or progress on stderr.
    pub quiet: bool,
    /// With an STS: its switch-coverage purposes, executed on the fly instead of exploring the
    /// instantiation.
    pub sts_purposes: Option<StsPurposes>,
    /// Attempts per STS purpose while it ends inconclusive.
    pub attempts: usize,
    /// Times the STS purposes are executed, stopping at the first failure.
    pub rounds: usize,
}

/// Which test purposes `explore` executes on an STS.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StsPurposes {
    /// Those `generate --cover switches|switch-pairs` would write, computed in process.
    Cover(crate::sts::purposes::Criterion),
    /// Those of a purposes file.
    File(String),
}

impl Default for ExploreRequest {
    fn default() -> Self {
        ExploreRequest {
            load: LoadOptions::default(),
            implementation: None,
            sut: None,
            policy: Policy::Goal,
            purpose: None,
            reset_probability: 0.01,
            seed: 0,
            max_steps: 1000,
            until: None,
            time_limit: None,
            timeouts: Timeouts::default(),
            out: None,
            html: None,
            quiet: false,
            sts_purposes: None,
            attempts: 5,
            rounds: 1,
        }
    }
}

/// `p` when it is a probability, else a usage error naming the option.
fn probability(name: &str, p: f64) -> Result<f64, Error> {
    if (0.0..=1.0).contains(&p) {
        Ok(p)
    } else {
        Err(Error::Usage(format!(
            "{name} must be between 0 and 1, got {p}"
        )))
    }
}

impl ExploreRequest {
    /// The exploration's options, its probabilities and time limit checked.
    pub fn options(&self) -> Result<ExploreOptions, Error> {
        let time_limit = match self.time_limit {
            Some(t) => Some(std::time::Duration::try_from_secs_f64(t).map_err(|_| {
                Error::Usage(format!(
                    "--time-limit must be a non-negative number of seconds that fits a \
                     duration (at most about 1.8e19), got {t:?}"
                ))
            })?),
            None => None,
        };
        let policy = match self.policy {
            Policy::InputBias { input } => Policy::InputBias {
                input: probability("--input-bias", input)?,
            },
            policy => policy,
        };
        Ok(ExploreOptions {
            policy,
            seed: self.seed,
            reset_probability: probability("--reset-probability", self.reset_probability)?,
            max_steps: self.max_steps,
            target: self.until,
            time_limit,
            timeouts: self.timeouts.clone(),
            goals: Vec::new(),
        })
    }
}
