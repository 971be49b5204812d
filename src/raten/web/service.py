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

from raten.engine.rank import Hint, analyze
from raten.engine.state import State
from raten.engine.words import WordSet
from raten.errors import RatenError, shorten
from raten.wordlists.presets import PRESETS, load_preset

#: Groups of the top hint's split shown one by one; the rest are summed.
SPLIT_GROUPS = 12


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
        self._cache: OrderedDict[tuple, bytes] = OrderedDict()
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
        """The list whose words the daily game of ``language`` uses: the first one offered in
        that language (``de`` before ``de-ext``), so everyone has the same word per language."""
        return next(e for e in self.entries.values() if e.language == language)

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

    def hints_json(
        self,
        name: str,
        rows: tuple[tuple[str, str], ...],
        hard: bool = False,
        top: int = 10,
        strategy: str = "entropy",
        limit: int = 200,
    ) -> bytes:
        """The answer of ``POST /api/hints`` as JSON bytes, from the cache when it is there."""
        key = (name, rows, hard, top, strategy, limit)
        with self._cache_lock:
            hit = self._cache.get(key)
            if hit is not None:
                self._cache.move_to_end(key)
                return hit
        body = json.dumps(self.hints(name, rows, hard, top, strategy, limit), separators=(",", ":")).encode()
        with self._cache_lock:
            self._cache[key] = body
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        return body

    def cached_hints(self, key: tuple) -> bytes | None:
        """The cached answer for ``hints_json``'s arguments as a tuple, or None."""
        with self._cache_lock:
            return self._cache.get(key)

    def hints(
        self,
        name: str,
        rows: tuple[tuple[str, str], ...],
        hard: bool = False,
        top: int = 10,
        strategy: str = "entropy",
        limit: int = 200,
    ) -> dict:
        """Candidates, hints, the top hint's split and the constraints after ``rows``."""
        entry = self.get(name)
        start = entry.start if not hard else State(entry.start.matrix, hard=True)
        state = start.replay(rows)
        if not rows and strategy == "entropy" and top <= len(entry.openers):
            hints = list(entry.openers[:top])
        else:
            hints = state.hints(top=top, strategy=strategy)
        words = state.candidate_words
        return {
            "list": name,
            "count": state.count,
            "fallback": state.fallback is not None,
            "solved": state.solved,
            "candidates": words[:limit],
            "hints": [hint_dict(h) for h in hints],
            "split": split_of(state, hints[0].word) if hints else None,
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


def split_of(state: State, word: str) -> dict:
    """The groups ``word`` splits the candidates into, largest first, the small ones summed."""
    buckets = analyze(state, word)["buckets"]
    shown, rest = buckets[:SPLIT_GROUPS], buckets[SPLIT_GROUPS:]
    return {
        "word": word,
        "groups": [{"pattern": b["pattern"], "count": b["count"]} for b in shown],
        "other_groups": len(rest),
        "other_words": sum(b["count"] for b in rest),
    }


def rows_key(rows) -> tuple[tuple[str, str], ...]:
    """Rows as a hashable tuple of (guess, pattern) strings."""
    return tuple((r.guess, r.pattern) for r in rows)
