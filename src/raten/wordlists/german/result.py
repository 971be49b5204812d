"""What a build of the German lists chose, and the figures that explain it.

A module of its own so that ``build`` (which makes one) and ``notice`` (which describes
one) both import it and the imports run one way: build, then notice, then this.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass
class BuildResult:
    """The three lists and the figures that explain them."""

    allowed: list[str]
    solutions: list[str]
    ngerman: list[str]  # every dictionary word (allowed less frequent): de-ext's solutions (the old file name)
    min_zipf: float
    candidates: int  # five-letter words at or above min_zipf
    excluded: dict[str, list[str]]  # rule -> words at or above min_zipf it left out, commonest first
    eligible: int  # candidates no rule left out
    lowest_zipf: float  # frequency of the rarest solution
    transliterated: int  # allowed words that had ä, ö, ü or ß
    wngerman: list[str] = field(default_factory=list)  # wngerman's own five-letter words
    hunspell: list[str] = field(default_factory=list)  # the hunspell dictionary's five-letter forms
    frequent: list[str] = field(default_factory=list)  # allowed only because wordfreq knows them (sowas)
    proper: list[str] = field(default_factory=list)  # allowed words only the hunspell names give (kevin)
    #: with --filter-non-words: the frequent words dropped as no German word, by kind (nonwords.KINDS)
    non_words: dict[str, list[str]] | None = None
    #: each allowed word as German writes it where that differs (boese: böse), for the pages
    written: dict[str, str] = field(default_factory=dict)

    def added(self) -> list[str]:
        """The allowed words hunspell adds to wngerman's (chili, coach, joint)."""
        return sorted(set(self.hunspell) - set(self.wngerman))

    def coverage(self, words: Iterable[str]) -> dict:
        """How many of WORDS (another game's list) are allowed, solutions, and allowed by wngerman alone."""
        ws = set(words)
        return {
            "words": len(ws),
            "allowed": len(ws & set(self.allowed)),
            "allowed_wngerman_only": len(ws & set(self.wngerman)),
            "solutions": len(ws & set(self.solutions)),
            "not_allowed": sorted(ws - set(self.allowed)),
        }

    def summary(self) -> dict:
        """Counts for people and scripts (a few examples per rule)."""
        return {
            "allowed": len(self.allowed),
            "solutions": len(self.solutions),
            "ngerman": len(self.ngerman),
            "wngerman": len(self.wngerman),
            "hunspell": len(self.hunspell),
            "added_by_hunspell": len(self.added()),
            "added_examples": self.added()[:: max(1, len(self.added()) // 12)][:12],
            "frequent": len(self.frequent),
            "frequent_examples": self.frequent[:: max(1, len(self.frequent) // 12)][:12],
            "proper": len(self.proper),
            "transliterated": self.transliterated,
            "min_zipf": self.min_zipf,
            "candidates": self.candidates,
            "excluded": {rule: len(words) for rule, words in self.excluded.items()},
            "examples": {rule: words[:12] for rule, words in self.excluded.items()},
            "eligible": self.eligible,
            "lowest_zipf": self.lowest_zipf,
        }
