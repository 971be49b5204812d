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
  which would cost as much as the line did.

A line that fails is refused with a RatenError naming the file, line, opener and why.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from raten.engine.words import WordSet
from raten.errors import RatenError
from raten.trees.model import Tree
from raten.trees.results_file import Line, ResultLines
from raten.trees.search import INF, Searcher

_REFUSED = "refused: delete the line or use another --results file"


@dataclass
class Recheck:
    """How the reused lines were confirmed."""

    trees: int = 0  #: exact lines whose trees were checked
    bounds: int = 0  #: at-least and bound lines confirmed by a bound recomputed here
    on_digest: int = 0  #: search bounds above every cheap bound: accepted on their digest


def recheck(
    lines: ResultLines,
    words: WordSet,
    hard: bool,
    max_guesses: int | None,
    cheap: dict[str, int],
    searcher: Callable[[], Searcher],
) -> Recheck:
    """Re-check every line a run over the openers of ``cheap`` (opener -> cheap bound) reuses;
    ``searcher()`` gives the searcher for the one-level bounds (made only when one is needed)."""
    out = Recheck()
    for o, line in lines.openers.items():
        if o not in cheap:
            continue
        if line.rec.get("exact"):
            _check_exact(lines, line, words, hard, max_guesses)
            out.trees += 1
        else:
            _check_bound(lines, line, cheap[o], searcher, out)
    for o, line in lines.bounds.items():
        if o in cheap:
            _check_bound(lines, line, cheap[o], searcher, out)
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
    if tree.hard != hard or tree.max_guesses != max_guesses:
        raise RatenError(f"{where}: its tree is for another mode or guess limit; {_REFUSED}")


def _check_bound(lines: ResultLines, line: Line, cheap: int, searcher: Callable[[], Searcher], out: Recheck) -> None:
    rec = line.rec
    claim = INF if rec.get("total") is None else int(rec["total"])
    if claim <= cheap:
        out.bounds += 1
        return
    level = searcher().opener_level_bound(rec["opener"], claim)
    if level >= claim:
        out.bounds += 1
    elif rec.get("by") == "level-bound":
        shown = "impossible" if claim >= INF else f"at least {claim}"
        raise RatenError(
            f"{lines.where(line)}: claims {shown} by the one-level bound, but that bound recomputed is {level}; "
            f"{_REFUSED}"
        )
    else:
        out.on_digest += 1
