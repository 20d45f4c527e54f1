//! The commands over symbolic transition systems (`crate::sts`): telling an STS file from
//! other models, `generate --cover switches|switch-pairs` on one (switch-coverage test
//! purposes, van den Bos Sec. 4.4, or switch-pair coverage's, through the SMT solver of the
//! `smt` feature), `explore --cover switches|switch-pairs | --purposes FILE` executing the
//! purposes on the fly, and `simulate` of an STS on concrete states.

use super::options::{
    ExploreRequest, GenerateOptions, GeneratedSuite, StsPurposes, SuiteFileFormat,
};
use crate::Error;
use crate::exec::ExecError;
use crate::exec::report_html::HtmlReport;
use crate::exec::stdio::{Adapter, LineAdapter};
use crate::exec::sts_report_html::StsRunFacts;
use crate::exec::sts_run::{
    PurposeFile, PurposeVerdict, StsAdapter, StsRunOptions, purposes_from_json, run_purposes,
};
use crate::format::{self, Format, LoadOptions};
use crate::output;
use crate::progress::Progress;
use crate::sts::purposes::{Criterion, beyond_switches, feasible_items, select_purposes};
use crate::sts::symbolic::SegLimits;

/// The refusal of a criterion that enumerates the semantic states of an STS too large for it.
fn finite_only(criterion: Criterion, e: crate::sts::instantiate::InstantiateError) -> Error {
    Error::Usage(format!(
        "--cover {} searches the reachable semantic states of the STS, as instantiation does: {e}; or use --cover switches",
        criterion.name()
    ))
}

/// The default depth of the symbolic execution graph when `--n` does not give one.
pub const DEFAULT_DEPTH: usize = 40;
/// Most nodes of the symbolic execution graph unfolded for test purposes.
pub const NODE_BUDGET: usize = 100_000;

/// Most solver queries the search for test purposes may make (`generate --cover` and
/// `explore --cover` on an STS): guards with nonlinear `*`, `/` or `%` can make the unfolding
/// wide and every query slow, so the search is refused past this many queries, or past
/// [`SOLVER_SECONDS`] of solver time, rather than left to run for hours.
pub const QUERY_BUDGET: u64 = 20_000;

/// Default seconds of solver time the search for test purposes may take (the environment
/// variable [`SOLVER_SECONDS_VARIABLE`] sets another).
pub const SOLVER_SECONDS: u64 = 120;

/// The environment variable that sets the seconds of solver time of a purpose search.
pub const SOLVER_SECONDS_VARIABLE: &str = "NCOMPLETE_SOLVER_SECONDS";

/// The solver time a purpose search may take: [`SOLVER_SECONDS_VARIABLE`] or [`SOLVER_SECONDS`].
fn solver_seconds() -> Result<u64, Error> {
    match std::env::var(SOLVER_SECONDS_VARIABLE) {
        Err(_) => Ok(SOLVER_SECONDS),
        Ok(value) => value
            .trim()
            .parse::<u64>()
            .ok()
            .filter(|s| *s > 0)
            .ok_or_else(|| {
                Error::Usage(format!(
                    "{SOLVER_SECONDS_VARIABLE}={value}: expected a whole number of seconds from 1"
                ))
            }),
    }
}

/// The solver of a purpose search, under its budget: progress on stderr counts the queries
/// against [`QUERY_BUDGET`] (with the time left to reach it); each query may take only what is
/// left of the solver time; once either is spent every query is answered `unsat` at once, so
/// the search ends quickly and [`BudgetedSolver::refusal`] refuses its result. The inner
/// solver's time is unbounded again when this is dropped (a run goes on with it).
struct BudgetedSolver<'s> {
    inner: &'s mut dyn crate::sts::solver::Solver,
    queries: u64,
    /// Time left to the solver.
    left: std::time::Duration,
    seconds: u64,
    spent: bool,
    progress: Progress,
}

impl<'s> BudgetedSolver<'s> {
    fn new(inner: &'s mut dyn crate::sts::solver::Solver, quiet: bool) -> Result<Self, Error> {
        let seconds = solver_seconds()?;
        Ok(BudgetedSolver {
            inner,
            queries: 0,
            left: std::time::Duration::from_secs(seconds),
            seconds,
            spent: false,
            progress: Progress::new(
                !quiet,
                "searching test purposes",
                "solver queries",
                Some(QUERY_BUDGET),
            ),
        })
    }

