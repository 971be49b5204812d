"""An independent check of a raten optimality proof: a decision tree and its openers table.

    python checker/check_optimum.py --solutions S --allowed A --tree T [--openers TSV] [--hard]

Plain Python and numpy; it imports nothing from raten and has its own feedback rule and its
own readers of the two file formats. Exit 0: every claim holds; 1: the first claim that does
not, named; 2: bad usage or unreadable input.

(a) The tree: every solution reached exactly once, every pattern the true feedback, every
guess allowed, one guess per node, no path over max_guesses, hard-mode legality with --hard,
the header's fingerprint, opener, mode, solutions, total and worst equal to what the lists and
the tree show, and its digest (and every table row's) recomputed here (``digest``; uniform lists).

(b) The table: the tree's opener is the best row and agrees with the tree; no row claims
better than the best; every opener's refutation is checked with a lower bound computed here
from scratch (see ``opener_bound``). A row the bound cannot reach is reported as accepted on
raten's word (or fails with --strict): the share verified is the strength of this check.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import signal
import sys
import time
from collections import Counter

import numpy as np

GREY, YELLOW, GREEN = 0, 1, 2
MARKS = {".": GREY, "?": YELLOW, "!": GREEN}
SHOW = ".?!"
MAGIC = "# raten decision tree v1"
DIGESTED = ("lists", "mode", "max_guesses", "opener", "status", "total", "worst")


class UsageError(Exception):
    """Bad usage or unreadable input: exit 2."""


class ClaimError(Exception):
    """A claim that does not hold: exit 1."""


def require(holds: bool, claim: str) -> None:
    """Raise ClaimError naming ``claim`` unless it ``holds``."""
    if not holds:
        raise ClaimError(claim)


# --- feedback ---------------------------------------------------------------------------


def feedback(guess: str, answer: str) -> str:
    """Greens first take their letter; then yellows left to right from the letters left.
    BEERE against RENTE: ``.!.?!`` (grey, green, grey, yellow, green)."""
    marks = ["."] * len(guess)
    left: Counter[str] = Counter()
    for i in range(len(guess)):
        if guess[i] == answer[i]:
            marks[i] = "!"
        else:
            left[answer[i]] += 1
    for i in range(len(guess)):
        if marks[i] != "!" and left[guess[i]] > 0:
            marks[i] = "?"
            left[guess[i]] -= 1
    return "".join(marks)


def code_of(marks: str) -> int:
    code = 0
    for m in marks:
        code = code * 3 + MARKS[m]
    return code


def letters(words: list[str]) -> np.ndarray:
    """Words of one length as arrays of their letters' code points (any letters: ä, ñ too)."""
    return np.array([[ord(c) for c in w] for w in words], dtype=np.int32).reshape(len(words), len(words[0]))


def feedback_matrix(guesses: list[str], answers: list[str], chunk: int = 1024) -> np.ndarray:
    """Codes (base 3, first letter most significant: 0..242 for five letters) of every guess
    against every answer, uint8 up to five letters and uint16 above. Position i is yellow when
    the answer has more of its letter outside the greens than the guess used at earlier
    non-green positions: the same rule as ``feedback``."""
    g_all, s = letters(guesses), letters(answers)[None, :, :]
    length = g_all.shape[1]
    out = np.empty((len(guesses), len(answers)), dtype=np.uint8 if length <= 5 else np.uint16)
    for lo in range(0, len(guesses), chunk):
        g = g_all[lo : lo + chunk, None, :]
        green = g == s
        code = np.zeros(green.shape[:2], dtype=np.int32)
        for i in range(length):
            avail = ((s == g[:, :, i : i + 1]) & ~green).sum(axis=2)
            used = np.zeros_like(avail)
            for j in range(i):
                used += (g[:, :, j] == g[:, :, i]) & ~green[:, :, j]
            colour = np.where(green[:, :, i], GREEN, np.where(avail > used, YELLOW, GREY))
            code = code * 3 + colour
        out[lo : lo + chunk] = code
    return out


