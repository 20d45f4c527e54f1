//! The library side of `ncomplete run`, `ncomplete simulate` and `ncomplete render`: the binary
//! parses arguments and calls these.

use super::error::{ExecError, Result};
use super::results::{ObservedStep, RunResults, TestRecord, VerdictCounts, failure_at_last_step};
use super::stdio::{self, SystemOutcome};
use super::sut::SutOptions;
use super::{
    InputEnabling, SimulatedSystem, TestVerdict, run_suite, simulation_failure, simulation_line,
    simulation_message, simulation_trace, system_for_suite, system_line,
};
use crate::model::Model;
use crate::progress::Progress;
use crate::render::{
    ExplorerSpec, Format, PART_LIMIT, PartSizes, RenderedFile, SuiteRenderer, words, write_files,
};
use crate::suite::names::{Shard, ShardPicker, shard_header};
use crate::suite::run_time::{self, RunTiming};
use crate::suite::timeouts::ModelTimeouts;
use crate::suite::{SuiteHeader, SuiteModel, SuiteReadError, TestCase, read_suite_stream};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Reads a suite JSON v1 file, streaming it (the file's text is never held whole).
pub fn load_suite(path: &str) -> Result<(SuiteHeader, Vec<TestCase>)> {
    load_suite_file(path, None)
}

/// Opens a suite JSON file for streaming, past a byte order mark.
fn open_json_suite(path: &str) -> Result<std::io::BufReader<std::fs::File>> {
    let mut reader = std::fs::File::open(path)
        .map(std::io::BufReader::new)
        .map_err(|e| ExecError::io(path, e))?;
    crate::format::skip_bom(&mut reader).map_err(|e| ExecError::io(path, e))?;
    Ok(reader)
}

/// The error for a suite file the reader refused: the first byte that is not UTF-8 when there
/// is one (located like every other input), else the reader's own error.
fn suite_error(path: &str, source: crate::suite::SuiteFormatError) -> ExecError {
    match std::fs::File::open(path).map(|f| crate::format::first_non_utf8(f, path)) {
        Ok(Ok(Some(bad))) => bad.into(),
        _ => ExecError::Suite {
            path: path.to_owned(),
            source,
        },
    }
}

/// Streams the tests of the suite JSON v1 file at `path` to `each`; returns the header.
fn read_json_suite(
    path: &str,
    each: &mut dyn FnMut(&SuiteModel, TestCase) -> Result<()>,
) -> Result<SuiteHeader> {
    read_suite_stream(open_json_suite(path)?, each).map_err(|e| match e {
        SuiteReadError::Format(source) => suite_error(path, source),
        SuiteReadError::Consumer(e) => e,
    })
}

/// Reads a suite JSON v1 file, streaming it.
fn load_json_suite(path: &str) -> Result<(SuiteHeader, Vec<TestCase>)> {
    let progress = Progress::start("reading suite", "tests", None);
    let mut tests = Vec::new();
    let read = read_json_suite(path, &mut |_, t| {
        tests.push(t);
        progress.inc(1);
        Ok(())
    });
    progress.finish();
    Ok((read?, tests))
}

/// Whether the file at `path` starts like a words file (its first line is read, not the file).
fn is_words_file(path: &str) -> Result<bool> {
    use std::io::Read;
    let mut start = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(64).read_to_end(&mut start))
        .map_err(|e| ExecError::io(path, e))?;
    Ok(words::is_words(&String::from_utf8_lossy(&start)))
}

/// Reads a suite file: suite JSON v1 (streamed), or a words file (whose end marker and test
/// count are checked, so a truncated file is refused) with the Mealy machine `spec` that gives
/// the outputs its tests expect.
pub fn load_suite_file(path: &str, spec: Option<&Model>) -> Result<(SuiteHeader, Vec<TestCase>)> {
    if !is_words_file(path)? {
        return load_json_suite(path);
    }
    let mut tests = Vec::new();
    let header = stream_words_suite(path, spec, &mut |_, t| {
        tests.push(t);
        Ok(())
    })?;
    Ok((header, tests))
}

