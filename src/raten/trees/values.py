"""Exact values of Wordle positions: V (least expected further guesses) and Q of a guess.

Convention (the exact search's own): a total counts every guess still to come, the final
all-green one included, summed over the candidates, each times its weight under the word
set's prior (``raten.trees.weights``: all 1 under the uniform prior); so a single candidate of
weight w has total w and V = total / (the candidates' weight) is the expected number of
guesses still needed, counting the one that shows all green. Q(g) = 1 + sum over g's groups
of p * V(group), p the group's share of the weight, the group of g itself (when g is the
answer) counting 0; as a total that is W + sum of the groups' totals.

Values come from the branch and bound of ``raten.trees.kernels`` with its memo, within a
``Budget`` (by default ``Budget.work()``: ``trees.budget.REVIEW_CELLS`` of work, the same on every
machine, with seconds as a ceiling): a search still under way when it runs out is stopped where it stands
(``kernels.ST_STOP_AT``), and once it is spent no other begins; a value is then the search's lower bound, marked
``exact=False`` ("at least"), never passed off as exact. The first guess of a list reads the per-opener
table ``trees/<list>-<mode>-openers.tsv`` when one matches the list's fingerprint; those tables
are uniform, so under another prior the first guess is searched within the budget or bounded.
A table is used only after its tree passes ``Tree.check`` (its header's digest included), every
row matches its digest and the best row agrees with the tree: a damaged or edited file is
refused with a RatenError naming it and the line, never read as values (``_verified_rows``).
Searchers (tables and memo) are shared between requests, each request counting its work in its
own statistics array; the compiled kernels hold the GIL, so threads take turns.
"""

from __future__ import annotations

import dataclasses
import os
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

import numpy as np

from raten.engine.hardmode import rules_after
from raten.engine.matrix import feedback_against
from raten.engine.words import UNIFORM, WordSet
from raten.errors import RatenError
from raten.trees import kernels as tk
from raten.trees.budget import REVIEW_CELLS, REVIEW_SECONDS
from raten.trees.digest import claim_digest
from raten.trees.model import SHIPPED_TREES, Tree
from raten.trees.report import TABLE_COLUMNS
from raten.trees.search import Searcher

INF = tk.INF
#: Sets up to this size are always searched, budget or not (cheap, and the end of every game).
SMALL_SET = 30
#: A set larger than this is never searched within a request (en's start: 2315, or 2278 after
#: XXXXX): it gets the one-level bound, labelled as such.
FULL_SEARCH_MAX = 600
#: Under a prior every allowed word is a candidate and sets stay large for longer: within a request a
#: set larger than this gets the search's one-level bound instead of a search that would spend the
#: budget on little more (de under the frequency prior: 9514 words).
PRIOR_SEARCH_MAX = 300
UNLIMITED = tk.UNLIMITED
#: Where the proven trees and opener tables are: package data, so installs have them (or $RATEN_TREES).
TREES_DIR = Path(os.environ.get("RATEN_TREES", SHIPPED_TREES))


#: Cells of work (``kernels.ST_CELLS``) the exact search does per second on one core: about 1e9
#: on an idle core here, in both modes. A budget assumes this until it has timed its own
#: searches; on the low side, so that a busy machine keeps to the seconds too.
CELLS_PER_SECOND = 4e8


