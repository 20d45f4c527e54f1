//! The commands over models: `info`, `convert`, `draw`, `check`, `mutate`, `distinguish` and
//! `audit`.

use super::{Method, load_model};
use crate::Error;
use crate::audit::report::{AuditMethod, AuditOptions, AuditReport, BoundKind};
use crate::check::{CheckReport, LanguageSource, MissingInputs};
use crate::format::{self, Format, LoadOptions};
use crate::identify::{DistinguishOptions, DistinguishReport};
use crate::model::{MealyEmbedding, Model, TransformOptions};
use crate::output;
use crate::suite::ioco::IncompatibleSets;
use std::io::Write;

/// `ncomplete info`: the figures of a model file.
pub fn info(
    model_path: &str,
    load: &LoadOptions,
    quiet: bool,
) -> Result<crate::info::ModelInfo, Error> {
    let model = load_model(model_path, load, quiet)?;
    Ok(crate::info::model_info(&model))
}

/// What `ncomplete draw` writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DrawFormat {
    /// A standalone SVG picture laid out by ncomplete.
    #[default]
    Svg,
    /// A Graphviz DOT digraph (laid out by `dot`).
    Dot,
}

/// `ncomplete draw`'s options.
#[derive(Clone, Debug, Default)]
pub struct DrawRequest {
    /// How to read the model.
    pub load: LoadOptions,
    /// SVG or DOT.
    pub format: DrawFormat,
    /// A run's JSON results (`run --spec MODEL --json FILE`) whose coverage colours the picture.
    pub coverage: Option<String>,
    /// No warnings on stderr.
    pub quiet: bool,
}

/// `ncomplete draw`: the picture of a model file ([`crate::render::draw`]), coloured with the
/// coverage of a run when `request.coverage` names its JSON results (then an LTS is drawn as
/// its suspension automaton, where coverage is counted).
pub fn draw(model_path: &str, request: &DrawRequest) -> Result<String, Error> {
    use crate::render::draw::Picture;
    let model = load_model(model_path, &request.load, request.quiet)?;
    let picture = match &request.coverage {
        None => Picture::of_model(&model),
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| Error::io(path.clone(), e))?;
            let results: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
                Error::Usage(format!(
                    "{path}:{}:{}: not JSON results of `ncomplete run --json`: {e}",
                    e.line(),
                    e.column()
                ))
            })?;
            if results["format"] != "ncomplete-results-v1" {
                return Err(Error::Usage(format!(
                    "{path}: not JSON results of `ncomplete run --json` (format \
                     ncomplete-results-v1 expected)"
                )));
            }
            let Some(coverage) = results.get("coverage") else {
                return Err(Error::Usage(format!(
                    "{path}: the results hold no coverage: run the suite with --spec \
                     {model_path} --json FILE"
                )));
            };
            let mut marks = crate::exec::report_html::SpecCoverage::of_run_spec(&model)?;
            marks.mark_json(coverage).map_err(|e| {
                Error::Usage(format!(
                    "{path}: {e}: were these results run with --spec {model_path}?"
                ))
            })?;
            marks.picture()
        }
    };
    Ok(match request.format {
        DrawFormat::Svg => picture.svg(),
        DrawFormat::Dot => picture.dot(),
    })
}

/// What `ncomplete info` reports: a model's figures, or an STS's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InfoReport {
    /// The figures of a model.
    Model(crate::info::ModelInfo),
    /// The figures of a symbolic transition system (`crate::sts`).
    Sts(crate::sts::StsInfo),
}

impl InfoReport {
    /// The human-readable report.
    pub fn to_text(&self) -> String {
        match self {
            InfoReport::Model(i) => i.to_text(),
            InfoReport::Sts(i) => i.to_text(),
        }
    }

    /// The JSON report.
    pub fn to_json(&self) -> String {
        match self {
            InfoReport::Model(i) => i.to_json(),
            InfoReport::Sts(i) => i.to_json(),
        }
    }
}

/// `ncomplete info` for any model file: an STS (named `.sts.*`, or a YAML/JSON file with the
/// top-level key `sts`) is described as one, whether or not it has a finite instantiation.
pub fn info_report(model_path: &str, load: &LoadOptions, quiet: bool) -> Result<InfoReport, Error> {
    if super::is_sts_file(model_path, load)? {
        let sts = crate::sts::load_sts(model_path)?;
        return Ok(InfoReport::Sts(crate::sts::sts_info(&sts)));
    }
    info(model_path, load, quiet).map(InfoReport::Model)
}

