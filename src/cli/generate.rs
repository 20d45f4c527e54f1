//! The arguments of `generate`, `sizes` and `audit`'s methods: the suite generation methods, the
//! suite file formats, the ioco options and the budget, and their conversions to
//! [`ncomplete::pipeline::GenerateOptions`] and its parts.

use super::execute::PurposeArgs;
use super::shared::{CompleteArg, ModelArgs, parse_shard};
use clap::Args;
use ncomplete::format::{Format, LoadOptions};
use ncomplete::suite::ioco::IncompatibleSets;
use ncomplete::suite::names::Shard;

/// Suite generation methods: the Mealy methods (for Mealy machines) and the ioco methods (for any
/// model, through its suspension automaton).
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum GenerateMethod {
    /// Chow's W method: one characterisation set after every prefix.
    W,
    /// Wp: characterisation set, then identification sets.
    Wp,
    /// HSI with pairwise shortest separating sequences.
    Hsi,
    /// HSI with adaptive harmonised identifiers from the splitting tree.
    HsiSt,
    /// Hybrid adaptive distinguishing sequences with harmonised top-up.
    Hads,
    /// UIO sequences (not complete).
    Uio,
    /// UIOv: UIO sequences with the uniqueness check.
    Uiov,
    /// The H method: separating sequences chosen per pair of traces, reusing the test tree.
    H,
    /// The SPY method: identifiers after traces shown convergent, sharing tests.
    Spy,
    /// The SPYH method: SPY's convergent traces with separating sequences chosen per pair (as H).
    Spyh,
    /// The smallest suite among several identifier families and the H, SPY and SPYH methods.
    Auto,
    /// The distinguishing test suite T(S, n) for ioco (van den Bos Def. 2.37).
    IocoComplete,
    /// The unconditional ioco suite U(S, n) (van den Bos Def. 2.43).
    Unconditional,
    /// State cover, E+1 extension, distinguishing graphs and merge suites (ioco).
    IocoAds,
    /// State counting over sets of pairwise incompatible states with distinguishing graphs, no
    /// merges (ioco; the sets: `--incompatible-sets`).
    IocoCounting,
    /// ioco-counting with visits along the forced state cover not counted and each set's bound
    /// lowered by the states it pins (smaller, same guarantee).
    IocoCoverCounting,
    /// The cheapest complete ioco suite (least estimated time, then runs, then steps) among T,
    /// U, the ioco-counting variants and a complete ioco-ads, counted before any test is
    /// written; what `auto` means for a labelled transition system.
    IocoAuto,
}

impl From<GenerateMethod> for ncomplete::pipeline::Method {
    fn from(m: GenerateMethod) -> Self {
        use ncomplete::pipeline::Method as M;
        match m {
            GenerateMethod::W => M::W,
            GenerateMethod::Wp => M::Wp,
            GenerateMethod::Hsi => M::Hsi,
            GenerateMethod::HsiSt => M::HsiSt,
            GenerateMethod::Hads => M::Hads,
            GenerateMethod::Uio => M::Uio,
            GenerateMethod::Uiov => M::Uiov,
            GenerateMethod::H => M::H,
            GenerateMethod::Spy => M::Spy,
            GenerateMethod::Spyh => M::Spyh,
            GenerateMethod::Auto => M::Auto,
            GenerateMethod::IocoComplete => M::IocoComplete,
            GenerateMethod::Unconditional => M::Unconditional,
            GenerateMethod::IocoAds => M::IocoAds,
            GenerateMethod::IocoCounting => M::IocoCounting,
            GenerateMethod::IocoCoverCounting => M::IocoCoverCounting,
            GenerateMethod::IocoAuto => M::IocoAuto,
        }
    }
}

/// The pipeline methods of repeated `--method` options.
pub(super) fn methods(given: &[GenerateMethod]) -> Vec<ncomplete::pipeline::Method> {
    given.iter().map(|&m| m.into()).collect()
}

