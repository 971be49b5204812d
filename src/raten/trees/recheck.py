"""What a resumed ``raten tree --best`` re-checks before it reuses a line of its results file.

Reading the file (``raten.trees.results_file.read_lines``) already refused any line whose
digest does not match its fields. The digest is no signature, so every reused claim is also
checked against the word lists, as far as that is cheap:

- an ``exact`` line by its tree: the tree (kept in the line) must pass ``Tree.check`` on these
  lists, mode and limit, and show the line's opener, total and worst case. That proves the
  total is reached; that no tree under the opener does better is the search's word, kept by
  the digest (re-solving it would cost what the line cost).
- an ``at-least X`` line (or ``bound`` line) is confirmed when the cheap bound (3n - k,
  ``Searcher.opener_bound``) is already X or more, or else when the one-level bound
  (``Searcher.opener_level_bound``, raised until it reaches X) reaches X. A line made by the
  one-level bound must be confirmed so: the same bound, recomputed, reproduces it. A line made
  by the exact search (stopped at its cut-off) may claim more than any cheap bound shows; it is
  then accepted on its digest and counted (``Recheck.on_digest``) rather than searched again,
  which would cost as much as the line did. The one-level bounds are computed by the run's
  workers (and its shared memo, loaded from the last run), all of them before any new job.

A line that fails is refused with a RatenError naming the file, line, opener and why.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from raten.engine.words import WordSet
from raten.errors import RatenError
from raten.trees.model import Tree
from raten.trees.results_file import Line, ResultLines
from raten.trees.search import INF

_REFUSED = "refused: delete the line or use another --results file"


@dataclass
class Recheck:
    """How the reused lines were confirmed."""

    trees: int = 0  #: exact lines whose trees were checked
    bounds: int = 0  #: at-least and bound lines confirmed by a bound recomputed here
    on_digest: int = 0  #: search bounds above every cheap bound: accepted on their digest


#: One-level bounds of many (opener, claim) pairs, each raised until it reaches its claim:
#: ``raten.trees.jobs`` computes them on the run's workers (``bound_job``).
LevelBounds = Callable[[list[tuple[str, int]]], list[int]]


def recheck(
    lines: ResultLines,
    words: WordSet,
    hard: bool,
    max_guesses: int | None,
    cheap: dict[str, int],
    level_bounds: LevelBounds,
) -> Recheck:
    """Re-check every line a run over the openers of ``cheap`` (opener -> cheap bound) reuses:
    the exact lines by their trees here, the bounds the cheap bound cannot confirm by
    ``level_bounds`` (called once, with all of them)."""
    out = Recheck()
    claims: list[tuple[Line, int]] = []  # bound lines above their cheap bound
    reused = [line for o, line in lines.openers.items() if o in cheap]
    for line in reused + [line for o, line in lines.bounds.items() if o in cheap]:
        rec = line.rec
        if rec.get("kind") == "opener" and rec.get("exact"):
            _check_exact(lines, line, words, hard, max_guesses)
            out.trees += 1
            continue
        claim = INF if rec.get("total") is None else int(rec["total"])
        if claim <= cheap[rec["opener"]]:
            out.bounds += 1
        else:
            claims.append((line, claim))
    levels = level_bounds([(line.rec["opener"], claim) for line, claim in claims]) if claims else []
    for (line, claim), level in zip(claims, levels, strict=True):
        if level >= claim:
            out.bounds += 1
        elif line.rec.get("by") == "level-bound":
            shown = "impossible" if claim >= INF else f"at least {claim}"
            raise RatenError(
                f"{lines.where(line)}: claims {shown} by the one-level bound, but that bound recomputed is "
                f"{level}; {_REFUSED}"
            )
        else:
            out.on_digest += 1
    return out


def _check_exact(lines: ResultLines, line: Line, words: WordSet, hard: bool, max_guesses: int | None) -> None:
    rec, where = line.rec, lines.where(line)
    if not rec.get("tree") or rec.get("total") is None:
        raise RatenError(f"{where}: claims an exact total but carries no tree to check it by; {_REFUSED}")
    try:
        tree = Tree.from_text(rec["tree"], source="its tree")
        tree.check(words, source="its tree")
    except RatenError as e:
        raise RatenError(f"{where}: {e}\n{_REFUSED}") from None
    shown = {"opener": tree.opener, "total": tree.total, "worst": tree.worst}
    claimed = {"opener": rec["opener"], "total": rec["total"], "worst": rec.get("worst")}
    for key, value in shown.items():
        if claimed[key] != value:
            raise RatenError(f"{where}: claims {key} {claimed[key]} but its tree shows {value}; {_REFUSED}")
    # the tree of the least worst case was built under a tighter limit (its worst): fine within ours
    if tree.hard != hard or (max_guesses is not None and not (tree.max_guesses or INF) <= max_guesses):
        raise RatenError(f"{where}: its tree is for another mode or a looser guess limit; {_REFUSED}")