    /// Runs one query within the budget; `over` is its answer once the budget is spent.
    fn query<T>(
        &mut self,
        over: T,
        ask: impl FnOnce(&mut dyn crate::sts::solver::Solver) -> T,
    ) -> T {
        self.queries += 1;
        self.progress.inc(1);
        if self.spent || self.queries > QUERY_BUDGET {
            self.spent = true;
            return over;
        }
        self.inner.limit_time(Some(self.left));
        let start = std::time::Instant::now();
        let answer = ask(&mut *self.inner);
        match self.left.checked_sub(start.elapsed()) {
            Some(left) if !left.is_zero() => {
                self.left = left;
                answer
            }
            // The query may have been cut short: its answer is not used.
            _ => {
                self.spent = true;
                over
            }
        }
    }

    /// The refusal of a search that spent its budget, with `depth` the bound it searched to.
    fn refusal(&self, depth: usize) -> Option<Error> {
        self.progress.finish();
        self.spent.then(|| {
            Error::Usage(format!(
                "the search for test purposes needed more than {QUERY_BUDGET} solver queries or \
                 {} s of solver time (the budget; {SOLVER_SECONDS_VARIABLE} sets the seconds) to \
                 unfold the symbolic execution to depth {depth}: guards with nonlinear `*`, `/` \
                 or `%` make it wide and slow; give a smaller depth with --n, or make the guards \
                 linear",
                self.seconds
            ))
        })
    }
}

impl Drop for BudgetedSolver<'_> {
    fn drop(&mut self) {
        self.inner.limit_time(None);
    }
}

impl crate::sts::solver::Solver for BudgetedSolver<'_> {
    fn check(
        &mut self,
        symbols: &[crate::sts::symbolic::Symbol],
        constraints: &[crate::sts::symbolic::Sym],
    ) -> crate::sts::solver::Sat {
        self.query(crate::sts::solver::Sat::Unsat, |s| {
            s.check(symbols, constraints)
        })
    }

    fn witness(
        &mut self,
        symbols: &[crate::sts::symbolic::Symbol],
        constraints: &[crate::sts::symbolic::Sym],
    ) -> Option<Vec<crate::sts::expr::Value>> {
        self.query(None, |s| s.witness(symbols, constraints))
    }
}

/// Whether a model file is an STS: by its name (`.sts.yaml`, `.sts.yml`, `.sts.json`), or for
/// YAML and JSON by its top-level key `sts`. Standard input is never one.
pub fn is_sts_file(path: &str, load: &LoadOptions) -> Result<bool, Error> {
    if path == format::STDIN_PATH {
        return Ok(false);
    }
    if crate::sts::load::sts_syntax_of_path(path).is_some() {
        return Ok(true);
    }
    let Some(format) = load.format.or_else(|| Format::from_path(path)) else {
        return Ok(false);
    };
    if !matches!(format, Format::Yaml | Format::Json) {
        return Ok(false);
    }
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    let text = format::utf8_text(bytes, path)?;
    Ok(crate::sts::sts_syntax(path, format, &text, true).is_some())
}

/// `generate --cover switches|switch-pairs` on an STS: the test purposes of the criterion as
/// `ncomplete-sts-purposes` JSON (switch coverage's unfolding to depth `--n`, default 40).
pub fn generate_purposes(
    model_path: &str,
    criterion: Criterion,
    options: &GenerateOptions,
) -> Result<GeneratedSuite, Error> {
    if options.format != SuiteFileFormat::Json {
        return Err(Error::Usage(
            "switch-coverage test purposes of an STS are written as JSON (ncomplete-sts-purposes): drop --format".into(),
        ));
    }
    output::refuse_input_as_output("--out", &options.out, &[model_path])?;
    let sts = crate::sts::load_sts(model_path)?;
    let mut solver = crate::sts::default_solver().map_err(|e| Error::Usage(e.to_string()))?;
    let limits = SegLimits {
        depth: options.n.unwrap_or(DEFAULT_DEPTH),
        nodes: NODE_BUDGET,
    };
    let mut budgeted = BudgetedSolver::new(solver.as_mut(), options.quiet)?;
    let purposes = select_purposes(&sts, &mut budgeted, criterion, limits)
        .map_err(|e| finite_only(criterion, e))?;
    if let Some(refusal) = budgeted.refusal(limits.depth) {
        return Err(refusal);
    }
    format::write_text(Some(&options.out), &purposes.to_json(&sts))?;
    Ok(GeneratedSuite {
        method: None,
        suite_path: options.out.clone(),
        tests: purposes.purposes.len().to_string(),
        guarantee: format!("{} coverage (not n-complete)", criterion.name()),
        stats: None,
        choice: None,
        summary: purposes.summary(&sts),
    })
}

