"""The web's texts: every key in both languages, library errors worded by key, never by their English."""

from __future__ import annotations

import json
import string
from pathlib import Path

import pytest

from raten.engine.feedback import parse_pattern, pattern
from raten.engine.state import State
from raten.engine.words import WordSet, check_word
from raten.errors import RatenError
from raten.play.game import Game, GameError
from raten.web import i18n
from raten.wordlists.presets import load_words
from raten.wordlists.prior import apply_prior

#: The error keys the web words itself; anything else is left in the library's English.
TRANSLATED = (
    "word_length",
    "word_length_range",
    "word_letters",
    "pattern_symbol",
    "pattern_length",
    "no_fit",
    "contradiction",
    "answer_not_in_list",
    "unknown_list",
    "unknown_word",
    "hard_green",
    "hard_present",
    "hard_present_n",
    "game_over",
)


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


#: Parameters that hold an English phrase of the library ("the share text", a constraint's
#: sentence): the other languages leave them out rather than mix English into their text.
ENGLISH_PHRASES = {
    "err_no_fit": {"why"},
    "err_contradiction": {"problem"},
    "err_contradiction_one": {"problem"},
    "err_review_rows": {"source"},
    "err_review_mismatch": {"first", "second"},
    **{
        f"err_{k}_{kind}": {"problem" if k == "contradiction" else "why"}
        for k in ("contradiction", "no_fit")
        for kind in ("green", "yellow_grey", "count", "too_many")
    },
}

#: The language-neutral facts of a phrase the English gives whole (a contradiction's letter,
#: position...: issue 27 item 9): the other languages name them from these parameters.
NEUTRAL_FACTS = {
    f"err_{k}_{kind}": facts | ({"rows"} if k == "no_fit" else set())  # the device's no_fit names no rows in English
    for k in ("contradiction", "no_fit")
    for kind, facts in (
        ("green", {"position", "letter", "other"}),
        ("yellow_grey", {"letter"}),
        ("count", {"letter"}),
        ("too_many", {"n"}),
    )
}


def test_every_text_exists_in_both_languages_with_the_same_fields():
    assert set(i18n.TEXT["en"]) == set(i18n.TEXT["de"]) and set(ENGLISH_PHRASES) <= set(i18n.TEXT["en"])
    for key, english in i18n.TEXT["en"].items():
        facts = NEUTRAL_FACTS.get(key, set())
        assert _fields(i18n.TEXT["de"][key]) <= _fields(english) | facts, key
        assert ENGLISH_PHRASES.get(key, set()) <= _fields(english), key
        assert _fields(i18n.TEXT["de"][key]) == _fields(english) - ENGLISH_PHRASES.get(key, set()) | facts, key


def _texts_folder(tmp_path: Path, lang: str = "", edit=None) -> Path:
    """A copy of the packaged text files, with ``edit`` applied to the table of ``lang``."""
    for code in i18n.LANGUAGES:
        table = dict(i18n.TEXT[code])
        if code == lang:
            edit(table)
        (tmp_path / f"{code}.json").write_text(json.dumps(table, ensure_ascii=False), encoding="utf-8")
    return tmp_path


def test_the_packaged_texts_are_the_ones_loaded(tmp_path):
    assert i18n.load_texts() == i18n.TEXT
    assert i18n.load_texts(_texts_folder(tmp_path)) == i18n.TEXT


@pytest.mark.parametrize(
    ("lang", "edit", "message"),
    [
        ("de", lambda table: table.pop("nav_play"), r"de\.json lacks the texts nav_play"),
        ("en", lambda table: table.pop("nav_play"), r"de\.json has texts en\.json lacks: nav_play"),
        ("de", lambda table: table.update(extra="x"), r"de\.json has texts en\.json lacks: extra"),
        ("de", lambda table: table.update(won=3), r"de\.json must be one JSON object from text key to text"),
    ],
)
def test_a_text_missing_from_a_file_fails_with_a_clear_error(tmp_path, lang, edit, message):
    with pytest.raises(ValueError, match=message):
        i18n.load_texts(_texts_folder(tmp_path, lang, edit))


@pytest.mark.parametrize("key", TRANSLATED)
def test_every_translated_error_key_has_a_text_in_both_languages(key):
    for lang in i18n.LANGUAGES:
        assert i18n.TEXT[lang].get(f"err_{key}"), (lang, key)


def _raised(call) -> RatenError:
    with pytest.raises(RatenError) as e:
        call()
    return e.value


