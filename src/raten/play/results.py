"""What a strategy scored over a set of games, on one board or many: `raten bench`'s result.

A game is won when every board is solved within the variant's limit (Wordle 6, Dordle 7,
Quordle 9 ...); a game over the limit is played on to its end and counted in the total, the
average and the maximum.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from raten.engine.boards import Variant, variant
from raten.engine.words import WordSet

WIN_WITHIN = variant(1).limit

#: Why a game on an answer outside the solver's solutions was lost, by note key.
NOTES = {
    "not_allowed": "not an allowed word of the list: the solver can never guess it",
    "not_solution": "allowed but not a solution of the list, and not found going on with the allowed words",
}


@dataclass
class BenchResult:
    """What one strategy scored over a set of games: per game its answers (one per board), the
    guesses it took, whether every board was solved and the words played."""

    strategy: str
    opener: str
    hard: bool
    words: str
    answers: list[tuple[str, ...]]
    guesses: np.ndarray
    solved: np.ndarray
    paths: list[list[str]]
    seconds: float
    positions: int = 0
    boards: int = 1
    #: The seed the games were drawn with (many boards: the answer tuples; one board: ``--sample``).
    seed: int = 0
    #: With ``play_answers``: why a game could not be won, by answer (``not_allowed`` or
    #: ``not_solution``); None for games played on the list's own solutions.
    notes: dict[str, str] | None = None
    #: The prior weight of each game's answer when the list has a prior (one board; the averages
    #: are then weighted: the expected number of guesses when the answer is drawn from the prior).
    weights: np.ndarray | None = None
    prior: str = "uniform"

    @property
    def variant(self) -> Variant:
        """The variant the games were played by."""
        return variant(self.boards)

    @property
    def limit(self) -> int:
        """Guesses that win: the variant's limit."""
        return self.variant.limit

    @property
    def games(self) -> int:
        """Games played."""
        return len(self.answers)

    @property
    def total(self) -> int:
        """Guesses over all games."""
        return int(self.guesses.sum())

    @property
    def average(self) -> float:
        """Guesses per game: the plain mean, or with ``weights`` the mean weighted by the prior."""
        if not self.games:
            return 0.0
        if self.weights is not None:
            return float(np.dot(self.weights, self.guesses) / self.weights.sum())
        return float(self.guesses.mean())

    @property
    def average_games(self) -> float:
        """The plain mean over the games played, whatever the prior."""
        return float(self.guesses.mean()) if self.games else 0.0

    @property
    def average_won(self) -> float:
        """The average over the games that solved every board (all of them, except with ``play_answers``)."""
        won = self.guesses[self.solved]
        return float(won.mean()) if len(won) else 0.0

    @property
    def max(self) -> int:
        """The most guesses one game took."""
        return int(self.guesses.max(initial=0))

    @property
    def failed(self) -> int:
        """Games not won within the limit."""
        return int(((self.guesses > self.limit) | ~self.solved).sum())

    @property
    def won(self) -> int:
        """Games with every board solved within the limit."""
        return self.games - self.failed

    @property
    def win_rate(self) -> float:
        """Share of games won (0 to 1)."""
        return self.won / self.games if self.games else 0.0

    @property
    def distribution(self) -> dict[str, int]:
        """Games won in each number of guesses up to the limit, and failed; sums to the number of
        games. One board counts from 1 (as Wordle's statistics do), many from the fewest seen."""
        won = self.solved & (self.guesses <= self.limit)
        low = 1 if self.boards == 1 else int(self.guesses[won].min(initial=self.limit))
        out = {str(n): int((won & (self.guesses == n)).sum()) for n in range(low, self.limit + 1)}
        out["failed"] = self.failed
        return out

    def worst(self, n: int = 10) -> list[tuple[tuple[str, ...], int, list[str]]]:
        """The ``n`` games that took most guesses: (answers, guesses, the words played); ties by answers."""
        order = sorted(range(self.games), key=lambda i: (-int(self.guesses[i]), self.answers[i]))[:n]
        return [(self.answers[i], int(self.guesses[i]), self.paths[i]) for i in order]

    def to_dict(self) -> dict:
        """The JSON form `raten bench --json` prints (with ``--boards N``: the variant, its limit and the win rate)."""
        if self.boards > 1:
            return {
                "strategy": self.strategy,
                "opener": self.opener,
                "boards": self.boards,
                "variant": self.variant.name,
                "limit": self.limit,
                "words": self.words,
                "seed": self.seed,
                "games": self.games,
                "won": self.won,
                "win_rate": round(self.win_rate, 6),
                "average": round(self.average, 4),
                "max": self.max,
                "distribution": self.distribution,
                "seconds": round(self.seconds, 3),
                "positions": self.positions,
            }
        return (
            {
                "strategy": self.strategy,
                "opener": self.opener,
                "hard": self.hard,
                "games": self.games,
                "total": self.total,
                "average": round(self.average, 4),
                "max": self.max,
                "failed": self.failed,
                "distribution": self.distribution,
                "seconds": round(self.seconds, 3),
            }
            | ({} if self.notes is None else {"average_won": round(self.average_won, 4), "notes": self.notes})
            | ({} if self.weights is None else {"prior": self.prior, "average_games": round(self.average_games, 4)})
        )


@dataclass(frozen=True)
class Coverage:
    """How a list of answers sits in a word set: solutions, allowed only, or not allowed."""

    answers: int
    solutions: int
    allowed_only: int
    not_allowed: tuple[str, ...]

    @property
    def allowed(self) -> int:
        return self.solutions + self.allowed_only

    def to_dict(self) -> dict:
        return {
            "answers": self.answers,
            "solutions": self.solutions,
            "allowed": self.allowed,
            "allowed_only": self.allowed_only,
            "not_allowed": list(self.not_allowed),
        }


def coverage(words: WordSet, answers: Sequence[str]) -> Coverage:
    """Which of ``answers`` (normalised words) are solutions, allowed words, or neither, of ``words``."""
    sols, allowed = words.solution_index, words.allowed_index
    unique = sorted(set(answers))
    return Coverage(
        answers=len(unique),
        solutions=sum(a in sols for a in unique),
        allowed_only=sum(a in allowed and a not in sols for a in unique),
        not_allowed=tuple(a for a in unique if a not in allowed),
    )
