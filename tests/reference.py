"""Plain-Python reference implementations, independent of raten's code, for tests and bench.

Nothing here imports raten. The feedback rule is computed by a different algorithm from
``raten.engine.feedback.feedback_colours``: instead of consuming a multiset of leftover letters,
a non-green letter is yellow when the number of earlier non-green copies of it in the
guess is smaller than the number of copies of it the answer has outside its greens.
Entropy is a dictionary histogram and ``math.log2``.

tests/ is not a package: tests import this module by name (pytest puts tests/ on
sys.path); bench/bench_rank.py adds tests/ to sys.path itself.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

GREY, YELLOW, GREEN = 0, 1, 2
DOTS = ".?!"


def ref_colours(guess: str, answer: str) -> list[int]:
    """Colours of each letter of ``guess`` against ``answer`` (0 grey, 1 yellow, 2 green): words
    of one length, any letters."""
    assert len(guess) == len(answer), (guess, answer)
    colours = []
    for i, letter in enumerate(guess):
        if answer[i] == letter:
            colours.append(GREEN)
            continue
        # copies of this letter in the answer that no green uses up
        spare = sum(1 for j in range(len(answer)) if answer[j] == letter and guess[j] != letter)
        # earlier non-green copies of this letter in the guess that took a yellow first
        earlier = sum(1 for j in range(i) if guess[j] == letter and answer[j] != letter)
        colours.append(YELLOW if earlier < spare else GREY)
    return colours


def ref_code(guess: str, answer: str) -> int:
    """The code (0..242 for five letters): base 3, first letter most significant."""
    code = 0
    for c in ref_colours(guess, answer):
        code = 3 * code + c
    return code


def ref_dots(guess: str, answer: str) -> str:
    """The feedback in ``.?!`` notation."""
    return "".join(DOTS[c] for c in ref_colours(guess, answer))


def ref_histogram(guess: str, candidates: Iterable[str]) -> dict[int, int]:
    """How many candidates show each feedback code for ``guess``."""
    hist: dict[int, int] = {}
    for answer in candidates:
        code = ref_code(guess, answer)
        hist[code] = hist.get(code, 0) + 1
    return hist


def ref_split(guess: str, candidates: Sequence[str]) -> tuple[float, int, int, float]:
    """(entropy in bits, patterns, largest group, expected remaining) of ``guess``."""
    hist = ref_histogram(guess, candidates)
    n = len(candidates)
    bits = -sum(c / n * math.log2(c / n) for c in hist.values())
    return bits, len(hist), max(hist.values()), sum(c * c for c in hist.values()) / n


def ref_entropy(guess: str, candidates: Sequence[str]) -> float:
    """Entropy in bits of the feedback distribution of ``guess`` over ``candidates``."""
    return ref_split(guess, candidates)[0]


def ref_rank(candidates: Sequence[str], pool: Sequence[str], top: int = 10) -> list[tuple[float, str, bool]]:
    """The ``top`` guesses of ``pool`` as (bits, word, is candidate): by bits, candidates first, A-Z."""
    cands = set(candidates)
    scored = [(ref_entropy(g, candidates), g, g in cands) for g in pool]
    scored.sort(key=lambda t: (-round(t[0], 9), not t[2], t[1]))
    return scored[:top]


def ref_filter(words: Iterable[str], history: Iterable[tuple[str, int]]) -> list[str]:
    """The words that would have shown every (guess, code) of ``history``."""
    history = list(history)
    return [w for w in words if all(ref_code(g, w) == c for g, c in history)]


def ref_weighted_split(
    guess: str, candidates: Sequence[str], weights: Sequence[float]
) -> tuple[float, int, int, float]:
    """(entropy in bits, patterns, largest group, expected remaining) of ``guess`` when each
    candidate is the answer with probability proportional to its weight: the weighted entropy
    of the feedback, and the expected size of the group the answer falls in."""
    total = math.fsum(weights)
    mass: dict[int, float] = {}
    count: dict[int, int] = {}
    for answer, w in zip(candidates, weights):
        code = ref_code(guess, answer)
        mass[code] = mass.get(code, 0.0) + w / total
        count[code] = count.get(code, 0) + 1
    bits = -math.fsum(p * math.log2(p) for p in mass.values()) if len(mass) > 1 else 0.0
    expected = math.fsum(mass[c] * count[c] for c in mass)
    return bits, len(mass), max(count.values()), expected
