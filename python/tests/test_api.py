"""The package's API on bundled models: load, generate, iterate, run, check, errors."""

from __future__ import annotations

import json
import pathlib
import shlex
import subprocess
import sys
from typing import Optional

import pytest
from conftest import MODELS, MachineSystem, TeaSystem

import ncomplete


def test_load_mealy_and_lts_models(coffee: ncomplete.Model) -> None:
    assert coffee.kind == "mealy"
    assert coffee.num_states == 6
    assert coffee.inputs == ["WATER", "POD", "BUTTON", "CLEAN"]
    tea = ncomplete.load_model(str(MODELS / "tea_machine.dot"))
    assert tea.kind == "lts"
    assert "coin" in tea.inputs and "tea" in tea.outputs
    moore = ncomplete.load_model(str(MODELS / "aalpy_angluin_moore.dot"))
    assert moore.kind == "moore"


def test_models_from_python_data_equal_the_file(coffee: ncomplete.Model) -> None:
    data = json.loads(coffee.to_json())
    again = ncomplete.model_from_dict(data)
    assert ncomplete.check(coffee, again).conforms
    table = {}
    for t in data["transitions"]:
        table.setdefault(t["from"], {})[t["input"]] = (t["output"], t["to"])
    built = ncomplete.mealy_from_transitions(table, initial=data["initial"], name="coffee")
    assert built.name == "coffee" and built.num_states == 6
    assert ncomplete.check(coffee, built)


def test_errors_map_to_the_exception_hierarchy(tmp_path) -> None:
    bad = tmp_path / "bad.aut"
    bad.write_text('des (0, 1, 2)\n(0, "?a" 1)\n')
    with pytest.raises(ncomplete.ParseError, match=r"bad\.aut:2:\d+: found"):
        ncomplete.load_model(str(bad))
    with pytest.raises(ncomplete.FileError, match="missing.dot"):
        ncomplete.load_model(str(tmp_path / "missing.dot"))
    partial = ncomplete.mealy_from_transitions({"s0": {"a": ("x", "s1")}}, initial="s0")
    with pytest.raises(ncomplete.ModelError, match="s1"):
        ncomplete.generate(partial, method="wp")
    with pytest.raises(ncomplete.UsageError, match="expected one of"):
        ncomplete.generate(partial, method="nonsense")
    tea = ncomplete.load_model(str(MODELS / "tea_machine.dot"))
    with pytest.raises(ncomplete.UsageError, match="deterministic Mealy machine"):
        ncomplete.generate(tea, method="hsi")
    with pytest.raises(ncomplete.BudgetError, match="over the limit"):
        ncomplete.generate(tea, method="ioco-complete", n=3, max_tests=1)
    with pytest.raises(ncomplete.UsageError, match="at least 1"):
        ncomplete.generate(tea, method="ioco-complete", n=0)
    with pytest.raises(TypeError):
        ncomplete.mealy_from_transitions({"s0": {"a": ("x", 1)}}, initial="s0")
    for error in (ncomplete.ParseError, ncomplete.ModelError, ncomplete.BudgetError):
        assert issubclass(error, ncomplete.NcompleteError)


def test_mealy_suites_iterate_lazily_in_both_orders(coffee: ncomplete.Model) -> None:
    suite = ncomplete.generate(coffee, method="wp", extra_states=1)
    assert suite.kind == "mealy" and suite.n == 7
    assert suite.guarantee.startswith("m-complete")
    tests = list(suite)
    assert 0 < len(tests) <= suite.size_bound()
    first = tests[0]
    assert first.inputs is not None and first.outputs is not None
    assert len(first.inputs) == len(first.outputs) == len(first)
    assert json.loads(first.to_json())["name"] == first.name
    by_length = list(suite.tests(order="length"))
    assert sorted(t.name for t in by_length) == sorted(t.name for t in tests)
    lengths = [len(t) for t in by_length]
    assert lengths == sorted(lengths)
    # The iterator is lazy: taking one test does not build the rest.
    iterator = suite.tests()
    assert next(iterator).name == first.name


def test_shards_partition_a_suite(coffee: ncomplete.Model) -> None:
    whole = {t.name for t in ncomplete.generate(coffee, method="hsi", extra_states=1)}
    parts = [
        {t.name for t in ncomplete.generate(coffee, method="hsi", extra_states=1, shard=f"{k}/3")}
        for k in (1, 2, 3)
    ]
    assert set().union(*parts) == whole
    assert sum(len(p) for p in parts) == len(whole)
    with pytest.raises(ncomplete.UsageError, match="K/N"):
        ncomplete.generate(coffee, shard="4/3")


