"""Type stubs of ncomplete.aalpy."""

from typing import Any, List, Optional, Sequence, Tuple

from aalpy.base import SUL
from aalpy.base import Oracle as _AalpyOracle

from . import Model, Suite

WORDS_PER_STATE: int

def hypothesis_model(hypothesis: Any, alphabet: Sequence[Any]) -> Tuple[Model, List[Any]]: ...

class Oracle(_AalpyOracle):
    extra_states: int
    method: str
    seed: int
    max_states: Optional[int]
    random_words: Optional[int]
    expected_length: int
    last_suite: Optional[Suite]
    def __init__(
        self,
        alphabet: list,
        sul: SUL,
        extra_states: int = 1,
        method: str = "auto",
        seed: int = 0,
        max_states: Optional[int] = ...,
        random_words: Optional[int] = None,
        expected_length: int = 10,
    ) -> None: ...
    def deepest(self, hypothesis: Any) -> int: ...
    def words(self, hypothesis: Any) -> int: ...
    def find_cex(self, hypothesis: Any) -> Optional[Tuple[Any, ...]]: ...
