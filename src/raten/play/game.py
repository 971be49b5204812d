"""The game: the daily word, tries, hard-mode rules, keyboard colours, share text, statistics.

Pure logic with no storage or web imports: a ``Game`` is an immutable value that a face
stores and restores; ``Game.guess`` returns the next one or raises ``GameError`` (a
``RatenError`` with a machine-readable ``key`` and ``params`` so faces can translate it).
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import date
from functools import lru_cache

from raten.engine.feedback import (
    ALL_GREEN,
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
from raten.engine.words import WordSet, check_word
from raten.errors import RatenError, shorten

MAX_TRIES = 6
#: Day 1 of the daily game; the game number counts days from here.
EPOCH = date(2025, 1, 1)
#: Keyboard states, weakest first: a letter takes the strongest colour it has shown.
KEY_STATES = ("absent", "present", "correct")
_SQUARES = {GREY: "\u2b1c", YELLOW: "\U0001f7e8", GREEN: "\U0001f7e9"}
#: Share squares per palette: ``high`` is the high-contrast setting's orange (green) and blue (yellow).
PALETTES: dict[str, dict[int, str]] = {
    "standard": _SQUARES,
    "high": {GREY: "\u2b1c", YELLOW: "\U0001f7e6", GREEN: "\U0001f7e7"},
}


def squares(code: int, palette: str = "standard") -> str:
    """One row of share squares for a 0..242 code in ``palette`` (``standard`` or ``high``)."""
    try:
        table = PALETTES[palette]
    except KeyError:
        raise RatenError(
            f"unknown palette {shorten(palette)!r}: choose one of {', '.join(PALETTES)}", "palette"
        ) from None
    return "".join(table[c] for c in code_to_colours(code))


class GameError(RatenError):
    """A move the game refuses, shaped like every ``RatenError`` (message, ``key``, ``params``);
    its key is also the code a face reports (``game_over``, ``unknown_word``, ``bad_word`` ...).
    A ``bad_word`` error has the input error it came from as its ``__cause__``."""


# --- the daily word --------------------------------------------------------------------


def daily_number(day: date) -> int:
    """The game number of ``day`` (1 on ``EPOCH``; earlier days count down from there)."""
    return (day - EPOCH).days + 1


@lru_cache(maxsize=16)
def _daily_order(fingerprint: str, size: int, secret: str) -> tuple[int, ...]:
    """A fixed shuffle of the solutions: each one is the daily word once per cycle."""
    seed = hashlib.sha256(f"raten-daily|{fingerprint}|{secret}".encode()).hexdigest()
    order = list(range(size))
    random.Random(seed).shuffle(order)
    return tuple(order)


def daily_word(words: WordSet, day: date, secret: str = "") -> str:
    """The answer of ``day``'s game: the same for everyone with the same lists and secret.

    The solutions are shuffled once (seeded by the lists and ``secret``) and walked one per
    day, so no word repeats until all have been used. A server keeps ``secret`` private
    so that the order cannot be computed from the source code.
    """
    order = _daily_order(words.fingerprint, len(words.solutions), secret)
    return words.solutions[order[(daily_number(day) - 1) % len(order)]]


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
    return secrets.choice(words.solutions)


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


# --- statistics ------------------------------------------------------------------------


@dataclass(frozen=True)
class Stats:
    """A player's record on one list: games played and won, streaks, tries per win."""

    played: int = 0
    wins: int = 0
    current_streak: int = 0
    max_streak: int = 0
    distribution: tuple[int, ...] = (0,) * MAX_TRIES

    @property
    def win_percent(self) -> int:
        """Share of games won, rounded to a whole percent (0 before the first game)."""
        return round(100 * self.wins / self.played) if self.played else 0

    def record(self, won: bool, tries: int) -> Stats:
        """The statistics after one more finished game (``tries`` used when ``won``)."""
        if won and not 1 <= tries <= len(self.distribution):
            raise RatenError(f"a win takes 1 to {len(self.distribution)} tries, not {tries}")
        dist = list(self.distribution)
        if won:
            dist[tries - 1] += 1
        streak = self.current_streak + 1 if won else 0
        return Stats(
            played=self.played + 1,
            wins=self.wins + int(won),
            current_streak=streak,
            max_streak=max(self.max_streak, streak),
            distribution=tuple(dist),
        )

    def to_dict(self) -> dict:
        return {
            "played": self.played,
            "wins": self.wins,
            "win_percent": self.win_percent,
            "current_streak": self.current_streak,
            "max_streak": self.max_streak,
            "distribution": list(self.distribution),
        }


