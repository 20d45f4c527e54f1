//! The arguments of the commands that execute or render suites (`render`, `simulate`, `run`,
//! `explore`), with the system, timeout and purpose options they share, and their conversions
//! to the pipeline's requests.

use super::shared::{ModelArgs, parse_shard};
use clap::{Args, ValueEnum};
use ncomplete::suite::names::Shard;

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