@dataclass
class Budget:
    """How much search one request may spend: ``seconds``, and ``cells`` of the pattern table
    read (``kernels.ST_CELLS``) when given. Checked between searches and inside one: a search is
    stopped where the work left runs out (the seconds left at the rate measured so far), and what
    it found is then a lower bound."""

    seconds: float = 2.0
    cells: int | None = None
    _start: float = field(default_factory=time.perf_counter, repr=False)
    _cells0: int = field(default=-1, repr=False)
    #: work and time of the searches so far: their rate, not the whole request's
    _searched_cells: int = field(default=0, repr=False)
    _searched_seconds: float = field(default=0.0, repr=False)

    @classmethod
    def work(cls, cells: int | None = REVIEW_CELLS, seconds: float = REVIEW_SECONDS) -> Budget:
        """A budget counted in work: ``cells``, with ``seconds`` as a ceiling (a review's default)."""
        return cls(seconds=seconds, cells=cells)

    def _used(self, stats: np.ndarray) -> int:
        if self._cells0 < 0:
            self._cells0 = int(stats[tk.ST_CELLS])
        return int(stats[tk.ST_CELLS]) - self._cells0

    def spent(self, stats: np.ndarray) -> bool:
        """True once either limit is reached."""
        used = self._used(stats)
        return time.perf_counter() - self._start >= self.seconds or (self.cells is not None and used >= self.cells)

    def searched(self, cells: int, seconds: float) -> None:
        """Note one search's work and time (the rate ``stop_at`` assumes); a search of under a
        million cells is mostly the call's own cost and tells nothing of the rate."""
        if cells >= 1_000_000:
            self._searched_cells += cells
            self._searched_seconds += seconds

    def stop_at(self, stats: np.ndarray) -> int:
        """The ``ST_CELLS`` count at which the next search stops: what is left of the seconds at
        the searches' rate so far (``CELLS_PER_SECOND`` until they took 0.05 s), and of ``cells``."""
        used = self._used(stats)
        timed = self._searched_seconds > 0.05
        rate = self._searched_cells / self._searched_seconds if timed else CELLS_PER_SECOND
        left = (self.seconds - (time.perf_counter() - self._start)) * rate
        if self.cells is not None:
            left = min(left, self.cells - used)
        return int(stats[tk.ST_CELLS]) + max(1, int(left))


@dataclass(frozen=True)
class Total:
    """A summed (weighted) number of guesses over candidates of weight ``count``: exact, or a proven
    lower bound. ``count`` is the candidates' number under the uniform prior, their total weight
    under another."""

    total: int
    count: int
    exact: bool
    source: str = "search"  #: "search", "table" (trees/*-openers.tsv) or "bound"

    @property
    def mean(self) -> float:
        """The expected number of guesses (V or Q): total / weight."""
        return self.total / self.count if self.count else 0.0


@dataclass
class Position:
    """Where the search stands: candidate solution indices (sorted), guesses used, hard-mode rules."""

    cands: np.ndarray
    used: int
    greens: np.ndarray
    need: np.ndarray


@dataclass(frozen=True)
class GuessValue:
    """Q of one guess as a total, with the total of each group it leads to (pattern -> (size, Total))."""

    q: Total
    groups: dict[int, tuple[int, Total]]
    limit: bool  #: computed under the guess limit (False: the limit could not be kept, values without it)


#: Searchers kept (tables and memo, about 60 MB each for en): the most recently used ones.
SEARCHERS_KEPT = 4
_searchers: dict[tuple[str, bool, int | None], Searcher] = {}
_searchers_lock = threading.Lock()
#: The lower bound of each list's start position (by prior key, mode, guess limit, limit kept).
_start_bounds: dict[tuple[str, bool, int | None, bool], Total] = {}


def _searcher(words: WordSet, hard: bool, max_guesses: int | None) -> Searcher:
    """One searcher per list (by fingerprint, so a list sent to a worker process again reuses it) and mode."""
    key = (words.prior_key, hard, max_guesses)
    with _searchers_lock:
        found = _searchers.pop(key, None)
        if found is None:
            found = Searcher(words, hard=hard, max_guesses=max_guesses, memo_bits=20)
        _searchers[key] = found  # most recent last
        while len(_searchers) > SEARCHERS_KEPT:
            del _searchers[next(iter(_searchers))]
        return found


@dataclass(frozen=True)
class OpenerRow:
    """One row of a per-opener table: the least total under ``opener`` (exact, or a proven lower
    bound) and, when exact, the worst case (guesses) of the best tree of that total."""

    opener: str
    total: Total
    worst: int | None

    @property
    def average(self) -> float:
        """Guesses per answer on average, the last all-green one counted: total / answers."""
        return self.total.mean


