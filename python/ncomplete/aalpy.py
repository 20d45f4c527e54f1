"""An equivalence oracle for AALpy built on ncomplete's m-complete Mealy suites.

``Oracle(alphabet, sul, max_states=M, extra_states=E, method="auto", seed=S)`` is an
``aalpy.base.Oracle``: pass it to ``run_Lstar(alphabet, sul, oracle, automaton_type="mealy")`` or
``run_KV``. For each hypothesis it generates the suite of ``method`` that detects every
implementation with at most ``|hypothesis| + E`` states that is not equivalent to the hypothesis,
and runs its tests against the SUL in order of increasing length, streamed from the Rust side (never
materialised), until an output differs. The bound is deepened as AALpy's W-method deepens its middle
part: the suites for 0, 1, ..., E extra states run in turn, a test that passed under a lower bound
is not run again; with ``max_states=M`` (AALpy's ``max_number_of_states``) E grows to ``M -
|hypothesis|`` for small hypotheses, which a relative E alone may let through. The counterexample is
the failing test's inputs up to the first differing output, as AALpy's oracles return it. Queries
and steps are counted as AALpy's ``WMethodEqOracle`` counts them: one query per test
(``reset_hyp_and_sul``), one step per input sent.

With ``random_words=K`` the complete suite is followed by ``K`` seeded random words (the access
sequence of a random hypothesis state, then a random walk of geometrically distributed length
with mean ``expected_length``): a bounded search beyond the ``E`` extra states, deterministic for
a seed like the rest of the oracle.

Right by default: the oracle asks for the bound its guarantee needs. ``max_states`` is required:
with it, the last suite for each hypothesis is complete for every SUL of at most ``max_states``
states, so the learned machine is right whenever the SUL has at most that many. A suite relative
to the hypothesis alone lets larger SULs pass (with ``extra_states=1`` L* stops at 2 of the
coffee machine's 6 states and at 25 of OpenSSH's 31), so ``max_states=None``, which asks for
that, also adds ``WORDS_PER_STATE`` random words per hypothesis state unless ``random_words``
says otherwise; that search can still stop early (it, and AALpy's random Wp and random walk
oracles, stop at 25 states of OpenSSH).

Mealy machines are tested directly; Moore machines and DFAs through their Mealy translation
(``q --i/λ(q')--> q'``: the output of the state entered, which is what AALpy's ``step`` returns),
so ``E`` counts extra states of the minimised translation. Outputs are compared as AALpy compares
them (``==`` between the hypothesis's and the SUL's ``step``), so they need not be strings.
"""

from __future__ import annotations

import random
from typing import Any, Dict, List, Optional, Sequence, Tuple

from aalpy.base import SUL
from aalpy.base import Oracle as _AalpyOracle

from . import Model, Suite, generate, model_from_dict

__all__ = ["Oracle", "hypothesis_model", "WORDS_PER_STATE"]

#: Random words per hypothesis state that the oracle adds with ``max_states=None`` unless
#: ``random_words`` is given (see the module doc).
WORDS_PER_STATE = 20

_REQUIRED: Any = object()


def _transitions(state: Any) -> Dict[Any, Any]:
    return state.transitions


def _output_after(hypothesis: Any, state: Any, letter: Any) -> Any:
    """The output AALpy's ``step`` returns for ``letter`` in ``state``."""
    if hasattr(state, "output_fun"):
        return state.output_fun[letter]
    target = state.transitions[letter]
    if hasattr(target, "is_accepting"):
        return target.is_accepting
    return target.output


def hypothesis_model(hypothesis: Any, alphabet: Sequence[Any]) -> Tuple[Model, List[Any]]:
    """The hypothesis (an AALpy Mealy machine, Moore machine or DFA) as an ncomplete Mealy model.

    Input ``k`` of ``alphabet`` is named ``i{k}`` and the ``j``-th distinct output ``o{j}``, so
    any hashable or comparable AALpy labels work; returns the model and the alphabet in input
    order.
    """
    letters = list(alphabet)
    index = {id(state): k for k, state in enumerate(hypothesis.states)}
    seen_outputs: List[Any] = []

    def output_name(value: Any) -> str:
        for k, known in enumerate(seen_outputs):
            if known == value and type(known) is type(value):
                return f"o{k}"
        seen_outputs.append(value)
        return f"o{len(seen_outputs) - 1}"

    rows = []
    for state in hypothesis.states:
        for k, letter in enumerate(letters):
            target = _transitions(state).get(letter)
            if target is None:
                continue
            rows.append(
                {
                    "from": f"q{index[id(state)]}",
                    "input": f"i{k}",
                    "output": output_name(_output_after(hypothesis, state, letter)),
                    "to": f"q{index[id(target)]}",
                }
            )
    data = {
        "name": "hypothesis",
        "kind": "mealy",
        "inputs": [f"i{k}" for k in range(len(letters))],
        "outputs": [f"o{k}" for k in range(len(seen_outputs))],
        "initial": f"q{index[id(hypothesis.initial_state)]}",
        "states": [f"q{k}" for k in range(len(hypothesis.states))],
        "transitions": rows,
    }
    return model_from_dict(data), letters


