"""Which of wordfreq's frequent words are no German words, for ``raten words build --filter-non-words``.

The frequent words (``frequent.py``) are the words German text uses that neither dictionary
lists. Most are names and English words, and some are no words at all: runs of one letter
(XXXXX, HMMMM, SOOOO), Roman numerals (XVIII) and interjections (ACHSO, AHAHA). A German game
accepts German words and word forms (issue 23): the filter drops every frequent word that the
hunspell dictionary does not accept (``hunspell -G``, which applies the affix and compound
rules that ``unmunch`` cannot write out), unless another German game's allowed list has it.
That list is 6mal5.com's, read from the package's ``6mal5`` preset (never from elsewhere), so
what 6mal5 accepts stays allowed: its coverage by ``de`` does not change.

Each dropped word is given the first kind that fits, for the report: ``roman``, ``run``,
``interjection`` (the hand-kept ``interjections.txt``), else ``unknown``. Only the frequent
words are filtered: a dictionary word is a word by definition, three letters in a row included
(Teeei, the tea infuser).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass

from raten.wordlists.german.hunspell import HunspellDict, accepts
from raten.wordlists.german.morphology import hand_list
from raten.wordlists.prior import spellings_table

INTERJECTIONS = hand_list("interjections.txt")
#: The kinds of non-word, in the order they are tried, with their label for people.
KINDS = {
    "roman": "Roman numerals (XVIII)",
    "run": "runs of one letter (XXXXX, HMMMM, SOOOO)",
    "interjection": "interjections (ACHSO, AHAHA)",
    "unknown": "words neither dictionary nor hunspell's affix rules accept",
}
_RUN = re.compile(r"(.)\1\1")  # the same letter three times in a row
_ROMAN = re.compile(r"m{0,4}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})")


def non_word_kind(
    word: str, accepted: Collection[str] = (), interjections: Collection[str] = INTERJECTIONS
) -> str | None:
    """The kind of non-word ``word`` is (a key of ``KINDS``), or None when hunspell ``accepted`` it."""
    if _ROMAN.fullmatch(word):  # before runs: XVIII has three I
        return "roman"
    if _RUN.search(word):
        return "run"
    if word in interjections:
        return "interjection"
    return None if word in accepted else "unknown"


@dataclass(frozen=True)
class NonWordFilter:
    """The frequent words to drop: those that are no German word, unless ``keep`` (another game's
    allowed words) has them. ``accepted``: the words the hunspell dictionary accepts."""

    accepted: frozenset[str]
    keep: frozenset[str]

    def split(self, words: Iterable[str]) -> tuple[list[str], dict[str, list[str]]]:
        """(the words kept, sorted; the words dropped by kind, every kind present, each sorted)."""
        kept: list[str] = []
        dropped: dict[str, list[str]] = {kind: [] for kind in KINDS}
        for word in sorted(set(words)):
            kind = None if word in self.keep else non_word_kind(word, self.accepted)
            if kind is None:
                kept.append(word)
            else:
                dropped[kind].append(word)
        return kept, dropped


def non_word_filter(words: Iterable[str], hunspell: HunspellDict | None, keep: Iterable[str]) -> NonWordFilter:
    """The filter for ``words`` (the frequent words): which of them ``hunspell`` accepts in one of
    wordfreq's spellings (none without a hunspell dictionary), and the words to ``keep``."""
    if hunspell is None:
        return NonWordFilter(frozenset(), frozenset(keep))
    table = spellings_table("de")
    accepted = accepts(hunspell, {w: table.get(w, {w}) | {w} for w in words})
    return NonWordFilter(frozenset(accepted), frozenset(keep))
