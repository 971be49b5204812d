"""A word list's letters: which it keeps as tiles of their own, and how it folds the others.

Every list writes its words in an ``Alphabet``: its ``letters`` in order (a letter's code, in
the letter arrays the kernels read, is its place here), and a ``fold`` for any other letter a
player types:

- ``umlauts`` (today's rule for every list but those of other languages): ä→ae, ö→oe, ü→ue,
  ß→ss, unless the list keeps the letter (``de-umlaut`` keeps Ä, Ö and Ü as tiles, and folds ß);
- ``accents`` (French, Spanish, Italian, Dutch, Portuguese, as their games do): a letter with
  a diacritic becomes its base letter (é→e, ç→c, ã→a), æ→ae, œ→oe, ß→ss, unless the list keeps
  it (Spanish keeps ñ).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import cached_property

ASCII_LETTERS = "abcdefghijklmnopqrstuvwxyz"

_UMLAUTS = {"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"}
_LIGATURES = {"ß": "ss", "æ": "ae", "œ": "oe"}
_FOLDING = {
    "umlauts": "umlauts and ß are transliterated",
    "ss": "ß is written ss",
    "accents": "accents are left out",
}
FOLDS = ("umlauts", "accents")


@dataclass(frozen=True)
class Alphabet:
    """The letters a list keeps (in code order) and the fold of every other letter."""

    letters: str = ASCII_LETTERS
    fold: str = "umlauts"

    def __post_init__(self) -> None:
        if self.fold not in FOLDS:
            raise ValueError(f"unknown fold {self.fold!r}: one of {', '.join(FOLDS)}")
        if (
            len(set(self.letters)) != len(self.letters)
            or not self.letters.isalpha()
            or self.letters != self.letters.lower()
        ):
            raise ValueError(f"an alphabet is distinct lowercase letters, not {self.letters!r}")
        if len(self.letters) > 64:
            raise ValueError("an alphabet has at most 64 letters")

    @property
    def size(self) -> int:
        """How many letters: the length of a word's letter-count array."""
        return len(self.letters)

    @cached_property
    def extra(self) -> str:
        """The letters kept beyond a–z, in order (empty for most lists)."""
        return "".join(c for c in self.letters if c not in ASCII_LETTERS)

    @cached_property
    def codes(self) -> dict[int, int]:
        """``str.translate`` table: each letter to the character whose ordinal is its code."""
        return {ord(c): i for i, c in enumerate(self.letters)}

    @cached_property
    def _folds(self) -> dict[str, str]:
        """What each foldable letter this alphabet does not keep becomes."""
        if self.fold == "umlauts":
            return {k: v for k, v in _UMLAUTS.items() if k not in self.letters}
        return {k: v for k, v in _LIGATURES.items() if k not in self.letters}

    def normalise(self, word: str) -> str:
        """Lowercase, trim and fold every letter this alphabet does not keep."""
        low = word.strip().lower()
        if low.isascii():
            return low
        low = unicodedata.normalize("NFC", low)
        out = []
        for ch in low:
            if ch in self.letters:
                out.append(ch)
            elif ch in self._folds:
                out.append(self._folds[ch])
            elif self.fold == "accents":
                base = unicodedata.normalize("NFD", ch)[0]
                out.append(base if base in self.letters else ch)
            else:
                out.append(ch)
        return "".join(out)

    def spelled(self) -> str:
        """The letters as a person reads them: ``a-z`` and any kept beyond."""
        kept = sorted(set(self.letters) - set(ASCII_LETTERS))
        base = (
            "a-z"
            if set(ASCII_LETTERS) <= set(self.letters)
            else ", ".join(sorted(set(self.letters) & set(ASCII_LETTERS)))
        )
        return base + "".join(f", {c}" for c in kept)

    @property
    def fold_rule(self) -> str:
        """Which rule writes the letters it does not keep: ``umlauts`` (ä→ae ... ß→ss), ``ss``
        (umlauts kept, ß→ss) or ``accents`` (é→e ...): the key error texts word it by."""
        if self.fold == "accents":
            return "accents"
        return "ss" if {"ä", "ö", "ü"} <= set(self.letters) else "umlauts"

    def folding(self) -> str:
        """How other letters are written, for error messages."""
        return _FOLDING[self.fold_rule]

    def to_json(self) -> dict[str, str]:
        return {"letters": self.letters, "fold": self.fold}


#: a–z, umlauts and ß transliterated: every list before other languages came.
LATIN = Alphabet()
