//! The command line's arguments: one clap derive struct per subcommand, and their conversions
//! to the option structs of [`ncomplete::pipeline`]. No pipeline logic lives here; `src/main.rs`
//! holds one small function per subcommand that calls one pipeline function.

use super::*;
#[derive(Parser)]
#[command(name = "ncomplete", version, about)]
pub struct Cli {
    /// Print no warnings or progress on stderr.
    #[arg(long, global = true)]
    pub quiet: bool,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Show the figures of a model: size, determinism, input-enabledness, quiescence, depth.
    Info(InfoArgs),
    /// Convert a model to another format.
    Convert(ConvertArgs),
    /// Draw a model as SVG (laid out by ncomplete) or Graphviz DOT, optionally coloured with the
    /// coverage of a run's JSON results (`run --spec MODEL --json FILE`).
    Draw(DrawArgs),
    /// Decide whether an implementation model conforms to a specification model: ioco (or uioco),
    /// Mealy equivalence, or conf(D,F) for desired and forbidden behaviour. Exit status 0 conforms,
    /// 1 does not (with a shortest counterexample), 2 bad input.
    Check(CheckArgs),
    /// Write seeded mutants of a model (output, transfer, added/removed output and cloned-state
    /// faults within a state bound), each with its exact verdict, plus index.json.
    Mutate(MutateArgs),
    /// Render a suite as TTCN-3 (with a Titan test port), a pytest module or a Cargo package.
    Render(RenderArgs),
    /// Act as a system under test made from a model: inputs on stdin, outputs on stdout.
    Simulate(SimulateArgs),
    /// Run a suite against a model (exactly, in simulation) or a real system (a process `--sut`,
    /// or over TCP `--sut-connect`/`--sut-listen`). Exit status 0 every test passed, 1 a test
    /// failed, 2 bad input or a system that cannot be reached, 3 (real systems only) a test stayed
    /// inconclusive (after its retries, or reason `timing`: a fail resting on timing that a
    /// re-run with timeouts x4 or x16 did not repeat) and none failed.
    Run(RunArgs),
    /// On-the-fly testing (TorX): send inputs and observe outputs chosen step by step, tracking
    /// the specification; fail on the first non-conforming observation. Exit 1 on a failure, 3
    /// when a failure resting on timing was not repeated by its replays with timeouts x4 and x16
    /// (`inconclusive (timing)`).
    Explore(ExploreArgs),
    /// State identification metrics (van den Bos Table 3.2): compatibility, splitting graph,
    /// adaptive distinguishing graph and pairwise top-ups.
    Distinguish(DistinguishArgs),
    /// Generate a complete test suite from a model.
    Generate(GenerateArgs),
    /// Audit ioco suite costs over a range of bounds n, counted from the plans without building
    /// tests: tests, runs, steps, nodes, longest test, bytes, time (per method; ioco-auto shows its
    /// choice).
    Sizes(SizesArgs),
    /// Audit suite strength: per method and bound, suite size and mutation score on seeded
    /// mutants (conforming mutants wrongly failed must be zero; exit 1 otherwise).
    Audit(AuditArgs),
    /// Work with the JSON results of runs: `merge` combines the results of the shards of one
    /// suite (`generate --shard K/N`, run on separate machines) into the whole suite's.
    Results(ResultsArgs),
    /// Print a shell completion script: `ncomplete completions bash > /etc/bash_completion.d/ncomplete`.
    Completions(CompletionsArgs),
    /// Print the manual page (roff) of ncomplete, or write one page per command to `--out DIR`.
    Man(ManArgs),
}

#[derive(Args)]
pub struct ResultsArgs {
    #[command(subcommand)]
    pub action: ResultsAction,
}

#[derive(Subcommand)]
pub enum ResultsAction {
    /// Merge the JSON results (`run --json`) of the shards of one suite into the results of the
    /// whole suite: every test once, summed counts, the worst verdict, the union of the
    /// coverage. Refuses results of different suites, a repeated or missing shard (exit 2).
    /// Exit status as `run --sut`: 0 every test passed, 1 a test failed, 3 inconclusive.
    Merge(MergeArgs),
}

#[derive(Args)]
pub struct MergeArgs {
    /// The results files, one per shard, in any order.
    #[arg(required = true, value_name = "RESULTS.json")]
    pub results: Vec<String>,
    /// The merged results file (`-` or absent: standard output).
    #[arg(long, value_name = "FILE")]
    pub out: Option<String>,
}

#[derive(Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(Args)]
pub struct ManArgs {
    /// Directory for `ncomplete.1` and `ncomplete-COMMAND.1` of every command (default: print
    /// `ncomplete.1` on standard output).
    #[arg(long, value_name = "DIR")]
    pub out: Option<std::path::PathBuf>,
}

