"""Decision trees: the model, its plain-text file and the file's check.

A tree is stored as one line per solution with the guesses and patterns on its path,
ending in the solution's all-green, for example::

    # raten decision tree v1
    # words=en fingerprint=... mode=normal max_guesses=- opener=salet solutions=2315 total=7920 worst=5 digest=...
    salet ..!.? crony .!!.. proxy !!!!!

Lines are sorted, so a subtree's lines stand together and two trees diff line by line.
A tree built under a prior other than uniform says so in its header (``prior=frequency
weight=W``) and its ``total`` is weighted: the sum of weight x guesses with the integer
weights of ``raten.trees.weights``, so ``total / weight`` is the expected number of guesses;
``check`` recounts it under the same prior and refuses a list with another.

The header's last field, ``digest``, is the digest of its claim (``raten.trees.digest``: the
lists and prior, mode, limit, opener, ``exact proven=...``, total and worst). ``check`` compares
every claim of the header with the tree (opener, solutions, total, worst, weight, the limit on
every path, hard-mode legality) and the digest with the claims, so an edited ``mode=``,
``max_guesses=`` or ``proven=`` is refused too; a header without a digest (a file from before
digests) is read, and its check says those claims are unverified.
``raten.trees.search`` builds trees; ``raten.trees.player`` follows one in a game.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from raten.engine.feedback import History, all_green, format_pattern, parse_pattern, pattern
from raten.engine.hardmode import violation
from raten.engine.words import UNIFORM, WordSet
from raten.errors import RatenError
from raten.trees.digest import claim_digest
from raten.trees.weights import integer_weights

#: The proven trees and opener tables that ship as package data (``$RATEN_TREES`` elsewhere).
SHIPPED_TREES = Path(__file__).resolve().parents[1] / "data" / "trees"


def tree_path(path: str | Path) -> Path:
    """``path``, or the shipped proven tree of that name (``de-normal``, ``en-hard.txt`` ...) when
    no such file is here: installs have the trees inside the package, not at a path users know."""
    p = Path(path)
    shipped = SHIPPED_TREES / (p.name if p.suffix else f"{p.name}.txt")
    return shipped if not p.exists() and len(p.parts) == 1 and shipped.is_file() else p


MAGIC = "# raten decision tree v1"
#: What ``proven=`` may claim: optimal under its opener, or optimal over every allowed opener.
PROVEN = ("opener", "all-openers")
_MAX_SHOWN = 10


def moves_text(moves) -> str:
    """A history as a person reads it: ``CRANE ..?!. TOUSY .....`` (or "the start")."""
    return " ".join(f"{g.upper()} {format_pattern(c, length=len(g))}" for g, c in moves) or "the start"


@dataclass
class Tree:
    """A decision tree as the path of every solution: ((guess, pattern code), ...) ending in all green."""

    paths: dict[str, History]
    words_name: str = ""
    fingerprint: str = ""
    hard: bool = False
    max_guesses: int | None = None
    meta: dict[str, str] = field(default_factory=dict)
    #: integer weight of each solution under the tree's prior; None: uniform (every weight 1)
    weights: dict[str, int] | None = None
    #: the lists' ``WordSet.prior_key`` the digest covers ("": the fingerprint, if uniform)
    lists_key: str = ""

    # --- building -------------------------------------------------------------------------

    @classmethod
    def from_paths(
        cls,
        words: WordSet,
        paths: dict[str, History],
        hard: bool = False,
        max_guesses: int | None = None,
        opener: str = "",
    ) -> Tree:
        meta = {"opener": opener} if opener else {}
        if words.prior != UNIFORM:
            meta["prior"] = words.prior
        return cls(
            dict(paths), words.name, words.fingerprint, hard, max_guesses, meta, tree_weights(words), words.prior_key
        )

    # --- figures --------------------------------------------------------------------------

    @property
    def opener(self) -> str:
        firsts = {p[0][0] for p in self.paths.values() if p}
        return next(iter(firsts)) if len(firsts) == 1 else self.meta.get("opener", "")

    @property
    def prior(self) -> str:
        """The prior the tree's totals are weighted by (``uniform``: plain counts)."""
        return self.meta.get("prior", UNIFORM)

    @property
    def weight(self) -> int:
        """The total weight of the solutions (their number when uniform)."""
        if self.weights is None:
            return len(self.paths)
        return sum(self.weights.get(s, 0) for s in self.paths)

    @property
    def total(self) -> int:
        """Guesses summed over all solutions (the all-green guess counts), each times its weight."""
        if self.weights is None:
            return sum(len(p) for p in self.paths.values())
        return sum(self.weights.get(s, 0) * len(p) for s, p in self.paths.items())

    @property
    def worst(self) -> int:
        return max((len(p) for p in self.paths.values()), default=0)

    @property
    def average(self) -> float:
        """Expected guesses: the (weighted) total over the total weight."""
        return self.total / self.weight if self.paths else 0.0

    @property
    def distribution(self) -> dict[int, int]:
        """How many solutions take 1, 2, 3, ... guesses."""
        return dict(sorted(Counter(len(p) for p in self.paths.values()).items()))

    def summary(self) -> dict:
        return {
            "words": self.words_name,
            "fingerprint": self.fingerprint,
            "mode": "hard" if self.hard else "normal",
            "max_guesses": self.max_guesses,
            "opener": self.opener,
            "solutions": len(self.paths),
            "prior": self.prior,
            **({"weight": self.weight} if self.prior != UNIFORM else {}),
            "total": self.total,
            "average": round(self.average, 4),
            "worst": self.worst,
            "distribution": {str(k): v for k, v in self.distribution.items()},
        }

    def digest(self, claimed: bool = False) -> str | None:
        """The digest of the tree's claim: its figures (``claimed``: the header's opener, total
        and worst where it names them), mode, limit and ``proven=``; None when the lists' key is
        unknown (a weighted tree read from text and not yet checked)."""
        key = self.lists_key or (self.fingerprint if self.prior == UNIFORM and self.fingerprint != "-" else "")
        if not key:
            return None
        opener, total, worst = self.opener, self.total, self.worst
        if claimed:
            head = self.meta
            opener = head["opener"] if head.get("opener", "-") != "-" else opener
            total = int(head["total"]) if head.get("total", "").isdigit() else total
            worst = int(head["worst"]) if head.get("worst", "").isdigit() else worst
        status = f"exact proven={self.meta.get('proven', '-')}"
        mode = "hard" if self.hard else "normal"
        return claim_digest(key, mode, self.max_guesses, opener, status, total, worst)

    def claim(self, **fields: str) -> None:
        """Add claims to the header (``proven=``, ``seconds=``) and seal them: the digest afresh,
        so the tree in hand checks as the file it becomes."""
        self.meta.update(fields)
        self.meta.pop("digest", None)
        digest = self.digest()
        if digest:
            self.meta["digest"] = digest

    # --- text -----------------------------------------------------------------------------

    def header(self) -> dict[str, str]:
        """The header's fields: the tree's figures, then the other claims, the digest last
        (computed afresh, so a tree read, changed and written carries its new claim's)."""
        head = {
            "words": self.words_name or "-",
            "fingerprint": self.fingerprint or "-",
            "mode": "hard" if self.hard else "normal",
            "max_guesses": str(self.max_guesses) if self.max_guesses else "-",
            "opener": self.opener or "-",
            "solutions": str(len(self.paths)),
            "total": str(self.total),
            "worst": str(self.worst),
        }
        if self.prior != UNIFORM:
            head["weight"] = str(self.weight)
        for k, v in self.meta.items():
            head.setdefault(k, v)
        head.pop("digest", None)
        digest = self.digest()
        if digest:
            head["digest"] = digest
        return head

    def to_text(self) -> str:
        head = " ".join(f"{k}={v}" for k, v in self.header().items())
        lines = sorted(" ".join(f"{g} {format_pattern(c, length=len(g))}" for g, c in p) for p in self.paths.values())
        return f"{MAGIC}\n# {head}\n" + "\n".join(lines) + "\n"

    def write(self, path: str | Path) -> None:
        Path(path).write_text(self.to_text(), encoding="utf-8")

    @classmethod
    def from_text(cls, text: str, *, source: str = "tree") -> Tree:
        """Parse a tree file; syntax errors name the line. ``check`` verifies the content."""
        head: dict[str, str] = {}
        paths: dict[str, History] = {}
        problems: list[str] = []
        lines_of: dict[str, int] = {}
        for no, raw in enumerate(text.splitlines(), 1):
            line = raw.strip()
            if not line:
                continue
            if line.startswith("#"):
                for tok in line[1:].split():
                    k, sep, v = tok.partition("=")
                    if sep:
                        head[k] = v
                continue
            toks = line.split()
            if len(toks) % 2:
                problems.append(f"line {no}: expected GUESS PATTERN pairs, got {len(toks)} items")
                continue
            try:
                moves = tuple(
                    (toks[i].lower(), parse_pattern(toks[i + 1], len(toks[i]))) for i in range(0, len(toks), 2)
                )
            except RatenError as e:
                problems.append(f"line {no}: {e}")
                continue
            if moves[-1][1] != all_green(len(moves[-1][0])):
                problems.append(f"line {no}: the path does not end in all green ({moves_text(moves)})")
                continue
            sol = moves[-1][0]
            if sol in paths:
                problems.append(f"line {no}: solution {sol.upper()} appears twice (also line {lines_of[sol]})")
                continue
            paths[sol] = moves
            lines_of[sol] = no
        if not paths and not problems:
            problems.append("no solution lines")
        if problems:
            raise RatenError(_problems(source, problems))
        mg = head.get("max_guesses", "-")
        tree = cls(
            paths,
            words_name=head.get("words", ""),
            fingerprint=head.get("fingerprint", ""),
            hard=head.get("mode", "normal") == "hard",
            max_guesses=int(mg) if mg.isdigit() else None,
            meta={k: v for k, v in head.items() if k not in ("words", "fingerprint", "mode", "max_guesses")},
        )
        tree._lines = lines_of  # type: ignore[attr-defined]
        return tree

    @classmethod
    def read(cls, path: str | Path) -> Tree:
        """A tree file, or a shipped proven tree by its name (``tree_path``)."""
        p = tree_path(path)
        try:
            text = p.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise RatenError(f"tree file {str(p)!r} does not exist") from None
        except (OSError, UnicodeDecodeError) as e:
            raise RatenError(f"cannot read tree file {str(p)!r}: {e}") from None
        return cls.from_text(text, source=str(p))

    # --- verification ---------------------------------------------------------------------

    def check(self, words: WordSet, source: str = "tree") -> dict:
        """Verify against ``words``: lists match, every solution reached once, every pattern
        right, one guess per history (a tree), hard-mode legal when marked hard, within the
        guess limit, header total right. Returns the recount; a RatenError lists problems."""
        problems: list[str] = []
        lines = getattr(self, "_lines", {})

        def where(sol: str) -> str:
            return f"line {lines[sol]}" if sol in lines else f"solution {sol.upper()}"

        if self.prior != words.prior:
            raise RatenError(
                f"{source}: the tree was built under the {self.prior} prior, not {words.prior}: "
                f"use it with --prior {self.prior}"
            )
        if self.fingerprint and self.fingerprint not in ("-", words.fingerprint):
            raise RatenError(
                f"{source}: the tree was built for the word lists {self.words_name!r} "
                f"(fingerprint {self.fingerprint}), not {words.name!r} ({words.fingerprint})"
            )
        sols = set(words.solutions)
        allowed = words.allowed_index
        nxt: dict[History, tuple[str, str]] = {}
        for sol, moves in self.paths.items():
            if sol not in sols:
                problems.append(f"{where(sol)}: {sol.upper()} is not a solution of {words.name}")
                continue
            for i, (g, c) in enumerate(moves):
                if g not in allowed:
                    problems.append(f"{where(sol)}: {g.upper()} is not an allowed guess")
                    break
                right = pattern(g, sol)
                if c != right:
                    problems.append(
                        f"{where(sol)}: {g.upper()} against {sol.upper()} shows "
                        f"{format_pattern(right, length=len(g))}, not {format_pattern(c, length=len(g))}"
                    )
                    break
                prefix = moves[:i]
                if prefix in nxt and nxt[prefix][0] != g:
                    other_guess, other_sol = nxt[prefix]
                    problems.append(
                        f"not a tree: after {moves_text(prefix)} {where(sol)} guesses {g.upper()} but "
                        f"{where(other_sol)} guesses {other_guess.upper()}"
                    )
                    break
                nxt.setdefault(prefix, (g, sol))
                if self.hard:
                    reason = violation(g, prefix)
                    if reason:
                        problems.append(
                            f"{where(sol)}: {g.upper()} after {moves_text(prefix)} breaks hard mode ({reason})"
                        )
                        break
            if self.max_guesses and len(moves) > self.max_guesses:
                problems.append(f"{where(sol)}: takes {len(moves)} guesses, over the limit of {self.max_guesses}")
        missing = sorted(sols - set(self.paths))
        if missing:
            shown = ", ".join(w.upper() for w in missing[:_MAX_SHOWN])
            more = f" and {len(missing) - _MAX_SHOWN} more" if len(missing) > _MAX_SHOWN else ""
            problems.append(f"{len(missing)} solution{'s' if len(missing) != 1 else ''} not reached: {shown}{more}")
        self.weights = tree_weights(words)
        self.lists_key = words.prior_key
        problems += self._claims()
        if problems:
            raise RatenError(_problems(source, problems))
        return self.summary() | {"digest": self.meta.get("digest")}

    def _claims(self) -> list[str]:
        """Every claim of the header against the tree (``check`` has set the weights and the
        lists' key): the figures recounted, ``proven=`` one raten makes, and the digest."""
        problems = []
        firsts = sorted({p[0][0] for p in self.paths.values() if p})
        figures = {
            "opener": firsts[0] if len(firsts) == 1 else "/".join(firsts),
            "solutions": len(self.paths),
            "total": self.total,
            "worst": self.worst,
            "weight": self.weight,
        }
        for key, actual in figures.items():
            claimed = self.meta.get(key)
            if claimed and claimed != "-" and claimed.lower() != str(actual):
                problems.append(f"header says {key}={claimed} but the tree has {actual}")
        proven = self.meta.get("proven")
        if proven is not None and proven not in PROVEN:
            problems.append(f"header says proven={proven}, a claim raten does not make ({' or '.join(PROVEN)})")
        claimed_digest, digest = self.meta.get("digest"), self.digest(claimed=True)
        if claimed_digest is not None and claimed_digest != digest:
            problems.append(
                f"header's digest={claimed_digest} does not match its claims (their digest is {digest}): "
                "its mode, max_guesses, opener, proven, total or worst was changed since it was written"
            )
        return problems

    # --- playing --------------------------------------------------------------------------

    def next_table(self) -> dict[History, str]:
        """History → next guess, for every history on the tree."""
        table: dict[History, str] = {}
        for moves in self.paths.values():
            for i, (g, _) in enumerate(moves):
                table.setdefault(moves[:i], g)
        return table


def tree_weights(words: WordSet) -> dict[str, int] | None:
    """Each solution's integer weight under the prior of ``words``; None under the uniform prior."""
    if words.weights is None:
        return None
    return dict(zip(words.solutions, (int(w) for w in integer_weights(words)), strict=True))


def _problems(source: str, problems: list[str]) -> str:
    head = f"{source}: {len(problems)} problem{'s' if len(problems) != 1 else ''}"
    body = "\n  ".join(problems[:_MAX_SHOWN])
    more = f"\n  ... and {len(problems) - _MAX_SHOWN} more" if len(problems) > _MAX_SHOWN else ""
    return f"{head}\n  {body}{more}"