def test_every_method_name_generates(coffee: ncomplete.Model) -> None:
    tea = ncomplete.load_model(str(MODELS / "tea_machine.dot"))
    for method in ncomplete.methods():
        if method.startswith("ioco") or method == "unconditional":
            suite = ncomplete.generate(tea, method=method, extra_states=0)
            assert suite.kind == "ioco"
        else:
            suite = ncomplete.generate(coffee, method=method, extra_states=0)
            assert suite.kind == "mealy"
        assert next(iter(suite)).name


def test_ioco_suites_iterate_and_simulate() -> None:
    tea = ncomplete.load_model(str(MODELS / "tea_machine.dot"))
    suite = ncomplete.generate(tea, method="ioco-auto", n=4)
    tests = list(suite)
    assert len(tests) == suite.size_bound()
    assert tests[0].inputs is None
    assert "nodes" in json.loads(tests[0].to_json())
    with pytest.raises(ncomplete.UsageError, match="not input-enabled"):
        suite.simulate(tea)
    assert suite.simulate(tea, input_enable=True).passed
    coffee_text = (MODELS / "tea_machine.dot").read_text().replace("!tea", "!coffee")
    wrong = ncomplete.parse_model(coffee_text, "coffee_machine.dot")
    result = suite.simulate(wrong, input_enable=True)
    assert not result.passed
    assert result.failure.observed == "!coffee"


def test_ioco_suites_are_built_as_the_command_line_builds_them() -> None:
    # Minimised first and in the classic quiescence domain, so n counts minimised states.
    tea = ncomplete.load_model(str(MODELS / "tea_machine.dot"))
    suite = ncomplete.generate(tea, method="ioco-auto", extra_states=0)
    guarantee = json.loads(suite.header_json())["guarantee"]
    assert "minimised" in guarantee and "classic quiescence domain" in guarantee, guarantee


def test_a_python_system_passes_and_a_planted_fault_is_caught(coffee: ncomplete.Model) -> None:
    suite = ncomplete.generate(coffee, method="hads", extra_states=1)
    system = MachineSystem(coffee)
    result = suite.run(system.step, system.reset)
    assert result.passed and result.failure is None
    assert result.tests == system.resets == len(list(suite))
    assert result.steps == system.steps
    faulty = MachineSystem(coffee)
    faulty.plant("s3", "BUTTON", "tea!")
    result = suite.run(faulty.step, faulty.reset, order="length")
    failure = result.failure
    assert failure is not None and not result.passed
    assert (failure.expected, failure.observed) == ("coffee!", "tea!")
    assert failure.inputs[-1] == "BUTTON" and failure.inputs == failure.word[: failure.position + 1]
    assert result.tests < len(list(suite))
    assert failure.name in {t.name for t in suite}


def test_an_exception_of_the_system_propagates(coffee: ncomplete.Model) -> None:
    suite = ncomplete.generate(coffee, method="w")

    def broken(_: str) -> str:
        raise RuntimeError("the system crashed")

    with pytest.raises(RuntimeError, match="crashed"):
        suite.run(broken, lambda: None)


def test_check_reports_a_counterexample(coffee: ncomplete.Model) -> None:
    data = json.loads(coffee.to_json())
    for t in data["transitions"]:
        if t["from"] == "s3" and t["input"] == "BUTTON":
            t["output"] = "tea!"
    data["outputs"].append("tea!")
    faulty = ncomplete.model_from_dict(data)
    result = ncomplete.check(coffee, faulty)
    assert not result and "BUTTON" in result.text


def test_suites_are_written_as_generate_writes_them(coffee: ncomplete.Model, tmp_path) -> None:
    suite = ncomplete.generate(coffee, method="hsi", extra_states=1, shard="1/2")
    suite.write(str(tmp_path / "suite.json"))
    document = json.loads((tmp_path / "suite.json").read_text())
    assert document["shard"] == "1/2" and document["method"] == "hsi"
    assert [t["name"] for t in document["tests"]] == [t.name for t in suite]
    header = json.loads(suite.header_json())
    assert header["tests"] == [] and header["guarantee"] == suite.guarantee
    suite.write(str(tmp_path / "suite.words"), format="words")
    lines = (tmp_path / "suite.words").read_text().splitlines()
    assert lines[0].startswith("# ncomplete words v1")
    tea = ncomplete.load_model(str(MODELS / "tea_machine.dot"))
    with pytest.raises(ncomplete.UsageError, match="words are for Mealy suites"):
        ncomplete.generate(tea, method="ioco-complete", n=3).write(
            str(tmp_path / "x"), format="words"
        )