#[derive(Args)]
pub struct AuditArgs {
    /// The model file.
    pub model: String,
    #[command(flatten)]
    pub model_args: ModelArgs,
    /// Mutants per bound (0: suite sizes only; `ncomplete sizes` adds peak memory for ioco).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub mutants: usize,
    /// Seed of the mutants.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Methods to audit (repeatable; default: w, wp, hsi, hads, uio for Mealy machines,
    /// ioco-ads and ioco-complete for labelled transition systems).
    #[arg(long, value_enum)]
    pub method: Vec<GenerateMethod>,
    /// Bounds n on implementation states: `4`, `1..6` (inclusive).
    #[arg(long, value_name = "RANGE", conflicts_with = "extra_states")]
    pub n: Option<String>,
    /// Bounds E on extra states: `0..2` (inclusive; the default).
    #[arg(long, value_name = "RANGE")]
    pub extra_states: Option<String>,
    /// Stop a method at the first bound whose suite has more tests than this.
    #[arg(long, value_name = "N", default_value_t = 200_000)]
    pub max_tests: u64,
    /// The sets of pairwise incompatible states that bound the traces of ioco-counting.
    #[arg(long, value_name = "maximal|largest|none", default_value = "maximal")]
    pub incompatible_sets: IncompatibleSets,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Leave out measured times, so the output is identical across runs and thread counts.
    #[arg(long)]
    pub no_time: bool,
    /// Draw suite size and mutation score against the bound as an SVG chart.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<String>,
}

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
fn methods(given: &[GenerateMethod]) -> Vec<ncomplete::pipeline::Method> {
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

#[derive(Args)]
pub struct RenderArgs {
    /// The suite (JSON v1).
    pub suite: String,
    /// Target format.
    #[arg(long, value_enum, value_name = "ttcn|rust|python")]
    pub format: ProgramFormat,
    /// Output directory (created if missing).
    #[arg(long, value_name = "DIR")]
    pub out: std::path::PathBuf,
    /// Directory of templates overriding the built-in ones (same relative paths as `templates/`).
    #[arg(long, value_name = "DIR")]
    pub templates: Option<std::path::PathBuf>,
    /// Render only shard K of N (1-based), split as `generate --shard` splits.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub shard: Option<Shard>,
    /// Replace an output directory that holds a rendering in another format.
    #[arg(long)]
    pub force: bool,
    /// Also write an on-the-fly tester that embeds this specification model (format from its
    /// extension) and explores a system at random: `explore_<model>.py` with `--format python`
    /// (a script and a pytest module), the binary `explore_<model>` with `--format rust`.
    #[arg(long, value_name = "MODEL")]
    pub explore_spec: Option<String>,
    /// The model the suite was generated from (format from its extension): its per-state and
    /// per-input timeouts (model annotations) go into the rendered tests.
    #[arg(long, value_name = "MODEL")]
    pub spec: Option<String>,
}

/// The program formats of `render --format`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum ProgramFormat {
    /// TTCN-3 modules and a Titan test port.
    Ttcn,
    /// A standalone Cargo package.
    Rust,
    /// A pytest module and its runtime.
    Python,
}

impl ProgramFormat {
    pub fn format(self) -> ncomplete::render::Format {
        match self {
            ProgramFormat::Ttcn => ncomplete::render::Format::Ttcn,
            ProgramFormat::Rust => ncomplete::render::Format::Rust,
            ProgramFormat::Python => ncomplete::render::Format::Python,
        }
    }
}

/// Parses `--shard K/N`.
pub fn parse_shard(s: &str) -> Result<Shard, String> {
    Shard::parse(s)
}

#[derive(Args)]
pub struct SimulateArgs {
    /// The model to simulate.
    pub model: String,
    #[command(flatten)]
    pub model_args: ModelArgs,
    /// How to pick among several allowed outputs.
    #[arg(long, value_enum, value_name = "first|random", default_value = "first")]
    pub choose: ChooseArg,
    /// Seed of `--choose random` (default: a fresh seed per process, so restarts differ).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Delay before each output, in milliseconds (an input arriving meanwhile goes first).
    #[arg(long, value_name = "MS", default_value_t = 0)]
    pub delay_ms: u64,
    /// Delay before the output LABEL instead, in milliseconds (a slow reply; repeatable).
    #[arg(long, value_name = "LABEL=MS", value_parser = parse_output_delay)]
    pub output_delay: Vec<(String, u64)>,
}

/// Parses `--output-delay LABEL=MS` (split at the last `=`).
fn parse_output_delay(s: &str) -> Result<(String, u64), String> {
    let (label, ms) = s
        .rsplit_once('=')
        .ok_or_else(|| format!("expected LABEL=MS, found `{s}`"))?;
    let ms = ms
        .parse::<u64>()
        .map_err(|_| format!("expected a number of milliseconds after `=`, found `{ms}`"))?;
    Ok((label.to_owned(), ms))
}

/// How `simulate` picks among several allowed outputs ([`ncomplete::exec::sut::Choice`]).
#[derive(Copy, Clone, Debug, ValueEnum)]
pub enum ChooseArg {
    /// Always the first in label order (quiescence last).
    First,
    /// Uniformly at random (from `--seed`, or the clock and process id).
    Random,
}

/// What `run --model` does with inputs the implementation model refuses
/// ([`ncomplete::exec::InputEnabling`]).
#[derive(Copy, Clone, Debug, ValueEnum)]
pub enum InputEnableArg {
    /// Report the first refused input as an error.
    Reject,
    /// Let the system ignore refused inputs (a self-loop).
    SelfLoop,
}

#[derive(Args)]
#[command(group = clap::ArgGroup::new("target").required(true)
    .args(["model", "sut", "sut_connect", "sut_listen"]))]
