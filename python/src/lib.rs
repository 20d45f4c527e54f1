//! `ncomplete._ncomplete`: the Python extension module of the `ncomplete` package (PyO3).
//!
//! A thin layer over the library: models are loaded by `ncomplete::format`, Mealy suites built
//! by `ncomplete::suite::mealy::MealySuite` and streamed by its `stream` module (suite order on
//! a worker thread, or by increasing length), ioco suites by `ncomplete::suite::ioco` (test `k`
//! built on demand), Mealy words run against Python callables by `ncomplete::exec::word`,
//! models checked by `ncomplete::check`. Every library error becomes an exception of the
//! `NcompleteError` hierarchy carrying the library's message. The pure-Python part
//! (`python/ncomplete/`) adds data conversions and the AALpy oracle.

use ncomplete::Error;
use ncomplete::exec::TestVerdict;
use ncomplete::exec::stdio::{
    Adapter, DEFAULT_QUIESCENCE_MS, DEFAULT_RESPONSE_MS, DEFAULT_RETRIES, DEFAULT_STARTUP_MS,
    Observation, SystemOutcome, Timeouts, run_with_retries,
};
use ncomplete::exec::tcp::SystemAccess;
use ncomplete::format::{self, Format, LoadOptions};
use ncomplete::model::{LabelId, Model};
use ncomplete::pipeline::Method;
use ncomplete::pipeline::{BuiltSuite, SuiteRequest, build_suite};
use ncomplete::suite::ioco::{self, Budget, IncompatibleSets, IocoSuite};
use ncomplete::suite::mealy::MealySuite;
use ncomplete::suite::mealy::stream::{ByLength, WordStream};
use ncomplete::suite::names::Shard;
use ncomplete::suite::{SuiteModel, TestCase};
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use std::sync::{Arc, Mutex};
use std::time::Duration;

mod runs;
use runs::{
    Failure, ProcessRun, PyAdapter, RunResult, SuiteFile, SystemRun, TestOutcome, run_interruptibly,
};

pyo3::create_exception!(
    _ncomplete,
    NcompleteError,
    PyException,
    "Base class of every error ncomplete reports."
);
pyo3::create_exception!(
    _ncomplete,
    ParseError,
    NcompleteError,
    "A model text that does not follow its format (FILE:LINE:COL: found X, expected Y)."
);
pyo3::create_exception!(
    _ncomplete,
    ModelError,
    NcompleteError,
    "A model that violates the definition of its kind (partial, nondeterministic, empty...)."
);
pyo3::create_exception!(
    _ncomplete,
    BudgetError,
    NcompleteError,
    "A suite or construction refused because a figure exceeds its budget; the message says which limit to raise."
);
pyo3::create_exception!(
    _ncomplete,
    UsageError,
    NcompleteError,
    "Options that do not fit together or do not fit the model."
);
pyo3::create_exception!(
    _ncomplete,
    CheckError,
    NcompleteError,
    "Two models that cannot be checked against each other."
);
pyo3::create_exception!(
    _ncomplete,
    FileError,
    NcompleteError,
    "A file that cannot be read or written."
);

/// The exception of a library error, with the library's message and its causes.
fn py_error(e: Error) -> PyErr {
    let mut message = e.to_string();
    let mut source = std::error::Error::source(&e);
    while let Some(cause) = source {
        let text = cause.to_string();
        if !message.contains(&text) {
            message.push_str(": ");
            message.push_str(&text);
        }
        source = cause.source();
    }
    match e {
        Error::Parse(_) | Error::Suite { .. } => ParseError::new_err(message),
        Error::IocoSuite(ioco::IocoSuiteError::ZeroBound) => UsageError::new_err(message),
        Error::Model {
            source: ncomplete::model::ModelError::Budget { .. },
            ..
        }
        | Error::Refused(_)
        | Error::IocoSuite(_)
        | Error::Identify(_) => BudgetError::new_err(message),
        Error::Model { .. } | Error::Sts { .. } => ModelError::new_err(message),
        Error::Check(_) => CheckError::new_err(message),
        Error::Io { .. } => FileError::new_err(message),
        Error::Usage(_) | Error::Exec(_) | Error::Render(_) => UsageError::new_err(message),
    }
}

fn usage(message: impl Into<String>) -> PyErr {
    UsageError::new_err(message.into())
}

