"""What a history of (guess, pattern) says about the answer, in terms a person can read.

Filtering by these constraints keeps exactly the words that filtering by pattern
equality keeps (a property test checks it); they also explain contradictions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from raten.engine.feedback import GREEN, GREY, Move, code_to_colours


def _times(n: int) -> str:
    """``once``, ``twice`` or ``N times``: counts the way a person says them."""
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def _count_fact(letter: str, n: int, exact: bool) -> str:
    """What a row says about how often ``letter`` appears, as a clause."""
    letter = letter.upper()
    if exact:
        return f"there is no {letter}" if n == 0 else f"{letter} appears exactly {_times(n)}"
    return f"{letter} is in the word" if n == 1 else f"{letter} appears at least {_times(n)}"


@dataclass
class Constraints:
    """Greens, positions each present letter is not in, letter counts and excluded letters.

    Positions are 0-based here; ``to_dict`` and ``describe`` show them 1-based. Every fact
    remembers the row (1-based) that first said it, so a contradiction names both rows;
    ``problems`` come in a fixed order (rows in order, letters as they stand in the guess).
    ``length`` is the words' length, taken from the guesses (0 before any).
    """

    greens: dict[int, str] = field(default_factory=dict)
    not_at: dict[str, set[int]] = field(default_factory=dict)
    min_counts: dict[str, int] = field(default_factory=dict)
    exact_counts: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    length: int = 0
    #: Each problem's facts in no language (``kind``: green, yellow_grey, count or too_many, the
    #: ``rows`` it names as ``1 (CRANE) / 2 (BRINE)``, its ``letter``, ``position``, ``other``, ``n``),
    #: so a face can word it in its own language.
    facts: list[dict[str, str | int]] = field(default_factory=list)
    _rows: list[str] = field(default_factory=list, repr=False)
    _green_row: dict[int, int] = field(default_factory=dict, repr=False)
    _min_row: dict[str, int] = field(default_factory=dict, repr=False)
    _exact_row: dict[str, int] = field(default_factory=dict, repr=False)

    @classmethod
    def from_history(cls, history: Sequence[Move]) -> Constraints:
        """Fold every (guess, code) into one summary, noting contradictions as it goes."""
        c = cls()
        for guess, code in history:
            c._add(guess, code_to_colours(code, len(guess)))
        return c

    def _row(self, row: int) -> str:
        """``row 2 (BRINE)``: how a problem names the row a fact came from."""
        return f"row {row} ({self._rows[row - 1].upper()})"

    def _problem(self, text: str, kind: str, rows: Sequence[int], **facts: str | int) -> None:
        if text not in self.problems:
            self.problems.append(text)
            named = " / ".join(f"{r} ({self._rows[r - 1].upper()})" for r in rows)
            self.facts.append({"kind": kind, "rows": named, **facts})

    def _add(self, guess: str, colours: tuple[int, ...]) -> None:
        self._rows.append(guess)
        self.length = len(guess)
        row = len(self._rows)
        shown: Counter[str] = Counter()
        greyed: dict[str, None] = {}  # insertion-ordered: problems name letters as they stand in the guess
        for i, (letter, colour) in enumerate(zip(guess, colours)):
            if colour == GREEN:
                old = self.greens.get(i)
                if old is not None and old != letter:
                    self._problem(
                        f"{self._row(self._green_row[i])} and {self._row(row)} contradict each other: "
                        f"position {i + 1} cannot be both {old.upper()} and {letter.upper()}",
                        "green",
                        (self._green_row[i], row),
                        position=i + 1,
                        letter=old.upper(),
                        other=letter.upper(),
                    )
                else:
                    self._green_row.setdefault(i, row)
                self.greens[i] = letter
                shown[letter] += 1
            else:
                self.not_at.setdefault(letter, set()).add(i)
                if colour == GREY:
                    greyed[letter] = None
                else:
                    if letter in greyed:
                        self._problem(
                            f"{self._row(row)}: a yellow {letter.upper()} cannot follow a grey {letter.upper()}",
                            "yellow_grey",
                            (row,),
                            letter=letter.upper(),
                        )
                    shown[letter] += 1
        for letter in guess:
            n = shown.get(letter, 0)
            if n == 0 or letter in greyed:
                continue
            exact = self.exact_counts.get(letter)
            if exact is not None and n > exact:
                self._clash(letter, self._exact_row[letter], exact, True, row, n, False)
            if n > self.min_counts.get(letter, 0):
                self.min_counts[letter] = n
                self._min_row[letter] = row
        for letter in greyed:
            n = shown.get(letter, 0)
            old_count = self.exact_counts.get(letter)
            if old_count is not None and old_count != n:
                self._clash(letter, self._exact_row[letter], old_count, True, row, n, True)
                continue
            least = self.min_counts.get(letter, 0)
            if least > n:
                self._clash(letter, self._min_row[letter], least, False, row, n, True)
                continue
            if old_count is None:
                self.exact_counts[letter] = n
                self._exact_row[letter] = row
            if n > least:
                self.min_counts[letter] = n
                self._min_row[letter] = row
        if sum(self.min_counts.values()) > self.length:
            rows = sorted({self._min_row[letter] for letter in self.min_counts})
            names = " and ".join(self._row(r) for r in rows)
            self._problem(
                f"{names} together show {sum(self.min_counts.values())} letters: "
                f"more than {self.length} letters are known to be in the word",
                "too_many",
                rows,
                n=sum(self.min_counts.values()),
            )

    def _clash(self, letter: str, row_a: int, n_a: int, exact_a: bool, row_b: int, n_b: int, exact_b: bool) -> None:
        """Note that two rows say different things about how often ``letter`` appears."""
        if row_a == row_b:
            return
        first, second = sorted(((row_a, n_a, exact_a), (row_b, n_b, exact_b)))
        self._problem(
            f"{self._row(first[0])} says {_count_fact(letter, first[1], first[2])}, "
            f"but {self._row(second[0])} says {_count_fact(letter, second[1], second[2])}",
            "count",
            (first[0], second[0]),
            letter=letter.upper(),
        )

    @property
    def excluded(self) -> list[str]:
        """Letters known not to be in the word at all."""
        return sorted(letter for letter, n in self.exact_counts.items() if n == 0)

    def satisfiable(self) -> bool:
        """Whether any string of ``length`` letters, word or not, could have shown every row: no
        ``problems``, and a search over positions (each letter with a count rule, and one free
        letter of a–z, one no row counts) finds a string the constraints allow."""
        if self.problems:
            return False
        letters = "abcdefghijklmnopqrstuvwxyz"
        counted = sorted(set(self.min_counts) | set(self.exact_counts))
        free = [c for c in letters if c not in counted]
        need = {c: self.min_counts.get(c, 0) for c in counted}
        most = {c: self.exact_counts.get(c, self.length) for c in counted}
        if any(need[c] > most[c] for c in counted):
            return False
        used = dict.fromkeys(counted, 0)

        def options(i: int) -> list[str]:
            if i in self.greens:
                green = self.greens[i]
                return [] if i in self.not_at.get(green, ()) else [green]
            spare = next((c for c in free if i not in self.not_at.get(c, ())), None)
            return [c for c in counted if i not in self.not_at.get(c, ())] + ([spare] if spare else [])

        def fill(i: int) -> bool:
            missing = sum(max(0, need[c] - used[c]) for c in counted)
            if missing > self.length - i:
                return False
            if i == self.length:
                return True
            for c in options(i):
                if c in used:
                    if used[c] >= most[c]:
                        continue
                    used[c] += 1
                    ok = fill(i + 1)
                    used[c] -= 1
                else:
                    ok = fill(i + 1)
                if ok:
                    return True
            return False

        return fill(0)

    def allows(self, word: str) -> bool:
        """Whether ``word`` satisfies every constraint."""
        for i, letter in self.greens.items():
            if word[i] != letter:
                return False
        for letter, positions in self.not_at.items():
            if any(word[i] == letter for i in positions):
                return False
        counts = Counter(word)
        if any(counts[letter] < n for letter, n in self.min_counts.items()):
            return False
        return all(counts[letter] == n for letter, n in self.exact_counts.items())

    def to_dict(self) -> dict:
        """JSON-ready summary with 1-based positions."""
        return {
            "greens": {str(i + 1): letter for i, letter in sorted(self.greens.items())},
            "not_at": {
                letter: sorted(i + 1 for i in pos)
                for letter, pos in sorted(self.not_at.items())
                if self.exact_counts.get(letter) != 0
            },
            "min_counts": dict(sorted(self.min_counts.items())),
            "exact_counts": {k: v for k, v in sorted(self.exact_counts.items()) if v > 0},
            "excluded": self.excluded,
        }

    def describe(self) -> list[str]:
        """One line per kind of fact, for a person."""
        lines = []
        if self.greens:
            pattern = "".join(self.greens.get(i, "_") for i in range(self.length)).upper()
            lines.append(f"greens: {pattern}")
        present = self.to_dict()["not_at"]
        for letter, positions in present.items():
            where = ", ".join(map(str, positions))
            lines.append(f"{letter.upper()} is in the word, not at position {where}")
        for letter, n in sorted(self.min_counts.items()):
            exact = self.exact_counts.get(letter)
            if exact is not None:
                lines.append(f"{letter.upper()} appears exactly {exact} time{'s' if exact != 1 else ''}")
            elif n > 1:
                lines.append(f"{letter.upper()} appears at least {n} times")
        if self.excluded:
            lines.append("not in the word: " + " ".join(x.upper() for x in self.excluded))
        return lines


def standing(candidates: Sequence[str], *, solved: bool = False, fallback: bool = False, guesses: int = 0) -> str:
    """One line on where a game stands, the same for every face: solved, the one word left, or how many."""
    if solved and candidates:
        return f"solved in {guesses} guess{'es' if guesses != 1 else ''}: {candidates[0].upper()}"
    if len(candidates) == 1:
        return f"the answer is {candidates[0].upper()}"
    n = len(candidates)
    if fallback:
        return f"{n} allowed word{'s' if n != 1 else ''} fit{'s' if n == 1 else ''}"
    return f"{n} candidate{'s' if n != 1 else ''} left"