/// Streams the tests of a words file, made into send/expect chains with the outputs of the
/// Mealy machine `spec`, to `each` one line at a time; returns the suite header.
fn stream_words_suite(
    path: &str,
    spec: Option<&Model>,
    each: &mut dyn FnMut(&SuiteModel, TestCase) -> Result<()>,
) -> Result<SuiteHeader> {
    let spec = match spec {
        Some(Model::Mealy(m)) => m,
        Some(Model::Lts(_)) => {
            return Err(ExecError::Usage(format!(
                "{path} is a words file of a Mealy suite: --spec must be a Mealy machine"
            )));
        }
        None => {
            return Err(ExecError::Usage(format!(
                "{path} is a words file (inputs only): give --spec MODEL, the Mealy machine it \
                 was generated from, for the outputs its tests expect"
            )));
        }
    };
    let reader = std::fs::File::open(path)
        .map(std::io::BufReader::new)
        .map_err(|e| ExecError::io(path, e))?;
    let model = words::words_suite_header(&[], spec).model;
    let mut k = 0;
    let mut consume = |_: &[(String, String)], names: Vec<String>| -> Result<()> {
        let test = words::word_test(spec, k, &names)
            .map_err(|e| ExecError::Usage(format!("{path}: {e}")))?;
        k += 1;
        each(&model, test)
    };
    match words::read_words_stream(reader, &mut consume) {
        Ok(fields) => Ok(words::words_suite_header(&fields, spec)),
        Err(words::WordsReadError::Format(e)) => Err(ExecError::Usage(format!("{path}:{e}"))),
        Err(words::WordsReadError::Io(e)) => Err(ExecError::io(path, e)),
        Err(words::WordsReadError::Consumer(e)) => Err(e),
    }
}

/// The error of a run of a suite without tests: it would prove nothing, so it is no `pass` (the
/// generated pytest module and Cargo package refuse to run such a suite too).
fn no_tests(suite_path: &str) -> ExecError {
    ExecError::Usage(format!(
        "{suite_path} holds no tests: a run of no tests shows nothing about the system"
    ))
}

/// Runs a suite (JSON, or words with their `spec`) against a model in simulation, writing the
/// report to `out` and the result files `results` asks for; returns the suite verdict. The
/// suite file (JSON or words) is streamed: tests are read, run (in parallel, a chunk at a time)
/// and reported in order, and only the current chunk is held.
pub fn run_on_model(
    suite_path: &str,
    spec: Option<&Model>,
    model: &Model,
    enabling: InputEnabling,
    out: &mut dyn Write,
    results: &mut RunResults,
) -> Result<TestVerdict> {
    const CHUNK: usize = 256;
    results.check_paths()?;
    let mut sys: Option<SimulatedSystem> = None;
    let mut chunk: Vec<TestCase> = Vec::with_capacity(CHUNK);
    let mut counts = VerdictCounts::default();
    // The verdicts by test name, kept only for a suite naming requirements
    // (`super::requirements`), whose header is known only once the stream is read.
    let tagged = crate::suite::requirements::file_names_requirements(suite_path);
    let mut verdicts: Vec<(String, TestVerdict)> = Vec::new();
    let progress = Progress::start_beside_stdout("running", "tests", None);
    let mut run_chunk = |sys: &SimulatedSystem, chunk: &mut Vec<TestCase>| -> Result<()> {
        let report = run_suite(sys, chunk);
        progress.inc(chunk.len() as u64);
        for (t, case) in report.tests.iter().zip(chunk.iter()) {
            counts.add(t.verdict);
            if tagged {
                verdicts.push((t.name.clone(), t.verdict));
            }
            out.write_all(simulation_line(t, sys, case).as_bytes())
                .map_err(|e| ExecError::io("<stdout>", e))?;
            results.record(TestRecord {
                name: t.name.clone(),
                verdict: t.verdict,
                message: simulation_message(t, sys, case),
                time: None,
                trace: simulation_trace(t, sys),
                failure: simulation_failure(t, sys, case),
                reason: None,
                timing_traces: None,
            });
            if let Some(coverage) = results.coverage_mut() {
                coverage.cover_simulated(sys, case);
            }
        }
        chunk.clear();
        Ok(())
    };
    let mut each = |suite: &SuiteModel, test: TestCase| -> Result<()> {
        if sys.is_none() {
            sys = Some(system_for_suite(model, suite, enabling)?);
        }
        chunk.push(test);
        if chunk.len() == CHUNK {
            run_chunk(sys.as_ref().expect("built above"), &mut chunk)?;
        }
        Ok(())
    };
    let header = if is_words_file(suite_path)? {
        stream_words_suite(suite_path, spec, &mut each)?
    } else {
        read_json_suite(suite_path, &mut each)?
    };
    let sys = match sys {
        Some(sys) => sys,
        None => system_for_suite(model, &header.model, enabling)?,
    };
    run_chunk(&sys, &mut chunk)?;
    progress.finish();
    if counts == VerdictCounts::default() {
        return Err(no_tests(suite_path));
    }
    let named = verdicts.iter().map(|(n, v)| (n.as_str(), *v));
    let requirement_lines = super::requirements::RequirementCoverage::of(&header, named)
        .map(|r| r.lines())
        .unwrap_or_default();
    out.write_all(requirement_lines.as_bytes())
        .and_then(|_| out.write_all(counts.summary_line().as_bytes()))
        .map_err(|e| ExecError::io("<stdout>", e))?;
    results.write(suite_path, &header)?;
    Ok(counts.verdict())
}

