"""The review of a finished game: for each guess its exact value, the best guess, regret, skill and luck.

Values are those of ``raten.trees.values`` (V and Q in expected guesses, the final green one
counted). Per guess: regret = Q(guess) - Q(best), skill = floor(99 * exp(-2 * regret)) (99
exactly when the regret is 0); the game's total regret is the sum, a bound when a guess's regret
is (its skill then a bound the other way), luck = 99 * (share of outcomes that would have been worse +
half the share of outcomes as good), so a typical outcome scores about 50. Under a prior
(``prior="frequency"``) every value, share and bit is weighted by how likely each candidate
is; under the uniform prior every candidate weighs the same. The formulas in players'
words: docs/review.md.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from functools import cache

import numpy as np

from raten.engine.feedback import format_pattern, pattern
from raten.engine.state import contradiction
from raten.engine.words import WordSet
from raten.errors import Notice, RatenError
from raten.play.review_colours import colours_of, share_says_hard
from raten.play.review_safety import MoveSafety
from raten.trees.values import INF, Budget, Position, Total, Values
from raten.wordlists.written import written

#: Up to this many candidates the rank is exact (every legal guess's Q against the guess's), else by entropy.
RANK_EXACT_MAX = 40
#: The solver's own game stops after this many guesses (only reached when it runs on bounds).
SOLVER_MAX = 10


def skill_score(regret: float) -> int:
    """0-99 from the expected guesses lost: 99 exactly at 0, 60 at 0.25, 36 at 0.5, 13 at 1."""
    return 99 if regret <= 0 else min(98, math.floor(99 * math.exp(-2 * regret)))


def luck_score(worse: float, same: float) -> int:
    """0-99 from the shares of outcomes worse than and as good as the one that came: 50 is typical."""
    return max(0, min(99, round(99 * (worse + same / 2))))


@dataclass
class MoveReview:
    """One guess judged: the position before it, its value against the best, skill and luck."""

    number: int
    guess: str
    pattern: str
    before: int
    after: int
    bits: float  #: information this outcome gave: log2(before / after)
    expected_bits: float  #: the guess's entropy over the candidates before it
    could_be_answer: bool
    q: float | None
    q_exact: bool
    best: str | None
    best_q: float | None
    best_exact: bool
    regret: float | None
    regret_kind: str  #: "exact", "at least", "at most" or "unknown"
    rank: int | None
    rank_of: int
    rank_by: str  #: "exact" (every legal guess's Q) or "entropy" (the stated proxy)
    skill: int | None
    luck: int | None
    limit: bool = True  #: values under the 6-guess limit (False: it could no longer be kept)
    notes: list[str] = field(default_factory=list)
    best_after: int | None = None  #: candidates the best guess would have left against the answer
    safety: MoveSafety | None = None  #: the guarantee's verdict (None: off, or past the limit)


@dataclass
class GameReview:
    """The whole game: each move, total regret, skill, luck, guesses against the optimum's expectation."""

    words: str
    hard: bool
    answer: str | None
    solved: bool
    guesses: int
    moves: list[MoveReview]
    total_regret: float | None  #: the guesses' regrets summed: exact, or a bound (``total_kind``)
    skill: int | None  #: from ``total_regret``: exact, or a bound the other way (``skill_kind``)
    luck: int | None
    expected: float | None  #: the optimum's expected guesses from the start (V of the start)
    expected_exact: bool
    solver: list[tuple[str, str]]  #: the solver's own game against the answer (guess, pattern)
    solver_source: str  #: "exact" when every solver guess is the proven best, else "exact, then entropy"
    prior: str = "uniform"
    notes: list[str] = field(default_factory=list)
    total_kind: str = "exact"  #: "exact", "at least", "at most" or "unknown", as a guess's ``regret_kind``
    total_exact: bool = True
    skill_kind: str = "exact"  #: "exact", "at most" (the total is at least), "at least" or "unknown"
    skill_exact: bool = True
    guarantee: int | None = None  #: the guarantee's limit (None: off)
    guarantee_over: str | None = None  #: what it covers (``raten.trees.safety.OVER``)

    def to_dict(self) -> dict:
        """Plain JSON-ready values (``--json`` and the web API)."""
        out = asdict(self)
        out["solver"] = [{"guess": g, "pattern": p} for g, p in self.solver]
        return out