pub struct RunArgs {
    /// The suite (JSON v1, or a words file with `--spec`).
    pub suite: String,
    /// The specification the suite was generated from: a words suite's Mealy machine (gives
    /// the outputs its tests expect); for any suite, the model the `--html` report draws with
    /// the transitions the run covered, and whose per-state and per-input timeouts (model
    /// annotations) lengthen the waits of `--sut`; against a system it also fails a test whose
    /// execution the tree leaves at retry when the specification allows no order of its trace
    /// (an output read before an input still unread, whose race branch is retry).
    #[arg(long, value_name = "MODEL")]
    pub spec: Option<String>,
    /// A model of the implementation, executed exactly (every race and output choice).
    #[arg(long, value_name = "IMPL")]
    pub model: Option<String>,
    #[command(flatten)]
    pub model_args: ModelArgs,
    /// What to do with inputs the implementation model refuses.
    #[arg(
        long,
        value_enum,
        value_name = "reject|self-loop",
        default_value = "reject"
    )]
    pub input_enable: InputEnableArg,
    #[command(flatten)]
    pub system: SystemArgs,
    #[command(flatten)]
    pub timeouts: TimeoutArgs,
    /// Re-runs of a test that ended in retry (`--sut`).
    #[arg(long, value_name = "N", default_value_t = ncomplete::exec::stdio::DEFAULT_RETRIES)]
    pub retries: usize,
    /// Follow the system (`--sut`): an execution that ends in retry because the system took
    /// another allowed branch is continued by the next undecided test whose tree holds the
    /// observed trace, instead of resetting (same guarantee, far fewer inconclusive tests).
    #[arg(long)]
    pub follow: bool,
    /// Systems run at once (default: the number of cores for `--sut`, one session at a time
    /// for `--sut-connect` and `--sut-listen`, whose server must serve N sessions at once to
    /// take more). Verdicts and reports are the same, in the same order, as with `--jobs 1`;
    /// `--follow` runs one system, since following depends on the order tests are decided in.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
    /// Also write the results as JUnit XML (inconclusive tests are skipped ones).
    #[arg(long, value_name = "FILE")]
    pub junit: Option<String>,
    /// Also write the results as JSON (format `ncomplete-results-v1`).
    #[arg(long, value_name = "FILE")]
    pub json: Option<String>,
    /// Also write a self-contained HTML report: verdicts, failing traces as sequence diagrams,
    /// and with `--spec` the model drawn with covered and missed transitions.
    #[arg(long, value_name = "FILE")]
    pub html: Option<String>,
}

#[derive(Args)]
#[command(group = clap::ArgGroup::new("target").required(true)
    .args(["impl_model", "sut", "sut_connect", "sut_listen"]))]
pub struct ExploreArgs {
    /// The specification model.
    pub model: String,
    #[command(flatten)]
    pub model_args: ModelArgs,
    #[command(flatten)]
    pub system: SystemArgs,
    /// A model of the implementation, run in process (its output choices seeded by --seed).
    #[arg(long = "model", value_name = "IMPL")]
    pub impl_model: Option<String>,
    /// How to choose moves.
    #[arg(
        long,
        value_enum,
        value_name = "random|bias|goal|strategy",
        default_value = "goal"
    )]
    pub policy: PolicyArg,
    // With `--policy strategy`: the goal steered to first.
    #[command(flatten)]
    pub goal: PurposeArgs,
    /// Probability of sending an input rather than waiting for an output (`--policy bias`).
    #[arg(long, value_name = "P", default_value_t = 0.5)]
    pub input_bias: f64,
    /// Probability of ending the run and resetting the system before a move.
    #[arg(long, value_name = "P", default_value_t = 0.01)]
    pub reset_probability: f64,
    /// Seed of the tester's choices: the same seed and system give the same run.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Stop after this many steps (inputs sent and observations made).
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub max_steps: u64,
    /// Stop once every state or every transition of the specification has been covered.
    #[arg(long, value_enum, value_name = "states|transitions")]
    pub until: Option<UntilArg>,
    /// Stop after this many seconds.
    #[arg(long, value_name = "SECONDS")]
    pub time_limit: Option<f64>,
    #[command(flatten)]
    pub timeouts: TimeoutArgs,
    /// Write the verdict, trace and coverage as JSON to this file.
    #[arg(long, value_name = "FILE")]
    pub out: Option<String>,
    /// Also write a self-contained HTML report: the verdict, a failing trace as a sequence
    /// diagram, and the model drawn with covered and missed transitions; with --cover or
    /// --purposes, a row per purpose with its trace and data values, and the STS's switches
    /// with their a posteriori coverage.
    #[arg(long, value_name = "FILE")]
    pub html: Option<String>,
    /// With an STS model (`smt` feature): execute its test purposes of this criterion on the
    /// fly, input values chosen by the solver (seeded by --seed), outputs judged by the STS,
    /// without instantiating it; the report gives the criterion's a posteriori coverage.
    #[arg(
        long,
        value_enum,
        value_name = "switches|switch-pairs",
        conflicts_with = "sts_purposes"
    )]
    pub cover: Option<ExploreCoverArg>,
    /// With an STS model (`smt` feature): execute the test purposes of this file (what
    /// `generate MODEL --cover switches|switch-pairs` writes) on the fly, as --cover does.
    #[arg(long = "purposes", value_name = "FILE")]
    pub sts_purposes: Option<String>,
    /// With --cover or --purposes: attempts per purpose while the system leaves it in a way the
    /// STS allows (each attempt with fresh values).
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub attempts: usize,
    /// With --cover or --purposes: execute the whole set of purposes this many times (fresh
    /// values each time), stopping at the first failure.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub rounds: usize,
}

/// Coverage criteria of `explore --cover` (an STS's test purposes).
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum ExploreCoverArg {
    /// Every switch of the STS: its switch-coverage test purposes.
    Switches,
    /// Every switch, every feasible pair of consecutive switches, and every switch at the
    /// bounds of the integer variables its guard reads (finite gate domains needed).
    SwitchPairs,
}

/// How `explore` chooses its moves ([`ncomplete::exec::explore::Policy`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum PolicyArg {
    /// Uniformly among sending an enabled input and waiting for an output.
    Random,
    /// Send an input with Goga's probability `--input-bias`, else wait.
    Bias,
    /// Steer to the nearest uncovered transition of the specification by shortest paths.
    Goal,
    /// Play the attractor/joker strategy of the `--purpose` goal, then of one uncovered
    /// transition after another.
    Strategy,
}

