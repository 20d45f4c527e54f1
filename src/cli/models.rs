//! The arguments of the commands over models (`info`, `convert`, `draw`, `distinguish`,
//! `check`, `mutate`, `audit`) and of the model transformations, and their conversions to the
//! pipeline's requests.

use super::generate::{GenerateMethod, methods};
use super::shared::{CompleteArg, ModelArgs, ModelReadArgs};
use clap::{Args, ValueEnum};
use ncomplete::format::Format;
use ncomplete::suite::ioco::IncompatibleSets;

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
