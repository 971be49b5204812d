"""The many-board game (Dordle, Quordle): the daily answers, the rules, keyboard colours, share text.

Like ``raten.play.game.Game`` for one board, a ``BoardsGame`` is an immutable value a face
stores and restores: every guess is played on every board not yet solved, a board is solved
by the guess that equals its answer, and the game is won when every board is solved within
the variant's limit (``raten.engine.boards.variant``). There is no hard mode on many boards.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from dataclasses import dataclass, replace
from datetime import date
from functools import lru_cache

from raten.engine.boards import variant
from raten.engine.feedback import GREY, code_to_colours, format_pattern, pattern
from raten.engine.words import WordSet, check_word
from raten.errors import RatenError, shorten
from raten.play.game import KEY_STATES, GameError, daily_number, squares

#: The board counts the game page offers (Wordle itself is ``raten.play.game.Game``).
GAME_BOARDS = (2, 4)
#: Keycap digits for the share text's per-board results; a board not solved shows a red square.
_KEYCAPS = {str(d): f"{d}\ufe0f\u20e3" for d in range(10)}
_FAILED = "\U0001f7e5"
#: The share grid's filler for rows after a board was solved.
_BLANK = "\u2b1b" * 5


@lru_cache(maxsize=16)
def _daily_order(fingerprint: str, size: int, boards: int, secret: str) -> tuple[int, ...]:
    """A fixed shuffle of the solutions per board count, walked ``boards`` words a day."""
    seed = hashlib.sha256(f"raten-daily-boards|{boards}|{fingerprint}|{secret}".encode()).hexdigest()
    order = list(range(size))
    random.Random(seed).shuffle(order)
    return tuple(order)


def daily_answers(words: WordSet, day: date, boards: int, secret: str = "") -> tuple[str, ...]:
    """The answers of ``day``'s game on ``boards`` boards: the same for everyone with the same
    lists and secret, different on each board (consecutive words of one shuffle), and a
    different shuffle for each board count (Dordle's words are not Quordle's first two)."""
    if not 2 <= boards <= len(words.solutions):
        raise RatenError(f"a daily game on {boards} boards is not offered", "boards", boards=boards)
    order = _daily_order(words.fingerprint, len(words.solutions), boards, secret)
    start = (daily_number(day) - 1) * boards
    return tuple(words.solutions[order[(start + b) % len(order)]] for b in range(boards))


def practice_answers(words: WordSet, boards: int) -> tuple[str, ...]:
    """Practice answers, different on each board, drawn with the system's secure generator."""
    return tuple(secrets.SystemRandom().sample(words.solutions, boards))


@dataclass(frozen=True)
class BoardsGame:
    """One game on several boards: the answers, the shared guesses and the mode.

    ``mode`` is ``"daily"`` (with its ``number``) or ``"practice"``.
    """

    words: WordSet
    answers: tuple[str, ...]
    mode: str = "practice"
    number: int | None = None
    guesses: tuple[str, ...] = ()

    @classmethod
    def daily(cls, words: WordSet, day: date, boards: int, secret: str = "") -> BoardsGame:
        """``day``'s game on ``boards`` boards."""
        return cls(words, daily_answers(words, day, boards, secret), mode="daily", number=daily_number(day))

    @classmethod
    def practice(cls, words: WordSet, boards: int, answers: tuple[str, ...] | None = None) -> BoardsGame:
        """A practice game with random answers (or the ones given, for tests)."""
        if answers is not None and len(answers) != boards:
            raise RatenError(f"{boards} boards need {boards} answers, not {len(answers)}", "boards_answers")
        return cls(words, answers or practice_answers(words, boards))

    # --- where the game stands --------------------------------------------------------------

    @property
    def boards(self) -> int:
        return len(self.answers)

    @property
    def max_tries(self) -> int:
        """The variant's limit: Dordle 7, Quordle 9."""
        return variant(self.boards).limit

    @property
    def tries(self) -> int:
        return len(self.guesses)

    def solved_at(self, board: int) -> int | None:
        """The guess (1-based) that solved ``board`` (0-based), or None."""
        answer = self.answers[board]
        return self.guesses.index(answer) + 1 if answer in self.guesses else None

    @property
    def won(self) -> bool:
        return all(self.solved_at(b) is not None for b in range(self.boards))

    @property
    def over(self) -> bool:
        """Every board solved, or out of tries."""
        return self.won or self.tries >= self.max_tries

    @property
    def status(self) -> str:
        """``playing``, ``won`` or ``lost``."""
        if self.won:
            return "won"
        return "lost" if self.over else "playing"

    def codes(self, board: int) -> tuple[int, ...]:
        """The board's colours (0..242 codes), one per guess up to the one that solved it."""
        end = self.solved_at(board) or self.tries
        return tuple(pattern(g, self.answers[board]) for g in self.guesses[:end])

    def rows(self) -> list[tuple[str, tuple[int | None, ...]]]:
        """Each guess with its code on every board (None on a board solved before it)."""
        per_board = [self.codes(b) for b in range(self.boards)]
        return [(g, tuple(c[t] if t < len(c) else None for c in per_board)) for t, g in enumerate(self.guesses)]

    # --- moving on ----------------------------------------------------------------------------

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
        return word

    def guess(self, guess: str) -> BoardsGame:
        """The game after ``guess``; raises ``GameError`` when it is refused."""
        return replace(self, guesses=(*self.guesses, self.check(guess)))

    def keyboards(self) -> list[dict[str, str]]:
        """Per board: each letter guessed on it and the strongest colour it showed there (a
        board stops counting once solved, as in the public games)."""
        out = []
        for b in range(self.boards):
            best: dict[str, int] = {}
            for word, code in zip(self.guesses, self.codes(b)):
                for letter, colour in zip(word, code_to_colours(code)):
                    best[letter] = max(best.get(letter, GREY), colour)
            out.append({letter: KEY_STATES[c] for letter, c in sorted(best.items())})
        return out

    def share_text(
        self, name: str = "raten", list_name: str | None = None, practice: str = "practice", palette: str = "standard"
    ) -> str:
        """The spoiler-free result, like Dordle's and Quordle's: a head line (game, variant, list,
        number or ``practice``, score or X), a line per board with the guess that solved it (a
        red square when it was not solved), then the boards' grids side by side, two at a time.
        ``palette`` ``high`` draws green and yellow as orange and blue (the high-contrast setting)."""
        v = variant(self.boards)
        score = str(self.tries) if self.won else "X"
        label = f"#{self.number}" if self.mode == "daily" and self.number is not None else practice
        head = f"{name} {v.name} {list_name or self.words.name} {label} {score}/{self.max_tries}"
        results = []
        for b in range(self.boards):
            at = self.solved_at(b)
            results.append("".join(_KEYCAPS[d] for d in str(at)) if at is not None else _FAILED)
        lines = [head, ""]
        lines += [" ".join(results[i : i + 2]) for i in range(0, self.boards, 2)]
        grids = [[squares(c, palette) for c in self.codes(b)] for b in range(self.boards)]
        for i in range(0, self.boards, 2):
            pair = grids[i : i + 2]
            height = max(len(g) for g in pair)
            lines.append("")
            for t in range(height):
                lines.append(" ".join(g[t] if t < len(g) else _BLANK for g in pair))
        return "\n".join(lines).rstrip()

    def patterns_text(self) -> list[tuple[str, list[str | None]]]:
        """Each guess with its ``.?!`` pattern per board (None on a board solved before it)."""
        return [(g, [None if c is None else format_pattern(c) for c in codes]) for g, codes in self.rows()]
