"""The game on one board or many: the daily answers, tries, the variant's rules, keyboard colours, share text.

Pure logic with no storage or web imports: a ``Game`` is an immutable value that a face
stores and restores; ``Game.guess`` returns the next one or raises ``GameError`` (a
``RatenError`` with a machine-readable ``key`` and ``params`` so faces can translate it).
Wordle is the game on one board; on N boards (Dordle 2, Quordle 4) every guess is played on
every board not yet solved, a board is solved by the guess that equals its answer, and the
game is won when every board is solved within the variant's limit
(``raten.engine.boards.variant``). Hard mode is offered on one board only.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import date
from functools import lru_cache
from typing import TYPE_CHECKING, Literal

from raten.engine.boards import Variant, variant
from raten.engine.feedback import (
    GREEN,
    GREY,
    YELLOW,
    History,
    Move,
    code_to_colours,
    format_pattern,
    pattern,
)
from raten.engine.hardmode import find_violation
from raten.engine.rank import Hint, split_of
from raten.engine.state import State
from raten.engine.words import WordSet
from raten.errors import RatenError, shorten

if TYPE_CHECKING:
    from raten.play.review import GameReview
    from raten.trees.values import Budget

MAX_TRIES = variant(1).limit
#: The board counts the game offers: Wordle, Dordle, Quordle.
GAME_BOARDS = (1, 2, 4)
#: Day 1 of the daily game; the game number counts days from here.
EPOCH = date(2025, 1, 1)
KeyState = Literal["absent", "present", "correct"]
Status = Literal["playing", "won", "lost"]
Mode = Literal["daily", "practice"]
#: Keyboard states, weakest first: a letter takes the strongest colour it has shown.
KEY_STATES: tuple[KeyState, KeyState, KeyState] = ("absent", "present", "correct")
_SQUARES = {GREY: "\u2b1c", YELLOW: "\U0001f7e8", GREEN: "\U0001f7e9"}
#: Share squares per palette: ``high`` is the high-contrast setting's orange (green) and blue (yellow).
PALETTES: dict[str, dict[int, str]] = {
    "standard": _SQUARES,
    "high": {GREY: "\u2b1c", YELLOW: "\U0001f7e6", GREEN: "\U0001f7e7"},
}
#: Keycap digits for the share text's per-board results; a board not solved shows a red square.
_KEYCAPS = {str(d): f"{d}\ufe0f\u20e3" for d in range(10)}
_FAILED = "\U0001f7e5"
#: The share grid's filler square for rows after a board was solved.
_BLANK = "\u2b1b"


def squares(code: int, length: int, palette: str = "standard") -> str:
    """One row of share squares for the code of a word of ``length`` letters in ``palette``
    (``standard`` or ``high``)."""
    try:
        table = PALETTES[palette]
    except KeyError:
        raise RatenError(
            f"unknown palette {shorten(palette)!r}: choose one of {', '.join(PALETTES)}", "palette"
        ) from None
    return "".join(table[c] for c in code_to_colours(code, length))


class GameError(RatenError):
    """A move the game refuses, shaped like every ``RatenError`` (message, ``key``, ``params``);
    its key is also the code a face reports (``game_over``, ``unknown_word``, ``bad_word`` ...).
    A ``bad_word`` error has the input error it came from as its ``__cause__``."""


# --- the variant's rules ---------------------------------------------------------------------


def game_variant(boards: int, hard: bool = False) -> Variant:
    """The variant a game on ``boards`` boards is played by; hard mode is offered on one board
    only (on several it can leave no legal guess, and none of the public variants has it)."""
    v = variant(boards)
    if hard and boards > 1:
        raise RatenError(f"{v.name} has no hard mode", "boards_hard", name=v.name)
    return v


def offered_boards(boards: int) -> int:
    """``boards`` if the game is offered on that many boards (``GAME_BOARDS``), else an error."""
    if boards not in GAME_BOARDS:
        raise RatenError(f"games are played on 1, 2 or 4 boards, not {boards}", "game_boards", boards=boards)
    return boards


# --- the daily answers -------------------------------------------------------------------


def daily_number(day: date) -> int:
    """The game number of ``day`` (1 on ``EPOCH``; earlier days count down from there)."""
    return (day - EPOCH).days + 1


@lru_cache(maxsize=16)
def _daily_order(fingerprint: str, size: int, boards: int, secret: str) -> tuple[int, ...]:
    """A fixed shuffle of the solutions per board count. One board keeps the seed it had before
    there were many boards, so Wordle's daily words stayed the same."""
    text = (
        f"raten-daily|{fingerprint}|{secret}" if boards == 1 else f"raten-daily-boards|{boards}|{fingerprint}|{secret}"
    )
    order = list(range(size))
    random.Random(hashlib.sha256(text.encode()).hexdigest()).shuffle(order)
    return tuple(order)


