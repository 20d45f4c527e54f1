//! `generate` and `sizes`: a complete (or goal-directed) suite for a model, written as suite
//! JSON v1, Mealy words or a rendering, and the cost tables of the ioco methods.

use super::options::{GenerateOptions, GeneratedSuite, IocoOptions, SuiteFileFormat};
use super::suite::{BuiltSuite, SuiteRequest, build_suite};
use super::{Method, load_model, tests_text};
use crate::Error;
use crate::exec::timeouts::ModelTimeouts;
use crate::format::LoadOptions;
use crate::goals::cases::GoalSource;
use crate::model::Model;
use crate::output::{self, AtomicDir};
use crate::suite::costs::Budget;
use crate::suite::ioco::{self, sizes};
use crate::suite::requirements::{FIELD as REQUIREMENTS_FIELD, RequirementIndex, TagGraph};
use crate::suite::{SuiteModel, SuiteReadError, TestCase, read_suite_stream};

/// `ncomplete generate`: the suite of the model file `model_path` written as `options` say.
/// An output that is (or holds) an input is refused before the model is read.
pub fn generate(model_path: &str, options: &GenerateOptions) -> Result<GeneratedSuite, Error> {
    let criterion = match options.goals {
        Some(GoalSource::Cover(crate::goals::Coverage::Switches)) => {
            Some(crate::sts::purposes::Criterion::SWITCHES)
        }
        Some(GoalSource::StsSwitchPairs) => Some(crate::sts::purposes::Criterion::SWITCH_PAIRS),
        _ => None,
    };
    if let Some(criterion) = criterion
        && super::is_sts_file(model_path, &options.load)?
    {
        return super::generate_purposes(model_path, criterion, options);
    }
    let start = std::time::Instant::now();
    let (dir, suite_path) = destination(model_path, options)?;
    let (model, timeouts, tags) =
        super::load_tagged_model(model_path, &options.load, options.quiet)?;
    let tags = (!tags.is_empty() && options.format != SuiteFileFormat::Words)
        .then(|| TagGraph::new(&model, &tags));
    generate_into(
        model,
        model_path,
        options,
        (dir, suite_path, timeouts, tags),
        start,
    )
}

/// [`generate`] for a model in memory, named `name` in messages and in the suite header.
pub fn generate_model(
    model: Model,
    name: &str,
    options: &GenerateOptions,
) -> Result<GeneratedSuite, Error> {
    let start = std::time::Instant::now();
    let (dir, suite_path) = destination(name, options)?;
    generate_into(model, name, options, (dir, suite_path, None, None), start)
}

fn generate_into(
    model: Model,
    path: &str,
    options: &GenerateOptions,
    (dir, suite_path, timeouts, tags): (
        Option<AtomicDir>,
        String,
        Option<ModelTimeouts>,
        Option<TagGraph>,
    ),
    start: std::time::Instant,
) -> Result<GeneratedSuite, Error> {
    // A suite of a tagged model is written first, then copied with the tests of each
    // requirement in its header (`crate::suite::requirements`); for standard output through a
    // temporary file.
    let written = match (&tags, suite_path.as_str()) {
        (Some(_), "-") => std::env::temp_dir()
            .join(format!(
                "ncomplete-tagged-suite-{}.json",
                std::process::id()
            ))
            .display()
            .to_string(),
        _ => suite_path.clone(),
    };
    let mut generated = if let Some(source) = &options.goals {
        generate_goals(options, &model, path, source, &written)
    } else {
        generate_complete(options, &model, path, &written)
    };
    if let (Ok(_), Some(tags)) = (&generated, tags) {
        let annotated = annotate_suite_file(&written, &suite_path, tags);
        if let Err(e) = annotated {
            generated = Err(e);
        }
    }
    if written != suite_path {
        let _ = std::fs::remove_file(&written);
    }
    let mut generated = generated?;
    generated.suite_path = suite_path.clone();
    if finish(options, dir, &suite_path, timeouts)? {
        generated.suite_path = std::path::Path::new(&options.out)
            .join("suite.json")
            .display()
            .to_string();
    }
    if generated.method.is_some_and(|m| m.mealy().is_some()) {
        // A Mealy suite's figures end with the time taken, rendering included.
        if let Some(stats) = &mut generated.stats {
            stats.push_str(&format!(", time: {:.2} s\n", start.elapsed().as_secs_f64()));
        }
    }
    Ok(generated)
}

