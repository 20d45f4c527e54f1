//! The `ncomplete` command line: parses arguments (clap derive) and calls the library.
//!
//! Exit status: 0 success, 1 a check or suite failed, 2 bad input or usage (clap's usage errors
//! exit with 2 too).

use clap::{Args, Parser, Subcommand, ValueEnum};
use ncomplete::Error;
use ncomplete::format::{self, Format, LoadOptions};
use ncomplete::model::Model;
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
    /// Render a suite as TTCN-3-like text, a pytest module or a Cargo package.
    Render(RenderArgs),
    /// Act as a system under test made from a model: inputs on stdin, outputs on stdout.
    Simulate(SimulateArgs),
    /// Run a suite against a model (exactly, in simulation) or a process (`--sut`).
    Run(RunArgs),
    /// State identification metrics (van den Bos Table 3.2): compatibility, splitting graph,
    /// adaptive distinguishing graph and pairwise top-ups.
    Distinguish(DistinguishArgs),
}

#[derive(Args)]
struct RenderArgs {
    /// The suite (JSON v1).
    suite: String,
    /// Target format.
    #[arg(long, value_name = "ttcn|rust|python", value_parser = ["ttcn", "rust", "python"])]
    format: String,
    /// Output directory (created if missing).
    #[arg(long, value_name = "DIR")]
    out: std::path::PathBuf,
    /// Directory of templates overriding the built-in ones (same relative paths as `templates/`).
    #[arg(long, value_name = "DIR")]
    templates: Option<std::path::PathBuf>,
}

#[derive(Args)]
struct SimulateArgs {
    /// The model to simulate.
    model: String,
    #[command(flatten)]
    model_args: ModelArgs,
    /// How to pick among several allowed outputs.
    #[arg(long, value_name = "first|random", value_parser = ["first", "random"], default_value = "first")]
    choose: String,
    /// Seed of `--choose random` (default: a fresh seed per process, so restarts differ).
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Delay before each output, in milliseconds (an input arriving meanwhile goes first).
    #[arg(long, value_name = "MS", default_value_t = 0)]
    delay_ms: u64,
}

#[derive(Args)]
struct RunArgs {
    /// The suite (JSON v1).
    suite: String,
    /// A model of the implementation, executed exactly (every race and output choice).
    #[arg(
        long,
        value_name = "IMPL",
        conflicts_with = "sut",
        required_unless_present = "sut"
    )]
    model: Option<String>,
    #[command(flatten)]
    model_args: ModelArgs,
    /// What to do with inputs the implementation model refuses.
    #[arg(long, value_name = "reject|self-loop", value_parser = ["reject", "self-loop"], default_value = "reject")]
    input_enable: String,
    /// A command starting the system under test (stdio protocol, one label per line).
    #[arg(long, value_name = "COMMAND")]
    sut: Option<String>,
    /// Quiescence timeout of `--sut`, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = ncomplete::exec::stdio::DEFAULT_QUIESCENCE_MS)]
    quiescence_ms: u64,
    /// Re-runs of a test that ended in retry (`--sut`).
    #[arg(long, value_name = "N", default_value_t = ncomplete::exec::stdio::DEFAULT_RETRIES)]
    retries: usize,
}

