//! What runs of a suite report to Python (`RunResult`, `SystemRun`, `ProcessRun` and their
//! parts), the adapter that drives a system through a Python object, the run on a thread of
//! its own that Ctrl-C interrupts, and the temporary suite file of `Suite.run_process`.

use super::*;

/// The first failure of a run.
#[pyclass(module = "ncomplete._ncomplete", name = "Failure", frozen, get_all)]
pub(crate) struct Failure {
    /// The failing test's name.
    pub(crate) name: String,
    /// The failing test's whole input word (for `simulate`, the failing execution's steps).
    pub(crate) word: Vec<String>,
    /// 0-based position of the input whose output differed.
    pub(crate) position: usize,
    /// The inputs sent up to and including that input: the counterexample.
    pub(crate) inputs: Vec<String>,
    /// The specification's output there.
    pub(crate) expected: String,
    /// The system's output there.
    pub(crate) observed: String,
}

#[pymethods]
impl Failure {
    fn __repr__(&self) -> String {
        format!(
            "<ncomplete.Failure {}: after {:?} expected {:?}, observed {:?}>",
            self.name, self.inputs, self.expected, self.observed
        )
    }
}

/// What a run did: tests started, inputs sent, and the first failure (None: every test passed).
#[pyclass(module = "ncomplete._ncomplete", name = "RunResult", frozen, get_all)]
pub(crate) struct RunResult {
    /// Tests started (the failing one included).
    pub(crate) tests: u64,
    /// Inputs sent (for `simulate`, steps of the tests run).
    pub(crate) steps: u64,
    /// The first failing test, or None.
    pub(crate) failure: Option<Py<Failure>>,
}

impl RunResult {
    pub(crate) fn passed(&self) -> bool {
        self.failure.is_none()
    }
}

#[pymethods]
impl RunResult {
    /// True when every test passed.
    #[getter(passed)]
    fn passed_py(&self) -> bool {
        self.passed()
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        match &self.failure {
            None => format!("<ncomplete.RunResult passed: {} tests>", self.tests),
            Some(f) => format!(
                "<ncomplete.RunResult failed after {} tests: {}>",
                self.tests,
                f.borrow(py).__repr__()
            ),
        }
    }
}

/// A Python object driving the system under test (`Suite.run_adapter`). The first exception
/// it raises is kept and ends the run.
pub(crate) struct PyAdapter<'py> {
    pub(crate) object: Bound<'py, PyAny>,
    pub(crate) at_once: bool,
    pub(crate) error: Option<PyErr>,
}

impl PyAdapter<'_> {
    fn call<T>(
        &mut self,
        call: impl FnOnce(&Bound<'_, PyAny>) -> PyResult<T>,
    ) -> Result<T, String> {
        call(&self.object).map_err(|e| {
            let message = e.to_string();
            self.error.get_or_insert(e);
            message
        })
    }
}

impl Adapter for PyAdapter<'_> {
    fn reset(&mut self) -> Result<(), String> {
        self.call(|o| o.call_method0("reset").map(|_| ()))
    }

    fn send(&mut self, input: &str) -> Result<(), String> {
        self.call(|o| o.call_method1("send", (input,)).map(|_| ()))
    }

    fn receive(&mut self, timeout: Duration) -> Result<Observation, String> {
        self.call(|o| {
            let got = o.call_method1("receive", (timeout.as_secs_f64(),))?;
            Ok(if got.is_none() {
                Observation::Quiescence
            } else {
                Observation::Output(got.str()?.to_string())
            })
        })
    }

    /// A system that reads inputs at once steps only when the tester acts: nothing is on its
    /// way before an input.
    fn pending_output(&mut self, grace: Duration) -> Result<Option<String>, String> {
        if self.at_once {
            return Ok(None);
        }
        Ok(self.receive(grace)?.output())
    }

    fn reads_inputs_at_once(&self) -> bool {
        self.at_once
    }
}

/// A test that did not pass in `Suite.run_adapter`.
#[pyclass(module = "ncomplete._ncomplete", name = "TestOutcome", frozen, get_all)]
pub(crate) struct TestOutcome {
    /// The test's name.
    pub(crate) name: String,
    /// "fail" or "inconclusive".
    pub(crate) verdict: String,
    /// Executions of the test (retries included).
    pub(crate) attempts: usize,
    /// The labels of the last execution, inputs `?x` and outputs `!y` (quiescence `delta`).
    pub(crate) trace: Vec<String>,
    /// Why it failed or was inconclusive.
    pub(crate) message: String,
}