/// Where the suite goes: `out` itself, or `suite.json` in a directory built beside `out` and
/// swapped in as a whole once rendered. Refuses an output that is (or holds) an input before
/// anything is written.
fn destination(
    model_path: &str,
    options: &GenerateOptions,
) -> Result<(Option<AtomicDir>, String), Error> {
    let purpose = match &options.goals {
        Some(GoalSource::Purpose(path)) => Some(path.as_str()),
        _ => None,
    };
    let Some(format) = options.format.rendering() else {
        let inputs: Vec<&str> = std::iter::once(model_path).chain(purpose).collect();
        output::refuse_input_as_output("--out", &options.out, &inputs)?;
        return Ok((None, options.out.clone()));
    };
    if options.out == "-" {
        return Err(Error::Usage(
            "--format ttcn|python|rust writes files: give --out DIR".into(),
        ));
    }
    let templates = options.templates.as_ref().map(|t| t.display().to_string());
    let inputs: Vec<&str> = std::iter::once(model_path)
        .chain(templates.as_deref())
        .chain(purpose)
        .collect();
    output::refuse_input_inside_dir("--out", std::path::Path::new(&options.out), &inputs)?;
    let dir = AtomicDir::create(&options.out, format.name(), options.force)?;
    let suite = dir.path().join("suite.json").display().to_string();
    Ok((Some(dir), suite))
}

/// Refuses the words format (for suites that are not Mealy words), saying `why`.
fn refuse_words(options: &GenerateOptions, why: &str) -> Result<(), Error> {
    if options.format == SuiteFileFormat::Words {
        return Err(Error::Usage(why.into()));
    }
    Ok(())
}

/// Renders the generated suite into the new directory when a program format was asked for
/// (with the model's timeout annotations), then swaps the directory in; returns whether it did.
fn finish(
    options: &GenerateOptions,
    dir: Option<AtomicDir>,
    suite_path: &str,
    timeouts: Option<ModelTimeouts>,
) -> Result<bool, Error> {
    if let (Some(dir), Some(format)) = (dir, options.format.rendering()) {
        crate::exec::commands::render_into(
            suite_path,
            format,
            dir.path(),
            options.templates.as_deref(),
            None,
            None,
            timeouts.map(std::sync::Arc::new),
        )?;
        dir.commit()?;
        return Ok(true);
    }
    Ok(false)
}

/// Goal-directed tests by joker strategies (`--purpose`, `--purpose-regex`, `--cover`).
fn generate_goals(
    options: &GenerateOptions,
    model: &Model,
    path: &str,
    source: &GoalSource,
    suite_path: &str,
) -> Result<GeneratedSuite, Error> {
    refuse_words(
        options,
        "goal-directed tests are suite JSON (--format json) or its renderings",
    )?;
    let sa = ioco::suspension_for(model, path)?;
    let budget = &options.budget;
    let (goals, method) = crate::goals::cases::load_goals(&sa, source, budget, |p, o| {
        Ok::<_, Error>(crate::sts::load_model(p, o)?)
    })?;
    let suite = crate::goals::goal_suite(&sa, &goals, &method, options.patience, budget)?;
    suite.refuse_unreachable(source)?;
    let stats = options
        .stats
        .then(|| format!("{method}: {}\n", suite.costs.summary(&budget.timing)));
    let mut output = crate::output::Output::create(suite_path)?;
    suite
        .write_to(&mut output)
        .map_err(|e| Error::io(suite_path, e))?;
    output.commit()?;
    Ok(GeneratedSuite {
        method: None,
        suite_path: suite_path.to_owned(),
        tests: suite.num_tests().to_string(),
        guarantee: String::new(),
        stats,
        choice: None,
        summary: suite.report_text(),
    })
}

