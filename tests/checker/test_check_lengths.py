"""checker/check_optimum.py on trees and tables of other lengths (4 and 6 letters) and of letters
beyond a-z (Ä, Ü): raten's proof of a small list passes, a forged colour fails, naming the line."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from raten.cli.main import main

REPO = Path(__file__).resolve().parents[2]
CHECKER = REPO / "checker" / "check_optimum.py"

pytestmark = pytest.mark.slow  # a best-opener search and a subprocess each


def run(*args) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(CHECKER), *map(str, args)], capture_output=True, text=True, timeout=900, check=False
    )


@pytest.fixture(params=[4, 6], ids=["4 letters", "6 letters"])
def proof(request, tmp_path: Path) -> tuple[list, Path, Path]:
    """A small list's lists, its proven best tree and its openers table, as `raten tree --best` writes them."""
    length = request.param
    rng = random.Random(length)
    pool: set[str] = set()
    while len(pool) < 40:
        pool.add("".join(rng.choice("aeilnrst") for _ in range(length)))
    allowed = sorted(pool)
    sols = sorted(rng.sample(allowed, 18))
    (tmp_path / "s.txt").write_text("\n".join(sols) + "\n", encoding="utf-8")
    (tmp_path / "a.txt").write_text("\n".join(allowed) + "\n", encoding="utf-8")
    lists = ["--solutions", tmp_path / "s.txt", "--allowed", tmp_path / "a.txt"]
    tree, table = tmp_path / "t.txt", tmp_path / "t.tsv"
    args = ["tree", *map(str, lists), "--best", "--jobs", "1", "--memo-gb", "0"]
    args += ["--results", str(tmp_path / "r.jsonl"), "--out", str(tree), "--table", str(table)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    return lists, tree, table


def test_a_proof_of_other_lengths_passes(proof) -> None:
    lists, tree, table = proof
    done = run(*lists, "--tree", tree, "--openers", table)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_forged_colour_fails(proof, tmp_path: Path) -> None:
    lists, tree, _ = proof
    lines = tree.read_text(encoding="utf-8").splitlines()
    i = next(i for i, line in enumerate(lines) if not line.startswith("#") and len(line.split()) >= 4)
    toks = lines[i].split()
    toks[1] = "".join("!" if c != "!" else "." for c in toks[1])  # the opener's colours, changed
    lines[i] = " ".join(toks)
    forged = tmp_path / "forged.txt"
    forged.write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = run(*lists, "--tree", forged)
    assert done.returncode == 1 and f"{forged}:{i + 1}" in done.stdout + done.stderr


def test_a_tree_with_umlauts_as_letters_passes(tmp_path: Path) -> None:
    """A list that keeps Ä and Ü (as de-umlaut does; word files fold them): its tree from the
    library, its lists written out as they are."""
    from raten.engine.alphabet import Alphabet
    from raten.engine.words import WordSet
    from raten.trees.search import Searcher

    rng = random.Random(5)
    pool: set[str] = set()
    while len(pool) < 30:
        pool.add("".join(rng.choice("aeilnrstäü") for _ in range(5)))
    allowed = sorted(pool)
    kept = Alphabet("abcdefghijklmnopqrstuvwxyzäöü")
    words = WordSet.from_lists(rng.sample(allowed, 14), allowed, name="umlauts", alphabet=kept)
    assert any("ä" in w or "ü" in w for w in words.solutions)
    (tmp_path / "s.txt").write_text("\n".join(words.solutions) + "\n", encoding="utf-8")
    (tmp_path / "a.txt").write_text("\n".join(words.allowed) + "\n", encoding="utf-8")
    tree = tmp_path / "t.txt"
    Searcher(words).optimal(words.allowed[0]).tree.write(tree)
    done = run("--solutions", tmp_path / "s.txt", "--allowed", tmp_path / "a.txt", "--tree", tree)
    assert done.returncode == 0, done.stdout + done.stderr


TREES = REPO / "src" / "raten" / "data" / "trees"
LISTS = REPO / "src" / "raten" / "data" / "lists"
COMMITTED = [
    (name, mode)
    for name in sorted(p.name for p in LISTS.iterdir())
    for mode in ("normal", "hard")
    if (TREES / f"{name}-{mode}.txt").exists()
]


@pytest.mark.parametrize(("name", "mode"), COMMITTED)
def test_the_committed_optima_of_other_lengths_pass(name: str, mode: str) -> None:
    """Every proven tree and openers table of a built list (docs/lengths.md): minutes each."""
    lists = ["--solutions", LISTS / name / "solutions.txt", "--allowed", LISTS / name / "allowed.txt"]
    tables = ["--tree", TREES / f"{name}-{mode}.txt", "--openers", TREES / f"{name}-{mode}-openers.tsv"]
    done = run(*lists, *tables, *(["--hard"] if mode == "hard" else []))
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
