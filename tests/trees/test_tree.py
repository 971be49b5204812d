"""Tree files: write/read/check round trip, check failures with clear messages, following a tree
(``load_tree``), and the `raten tree`, `hint --tree` and `solve --tree` commands."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from raten.cli.main import main
from raten.engine.feedback import ALL_GREEN, format_pattern, pattern
from raten.engine.state import State
from raten.engine.words import WordSet
from raten.errors import RatenError
from raten.trees.model import Tree
from raten.trees.player import load_tree
from raten.trees.search import Searcher

SOLUTIONS = [
    "crane",
    "slate",
    "trace",
    "crate",
    "react",
    "cater",
    "heart",
    "earth",
    "hater",
    "lathe",
    "plate",
    "pleat",
    "petal",
    "leapt",
    "stare",
    "tears",
    "rates",
    "aster",
    "taser",
    "arise",
    "raise",
    "irate",
    "stale",
    "steal",
    "least",
    "tales",
    "teals",
    "slant",
]
EXTRA = ["salet", "roate", "soare", "toile", "adieu", "clint", "nymph", "bumpy", "dough"]


@pytest.fixture(scope="module")
def words() -> WordSet:
    return WordSet.from_lists(SOLUTIONS, EXTRA, name="small")


@pytest.fixture(scope="module")
def tree(words: WordSet) -> Tree:
    r = Searcher(words).solve_opener("salet")
    return Tree.from_text(r.tree.to_text())  # through the file format, as a reader sees it


@pytest.fixture
def list_files(tmp_path, words: WordSet):
    sols = tmp_path / "small-solutions.txt"
    allowed = tmp_path / "small-allowed.txt"
    sols.write_text("\n".join(words.solutions) + "\n")
    allowed.write_text("\n".join(words.allowed) + "\n")
    return ["--solutions", str(sols), "--allowed", str(allowed)]


def _lines(t: Tree) -> list[str]:
    return t.to_text().splitlines()


def _edit(t: Tree, change) -> str:
    """The tree's text with ``change(lines)`` applied to its solution lines."""
    lines = _lines(t)
    head, body = lines[:2], lines[2:]
    return "\n".join(head + change(body)) + "\n"


# --- the file ---------------------------------------------------------------------------------


def test_round_trip_keeps_every_path_and_recounts(tree: Tree, words: WordSet, tmp_path) -> None:
    path = tmp_path / "t.txt"
    tree.write(path)
    again = Tree.read(path)
    assert again.paths == tree.paths
    assert again.to_text() == tree.to_text()
    summary = again.check(words)
    assert summary["total"] == tree.total == sum(len(p) for p in tree.paths.values())
    assert summary["solutions"] == len(words.solutions)
    assert sum(summary["distribution"].values()) == len(words.solutions)
    assert again.opener == "salet" and not again.hard


def test_lines_read_as_guess_pattern_pairs_ending_all_green(tree: Tree) -> None:
    for line in _lines(tree)[2:]:
        toks = line.split()
        assert toks[0] == "salet" and toks[-1] == "!!!!!" and len(toks) % 2 == 0
        sol = toks[-2]
        for g, p in zip(toks[::2], toks[1::2]):
            assert p == format_pattern(pattern(g, sol))


def test_check_names_a_wrong_pattern(tree: Tree, words: WordSet) -> None:
    def wrong(body: list[str]) -> list[str]:
        toks = body[0].split()
        toks[1] = "!!!!." if toks[1] != "!!!!." else "!!!.."
        return [" ".join(toks), *body[1:]]

    with pytest.raises(RatenError, match=r"line 3: SALET against .* shows .*, not "):
        Tree.from_text(_edit(tree, wrong)).check(words)


def test_check_names_a_missing_solution(tree: Tree, words: WordSet) -> None:
    gone = _lines(tree)[5].split()[-2]
    text = _edit(tree, lambda body: [line for line in body if line.split()[-2] != gone])
    with pytest.raises(RatenError, match=rf"1 solution not reached: {gone.upper()}"):
        Tree.from_text(text).check(words)


