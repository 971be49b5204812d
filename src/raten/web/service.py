"""The word lists a server offers, loaded and warmed once, and the solver answers it gives.

Openers are ranked at start-up and kept; hint answers are kept in a small LRU cache as
ready JSON, since many people ask about the same early states.
"""

from __future__ import annotations

import json
import threading
import warnings
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from raten.engine.feedback import format_pattern
from raten.engine.rank import GuessSplit, Hint, split_of
from raten.engine.state import State
from raten.engine.words import WordSet
from raten.errors import RatenError, shorten
from raten.play.game import daily_list
from raten.wordlists.presets import PRESETS, load_preset

#: Groups of the top hint's split shown one by one; the rest are summed.
SPLIT_GROUPS = 12


@dataclass(frozen=True)
class HintQuery:
    """One hint request: both the argument of ``Lists.hints`` and its cache key."""

    name: str = "en"
    rows: tuple[tuple[str, str], ...] = ()
    hard: bool = False
    top: int = 10
    strategy: str = "entropy"
    limit: int = 200


@dataclass(frozen=True)
class ListEntry:
    """One word list as served: its words, the empty state and its best openers."""

    name: str
    words: WordSet
    description: str
    start: State
    openers: tuple[Hint, ...]

    @property
    def language(self) -> str:
        return self.words.language


class Lists:
    """The lists a server offers, by name, warmed at construction."""

    def __init__(self, entries: Mapping[str, ListEntry], cache_size: int = 8192) -> None:
        """``cache_size``: hint answers kept (about 2.5 kB each on en)."""
        if not entries:
            raise RatenError("no word list could be loaded")
        self.entries = dict(entries)
        self.default = next(iter(self.entries))
        self._cache: OrderedDict[HintQuery, bytes] = OrderedDict()
        self._cache_lock = threading.Lock()
        self.cache_size = cache_size

    @classmethod
    def load(cls, sources: Mapping[str, WordSet] | Iterable[str] | None = None, openers_top: int = 50) -> Lists:
        """Word sets by name, or preset names (default: every preset that can be loaded;
        a preset that is missing is skipped with a warning). Loads every matrix, ranks the
        openers and runs one hint, so the first request is as fast as the rest."""
        if sources is None or not isinstance(sources, Mapping):
            names = list(PRESETS) if sources is None else list(sources)
            word_sets = {}
            for name in names:
                try:
                    word_sets[name] = load_preset(name)
                except RatenError as e:
                    if sources is not None:
                        raise
                    warnings.warn(f"word list {name} is not available: {e}", stacklevel=2)
        else:
            word_sets = dict(sources)
        entries = {}
        for name, words in word_sets.items():
            start = State(words)
            openers = tuple(start.hints(top=openers_top))
            start.after(openers[0].word, 0).hints(top=1)  # compile and page in everything a hint needs
            description = PRESETS[name].description if name in PRESETS else words.source or name
            entries[name] = ListEntry(name, words, description, start, openers)
        return cls(entries)

    def daily_entry(self, language: str) -> ListEntry:
        """The list the daily game of ``language`` is played on (see ``raten.play.game.daily_list``)."""
        return self.entries[daily_list({n: e.words for n, e in self.entries.items()}, language)]

    def get(self, name: str) -> ListEntry:
        try:
            return self.entries[name]
        except KeyError:
            raise RatenError(
                f"unknown word list {shorten(name)!r}: choose one of {', '.join(self.entries)}",
                "unknown_list",
                name=shorten(name),
                choices=", ".join(self.entries),
            ) from None

    # --- hints -------------------------------------------------------------------------

    def hints_json(self, query: HintQuery) -> bytes:
        """The answer of ``POST /api/hints`` as JSON bytes, from the cache when it is there."""
        hit = self.cached_hints(query)
        if hit is not None:
            return hit
        body = json.dumps(self.hints(query), separators=(",", ":")).encode()
        with self._cache_lock:
            self._cache[query] = body
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        return body

    def cached_hints(self, query: HintQuery) -> bytes | None:
        """The cached answer to ``query``, or None."""
        with self._cache_lock:
            hit = self._cache.get(query)
            if hit is not None:
                self._cache.move_to_end(query)
            return hit

    def hints(self, query: HintQuery) -> dict:
        """Candidates, hints, the top hint's split and the constraints after the query's rows."""
        entry = self.get(query.name)
        start = entry.start if not query.hard else State(entry.start.matrix, hard=True)
        state = start.replay(query.rows)
        if not query.rows and query.strategy == "entropy" and query.top <= len(entry.openers):
            hints = list(entry.openers[: query.top])
        else:
            hints = state.hints(top=query.top, strategy=query.strategy)
        words = state.candidate_words
        return {
            "list": query.name,
            "count": state.count,
            "fallback": state.fallback is not None,
            "solved": state.solved,
            "candidates": words[: query.limit],
            "hints": [hint_dict(h) for h in hints],
            "split": split_dict(split_of(state, hints[0].word)) if hints else None,
            "constraints": state.constraints.to_dict(),
            "summary": state.constraints.describe(),
            "warnings": list(state.warnings),
        }


def hint_dict(h: Hint) -> dict:
    """A hint as JSON-ready dict (``dataclasses.asdict`` is ten times slower, on the hot path)."""
    return {
        "word": h.word,
        "bits": h.bits,
        "candidate": h.candidate,
        "patterns": h.patterns,
        "largest": h.largest,
        "expected_remaining": h.expected_remaining,
    }


def split_dict(split: GuessSplit) -> dict:
    """A split as JSON: its ``SPLIT_GROUPS`` largest groups, the rest summed."""
    shown, other_groups, other_words = split.head(SPLIT_GROUPS)
    return {
        "word": split.word,
        "groups": [{"pattern": format_pattern(g.code), "count": g.count} for g in shown],
        "other_groups": other_groups,
        "other_words": other_words,
    }
