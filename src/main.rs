//! The `ncomplete` command line: parses arguments (clap derive) and calls the library.
//!
//! Exit status: 0 success, 1 a check or suite failed, 2 bad input or usage (clap's usage errors
//! exit with 2 too).

use clap::{Args, Parser, Subcommand, ValueEnum};
use ncomplete::Error;
use ncomplete::format::{self, Format, LoadOptions};
use ncomplete::model::Model;
use ncomplete::output::{self, AtomicDir};
use ncomplete::suite::ioco::IncompatibleSets;
use ncomplete::suite::names::Shard;
use std::process::ExitCode;

/// n-complete test suites (ioco and Mealy) from behavioural models.
#[derive(Parser)]
#[command(name = "ncomplete", version, about)]
struct Cli {
    /// Print no warnings or progress on stderr.
    #[arg(long, global = true)]
    quiet: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Show the figures of a model: size, determinism, input-enabledness, quiescence, depth.
    Info(InfoArgs),
    /// Convert a model to another format.
    Convert(ConvertArgs),
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
    /// Run a suite against a model (exactly, in simulation) or a process (`--sut`).
    Run(RunArgs),
    /// On-the-fly testing (TorX): send inputs and observe outputs chosen step by step, tracking
    /// the specification; fail on the first non-conforming observation. Exit 1 on a failure.
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
    /// Print a shell completion script: `ncomplete completions bash > /etc/bash_completion.d/ncomplete`.
    Completions(CompletionsArgs),
    /// Print the manual page (roff) of ncomplete, or write one page per command to `--out DIR`.
    Man(ManArgs),
}

#[derive(Args)]
struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

#[derive(Args)]
struct ManArgs {
    /// Directory for `ncomplete.1` and `ncomplete-COMMAND.1` of every command (default: print
    /// `ncomplete.1` on standard output).
    #[arg(long, value_name = "DIR")]
    out: Option<std::path::PathBuf>,
}

#[derive(Args)]
struct AuditArgs {
    /// The model file.
    model: String,
    #[command(flatten)]
    model_args: ModelArgs,
    /// Mutants per bound (0: suite sizes only; `ncomplete sizes` adds peak memory for ioco).
    #[arg(long, value_name = "N", default_value_t = 0)]
    mutants: usize,
    /// Seed of the mutants.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Methods to audit (repeatable; default: w, wp, hsi, hads, uio for Mealy machines,
    /// ioco-ads and ioco-complete for labelled transition systems).
    #[arg(long, value_enum)]
    method: Vec<GenerateMethod>,
    /// Bounds n on implementation states: `4`, `1..6` (inclusive).
    #[arg(long, value_name = "RANGE", conflicts_with = "extra_states")]
    n: Option<String>,
    /// Bounds E on extra states: `0..2` (inclusive; the default).
    #[arg(long, value_name = "RANGE")]
    extra_states: Option<String>,
    /// Stop a method at the first bound whose suite has more tests than this.
    #[arg(long, value_name = "N", default_value_t = 200_000)]
    max_tests: u64,
    /// The sets of pairwise incompatible states that bound the traces of ioco-counting.
    #[arg(long, value_name = "maximal|largest|none", default_value = "maximal")]
    incompatible_sets: IncompatibleSets,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
    /// Leave out measured times, so the output is identical across runs and thread counts.
    #[arg(long)]
    no_time: bool,
    /// Draw suite size and mutation score against the bound as an SVG chart.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<String>,
}

/// Suite generation methods: the Mealy methods (for Mealy machines) and the ioco methods (for any
/// model, through its suspension automaton).
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
enum GenerateMethod {
    /// Chow's W method: one characterisation set after every prefix.
    W,
    /// Wp: characterisation set, then identification sets.
    Wp,
    /// HSI with pairwise shortest separating sequences.
    Hsi,
    /// HSI with harmonised identifiers from a greedy splitting tree.
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

impl GenerateMethod {
    /// The Mealy method, if this is one.
    fn mealy(self) -> Option<ncomplete::suite::mealy::MealyMethod> {
        use ncomplete::suite::mealy::MealyMethod as M;
        Some(match self {
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
            _ => return None,
        })
    }

    /// The ioco method, if this is one (`sets`: the family of `ioco-counting`).
    fn ioco(self, sets: IncompatibleSets) -> Option<ncomplete::suite::ioco::IocoMethod> {
        use ncomplete::suite::ioco::IocoMethod;
        Some(match self {
            GenerateMethod::IocoComplete => IocoMethod::Complete,
            GenerateMethod::Unconditional => IocoMethod::Unconditional,
            GenerateMethod::IocoAds => IocoMethod::Ads,
            GenerateMethod::IocoCounting => IocoMethod::Counting(sets),
            GenerateMethod::IocoCoverCounting => IocoMethod::CoverCounting(sets),
            GenerateMethod::IocoAuto => IocoMethod::Auto,
            _ => return None,
        })
    }
}

/// Suite file formats.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
enum SuiteFileFormat {
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

impl SuiteFileFormat {
    /// The program format this suite is rendered in after generation, if any.
    fn rendering(self) -> Option<ncomplete::render::Format> {
        use ncomplete::render::Format as F;
        match self {
            SuiteFileFormat::Words | SuiteFileFormat::Json => None,
            SuiteFileFormat::Ttcn => Some(F::Ttcn),
            SuiteFileFormat::Python => Some(F::Python),
            SuiteFileFormat::Rust => Some(F::Rust),
        }
    }
}

/// Coverage criteria of `generate --cover`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
enum CoverArg {
    /// Every reachable state.
    States,
    /// Every transition of a reachable state (quiescence included).
    Transitions,
    /// Every pair of consecutive transitions.
    Switches,
}

#[derive(Args)]
struct GenerateArgs {
    /// The model file.
    model: String,
    /// Model format (default: from the file extension; for `-`, standard input, told from the
    /// text); `--format` names the suite format.
    #[arg(long, value_name = "aut|dot|yaml|json|fsm")]
    model_format: Option<Format>,
    /// Unmarked labels that are inputs (comma-separated).
    #[arg(long, value_delimiter = ',', value_name = "LABELS")]
    inputs: Vec<String>,
    /// Unmarked labels that are outputs (comma-separated).
    #[arg(long, value_delimiter = ',', value_name = "LABELS")]
    outputs: Vec<String>,
    /// Initial state by name (overrides the file).
    #[arg(long, value_name = "STATE")]
    initial: Option<String>,
    /// Complete a partial Mealy machine first: missing inputs loop (`self-loop`) or go to a new
    /// sink (`sink`), with output `undefined`.
    #[arg(long, value_enum, value_name = "self-loop|sink")]
    complete: Option<CompleteArg>,
    /// The method (`auto`: ioco-auto for a labelled transition system, the smallest Mealy suite
    /// for a Mealy machine).
    #[arg(long, value_enum, default_value = "auto")]
    method: GenerateMethod,
    /// Complete for implementations with at most N (specified) states (ioco methods).
    #[arg(long, value_name = "N", conflicts_with = "extra_states")]
    n: Option<usize>,
    /// Extra states the implementation may have beyond the (minimised) model; default 0.
    #[arg(long, value_name = "E")]
    extra_states: Option<usize>,
    #[command(flatten)]
    budget: BudgetArgs,
    #[command(flatten)]
    ioco: IocoArgs,
    /// The sets of pairwise incompatible states that bound the traces of ioco-counting.
    #[arg(long, value_name = "maximal|largest|none", default_value = "maximal")]
    incompatible_sets: IncompatibleSets,
    /// Output format.
    #[arg(long, value_enum, default_value = "json")]
    format: SuiteFileFormat,
    /// Output file (`-`: standard output); a directory for `--format ttcn|python|rust`.
    #[arg(long, value_name = "FILE", default_value = "-")]
    out: String,
    /// Directory of templates overriding the built-in ones (`--format ttcn|python|rust`).
    #[arg(long, value_name = "DIR")]
    templates: Option<std::path::PathBuf>,
    /// Replace an output directory that holds a rendering in another format.
    #[arg(long)]
    force: bool,
    /// Write only shard K of N (1-based): the suite split deterministically into N parts of
    /// near-equal cost (steps), for CI matrices; the parts partition the suite.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    shard: Option<Shard>,
    /// Keep tests that are prefixes of other tests.
    #[arg(long)]
    keep_prefixes: bool,
    #[command(flatten)]
    goal: PurposeArgs,
    /// Instead of a complete suite, one goal-directed test per reachable state, transition, or
    /// pair of consecutive transitions (switch) of the suspension automaton.
    #[arg(
        long,
        value_enum,
        value_name = "states|transitions|switches",
        conflicts_with_all = ["purpose", "purpose_regex"]
    )]
    cover: Option<CoverArg>,
    /// Goal-directed tests: how many steps that do not help a test tolerates before `retry`,
    /// playing on from wherever the system went while the goal is still reachable.
    #[arg(long, value_name = "K", default_value_t = 2)]
    patience: u32,
    /// Print the suite's figures on stderr: for Mealy suites tests, total input symbols, the
    /// longest test and the time; for ioco suites tests, runs, steps, nodes, longest test and
    /// bytes (and for ioco-auto the table of candidates and the one chosen).
    #[arg(long)]
    stats: bool,
}

