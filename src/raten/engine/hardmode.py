"""Hard-mode legality: greens kept in place, revealed letters used at least as often as revealed.

The rule is written twice, on purpose: once readably over strings (``find_violation``, the
reference, which also says *why* a guess is illegal), and once compiled over letter arrays
(``reveal``: what a move demands, and ``keeping``: which words keep it), which ``legal_mask``, the look-ahead kernels
(``raten.engine.lookahead``) and the exact tree search (``raten.trees.kernels``) all use.

The compiled form holds what a history demands in two small arrays:

- ``greens``: one letter code per position (a word set's ``length``), the letter a guess must
  have there, or ``NO_GREEN`` where it is free;
- ``need``: one count per letter of the alphabet (``Alphabet.size``, 26 for a–z), how often a
  guess must contain each letter at least.

Both are ``uint8``; ``no_rules(length, letters)`` gives the pair for an empty history. The
kernels read the length and the alphabet's size from these arrays' shapes.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from raten.engine.feedback import GREEN, GREY, code_to_colours
from raten.engine.jitcache import njit
from raten.errors import RatenError

if TYPE_CHECKING:
    from raten.engine.alphabet import Alphabet

#: ``greens`` value of a position no green has fixed.
NO_GREEN = 255

_ORDINALS = ["1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th"]


def _requirements(history) -> tuple[dict[int, str], Counter]:
    greens: dict[int, str] = {}
    need: Counter[str] = Counter()
    for guess, code in history:
        shown: Counter[str] = Counter()
        for i, (letter, colour) in enumerate(zip(guess, code_to_colours(code, len(guess)))):
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
            assert self.position is not None  # a green violation always names its position
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


# --- the compiled rule ------------------------------------------------------------------
# "Does a word keep the rules" is written once, inside the loop over words (``keeping``), and
# not as a per-word function that loops inline: numba inlines array arguments with a reference
# count taken and dropped per call, which made the tree search's legal-guess filter 8 times
# slower (measured: 200 us against 24 us for the 12972 English guesses).


@njit(cache=True)
def reveal(guess: np.ndarray, code: int, greens: np.ndarray, need: np.ndarray) -> None:
    """Add, in place, what feedback ``code`` of ``guess`` (letter codes) demands of later guesses:
    its greens kept in place, each letter it shows (green or yellow) used at least as often."""
    length = guess.shape[0]
    shown = 0  # bit p: position p is green or yellow
    c = code
    for pos in range(length - 1, -1, -1):
        colour = c % 3
        c //= 3
        if colour == GREEN:
            greens[pos] = guess[pos]
        if colour != GREY:
            shown |= 1 << pos
    for pos in range(length):
        if (shown >> pos) & 1:
            letter = guess[pos]
            n = 0
            for other in range(length):
                if (shown >> other) & 1 and guess[other] == letter:
                    n += 1
            if n > need[letter]:
                need[letter] = n


@njit(cache=True)
def rules_after(guess: np.ndarray, code: int, greens: np.ndarray, need: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``greens`` and ``need`` after one more move, as new arrays (the given ones are kept)."""
    g2 = greens.copy()
    n2 = need.copy()
    reveal(guess, code, g2, n2)
    return g2, n2


@njit(cache=True)
def keeping(rows: np.ndarray, letters: np.ndarray, counts: np.ndarray, greens: np.ndarray, need: np.ndarray):
    """The entries of ``rows`` whose word keeps ``greens`` and ``need`` (int32, in order).

    ``letters[r]`` are the letters of word ``r`` and ``counts[r]`` how often each letter occurs
    in it (``letter_counts``). Only the positions a green fixes and the letters needed are
    looked at (a few of the word's length and of the alphabet's size, which the arrays' shapes
    give), found once before the loop over the words.
    """
    fixed = np.empty(greens.shape[0], dtype=np.int64)
    nf = 0
    for pos in range(greens.shape[0]):
        if greens[pos] != NO_GREEN:
            fixed[nf] = pos
            nf += 1
    needed = np.empty(need.shape[0], dtype=np.int64)
    nn = 0
    for letter in range(need.shape[0]):
        if need[letter] > 0:
            needed[nn] = letter
            nn += 1
    out = np.empty(rows.shape[0], dtype=np.int32)
    m = 0
    for i in range(rows.shape[0]):
        r = rows[i]
        ok = True
        for k in range(nf):
            pos = fixed[k]
            if letters[r, pos] != greens[pos]:
                ok = False
                break
        if ok:
            for k in range(nn):
                letter = needed[k]
                if counts[r, letter] < need[letter]:
                    ok = False
                    break
        if ok:
            out[m] = r
            m += 1
    return out[:m]


@njit(cache=True)
def letter_counts(letters: np.ndarray, alphabet: int) -> np.ndarray:
    """How often each of the ``alphabet`` letters occurs in each word of an (N, length) letter
    array: (N, alphabet) uint8."""
    counts = np.zeros((letters.shape[0], alphabet), dtype=np.uint8)
    for i in range(letters.shape[0]):
        for pos in range(letters.shape[1]):
            counts[i, letters[i, pos]] += 1
    return counts


def no_rules(length: int, alphabet: int) -> tuple[np.ndarray, np.ndarray]:
    """``greens`` and ``need`` of an empty history of words of ``length`` letters of an alphabet of
    ``alphabet`` letters: nothing demanded."""
    return np.full(length, NO_GREEN, dtype=np.uint8), np.zeros(alphabet, dtype=np.uint8)


def rules(history, length: int, alphabet: Alphabet | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``greens`` and ``need`` for a history of (guess, code) moves (normalised words of
    ``length`` letters of ``alphabet``, None: a–z)."""
    letters = alphabet.letters if alphabet else "abcdefghijklmnopqrstuvwxyz"
    codes = {ord(c): i for i, c in enumerate(letters)}
    greens, need = no_rules(length, len(letters))
    for guess, code in history:
        code_to_colours(code, length)  # a RatenError for a code outside the length's codes
        if len(guess) != length or any(c not in letters for c in guess):
            raise RatenError(f"{guess!r} is not {length} letters of {letters}")
        reveal(np.frombuffer(guess.translate(codes).encode("latin-1"), dtype=np.uint8), int(code), greens, need)
    return greens, need


def legal_mask(letters: np.ndarray, history, alphabet: Alphabet | None = None) -> np.ndarray:
    """Boolean mask over words (an (N, length) letter array of ``alphabet``) that are legal in hard mode."""
    if not history:
        return np.ones(letters.shape[0], dtype=bool)
    greens, need = rules(history, letters.shape[1], alphabet)
    letters = np.ascontiguousarray(letters, dtype=np.uint8)
    mask = np.zeros(letters.shape[0], dtype=bool)
    mask[keeping(np.arange(letters.shape[0]), letters, letter_counts(letters, need.shape[0]), greens, need)] = True
    return mask
