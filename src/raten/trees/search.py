"""Exact search for the decision tree with the fewest guesses in total (ties: smaller worst case).

Under a prior the total is weighted: the sum of weight x guesses over the solutions, with the
integer weights of ``raten.trees.weights`` (all 1 under the uniform prior), so the tree with the
least total is the one with the fewest expected guesses.

``Searcher`` holds the compiled tables and a memo for one word set and mode; it solves
one opener (``solve_opener``), builds its tree (``build_tree``) and can shave the worst
case among trees of the same total (``least_worst``). The branch and bound itself lives
in ``raten.trees.kernels``; ``raten.trees.jobs`` runs many openers in parallel.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from raten.engine.feedback import History
from raten.engine.hardmode import letter_counts, no_rules, rules_after
from raten.engine.matrix import load_matrix
from raten.engine.transposed import load_transposed
from raten.engine.words import WordSet
from raten.errors import RatenError
from raten.trees import kernels as tk
from raten.trees.memo import MAX_GUESSES_ROWS, new_memo, zobrist
from raten.trees.model import Tree
from raten.trees.weights import integer_weights

INF = tk.INF


def group_totals(tree: Tree) -> dict[int, int]:
    """The total of each of a tree's groups after its opener (by pattern code): the guesses its
    answers take after the opener (the all-green group costs none)."""
    out: dict[int, int] = {}
    for sol, moves in tree.paths.items():
        if len(moves) > 1:
            weight = tree.weights.get(sol, 0) if tree.weights is not None else 1
            out[moves[0][1]] = out.get(moves[0][1], 0) + weight * (len(moves) - 1)
    return out


def default_memo_bits(solutions: int) -> int:
    """Memo slots (2**bits) for one opener's proof: 2**18 (6 MB) hold en's largest proofs
    (CRANE, about 28,000 entries) and a smaller table maps fewer pages; a list where every
    allowed word may be the answer takes 2**22 (100 MB)."""
    return 18 if solutions <= 4000 else 22


#: Called after each group of the opener is solved: (groups done, groups in all, total so far).
Progress = Callable[[int, int, int], None]


@dataclass
class OpenerResult:
    """The outcome of one opener: an exact total (with its tree's figures) or a lower bound."""

    opener: str
    exact: bool
    total: int  #: exact optimum when ``exact``, else a proven lower bound (>= the bound asked); weighted
    weight: int = 0  #: the total weight of the solutions (their count under the uniform prior)
    worst: int | None = None
    distribution: dict[int, int] = field(default_factory=dict)
    seconds: float = 0.0
    nodes: int = 0
    worst_proven: bool = False  #: the worst case is the least among trees with this total
    tree: Tree | None = field(default=None, repr=False)  #: the tree, when exact and asked for
    #: the exact total of each of the opener's groups (by pattern code), when exact: lower bounds
    #: of the same groups under a tighter guess limit (``Searcher.least_worst``)
    groups: dict[int, int] = field(default_factory=dict, repr=False)

    @property
    def feasible(self) -> bool:
        return self.total < INF

    def to_dict(self) -> dict:
        return {
            "opener": self.opener,
            "exact": self.exact,
            "total": self.total if self.feasible else None,
            **({"weight": self.weight} if self.weight else {}),
            "worst": self.worst,
            "distribution": {str(k): v for k, v in sorted(self.distribution.items())},
            "seconds": round(self.seconds, 3),
            "nodes": self.nodes,
            "worst_proven": self.worst_proven,
        }


class Searcher:
    """Exact search over one word set in one mode; the memo is kept between calls."""

    def __init__(
        self,
        words: WordSet,
        hard: bool = False,
        max_guesses: int | None = None,
        memo_bits: int = 21,
        *,
        deep: bool = True,
        dedup: int = 1,
        memo: np.ndarray | None = None,
    ):
        if max_guesses is not None and max_guesses < 1:
            raise RatenError("--max-guesses must be at least 1")
        self.words = words
        self.hard = hard
        self.max_guesses = max_guesses
        mt = load_transposed(words)  # solutions x guesses, cached on disk like the matrix
        #: the pattern table the search reads (solutions x guesses): ``codes`` reads it too
        self.mt = mt
        glet = np.ascontiguousarray(words.allowed_letters)
        #: one integer weight per solution (all 1 under the uniform prior): totals are weighted sums
        self.weights = integer_weights(words)
        #: the total weight, what a tree's total is divided by for its expected number of guesses
        self.weight = int(self.weights.sum())
        self.tables = (
            mt,
            words.solution_rows.astype(np.int32),
            zobrist(len(words.solutions), 1),
            zobrist(len(words.solutions), 2),
            glet,
            letter_counts(glet, words.alphabet.size),
            self.weights,
        )
        if len(words.allowed) > MAX_GUESSES_ROWS:
            raise RatenError(f"the exact search takes at most {MAX_GUESSES_ROWS} allowed words")
        #: the memo table: its own, or one shared with other processes (``raten.trees.memo_file``)
        self.memo = new_memo(memo_bits) if memo is None else memo
        self.stats = np.zeros(tk.N_STATS, dtype=np.int64)
        self.all_guesses = np.arange(len(words.allowed), dtype=np.int32)
        self.no_greens, self.no_need = no_rules(words.length, words.alphabet.size)
        #: one level of look-ahead for every group before any is solved (False: the older
        #: search, each group at 2n - 1 until it is solved; kept to measure the difference)
        self.deep = deep
        #: skip a guess that splits like one already tried (0: try every guess, to test the skip)
        self.dedup = dedup

    @functools.cached_property
    def data(self) -> np.ndarray:
        """The pattern table guesses x solutions, mapped when first asked for (the search itself
        reads ``mt``, so a proof never maps this one: 30 MB for en)."""
        return load_matrix(self.words).data

    # --- pieces -------------------------------------------------------------------------

    def codes(self, g: int, cands: np.ndarray) -> np.ndarray:
        """The feedback codes of guess row ``g`` against the candidates ``cands``."""
        return self.mt[cands, g]

    def _dl(self, used: int) -> int:
        """Guesses left after ``used`` guesses (``UNLIMITED`` without a limit)."""
        return tk.UNLIMITED if self.max_guesses is None else self.max_guesses - used

    def row(self, word: str) -> int:
        """Allowed-list row of ``word`` (a RatenError if it is not allowed)."""
        w = self.words.check(word, "opener")
        idx = self.words.allowed_index.get(w)
        if idx is None:
            raise RatenError(f"{w.upper()} is not an allowed guess in the {self.words.name} list")
        return idx

    def groups(self, g: int, cands: np.ndarray) -> list[tuple[int, np.ndarray]]:
        """(pattern, sorted candidates) for each group ``g`` splits ``cands`` into."""
        codes = self.codes(g, cands)
        order = np.argsort(codes, kind="stable")
        codes_sorted = codes[order]
        cuts = np.flatnonzero(np.diff(codes_sorted)) + 1
        out = []
        for part in np.split(np.arange(len(cands)), cuts):
            sel = order[part]
            out.append((int(codes[sel[0]]), np.sort(cands[sel]).astype(np.int32)))
        return out

    def _child(self, g: int, code: int, greens: np.ndarray, need: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if not self.hard:
            return greens, need
        return rules_after(self.tables[4][g], code, greens, need)

    def _solve(self, cands: np.ndarray, beta: int, dl: int, greens: np.ndarray, need: np.ndarray) -> int:
        return int(
            tk.solve_set(
                self.tables,
                self.memo,
                cands,
                beta,
                dl,
                self.hard,
                self.all_guesses,
                greens,
                need,
                self.stats,
                self.deep,
                self.dedup,
            )
        )

    def _level(self, cands: np.ndarray, dl: int, greens: np.ndarray, need: np.ndarray) -> int:
        """One-level lower bound of a group (``kernels.level_bound``), memoised."""
        v, _ = tk.level_bound_set(
            self.tables, self.memo, cands, dl, self.hard, self.all_guesses, greens, need, self.stats
        )
        return int(v)

    def _group_lb(self, grp: np.ndarray, dl: int) -> int:
        """The formula bound of a group with ``dl`` guesses left: its weight for one candidate,
        W + lightest for two (exact), 2W - heaviest for more (uniform: 1, 3, 2m - 1)."""
        if dl <= 0:
            return INF
        w = self.weights[grp]
        if len(grp) == 1:
            return int(w[0])
        if dl <= 1:
            return INF
        return int(w.sum() + w.min()) if len(grp) == 2 else int(2 * w.sum() - w.max())

    # --- one opener -----------------------------------------------------------------------

    def opener_bound(self, g: int) -> int:
        """Cheap lower bound of an opener's total: 3n - groups (- 1 when it is a solution);
        weighted, 3W - the groups' heaviest weights (- its own weight when it is a solution)."""
        n = len(self.words.solutions)
        dl = self._dl(1)
        total = self.weight
        for code, grp in self.groups(g, np.arange(n, dtype=np.int32)):
            if code != self.words.all_green:
                total += self._group_lb(grp, dl)
        return min(total, INF)

    def opener_bounds(self, rows: list[int]) -> list[int]:
        """``opener_bound`` of each opener row, from one scan of every solution against every
        guess (``kernels.guess_keys``: the bound is 3W - key) rather than one partition each
        (0.03 s for en's 12,972 openers instead of 11). Where the formula does not hold (a guess
        limit of two or less, an opener that learns nothing) it is ``opener_bound`` itself."""
        if self._dl(1) < 2:
            return [self.opener_bound(g) for g in rows]
        n = len(self.words.solutions)
        wt = self.weights
        keys = tk.guess_keys(
            self.mt, np.arange(n, dtype=np.int32), self.all_guesses, wt, int(wt.max()), self.words.patterns
        )
        return [3 * self.weight - int(keys[g]) if keys[g] > 0 else self.opener_bound(g) for g in rows]

    def _parts(self, g: int) -> list[tuple[int, np.ndarray]]:
        """The opener's groups but the all-green one, largest first."""
        n = len(self.words.solutions)
        green = self.words.all_green
        parts = [(c, grp) for c, grp in self.groups(g, np.arange(n, dtype=np.int32)) if c != green]
        parts.sort(key=lambda cg: -len(cg[1]))
        return parts

    def _raise_to_level(self, g: int, parts: list, lbs: list[int], total: int, beta: int) -> int:
        """Raise each group's bound in ``lbs`` to its one-level bound, largest groups first (they
        gain the most per table cell read: 20% fewer cells to refute an opener); stop once
        ``total`` reaches ``beta``."""
        dl = self._dl(1)
        for i in range(len(parts)):
            if total >= beta or total >= INF:
                break
            code, grp = parts[i]
            if len(grp) < 3:
                continue
            greens, need = self._child(g, code, self.no_greens, self.no_need)
            v = self._level(grp, dl, greens, need)
            if v > lbs[i]:
                total += v - lbs[i]
                lbs[i] = v
        return total

    def group_level_bounds(self, g: int, parts: list[tuple[int, np.ndarray]]) -> list[int]:
        """The one-level bound of each of opener row ``g``'s groups (``parts``, from ``_parts``)."""
        lbs = [self._group_lb(grp, self._dl(1)) for _, grp in parts]
        self._raise_to_level(g, parts, lbs, self.weight + sum(lbs), INF)
        return lbs

    def opener_level_bound(self, opener: str | int, beta: int = INF) -> int:
        """A lower bound of an opener's total, tighter than ``opener_bound``: every group at
        its one-level bound (``kernels.level_bound``); it stops rising once it reaches ``beta``."""
        g = self.row(opener) if isinstance(opener, str) else int(opener)
        if self.max_guesses is not None and self._dl(1) < 0:
            return INF
        parts = self._parts(g)
        lbs = [self._group_lb(grp, self._dl(1)) for _, grp in parts]
        total = self.weight + sum(lbs)
        return min(self._raise_to_level(g, parts, lbs, total, beta), INF)

    def default_opener(self) -> str:
        """The opener ``raten tree`` solves when none is given: the least cheap bound (so the
        most groups), the earlier allowed word on a tie."""
        g = min(range(len(self.words.allowed)), key=lambda r: (self.opener_bound(r), r))
        return self.words.allowed[g]

    def solve_opener(
        self,
        opener: str | int,
        beta: int = INF,
        progress: Progress | None = None,
        tree: bool = True,
        floors: dict[int, int] | None = None,
        settled: frozenset[int] = frozenset(),
        ceilings: dict[int, int] | None = None,
    ) -> OpenerResult:
        """Least total for ``opener`` if below ``beta`` (exact, with its tree), else a lower bound.

        ``floors``: known lower bounds of the opener's groups (by pattern code); ``settled``: the
        codes of groups whose floor is known to be exact (not searched); ``ceilings``: totals
        known to be reached in groups (another tree's, ``group_totals``): a group is searched
        only below its ceiling + 1, a cut-off from the start, and searched again without it if
        the ceiling proves wrong."""
        start = time.perf_counter()
        nodes0 = int(self.stats[tk.ST_NODES])
        g = self.row(opener) if isinstance(opener, str) else int(opener)
        word = self.words.allowed[g]
        dl = self._dl(1)
        if self.max_guesses is not None and dl < 0:
            return OpenerResult(word, False, INF, weight=self.weight)
        parts = self._parts(g)
        floors = floors or {}
        lbs = [max(self._group_lb(grp, dl), floors.get(code, 0)) for code, grp in parts]
        total = self.weight + sum(lbs)
        if self.deep:
            total = self._raise_to_level(g, parts, lbs, total, beta)
        groups = {code: floors[code] for code in settled}
        for done, ((code, grp), lb) in enumerate(zip(parts, lbs), 1):
            if total >= beta or total >= INF:
                break
            if code in settled:
                continue
            greens, need = self._child(g, code, self.no_greens, self.no_need)
            cbeta = beta - (total - lb)
            ceiling = (ceilings or {}).get(code, INF)
            v = self._solve(grp, min(cbeta, ceiling + 1), dl, greens, need)
            if ceiling < v < cbeta:  # not reached within the limit after all: search it plainly
                v = self._solve(grp, cbeta, dl, greens, need)
            groups[code] = v
            total += v - lb
            if progress:
                progress(done, len(parts), total)
        seconds = time.perf_counter() - start
        nodes = int(self.stats[tk.ST_NODES]) - nodes0
        if total >= beta or total >= INF:
            return OpenerResult(word, False, min(total, INF), seconds=seconds, nodes=nodes, weight=self.weight)
        result = OpenerResult(word, True, total, seconds=seconds, nodes=nodes, weight=self.weight, groups=groups)
        if tree:
            t = self.build_tree(g)
            if t.total != total:
                raise AssertionError(f"tree total {t.total} differs from the search's {total}")
            result.worst = t.worst
            result.distribution = t.distribution
            result.tree = t
            result.seconds = time.perf_counter() - start
        return result

    def optimal(
        self,
        opener: str | int,
        beta: int = INF,
        progress: Progress | None = None,
        ceilings: dict[int, int] | None = None,
    ) -> OpenerResult:
        """``solve_opener``, and when exact, the optimal tree with the least worst case among
        trees of that total (so ``worst`` is proven least too)."""
        r = self.solve_opener(opener, beta=beta, progress=progress, ceilings=ceilings)
        if r.exact and r.worst:
            _, tree = self.least_worst(opener, r.total, r.worst, groups=r.groups, tree=r.tree)
            if tree is not None:
                r.worst, r.distribution, r.tree = tree.worst, tree.distribution, tree
            r.worst_proven = True
        return r

    # --- trees ----------------------------------------------------------------------------

    def build_tree(self, opener: str | int, keep: Tree | None = None) -> Tree:
        """The optimal tree under ``opener`` (from the memo; re-solves what was evicted).

        ``keep``: an optimal tree under the same opener within a looser limit, whose subtree of
        a group is taken as it is when it fits within this limit (``least_worst``)."""
        g0 = self.row(opener) if isinstance(opener, str) else int(opener)
        n = len(self.words.solutions)
        paths: dict[str, History] = {}
        allowed = self.words.allowed
        sols = self.words.solutions
        green = self.words.all_green
        kept: dict[int, dict[str, History]] = {}
        for sol, moves in (keep.paths if keep else {}).items():
            kept.setdefault(moves[0][1], {})[sol] = moves
        limit = self.max_guesses or INF
        kept = {code: sub for code, sub in kept.items() if max(map(len, sub.values())) <= limit}

        def walk(g: int, cands: np.ndarray, path: tuple, used: int, greens, need) -> None:
            for code, grp in self.groups(g, cands):
                if not path and code in kept:
                    paths.update(kept[code])
                    continue
                here = (*path, (allowed[g], code))
                if code == green:
                    paths[sols[int(grp[0])]] = here
                    continue
                cg, cn = self._child(g, code, greens, need)
                dl = self._dl(used + 1)
                if len(grp) == 1:
                    s = int(grp[0])
                    paths[sols[s]] = (*here, (sols[s], green))
                    continue
                _, nxt = tk.best_guess(
                    self.tables,
                    self.memo,
                    grp,
                    dl,
                    self.hard,
                    self.all_guesses,
                    cg,
                    cn,
                    self.stats,
                    self.deep,
                    self.dedup,
                )
                if nxt < 0:
                    raise AssertionError("no guess found for a solvable group")
                walk(int(nxt), grp, here, used + 1, cg, cn)

        walk(g0, np.arange(n, dtype=np.int32), (), 0, self.no_greens, self.no_need)
        return Tree.from_paths(self.words, paths, hard=self.hard, max_guesses=self.max_guesses, opener=allowed[g0])

    def least_worst(
        self,
        opener: str | int,
        total: int,
        worst: int,
        floor: int = 1,
        groups: dict[int, int] | None = None,
        tree: Tree | None = None,
    ) -> tuple[int, Tree | None]:
        """Shave the worst case among trees with ``total`` guesses: (least worst found, its tree).

        Tries a limit of one guess fewer until the total can no longer be kept. ``groups`` (the
        exact total of each group of the opener within the looser limit, ``OpenerResult.groups``)
        are lower bounds within the tighter one, so the search under it starts at ``total`` and
        the first group that costs more there ends it; with ``tree`` (an optimal tree within the
        looser limit), the groups it already solves within the tighter limit keep their total
        and subtree, and only the others are searched.
        """
        best_tree = None
        limit = worst - 1
        while limit >= floor:
            within = self.with_limit(limit)
            settled: frozenset[int] = frozenset()
            if groups and tree:  # the groups the tree solves within the limit keep their total
                deep = {moves[0][1] for moves in tree.paths.values() if len(moves) > limit}
                settled = frozenset(groups) - deep
            r = within.solve_opener(opener, beta=total + 1, tree=False, floors=groups, settled=settled)
            if not (r.exact and r.total == total):
                break
            best_tree = within.build_tree(opener, keep=tree if settled else None)
            if best_tree.total != total:
                raise AssertionError(f"tree total {best_tree.total} differs from the search's {total}")
            worst, tree, groups = best_tree.worst, best_tree, r.groups
            limit = worst - 1
        return worst, best_tree

    def with_limit(self, max_guesses: int | None) -> Searcher:
        """The same search with another guess limit, sharing tables and memo (keys hold the depth)."""
        other = Searcher.__new__(Searcher)
        other.__dict__.update(self.__dict__)
        other.max_guesses = max_guesses
        return other
