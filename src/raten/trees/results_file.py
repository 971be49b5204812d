"""The results file of ``raten tree --best``: JSON lines that a stopped run resumes from.

The first line is a header naming the word lists (by fingerprint, and with the prior as
``lists``: ``WordSet.prior_key``), the mode and the guess limit; then one ``opener`` record per
finished opener and one ``bound`` record per raised one-level bound, each with the digest of
its claim (``raten.trees.digest``). Each line is flushed when written and synced every few
seconds; a line torn by a kill is dropped. Reading checks every line's digest and refuses the file at the first that
does not match, naming the line; ``raten.trees.recheck`` then re-checks what a resumed run
reuses. Files of version 1 (before digests) are refused: their lines cannot be checked. The
shared memo is saved beside the file (``memo_path``).
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from raten.engine.words import WordSet
from raten.errors import RatenError
from raten.trees.digest import record_digest

#: 2: every record carries its digest and the header the lists' ``prior_key``.
RESULTS_VERSION = 2


def default_results_path(words: WordSet, hard: bool, max_guesses: int | None) -> Path:
    """Where ``raten tree --best`` keeps its results file unless told: in the cache, one per
    word lists, mode and guess limit, so a rerun resumes."""
    from raten.engine.matrix import cache_dir

    mode = "hard" if hard else "normal"
    return cache_dir() / "best" / f"{words.name}-{words.prior_key[:12]}-{mode}-max{max_guesses or 0}.jsonl"


def results_header(words: WordSet, hard: bool, max_guesses: int | None) -> dict:
    """The first line of a results file: what its records were computed on."""
    return {
        "kind": "header",
        "version": RESULTS_VERSION,
        "words": words.name,
        "fingerprint": words.fingerprint,
        "lists": words.prior_key,
        "mode": "hard" if hard else "normal",
        "max_guesses": max_guesses,
    }


@dataclass(frozen=True)
class Line:
    """One record of a results file and where it stands (1-based line number)."""

    no: int
    rec: dict


@dataclass
class ResultLines:
    """What a results file holds for each opener: its last ``opener`` record and its highest
    ``bound`` record, each with its line number (so a failed re-check can name it)."""

    path: Path
    openers: dict[str, Line] = field(default_factory=dict)
    bounds: dict[str, Line] = field(default_factory=dict)

    def where(self, line: Line) -> str:
        """``FILE line N (OPENER)``, as every complaint about a line begins."""
        return f"{self.path} line {line.no} ({str(line.rec.get('opener', '?')).upper()})"


def _sign(rec: dict, header: dict) -> str:
    return record_digest(rec, header["lists"], header["mode"], header["max_guesses"])


def read_lines(path: Path, header: dict) -> ResultLines:
    """Every record of an earlier run (a torn last line is ignored), each line's digest checked
    against the fields beside it and the header's lists, mode and limit; RatenError naming the
    first line that fails, or when the file belongs to other lists, another mode or version."""
    out = ResultLines(path)
    if not path.exists():
        return out
    with path.open(encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            try:
                rec = json.loads(line)
            except ValueError:
                continue  # a line cut off by a kill
            kind = rec.get("kind") if isinstance(rec, dict) else None
            if kind == "header":
                _check_header(path, rec, header)
            elif kind in ("opener", "bound") and "opener" in rec:
                here = Line(no, rec)
                if rec.get("digest") != _sign(rec, header):
                    why = "has no digest" if "digest" not in rec else "does not match its digest"
                    raise RatenError(
                        f"{out.where(here)}: the line {why} (edited by hand, damaged, or from other lists, "
                        "mode or limit); its claim is refused: delete the line or use another --results file"
                    )
                if kind == "opener":
                    out.openers[rec["opener"]] = here
                elif rec.get("total") is not None:
                    old = out.bounds.get(rec["opener"])
                    if old is None or int(rec["total"]) > int(old.rec["total"]):
                        out.bounds[rec["opener"]] = here
            elif no == 1:
                raise RatenError(f"{path} is not a raten results file")
    return out


def _check_header(path: Path, rec: dict, header: dict) -> None:
    version = rec.get("version")
    if version != header["version"]:
        why = (
            f"written before its lines carried digests (version {header['version']})"
            if isinstance(version, int) and version < header["version"]
            else f"not {header['version']}, the one this raten reads"
        )
        raise RatenError(
            f"results file {path} is of version {version!r}, {why}: its claims cannot be re-checked; "
            "move it away or use another --results file"
        )
    for key in ("fingerprint", "lists", "mode", "max_guesses"):
        if rec.get(key) != header[key]:
            raise RatenError(
                f"results file {path} is for {key}={rec.get(key)!r}, not {header[key]!r}; use another --results file"
            )


def read_results(path: Path, header: dict) -> dict[str, dict]:
    """Finished openers from an earlier run, each line's digest checked (``read_lines``)."""
    return {o: line.rec for o, line in read_lines(path, header).openers.items()}


#: Seconds between syncs of a results file to disk (every line is flushed to the system at once,
#: which a killed process does not lose; a sync per line cost a run's 13,000 lines a minute).
SYNC_SECONDS = 2.0


class ResultsFile:
    """Append-only JSON lines, each flushed before the next job is counted done and synced to
    disk every ``SYNC_SECONDS`` and when closed."""

    def __init__(self, path: Path, header: dict):
        self.path = path
        self.header = header
        path.parent.mkdir(parents=True, exist_ok=True)
        fresh = not path.exists() or path.stat().st_size == 0
        if not fresh:
            self._drop_torn_tail()
        self.f = path.open("a", encoding="utf-8")
        self.synced = time.monotonic()
        if fresh:
            self.write(header)

    def _drop_torn_tail(self) -> None:
        data = self.path.read_bytes()
        if data and not data.endswith(b"\n"):
            with self.path.open("r+b") as f:
                f.truncate(data.rfind(b"\n") + 1)

    def write(self, rec: dict) -> None:
        """Append one record; an ``opener`` or ``bound`` record gets the digest of its claim."""
        if rec.get("kind") in ("opener", "bound"):
            rec = rec | {"digest": _sign(rec, self.header)}
        self.f.write(json.dumps(rec, ensure_ascii=False) + "\n")
        self.f.flush()
        if time.monotonic() - self.synced >= SYNC_SECONDS:
            os.fsync(self.f.fileno())
            self.synced = time.monotonic()

    def close(self) -> None:
        self.f.flush()
        os.fsync(self.f.fileno())
        self.f.close()


def memo_path(results: Path) -> Path:
    """Where a run with this results file saves its shared memo (and a resumed run finds it)."""
    return results.with_name(results.name + ".memo")
