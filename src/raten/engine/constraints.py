"""What a history of (guess, pattern) says about the answer, in terms a person can read.

Filtering by these constraints keeps exactly the words that filtering by pattern
equality keeps (a property test checks it); they also explain contradictions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from raten.engine.feedback import GREEN, GREY, WORD_LENGTH, Move, code_to_colours


@dataclass
class Constraints:
    """Greens, positions each present letter is not in, letter counts and excluded letters.

    Positions are 0-based here; ``to_dict`` and ``describe`` show them 1-based.
    """

    greens: dict[int, str] = field(default_factory=dict)
    not_at: dict[str, set[int]] = field(default_factory=dict)
    min_counts: dict[str, int] = field(default_factory=dict)
    exact_counts: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    @classmethod
    def from_history(cls, history: Sequence[Move]) -> Constraints:
        """Fold every (guess, code) into one summary, noting contradictions as it goes."""
        c = cls()
        for guess, code in history:
            c._add(guess, code_to_colours(code))
        return c

    def _add(self, guess: str, colours: tuple[int, ...]) -> None:
        shown: Counter[str] = Counter()
        greyed: set[str] = set()
        for i, (letter, colour) in enumerate(zip(guess, colours)):
            if colour == GREEN:
                old = self.greens.get(i)
                if old is not None and old != letter:
                    self.problems.append(f"position {i + 1} cannot be both {old.upper()} and {letter.upper()}")
                self.greens[i] = letter
                shown[letter] += 1
            else:
                self.not_at.setdefault(letter, set()).add(i)
                if colour == GREY:
                    greyed.add(letter)
                else:
                    if letter in greyed:
                        self.problems.append(
                            f"{guess.upper()}: a yellow {letter.upper()} cannot follow a grey {letter.upper()}"
                        )
                    shown[letter] += 1
        for letter, n in shown.items():
            self.min_counts[letter] = max(self.min_counts.get(letter, 0), n)
        for letter in greyed:
            n = shown.get(letter, 0)
            old_count = self.exact_counts.get(letter)
            if old_count is not None and old_count != n:
                self.problems.append(f"{letter.upper()} cannot appear exactly {old_count} and exactly {n} times")
            self.exact_counts[letter] = n
        for letter, n in self.exact_counts.items():
            if self.min_counts.get(letter, 0) > n:
                self.problems.append(f"{letter.upper()} appears at least {self.min_counts[letter]} times, not {n}")
        if sum(self.min_counts.values()) > WORD_LENGTH:
            self.problems.append(f"more than {WORD_LENGTH} letters are known to be in the word")

    @property
    def excluded(self) -> list[str]:
        """Letters known not to be in the word at all."""
        return sorted(letter for letter, n in self.exact_counts.items() if n == 0)

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
            pattern = "".join(self.greens.get(i, "_") for i in range(WORD_LENGTH)).upper()
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
