"""The ``6mal5`` preset (issue 23, item 5): 6mal5.com's two lists shipped in the package, checked
against their checksums, in every command, offered by the server, and finding the committed
6mal5-* trees and opener tables (the review's exact first guess, ``--tree 6mal5-normal``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from raten.cli import main
from raten.errors import RatenError
from raten.play.game import daily_list
from raten.play.review import review
from raten.trees.values import Budget, best_openers, opener_table
from raten.wordlists import presets
from raten.wordlists.files import read_word_file
from raten.wordlists.presets import PRESETS, load_words

DATA = Path(presets.__file__).resolve().parents[1] / "data" / "6mal5"


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_the_preset_has_6mal5s_sizes_and_checksums() -> None:
    words = load_words("6MAL5")
    assert (len(words.solutions), len(words.allowed)) == (1070, 3827)
    assert words.name == "6mal5" and words.language == "de" and words.prior == "uniform"
    assert set(words.solutions) <= set(words.allowed) and {"fuenf", "kaese", "raten"} <= set(words.solutions)
    assert "sarte" in words.allowed and "sarte" not in words.solutions
    for part in ("solutions", "allowed"):
        assert presets._sha256_lines(getattr(words, part)) == presets._6MAL5_SHA256[part]
    # the fingerprint the committed 6mal5-* trees were proven on
    assert words.fingerprint == "f9cb106873268af9679db486"


def test_the_shipped_files_are_the_reference_lists_with_their_notice(shared_list) -> None:
    """The package's copy is ../shared/data/de byte for byte (tests only may read it there)."""
    for name in ("solutions.txt", "allowed.txt"):
        assert (DATA / name).read_bytes() == shared_list("de", name).read_bytes()
    notice = (DATA / "NOTICE").read_text(encoding="utf-8")
    assert "rabuu/wordle-bot" in notice and "MIT License" in notice and "Copyright (c) 2022 rabuu" in notice
    assert "Permission is hereby granted, free of charge" in notice
    for part, digest in presets._6MAL5_SHA256.items():
        assert digest in notice, part


def test_a_list_that_fails_its_checksum_is_refused(monkeypatch) -> None:
    monkeypatch.setitem(presets._6MAL5_SHA256, "allowed", "0" * 64)
    with pytest.raises(RatenError, match=r"data/6mal5/allowed.txt fails its checksum; reinstall raten"):
        presets._load_6mal5()


def test_a_missing_file_is_named(monkeypatch, tmp_path) -> None:
    monkeypatch.setattr(presets.resources, "files", lambda _package: tmp_path)
    with pytest.raises(RatenError, match=r"built-in list data/6mal5/solutions.txt is missing; reinstall raten"):
        presets._load_6mal5()


def test_offered_by_the_server_after_de_so_the_daily_german_game_stays_des() -> None:
    names = list(PRESETS)
    assert "6mal5" in names and names.index("de") < names.index("6mal5")
    offered = {name: load_words(name) for name in ("de", "6mal5")}
    assert daily_list(offered, "de") == "de"
    assert daily_list({"6mal5": offered["6mal5"]}, "de") == "6mal5"


def test_its_name_is_taken_for_own_lists() -> None:
    with pytest.raises(RatenError, match="list name '6mal5' is a built-in list"):
        presets.parse_list_spec("6mal5=a.txt:b.txt:de")


def test_a_hint_on_the_preset() -> None:
    result = run("hint", "--words", "6mal5", "--json", "--top", "3", "sarte=...?!")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["candidates"] == 8
    assert sorted(out["candidate_words"]) == ["hetze", "hitze", "theke", "tiefe", "tolle", "tonne", "tulpe", "witwe"]


def test_the_committed_opener_tables_are_found_for_the_preset() -> None:
    words = load_words("6mal5")
    assert len(opener_table(words, hard=False)) == len(words.allowed) == len(opener_table(words, hard=True))
    (normal,) = best_openers(words, hard=False, top=1)
    (hard,) = best_openers(words, hard=True, top=1)
    assert (normal.opener, normal.total.total, normal.worst) == ("sarte", 3424, 5)
    assert (hard.opener, hard.total.total, hard.worst) == ("sarte", 3484, 6)


@pytest.mark.parametrize(("hard", "total"), [(False, 3424), (True, 3484)])
def test_a_review_on_the_preset_reads_the_exact_first_guess_from_the_table(hard: bool, total: int) -> None:
    r = review(load_words("6mal5"), ["sarte", "tonne"], "tonne", hard=hard, budget=Budget(seconds=5), solver=False)
    first = r.moves[0]
    assert first.q_exact and first.best_exact and first.best == "sarte" and first.regret == 0
    assert first.q == pytest.approx(total / 1070)
    assert r.moves[-1].q_exact and r.solved


def test_the_cli_review_on_the_preset() -> None:
    result = run("review", "--words", "6mal5", "--json", "raten", "tonne", "--answer", "tonne")
    assert result.exit_code == 0, result.output
    first = json.loads(result.output)["moves"][0]
    assert first["guess"] == "raten" and first["q_exact"] is True and first["best"] == "sarte"
    assert first["q"] == pytest.approx(3438 / 1070)  # RATEN's row of 6mal5-normal-openers.tsv


def test_the_shipped_trees_are_followed_by_name_on_the_preset() -> None:
    result = run("hint", "--words", "6mal5", "--tree", "6mal5-normal", "--json", "sarte=...?!")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["tree_guess"] == "litho"  # the proven tree's next guess
    result = run("solve", "--words", "6mal5", "--hard", "--tree", "6mal5-hard", "--answer", "kaese")
    assert result.exit_code == 0 and "solved in" in result.output, result.output
    result = run("tree", "check", "6mal5-normal")  # the header's list is now a preset: no files needed
    assert result.exit_code == 0 and "1070 solutions of 6mal5" in " ".join(result.output.split()), result.output


def test_the_trees_were_proven_on_exactly_these_lists() -> None:
    words = load_words("6mal5")
    for mode in ("normal", "hard"):
        head = (DATA.parent / "trees" / f"6mal5-{mode}.txt").read_text(encoding="utf-8").splitlines()[1]
        assert f"words=6mal5 fingerprint={words.fingerprint} " in head
    assert read_word_file(DATA / "solutions.txt") == words.solutions
