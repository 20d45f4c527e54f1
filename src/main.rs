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
    /// State identification metrics (van den Bos Table 3.2): compatibility, splitting graph,
    /// adaptive distinguishing graph and pairwise top-ups.
    Distinguish(DistinguishArgs),
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
            let text = format::write_model(&model, a.to);
            format::write_text(a.out.as_deref(), &text)?;
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