def _entropy(codes: np.ndarray, weights: np.ndarray) -> float:
    """The bits a guess's outcomes give on average, each outcome as likely as its candidates' weight."""
    mass = np.bincount(codes.astype(np.int64), weights=weights.astype(np.float64))
    p = mass[mass > 0] / mass.sum()
    return float(-(p * np.log2(p)).sum())


def _bits(mass: float, mass_after: float, solved: bool, n: int) -> float:
    """The information an outcome gave: log2 of the candidates' weight before over the weight after
    (uniform: log2(before / after)); an all-green answer outside the list gave log2(n), any other
    outcome no candidate showed 0."""
    if mass_after:
        return math.log2(mass / mass_after)
    return math.log2(n) if solved else 0.0


def _group_keys(data, rows: np.ndarray, cands: np.ndarray, weights: np.ndarray, patterns: int) -> np.ndarray:
    """For each guess row: the sum of its groups' heaviest weights (the search's key without the
    guess's own weight; uniform: the number of groups); codes below ``patterns``."""
    codes = np.asarray(data[rows][:, cands]).astype(np.int64) + patterns * np.arange(len(rows))[:, None]
    most = np.zeros(len(rows) * patterns, dtype=np.int64)
    np.maximum.at(most, codes.ravel(), np.broadcast_to(weights, codes.shape).ravel())
    return most.reshape(len(rows), patterns).sum(axis=1)


def _total(moves: list[MoveReview]) -> tuple[float | None, str]:
    """The game's total regret and how sure it is (a ``regret_kind``) over the guesses that have
    values: the exact and "at least" regrets summed is a lower bound (no regret is below 0), exact
    when every regret is; "at most" when the others are all upper bounds."""
    valued = [m for m in moves if m.before]
    kinds = {m.regret_kind for m in valued}
    if kinds <= {"exact", "at most"} and valued:
        return sum(m.regret or 0.0 for m in valued), "exact" if kinds == {"exact"} else "at most"
    lower = [m.regret for m in valued if m.regret is not None and m.regret_kind in ("exact", "at least")]
    return (sum(lower), "at least") if lower else (None, "unknown")


#: A total's kind turned into its skill's: skill falls as regret grows.
_SKILL_KIND = {"exact": "exact", "at least": "at most", "at most": "at least", "unknown": "unknown"}


def _regret(q: Total, best: Total, same: bool) -> tuple[float | None, str]:
    """Q - best as expected guesses, and how sure it is."""
    if same or (q.exact and best.exact and q.total == best.total):
        return 0.0, "exact"
    if q.total >= INF or best.total >= INF:
        return None, "unknown"
    r = (q.total - best.total) / q.count
    if q.exact and best.exact:
        return r, "exact"
    if best.exact:
        return max(r, 0.0), "at least"
    if q.exact:
        return r, "at most"
    return None, "unknown"


