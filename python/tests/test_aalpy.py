"""ncomplete.aalpy.Oracle inside AALpy's learning loops."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest
from aalpy.base import SUL
from aalpy.learning_algs import run_KV, run_Lstar
from conftest import MODELS, MachineSystem

import ncomplete
from ncomplete.aalpy import WORDS_PER_STATE, Oracle, hypothesis_model


class MachineSUL(SUL):
    """The bundled model as AALpy's system under learning."""

    def __init__(self, system: MachineSystem) -> None:
        super().__init__()
        self.system = system

    def pre(self) -> None:
        self.system.reset()

    def post(self) -> None:
        pass

    def step(self, letter):
        return self.system.step(letter)


def learn(coffee, algorithm, **oracle_options):
    sul = MachineSUL(MachineSystem(coffee))
    alphabet = list(coffee.inputs)
    oracle = Oracle(alphabet, sul, **oracle_options)
    hypothesis, info = algorithm(
        alphabet, sul, oracle, automaton_type="mealy", return_data=True, print_level=0
    )
    return hypothesis, info, oracle, sul


def equivalent_to_target(coffee, hypothesis) -> bool:
    """Checks the learned machine against the target with ncomplete's check."""
    table = {}
    for state in hypothesis.states:
        for letter in coffee.inputs:
            table.setdefault(str(state.state_id), {})[letter] = (
                str(state.output_fun[letter]),
                str(state.transitions[letter].state_id),
            )
    model = ncomplete.mealy_from_transitions(table, initial=str(hypothesis.initial_state.state_id))
    return bool(ncomplete.check(coffee, model))


@pytest.mark.parametrize("algorithm", [run_Lstar, run_KV])
def test_the_oracle_learns_the_coffee_machine(coffee, algorithm) -> None:
    hypothesis, info, oracle, _ = learn(
        coffee, algorithm, extra_states=1, max_states=coffee.num_states + 1, seed=3
    )
    assert len(hypothesis.states) == coffee.num_states
    assert equivalent_to_target(coffee, hypothesis)
    assert oracle.num_queries > 0 and oracle.num_steps > 0
    assert info["queries_eq_oracle"] == oracle.num_queries
    assert info["steps_eq_oracle"] == oracle.num_steps


def test_a_counterexample_is_the_prefix_up_to_the_first_difference(coffee) -> None:
    """A one-state hypothesis (everything `ok`) is refuted by a word ending at the first
    differing output, the shortest test first."""
    from aalpy.automata import MealyMachine, MealyState

    state = MealyState("q0")
    for letter in coffee.inputs:
        state.transitions[letter] = state
        state.output_fun[letter] = "ok"
    hypothesis = MealyMachine(state, [state])
    sul = MachineSUL(MachineSystem(coffee))
    oracle = Oracle(list(coffee.inputs), sul, extra_states=0, max_states=None, method="wp")
    cex = oracle.find_cex(hypothesis)
    assert cex is not None
    system = MachineSystem(coffee)
    outputs = [system.step(letter) for letter in cex]
    assert outputs[:-1] == ["ok"] * (len(cex) - 1) and outputs[-1] != "ok"
    assert oracle.num_queries >= 1 and oracle.num_steps >= len(cex)


def test_runs_are_deterministic_for_a_seed(coffee) -> None:
    runs = []
    for _ in range(2):
        _, info, oracle, _ = learn(coffee, run_Lstar, max_states=7, seed=11, random_words=50)
        runs.append((oracle.num_queries, oracle.num_steps, info["queries_learning"]))
    assert runs[0] == runs[1]


def test_random_words_follow_the_complete_suite(coffee) -> None:
    """With random_words the oracle runs the same complete suite and then the random words."""
    _, _, plain, _ = learn(coffee, run_Lstar, max_states=7, seed=5)
    _, _, extended, _ = learn(coffee, run_Lstar, max_states=7, seed=5, random_words=40)
    assert extended.num_queries >= plain.num_queries + 40


def test_the_bound_is_relative_to_the_hypothesis_without_max_states(coffee) -> None:
    """With E = 1 alone (no random words) the coffee machine's two-state hypothesis passes (its
    counterexample needs a longer middle part); max_states deepens the bound and finds it."""
    short, _, _, _ = learn(coffee, run_Lstar, extra_states=1, max_states=None, random_words=0)
    assert len(short.states) < coffee.num_states and not equivalent_to_target(coffee, short)
    full, _, _, _ = learn(coffee, run_Lstar, extra_states=1, max_states=coffee.num_states)
    assert equivalent_to_target(coffee, full)


def test_moore_and_dfa_hypotheses_are_translated() -> None:
    from aalpy.automata import Dfa, DfaState, MooreMachine, MooreState

    a, b = MooreState("a", output=0), MooreState("b", output=1)
    for letter in ("x", "y"):
        a.transitions[letter] = b if letter == "x" else a
        b.transitions[letter] = a if letter == "x" else b
    model, letters = hypothesis_model(MooreMachine(a, [a, b]), ["x", "y"])
    assert model.kind == "mealy" and model.num_states == 2 and letters == ["x", "y"]
    p, q = DfaState("p", is_accepting=False), DfaState("q", is_accepting=True)
    p.transitions["x"], q.transitions["x"] = q, p
    model, _ = hypothesis_model(Dfa(p, [p, q]), ["x"])
    assert model.num_states == 2 and len(model.outputs) == 2