fn load_options(
    format: Option<&str>,
    inputs: Option<Vec<String>>,
    outputs: Option<Vec<String>>,
    initial: Option<String>,
) -> PyResult<LoadOptions> {
    let format = format
        .map(|f| f.parse::<Format>().map_err(usage))
        .transpose()?;
    Ok(LoadOptions {
        format,
        inputs: inputs.unwrap_or_default(),
        outputs: outputs.unwrap_or_default(),
        initial,
    })
}

/// A model: a deterministic Mealy machine (a Moore machine as its Mealy translation) or a
/// labelled transition system (a nondeterministic Mealy machine as its LTS embedding).
#[pyclass(module = "ncomplete._ncomplete", name = "Model", frozen)]
struct PyModel {
    model: Model,
    source: String,
}

#[pymethods]
impl PyModel {
    /// `"mealy"`, `"moore"` or `"lts"`.
    #[getter]
    fn kind(&self) -> &'static str {
        match &self.model {
            Model::Mealy(m) if m.state_outputs().is_some() => "moore",
            Model::Mealy(_) => "mealy",
            Model::Lts(_) => "lts",
        }
    }

    /// The model's name.
    #[getter]
    fn name(&self) -> String {
        match &self.model {
            Model::Mealy(m) => m.name.clone(),
            Model::Lts(l) => l.name.clone(),
        }
    }

    /// Where the model came from (a file name, or `<dict>`).
    #[getter]
    fn source(&self) -> String {
        self.source.clone()
    }

    /// Number of states.
    #[getter]
    fn num_states(&self) -> usize {
        match &self.model {
            Model::Mealy(m) => m.num_states(),
            Model::Lts(l) => l.num_states(),
        }
    }

    /// Input labels in model order.
    #[getter]
    fn inputs(&self) -> Vec<String> {
        match &self.model {
            Model::Mealy(m) => m.inputs.names().to_vec(),
            Model::Lts(l) => names_of(l, ncomplete::model::LabelKind::Input),
        }
    }

    /// Output labels in model order.
    #[getter]
    fn outputs(&self) -> Vec<String> {
        match &self.model {
            Model::Mealy(m) => m.outputs.names().to_vec(),
            Model::Lts(l) => names_of(l, ncomplete::model::LabelKind::Output),
        }
    }

    /// The model in the native JSON schema (the text `model_from_dict` reads back).
    fn to_json(&self) -> PyResult<String> {
        if let Some(why) = format::unrepresentable(&self.model, Format::Json) {
            return Err(usage(why));
        }
        Ok(format::write_model(&self.model, Format::Json))
    }

    fn __repr__(&self) -> String {
        format!(
            "<ncomplete.Model {} {:?}: {} states, {} inputs>",
            self.kind(),
            self.name(),
            self.num_states(),
            self.inputs().len()
        )
    }
}

fn names_of(lts: &ncomplete::model::Lts, kind: ncomplete::model::LabelKind) -> Vec<String> {
    let labels = &lts.alphabet;
    labels
        .of_kind(kind)
        .map(|l| labels.name(l).to_owned())
        .collect()
}

/// load_model(path, format=None, inputs=None, outputs=None, initial=None)
/// --
///
/// Reads a model file (.aut, .dot, .yaml, .json, .fsm; the format from the extension unless
/// given). `inputs`/`outputs` mark unmarked LTS labels, `initial` overrides the initial state.
#[pyfunction]
#[pyo3(signature = (path, format=None, inputs=None, outputs=None, initial=None))]
fn load_model(
    path: &str,
    format: Option<&str>,
    inputs: Option<Vec<String>>,
    outputs: Option<Vec<String>>,
    initial: Option<String>,
) -> PyResult<PyModel> {
    let options = load_options(format, inputs, outputs, initial)?;
    let model = ncomplete::sts::load_model(path, &options).map_err(|e| py_error(e.into()))?;
    Ok(PyModel {
        model,
        source: path.to_owned(),
    })
}

/// parse_model(text, file_name, format=None, inputs=None, outputs=None, initial=None)
/// --
///
/// Parses model text; `file_name` names it in errors and gives the format by its extension
/// unless `format` is given.
#[pyfunction]
#[pyo3(signature = (text, file_name, format=None, inputs=None, outputs=None, initial=None))]
fn parse_model(
    text: &str,
    file_name: &str,
    format: Option<&str>,
    inputs: Option<Vec<String>>,
    outputs: Option<Vec<String>>,
    initial: Option<String>,
) -> PyResult<PyModel> {
    let options = load_options(format, inputs, outputs, initial)?;
    let model =
        ncomplete::sts::parse_model(text, file_name, &options).map_err(|e| py_error(e.into()))?;
    Ok(PyModel {
        model,
        source: file_name.to_owned(),
    })
}

