"""Learning automata-wiki models with AALpy: ncomplete's oracle against AALpy's own oracles.

For every model (bundled in models/, sources in models/README.md) a simulated SUL runs the model
in Python; L* (AALpy's run_Lstar, Mealy, its defaults: cache and counterexample processing `rs`)
learns it with each equivalence oracle. The table gives the equivalence-oracle queries and steps
(AALpy's counters: one query per test, one step per input), the membership queries and steps of
the learner, the wall time of the whole learning run, the learned states, and whether the learned
machine is equivalent to the target, checked with ncomplete's `check`. Seeds are fixed (AALpy's
random oracles draw from Python's global `random`, seeded before every run).

    python python/bench/learn.py [--models NAME,...] [--quick]

Run it after `scripts/python-test` (or with a venv where ncomplete and aalpy are installed); a
release build of the package (`pip install ./python`) gives its real speed.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import random
import time
from typing import Callable, Dict, List, Tuple

from aalpy.base import SUL
from aalpy.learning_algs import run_Lstar
from aalpy.oracles import RandomWpMethodEqOracle, WMethodEqOracle, WpMethodEqOracle

import ncomplete
from ncomplete.aalpy import Oracle

MODELS = pathlib.Path(__file__).resolve().parents[2] / "models"
SEED = 20261126

# (name in the table, file in models/)
TARGETS: List[Tuple[str, str]] = [
    ("TLS OpenSSL 1.0.2 server", "tls_OpenSSL_1.0.2_server_regular.dot"),
    ("TLS GnuTLS 3.3.8 server", "tls_GnuTLS_3.3.8_server_regular.dot"),
    ("TCP Linux client", "TCP_Linux_Client.dot"),
    ("SSH DropBear", "ssh_DropBear.dot"),
]


class ModelSUL(SUL):
    """A deterministic Mealy machine from a model file, run in Python."""

    def __init__(self, model: ncomplete.Model) -> None:
        super().__init__()
        data = json.loads(model.to_json())
        self.initial = data["initial"]
        self.table: Dict[Tuple[str, str], Tuple[str, str]] = {
            (t["from"], t["input"]): (t["output"], t["to"]) for t in data["transitions"]
        }
        self.state = self.initial

    def pre(self) -> None:
        self.state = self.initial

    def post(self) -> None:
        pass

    def step(self, letter):
        output, self.state = self.table[(self.state, letter)]
        return output


def learned_model(hypothesis, alphabet) -> ncomplete.Model:
    table: Dict[str, Dict[str, Tuple[str, str]]] = {}
    for state in hypothesis.states:
        for letter in alphabet:
            table.setdefault(str(state.state_id), {})[letter] = (
                str(state.output_fun[letter]),
                str(state.transitions[letter].state_id),
            )
    return ncomplete.mealy_from_transitions(table, str(hypothesis.initial_state.state_id))


# (name, factory(alphabet, sul, target states))
OracleFactory = Callable[[list, SUL, int], object]
ORACLES: List[Tuple[str, OracleFactory]] = [
    (
        "ncomplete auto, M=n+1",
        lambda a, s, n: Oracle(a, s, extra_states=1, max_states=n + 1, method="auto", seed=SEED),
    ),
    (
        "ncomplete hads, M=n+1",
        lambda a, s, n: Oracle(a, s, extra_states=1, max_states=n + 1, method="hads", seed=SEED),
    ),
    (
        "ncomplete auto, E=1 only",
        lambda a, s, n: Oracle(
            a, s, extra_states=1, max_states=None, method="auto", seed=SEED, random_words=0
        ),
    ),
    (
        "ncomplete auto, E=1 + 1000 random",
        lambda a, s, n: Oracle(a, s, extra_states=1, max_states=None, seed=SEED, random_words=1000),
    ),
    ("AALpy W, m=n+1", lambda a, s, n: WMethodEqOracle(a, s, max_number_of_states=n + 1)),
    ("AALpy Wp, m=n+1", lambda a, s, n: WpMethodEqOracle(a, s, max_number_of_states=n + 1)),
    (
        "AALpy random Wp, 1000 tests",
        lambda a, s, n: RandomWpMethodEqOracle(a, s, expected_length=10, num_tests=1000),
    ),
]


def learn(target: ncomplete.Model, factory: OracleFactory) -> Dict[str, object]:
    random.seed(SEED)
    sul = ModelSUL(target)
    alphabet = list(target.inputs)
    oracle = factory(alphabet, sul, target.num_states)
    start = time.perf_counter()
    hypothesis, info = run_Lstar(
        alphabet, sul, oracle, automaton_type="mealy", return_data=True, print_level=0
    )
    seconds = time.perf_counter() - start
    correct = bool(ncomplete.check(target, learned_model(hypothesis, alphabet)))
    return {
        "eq_queries": info["queries_eq_oracle"],
        "eq_steps": info["steps_eq_oracle"],
        "mq_queries": info["queries_learning"],
        "mq_steps": info["steps_learning"],
        "rounds": info["learning_rounds"],
        "seconds": seconds,
        "states": len(hypothesis.states),
        "correct": correct,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", help="comma-separated table names or files to learn")
    parser.add_argument("--quick", action="store_true", help="only the two smallest models")
    args = parser.parse_args()
    targets = TARGETS[:2] if args.quick else TARGETS
    if args.models:
        wanted = set(args.models.split(","))
        targets = [t for t in TARGETS if t[0] in wanted or t[1] in wanted]
    columns = ["EQ queries", "EQ steps", "MQ queries", "MQ steps", "rounds", "seconds"]
    print("| model (states/inputs) | oracle | " + " | ".join(columns) + " | learned | correct |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for title, file in targets:
        target = ncomplete.load_model(str(MODELS / file))
        for name, factory in ORACLES:
            r = learn(target, factory)
            print(
                f"| {title} ({target.num_states}/{len(target.inputs)}) | {name} "
                f"| {r['eq_queries']:,} "
                f"| {r['eq_steps']:,} | {r['mq_queries']:,} | {r['mq_steps']:,} | {r['rounds']} "
                f"| {r['seconds']:.2f} | {r['states']} | {'yes' if r['correct'] else 'NO'} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