def hard_violation(guess: str, history: list[tuple[str, str]]) -> str | None:
    """Why ``guess`` breaks hard mode after ``history``: greens kept in place, every letter
    shown (green or yellow) used at least as often as one earlier guess showed it."""
    for g, marks in history:
        for i in range(len(g)):
            if marks[i] == "!" and guess[i] != g[i]:
                return f"letter {i + 1} must be {g[i].upper()} ({g.upper()} {marks})"
        shown = Counter(g[i] for i in range(len(g)) if marks[i] != ".")
        for ch, n in shown.items():
            if guess.count(ch) < n:
                return f"it must contain {ch.upper()} {n} time(s) ({g.upper()} {marks})"
    return None


# --- reading ----------------------------------------------------------------------------


def digest(lists: str, head: dict, opener: str, status: str, total: str, worst: str) -> str:
    """raten's digest of a claim (docs/trees.md, "Digests"), recomputed: no signature, it shows a
    claim was not edited since it was written, nor moved from other lists, mode or limit."""
    values = (lists, head["mode"], head["max_guesses"] or "-", opener, status, total, worst or "-")
    text = "".join(f"{k}={v}\n" for k, v in zip(DIGESTED, values, strict=True))
    return hashlib.sha256(f"raten-claim-1\n{text}".encode()).hexdigest()[:16]


def read_text(path: str, what: str) -> str:
    try:
        with open(path, encoding="utf-8-sig") as f:
            return f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(f"cannot read the {what} file {path!r}: {e}") from None


def read_words(path: str, what: str) -> list[str]:
    words = []
    for no, line in enumerate(read_text(path, what).splitlines(), 1):
        w = line.strip().lower()
        if not w or w.startswith("#"):
            continue
        if not 4 <= len(w) <= 8 or not w.isalpha() or len(w) != len((words or [w])[0]):
            raise UsageError(f"{path}:{no}: {line.strip()!r} is not a word of 4 to 8 letters, as long as the first")
        words.append(w)
    if not words:
        raise UsageError(f"the {what} file {path!r} holds no words")
    return sorted(set(words))


def read_tree(path: str) -> tuple[dict[str, str], list[tuple[int, list[tuple[str, str]]]]]:
    """The header's key=value claims and every line's (guess, marks) path."""
    text = read_text(path, "tree")
    lines = text.splitlines()
    if not lines or lines[0].strip() != MAGIC:
        raise UsageError(f"{path}: not a raten tree (its first line is not {MAGIC!r})")
    head: dict[str, str] = {}
    paths = []
    for no, raw in enumerate(lines[1:], 2):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            head.update(tok.split("=", 1) for tok in line[1:].split() if "=" in tok)
            continue
        toks = line.lower().split()
        bad = len(toks) % 2 or any(
            len(t) != len(toks[0]) or (set(t) - set(SHOW) if k % 2 else not t.isalpha()) for k, t in enumerate(toks)
        )
        if bad:
            raise UsageError(f"{path}:{no}: expected GUESS MARKS pairs (marks of ! ? .), got {line!r}")
        paths.append((no, [(toks[k], toks[k + 1]) for k in range(0, len(toks), 2)]))
    for key in ("mode", "max_guesses", "opener", "solutions", "total", "worst"):
        if key not in head:
            raise UsageError(f"{path}: the header has no {key}=")
    return head, paths