@pytest.mark.parametrize(
    ("call", "key", "german"),
    [
        (lambda: check_word("cran", length=5), "word_length", "\u201ecran\u201c hat 4 Buchstaben, nicht 5"),
        (lambda: check_word("abc"), "word_length_range", "\u201eabc\u201c hat 3 Buchstaben: raten spielt W\u00f6rter"),
        (lambda: check_word("cr4ne"), "word_letters", "\u201ecr4ne\u201c darf nur Buchstaben a-z enthalten"),
        (lambda: parse_pattern("..?!z"), "pattern_symbol", "Das Muster \u201e..?!z\u201c hat ein unbekanntes Zeichen"),
        (lambda: parse_pattern("..?!"), "pattern_length", "Das Muster \u201e..?!\u201c hat 4 Zeichen, nicht 5"),
    ],
)
def test_library_errors_are_worded_in_german_from_their_key(call, key, german):
    error = _raised(call)
    assert error.key == key
    assert i18n.error_message(error, "de").startswith(german)
    assert key in TRANSLATED


def test_rows_that_contradict_each_other_are_named_in_both_languages(en_words):
    error = _raised(lambda: State(en_words).replay([("crane", "!!!!!"), ("crane", ".....")]))
    assert error.key == "contradiction"
    assert error.params["rows"] == "1 (CRANE) / 2 (CRANE)"
    assert i18n.error_message(error, "de") == (
        "Kein Wort passt zu diesen Farben: die Zeilen 1 (CRANE) / 2 (CRANE) sagen Verschiedenes dar\u00fcber, "
        "wie oft C vorkommt; pr\u00fcfe die Eingabe"
    )
    assert i18n.error_message(error, "en") == str(error)
    assert "row 1 (CRANE)" in str(error) and "row 2 (CRANE)" in str(error)


def test_a_row_that_contradicts_itself_is_named_in_both_languages(en_words):
    error = _raised(lambda: State(en_words).after("eerie", ".?..."))
    assert error.key == "contradiction" and error.params["rows"] == "1 (EERIE)"
    assert str(error).endswith("check the colours you entered in row 1 (EERIE)")
    assert i18n.error_message(error, "en") == str(error)
    assert i18n.error_message(error, "de") == (
        "Kein Wort passt zu diesen Farben: in Zeile 1 (EERIE) kann ein gelbes E nicht auf ein graues E folgen; "
        "pr\u00fcfe die Eingabe"
    )


def test_a_green_clash_names_its_position_and_letters_in_both_languages(en_words):
    """Issue 27 item 9: the German names the letters and the position as the English does."""
    error = _raised(lambda: State(en_words).replay([("crane", "!...."), ("slate", "!....")]))
    assert error.params["kind"] == "green" and (error.params["letter"], error.params["other"]) == ("C", "S")
    assert i18n.error_message(error, "en") == str(error)
    assert i18n.error_message(error, "de") == (
        "Kein Wort passt zu diesen Farben: die Zeilen 1 (CRANE) / 2 (SLATE) widersprechen einander, "
        "Position 1 kann nicht zugleich C und S sein; pr\u00fcfe die Eingabe"
    )


@pytest.mark.parametrize(
    ("rows", "de"),
    [
        ([("crane", ".!..."), ("pious", ".....")], "PIOUS verletzt den schweren Modus (Buchstabe 2 muss R sein)"),
        ([("crane", "..?.."), ("pious", ".....")], "PIOUS verletzt den schweren Modus (das Wort muss A enthalten)"),
        ([("eerie", "?!..."), ("pious", ".....")], "PIOUS verletzt den schweren Modus (Buchstabe 2 muss E sein)"),
        (
            [("eerie", "??..."), ("lapse", "..???")],
            "LAPSE verletzt den schweren Modus (das Wort muss 2-mal E enthalten)",
        ),
    ],
)
def test_the_hard_mode_warning_says_its_rule_in_both_languages(en_words, rows, de):
    notice = next(n for n in State(en_words, hard=True).replay(rows).warnings if n.key == "breaks_hard")
    assert i18n.notice_message(notice, "de") == de + "; trotzdem verwendet"
    english = i18n.notice_message(notice, "en")
    assert english.startswith(notice.params["word"] + " breaks hard mode (") and notice.params["letter"] in english