/// When `explore` stops besides failures, steps and time
/// ([`ncomplete::exec::explore::CoverageTarget`]).
#[derive(Copy, Clone, Debug, ValueEnum)]
pub enum UntilArg {
    /// Every reachable state of the specification visited.
    States,
    /// Every transition of the specification's reachable part taken.
    Transitions,
}

/// A test purpose or a regular expression goal (`generate`, `explore --policy strategy`).
#[derive(Args)]
pub struct PurposeArgs {
    /// Steer to the accepting states of this test purpose (`.aut`/DOT/YAML over the model's
    /// labels; `ACCEPT`/`REFUSE` self-loops mark accept and refuse states, `*` is any other
    /// label): `generate` writes one such test instead of a complete suite, `explore --policy
    /// strategy` steers there first.
    #[arg(long, value_name = "FILE", conflicts_with = "purpose_regex")]
    pub purpose: Option<String>,
    /// Steer to a trace in the language of this regular expression over labels (the `check
    /// --desired` syntax): `generate` writes one such test instead of a complete suite,
    /// `explore --policy strategy` steers there first.
    #[arg(long, value_name = "REGEX")]
    pub purpose_regex: Option<String>,
}

impl PurposeArgs {
    /// The goal given, if any.
    pub fn goal_source(&self) -> Option<ncomplete::goals::cases::GoalSource> {
        use ncomplete::goals::cases::GoalSource;
        match (&self.purpose, &self.purpose_regex) {
            (Some(p), _) => Some(GoalSource::Purpose(p.clone())),
            (None, Some(r)) => Some(GoalSource::Regex(r.clone())),
            (None, None) => None,
        }
    }
}

/// How `run` and `explore` reach a real system: one of a command or a TCP address (the
/// command group of the subcommand makes them exclusive).
#[derive(Args)]
#[command(group = clap::ArgGroup::new("tcp").args(["sut_connect", "sut_listen"]))]
pub struct SystemArgs {
    /// A command starting the system under test (line protocol, one label per line on its
    /// stdin and stdout), started anew for every test.
    #[arg(long, value_name = "COMMAND")]
    pub sut: Option<String>,
    /// Connect to a system under test listening at HOST:PORT (the line protocol over TCP):
    /// every test connects anew (each connection a fresh system), unless --sut-reset-label is
    /// given.
    #[arg(long, value_name = "HOST:PORT")]
    pub sut_connect: Option<String>,
    /// Listen at HOST:PORT for the system under test to connect (the line protocol over TCP):
    /// every test waits, at most the start-up allowance, for a new connection, unless
    /// --sut-reset-label is given.
    #[arg(long, value_name = "HOST:PORT")]
    pub sut_listen: Option<String>,
    /// With --sut-connect or --sut-listen: reset the system by sending this line over the
    /// open connection instead of connecting anew (outputs not yet read are dropped; a
    /// connection that ended or broke the protocol is still replaced).
    #[arg(long, value_name = "LABEL", requires = "tcp")]
    pub sut_reset_label: Option<String>,
}

impl SystemArgs {
    /// The system named, if any (a reset label alone is refused by `access`).
    pub fn access(&self) -> Option<ncomplete::exec::tcp::SystemAccess> {
        use ncomplete::exec::tcp::SystemAccess;
        let reset_label = self.sut_reset_label.clone();
        match (&self.sut, &self.sut_connect, &self.sut_listen) {
            (Some(command), _, _) => Some(SystemAccess::Command(command.clone())),
            (_, Some(address), _) => Some(SystemAccess::Connect {
                address: address.clone(),
                reset_label,
            }),
            (_, _, Some(address)) => Some(SystemAccess::Listen {
                address: address.clone(),
                reset_label,
            }),
            (None, None, None) => None,
        }
    }
}

/// The timeouts of a system under test (`run --sut`, `explore --sut`).
#[derive(Args)]
pub struct TimeoutArgs {
    /// Start-up allowance of a real system, in milliseconds: added to every wait until the
    /// system's first output; over TCP also how long connecting is retried or a connection
    /// awaited.
    #[arg(long, value_name = "MS", default_value_t = ncomplete::exec::stdio::DEFAULT_STARTUP_MS)]
    pub startup_ms: u64,
    /// Quiescence timeout of `--sut`, in milliseconds: silence this long is quiescence, where the
    /// specification allows quiescence.
    #[arg(long, value_name = "MS", default_value_t = ncomplete::exec::stdio::DEFAULT_QUIESCENCE_MS)]
    pub quiescence_ms: u64,
    /// Response timeout of `--sut`, in milliseconds: how long to wait for an output that is
    /// required (every output of a Mealy suite).
    #[arg(long, value_name = "MS", default_value_t = ncomplete::exec::stdio::DEFAULT_RESPONSE_MS)]
    pub response_ms: u64,
    /// Outputs that a timer of the adapter writes (comma-separated), such as a `settled` label
    /// written after a silence the adapter measures: observing one is timing-dependent, like
    /// quiescence, so a fail after it is re-run with the timeouts x4 and x16. Every system
    /// process started gets the current factor as `NCOMPLETE_TIMING_SCALE`.
    #[arg(long, value_delimiter = ',', value_name = "LABELS")]
    pub timer_outputs: Vec<String>,
}

impl TimeoutArgs {
    pub fn timeouts(&self) -> ncomplete::exec::stdio::Timeouts {
        ncomplete::exec::stdio::Timeouts::from_millis(
            self.startup_ms,
            self.quiescence_ms,
            self.response_ms,
        )
        .with_timer_outputs(self.timer_outputs.clone())
    }
}