class Oracle(_AalpyOracle):
    """AALpy equivalence oracle running ncomplete's m-complete suite of each hypothesis.

    :param alphabet: the input alphabet.
    :param sul: the system under learning.
    :param extra_states: ``E``, the states the SUL may have beyond the hypothesis.
    :param method: a Mealy method of ``ncomplete.generate`` (``auto``, ``hads``, ``wp``, ``w``,
        ``hsi``, ``h``, ``spy``, ``spyh``...).
    :param seed: seed of the random words (the suite itself does not depend on it).
    :param max_states: required: a bound on the SUL's states as AALpy's
        ``max_number_of_states``: each hypothesis is tested for
        ``max(extra_states, max_states - |hypothesis|)`` extra states. ``None``: no bound,
        ``extra_states`` relative to each hypothesis and random words (see the module doc).
    :param random_words: random words run after the complete suite (0: none; ``None``, the
        default: ``WORDS_PER_STATE`` per hypothesis state with ``max_states=None``, none with a
        bound).
    :param expected_length: mean length of a random word's walk.
    """

    def __init__(
        self,
        alphabet: list,
        sul: SUL,
        extra_states: int = 1,
        method: str = "auto",
        seed: int = 0,
        max_states: Any = _REQUIRED,
        random_words: Optional[int] = None,
        expected_length: int = 10,
    ) -> None:
        super().__init__(alphabet, sul)
        if max_states is _REQUIRED:
            raise TypeError(
                "Oracle needs max_states=M, a bound on the states of the system under learning: "
                "each hypothesis is then tested with a suite complete up to M states. "
                "max_states=None tests |hypothesis| + extra_states states and random words "
                "instead, which can accept a wrong model"
            )
        if extra_states < 0:
            raise ValueError("extra_states must be at least 0")
        self.extra_states = extra_states
        self.method = method
        self.seed = seed
        self.max_states = max_states
        self.random_words = random_words
        self.expected_length = expected_length
        self._random = random.Random(seed)
        self.last_suite: Optional[Suite] = None

    def deepest(self, hypothesis: Any) -> int:
        """The extra states the last suite for ``hypothesis`` allows for: ``extra_states``, or
        more when ``max_states`` exceeds the hypothesis by more."""
        if self.max_states is None:
            return self.extra_states
        return max(self.extra_states, self.max_states - len(hypothesis.states))

    def words(self, hypothesis: Any) -> int:
        """The random words run after the complete suites for ``hypothesis``."""
        if self.random_words is not None:
            return self.random_words
        if self.max_states is not None:
            return 0
        return WORDS_PER_STATE * len(hypothesis.states)

    def find_cex(self, hypothesis: Any) -> Optional[Tuple[Any, ...]]:
        """The first counterexample of the complete suites for 0, 1, ... ``deepest`` extra
        states (each shortest test first, a test passed at a lower bound not run again), then of
        the random words; None when every test passes."""
        model, letters = hypothesis_model(hypothesis, self.alphabet)
        passed = set()
        for extra in range(self.deepest(hypothesis) + 1):
            suite = generate(model, method=self.method, extra_states=extra)
            self.last_suite = suite
            for test in suite.tests(order="length"):
                names = tuple(test.inputs)
                if names in passed:
                    continue
                word = tuple(letters[int(name[1:])] for name in names)
                cex = self._execute(hypothesis, word)
                if cex is not None:
                    return cex
                passed.add(names)
        for _ in range(self.words(hypothesis)):
            cex = self._execute(hypothesis, self._random_word(hypothesis))
            if cex is not None:
                return cex
        return None

    def _random_word(self, hypothesis: Any) -> Tuple[Any, ...]:
        state = self._random.choice(hypothesis.states)
        if state.prefix is None:
            state.prefix = hypothesis.get_shortest_path(hypothesis.initial_state, state)
        walk = [self._random.choice(self.alphabet)]
        while self._random.random() > 1 / (self.expected_length + 1):
            walk.append(self._random.choice(self.alphabet))
        return tuple(state.prefix) + tuple(walk)

    def _execute(self, hypothesis: Any, word: Tuple[Any, ...]) -> Optional[Tuple[Any, ...]]:
        """Runs ``word`` on the hypothesis and the SUL after a reset, as AALpy's oracles do."""
        self.reset_hyp_and_sul(hypothesis)
        for position, letter in enumerate(word):
            expected = hypothesis.step(letter)
            observed = self.sul.step(letter)
            self.num_steps += 1
            if expected != observed:
                self.sul.post()
                return word[: position + 1]
        self.sul.post()
        return None