/// Streams a built Mealy suite (or its shard) to `out` (a file, replaced whole or not at all,
/// or standard output) in `format`, with progress on stderr when `progress` is set; returns the
/// figures of the written suite.
fn write_mealy_suite_file(
    suite: &crate::suite::mealy::MealySuite,
    format: crate::render::words::MealySuiteFormat,
    out: &str,
    shard: Option<crate::suite::names::Shard>,
    progress: bool,
) -> Result<crate::suite::mealy::SuiteStats, Error> {
    let report = crate::progress::Progress::new(
        progress,
        "writing tests",
        "tests",
        Some(suite.size_before_pruning().tests),
    );
    let mut output = crate::output::Output::create(out)?;
    let mut generated = 0;
    let stats =
        crate::render::words::write_mealy_suite_with(&mut output, suite, format, shard, &mut |n| {
            generated = n;
            report.set_position(n);
        })
        .map_err(|e| Error::io(output.name(), e))?;
    report.set_total(generated);
    report.finish();
    output.commit()?;
    Ok(stats)
}

/// The [`SuiteRequest`] of these options.
fn suite_request(options: &GenerateOptions) -> SuiteRequest {
    SuiteRequest {
        method: options.method,
        n: options.n,
        extra_states: options.extra_states,
        budget: options.budget,
        ioco: options.ioco,
        keep_prefixes: options.keep_prefixes,
        complete: options.complete,
        as_words: options.format == SuiteFileFormat::Words,
    }
}

/// A complete suite ([`build_suite`]) written as JSON v1 (or words, for a Mealy suite).
fn generate_complete(
    options: &GenerateOptions,
    model: &Model,
    path: &str,
    suite_path: &str,
) -> Result<GeneratedSuite, Error> {
    let (chosen, built) = build_suite(model, path, &suite_request(options))?;
    let (tests, guarantee, stats, choice) = match built {
        BuiltSuite::Mealy(suite) => {
            use crate::render::words::MealySuiteFormat;
            let format = match options.format {
                SuiteFileFormat::Words => MealySuiteFormat::Words,
                _ => MealySuiteFormat::Json,
            };
            let written =
                write_mealy_suite_file(&suite, format, suite_path, options.shard, !options.quiet)?;
            let stats = options.stats.then(|| written.to_string());
            (written.tests.to_string(), suite.guarantee(), stats, None)
        }
        BuiltSuite::Ioco { suite, choice } => {
            let stats = options.stats.then(|| {
                let timing = &options.budget.timing;
                format!(
                    "{}: {}\n",
                    suite.header().method,
                    suite.costs().summary(timing)
                )
            });
            write_suite_file(&suite, Some(suite_path), options.shard, !options.quiet)?;
            let tests = crate::suite::count_text(suite.num_tests());
            (tests, suite.header().guarantee.clone(), stats, choice)
        }
    };
    Ok(GeneratedSuite {
        method: Some(chosen),
        suite_path: suite_path.to_owned(),
        summary: format!("{}; guarantee: {guarantee}\n", tests_text(&tests)),
        tests,
        guarantee,
        stats,
        choice,
    })
}

/// The options of [`sizes()`] (`ncomplete sizes`).
#[derive(Clone, Debug)]
pub struct SizesRequest {
    /// How the model file is read.
    pub load: LoadOptions,
    /// The ioco methods (empty: ioco-complete, unconditional, ioco-counting, ioco-ads and
    /// ioco-auto).
    pub methods: Vec<Method>,
    /// The bounds: `4`, `1..6` (inclusive).
    pub n: String,
    /// Limits on every suite.
    pub budget: Budget,
    /// Domain, minimisation and sets of the ioco methods.
    pub ioco: IocoOptions,
    /// No warnings on stderr.
    pub quiet: bool,
}

impl Default for SizesRequest {
    fn default() -> Self {
        SizesRequest {
            load: LoadOptions::default(),
            methods: Vec::new(),
            n: "1..6".to_owned(),
            budget: Budget::default(),
            ioco: IocoOptions::default(),
            quiet: false,
        }
    }
}

/// The cost tables of [`sizes()`], one per method.
#[derive(Clone, Debug)]
pub struct SizesReport {
    /// One table per method, in the order asked.
    pub tables: Vec<sizes::SizeTable>,
}