def test_check_finds_two_guesses_after_the_same_history(tree: Tree, words: WordSet) -> None:
    # a solution in a group of several takes another (correctly coloured) second guess
    groups: dict[tuple, list[str]] = {}
    for sol, p in tree.paths.items():
        if len(p) >= 3:
            groups.setdefault(p[:1], []).append(sol)
    prefix, members = next((k, v) for k, v in groups.items() if len(v) >= 2)
    sol = members[0]
    other = next(w for w in words.allowed if w not in (tree.paths[sol][1][0], sol))
    changed = (*prefix, (other, pattern(other, sol)), (sol, ALL_GREEN))
    paths = dict(tree.paths) | {sol: changed}
    bad = Tree(paths, words.name, words.fingerprint)
    with pytest.raises(RatenError, match=r"not a tree: after SALET .* guesses"):
        bad.check(words)


def test_check_enforces_hard_mode_when_marked_hard() -> None:
    crate = (("crane", pattern("crane", "crate")), ("slate", pattern("slate", "crate")), ("crate", ALL_GREEN))
    paths = {"crane": (("crane", ALL_GREEN),), "crate": crate}
    small = WordSet.from_lists(["crane", "crate"], ["slate"], name="pair")
    Tree(paths, small.name, small.fingerprint, hard=False).check(small)  # fine in normal mode
    with pytest.raises(RatenError, match=r"SLATE after CRANE !!!.! breaks hard mode \(1st letter must be C\)"):
        Tree(paths, small.name, small.fingerprint, hard=True).check(small)


def test_check_rejects_other_lists_bad_syntax_and_a_false_header(tree: Tree, words: WordSet) -> None:
    other = WordSet.from_lists(SOLUTIONS[:-1], EXTRA, name="fewer")
    with pytest.raises(RatenError, match="was built for the word lists 'small'"):
        Tree.from_text(tree.to_text()).check(other)
    with pytest.raises(RatenError, match="line 3: expected GUESS PATTERN pairs"):
        Tree.from_text(_edit(tree, lambda b: [b[0] + " extra", *b[1:]]))
    with pytest.raises(RatenError, match="does not end in all green"):
        Tree.from_text(_edit(tree, lambda b: [b[0].rsplit(" ", 2)[0], *b[1:]]))
    lied = tree.to_text().replace(f"total={tree.total}", f"total={tree.total - 1}")
    with pytest.raises(RatenError, match=f"header says total={tree.total - 1} but the tree has {tree.total}"):
        Tree.from_text(lied).check(words)


# --- following a tree ---------------------------------------------------------------------------


def test_load_tree_follows_every_path(tree: Tree, words: WordSet, tmp_path) -> None:
    path = tmp_path / "t.txt"
    tree.write(path)
    player = load_tree(path, words)
    for sol, moves in tree.paths.items():
        state = State(words)
        for g, _ in moves:
            assert player.next_guess(state) == g
            state = state.after(g, pattern(g, sol))
        assert state.solved


def test_leaving_the_tree_is_a_clear_error(tree: Tree, words: WordSet, tmp_path) -> None:
    path = tmp_path / "t.txt"
    tree.write(path)
    player = load_tree(path, words)
    with pytest.raises(RatenError, match="after the start the tree guesses SALET, not CRANE"):
        player.next_guess(State(words).after("crane", "....."))
    with pytest.raises(RatenError, match="already solved"):
        player.next_guess(State(words).after("salet", pattern("salet", "slate")).after("slate", "!!!!!"))
    with pytest.raises(RatenError, match="was built for the word lists"):
        load_tree(path, WordSet.from_lists(SOLUTIONS[:-1], EXTRA, name="fewer"))


# --- the commands ------------------------------------------------------------------------------


