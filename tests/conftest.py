"""Shared fixtures: an isolated matrix cache, the built-in lists, the ../shared/data lists, a sample ngerman."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from german_sample import DICTIONARY
from raten.engine.words import WordSet
from raten.wordlists.german.dictionary import DEFAULT_DICT, Lexicon, parse_dictionary
from raten.wordlists.german.hunspell import DEFAULT_HUNSPELL
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
    """The 6mal5.com German lists (1070 solutions, 3827 allowed): the ``6mal5`` preset, which
    ships them (tests/wordlists/test_6mal5_preset.py checks they are ../shared/data/de's)."""
    return load_words("6mal5")


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


# `make test` sets this: there the Debian packages the German build reads are installed
# (`make dictionaries`), so a test that needs them fails instead of skipping quietly.
NEED_DEBIAN = os.environ.get("RATEN_NEED_DEBIAN") == "1"


def need_debian(what: str, present: bool) -> None:
    """Skip (fail under `make test`) when a Debian package the German build needs is missing."""
    if not present:
        message = f"{what} is not installed (`make dictionaries` installs it)"
        if NEED_DEBIAN:
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture(name="need_debian", scope="session")
def need_debian_fixture():
    """``need_debian(what, present)``: skip (fail under `make test`) when a Debian package is missing."""
    return need_debian


@pytest.fixture(scope="session")
def hunspell_tools() -> None:
    """Debian's unmunch (hunspell-tools) and hunspell, which expand a hunspell dictionary."""
    need_debian("unmunch (hunspell-tools)", shutil.which("unmunch") is not None)
    need_debian("hunspell", shutil.which("hunspell") is not None)


@pytest.fixture(scope="session")
def debian_german(hunspell_tools) -> None:  # noqa: ARG001 - the tools are needed too
    """Everything `raten words build` reads by default: wngerman and the frami dictionary."""
    need_debian(f"wngerman ({DEFAULT_DICT})", DEFAULT_DICT.is_file())
    need_debian(f"hunspell-de-de-frami ({DEFAULT_HUNSPELL.dic})", DEFAULT_HUNSPELL.dic.is_file())
