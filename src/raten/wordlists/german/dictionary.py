"""Reading Debian's wngerman dictionary into a Lexicon: the usable entries, transliterated.

ngerman is a full-form list: it holds "alt", "alte", "alten", "altem", ... as separate
entries, and a word that is both noun and verb ("Liebe", "liebe") only once, in
lowercase. The Lexicon keeps which entries are lowercase and which capitalised, because
the morphology rules read a word's part of speech from that.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from raten.engine.words import normalise
from raten.errors import RatenError
from raten.wordlists.files import read_text

DEFAULT_DICT = Path("/usr/share/dict/ngerman")

_ENTRY = re.compile(r"[a-zäöüß]+")
_FIVE = re.compile(r"[a-z]{5}")


@dataclass(frozen=True)
class Lexicon:
    """The usable ngerman entries, transliterated: which are lowercase, which capitalised.

    ``spellings`` maps each transliterated word to its ngerman spellings (lowercased, with
    umlauts), for frequency look-ups; ``dropped`` counts the entries left out and why.
    """

    lower: frozenset[str]
    capital: frozenset[str]
    spellings: dict[str, tuple[str, ...]]
    lines: int = 0
    dropped: dict[str, int] = field(default_factory=dict)

    def __contains__(self, word: str) -> bool:
        return word in self.lower or word in self.capital

    def five(self) -> list[str]:
        """Every five-letter word (a-z after transliteration), sorted."""
        return sorted(w for w in self.spellings if _FIVE.fullmatch(w))


def parse_dictionary(lines: Iterable[str]) -> Lexicon:
    """Sort dictionary lines into lowercase and capitalised words; drop acronyms, mixed case
    ("McDonald", "DDR") and anything with characters other than letters and umlauts."""
    lower: set[str] = set()
    capital: set[str] = set()
    spellings: dict[str, set[str]] = {}
    dropped: Counter[str] = Counter()
    count = 0
    for raw in lines:
        entry = raw.strip()
        if not entry or entry.startswith("#"):
            continue
        count += 1
        low = entry.lower()
        if not _ENTRY.fullmatch(low):
            dropped["other characters"] += 1
            continue
        if entry == low:
            target = lower
        elif entry[0].isupper() and entry[1:] == low[1:]:
            target = capital
        else:
            dropped["acronym or mixed case"] += 1
            continue
        word = normalise(low)
        target.add(word)
        spellings.setdefault(word, set()).add(low)
    return Lexicon(
        lower=frozenset(lower),
        capital=frozenset(capital),
        spellings={w: tuple(sorted(s)) for w, s in spellings.items()},
        lines=count,
        dropped=dict(dropped),
    )


#: The largest dictionary read (bytes): a whole language's words of every length (wngerman's
#: ngerman is about 4 MB), not a list of five-letter words.
DICTIONARY_BYTES = 64 * 1024 * 1024


def read_dictionary(path: str | Path) -> Lexicon:
    """Read a wngerman-style word list (one word per line, UTF-8)."""
    p = Path(path)
    text = read_text(
        p,
        "dictionary",
        ": install Debian's wngerman package (apt-get install wngerman) or pass another word list with --dict",
        max_bytes=DICTIONARY_BYTES,
    )
    lex = parse_dictionary(text.splitlines())
    if not lex.five():
        raise RatenError(f"dictionary {str(p)!r} has no five-letter words")
    return lex