/// The method names `generate` accepts: every Mealy method and every ioco method.
fn method_names() -> Vec<&'static str> {
    Method::NAMED.iter().map(|(name, _)| *name).collect()
}

/// A generated suite: its tests are built as they are iterated, never all at once.
#[pyclass(module = "ncomplete._ncomplete", name = "Suite", frozen)]
struct PySuite {
    inner: SuiteKind,
    shard: Option<Shard>,
}

enum SuiteKind {
    Mealy(Arc<MealySuite>),
    Ioco(Arc<IocoSuite>),
}

#[pymethods]
impl PySuite {
    /// `"mealy"` or `"ioco"`.
    #[getter]
    fn kind(&self) -> &'static str {
        match &self.inner {
            SuiteKind::Mealy(_) => "mealy",
            SuiteKind::Ioco(_) => "ioco",
        }
    }

    /// The method that built the suite (for `auto`, as the suite header names it).
    #[getter]
    fn method(&self) -> String {
        match &self.inner {
            SuiteKind::Mealy(s) => s.header().method,
            SuiteKind::Ioco(s) => s.header().method.clone(),
        }
    }

    /// What the suite guarantees (the header's `guarantee`).
    #[getter]
    fn guarantee(&self) -> String {
        match &self.inner {
            SuiteKind::Mealy(s) => s.guarantee(),
            SuiteKind::Ioco(s) => s.header().guarantee.clone(),
        }
    }

    /// The bound on implementation states the guarantee refers to.
    #[getter]
    fn n(&self) -> Option<usize> {
        match &self.inner {
            SuiteKind::Mealy(s) => Some(s.bound()),
            SuiteKind::Ioco(s) => s.header().n,
        }
    }

    /// The shard as `"K/N"`, or None for the whole suite.
    #[getter]
    fn shard(&self) -> Option<String> {
        self.shard.map(Shard::label)
    }

    /// The suite file's header as JSON text: the suite JSON v1 document with an empty test
    /// list (model labels, method, n, guarantee, and the shard when there is one).
    fn header_json(&self) -> String {
        let header = match &self.inner {
            SuiteKind::Mealy(s) => s.header(),
            SuiteKind::Ioco(s) => s.header().clone(),
        };
        let header = ncomplete::suite::names::shard_header(&header, self.shard);
        ncomplete::suite::json::suite_to_string(&header, [])
    }

    /// write(path, format="json")
    /// --
    ///
    /// Writes the suite (or its shard) to `path`, whole or not at all, as `ncomplete generate`
    /// writes it: suite JSON v1, or for a Mealy suite `format="words"` (one test per line).
    #[pyo3(signature = (path, format="json"))]
    fn write(&self, py: Python<'_>, path: &str, format: &str) -> PyResult<()> {
        use ncomplete::render::words::{MealySuiteFormat, write_mealy_suite_with};
        let words = match format {
            "json" => MealySuiteFormat::Json,
            "words" => MealySuiteFormat::Words,
            other => {
                return Err(usage(format!(
                    "format: found `{other}`, expected \"json\" or \"words\""
                )));
            }
        };
        py.detach(|| match &self.inner {
            SuiteKind::Ioco(_) if words == MealySuiteFormat::Words => Err(Error::Usage(
                "the ioco methods write suite JSON (format=\"json\"); words are for Mealy suites"
                    .into(),
            )),
            SuiteKind::Ioco(s) => {
                ncomplete::pipeline::write_suite_file(s, Some(path), self.shard, false)
            }
            SuiteKind::Mealy(s) => {
                let mut output = ncomplete::output::Output::create(path)?;
                write_mealy_suite_with(&mut output, s, words, self.shard, &mut |_| {})
                    .map_err(|e| Error::io(output.name(), e))?;
                Ok(output.commit()?)
            }
        })
        .map_err(py_error)
    }

    /// For an ioco suite, its exact number of tests; for a Mealy suite an upper bound counted
    /// before duplicate and prefix removal (iterate to count exactly).
    fn size_bound(&self) -> u128 {
        match &self.inner {
            SuiteKind::Mealy(s) => s.size_before_pruning().tests as u128,
            SuiteKind::Ioco(s) => s.num_tests(),
        }
    }

    /// tests(order="suite")
    /// --
    ///
    /// The tests (or the shard's) as a lazy iterator of `Test`. `order="length"` (Mealy suites
    /// of the whole suite only) gives them by increasing length, shortest first.
    #[pyo3(signature = (order="suite"))]
    fn tests(&self, order: &str) -> PyResult<PyTests> {
        let source = match (&self.inner, order) {
            (SuiteKind::Mealy(s), "suite") => {
                TestSource::Words(WordStream::spawn(Arc::clone(s), self.shard))
            }
            (SuiteKind::Mealy(s), "length") if self.shard.is_none() => {
                TestSource::ByLength(ByLength::new(Arc::clone(s)))
            }
            (SuiteKind::Ioco(s), "suite") => TestSource::Ioco {
                suite: Arc::clone(s),
                next: 0,
                picker: self.shard.map(ncomplete::suite::names::ShardPicker::new),
            },
            (_, "length") => {
                return Err(usage(
                    "order=\"length\" is for Mealy suites without a shard",
                ));
            }
            (_, other) => {
                return Err(usage(format!(
                    "order: found `{other}`, expected \"suite\" or \"length\""
                )));
            }
        };
        let (mealy, model) = match &self.inner {
            SuiteKind::Mealy(s) => (Some(Arc::clone(s)), s.suite_model()),
            SuiteKind::Ioco(s) => (None, s.header().model.clone()),
        };
        Ok(PyTests {
            source: Mutex::new(source),
            mealy,
            model,
        })
    }

    fn __iter__(&self) -> PyResult<PyTests> {
        self.tests("suite")
    }

    /// run(step, reset, order="suite")
    /// --
    ///
    /// Runs a Mealy suite against a system in this process: `reset()` before every test, then
    /// `step(input)` for each input, whose result (converted with `str`) must equal the
    /// specification's output. Stops at the first failing test. An exception raised by `step`
    /// or `reset` ends the run and propagates.
    #[pyo3(signature = (step, reset, order="suite"))]
    fn run(
        &self,
        py: Python<'_>,
        step: Bound<'_, PyAny>,
        reset: Bound<'_, PyAny>,
        order: &str,
    ) -> PyResult<RunResult> {
        let SuiteKind::Mealy(suite) = &self.inner else {
            return Err(usage(
                "run() executes Mealy suites; run an ioco suite against a model with simulate()",
            ));
        };
        let tests = self.tests(order)?;
        let mut source = tests
            .source
            .into_inner()
            .map_err(|e| usage(e.to_string()))?;
        let words = std::iter::from_fn(|| source.next_word());
        let mut reset_fn = || reset.call0().map(|_| ());
        let mut step_fn = |input: &str| -> PyResult<String> {
            let out = step.call1((input,))?;
            Ok(out.str()?.to_string())
        };
        let run =
            ncomplete::exec::word::run_words(suite.spec(), words, &mut reset_fn, &mut step_fn)?;
        let failure = run
            .failure
            .map(|(word, m)| {
                let spec = suite.spec();
                let name = ncomplete::suite::names::word_name(spec.inputs.names(), &word);
                let word = word.iter().map(|&i| spec.inputs.name(i).to_owned());
                Py::new(
                    py,
                    Failure {
                        name,
                        word: word.collect(),
                        position: m.position,
                        inputs: m.inputs,
                        expected: m.expected,
                        observed: m.observed,
                    },
                )
            })
            .transpose()?;
        Ok(RunResult {
            tests: run.tests,
            steps: run.steps,
            failure,
        })
    }

    /// run_adapter(adapter, quiescence_ms=200, response_ms=5000, startup_ms=0, retries=20,
    ///             order="suite", stop_at_first_failure=True)
    /// --
    ///
    /// Runs the suite (Mealy or ioco) against a system driven by `adapter`, an object with
    /// `reset()`, `send(input)` and `receive(timeout)`: `receive` waits at most `timeout`
    /// seconds for the system's next output and returns its label, or None when nothing came
    /// (observed as quiescence where the test allows it). An adapter whose system reads every
    /// input before producing any output that follows it (a model stepped in this process) sets
    /// `reads_inputs_at_once = True`. Verdicts, retries and the input/output race are those of
    /// `ncomplete run --sut`. An exception raised by the adapter ends the run and propagates.
    #[pyo3(signature = (adapter, quiescence_ms=DEFAULT_QUIESCENCE_MS, response_ms=DEFAULT_RESPONSE_MS,
        startup_ms=0, retries=DEFAULT_RETRIES, order="suite", stop_at_first_failure=true))]
    #[allow(clippy::too_many_arguments)]
    fn run_adapter(
        &self,
        py: Python<'_>,
        adapter: Bound<'_, PyAny>,
        quiescence_ms: u64,
        response_ms: u64,
        startup_ms: u64,
        retries: usize,
        order: &str,
        stop_at_first_failure: bool,
    ) -> PyResult<SystemRun> {
        let at_once = match adapter.getattr_opt("reads_inputs_at_once")? {
            Some(flag) => flag.is_truthy()?,
            None => false,
        };
        let mut adapter = PyAdapter {
            object: adapter,
            at_once,
            error: None,
        };
        let timeouts = Timeouts::from_millis(startup_ms, quiescence_ms, response_ms);
        let tests = self.tests(order)?;
        let mut run = SystemRun::default();
        while let Some(next) = tests.next_test()? {
            let test = next.case();
            run.tests += 1;
            let outcome = run_with_retries(&mut adapter, &tests.model, test, &timeouts, retries);
            if let Some(error) = adapter.error.take() {
                return Err(error);
            }
            let outcome = outcome.map_err(|message| {
                py_error(Error::Exec(ncomplete::exec::ExecError::System {
                    command: "adapter".into(),
                    message,
                }))
            })?;
            let verdict = outcome.verdict;
            if verdict != TestVerdict::Pass {
                let outcome = Py::new(py, TestOutcome::from(outcome))?;
                if verdict == TestVerdict::Fail {
                    run.failed.push(outcome);
                    if stop_at_first_failure {
                        break;
                    }
                } else {
                    run.inconclusive.push(outcome);
                }
            }
        }
        Ok(run)
    }

    /// run_process(command=None, quiescence_ms=200, response_ms=5000, startup_ms=1000,
    ///             retries=20, jobs=1, junit=None, json=None, html=None, connect=None,
    ///             listen=None, reset_label=None)
    /// --
    ///
    /// Runs the suite against a real system exactly as `ncomplete run SUITE --sut COMMAND` does
    /// (the same library function): one label per line, a fresh system per test, `jobs` systems
    /// at once, and the reports `--junit`, `--json` and `--html` write. The system is a process
    /// started from the shell command `command`, or reached over TCP: `connect="HOST:PORT"` (it
    /// listens; `--sut-connect`) or `listen="HOST:PORT"` (it connects to us; `--sut-listen`),
    /// with `reset_label` sent over the open connection instead of reconnecting
    /// (`--sut-reset-label`). Returns the verdict, the command's exit status and its report.
    #[pyo3(signature = (command=None, quiescence_ms=DEFAULT_QUIESCENCE_MS,
        response_ms=DEFAULT_RESPONSE_MS, startup_ms=DEFAULT_STARTUP_MS, retries=DEFAULT_RETRIES,
        jobs=1, junit=None, json=None, html=None, connect=None, listen=None, reset_label=None))]
    #[allow(clippy::too_many_arguments)]
    fn run_process(
        &self,
        py: Python<'_>,
        command: Option<String>,
        quiescence_ms: u64,
        response_ms: u64,
        startup_ms: u64,
        retries: usize,
        jobs: usize,
        junit: Option<String>,
        json: Option<String>,
        html: Option<String>,
        connect: Option<String>,
        listen: Option<String>,
        reset_label: Option<String>,
    ) -> PyResult<ProcessRun> {
        let system = match (command, connect, listen) {
            (Some(command), None, None) if reset_label.is_none() => SystemAccess::Command(command),
            (None, Some(address), None) => SystemAccess::Connect {
                address,
                reset_label,
            },
            (None, None, Some(address)) => SystemAccess::Listen {
                address,
                reset_label,
            },
            _ => {
                return Err(usage(
                    "give one of command, connect=\"HOST:PORT\" or listen=\"HOST:PORT\" (reset_label goes with connect or listen)",
                ));
            }
        };
        let request = ncomplete::pipeline::RunRequest {
            sut: Some(system),
            timeouts: Timeouts::from_millis(startup_ms, quiescence_ms, response_ms),
            retries,
            jobs: Some(jobs.max(1)),
            junit,
            json,
            html,
            quiet: true,
            ..ncomplete::pipeline::RunRequest::default()
        };
        let file = SuiteFile::new()?;
        self.write(py, file.path(), "json")?;
        let mut report = Vec::new();
        let outcome = run_interruptibly(py, || {
            ncomplete::pipeline::run(file.path(), &request, &mut report)
        })?
        .map_err(py_error)?;
        Ok(ProcessRun {
            verdict: outcome.verdict.to_string(),
            status: outcome.status,
            report: String::from_utf8_lossy(&report).into_owned(),
        })
    }

    /// simulate(model, input_enable=False)
    /// --
    ///
    /// Runs the suite exactly against a model of the implementation (every output choice and
    /// race explored, as `ncomplete run --model`); stops at the first failing test. An input the
    /// model refuses is an error unless `input_enable` lets the model ignore it (a self-loop,
    /// `--input-enable self-loop`).
    #[pyo3(signature = (model, input_enable=false))]
    fn simulate(&self, py: Python<'_>, model: &PyModel, input_enable: bool) -> PyResult<RunResult> {
        let header = match &self.inner {
            SuiteKind::Mealy(s) => s.header(),
            SuiteKind::Ioco(s) => s.header().clone(),
        };
        let system = ncomplete::exec::system_for_suite(
            &model.model,
            &header.model,
            if input_enable {
                ncomplete::exec::InputEnabling::SelfLoop
            } else {
                ncomplete::exec::InputEnabling::Reject
            },
        )
        .map_err(|e| py_error(e.into()))?;
        let tests = self.tests("suite")?;
        let mut result = RunResult {
            tests: 0,
            steps: 0,
            failure: None,
        };
        while let Some(next) = tests.next_test()? {
            let test = next.case();
            result.tests += 1;
            let outcome = ncomplete::exec::run_test(&system, test);
            result.steps += test.runs_and_steps().1 as u64;
            if outcome.verdict == ncomplete::exec::TestVerdict::Fail {
                let labels = &tests.model;
                let steps = outcome.counterexample.unwrap_or_default();
                let shown: Vec<String> = steps.iter().map(|&s| system.step_name(s)).collect();
                let inputs = steps.iter().filter_map(|s| match *s {
                    ncomplete::exec::Step::Input(l) => Some(labels.inputs[l.index()].clone()),
                    ncomplete::exec::Step::Output(_) => None,
                });
                result.failure = Some(Py::new(
                    py,
                    Failure {
                        name: test.name.clone(),
                        position: shown.len().saturating_sub(1),
                        observed: shown.last().cloned().unwrap_or_default(),
                        word: shown,
                        inputs: inputs.collect(),
                        expected: String::new(),
                    },
                )?);
                break;
            }
        }
        Ok(result)
    }

    fn __repr__(&self) -> String {
        format!(
            "<ncomplete.Suite {} n={:?}{}>",
            self.method(),
            self.n(),
            self.shard()
                .map(|s| format!(" shard {s}"))
                .unwrap_or_default()
        )
    }
}

