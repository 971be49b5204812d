"""A player's statistics worked out from their finished games, daily and practice kept apart.

The statistics are not a counter updated game by game but a summary of the games themselves,
so they cannot drift from them and every rule is in one place:

- played counts every finished game, and a practice game given up for a new one (abandoned);
- the daily streak counts consecutive days (game numbers) won; it is still current while
  today's game is not finished, and ends with a lost game or a day missed;
- the practice streak counts consecutive wins in the order the games were begun;
- the distribution counts wins by guesses, 1 to the variant's limit; ``marked`` is the bar of
  today's daily game (or the last practice game) when it was won, the one a page highlights.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from raten.engine.boards import variant
from raten.errors import RatenError

#: How a stored game ended; ``abandoned`` is a practice game left for a new one.
ENDINGS = ("won", "lost", "abandoned")


@dataclass(frozen=True)
class Finished:
    """One game that counts: its daily number (None in practice), whether it was won, in how many guesses."""

    number: int | None
    won: bool
    tries: int


@dataclass(frozen=True)
class Record:
    """Statistics of one mode and variant."""

    played: int
    wins: int
    current_streak: int
    max_streak: int
    distribution: tuple[int, ...]
    marked: int | None = None

    @property
    def win_percent(self) -> int:
        """Share of games won, rounded to a whole percent (0 before the first game)."""
        return round(100 * self.wins / self.played) if self.played else 0

    def to_dict(self) -> dict:
        return {
            "played": self.played,
            "wins": self.wins,
            "win_percent": self.win_percent,
            "current_streak": self.current_streak,
            "max_streak": self.max_streak,
            "distribution": list(self.distribution),
            "marked": self.marked,
        }


def _distribution(games: list[Finished], limit: int) -> tuple[int, ...]:
    dist = [0] * limit
    for g in games:
        if g.won:
            if not 1 <= g.tries <= limit:
                raise RatenError(f"a win takes 1 to {limit} guesses, not {g.tries}")
            dist[g.tries - 1] += 1
    return tuple(dist)


def _runs(wins: list[bool]) -> tuple[int, int]:
    """(trailing run of True, longest run of True)."""
    best = run = 0
    for w in wins:
        run = run + 1 if w else 0
        best = max(best, run)
    return run, best


def daily_record(games: Iterable[Finished], limit: int, today: int) -> Record:
    """Daily statistics: ``games`` in any order, one per number; ``today`` is today's number."""
    by_number = sorted((g for g in games if g.number is not None), key=lambda g: g.number or 0)
    best = run = 0
    last: int | None = None
    for g in by_number:
        assert g.number is not None
        follows = last is not None and g.number == last + 1
        run = (run + 1 if follows else 1) if g.won else 0
        last = g.number
        best = max(best, run)
    current = run if last is not None and last >= today - 1 else 0
    todays = next((g for g in by_number if g.number == today), None)
    return Record(
        played=len(by_number),
        wins=sum(g.won for g in by_number),
        current_streak=current,
        max_streak=best,
        distribution=_distribution(by_number, limit),
        marked=todays.tries if todays is not None and todays.won else None,
    )


def practice_record(games: Iterable[Finished], limit: int) -> Record:
    """Practice statistics: ``games`` in the order they were begun."""
    played = list(games)
    current, best = _runs([g.won for g in played])
    last = played[-1] if played else None
    return Record(
        played=len(played),
        wins=sum(g.won for g in played),
        current_streak=current,
        max_streak=best,
        distribution=_distribution(played, limit),
        marked=last.tries if last is not None and last.won else None,
    )


def record_of(games: Iterable[Finished], boards: int, mode: str, today: int) -> Record:
    """The statistics of one mode and variant: ``daily_record`` or ``practice_record``, wins
    counted up to the limit of the variant on ``boards`` boards; ``today`` is today's number."""
    limit = variant(boards).limit
    return daily_record(games, limit, today) if mode == "daily" else practice_record(games, limit)
