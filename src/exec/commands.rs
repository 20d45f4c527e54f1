//! The library side of `ncomplete run`, `ncomplete simulate` and `ncomplete render`: the binary
//! parses arguments and calls these.

use super::stdio::{self, SystemOutcome};
use super::sut::SutOptions;
use super::{
    InputEnabling, TestVerdict, run_suite, simulation_text, summary_line, system_for_suite,
    system_line, system_verdict,
};
use crate::error::{Error, Result};
use crate::model::Model;
use crate::render::{Format, render_suite, words, write_files};
use crate::suite::{SuiteHeader, TestCase, read_suite};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Reads a suite JSON v1 file.
pub fn load_suite(path: &str) -> Result<(SuiteHeader, Vec<TestCase>)> {
    load_suite_file(path, None)
}

/// Reads a suite file: suite JSON v1, or a words file (whose end marker and test count are
/// checked, so a truncated file is refused) with the Mealy machine `spec` that gives the outputs
/// its tests expect.
pub fn load_suite_file(path: &str, spec: Option<&Model>) -> Result<(SuiteHeader, Vec<TestCase>)> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    let text = crate::format::utf8_text(bytes, path)?;
    if !words::is_words(&text) {
        return read_suite(&text).map_err(|source| Error::Suite {
            path: path.to_owned(),
            source,
        });
    }
    let file = words::read_words(&text).map_err(|e| Error::Usage(format!("{path}:{e}")))?;
    match spec {
        Some(Model::Mealy(m)) => {
            words::words_suite(&file, m).map_err(|e| Error::Usage(format!("{path}: {e}")))
        }
        Some(Model::Lts(_)) => Err(Error::Usage(format!(
            "{path} is a words file of a Mealy suite: --spec must be a Mealy machine"
        ))),
        None => Err(Error::Usage(format!(
            "{path} is a words file (inputs only): give --spec MODEL, the Mealy machine it was \
             generated from, for the outputs its tests expect"
        ))),
    }
}

/// Runs a suite (JSON, or words with their `spec`) against a model in simulation, writing the report to `out`; returns the suite
/// verdict.
pub fn run_on_model(
    suite_path: &str,
    spec: Option<&Model>,
    model: &Model,
    enabling: InputEnabling,
    out: &mut dyn Write,
) -> Result<TestVerdict> {
    let (header, tests) = load_suite_file(suite_path, spec)?;
    let sys = system_for_suite(model, &header.model, enabling)?;
    let report = run_suite(&sys, &tests);
    out.write_all(simulation_text(&report, &sys, &tests).as_bytes())
        .map_err(|e| Error::io("<stdout>", e))?;
    Ok(report.verdict())
}

/// Runs a suite (JSON, or words with their `spec`) against the process started by `command`, writing one line per test to `out` as
/// tests finish; returns the suite verdict.
pub fn run_on_system(
    suite_path: &str,
    spec: Option<&Model>,
    command: &str,
    timeouts: &stdio::Timeouts,
    retries: usize,
    out: &mut dyn Write,
) -> Result<TestVerdict> {
    let (header, tests) = load_suite_file(suite_path, spec)?;
    let mut write_error = None;
    let outcomes: Vec<SystemOutcome> =
        stdio::run_suite_stdio(command, &header.model, &tests, timeouts, retries, |o| {
            if let Err(e) = writeln!(out, "{}", system_line(o)).and_then(|_| out.flush()) {
                write_error.get_or_insert(e);
            }
        })?;
    if let Some(e) = write_error {
        return Err(Error::io("<stdout>", e));
    }
    let count = |v| outcomes.iter().filter(|o| o.verdict == v).count();
    let verdict = system_verdict(&outcomes);
    out.write_all(
        summary_line(
            verdict,
            count(TestVerdict::Pass),
            count(TestVerdict::Fail),
            count(TestVerdict::Inconclusive),
        )
        .as_bytes(),
    )
    .map_err(|e| Error::io("<stdout>", e))?;
    Ok(verdict)
}

/// Serves the stdio protocol on the process's stdin and stdout with the model as the system.
pub fn simulate(model: &Model, options: &SutOptions) -> Result<()> {
    let sut = super::sut_for_model(model)?;
    let stdin = std::io::BufReader::new(std::io::stdin());
    sut.serve(stdin, std::io::stdout(), std::io::stderr(), options)
        .map_err(|e| Error::io("<stdio>", e))
}

/// Renders a suite file into `out_dir`, replacing it as a whole (built beside it and swapped in,
/// so no file of an earlier rendering survives; a suite file inside `out_dir` is carried over);
/// returns the written paths.
pub fn render(
    suite_path: &str,
    format: Format,
    out_dir: &Path,
    templates: Option<&Path>,
) -> Result<Vec<PathBuf>> {
    if let Some(dir) = templates {
        crate::output::refuse_input_inside_dir("--out", out_dir, &[&dir.display().to_string()])?;
    }
    let dir = crate::output::AtomicDir::create(out_dir)?;
    if let Some(inside) = crate::output::relative_inside(Path::new(suite_path), out_dir) {
        let text = std::fs::read(suite_path).map_err(|e| Error::io(suite_path, e))?;
        let copy = dir.path().join(&inside);
        if let Some(parent) = copy.parent() {
            std::fs::create_dir_all(parent).map_err(|e| Error::io(suite_path, e))?;
        }
        crate::output::write_path(&copy, &text).map_err(|e| Error::io(suite_path, e))?;
    }
    let written = render_into(suite_path, format, dir.path(), templates)?;
    dir.commit()?;
    Ok(written.iter().map(|p| out_dir.join(p)).collect())
}

/// Renders a suite file into the directory `dir` (which the caller replaces as a whole); returns
/// the paths of the rendered files relative to `dir`.
pub fn render_into(
    suite_path: &str,
    format: Format,
    dir: &Path,
    templates: Option<&Path>,
) -> Result<Vec<PathBuf>> {
    let (header, tests) = load_suite(suite_path)?;
    let files = render_suite(&header, &tests, format, templates)?;
    write_files(dir, &files)?;
    Ok(files.iter().map(|f| f.path.clone()).collect())
}

/// The exit status of `run --model`: 1 when a test fails, else 0. A test that is inconclusive in
/// exact simulation can never be judged against this implementation (every execution ends in
/// `retry`, e.g. a test of behaviour the implementation does not have); it is reported, but it is
/// no evidence of non-conformance.
pub fn model_exit_status(verdict: TestVerdict) -> u8 {
    u8::from(verdict == TestVerdict::Fail)
}

/// The exit status of `run --sut`: 0 only when every test passed; a test still inconclusive
/// after its retries leaves the suite's guarantee unestablished, so it counts against the run.
pub fn system_exit_status(verdict: TestVerdict) -> u8 {
    u8::from(verdict != TestVerdict::Pass)
}
