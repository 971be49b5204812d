"""Play many-board games (Dordle, Quordle, ...) on seeded random answer tuples and count the guesses.

A tuple's answers are drawn independently and uniformly from the solutions, so two boards
may share an answer (one guess then solves both). A game is won when every board is solved
within the variant's limit; a game over the limit is played on to its end and counted in the
average, up to ``MAX_TURNS`` guesses.

Games share their positions: each board's statistics are cached by its candidate set (after
the opener every board is in one of a few hundred states), and each joint position's guess
by the candidate sets of its boards, so a repeated position costs a dictionary look-up.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numba
import numpy as np

from raten.engine.boards import Boards, BoardSplit, board_split, parse_board_strategy, rank_boards, variant
from raten.engine.matrix import PatternMatrix, load_matrix
from raten.engine.state import State
from raten.engine.words import WordSet
from raten.errors import RatenError
from raten.play.simulate import opener_row

MAX_TURNS = 60
#: Board statistics kept (each about 0.2 MB on en); the oldest goes first.
SPLIT_CACHE = 400
#: Below this many (guess rows × candidates), one numba thread: a parallel region costs more there.
PARALLEL_WORK = 4_000_000


def sample_tuples(words: WordSet, boards: int, games: int, seed: int = 0) -> np.ndarray:
    """``games`` × ``boards`` solution columns drawn independently and uniformly with ``seed``."""
    if games < 1:
        raise RatenError(f"the number of games must be at least 1, not {games}", "games")
    variant(boards)
    rng = np.random.default_rng(seed)
    return rng.integers(0, len(words.solutions), size=(games, boards), dtype=np.int64)


class BoardsSimulator:
    """Plays one many-board strategy on one word set, caching board statistics and positions."""

    def __init__(self, matrix: PatternMatrix, boards: int, strategy: str = "entropy", opener: str | None = None):
        self.matrix = matrix
        self.words = matrix.words
        self.strategy = parse_board_strategy(strategy)
        self.start = Boards.start(matrix, boards)
        self._splits: dict[bytes, BoardSplit] = {}
        self._guesses: dict[tuple[bytes, ...], int] = {}
        self.positions = 0
        if opener is not None:
            self._guesses[self._key(self.start)] = opener_row(self.words, opener)

    @staticmethod
    def _key(boards: Boards) -> tuple[bytes, ...]:
        return tuple(boards.states[b].candidates.tobytes() for b in boards.active)

    def _split(self, state: State) -> BoardSplit:
        key = state.candidates.tobytes()
        hit = self._splits.get(key)
        if hit is None:
            small = len(self.words.allowed) * state.count < PARALLEL_WORK
            threads = numba.get_num_threads()
            if small:
                numba.set_num_threads(1)
            try:
                hit = board_split(state)
            finally:
                if small:
                    numba.set_num_threads(threads)
            if len(self._splits) >= SPLIT_CACHE:
                del self._splits[next(iter(self._splits))]
            self._splits[key] = hit
        return hit

    def guess(self, boards: Boards) -> int:
        """The strategy's guess row for a position (asked once per distinct position)."""
        key = self._key(boards)
        row = self._guesses.get(key)
        if row is None:
            word = rank_boards(boards, top=1, strategy=self.strategy, split=self._split)[0].word
            row = self.words.allowed_index[word]
            self._guesses[key] = row
            self.positions += 1
        return row

    @property
    def opener(self) -> str:
        return self.words.allowed[self.guess(self.start)]

    def play(self, answers: Sequence[int]) -> Boards:
        """The finished game against solution columns ``answers`` (or stopped at ``MAX_TURNS``)."""
        boards = self.start
        while not boards.done and boards.turns < MAX_TURNS:
            boards = boards.play(self.guess(boards), answers)
        return boards


