"""ncomplete: n-complete test suites from behavioural models.

Load a model (``load_model``, ``parse_model``, ``model_from_dict``, ``mealy_from_transitions``),
generate a complete suite (``generate``), iterate its tests lazily (``Suite.tests``), run it
against a system in this process (``Suite.run`` for Mealy step functions, ``Suite.run_adapter``
for any suite), against processes as ``ncomplete run --sut`` does (``Suite.run_process``) or
against a model (``Suite.simulate``), and check two models against each other (``check``).
``ncomplete.aalpy.Oracle`` is an equivalence oracle for AALpy built on the same suites. Every
error is an ``NcompleteError`` carrying the message the ``ncomplete`` command line prints.
"""

from __future__ import annotations

import json
from typing import Any, Dict, Mapping, Optional, Sequence, Tuple

from ._ncomplete import (
    BudgetError,
    CheckError,
    CheckResult,
    Failure,
    FileError,
    Model,
    ModelError,
    NcompleteError,
    ParseError,
    ProcessRun,
    RunResult,
    Suite,
    SystemRun,
    Test,
    TestIterator,
    TestOutcome,
    UsageError,
    check,
    generate,
    load_model,
    methods,
    parse_model,
)

__all__ = [
    "BudgetError",
    "CheckError",
    "CheckResult",
    "Failure",
    "FileError",
    "Model",
    "ModelError",
    "NcompleteError",
    "ParseError",
    "ProcessRun",
    "RunResult",
    "Suite",
    "SystemRun",
    "Test",
    "TestIterator",
    "TestOutcome",
    "UsageError",
    "check",
    "generate",
    "load_model",
    "mealy_from_transitions",
    "methods",
    "model_from_dict",
    "parse_model",
]


def model_from_dict(data: Mapping[str, Any], name: Optional[str] = None) -> Model:
    """A model from a dict in the native schema (the JSON form of ``docs/src/models.md``).

    ``kind`` is ``"mealy"``, ``"moore"``, ``"onfsm"`` or ``"lts"``; for example a Mealy machine::

        {"kind": "mealy", "inputs": ["coin"], "outputs": ["ok"], "initial": "s0",
         "transitions": [{"from": "s0", "input": "coin", "output": "ok", "to": "s0"}]}

    Errors are ``ParseError``/``ModelError`` with the path of the offending field.
    """
    if not isinstance(data, Mapping):
        raise TypeError(f"model_from_dict expects a dict, not {type(data).__name__}")
    document = dict(data)
    if name is not None:
        document["name"] = name
    text = json.dumps(document, indent=1)
    return parse_model(text, "<dict>.json", format="json")


def _label(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a string, not {type(value).__name__}: {value!r}")
    return value


def mealy_from_transitions(
    transitions: Mapping[str, Mapping[str, Tuple[str, str]]],
    initial: str,
    name: str = "model",
) -> Model:
    """A deterministic Mealy machine from ``{state: {input: (output, target)}}``.

    States, inputs and outputs are strings, numbered in first-seen order. A state that only
    appears as a target is a state without transitions (the machine is then partial, which the
    Mealy methods refuse with ``ModelError``).
    """
    states: Dict[str, None] = {_label(initial, "the initial state"): None}
    inputs: Dict[str, None] = {}
    outputs: Dict[str, None] = {}
    rows = []
    for source, row in transitions.items():
        states[_label(source, "a state")] = None
        for letter, answer in row.items():
            if not isinstance(answer, Sequence) or isinstance(answer, str) or len(answer) != 2:
                raise TypeError(
                    f"transition {source!r} --{letter!r}-->: "
                    f"expected (output, target), got {answer!r}"
                )
            output, target = answer
            inputs[_label(letter, "an input")] = None
            outputs[_label(output, "an output")] = None
            states[_label(target, "a state")] = None
            rows.append({"from": source, "input": letter, "output": output, "to": target})
    return model_from_dict(
        {
            "name": name,
            "kind": "mealy",
            "inputs": list(inputs),
            "outputs": list(outputs),
            "initial": initial,
            "states": list(states),
            "transitions": rows,
        }
    )