/// How to read a model file (shared by every command that reads one).
#[derive(Args, Clone, Debug, Default)]
pub struct ModelArgs {
    #[command(flatten)]
    pub read: ModelReadArgs,
    /// The former spelling of `--model-format` (deprecated; `--format` names suite formats).
    #[arg(long = "format", value_name = "aut|dot|yaml|json|fsm", hide = true)]
    pub deprecated_format: Option<Format>,
}

/// How to read a model file, without the deprecated `--format` (for commands whose `--format`
/// names what they write).
#[derive(Args, Clone, Debug, Default)]
pub struct ModelReadArgs {
    /// Model format (default: from the file extension; for `-`, standard input, told from the
    /// text).
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
}

impl ModelReadArgs {
    /// The load options.
    pub fn options(&self) -> LoadOptions {
        LoadOptions {
            format: self.model_format,
            inputs: self.inputs.clone(),
            outputs: self.outputs.clone(),
            initial: self.initial.clone(),
        }
    }
}

impl ModelArgs {
    /// The load options, warning once (unless `quiet`) that `--format` for the model format is
    /// deprecated.
    pub fn options(&self, quiet: bool) -> LoadOptions {
        if self.deprecated_format.is_some() && !quiet {
            static NOTE: std::sync::Once = std::sync::Once::new();
            NOTE.call_once(|| {
                eprintln!(
                    "warning: --format for the model format is deprecated; use --model-format \
                     (--format names suite formats)"
                );
            });
        }
        let mut options = self.read.options();
        options.format = options.format.or(self.deprecated_format);
        options
    }
}