/// The options of [`convert`] (`ncomplete convert`).
#[derive(Clone, Debug)]
pub struct ConvertRequest {
    /// How the model file is read.
    pub load: LoadOptions,
    /// The target format.
    pub to: Format,
    /// The file the text will be written to (`None`: standard output), refused when it is the
    /// model file.
    pub out: Option<String>,
    /// The transformations applied before writing.
    pub transform: TransformOptions,
    /// No warnings on stderr.
    pub quiet: bool,
}

/// What `ncomplete convert` writes: the model text and, for a model with timeout annotations in
/// a format without room for them (`.aut`, `.fsm`), the text of its side file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Converted {
    /// The model file's text.
    pub text: String,
    /// The side file's text, written to `OUT.timeouts` ([`format::timeouts::side_file`]).
    pub side_file: Option<String>,
}

impl Converted {
    /// Writes the text to `out` (`None` or `-`: standard output) and the side file beside it,
    /// both whole or neither ([`convert`] refuses a side file without an output file).
    pub fn write(&self, out: Option<&str>) -> Result<(), Error> {
        match (out, &self.side_file) {
            (Some(out), Some(side)) if out != "-" => {
                let side_path = format::timeouts::side_file(out);
                Ok(output::write_files_together(&[
                    (out, self.text.as_bytes()),
                    (&side_path, side.as_bytes()),
                ])?)
            }
            _ => Ok(format::write_text(out, &self.text)?),
        }
    }
}

/// `ncomplete convert`: the model file after the requested transformations, as text in the
/// target format with its timeout annotations (written to `request.out` by the caller with
/// [`Converted::write`]).
pub fn convert(model_path: &str, request: &ConvertRequest) -> Result<Converted, Error> {
    use crate::model::{Transformed, transform};
    if let Some(out) = &request.out {
        output::refuse_input_as_output("--out", out, &[model_path])?;
        // A side file goes beside `--out` when the target format has no room for annotations.
        if out != "-" && matches!(request.to, Format::Aut | Format::Fsm) {
            let side = format::timeouts::side_file(out);
            output::refuse_input_as_output("--out", &side, &[model_path])?;
        }
    }
    let (model, annotations) =
        super::load_model_and_annotations(model_path, &request.load, request.quiet)?;
    let opts = &request.transform;
    opts.check(&model).map_err(Error::Usage)?;
    let from_mealy = matches!(model, Model::Mealy(_));
    let model = match transform(model, opts).map_err(|source| Error::Model {
        path: model_path.to_owned(),
        source,
    })? {
        Transformed::Model(m) => m,
        Transformed::Suspension(sa) => Model::Lts(format::suspension_as_lts(&sa)),
    };
    let annotations = carried_annotations(model_path, annotations, from_mealy, opts, &model)?;
    let to = request.to;
    if let Some(why) = format::unrepresentable(&model, to) {
        return Err(Error::Usage(format!(
            "{model_path}: cannot convert to {to} without changing the model: {why}; use --to yaml or json"
        )));
    }
    let written = format::write_model_annotated(&model, &annotations, to)
        .map_err(|why| Error::Usage(format!("{model_path}: {why}; use --to yaml or json")))?;
    let out_file = request.out.as_deref().filter(|o| *o != "-");
    match out_file {
        None if written.side_file.is_some() => {
            return Err(Error::Usage(format!(
                "{model_path}: the model has timeout annotations, which {to} cannot hold: they go to the side file FILE.timeouts beside --out FILE; give --out FILE, or use --to yaml, json or dot"
            )));
        }
        // A side file left from an earlier conversion would be read with the new model.
        Some(out) if matches!(to, Format::Aut | Format::Fsm) && written.side_file.is_none() => {
            let side = format::timeouts::side_file(out);
            if !request.quiet && std::path::Path::new(&side).exists() {
                eprintln!(
                    "warning: {side} exists and is read with {out}, but {model_path} has no timeout annotations; remove it unless they are meant for the converted model"
                );
            }
        }
        _ => {}
    }
    Ok(Converted {
        text: written.model,
        side_file: written.side_file,
    })
}

