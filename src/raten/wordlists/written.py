"""Words as their language writes them (boese: böse), for what people read: the lists hold the
transliteration (ä→ae, ö→oe, ü→ue, ß→ss), and ``raten words build`` keeps the German spelling
of each word where it differs in data/de/written.txt."""

from __future__ import annotations

from functools import cache
from importlib import resources


@cache
def written_table(language: str) -> dict[str, str]:
    """Every word of LANGUAGE whose written form differs, and that form (none for other languages)."""
    if language != "de":
        return {}
    try:
        text = (resources.files("raten") / "data" / "de" / "written.txt").read_text(encoding="utf-8")
    except FileNotFoundError:  # lists built before written.txt: shown as they are
        return {}
    pairs = (line.split(" ", 1) for line in text.splitlines() if line)
    return {word: form for word, form in pairs}


def written(word: str, language: str) -> str:
    """WORD (lowercase, transliterated) as LANGUAGE writes it: böse for boese in German, else WORD."""
    return written_table(language).get(word, word)