def read_table(path: str, tree: dict) -> list[tuple[int, str, str, str, str]]:
    """(line, opener, status, total, worst) of every row; total may be ``impossible``. A table
    with a digest column has each row's digest checked under the tree's lists, mode and limit."""
    rows = []
    lines = read_text(path, "openers").splitlines()
    columns = lines[0].split() if lines else []
    if columns not in (["opener", "status", "total", "worst"], ["opener", "status", "total", "worst", "digest"]):
        raise UsageError(f"{path}: not an openers table (header 'opener status total worst [digest]')")
    for no, raw in enumerate(lines[1:], 2):
        if not raw.strip():
            continue
        cells = raw.rstrip("\n").split("\t") + [""] * 5
        opener, status, total, worst, sealed = (c.strip().lower() for c in cells[:5])
        unsealed = len(columns) == 5 and sealed != digest(tree["lists"], tree["head"], opener, status, total, worst)
        require(not unsealed, f"{path}:{no}: {opener.upper()} {status} {total}: the row does not match its digest")
        numeric = total.isdigit() and (worst.isdigit() or (status == "at-least" and not worst))
        if status not in ("exact", "at-least") or not (numeric or (status, total) == ("at-least", "impossible")):
            raise UsageError(f"{path}:{no}: cannot read the row {raw.strip()!r}")
        rows.append((no, opener, status, total, worst))
    return rows


# --- (a) the tree -----------------------------------------------------------------------


def check_tree(path: str, solutions: list[str], allowed: set[str], hard: bool) -> dict:
    head, paths = read_tree(path)
    runs = "with" if hard else "without"
    wrong_mode = f"{path}: the header says mode={head['mode']}, but the check runs {runs} --hard"
    require((head["mode"] == "hard") == hard, wrong_mode)
    limit = int(head["max_guesses"]) if head["max_guesses"].isdigit() else None
    sols = set(solutions)
    seen: dict[str, int] = {}
    node: dict[tuple, tuple[str, int]] = {}  # the moves so far -> (next guess, its line)
    total = worst = 0
    for no, moves in paths:
        where = f"{path}:{no}"
        answer = moves[-1][0]
        solved = "!" * len(answer)
        require(moves[-1][1] == solved, f"{where}: the path does not end in {solved}")
        require(answer in sols, f"{where}: {answer.upper()} is not a solution")
        require(answer not in seen, f"{where}: {answer.upper()} is reached twice (also line {seen.get(answer)})")
        seen[answer] = no
        for i, (guess, marks) in enumerate(moves):
            require(guess in allowed, f"{where}: {guess.upper()} is not an allowed guess")
            true = feedback(guess, answer)
            require(marks == true, f"{where}: {guess.upper()} against {answer.upper()} shows {true}, not {marks}")
            last = i == len(moves) - 1
            require(marks != solved or last, f"{where}: the path goes on after {answer.upper()} is solved")
            prefix = tuple(moves[:i])
            other = node.setdefault(prefix, (guess, no))
            if other[0] != guess:
                shown = " ".join(f"{g.upper()} {m}" for g, m in prefix) or "the start"
                raise ClaimError(
                    f"not a tree: after {shown} line {no} guesses {guess.upper()}, line {other[1]} {other[0].upper()}"
                )
            why = hard_violation(guess, moves[:i]) if hard else None
            require(why is None, f"{where}: {guess.upper()} breaks hard mode: {why}")
        over = f"{where}: {answer.upper()} takes {len(moves)} guesses, over max_guesses={limit}"
        require(not limit or len(moves) <= limit, over)
        total += len(moves)
        worst = max(worst, len(moves))
    missing = sorted(sols - set(seen))
    named = ", ".join(w.upper() for w in missing[:5]) + (f" and {len(missing) - 5} more" if len(missing) > 5 else "")
    require(not missing, f"{path}: {len(missing)} solution(s) not reached: {named}")
    opener = paths[0][1][0][0]
    shows = {"opener": opener, "solutions": str(len(seen)), "total": str(total), "worst": str(worst)}
    lists = hashlib.sha256(("\n".join(solutions) + "|" + "\n".join(sorted(allowed))).encode()).hexdigest()[:24]
    shows = {"fingerprint": lists, **shows} if "fingerprint" in head else shows
    for key, value in shows.items():
        require(head[key].lower() == value, f"{path}: the header says {key}={head[key]} but the tree shows {value}")
    sealed = digest(lists, head, opener, f"exact proven={head.get('proven', '-')}", str(total), str(worst))
    claimed = head.get("digest", sealed)
    require(claimed == sealed, f"{path}: the header's digest={claimed} does not match its claims ({sealed})")
    return {"head": head, "opener": opener, "total": total, "worst": worst, "limit": limit, "lists": lists}