def opener_table(words: WordSet, hard: bool, directory: Path | None = None) -> Mapping[str, Total]:
    """The per-opener totals of ``trees/<name>-<mode>-openers.tsv`` if its tree matches ``words``, else {}
    (read-only, made once per table: every review reads it, and en's has 12,972 rows)."""
    key = (words.name, words.fingerprint, hard, directory or TREES_DIR)
    with _tables_lock:
        found = _totals.get(key)
    if found is None:
        found = MappingProxyType({row.opener: row.total for row in opener_rows(words, hard, directory)})
        with _tables_lock:
            _totals[key] = found
    return found


def opener_rows(words: WordSet, hard: bool, directory: Path | None = None) -> tuple[OpenerRow, ...]:
    """Every row of ``trees/<name>-<mode>-openers.tsv`` if its tree matches ``words``, else (); a
    RatenError naming the file when it fails its check (``_verified_rows``). Read once per table."""
    key = (words.name, words.fingerprint, hard, directory or TREES_DIR)
    with _tables_lock:
        found = _rows.get(key)
    if found is None:
        found = _verified_rows(words, hard, directory or TREES_DIR)
        with _tables_lock:
            _rows[key] = found
    return found


#: The tables read and checked, by (list name, fingerprint, mode, directory): rows and totals.
_rows: dict[tuple[str, str, bool, Path], tuple[OpenerRow, ...]] = {}
_totals: dict[tuple[str, str, bool, Path], Mapping[str, Total]] = {}
_tables_lock = threading.Lock()


def best_openers(words: WordSet, hard: bool, top: int = 10, directory: Path | None = None) -> list[OpenerRow]:
    """The ``top`` proven openers (exact rows) of the table: least total first, then least worst
    case, then alphabetical; [] when no table matches ``words``."""
    exact = [row for row in opener_rows(words, hard, directory) if row.total.exact]
    exact.sort(key=lambda r: (r.total.total, r.worst if r.worst is not None else INF, r.opener))
    return exact[:top]


_REFUSED = "damaged or edited since it was written: refused (restore it, e.g. `git checkout` the file)"


def _verified_rows(words: WordSet, hard: bool, directory: Path) -> tuple[OpenerRow, ...]:
    """The rows of the table whose tree's header names these lists and six guesses, each claim
    checked first: the tree by ``Tree.check`` on ``words`` (every path, the figures and the
    header's digest), every row by its digest, the best row against the tree."""
    mode = "hard" if hard else "normal"
    tsv = directory / f"{words.name}-{mode}-openers.tsv"
    txt = directory / f"{words.name}-{mode}.txt"
    if not (tsv.exists() and txt.exists()):
        return ()
    tree = Tree.read(txt)
    if tree.fingerprint != words.fingerprint or tree.max_guesses != 6 or tree.hard != hard:
        return ()  # a tree of other lists, limit or mode: the table is not for this list
    try:  # the tables are uniform: the tree is checked on the lists without their prior
        tree.check(dataclasses.replace(words, prior=UNIFORM, weights=None), source=str(txt))
    except RatenError as e:
        raise RatenError(f"{e}\n{txt}: {_REFUSED}") from None
    if "digest" not in tree.meta or tree.meta.get("proven") != "all-openers":
        raise RatenError(f"{txt}: the header carries no digest or no proven=all-openers: {_REFUSED}")
    lines = tsv.read_text(encoding="utf-8").splitlines()
    if not lines or lines[0] != TABLE_COLUMNS:
        raise RatenError(f"{tsv}: the first line is not {TABLE_COLUMNS!r}: {_REFUSED}")
    n, fingerprint = len(words.solutions), words.fingerprint  # a property computed afresh: once here
    out = []
    for no, line in enumerate(lines[1:], 2):
        cells = line.split("\t")
        ok = len(cells) == 5 and cells[1] in ("exact", "at-least")
        ok = ok and (cells[2].isdigit() or cells[2] == "impossible") and (cells[3].isdigit() or cells[3] == "")
        if not ok:
            raise RatenError(f"{tsv}:{no}: cannot read the row {line!r}: {_REFUSED}")
        opener, status, total, worst_cell, digest = cells
        # "impossible": no tree under this opener solves every answer within the limit (INF, as the search says)
        value, worst = (None if total == "impossible" else int(total)), (int(worst_cell) if worst_cell else None)
        if claim_digest(fingerprint, mode, 6, opener, status, value, worst) != digest:
            raise RatenError(f"{tsv}:{no}: {opener.upper()} {status} {total} does not match its digest: {_REFUSED}")
        if status == "exact" and value is not None and value < tree.total:
            raise RatenError(
                f"{tsv}:{no}: {opener.upper()} exact {total} is below the proven best {tree.total}: {_REFUSED}"
            )
        out.append(OpenerRow(opener, Total(INF if value is None else value, n, status == "exact", "table"), worst))
    first = lines[1].split("\t")[:4] if out else ["no rows"]
    if first != [tree.opener, "exact", str(tree.total), str(tree.worst)]:
        shows = f"{tree.opener.upper()} exact {tree.total} {tree.worst}"
        raise RatenError(f"{tsv}:2: the best row {' '.join(first)} is not its tree's {shows}: {_REFUSED}")
    return tuple(out)