#[derive(Args)]
pub struct InfoArgs {
    /// The model file.
    pub model: String,
    #[command(flatten)]
    pub model_args: ModelArgs,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct ConvertArgs {
    /// The model file.
    pub model: String,
    #[command(flatten)]
    pub model_args: ModelArgs,
    /// Target format.
    #[arg(long, value_name = "aut|dot|yaml|json|fsm")]
    pub to: Format,
    /// Output file (`-` or absent: standard output). The model's timeout annotations, which
    /// `.aut` and `.fsm` have no room for, go to the side file FILE.timeouts.
    #[arg(long, value_name = "FILE")]
    pub out: Option<String>,
    #[command(flatten)]
    pub transform: TransformArgs,
}

/// Model transformations applied by `convert` before writing.
#[derive(Args, Clone, Debug, Default)]
pub struct TransformArgs {
    /// Write the suspension automaton (quiescence made explicit as `delta`, determinised).
    #[arg(long)]
    pub suspension: bool,
    /// How τ-cycles are read when building the suspension automaton of an LTS.
    #[arg(long, value_enum, value_name = "fair|quiescent-copy")]
    pub divergence: Option<DivergenceArg>,
    /// Minimise the suspension automaton up to ioco-equivalence (implies --suspension for an LTS).
    #[arg(long)]
    pub minimize: bool,
    /// Complete a partial Mealy machine: missing inputs loop, or go to a sink, with output `undefined`.
    #[arg(long, value_enum, value_name = "self-loop|sink")]
    pub complete: Option<CompleteArg>,
    /// Largest number of subsets the suspension-automaton construction may build.
    #[arg(long, value_name = "N", default_value_t = ncomplete::model::DEFAULT_MAX_SUBSETS)]
    pub max_subsets: usize,
}

#[derive(Copy, Clone, Debug, ValueEnum)]
pub enum DivergenceArg {
    /// Divergent states are not quiescent (a τ-cycle is eventually left).
    Fair,
    /// Divergent states get δ to a copy that keeps only the inputs (TorX thesis Sec. 4.1).
    QuiescentCopy,
}

#[derive(Copy, Clone, Debug, ValueEnum)]
pub enum CompleteArg {
    /// A missing input loops on its state with output `undefined`.
    SelfLoop,
    /// A missing input goes with output `undefined` to a new absorbing state `sink`.
    Sink,
}

impl CompleteArg {
    pub fn completion(self) -> ncomplete::model::Completion {
        match self {
            CompleteArg::SelfLoop => ncomplete::model::Completion::SelfLoop,
            CompleteArg::Sink => ncomplete::model::Completion::Sink,
        }
    }
}

impl TransformArgs {
    pub fn options(&self) -> ncomplete::model::TransformOptions {
        use ncomplete::model::{Divergence, TransformOptions};
        TransformOptions {
            complete: self.complete.map(CompleteArg::completion),
            suspension: self.suspension,
            divergence: self.divergence.map(|d| match d {
                DivergenceArg::Fair => Divergence::Fair,
                DivergenceArg::QuiescentCopy => Divergence::QuiescentCopy,
            }),
            minimize: self.minimize,
            max_subsets: self.max_subsets,
        }
    }
}

#[derive(Args)]
pub struct DrawArgs {
    /// The model file (any format ncomplete reads).
    pub model: String,
    #[command(flatten)]
    pub model_args: ModelReadArgs,
    /// What to write: an SVG picture, or a DOT digraph for Graphviz.
    #[arg(long, value_enum, default_value_t = DrawFormatArg::Svg)]
    pub format: DrawFormatArg,
    /// Colour states and transitions with the coverage in these JSON results of `ncomplete run
    /// --spec MODEL --json FILE` (an LTS is then drawn as its suspension automaton).
    #[arg(long, value_name = "RESULTS.json")]
    pub coverage: Option<String>,
    /// Output file (`-` or absent: standard output).
    #[arg(long, value_name = "FILE")]
    pub out: Option<String>,
}

#[derive(Copy, Clone, ValueEnum)]
pub enum DrawFormatArg {
    Svg,
    Dot,
}

impl DrawArgs {
    pub fn to_request(&self, quiet: bool) -> ncomplete::pipeline::DrawRequest {
        ncomplete::pipeline::DrawRequest {
            load: self.model_args.options(),
            format: match self.format {
                DrawFormatArg::Svg => ncomplete::pipeline::DrawFormat::Svg,
                DrawFormatArg::Dot => ncomplete::pipeline::DrawFormat::Dot,
            },
            coverage: self.coverage.clone(),
            quiet,
        }
    }
}

impl ConvertArgs {
    pub fn to_request(&self, quiet: bool) -> ncomplete::pipeline::ConvertRequest {
        ncomplete::pipeline::ConvertRequest {
            load: self.model_args.options(quiet),
            to: self.to,
            out: self.out.clone(),
            transform: self.transform.options(),
            quiet,
        }
    }
}

#[derive(Args)]
pub struct DistinguishArgs {
    /// The model file (an LTS is determinised to its suspension automaton, a Mealy machine
    /// embedded as one).
    pub model: String,
    #[command(flatten)]
    pub model_args: ModelArgs,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Write the splitting graph and the ADG as DOT to FILE.
    #[arg(long, value_name = "FILE")]
    pub dot: Option<String>,
    /// Also draw every top-up graph in the DOT file (there can be millions).
    #[arg(long, requires = "dot")]
    pub dot_topups: bool,
    /// Write the ADG and the top-ups as suite JSON v1 to FILE.
    #[arg(long, value_name = "FILE")]
    pub suite: Option<String>,
    /// Move preferred by the pairwise top-up graphs when both an input and waiting distinguish.
    #[arg(long, value_name = "outputs|inputs", default_value = "outputs")]
    pub prefer: PreferArg,
    /// Largest number of splitting-graph nodes before giving up.
    #[arg(long, value_name = "N", default_value_t = ncomplete::identify::splitting_graph::DEFAULT_SPLIT_BUDGET)]
    pub max_nodes: usize,
    /// Where a split on input `a` puts the states that do not enable `a`: a child of their own,
    /// or every child (line 17 of van den Bos' Algorithm 4; can make the graph much larger).
    #[arg(long, value_name = "separate|copy", default_value = "separate")]
    pub input_splits: InputSplitArg,
    /// How a leaf's split is chosen: the injective one keeping the fewest pairs of states
    /// together, else the one whose witness loses the fewest incompatible pairs (fewest-lost);
    /// the same, counting also what the children's least lossy splits lose two levels down
    /// (lost-ahead); fewest pairs together only (fewest-pairs); the thesis' order (the output
    /// split, then inputs by name; the first injective one: outputs-first); or (searched) of the
    /// graphs of fewest-lost, lost-ahead with one and two levels and fewest-pairs, the one whose
    /// ADG leaves the fewest pairs undistinguished.
    #[arg(
        long,
        value_name = "searched|fewest-lost|lost-ahead|fewest-pairs|outputs-first",
        default_value = "searched"
    )]
    pub split_policy: SplitPolicyArg,
    /// With `--split-policy searched`: rounds of re-splitting the lossiest nodes of the best
    /// graph with other splits (up to 12 more graphs per round), keeping a rebuilt graph whose
    /// ADG leaves fewer pairs undistinguished.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub resplit: usize,
    /// Most unordered state pairs the compatibility relation may store (4 bytes each).
    #[arg(long, value_name = "N", default_value_t = ncomplete::analysis::DEFAULT_PAIR_BUDGET)]
    pub max_pairs: usize,
    /// An input of a Mealy machine to hide as an internal step (repeat for several; input names
    /// may contain commas): its outputs then happen spontaneously. Hiding one input of a complete
    /// machine keeps the suspension automaton output-deterministic (every state offers the same
    /// internal step); hiding several, or hiding in a partial machine, makes it
    /// output-nondeterministic.
    #[arg(long, value_name = "INPUT")]
    pub hide: Vec<String>,
    /// Merge input B of a Mealy machine into input A (repeat for several): the tester can no
    /// longer choose between them, so the outputs after A become nondeterministic (as the
    /// thesis' benchmarks dropped data parameters from labels).
    #[arg(long, value_name = "A=B")]
    pub merge_inputs: Vec<String>,
    /// Merge output B of a Mealy machine into output A (repeat for several).
    #[arg(long, value_name = "A=B")]
    pub merge_outputs: Vec<String>,
    /// Analyse the automaton as given instead of its minimal form (Def. 2.9); the figures of the
    /// automaton as given are reported either way.
    #[arg(long)]
    pub no_minimize: bool,
    /// Keep the ADG as Algorithm 5 builds it, without replacing sub-DAGs by optimal strategies
    /// of the exact game where those lose fewer pairs.
    #[arg(long)]
    pub no_repair: bool,
    /// Also report a lower bound on the pairs every ADG leaves undistinguished (exact games on
    /// triples of behaviour classes, and a game over all classes where they are at most 128;
    /// can take much longer than the rest on large automata).
    #[arg(long)]
    pub bound: bool,
}

#[derive(Copy, Clone, Debug, clap::ValueEnum)]
pub enum SplitPolicyArg {
    Searched,
    FewestLost,
    LostAhead,
    FewestPairs,
    OutputsFirst,
}

#[derive(Copy, Clone, Debug, clap::ValueEnum)]
pub enum InputSplitArg {
    Separate,
    Copy,
}