/// How to read a model file (shared by every command that reads one).
#[derive(Args, Clone, Debug, Default)]
struct ModelArgs {
    /// Model format (default: from the file extension).
    #[arg(long, value_name = "aut|dot|yaml|json")]
    format: Option<Format>,
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
            format: self.format,
            inputs: self.inputs.clone(),
            outputs: self.outputs.clone(),
            initial: self.initial.clone(),
        }
    }

    /// Loads a model, printing the parser's warnings unless `quiet`.
    fn load(&self, path: &str, quiet: bool) -> Result<Model, Error> {
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
    #[arg(long, value_name = "aut|dot|yaml|json")]
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

impl TransformArgs {
    fn options(&self) -> ncomplete::model::TransformOptions {
        use ncomplete::model::{Completion, Divergence, TransformOptions};
        TransformOptions {
            complete: self.complete.map(|c| match c {
                CompleteArg::SelfLoop => Completion::SelfLoop,
                CompleteArg::Sink => Completion::Sink,
            }),
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
        match transform(model, &opts).map_err(|source| Error::Model {
            path: path.to_owned(),
            source,
        })? {
            Transformed::Model(m) => Ok(format::write_model(&m, to)),
            Transformed::Suspension(sa) => Ok(format::write_suspension(&sa, to)),
        }
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
    /// Write the splitting graph, the ADG and the top-ups as DOT to FILE.
    #[arg(long, value_name = "FILE")]
    dot: Option<String>,
    /// Write the ADG and the top-ups as suite JSON v1 to FILE.
    #[arg(long, value_name = "FILE")]
    suite: Option<String>,
    /// Move preferred by the pairwise top-up graphs when both an input and waiting distinguish.
    #[arg(long, value_name = "outputs|inputs", default_value = "outputs")]
    prefer: PreferArg,
    /// Largest number of splitting-graph nodes before giving up.
    #[arg(long, value_name = "N", default_value_t = ncomplete::identify::splitting_graph::DEFAULT_SPLIT_BUDGET)]
    max_nodes: usize,
}

#[derive(Copy, Clone, Debug, clap::ValueEnum)]
enum PreferArg {
    Outputs,
    Inputs,
}

fn run_distinguish(a: DistinguishArgs, quiet: bool) -> Result<(), Error> {
    use ncomplete::identify::{self, DistinguishOptions, Preference, SplitOptions};
    let model = a.model_args.load(&a.model, quiet)?;
    let sa = identify::report::suspension_of(&model).map_err(|source| Error::Model {
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
            ..SplitOptions::default()
        },
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
        format::write_text(
            Some(path),
            &identify::report::distinguish_dot(&sa, &d, true),
        )?;
    }
    if let Some(path) = &a.suite {
        let file = std::fs::File::create(path).map_err(|e| Error::io(path, e))?;
        identify::report::write_suite(&sa, &d, std::io::BufWriter::new(file))
            .map_err(|e| Error::io(path, e))?;
    }
    let text = if a.json {
        d.report.to_json()
    } else {
        d.report.to_text()
    };
    format::write_text(None, &text)
}

fn run(cli: Cli) -> Result<ExitCode, Error> {
    let quiet = cli.quiet;
    match cli.command {
        Command::Info(a) => {
            let model = a.model_args.load(&a.model, quiet)?;
            let info = ncomplete::info::model_info(&model);
            let text = if a.json {
                info.to_json()
            } else {
                info.to_text()
            };
            format::write_text(None, &text)?;
        }
        Command::Distinguish(a) => run_distinguish(a, quiet)?,
        Command::Convert(a) => {
            let model = a.model_args.load(&a.model, quiet)?;
            let text = a.transform.convert(&a.model, model, a.to)?;
            format::write_text(a.out.as_deref(), &text)?;
        }
        Command::Render(a) => {
            let target = ncomplete::render::Format::parse(&a.format)
                .ok_or_else(|| Error::Usage(format!("unknown format `{}`", a.format)))?;
            let written = ncomplete::exec::commands::render(
                &a.suite,
                target,
                &a.out,
                a.templates.as_deref(),
            )?;
            if !quiet {
                eprintln!("wrote {} files to {}", written.len(), a.out.display());
            }
        }
        Command::Simulate(a) => {
            let model = a.model_args.load(&a.model, quiet)?;
            let options = ncomplete::exec::sut::SutOptions {
                choice: if a.choose == "random" {
                    ncomplete::exec::sut::Choice::Random
                } else {
                    ncomplete::exec::sut::Choice::First
                },
                seed: a.seed,
                delay: std::time::Duration::from_millis(a.delay_ms),
            };
            ncomplete::exec::commands::simulate(&model, &options)?;
        }
        Command::Run(a) => {
            let mut stdout = std::io::stdout();
            let verdict = match (&a.model, &a.sut) {
                (Some(path), _) => {
                    let model = a.model_args.load(path, quiet)?;
                    let enabling = if a.input_enable == "self-loop" {
                        ncomplete::exec::InputEnabling::SelfLoop
                    } else {
                        ncomplete::exec::InputEnabling::Reject
                    };
                    ncomplete::exec::commands::run_on_model(
                        &a.suite,
                        &model,
                        enabling,
                        &mut stdout,
                    )?
                }
                (None, Some(command)) => ncomplete::exec::commands::run_on_system(
                    &a.suite,
                    command,
                    std::time::Duration::from_millis(a.quiescence_ms),
                    a.retries,
                    &mut stdout,
                )?,
                (None, None) => {
                    return Err(Error::Usage("give --model IMPL or --sut COMMAND".into()));
                }
            };
            return Ok(ExitCode::from(ncomplete::exec::commands::exit_status(
                verdict,
            )));
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            // Causes the message does not already show.
            let shown = e.to_string();
            let mut source = std::error::Error::source(&e);
            while let Some(s) = source {
                let text = s.to_string();
                if !shown.contains(&text) {
                    eprintln!("  caused by: {text}");
                }
                source = s.source();
            }
            ExitCode::from(e.exit_code())
        }
    }
}
