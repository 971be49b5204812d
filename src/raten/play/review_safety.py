"""The review's "best safe guess": whether each guess of a game kept every covered word within the limit.

A review asks the same guarantee the hints ask (``raten.play.safe_hints``): the first two
positions are read from the opening book only (deciding them takes minutes), every later one
is searched within ``WORK``. Where the player's guess was not safe, the guarantee's own guess
there (the first safe one in the strategy's order) is named, with how many covered words the
player's guess could send past the limit ("after TASTE, 4 words could need a seventh guess").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from raten.engine.state import State
from raten.engine.words import WordSet
from raten.play.safe_hints import guarded_strategy
from raten.trees.book import Decision, shipped_book

#: The work (table cells) the review's guarantee may do for each decision and each judged guess
#: after the book's first move: 2 CPU s at most on `de` over every word (about 5·10⁶ cells a
#: second there); beyond it the guess is "undecided".
WORK = 10_000_000

#: What a verdict can be: ``safe``; ``unsafe`` (``at_risk`` covered words could need more);
#: ``undecided`` (not decided within the work); ``unchecked`` (beyond what a review checks: the
#: first two moves where the book has no entry, or a guess outside the list); ``uncovered`` (no
#: covered word fits the rows, so there is nothing to keep).
STATUSES = ("safe", "unsafe", "undecided", "unchecked", "uncovered")


@dataclass(frozen=True)
class MoveSafety:
    """The guarantee's verdict of one reviewed guess, and its own guess at that position."""

    status: str  #: one of ``STATUSES``
    at_risk: int  #: covered words the player's guess leaves in groups that could need a guess more
    best: str | None  #: the guarantee's guess here (None where it was not checked)
    best_safe: bool | None  #: True: ``best`` is safe; False: no guess is (the least worst case)
    over: str  #: the coverage the verdicts are over

    @property
    def safe(self) -> bool | None:
        """True safe, False unsafe, None when not known."""
        return True if self.status == "safe" else False if self.status == "unsafe" else None


def _verdict(strat, state: State, guess: str, decision: Decision, work: int | None) -> MoveSafety:
    """The player's ``guess`` judged over the coverage of the guarantee's ``decision``."""
    guarantee = strat.guarantee(state, decision.over)
    if not len(guarantee.candidates(state.history)):
        return MoveSafety("uncovered", 0, None, None, decision.over)
    if guess == decision.word and decision.safe:
        return MoveSafety("safe", 0, decision.word, True, decision.over)
    if guess not in state.words.allowed_index:
        return MoveSafety("unchecked", 0, decision.word, decision.safe, decision.over)
    v = guarantee.judge(state.history, [guess], work)[0]
    status = "safe" if v.safe else "unsafe" if v.safe is False else "undecided"
    return MoveSafety(status, v.at_risk, decision.word, decision.safe, decision.over)


def review_safety(
    words: WordSet,
    hard: bool,
    moves: Sequence[tuple[str, int]],
    limit: int,
    over: str,
    strategy: str = "entropy",
    work: int | None = WORK,
) -> list[MoveSafety | None]:
    """Each move's ``MoveSafety`` (None for a move past the limit: the guarantee is over by then)."""
    out: list[MoveSafety | None] = []
    state = State(words, hard=hard)
    for i, (guess, code) in enumerate(moves):
        if i >= limit:
            out.append(None)
            continue
        if i <= 1:
            strat = guarded_strategy(strategy, limit, over)  # the book's key: the default work
            book = shipped_book(words, strat.book_key(state))
            decision = book.decision(state.history) if book is not None else None
            if decision is None:
                out.append(MoveSafety("unchecked", 0, None, None, over))
            elif i == 0 and guess != decision.word:
                known = {d["word"]: d for d in book.openers} if book is not None else {}
                d = known.get(guess)
                status = "unchecked" if d is None else {True: "safe", False: "unsafe"}.get(d["safe"], "undecided")
                at_risk = 0 if d is None else int(d["at_risk"])
                out.append(MoveSafety(status, at_risk, decision.word, decision.safe, decision.over))
            else:
                out.append(_verdict(strat, state, guess, decision, work))
        else:
            strat = guarded_strategy(strategy, limit, over, work)
            out.append(_verdict(strat, state, guess, strat.decide(state), work))
        state = state.after(guess, code)
    return out
