"""Safe guesses: which guesses keep every word the guarantee covers within the guess limit.

With ``k`` guesses left, a guess is *safe* when every covered word that still fits the rows
ends in a group that can be solved within ``k - 1`` more guesses (``feasible.feasible``, an
unrestricted search, so "unsafe" is a proof). What the guarantee covers (``--guarantee-over``):

- ``all``: every allowed word, since real games draw answers the list does not hold;
- ``likely``: the list's solutions and every allowed word whose frequency weight
  (``wordlists.prior.frequency_weights``) is at least ``LIKELY_WEIGHT``;
- ``solutions``: the list's own solutions.

Where no guess is safe over the words asked for (hard mode over every word often), the
strategies fall back to the next narrower coverage (``narrower``): between ``all`` and
``likely`` the words of frequency weight at least each of ``LADDER`` (``weight>=0.1`` ...), so
the commoner words keep their guarantee wherever it exists, then the list's own solutions.

The prior orders the guesses; the guarantee only removes those that could lose a game:
``Guarantee.choose`` takes the first safe guess in the strategy's order, else any safe guess
the search finds, else (no guess is safe) the guess with the least worst case.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from raten.engine.feedback import History
from raten.engine.hardmode import keeping, letter_counts, no_rules, rules
from raten.engine.matrix import feedback_against
from raten.engine.transposed import load_transposed
from raten.engine.words import WordSet
from raten.errors import RatenError
from raten.trees import kernels as tk
from raten.trees.feasible import NO, UNKNOWN, YES, feasible, judge_guesses
from raten.trees.memo import memo_get, new_memo, set_key, state_hash, zobrist

#: What a guarantee may cover, widest first: each covers the next (``solutions``: the list's own).
OVER = ("all", "likely", "solutions")
#: ``likely`` covers an allowed word outside the solutions when its frequency weight (0..1, the
#: frequency prior's logistic) is at least this: about as common as the list's rarer solutions
#: (docs/safe-play.md).
LIKELY_WEIGHT = 0.5
#: The frequency weights of the coverages the fallback tries between ``all`` and ``likely``,
#: widest first: German hard mode cannot cover every word, but most common words (docs/safe-play.md).
LADDER = (0.02, 0.05, 0.1, 0.2)
_WEIGHT = "weight>="


def covers(over: str) -> str:
    """A coverage in words, for messages."""
    if over.startswith(_WEIGHT):
        return f"every word of frequency weight {over[len(_WEIGHT) :]} or more"
    return {"all": "every allowed word", "likely": "every likely word", "solutions": "every solution"}[over]


#: The guess limit of a classic game.
LIMIT = 6
#: How many histories' covered candidates a ``Guarantee`` keeps (each history's beginnings too).
FITTING_KEPT = 128
#: The work one decision may do by default (table cells read, as the review's budget counts).
WORK = 2_000_000_000
#: The work the first guess's decision may do: it is made once per list, mode and coverage and
#: kept in the opening book, and it decides over every covered word at once.
OPENER_WORK = 10 * WORK


def covered_set(words: WordSet, over: str) -> WordSet:
    """The word set whose solutions are the words the guarantee covers (allowed: the same)."""
    own = _own_solutions(words)
    if over == "all":
        return words.any_answer()
    if over == "solutions":
        return _cover(words, over, set(own)) if own and own != words.solutions else words
    if over == "likely":
        least = LIKELY_WEIGHT
    elif over.startswith(_WEIGHT) and over[len(_WEIGHT) :] in {f"{t:g}" for t in LADDER}:
        least = float(over[len(_WEIGHT) :])
    else:
        raise RatenError(
            f"unknown --guarantee-over {over!r}: choose one of {', '.join(OVER)}",
            "unknown_guarantee_over",
            over=over,
            choices=", ".join(OVER),
        )
    from raten.wordlists.prior import frequency_weights

    weight = frequency_weights(words.allowed, words.language)
    keep = set(own) | {w for w, x in zip(words.allowed, weight) if x >= least}
    return _cover(words, over, keep)


def _own_solutions(words: WordSet) -> tuple[str, ...]:
    """The solutions the list names apart from its allowed words (none when every allowed word is
    one, as in ``en-nyt``: then a word's frequency weight alone decides)."""
    own = words.list_solutions
    return own if len(own) < len(words.allowed) else ()


def _cover(words: WordSet, over: str, keep: set[str]) -> WordSet:
    sols = tuple(w for w in words.allowed if w in keep)
    return WordSet(
        name=f"{words.name}+{over}", solutions=sols, allowed=words.allowed, language=words.language, source=words.source
    )


def ladder(words: WordSet) -> tuple[str, ...]:
    """Every coverage of ``words``, widest first, each holding the next (a list whose solutions
    are every allowed word has none narrower than ``all``: ``solutions`` is left out)."""
    steps = ("all", *(f"{_WEIGHT}{t:g}" for t in LADDER), "likely")
    return steps + (("solutions",) if _own_solutions(words) else ())


def narrower(over: str, words: WordSet) -> tuple[str, ...]:
    """``over`` and every coverage it contains, widest first."""
    steps = ladder(words)
    return steps[steps.index(over) :] if over in steps else (over,)


def wider(over: str, words: WordSet) -> tuple[str, ...]:
    """The coverages that hold ``over``, narrowest first: where none of its words fits the rows,
    the answer is a rarer word, and the next wider coverage that has one is what to keep safe."""
    steps = ladder(words)
    return steps[: steps.index(over)][::-1] if over in steps else ()


@dataclass(frozen=True)
class Safety:
    """What the guarantee says of one guess: ``safe`` (None: not decided within the work),
    and how many covered words it leaves in groups that could need more than the limit."""

    word: str
    safe: bool | None
    at_risk: int = 0

    def to_dict(self) -> dict:
        return {"word": self.word, "safe": self.safe, "at_risk": self.at_risk}


@dataclass(frozen=True)
class Choice:
    """The guess the guarantee plays: ``safe`` True (within the limit), False (no guess is safe:
    the least worst case, ``worst`` guesses at most) or None (not decided within the work)."""

    word: str
    safe: bool | None
    worst: int | None = None  #: the most guesses the game can take from here with this guess


class Guarantee:
    """Safe guesses for one word list, mode, limit and coverage; the memo is kept between calls."""

    def __init__(self, words: WordSet, hard: bool = False, limit: int = LIMIT, over: str = "all", memo_bits: int = 20):
        if limit < 1:
            raise RatenError("the guarantee's limit must be at least 1 guess")
        self.words = words
        self.hard = hard
        self.limit = limit
        self.over = over
        self.cover = covered_set(words, over)
        n = len(self.cover.solutions)
        glet = np.ascontiguousarray(self.cover.allowed_letters)
        self.tables = (
            load_transposed(self.cover),
            self.cover.solution_rows.astype(np.int32),
            zobrist(n, 11),
            zobrist(n, 12),
            glet,
            letter_counts(glet, words.alphabet.size),
        )
        self.memo = new_memo(memo_bits)
        self.stats = np.zeros(tk.N_STATS, dtype=np.int64)
        self.all_guesses = np.arange(len(words.allowed), dtype=np.int32)
        self._fitting: dict[History, np.ndarray] = {}

    @property
    def cells(self) -> int:
        """The work done so far (table cells read, over every call): what ``work`` budgets count."""
        return int(self.stats[tk.ST_CELLS])

    # --- where a game stands ----------------------------------------------------------------

    def candidates(self, history: History) -> np.ndarray:
        """The covered words (rows of ``cover.solutions``) that fit every row, sorted (the last
        few histories kept: a hint asks for the same one three times)."""
        key = tuple(history)
        fitting = self._fitting.get(key)
        if fitting is None:
            # from the longest history kept that this one extends: each row then reads only the
            # words still fitting, not a whole column of the table
            mt = self.tables[0]
            done, fitting = 0, np.arange(mt.shape[0], dtype=np.int32)
            for k in range(len(key) - 1, 0, -1):
                kept = self._fitting.get(key[:k])  # one lookup: another thread may clear the dict
                if kept is not None:
                    done, fitting = k, kept
                    break
            if len(self._fitting) + len(key) - done > FITTING_KEPT:
                self._fitting.clear()  # one call: a server's threads never see it half done
            for k in range(done, len(key)):
                guess, code = key[k]
                row = self.words.allowed_index.get(guess)
                if row is not None:
                    codes = mt[fitting, row]
                else:
                    codes = feedback_against(guess, [self.cover.solutions[i] for i in fitting])
                fitting = fitting[codes == code]
                self._fitting[key[: k + 1]] = fitting  # a later move of the same game starts here
        return fitting

    def _rules(self, history: History) -> tuple[np.ndarray, np.ndarray]:
        w = self.words
        return rules(history, w.length, w.alphabet) if self.hard else no_rules(w.length, w.alphabet.size)

    def _legal(self, greens: np.ndarray, need: np.ndarray) -> np.ndarray:
        if not self.hard:
            return self.all_guesses
        glet, gcnt = self.tables[4], self.tables[5]
        return keeping(self.all_guesses, glet, gcnt, greens, need).astype(np.int32)

    def _feasible(self, grp: np.ndarray, dl: int, legal: np.ndarray, greens: np.ndarray, need: np.ndarray) -> int:
        hh = np.uint64(state_hash(greens, need))  # typed as the kernel's own hashes (numba #6713)
        return int(feasible(self.tables, self.memo, grp, dl, self.hard, legal, greens, need, hh, self.stats))

    def _start(self, work: int | None) -> None:
        self.stats[tk.ST_STOPPED] = 0
        self.stats[tk.ST_STOP_AT] = 0 if work is None else self.stats[tk.ST_CELLS] + max(1, work)

    def _until(self, end: int) -> None:
        """Go on working until ``ST_CELLS`` reaches ``end`` (0: no end)."""
        self.stats[tk.ST_STOPPED] = 0
        self.stats[tk.ST_STOP_AT] = end

    # --- one guess --------------------------------------------------------------------------

    def _judge(
        self, rows: Sequence[int], cands: np.ndarray, left: int, legal, greens, need, count: bool
    ) -> list[Safety]:
        """Whether each guess of ``rows`` is safe with ``left`` guesses left (it included): one
        compiled call for them all (``feasible.judge_guesses``)."""
        picked = np.asarray(rows, dtype=np.int32)
        safe = np.empty(len(picked), dtype=np.int64)
        at_risk = np.empty(len(picked), dtype=np.int64)
        hh = np.uint64(state_hash(greens, need))  # typed as the kernel's own hashes (numba #6713)
        search = (self.tables, self.memo, cands, picked, left, self.hard, legal, greens, need, hh, count, self.stats)
        judge_guesses(*search, safe, at_risk)
        verdict = {YES: True, NO: False, UNKNOWN: None}
        return [Safety(self.words.allowed[r], verdict[int(v)], int(k)) for r, v, k in zip(picked, safe, at_risk)]

    def judge(self, history: History, guesses: Sequence[str], work: int | None = WORK) -> list[Safety]:
        """Each guess's ``Safety`` after ``history`` (every unsafe guess's words at risk counted)."""
        cands = self.candidates(history)
        left = self.limit - len(history)
        greens, need = self._rules(history)
        legal = self._legal(greens, need)
        self._start(work)
        if left <= 0:  # no guess left: safe only when nothing covered is left to find
            return [Safety(word, len(cands) == 0, len(cands)) for word in guesses]
        rows = [self.words.allowed_index.get(word) for word in guesses]
        judged = [r for r in rows if r is not None] if len(cands) else []
        verdicts = iter(self._judge(judged, cands, left, legal, greens, need, count=True) if judged else [])
        # no row to judge a word by, or nothing covered left: nothing to say
        return [
            next(verdicts) if r is not None and len(cands) else Safety(word, None) for word, r in zip(guesses, rows)
        ]

    # --- the guess to play ------------------------------------------------------------------

    def choose(self, history: History, ranked: Sequence[str], work: int | None = WORK) -> Choice | None:
        """The first safe guess of ``ranked`` (the strategy's order); else the first safe guess
        the search finds; else, when none is safe, the guess with the least worst case. None when
        every covered word is ruled out (the guarantee has nothing to say) or no guess is left.

        Within ``work`` the ranked guesses have half of it, in rounds (``_first_safe``), so that
        one guess that is hard to decide does not use up the turn of those after it; the search
        for a safe guess of its own has what is left."""
        cands = self.candidates(history)
        left = self.limit - len(history)
        if len(cands) == 0 or left <= 0:
            return None
        greens, need = self._rules(history)
        legal = self._legal(greens, need)
        rows = [(w, r) for w in ranked if (r := self.words.allowed_index.get(w)) is not None]
        start = int(self.stats[tk.ST_CELLS])
        end = 0 if work is None else start + max(1, work)
        half = 0 if work is None else start + work // 2
        safe, undecided = self._first_safe(rows, (cands, left, legal, greens, need), half)
        if safe is not None:
            return Choice(safe, True, self.limit)
        undecided_choice = Choice(undecided or ranked[0], None) if ranked else None
        self._until(end)
        if end and self.stats[tk.ST_CELLS] >= end:
            return undecided_choice
        # none of the ranked guesses: the search's own, with the guesses left, then one more...
        for extra in range(0, self.limit + 1):
            found = self._search(cands, left + extra, legal, greens, need)
            if found is None:
                return undecided_choice
            if found >= 0:
                return Choice(self.words.allowed[found], extra == 0, len(history) + left + extra)
        return None

    #: The rounds of ``_first_safe``: the first gives each guess this share of the work, each next
    #: one this many times more.
    ROUND_SHARE, ROUND_GROWTH = 1 / 8, 4

    def _first_safe(self, rows: list[tuple[str, int]], position: tuple, end: int) -> tuple[str | None, str | None]:
        """(the first safe guess of ``rows`` in their order, as far as the work up to ``end``
        settles it; the first guess left undecided). In rounds: each guess not yet settled, up to
        the first proven safe, is judged within a share that grows round by round, so an early
        guess keeps its turn and a later one is reached before the work runs out; when it does,
        the first guess proven safe is taken even if an earlier one is undecided."""
        cands, left, legal, greens, need = position
        verdict: dict[str, bool | None] = {}
        share = max(1, int((end - self.stats[tk.ST_CELLS]) * self.ROUND_SHARE / max(1, len(rows)))) if end else 0
        while True:
            for word, row in rows:
                if verdict.get(word) is True:
                    break  # no guess after a safe one needs judging
                if verdict.get(word) is False:
                    continue
                cells = int(self.stats[tk.ST_CELLS])
                self._until(0 if not end else min(end, cells + share))
                verdict[word] = self._judge([row], cands, left, legal, greens, need, count=False)[0].safe
                if verdict[word] or (end and self.stats[tk.ST_CELLS] >= end):
                    break
            open_ = [w for w, _ in rows if verdict.get(w) is not False]  # not proven unsafe, in order
            undecided = next((w for w in open_ if verdict.get(w) is None), None)
            if not open_ or verdict.get(open_[0]) is True:
                return (open_[0] if open_ else None), undecided
            if not end or self.stats[tk.ST_CELLS] >= end:
                return next((w for w in open_ if verdict.get(w)), None), undecided
            share *= self.ROUND_GROWTH

    def _search(self, cands, dl, legal, greens, need) -> int | None:
        """A guess that solves ``cands`` within ``dl`` guesses (-1: none does; None: out of work)."""
        if len(cands) <= dl:  # the candidates one by one (``feasible`` keeps no guess for these)
            return int(self.cover.solution_rows[cands[0]])
        if len(cands) <= 2:
            return -1
        r = self._feasible(cands, dl, legal, greens, need)
        if r == UNKNOWN:
            return None
        if r == NO:
            return -1
        if dl == 2:
            return int(tk.perfect_splitter(self.tables[0], cands, legal, self.words.patterns))
        k1, k2 = set_key(cands, self.tables[2], self.tables[3], dl, np.uint64(state_hash(greens, need)))
        hit, v, _, best = memo_get(self.memo, np.uint64(k1), np.uint64(k2))  # typed as the kernel keys them
        if not hit or v != YES or best < 0:
            raise AssertionError("a feasible set without its guess in the memo")
        return int(best)
