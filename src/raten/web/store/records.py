"""What the store hands out and the errors it raises, the same on every engine."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass

#: A stored row: the guess and its code, or on many boards its code per board (None once solved).
StoredRow = tuple[str, int | tuple[int | None, ...]]


def new_id() -> str:
    """An unguessable id (128 random bits, URL-safe)."""
    return secrets.token_urlsafe(16)


def stored_rows(rows: Sequence[tuple[str, tuple[int | None, ...]]]) -> tuple[StoredRow, ...]:
    """A game's rows (``raten.play.game.Game.rows``) as the store keeps them: on one board the
    code alone, as games were kept before many boards; on many one code per board."""
    return tuple((g, codes[0] if len(codes) == 1 and codes[0] is not None else codes) for g, codes in rows)


@dataclass(frozen=True)
class GameRecord:
    """A stored game: who plays it, on which list, its answer and its rows (word, code).

    On ``boards`` > 1 the answer holds the boards' answers joined by commas and each row
    has one code per board (see ``answers``)."""

    id: str
    player: str
    list: str
    mode: str
    number: int | None
    hard: bool
    answer: str
    history: tuple[StoredRow, ...]
    status: str
    boards: int = 1
    #: When it was begun and last changed (ISO 8601, UTC, seconds).
    created: str = ""
    updated: str = ""

    @property
    def answers(self) -> tuple[str, ...]:
        return tuple(self.answer.split(","))

    @property
    def guesses(self) -> tuple[str, ...]:
        return tuple(row[0] for row in self.history)


class ConflictError(Exception):
    """The game changed under a write (two guesses at once): the later one is refused."""


class DuplicateError(Exception):
    """A row the database already holds (the same daily game begun twice at once), on any engine."""


class UnavailableError(Exception):
    """The database cannot be used now (a file deleted or unwritable, a server gone): the
    request is refused (503), the server keeps running and uses it again once it works."""


class StoreWarning(UserWarning):
    """The database opened but looks replaced or reset (the daily words will change)."""
