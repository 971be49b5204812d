"""Statistics of a word list: repeated letters, letter frequency overall and by position.

The figures `raten words stats` prints and the openers page may chart: plain counts over a
word set's solutions (the possible answers) and over its allowed words.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from raten.engine.alphabet import ASCII_LETTERS, LATIN, Alphabet
from raten.engine.words import WordSet, letters

#: The letters of most lists (``LetterStats.alphabet`` holds a list's own).
ALPHABET = ASCII_LETTERS


class LetterRow(NamedTuple):
    """One letter as a player reads it: in how many words, and where it stands most often."""

    letter: str
    words: int
    share: float  # of the words that contain it (0..1)
    most_at: int  # the position 1–L where it stands most often (the first of equals)


@dataclass(frozen=True)
class LetterStats:
    """Letter statistics of one list of words of one length."""

    words: int
    #: Words in which some letter occurs more than once (``sassy``, ``geese``, ``eerie``).
    repeated: int
    #: How often each letter of ``alphabet`` occurs, in all positions (a word with two e counts two).
    counts: tuple[int, ...]
    #: How many words contain each letter at least once.
    in_words: tuple[int, ...]
    #: ``by_position[i][j]``: how many words have letter j at position i (0 to length - 1).
    by_position: tuple[tuple[int, ...], ...]
    #: The letters counted, in code order (a–z, and any the list keeps beyond).
    alphabet: str = ALPHABET

    @property
    def length(self) -> int:
        """Letters per word."""
        return len(self.by_position)

    @property
    def repeated_share(self) -> float:
        """The share of words with a repeated letter (0..1)."""
        return self.repeated / self.words if self.words else 0.0

    def share(self, letter: str) -> float:
        """The share of all letters written that are ``letter`` (0..1)."""
        total = self.words * self.length
        return self.counts[self.alphabet.index(letter)] / total if total else 0.0

    def ranked(self) -> list[str]:
        """The letters, most frequent first (ties in alphabet order)."""
        return sorted(self.alphabet, key=lambda c: (-self.counts[self.alphabet.index(c)], self.alphabet.index(c)))

    def rows(self) -> list[LetterRow]:
        """Every letter that occurs, in the most words first (ties A–Z): the openers page's chart."""
        out = []
        for j, c in enumerate(self.alphabet):
            if self.in_words[j]:
                at = max(range(self.length), key=lambda i: (self.by_position[i][j], -i))
                out.append(LetterRow(c, self.in_words[j], self.in_words[j] / self.words, at + 1))
        return sorted(out, key=lambda r: (-r.words, r.letter))

    def to_dict(self) -> dict:
        """The JSON form: per letter its count, share, words containing it and counts by position."""
        total = self.words * self.length
        return {
            "words": self.words,
            "repeated": self.repeated,
            "repeated_share": round(self.repeated_share, 6),
            "letters": {
                c: {
                    "count": self.counts[j],
                    "share": round(self.counts[j] / total, 6) if total else 0.0,
                    "words": self.in_words[j],
                    "by_position": [self.by_position[i][j] for i in range(self.length)],
                }
                for j, c in enumerate(self.alphabet)
            },
        }


def letter_stats(words: Sequence[str], alphabet: Alphabet = LATIN, length: int = 0) -> LetterStats:
    """Count repeated letters and letter frequencies over ``words`` (normalised words of one length,
    written in ``alphabet``; ``length`` for an empty list)."""
    size = alphabet.size
    if len(words) == 0:
        zero = (0,) * size
        return LetterStats(0, 0, zero, zero, (zero,) * length, alphabet.letters)
    codes = letters(tuple(words), alphabet).astype(np.int64)  # words × length, letter codes
    length = codes.shape[1]
    by_position = np.stack([np.bincount(codes[:, i], minlength=size) for i in range(length)])
    present = np.zeros((len(words), size), dtype=bool)
    present[np.arange(len(words))[:, None], codes] = True
    repeated = int((present.sum(axis=1) < length).sum())
    return LetterStats(
        words=len(words),
        repeated=repeated,
        counts=tuple(int(n) for n in by_position.sum(axis=0)),
        in_words=tuple(int(n) for n in present.sum(axis=0)),
        by_position=tuple(tuple(int(n) for n in row) for row in by_position),
        alphabet=alphabet.letters,
    )


def list_stats(words: WordSet) -> dict:
    """The statistics of a word set's solutions and of its allowed words, as JSON."""
    return {
        "list": words.name,
        "language": words.language,
        "solutions": letter_stats(words.solutions, words.alphabet).to_dict(),
        "allowed": letter_stats(words.allowed, words.alphabet).to_dict(),
    }