impl From<SystemOutcome> for TestOutcome {
    fn from(o: SystemOutcome) -> Self {
        TestOutcome {
            name: o.name,
            verdict: o.verdict.to_string(),
            attempts: o.attempts,
            trace: o.trace,
            message: o.message.unwrap_or_default(),
        }
    }
}

#[pymethods]
impl TestOutcome {
    fn __repr__(&self) -> String {
        format!(
            "<ncomplete.TestOutcome {} {}: {}>",
            self.name, self.verdict, self.message
        )
    }
}

/// What `Suite.run_adapter` did: tests run, and those that failed or were inconclusive.
#[pyclass(module = "ncomplete._ncomplete", name = "SystemRun", frozen, get_all)]
#[derive(Default)]
pub(crate) struct SystemRun {
    /// Tests run (the failing one included).
    pub(crate) tests: u64,
    /// The failing tests (at most one with `stop_at_first_failure`).
    pub(crate) failed: Vec<Py<TestOutcome>>,
    /// Tests whose every attempt ended in `retry`.
    pub(crate) inconclusive: Vec<Py<TestOutcome>>,
}

#[pymethods]
impl SystemRun {
    /// "fail" if a test failed, else "inconclusive" if a test was, else "pass".
    #[getter]
    fn verdict(&self) -> &'static str {
        if !self.failed.is_empty() {
            "fail"
        } else if !self.inconclusive.is_empty() {
            "inconclusive"
        } else {
            "pass"
        }
    }

    /// True when every test passed.
    #[getter]
    pub(crate) fn passed(&self) -> bool {
        self.failed.is_empty() && self.inconclusive.is_empty()
    }

    fn __repr__(&self) -> String {
        format!(
            "<ncomplete.SystemRun {}: {} tests, {} failed, {} inconclusive>",
            self.verdict(),
            self.tests,
            self.failed.len(),
            self.inconclusive.len()
        )
    }
}

/// How often a run on a system checks for Python's signals (Ctrl-C).
const SIGNAL_CHECK: Duration = Duration::from_millis(50);

/// Runs `work` on a thread of its own, with the GIL released, while the calling thread checks
/// Python's signals every [`SIGNAL_CHECK`]: on an exception from a signal handler
/// (`KeyboardInterrupt` on Ctrl-C) every system is killed and no new one starts, so `work` ends
/// soon; the exception is raised once it has.
pub(crate) fn run_interruptibly<T: Send>(
    py: Python<'_>,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    std::thread::scope(|scope| {
        let worker = scope.spawn(work);
        let join = |worker: std::thread::ScopedJoinHandle<'_, T>| {
            worker
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        };
        loop {
            let ended = py.detach(|| {
                let until = std::time::Instant::now() + SIGNAL_CHECK;
                while !worker.is_finished() && std::time::Instant::now() < until {
                    std::thread::sleep(Duration::from_millis(2));
                }
                worker.is_finished()
            });
            if ended {
                return Ok(join(worker));
            }
            if let Err(interrupt) = py.check_signals() {
                ncomplete::exec::stdio::stop_all_systems();
                py.detach(|| drop(join(worker)));
                ncomplete::exec::stdio::allow_systems();
                return Err(interrupt);
            }
        }
    })
}

/// What `Suite.run_process` did, as `ncomplete run --sut` reports it.
#[pyclass(module = "ncomplete._ncomplete", name = "ProcessRun", frozen, get_all)]
pub(crate) struct ProcessRun {
    /// "pass", "fail" or "inconclusive".
    pub(crate) verdict: String,
    /// The exit status `ncomplete run` would give: 0 pass, 1 fail, 3 inconclusive.
    pub(crate) status: u8,
    /// The report `ncomplete run` prints: a line per test and the summary.
    pub(crate) report: String,
}

#[pymethods]
impl ProcessRun {
    /// True when every test passed.
    #[getter]
    pub(crate) fn passed(&self) -> bool {
        self.status == 0
    }

    fn __repr__(&self) -> String {
        format!(
            "<ncomplete.ProcessRun {} (status {})>",
            self.verdict, self.status
        )
    }
}

/// A suite file in the temporary directory, removed when dropped.
pub(crate) struct SuiteFile(String);

impl SuiteFile {
    pub(crate) fn new() -> PyResult<Self> {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let k = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let name = format!("ncomplete-{}-{k}.suite.json", std::process::id());
        let path = std::env::temp_dir().join(name);
        let path = path.to_str().ok_or_else(|| {
            usage(format!(
                "the temporary directory {} is not a UTF-8 path",
                path.display()
            ))
        })?;
        Ok(SuiteFile(path.to_owned()))
    }

    pub(crate) fn path(&self) -> &str {
        &self.0
    }
}

impl Drop for SuiteFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}
