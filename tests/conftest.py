"""Shared fixtures: an isolated matrix cache, the built-in lists, the ../shared/data lists, a sample ngerman."""

from __future__ import annotations

from pathlib import Path

import pytest

from german_sample import DICTIONARY
from raten.engine.words import WordSet
from raten.wordlists.files import read_word_file
from raten.wordlists.german.dictionary import Lexicon, parse_dictionary
from raten.wordlists.presets import load_words

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"


@pytest.fixture(scope="session", autouse=True)
def _isolated_cache(tmp_path_factory):
    """Every test session builds its own matrices in a temporary cache directory."""
    mp = pytest.MonkeyPatch()
    mp.setenv("RATEN_CACHE_DIR", str(tmp_path_factory.mktemp("raten-cache")))
    yield
    mp.undo()


def shared_list(*parts: str) -> Path:
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"reference list {path} is not present (../shared/data)")
    return path


@pytest.fixture(name="shared_list", scope="session")
def shared_list_fixture():
    """``shared_list("de", "solutions.txt")``: a reference list path, skipping when absent."""
    return shared_list


@pytest.fixture(scope="session")
def en_words() -> WordSet:
    return load_words("en")


@pytest.fixture(scope="session")
def de6_words() -> WordSet:
    """The 6mal5.com German lists (1070 solutions, 3827 allowed), tests only."""
    return WordSet.from_lists(
        read_word_file(shared_list("de", "solutions.txt")),
        read_word_file(shared_list("de", "allowed.txt")),
        name="6mal5",
        language="de",
    )


@pytest.fixture
def lex() -> Lexicon:
    """The German builder's sample dictionary (tests/german_sample.py), parsed."""
    return parse_dictionary(DICTIONARY.splitlines())


@pytest.fixture
def dict_file(tmp_path: Path) -> Path:
    """The German builder's sample dictionary as a file, the way ``--dict`` reads it."""
    path = tmp_path / "ngerman"
    path.write_text(DICTIONARY, encoding="utf-8")
    return path