/// The waits (quiescence observations over all runs) of a suite and the time running every
/// run once takes at `timeouts` (and the default step latency), for `run`'s progress: the
/// message and the time alone.
fn estimated_time_message(
    model: &SuiteModel,
    tests: &[TestCase],
    timeouts: &stdio::Timeouts,
) -> (String, String) {
    use crate::suite::costs::{Figure, SuiteCosts, Timing};
    let quiescence = model.quiescence_id();
    let (mut runs, mut steps, mut waits) = (0u128, 0u128, 0u128);
    for t in tests {
        let (r, s, w) = t.runs_steps_waits(quiescence);
        runs = runs.saturating_add(r);
        steps = steps.saturating_add(s);
        waits = waits.saturating_add(w);
    }
    let timing = Timing {
        quiescence_ms: u64::try_from(timeouts.quiescence.as_millis()).unwrap_or(u64::MAX),
        ..Timing::default()
    };
    let costs = SuiteCosts {
        tests: Figure::Exact(tests.len() as u128),
        runs: Figure::Exact(runs),
        steps: Figure::Exact(steps),
        waits: Figure::Exact(waits),
        nodes: Figure::Unknown,
        longest: Figure::Unknown,
        bytes: Figure::Unknown,
    };
    let time = costs.time_text(&timing);
    (
        format!(
            "{} waits, every run once about {time}",
            crate::suite::costs::thousands(waits)
        ),
        time,
    )
}

/// How `run --sut` drives the system.
#[derive(Clone, Copy, Debug)]
pub struct SystemRun<'a> {
    /// How the system is reached (a command, or a TCP connection).
    pub system: &'a super::tcp::SystemAccess,
    /// Start-up, quiescence and response timeouts.
    pub timeouts: &'a stdio::Timeouts,
    /// Re-runs of a test that ended in `retry`.
    pub retries: usize,
    /// Continue a retried execution with the next undecided test holding its trace.
    pub follow: bool,
    /// Systems run at once (`--follow` runs one; see [`stdio::run_suite_on_system`]).
    pub jobs: usize,
    /// No warning on stderr (the latency warning still goes into the JSON results).
    pub quiet: bool,
}

