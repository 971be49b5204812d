"""The solver state: history of (guess, pattern), remaining candidates, hard-mode legality.

A ``State`` is an immutable value: ``after`` returns a new one. Candidates are column
indices into the pattern matrix; filtering is one vectorised comparison per guess.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from raten.engine import hardmode, kernels
from raten.engine.constraints import Constraints
from raten.engine.feedback import History, code_to_colours, format_pattern, parse_pattern
from raten.engine.matrix import PatternMatrix, feedback_against, load_matrix
from raten.engine.words import WordSet, check_word, letters
from raten.errors import RatenError


class State:
    """Where a game stands: what was guessed, what it showed, which answers are left."""

    def __init__(
        self,
        words: WordSet | PatternMatrix,
        hard: bool = False,
        *,
        history: History = (),
        candidates: np.ndarray | None = None,
        fallback: tuple[str, ...] | None = None,
        warnings: tuple[str, ...] = (),
    ) -> None:
        self.matrix = words if isinstance(words, PatternMatrix) else load_matrix(words)
        self.words: WordSet = self.matrix.words
        self.hard = hard
        self.history = history
        self.candidates = np.arange(len(self.words.solutions), dtype=np.int64) if candidates is None else candidates
        #: When no solution fits the hints: the allowed words that do (the game's list drifted).
        self.fallback = fallback
        self.warnings = warnings

    # --- moving on -----------------------------------------------------------------

    def after(self, guess: str, pattern: str | int) -> State:
        """The state after ``guess`` showed ``pattern`` (any notation, or a 0..242 code)."""
        word = check_word(guess, "guess")
        if isinstance(pattern, str):
            code = parse_pattern(pattern)
        else:
            code_to_colours(pattern)  # refuses a code outside 0..242
            code = int(pattern)
        warnings = list(self.warnings)
        row = self.words.allowed_index.get(word)
        if row is None:
            warnings.append(f"{word.upper()} is not in the {self.words.name} word list; used anyway")
        if self.hard:
            reason = hardmode.violation(word, self.history)
            if reason:
                warnings.append(f"{word.upper()} breaks hard mode ({reason}); used anyway")
        history = (*self.history, (word, code))
        if self.fallback is None:
            codes = (
                self.matrix.data[row, self.candidates]
                if row is not None
                else feedback_against(word, [self.words.solutions[i] for i in self.candidates])
            )
            candidates = self.candidates[codes == code]
            if len(candidates):
                return State(self.matrix, self.hard, history=history, candidates=candidates, warnings=tuple(warnings))
            fallback = fitting_words(self.words.allowed, history)
        else:
            fallback = fitting_words(self.fallback, ((word, code),))
        if not fallback:
            problems = Constraints.from_history(history).problems
            why = f": {problems[0]}" if problems else ""
            raise RatenError(f"no word fits these hints{why}; check the colours you entered", "no_fit", why=why)
        if self.fallback is None:
            warnings.append(
                f"no {self.words.name} solution fits these hints; using the {len(fallback)} allowed "
                + ("words that do" if len(fallback) != 1 else "word that does")
            )
        empty = np.zeros(0, dtype=np.int64)
        return State(
            self.matrix, self.hard, history=history, candidates=empty, fallback=fallback, warnings=tuple(warnings)
        )

    def replay(self, moves) -> State:
        """Apply several (guess, pattern) moves in order."""
        state = self
        for guess, pattern in moves:
            state = state.after(guess, pattern)
        return state

    # --- what is left --------------------------------------------------------------

    @property
    def candidate_words(self) -> list[str]:
        """The words that could still be the answer, sorted."""
        if self.fallback is not None:
            return list(self.fallback)
        sols = self.words.solutions
        return [sols[i] for i in self.candidates]

    @property
    def count(self) -> int:
        return len(self.fallback) if self.fallback is not None else len(self.candidates)

    @property
    def solved(self) -> bool:
        """The last guess was all green."""
        return bool(self.history) and self.history[-1][1] == 242

    @cached_property
    def constraints(self) -> Constraints:
        return Constraints.from_history(self.history)

    def hard_mode_violation(self, guess: str) -> str | None:
        """Why ``guess`` is not allowed as the next guess in hard mode, or None."""
        return hardmode.violation(check_word(guess, "guess"), self.history) if self.hard else None

    # --- tables the ranking works on ------------------------------------------------

    def answer_table(self) -> tuple[np.ndarray, np.ndarray]:
        """(feedback table with allowed rows, candidate column indices into it)."""
        if self.fallback is None:
            return self.matrix.data, self.candidates
        table = kernels.feedback_matrix(self.words.allowed_letters, letters(self.fallback))
        return table, np.arange(len(self.fallback), dtype=np.int64)

    def candidate_rows(self) -> np.ndarray:
        """Rows (allowed-word indices) of the words that could be the answer."""
        if self.fallback is None:
            return self.words.solution_rows[self.candidates]
        idx = self.words.allowed_index
        return np.array(sorted(idx[w] for w in self.fallback), dtype=np.int64)

    def guess_rows(self) -> np.ndarray:
        """The rows worth ranking: every allowed word (legal ones in hard mode);
        with one or two candidates left, only the candidates."""
        if self.count <= 2:
            return self.candidate_rows()
        if self.hard and self.history:
            return np.flatnonzero(hardmode.legal_mask(self.words.allowed_letters, self.history))
        return np.arange(len(self.words.allowed), dtype=np.int64)

    def hints(self, top: int = 5, strategy: str = "entropy"):
        """The best next guesses, best first (see ``raten.engine.rank``)."""
        from raten.engine.rank import rank

        return rank(self, top=top, strategy=strategy)

    def __repr__(self) -> str:
        moves = " ".join(f"{g}={format_pattern(p)}" for g, p in self.history)
        return f"State({self.words.name}, {moves or 'start'}, {self.count} candidates)"


def fitting_words(words: tuple[str, ...], history) -> tuple[str, ...]:
    """The words among ``words`` that would have shown every pattern in ``history``."""
    if not history:
        return tuple(words)
    guesses = letters([g for g, _ in history])
    table = kernels.feedback_matrix(guesses, letters(words))
    codes = np.array([c for _, c in history], dtype=np.uint8)[:, None]
    keep = np.all(table == codes, axis=0)
    return tuple(w for w, k in zip(words, keep) if k)
