"""One game solved move by move: the history the player enters, undo, hard-mode legality and
the suggestions for the next guess, on one board (``Session``) or many (``BoardsSession``).

``raten solve`` drives a session from prompts; a web page could drive one from forms.
The session keeps the ``State`` after each move (each one immutable), so undo is going
back to the one before.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from raten.engine.boards import Boards, BoardsHint, parse_board_strategy
from raten.engine.constraints import standing
from raten.engine.feedback import History, format_pattern, pattern
from raten.engine.rank import Hint
from raten.engine.state import State
from raten.engine.words import WordSet
from raten.errors import RatenError
from raten.play.strategies import TreeStrategy


class Session:
    """A game in progress: start from the word lists, ``enter`` each guess and the colours it
    showed, ``undo`` a move, ask for ``suggestions`` at any point."""

    def __init__(
        self,
        words: WordSet,
        hard: bool = False,
        strategy: str = "entropy",
        tree: str | Path | None = None,
        answer: str | None = None,
        guarantee: int | None = None,
        guarantee_over: str | None = None,
    ) -> None:
        self.strategy = strategy
        #: The guess limit the suggestion keeps every covered word within (None: the strategy's own
        #: first choice), and what it covers (None: the list's default).
        self.guarantee = guarantee
        self.guarantee_over = guarantee_over
        #: When given, the known answer: ``autoplay`` plays against it, nobody types colours.
        self.answer = words.check(answer, "answer") if answer is not None else None
        if self.answer is not None and self.answer not in words.allowed_index:
            raise RatenError(
                f"answer {self.answer.upper()!r} is not a word of the {words.name} list",
                "unknown_word",
                word=self.answer.upper(),
            )
        #: When given, the decision tree file whose guess is the suggestion (ranking still shown).
        self.tree = TreeStrategy(Path(tree), words) if tree is not None else None
        self._states: list[State] = [State(words, hard=hard)]
        self._ranked: tuple[State, int, list[Hint]] | None = None
        self._guarded: tuple[State, int, Any] | None = None

    # --- where the game stands ----------------------------------------------------------

    @property
    def state(self) -> State:
        """The current state (candidates, constraints, warnings)."""
        return self._states[-1]

    @property
    def words(self) -> WordSet:
        return self.state.words

    @property
    def hard(self) -> bool:
        return self.state.hard

    @property
    def history(self) -> History:
        """The moves entered so far: (guess, pattern code)."""
        return self.state.history

    @property
    def solved(self) -> bool:
        """The last guess showed all green."""
        return self.state.solved

    @property
    def can_undo(self) -> bool:
        return len(self._states) > 1

    @property
    def new_warnings(self) -> tuple[str, ...]:
        """The warnings the last move added (a word off the list, a hard-mode break, a fallback)."""
        before = len(self._states[-2].warnings) if self.can_undo else 0
        return self.state.warnings[before:]

    def intro(self) -> str:
        """The start line: the list, how many answers are possible, how many guesses allowed."""
        mode = ", hard mode" if self.hard else ""
        return (
            f"{self.words.name}: {standing(self.state.candidate_words)}, "
            f"{len(self.words.allowed)} allowed guesses{mode}"
        )

    def status(self) -> str:
        """Where the game stands: solved, the answer, or how many candidates are left."""
        state = self.state
        return standing(
            state.candidate_words, solved=state.solved, fallback=state.fallback is not None, guesses=len(self.history)
        )

    def share_grid(self) -> str:
        """The emoji grid players share, one row per guess, one line per row."""
        return "\n".join(format_pattern(code, "emoji", self.words.length) for _, code in self.history)

    def moves_text(self) -> str:
        """The moves as ``GUESS=PATTERN`` arguments, so ``raten hint`` can take the game up again."""
        return " ".join(f"{guess}={format_pattern(code, 'dots', len(guess))}" for guess, code in self.history)

    # --- what to guess next -------------------------------------------------------------

    def suggestions(self, top: int = 5) -> list[Hint]:
        """The ``top`` best next guesses by the session's strategy, best first."""
        if self._ranked is not None and self._ranked[0] is self.state and self._ranked[1] >= top:
            return self._ranked[2][:top]
        hints = self.state.hints(top=top, strategy=self.strategy)
        self._ranked = (self.state, top, hints)
        return hints

    def guarded(self, top: int = 5):
        """The guarantee's view of the position and its ``top`` suggestions
        (``raten.play.safe_hints.GuardedHints``), or None when the guarantee is off or the game is over."""
        hints = self.suggestions(top)
        if self.guarantee is None or self.solved or not hints:
            return None
        if self._guarded is None or self._guarded[0] is not self.state or self._guarded[1] < top:
            from raten.play.safe_hints import guarded_hints
            from raten.wordlists.presets import default_over

            over = self.guarantee_over or default_over(self.words, self.hard)
            self._guarded = (self.state, top, guarded_hints(self.state, hints, self.guarantee, over, self.strategy))
        return self._guarded[2]

    def suggestion(self) -> str:
        """The guess to take: the tree's when the session follows one, else the guarantee's safe
        guess when it is on, else the best ranked."""
        if self.tree is not None:
            return self.tree.next_guess(self.state)
        guard = self.guarded(1)
        return guard.decision.word if guard is not None else self.suggestions(1)[0].word

    # --- moving on ----------------------------------------------------------------------

    def check_guess(self, guess: str) -> str:
        """The guess, normalised, if it may be played next; a RatenError says why not
        (not a word, the game is over, or it breaks hard mode)."""
        word = self.words.check(guess, "guess")
        if self.solved:
            raise RatenError("the game is already solved; undo to go back")
        reason = self.state.hard_mode_violation(word)
        if reason:
            raise RatenError(f"hard mode: {reason}")
        return word

    def enter(self, guess: str, pattern: str | int) -> State:
        """Play ``guess`` with the colours the game showed (any notation, or a code).

        A RatenError (illegal guess, bad pattern, colours no word fits) leaves the session as it was.
        """
        word = self.check_guess(guess)
        nxt = self.state.after(word, pattern)
        self._states.append(nxt)
        return nxt

    def autoplay(self, limit: int = 20) -> Iterator[State]:
        """Play the suggestion against the known answer until solved, yielding the state after each
        move; a RatenError when there is no answer or it is not found within ``limit`` guesses."""
        if self.answer is None:
            raise RatenError("autoplay needs a known answer")
        while not self.solved:
            if len(self.history) >= limit:
                raise RatenError(f"not solved within {limit} guesses")
            guess = self.suggestion()
            yield self.enter(guess, pattern(guess, self.answer))

    def undo(self) -> bool:
        """Take back the last move; False when there is none."""
        if not self.can_undo:
            return False
        self._states.pop()
        return True

    def __repr__(self) -> str:
        moves = " ".join(f"{g}={c}" for g, c in self.history) or "start"
        return f"Session({self.words.name}, {moves}, {self.state.count} left)"


class BoardsSession:
    """An interactive many-board game (`raten solve --boards N`): suggest, enter, undo."""

    def __init__(self, words: WordSet, boards: int, strategy: str = "entropy") -> None:
        self.strategy = parse_board_strategy(strategy)
        self._stack = [Boards.start(words, boards)]

    @property
    def boards(self) -> Boards:
        return self._stack[-1]

    def suggestions(self, top: int = 5) -> list[BoardsHint]:
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