class Values:
    """V and Q over one list in one mode, with the guess limit of the committed trees (6)."""

    def __init__(self, words: WordSet, hard: bool = False, max_guesses: int | None = 6, budget: Budget | None = None):
        self.words = words
        self.hard = hard
        self.max_guesses = max_guesses
        self.search = _searcher(words, hard, max_guesses)
        #: each solution's integer weight (all 1 under the uniform prior)
        self.weights = self.search.weights
        self.budget = budget or Budget.work()
        #: this request's search statistics and stop (the searcher and its memo are shared)
        self.stats = np.zeros(tk.N_STATS, dtype=np.int64)
        self._began = (0, 0.0)  # cells and clock when the last search began
        # the committed opener tables are uniform: under another prior the first guess is searched
        self.table = opener_table(words, hard) if max_guesses == 6 and words.weights is None else {}

    # --- positions -----------------------------------------------------------------------

    def start(self) -> Position:
        """The position before the first guess."""
        s = self.search
        return Position(np.arange(len(self.words.solutions), dtype=np.int32), 0, s.no_greens, s.no_need)

    def codes(self, word: str, cands: np.ndarray) -> np.ndarray:
        """Feedback codes of ``word`` against the candidates (any word, allowed or not)."""
        row = self.words.allowed_index.get(word)
        if row is not None:
            return self.search.codes(row, cands)
        return feedback_against(word, [self.words.solutions[int(i)] for i in cands])

    def after(self, pos: Position, word: str, code: int) -> Position:
        """The position after ``word`` showed ``code``."""
        cands = pos.cands[self.codes(word, pos.cands) == code].astype(np.int32)
        greens, need = pos.greens, pos.need
        if self.hard:
            greens, need = rules_after(self.words.letters_of([word])[0], code, greens, need)
        return Position(cands, pos.used + 1, greens, need)

    def _dl(self, used: int, limit: bool) -> int:
        """Guesses left after ``used`` (``UNLIMITED`` without the limit)."""
        if not limit or self.max_guesses is None:
            return UNLIMITED
        return self.max_guesses - used

    def spent(self) -> bool:
        """Whether this request's budget is used up."""
        return self.budget.spent(self.stats)

    def _armed(self, n: int) -> np.ndarray:
        """This request's statistics, set to stop the next search of a set of ``n`` where the
        budget runs out (a set of at most ``SMALL_SET`` is always searched to the end)."""
        self.stats[tk.ST_STOP_AT] = 0 if n <= SMALL_SET else self.budget.stop_at(self.stats)
        self.stats[tk.ST_STOPPED] = 0
        self._began = (int(self.stats[tk.ST_CELLS]), time.perf_counter())
        return self.stats

    def _stopped(self) -> bool:
        """Whether the search since ``_armed`` was stopped by the budget (its value is then a lower
        bound); its work and time go into the budget's rate."""
        cells, start = self._began
        self.budget.searched(int(self.stats[tk.ST_CELLS]) - cells, time.perf_counter() - start)
        return bool(self.stats[tk.ST_STOPPED])

    def weight(self, cands: np.ndarray) -> int:
        """The total weight of candidates (their number under the uniform prior)."""
        return int(self.weights[cands].sum())

    def formula_bound(self, cands: np.ndarray) -> int:
        """The search's cheapest bound of a set's total: w for one, W + lightest for two (exact
        with a guess to spare), 2W - heaviest for more (uniform: 1, 3, 2n - 1)."""
        w = self.weights[cands]
        if len(w) == 1:
            return int(w[0])
        return int(w.sum() + w.min()) if len(w) == 2 else int(2 * w.sum() - w.max())

    # --- V ---------------------------------------------------------------------------------

    def _set_total(self, cands: np.ndarray, dl: int, greens, need, beta: int = INF) -> Total:
        """Least total for a set with ``dl`` guesses left (a bound when the budget is spent or ``beta`` cuts)."""
        n = len(cands)
        weight = self.weight(cands)
        if n == 1:
            return Total(weight, weight, True)
        if dl <= 0 or (dl == 1 and n > 1):
            return Total(INF, weight, True)
        if n > SMALL_SET and self.spent():
            return Total(self.formula_bound(cands), weight, n <= 2, "bound" if n > 2 else "search")
        s = self.search
        if n > FULL_SEARCH_MAX or (self.words.weights is not None and n > PRIOR_SEARCH_MAX):
            v, ex = tk.level_bound_set(s.tables, s.memo, cands, dl, self.hard, s.all_guesses, greens, need, self.stats)
            return Total(int(v), weight, bool(ex), "search" if ex else "bound")
        stats = self._armed(n)
        v = int(
            tk.solve_set(
                s.tables, s.memo, cands, beta, dl, self.hard, s.all_guesses, greens, need, stats, s.deep, s.dedup
            )
        )
        if self._stopped():
            return Total(v, weight, False, "bound")
        return Total(v, weight, v < beta or beta >= INF)

    def best(self, pos: Position, limit: bool = True) -> tuple[Total, str | None]:
        """(V of ``pos`` as a total, a guess achieving it or None when only a bound is known)."""
        n = len(pos.cands)
        if n == 0:
            return Total(0, 0, False, "bound"), None
        weight = self.weight(pos.cands)
        if n == 1:
            return Total(weight, weight, True), self.words.solutions[int(pos.cands[0])]
        if limit and pos.used == 0 and n == len(self.words.solutions) and self.table:
            opener, total = next(iter(self.table.items()))
            return total, opener
        # at any depth: after a guess that tells little a set stays as big as the start's (2278
        # after XXXXX), and its search would spend the whole budget on a bound no better than this
        too_big = n > FULL_SEARCH_MAX or (self.words.weights is not None and n > PRIOR_SEARCH_MAX)
        if (n > SMALL_SET and self.spent()) or too_big:
            return self._bound(pos, limit), None
        s = self.search
        dl = self._dl(pos.used, limit)
        stats = self._armed(n)
        v, g = tk.best_guess(
            s.tables, s.memo, pos.cands, dl, self.hard, s.all_guesses, pos.greens, pos.need, stats, s.deep, s.dedup
        )
        if self._stopped():
            return Total(int(v), weight, False, "bound"), None
        if v >= INF:
            return Total(INF, weight, True), None
        return Total(int(v), weight, True), self.words.allowed[int(g)]

    def _bound(self, pos: Position, limit: bool = True) -> Total:
        """``_position_bound``; the start's bound computed once per list, prior, mode and limit
        (under a prior it is a scan of every guess against every allowed word: seconds)."""
        if pos.used == 0 and len(pos.cands) == len(self.words.solutions):
            key = (self.words.prior_key, self.hard, self.max_guesses, limit)
            with _searchers_lock:
                found = _start_bounds.get(key)
            if found is None:
                found = self._position_bound(pos, limit)
                with _searchers_lock:
                    _start_bounds[key] = found
            return found
        return self._position_bound(pos, limit)

    def _position_bound(self, pos: Position, limit: bool = True) -> Total:
        """A lower bound of V's total: 3n - (most groups of any guess), or 2n - 1; under a prior
        the search's one-level bound (``kernels.level_bound``, the weighted 3W - key)."""
        n = len(pos.cands)
        if self.words.weights is not None:
            s = self.search
            dl = self._dl(pos.used, limit)
            v, ex = tk.level_bound_set(
                s.tables, s.memo, pos.cands, dl, self.hard, s.all_guesses, pos.greens, pos.need, self.stats
            )
            return Total(int(v), self.weight(pos.cands), bool(ex), "search" if ex else "bound")
        rows = self.legal_rows(pos)
        if n * len(rows) > 40_000_000:
            return Total(2 * n - 1, n, False, "bound")
        from raten.engine.rank import split_stats

        split = split_stats(self.search.data, rows, pos.cands.astype(np.int64))
        return Total(max(2 * n - 1, 3 * n - int(split.patterns.max()) - 1), n, False, "bound")

    def legal_rows(self, pos: Position) -> np.ndarray:
        """Allowed rows legal here (every row in normal mode)."""
        s = self.search
        if not self.hard or pos.used == 0:
            return s.all_guesses.astype(np.int64)
        from raten.engine.hardmode import keeping

        return keeping(s.all_guesses, s.tables[4], s.tables[5], pos.greens, pos.need).astype(np.int64)

    # --- Q ---------------------------------------------------------------------------------

    def guess(self, pos: Position, word: str, limit: bool = True, beta: int = INF) -> GuessValue:
        """Q of ``word`` at ``pos`` as a total, each group solved largest first within the budget."""
        n = len(pos.cands)
        if pos.used == 0 and n == len(self.words.solutions) and word in self.table and beta >= INF:
            return GuessValue(self.table[word], {}, True)
        codes = self.codes(word, pos.cands)
        dl = self._dl(pos.used + 1, limit)
        glet = self.words.letters_of([word])[0]
        found: dict[int, tuple[int, Total]] = {}
        parts = []
        for code in np.unique(codes):
            grp = np.sort(pos.cands[codes == code]).astype(np.int32)
            parts.append((int(code), grp))
        parts.sort(key=lambda cg: -len(cg[1]))
        lbs = {c: 0 if c == self.words.all_green else self.formula_bound(g) for c, g in parts}
        weight = self.weight(pos.cands)
        total = weight + sum(lbs.values())
        exact = True
        for code, grp in parts:
            if code == self.words.all_green:
                found[code] = (1, Total(0, self.weight(grp), True))
                continue
            if total >= beta:
                exact = False
                found[code] = (len(grp), Total(lbs[code], self.weight(grp), len(grp) <= 2, "bound"))
                continue
            greens, need = rules_after(glet, code, pos.greens, pos.need) if self.hard else (pos.greens, pos.need)
            sub = self._set_total(grp, dl, greens, need, beta - (total - lbs[code]) if beta < INF else INF)
            found[code] = (len(grp), sub)
            exact = exact and sub.exact
            total += min(sub.total, INF) - lbs[code]
        total = min(total, INF)
        return GuessValue(Total(total, weight, exact, "search" if exact else "bound"), found, limit)