class _Reviewer:
    """Walks a game move by move over one ``Values``."""

    def __init__(self, values: Values):
        self.values = values
        self.words = values.words

    def rank(self, pos: Position, word: str, q: Total) -> tuple[int, int, str]:
        """(rank of ``word``, legal guesses, "exact" or "entropy"): 1 + the guesses strictly better."""
        from raten.engine.rank import split_stats

        v = self.values
        rows = v.legal_rows(pos)
        n = len(pos.cands)
        split = split_stats(v.search.data, rows, pos.cands.astype(np.int64))
        if q.exact and n <= RANK_EXACT_MAX:
            # the search's bound 3W - key of every guess (uniform: 3n - groups - 1 for a candidate)
            w = v.weights[pos.cands]
            own = np.zeros(len(rows), dtype=np.int64)
            sol_rows = self.words.solution_rows[pos.cands]
            hit = np.isin(rows, sol_rows)
            own[hit] = [int(w[np.flatnonzero(sol_rows == r)[0]]) for r in rows[hit]]
            bound = 3 * int(w.sum()) - _group_keys(v.search.data, rows, pos.cands, w, self.words.patterns) - own
            better = 0
            for r in rows[bound < q.total]:
                w = self.words.allowed[int(r)]
                if w == word:
                    continue
                other = v.guess(pos, w, beta=q.total)
                if v.spent():
                    break
                better += other.q.exact and other.q.total < q.total
            else:
                return better + 1, len(rows), "exact"
        if self.words.weights is not None:
            split = split_stats(v.search.data, rows, pos.cands.astype(np.int64), v.weights[pos.cands].astype(float))
        mine = _entropy(v.codes(word, pos.cands), v.weights[pos.cands])
        return int(np.sum(split.bits > mine + 1e-9)) + 1, len(rows), "entropy"

    def move(self, number: int, pos: Position, word: str, code: int, answer: str | None = None) -> MoveReview:
        """Review one guess at ``pos`` (``answer``, when known, gives what the best guess would have left)."""
        v = self.values
        n = len(pos.cands)
        nxt = v.after(pos, word, code)
        notes: list[str] = []
        if word not in self.words.allowed_index:
            notes.append(
                Notice(
                    f"{word.upper()} is not an allowed guess in the {self.words.name} list",
                    "review_not_allowed",
                    word=word.upper(),
                    list=self.words.name,
                )
            )
        if n == 0:
            notes.append(Notice("no answer of the list fits the colours so far: no values", "review_no_fit"))
            shown = format_pattern(code, length=self.words.length)
            return MoveReview(
                number, word, shown, 0, 0, 0.0, 0.0, False, None, False, None, None, False,
                None, "unknown", None, 0, "entropy", None, None, True, notes,
            )  # fmt: skip
        codes = v.codes(word, pos.cands)
        limit = True
        best, best_word = v.best(pos, limit)
        gv = v.guess(pos, word, limit)
        if best.total >= INF or gv.q.total >= INF:
            limit = False
            notes.append(Notice("the 6-guess limit can no longer be kept for sure: values without it", "review_limit"))
            best, best_word = v.best(pos, limit)
            gv = v.guess(pos, word, limit)
        q = gv.q
        regret, kind = _regret(q, best, word == best_word)
        rank, rank_of, rank_by = (1, 0, "exact") if regret == 0.0 and kind == "exact" else self.rank(pos, word, q)
        if rank_of == 0:
            rank_of = len(v.legal_rows(pos))
        weights = v.weights[pos.cands]
        luck = self._luck(codes, code, gv.groups, weights, self.words.all_green)
        after = len(nxt.cands)
        mass, mass_after = float(weights.sum()), float(v.weights[nxt.cands].sum())
        return MoveReview(
            number=number,
            guess=word,
            pattern=format_pattern(code, length=self.words.length),
            before=n,
            after=after,
            bits=_bits(mass, mass_after, code == self.words.all_green, n),
            expected_bits=_entropy(codes, weights),
            could_be_answer=bool(np.any(pos.cands == self.words.solution_index.get(word, -1))),
            q=q.mean,
            q_exact=q.exact,
            best=best_word,
            best_q=best.mean,
            best_exact=best.exact,
            regret=regret,
            regret_kind=kind,
            rank=rank,
            rank_of=rank_of,
            rank_by=rank_by,
            skill=skill_score(regret) if regret is not None and kind == "exact" else None,
            luck=luck,
            limit=limit,
            notes=notes,
            best_after=self._left_by(best_word, pos, answer),
        )

    def _left_by(self, best: str | None, pos: Position, answer: str | None) -> int | None:
        """How many candidates ``best`` would have left against ``answer`` (None when either is unknown)."""
        if best is None or answer is None:
            return None
        return int(np.count_nonzero(self.values.codes(best, pos.cands) == pattern(best, answer)))

    @staticmethod
    def _luck(
        codes: np.ndarray, code: int, groups: dict[int, tuple[int, Total]], weights: np.ndarray, green: int
    ) -> int:
        """Luck of falling into group ``code``: by each outcome's exact V when known, else by its
        weight (its size under the uniform prior); each outcome as likely as its candidates' weight.
        ``green`` is the all-green code."""
        sizes = np.bincount(codes.astype(np.int64), minlength=green + 1)
        mass = np.bincount(codes.astype(np.int64), weights=weights.astype(np.float64), minlength=green + 1)
        exact = bool(groups) and all(t.exact and t.total < INF for _, t in groups.values())

        def badness(c: int) -> float:
            if c == green:
                return 0.0
            if exact:
                return groups[c][1].mean
            return float(mass[c])

        whole = float(mass.sum())
        if sizes[code] == 0:  # the answer is outside the list: no outcome of the list came
            return 50
        mine = badness(code)
        worse = same = 0.0
        for c in np.flatnonzero(sizes):
            b = badness(int(c))
            if b > mine + 1e-12:
                worse += mass[c] / whole
            elif abs(b - mine) <= 1e-12:
                same += mass[c] / whole
        return luck_score(worse, same)

    def solver_game(self, answer: str) -> tuple[list[tuple[str, str]], str]:
        """The best guess at each position against ``answer`` (entropy once only bounds are known)."""
        from raten.engine.rank import split_stats

        v = self.values
        pos = v.start()
        moves = []
        source = "exact"
        for _ in range(SOLVER_MAX):
            if len(pos.cands) == 0:
                break
            _, word = v.best(pos)
            if word is None:
                source = "exact, then entropy"
                rows = v.legal_rows(pos)
                split = split_stats(v.search.data, rows, pos.cands.astype(np.int64))
                word = self.words.allowed[int(rows[int(np.argmax(split.bits))])]
            code = pattern(word, answer)
            moves.append((word, format_pattern(code, length=self.words.length)))
            if code == self.words.all_green:
                break
            pos = v.after(pos, word, code)
        return moves, source


