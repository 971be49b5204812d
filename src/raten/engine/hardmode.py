"""Hard-mode legality: greens kept in place, revealed letters used at least as often as revealed."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from raten.engine.feedback import GREEN, GREY, code_to_colours

_ORDINALS = ["1st", "2nd", "3rd", "4th", "5th"]


def _requirements(history) -> tuple[dict[int, str], Counter]:
    greens: dict[int, str] = {}
    need: Counter[str] = Counter()
    for guess, code in history:
        shown: Counter[str] = Counter()
        for i, (letter, colour) in enumerate(zip(guess, code_to_colours(code))):
            if colour == GREEN:
                greens[i] = letter
            if colour != GREY:
                shown[letter] += 1
        for letter, n in shown.items():
            need[letter] = max(need[letter], n)
    return greens, need


@dataclass(frozen=True)
class Violation:
    """How a guess breaks hard mode: a green left out (``kind="green"``, 1-based
    ``position``) or a revealed ``letter`` used fewer than ``count`` times (``"present"``)."""

    kind: str
    letter: str
    position: int | None = None
    count: int = 1

    @property
    def message(self) -> str:
        if self.kind == "green":
            return f"{_ORDINALS[self.position - 1]} letter must be {self.letter.upper()}"
        times = "" if self.count == 1 else f" {self.count} times"
        return f"guess must contain {self.letter.upper()}{times}"


def find_violation(guess: str, history) -> Violation | None:
    """The first rule ``guess`` breaks in hard mode after ``history``, or None if it is legal."""
    greens, need = _requirements(history)
    for i, letter in sorted(greens.items()):
        if guess[i] != letter:
            return Violation("green", letter, position=i + 1)
    counts = Counter(guess)
    for letter, n in sorted(need.items()):
        if counts[letter] < n:
            return Violation("present", letter, count=n)
    return None


def violation(guess: str, history) -> str | None:
    """Why ``guess`` breaks hard mode after ``history``, or None if it is legal."""
    found = find_violation(guess, history)
    return found.message if found else None


def legal_mask(letters: np.ndarray, history) -> np.ndarray:
    """Boolean mask over words (an (N, 5) letter array) that are legal in hard mode."""
    greens, need = _requirements(history)
    mask = np.ones(letters.shape[0], dtype=bool)
    for i, letter in greens.items():
        mask &= letters[:, i] == ord(letter) - ord("a")
    for letter, n in need.items():
        mask &= (letters == ord(letter) - ord("a")).sum(axis=1) >= n
    return mask
