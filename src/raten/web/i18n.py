"""UI text in English and German, and error messages in the language of the request.

The texts live in ``texts/<lang>.json``, one file per language, so translators edit data, not
code. The pages embed the whole table of their language for the JavaScript; the API words every
``RatenError`` from its ``key`` and ``params`` (the text ``err_<key>``), never from its
English message. Errors without a text here (the generic key ``invalid``) stay in English.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from raten.errors import RatenError, shorten

LANGUAGES = ("en", "de")

#: One JSON file per language, ``<lang>.json``: a flat object from text key to text.
TEXT_FOLDER = resources.files("raten.web") / "texts"


def load_texts(folder: Traversable = TEXT_FOLDER) -> dict[str, dict[str, str]]:
    """Every language's texts from ``folder``, checked to hold exactly the keys of ``en.json``:
    a text missing from a file fails at import, not in front of a user."""
    texts = {lang: _read_texts(folder / f"{lang}.json") for lang in LANGUAGES}
    for lang, table in texts.items():
        if missing := sorted(texts["en"].keys() - table.keys()):
            raise ValueError(f"{lang}.json lacks the texts {', '.join(missing)} (every key of en.json needs one)")
        if unknown := sorted(table.keys() - texts["en"].keys()):
            raise ValueError(f"{lang}.json has texts en.json lacks: {', '.join(unknown)}")
    return texts


def _read_texts(file: Traversable) -> dict[str, str]:
    """One language's file, which must be one JSON object from text key to text."""
    table = json.loads(file.read_text(encoding="utf-8"))
    if not isinstance(table, dict) or not all(isinstance(text, str) for text in table.values()):
        raise ValueError(f"{file.name} must be one JSON object from text key to text (a string)")
    return table


TEXT = load_texts()


def pick_language(query: str | None, accept: str | None, default: str = "en") -> str:
    """The UI language: ``?lang=`` if it is one we have, else the first we have in
    ``Accept-Language`` when the caller sets it, else ``default``."""
    if query in LANGUAGES:
        return query
    if accept:
        for part in accept.split(","):
            tag = part.split(";")[0].strip().lower()[:2]
            if tag in LANGUAGES:
                return tag
    return default if default in LANGUAGES else "en"


def t(lang: str, key: str, **params: object) -> str:
    """One UI string, filled in."""
    text = TEXT.get(lang, TEXT["en"]).get(key) or TEXT["en"][key]
    return text.format(**params) if params else text


def number(lang: str, x: float, digits: int) -> str:
    """``x`` with ``digits`` decimals as ``lang`` writes it, on every page the same rule as the
    scripts' ``formatNumber`` (config.js): a decimal comma in German, no thousands separator."""
    text = f"{x:.{digits}f}"
    return text.replace(".", ",") if lang == "de" else text


def language_name(lang: str, code: str) -> str:
    """A word list's language named in ``lang`` (English, Deutsch ...; the code for one we do not name)."""
    key = f"language_{code}"
    return t(lang, key) if key in TEXT["en"] else code


def list_description(lang: str, name: str, fallback: str) -> str:
    """A word list's description in ``lang`` (the built-in lists have one), else ``fallback``."""
    key = f"list_desc_{name}"
    return t(lang, key) if key in TEXT["en"] else fallback


def error_message(error: RatenError, lang: str) -> str:
    """The message of a library error in ``lang``, worded from its key and parameters.

    An error without a text of its own is worded as the input error that caused it (a game's
    ``bad_word`` as the word's ``word_length``), else left in the library's English."""
    key, params = error.key, dict(error.params)
    if key == "hard_present" and params.get("count", 1) != 1:
        key = "hard_present_n"
    if key == "contradiction" and f"err_contradiction_{params.get('kind')}" in TEXT["en"]:
        key = f"contradiction_{params['kind']}"  # a problem with facts: named in any language
    elif key == "contradiction" and " / " not in str(params.get("rows", "")):
        key = "contradiction_one"
    if f"err_{key}_{params.get('reason')}" in TEXT["en"]:
        key = f"{key}_{params['reason']}"  # one kind of error, worded by its reason
    if key == "word_letters" and params.get("fold"):  # how the list writes other letters, in this language
        params["folding"] = t(lang, f"fold_{params['fold']}")
    if f"err_{key}" in TEXT["en"]:
        return t(lang, f"err_{key}", **params)
    if isinstance(error.__cause__, RatenError):
        return error_message(error.__cause__, lang)
    return str(error)


def notice_message(notice: str, lang: str) -> str:
    """A library warning in ``lang``: worded from its key (``w_<key>``) when it is a ``Notice``
    with a text here, else left in the library's English."""
    key = getattr(notice, "key", None)
    params = getattr(notice, "params", {})
    if key == "fallback" and params.get("n") == 1:
        key = "fallback_one"
    if key == "breaks_hard" and params.get("rule"):  # the rule broken, in any language
        key = "breaks_hard_" + str(params["rule"]) + ("_n" if params.get("count", 1) != 1 else "")
    if key and f"w_{key}" in TEXT["en"]:
        return t(lang, f"w_{key}", **getattr(notice, "params", {}))
    return str(notice)


def validation_message(errors: Sequence[Mapping[str, Any]], lang: str) -> str:
    """A malformed request's first few problems, each as ``field: what is wrong``: in English
    pydantic's own words, in other languages worded from pydantic's error ``type``."""
    parts = []
    for e in errors[:5]:
        where = ".".join(str(p) for p in e.get("loc", ()) if p != "body")
        if lang == "en":
            what = str(e.get("msg", "invalid"))
        elif e.get("type") == "string_too_long":
            what = t(lang, "err_too_long", max_length=(e.get("ctx") or {}).get("max_length", "?"))
        else:
            what = t(lang, "err_invalid_value")
        parts.append(f"{shorten(where, 60)}: {what}" if where else what)
    return "; ".join(parts) or t(lang, "err_invalid_value")
