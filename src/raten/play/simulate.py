"""Play a strategy against every solution (or a sample), or against seeded answer tuples on N
boards (Dordle, Quordle, ...), and count the guesses: one loop for any number of boards.

Games share their positions, so a repeated one costs a few dictionary look-ups. On one board
the simulator grows one decision tree as it plays, keyed by the feedback seen so far, and asks
the strategy for a guess only once per distinct history; the guesses come from the strategy's
ordinary ``next_guess(State)``, the very call behind `raten hint`, so the benchmark plays what
the hints say. On many boards each board's statistics are cached by its candidate set (after the
opener every board is in one of a few hundred states), and each joint position's guess by the
candidate sets of its boards; the guesses are ``raten.engine.boards.rank_boards``'s, the ranking
behind `raten hint --boards N`. Only the candidate filtering is done here, on integer indices.

A tuple's answers are drawn independently and uniformly from the solutions, so two boards may
share an answer (one guess then solves both). Counting is ``raten.play.results``': a game over
the limit is played on to its end; a game still unsolved after ``MAX_TURNS`` guesses on one
board (only a broken strategy or tree can do that: each ranked guess removes at least one
candidate), ``BOARDS_MAX_TURNS`` on many, stops there, failed, with that many guesses counted.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TypeVar

import numba
import numpy as np

from raten.engine.boards import Boards, BoardSplit, board_split, parse_board_strategy, rank_boards, variant
from raten.engine.feedback import pattern
from raten.engine.matrix import PatternMatrix, load_matrix
from raten.engine.state import State
from raten.engine.words import WordSet
from raten.errors import RatenError
from raten.play.game import game_variant
from raten.play.results import BenchResult
from raten.play.strategies import Strategy, get_strategy

MAX_TURNS = 30
BOARDS_MAX_TURNS = 60
#: Positions with fewer (guess rows × candidates) than this are ranked on one thread: most are
#: small, and on a busy machine a parallel region per small call costs more than it saves.
PARALLEL_WORK = 4_000_000
#: Board statistics kept on many boards (each about 0.2 MB on en); the oldest goes first.
SPLIT_CACHE = 400

G = TypeVar("G")


@contextmanager
def _threads_for(words: WordSet, state: State) -> Iterator[None]:
    """One numba thread while ranking a small position (see ``PARALLEL_WORK``)."""
    if len(words.allowed) * state.count >= PARALLEL_WORK:
        yield
        return
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        yield
    finally:
        numba.set_num_threads(threads)


@dataclass
class _Node:
    """A position reached by some history: its state, its guess (once asked) and its children by feedback."""

    state: State
    guess: int = -1
    children: dict[int, _Node] = field(default_factory=dict)


class Simulator:
    """Plays one strategy (optionally with a fixed opener) on one word set, caching every position."""

    def __init__(
        self,
        matrix: PatternMatrix,
        strategy: Strategy,
        *,
        hard: bool = False,
        opener: str | None = None,
    ) -> None:
        self.matrix = matrix
        self.words: WordSet = matrix.words
        self.strategy = strategy
        self.hard = hard
        self.root = _Node(State(matrix, hard))
        self.positions = 0
        if opener is not None:
            self.root.guess = opener_row(self.words, opener)

    @property
    def opener(self) -> str:
        """The first guess (asks the strategy if nobody has yet)."""
        return self.words.allowed[self._guess(self.root)]

    def _guess(self, node: _Node) -> int:
        if node.guess < 0:
            with _threads_for(self.words, node.state):
                word = self.strategy.next_guess(node.state)
            row = self.words.allowed_index.get(word)
            if row is None:
                raise RatenError(f"strategy {self.strategy.name} guessed {word!r}, which is not an allowed word")
            node.guess = row
            self.positions += 1
        return node.guess

    def game(self, answers: Sequence[int]) -> tuple[list[str], bool]:
        """The words played against the one-board tuple ``answers``, and whether it was solved."""
        played, won = self._solution_game(answers[0])
        return [self.words.allowed[r] for r in played], won

    def _solution_game(self, col: int) -> tuple[list[int], bool]:
        played = self.play(col)
        return played, bool(self.matrix.data[played[-1], col] == self.words.all_green)

    def play(self, answer: int) -> list[int]:
        """The guess rows played against solution column ``answer``, the winning one last."""
        data = self.matrix.data
        node = self.root
        played: list[int] = []
        while len(played) < MAX_TURNS:
            row = self._guess(node)
            played.append(row)
            code = int(data[row, answer])
            if code == self.words.all_green:
                return played
            node = self._child(node, row, code)
        return played

    def _child(self, node: _Node, row: int, code: int) -> _Node:
        child = node.children.get(code)
        if child is None:
            state = node.state
            cols = state.candidates[self.matrix.data[row, state.candidates] == code]
            history = (*state.history, (self.words.allowed[row], code))
            if len(cols) or state.count == 0:
                child = _Node(State(self.matrix, self.hard, history=history, candidates=cols))
            else:  # no solution fits (an answer outside them): go on as the solver does, with the allowed words
                try:
                    child = _Node(state.after(self.words.allowed[row], code))
                except RatenError:  # not even an allowed word fits: the game is lost
                    child = _Node(State(self.matrix, self.hard, history=history, candidates=cols[:0]))
            node.children[code] = child
        return child

    def play_word(self, answer: str) -> tuple[list[int], bool]:
        """Play against any ``answer`` of the list's length, a solution of the list or not: the guess
        rows played and whether the game was won. When no solution fits the feedback the solver
        goes on with the allowed words that fit (as ``State.after`` does), so an allowed answer
        is found; one that is not even an allowed word is lost once no allowed word fits."""
        col = self.words.solution_index.get(answer)
        if col is not None:
            return self._solution_game(col)
        node = self.root
        played: list[int] = []
        while len(played) < MAX_TURNS and node.state.count > 0:
            try:
                row = self._guess(node)
            except RatenError:
                if node.state.fallback is None:
                    raise
                break  # a strategy that knows only the solutions (a decision tree) cannot go on
            played.append(row)
            code = pattern(self.words.allowed[row], answer)
            if code == self.words.all_green:
                return played, True
            node = self._child(node, row, code)
        return played, False


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
            with _threads_for(self.words, state):
                hit = board_split(state)
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
        """The first guess (asks the strategy if nobody has yet)."""
        return self.words.allowed[self.guess(self.start)]

    def play(self, answers: Sequence[int]) -> Boards:
        """The finished game against solution columns ``answers`` (or stopped at ``BOARDS_MAX_TURNS``)."""
        boards = self.start
        while not boards.done and boards.turns < BOARDS_MAX_TURNS:
            boards = boards.play(self.guess(boards), answers)
        return boards

    def game(self, answers: Sequence[int]) -> tuple[list[str], bool]:
        """The words played against ``answers``, and whether every board was solved."""
        end = self.play(answers)
        return list(end.guesses), end.done


def opener_row(words: WordSet, opener: str) -> int:
    """The row of a fixed first guess; it must be an allowed word of the list."""
    word = words.check(opener, "opener")
    row = words.allowed_index.get(word)
    if row is None:
        raise RatenError(f"opener {word.upper()} is not an allowed word of the {words.name} list")
    return row


def sample_answers(words: WordSet, sample: int | None = None, seed: int = 0) -> list[int]:
    """Solution columns to play: all of them, or ``sample`` drawn at random with ``seed`` (sorted)."""
    m = len(words.solutions)
    if sample is None:
        return list(range(m))
    if not 1 <= sample <= m:
        raise RatenError(f"sample size must be between 1 and {m} (the number of solutions), not {sample}")
    return sorted(random.Random(seed).sample(range(m), sample))


def sample_tuples(words: WordSet, boards: int, games: int, seed: int = 0) -> np.ndarray:
    """``games`` × ``boards`` solution columns drawn independently and uniformly with ``seed``."""
    if games < 1:
        raise RatenError(f"the number of games must be at least 1, not {games}", "games")
    variant(boards)
    rng = np.random.default_rng(seed)
    return rng.integers(0, len(words.solutions), size=(games, boards), dtype=np.int64)


def _run(
    games: Sequence[G], play: Callable[[G], tuple[list[str], bool]], progress: Callable[[int], None] | None
) -> tuple[np.ndarray, np.ndarray, list[list[str]]]:
    """The loop of every benchmark: each game played, its guesses, whether it was solved and
    its words; ``progress(1)`` after each game."""
    guesses = np.zeros(len(games), dtype=np.int64)
    solved = np.zeros(len(games), dtype=bool)
    paths: list[list[str]] = []
    for i, one in enumerate(games):
        played, won = play(one)
        guesses[i] = len(played)
        solved[i] = won
        paths.append(played)
        if progress is not None:
            progress(1)
    return guesses, solved, paths


def simulate(
    words: WordSet | PatternMatrix,
    strategy: str | Strategy = "entropy",
    *,
    boards: int = 1,
    hard: bool = False,
    opener: str | None = None,
    answers: Iterable[int] | Iterable[Sequence[int]] | np.ndarray | None = None,
    games: int = 1000,
    seed: int = 0,
    progress: Callable[[int], None] | None = None,
) -> BenchResult:
    """Play ``strategy`` on ``boards`` boards against each tuple of solution columns in
    ``answers`` (one board: columns, default all of them; many: rows of one column per board,
    default ``games`` tuples drawn with ``seed``).

    One board plays a ``raten.play.strategies`` strategy (hard mode too); many boards one of
    ``raten.engine.boards.BOARD_STRATEGIES``. ``progress(n)`` is called after each game with the
    number of games just finished (1). Under a prior the one-board average is weighted by it
    (``BenchResult.average``); many-board tuples are drawn uniformly, each game counting once.
    """
    matrix = words if isinstance(words, PatternMatrix) else load_matrix(words)
    ws = matrix.words
    if answers is None:
        tuples = np.arange(len(ws.solutions)).reshape(-1, 1) if boards == 1 else sample_tuples(ws, boards, games, seed)
    else:
        tuples = np.asarray(list(answers) if not isinstance(answers, np.ndarray) else answers, dtype=np.int64)
        tuples = tuples.reshape(-1, 1) if boards == 1 and tuples.ndim == 1 else tuples
    if tuples.ndim != 2 or tuples.shape[1] != boards:
        raise RatenError(f"answer tuples must have {boards} columns, one per board", "boards_answers")
    game_variant(boards, hard)
    start = time.perf_counter()
    sim: Simulator | BoardsSimulator
    if boards == 1:
        strat = get_strategy(strategy, ws) if isinstance(strategy, str) else strategy
        sim = Simulator(matrix, strat, hard=hard, opener=opener)
        name = strat.name
    else:
        if not isinstance(strategy, str):
            raise RatenError("many boards play a strategy by name (see BOARD_STRATEGIES)", "boards_strategy")
        sim = BoardsSimulator(matrix, boards, strategy, opener)
        name = sim.strategy
    rows = [tuple(int(c) for c in row) for row in tuples]
    guesses, solved, paths = _run(rows, sim.game, progress)
    return BenchResult(
        strategy=name,
        opener=sim.opener,
        hard=hard,
        words=ws.name,
        answers=[tuple(ws.solutions[c] for c in row) for row in rows],
        guesses=guesses,
        solved=solved,
        paths=paths,
        seconds=time.perf_counter() - start,
        positions=sim.positions,
        boards=boards,
        seed=seed,
        weights=None if ws.weights is None or boards > 1 else ws.weights[tuples[:, 0]],
        prior=ws.prior,
    )


def _lost_why(words: WordSet, answer: str) -> str:
    """The note of a game lost on an answer outside the solutions (``raten.play.results.NOTES``)."""
    return "not_allowed" if answer not in words.allowed_index else "not_solution"


def play_answers(
    words: WordSet | PatternMatrix,
    answers: Sequence[str],
    strategy: str | Strategy = "entropy",
    *,
    hard: bool = False,
    opener: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> BenchResult:
    """Play ``strategy`` with the list's own solutions and allowed words against ``answers``,
    which may lie outside them (another game's answer list). A game the solver cannot win is
    failed, with its reason in ``notes``: its answer is not an allowed word (the solver plays
    on until no solution fits, never guessing it), or it is allowed but not a solution and no
    probing guess hit it."""
    matrix = words if isinstance(words, PatternMatrix) else load_matrix(words)
    ws = matrix.words
    strat = get_strategy(strategy, ws) if isinstance(strategy, str) else strategy
    targets = [ws.check(a, "answer") for a in answers]
    start = time.perf_counter()
    sim = Simulator(matrix, strat, hard=hard, opener=opener)

    def play(answer: str) -> tuple[list[str], bool]:
        played, won = sim.play_word(answer)
        return [ws.allowed[r] for r in played], won

    guesses, solved, paths = _run(targets, play, progress)
    return BenchResult(
        strategy=strat.name,
        opener=sim.opener,
        hard=hard,
        words=ws.name,
        answers=[(a,) for a in targets],
        guesses=guesses,
        solved=solved,
        paths=paths,
        seconds=time.perf_counter() - start,
        positions=sim.positions,
        notes={a: _lost_why(ws, a) for a, won in zip(targets, solved) if not won},
    )
