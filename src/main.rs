//! The `ncomplete` command line: parses arguments (clap derive) and calls the library.
//!
//! Exit status: 0 success, 1 a check or suite failed, 2 bad input or usage (clap's usage errors
//! exit with 2 too).

use clap::{Args, Parser, Subcommand};
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
        Command::Convert(a) => {
            let model = a.model_args.load(&a.model, quiet)?;
            let text = format::write_model(&model, a.to);
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