/// `run FILE` where FILE holds STS test purposes (`ncomplete-sts-purposes`, told by the start
/// of the file): a usage error saying that `explore` executes them. `Ok` for any other file,
/// one that cannot be read (the suite reader then says why) and anything but a regular file (a
/// pipe's start is the suite's, not to be consumed here).
pub fn refuse_purposes_as_suite(path: &str) -> Result<(), Error> {
    use std::io::Read as _;
    if path == format::STDIN_PATH || !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return Ok(());
    }
    let mut start = Vec::new();
    let read = std::fs::File::open(path).and_then(|f| f.take(4096).read_to_end(&mut start));
    // Quotes inside JSON strings are escaped: this is the document's own `format` member.
    let marker = format!("\"format\":\"{}\"", crate::sts::purposes::FORMAT);
    let start: String = String::from_utf8_lossy(&start)
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    if read.is_ok() && start.contains(&marker) {
        return Err(Error::Usage(format!(
            "{path} holds test purposes of an STS ({}), not a suite: execute them on the fly with `ncomplete explore MODEL.sts.yaml --purposes {path} --sut COMMAND` (or --model IMPL.sts.yaml), which takes --out FILE and --html FILE for the reports",
            crate::sts::purposes::FORMAT
        )));
    }
    Ok(())
}

/// `simulate` of an STS with a solver: the STS serves the stdio protocol on concrete states
/// (`exec::sut::serve_sts`), whatever its data domains.
pub fn simulate_sts(
    model_path: &str,
    solver: Box<dyn crate::sts::solver::Solver>,
    options: &crate::exec::sut::SutOptions,
) -> Result<(), Error> {
    let sts = crate::sts::load_sts(model_path)?;
    let stdin = std::io::BufReader::new(std::io::stdin());
    crate::exec::sut::serve_sts(
        &sts,
        solver,
        stdin,
        std::io::stdout(),
        std::io::stderr(),
        options,
    )
    .map_err(|e| Error::io("<stdio>", e))
}

/// The purposes `explore --cover switches|switch-pairs` or `--purposes FILE` executes on
/// `sts`, with their criterion and its feasible items beyond switches: those the selection
/// found, or those the file lists (searched again only for a file without them, which needs
/// finite domains).
fn purpose_paths(
    sts: &crate::sts::Sts,
    solver: &mut dyn crate::sts::solver::Solver,
    which: &StsPurposes,
    quiet: bool,
) -> Result<PurposeFile, Error> {
    match which {
        StsPurposes::Cover(criterion) => {
            let limits = SegLimits {
                depth: DEFAULT_DEPTH,
                nodes: NODE_BUDGET,
            };
            let mut budgeted = BudgetedSolver::new(solver, quiet)?;
            let purposes = select_purposes(sts, &mut budgeted, *criterion, limits)
                .map_err(|e| finite_only(*criterion, e))?;
            if let Some(refusal) = budgeted.refusal(limits.depth) {
                return Err(refusal);
            }
            Ok(PurposeFile {
                paths: purposes.purposes.into_iter().map(Into::into).collect(),
                criterion: *criterion,
                items: Some(purposes.items),
            })
        }
        StsPurposes::File(path) => {
            let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
            let text = format::utf8_text(bytes, path)?;
            let mut file = purposes_from_json(sts, solver, &text)
                .map_err(|e| Error::Usage(format!("{path}: {e}")))?;
            if file.items.is_none() && file.criterion != Criterion::SWITCHES {
                let feasible = feasible_items(sts, file.criterion)
                    .map_err(|e| finite_only(file.criterion, e))?;
                file.items = Some(beyond_switches(&feasible));
            }
            Ok(file)
        }
    }
}

