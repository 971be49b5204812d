"""The ``WordSet`` value (solutions and allowed guesses, normalised) and word normalisation."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from raten.engine.feedback import WORD_LENGTH
from raten.errors import RatenError, shorten

if TYPE_CHECKING:
    import numpy as np

_TRANSLITERATION = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"})
_WORD = re.compile(r"[a-z]{5}")


def normalise(word: str) -> str:
    """Lowercase, trim and transliterate (ä→ae, ö→oe, ü→ue, ß→ss)."""
    return word.strip().lower().translate(_TRANSLITERATION)


def check_word(word: str, where: str = "") -> str:
    """Normalise ``word`` and insist on five letters a–z; the error names ``where`` it came from."""
    norm = normalise(word)
    if not _WORD.fullmatch(norm):
        place, shown = f"{where}: " if where else "", shorten(word.strip())
        if len(norm) != WORD_LENGTH and norm != word.strip().lower():
            spelled = shorten(norm.upper())
            raise RatenError(
                f"{place}{shown!r} is {spelled}: {len(norm)} letters, not {WORD_LENGTH}",
                "word_length_spelled",
                word=shown,
                spelled=spelled,
                length=len(norm),
            )
        if len(norm) != WORD_LENGTH:
            raise RatenError(
                f"{place}{shown!r} has {len(norm)} letters, not {WORD_LENGTH}",
                "word_length",
                word=shown,
                length=len(norm),
            )
        raise RatenError(
            f"{place}{shown!r} must be letters a-z only (umlauts and ß are transliterated)", "word_letters", word=shown
        )
    return norm


def normalise_list(words: list[str] | tuple[str, ...], source: str = "list") -> tuple[str, ...]:
    """Check and normalise every entry, drop blanks and duplicates; sorted."""
    out = set()
    for line_no, word in enumerate(words, start=1):
        if word.strip():
            out.add(check_word(word, f"{source} line {line_no}"))
    return tuple(sorted(out))


#: The prior of a word set whose solutions are all equally likely.
UNIFORM = "uniform"

WordWeights = Callable[[Sequence[str]], "np.ndarray"]
"""Prior weights (positive) of any words of a list's language: what a word set weighs the allowed
words that fit with when no solution does (``WordSet.fallback_weights``)."""


@dataclass(frozen=True, eq=False)
class WordSet:
    """Solutions (possible answers) and allowed guesses (a superset), normalised and sorted.

    ``prior`` names how likely each solution is to be the answer: ``uniform`` (``weights`` is
    None: all equally likely, the classic setting) or a named prior whose ``weights`` hold one
    positive weight per solution (the engine normalises them where it uses them).
    ``fallback_weights`` weighs the allowed words that fit when no solution does (None: equally).
    """

    name: str
    solutions: tuple[str, ...]
    allowed: tuple[str, ...]
    language: str = "en"
    source: str = ""
    prior: str = UNIFORM
    weights: np.ndarray | None = None
    fallback_weights: WordWeights | None = None
    #: The list's own solutions where a prior widened the possible answers to every allowed
    #: word (the mixture, the frequency prior on a list with solutions); None: ``solutions``.
    own_solutions: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        """Weights are one positive finite number per solution, read-only; all equal means uniform."""
        if self.weights is None:
            return
        import numpy as np

        w = np.array(self.weights, dtype=np.float64)
        if w.shape != (len(self.solutions),) or not (np.isfinite(w).all() and (w > 0).all()):
            raise RatenError(f"{self.name}: the prior needs one positive weight per solution ({len(self.solutions)})")
        w.flags.writeable = False
        object.__setattr__(self, "weights", None if (w == w[0]).all() else w)
        if self.weights is None:
            object.__setattr__(self, "prior", UNIFORM)

    @classmethod
    def from_lists(
        cls,
        solutions: list[str] | tuple[str, ...],
        allowed: list[str] | tuple[str, ...] = (),
        name: str = "custom",
        language: str = "en",
        source: str = "",
    ) -> WordSet:
        """Build from raw lists; ``allowed`` may omit the solutions, they are added."""
        sols = normalise_list(list(solutions), f"{name} solutions")
        if not sols:
            raise RatenError(f"{name}: the solution list is empty")
        allowed_all = tuple(sorted(set(normalise_list(list(allowed), f"{name} allowed")) | set(sols)))
        return cls(name=name, solutions=sols, allowed=allowed_all, language=language, source=source)

    @property
    def list_solutions(self) -> tuple[str, ...]:
        """The solutions the list itself names, whatever the prior widened them to."""
        return self.solutions if self.own_solutions is None else self.own_solutions

    @cached_property
    def allowed_index(self) -> dict[str, int]:
        """Row of each allowed word."""
        return {w: i for i, w in enumerate(self.allowed)}

    @cached_property
    def solution_index(self) -> dict[str, int]:
        """Column of each solution."""
        return {w: i for i, w in enumerate(self.solutions)}

    @cached_property
    def solution_rows(self) -> np.ndarray:
        """For each solution, its row among the allowed words."""
        import numpy as np  # here, not at the top: checking words (raten score, --help) needs no numpy

        idx = self.allowed_index
        return np.array([idx[w] for w in self.solutions], dtype=np.int64)

    @cached_property
    def allowed_letters(self) -> np.ndarray:
        """Allowed words as an (N, 5) uint8 array of letters 0..25."""
        return letters(self.allowed)

    @cached_property
    def solution_letters(self) -> np.ndarray:
        """Solutions as an (M, 5) uint8 array of letters 0..25."""
        return letters(self.solutions)

    @property
    def fingerprint(self) -> str:
        """A hash of both lists: the key for anything cached from them alone (the pattern matrix)."""
        return _fingerprint(self.solutions, self.allowed)

    @property
    def list_fingerprint(self) -> str:
        """The fingerprint of the list as it names itself (its own solutions, whatever the prior):
        the key of what belongs to the list, not to a prior (the daily game's order of words)."""
        return _fingerprint(self.list_solutions, self.allowed)

    @cached_property
    def prior_key(self) -> str:
        """A hash of both lists and the prior (name and every weight): the key for anything a
        ranking depends on. Uniform sets keep their ``fingerprint``."""
        if self.weights is None:
            return self.fingerprint if self.prior == UNIFORM else f"{self.fingerprint}-{self.prior}"
        h = hashlib.sha256(self.fingerprint.encode())
        h.update(self.prior.encode())
        h.update(self.weights.tobytes())
        return h.hexdigest()[:24]

    @cached_property
    def probabilities(self) -> np.ndarray | None:
        """The weights scaled to sum to 1, or None for a uniform prior."""
        return None if self.weights is None else self.weights / self.weights.sum()

    def __repr__(self) -> str:
        """One short line: the name, the sizes and the language, never the thousands of words."""
        prior = "" if self.prior == UNIFORM else f", {self.prior} prior"
        return (
            f"WordSet({self.name!r}, {len(self.solutions)} solutions, {len(self.allowed)} allowed, "
            f"{self.language}{prior})"
        )

    def with_prior(
        self,
        prior: str,
        weights: np.ndarray | None,
        *,
        solutions: tuple[str, ...] | None = None,
        fallback_weights: WordWeights | None = None,
    ) -> WordSet:
        """The same lists with another prior; ``solutions`` (allowed words) may widen the possible
        answers, as a prior over every allowed word does. Same name: the prior is said apart."""
        sols = self.solutions if solutions is None else solutions
        if not set(sols) <= set(self.allowed):
            raise RatenError(f"{self.name}: a prior's possible answers must be allowed words")
        own = self.list_solutions
        return WordSet(
            name=self.name,
            solutions=sols,
            allowed=self.allowed,
            language=self.language,
            source=self.source,
            prior=prior,
            weights=weights,
            fallback_weights=fallback_weights,
            own_solutions=None if own == sols else own,
        )

    def any_answer(self) -> WordSet:
        """The variant where every allowed word may be the answer (equally likely)."""
        return WordSet(
            name=f"{self.name}+any",
            solutions=self.allowed,
            allowed=self.allowed,
            language=self.language,
            source=self.source,
            fallback_weights=self.fallback_weights,
        )


def _fingerprint(solutions: tuple[str, ...], allowed: tuple[str, ...]) -> str:
    h = hashlib.sha256()
    h.update("\n".join(solutions).encode())
    h.update(b"|")
    h.update("\n".join(allowed).encode())
    return h.hexdigest()[:24]


def letters(words: tuple[str, ...] | list[str]) -> np.ndarray:
    """Words as an (N, 5) uint8 array of letters 0..25."""
    import numpy as np  # here, not at the top: checking words (raten score, --help) needs no numpy

    if not words:
        return np.zeros((0, WORD_LENGTH), dtype=np.uint8)
    raw = np.frombuffer("".join(words).encode("ascii"), dtype=np.uint8)
    return (raw.reshape(len(words), WORD_LENGTH) - ord("a")).astype(np.uint8)