impl GenerateArgs {
    /// The goals asked for, if any (then no complete suite is generated).
    fn goal_source(&self) -> Option<ncomplete::goals::cases::GoalSource> {
        use ncomplete::goals::{Coverage, cases::GoalSource};
        if let Some(source) = self.goal.goal_source() {
            return Some(source);
        }
        self.cover.map(|c| {
            GoalSource::Cover(match c {
                CoverArg::States => Coverage::States,
                CoverArg::Transitions => Coverage::Transitions,
                CoverArg::Switches => Coverage::Switches,
            })
        })
    }

    /// Where the suite goes: `--out` itself, or `suite.json` in a directory built beside
    /// `--out DIR` and swapped in as a whole once rendered. Refuses an output that is (or holds)
    /// an input before anything is written.
    fn destination(&self) -> Result<(Option<AtomicDir>, String), Error> {
        if self.format.rendering().is_none() {
            let inputs: Vec<&str> = std::iter::once(self.model.as_str())
                .chain(self.goal.purpose.as_deref())
                .collect();
            output::refuse_input_as_output("--out", &self.out, &inputs)?;
            return Ok((None, self.out.clone()));
        }
        if self.out == "-" {
            return Err(Error::Usage(
                "--format ttcn|python|rust writes files: give --out DIR".into(),
            ));
        }
        let templates = self.templates.as_ref().map(|t| t.display().to_string());
        let inputs: Vec<&str> = std::iter::once(self.model.as_str())
            .chain(templates.as_deref())
            .chain(self.goal.purpose.as_deref())
            .collect();
        output::refuse_input_inside_dir("--out", std::path::Path::new(&self.out), &inputs)?;
        let kind = self.format.rendering().map_or("json", |f| f.name());
        let dir = AtomicDir::create(&self.out, kind, self.force)?;
        let suite = dir.path().join("suite.json").display().to_string();
        Ok((Some(dir), suite))
    }

    /// Refuses `--format words` (for suites that are not Mealy words), saying `why`.
    fn refuse_words(&self, why: &str) -> Result<(), Error> {
        if self.format == SuiteFileFormat::Words {
            return Err(Error::Usage(why.into()));
        }
        Ok(())
    }

    /// Renders the generated suite into the new directory when a program format was asked for,
    /// then swaps the directory in.
    fn finish(&self, dir: Option<AtomicDir>, suite_path: &str) -> Result<(), Error> {
        if let (Some(dir), Some(format)) = (dir, self.format.rendering()) {
            ncomplete::exec::commands::render_into(
                suite_path,
                format,
                dir.path(),
                self.templates.as_deref(),
                None,
                None,
            )?;
            dir.commit()?;
        }
        Ok(())
    }
}

#[derive(Args)]
struct SizesArgs {
    /// The model file.
    model: String,
    #[command(flatten)]
    model_args: ModelArgs,
    /// Generation methods (ioco methods, repeatable; default: ioco-complete, unconditional,
    /// ioco-counting, ioco-ads and ioco-auto).
    #[arg(long, value_enum)]
    method: Vec<GenerateMethod>,
    /// Bounds to audit: `4`, `1..6` (inclusive).
    #[arg(long, value_name = "RANGE", default_value = "1..6")]
    n: String,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    budget: BudgetArgs,
    #[command(flatten)]
    ioco: IocoArgs,
    /// The sets of pairwise incompatible states that bound the traces of ioco-counting.
    #[arg(long, value_name = "maximal|largest|none", default_value = "maximal")]
    incompatible_sets: IncompatibleSets,
}

/// How an ioco suite is built: the quiescence domain and the minimisation of the model.
#[derive(Args)]
struct IocoArgs {
    /// The implementations an ioco suite is complete for: `classic`, LTSs observed through a
    /// timeout (quiescence is stable: no test waits for an output right after quiescence), or
    /// `general`, any input-enabled suspension automaton (van den Bos Ch. 2).
    #[arg(long, value_name = "classic|general", default_value = "classic")]
    domain: ncomplete::suite::ioco::Domain,
    /// Build ioco suites for the suspension automaton as given: without this, it is minimised
    /// first (≈, van den Bos Def. 2.13) and n and --extra-states count the minimised states.
    #[arg(long)]
    no_minimize: bool,
}

impl IocoArgs {
    /// The suspension automaton of `model` and the options of its ioco suites.
    fn specification(
        &self,
        model: &Model,
        path: &str,
    ) -> Result<
        (
            ncomplete::model::SuspensionAutomaton,
            ncomplete::suite::ioco::SuiteOptions,
        ),
        Error,
    > {
        ncomplete::suite::ioco::specification_for(model, path, !self.no_minimize, self.domain)
    }
}

/// Limits on a suite's cost, checked from its counted figures before anything is written.
#[derive(Args)]
struct BudgetArgs {
    /// Refuse suites with more test cases than this.
    #[arg(long, value_name = "N", default_value_t = ncomplete::suite::costs::DEFAULT_MAX_TESTS)]
    max_tests: u128,
    /// Refuse suites with more runs (root-to-verdict paths over all tests) than this.
    #[arg(long, value_name = "N", default_value_t = ncomplete::suite::costs::DEFAULT_MAX_RUNS)]
    max_runs: u128,
    /// Refuse suites with more total steps (labels over all runs) than this.
    #[arg(long, value_name = "N", default_value_t = ncomplete::suite::costs::DEFAULT_MAX_STEPS)]
    max_steps: u128,
    /// Refuse suites with more send/expect nodes (over all tests) than this.
    #[arg(long, value_name = "N", default_value_t = ncomplete::suite::costs::DEFAULT_MAX_NODES)]
    max_nodes: u128,
    /// Refuse suites whose JSON would have more bytes than this.
    #[arg(long, value_name = "N", default_value_t = ncomplete::suite::costs::DEFAULT_MAX_BYTES)]
    max_bytes: u128,
    /// Refuse suites whose estimated time to run every path once (runs × --run-ms, waits ×
    /// --quiescence-ms, steps × --step-ms) is more seconds than this.
    #[arg(long, value_name = "S", default_value_t = ncomplete::suite::costs::DEFAULT_MAX_SECONDS)]
    max_seconds: u128,
    /// The quiescence timeout the time is estimated at, per wait (the runners' default).
    #[arg(long, value_name = "MS", default_value_t = ncomplete::exec::stdio::DEFAULT_QUIESCENCE_MS)]
    quiescence_ms: u64,
    /// The latency per step the time is estimated at.
    #[arg(long, value_name = "MS", default_value_t = ncomplete::suite::costs::DEFAULT_STEP_MS)]
    step_ms: u64,
    /// The start-up and reset cost per run the time is estimated at.
    #[arg(long, value_name = "MS", default_value_t = ncomplete::suite::costs::DEFAULT_RUN_MS)]
    run_ms: u64,
}