/// Where a test iterator takes its tests from.
enum TestSource {
    Words(WordStream),
    ByLength(ByLength<Arc<MealySuite>>),
    Ioco {
        suite: Arc<IocoSuite>,
        next: u128,
        picker: Option<ncomplete::suite::names::ShardPicker>,
    },
}

/// The next test of a source: a Mealy word with its test case, or an ioco test case.
enum NextTest {
    Word(Vec<LabelId>, TestCase),
    Tree(TestCase),
}

impl NextTest {
    fn case(&self) -> &TestCase {
        match self {
            NextTest::Word(_, case) | NextTest::Tree(case) => case,
        }
    }
}

impl TestSource {
    fn next_word(&mut self) -> Option<Vec<LabelId>> {
        match self {
            TestSource::Words(w) => w.next(),
            TestSource::ByLength(w) => w.next(),
            TestSource::Ioco { .. } => None,
        }
    }

    /// The next test; `mealy` is the suite of a word source.
    fn next_test(&mut self, mealy: Option<&MealySuite>) -> Option<NextTest> {
        if let TestSource::Ioco {
            suite,
            next,
            picker,
        } = self
        {
            while *next < suite.num_tests() {
                let test = suite.test(*next);
                *next += 1;
                if picker.as_mut().is_none_or(|p| p.keep(&test)) {
                    return Some(NextTest::Tree(test));
                }
            }
            return None;
        }
        let word = self.next_word()?;
        let case = mealy?.test_case(&word);
        Some(NextTest::Word(word, case))
    }
}