def test_an_english_answer_outside_the_list_is_not_the_players_error(en_words):
    """GLAMP (a NYT answer of 2023) is no allowed word of en: after CLAMP's colours no word fits,
    and the solver says the list lacks the answer, in both languages, blaming no row."""
    assert "glamp" not in en_words.allowed_index
    error = _raised(lambda: State(en_words).after("clamp", pattern("clamp", "glamp")))
    assert error.key == "answer_not_in_list"
    assert str(error) == (
        "no word of the en list fits these hints, and they agree with each other: the answer is probably a "
        "word the list does not know"
    )
    assert i18n.error_message(error, "en") == str(error)
    assert i18n.error_message(error, "de") == (
        "Kein Wort der Liste en passt zu diesen Farben, und sie widersprechen einander nicht: die L\u00f6sung "
        "ist wohl ein Wort, das die Liste nicht kennt"
    )
    assert "check the colours" not in str(error)


def _without(words: WordSet, word: str) -> WordSet:
    """``words`` as a list that lacks ``word``, with the same language and prior."""
    out = WordSet.from_lists(
        [w for w in words.solutions if w != word],
        [w for w in words.allowed if w != word],
        name=words.name,
        language=words.language,
    )
    return apply_prior(out, "uniform")


def test_a_german_answer_outside_the_list_in_both_languages():
    """CHILI, a 6mal5 answer: with a German list that lacks it, the solver first goes on with
    the allowed words that fit (a warning with a key, worded in German), then says the list
    lacks the answer."""
    de = _without(load_words("de", prior="uniform"), "chili")
    state = State(de)
    for guess in ("chips", "laden", "kilos", "engel"):  # ENGEL: CHILL, a wordfreq word, is allowed too
        if state.count == 0 or guess not in de.allowed_index:
            continue
        try:
            state = state.after(guess, pattern(guess, "chili"))
        except RatenError as e:
            assert e.key == "answer_not_in_list"
            assert i18n.error_message(e, "de").startswith("Kein Wort der Liste de passt zu diesen Farben")
            break
    else:
        raise AssertionError("some word should have ruled out every allowed word")
    (fallback,) = [w for w in state.warnings if getattr(w, "key", None) == "fallback"]
    assert i18n.notice_message(fallback, "de").startswith("Keine L\u00f6sung der Liste de passt")


def test_the_fallback_warning_in_both_languages(en_words):
    state = State(en_words).after("soare", "!!!!!")  # SOARE is allowed, not a solution
    (notice,) = state.warnings
    assert notice.key == "fallback"
    assert i18n.notice_message(notice, "en") == (
        "No en solution fits: the answer is probably missing from the list; going on with the one allowed word "
        "that fits."
    )
    assert i18n.notice_message(notice, "de").startswith("Keine L\u00f6sung der Liste en passt")
    assert i18n.notice_message("a plain warning", "de") == "a plain warning"


def test_english_texts_say_what_the_library_says():
    calls = (lambda: check_word("cran", length=5), lambda: check_word("abc"), lambda: check_word("cr4ne"))
    for call in (*calls, lambda: parse_pattern("..?!")):
        error = _raised(call)
        assert i18n.error_message(error, "en") == str(error)


def test_the_english_message_is_never_parsed():
    """A message that looks like a translated one but has another key stays as it is."""
    error = RatenError("'cran' has 4 letters, not 5")
    assert i18n.error_message(error, "de") == "'cran' has 4 letters, not 5"


def test_a_refused_game_word_is_worded_as_its_cause(en_words):
    game = Game.practice(en_words, answers=("crane",))
    error = _raised(lambda: game.guess("ab1de"))
    assert isinstance(error, GameError) and error.key == "bad_word"
    assert (
        i18n.error_message(error, "de")
        == "\u201eab1de\u201c darf nur Buchstaben a-z enthalten (Umlaute und \u00df werden umschrieben)"
    )


def test_echoed_input_is_cut_short():
    huge = ": ': ': ' " * 8000
    for call in (lambda: check_word(huge), lambda: parse_pattern(huge), lambda: check_word("x" * 72_000)):
        error = _raised(call)
        for lang in i18n.LANGUAGES:
            assert len(i18n.error_message(error, lang)) < 200


def test_validation_errors_in_german_name_the_field():
    errors = [{"loc": ("body", "rows", 0, "guess"), "type": "string_too_long", "msg": "...", "ctx": {"max_length": 40}}]
    assert i18n.validation_message(errors, "de") == "rows.0.guess: h\u00f6chstens 40 Zeichen"
    assert i18n.validation_message(errors, "en") == "rows.0.guess: ..."
    odd = [{"loc": ("body", "x" * 10_000), "type": "extra_forbidden", "msg": "Extra inputs are not permitted"}]
    assert len(i18n.validation_message(odd, "de")) < 100
