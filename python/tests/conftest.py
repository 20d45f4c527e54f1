"""Shared helpers of the package's tests: bundled models and a Mealy machine simulated in Python."""

from __future__ import annotations

import json
import pathlib
from typing import Dict, List, Tuple

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
