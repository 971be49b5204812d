"""The lists of other lengths and languages (`raten words build --lang LANG --length L`): each
shipped one loads with its length and letters, holds what its NOTICE says, and rebuilds byte for
byte from Debian's hunspell dictionary and wordfreq where those are installed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import raten
from raten.cli.main import main
from raten.engine.alphabet import ASCII_LETTERS
from raten.errors import RatenError
from raten.wordlists.languages import LANGUAGES, SHIPPED
from raten.wordlists.presets import ALL_PRESETS, load_preset

DATA = Path(raten.__file__).parent / "data" / "lists"


@pytest.mark.parametrize("name", SHIPPED)
def test_each_shipped_list_loads_with_its_length_and_letters(name: str) -> None:
    lang, length = SHIPPED[name]
    words = load_preset(name)
    assert name in ALL_PRESETS and words.name == name
    assert words.length == length and words.alphabet == LANGUAGES[lang].alphabet
    assert words.language == LANGUAGES[lang].code
    assert set(words.solutions) <= set(words.allowed)
    assert 250 <= len(words.solutions) <= 2000 and len(words.allowed) >= 2000
    letters = set("".join(words.allowed))
    assert letters <= set(words.alphabet.letters)
    notice = (DATA / name / "NOTICE").read_text(encoding="utf-8")
    assert LANGUAGES[lang].package in notice and "wordfreq" in notice and LANGUAGES[lang].licence in notice
    assert f"--lang {lang} --length {length}" in notice


def test_umlauts_are_letters_of_de_umlaut_and_n_tilde_of_spanish() -> None:
    umlaut, es, fr = load_preset("de-umlaut"), load_preset("es"), load_preset("fr")
    assert {"ä", "ö", "ü"} <= set("".join(umlaut.allowed)) and "ß" not in "".join(umlaut.allowed)
    assert "bären" in umlaut.allowed and umlaut.check("BÄREN") == "bären"
    assert "ñ" in "".join(es.allowed) and es.check("Niños") == "niños"
    assert set("".join(fr.allowed)) <= set(ASCII_LETTERS) and fr.check("Fêtes") == "fetes"
    with pytest.raises(RatenError, match="not 6"):
        load_preset("en-6").check("plane")


def test_score_with_a_list_of_six_letters() -> None:
    result = CliRunner().invoke(main, ["score", "--words", "en-6", "--notation", "dots", "planet", "planes"])
    assert result.exit_code == 0 and result.output.strip() == "PLANET vs PLANES: !!!!!."
    result = CliRunner().invoke(main, ["score", "--words", "de-umlaut", "--notation", "dots", "bären", "bärte"])
    assert result.exit_code == 0 and result.output.strip() == "BÄREN vs BÄRTE: !!!?."


@pytest.mark.parametrize("prior", ["frequency", "mixture"])
def test_the_weighted_priors_are_refused_where_frequency_was_not_fitted(prior) -> None:
    with pytest.raises(RatenError, match=f"the {prior} prior is fitted on five-letter lists in a-z") as info:
        load_preset("en-6", prior)
    assert info.value.key == "prior_unfitted"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--length", "6"], "--length needs --lang"),
        (["--lang", "en"], "the built-in en list"),
        (["--lang", "en", "--length", "9"], "9 is not in the range 4<=x<=8"),
        (["--lang", "xx"], "'xx' is not one of"),
        (["--lang", "fr", "--no-hunspell"], "--no-hunspell is for the German build"),
    ],
)
def test_build_refuses_what_it_cannot_build(args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, ["words", "build", *args, "--dry-run"])
    assert result.exit_code != 0 and message in result.output and "Traceback" not in result.output


@pytest.mark.slow
@pytest.mark.parametrize("name", SHIPPED)
def test_rebuild_gives_the_shipped_list_byte_for_byte(name: str, tmp_path: Path, hunspell_tools, need_debian) -> None:  # noqa: ARG001
    """Seconds to minutes each (Portuguese's dictionary expands to 83 million lines)."""
    pytest.importorskip("wordfreq")
    lang, length = SHIPPED[name]
    dic = LANGUAGES[lang].stem.with_suffix(".dic")
    need_debian(f"{LANGUAGES[lang].package} ({dic})", dic.is_file())
    result = CliRunner().invoke(
        main, ["words", "build", "--lang", lang, "--length", str(length), "--out", str(tmp_path), "--json"]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["list"] == name
    for part in ("solutions.txt", "allowed.txt", "NOTICE"):
        assert (tmp_path / part).read_bytes() == (DATA / name / part).read_bytes(), part
