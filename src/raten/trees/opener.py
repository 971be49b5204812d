"""One opener's proven tree, as `raten tree` without ``--best`` builds and reports it.

``OpenerProof(words, opener)`` picks the opener (the given one, or the one with most
groups) and ``run()`` proves the least total under it, then the least worst case among
trees of that total. The faces print the ``ProvenOpener`` it returns.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from raten.engine.words import WordSet
from raten.errors import RatenError
from raten.trees.kernels import ST_NODES
from raten.trees.model import Tree
from raten.trees.search import Progress, Searcher, default_memo_bits, group_totals


@dataclass
class ProvenOpener:
    """The optimal tree under one opener, with how the opener was chosen and what it took."""

    tree: Tree
    chosen_by: str  #: "given" or "most groups"
    seconds: float
    nodes: int

    def to_dict(self, out: str | Path | None = None) -> dict:
        """The report ``raten tree --json`` prints (``out``: where the tree was written)."""
        return self.tree.summary() | {
            "opener_chosen_by": self.chosen_by,
            "proven_optimal": "for this opener",
            "worst_least_among_optimal": True,
            "seconds": round(self.seconds, 2),
            "nodes": self.nodes,
            "out": str(out) if out else None,
        }


class OpenerProof:
    """The exact search for one opener: chosen at once, proven by ``run``."""

    def __init__(
        self,
        words: WordSet,
        opener: str | None = None,
        *,
        hard: bool = False,
        max_guesses: int | None = 6,
        memo_bits: int | None = None,
        upper: Tree | None = None,
    ) -> None:
        self.start = time.perf_counter()
        self.words = words
        self.max_guesses = max_guesses
        bits = memo_bits or default_memo_bits(len(words.solutions))
        self.searcher = Searcher(words, hard=hard, max_guesses=max_guesses, memo_bits=bits)
        if opener is None:
            self.opener, self.chosen_by = self.searcher.default_opener(), "most groups"
        else:
            self.opener, self.chosen_by = opener, "given"
        #: the totals another tree under this opener reaches in its groups: cut-offs from the start
        self.ceilings = self._ceilings(upper) if upper is not None else None

    def _ceilings(self, upper: Tree) -> dict[int, int]:
        """The groups' totals of ``upper``, after checking that it is a tree for these lists,
        mode and limit under this opener (a RatenError naming what is wrong)."""
        s = self.searcher
        if upper.opener != self.opener.lower():
            raise RatenError(f"the upper tree starts with {upper.opener.upper()}, not {self.opener.upper()}")
        if upper.hard != s.hard or (s.max_guesses is not None and upper.worst > s.max_guesses):
            raise RatenError("the upper tree is for another mode or needs more guesses than the limit")
        upper.check(self.words, source="the upper tree")
        return group_totals(upper)

    def run(self, progress: Progress | None = None) -> ProvenOpener:
        """Prove the optimal tree under the opener; a RatenError when no tree within the
        guess limit exists. The tree's header says ``proven=opener`` and the seconds taken."""
        r = self.searcher.optimal(self.opener, progress=progress, ceilings=self.ceilings)
        if not r.exact or r.tree is None:
            raise RatenError(f"{self.opener.upper()} cannot solve every word within {self.max_guesses} guesses")
        seconds = time.perf_counter() - self.start
        tree = r.tree
        tree.claim(proven="opener", seconds=f"{seconds:.1f}")
        return ProvenOpener(tree, self.chosen_by, seconds, int(self.searcher.stats[ST_NODES]))
