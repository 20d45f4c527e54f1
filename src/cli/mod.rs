//! The command line's arguments: one clap derive struct per subcommand, and their conversions
//! to the option structs of [`ncomplete::pipeline`]. No pipeline logic lives here; `src/main.rs`
//! holds one small function per subcommand that calls one pipeline function.

use clap::{Args, Parser, Subcommand};

mod execute;
mod generate;
mod models;
mod shared;

pub use execute::*;
pub use generate::*;
pub use models::*;

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