/// Runs a suite (JSON, or words with their `spec`) against the process `system` starts,
/// writing one line per test to `out` as tests finish and the result files `results` asks for;
/// returns the suite verdict.
pub fn run_on_system(
    suite_path: &str,
    spec: Option<&Model>,
    system: &SystemRun<'_>,
    out: &mut dyn Write,
    results: &mut RunResults,
) -> Result<TestVerdict> {
    let SystemRun {
        system,
        timeouts,
        retries,
        follow,
        jobs,
        quiet,
    } = *system;
    let (header, tests) = load_suite_file(suite_path, spec)?;
    if tests.is_empty() {
        return Err(no_tests(suite_path));
    }
    results.check_paths()?;
    // The specification refutes the readings the tests leave at retry.
    let with_spec;
    let timeouts = match spec {
        Some(spec) => {
            let readings = super::spec_readings::SpecReadings::new(spec, &header.model)?;
            with_spec = timeouts.clone().with_spec_readings(readings);
            &with_spec
        }
        None => timeouts,
    };
    let goal_table = super::goal_coverage::GoalTable::of(&header);
    let started = std::time::Instant::now();
    let quiescence = header.model.quiescence.as_deref().unwrap_or("quiescence");
    let mut write_error = None;
    let progress = Progress::start_beside_stdout("running", "tests", Some(tests.len() as u64));
    let (message, estimate) = estimated_time_message(&header.model, &tests, timeouts);
    let jobs_used = if follow {
        1
    } else {
        jobs.clamp(1, tests.len())
    };
    let timing = RunTiming::at(
        timeouts.startup.as_secs_f64() * 1000.0,
        timeouts.quiescence.as_secs_f64() * 1000.0,
        retries,
        jobs_used,
    );
    let predicted = run_time::predict_run(&header.model, &tests, &timing);
    progress.set_message(message);
    let system_error = |message| ExecError::System {
        command: system.to_string(),
        message,
    };
    let system = system.open().map_err(system_error)?;
    let run = stdio::run_suite_on_system(
        &system,
        &header.model,
        &tests,
        timeouts,
        retries,
        follow,
        jobs,
        |o, took| {
            progress.inc(1);
            // A joker goal the system did not help reach: inconclusive with a reason of its own.
            let excused = goal_table
                .as_ref()
                .and_then(|t| t.excused(&o.name, o.verdict, o.message.as_deref()))
                .map(|u| u.reason());
            let mut line = system_line(o);
            if let Some(reason) = excused {
                line = line.replacen(" inconclusive: ", &format!(" inconclusive ({reason}): "), 1);
            }
            if let Err(e) = writeln!(out, "{line}").and_then(|_| out.flush()) {
                write_error.get_or_insert(e);
            }
            let trace = ObservedStep::from_marked_trace(&o.trace, quiescence);
            if let Some(coverage) = results.coverage_mut() {
                coverage.cover_trace(&trace);
            }
            let failure = match (&o.message, o.verdict) {
                (Some(m), TestVerdict::Fail) => failure_at_last_step(m, &o.trace),
                _ => None,
            };
            results.record(TestRecord {
                name: o.name.clone(),
                verdict: o.verdict,
                message: o.message.clone(),
                time: Some(took),
                trace,
                failure,
                reason: excused.or(o.reason()),
                timing_traces: o
                    .timing
                    .as_ref()
                    .map(|t| (t.first_trace.clone(), o.trace.clone())),
            });
        },
    )?;
    progress.finish();
    let took = started.elapsed();
    let outcomes: Vec<SystemOutcome> = run.outcomes;
    let warning = stdio::LatencyWarning::check(run.largest_latency, timeouts.quiescence);
    if !quiet {
        // The measured time beside the estimate (issue 43: the estimate is checked against runs).
        eprintln!(
            "ran {} tests in {}; predicted {} ({}); every run once {estimate}",
            tests.len(),
            run_time::seconds_text(took.as_secs_f64()),
            predicted.wall_text(),
            timing.describe()
        );
        if let Some(w) = &warning {
            eprintln!("warning: {}", w.text());
        }
    }
    results.set_latency_warning(warning);
    results.set_total_time(took);
    if let Some(e) = write_error {
        return Err(ExecError::io("<stdout>", e));
    }
    let counts = VerdictCounts::of(outcomes.iter().map(|o| o.verdict));
    // A goal suite's joker goals that the system did not help reach are listed and counted
    // apart, not inconclusive.
    let goals = super::goal_coverage::GoalCoverage::of(
        &header,
        outcomes
            .iter()
            .map(|o| (o.name.as_str(), o.verdict, o.message.as_deref())),
    );
    let counts = goals.as_ref().map_or(counts, |g| g.counts(counts));
    let verdict = counts.verdict();
    let mut goal_lines = goals.as_ref().map(|g| g.lines()).unwrap_or_default();
    let named = outcomes.iter().map(|o| (o.name.as_str(), o.verdict));
    if let Some(requirements) = super::requirements::RequirementCoverage::of(&header, named) {
        goal_lines.push_str(&requirements.lines());
    }
    out.write_all(goal_lines.as_bytes())
        .and_then(|_| out.write_all(counts.summary_line().as_bytes()))
        .map_err(|e| ExecError::io("<stdout>", e))?;
    results.write(suite_path, &header)?;
    Ok(verdict)
}