def test_cli_builds_checks_and_follows_a_tree(list_files, words: WordSet, tmp_path) -> None:
    runner = CliRunner()
    out = tmp_path / "small.txt"
    res = runner.invoke(main, ["tree", *list_files, "--opener", "salet", "--out", str(out), "--json"])
    assert res.exit_code == 0, res.output
    report = json.loads(res.output)
    assert report["opener"] == "salet" and report["proven_optimal"] == "for this opener"
    assert report["total"] == Searcher(words).solve_opener("salet").total

    res = runner.invoke(main, ["tree", "check", *list_files, str(out), "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["total"] == report["total"]

    t = Tree.read(out)
    sol = random.Random(1).choice(sorted(s for s, p in t.paths.items() if len(p) >= 3))
    first, second = t.paths[sol][0][0], t.paths[sol][1][0]
    move = f"{first}={format_pattern(pattern(first, sol))}"
    res = runner.invoke(main, ["hint", *list_files, "--tree", str(out), "--json", move])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["tree_guess"] == second
    res = runner.invoke(main, ["hint", *list_files, "--tree", str(out), move])
    assert f"decision tree says: {second.upper()}" in res.output

    # solve: take every suggestion, answer with the colours the secret word shows
    answers = "".join(f"\n{format_pattern(pattern(g, sol))}\n" for g, _ in t.paths[sol])
    res = runner.invoke(main, ["solve", *list_files, "--tree", str(out)], input=answers)
    assert res.exit_code == 0, res.output
    assert f"solved in {len(t.paths[sol])}" in res.output

    res = runner.invoke(main, ["hint", *list_files, "--tree", str(out), "crane=....."])
    assert res.exit_code != 0 and "left the tree" in res.output


def test_cli_check_reports_problems_and_fails(list_files, tree: Tree, tmp_path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text(_edit(tree, lambda body: body[1:]))
    res = CliRunner().invoke(main, ["tree", "check", *list_files, str(bad)])
    assert res.exit_code == 1
    assert "3 problems" in res.output and "1 solution not reached" in res.output
    assert "header says total=" in res.output


def test_cli_rejects_an_unknown_opener_and_both_modes(list_files) -> None:
    runner = CliRunner()
    res = runner.invoke(main, ["tree", *list_files, "--opener", "zzzzz"])
    assert res.exit_code != 0 and "ZZZZZ is not an allowed guess" in res.output
    res = runner.invoke(main, ["tree", *list_files, "--opener", "salet", "--best"])
    assert res.exit_code != 0 and "either --opener" in res.output


def test_opener_proof_chooses_the_opener_with_most_groups(words: WordSet) -> None:
    """`raten tree` without --opener: the library picks the least cheap bound and proves it."""
    from raten.trees.opener import OpenerProof

    proof = OpenerProof(words)
    s = proof.searcher
    bounds = [s.opener_bound(g) for g in range(len(words.allowed))]
    assert proof.chosen_by == "most groups"
    assert proof.opener == words.allowed[bounds.index(min(bounds))] == s.default_opener()
    proven = proof.run()
    assert proven.tree.opener == proof.opener and proven.tree.meta["proven"] == "opener"
    d = proven.to_dict()
    assert d["total"] == s.solve_opener(proof.opener, tree=False).total and d["opener_chosen_by"] == "most groups"
    assert d["out"] is None and d["nodes"] == proven.nodes > 0
    given = OpenerProof(words, "salet", max_guesses=2)
    assert given.chosen_by == "given"
    with pytest.raises(RatenError, match="SALET cannot solve every word within 2 guesses"):
        given.run()


def test_a_shipped_tree_is_read_by_its_name(tmp_path, monkeypatch):
    """``--tree de-normal`` works where no such file is: installs keep the proven trees in the package."""
    from raten.trees.model import SHIPPED_TREES, Tree, tree_path

    monkeypatch.chdir(tmp_path)
    assert tree_path("de-normal") == tree_path("de-normal.txt") == SHIPPED_TREES / "de-normal.txt"
    assert Tree.read("de-normal").to_text() == Tree.read(SHIPPED_TREES / "de-normal.txt").to_text()
    (tmp_path / "de-normal").write_text("# raten decision tree v1\n", encoding="utf-8")
    assert tree_path("de-normal") == Path("de-normal")  # a file here comes first
    with pytest.raises(RatenError, match="does not exist"):
        Tree.read("no-such-tree")
    with pytest.raises(RatenError, match="does not exist"):
        Tree.read("sub/de-normal")  # a path is a path, never a shipped name
