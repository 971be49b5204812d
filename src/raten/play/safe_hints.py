"""Hints under the guarantee: the guess to play and which of the strategy's guesses are safe.

Every face that shows hints (`raten hint`, `raten solve`, the solver pages) asks this module,
so they all say the same: the strategy's order is kept, the first safe guess is the one to
play (``GuardedStrategy.decide``: from the opening book for the first two moves), and each of
the first ``JUDGED`` hints carries its verdict, with how many covered words it could send past
the limit ("after TASTE, 4 words could need a seventh guess").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from raten.engine.rank import Hint
from raten.play.strategies import GUARDED_RANKED, GuardedStrategy, RankingStrategy, get_strategy
from raten.trees.book import Decision, shipped_book
from raten.trees.safety import Safety, covers

#: How many of the hints shown get a verdict (the others are not judged: it costs a search each).
JUDGED = 10

_STRATEGIES: dict[tuple[str, int, str, int | None], GuardedStrategy] = {}


def guarded_strategy(strategy: str, limit: int, over: str, work: int | None = None) -> GuardedStrategy:
    """The guarded strategy for a ranking strategy's name and work budget, kept per process with its memo."""
    key = (strategy, limit, over, work)
    if key not in _STRATEGIES:
        base = get_strategy(strategy)
        if not isinstance(base, RankingStrategy):
            raise TypeError(f"{strategy}: the guarantee guards a ranking strategy")
        _STRATEGIES[key] = GuardedStrategy(base, limit, over, work)
    return _STRATEGIES[key]


@dataclass(frozen=True)
class _Ranked(RankingStrategy):
    """A ranking strategy that already knows one position's ranking: the guarded strategy's
    decision there reads it instead of ranking the position a second time (the hint ranked it)."""

    state: Any = None
    ranked: tuple[Hint, ...] = ()

    def rank(self, state, top: int = 5) -> list[Hint]:
        # asked GUARDED_RANKED deep: a shorter ranking is every guess the strategy ranks here
        if state is self.state and top <= max(len(self.ranked), GUARDED_RANKED):
            return list(self.ranked[:top])
        return super().rank(state, top=top)


def reusing(strat: GuardedStrategy, state: Any, ranked: Sequence[Hint] | None) -> GuardedStrategy:
    """``strat`` (its memo shared) reading ``ranked``, the strategy's own ranking of ``state``
    asked at least ``GUARDED_RANKED`` deep (fewer: every guess it ranks there); without one,
    ``strat`` itself."""
    if ranked is None:
        return strat
    base = _Ranked(strat.base.name, strat.base.description, state, tuple(ranked))
    return replace(strat, base=base)


@dataclass(frozen=True)
class GuardedHints:
    """What the guarantee says of a position: the guess to play and the verdict of each judged hint."""

    limit: int
    over: str  #: the coverage asked for
    decision: Decision  #: the guess to play, and the coverage it is safe over
    verdicts: dict[str, Safety]
    covered: int  #: how many covered words fit the rows (over the decision's coverage)

    def verdict(self, word: str) -> Safety | None:
        """The verdict of ``word``, or None when it was not judged."""
        return self.verdicts.get(word)

    def mark(self, word: str) -> str:
        """The verdict in words: ``safe``, ``4 words could need a 7th guess``, or ``not decided``."""
        v = self.verdicts.get(word)
        if v is None:
            return ""
        if v.safe:
            return "safe"
        if v.safe is False:
            return f"{v.at_risk} word{'s' if v.at_risk != 1 else ''} could need a guess {self.limit + 1}"
        return "not decided"

    def summary(self) -> str:
        """One line: the guess to play and what it guarantees."""
        d = self.decision
        if d.safe:
            return f"safe guess: {d.word.upper()} finds {covers(d.over)} within {self.limit} guesses"
        if d.safe is False:
            return (
                f"no guess finds {covers(d.over)} within {self.limit} guesses: {d.word.upper()} has the least "
                "worst case"
            )
        if not self.covered:
            return f"no word the guarantee covers fits the rows: {d.word.upper()} is the strategy's guess"
        return f"beyond what the guarantee can check here: {d.word.upper()} is the strategy's guess"

    def to_dict(self, hints: Sequence[Hint]) -> dict[str, Any]:
        return {
            "limit": self.limit,
            "over": self.over,
            "guess": self.decision.word,
            "safe": self.decision.safe,
            "safe_over": self.decision.over,
            "covered": self.covered,
            "hints": [self.verdicts[h.word].to_dict() if h.word in self.verdicts else None for h in hints],
        }


def guarded_hints(
    state: Any,
    hints: Sequence[Hint],
    limit: int,
    over: str,
    strategy: str = "entropy",
    judged: int = JUDGED,
    work: int | None = None,
    ranked: Sequence[Hint] | None = None,
) -> GuardedHints:
    """The guarantee's view of ``state`` and its ``hints`` (see the module); ``work`` bounds the
    search after the book's two moves (None: ``safety.WORK``). ``ranked``: the strategy's own
    ranking of ``state``, asked at least ``GUARDED_RANKED`` deep, when the caller has it (the
    hints of ``answers_only`` are not): the decision then ranks nothing again, half a hint's time."""
    strat = guarded_strategy(strategy, limit, over, None if len(state.history) <= 1 else work)
    strat = reusing(strat, state, ranked)
    key = strat.book_key(state)
    book = shipped_book(state.words, key) if len(state.history) <= 1 else None
    found = book.decision(state.history) if book is not None else None
    if len(state.history) <= 1 and found is None:
        # the first two moves without a book take minutes: beyond what a hint can check
        guarantee = strat.guarantee(state, over)
        return GuardedHints(
            limit, over, Decision(hints[0].word, None, over), {}, len(guarantee.candidates(state.history))
        )
    decision = strat.decide(state)
    verdicts: dict[str, Safety] = {}
    if book is not None and not state.history:
        verdicts = {d["word"]: Safety(d["word"], d["safe"], d["at_risk"]) for d in book.openers}
    guarantee = strat.guarantee(state, decision.over)
    covered = len(guarantee.candidates(state.history))
    if decision.safe:  # proven safe by the decision (over the verdicts' coverage): no second search
        verdicts.setdefault(decision.word, Safety(decision.word, True))
    rest = [h.word for h in hints[:judged] if h.word not in verdicts]
    if rest and covered:
        # the hints' marks within the caller's bound on the book's moves too (a server's second
        # move judged ten hints with the book's 2e9 cells: 17 s)
        bound = work if work is not None else key.work
        verdicts |= {v.word: v for v in guarantee.judge(state.history, rest, bound)}
    if decision.safe and decision.word not in verdicts:
        verdicts[decision.word] = Safety(decision.word, True)
    return GuardedHints(limit, over, decision, verdicts, covered)
