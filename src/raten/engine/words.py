"""The ``WordSet`` value (solutions and allowed guesses, normalised) and word normalisation.

A word set's words share one length, 4 to 8 (``WordSet.length``), and are written in its
``Alphabet`` (a–z with umlauts transliterated unless the list says otherwise).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from raten.engine.alphabet import LATIN, Alphabet
from raten.engine.feedback import MAX_LENGTH, MIN_LENGTH, all_green, code_dtype, pattern_count
from raten.errors import RatenError, shorten

if TYPE_CHECKING:
    import numpy as np


def normalise(word: str, alphabet: Alphabet = LATIN) -> str:
    """Lowercase, trim and fold the letters ``alphabet`` does not keep (by default ä→ae, ö→oe,
    ü→ue, ß→ss)."""
    return alphabet.normalise(word)


def check_word(word: str, where: str = "", *, length: int | None = None, alphabet: Alphabet = LATIN) -> str:
    """Normalise ``word`` and insist on ``length`` letters of ``alphabet`` (None: any length raten
    plays, 4 to 8); the error names ``where`` it came from."""
    norm = alphabet.normalise(word)
    place, shown = f"{where}: " if where else "", shorten(word.strip())
    if length is None:
        if not MIN_LENGTH <= len(norm) <= MAX_LENGTH:
            raise RatenError(
                f"{place}{shown!r} has {len(norm)} letters: raten plays words of {MIN_LENGTH} to {MAX_LENGTH}",
                "word_length_range",
                word=shown,
                length=len(norm),
                least=MIN_LENGTH,
                most=MAX_LENGTH,
            )
        length = len(norm)
    if len(norm) != length or not all(c in alphabet.letters for c in norm):
        if len(norm) != length and norm != word.strip().lower():
            spelled = shorten(norm.upper())
            raise RatenError(
                f"{place}{shown!r} is {spelled}: {len(norm)} letters, not {length}",
                "word_length_spelled",
                word=shown,
                spelled=spelled,
                length=len(norm),
                expected=length,
            )
        if len(norm) != length:
            raise RatenError(
                f"{place}{shown!r} has {len(norm)} letters, not {length}",
                "word_length",
                word=shown,
                length=len(norm),
                expected=length,
            )
        raise RatenError(
            f"{place}{shown!r} must be letters {alphabet.spelled()} only ({alphabet.folding()})",
            "word_letters",
            word=shown,
            letters=alphabet.spelled(),
            folding=alphabet.folding(),
            fold=alphabet.fold_rule,
        )
    return norm


def normalise_list(
    words: list[str] | tuple[str, ...],
    source: str = "list",
    *,
    length: int | None = None,
    alphabet: Alphabet = LATIN,
) -> tuple[str, ...]:
    """Check and normalise every entry, drop blanks and duplicates; sorted. Every word has
    ``length`` letters, or (None) the length of the first."""
    out = set()
    for line_no, word in enumerate(words, start=1):
        if word.strip():
            norm = check_word(word, f"{source} line {line_no}", length=length, alphabet=alphabet)
            length = len(norm)
            out.add(norm)
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
    alphabet: Alphabet = field(default=LATIN)
    #: The list's own solutions where a prior widened the possible answers to every allowed
    #: word (the mixture, the frequency prior on a list with solutions); None: ``solutions``.
    own_solutions: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        """Every word has one length, 4 to 8; weights are one positive finite number per
        solution, read-only; all equal means uniform."""
        lengths = {len(w) for w in self.allowed} | {len(w) for w in self.solutions}
        if len(lengths) > 1:
            raise RatenError(f"{self.name}: the words differ in length ({', '.join(map(str, sorted(lengths)))})")
        if lengths and not MIN_LENGTH <= min(lengths) <= MAX_LENGTH:
            raise RatenError(f"{self.name}: words of {min(lengths)} letters; raten plays {MIN_LENGTH} to {MAX_LENGTH}")
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
        alphabet: Alphabet = LATIN,
    ) -> WordSet:
        """Build from raw lists; ``allowed`` may omit the solutions, they are added. The first
        solution sets the length every word must have."""
        sols = normalise_list(list(solutions), f"{name} solutions", alphabet=alphabet)
        if not sols:
            raise RatenError(f"{name}: the solution list is empty")
        allowed_words = normalise_list(list(allowed), f"{name} allowed", length=len(sols[0]), alphabet=alphabet)
        allowed_all = tuple(sorted(set(allowed_words) | set(sols)))
        return cls(name=name, solutions=sols, allowed=allowed_all, language=language, source=source, alphabet=alphabet)

    @cached_property
    def length(self) -> int:
        """Letters in every word (4 to 8)."""
        return len(self.allowed[0]) if self.allowed else len(self.solutions[0])

    @property
    def patterns(self) -> int:
        """Feedback codes a guess can show: 3**length."""
        return pattern_count(self.length)

    @property
    def all_green(self) -> int:
        """The code of the answer guessed."""
        return all_green(self.length)

    @property
    def code_dtype(self) -> str:
        """The numpy type of its pattern table's cells (one byte up to five letters, two above)."""
        return code_dtype(self.length)

    def check(self, word: str, where: str = "") -> str:
        """``word`` normalised in this list's alphabet, with its length, or a RatenError naming ``where``."""
        return check_word(word, where, length=self.length, alphabet=self.alphabet)

    def letters_of(self, words: Sequence[str]) -> np.ndarray:
        """Words (normalised, of this list's length) as an (N, length) uint8 array of letter codes."""
        return letters(words, self.alphabet, self.length)

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
        """Allowed words as an (N, length) uint8 array of letter codes (places in the alphabet)."""
        return self.letters_of(self.allowed)

    @cached_property
    def solution_letters(self) -> np.ndarray:
        """Solutions as an (M, length) uint8 array of letter codes."""
        return self.letters_of(self.solutions)

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
        length = "" if self.length == 5 else f", {self.length} letters"
        return (
            f"WordSet({self.name!r}, {len(self.solutions)} solutions, {len(self.allowed)} allowed, "
            f"{self.language}{length}{prior})"
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
            alphabet=self.alphabet,
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
            alphabet=self.alphabet,
        )


