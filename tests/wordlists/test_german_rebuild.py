"""`raten words build` from Debian's dictionaries and wordfreq gives the shipped lists byte for byte,
and what they cover of 6mal5.com's lists (the issue's figures before, its examples after)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import raten
from raten.cli.main import main

DATA = Path(raten.__file__).parent / "data" / "de"
FILES = ("solutions.txt", "allowed.txt", "ngerman.txt", "frequent.txt", "proper.txt", "written.txt", "NOTICE")
SHARED_DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"  # as conftest's shared_list
SIX_SOLUTIONS = SHARED_DATA / "de" / "solutions.txt"
SIX_ALLOWED = SHARED_DATA / "de" / "allowed.txt"

pytestmark = pytest.mark.slow  # seconds: the whole dictionary and wordfreq


@pytest.fixture(scope="module")
def rebuilt(tmp_path_factory, debian_german) -> tuple[Path, dict]:  # noqa: ARG001 - needs the packages
    """The lists built into a fresh folder with the defaults, and the build's JSON report."""
    pytest.importorskip("wordfreq")
    out = tmp_path_factory.mktemp("de")
    compare = [a for p in (SIX_SOLUTIONS, SIX_ALLOWED) if p.exists() for a in ("--compare", str(p))]
    result = CliRunner().invoke(main, ["words", "build", "--out", str(out), "--json", *compare])
    assert result.exit_code == 0, result.output
    return out, json.loads(result.output)


@pytest.mark.parametrize("name", FILES)
def test_rebuild_gives_the_shipped_files_byte_for_byte(rebuilt: tuple[Path, dict], name: str) -> None:
    out, _ = rebuilt
    assert (out / name).read_bytes() == (DATA / name).read_bytes()


def test_rebuild_names_every_source(rebuilt: tuple[Path, dict]) -> None:
    notice = (rebuilt[0] / "NOTICE").read_text(encoding="utf-8")
    for needle in ("wngerman 20161207", "hunspell-de-de-frami", "hunspell-tools", "wordfreq 3.", "GPL-2 or GPL-3"):
        assert needle in notice, needle


def test_the_shipped_lists_hold_inflected_forms_and_loans() -> None:
    de = raten.load_words("de", prior="uniform")
    allowed, solutions = set(de.allowed), set(de.solutions)
    for word in ("ginge", "erbte", "hunde", "tages", "enger", "chili", "coach", "email", "joint", "label"):
        assert word in allowed, word
    for form in ("ginge", "erbte", "hunde", "tages", "enger"):  # the morphology rules keep forms out
        assert form not in solutions, form


def test_coverage_of_the_6mal5_lists(rebuilt: tuple[Path, dict], shared_list) -> None:
    sols, allowed = shared_list("de", "solutions.txt"), shared_list("de", "allowed.txt")
    coverage = rebuilt[1]["coverage"]
    answers, guesses = coverage[str(sols)], coverage[str(allowed)]
    # before, with wngerman alone, the figures: 34 of 1070 answers not allowed, 1724 of 3827 allowed
    assert answers["words"] == 1070 and answers["words"] - answers["allowed_wngerman_only"] == 34
    assert guesses["words"] == 3827 and guesses["allowed_wngerman_only"] == 1724
    # after: the examples are allowed (chili, coach, email, joint, label, salsa, shirt, solar, turbo)
    for word in ("chili", "coach", "email", "joint", "label", "salsa", "shirt", "solar", "turbo"):
        assert word not in answers["not_allowed"], word
    ours = set(raten.load_words("de").allowed)
    reference = set(sols.read_text().split())
    assert answers["allowed"] == len(reference & ours) and answers["not_allowed"] == sorted(reference - ours)
    assert answers["allowed"] > answers["allowed_wngerman_only"]
    assert guesses["allowed"] == len(set(allowed.read_text().split()) & ours)


def test_every_6mal5_answer_is_allowed(rebuilt: tuple[Path, dict], shared_list) -> None:
    """wordfreq's frequent words bring the eight answers no dictionary lists (sowas, track, ultra ...)."""
    sols = shared_list("de", "solutions.txt")
    answers = rebuilt[1]["coverage"][str(sols)]
    assert answers["not_allowed"] == [] and answers["allowed"] == answers["words"] == 1070
    frequent = set((DATA / "frequent.txt").read_text().split())
    assert {"barre", "cirka", "gries", "haufe", "sowas", "stepp", "track", "ultra"} <= frequent
    assert not frequent & set(raten.load_words("de").list_solutions)  # solutions stay the curated words


def test_proper_names_are_the_hunspell_names_only() -> None:
    proper = set((DATA / "proper.txt").read_text().split())
    allowed = set(raten.load_words("de").allowed)
    assert {"kevin", "sarah"} <= proper <= allowed
    assert not proper & {"hunde", "chili", "coach", "joint"}