def review(
    words: WordSet,
    guesses: list[str] | tuple[str, ...],
    answer: str | None = None,
    *,
    patterns: Sequence[str | int] | None = None,
    share: str | None = None,
    hard: bool = False,
    budget: Budget | None = None,
    prior: str | None = None,
    solver: bool = True,
    guarantee: int | None = None,
    guarantee_over: str | None = None,
) -> GameReview:
    """Review a game: each guess's exact value against the best, its regret, skill and luck.

    ``prior`` (``uniform`` or ``frequency``) weighs how likely each word is to be the answer;
    None keeps the prior ``words`` carries. ``guarantee`` (a guess limit; None: off) judges each
    guess's safety over ``guarantee_over`` (None: the list's default) and names the best safe
    guess where it was not safe (``raten.play.review_safety``)."""
    if prior is not None and prior != words.prior:
        from raten.wordlists.prior import apply_prior

        words = apply_prior(words, prior)
    if not guesses:
        raise RatenError("give at least one guess to review", "review_empty")
    spelled = [words.check(g, "guess") for g in guesses]
    answer = words.check(answer, "answer") if answer else None
    codes = colours_of(spelled, answer, patterns, share)
    impossible = contradiction(list(zip(spelled, codes)))  # the hint's rule: a game that cannot have happened
    if impossible is not None:
        raise impossible
    solved = codes[-1] == words.all_green
    if answer is None and solved:
        answer = spelled[-1]
    if hard:
        from raten.engine.hardmode import violation

        for i, g in enumerate(spelled):
            reason = violation(g, tuple(zip(spelled[:i], codes[:i])))
            if reason:
                raise RatenError(
                    f"guess {i + 1} ({g.upper()}) breaks hard mode: {reason}; review the game without hard mode",
                    "review_hard",
                    number=i + 1,
                    guess=g.upper(),
                    reason=reason,
                )
    values = Values(words, hard=hard, budget=budget)
    reviewer = _Reviewer(values)
    notes: list[str] = []
    if answer is not None and answer not in words.solution_index:
        notes.append(
            Notice(
                f"{answer.upper()} is not one of the {len(words.solutions)} answers of the {words.name} list: "
                "the values treat the list's answers as the only possible ones",
                "review_outside",
                answer=answer.upper(),
                n=len(words.solutions),
                list=words.name,
            )
        )
    if share is not None and share_says_hard(share) and not hard:
        notes.append(
            Notice(
                "the share text marks a hard-mode game: review it with hard mode for hard-mode values",
                "review_share_hard",
            )
        )
    pos = values.start()
    positions = [pos]
    for g, c in zip(spelled, codes):
        positions.append(values.after(positions[-1], g, c))
    # last guess first: the small late positions are always exact; the budget goes to the early ones
    moves = [reviewer.move(i + 1, positions[i], spelled[i], codes[i], answer) for i in reversed(range(len(spelled)))][
        ::-1
    ]
    if not solved:
        if answer:
            shown = written(answer, words.language).upper()  # BÖSE, not BOESE
            notes.append(
                Notice(
                    f"not solved in {len(spelled)} guesses: the answer was {shown}",
                    "review_lost_answer",
                    n=len(spelled),
                    answer=shown,
                )
            )
        else:
            notes.append(Notice(f"not solved in {len(spelled)} guesses", "review_lost", n=len(spelled)))
    over = None
    if guarantee is not None:
        from raten.play.review_safety import review_safety
        from raten.wordlists.presets import default_over

        over = guarantee_over or default_over(words, hard)
        for m, verdict in zip(moves, review_safety(words, hard, list(zip(spelled, codes)), guarantee, over)):
            m.safety = verdict
    total_regret, total_kind = _total(moves)
    valued = [m for m in moves if m.before]
    inexact = sum(m.regret_kind != "exact" for m in valued)
    if total_regret is not None and inexact:
        notes.append(
            Notice(
                f"total regret and skill are bounds: the regret of {inexact} of the {len(valued)} guesses is not exact",
                "review_partial",
                n=inexact,
                of=len(valued),
            )
        )
    start = values.best(positions[0])[0]
    lucks = [m.luck for m in moves if m.luck is not None]
    own, source = reviewer.solver_game(answer) if solver and answer in words.solution_index else ([], "none")
    return GameReview(
        words=words.name,
        hard=hard,
        answer=answer,
        solved=solved,
        guesses=len(spelled),
        moves=moves,
        total_regret=total_regret,
        skill=skill_score(total_regret) if total_regret is not None else None,
        total_kind=total_kind,
        total_exact=total_kind == "exact",
        skill_kind=_SKILL_KIND[total_kind],
        skill_exact=total_kind == "exact",
        luck=round(sum(lucks) / len(lucks)) if lucks else None,
        expected=start.mean if start.count else None,
        expected_exact=start.exact,
        solver=own,
        solver_source=source,
        prior=words.prior,
        notes=notes,
        guarantee=guarantee,
        guarantee_over=over,
    )


@cache
def warm_up() -> None:
    """Compile, or load from numba's cache, the exact search a review runs (normal and hard) on
    a tiny list, so that a server's first review is not a compile of many seconds."""
    words = WordSet.from_lists(["crane", "slate", "trace", "crate", "react", "caret"], ["salet"], name="warm")
    for hard in (False, True):
        review(words, ["salet", "crane"], "crane", hard=hard)
