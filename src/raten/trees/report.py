"""What ``raten tree --best`` found: the best openers proven exactly, the others' lower bounds,
and the forms it is shown in (the JSON report, the best tree, the table of every opener).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from raten.engine.words import WordSet
from raten.errors import RatenError
from raten.trees.digest import claim_digest
from raten.trees.model import Tree
from raten.trees.recheck import Recheck
from raten.trees.search import INF

#: The first line of an openers table: the digest column came with issue 25.
TABLE_COLUMNS = "opener\tstatus\ttotal\tworst\tdigest"


@dataclass
class BestReport:
    """All openers accounted for: exact totals for the best ones, lower bounds for the rest."""

    results: dict[str, dict]
    bounds: dict[str, int]  #: the best lower bound known before any search: cheap, or one-level when raised
    cutoff: int  #: every opener not listed exactly needs at least this many guesses
    openers: int
    by_bound: int  #: openers excluded by their bound in the queue alone (no record: cheap or one-level)
    seconds: float
    resumed: int
    exact: list[dict] = field(default_factory=list)
    by_level: int = 0  #: openers refuted by their one-level bound (a record, no search)
    header: dict = field(default_factory=dict)  #: words, fingerprint, mode, max_guesses (as in the results file)
    solutions: int = 0
    results_path: Path | None = None
    cap: int = INF  #: the cut-off given up front (``--cutoff``), INF without one
    memo_loaded: int = 0  #: shared memo entries taken over from the saved memo of an earlier run
    memo_saved: int = 0  #: shared memo entries saved at the end (0: private memos or no results file)
    weights: dict[str, int] | None = None  #: each solution's weight under the prior (None: uniform)
    recheck: Recheck = field(default_factory=Recheck)  #: how the lines resumed from the results file were re-checked
    #: every opener settled (False: a run stopped by its time limit, what it proved so far)
    complete: bool = True

    @property
    def best(self) -> dict | None:
        return self.exact[0] if self.exact else None

    @property
    def proven(self) -> bool:
        return self.complete and self.best is not None

    def bound_of(self, opener: str) -> int:
        """The opener's exact total or proven lower bound (INF: impossible within the limit)."""
        r = self.results.get(opener)
        if r is not None:
            return INF if r["total"] is None else int(r["total"])
        return self.bounds[opener]

    @property
    def lower_bound(self) -> int:
        """What the best opener needs at least: the least exact total or bound over all openers
        (a complete run's is its best total)."""
        return min((self.bound_of(o) for o in self.bounds), default=INF)

    def best_tree(self) -> Tree | None:
        """The best opener's tree (None without one), marked proven over all openers when the
        run is complete, else proven for its opener."""
        text = self.best.get("tree") if self.best else None
        if not text:
            return None
        tree = Tree.from_text(text, source=str(self.results_path or "results"))
        tree.weights = self.weights
        tree.lists_key = self.header.get("lists", "")
        tree.claim(proven="all-openers" if self.complete else "opener")
        return tree

    def ranking(self, top: int) -> list[dict]:
        """The ``top`` best exact openers: rank, opener, total, average, worst, distribution."""
        n = sum(self.weights.values()) if self.weights else self.solutions  # expected guesses: over the weight
        return [
            {
                "rank": i,
                "opener": r["opener"],
                "total": r["total"],
                "average": round(r["total"] / n, 4),
                "worst": r["worst"],
                "distribution": r["distribution"],
            }
            for i, r in enumerate(self.exact[:top], 1)
        ]

    def to_dict(self, top: int, out: Path | None = None) -> dict:
        """The report ``raten tree --best --json`` prints; a RatenError when no opener solved
        every word within the guess limit."""
        if self.best is None and self.complete:
            if self.cap < INF:
                raise RatenError(f"no opener needs fewer than {self.cap} guesses in total; raise --cutoff")
            raise RatenError("no opener solves every word within the guess limit")
        ranking = self.ranking(top)
        low = self.lower_bound
        return {
            "words": self.header.get("words"),
            "fingerprint": self.header.get("fingerprint"),
            "mode": self.header.get("mode"),
            "max_guesses": self.header.get("max_guesses"),
            "solutions": self.solutions,
            "openers": self.openers,
            "best": ranking[0] if ranking else None,
            "proven_optimal": self.proven,
            "complete": self.complete,
            "others_at_least": self.cutoff if self.cutoff < INF and self.complete else None,
            "lower_bound": low if low < INF else None,
            "unsettled": sum(1 for o in self.bounds if self.bound_of(o) < self.cutoff and o not in self.results),
            "top": ranking,
            "openers_cut_by_bound": self.by_bound,
            "openers_cut_by_level_bound": self.by_level,
            "resumed": self.resumed,
            "resumed_trees_checked": self.recheck.trees,
            "resumed_bounds_recomputed": self.recheck.bounds,
            "resumed_on_digest": self.recheck.on_digest,
            "memo_loaded": self.memo_loaded,
            "memo_saved": self.memo_saved,
            "seconds": round(self.seconds, 1),
            "results": str(self.results_path) if self.results_path else None,
            "out": str(out) if out else None,
        }