/// Suite file formats.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SuiteFileFormat {
    /// One test per line, inputs separated by spaces (Mealy suites).
    Words,
    /// Suite JSON version 1.
    Json,
    /// TTCN-3 and a Titan test port: `--out DIR` gets `suite.json` and the rendering.
    Ttcn,
    /// A pytest module and its runtime: `--out DIR` gets `suite.json` and the rendering.
    Python,
    /// A standalone Cargo package: `--out DIR` gets `suite.json` and the rendering.
    Rust,
}

impl From<SuiteFileFormat> for ncomplete::pipeline::SuiteFileFormat {
    fn from(f: SuiteFileFormat) -> Self {
        use ncomplete::pipeline::SuiteFileFormat as F;
        match f {
            SuiteFileFormat::Words => F::Words,
            SuiteFileFormat::Json => F::Json,
            SuiteFileFormat::Ttcn => F::Ttcn,
            SuiteFileFormat::Python => F::Python,
            SuiteFileFormat::Rust => F::Rust,
        }
    }
}

/// Coverage criteria of `generate --cover`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum CoverArg {
    /// Every reachable state.
    States,
    /// Every transition of a reachable state (quiescence included).
    Transitions,
    /// Every pair of consecutive transitions; for a symbolic transition system, every switch
    /// (switch-coverage test purposes by symbolic execution, feature `smt`).
    Switches,
    /// For a symbolic transition system: every switch, every feasible pair of consecutive
    /// switches, and every switch at the bounds of the integer variables its guard reads
    /// (feature `smt`; the STS needs finite gate domains).
    SwitchPairs,
}

#[derive(Args)]
pub struct GenerateArgs {
    /// The model file.
    pub model: String,
    /// Model format (default: from the file extension; for `-`, standard input, told from the
    /// text); `--format` names the suite format.
    #[arg(long, value_name = "aut|dot|yaml|json|fsm")]
    pub model_format: Option<Format>,
    /// Unmarked labels that are inputs (comma-separated).
    #[arg(long, value_delimiter = ',', value_name = "LABELS")]
    pub inputs: Vec<String>,
    /// Unmarked labels that are outputs (comma-separated).
    #[arg(long, value_delimiter = ',', value_name = "LABELS")]
    pub outputs: Vec<String>,
    /// Initial state by name (overrides the file).
    #[arg(long, value_name = "STATE")]
    pub initial: Option<String>,
    /// Complete a partial Mealy machine first: missing inputs loop (`self-loop`) or go to a new
    /// sink (`sink`), with output `undefined`.
    #[arg(long, value_enum, value_name = "self-loop|sink")]
    pub complete: Option<CompleteArg>,
    /// The method (`auto`: ioco-auto for a labelled transition system, the smallest Mealy suite
    /// for a Mealy machine).
    #[arg(long, value_enum, default_value = "auto")]
    pub method: GenerateMethod,
    /// Complete for implementations with at most N (specified) states (ioco methods).
    #[arg(long, value_name = "N", conflicts_with = "extra_states")]
    pub n: Option<usize>,
    /// Extra states the implementation may have beyond the (minimised) model; default 0.
    #[arg(long, value_name = "E")]
    pub extra_states: Option<usize>,
    #[command(flatten)]
    pub budget: BudgetArgs,
    #[command(flatten)]
    pub ioco: IocoArgs,
    /// The sets of pairwise incompatible states that bound the traces of ioco-counting.
    #[arg(long, value_name = "maximal|largest|none", default_value = "maximal")]
    pub incompatible_sets: IncompatibleSets,
    /// Output format.
    #[arg(long, value_enum, default_value = "json")]
    pub format: SuiteFileFormat,
    /// Output file (`-`: standard output); a directory for `--format ttcn|python|rust`.
    #[arg(long, value_name = "FILE", default_value = "-")]
    pub out: String,
    /// Directory of templates overriding the built-in ones (`--format ttcn|python|rust`).
    #[arg(long, value_name = "DIR")]
    pub templates: Option<std::path::PathBuf>,
    /// Replace an output directory that holds a rendering in another format.
    #[arg(long)]
    pub force: bool,
    /// Write only shard K of N (1-based): the suite split deterministically into N parts of
    /// near-equal cost (steps), for CI matrices; the parts partition the suite.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub shard: Option<Shard>,
    /// Keep tests that are prefixes of other tests.
    #[arg(long)]
    pub keep_prefixes: bool,
    #[command(flatten)]
    pub goal: PurposeArgs,
    /// Instead of a complete suite, one goal-directed test per reachable state, transition, or
    /// pair of consecutive transitions (switch) of the suspension automaton.
    #[arg(
        long,
        value_enum,
        value_name = "states|transitions|switches|switch-pairs",
        conflicts_with_all = ["purpose", "purpose_regex"]
    )]
    pub cover: Option<CoverArg>,
    /// Goal-directed tests: how many steps that do not help a test tolerates before `retry`,
    /// playing on from wherever the system went while the goal is still reachable.
    #[arg(long, value_name = "K", default_value_t = 2)]
    pub patience: u32,
    /// Print the suite's figures on stderr: for Mealy suites tests, total input symbols, the
    /// longest test and the time; for ioco suites tests, runs, steps, nodes, longest test and
    /// bytes (and for ioco-auto the table of candidates and the one chosen).
    #[arg(long)]
    pub stats: bool,
}

