"""The solver state: history of (guess, pattern), remaining candidates, hard-mode legality.

A ``State`` is an immutable value: ``after`` returns a new one. Candidates are column
indices into the pattern matrix; filtering is one vectorised comparison per guess.
"""

from __future__ import annotations

import re
from functools import cached_property

import numpy as np

from raten.engine.constraints import Constraints
from raten.engine.feedback import History, code_to_colours, format_pattern, parse_pattern
from raten.engine.matrix import PatternMatrix, feedback_against, load_matrix
from raten.engine.words import WordSet, compared_letters
from raten.errors import Notice, RatenError


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

    def off_list(self, word: str) -> Notice | None:
        """The warning that ``word`` (normalised) is not in the allowed list, or None when it is."""
        if word in self.words.allowed_index:
            return None
        return Notice(
            f"{word.upper()} is not in the {self.words.name} word list; used anyway",
            "not_in_list",
            word=word.upper(),
            list=self.words.name,
        )

    def after(self, guess: str, pattern: str | int) -> State:
        """The state after ``guess`` showed ``pattern`` (any notation, or a code)."""
        word = self.words.check(guess, "guess")
        if isinstance(pattern, str):
            code = parse_pattern(pattern, self.words.length)
        else:
            code_to_colours(pattern, self.words.length)  # refuses a code outside the length's codes
            code = int(pattern)
        warnings = list(self.warnings)
        row = self.words.allowed_index.get(word)
        off = self.off_list(word)
        if off is not None:
            warnings.append(off)
        if self.hard:
            from raten.engine import hardmode  # numba (its compiled rule): hard mode only

            found = hardmode.find_violation(word, self.history)
            if found:
                # the rule broken in no language too: rule green (letter at position) or present (count)
                rule = {"position": found.position} if found.kind == "green" else {"count": found.count}
                warnings.append(
                    Notice(
                        f"{word.upper()} breaks hard mode ({found.message}); used anyway",
                        "breaks_hard",
                        word=word.upper(),
                        rule=found.kind,
                        letter=found.letter.upper(),
                        **rule,
                    )
                )
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
            raise no_fit_error(self.words, history)
        if self.fallback is None:
            n = len(fallback)
            weighed = " (likelier the commoner they are)" if self.words.fallback_weights is not None else ""
            warnings.append(
                Notice(
                    f"no {self.words.name} solution fits these hints: the answer is probably missing from the "
                    f"list; going on with the {n} allowed word{'s' if n != 1 else ''} that fit{'s' if n == 1 else ''}"
                    + weighed,
                    "fallback",
                    list=self.words.name,
                    n=n,
                )
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
        return bool(self.history) and self.history[-1][1] == self.words.all_green

    @cached_property
    def constraints(self) -> Constraints:
        return Constraints.from_history(self.history)

    def hard_mode_violation(self, guess: str) -> str | None:
        """Why ``guess`` is not allowed as the next guess in hard mode, or None."""
        if not self.hard:
            return None
        from raten.engine import hardmode  # numba (its compiled rule): hard mode only

        return hardmode.violation(self.words.check(guess, "guess"), self.history)

    # --- tables the ranking works on ------------------------------------------------

    def answer_table(self) -> tuple[np.ndarray, np.ndarray]:
        """(feedback table with allowed rows, candidate column indices into it)."""
        if self.fallback is None:
            return self.matrix.data, self.candidates
        from raten.engine import kernels  # numba: only when no solution fits (rare)

        table = kernels.feedback_matrix(*compared_letters(self.words.allowed, self.fallback))
        return table, np.arange(len(self.fallback), dtype=np.int64)

    @cached_property
    def _fallback_weights(self) -> np.ndarray | None:
        weigh = self.words.fallback_weights
        return None if weigh is None or self.fallback is None else np.asarray(weigh(self.fallback), dtype=np.float64)

    def answer_weights(self) -> np.ndarray | None:
        """The prior weight of each candidate (aligned with ``answer_table``'s columns), or None
        when they are equally likely: the word set's prior, or for a fallback the weights the
        word set gives other allowed words (word frequency, with a frequency source)."""
        if self.fallback is not None:
            return self._fallback_weights
        if self.words.weights is None:
            return None
        return self.words.weights[self.candidates]

    def candidate_rows(self) -> np.ndarray:
        """Rows (allowed-word indices) of the words that could be the answer."""
        if self.fallback is None:
            return self.words.solution_rows[self.candidates]
        idx = self.words.allowed_index
        return np.array(sorted(idx[w] for w in self.fallback), dtype=np.int64)

    @property
    def decided(self) -> bool:
        """Whether one candidate weighs at least as much as all the others together: one or two
        candidates left (equally likely), or under a prior a clear favourite. Then the answer is
        guessed, not searched for: only candidates are ranked, the likeliest first."""
        if self.count <= 2:
            return True
        weights = self.answer_weights()
        return weights is not None and 2 * float(weights.max()) >= float(weights.sum())

    def guess_rows(self) -> np.ndarray:
        """The rows worth ranking: every allowed word (legal ones in hard mode); when the answer
        is all but known (``decided``), only the candidates."""
        if self.decided:
            return self.candidate_rows()
        if self.hard and self.history:
            from raten.engine import hardmode  # numba (its compiled rule): hard mode only

            return np.flatnonzero(hardmode.legal_mask(self.words.allowed_letters, self.history, self.words.alphabet))
        return np.arange(len(self.words.allowed), dtype=np.int64)

    def hints(self, top: int = 5, strategy: str = "entropy", *, answers_only: bool = False):
        """The best next guesses, best first (see ``raten.engine.rank``); ``answers_only``: only
        words that could be the answer."""
        from raten.engine.rank import rank

        return rank(self, top=top, strategy=strategy, answers_only=answers_only)

    def __repr__(self) -> str:
        moves = " ".join(f"{g}={format_pattern(p, length=self.words.length)}" for g, p in self.history)
        return f"State({self.words.name}, {moves or 'start'}, {self.count} candidates)"


def fitting_words(words: tuple[str, ...], history) -> tuple[str, ...]:
    """The words among ``words`` that would have shown every pattern in ``history``."""
    if not history:
        return tuple(words)
    from raten.engine import kernels  # numba: only when no solution fits (rare)

    guesses, coded = compared_letters([g for g, _ in history], words)
    table = kernels.feedback_matrix(guesses, coded)
    codes = np.array([c for _, c in history], dtype=np.int64)[:, None]
    keep = np.all(table == codes, axis=0)
    return tuple(w for w, k in zip(words, keep) if k)


def no_fit_error(words: WordSet, history) -> RatenError:
    """Why no allowed word fits ``history``: rows that contradict each other (the player's
    error, named by row), or else an answer the list does not know (the list's failing)."""
    return contradiction(history) or RatenError(
        f"no word of the {words.name} list fits these hints, and they agree with each other: the answer is "
        "probably a word the list does not know",
        "answer_not_in_list",
        list=words.name,
    )


def contradiction(history) -> RatenError | None:
    """The error for rows no string of their length could have shown together, naming the rows
    (a game that cannot have happened), or None when they agree."""
    constraints = Constraints.from_history(history)
    problems = constraints.problems
    if not problems and not constraints.satisfiable():
        problems = [_clashing_rows(history)]
    if not problems:
        return None
    rows = " / ".join(dict.fromkeys(_ROW.findall(problems[0])))
    # the problem's facts in no language (kind, letter, position...), when Constraints found it
    facts = {k: v for k, v in constraints.facts[0].items() if k != "rows"} if constraints.problems else {}
    return RatenError(
        f"no word fits these hints: {problems[0]}; check the colours you entered in "
        + ("rows " if " / " in rows else "row ")
        + rows,
        "contradiction",
        problem=problems[0],
        rows=rows,
        **facts,
    )


def _clashing_rows(history) -> str:
    """The first row, or pair of rows, that no string of their length can satisfy together (a
    contradiction ``Constraints`` has no sentence for), as a problem naming them."""
    named = [f"row {i + 1} ({g.upper()})" for i, (g, _) in enumerate(history)]
    for j in range(len(history)):
        if not Constraints.from_history([history[j]]).satisfiable():
            return f"{named[j]} contradicts itself"
        for i in range(j):
            if not Constraints.from_history([history[i], history[j]]).satisfiable():
                return f"{named[i]} and {named[j]} contradict each other"
    return " and ".join(named) + " contradict each other"


#: How a constraint problem names a row: ``row 2 (BRINE)``.
_ROW = re.compile(r"row (\d+ \([^\W\d_]+\))")
