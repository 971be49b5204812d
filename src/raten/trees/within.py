"""Which openers can solve every answer within the guess limit: not how well, a proof either way.

Each opener's groups are put to the feasibility search (``raten.trees.feasible``: any guess that
works, every legal guess tried, so a "no" is a proof), smallest first: the traps are small
groups (a few words that differ in one letter, in hard mode left under rules that allow one new
letter a guess), settled in milliseconds, while a large group takes long to prove solvable. One
group that cannot be solved within the guesses left makes the opener ``impossible``; every group
solvable makes it ``possible``, and the search's memo then holds a working guess for every set
on the way, from which ``tree`` reads the tree off. The groups get their searches in rounds of
growing work (in table cells read: ``kernels.ST_CELLS``), so a group that cannot be solved is
found before a large one is proven solvable; a group still undecided at the run's own budget
(``work``) leaves the opener ``unknown``.

``run`` judges many openers and appends one line per opener to a results file (JSON lines,
each ``impossible`` line with the digest of its claim, ``raten.trees.digest``), so a stopped run
resumes; ``unknown`` openers are judged again, with the work budget of the new run.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from raten.engine.feedback import History
from raten.engine.hardmode import keeping
from raten.engine.words import WordSet
from raten.errors import RatenError
from raten.trees import kernels as tk
from raten.trees.digest import claim_digest
from raten.trees.feasible import NO, UNKNOWN, YES, feasible
from raten.trees.memo import memo_get, new_memo, set_key, state_hash
from raten.trees.model import Tree
from raten.trees.search import Searcher

#: What a line of the results file says of an opener.
IMPOSSIBLE, POSSIBLE, UNDECIDED = "impossible", "possible", "unknown"
#: The status an impossible opener's digest covers (a table row's ``at-least impossible``, by this search).
CLAIM_STATUS = "at-least by feasibility"
RESULTS_KIND = "within"
#: Work budgets (table cells) of the rounds a group's search gets before the run's own budget.
WORK_STEPS = (10**5, 10**6, 10**7, 10**8, 10**9)


@dataclass(frozen=True)
class Verdict:
    """One opener: ``impossible`` (``group``: the pattern of a group no tree solves within the
    guesses left, ``size`` its words), ``possible`` or ``unknown`` (``group``: the first group
    left undecided); ``cells`` of work and ``seconds`` it took."""

    opener: str
    status: str
    group: int | None = None
    size: int = 0
    cells: int = 0
    seconds: float = 0.0


class Within:
    """The feasibility search over one word set, mode and guess limit; the memo is kept between openers."""

    def __init__(self, words: WordSet, hard: bool = False, limit: int = 6, memo_bits: int = 22):
        if limit < 1:
            raise RatenError("--max-guesses must be at least 1")
        self.words = words
        self.hard = hard
        self.limit = limit
        #: tables and groups only: its memo is never used, the feasibility memo holds yes and no
        self.search = Searcher(words, hard=hard, max_guesses=limit, memo_bits=1)
        self.tables = self.search.tables[:6]
        self.memo = new_memo(memo_bits)
        self.stats = np.zeros(tk.N_STATS, dtype=np.int64)

    def _feasible(self, cands: np.ndarray, dl: int, greens: np.ndarray, need: np.ndarray, work: int | None) -> int:
        self.stats[tk.ST_STOPPED] = 0
        self.stats[tk.ST_STOP_AT] = 0 if work is None else int(self.stats[tk.ST_CELLS]) + max(1, work)
        hh = np.uint64(state_hash(greens, need))  # typed as the kernel's own hashes (numba #6713)
        s = self.search
        return int(feasible(self.tables, self.memo, cands, dl, self.hard, s.all_guesses, greens, need, hh, self.stats))

    def judge(self, opener: str, work: int | None = None) -> Verdict:
        """Whether every answer can be solved within the limit after ``opener`` (the module's
        docstring); ``work``: table cells a group's search may read (None: no budget).

        The groups are searched in rounds of growing budgets (``WORK_STEPS``), each round every
        group still undecided, smallest first: a group that cannot be solved is usually found in
        the first round, long before a large solvable group would have been proven solvable."""
        start, cells0 = time.perf_counter(), int(self.stats[tk.ST_CELLS])
        s = self.search
        g = s.row(opener)
        word = self.words.allowed[g]
        left = sorted(s._parts(g), key=lambda cg: len(cg[1]))
        steps = [b for b in WORK_STEPS if work is None or b < work] + [work]
        for budget in steps:
            undecided = []
            for code, grp in left:
                greens, need = s._child(g, code, s.no_greens, s.no_need)
                r = self._feasible(grp, self.limit - 1, greens, need, budget)
                if r == NO:
                    return self._verdict(word, IMPOSSIBLE, code, len(grp), cells0, start)
                if r == UNKNOWN:
                    undecided.append((code, grp))
            left = undecided
            if not left:
                return self._verdict(word, POSSIBLE, None, 0, cells0, start)
        code, grp = left[0]
        return self._verdict(word, UNDECIDED, code, len(grp), cells0, start)

    def _verdict(self, word: str, status: str, code: int | None, size: int, cells0: int, start: float) -> Verdict:
        cells = int(self.stats[tk.ST_CELLS]) - cells0
        return Verdict(word, status, code, size, cells, round(time.perf_counter() - start, 3))

    def _guess(self, cands: np.ndarray, dl: int, greens: np.ndarray, need: np.ndarray) -> int:
        """A guess that solves ``cands`` within ``dl`` guesses (the set was judged solvable)."""
        if len(cands) <= dl:  # the candidates one by one (``feasible`` keeps no guess for these)
            return int(self.search.tables[1][cands[0]])
        if self._feasible(cands, dl, greens, need, None) != YES:
            raise AssertionError("a group judged solvable is not")
        s = self.search
        legal = keeping(s.all_guesses, self.tables[4], self.tables[5], greens, need) if self.hard else s.all_guesses
        if dl == 2:
            return int(tk.perfect_splitter(self.tables[0], cands, legal.astype(np.int32), self.words.patterns))
        k1, k2 = set_key(cands, self.tables[2], self.tables[3], dl, np.uint64(state_hash(greens, need)))
        hit, v, _, best = memo_get(self.memo, np.uint64(k1), np.uint64(k2))  # stored by the search just now
        if not hit or v != YES or best < 0:
            raise AssertionError("a solvable set without its guess in the memo")
        return int(best)

    def tree(self, opener: str) -> Tree:
        """A tree under a ``possible`` opener that solves every answer within the limit."""
        s = self.search
        allowed, sols = self.words.allowed, self.words.solutions
        paths: dict[str, History] = {}
        green = self.words.all_green

        def walk(g: int, cands: np.ndarray, path: tuple, dl: int, greens, need) -> None:
            for code, grp in s.groups(g, cands):
                here = (*path, (allowed[g], code))
                if code == green:
                    paths[sols[int(grp[0])]] = here
                    continue
                cg, cn = s._child(g, code, greens, need)
                walk(self._guess(grp, dl - 1, cg, cn), grp, here, dl - 1, cg, cn)

        g0 = s.row(opener)
        walk(g0, np.arange(len(sols), dtype=np.int32), (), self.limit, s.no_greens, s.no_need)
        return Tree.from_paths(self.words, paths, hard=self.hard, max_guesses=self.limit, opener=allowed[g0])

    # --- many openers, a results file ----------------------------------------------------------

    def header(self) -> dict:
        """The results file's first line: the lists (with the prior), mode and limit judged."""
        return {
            "kind": "header",
            "check": RESULTS_KIND,
            "words": self.words.name,
            "lists": self.words.prior_key,
            "mode": "hard" if self.hard else "normal",
            "max_guesses": self.limit,
        }

    def digest(self, opener: str) -> str:
        """The digest of the claim that ``opener`` cannot solve every answer within the limit."""
        h = self.header()
        return claim_digest(h["lists"], h["mode"], self.limit, opener, CLAIM_STATUS, None)

    def read(self, path: Path) -> dict[str, Verdict]:
        """The openers an earlier run settled (impossible or possible), each impossible line's
        digest checked; RatenError naming the line when it fails or the file is for other lists."""
        if not path.exists():
            return {}
        out: dict[str, Verdict] = {}
        lines = path.read_text(encoding="utf-8").split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        elif lines:
            lines.pop()  # torn by a kill
        for no, line in enumerate(lines, 1):
            try:
                rec = json.loads(line)
            except ValueError:
                raise RatenError(f"{path} line {no}: not a JSON line") from None
            if no == 1:
                if rec != self.header():
                    raise RatenError(f"{path}: its header is for other lists, another mode or limit: {rec}")
                continue
            fields = {k: rec.get(k) for k in ("opener", "status", "group", "size", "cells", "seconds")}
            if fields["status"] == IMPOSSIBLE and rec.get("digest") != self.digest(str(fields["opener"])):
                raise RatenError(f"{path} line {no} ({str(fields['opener']).upper()}): does not match its digest")
            if fields["status"] in (IMPOSSIBLE, POSSIBLE):
                out[str(fields["opener"])] = Verdict(**fields)
        return out

    def run(
        self,
        openers: Iterable[str],
        results: Path | None = None,
        work: int | None = None,
        stop_after: float | None = None,
        progress: Callable[[Verdict, int, int], None] | None = None,
    ) -> dict[str, Verdict]:
        """Judge every opener (those settled in ``results`` are taken from it), appending a line
        per opener to ``results``; ``stop_after`` seconds: no opener begins after that."""
        todo = list(dict.fromkeys(openers))
        for o in todo:
            self.search.row(o)  # a RatenError for a word that is not an allowed guess, before any work
        done = self.read(results) if results else {}
        out = {o: done[o] for o in todo if o in done}
        f = None
        if results:
            results.parent.mkdir(parents=True, exist_ok=True)
            fresh = not results.exists() or results.stat().st_size == 0
            if not fresh:
                data = results.read_bytes()
                if not data.endswith(b"\n"):
                    results.write_bytes(data[: data.rfind(b"\n") + 1])
            f = results.open("a", encoding="utf-8")
            if fresh:
                f.write(json.dumps(self.header()) + "\n")
        stop_at = None if stop_after is None else time.monotonic() + stop_after
        try:
            for i, o in enumerate(todo, 1):
                if o in out:
                    continue
                if stop_at is not None and time.monotonic() >= stop_at:
                    break
                v = self.judge(o, work)
                out[o] = v
                if f:
                    rec = asdict(v) | ({"digest": self.digest(o)} if v.status == IMPOSSIBLE else {})
                    f.write(json.dumps(rec) + "\n")
                    f.flush()
                if progress:
                    progress(v, i, len(todo))
        finally:
            if f:
                f.close()
        return out