/// The timeout annotations of the model file `model_path` as they apply to the model `convert`
/// writes after the transformations `opts` (`from_mealy`: the file holds a Mealy machine).
/// Completion keeps every state and input (a sink state has no annotation), and a suspension
/// automaton keeps the inputs, so those annotations are carried as they are. A suspension
/// automaton of an LTS names its states after sets of the LTS's states, and minimisation merges
/// states, so quiescence timeouts are refused there rather than dropped or misapplied (that of a
/// Mealy machine keeps the machine's states and adds intermediate ones). Finally every
/// annotation must name a state or an input of the written model.
fn carried_annotations(
    model_path: &str,
    annotations: format::timeouts::TimeoutAnnotations,
    from_mealy: bool,
    opts: &TransformOptions,
    converted: &Model,
) -> Result<format::timeouts::TimeoutAnnotations, Error> {
    let to_suspension = opts.suspension || (opts.minimize && !from_mealy);
    if to_suspension && (!from_mealy || opts.minimize) && !annotations.quiescence_ms.is_empty() {
        let names: Vec<String> = (annotations.quiescence_ms.keys())
            .map(|s| format!("`{}`", crate::format::position::excerpt(s)))
            .collect();
        let option = if opts.minimize {
            "--minimize"
        } else {
            "--suspension"
        };
        return Err(Error::Usage(format!(
            "{model_path}: {option} renames or merges the states, so the quiescence timeouts of the states {} would name states the converted model does not have; convert without {option}, or remove those annotations first",
            names.join(", ")
        )));
    }
    format::timeouts::check(&annotations.to_annotations(), converted).map_err(
        |(_, found, expected)| {
            Error::Usage(format!(
                "{model_path}: the converted model cannot keep the timeout annotations: found {found}, expected {expected}"
            ))
        },
    )
}

/// A language of `check`'s conf(D,F): a regular expression, a file holding one, or the traces
/// of a model file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LanguageInput {
    /// A regular expression over labels, with the option that gave it (for messages).
    Regex {
        /// The expression.
        text: String,
        /// Where it came from (`--desired`).
        source: String,
    },
    /// A file holding a regular expression.
    RegexFile(String),
    /// The traces of a model file (read with the check's load options).
    Model(String),
}

/// The options of [`check`] (`ncomplete check`).
#[derive(Clone, Debug, Default)]
pub struct CheckModels {
    /// How both model files (and model languages) are read.
    pub load: LoadOptions,
    /// uioco instead of ioco.
    pub uioco: bool,
    /// What an input the implementation refuses means.
    pub missing_inputs: MissingInputs,
    /// Mealy quasi-equivalence instead of equivalence.
    pub quasi: bool,
    /// Desired behaviour D of conf(D,F).
    pub desired: Option<LanguageInput>,
    /// Forbidden behaviour F of conf(D,F).
    pub forbidden: Option<LanguageInput>,
    /// Largest number of states built when determinising an LTS.
    pub budget: usize,
    /// ioco as a tester sees it through the input/output race ([`crate::check::race`]).
    pub race: bool,
    /// No warnings on stderr.
    pub quiet: bool,
}

/// `ncomplete check`: whether the implementation model file `imp` conforms to the
/// specification model file `spec`, with the report text.
pub fn check(spec: &str, imp: &str, request: &CheckModels) -> Result<CheckReport, Error> {
    let spec_model = load_model(spec, &request.load, request.quiet)?;
    let imp_model = load_model(imp, &request.load, request.quiet)?;
    let language = |input: &Option<LanguageInput>| -> Result<Option<LanguageSource>, Error> {
        Ok(match input {
            None => None,
            Some(LanguageInput::Regex { text, source }) => Some(LanguageSource::Regex {
                text: text.clone(),
                source: source.clone(),
            }),
            Some(LanguageInput::RegexFile(f)) => {
                let bytes = std::fs::read(f).map_err(|e| Error::io(f.as_str(), e))?;
                Some(LanguageSource::Regex {
                    text: format::utf8_text(bytes, f)?,
                    source: f.clone(),
                })
            }
            Some(LanguageInput::Model(m)) => Some(LanguageSource::Model(load_model(
                m,
                &request.load,
                request.quiet,
            )?)),
        })
    };
    let req = crate::check::CheckRequest {
        uioco: request.uioco,
        missing_inputs: request.missing_inputs,
        quasi: request.quasi,
        desired: language(&request.desired)?,
        forbidden: language(&request.forbidden)?,
        budget: request.budget,
        race: request.race,
    };
    Ok(crate::check::check_models(
        &spec_model,
        spec,
        &imp_model,
        imp,
        &req,
    )?)
}

/// The options of [`mutate`] (`ncomplete mutate`).
#[derive(Clone, Debug)]
pub struct MutateRequest {
    /// How the model file is read.
    pub load: LoadOptions,
    /// Number of mutants.
    pub count: usize,
    /// Mutants have at most `n` states.
    pub n: Option<usize>,
    /// Mutants have at most this many states more than the model (when `n` is not given).
    pub extra_states: Option<usize>,
    /// Seed of the generator.
    pub seed: u64,
    /// Directory for the mutant files and `index.json`.
    pub out: String,
    /// No warnings on stderr.
    pub quiet: bool,
}