impl GenerateArgs {
    /// The goals asked for, if any (then no complete suite is generated).
    fn goal_source(&self) -> Option<ncomplete::goals::cases::GoalSource> {
        use ncomplete::goals::{Coverage, cases::GoalSource};
        if let Some(source) = self.goal.goal_source() {
            return Some(source);
        }
        self.cover.map(|c| match c {
            CoverArg::States => GoalSource::Cover(Coverage::States),
            CoverArg::Transitions => GoalSource::Cover(Coverage::Transitions),
            CoverArg::Switches => GoalSource::Cover(Coverage::Switches),
            CoverArg::SwitchPairs => GoalSource::StsSwitchPairs,
        })
    }

    pub fn to_options(&self, quiet: bool) -> ncomplete::pipeline::GenerateOptions {
        ncomplete::pipeline::GenerateOptions {
            load: LoadOptions {
                format: self.model_format,
                inputs: self.inputs.clone(),
                outputs: self.outputs.clone(),
                initial: self.initial.clone(),
            },
            method: self.method.into(),
            n: self.n,
            extra_states: self.extra_states,
            budget: self.budget.budget(),
            ioco: self.ioco.options(self.incompatible_sets),
            format: self.format.into(),
            out: self.out.clone(),
            templates: self.templates.clone(),
            force: self.force,
            shard: self.shard,
            keep_prefixes: self.keep_prefixes,
            complete: self.complete.map(CompleteArg::completion),
            goals: self.goal_source(),
            patience: self.patience,
            stats: self.stats,
            quiet,
        }
    }
}

#[derive(Args)]
pub struct SizesArgs {
    /// The model file.
    pub model: String,
    #[command(flatten)]
    pub model_args: ModelArgs,
    /// Generation methods (ioco methods, repeatable; default: ioco-complete, unconditional,
    /// ioco-counting, ioco-ads and ioco-auto).
    #[arg(long, value_enum)]
    pub method: Vec<GenerateMethod>,
    /// Bounds to audit: `4`, `1..6` (inclusive).
    #[arg(long, value_name = "RANGE", default_value = "1..6")]
    pub n: String,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub budget: BudgetArgs,
    #[command(flatten)]
    pub ioco: IocoArgs,
    /// The sets of pairwise incompatible states that bound the traces of ioco-counting.
    #[arg(long, value_name = "maximal|largest|none", default_value = "maximal")]
    pub incompatible_sets: IncompatibleSets,
}