#[derive(Copy, Clone, Debug, clap::ValueEnum)]
pub enum PreferArg {
    Outputs,
    Inputs,
}

#[derive(Args)]
pub struct CheckArgs {
    /// The specification model file.
    pub spec: String,
    /// The implementation model file.
    pub imp: String,
    #[command(flatten)]
    pub model_args: ModelArgs,
    /// Check uioco (TorX thesis Def. 2.2.17): only traces whose inputs every possible
    /// specification state accepts.
    #[arg(long)]
    pub uioco: bool,
    /// What an input the implementation refuses means: `reject` (an error naming the state and
    /// input, when the verdict depends on it), `self-loop` (the input is ignored, as JTorX
    /// completes models) or `cut` (behaviour after it is not observed, as EVEREST does).
    #[arg(long, value_name = "reject|self-loop|cut", default_value = "reject")]
    pub missing_inputs: ncomplete::check::MissingInputs,
    /// Two Mealy machines: quasi-equivalence (inputs the specification leaves undefined are
    /// don't-care) instead of equivalence.
    #[arg(long)]
    pub quasi: bool,
    /// Desired behaviour D of conf(D,F), a regular expression over labels (`a b`, `a;b`, `a|b`,
    /// `a*`, `a+`, `a?`, `.`, `()`, quoted labels).
    #[arg(long, value_name = "REGEX", group = "d")]
    pub desired: Option<String>,
    /// Desired behaviour D read from a file holding a regular expression.
    #[arg(long, value_name = "FILE", group = "d")]
    pub desired_file: Option<String>,
    /// Desired behaviour D: the traces of a model file.
    #[arg(long, value_name = "MODEL", group = "d")]
    pub desired_model: Option<String>,
    /// Forbidden behaviour F of conf(D,F), a regular expression over labels.
    #[arg(long, value_name = "REGEX", group = "f")]
    pub forbidden: Option<String>,
    /// Forbidden behaviour F read from a file holding a regular expression.
    #[arg(long, value_name = "FILE", group = "f")]
    pub forbidden_file: Option<String>,
    /// Forbidden behaviour F: the traces of a model file.
    #[arg(long, value_name = "MODEL", group = "f")]
    pub forbidden_model: Option<String>,
    /// Largest number of states built when determinising an LTS.
    #[arg(long, default_value_t = ncomplete::check::DEFAULT_BUDGET)]
    pub budget: usize,
    /// Decide ioco as a tester sees it through the input/output race (an output read after an
    /// input was sent may have been written before the system read it): exit status 1 only when
    /// some observation has no reading in the specification. A fault this hides passes every
    /// runner.
    #[arg(long)]
    pub race: bool,
}

impl CheckArgs {
    /// A language of conf(D,F) from its three options.
    fn language(
        text: &Option<String>,
        file: &Option<String>,
        model: &Option<String>,
        option: &str,
    ) -> Option<ncomplete::pipeline::LanguageInput> {
        use ncomplete::pipeline::LanguageInput;
        if let Some(t) = text {
            Some(LanguageInput::Regex {
                text: t.clone(),
                source: option.to_owned(),
            })
        } else if let Some(f) = file {
            Some(LanguageInput::RegexFile(f.clone()))
        } else {
            model.clone().map(LanguageInput::Model)
        }
    }

    pub fn to_request(&self, quiet: bool) -> ncomplete::pipeline::CheckModels {
        ncomplete::pipeline::CheckModels {
            load: self.model_args.options(quiet),
            uioco: self.uioco,
            missing_inputs: self.missing_inputs,
            quasi: self.quasi,
            desired: Self::language(
                &self.desired,
                &self.desired_file,
                &self.desired_model,
                "--desired",
            ),
            forbidden: Self::language(
                &self.forbidden,
                &self.forbidden_file,
                &self.forbidden_model,
                "--forbidden",
            ),
            budget: self.budget,
            race: self.race,
            quiet,
        }
    }
}

#[derive(Args)]
#[command(group = clap::ArgGroup::new("bound").required(true).args(["n", "extra_states"]))]
pub struct MutateArgs {
    /// The model file.
    pub model: String,
    #[command(flatten)]
    pub model_args: ModelArgs,
    /// Number of mutants.
    #[arg(long, default_value_t = 10)]
    pub count: usize,
    /// Mutants have at most N states.
    #[arg(long, value_name = "N")]
    pub n: Option<usize>,
    /// Mutants have at most E states more than the model.
    #[arg(long, value_name = "E")]
    pub extra_states: Option<usize>,
    /// Seed of the generator: the same seed gives the same mutants.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Directory for the mutant files and index.json.
    #[arg(long, value_name = "DIR")]
    pub out: String,
}

impl MutateArgs {
    pub fn to_request(&self, quiet: bool) -> ncomplete::pipeline::MutateRequest {
        ncomplete::pipeline::MutateRequest {
            load: self.model_args.options(quiet),
            count: self.count,
            n: self.n,
            extra_states: self.extra_states,
            seed: self.seed,
            out: self.out.clone(),
            quiet,
        }
    }
}

impl AuditArgs {
    pub fn to_request(&self, quiet: bool) -> ncomplete::pipeline::AuditRequest {
        ncomplete::pipeline::AuditRequest {
            load: self.model_args.options(quiet),
            methods: methods(&self.method),
            n: self.n.clone(),
            extra_states: self.extra_states.clone(),
            mutants: self.mutants,
            seed: self.seed,
            max_tests: self.max_tests,
            incompatible_sets: self.incompatible_sets,
            json: self.json,
            no_time: self.no_time,
            plot: self.plot.clone(),
            quiet,
        }
    }
}