/// A lazy iterator over a suite's tests.
#[pyclass(module = "ncomplete._ncomplete", name = "TestIterator")]
struct PyTests {
    source: Mutex<TestSource>,
    /// The suite of a Mealy source.
    mealy: Option<Arc<MealySuite>>,
    /// The labels the tests' JSON names.
    model: SuiteModel,
}

impl PyTests {
    fn next_test(&self) -> PyResult<Option<NextTest>> {
        let mut source = self.source.lock().map_err(|e| usage(e.to_string()))?;
        Ok(source.next_test(self.mealy.as_deref()))
    }
}

#[pymethods]
impl PyTests {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self) -> PyResult<Option<PyTest>> {
        let Some(next) = self.next_test()? else {
            return Ok(None);
        };
        let json = ncomplete::suite::json::test_line(&self.model, next.case());
        let (inputs, outputs, case) = match (next, &self.mealy) {
            (NextTest::Word(word, case), Some(suite)) => {
                let spec = suite.spec();
                let outputs = spec.run(spec.initial(), &word);
                let inputs = word.iter().map(|&i| spec.inputs.name(i).to_owned());
                let outputs = outputs.iter().map(|&o| spec.outputs.name(o).to_owned());
                (Some(inputs.collect()), Some(outputs.collect()), case)
            }
            (NextTest::Word(_, case) | NextTest::Tree(case), _) => (None, None, case),
        };
        Ok(Some(PyTest {
            name: case.name,
            inputs,
            outputs,
            json,
        }))
    }
}

