"""The opening book: the guarantee's first two decisions, computed offline and shipped.

Deciding safety for the first two guesses over thousands of covered words is too slow for a
request, and it is the same for every game of a list, mode and coverage. A book holds what
the guarded strategy (``raten.play.strategies.GuardedStrategy``) decides there: the opener,
the verdict of each of the strategy's best openers (which are safe), and for every colour
pattern the opener can show, the second guess and its verdict. A strategy under the
guarantee reads its first two moves from the book that matches its lists (the prior key),
mode, limit, coverage, strategy, work budget and decision rule, and decides every later move
itself.

A book file is JSON with a SHA-256 digest over everything else in it: a damaged or edited
book is refused by name, never played (``BookError``). ``raten book build`` writes one and
``raten book check`` re-proves every safe verdict in it with a fresh search.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from raten.engine.feedback import format_pattern, parse_pattern
from raten.engine.words import WordSet
from raten.errors import RatenError

#: The first field of every book file: a new layout gets a new number.
BOOK_FORMAT = "raten-book-1"


class BookError(RatenError):
    """A book file that cannot be trusted: unreadable, not a book, or its digest does not match."""


@dataclass(frozen=True)
class Decision:
    """A guess the guarantee plays: ``safe`` True (safe over ``over``), False (no guess is safe
    over any coverage: the least worst case) or None (not decided within the work)."""

    word: str
    safe: bool | None
    over: str

    def to_dict(self) -> dict:
        return {"word": self.word, "safe": self.safe, "over": self.over}

    @classmethod
    def from_dict(cls, d: dict) -> Decision:
        return cls(str(d["word"]), d["safe"], str(d["over"]))


@dataclass(frozen=True)
class BookKey:
    """What a book's decisions depend on; a strategy uses a book only when every field matches."""

    lists: str  #: ``WordSet.prior_key``: both lists and the prior
    hard: bool
    limit: int
    over: str
    strategy: str
    ranked: int  #: how many of the strategy's guesses were tried first
    work: int  #: the work one decision may do
    opener_work: int  #: the work the opener's decision may do
    rule: int  #: the version of the strategy's decision rule (``raten.play.strategies.DECISION_RULE``)

    def to_dict(self) -> dict:
        return {
            "lists": self.lists,
            "mode": "hard" if self.hard else "normal",
            "limit": self.limit,
            "over": self.over,
            "strategy": self.strategy,
            "ranked": self.ranked,
            "work": self.work,
            "opener_work": self.opener_work,
            "rule": self.rule,
        }


@dataclass
class Book:
    """The first two decisions of one guarded strategy on one list (see the module)."""

    name: str  #: the list's name, for messages
    key: BookKey
    opener: Decision
    openers: list[dict] = field(default_factory=list)  #: ``Safety.to_dict`` of the best openers
    second: dict[int, Decision] = field(default_factory=dict)  #: pattern code → second guess
    seconds: float = field(default=0.0, compare=False)  #: CPU seconds the build took

    def decision(self, history) -> Decision | None:
        """The book's decision after ``history`` (none, or the opener and its pattern), else None."""
        if not history:
            return self.opener
        if len(history) == 1 and history[0][0] == self.opener.word:
            return self.second.get(int(history[0][1]))
        return None

    def to_dict(self) -> dict:
        body = {
            "format": BOOK_FORMAT,
            "list": self.name,
            **self.key.to_dict(),
            "opener": self.opener.to_dict(),
            "openers": self.openers,
            "second": {
                format_pattern(c, "dots", len(self.opener.word)): d.to_dict() for c, d in sorted(self.second.items())
            },
            "cpu_seconds": round(self.seconds, 1),
        }
        return body | {"digest": _digest(body)}

    def save(self, path: Path) -> None:
        """Write the book (through a temporary file, so a stopped build leaves no half book)."""
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(self.to_dict(), indent=1) + "\n", encoding="utf-8")
        tmp.replace(path)