# --- (b) the lower bound ----------------------------------------------------------------


class Bounds:
    """Lower bounds on the total guesses of an opener, from the feedback matrix alone.

    After the opener every solution has cost 1 and falls in a class of its pattern. A class of
    n answers (not the all-green one) costs at least: 1 if n = 1; else, for the next guess g
    making k classes on it (in hard mode only guesses legal after the opener's hint), n for
    that guess plus at least 2m - 1 for each of its classes of m other than g itself, so at
    least ``3n - max_g (k_g + [g in class])``: every allowed guess is tried on every class it
    refines. Classes are refined largest first and only until the bound reaches the target.
    """

    def __init__(self, allowed: list[str], solutions: list[str], hard: bool):
        self.words, self.hard = allowed, hard
        self.index = {w: i for i, w in enumerate(allowed)}
        self.sol_at = np.array([self.index[w] for w in solutions])  # allowed row of each solution
        self.F = feedback_matrix(allowed, solutions)  # (allowed, solutions)
        self.FT = np.ascontiguousarray(self.F.T)  # (solutions, allowed)
        self.L = letters(allowed)
        self.length = self.L.shape[1]
        self.green = 3**self.length - 1  # the all-green code
        self.counts = {int(c): (c == self.L).sum(axis=1) for c in np.unique(self.L)}  # by letter, in each word
        self.classes = np.concatenate([self.distinct(self.FT[:, i : i + 1024]) for i in range(0, len(allowed), 1024)])
        self.most = int(self.classes.max())
        self.by_classes = np.argsort(-self.classes, kind="stable")  # guesses, most classes of all solutions first
        self.full_scans = 0
        self.memo: dict[bytes, int] = {}  # class (and hard-mode rule) -> most classes a guess makes

    def legal(self, opener: int, code: int) -> tuple[np.ndarray | None, bytes]:
        """Mask of the guesses legal in hard mode after the opener showed ``code``, and the rule
        as bytes (greens and letter counts; the same rule gives the same mask)."""
        if not self.hard:
            return None, b""
        digits = [(code // 3 ** (self.length - 1 - i)) % 3 for i in range(self.length)]
        o = self.L[opener]
        mask = np.ones(len(self.words), dtype=bool)
        need: Counter[int] = Counter()
        for i, d in enumerate(digits):
            if d == GREEN:
                mask &= self.L[:, i] == o[i]
            if d != GREY:
                need[int(o[i])] += 1
        for c, n in need.items():
            mask &= self.counts[c] >= n
        rule = [(i, int(o[i])) for i, d in enumerate(digits) if d == GREEN] + sorted(need.items())
        return mask, repr(rule).encode()

    def distinct(self, sub: np.ndarray) -> np.ndarray:
        """Number of distinct codes in each column of ``sub`` (answers x guesses)."""
        n, width = sub.shape
        if n <= 10:  # a row counts if no earlier row has its code
            out = np.ones(width, dtype=np.int32)
            for i in range(1, n):
                new = sub[i] != sub[0]
                for j in range(1, i):
                    new &= sub[i] != sub[j]
                out += new
            return out
        seen = np.zeros((self.green + 1, width), dtype=bool)
        seen[sub, np.arange(width)] = True
        return np.count_nonzero(seen, axis=0)

    def member_best(self, members: np.ndarray) -> int:
        """Most of ``k_g + [g in class]`` over the class's own words as guesses g."""
        return int(self.distinct(self.FT[members][:, self.sol_at[members]]).max()) + 1

    def scan_best(self, opener: int, code: int, members: np.ndarray, floor: int, enough: int) -> int:
        """An upper bound on the same maximum over every allowed guess (in hard mode every legal
        one), at least ``floor``: exact unless it fell to ``enough`` first. Guesses go by how
        many classes they make of all solutions, most first; a guess makes no more of a part,
        so the best so far or the next guess's count, whichever is more, bounds the rest."""
        mask, rule = self.legal(opener, code)
        key = members.tobytes() + rule
        if key in self.memo:
            return self.memo[key]
        self.full_scans += 1
        cols = self.by_classes if mask is None else self.by_classes[mask[self.by_classes]]
        rows, best, n = self.FT[members], floor, len(members)
        for lo in range(0, len(cols), 256):
            part = cols[lo : lo + 256]
            cap = max(best, min(n, int(self.classes[part[0]])))
            if cap == best:
                break
            if cap <= enough:
                return cap
            best = max(best, int(self.distinct(rows[:, part]).max()))
        self.memo[key] = best
        return best

    def opener_bound(self, opener: str, target: float) -> int:
        """A lower bound on the opener's total, refined until it reaches ``target``: first every
        class by its own words (and no guess making more classes than n or than the most any
        guess makes of all solutions), then by every guess, largest classes first."""
        a = self.index[opener]
        row = self.F[a]
        order = np.argsort(row, kind="stable")
        sizes = np.bincount(row, minlength=self.green + 1)
        starts = np.concatenate(([0], np.cumsum(sizes)))
        classes = sorted(((int(sizes[c]), c) for c in range(len(sizes)) if sizes[c] and c != self.green), reverse=True)
        bound = len(row) + sum(2 * n - 1 for n, _ in classes)
        open_ = []
        for n, c in classes:
            if bound >= target or n <= 2:
                break
            members = order[starts[c] : starts[c + 1]]
            inside = self.member_best(members)
            cap = max(inside, min(n, self.most))
            bound += (3 * n - cap) - (2 * n - 1)
            if inside < cap:  # an outside guess might split it into up to cap classes
                open_.append((n, c, members, inside, cap))
        for _, c, members, inside, cap in open_:
            if bound >= target:
                break
            enough = cap - int(target - bound)  # a bound this low on the most classes reaches the target
            bound += cap - self.scan_best(a, c, members, inside, enough)
        return bound


# --- (b) the table ----------------------------------------------------------------------


def check_rows(path: str, rows: list, tree: dict, allowed: set[str]) -> None:
    """The claims a table makes that need no bound: one row per allowed opener, the tree's
    opener first and equal to its tree, no exact row better than it."""
    seen: dict[str, int] = {}
    for no, opener, *_ in rows:
        require(opener in allowed, f"{path}:{no}: {opener.upper()} is not an allowed guess")
        require(opener not in seen, f"{path}:{no}: {opener.upper()} has a second row (also line {seen.get(opener)})")
        seen[opener] = no
    if tree["head"].get("proven") == "all-openers" and len(seen) < len(allowed):
        missing = sorted(allowed - set(seen))
        raise ClaimError(
            f"{path}: the tree claims proven=all-openers but {len(missing)} opener(s) have no row, "
            f"e.g. {missing[0].upper()}"
        )
    no, opener, status, total, worst = rows[0]
    best_row = f"{path}:{no}: the table's best row is {opener.upper()}"
    require(opener == tree["opener"], f"{best_row}, the tree's opener is {tree['opener'].upper()}")
    shows = f"exact {tree['total']} {tree['worst']}"
    agrees = f"{status} {total} {worst}" == shows
    require(agrees, f"{path}:{no}: {opener.upper()} {status} {total} {worst} but its tree shows {shows}")
    best = f"{tree['opener'].upper()} {tree['total']} {tree['worst']}"
    for no, opener, status, total, worst in rows[1:]:
        better = status == "exact" and (int(total), int(worst)) < (tree["total"], tree["worst"])
        require(not better, f"{path}:{no}: {opener.upper()} exact {total} {worst} is better than the best, {best}")


def check_bounds(path: str, rows: list, tree: dict, bounds: Bounds, strict: bool, figures: bool, log) -> None:
    """Every other opener refuted: by the checker's own bound where it reaches the best total."""
    best = tree["total"]
    verified, word, own, started, k = [], [], 0, time.process_time(), 0

    def summary(done: int) -> None:
        share = 100 * len(verified) / max(done, 1)
        log(f"  verified independently (own bound >= {best}): {len(verified)} of {done} other openers ({share:.1f}%)")
        if figures:
            log(f"  of those, own bound also reaches the row's own figure: {own}")
        log(f"  accepted on raten's word (own bound < {best}): {len(word)}; guess scans: {bounds.full_scans}")

    try:
        for k, (no, opener, status, total, _) in enumerate(rows[1:], 1):
            where = f"{path}:{no}: {opener.upper()} {status} {total}"
            claim = int(total) if total.isdigit() else None
            target = max(claim, best) if figures and claim is not None else best
            bound = bounds.opener_bound(opener, target)
            if bound >= best:
                verified.append(opener)
                own += claim is not None and bound >= claim
            elif claim is not None and claim < best:
                raise ClaimError(
                    f"{where}: below the best total {best}, so {opener.upper()} is not refuted (own bound {bound})"
                )
            elif strict:
                raise ClaimError(f"{where}: the checker's own bound is only {bound} < {best} (--strict)")
            else:
                word.append(f"{opener} {status} {total} (own bound {bound})")
            if k % 500 == 0:
                cpu = time.process_time() - started
                log(f"  {k} of {len(rows) - 1} rows, {len(verified)} verified, {cpu:.0f} CPU s")
    except KeyboardInterrupt:
        log(f"{path}: INTERRUPTED after {k - 1} of {len(rows) - 1} other openers; so far:")
        summary(k - 1)
        raise
    log(f"{path}: the best row agrees with the tree; no row claims better than {best}")
    summary(len(rows) - 1)
    for line in word:
        log(f"    {line}")


# --- main -------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--solutions", required=True, help="the solutions, one word a line")
    p.add_argument("--allowed", required=True, help="the allowed guesses (the solutions are added)")
    p.add_argument("--tree", required=True, help="the tree file of the best opener")
    p.add_argument("--openers", help="the openers table (opener status total worst [digest])")
    p.add_argument("--hard", action="store_true", help="the tree and table are for hard mode")
    p.add_argument("--strict", action="store_true", help="fail on a row the checker's own bound cannot confirm")
    p.add_argument("--figures", action="store_true", help="refine each bound to its row's figure, not only the best")
    args = p.parse_args(argv)

    log = functools.partial(print, flush=True)
    try:
        solutions = read_words(args.solutions, "solutions")
        allowed = sorted(set(read_words(args.allowed, "allowed")) | set(solutions))
        started = time.time()
        tree = check_tree(args.tree, solutions, set(allowed), args.hard)
        sealed = "digest checked" if "digest" in tree["head"] else "no digest: mode and proven= unverified"
        log(
            f"{args.tree}: OK: {tree['opener'].upper()} reaches all {len(solutions)} solutions, "
            f"total {tree['total']}, worst {tree['worst']}, mode {tree['head']['mode']} ({sealed})"
        )
        if args.openers:
            rows = read_table(args.openers, tree)
            check_rows(args.openers, rows, tree, set(allowed))
            bounds = Bounds(allowed, solutions, args.hard)
            for i in range(0, len(allowed), max(1, len(allowed) // 50)):  # the matrix and the scalar rule agree
                for j in range(0, len(solutions), max(1, len(solutions) // 50)):
                    agree = code_of(feedback(allowed[i], solutions[j])) == bounds.F[i, j]
                    require(agree, f"internal: feedback matrix disagrees at {allowed[i]}/{solutions[j]}")
            check_bounds(args.openers, rows, tree, bounds, args.strict, args.figures, log)
        log(f"every claim holds ({time.time() - started:.1f} s)")
        return 0
    except UsageError as e:
        print(f"check_optimum: error: {e}", file=sys.stderr)
        return 2
    except ClaimError as e:
        print(f"check_optimum: FAILED: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("check_optimum: interrupted: not every claim was checked", file=sys.stderr)
        return 130


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # a kill reports what was checked
    sys.exit(main())