@dataclass
class BoardsResult:
    """What one strategy scored over a set of many-board games."""

    strategy: str
    opener: str
    boards: int
    words: str
    seed: int
    answers: list[tuple[str, ...]]
    guesses: np.ndarray
    done: np.ndarray
    paths: list[list[str]]
    seconds: float
    positions: int = 0

    @property
    def variant(self) -> str:
        return variant(self.boards).name

    @property
    def limit(self) -> int:
        return variant(self.boards).limit

    @property
    def games(self) -> int:
        return len(self.answers)

    @property
    def won(self) -> int:
        """Games with every board solved within the limit."""
        return int((self.done & (self.guesses <= self.limit)).sum())

    @property
    def win_rate(self) -> float:
        return self.won / self.games if self.games else 0.0

    @property
    def average(self) -> float:
        return float(self.guesses.mean()) if self.games else 0.0

    @property
    def max(self) -> int:
        return int(self.guesses.max(initial=0))

    @property
    def distribution(self) -> dict[str, int]:
        """Games won in each number of guesses (from the fewest seen to the limit), and failed."""
        won = self.done & (self.guesses <= self.limit)
        low = int(self.guesses[won].min(initial=self.limit))
        out = {str(n): int((won & (self.guesses == n)).sum()) for n in range(low, self.limit + 1)}
        out["failed"] = self.games - self.won
        return out

    def worst(self, n: int = 10) -> list[tuple[tuple[str, ...], int, list[str]]]:
        """The ``n`` games that took most guesses: (answers, guesses, words played); ties by answers."""
        order = sorted(range(self.games), key=lambda i: (-int(self.guesses[i]), self.answers[i]))[:n]
        return [(self.answers[i], int(self.guesses[i]), self.paths[i]) for i in order]

    def to_dict(self) -> dict:
        """The JSON form `raten bench --boards N --json` prints."""
        return {
            "strategy": self.strategy,
            "opener": self.opener,
            "boards": self.boards,
            "variant": self.variant,
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


def simulate_boards(
    words: WordSet | PatternMatrix,
    boards: int,
    strategy: str = "entropy",
    *,
    games: int = 1000,
    seed: int = 0,
    opener: str | None = None,
    answers: np.ndarray | None = None,
    progress: Callable[[int], None] | None = None,
) -> BoardsResult:
    """Play ``strategy`` on ``games`` seeded random answer tuples (or the given ``answers`` rows).

    ``progress(1)`` is called after each game.
    """
    matrix = words if isinstance(words, PatternMatrix) else load_matrix(words)
    ws = matrix.words
    tuples = sample_tuples(ws, boards, games, seed) if answers is None else np.asarray(answers, dtype=np.int64)
    if tuples.ndim != 2 or tuples.shape[1] != boards:
        raise RatenError(f"answer tuples must have {boards} columns, one per board", "boards_answers")
    start = time.perf_counter()
    sim = BoardsSimulator(matrix, boards, strategy, opener)
    guesses = np.zeros(len(tuples), dtype=np.int64)
    done = np.zeros(len(tuples), dtype=bool)
    paths: list[list[str]] = []
    for i, cols in enumerate(tuples):
        end = sim.play([int(c) for c in cols])
        guesses[i] = end.turns
        done[i] = end.done
        paths.append(list(end.guesses))
        if progress is not None:
            progress(1)
    return BoardsResult(
        strategy=sim.strategy,
        opener=sim.opener,
        boards=boards,
        words=ws.name,
        seed=seed,
        answers=[tuple(ws.solutions[int(c)] for c in row) for row in tuples],
        guesses=guesses,
        done=done,
        paths=paths,
        seconds=time.perf_counter() - start,
        positions=sim.positions,
    )


class BoardsSession:
    """An interactive many-board game (`raten solve --boards N`): suggest, enter, undo."""

    def __init__(self, words: WordSet, boards: int, strategy: str = "entropy") -> None:
        self.strategy = parse_board_strategy(strategy)
        self._stack = [Boards.start(words, boards)]

    @property
    def boards(self) -> Boards:
        return self._stack[-1]

    def suggestions(self, top: int = 5):
        """The ranked next guesses."""
        return self.boards.hints(top=top, strategy=self.strategy)

    def enter(self, guess: str, patterns: Sequence[str | int | None]) -> Boards:
        """Play ``guess`` with one pattern per board (``-`` for a solved board)."""
        self._stack.append(self.boards.after(guess, patterns))
        return self.boards

    def undo(self) -> None:
        """Take back the last guess (nothing happens at the start)."""
        if len(self._stack) > 1:
            self._stack.pop()

    @property
    def done(self) -> bool:
        return self.boards.done