/// Serves the stdio protocol on the process's stdin and stdout with the model as the system.
pub fn simulate(model: &Model, options: &SutOptions) -> Result<()> {
    let sut = super::sut_for_model(model)?;
    let stdin = std::io::BufReader::new(std::io::stdin());
    sut.serve(stdin, std::io::stdout(), std::io::stderr(), options)
        .map_err(|e| ExecError::io("<stdio>", e))
}

/// Renders a suite file (or its `shard`) into `out_dir`, replacing it as a whole (built beside
/// it and swapped in, so no file of an earlier rendering survives; a suite file inside `out_dir`
/// is carried over); returns the written paths. With `explore_spec`, the format's on-the-fly
/// tester of that specification model is among them (`render --explore-spec`), honouring the
/// model's timeout annotations when it has some. A directory holding another format is refused
/// unless `force`.
pub fn render(
    suite_path: &str,
    format: Format,
    out_dir: &Path,
    templates: Option<&Path>,
    (shard, force): (Option<Shard>, bool),
    explore_spec: Option<&(Model, Option<ModelTimeouts>)>,
    timeouts: Option<Arc<ModelTimeouts>>,
) -> Result<Vec<PathBuf>> {
    let explore_automaton = explore_spec
        .map(|(model, _)| super::spec_automaton::specification_automaton(model))
        .transpose()?;
    let explorer =
        explore_automaton
            .as_ref()
            .zip(explore_spec)
            .map(|(automaton, (_, annotations))| ExplorerSpec {
                automaton,
                timeouts: annotations.as_ref(),
            });
    if let Some(dir) = templates {
        crate::output::refuse_input_inside_dir("--out", out_dir, &[&dir.display().to_string()])?;
    }
    let dir = crate::output::AtomicDir::create(out_dir, format.name(), force)?;
    if let Some(inside) = crate::output::relative_inside(Path::new(suite_path), out_dir) {
        let text = std::fs::read(suite_path).map_err(|e| ExecError::io(suite_path, e))?;
        let copy = dir.path().join(&inside);
        if let Some(parent) = inside.parent() {
            crate::output::create_dirs_below(dir.path(), parent)
                .map_err(|e| ExecError::io(suite_path, e))?;
        }
        crate::output::write_path(&copy, &text).map_err(|e| ExecError::io(suite_path, e))?;
    }
    let written = render_into(
        suite_path,
        format,
        dir.path(),
        templates,
        shard,
        explorer,
        timeouts,
    )?;
    dir.commit()?;
    Ok(written.iter().map(|p| out_dir.join(p)).collect())
}

/// Streams the tests of a JSON suite file to `each`, those of `shard` only when given; returns
/// the header.
fn stream_json_suite(
    suite_path: &str,
    shard: Option<Shard>,
    each: &mut dyn FnMut(TestCase) -> Result<()>,
) -> Result<SuiteHeader> {
    if is_words_file(suite_path)? {
        return Err(ExecError::Usage(format!(
            "{suite_path} is a words file (inputs only): render reads suite JSON; generate it with --format json"
        )));
    }
    let mut picker = shard.map(ShardPicker::new);
    read_json_suite(suite_path, &mut |_, t| {
        if picker.as_mut().is_none_or(|p| p.keep(&t)) {
            each(t)?;
        }
        Ok(())
    })
}

