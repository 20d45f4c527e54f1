"""Type stubs of ncomplete (the extension module ncomplete._ncomplete and its Python helpers)."""

from typing import Any, Callable, Iterator, List, Mapping, Optional, Protocol, Tuple

class NcompleteError(Exception):
    """Base class of every error ncomplete reports."""

class ParseError(NcompleteError):
    """A model text that does not follow its format (FILE:LINE:COL: found X, expected Y)."""

class ModelError(NcompleteError):
    """A model that violates the definition of its kind (partial, nondeterministic, empty...)."""

class BudgetError(NcompleteError):
    """A suite or construction refused because a figure exceeds its budget."""

class UsageError(NcompleteError):
    """Options that do not fit together or do not fit the model."""

class CheckError(NcompleteError):
    """Two models that cannot be checked against each other."""

class FileError(NcompleteError):
    """A file that cannot be read or written."""

class Model:
    """A Mealy machine (a Moore machine as its Mealy translation) or an LTS."""

    @property
    def kind(self) -> str:
        """``"mealy"``, ``"moore"`` or ``"lts"``."""
    @property
    def name(self) -> str: ...
    @property
    def source(self) -> str:
        """The file name the model came from (``<dict>.json`` for dicts)."""
    @property
    def num_states(self) -> int: ...
    @property
    def inputs(self) -> List[str]: ...
    @property
    def outputs(self) -> List[str]: ...
    def to_json(self) -> str:
        """The model in the native JSON schema."""

class Test:
    """One test: a Mealy test's input word and expected outputs, or an ioco test tree."""

    @property
    def name(self) -> str: ...
    @property
    def inputs(self) -> Optional[List[str]]:
        """A Mealy test's inputs (None for ioco tests)."""
    @property
    def outputs(self) -> Optional[List[str]]:
        """The specification's outputs for ``inputs`` (None for ioco tests)."""
    def to_json(self) -> str:
        """The test as a suite JSON v1 test object."""
    def __len__(self) -> int: ...

class TestIterator(Iterator[Test]):
    def __iter__(self) -> "TestIterator": ...
    def __next__(self) -> Test: ...

class Failure:
    """The first failing test of a run."""

    name: str
    word: List[str]
    position: int
    inputs: List[str]
    expected: str
    observed: str

class RunResult:
    """What a run did."""

    tests: int
    steps: int
    failure: Optional[Failure]
    @property
    def passed(self) -> bool: ...

class TestOutcome:
    """A test that failed or was inconclusive in ``Suite.run_adapter``."""

    name: str
    verdict: str
    attempts: int
    trace: List[str]
    message: str

class SystemRun:
    """What ``Suite.run_adapter`` did."""

    tests: int
    failed: List[TestOutcome]
    inconclusive: List[TestOutcome]
    @property
    def verdict(self) -> str:
        """``"fail"``, else ``"inconclusive"``, else ``"pass"``."""
    @property
    def passed(self) -> bool: ...

class ProcessRun:
    """What ``Suite.run_process`` did, as ``ncomplete run --sut`` reports it."""

    verdict: str
    status: int
    report: str
    @property
    def passed(self) -> bool: ...

class Adapter(Protocol):
    """What ``Suite.run_adapter`` drives: the system under test behind three calls."""

    def reset(self) -> Any:
        """Brings the system to its initial state."""
    def send(self, input: str) -> Any:
        """Applies an input."""
    def receive(self, timeout: float) -> Optional[str]:
        """The next output within ``timeout`` seconds, or None (quiescence where allowed)."""

class CheckResult:
    """The verdict of ``check``; true when the implementation conforms."""

    conforms: bool
    text: str
    def __bool__(self) -> bool: ...

class Suite:
    """A generated suite; its tests are built while they are iterated."""

    @property
    def kind(self) -> str:
        """``"mealy"`` or ``"ioco"``."""
    @property
    def method(self) -> str: ...
    @property
    def guarantee(self) -> str: ...
    @property
    def n(self) -> Optional[int]: ...
    @property
    def shard(self) -> Optional[str]: ...
    def header_json(self) -> str:
        """The suite JSON v1 document with an empty test list."""
    def write(self, path: str, format: str = "json") -> None:
        """Writes the suite (or its shard) as ``ncomplete generate`` does (json or words)."""
    def size_bound(self) -> int:
        """ioco: the number of tests; Mealy: an upper bound before prefix removal."""
    def tests(self, order: str = "suite") -> TestIterator:
        """The tests lazily; ``order="length"``: shortest first (Mealy, whole suite)."""
    def __iter__(self) -> TestIterator: ...
    def run(
        self,
        step: Callable[[str], Any],
        reset: Callable[[], Any],
        order: str = "suite",
    ) -> RunResult:
        """Runs a Mealy suite against ``step``/``reset``; stops at the first failing test."""
    def run_adapter(
        self,
        adapter: Adapter,
        quiescence_ms: int = 200,
        response_ms: int = 5000,
        startup_ms: int = 0,
        retries: int = 20,
        order: str = "suite",
        stop_at_first_failure: bool = True,
    ) -> SystemRun:
        """Runs any suite against ``adapter`` with the verdicts of ``ncomplete run --sut``.

        An adapter whose system reads every input before any output that follows it sets
        ``reads_inputs_at_once = True`` (no input/output race)."""
    def run_process(
        self,
        command: Optional[str] = None,
        quiescence_ms: int = 200,
        response_ms: int = 5000,
        startup_ms: int = 1000,
        retries: int = 20,
        jobs: int = 1,
        junit: Optional[str] = None,
        json: Optional[str] = None,
        html: Optional[str] = None,
        connect: Optional[str] = None,
        listen: Optional[str] = None,
        reset_label: Optional[str] = None,
    ) -> ProcessRun:
        """Runs the suite as ``ncomplete run`` does against processes of ``command``
        (``--sut``) or a system over TCP (``connect``/``listen``/``reset_label``: ``--sut-connect``,
        ``--sut-listen``, ``--sut-reset-label``)."""
    def simulate(self, model: Model, input_enable: bool = False) -> RunResult:
        """Runs the suite exactly against a model of the implementation."""

def load_model(
    path: str,
    format: Optional[str] = None,
    inputs: Optional[List[str]] = None,
    outputs: Optional[List[str]] = None,
    initial: Optional[str] = None,
) -> Model: ...
def parse_model(
    text: str,
    file_name: str,
    format: Optional[str] = None,
    inputs: Optional[List[str]] = None,
    outputs: Optional[List[str]] = None,
    initial: Optional[str] = None,
) -> Model: ...
def model_from_dict(data: Mapping[str, Any], name: Optional[str] = None) -> Model: ...
def mealy_from_transitions(
    transitions: Mapping[str, Mapping[str, Tuple[str, str]]],
    initial: str,
    name: str = "model",
) -> Model: ...
def generate(
    model: Model,
    method: str = "auto",
    extra_states: Optional[int] = None,
    n: Optional[int] = None,
    shard: Optional[str] = None,
    prune_prefixes: bool = True,
    max_tests: Optional[int] = None,
    max_steps: Optional[int] = None,
    max_nodes: Optional[int] = None,
    max_plan_nodes: Optional[int] = None,
    max_seconds: Optional[int] = None,
) -> Suite: ...
def check(spec: Model, imp: Model, uioco: bool = False, quasi: bool = False) -> CheckResult: ...
def methods() -> List[str]: ...
