"""The languages `raten words build --lang LANG --length L` builds lists for, and the lists that ship.

Each language names its Debian hunspell dictionary, its wordfreq code and its letters: what a
list keeps as tiles of its own, and how it folds the rest (``raten.engine.alphabet``). The
folding follows each language's own Wordle games: French (Le Mot, Wordle FR), Italian (Parole),
Dutch (Woordle) and Portuguese (Termo, a Brazilian game: its list from Brazilian Portuguese) leave
accents out (é→e, ç→c, œ→oe); Spanish games (Wordle ES) keep Ñ as a tile and leave the accents
out; German folds Ä, Ö, Ü and ß to ae, oe, ue and ss as 6mal5.com does, and ``de-umlaut`` keeps
Ä, Ö and Ü as tiles (ß→ss), as German games with umlaut keys do.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from raten.engine.alphabet import ASCII_LETTERS, LATIN, Alphabet

HUNSPELL_DIR = Path("/usr/share/hunspell")


@dataclass(frozen=True)
class Language:
    """One language's dictionary, wordfreq code and letters."""

    code: str  #: the list's language (wordfreq's code; ``de`` for de-umlaut too)
    name: str  #: in English, for descriptions
    dictionary: str  #: the hunspell dictionary in /usr/share/hunspell, without .dic/.aff
    package: str  #: the Debian package that ships it
    licence: str  #: the dictionary's licence, as Debian's copyright file names it
    alphabet: Alphabet
    #: German writes nouns capitalised (Hund, Bär): a capital letter marks no proper name there.
    nouns_capitalised: bool = False

    @property
    def stem(self) -> Path:
        return HUNSPELL_DIR / self.dictionary


_ACCENTS = Alphabet(ASCII_LETTERS, "accents")

LANGUAGES: dict[str, Language] = {
    "en": Language("en", "English", "en_US", "hunspell-en-us", "SCOWL's licence (BSD-like)", _ACCENTS),
    "de": Language("de", "German", "de_DE_frami", "hunspell-de-de-frami", "GPL-2 or GPL-3 (igerman98)", LATIN, True),
    "de-umlaut": Language(
        "de",
        "German with umlauts",
        "de_DE_frami",
        "hunspell-de-de-frami",
        "GPL-2 or GPL-3 (igerman98)",
        Alphabet(ASCII_LETTERS + "äöü"),
        True,
    ),
    "fr": Language("fr", "French", "fr", "hunspell-fr", "MPL-2.0 (Dicollecte)", _ACCENTS),
    "es": Language(
        "es",
        "Spanish",
        "es_ES",
        "hunspell-es",
        "GPL-3+ or LGPL-3+ or MPL-1.1+",
        Alphabet(ASCII_LETTERS + "ñ", "accents"),
    ),
    "it": Language("it", "Italian", "it_IT", "hunspell-it", "GPL-3", _ACCENTS),
    "nl": Language("nl", "Dutch", "nl", "hunspell-nl", "BSD or CC-BY-3.0 (OpenTaal)", _ACCENTS),
    "pt": Language("pt", "Portuguese (Brazil)", "pt_BR", "hunspell-pt-br", "LGPL-3 or MPL (VERO)", _ACCENTS),
}


def solutions_wanted(length: int) -> int:
    """How many solutions a built list aims at: about 2,000, fewer for short words (a language
    has fewer common ones: English 4-letter words at zipf 3 are about 1,300)."""
    return 1000 if length <= 4 else 2000


def list_name(lang: str, length: int) -> str:
    """The preset a build makes: ``fr`` (five letters), ``en-6``, ``de-umlaut`` (five), ``de-umlaut-6``."""
    return lang if length == 5 else f"{lang}-{length}"


#: The built lists raten ships (data/lists/NAME), as (language key, length).
SHIPPED: dict[str, tuple[str, int]] = {
    list_name(lang, length): (lang, length)
    for lang, length in (
        ("en", 4),
        ("en", 6),
        ("en", 7),
        ("de", 4),
        ("de", 6),
        ("de", 7),
        ("de-umlaut", 5),
        ("fr", 5),
        ("es", 5),
        ("it", 5),
        ("nl", 5),
        ("pt", 5),
    )
}