def _digest(body: dict) -> str:
    text = json.dumps({k: v for k, v in body.items() if k != "digest"}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def read_book(path: Path) -> Book:
    """The book in ``path``, its digest checked; ``BookError`` naming the file otherwise."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BookError(f"{path}: not a readable opening book ({exc})", "book_unreadable", path=str(path)) from exc
    if not isinstance(data, dict) or data.get("format") != BOOK_FORMAT:
        raise BookError(f"{path}: not an opening book ({BOOK_FORMAT})", "book_format", path=str(path))
    if data.get("digest") != _digest(data):
        raise BookError(
            f"{path}: the book's digest does not match its contents (damaged or edited); rebuild it with "
            "`raten book build`",
            "book_digest",
            path=str(path),
        )
    try:
        key = BookKey(
            str(data["lists"]),
            data["mode"] == "hard",
            int(data["limit"]),
            str(data["over"]),
            str(data["strategy"]),
            int(data["ranked"]),
            int(data["work"]),
            int(data["opener_work"]),
            int(data.get("rule", 1)),  # the books before the field: rule 1
        )
        opener = Decision.from_dict(data["opener"])
        second = {parse_pattern(p, len(opener.word)): Decision.from_dict(d) for p, d in data["second"].items()}
        return Book(
            str(data["list"]),
            key,
            opener,
            list(data["openers"]),
            second,
            float(data.get("cpu_seconds", 0.0)),
        )
    except (KeyError, TypeError, ValueError, RatenError) as exc:
        raise BookError(
            f"{path}: a field of the book is missing or wrong ({exc})", "book_format", path=str(path)
        ) from exc


def book_name(name: str, hard: bool, over: str) -> str:
    """The file name of a shipped book: ``en-normal-likely.json``."""
    return f"{name}-{'hard' if hard else 'normal'}-{over}.json"


def shipped_path(name: str, hard: bool, over: str) -> Path:
    """Where the package keeps the book of a built-in list (it may not exist)."""
    return Path(str(resources.files("raten") / "data" / "books" / book_name(name, hard, over)))


_LOADED: dict[Path, Book | None] = {}


def shipped_book(words: WordSet, key: BookKey) -> Book | None:
    """The shipped book for ``key`` on ``words``, or None when there is none or it is for other
    lists, prior, limit, strategy or work (a damaged shipped book raises ``BookError``)."""
    path = shipped_path(words.name, key.hard, key.over)
    if path not in _LOADED:
        _LOADED[path] = read_book(path) if path.is_file() else None
    book = _LOADED[path]
    return book if book is not None and book.key == key else None


def build_book(
    strategy: Any,
    state: Any,
    progress: Callable[[int, int], None] | None = None,
) -> Book:
    """The book of a ``GuardedStrategy`` from the empty ``state`` (its lists and mode): every
    decision taken by the strategy itself, with the book switched off. ``progress(done, total)``
    after each pattern."""
    from raten.engine.matrix import feedback_against

    started = time.process_time()
    words = state.words
    key = strategy.book_key(state)
    opener = strategy.decide(state, use_book=False)
    ranked = [h.word for h in strategy.base.rank(state, top=key.ranked)]
    judged = []
    for word in ranked:
        verdict = strategy.guarantee(state).judge((), [word], key.opener_work)[0]
        judged.append(verdict.to_dict())
    codes = sorted({int(c) for c in feedback_against(opener.word, words.allowed)})
    second: dict[int, Decision] = {}
    for i, code in enumerate(codes):
        if code != words.all_green:
            second[code] = strategy.decide(state.after(opener.word, code), use_book=False)
        if progress is not None:
            progress(i + 1, len(codes))
    return Book(words.name, key, opener, judged, second, time.process_time() - started)


def check_book(book: Book, strategy: Any, state: Any, progress: Callable[[int, int], None] | None = None) -> list[str]:
    """Re-prove every safe verdict of ``book`` with a fresh search: the problems found (empty:
    every claim holds). The book must be for ``state``'s lists and mode."""
    from raten.trees.safety import Guarantee

    if book.key != strategy.book_key(state):
        return [f"the book is for other lists, prior, mode, limit, coverage or strategy than {state.words.name}"]
    problems = []
    positions: list[tuple[tuple, Decision]] = [((), book.opener)]
    positions += [(((book.opener.word, c),), d) for c, d in sorted(book.second.items())]
    fresh: dict[str, Guarantee] = {}
    for i, (history, decision) in enumerate(positions):
        if decision.safe:
            if decision.over not in fresh:
                fresh[decision.over] = Guarantee(state.words, state.hard, book.key.limit, decision.over)
            work = book.key.work if history else book.key.opener_work
            verdict = fresh[decision.over].judge(history, [decision.word], work)[0]
            if verdict.safe is not True:
                first, code = history[0] if history else ("", 0)
                where = " after " + "=".join([first, format_pattern(code, "dots", len(first))]) if history else ""
                problems.append(f"{decision.word.upper()}{where} is not proven safe over {decision.over} words")
        if progress is not None:
            progress(i + 1, len(positions))
    return problems
