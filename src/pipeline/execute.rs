//! The commands that execute or render suites: `run`, `explore`, `render` and `simulate`.

use super::options::ExploreRequest;
use super::{load_annotated_model, load_model};
use crate::Error;
use crate::exec::commands::{self, ExploreSystem, SystemRun};
use crate::exec::explore::Policy;
use crate::exec::stdio::Timeouts;
use crate::exec::tcp::SystemAccess;
use crate::exec::{InputEnabling, TestVerdict};
use crate::format::LoadOptions;
use crate::output;
use crate::suite::names::Shard;
use std::io::Write;
use std::path::PathBuf;

/// The options of [`run`] (`ncomplete run`): a suite file against a model of the
/// implementation (`implementation`) or a process (`sut`).
#[derive(Clone, Debug, Default)]
pub struct RunRequest {
    /// How model files are read.
    pub load: LoadOptions,
    /// The Mealy machine a words suite was generated from.
    pub spec: Option<String>,
    /// A model of the implementation, executed exactly (every race and output choice).
    pub implementation: Option<String>,
    /// What the implementation model does with inputs it refuses.
    pub input_enabling: InputEnabling,
    /// How the system under test is reached (when there is no implementation model): a
    /// command, or a TCP connection.
    pub sut: Option<SystemAccess>,
    /// The timeouts of the system under test.
    pub timeouts: Timeouts,
    /// Re-runs of a test that ended in retry (`sut`).
    pub retries: usize,
    /// Follow the system (`sut`): a retried execution continues with the next test holding its
    /// trace.
    pub follow: bool,
    /// Systems run at once (`sut`; `None`: `default_jobs`: the number of cores for a
    /// command, one over TCP).
    pub jobs: Option<usize>,
    /// Also write the results as JUnit XML to this file.
    pub junit: Option<String>,
    /// Also write the results as JSON to this file.
    pub json: Option<String>,
    /// Also write a self-contained HTML report to this file (the specification drawn when
    /// `spec` is given).
    pub html: Option<String>,
    /// No warnings or progress on stderr.
    pub quiet: bool,
}

/// What [`run`] found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RunOutcome {
    /// The suite verdict.
    pub verdict: TestVerdict,
    /// The exit status of `ncomplete run`: against a model 1 only when a test failed, against a
    /// system 0 only when every test passed.
    pub status: u8,
}

/// `ncomplete run`: the suite file `suite` executed against a model or a process, one line per
/// test and the summary written to `out`.
pub fn run(suite: &str, request: &RunRequest, out: &mut dyn Write) -> Result<RunOutcome, Error> {
    super::sts::refuse_purposes_as_suite(suite)?;
    let inputs: Vec<&str> = [
        Some(suite),
        request.spec.as_deref(),
        request.implementation.as_deref(),
    ]
    .into_iter()
    .flatten()
    .collect();
    for (option, path) in [
        ("--junit", &request.junit),
        ("--json", &request.json),
        ("--html", &request.html),
    ] {
        if let Some(path) = path {
            if path == "-" {
                return Err(Error::Usage(format!(
                    "{option} needs a file: standard output carries the run's report"
                )));
            }
            output::refuse_input_as_output(option, path, &inputs)?;
        }
    }
    let files = [&request.junit, &request.json, &request.html];
    if (0..3).any(|i| files[i].is_some() && files[i + 1..].contains(&files[i])) {
        return Err(Error::Usage(
            "--junit, --json and --html must name different files".into(),
        ));
    }
    let system = match (&request.implementation, &request.sut) {
        (Some(path), _) => format!("model {path}"),
        (None, Some(system)) => format!("system {system}"),
        (None, None) => String::new(),
    };
    let (spec, annotations) = match &request.spec {
        Some(path) => {
            let (model, annotations) = load_annotated_model(path, &request.load, request.quiet)?;
            (Some(model), annotations)
        }
        None => (None, None),
    };
    // The specification's per-state and per-input timeouts lengthen the waits.
    let timeouts = request.timeouts.clone().annotated(annotations);
    let mut results =
        crate::exec::results::RunResults::new(request.junit.clone(), request.json.clone(), system)
            .with_html(
                request.html.clone(),
                request.spec.as_deref().zip(spec.as_ref()),
            )?;
    match (&request.implementation, &request.sut) {
        (Some(path), _) => {
            let model = load_model(path, &request.load, request.quiet)?;
            let verdict = commands::run_on_model(
                suite,
                spec.as_ref(),
                &model,
                request.input_enabling,
                out,
                &mut results,
            )?;
            Ok(RunOutcome {
                verdict,
                status: commands::model_exit_status(verdict),
            })
        }
        (None, Some(system)) => {
            let verdict = commands::run_on_system(
                suite,
                spec.as_ref(),
                &SystemRun {
                    system,
                    timeouts: &timeouts,
                    retries: request.retries,
                    follow: request.follow,
                    jobs: request.jobs.unwrap_or_else(|| default_jobs(system)),
                    quiet: request.quiet,
                },
                out,
                &mut results,
            )?;
            Ok(RunOutcome {
                verdict,
                status: commands::system_exit_status(verdict),
            })
        }
        (None, None) => Err(Error::Usage(
            "give --model IMPL, --sut COMMAND, --sut-connect HOST:PORT or --sut-listen HOST:PORT"
                .into(),
        )),
    }
}