def daily_answers(words: WordSet, day: date, boards: int = 1, secret: str = "") -> tuple[str, ...]:
    """The answers of ``day``'s game on ``boards`` boards: the same for everyone with the same
    lists and secret, different on each board.

    The solutions are shuffled once per board count (seeded by the lists and ``secret``: a
    server keeps it private so the order cannot be computed from the source) and walked
    ``boards`` words a day, so no word repeats until all have been used; Dordle's words are
    another shuffle, not Quordle's first two."""
    answers = words.list_solutions  # a game's answers: the list's own, whatever the prior weighs
    if not 1 <= boards <= len(answers):
        raise RatenError(f"a daily game on {boards} boards is not offered", "boards", boards=boards)
    order = _daily_order(words.list_fingerprint, len(answers), boards, secret)
    start = (daily_number(day) - 1) * boards
    return tuple(answers[order[(start + b) % len(order)]] for b in range(boards))


def daily_list(offered: Mapping[str, WordSet], language: str) -> str:
    """The list whose words the daily game of ``language`` uses: the first one ``offered`` in
    that language (``de`` before ``de-ext``), so there is one daily game per language and
    everyone has the same word, whichever list of the language they asked on."""
    for name, words in offered.items():
        if words.language == language:
            return name
    raise RatenError(f"no word list in language {shorten(language)!r}", "no_daily_list", language=shorten(language))


def random_word(words: WordSet) -> str:
    """A practice answer, drawn with the system's secure generator (not predictable)."""
    return secrets.choice(words.list_solutions)


def practice_answers(words: WordSet, boards: int = 1) -> tuple[str, ...]:
    """Practice answers, a different one on each board, drawn with the system's secure generator."""
    if boards == 1:
        return (random_word(words),)
    return tuple(secrets.SystemRandom().sample(words.list_solutions, boards))


# --- hard mode, with a reason a face can translate ------------------------------------------


def hard_mode_error(guess: str, history: History) -> GameError | None:
    """Why ``guess`` breaks hard mode after ``history`` (see ``raten.engine.hardmode``), or None,
    as an error with a key and parameters a face can translate."""
    found = find_violation(guess, history)
    if found is None:
        return None
    if found.kind == "green":
        return GameError(
            f"hard mode: {found.message}", "hard_green", position=found.position, letter=found.letter.upper()
        )
    return GameError(f"hard mode: {found.message}", "hard_present", letter=found.letter.upper(), count=found.count)