impl BudgetArgs {
    fn budget(&self) -> ncomplete::suite::costs::Budget {
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
struct RenderArgs {
    /// The suite (JSON v1).
    suite: String,
    /// Target format.
    #[arg(long, value_enum, value_name = "ttcn|rust|python")]
    format: ProgramFormat,
    /// Output directory (created if missing).
    #[arg(long, value_name = "DIR")]
    out: std::path::PathBuf,
    /// Directory of templates overriding the built-in ones (same relative paths as `templates/`).
    #[arg(long, value_name = "DIR")]
    templates: Option<std::path::PathBuf>,
    /// Render only shard K of N (1-based), split as `generate --shard` splits.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    shard: Option<Shard>,
    /// Replace an output directory that holds a rendering in another format.
    #[arg(long)]
    force: bool,
    /// Also write an on-the-fly tester that embeds this specification model (format from its
    /// extension) and explores a system at random: `explore_<model>.py` with `--format python`
    /// (a script and a pytest module), the binary `explore_<model>` with `--format rust`.
    #[arg(long, value_name = "MODEL")]
    explore_spec: Option<String>,
}

/// The program formats of `render --format`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
enum ProgramFormat {
    /// TTCN-3 modules and a Titan test port.
    Ttcn,
    /// A standalone Cargo package.
    Rust,
    /// A pytest module and its runtime.
    Python,
}

impl ProgramFormat {
    fn format(self) -> ncomplete::render::Format {
        match self {
            ProgramFormat::Ttcn => ncomplete::render::Format::Ttcn,
            ProgramFormat::Rust => ncomplete::render::Format::Rust,
            ProgramFormat::Python => ncomplete::render::Format::Python,
        }
    }
}

/// Parses `--shard K/N`.
fn parse_shard(s: &str) -> Result<Shard, String> {
    Shard::parse(s)
}

#[derive(Args)]
struct SimulateArgs {
    /// The model to simulate.
    model: String,
    #[command(flatten)]
    model_args: ModelArgs,
    /// How to pick among several allowed outputs.
    #[arg(long, value_enum, value_name = "first|random", default_value = "first")]
    choose: ChooseArg,
    /// Seed of `--choose random` (default: a fresh seed per process, so restarts differ).
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Delay before each output, in milliseconds (an input arriving meanwhile goes first).
    #[arg(long, value_name = "MS", default_value_t = 0)]
    delay_ms: u64,
}

/// How `simulate` picks among several allowed outputs ([`ncomplete::exec::sut::Choice`]).
#[derive(Copy, Clone, Debug, ValueEnum)]
enum ChooseArg {
    /// Always the first in label order (quiescence last).
    First,
    /// Uniformly at random (from `--seed`, or the clock and process id).
    Random,
}

/// What `run --model` does with inputs the implementation model refuses
/// ([`ncomplete::exec::InputEnabling`]).
#[derive(Copy, Clone, Debug, ValueEnum)]
enum InputEnableArg {
    /// Report the first refused input as an error.
    Reject,
    /// Let the system ignore refused inputs (a self-loop).
    SelfLoop,
}

#[derive(Args)]
#[command(group = clap::ArgGroup::new("target").required(true).args(["model", "sut"]))]
struct RunArgs {
    /// The suite (JSON v1, or a words file with `--spec`).
    suite: String,
    /// The Mealy machine a words suite was generated from (gives the outputs its tests expect).
    #[arg(long, value_name = "MODEL")]
    spec: Option<String>,
    /// A model of the implementation, executed exactly (every race and output choice).
    #[arg(long, value_name = "IMPL", conflicts_with = "sut")]
    model: Option<String>,
    #[command(flatten)]
    model_args: ModelArgs,
    /// What to do with inputs the implementation model refuses.
    #[arg(
        long,
        value_enum,
        value_name = "reject|self-loop",
        default_value = "reject"
    )]
    input_enable: InputEnableArg,
    /// A command starting the system under test (stdio protocol, one label per line).
    #[arg(long, value_name = "COMMAND")]
    sut: Option<String>,
    #[command(flatten)]
    timeouts: TimeoutArgs,
    /// Re-runs of a test that ended in retry (`--sut`).
    #[arg(long, value_name = "N", default_value_t = ncomplete::exec::stdio::DEFAULT_RETRIES)]
    retries: usize,
    /// Follow the system (`--sut`): an execution that ends in retry because the system took
    /// another allowed branch is continued by the next undecided test whose tree holds the
    /// observed trace, instead of resetting (same guarantee, far fewer inconclusive tests).
    #[arg(long)]
    follow: bool,
    /// Systems run at once (`--sut`; default: the number of cores). Verdicts and reports are
    /// the same, in the same order, as with `--jobs 1`; `--follow` runs one system, since
    /// following depends on the order tests are decided in.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    jobs: Option<u16>,
    /// Also write the results as JUnit XML (inconclusive tests are skipped ones).
    #[arg(long, value_name = "FILE")]
    junit: Option<String>,
    /// Also write the results as JSON (format `ncomplete-results-v1`).
    #[arg(long, value_name = "FILE")]
    json: Option<String>,
}

#[derive(Args)]
struct ExploreArgs {
    /// The specification model.
    model: String,
    #[command(flatten)]
    model_args: ModelArgs,
    /// A command starting the system under test (stdio protocol, one label per line).
    #[arg(
        long,
        value_name = "COMMAND",
        conflicts_with = "impl_model",
        required_unless_present = "impl_model"
    )]
    sut: Option<String>,
    /// A model of the implementation, run in process (its output choices seeded by --seed).
    #[arg(long = "model", value_name = "IMPL")]
    impl_model: Option<String>,
    /// How to choose moves.
    #[arg(
        long,
        value_enum,
        value_name = "random|bias|goal|strategy",
        default_value = "goal"
    )]
    policy: PolicyArg,
    // With `--policy strategy`: the goal steered to first.
    #[command(flatten)]
    goal: PurposeArgs,
    /// Probability of sending an input rather than waiting for an output (`--policy bias`).
    #[arg(long, value_name = "P", default_value_t = 0.5)]
    input_bias: f64,
    /// Probability of ending the run and resetting the system before a move.
    #[arg(long, value_name = "P", default_value_t = 0.01)]
    reset_probability: f64,
    /// Seed of the tester's choices: the same seed and system give the same run.
    #[arg(long, value_name = "S", default_value_t = 0)]
    seed: u64,
    /// Stop after this many steps (inputs sent and observations made).
    #[arg(long, value_name = "N", default_value_t = 1000)]
    max_steps: u64,
    /// Stop once every state or every transition of the specification has been covered.
    #[arg(long, value_enum, value_name = "states|transitions")]
    until: Option<UntilArg>,
    /// Stop after this many seconds.
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,
    #[command(flatten)]
    timeouts: TimeoutArgs,
    /// Write the verdict, trace and coverage as JSON to this file.
    #[arg(long, value_name = "FILE")]
    out: Option<String>,
}