def openers_table(report: BestReport, bounds: dict[str, int] | None = None) -> str:
    """Every opener with its exact total or proven lower bound, best first (tab-separated),
    each row with the digest of its claim (``raten.trees.digest``)."""
    rows = []
    for o, r in report.results.items():
        total = r["total"] if r["total"] is not None else INF
        rows.append((total, 0 if r["exact"] else 1, o, "exact" if r["exact"] else "at-least", r.get("worst")))
    for o, b in (bounds if bounds is not None else report.bounds).items():
        if o not in report.results:
            rows.append((b, 1, o, "at-least", None))
    rows.sort()
    lines = [TABLE_COLUMNS]
    for total, _, o, status, worst in rows:
        known = total if total < INF else None
        digest = row_digest(report.header, o, status, known, worst)
        lines.append(f"{o}\t{status}\t{known if known is not None else 'impossible'}\t{worst or ''}\t{digest}")
    return "\n".join(lines) + "\n"


def row_digest(header: dict, opener: str, status: str, total: int | None, worst: int | None) -> str:
    """The digest of one openers table row (status ``exact`` or ``at-least``, total None for
    impossible) under ``header``: the lists' ``lists`` key, ``mode`` and ``max_guesses``."""
    return claim_digest(header["lists"], header["mode"], header["max_guesses"], opener, status, total, worst)


def mark_impossible(path: Path, words: WordSet, hard: bool, limit: int, impossible: set[str]) -> int:
    """Rewrite the openers table at ``path`` with every opener of ``impossible`` (proven unable
    to solve every answer within ``limit``) as ``at-least impossible``, its digest recomputed,
    rows in the table's order; how many rows changed. RatenError when the table is not one of
    these lists, mode and limit (its rows' digests name them)."""
    header = {"lists": words.prior_key, "mode": "hard" if hard else "normal", "max_guesses": limit}
    lines = path.read_text(encoding="utf-8").splitlines()
    if not lines or lines[0] != TABLE_COLUMNS:
        raise RatenError(f"{path}: not an openers table (its first line is not {TABLE_COLUMNS!r})")
    rows, changed = [], 0
    for no, line in enumerate(lines[1:], 2):
        opener, status, total, worst, digest = (line.split("\t") + [""] * 5)[:5]
        value = None if total == "impossible" else int(total) if total.isdigit() else -1
        worst_value = int(worst) if worst.isdigit() else None
        if value == -1 or row_digest(header, opener, status, value, worst_value) != digest:
            raise RatenError(f"{path}:{no}: the row does not match its digest for these lists, mode and limit")
        if opener in impossible and value is not None:
            if status == "exact":
                raise RatenError(f"{path}:{no}: {opener.upper()} has an exact total, yet is impossible")
            status, value, changed = "at-least", None, changed + 1
        rows.append((value if value is not None else INF, 0 if status == "exact" else 1, opener, status, worst_value))
    rows.sort()
    out = [TABLE_COLUMNS]
    for row_total, _, o, row_status, row_worst in rows:
        known = row_total if row_total < INF else None
        shown = known if known is not None else "impossible"
        sealed = row_digest(header, o, row_status, known, row_worst)
        out.append(f"{o}\t{row_status}\t{shown}\t{row_worst or ''}\t{sealed}")
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return changed
