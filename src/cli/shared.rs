//! The arguments the commands share: how to read a model file ([`ModelArgs`],
//! [`ModelReadArgs`]), `--shard K/N` ([`parse_shard`]) and how to complete a partial Mealy
//! machine ([`CompleteArg`]).

use clap::{Args, ValueEnum};
use ncomplete::format::{Format, LoadOptions};
use ncomplete::suite::names::Shard;

/// Parses `--shard K/N`.
pub fn parse_shard(s: &str) -> Result<Shard, String> {
    Shard::parse(s)
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