/// How `explore` chooses its moves ([`ncomplete::exec::explore::Policy`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
enum PolicyArg {
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
enum UntilArg {
    /// Every reachable state of the specification visited.
    States,
    /// Every transition of the specification's reachable part taken.
    Transitions,
}

/// A test purpose or a regular expression goal (`generate`, `explore --policy strategy`).
#[derive(Args)]
struct PurposeArgs {
    /// Steer to the accepting states of this test purpose (`.aut`/DOT/YAML over the model's
    /// labels; `ACCEPT`/`REFUSE` self-loops mark accept and refuse states, `*` is any other
    /// label): `generate` writes one such test instead of a complete suite, `explore --policy
    /// strategy` steers there first.
    #[arg(long, value_name = "FILE", conflicts_with = "purpose_regex")]
    purpose: Option<String>,
    /// Steer to a trace in the language of this regular expression over labels (the `check
    /// --desired` syntax): `generate` writes one such test instead of a complete suite,
    /// `explore --policy strategy` steers there first.
    #[arg(long, value_name = "REGEX")]
    purpose_regex: Option<String>,
}

impl PurposeArgs {
    /// The goal given, if any.
    fn goal_source(&self) -> Option<ncomplete::goals::cases::GoalSource> {
        use ncomplete::goals::cases::GoalSource;
        match (&self.purpose, &self.purpose_regex) {
            (Some(p), _) => Some(GoalSource::Purpose(p.clone())),
            (None, Some(r)) => Some(GoalSource::Regex(r.clone())),
            (None, None) => None,
        }
    }
}

/// The timeouts of a system under test (`run --sut`, `explore --sut`).
#[derive(Args)]
struct TimeoutArgs {
    /// Start-up allowance of `--sut`, in milliseconds: added to every wait until the system's
    /// first output.
    #[arg(long, value_name = "MS", default_value_t = ncomplete::exec::stdio::DEFAULT_STARTUP_MS)]
    startup_ms: u64,
    /// Quiescence timeout of `--sut`, in milliseconds: silence this long is quiescence, where the
    /// specification allows quiescence.
    #[arg(long, value_name = "MS", default_value_t = ncomplete::exec::stdio::DEFAULT_QUIESCENCE_MS)]
    quiescence_ms: u64,
    /// Response timeout of `--sut`, in milliseconds: how long to wait for an output that is
    /// required (every output of a Mealy suite).
    #[arg(long, value_name = "MS", default_value_t = ncomplete::exec::stdio::DEFAULT_RESPONSE_MS)]
    response_ms: u64,
}

impl TimeoutArgs {
    fn timeouts(&self) -> ncomplete::exec::stdio::Timeouts {
        ncomplete::exec::stdio::Timeouts::from_millis(
            self.startup_ms,
            self.quiescence_ms,
            self.response_ms,
        )
    }
}

/// How to read a model file (shared by every command that reads one).
#[derive(Args, Clone, Debug, Default)]
struct ModelArgs {
    /// Model format (default: from the file extension; for `-`, standard input, told from the
    /// text).
    #[arg(long, value_name = "aut|dot|yaml|json|fsm")]
    model_format: Option<Format>,
    /// The former spelling of `--model-format` (deprecated; `--format` names suite formats).
    #[arg(long = "format", value_name = "aut|dot|yaml|json|fsm", hide = true)]
    deprecated_format: Option<Format>,
    /// Unmarked labels that are inputs (comma-separated).
    #[arg(long, value_delimiter = ',', value_name = "LABELS")]
    inputs: Vec<String>,
    /// Unmarked labels that are outputs (comma-separated).
    #[arg(long, value_delimiter = ',', value_name = "LABELS")]
    outputs: Vec<String>,
    /// Initial state by name (overrides the file).
    #[arg(long, value_name = "STATE")]
    initial: Option<String>,
}

impl ModelArgs {
    fn options(&self) -> LoadOptions {
        LoadOptions {
            format: self.model_format.or(self.deprecated_format),
            inputs: self.inputs.clone(),
            outputs: self.outputs.clone(),
            initial: self.initial.clone(),
        }
    }

