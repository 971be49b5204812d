"""The small functional API of existing entropy-solver scripts, so they can switch unchanged.

Each call builds the feedback table it needs with the compiled kernel.
"""

from __future__ import annotations

import numpy as np

from raten.engine.feedback import format_pattern
from raten.engine.feedback import pattern as _pattern
from raten.engine.rank import split_stats
from raten.engine.words import check_word, compared_letters
from raten.errors import RatenError


def pattern(guess: str, target: str) -> int:
    """The feedback code (first letter most significant, 0 grey, 1 yellow, 2 green) of words of
    one length, 4 to 8 letters."""
    g = check_word(guess, "guess")
    return _pattern(g, check_word(target, "target", length=len(g)))


def feedback(guess: str, answer: str, notation: str = "dots") -> str:
    """The feedback of ``guess`` against ``answer`` as a string, e.g. ``feedback("spiel", "insel") == "?.?!!"``.

    Both words are checked and normalised (4 to 8 letters a-z after ä→ae, ö→oe, ü→ue, ß→ss, both
    of one length).
    """
    g = check_word(guess, "guess")
    return format_pattern(pattern(g, check_word(answer, "answer", length=len(g))), notation, len(g))


def _stats(guesses: list[str], candidates: list[str]):
    if not candidates:
        raise RatenError("no candidates to measure the guesses against")
    length = len(check_word(candidates[0], "candidate"))
    cands = [check_word(w, "candidate", length=length) for w in candidates]
    pool = [check_word(w, "guess", length=length) for w in guesses]
    from raten.engine import kernels  # numba: only the calls that build a table pay for it

    table = kernels.feedback_matrix(*compared_letters(pool, cands))
    return pool, cands, split_stats(table, np.arange(len(pool)), np.arange(len(cands)))


def expected_entropy(guess: str, candidates: list[str]) -> float:
    """Entropy in bits of the feedback distribution of ``guess`` over ``candidates``."""
    _, _, split = _stats([guess], list(candidates))
    return float(split.bits[0])


def top_n_hints(candidates: list[str], guess_pool: list[str], n: int = 3) -> list[tuple[float, str, bool]]:
    """The ``n`` best guesses as (bits, word, is_candidate): by bits, candidates first, then A–Z."""
    pool, cands, split = _stats(list(guess_pool), list(candidates))
    cand_set = set(cands)
    scored = [(float(b), w, w in cand_set) for b, w in zip(split.bits, pool)]
    scored.sort(key=lambda t: (-round(t[0], 9), not t[2], t[1]))
    return scored[:n]