def test_the_oracle_asks_for_the_state_bound(coffee) -> None:
    """Without max_states the oracle refuses, saying what the bound is for (a suite relative to
    the hypothesis alone lets the coffee machine's 2-state hypothesis pass)."""
    sul = MachineSUL(MachineSystem(coffee))
    with pytest.raises(TypeError, match="max_states"):
        Oracle(list(coffee.inputs), sul)


@pytest.mark.parametrize("seed", range(3))
def test_without_a_bound_random_words_find_the_coffee_machine(coffee, seed) -> None:
    """max_states=None: E = 1 relative to each hypothesis plus the default random words."""
    hypothesis, _, oracle, _ = learn(coffee, run_Lstar, max_states=None, seed=seed)
    assert len(hypothesis.states) == coffee.num_states
    assert equivalent_to_target(coffee, hypothesis)
    assert oracle.words(hypothesis) == WORDS_PER_STATE * coffee.num_states


@pytest.mark.parametrize("algorithm", [run_Lstar, run_KV])
def test_with_the_bound_a_larger_model_is_learned(algorithm) -> None:
    """SSH DropBear (17 states, 13 inputs) with max_states = its states."""
    ssh = ncomplete.load_model(str(MODELS / "ssh_DropBear.dot"))
    hypothesis, _, oracle, _ = learn(ssh, algorithm, max_states=ssh.num_states)
    assert len(hypothesis.states) == ssh.num_states
    assert equivalent_to_target(ssh, hypothesis)
    assert oracle.words(hypothesis) == 0


@pytest.mark.skipif(
    os.environ.get("NCOMPLETE_SLOW_TESTS") != "1",
    reason="OpenSSH takes minutes in a dev build (NCOMPLETE_SLOW_TESTS=1 runs it)",
)
def test_with_the_bound_openssh_is_learned() -> None:
    """OpenSSH (31 states, 22 inputs), where E = 1 alone, random words and AALpy's random
    oracles stop at 25 states."""
    ssh = ncomplete.load_model(str(MODELS / "ssh_OpenSSH.dot"))
    hypothesis, _, _, _ = learn(ssh, run_Lstar, max_states=ssh.num_states)
    assert len(hypothesis.states) == ssh.num_states
    assert equivalent_to_target(ssh, hypothesis)
    short, _, _, _ = learn(ssh, run_Lstar, max_states=None)
    assert len(short.states) < ssh.num_states


def test_with_a_state_bound_no_random_word_is_added(coffee) -> None:
    sul = MachineSUL(MachineSystem(coffee))
    bounded = Oracle(list(coffee.inputs), sul, max_states=7)
    assert bounded.words(object()) == 0
    asked = Oracle(list(coffee.inputs), sul, max_states=7, random_words=3)
    assert asked.words(object()) == 3


def ncomplete_binary():
    """The command line: NCOMPLETE_BIN, the debug build that `cargo test` leaves, or PATH's."""
    root = MODELS.parent
    for candidate in (os.environ.get("NCOMPLETE_BIN"), root / "target" / "debug" / "ncomplete"):
        if candidate and os.access(str(candidate), os.X_OK):
            return str(candidate)
    return shutil.which("ncomplete")


def test_a_model_file_becomes_an_aalpy_sul_after_convert(tmp_path) -> None:
    """The guide's recipe: AALpy's reader fails on the Automata Wiki file; after `convert --to
    dot` it reads it, and the oracle with the bound learns it."""
    from aalpy.SULs import AutomatonSUL
    from aalpy.utils import load_automaton_from_file

    binary = ncomplete_binary()
    if binary is None:
        pytest.skip("no ncomplete binary (cargo build, or NCOMPLETE_BIN)")
    original = str(MODELS / "ssh_DropBear.dot")
    with pytest.raises(Exception):
        load_automaton_from_file(original, automaton_type="mealy")
    converted = tmp_path / "dropbear.dot"
    subprocess.run(
        [binary, "convert", original, "--to", "dot", "--out", str(converted)], check=True
    )
    target = load_automaton_from_file(str(converted), automaton_type="mealy")
    sul = AutomatonSUL(target)
    alphabet = target.get_input_alphabet()
    oracle = Oracle(alphabet, sul, max_states=len(target.states))
    model = run_Lstar(alphabet, sul, oracle, automaton_type="mealy", print_level=0)
    assert len(model.states) == len(target.states) == 17
    # AALpy keeps the spaces around ` / ` in the labels: input `UA_PK_NOK ` is the file's
    # `UA_PK_NOK`.
    table = {
        str(state.state_id): {
            letter.strip(): (
                str(state.output_fun[letter]).strip(),
                str(state.transitions[letter].state_id),
            )
            for letter in alphabet
        }
        for state in model.states
    }
    learned = ncomplete.mealy_from_transitions(table, initial=str(model.initial_state.state_id))
    assert bool(ncomplete.check(ncomplete.load_model(original), learned))