    /// Loads a model, printing the parser's warnings unless `quiet`.
    fn load(&self, path: &str, quiet: bool) -> Result<Model, Error> {
        if self.deprecated_format.is_some() && !quiet {
            static NOTE: std::sync::Once = std::sync::Once::new();
            NOTE.call_once(|| {
                eprintln!(
                    "warning: --format for the model format is deprecated; use --model-format \
                     (--format names suite formats)"
                );
            });
        }
        let loaded = format::load_model_with_warnings(path, &self.options())?;
        if !quiet {
            for w in &loaded.warnings {
                eprintln!("warning: {w}");
            }
        }
        Ok(loaded.model)
    }
}

#[derive(Args)]
struct InfoArgs {
    /// The model file.
    model: String,
    #[command(flatten)]
    model_args: ModelArgs,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct ConvertArgs {
    /// The model file.
    model: String,
    #[command(flatten)]
    model_args: ModelArgs,
    /// Target format.
    #[arg(long, value_name = "aut|dot|yaml|json|fsm")]
    to: Format,
    /// Output file (`-` or absent: standard output).
    #[arg(long, value_name = "FILE")]
    out: Option<String>,
    #[command(flatten)]
    transform: TransformArgs,
}

/// Model transformations applied by `convert` before writing.
#[derive(Args, Clone, Debug, Default)]
struct TransformArgs {
    /// Write the suspension automaton (quiescence made explicit as `delta`, determinised).
    #[arg(long)]
    suspension: bool,
    /// How τ-cycles are read when building the suspension automaton of an LTS.
    #[arg(long, value_enum, value_name = "fair|quiescent-copy")]
    divergence: Option<DivergenceArg>,
    /// Minimise the suspension automaton up to ioco-equivalence (implies --suspension for an LTS).
    #[arg(long)]
    minimize: bool,
    /// Complete a partial Mealy machine: missing inputs loop, or go to a sink, with output `undefined`.
    #[arg(long, value_enum, value_name = "self-loop|sink")]
    complete: Option<CompleteArg>,
    /// Largest number of subsets the suspension-automaton construction may build.
    #[arg(long, value_name = "N", default_value_t = ncomplete::model::DEFAULT_MAX_SUBSETS)]
    max_subsets: usize,
}

#[derive(Copy, Clone, Debug, ValueEnum)]
enum DivergenceArg {
    /// Divergent states are not quiescent (a τ-cycle is eventually left).
    Fair,
    /// Divergent states get δ to a copy that keeps only the inputs (TorX thesis Sec. 4.1).
    QuiescentCopy,
}

#[derive(Copy, Clone, Debug, ValueEnum)]
enum CompleteArg {
    /// A missing input loops on its state with output `undefined`.
    SelfLoop,
    /// A missing input goes with output `undefined` to a new absorbing state `sink`.
    Sink,
}

impl CompleteArg {
    fn completion(self) -> ncomplete::model::Completion {
        match self {
            CompleteArg::SelfLoop => ncomplete::model::Completion::SelfLoop,
            CompleteArg::Sink => ncomplete::model::Completion::Sink,
        }
    }
}

impl TransformArgs {
    fn options(&self) -> ncomplete::model::TransformOptions {
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

    /// The model after the requested transformations, as text in `to`.
    fn convert(&self, path: &str, model: Model, to: Format) -> Result<String, Error> {
        use ncomplete::model::{Transformed, transform};
        let opts = self.options();
        opts.check(&model).map_err(Error::Usage)?;
        let model = match transform(model, &opts).map_err(|source| Error::Model {
            path: path.to_owned(),
            source,
        })? {
            Transformed::Model(m) => m,
            Transformed::Suspension(sa) => Model::Lts(format::suspension_as_lts(&sa)),
        };
        if let Some(why) = format::unrepresentable(&model, to) {
            return Err(Error::Usage(format!(
                "{path}: cannot convert to {to} without changing the model: {why}; use --to yaml or json"
            )));
        }
        Ok(format::write_model(&model, to))
    }
}

#[derive(Args)]
struct DistinguishArgs {
    /// The model file (an LTS is determinised to its suspension automaton, a Mealy machine
    /// embedded as one).
    model: String,
    #[command(flatten)]
    model_args: ModelArgs,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    /// Write the splitting graph and the ADG as DOT to FILE.
    #[arg(long, value_name = "FILE")]
    dot: Option<String>,
    /// Also draw every top-up graph in the DOT file (there can be millions).
    #[arg(long, requires = "dot")]
    dot_topups: bool,
    /// Write the ADG and the top-ups as suite JSON v1 to FILE.
    #[arg(long, value_name = "FILE")]
    suite: Option<String>,
    /// Move preferred by the pairwise top-up graphs when both an input and waiting distinguish.
    #[arg(long, value_name = "outputs|inputs", default_value = "outputs")]
    prefer: PreferArg,
    /// Largest number of splitting-graph nodes before giving up.
    #[arg(long, value_name = "N", default_value_t = ncomplete::identify::splitting_graph::DEFAULT_SPLIT_BUDGET)]
    max_nodes: usize,
    /// Where a split on input `a` puts the states that do not enable `a`: a child of their own,
    /// or every child (line 17 of van den Bos' Algorithm 4; can make the graph much larger).
    #[arg(long, value_name = "separate|copy", default_value = "separate")]
    input_splits: InputSplitArg,
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
    split_policy: SplitPolicyArg,
    /// With `--split-policy searched`: rounds of re-splitting the lossiest nodes of the best
    /// graph with other splits (up to 12 more graphs per round), keeping a rebuilt graph whose
    /// ADG leaves fewer pairs undistinguished.
    #[arg(long, value_name = "N", default_value_t = 0)]
    resplit: usize,
    /// Most unordered state pairs the compatibility relation may store (4 bytes each).
    #[arg(long, value_name = "N", default_value_t = ncomplete::analysis::DEFAULT_PAIR_BUDGET)]
    max_pairs: usize,
    /// An input of a Mealy machine to hide as an internal step (repeat for several; input names
    /// may contain commas): its outputs then happen spontaneously. Hiding one input of a complete
    /// machine keeps the suspension automaton output-deterministic (every state offers the same
    /// internal step); hiding several, or hiding in a partial machine, makes it
    /// output-nondeterministic.
    #[arg(long, value_name = "INPUT")]
    hide: Vec<String>,
    /// Merge input B of a Mealy machine into input A (repeat for several): the tester can no
    /// longer choose between them, so the outputs after A become nondeterministic (as the
    /// thesis' benchmarks dropped data parameters from labels).
    #[arg(long, value_name = "A=B")]
    merge_inputs: Vec<String>,
    /// Merge output B of a Mealy machine into output A (repeat for several).
    #[arg(long, value_name = "A=B")]
    merge_outputs: Vec<String>,
    /// Analyse the automaton as given instead of its minimal form (Def. 2.9); the figures of the
    /// automaton as given are reported either way.
    #[arg(long)]
    no_minimize: bool,
    /// Keep the ADG as Algorithm 5 builds it, without replacing sub-DAGs by optimal strategies
    /// of the exact game where those lose fewer pairs.
    #[arg(long)]
    no_repair: bool,
    /// Also report a lower bound on the pairs every ADG leaves undistinguished (exact games on
    /// triples of behaviour classes, and a game over all classes where they are at most 128;
    /// can take much longer than the rest on large automata).
    #[arg(long)]
    bound: bool,
}

#[derive(Copy, Clone, Debug, clap::ValueEnum)]
enum SplitPolicyArg {
    Searched,
    FewestLost,
    LostAhead,
    FewestPairs,
    OutputsFirst,
}

#[derive(Copy, Clone, Debug, clap::ValueEnum)]
enum InputSplitArg {
    Separate,
    Copy,
}

#[derive(Copy, Clone, Debug, clap::ValueEnum)]
enum PreferArg {
    Outputs,
    Inputs,
}

fn run_distinguish(a: DistinguishArgs, quiet: bool) -> Result<(), Error> {
    use ncomplete::identify::{
        self, DistinguishOptions, InputSplitRule, Preference, SplitOptions, SplitPolicy,
    };
    for (option, out) in [("--dot", &a.dot), ("--suite", &a.suite)] {
        if let Some(out) = out {
            output::refuse_input_as_output(option, out, &[&a.model])?;
        }
    }
    if a.dot.is_some() && a.dot == a.suite && a.dot.as_deref() != Some("-") {
        return Err(Error::Usage("--dot and --suite name the same file".into()));
    }
    let model = a.model_args.load(&a.model, quiet)?;
    let embedding = ncomplete::model::MealyEmbedding {
        hidden: a.hide.clone(),
        merged_inputs: a.merge_inputs.clone(),
        merged_outputs: a.merge_outputs.clone(),
    };
    let sa =
        identify::report::suspension_of(&model, &embedding).map_err(|source| Error::Model {
            path: a.model.clone(),
            source,
        })?;
    let options = DistinguishOptions {
        preference: match a.prefer {
            PreferArg::Outputs => Preference::Outputs,
            PreferArg::Inputs => Preference::Inputs,
        },
        split: SplitOptions {
            node_budget: a.max_nodes,
            input_rule: match a.input_splits {
                InputSplitArg::Separate => InputSplitRule::SeparateChild,
                InputSplitArg::Copy => InputSplitRule::CopyNonEnabling,
            },
            policy: match a.split_policy {
                SplitPolicyArg::Searched => SplitPolicy::Searched,
                SplitPolicyArg::FewestLost => SplitPolicy::FewestPairsLost,
                SplitPolicyArg::LostAhead => SplitPolicy::LostAhead(2),
                SplitPolicyArg::FewestPairs => SplitPolicy::FewestPairsTogether,
                SplitPolicyArg::OutputsFirst => SplitPolicy::OutputsFirst,
            },
            resplit_rounds: a.resplit,
            ..SplitOptions::default()
        },
        max_pairs: a.max_pairs,
        minimize: !a.no_minimize,
        repair: !a.no_repair,
        bound: a.bound,
    };
    let spinner = if quiet {
        indicatif::ProgressBar::hidden()
    } else {
        indicatif::ProgressBar::new_spinner()
    };
    let d = identify::distinguish(&sa, &options, &mut |phase| {
        spinner.set_message(phase.to_owned());
        spinner.tick();
    })?;
    spinner.finish_and_clear();
    if let Some(path) = &a.dot {
        let mut out = output::Output::create(path)?;
        identify::report::write_distinguish_dot(&d, a.dot_topups, &mut out)
            .map_err(|e| Error::io(path, e))?;
        out.commit()?;
    }
    if let Some(path) = &a.suite {
        let mut out = output::Output::create(path)?;
        identify::report::write_suite(&d, &mut out).map_err(|e| Error::io(path, e))?;
        out.commit()?;
    }
    let text = if a.json {
        d.report.to_json()
    } else {
        d.report.to_text()
    };
    format::write_text(None, &text)
}

#[derive(Args)]
struct CheckArgs {
    /// The specification model file.
    spec: String,
    /// The implementation model file.
    imp: String,
    #[command(flatten)]
    model_args: ModelArgs,
    /// Check uioco (TorX thesis Def. 2.2.17): only traces whose inputs every possible
    /// specification state accepts.
    #[arg(long)]
    uioco: bool,
    /// What an input the implementation refuses means: `reject` (an error naming the state and
    /// input, when the verdict depends on it), `self-loop` (the input is ignored, as JTorX
    /// completes models) or `cut` (behaviour after it is not observed, as EVEREST does).
    #[arg(long, value_name = "reject|self-loop|cut", default_value = "reject")]
    missing_inputs: ncomplete::check::MissingInputs,
    /// Two Mealy machines: quasi-equivalence (inputs the specification leaves undefined are
    /// don't-care) instead of equivalence.
    #[arg(long)]
    quasi: bool,
    /// Desired behaviour D of conf(D,F), a regular expression over labels (`a b`, `a;b`, `a|b`,
    /// `a*`, `a+`, `a?`, `.`, `()`, quoted labels).
    #[arg(long, value_name = "REGEX", group = "d")]
    desired: Option<String>,
    /// Desired behaviour D read from a file holding a regular expression.
    #[arg(long, value_name = "FILE", group = "d")]
    desired_file: Option<String>,
    /// Desired behaviour D: the traces of a model file.
    #[arg(long, value_name = "MODEL", group = "d")]
    desired_model: Option<String>,
    /// Forbidden behaviour F of conf(D,F), a regular expression over labels.
    #[arg(long, value_name = "REGEX", group = "f")]
    forbidden: Option<String>,
    /// Forbidden behaviour F read from a file holding a regular expression.
    #[arg(long, value_name = "FILE", group = "f")]
    forbidden_file: Option<String>,
    /// Forbidden behaviour F: the traces of a model file.
    #[arg(long, value_name = "MODEL", group = "f")]
    forbidden_model: Option<String>,
    /// Largest number of states built when determinising an LTS.
    #[arg(long, default_value_t = ncomplete::check::DEFAULT_BUDGET)]
    budget: usize,
}

impl CheckArgs {
    fn language(
        &self,
        text: &Option<String>,
        file: &Option<String>,
        model: &Option<String>,
        option: &str,
        quiet: bool,
    ) -> Result<Option<ncomplete::check::LanguageSource>, Error> {
        use ncomplete::check::LanguageSource;
        Ok(if let Some(t) = text {
            Some(LanguageSource::Regex {
                text: t.clone(),
                source: option.to_owned(),
            })
        } else if let Some(f) = file {
            let bytes = std::fs::read(f).map_err(|e| Error::io(f.as_str(), e))?;
            let t = format::utf8_text(bytes, f)?;
            Some(LanguageSource::Regex {
                text: t,
                source: f.clone(),
            })
        } else if let Some(m) = model {
            Some(LanguageSource::Model(self.model_args.load(m, quiet)?))
        } else {
            None
        })
    }
}

#[derive(Args)]
#[command(group = clap::ArgGroup::new("bound").required(true).args(["n", "extra_states"]))]
struct MutateArgs {
    /// The model file.
    model: String,
    #[command(flatten)]
    model_args: ModelArgs,
    /// Number of mutants.
    #[arg(long, default_value_t = 10)]
    count: usize,
    /// Mutants have at most N states.
    #[arg(long, value_name = "N")]
    n: Option<usize>,
    /// Mutants have at most E states more than the model.
    #[arg(long, value_name = "E")]
    extra_states: Option<usize>,
    /// Seed of the generator: the same seed gives the same mutants.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Directory for the mutant files and index.json.
    #[arg(long, value_name = "DIR")]
    out: String,
}

fn run(cli: Cli) -> Result<ExitCode, Error> {
    let quiet = cli.quiet;
    ncomplete::progress::show_on_stderr(!quiet);
    ncomplete::progress::check_interval_variable().map_err(Error::Usage)?;
    match cli.command {
        Command::Info(a) => run_info(a, quiet),
        Command::Distinguish(a) => run_distinguish(a, quiet).map(|()| ExitCode::SUCCESS),
        Command::Convert(a) => run_convert(a, quiet),
        Command::Check(a) => run_check(a, quiet),
        Command::Mutate(a) => run_mutate(a, quiet),
        Command::Render(a) => run_render(a, quiet),
        Command::Simulate(a) => run_simulate(a, quiet),
        Command::Run(a) => run_run(a, quiet),
        Command::Explore(a) => run_explore(a, quiet),
        Command::Generate(a) => run_generate(a, quiet),
        Command::Sizes(a) => run_sizes(a, quiet),
        Command::Audit(a) => run_audit(&a, quiet),
        Command::Completions(a) => run_completions(&a),
        Command::Man(a) => run_man(&a, quiet),
    }
}

/// `completions`: the completion script of a shell on standard output.
fn run_completions(a: &CompletionsArgs) -> Result<ExitCode, Error> {
    let mut script = Vec::new();
    clap_complete::generate(
        a.shell,
        &mut <Cli as clap::CommandFactory>::command(),
        "ncomplete",
        &mut script,
    );
    format::write_text(None, &String::from_utf8_lossy(&script))?;
    Ok(ExitCode::SUCCESS)
}

/// `man`: the manual page of ncomplete on standard output, or every command's page in a
/// directory.
fn run_man(a: &ManArgs, quiet: bool) -> Result<ExitCode, Error> {
    let command = <Cli as clap::CommandFactory>::command();
    let page = |cmd: clap::Command| -> Result<Vec<u8>, Error> {
        let mut roff = Vec::new();
        clap_mangen::Man::new(cmd)
            .render(&mut roff)
            .map_err(|e| Error::io("<man page>", e))?;
        Ok(roff)
    };
    let Some(dir) = &a.out else {
        format::write_text(None, &String::from_utf8_lossy(&page(command)?))?;
        return Ok(ExitCode::SUCCESS);
    };
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir.display().to_string(), e))?;
    let mut pages = vec![("ncomplete.1".to_owned(), command.clone())];
    for sub in command.get_subcommands() {
        let name = format!("ncomplete-{}", sub.get_name());
        pages.push((
            format!("{name}.1"),
            sub.clone()
                .display_name(name)
                .bin_name(format!("ncomplete {}", sub.get_name())),
        ));
    }
    for (file, cmd) in &pages {
        let path = dir.join(file);
        output::write_path(&path, &page(cmd.clone())?)
            .map_err(|e| Error::io(path.display().to_string(), e))?;
    }
    if !quiet {
        eprintln!("wrote {} manual pages to {}", pages.len(), dir.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// `info`: the figures of a model.
fn run_info(a: InfoArgs, quiet: bool) -> Result<ExitCode, Error> {
    let model = a.model_args.load(&a.model, quiet)?;
    let info = ncomplete::info::model_info(&model);
    let text = if a.json {
        info.to_json()
    } else {
        info.to_text()
    };
    format::write_text(None, &text)?;
    Ok(ExitCode::SUCCESS)
}

/// `convert`: a model in another format, optionally transformed.
fn run_convert(a: ConvertArgs, quiet: bool) -> Result<ExitCode, Error> {
    if let Some(out) = &a.out {
        output::refuse_input_as_output("--out", out, &[&a.model])?;
    }
    let model = a.model_args.load(&a.model, quiet)?;
    let text = a.transform.convert(&a.model, model, a.to)?;
    format::write_text(a.out.as_deref(), &text)?;
    Ok(ExitCode::SUCCESS)
}

/// `check`: conformance of an implementation model to a specification (status 1 when it does not conform).
fn run_check(a: CheckArgs, quiet: bool) -> Result<ExitCode, Error> {
    let spec = a.model_args.load(&a.spec, quiet)?;
    let imp = a.model_args.load(&a.imp, quiet)?;
    let req = ncomplete::check::CheckRequest {
        uioco: a.uioco,
        missing_inputs: a.missing_inputs,
        quasi: a.quasi,
        desired: a.language(
            &a.desired,
            &a.desired_file,
            &a.desired_model,
            "--desired",
            quiet,
        )?,
        forbidden: a.language(
            &a.forbidden,
            &a.forbidden_file,
            &a.forbidden_model,
            "--forbidden",
            quiet,
        )?,
        budget: a.budget,
    };
    let report = ncomplete::check::check_models(&spec, &a.spec, &imp, &a.imp, &req)?;
    format::write_text(None, &report.text)?;
    if !report.conforms {
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// `mutate`: seeded mutants of a model within a state bound, written to a directory.
fn run_mutate(a: MutateArgs, quiet: bool) -> Result<ExitCode, Error> {
    use ncomplete::audit::{self, MutateOptions, SizeBound};
    output::refuse_input_inside_dir("--out", std::path::Path::new(&a.out), &[&a.model])?;
    let model = a.model_args.load(&a.model, quiet)?;
    let bound = match (a.n, a.extra_states) {
        (Some(n), _) => SizeBound::States(n),
        (None, Some(e)) => SizeBound::Extra(e),
        (None, None) => {
            return Err(Error::Usage("give --n N or --extra-states E".into()));
        }
    };
    let opts = MutateOptions {
        count: a.count,
        bound,
        seed: a.seed,
    };
    let original = audit::mutable_model(&model, &a.model)?;
    let mutants = audit::mutants(&original, &opts)?;
    if mutants.len() < a.count && !quiet {
        eprintln!(
            "warning: only {} distinct mutants found (asked for {})",
            mutants.len(),
            a.count
        );
    }
    let summary = audit::write_mutants(
        std::path::Path::new(&a.out),
        &a.model,
        &original,
        &opts,
        &mutants,
    )?;
    format::write_text(None, &summary)?;
    Ok(ExitCode::SUCCESS)
}

/// `render`: a suite file rendered as TTCN-3 text, a pytest module or a Cargo package.
fn run_render(a: RenderArgs, quiet: bool) -> Result<ExitCode, Error> {
    let target = a.format.format();
    let spec = match &a.explore_spec {
        Some(_) if !target.has_explorer() => {
            return Err(Error::Usage(
                "--explore-spec needs --format python or --format rust".into(),
            ));
        }
        Some(path) => Some(ModelArgs::default().load(path, quiet)?),
        None => None,
    };
    let written = ncomplete::exec::commands::render(
        &a.suite,
        target,
        &a.out,
        a.templates.as_deref(),
        (a.shard, a.force),
        spec.as_ref(),
    )?;
    if !quiet {
        let files = if written.len() == 1 { "file" } else { "files" };
        eprintln!("wrote {} {files} to {}", written.len(), a.out.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// `simulate`: a model acting as a system under test on stdin/stdout.
fn run_simulate(a: SimulateArgs, quiet: bool) -> Result<ExitCode, Error> {
    let model = a.model_args.load(&a.model, quiet)?;
    let options = ncomplete::exec::sut::SutOptions {
        choice: match a.choose {
            ChooseArg::First => ncomplete::exec::sut::Choice::First,
            ChooseArg::Random => ncomplete::exec::sut::Choice::Random,
        },
        seed: a.seed,
        delay: std::time::Duration::from_millis(a.delay_ms),
    };
    ncomplete::exec::commands::simulate(&model, &options)?;
    Ok(ExitCode::SUCCESS)
}

/// `run`: a suite executed against a model (exact simulation) or a process; the status tells the verdict.
fn run_run(a: RunArgs, quiet: bool) -> Result<ExitCode, Error> {
    let mut stdout = std::io::stdout();
    let inputs: Vec<&str> = [Some(&a.suite), a.spec.as_ref(), a.model.as_ref()]
        .into_iter()
        .flatten()
        .map(String::as_str)
        .collect();
    for (option, path) in [("--junit", &a.junit), ("--json", &a.json)] {
        if let Some(path) = path {
            if path == "-" {
                return Err(Error::Usage(format!(
                    "{option} needs a file: standard output carries the run's report"
                )));
            }
            ncomplete::output::refuse_input_as_output(option, path, &inputs)?;
        }
    }
    if a.junit.is_some() && a.junit == a.json {
        return Err(Error::Usage("--junit and --json name the same file".into()));
    }
    let system = match (&a.model, &a.sut) {
        (Some(path), _) => format!("model {path}"),
        (None, Some(command)) => format!("system {command}"),
        (None, None) => String::new(),
    };
    let mut results =
        ncomplete::exec::results::RunResults::new(a.junit.clone(), a.json.clone(), system);
    let spec = match &a.spec {
        Some(path) => Some(a.model_args.load(path, quiet)?),
        None => None,
    };
    let status = match (&a.model, &a.sut) {
        (Some(path), _) => {
            let model = a.model_args.load(path, quiet)?;
            let enabling = match a.input_enable {
                InputEnableArg::Reject => ncomplete::exec::InputEnabling::Reject,
                InputEnableArg::SelfLoop => ncomplete::exec::InputEnabling::SelfLoop,
            };
            let verdict = ncomplete::exec::commands::run_on_model(
                &a.suite,
                spec.as_ref(),
                &model,
                enabling,
                &mut stdout,
                &mut results,
            )?;
            ncomplete::exec::commands::model_exit_status(verdict)
        }
        (None, Some(command)) => {
            let verdict = ncomplete::exec::commands::run_on_system(
                &a.suite,
                spec.as_ref(),
                &ncomplete::exec::commands::SystemRun {
                    command,
                    timeouts: &a.timeouts.timeouts(),
                    retries: a.retries,
                    follow: a.follow,
                    jobs: a.jobs.map_or_else(
                        || std::thread::available_parallelism().map_or(1, |n| n.get()),
                        usize::from,
                    ),
                },
                &mut stdout,
                &mut results,
            )?;
            ncomplete::exec::commands::system_exit_status(verdict)
        }
        (None, None) => {
            return Err(Error::Usage("give --model IMPL or --sut COMMAND".into()));
        }
    };
    Ok(ExitCode::from(status))
}

/// `explore`: on-the-fly testing of a process or a model against a specification.
fn run_explore(a: ExploreArgs, quiet: bool) -> Result<ExitCode, Error> {
    use ncomplete::exec::explore::{CoverageTarget, ExploreOptions, Policy};
    let probability = |name: &str, p: f64| {
        if (0.0..=1.0).contains(&p) {
            Ok(p)
        } else {
            Err(Error::Usage(format!(
                "{name} must be between 0 and 1, got {p}"
            )))
        }
    };
    if let Some(out) = &a.out {
        let mut inputs = vec![a.model.as_str()];
        inputs.extend(a.impl_model.as_deref());
        output::refuse_input_as_output("--out", out, &inputs)?;
    }
    let time_limit = match a.time_limit {
        Some(t) => Some(std::time::Duration::try_from_secs_f64(t).map_err(|_| {
            Error::Usage(format!(
                "--time-limit must be a non-negative number of seconds that fits a \
                         duration (at most about 1.8e19), got {t:?}"
            ))
        })?),
        None => None,
    };
    let options = ExploreOptions {
        policy: match a.policy {
            PolicyArg::Random => Policy::Random,
            PolicyArg::Bias => Policy::InputBias {
                input: probability("--input-bias", a.input_bias)?,
            },
            PolicyArg::Goal => Policy::Goal,
            PolicyArg::Strategy => Policy::Strategy,
        },
        seed: a.seed,
        reset_probability: probability("--reset-probability", a.reset_probability)?,
        max_steps: a.max_steps,
        target: a.until.map(|u| match u {
            UntilArg::States => CoverageTarget::States,
            UntilArg::Transitions => CoverageTarget::Transitions,
        }),
        time_limit,
        timeouts: a.timeouts.timeouts(),
        goals: Vec::new(),
    };
    let purpose = a.goal.goal_source();
    if purpose.is_some() && a.policy != PolicyArg::Strategy {
        return Err(Error::Usage(
            "--purpose and --purpose-regex steer `--policy strategy` (add it)".into(),
        ));
    }
    let spec = a.model_args.load(&a.model, quiet)?;
    let implementation = match &a.impl_model {
        Some(path) => Some(a.model_args.load(path, quiet)?),
        None => None,
    };
    let system = match (&implementation, &a.sut) {
        (Some(model), _) => ncomplete::exec::commands::ExploreSystem::Model(model),
        (None, Some(command)) => ncomplete::exec::commands::ExploreSystem::Process(command),
        (None, None) => return Err(Error::Usage("give --sut COMMAND or --model IMPL".into())),
    };
    let status = ncomplete::exec::commands::explore(
        &spec,
        system,
        &options,
        purpose.as_ref(),
        a.out.as_deref(),
        quiet,
        &mut std::io::stdout(),
    )?;
    Ok(ExitCode::from(status))
}

/// `generate`: a test suite for a model, ioco or Mealy by its method.
fn run_generate(a: GenerateArgs, quiet: bool) -> Result<ExitCode, Error> {
    let start = std::time::Instant::now();
    let (dir, suite_path) = a.destination()?;
    let model_args = ModelArgs {
        model_format: a.model_format,
        deprecated_format: None,
        inputs: a.inputs.clone(),
        outputs: a.outputs.clone(),
        initial: a.initial.clone(),
    };
    let model = model_args.load(&a.model, quiet)?;
    if let Some(source) = a.goal_source() {
        return generate_goals(&a, model, source, quiet, dir, &suite_path);
    }
    // `auto` is ioco-auto for labelled transition systems, Mealy auto for Mealy machines.
    let chosen = match (a.method, &model) {
        (GenerateMethod::Auto, Model::Lts(_)) => GenerateMethod::IocoAuto,
        (m, _) => m,
    };
    if let Some(method) = chosen.ioco(a.incompatible_sets) {
        return generate_ioco(&a, model, method, quiet, dir, &suite_path);
    }
    generate_mealy(&a, model, quiet, dir, &suite_path, start)
}

/// `generate --purpose|--purpose-regex|--cover`: goal-directed tests by joker strategies.
fn generate_goals(
    a: &GenerateArgs,
    model: Model,
    source: ncomplete::goals::cases::GoalSource,
    quiet: bool,
    dir: Option<AtomicDir>,
    suite_path: &str,
) -> Result<ExitCode, Error> {
    a.refuse_words("goal-directed tests are suite JSON (--format json) or its renderings")?;
    let sa = ncomplete::suite::ioco::suspension_for(&model, &a.model)?;
    let budget = a.budget.budget();
    let (goals, method) = ncomplete::goals::cases::load_goals(&sa, &source, &budget)?;
    let suite = ncomplete::goals::goal_suite(&sa, &goals, &method, a.patience, &budget)?;
    suite.refuse_unreachable(&source)?;
    if a.stats {
        eprintln!("{method}: {}", suite.costs.summary(&budget.timing));
    }
    suite.write(suite_path)?;
    a.finish(dir, suite_path)?;
    if !quiet {
        eprint!("{}", suite.report_text());
    }
    Ok(ExitCode::SUCCESS)
}

/// `generate` with a Mealy method: the suite of the minimised machine, as JSON v1 or words.
fn generate_mealy(
    a: &GenerateArgs,
    model: Model,
    quiet: bool,
    dir: Option<AtomicDir>,
    suite_path: &str,
    start: std::time::Instant,
) -> Result<ExitCode, Error> {
    let method = a.method.mealy().expect("every method is Mealy or ioco");
    let mut mealy = match model {
        Model::Mealy(m) => m,
        Model::Lts(l) => {
            let what = if l.onfsm().is_some() {
                "a nondeterministic Mealy machine (ONFSM), which is tested with ioco through its suspension automaton"
            } else {
                "a labelled transition system"
            };
            return Err(Error::Usage(format!(
                "{}: the Mealy methods need a deterministic Mealy machine, but this model is {what} (use --method ioco-complete|unconditional|ioco-ads|ioco-counting)",
                a.model
            )));
        }
    };
    if a.n.is_some() {
        return Err(Error::Usage(
            "the Mealy methods take --extra-states E (the bound is the minimised model's size plus E)".into(),
        ));
    }
    if let Some(c) = a.complete {
        mealy = ncomplete::model::complete_mealy(&mealy, c.completion()).map_err(|source| {
            Error::Model {
                path: a.model.clone(),
                source,
            }
        })?;
    }
    let options = ncomplete::suite::mealy::MealySuiteOptions {
        method,
        extra_states: a.extra_states.unwrap_or(0),
        prune_prefixes: !a.keep_prefixes,
    };
    let format = match a.format {
        SuiteFileFormat::Words => ncomplete::render::words::MealySuiteFormat::Words,
        _ => ncomplete::render::words::MealySuiteFormat::Json,
    };
    let generated = ncomplete::render::words::generate_mealy_suite(
        &mealy,
        &a.model,
        options,
        ncomplete::render::words::MealySuiteFile {
            format,
            out: suite_path,
            shard: a.shard,
        },
        !quiet,
        &a.budget.budget(),
    )?;
    a.finish(dir, suite_path)?;
    if a.stats {
        eprintln!(
            "{}, time: {:.2} s",
            generated.stats,
            start.elapsed().as_secs_f64()
        );
    }
    if !quiet {
        eprintln!(
            "{}; guarantee: {}",
            tests_text(&generated.stats.tests.to_string()),
            generated.guarantee
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `COUNT tests`, or `1 test`.
fn tests_text(count: &str) -> String {
    if count == "1" {
        "1 test".to_owned()
    } else {
        format!("{count} tests")
    }
}

/// `sizes`: the cost figures of the ioco methods per bound, counted from their plans.
fn run_sizes(a: SizesArgs, quiet: bool) -> Result<ExitCode, Error> {
    use ncomplete::suite::ioco::sizes;
    let methods = if a.method.is_empty() {
        vec![
            GenerateMethod::IocoComplete,
            GenerateMethod::Unconditional,
            GenerateMethod::IocoCounting,
            GenerateMethod::IocoAds,
            GenerateMethod::IocoAuto,
        ]
    } else {
        a.method.clone()
    };
    let methods = methods
        .iter()
        .map(|m| {
            m.ioco(a.incompatible_sets).ok_or_else(|| {
                Error::Usage(
                    "sizes audits the ioco methods: --method ioco-complete|unconditional|ioco-ads|ioco-counting|ioco-auto"
                        .into(),
                )
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let range = sizes::parse_range(&a.n).map_err(Error::Usage)?;
    let model = a.model_args.load(&a.model, quiet)?;
    let (sa, options) = a.ioco.specification(&model, &a.model)?;
    let tables: Vec<sizes::SizeTable> = methods
        .iter()
        .map(|&m| sizes::size_table(&sa, m, range.clone(), a.budget.budget(), options))
        .collect();
    let text = if a.json {
        let mut t =
            serde_json::to_string_pretty(&tables).map_err(|e| Error::Usage(e.to_string()))?;
        t.push('\n');
        t
    } else {
        tables
            .iter()
            .map(|t| t.to_text())
            .collect::<Vec<_>>()
            .join("\n")
    };
    format::write_text(None, &text)?;
    Ok(ExitCode::SUCCESS)
}

/// `generate` with an ioco method: the suite of the model's suspension automaton, as JSON v1.
fn generate_ioco(
    a: &GenerateArgs,
    model: Model,
    method: ncomplete::suite::ioco::IocoMethod,
    quiet: bool,
    dir: Option<AtomicDir>,
    suite_path: &str,
) -> Result<ExitCode, Error> {
    use ncomplete::suite::ioco::{self, Bound, IocoMethod};
    a.refuse_words(
        "the ioco methods write suite JSON (--format json); words are for Mealy suites",
    )?;
    let (sa, options) = a.ioco.specification(&model, &a.model)?;
    let bound = match (a.n, a.extra_states) {
        (Some(n), _) => Bound::States(n),
        (None, Some(e)) => Bound::ExtraStates(e),
        (None, None) => return Err(Error::Usage("give --n N or --extra-states E".into())),
    };
    let budget = a.budget.budget();
    // Every figure is counted and checked against the budget here, before the file is created.
    let suite = if method == IocoMethod::Auto {
        let (suite, choice) = ioco::auto::choose_with(&sa, bound, budget, options)?;
        if a.stats {
            eprint!("{}", choice.to_text());
        }
        suite
    } else {
        ioco::generate_with(&sa, method, bound, budget, options)?
    };
    if a.stats {
        eprintln!(
            "{}: {}",
            suite.header().method,
            suite.costs().summary(&budget.timing)
        );
    }
    ioco::write_suite_file(&suite, Some(suite_path), a.shard, !quiet)?;
    a.finish(dir, suite_path)?;
    if !quiet {
        eprintln!(
            "{}; guarantee: {}",
            tests_text(&ncomplete::suite::count_text(suite.num_tests())),
            suite.header().guarantee
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `audit`: the mutation audit of the chosen methods over a range of bounds.
fn run_audit(a: &AuditArgs, quiet: bool) -> Result<ExitCode, Error> {
    use ncomplete::audit::report::{self, AuditMethod, AuditOptions, BoundKind};
    let (bound_kind, bounds) = match (&a.n, &a.extra_states) {
        (Some(r), _) => (
            BoundKind::States,
            report::parse_bounds(r, 1).map_err(|e| Error::Usage(format!("--n: {e}")))?,
        ),
        (None, r) => (
            BoundKind::ExtraStates,
            report::parse_bounds(r.as_deref().unwrap_or("0..2"), 0)
                .map_err(|e| Error::Usage(format!("--extra-states: {e}")))?,
        ),
    };
    if let Some(plot) = &a.plot {
        output::refuse_input_as_output("--plot", plot, &[&a.model])?;
    }
    let model = a.model_args.load(&a.model, quiet)?;
    let mutable = ncomplete::audit::mutable_model(&model, &a.model)?;
    let methods = if a.method.is_empty() {
        AuditMethod::defaults(&mutable)
    } else {
        a.method
            .iter()
            .map(|m| match (m.mealy(), m.ioco(a.incompatible_sets)) {
                (Some(mm), _) => AuditMethod::Mealy(mm),
                (None, Some(im)) => AuditMethod::Ioco(im),
                (None, None) => unreachable!("every method is Mealy or ioco"),
            })
            .collect()
    };
    let options = AuditOptions {
        methods,
        bound_kind,
        bounds,
        mutants: a.mutants,
        seed: a.seed,
        max_tests: a.max_tests,
    };
    let progress =
        ncomplete::progress::Progress::new(!quiet && a.mutants > 0, "auditing", "mutants", None);
    let mut result = report::audit(&mutable, &options, &progress)?;
    progress.finish();
    if a.no_time {
        result = result.without_time();
    }
    let text = if a.json {
        result.to_json()
    } else {
        result.to_text()
    };
    format::write_text(None, &text)?;
    if let Some(path) = &a.plot {
        ncomplete::audit::plot::write_audit_svg(&result, path)?;
    }
    let wrong = result.wrongly_failed();
    if wrong > 0 {
        eprintln!(
            "error: {wrong} conforming mutants were failed by a suite: a soundness bug, please report it"
        );
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// A message cut to at most 1,000 bytes, so input quoted in it (a huge label) cannot flood the
/// terminal; messages quote input through `excerpt` already, this is the backstop.
fn shorten(message: &str) -> std::borrow::Cow<'_, str> {
    const MAX: usize = 1000;
    if message.len() <= MAX {
        return message.into();
    }
    let mut cut = MAX;
    while !message.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}… ({} more bytes)", &message[..cut], message.len() - cut).into()
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        // A reader that closed the pipe (`| head`) has what it wanted.
        Err(e) if e.is_broken_pipe() => ExitCode::SUCCESS,
        Err(e) => {
            let shown = e.to_string();
            eprintln!("error: {}", shorten(&shown));
            // Causes the message does not already show.
            let mut source = std::error::Error::source(&e);
            while let Some(s) = source {
                let text = s.to_string();
                if !shown.contains(&text) {
                    eprintln!("  caused by: {}", shorten(&text));
                }
                source = s.source();
            }
            ExitCode::from(e.exit_code())
        }
    }
}
