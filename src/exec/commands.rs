//! The library side of `ncomplete run`, `ncomplete simulate` and `ncomplete render`: the binary
//! parses arguments and calls these.

use super::stdio::{self, SystemOutcome};
use super::sut::SutOptions;
use super::{
    InputEnabling, SimulatedSystem, TestVerdict, run_suite, simulation_line, summary_line,
    system_for_suite, system_line, system_verdict,
};
use crate::error::{Error, Result};
use crate::model::Model;
use crate::render::{Format, render_suite, write_files};
use crate::suite::{SuiteHeader, SuiteModel, SuiteReadError, TestCase, read_suite_stream};
use std::convert::Infallible;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Reads a suite JSON v1 file, streaming it (the file's text is never held whole).
pub fn load_suite(path: &str) -> Result<(SuiteHeader, Vec<TestCase>)> {
    let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let mut tests = Vec::new();
    let mut keep = |_: &SuiteModel, t: TestCase| -> std::result::Result<(), Infallible> {
        tests.push(t);
        Ok(())
    };
    match read_suite_stream(std::io::BufReader::new(file), &mut keep) {
        Ok(header) => Ok((header, tests)),
        Err(SuiteReadError::Format(source)) => Err(Error::Suite {
            path: path.to_owned(),
            source,
        }),
        Err(SuiteReadError::Consumer(never)) => match never {},
    }
}

/// Runs a suite against a model in simulation, writing the report to `out`; returns the suite
/// verdict. The suite file is streamed: tests are read, run (in parallel, a chunk at a time) and
/// reported in order, and only the current chunk is held.
pub fn run_on_model(
    suite_path: &str,
    model: &Model,
    enabling: InputEnabling,
    out: &mut dyn Write,
) -> Result<TestVerdict> {
    const CHUNK: usize = 256;
    let file = std::fs::File::open(suite_path).map_err(|e| Error::io(suite_path, e))?;
    let mut sys: Option<SimulatedSystem> = None;
    let mut chunk: Vec<TestCase> = Vec::with_capacity(CHUNK);
    let mut counts = [0usize; 3];
    let mut run_chunk = |sys: &SimulatedSystem, chunk: &mut Vec<TestCase>| -> Result<()> {
        let report = run_suite(sys, chunk);
        for (t, case) in report.tests.iter().zip(chunk.iter()) {
            counts[match t.verdict {
                TestVerdict::Pass => 0,
                TestVerdict::Inconclusive => 1,
                TestVerdict::Fail => 2,
            }] += 1;
            out.write_all(simulation_line(t, sys, case).as_bytes())
                .map_err(|e| Error::io("<stdout>", e))?;
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
    let header =
        read_suite_stream(std::io::BufReader::new(file), &mut each).map_err(|e| match e {
            SuiteReadError::Format(source) => Error::Suite {
                path: suite_path.to_owned(),
                source,
            },
            SuiteReadError::Consumer(e) => e,
        })?;
    let sys = match sys {
        Some(sys) => sys,
        None => system_for_suite(model, &header.model, enabling)?,
    };
    run_chunk(&sys, &mut chunk)?;
    let [pass, inconclusive, fail] = counts;
    let verdict = if fail > 0 {
        TestVerdict::Fail
    } else if inconclusive > 0 {
        TestVerdict::Inconclusive
    } else {
        TestVerdict::Pass
    };
    out.write_all(summary_line(verdict, pass, fail, inconclusive).as_bytes())
        .map_err(|e| Error::io("<stdout>", e))?;
    Ok(verdict)
}

/// Runs a suite against the process started by `command`, writing one line per test to `out` as
/// tests finish; returns the suite verdict.
pub fn run_on_system(
    suite_path: &str,
    command: &str,
    quiescence: Duration,
    retries: usize,
    out: &mut dyn Write,
) -> Result<TestVerdict> {
    let (header, tests) = load_suite(suite_path)?;
    let mut write_error = None;
    let outcomes: Vec<SystemOutcome> =
        stdio::run_suite_stdio(command, &header.model, &tests, quiescence, retries, |o| {
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

/// Renders a suite file into `out_dir`; returns the written paths.
pub fn render(
    suite_path: &str,
    format: Format,
    out_dir: &Path,
    templates: Option<&Path>,
) -> Result<Vec<PathBuf>> {
    let (header, tests) = load_suite(suite_path)?;
    let files = render_suite(&header, &tests, format, templates)?;
    write_files(out_dir, &files)?;
    Ok(files.iter().map(|f| out_dir.join(&f.path)).collect())
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