def _fingerprint(solutions: tuple[str, ...], allowed: tuple[str, ...]) -> str:
    h = hashlib.sha256()
    h.update("\n".join(solutions).encode())
    h.update(b"|")
    h.update("\n".join(allowed).encode())
    return h.hexdigest()[:24]


def letters(words: Sequence[str], alphabet: Alphabet = LATIN, length: int = 0) -> np.ndarray:
    """Words (normalised, of one length) as an (N, length) uint8 array of letter codes: each
    letter's place in ``alphabet`` (a–z: 0..25). ``length`` shapes an empty list's array."""
    import numpy as np  # here, not at the top: checking words (raten score, --help) needs no numpy

    if not words:
        return np.zeros((0, length), dtype=np.uint8)
    raw = np.frombuffer("".join(words).translate(alphabet.codes).encode("latin-1"), dtype=np.uint8)
    return raw.reshape(len(words), len(words[0])).copy()


def compared_letters(*groups: Sequence[str]) -> list[np.ndarray]:
    """Each group of words (one length, any letters) as a letter array, all coded alike by the
    letters these words hold: what feedback needs, which only compares letters."""
    import numpy as np

    chars = sorted(set().union(*(set("".join(g)) for g in groups)))
    codes = {ord(c): i for i, c in enumerate(chars)}
    length = next((len(g[0]) for g in groups if g), 0)
    return [
        np.frombuffer("".join(g).translate(codes).encode("latin-1"), dtype=np.uint8).reshape(len(g), length)
        if g
        else np.zeros((0, length), dtype=np.uint8)
        for g in groups
    ]