/// One test. Mealy tests have `inputs` and the specification's `outputs`; every test has its
/// `name` and its suite JSON v1 object (`json`).
#[pyclass(module = "ncomplete._ncomplete", name = "Test", frozen)]
struct PyTest {
    name: String,
    inputs: Option<Vec<String>>,
    outputs: Option<Vec<String>>,
    json: std::io::Result<String>,
}

#[pymethods]
impl PyTest {
    /// The test's stable name.
    #[getter]
    fn name(&self) -> String {
        self.name.clone()
    }

    /// A Mealy test's input word (None for ioco tests).
    #[getter]
    fn inputs(&self) -> Option<Vec<String>> {
        self.inputs.clone()
    }

    /// The specification's outputs for a Mealy test's inputs (None for ioco tests).
    #[getter]
    fn outputs(&self) -> Option<Vec<String>> {
        self.outputs.clone()
    }

    /// The test as a suite JSON v1 test object (text).
    fn to_json(&self) -> PyResult<String> {
        self.json
            .as_ref()
            .map(|s| s.trim_end().to_owned())
            .map_err(|e| usage(e.to_string()))
    }

    fn __len__(&self) -> usize {
        self.inputs.as_ref().map_or(0, Vec::len)
    }

    fn __repr__(&self) -> String {
        format!("<ncomplete.Test {}>", self.name)
    }
}