# --- the game ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Game:
    """One game on one board or many: the answers (one per board), the guesses so far and the
    rules it runs by (``game_variant``: the limit, hard mode on one board only).

    ``mode`` is ``"daily"`` (with its ``number``) or ``"practice"``.
    """

    words: WordSet
    answers: tuple[str, ...]
    hard: bool = False
    mode: Mode = "practice"
    number: int | None = None
    guesses: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        game_variant(len(self.answers), self.hard)

    @classmethod
    def daily(cls, words: WordSet, day: date, boards: int = 1, *, hard: bool = False, secret: str = "") -> Game:
        """``day``'s game on ``boards`` boards."""
        game_variant(boards, hard)
        answers = daily_answers(words, day, boards, secret)
        return cls(words, answers, hard=hard, mode="daily", number=daily_number(day))

    @classmethod
    def practice(
        cls, words: WordSet, boards: int = 1, *, hard: bool = False, answers: tuple[str, ...] | None = None
    ) -> Game:
        """A practice game with random answers (or the ones given, for tests)."""
        game_variant(boards, hard)
        if answers is not None and len(answers) != boards:
            raise RatenError(f"{boards} boards need {boards} answers, not {len(answers)}", "boards_answers")
        return cls(words, answers or practice_answers(words, boards), hard=hard)

    # --- where the game stands --------------------------------------------------------------

    @property
    def boards(self) -> int:
        """How many boards: one answer each."""
        return len(self.answers)

    @property
    def variant(self) -> Variant:
        """The variant played: Wordle, Dordle, Quordle ..."""
        return variant(self.boards)

    @property
    def max_tries(self) -> int:
        """The variant's limit: Wordle 6, Dordle 7, Quordle 9."""
        return self.variant.limit

    @property
    def answer(self) -> str:
        """The answers joined by commas (on one board: the answer)."""
        return ",".join(self.answers)

    @property
    def tries(self) -> int:
        """Guesses made so far."""
        return len(self.guesses)

    def solved_at(self, board: int = 0) -> int | None:
        """The guess (1-based) that solved ``board`` (0-based), or None."""
        answer = self.answers[board]
        return self.guesses.index(answer) + 1 if answer in self.guesses else None

    @property
    def won(self) -> bool:
        """Every board solved."""
        return all(self.solved_at(b) is not None for b in range(self.boards))

    @property
    def over(self) -> bool:
        """Every board solved, or out of tries."""
        return self.won or self.tries >= self.max_tries

    @property
    def status(self) -> Status:
        """``playing``, ``won`` or ``lost``."""
        if self.won:
            return "won"
        return "lost" if self.over else "playing"

    def history(self, board: int = 0) -> History:
        """The board's moves (guess, code) up to the one that solved it; on one board the game's."""
        end = self.solved_at(board) or self.tries
        return tuple((g, pattern(g, self.answers[board])) for g in self.guesses[:end])

    def rows(self) -> list[tuple[str, tuple[int | None, ...]]]:
        """Each guess with its code on every board (None on a board solved before it)."""
        per_board = [self.history(b) for b in range(self.boards)]
        return [(g, tuple(h[t][1] if t < len(h) else None for h in per_board)) for t, g in enumerate(self.guesses)]

    # --- moving on ----------------------------------------------------------------------------

    def with_hard(self, hard: bool) -> Game:
        """The game with hard mode set to ``hard``: it changes only before the first guess,
        after it the game keeps the setting it was begun with."""
        return replace(self, hard=hard) if not self.guesses and hard != self.hard else self

    def check(self, guess: str) -> str:
        """The normalised guess if the game accepts it now; else a ``GameError`` (no try is used)."""
        if self.over:
            raise GameError("this game is over", "game_over")
        try:
            word = self.words.check(guess, "guess")
        except RatenError as e:
            raise GameError(str(e), "bad_word", word=shorten(guess.strip(), 20)) from e
        if word not in self.words.allowed_index:
            raise GameError(f"{word.upper()} is not in the word list", "unknown_word", word=word.upper())
        if self.hard:
            error = hard_mode_error(word, self.history())
            if error is not None:
                raise error
        return word

    def guess(self, guess: str) -> Game:
        """The game after ``guess``; raises ``GameError`` when it is refused."""
        return replace(self, guesses=(*self.guesses, self.check(guess)))

    def keyboards(self) -> list[dict[str, KeyState]]:
        """Per board: each letter guessed on it and the strongest colour it showed there (a
        board stops counting once solved, as in the public games)."""
        out = []
        for b in range(self.boards):
            best: dict[str, int] = {}
            for word, code in self.history(b):
                for letter, colour in zip(word, code_to_colours(code, len(word))):
                    best[letter] = max(best.get(letter, GREY), colour)
            out.append({letter: KEY_STATES[c] for letter, c in sorted(best.items())})
        return out

    def share_text(
        self, name: str = "raten", list_name: str | None = None, practice: str = "practice", palette: str = "standard"
    ) -> str:
        """The spoiler-free result: a head line (game, list, number or ``practice``, score or X,
        * in hard mode), then the boards' grids side by side, two at a time (``palette`` ``high``
        draws green and yellow as orange and blue). On many boards, as Dordle's and Quordle's,
        the head names the variant and a line per board gives the guess that solved it (a red
        square when it was not solved); Wordle's own has neither. Meaningful once the game is over."""
        score = str(self.tries) if self.won else "X"
        label = f"#{self.number}" if self.mode == "daily" and self.number is not None else practice
        many = [self.variant.name] if self.boards > 1 else []
        head = " ".join([name, *many, list_name or self.words.name, label, f"{score}/{self.max_tries}"])
        lines = [head + ("*" if self.hard else "")]
        if many:
            results = [self.solved_at(b) for b in range(self.boards)]
            cells = [_FAILED if at is None else "".join(_KEYCAPS[d] for d in str(at)) for at in results]
            lines += ["", *(" ".join(cells[i : i + 2]) for i in range(0, self.boards, 2))]
        length = self.words.length
        grids = [[squares(c, length, palette) for _, c in self.history(b)] for b in range(self.boards)]
        for i in range(0, self.boards, 2):
            pair = grids[i : i + 2]
            lines.append("")
            for t in range(max(len(g) for g in pair)):
                lines.append(" ".join(g[t] if t < len(g) else _BLANK * length for g in pair))
        return "\n".join(lines).rstrip()

    # --- after the game ---------------------------------------------------------------------

    def _one_board(self) -> None:
        if self.boards > 1:
            raise RatenError("the review is offered for games on one board", "review_boards")

    def check_reviewable(self) -> None:
        """Refuse a review the game does not offer: on many boards, or before the game is over
        (the review names the answer)."""
        self._one_board()
        if not self.over:
            raise GameError("the review is shown when the game is over", "not_over")

    def exact_review(self, budget: Budget | None = None, guarantee: bool = True) -> GameReview:
        """The exact review of the finished game (``raten.play.review``): each guess's value,
        regret, skill and luck, and with ``guarantee`` its safety within the variant's limit
        (see ``check_reviewable``)."""
        from raten.play.review import review

        self.check_reviewable()
        limit = self.max_tries if guarantee else None
        return review(self.words, self.guesses, self.answer, hard=self.hard, budget=budget, guarantee=limit)

    def review(self, openers: list[Hint] | None = None, top: int = 3) -> Review:
        """What the solver would have played: its best guesses before each of the player's
        rows, and its own game from the start against the same answer.

        ``openers`` (the ranking of the empty state, precomputed by a server) saves the
        slowest ranking. Offered on one board; only call this when the game is over: it names the answer.
        """
        self._one_board()
        state = State(self.words, hard=self.hard)
        steps = []
        for word, code in self.history():
            if state.solved:
                break
            best = openers[:top] if openers and not state.history else state.hints(top=top)
            played = split_of(state, word).hint
            before = state.count
            state = state.after(word, code)
            steps.append(ReviewStep(word, code, before, state.count, played.bits, played.candidate, best))
        return Review(answer=self.answer, steps=tuple(steps), solver=solver_game(self, openers))