/// How many systems `run` drives at once without `--jobs`: one per core for processes it
/// starts; one session at a time over TCP (`--sut-connect`, `--sut-listen`), where more need a
/// server that serves that many sessions at once, so they are asked for with `--jobs N`.
pub fn default_jobs(system: &SystemAccess) -> usize {
    match system {
        SystemAccess::Command(_) => std::thread::available_parallelism().map_or(1, |n| n.get()),
        SystemAccess::Connect { .. } | SystemAccess::Listen { .. } => 1,
    }
}

/// `ncomplete explore`: on-the-fly testing against the specification model file `spec`; the
/// coverage table and verdict are written to `out`; returns the exit status (1 on a failure).
pub fn explore(spec: &str, request: &ExploreRequest, out: &mut dyn Write) -> Result<u8, Error> {
    let mut inputs = vec![spec];
    inputs.extend(request.implementation.as_deref());
    for (option, path) in [("--out", &request.out), ("--html", &request.html)] {
        if let Some(path) = path {
            output::refuse_input_as_output(option, path, &inputs)?;
        }
    }
    if request.html.is_some() && request.html == request.out {
        return Err(Error::Usage("--out and --html name the same file".into()));
    }
    if request.html.as_deref() == Some("-") {
        return Err(Error::Usage(
            "--html needs a file: standard output carries the run's report".into(),
        ));
    }
    if let Some(purposes) = &request.sts_purposes {
        return super::sts::explore_purposes(spec, purposes, request, out);
    }
    let mut options = request.options()?;
    if request.purpose.is_some() && request.policy != Policy::Strategy {
        return Err(Error::Usage(
            "--purpose and --purpose-regex steer `--policy strategy` (add it)".into(),
        ));
    }
    let (spec_model, annotations) = load_annotated_model(spec, &request.load, request.quiet)?;
    options.timeouts = options.timeouts.annotated(annotations);
    let implementation = match &request.implementation {
        Some(path) => Some(load_model(path, &request.load, request.quiet)?),
        None => None,
    };
    let system = match (&implementation, &request.sut) {
        (Some(model), _) => ExploreSystem::Model(model),
        (None, Some(system)) => ExploreSystem::Process(system),
        (None, None) => {
            return Err(Error::Usage(
                "give --sut COMMAND, --sut-connect HOST:PORT, --sut-listen HOST:PORT or --model IMPL"
                    .into(),
            ));
        }
    };
    commands::explore(
        &spec_model,
        system,
        &options,
        request.purpose.as_ref(),
        commands::ExploreOutputs {
            json: request.out.as_deref(),
            html: request.html.as_deref(),
        },
        request.quiet,
        out,
    )
    .map_err(Error::from)
}

/// The options of [`render`] (`ncomplete render`).
#[derive(Clone, Debug)]
pub struct RenderRequest {
    /// The program format.
    pub format: crate::render::Format,
    /// The output directory (replaced as a whole).
    pub out: PathBuf,
    /// Templates overriding the built-in ones.
    pub templates: Option<PathBuf>,
    /// Render only this shard.
    pub shard: Option<Shard>,
    /// Replace an output directory holding a rendering in another format.
    pub force: bool,
    /// Also write an on-the-fly tester embedding this specification model file (format from its
    /// extension).
    pub explore_spec: Option<String>,
    /// The model the suite was generated from, whose timeout annotations the tests honour.
    pub spec: Option<String>,
    /// No warnings or progress on stderr.
    pub quiet: bool,
}

/// `ncomplete render`: the suite file `suite` rendered into a directory; returns the files
/// written.
pub fn render(suite: &str, request: &RenderRequest) -> Result<Vec<PathBuf>, Error> {
    let target = request.format;
    let spec = match &request.explore_spec {
        Some(_) if !target.has_explorer() => {
            return Err(Error::Usage(
                "--explore-spec needs --format python or --format rust".into(),
            ));
        }
        Some(path) => Some(load_annotated_model(
            path,
            &LoadOptions::default(),
            request.quiet,
        )?),
        None => None,
    };
    let timeouts = match &request.spec {
        Some(path) => load_annotated_model(path, &LoadOptions::default(), request.quiet)?.1,
        None => None,
    };
    commands::render(
        suite,
        target,
        &request.out,
        request.templates.as_deref(),
        (request.shard, request.force),
        spec.as_ref(),
        timeouts.map(std::sync::Arc::new),
    )
    .map_err(Error::from)
}

/// `ncomplete simulate`: the model file acting as a system under test on stdin and stdout.
pub fn simulate(
    model_path: &str,
    load: &LoadOptions,
    options: &crate::exec::sut::SutOptions,
    quiet: bool,
) -> Result<(), Error> {
    if super::sts::is_sts_file(model_path, load)?
        && let Ok(solver) = crate::sts::default_solver()
    {
        return super::sts::simulate_sts(model_path, solver, options);
    }
    let model = load_model(model_path, load, quiet)?;
    commands::simulate(&model, options).map_err(Error::from)
}