/// `ncomplete mutate`: seeded mutants of a model file written to a directory; returns the
/// summary text. Fewer distinct mutants than asked for is a warning on stderr.
pub fn mutate(model_path: &str, request: &MutateRequest) -> Result<String, Error> {
    use crate::audit::{self, MutateOptions, SizeBound};
    output::refuse_input_inside_dir("--out", std::path::Path::new(&request.out), &[model_path])?;
    let model = load_model(model_path, &request.load, request.quiet)?;
    let bound = match (request.n, request.extra_states) {
        (Some(n), _) => SizeBound::States(n),
        (None, Some(e)) => SizeBound::Extra(e),
        (None, None) => {
            return Err(Error::Usage("give --n N or --extra-states E".into()));
        }
    };
    let opts = MutateOptions {
        count: request.count,
        bound,
        seed: request.seed,
    };
    let original = audit::mutable_model(&model, model_path)?;
    let mutants = audit::mutants(&original, &opts)?;
    if mutants.len() < request.count && !request.quiet {
        eprintln!(
            "warning: only {} distinct mutants found (asked for {})",
            mutants.len(),
            request.count
        );
    }
    let dir = std::path::Path::new(&request.out);
    write_mutants(dir, model_path, &original, &opts, &mutants)?;
    Ok(audit::mutants_summary(model_path, &mutants, dir))
}

/// Writes every mutant as a model file ([`crate::audit::mutant_file`]) into `dir`, and
/// `index.json` describing them. `dir` is built beside its place and swapped in whole
/// ([`output::AtomicDir`]), so no mutant of an earlier run survives.
fn write_mutants(
    dir: &std::path::Path,
    model_path: &str,
    original: &crate::audit::MutantModel,
    opts: &crate::audit::MutateOptions,
    mutants: &[crate::audit::Mutant],
) -> Result<(), Error> {
    let out = output::AtomicDir::create(dir, "mutants", false)?;
    let write = |file: &str, text: &str| {
        output::write_path(&out.path().join(file), text.as_bytes())
            .map_err(|e| Error::io(dir.join(file).display().to_string(), e))
    };
    let mut files = Vec::with_capacity(mutants.len());
    for m in mutants {
        let (file, text) = crate::audit::mutant_file(m);
        write(&file, &text)?;
        files.push(file);
    }
    let index = crate::audit::mutants_index(model_path, original, opts, mutants, &files);
    write("index.json", &index)?;
    Ok(out.commit()?)
}

/// The options of [`distinguish`] (`ncomplete distinguish`).
#[derive(Clone, Debug, Default)]
pub struct DistinguishRequest {
    /// How the model file is read.
    pub load: LoadOptions,
    /// How a Mealy machine is embedded (hidden and merged labels).
    pub embedding: MealyEmbedding,
    /// The analysis.
    pub options: DistinguishOptions,
    /// Write the splitting graph and the ADG as DOT to this file.
    pub dot: Option<String>,
    /// Also draw every top-up graph in the DOT file.
    pub dot_topups: bool,
    /// Write the ADG and the top-ups as suite JSON v1 to this file.
    pub suite: Option<String>,
    /// No warnings or spinner on stderr.
    pub quiet: bool,
}

/// `ncomplete distinguish`: the state identification metrics of a model file (van den Bos
/// Table 3.2), writing the DOT and suite files asked for.
pub fn distinguish(
    model_path: &str,
    request: &DistinguishRequest,
) -> Result<DistinguishReport, Error> {
    use crate::identify::{self, report};
    for (option, out) in [("--dot", &request.dot), ("--suite", &request.suite)] {
        if let Some(out) = out {
            output::refuse_input_as_output(option, out, &[model_path])?;
        }
    }
    if request.dot.is_some() && request.dot == request.suite && request.dot.as_deref() != Some("-")
    {
        return Err(Error::Usage("--dot and --suite name the same file".into()));
    }
    let model = load_model(model_path, &request.load, request.quiet)?;
    let sa = report::suspension_of(&model, &request.embedding).map_err(|source| Error::Model {
        path: model_path.to_owned(),
        source,
    })?;
    let spinner = if request.quiet {
        indicatif::ProgressBar::hidden()
    } else {
        indicatif::ProgressBar::new_spinner()
    };
    let d = identify::distinguish(&sa, &request.options, &mut |phase| {
        spinner.set_message(phase.to_owned());
        spinner.tick();
    })?;
    spinner.finish_and_clear();
    if let Some(path) = &request.dot {
        let mut out = output::Output::create(path)?;
        report::write_distinguish_dot(&d, request.dot_topups, &mut out)
            .map_err(|e| Error::io(path, e))?;
        out.commit()?;
    }
    if let Some(path) = &request.suite {
        let mut out = output::Output::create(path)?;
        crate::suite::distinguish::write_suite(&d, &mut out).map_err(|e| Error::io(path, e))?;
        out.commit()?;
    }
    Ok(d.report)
}

