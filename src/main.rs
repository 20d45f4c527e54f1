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
    /// Decide whether an implementation model conforms to a specification model: ioco (or uioco),
    /// Mealy equivalence, or conf(D,F) for desired and forbidden behaviour. Exit status 0 conforms,
    /// 1 does not (with a shortest counterexample), 2 bad input.
    Check(CheckArgs),
    /// Write seeded mutants of a model (output, transfer, added/removed output and cloned-state
    /// faults within a state bound), each with its exact verdict, plus index.json.
    Mutate(MutateArgs),
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
            let t = std::fs::read_to_string(f).map_err(|e| Error::io(f.as_str(), e))?;
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
        Command::Check(a) => {
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
        }
        Command::Mutate(a) => {
            use ncomplete::audit::{self, MutateOptions, SizeBound};
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
