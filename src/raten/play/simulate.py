"""Play a strategy against every solution (or a sample) and count the guesses.

Every game starts from the same state and the strategies are deterministic, so the games
share their beginnings: the simulator grows one decision tree as it plays, keyed by the
feedback seen so far, and asks the strategy for a guess only once per distinct history.
A game with the same history as an earlier one costs a few dictionary look-ups.

The guesses come from the strategy's ordinary ``next_guess(State)``, the very call behind
`raten hint`, so the benchmark plays what the hints say. Only the candidate filtering
is done here, on integer indices.

Counting: Wordle allows ``WIN_WITHIN`` (6) guesses. A game not solved by then counts as
failed but is played on to its end, so totals, averages and the maximum include every
guess; a game still unsolved after ``MAX_TURNS`` guesses (only a broken strategy or tree
can do that: each ranked guess removes at least one candidate) stops there, failed, with
``MAX_TURNS`` guesses counted.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numba
import numpy as np

from raten.engine.feedback import ALL_GREEN, pattern
from raten.engine.matrix import PatternMatrix, load_matrix
from raten.engine.state import State
from raten.engine.words import WordSet, check_word
from raten.errors import RatenError
from raten.play.strategies import Strategy, get_strategy

WIN_WITHIN = 6
MAX_TURNS = 30
#: Positions with fewer (guess rows × candidates) than this are ranked on one thread: most are
#: small, and on a busy machine a parallel region per small call costs more than it saves.
PARALLEL_WORK = 4_000_000


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
            threads = numba.get_num_threads()
            small = len(self.words.allowed) * node.state.count < PARALLEL_WORK
            if small:
                numba.set_num_threads(1)
            try:
                word = self.strategy.next_guess(node.state)
            finally:
                if small:
                    numba.set_num_threads(threads)
            row = self.words.allowed_index.get(word)
            if row is None:
                raise RatenError(f"strategy {self.strategy.name} guessed {word!r}, which is not an allowed word")
            node.guess = row
            self.positions += 1
        return node.guess

    def play(self, answer: int) -> list[int]:
        """The guess rows played against solution column ``answer``, the winning one last."""
        data = self.matrix.data
        node = self.root
        played: list[int] = []
        while len(played) < MAX_TURNS:
            row = self._guess(node)
            played.append(row)
            code = int(data[row, answer])
            if code == ALL_GREEN:
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
        """Play against any five-letter ``answer``, a solution of the list or not: the guess
        rows played and whether the game was won. When no solution fits the feedback the solver
        goes on with the allowed words that fit (as ``State.after`` does), so an allowed answer
        is found; one that is not even an allowed word is lost once no allowed word fits."""
        col = self.words.solution_index.get(answer)
        if col is not None:
            played = self.play(col)
            return played, bool(self.matrix.data[played[-1], col] == ALL_GREEN)
        node = self.root
        played = []
        while len(played) < MAX_TURNS and node.state.count > 0:
            try:
                row = self._guess(node)
            except RatenError:
                if node.state.fallback is None:
                    raise
                break  # a strategy that knows only the solutions (a decision tree) cannot go on
            played.append(row)
            code = pattern(self.words.allowed[row], answer)
            if code == ALL_GREEN:
                return played, True
            node = self._child(node, row, code)
        return played, False


@dataclass
class BenchResult:
    """What one strategy scored over a set of games."""

    strategy: str
    opener: str
    hard: bool
    words: str
    answers: list[str]
    guesses: np.ndarray
    solved: np.ndarray
    paths: list[list[str]]
    seconds: float
    positions: int = 0
    #: With ``play_answers``: why a game could not be won, by answer (``not_allowed`` or
    #: ``not_solution``); None for games played on the list's own solutions.
    notes: dict[str, str] | None = None
    #: The prior weight of each game's answer when the list has a prior (the averages are then
    #: weighted: the expected number of guesses when the answer is drawn from the prior).
    weights: np.ndarray | None = None
    prior: str = "uniform"

    @property
    def games(self) -> int:
        return len(self.answers)

    @property
    def total(self) -> int:
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
        """The average over the games won (all of them, except with ``play_answers``)."""
        won = self.guesses[self.solved]
        return float(won.mean()) if len(won) else 0.0

    @property
    def max(self) -> int:
        return int(self.guesses.max(initial=0))

    @property
    def failed(self) -> int:
        """Games not solved within six guesses."""
        return int(((self.guesses > WIN_WITHIN) | ~self.solved).sum())

    @property
    def distribution(self) -> dict[str, int]:
        """Games solved in 1, 2, ... 6 guesses, and failed; sums to the number of games."""
        out = {str(n): int(((self.guesses == n) & self.solved).sum()) for n in range(1, WIN_WITHIN + 1)}
        out["failed"] = self.failed
        return out

    def worst(self, n: int = 10) -> list[tuple[str, int, list[str]]]:
        """The ``n`` games that took most guesses: (answer, guesses, the words played); ties A–Z."""
        order = sorted(range(self.games), key=lambda i: (-int(self.guesses[i]), self.answers[i]))[:n]
        return [(self.answers[i], int(self.guesses[i]), self.paths[i]) for i in order]

    def to_dict(self) -> dict:
        """The JSON form `raten bench --json` prints."""
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


def opener_row(words: WordSet, opener: str) -> int:
    """The row of a fixed first guess; it must be an allowed word of the list."""
    word = check_word(opener, "opener")
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


def simulate(
    words: WordSet | PatternMatrix,
    strategy: str | Strategy = "entropy",
    *,
    hard: bool = False,
    opener: str | None = None,
    answers: Sequence[int] | None = None,
    progress: Callable[[int], None] | None = None,
) -> BenchResult:
    """Play ``strategy`` against each solution column in ``answers`` (default: all).

    ``progress(n)`` is called after each game with the number of games just finished (1).
    Under a prior the average is weighted by it (``BenchResult.average``).
    """
    matrix = words if isinstance(words, PatternMatrix) else load_matrix(words)
    ws = matrix.words
    strat = get_strategy(strategy, ws) if isinstance(strategy, str) else strategy
    cols = list(range(len(ws.solutions))) if answers is None else list(answers)
    start = time.perf_counter()
    sim = Simulator(matrix, strat, hard=hard, opener=opener)
    guesses = np.zeros(len(cols), dtype=np.int64)
    solved = np.zeros(len(cols), dtype=bool)
    paths: list[list[str]] = []
    for i, col in enumerate(cols):
        played = sim.play(col)
        guesses[i] = len(played)
        solved[i] = matrix.data[played[-1], col] == ALL_GREEN
        paths.append([ws.allowed[r] for r in played])
        if progress is not None:
            progress(1)
    return BenchResult(
        strategy=strat.name,
        opener=sim.opener,
        hard=hard,
        words=ws.name,
        answers=[ws.solutions[c] for c in cols],
        guesses=guesses,
        solved=solved,
        paths=paths,
        seconds=time.perf_counter() - start,
        positions=sim.positions,
        weights=None if ws.weights is None else ws.weights[cols],
        prior=ws.prior,
    )


#: Why a game on an answer outside the solver's solutions was lost, by note key.
NOTES = {
    "not_allowed": "not an allowed word of the list: the solver can never guess it",
    "not_solution": "allowed but not a solution of the list, and not found going on with the allowed words",
}


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
    targets = [check_word(a, "answer") for a in answers]
    start = time.perf_counter()
    sim = Simulator(matrix, strat, hard=hard, opener=opener)
    guesses = np.zeros(len(targets), dtype=np.int64)
    solved = np.zeros(len(targets), dtype=bool)
    paths: list[list[str]] = []
    notes: dict[str, str] = {}
    for i, answer in enumerate(targets):
        played, won = sim.play_word(answer)
        guesses[i] = len(played)
        solved[i] = won
        paths.append([ws.allowed[r] for r in played])
        if not won:
            notes[answer] = "not_allowed" if answer not in ws.allowed_index else "not_solution"
        if progress is not None:
            progress(1)
    return BenchResult(
        strategy=strat.name,
        opener=sim.opener,
        hard=hard,
        words=ws.name,
        answers=targets,
        guesses=guesses,
        solved=solved,
        paths=paths,
        seconds=time.perf_counter() - start,
        positions=sim.positions,
        notes=notes,
    )