/// Renders a suite file (or its `shard`) into the directory `dir` (which the caller replaces as
/// a whole); returns the paths of the rendered files relative to `dir`. The file is streamed
/// twice: once for the header and the sizes of the parts, once to render the parts one at a
/// time, so memory stays in proportion to one part whatever the suite's size. With
/// `explore_spec`, the format's on-the-fly tester of that specification is written too
/// (`render --explore-spec`, see [`SuiteRenderer::with_explorer`]); with `timeouts`, the
/// specification's timeout annotations go into the tests ([`SuiteRenderer::with_timeouts`]).
pub fn render_into(
    suite_path: &str,
    format: Format,
    dir: &Path,
    templates: Option<&Path>,
    shard: Option<Shard>,
    explore_spec: Option<ExplorerSpec<'_>>,
    timeouts: Option<Arc<ModelTimeouts>>,
) -> Result<Vec<PathBuf>> {
    let mut sizes = PartSizes::with_limit(PART_LIMIT);
    let header = stream_json_suite(suite_path, shard, &mut |t| {
        sizes.push(t.nodes.len());
        Ok(())
    })?;
    let sizes = sizes.finish();
    let header = shard_header(&header, shard);
    let mut renderer =
        SuiteRenderer::with_explorer(&header, format, templates, &sizes, explore_spec)?
            .with_timeouts(timeouts);
    let mut written = Vec::new();
    let mut write = |files: Vec<RenderedFile>| -> Result<()> {
        write_files(dir, &files)?;
        written.extend(files.into_iter().map(|f| f.path));
        Ok(())
    };
    let total: usize = sizes.iter().sum();
    let progress = Progress::start("rendering", "tests", Some(total as u64));
    let mut part = Vec::new();
    let mut k = 0;
    stream_json_suite(suite_path, shard, &mut |t| {
        progress.inc(1);
        part.push(t);
        // A suite that changed between the two reads is refused rather than cut.
        if sizes.get(k).is_none_or(|&n| part.len() > n) {
            return Err(ExecError::Usage(format!(
                "{suite_path} changed while it was rendered"
            )));
        }
        if part.len() == sizes[k] {
            write(renderer.render_part(k, std::mem::take(&mut part))?)?;
            k += 1;
        }
        Ok(())
    })?;
    // Parts not rendered yet: the one empty part of an empty suite (anything else means the
    // file shrank between the reads).
    if k + 1 == sizes.len() && sizes[k] == 0 {
        write(renderer.render_part(k, Vec::new())?)?;
        k += 1;
    }
    if k != sizes.len() {
        return Err(ExecError::Usage(format!(
            "{suite_path} changed while it was rendered"
        )));
    }
    write(renderer.render_suite_files()?)?;
    progress.finish();
    Ok(written)
}

/// The exit status of `run --model`: 1 when a test fails, else 0. A test that is inconclusive in
/// exact simulation can never be judged against this implementation (every execution ends in
/// `retry`, e.g. a test of behaviour the implementation does not have); it is reported, but it is
/// no evidence of non-conformance.
pub fn model_exit_status(verdict: TestVerdict) -> u8 {
    u8::from(verdict == TestVerdict::Fail)
}

/// The exit status of `run --sut` when a test is inconclusive and none failed: the suite's
/// guarantee is not established, yet nothing showed the system wrong, so a pipeline can tell
/// "re-run, or raise the timeouts" from "the system is faulty".
pub const INCONCLUSIVE_EXIT_STATUS: u8 = 3;

/// The exit status of `run --sut`: 0 when every test passed, 1 when a test failed, and
/// [`INCONCLUSIVE_EXIT_STATUS`] when a test stayed inconclusive after its retries and none failed.
pub fn system_exit_status(verdict: TestVerdict) -> u8 {
    match verdict {
        TestVerdict::Pass => 0,
        TestVerdict::Fail => 1,
        TestVerdict::Inconclusive => INCONCLUSIVE_EXIT_STATUS,
    }
}

/// The system `ncomplete explore` tests.
pub enum ExploreSystem<'a> {
    /// A real system on the line protocol (a process, or a TCP connection).
    Process(&'a super::tcp::SystemAccess),
    /// A model of the implementation, in process, its output choices seeded.
    Model(&'a Model),
}

/// The files `ncomplete explore` writes besides its text report.
#[derive(Clone, Copy, Debug, Default)]
pub struct ExploreOutputs<'a> {
    /// The JSON report (`--out FILE`).
    pub json: Option<&'a str>,
    /// The HTML report (`--html FILE`, [`super::report_html`]).
    pub html: Option<&'a str>,
}