def test_ioco_suites_run_against_a_python_adapter() -> None:
    tea = ncomplete.load_model(str(MODELS / "tea_machine.dot"))
    suite = ncomplete.generate(tea, method="ioco-auto", extra_states=1)
    tests = len(list(suite))
    system = TeaSystem()
    run = suite.run_adapter(system)
    assert run.passed and run.verdict == "pass", (run.failed, run.inconclusive)
    assert run.tests == tests and system.resets == tests
    # `refund` is caught only because this system reads inputs at once: a process could have
    # refunded before reading the button (the input/output race), see the test below.
    for fault, observed in (("refund", "!refund"), ("silent", "delta"), ("tea", "!tea")):
        run = suite.run_adapter(TeaSystem(fault), stop_at_first_failure=False)
        assert run.verdict == "fail" and not run.passed, fault
        failure = run.failed[0]
        assert failure.verdict == "fail" and failure.trace[-1] == observed, failure
        assert failure.name in {t.name for t in suite}


def test_mealy_suites_run_against_a_python_adapter(coffee: ncomplete.Model) -> None:
    class Adapter:
        reads_inputs_at_once = True

        def __init__(self, system: MachineSystem) -> None:
            self.system, self.pending = system, []

        def reset(self) -> None:
            self.system.reset()
            self.pending = []

        def send(self, label: str) -> None:
            self.pending.append(self.system.step(label))

        def receive(self, timeout: float) -> Optional[str]:
            return self.pending.pop(0) if self.pending else None

    suite = ncomplete.generate(coffee, method="hsi", extra_states=1)
    assert suite.run_adapter(Adapter(MachineSystem(coffee))).passed
    faulty = MachineSystem(coffee)
    faulty.plant("s3", "BUTTON", "tea!")
    run = suite.run_adapter(Adapter(faulty))
    assert run.verdict == "fail" and "!tea!" in run.failed[0].trace


def test_an_exception_of_the_adapter_propagates() -> None:
    tea = ncomplete.load_model(str(MODELS / "tea_machine.dot"))
    suite = ncomplete.generate(tea, method="ioco-auto", extra_states=0)

    class Broken(TeaSystem):
        def send(self, label: str) -> None:
            raise RuntimeError("the adapter lost its system")

    with pytest.raises(RuntimeError, match="lost its system"):
        suite.run_adapter(Broken())


def test_suites_run_against_a_process_as_ncomplete_run_does(tmp_path) -> None:
    tea = ncomplete.load_model(str(MODELS / "tea_machine.dot"))
    suite = ncomplete.generate(tea, method="ioco-auto", extra_states=1)
    script = pathlib.Path(__file__).with_name("tea_process.py")
    command = f"{shlex.quote(sys.executable)} {shlex.quote(str(script))}"
    timeouts = {"quiescence_ms": 150, "response_ms": 2000, "startup_ms": 2000}
    junit = tmp_path / "junit.xml"
    run = suite.run_process(command, jobs=2, junit=str(junit), **timeouts)
    assert run.passed and run.status == 0 and run.verdict == "pass", run.report
    assert junit.read_text().count("<testcase") == len(list(suite))
    for fault in ("tea", "silent"):
        run = suite.run_process(f"{command} {fault}", **timeouts)
        assert run.verdict == "fail" and run.status == 1, run.report
    # Refunding instead of brewing looks, through a pipe, like a conforming machine that gave up
    # before it read the button: never a failure, inconclusive once every retry raced that way.
    run = suite.run_process(f"{command} refund", retries=2, **timeouts)
    assert run.verdict == "inconclusive" and run.status == 3, run.report


def test_suites_run_against_a_system_over_tcp() -> None:
    tea = ncomplete.load_model(str(MODELS / "tea_machine.dot"))
    suite = ncomplete.generate(tea, method="ioco-auto", extra_states=1)
    wrapper = MODELS.parent / "tests" / "fixtures" / "tcp_wrapper.py"
    script = pathlib.Path(__file__).with_name("tea_process.py")
    timeouts = {"quiescence_ms": 150, "response_ms": 2000, "startup_ms": 2000}
    for fault, verdict in (("", "pass"), ("tea", "fail")):
        system = f"{shlex.quote(sys.executable)} {shlex.quote(str(script))} {fault}"
        server = subprocess.Popen(
            [sys.executable, str(wrapper), "serve", system], stdout=subprocess.PIPE, text=True
        )
        try:
            port = server.stdout.readline().strip()
            run = suite.run_process(connect=f"127.0.0.1:{port}", **timeouts)
            assert run.verdict == verdict, run.report
        finally:
            server.terminate()
            server.wait()
    with pytest.raises(ncomplete.UsageError, match="give one of"):
        suite.run_process("true", connect="127.0.0.1:1")
