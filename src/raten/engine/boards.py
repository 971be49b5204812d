"""Many boards at once (Dordle, Quordle, Octordle, Sedecordle): shared guesses, one ``State`` per board.

``Boards`` is an immutable value like ``State``: every guess is played on every board still in
the game, each board filters its own candidates, and a board leaves the game once a guess
(made for it or for another board) shows all green on it.

Ranking reuses the single-board partition kernel once per board still in the game. The
answers of the boards are independent, so the joint feedback of a guess (one pattern per
board) is a product of the boards' partitions and its entropy is exactly the sum of the
boards' entropies (``tests/engine/test_boards.py`` checks this against the joint partition built by
brute force): the joint-entropy strategy needs no kernel of its own.

Hard mode is not offered: none of the four variants has it, and on several boards it can
leave no legal guess at all (two boards with different greens in one place).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from raten.engine.feedback import format_pattern, parse_pattern
from raten.engine.matrix import PatternMatrix, load_matrix
from raten.engine.rank import split_stats
from raten.engine.state import State
from raten.engine.words import WordSet
from raten.errors import RatenError

#: Decimal places scores are compared at, so equal splits tie regardless of summation order.
_TIE_DECIMALS = 9


@dataclass(frozen=True)
class Variant:
    """A multi-board game: how many boards and how many guesses win it."""

    name: str
    boards: int
    limit: int


#: The published variants; any other board count plays with ``boards + 5`` guesses (their common rule).
VARIANTS: dict[int, Variant] = {
    1: Variant("Wordle", 1, 6),
    2: Variant("Dordle", 2, 7),
    4: Variant("Quordle", 4, 9),
    8: Variant("Octordle", 8, 13),
    16: Variant("Sedecordle", 16, 21),
}
MAX_BOARDS = 64


def variant(boards: int) -> Variant:
    """The variant played on ``boards`` boards (named when it is a published one)."""
    if not 1 <= boards <= MAX_BOARDS:
        raise RatenError(f"the number of boards must be between 1 and {MAX_BOARDS}, not {boards}", "boards")
    return VARIANTS.get(boards, Variant(f"{boards} boards", boards, boards + 5))


#: What ``rank_boards`` can sort by, with a line of help each.
BOARD_STRATEGIES = {
    "entropy": "most information: entropy of the joint feedback (the sum of the boards' entropies)",
    "finish": "play a board's answer as soon as it is the only candidate left, else entropy",
    "expected": "smallest expected number of candidates left, summed over the boards",
    "finish-expected": "play a board's determined answer first, else expected",
}


class Boards:
    """Where a many-board game stands: the shared guesses and one ``State`` per board."""

    def __init__(self, matrix: PatternMatrix, states: tuple[State, ...], guesses: tuple[str, ...] = ()) -> None:
        self.matrix = matrix
        self.words: WordSet = matrix.words
        self.states = states
        self.guesses = guesses
        self.variant = variant(len(states))

    @classmethod
    def start(cls, words: WordSet | PatternMatrix, boards: int, hard: bool = False) -> Boards:
        """A new game on ``boards`` boards."""
        v = variant(boards)
        if hard and boards > 1:
            raise RatenError(
                f"{v.name} has no hard mode (on several boards it can leave no legal guess)", "boards_hard"
            )
        matrix = words if isinstance(words, PatternMatrix) else load_matrix(words)
        return cls(matrix, tuple(State(matrix, hard) for _ in range(boards)))

    # --- moving on -----------------------------------------------------------------

    def after(self, guess: str, patterns: Sequence[str | int | None]) -> Boards:
        """The game after ``guess`` showed ``patterns``, one per board (None, ``-`` or all green
        for a board solved before)."""
        word = self.words.check(guess, "guess")
        if len(patterns) != len(self.states):
            raise RatenError(
                f"{word.upper()} needs {len(self.states)} patterns, one per board, not {len(patterns)}",
                "boards_patterns",
                guess=word,
                boards=len(self.states),
                given=len(patterns),
            )
        states = []
        for b, (state, given) in enumerate(zip(self.states, patterns), start=1):
            code = _code(given, self.words.length)
            if state.solved:
                if code not in (None, self.words.all_green):
                    raise RatenError(
                        f"board {b} is solved already: give it - (not {given!r}) after {word.upper()}",
                        "board_solved",
                        board=b,
                    )
                states.append(state)
                continue
            if code is None:
                raise RatenError(f"board {b} is not solved: {word.upper()} needs its pattern", "board_pattern", board=b)
            try:
                states.append(state.after(word, code))
            except RatenError as e:
                raise RatenError(f"board {b}: {e}", "board_no_fit", board=b) from None
        return Boards(self.matrix, tuple(states), (*self.guesses, word))

    def play(self, row: int, answers: Sequence[int]) -> Boards:
        """The game after allowed guess ``row`` against solution columns ``answers`` (the
        simulator's fast path: no parsing, no checks)."""
        data = self.matrix.data
        word = self.words.allowed[row]
        states = []
        for state, answer in zip(self.states, answers):
            if state.solved:
                states.append(state)
                continue
            code = int(data[row, answer])
            cols = state.candidates[data[row, state.candidates] == code]
            states.append(State(self.matrix, history=(*state.history, (word, code)), candidates=cols))
        return Boards(self.matrix, tuple(states), (*self.guesses, word))

    # --- what is left --------------------------------------------------------------

    @property
    def solved(self) -> tuple[bool, ...]:
        """Per board: has a guess shown all green on it."""
        return tuple(s.solved for s in self.states)

    @property
    def active(self) -> tuple[int, ...]:
        """The boards still in the game (0-based)."""
        return tuple(b for b, s in enumerate(self.states) if not s.solved)

    @property
    def done(self) -> bool:
        return not self.active

    @property
    def turns(self) -> int:
        return len(self.guesses)

    @property
    def won(self) -> bool:
        """Every board solved within the variant's limit."""
        return self.done and self.turns <= self.variant.limit

    def solved_at(self, board: int) -> int | None:
        """The guess (1-based) that solved ``board``, or None."""
        state = self.states[board]
        return len(state.history) if state.solved else None

    def determined(self) -> tuple[int, ...]:
        """Boards in the game whose answer is known: one candidate left."""
        return tuple(b for b in self.active if self.states[b].count == 1)

    def guess_rows(self) -> np.ndarray:
        """Rows worth ranking: every allowed word; once every board in the game has at most two
        candidates, only those candidates (as on one board)."""
        active = [self.states[b] for b in self.active]
        if active and all(s.count <= 2 for s in active):
            return np.unique(np.concatenate([s.candidate_rows() for s in active]))
        return np.arange(len(self.words.allowed), dtype=np.int64)

    def hints(self, top: int = 5, strategy: str = "entropy") -> list[BoardsHint]:
        """The best next guesses, best first (see ``rank_boards``)."""
        return rank_boards(self, top=top, strategy=strategy)

    def __repr__(self) -> str:
        moves = " ".join(
            g
            + "="
            + ",".join(
                "-" if s.history[t:] == () else format_pattern(s.history[t][1], length=self.words.length)
                for s in self.states
            )
            for t, g in enumerate(self.guesses)
        )
        left = "/".join("✓" if s.solved else str(s.count) for s in self.states)
        return f"Boards({self.words.name}, {moves or 'start'}, {left})"


def _code(given: str | int | None, length: int) -> int | None:
    """A board's pattern as a code of words of ``length`` letters; None for a board marked solved
    (``-`` or nothing)."""
    if given is None:
        return None
    if isinstance(given, str):
        text = given.strip()
        return None if text in ("", "-") else parse_pattern(text, length)
    return int(given)


# --- ranking ---------------------------------------------------------------------------


@dataclass(frozen=True)
class BoardSplit:
    """How every allowed guess splits one board's candidates (arrays over all allowed rows)."""

    bits: np.ndarray
    expected: np.ndarray
    candidate: np.ndarray  # float: the chance that the row is this board's answer (0 if it cannot be)
    count: int


def board_split(state: State) -> BoardSplit:
    """Entropy and expected remaining of every allowed guess on one board (one kernel pass), and
    each row's chance of being its answer: under the board's prior weights when it has them
    (the frequency prior), the same statistics as one board's hints."""
    table, cols = state.answer_table()
    rows = np.arange(table.shape[0], dtype=np.int64)
    weights = state.answer_weights()
    split = split_stats(table, rows, cols, weights)
    chance = np.zeros(table.shape[0], dtype=np.float64)
    if weights is None:
        chance[state.candidate_rows()] = 1.0 / max(state.count, 1)
    else:
        w = np.asarray(weights, dtype=np.float64)
        chance[state.candidate_rows()] = w / w.sum()
    return BoardSplit(split.bits, split.expected_remaining, chance, state.count)


@dataclass(frozen=True)
class BoardsHint:
    """A suggested guess: its summed bits and expected remaining, and the boards it could solve."""

    word: str
    bits: float
    expected_remaining: float
    boards: tuple[int, ...]  # 1-based boards where the guess could be the answer
    chance: float  # expected number of boards it solves

    def to_dict(self) -> dict:
        return {
            "word": self.word,
            "bits": self.bits,
            "expected_remaining": self.expected_remaining,
            "answer_on": list(self.boards),
            "chance": self.chance,
        }


def parse_board_strategy(name: str) -> str:
    """The strategy name, checked against ``BOARD_STRATEGIES``."""
    base = name.strip().lower()
    if base not in BOARD_STRATEGIES:
        raise RatenError(
            f"unknown strategy {name!r} for many boards: choose one of {', '.join(BOARD_STRATEGIES)}",
            "boards_strategy",
        )
    return base


def rank_boards(
    boards: Boards,
    top: int = 5,
    strategy: str = "entropy",
    *,
    split: Callable[[State], BoardSplit] = board_split,
) -> list[BoardsHint]:
    """The best next guesses over every board still in the game, best first.

    ``entropy`` sums the boards' entropies, ``expected`` sums their expected remaining
    candidates; the ``finish`` forms first play a board's answer once it is the only candidate
    (a guess the game needs anyway, so it costs nothing to play it now). Ties go to the guess
    expected to solve most boards, then A–Z. ``split`` is where the per-board statistics come
    from (the simulator passes a cached one).
    """
    base = parse_board_strategy(strategy)
    if top < 1:
        raise RatenError("top must be at least 1")
    active = boards.active
    if not active:
        raise RatenError("every board is solved: nothing left to guess", "boards_done")
    splits = [split(boards.states[b]) for b in active]
    rows = boards.guess_rows()
    determined = boards.determined() if base.startswith("finish") else ()
    if determined:
        rows = np.unique(np.concatenate([boards.states[b].candidate_rows() for b in determined]))
    bits = np.zeros(len(rows))
    expected = np.zeros(len(rows))
    chance = np.zeros(len(rows))
    for s in splits:
        bits += s.bits[rows]
        expected += s.expected[rows]
        chance += s.candidate[rows]
    primary = -np.round(bits, _TIE_DECIMALS) if base in ("entropy", "finish") else np.round(expected, _TIE_DECIMALS)
    order = np.lexsort((rows, -np.round(chance, _TIE_DECIMALS), primary))[:top]
    allowed = boards.words.allowed
    return [
        BoardsHint(
            word=allowed[rows[i]],
            bits=float(bits[i]),
            expected_remaining=float(expected[i]),
            boards=tuple(b + 1 for b, s in zip(active, splits) if s.candidate[rows[i]] > 0),
            chance=float(chance[i]),
        )
        for i in order
    ]
