"""ncomplete.aalpy.Oracle inside AALpy's learning loops."""

from __future__ import annotations

import pytest
from aalpy.base import SUL
from aalpy.learning_algs import run_KV, run_Lstar
from conftest import MachineSystem

import ncomplete
from ncomplete.aalpy import Oracle, hypothesis_model


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
    oracle = Oracle(list(coffee.inputs), sul, extra_states=0, method="wp")
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
    """With E = 1 alone the coffee machine's two-state hypothesis passes (its counterexample
    needs a longer middle part); max_states deepens the bound and finds it."""
    short, _, _, _ = learn(coffee, run_Lstar, extra_states=1)
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