/// generate(model, method="auto", extra_states=None, n=None, shard=None, prune_prefixes=True,
///          max_tests=None, max_steps=None, max_nodes=None, max_plan_nodes=None,
///          max_seconds=None)
/// --
///
/// Generates a complete suite for `model`. Mealy methods (w, wp, hsi, hsi-st, hads, uio, uiov,
/// h, spy, spyh, auto) take `extra_states` (default 0); ioco methods (ioco-complete,
/// unconditional, ioco-ads, ioco-auto, ioco-counting, ioco-cover-counting) take `n` or
/// `extra_states`. `auto` is Mealy auto for a Mealy machine and ioco-auto for an LTS. `shard`
/// ("K/N") keeps only that part, split by steps as `generate --shard` splits it. Budgets refuse
/// a suite before any test is built (BudgetError); `max_seconds` is the estimated execution time
/// allowed (default one hour, as `generate --max-seconds`).
#[pyfunction]
#[pyo3(signature = (model, method="auto", extra_states=None, n=None, shard=None, prune_prefixes=true,
    max_tests=None, max_steps=None, max_nodes=None, max_plan_nodes=None, max_seconds=None))]
#[allow(clippy::too_many_arguments)]
fn generate(
    py: Python<'_>,
    model: &PyModel,
    method: &str,
    extra_states: Option<usize>,
    n: Option<usize>,
    shard: Option<&str>,
    prune_prefixes: bool,
    max_tests: Option<u128>,
    max_steps: Option<u128>,
    max_nodes: Option<u128>,
    max_plan_nodes: Option<usize>,
    max_seconds: Option<u128>,
) -> PyResult<PySuite> {
    let shard = shard
        .map(|s| Shard::parse(s).map_err(|e| usage(format!("shard: {e}"))))
        .transpose()?;
    let mut budget = Budget::default();
    if let Some(x) = max_tests {
        budget.max_tests = x;
    }
    if let Some(x) = max_steps {
        budget.max_steps = x;
    }
    if let Some(x) = max_nodes {
        budget.max_nodes = x;
    }
    if let Some(x) = max_plan_nodes {
        budget.max_plan_nodes = x;
    }
    if let Some(x) = max_seconds {
        budget.max_seconds = x;
    }
    // Named, resolved, checked and built as `ncomplete generate` does: `auto` is ioco-auto for
    // an LTS; ioco suites are built for the minimised model in the classic domain.
    let method = Method::from_name(method).ok_or_else(|| {
        usage(format!(
            "method: found `{method}`, expected one of {}",
            method_names().join(", ")
        ))
    })?;
    let is_ioco = method
        .resolve(&model.model)
        .ioco(IncompatibleSets::Maximal)
        .is_some();
    match (is_ioco, n, extra_states) {
        (true, None, None) => return Err(usage("the ioco methods take n=N or extra_states=E")),
        (false, Some(_), _) if matches!(model.model, Model::Mealy(_)) => {
            return Err(usage(
                "the Mealy methods take extra_states=E (the bound is the minimised model's size plus E)",
            ));
        }
        _ => {}
    }
    let request = SuiteRequest {
        method,
        n,
        extra_states,
        budget,
        keep_prefixes: !prune_prefixes,
        ..SuiteRequest::default()
    };
    let source = &model.source;
    let model = &model.model;
    let (_, built) = py
        .detach(|| build_suite(model, source, &request))
        .map_err(py_error)?;
    let inner = match built {
        BuiltSuite::Mealy(suite) => SuiteKind::Mealy(Arc::from(suite)),
        BuiltSuite::Ioco { suite, .. } => SuiteKind::Ioco(Arc::from(suite)),
    };
    Ok(PySuite { inner, shard })
}