def solver_game(game: Game, openers: list[Hint] | None = None) -> History:
    """The solver's own game against a one-board ``game``'s answer: greedy entropy (the best hint each turn)."""
    state = State(game.words, hard=game.hard)
    rows: list[Move] = []
    while not state.solved and len(rows) < 2 * game.max_tries:
        word = openers[0].word if openers and not rows else state.hints(top=1)[0].word
        code = pattern(word, game.answer)
        rows.append((word, code))
        state = state.after(word, code)
    return tuple(rows)


@dataclass(frozen=True)
class ReviewStep:
    """One of the player's rows next to what the solver suggested before it."""

    guess: str
    code: int
    candidates_before: int
    candidates_after: int
    bits: float
    could_be_answer: bool
    best: list[Hint]

    def to_dict(self) -> dict:
        return {
            "guess": self.guess,
            "pattern": format_pattern(self.code, length=len(self.guess)),
            "candidates_before": self.candidates_before,
            "candidates_after": self.candidates_after,
            "bits": self.bits,
            "could_be_answer": self.could_be_answer,
            "best": [h.to_dict() for h in self.best],
        }


@dataclass(frozen=True)
class Review:
    """The after-game analysis."""

    answer: str
    steps: tuple[ReviewStep, ...]
    solver: History

    def to_dict(self) -> dict:
        return {
            "answer": self.answer,
            "steps": [s.to_dict() for s in self.steps],
            "solver": [{"guess": g, "pattern": format_pattern(c, length=len(g))} for g, c in self.solver],
        }
