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
        matrix = load_matrix(words)
        self.data = matrix.data  # guesses x solutions
        mt = load_transposed(words)  # solutions x guesses, cached on disk like the matrix
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

    # --- pieces -------------------------------------------------------------------------

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
        codes = np.asarray(self.data[g, cands])
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

    def _parts(self, g: int) -> list[tuple[int, np.ndarray]]:
        """The opener's groups but the all-green one, largest first."""
        n = len(self.words.solutions)
        green = self.words.all_green
        parts = [(c, grp) for c, grp in self.groups(g, np.arange(n, dtype=np.int32)) if c != green]
        parts.sort(key=lambda cg: -len(cg[1]))
        return parts

    def _raise_to_level(self, g: int, parts: list, lbs: list[int], total: int, beta: int) -> int:
        """Raise each group's bound in ``lbs`` to its one-level bound, smallest groups first
        (cheap, and the largest is often needed last); stop once ``total`` reaches ``beta``."""
        dl = self._dl(1)
        for i in range(len(parts) - 1, -1, -1):
            if total >= beta or total >= INF:
                break
            code, grp = parts[i]
            if len(grp) < 3:
                continue
            greens, need = self._child(g, code, self.no_greens, self.no_need)
            v = self._level(grp, dl, greens, need)
            total += v - lbs[i]
            lbs[i] = v
        return total

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
        self, opener: str | int, beta: int = INF, progress: Progress | None = None, tree: bool = True
    ) -> OpenerResult:
        """Least total for ``opener`` if below ``beta`` (exact, with its tree), else a lower bound."""
        start = time.perf_counter()
        nodes0 = int(self.stats[tk.ST_NODES])
        g = self.row(opener) if isinstance(opener, str) else int(opener)
        word = self.words.allowed[g]
        dl = self._dl(1)
        if self.max_guesses is not None and dl < 0:
            return OpenerResult(word, False, INF, weight=self.weight)
        parts = self._parts(g)
        lbs = [self._group_lb(grp, dl) for _, grp in parts]
        total = self.weight + sum(lbs)
        if self.deep:
            total = self._raise_to_level(g, parts, lbs, total, beta)
        for done, ((code, grp), lb) in enumerate(zip(parts, lbs), 1):
            if total >= beta or total >= INF:
                break
            greens, need = self._child(g, code, self.no_greens, self.no_need)
            v = self._solve(grp, beta - (total - lb), dl, greens, need)
            total += v - lb
            if progress:
                progress(done, len(parts), total)
        seconds = time.perf_counter() - start
        nodes = int(self.stats[tk.ST_NODES]) - nodes0
        if total >= beta or total >= INF:
            return OpenerResult(word, False, min(total, INF), seconds=seconds, nodes=nodes, weight=self.weight)
        result = OpenerResult(word, True, total, seconds=seconds, nodes=nodes, weight=self.weight)
        if tree:
            t = self.build_tree(g)
            if t.total != total:
                raise AssertionError(f"tree total {t.total} differs from the search's {total}")
            result.worst = t.worst
            result.distribution = t.distribution
            result.tree = t
            result.seconds = time.perf_counter() - start
        return result

    def optimal(self, opener: str | int, beta: int = INF, progress: Progress | None = None) -> OpenerResult:
        """``solve_opener``, and when exact, the optimal tree with the least worst case among
        trees of that total (so ``worst`` is proven least too)."""
        r = self.solve_opener(opener, beta=beta, progress=progress)
        if r.exact and r.worst:
            _, tree = self.least_worst(opener, r.total, r.worst)
            if tree is not None:
                r.worst, r.distribution, r.tree = tree.worst, tree.distribution, tree
            r.worst_proven = True
        return r

    # --- trees ----------------------------------------------------------------------------

    def build_tree(self, opener: str | int) -> Tree:
        """The optimal tree under ``opener`` (from the memo; re-solves what was evicted)."""
        g0 = self.row(opener) if isinstance(opener, str) else int(opener)
        n = len(self.words.solutions)
        paths: dict[str, History] = {}
        allowed = self.words.allowed
        sols = self.words.solutions
        green = self.words.all_green

        def walk(g: int, cands: np.ndarray, path: tuple, used: int, greens, need) -> None:
            for code, grp in self.groups(g, cands):
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

    def least_worst(self, opener: str | int, total: int, worst: int, floor: int = 1) -> tuple[int, Tree | None]:
        """Shave the worst case among trees with ``total`` guesses: (least worst found, its tree).

        Tries a limit of one guess fewer until the total can no longer be kept.
        """
        best_tree = None
        limit = worst - 1
        while limit >= floor:
            r = self.with_limit(limit).solve_opener(opener, beta=total + 1, tree=True)
            if not (r.exact and r.total == total):
                break
            worst = r.worst or limit
            best_tree = r.tree
            limit = worst - 1
        return worst, best_tree

    def with_limit(self, max_guesses: int | None) -> Searcher:
        """The same search with another guess limit, sharing tables and memo (keys hold the depth)."""
        other = Searcher.__new__(Searcher)
        other.__dict__.update(self.__dict__)
        other.max_guesses = max_guesses
        return other