/// The verdict of `check`.
#[pyclass(module = "ncomplete._ncomplete", name = "CheckResult", frozen, get_all)]
struct CheckResult {
    /// Whether the implementation conforms (Mealy: is equivalent; LTS: ioco or uioco).
    conforms: bool,
    /// The report `ncomplete check` prints, with a shortest counterexample when it fails.
    text: String,
}

#[pymethods]
impl CheckResult {
    fn __bool__(&self) -> bool {
        self.conforms
    }

    fn __repr__(&self) -> String {
        format!("<ncomplete.CheckResult conforms={}>", self.conforms)
    }
}

/// check(spec, imp, uioco=False, quasi=False)
/// --
///
/// Checks `imp` against `spec` as `ncomplete check` does: equivalence (or quasi-equivalence) of
/// Mealy machines, ioco (or uioco) of LTSs.
#[pyfunction]
#[pyo3(signature = (spec, imp, uioco=false, quasi=false))]
fn check(spec: &PyModel, imp: &PyModel, uioco: bool, quasi: bool) -> PyResult<CheckResult> {
    let request = ncomplete::check::CheckRequest {
        uioco,
        quasi,
        ..Default::default()
    };
    let report = ncomplete::check::check_models(
        &spec.model,
        &spec.source,
        &imp.model,
        &imp.source,
        &request,
    )
    .map_err(|e| py_error(e.into()))?;
    Ok(CheckResult {
        conforms: report.conforms,
        text: report.text,
    })
}

/// methods()
/// --
///
/// The names `generate` accepts as `method`.
#[pyfunction]
fn methods() -> Vec<&'static str> {
    method_names()
}

#[pymodule]
fn _ncomplete(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("NcompleteError", py.get_type::<NcompleteError>())?;
    m.add("ParseError", py.get_type::<ParseError>())?;
    m.add("ModelError", py.get_type::<ModelError>())?;
    m.add("BudgetError", py.get_type::<BudgetError>())?;
    m.add("UsageError", py.get_type::<UsageError>())?;
    m.add("CheckError", py.get_type::<CheckError>())?;
    m.add("FileError", py.get_type::<FileError>())?;
    m.add_class::<PyModel>()?;
    m.add_class::<PySuite>()?;
    m.add_class::<PyTests>()?;
    m.add_class::<PyTest>()?;
    m.add_class::<Failure>()?;
    m.add_class::<RunResult>()?;
    m.add_class::<CheckResult>()?;
    m.add_class::<TestOutcome>()?;
    m.add_class::<SystemRun>()?;
    m.add_class::<ProcessRun>()?;
    m.add_function(wrap_pyfunction!(load_model, m)?)?;
    m.add_function(wrap_pyfunction!(parse_model, m)?)?;
    m.add_function(wrap_pyfunction!(generate, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(methods, m)?)?;
    Ok(())
}