impl SizesReport {
    /// The tables as text, separated by blank lines.
    pub fn to_text(&self) -> String {
        self.tables
            .iter()
            .map(|t| t.to_text())
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The tables as a pretty JSON array, ending in a newline.
    pub fn to_json(&self) -> Result<String, Error> {
        let mut text =
            serde_json::to_string_pretty(&self.tables).map_err(|e| Error::Usage(e.to_string()))?;
        text.push('\n');
        Ok(text)
    }
}

/// `ncomplete sizes`: the cost figures of the ioco methods per bound, counted from their plans.
pub fn sizes(model_path: &str, request: &SizesRequest) -> Result<SizesReport, Error> {
    let methods = if request.methods.is_empty() {
        vec![
            Method::IocoComplete,
            Method::Unconditional,
            Method::IocoCounting,
            Method::IocoAds,
            Method::IocoAuto,
        ]
    } else {
        request.methods.clone()
    };
    let methods = methods
        .iter()
        .map(|m| {
            m.ioco(request.ioco.incompatible_sets).ok_or_else(|| {
                Error::Usage(
                    "sizes audits the ioco methods: --method ioco-complete|unconditional|ioco-ads|ioco-counting|ioco-auto"
                        .into(),
                )
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let range = sizes::parse_range(&request.n).map_err(Error::Usage)?;
    let model = load_model(model_path, &request.load, request.quiet)?;
    let (sa, options) = request.ioco.specification(&model, model_path)?;
    let tables = methods
        .iter()
        .map(|&m| sizes::size_table(&sa, m, range.clone(), request.budget, options))
        .collect();
    Ok(SizesReport { tables })
}

/// Rewrites the suite file `src` to `out` (`-`: standard output) with the header field naming
/// the tests of each requirement of `graph`: the file is read twice (the tests once, then its
/// text copied with the field inserted before `tests`), so memory stays in proportion to one
/// test.
fn annotate_suite_file(src: &str, out: &str, graph: TagGraph) -> crate::Result<()> {
    use std::io::{BufRead, Write};
    let io = |e| crate::Error::io(src, e);
    let mut index = RequirementIndex::new(graph);
    let file = std::fs::File::open(src).map_err(io)?;
    let mut add = |model: &SuiteModel, test: TestCase| -> Result<(), std::convert::Infallible> {
        index.add(model, &test);
        Ok(())
    };
    match read_suite_stream(std::io::BufReader::new(file), &mut add) {
        Ok(_) => {}
        Err(SuiteReadError::Format(e)) => {
            return Err(crate::Error::Usage(format!("{src}: {e}")));
        }
        Err(SuiteReadError::Consumer(never)) => match never {},
    }
    let field =
        serde_json::to_string(&index.to_json()).map_err(|e| crate::Error::Usage(e.to_string()))?;
    let mut reader = std::io::BufReader::new(std::fs::File::open(src).map_err(io)?);
    let mut output = output::Output::create(out)?;
    let name = output.name();
    let mut line = String::new();
    loop {
        line.clear();
        if reader.read_line(&mut line).map_err(io)? == 0 {
            return Err(crate::Error::Usage(format!(
                "{src}: no `tests` field to annotate with requirements"
            )));
        }
        if line.starts_with(" \"tests\": [") {
            break;
        }
        output
            .write_all(line.as_bytes())
            .map_err(|e| crate::Error::io(&name, e))?;
    }
    let copy = (|| {
        write!(output, " \"{}\": {field},\n{line}", REQUIREMENTS_FIELD)?;
        std::io::copy(&mut reader, &mut output).map(|_| ())
    })();
    copy.map_err(|e| crate::Error::io(&name, e))?;
    Ok(output.commit()?)
}

/// Writes `suite` (or its `shard`) as JSON v1 to `out` (`None` or `-`: standard output; a file
/// is replaced whole or not at all), with progress on stderr when `progress` is set
/// ([`crate::progress`]).
pub fn write_suite_file(
    suite: &ioco::IocoSuite,
    out: Option<&str>,
    shard: Option<crate::suite::names::Shard>,
    progress: bool,
) -> Result<(), Error> {
    let path = out.unwrap_or("-");
    let total = u64::try_from(suite.num_tests()).unwrap_or(u64::MAX);
    let report = crate::progress::Progress::new(progress, "writing tests", "tests", Some(total));
    let mut output = output::Output::create(path)?;
    let result = suite.write_json_with(&mut output, shard, &|k| report.set_position(k));
    report.finish();
    result.map_err(|e| Error::io(path, e))?;
    Ok(output.commit()?)
}