/// The options of [`audit`] (`ncomplete audit`).
#[derive(Clone, Debug)]
pub struct AuditRequest {
    /// How the model file is read.
    pub load: LoadOptions,
    /// The methods (empty: the defaults of the model's kind).
    pub methods: Vec<Method>,
    /// Bounds n on implementation states: `4`, `1..6`; `None`: `extra_states`.
    pub n: Option<String>,
    /// Bounds E on extra states (`None`: `0..2`).
    pub extra_states: Option<String>,
    /// Mutants per bound.
    pub mutants: usize,
    /// Seed of the mutants.
    pub seed: u64,
    /// A method stops at the first bound whose suite has more tests than this.
    pub max_tests: u64,
    /// The sets of ioco-counting.
    pub incompatible_sets: IncompatibleSets,
    /// The report as JSON instead of a table.
    pub json: bool,
    /// Leave out measured times.
    pub no_time: bool,
    /// Draw the SVG chart to this file.
    pub plot: Option<String>,
    /// No warnings or progress on stderr.
    pub quiet: bool,
}

impl Default for AuditRequest {
    fn default() -> Self {
        AuditRequest {
            load: LoadOptions::default(),
            methods: Vec::new(),
            n: None,
            extra_states: None,
            mutants: 0,
            seed: 1,
            max_tests: 200_000,
            incompatible_sets: IncompatibleSets::default(),
            json: false,
            no_time: false,
            plot: None,
            quiet: false,
        }
    }
}

/// What [`audit`] found.
#[derive(Clone, Debug)]
pub struct AuditOutcome {
    /// The report (without times when asked).
    pub report: AuditReport,
    /// Conforming mutants some suite failed: a soundness bug when not zero.
    pub wrongly_failed: usize,
}

/// `ncomplete audit`: suite size and mutation score per method and bound of a model file; the
/// report (text or JSON) is written to `out`, then the chart to `request.plot`.
pub fn audit(
    model_path: &str,
    request: &AuditRequest,
    out: &mut dyn Write,
) -> Result<AuditOutcome, Error> {
    use crate::audit::report::{audit, parse_bounds};
    let (bound_kind, bounds) = match (&request.n, &request.extra_states) {
        (Some(r), _) => (
            BoundKind::States,
            parse_bounds(r, 1).map_err(|e| Error::Usage(format!("--n: {e}")))?,
        ),
        (None, r) => (
            BoundKind::ExtraStates,
            parse_bounds(r.as_deref().unwrap_or("0..2"), 0)
                .map_err(|e| Error::Usage(format!("--extra-states: {e}")))?,
        ),
    };
    if let Some(plot) = &request.plot {
        output::refuse_input_as_output("--plot", plot, &[model_path])?;
    }
    let model = load_model(model_path, &request.load, request.quiet)?;
    let mutable = crate::audit::mutable_model(&model, model_path)?;
    let methods = if request.methods.is_empty() {
        AuditMethod::defaults(&mutable)
    } else {
        request
            .methods
            .iter()
            .map(|m| match (m.mealy(), m.ioco(request.incompatible_sets)) {
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
        mutants: request.mutants,
        seed: request.seed,
        max_tests: request.max_tests,
    };
    let progress = crate::progress::Progress::new(
        !request.quiet && request.mutants > 0,
        "auditing",
        "mutants",
        None,
    );
    let mut report = audit(&mutable, &options, &progress)?;
    progress.finish();
    if request.no_time {
        report = report.without_time();
    }
    let text = if request.json {
        report.to_json()
    } else {
        report.to_text()
    };
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| Error::io("<stdout>", e))?;
    if let Some(path) = &request.plot {
        let svg = crate::audit::plot::audit_svg(&report)?;
        output::write_file(path, svg.as_bytes())?;
    }
    Ok(AuditOutcome {
        wrongly_failed: report.wrongly_failed(),
        report,
    })
}