/// `explore MODEL.sts.yaml --cover switches | --purposes FILE`: the STS's switch-coverage test
/// purposes executed on the fly against the system (`exec::sts_run`); the report (a line per
/// purpose, a posteriori switch coverage) goes to `out`, JSON to `--out`, a self-contained
/// HTML report to `--html` (`exec::sts_report_html`). Exit status 1 on a
/// failure, 3 when a purpose passed in no round and none failed, else 0.
pub fn explore_purposes(
    spec: &str,
    which: &StsPurposes,
    request: &ExploreRequest,
    out: &mut dyn std::io::Write,
) -> Result<u8, Error> {
    let mut inputs = vec![spec];
    if let StsPurposes::File(file) = which {
        inputs.push(file.as_str());
    }
    for (option, path) in [("--out", &request.out), ("--html", &request.html)] {
        if let Some(path) = path {
            output::refuse_input_as_output(option, path, &inputs)?;
        }
    }
    if !is_sts_file(spec, &request.load)? {
        return Err(Error::Usage(format!(
            "--cover switches and --purposes execute the test purposes of an STS; {spec} is not one (name it `.sts.yaml`)"
        )));
    }
    let sts = crate::sts::load_sts(spec)?;
    let no_solver = |e: crate::sts::solver::NoSolver| Error::Usage(e.to_string());
    let mut solver = crate::sts::default_solver().map_err(no_solver)?;
    let PurposeFile {
        paths: purposes,
        criterion,
        items,
    } = purpose_paths(&sts, solver.as_mut(), which, request.quiet)?;
    let options = StsRunOptions::new(
        request.seed,
        request.rounds,
        request.timeouts.clone(),
        criterion,
    )
    .with_attempts(request.attempts)
    .with_items(items.unwrap_or_default());
    let progress = Progress::new(
        !request.quiet,
        "explore",
        "purposes",
        Some((purposes.len() * request.rounds.max(1)) as u64),
    );
    let tick = |done: usize| progress.set_position(done as u64);
    let implementation = match &request.implementation {
        Some(path) => Some(crate::sts::load_sts(path)?),
        None => None,
    };
    let (mut adapter, command): (Box<dyn Adapter + '_>, String) = match (
        &implementation,
        &request.sut,
    ) {
        (Some(model), _) => {
            let system_solver = crate::sts::default_solver().map_err(no_solver)?;
            // As `explore --model`: the implementation's choices from a seed of their own.
            let seed = request.seed ^ 0x9E37_79B9_7F4A_7C15;
            let adapter = StsAdapter::new(model, system_solver, seed);
            (Box::new(adapter), format!("model {}", model.name))
        }
        (None, Some(access)) => {
            let system = access.open().map_err(|message| ExecError::System {
                command: access.to_string(),
                message,
            })?;
            let adapter = LineAdapter::new(system, options.timeouts.clone());
            (Box::new(adapter), access.to_string())
        }
        (None, None) => {
            return Err(Error::Usage(
                    "give --sut COMMAND, --sut-connect HOST:PORT, --sut-listen HOST:PORT or --model IMPL.sts.yaml".into(),
                ));
        }
    };
    let started = std::time::Instant::now();
    let report = run_purposes(
        &sts,
        solver.as_mut(),
        &purposes,
        adapter.as_mut(),
        &options,
        tick,
    );
    let elapsed = started.elapsed();
    drop(adapter);
    progress.finish();
    let report = report.map_err(|message| ExecError::System {
        command: command.clone(),
        message,
    })?;
    if let Some(path) = &request.out {
        crate::output::write_file(path, report.to_json(request.seed).as_bytes())?;
    }
    if let Some(path) = &request.html {
        let facts = StsRunFacts {
            spec,
            purposes_source: match which {
                StsPurposes::Cover(criterion) => format!("--cover {}", criterion.name()),
                StsPurposes::File(file) => format!("from {file}"),
            },
            system: &command,
            seed: request.seed,
            attempts: options.attempts,
            // A model in process gives the same report for the same seed: no time.
            time: implementation.is_none().then_some(elapsed),
        };
        let html = HtmlReport::of_sts_run(&sts, &purposes, &report, &facts);
        crate::output::write_file(path, html.render().as_bytes())?;
    }
    out.write_all(report.to_text().as_bytes())
        .map_err(|e| Error::io("<stdout>", e))?;
    Ok(match report.verdict() {
        PurposeVerdict::Pass => 0,
        PurposeVerdict::Fail => 1,
        PurposeVerdict::Inconclusive => crate::exec::commands::INCONCLUSIVE_EXIT_STATUS,
    })
}
