"""Shared helpers of the package's tests: bundled models and a Mealy machine simulated in Python."""

from __future__ import annotations

import json
import pathlib
from typing import Dict, List, Optional, Tuple

import pytest

import ncomplete

MODELS = pathlib.Path(__file__).resolve().parents[2] / "models"


class MachineSystem:
    """A deterministic Mealy machine run in Python: the system under test of the tests."""

    def __init__(self, model: ncomplete.Model) -> None:
        data = json.loads(model.to_json())
        self.initial: str = data["initial"]
        self.table: Dict[Tuple[str, str], Tuple[str, str]] = {
            (t["from"], t["input"]): (t["output"], t["to"]) for t in data["transitions"]
        }
        self.inputs: List[str] = data["inputs"]
        self.state = self.initial
        self.resets = 0
        self.steps = 0

    def plant(self, state: str, letter: str, output: str) -> None:
        """Changes the output of one transition (an output fault)."""
        _, target = self.table[(state, letter)]
        self.table[(state, letter)] = (output, target)

    def reset(self) -> None:
        self.resets += 1
        self.state = self.initial

    def step(self, letter: str) -> str:
        self.steps += 1
        output, self.state = self.table[(self.state, letter)]
        return output


@pytest.fixture
def coffee() -> ncomplete.Model:
    return ncomplete.load_model(str(MODELS / "coffeemachine.dot"))


class TeaSystem:
    """The tea machine of models/tea_machine.dot run in Python behind the adapter interface of
    `Suite.run_adapter`: `?coin` then `?button` brews `!tea`; after `?coin` a tester that waits
    sees the machine give up (the internal step) and `!refund`. It steps only when the tester
    acts, so it reads every input before any output that follows it. Faults: `refund` refunds
    instead of brewing, `silent` swallows the button, `tea` gives up with `!tea`."""

    reads_inputs_at_once = True

    def __init__(self, fault: str = "") -> None:
        self.fault = fault
        self.state = "idle"
        self.resets = 0

    def reset(self) -> None:
        self.resets += 1
        self.state = "idle"

    def send(self, label: str) -> None:
        if (self.state, label) == ("idle", "coin"):
            self.state = "paid"
        elif (self.state, label) == ("paid", "button"):
            self.state = {"refund": "empty", "silent": "idle"}.get(self.fault, "brewing")
        # Any other input is ignored: the machine is input-enabled.

    def receive(self, timeout: float) -> Optional[str]:
        gives_up = "tea" if self.fault == "tea" else "refund"
        output = {"paid": gives_up, "empty": "refund", "brewing": "tea"}.get(self.state)
        self.state = "idle"
        return output