# --- the game ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Game:
    """One game: the answer, the guesses so far (word, 0..242 code) and the rules it runs by.

    ``mode`` is ``"daily"`` (with its ``number``) or ``"practice"``.
    """

    words: WordSet
    answer: str
    hard: bool = False
    mode: str = "practice"
    number: int | None = None
    history: History = ()
    max_tries: int = MAX_TRIES

    @classmethod
    def daily(cls, words: WordSet, day: date, hard: bool = False, secret: str = "") -> Game:
        """``day``'s game."""
        return cls(words, daily_word(words, day, secret), hard=hard, mode="daily", number=daily_number(day))

    @classmethod
    def practice(cls, words: WordSet, hard: bool = False, answer: str | None = None) -> Game:
        """A practice game with a random answer (or the one given, for tests)."""
        return cls(words, answer or random_word(words), hard=hard)

    @property
    def won(self) -> bool:
        return bool(self.history) and self.history[-1][1] == ALL_GREEN

    @property
    def over(self) -> bool:
        """Won, or out of tries."""
        return self.won or len(self.history) >= self.max_tries

    @property
    def status(self) -> str:
        """``playing``, ``won`` or ``lost``."""
        if self.won:
            return "won"
        return "lost" if self.over else "playing"

    @property
    def tries(self) -> int:
        return len(self.history)

    def with_hard(self, hard: bool) -> Game:
        """The game with hard mode set to ``hard``: it changes only before the first guess,
        after it the game keeps the setting it was begun with."""
        return replace(self, hard=hard) if not self.history and hard != self.hard else self

    def check(self, guess: str) -> str:
        """The normalised guess if the game accepts it now; else a ``GameError`` (no try is used)."""
        if self.over:
            raise GameError("this game is over", "game_over")
        try:
            word = check_word(guess, "guess")
        except RatenError as e:
            raise GameError(str(e), "bad_word", word=shorten(guess.strip(), 20)) from e
        if word not in self.words.allowed_index:
            raise GameError(f"{word.upper()} is not in the word list", "unknown_word", word=word.upper())
        if self.hard:
            error = hard_mode_error(word, self.history)
            if error is not None:
                raise error
        return word

    def guess(self, guess: str) -> Game:
        """The game after ``guess``; raises ``GameError`` when it is refused."""
        word = self.check(guess)
        return replace(self, history=(*self.history, (word, pattern(word, self.answer))))

    def keyboard(self) -> dict[str, str]:
        """Each letter guessed so far and the strongest colour it showed (absent/present/correct)."""
        best: dict[str, int] = {}
        for word, code in self.history:
            for letter, colour in zip(word, code_to_colours(code)):
                best[letter] = max(best.get(letter, GREY), colour)
        return {letter: KEY_STATES[c] for letter, c in sorted(best.items())}

    def share_text(
        self, name: str = "raten", list_name: str | None = None, practice: str = "practice", palette: str = "standard"
    ) -> str:
        """The spoiler-free result: game name, list, number (or ``practice``), score (X when
        lost, * in hard mode) and the emoji grid (``palette`` ``high``: orange and blue for green
        and yellow). Only meaningful once the game is over."""
        score = str(self.tries) if self.won else "X"
        label = f"#{self.number}" if self.mode == "daily" and self.number is not None else practice
        head = f"{name} {list_name or self.words.name} {label} {score}/{self.max_tries}{'*' if self.hard else ''}"
        grid = "\n".join(squares(code, palette) for _, code in self.history)
        return f"{head}\n\n{grid}" if grid else head

    def review(self, openers: list[Hint] | None = None, top: int = 3) -> Review:
        """What the solver would have played: its best guesses before each of the player's
        rows, and its own game from the start against the same answer.

        ``openers`` (the ranking of the empty state, precomputed by a server) saves the
        slowest ranking. Only call this when the game is over: it names the answer.
        """
        state = State(self.words, hard=self.hard)
        steps = []
        for word, code in self.history:
            if state.solved:
                break
            best = openers[:top] if openers and not state.history else state.hints(top=top)
            played = split_of(state, word).hint
            before = state.count
            state = state.after(word, code)
            steps.append(ReviewStep(word, code, before, state.count, played.bits, played.candidate, best))
        return Review(answer=self.answer, steps=tuple(steps), solver=solver_game(self, openers))


def solver_game(game: Game, openers: list[Hint] | None = None) -> History:
    """The solver's own game against ``game.answer``: greedy entropy (the best hint each turn)."""
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
            "pattern": format_pattern(self.code),
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
            "solver": [{"guess": g, "pattern": format_pattern(c)} for g, c in self.solver],
        }