/// How an ioco suite is built: the quiescence domain and the minimisation of the model.
#[derive(Args)]
pub struct IocoArgs {
    /// The implementations an ioco suite is complete for: `classic`, LTSs observed through a
    /// timeout (quiescence is stable: no test waits for an output right after quiescence), or
    /// `general`, any input-enabled suspension automaton (van den Bos Ch. 2).
    #[arg(long, value_name = "classic|general", default_value = "classic")]
    pub domain: ncomplete::suite::ioco::Domain,
    /// Build ioco suites for the suspension automaton as given: without this, it is minimised
    /// first (≈, van den Bos Def. 2.13) and n and --extra-states count the minimised states.
    #[arg(long)]
    pub no_minimize: bool,
}

impl IocoArgs {
    pub fn options(&self, sets: IncompatibleSets) -> ncomplete::pipeline::IocoOptions {
        ncomplete::pipeline::IocoOptions {
            domain: self.domain,
            minimize: !self.no_minimize,
            incompatible_sets: sets,
        }
    }
}

impl SizesArgs {
    pub fn to_request(&self, quiet: bool) -> ncomplete::pipeline::SizesRequest {
        ncomplete::pipeline::SizesRequest {
            load: self.model_args.options(quiet),
            methods: methods(&self.method),
            n: self.n.clone(),
            budget: self.budget.budget(),
            ioco: self.ioco.options(self.incompatible_sets),
            quiet,
        }
    }
}

/// Limits on a suite's cost, checked from its counted figures before anything is written.
#[derive(Args)]
pub struct BudgetArgs {
    /// Refuse suites with more test cases than this.
    #[arg(long, value_name = "N", default_value_t = ncomplete::suite::costs::DEFAULT_MAX_TESTS)]
    pub max_tests: u128,
    /// Refuse suites with more runs (root-to-verdict paths over all tests) than this.
    #[arg(long, value_name = "N", default_value_t = ncomplete::suite::costs::DEFAULT_MAX_RUNS)]
    pub max_runs: u128,
    /// Refuse suites with more total steps (labels over all runs) than this.
    #[arg(long, value_name = "N", default_value_t = ncomplete::suite::costs::DEFAULT_MAX_STEPS)]
    pub max_steps: u128,
    /// Refuse suites with more send/expect nodes (over all tests) than this.
    #[arg(long, value_name = "N", default_value_t = ncomplete::suite::costs::DEFAULT_MAX_NODES)]
    pub max_nodes: u128,
    /// Refuse suites whose file (suite JSON, or words with --format words) would have more
    /// bytes than this.
    #[arg(long, value_name = "N", default_value_t = ncomplete::suite::costs::DEFAULT_MAX_BYTES)]
    pub max_bytes: u128,
    /// Refuse suites whose estimated time to run every path once (runs × --run-ms, waits ×
    /// --quiescence-ms, steps × --step-ms) is more seconds than this (default one hour).
    #[arg(long, value_name = "S", default_value_t = ncomplete::suite::costs::DEFAULT_MAX_SECONDS)]
    pub max_seconds: u128,
    /// The quiescence timeout the time is estimated at, per wait (the runners' default).
    #[arg(long, value_name = "MS", default_value_t = ncomplete::exec::stdio::DEFAULT_QUIESCENCE_MS)]
    pub quiescence_ms: u64,
    /// The latency per step the time is estimated at.
    #[arg(long, value_name = "MS", default_value_t = ncomplete::suite::costs::DEFAULT_STEP_MS)]
    pub step_ms: u64,
    /// The start-up and reset cost per run the time is estimated at.
    #[arg(long, value_name = "MS", default_value_t = ncomplete::suite::costs::DEFAULT_RUN_MS)]
    pub run_ms: u64,
}

impl BudgetArgs {
    pub fn budget(&self) -> ncomplete::suite::costs::Budget {
        ncomplete::suite::costs::Budget {
            max_tests: self.max_tests,
            max_runs: self.max_runs,
            max_steps: self.max_steps,
            max_nodes: self.max_nodes,
            max_bytes: self.max_bytes,
            max_seconds: self.max_seconds,
            timing: ncomplete::suite::costs::Timing {
                run_ms: self.run_ms,
                quiescence_ms: self.quiescence_ms,
                step_ms: self.step_ms,
            },
            ..Default::default()
        }
    }
}