/// Reports an `explore` run's steps (against `--max-steps`) and coverage on `progress`; the
/// coverage text is rebuilt only when it changes.
fn explore_progress(progress: &Progress) -> impl FnMut(&super::explore::ExploreStatus) + '_ {
    let mut shown = None;
    move |s| {
        let coverage = (s.states, s.transitions, s.resets);
        if shown != Some(coverage) {
            shown = Some(coverage);
            progress.set_message(format!(
                "states {}/{}, transitions {}/{}, resets {}",
                s.states.0, s.states.1, s.transitions.0, s.transitions.1, s.resets
            ));
        }
        progress.set_position(s.steps);
    }
}

/// `ncomplete explore`: on-the-fly testing of `system` against the specification `spec`
/// (steering first to the goal of `purpose` under `Policy::Strategy`); writes the coverage
/// table and verdict to `out`, the JSON report to `json` when given; returns the exit status
/// (1 on a failure, [`INCONCLUSIVE_EXIT_STATUS`] when a timing-dependent failure was not
/// repeated by its replays), and the HTML report to `html` when given.
pub fn explore(
    spec: &Model,
    system: ExploreSystem<'_>,
    options: &super::explore::ExploreOptions,
    purpose: Option<&crate::goals::cases::GoalSource>,
    outputs: ExploreOutputs<'_>,
    quiet: bool,
    out: &mut dyn Write,
) -> Result<u8> {
    use super::explore::{ExploreSpec, ModelAdapter, explore, specification_automaton};
    use super::report_html::{HtmlReport, SpecCoverage};
    if let Some(path) = outputs.html {
        super::results::writable_path(path)?;
    }
    let spec = ExploreSpec::new(specification_automaton(spec)?);
    let mut options = options.clone();
    if let Some(source) = purpose {
        let budget = crate::suite::costs::Budget::default();
        let (goals, _) =
            crate::goals::cases::load_goals(spec.automaton(), source, &budget, |p, o| {
                Ok::<_, ExecError>(crate::sts::load_model(p, o)?)
            })?;
        options.goals.extend(goals);
    }
    let options = &options;
    let progress = Progress::new(!quiet, "explore", "steps", Some(options.max_steps));
    // A seeded model in process gives the same run every time, so its report shows no time.
    let (system_text, measured) = match system {
        ExploreSystem::Process(system) => (format!("system {system}"), true),
        ExploreSystem::Model(Model::Lts(m)) => (format!("model {}", m.name), false),
        ExploreSystem::Model(Model::Mealy(m)) => (format!("model {}", m.name), false),
    };
    let (report, command) = match system {
        ExploreSystem::Process(access) => {
            let system = access.open().map_err(|message| ExecError::System {
                command: access.to_string(),
                message,
            })?;
            let mut adapter = stdio::LineAdapter::new(system, options.timeouts.clone());
            let report = explore(&spec, &mut adapter, options, explore_progress(&progress));
            (report, access.to_string())
        }
        ExploreSystem::Model(model) => {
            let imp = specification_automaton(model)?;
            let seed = options.seed ^ 0x9E37_79B9_7F4A_7C15;
            let mut adapter = ModelAdapter::new(&imp, spec.labels(), seed)?;
            let report = explore(&spec, &mut adapter, options, explore_progress(&progress));
            (report, "<model>".to_owned())
        }
    };
    progress.finish();
    let report = report.map_err(|message| ExecError::System { command, message })?;
    if let Some(path) = outputs.json {
        crate::output::write_file(path, report.to_json(options).as_bytes())?;
    }
    if let Some(path) = outputs.html {
        let coverage =
            SpecCoverage::from_marks(spec.automaton().clone(), &report.visited, &report.taken);
        let html = HtmlReport::of_exploration(&report, options, &system_text, measured, &coverage);
        crate::output::write_file(path, html.render().as_bytes())?;
    }
    out.write_all(report.to_text().as_bytes())
        .map_err(|e| ExecError::io("<stdout>", e))?;
    Ok(match (report.failed, &report.timing) {
        (true, _) => 1,
        (false, Some(_)) => INCONCLUSIVE_EXIT_STATUS,
        (false, None) => 0,
    })
}