impl RenderArgs {
    pub fn to_request(&self, quiet: bool) -> ncomplete::pipeline::RenderRequest {
        ncomplete::pipeline::RenderRequest {
            format: self.format.format(),
            out: self.out.clone(),
            templates: self.templates.clone(),
            shard: self.shard,
            force: self.force,
            explore_spec: self.explore_spec.clone(),
            spec: self.spec.clone(),
            quiet,
        }
    }
}

impl SimulateArgs {
    pub fn sut_options(&self) -> ncomplete::exec::sut::SutOptions {
        ncomplete::exec::sut::SutOptions {
            choice: match self.choose {
                ChooseArg::First => ncomplete::exec::sut::Choice::First,
                ChooseArg::Random => ncomplete::exec::sut::Choice::Random,
            },
            seed: self.seed,
            delay: std::time::Duration::from_millis(self.delay_ms),
            output_delays: self
                .output_delay
                .iter()
                .map(|(label, ms)| (label.clone(), std::time::Duration::from_millis(*ms)))
                .collect(),
        }
    }
}

impl RunArgs {
    pub fn to_request(&self, quiet: bool) -> ncomplete::pipeline::RunRequest {
        // The deprecated `--format` is warned about only when a model is read.
        let reads_model = self.spec.is_some() || self.model.is_some();
        ncomplete::pipeline::RunRequest {
            load: self.model_args.options(quiet || !reads_model),
            spec: self.spec.clone(),
            implementation: self.model.clone(),
            input_enabling: match self.input_enable {
                InputEnableArg::Reject => ncomplete::exec::InputEnabling::Reject,
                InputEnableArg::SelfLoop => ncomplete::exec::InputEnabling::SelfLoop,
            },
            sut: self.system.access(),
            timeouts: self.timeouts.timeouts(),
            retries: self.retries,
            follow: self.follow,
            jobs: self.jobs.map(usize::from),
            junit: self.junit.clone(),
            json: self.json.clone(),
            html: self.html.clone(),
            quiet,
        }
    }
}

impl ExploreArgs {
    pub fn to_request(&self, quiet: bool) -> ncomplete::pipeline::ExploreRequest {
        use ncomplete::exec::explore::{CoverageTarget, Policy};
        ncomplete::pipeline::ExploreRequest {
            load: self.model_args.options(quiet),
            implementation: self.impl_model.clone(),
            sut: self.system.access(),
            policy: match self.policy {
                PolicyArg::Random => Policy::Random,
                PolicyArg::Bias => Policy::InputBias {
                    input: self.input_bias,
                },
                PolicyArg::Goal => Policy::Goal,
                PolicyArg::Strategy => Policy::Strategy,
            },
            purpose: self.goal.goal_source(),
            reset_probability: self.reset_probability,
            seed: self.seed,
            max_steps: self.max_steps,
            until: self.until.map(|u| match u {
                UntilArg::States => CoverageTarget::States,
                UntilArg::Transitions => CoverageTarget::Transitions,
            }),
            time_limit: self.time_limit,
            timeouts: self.timeouts.timeouts(),
            out: self.out.clone(),
            html: self.html.clone(),
            quiet,
            sts_purposes: match (&self.cover, &self.sts_purposes) {
                (Some(cover), _) => Some(ncomplete::pipeline::StsPurposes::Cover(match cover {
                    ExploreCoverArg::Switches => ncomplete::sts::purposes::Criterion::SWITCHES,
                    ExploreCoverArg::SwitchPairs => {
                        ncomplete::sts::purposes::Criterion::SWITCH_PAIRS
                    }
                })),
                (None, Some(file)) => Some(ncomplete::pipeline::StsPurposes::File(file.clone())),
                (None, None) => None,
            },
            attempts: self.attempts,
            rounds: self.rounds,
        }
    }
}

impl DistinguishArgs {
    pub fn to_request(&self, quiet: bool) -> ncomplete::pipeline::DistinguishRequest {
        use ncomplete::identify::{
            DistinguishOptions, InputSplitRule, Preference, SplitOptions, SplitPolicy,
        };
        ncomplete::pipeline::DistinguishRequest {
            load: self.model_args.options(quiet),
            embedding: ncomplete::model::MealyEmbedding {
                hidden: self.hide.clone(),
                merged_inputs: self.merge_inputs.clone(),
                merged_outputs: self.merge_outputs.clone(),
            },
            options: DistinguishOptions {
                preference: match self.prefer {
                    PreferArg::Outputs => Preference::Outputs,
                    PreferArg::Inputs => Preference::Inputs,
                },
                split: SplitOptions {
                    node_budget: self.max_nodes,
                    input_rule: match self.input_splits {
                        InputSplitArg::Separate => InputSplitRule::SeparateChild,
                        InputSplitArg::Copy => InputSplitRule::CopyNonEnabling,
                    },
                    policy: match self.split_policy {
                        SplitPolicyArg::Searched => SplitPolicy::Searched,
                        SplitPolicyArg::FewestLost => SplitPolicy::FewestPairsLost,
                        SplitPolicyArg::LostAhead => SplitPolicy::LostAhead(2),
                        SplitPolicyArg::FewestPairs => SplitPolicy::FewestPairsTogether,
                        SplitPolicyArg::OutputsFirst => SplitPolicy::OutputsFirst,
                    },
                    resplit_rounds: self.resplit,
                    ..SplitOptions::default()
                },
                max_pairs: self.max_pairs,
                minimize: !self.no_minimize,
                repair: !self.no_repair,
                bound: self.bound,
            },
            dot: self.dot.clone(),
            dot_topups: self.dot_topups,
            suite: self.suite.clone(),
            quiet,
        }
    }
}
