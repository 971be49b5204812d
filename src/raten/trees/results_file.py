"""The results file of ``raten tree --best``: JSON lines that a stopped run resumes from.

The first line is a header naming the word lists (by fingerprint), the mode and the guess
limit; then one ``opener`` record per finished opener and one ``bound`` record per raised
one-level bound. Each line is flushed and synced when written; a line torn by a kill is
dropped. The shared memo is saved beside the file (``memo_path``).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from raten.engine.words import WordSet
from raten.errors import RatenError

RESULTS_VERSION = 1


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
        "mode": "hard" if hard else "normal",
        "max_guesses": max_guesses,
    }


def read_results(path: Path, header: dict) -> dict[str, dict]:
    """Finished openers from an earlier run (a torn last line is ignored); RatenError if the
    file belongs to other lists or another mode."""
    if not path.exists():
        return {}
    done: dict[str, dict] = {}
    with path.open(encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            try:
                rec = json.loads(line)
            except ValueError:
                continue  # a line cut off by a kill
            if rec.get("kind") == "header":
                for key in ("fingerprint", "mode", "max_guesses", "version"):
                    if rec.get(key) != header[key]:
                        raise RatenError(
                            f"results file {path} is for {key}={rec.get(key)!r}, not {header[key]!r}; "
                            "use another --results file"
                        )
            elif rec.get("kind") == "opener" and "opener" in rec:
                done[rec["opener"]] = rec
            elif no == 1:
                raise RatenError(f"{path} is not a raten results file")
    return done


def read_bounds(path: Path | None) -> dict[str, int]:
    """One-level bounds of openers that were not refuted by them (``bound`` records), the
    highest per opener; read after ``read_results`` has checked the file's header."""
    out: dict[str, int] = {}
    if path is None or not path.exists():
        return out
    with path.open(encoding="utf-8") as f:
        for line in f:
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            if rec.get("kind") == "bound" and rec.get("total") is not None:
                out[rec["opener"]] = max(out.get(rec["opener"], 0), int(rec["total"]))
    return out


class ResultsFile:
    """Append-only JSON lines, each flushed and synced before the next job is counted done."""

    def __init__(self, path: Path, header: dict):
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        fresh = not path.exists() or path.stat().st_size == 0
        if not fresh:
            self._drop_torn_tail()
        self.f = path.open("a", encoding="utf-8")
        if fresh:
            self.write(header)

    def _drop_torn_tail(self) -> None:
        data = self.path.read_bytes()
        if data and not data.endswith(b"\n"):
            with self.path.open("r+b") as f:
                f.truncate(data.rfind(b"\n") + 1)

    def write(self, rec: dict) -> None:
        self.f.write(json.dumps(rec, ensure_ascii=False) + "\n")
        self.f.flush()
        os.fsync(self.f.fileno())

    def close(self) -> None:
        self.f.close()


def memo_path(results: Path) -> Path:
    """Where a run with this results file saves its shared memo (and a resumed run finds it)."""
    return results.with_name(results.name + ".memo")
