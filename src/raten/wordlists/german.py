"""Build the German word lists (`de`, `de-ext`) from Debian's wngerman and wordfreq.

`raten words build` reads the wngerman dictionary (``/usr/share/dict/ngerman``), keeps the
entries that are all lowercase or capitalised and letters only, transliterates them
(ä→ae, ö→oe, ü→ue, ß→ss) and keeps those five letters long: the allowed guesses. The
solutions are the most frequent of them by wordfreq (zipf scale) that look like base forms
of common words: inflected forms, plurals, verb forms, English words and proper names are
left out by the rules below, which use only what the two sources know.

ngerman is a full-form list: it holds "alt", "alte", "alten", "altem", ... as separate
entries, and a word that is both noun and verb ("Liebe", "liebe") only once, in
lowercase. The rules therefore look at a word's neighbours in the dictionary (does the
stem also take -em, is there a genitive in -s, is it the head of a compound noun), and
at how often wordfreq has seen the word and its stem. The frequency source is a function
``zipf(word, lang)`` so tests can pass a fake one instead of wordfreq.
"""

from __future__ import annotations

import bisect
import hashlib
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from raten.engine.words import normalise
from raten.errors import RatenError
from raten.wordlists.files import read_text

DEFAULT_DICT = Path("/usr/share/dict/ngerman")
DEFAULT_SOLUTIONS = 1050
DEFAULT_MIN_ZIPF = 3.0
# A word wordfreq knows this much better in English than in German is taken as English.
ENGLISH_MARGIN = 1.5

Zipf = Callable[[str, str], float]
"""A frequency source: ``zipf(word, lang)`` on the zipf scale (log10 per billion words)."""

_ENTRY = re.compile(r"[a-zäöüß]+")
_FIVE = re.compile(r"[a-z]{5}")
_ADJ_ENDINGS = ("e", "en", "em", "er", "es")
_UMLAUT_BACK = (("aeu", "au"), ("ae", "a"), ("oe", "o"), ("ue", "u"))
_LINKS = ("", "s", "n", "e", "en", "es", "er", "ens")
_SUFFIXES = ("schaft", "heit", "keit", "ung", "tum", "nis")  # derive nouns from verbs: Machenschaft


def _words(text: str) -> frozenset[str]:
    """The words of a whitespace-separated block (for the hand-kept lists below)."""
    return frozenset(text.split())


# Proper names, places, brands and organisations that wordfreq rates as common and ngerman
# lists capitalised (Peter, Paris, Köln as koeln, Intel): nothing in the two sources tells
# them from nouns, so they are listed by hand. Demonyms (Russe, Brite) are nouns and stay.
NAMES = _words(
    """
achim adele adobe adolf adria aetna alice allah amrum anden anita annie antje anton anwar apple
argus arndt arosa artus asien atari athen aurel babel bambi basel bayer beate bernd berta betty
billy blair bluem boris bosch bozen brest bruno bryan burda burma canon carlo carol cathy celle
chile china cisco cluny curie dakar dalai dante david davis davos delhi devon dhabi diana dolly
donau doris dover dubai duden dumas ebert ebola edeka edgar edith eifel elias eliza emden epson
erich erika erwin euler eupen excel felix forsa frank franz freud fritz fulda gabun genua georg
gerda ghana gizeh gorki gotha grace grete grimm guido hades hagen haifa haiti hamas hamed hanau
hanne hanoi hanse harro harry hauff havel haydn hedda hegel heidi heike heiko heine heino heinz
helga henry herta hesse hilde homer honda horst huber husum hydra indus intel isaac isaak islam
jacob jaffa jahwe jakob jalta james japan jemen joerg jones josef juist julia jutta kabul kafka
kairo karin karla katia kenia khmer kirch klaus kleve knaur kodak koeln kongo koran korea kreml
kreta lanka leica lenin lille linus linux liszt lloyd loire lotte louis mainz malta maria marie
marne mazda meier mekka memel meran merck meyer miami midas milan minsk monte mosel moser moses
namur nepal neuss niger nikon nizza nokia obama olymp orion oscar oskar osram otmar pablo paris
paula pavia pedro peggy pepsi peter petra pfalz pippi plato pluto polen prado putin rabat ralph
rhein rhoen rhone robin roger rolex santa saudi seoul shell silke simon sinai sinti sodom sofia
solon sonja spree stasi steve sudan tanja tegel texas thora tiber tibet tirol tokio trier troja
trump tunis turin verdi vista volvo weser willi willy wolga worms wotan xerox yahoo zaire zille
zorro
"""
)

# Foreign words, abbreviations and fragments of foreign phrases (de facto, vice versa) that
# ngerman lists and the English rule does not catch; German loanwords (Comic, Toast) stay.
FOREIGN = _words(
    """
alert array basic chart check choke clone dress entre exile facto flash fluid forma laude nerve
ordre photo prime proxy queen relax reset setup sound spike stack summa trunk vergl versa wagon
"""
)

# Slurs and vulgar words: a game should not pick them as the answer of the day.
OFFENSIVE = _words(
    """
arier dildo fickt fotze huren lesbe neger negro nutte wichs
"""
)


# --- reading the dictionary ---------------------------------------------------------


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


def read_dictionary(path: str | Path) -> Lexicon:
    """Read a wngerman-style word list (one word per line, UTF-8)."""
    p = Path(path)
    text = read_text(
        p,
        "dictionary",
        ": install Debian's wngerman package (apt-get install wngerman) or pass another word list with --dict",
    )
    lex = parse_dictionary(text.splitlines())
    if not lex.five():
        raise RatenError(f"dictionary {str(p)!r} has no five-letter words")
    return lex


def wordfreq_zipf() -> Zipf:
    """wordfreq's ``zipf_frequency``, or a clear error when wordfreq is not installed."""
    try:
        from wordfreq import zipf_frequency
    except ImportError:
        raise RatenError("building the German lists needs wordfreq: pip install 'raten[build-words]'") from None
    return zipf_frequency


# --- the rules ------------------------------------------------------------------------


class Morphology:
    """What the dictionary and the frequencies say about one word: is it a base form?

    Every test returns the reason to leave the word out of the solutions, or None.
    """

    def __init__(self, lex: Lexicon, zipf: Zipf) -> None:
        self.lex = lex
        self._zipf = zipf
        self._cache: dict[tuple[str, str], float] = {}
        self._capital_sorted = sorted(lex.capital)
        self._by_end: dict[str, list[str]] = {}
        for entry in lex.capital:
            if len(entry) >= 8:
                self._by_end.setdefault(entry[-5:], []).append(entry)

    # frequencies

    def freq(self, word: str, lang: str = "de") -> float:
        """Zipf frequency of a transliterated word: its spellings' frequencies added up."""
        key = (word, lang)
        if key not in self._cache:
            zipfs = [self._zipf(s, lang) for s in self.lex.spellings.get(word, (word,))]
            total = sum(10**z for z in zipfs if z > 0)
            self._cache[key] = round(math.log10(total), 4) if total > 0 else 0.0
        return self._cache[key]

    # evidence of a noun

    def _first_part(self, part: str) -> bool:
        """A compound's first part: a noun, or a noun with a linking element (Liebe|s|brief).
        A noun listed in lowercase only (schlag, also a verb form) shows by its genitive."""
        lex = self.lex
        for link in _LINKS:
            if part.endswith(link):
                core = part[: len(part) - len(link)]
                if len(core) >= 3 and (core in lex.capital or (core in lex.lower and core + "s" in lex)):
                    return True
        return False

    def _split(self, entry: str, word: str) -> bool:
        """ENTRY is a noun + WORD, and no longer word ends it (Blut|spuren, not Bluts|puren)."""
        part = entry[: -len(word)]
        if any(part[-k:] + word in self.lex for k in (1, 2, 3) if k < len(part)):
            return False
        return self._first_part(part)

    def _heads(self, word: str) -> tuple[int, int, int]:
        """Capitalised compounds ending in WORD (Baum|rinde), counted three ways: forms of
        a listed shorter compound (Jagd|hunde: Jagdhund is listed), ones with a genitive in
        -s (Fußball|spiel: Fußballspiels; See|hunde: Seehundes, so a plural) and the rest."""
        inflected = genitive = plain = 0
        for entry in self._by_end.get(word[-5:], ()):
            if not entry.endswith(word) or len(entry) < len(word) + 3 or not self._split(entry, word):
                continue
            if any(entry[:-k] in self.lex.capital for k in (1, 2, 3)):
                inflected += 1
            elif entry + "s" in self.lex:
                genitive += 1
            else:
                plain += 1
        return inflected, genitive, plain

    def heads_compound(self, word: str) -> bool:
        """WORD is the last part of some compound noun that is not an inflected form."""
        _, genitive, plain = self._heads(word)
        return genitive + plain > 0

    def mostly_heads(self, word: str) -> bool:
        """WORD ends more plain compounds than inflected ones (Niesel|regen, not Kriegs|toten)."""
        inflected, genitive, plain = self._heads(word)
        return genitive + plain > inflected

    def starts_compound(self, word: str) -> bool:
        """True when a capitalised entry starts with WORD+n and goes on with a word
        (Hecke|n|schere): the -n- link of feminine nouns, which verb forms do not make."""
        if word[:-1] in self.lex.capital and word[:-1] + "s" not in self.lex:
            return False  # Zahl|en|reihe: the plural of a feminine noun (Zahl), not Zahle + n
        prefix = word + "n"
        i = bisect.bisect_left(self._capital_sorted, prefix)
        while i < len(self._capital_sorted) and self._capital_sorted[i].startswith(prefix):
            rest = self._capital_sorted[i][len(prefix) :]
            infinitive = rest.endswith(("en", "ens")) and (rest in self.lex.lower or rest[:-1] in self.lex.lower)
            if len(rest) >= 4 and rest in self.lex.capital and not rest.startswith(_SUFFIXES) and not infinitive:
                return True  # not Kenne|n|lernen: a verb made a noun
            i += 1
        return False

    def noun_evidence(self, word: str) -> bool:
        """Some sign that WORD is (also) a noun in its own right."""
        return self.heads_compound(word) or self.starts_compound(word)

    # the tests

    def adjective_form(self, word: str) -> str | None:
        """alten, ganze, jeder: a stem that takes all of -e, -en, -em, -er, -es is an
        adjective or determiner, and WORD one of its inflected forms."""
        lower = self.lex.lower
        if word not in lower:
            return None
        for ending in _ADJ_ENDINGS:
            stem = word[: -len(ending)]
            if not word.endswith(ending) or stem + "em" not in lower:
                continue
            if sum(stem + e in lower for e in _ADJ_ENDINGS) < 4:
                continue
            if ending == "e":
                if stem not in self.lex:
                    # müde, leise: the base form ends in -e and is the commonest form
                    others = max(self.freq(stem + e) for e in _ADJ_ENDINGS[1:])
                    if self.freq(word) >= others + 0.3:
                        continue
                elif self.freq(word) >= self.freq(stem) + 0.5 or self.noun_evidence(word):
                    continue  # a noun of its own: Taube, Feige, Tiefe, Weite
            elif self.mostly_heads(word):
                continue  # a noun of its own: Regen, Faden
            return f"inflected adjective ({stem}-)"
        return None

    def verb_form(self, word: str) -> str | None:
        """kommt, sagte, finde, gibst, sieht, blieb: finite verb forms and verb stems.
        Infinitives (loben) stay; so do forms that are nouns as well (Liebe, Wiege)."""
        lower = self.lex.lower
        if word not in lower or self.noun_evidence(word):
            return None
        if word.endswith("e") and word[:-1] + "em" in lower:
            return None  # an adjective's form (leise, leisem): adjective_form decides
        for ending in ("t", "st", "e", "te", "et", "est", "ten", "tet"):
            stem = word[: -len(ending)]
            if word.endswith(ending) and stem + "en" != word and stem + "en" in lower:
                return f"verb form ({stem}en)"
        if word.endswith("t") and (word[:-1] + "st" in lower or word + "st" in lower):
            return "verb form (3rd person)"  # sieht/siehst, hält/hältst
        if word.endswith("st") and (word[:-2] + "t" in lower or (len(word) > 4 and word[:-2] in lower)):
            return "verb form (2nd person)"  # gibst/gibt, musst/muss, magst/mag
        if word.endswith("e") and word[:-1] + "st" in lower and word[:-1] + "t" in lower:
            return "verb form (1st person or imperative)"  # siehe: siehst, sieht
        if (
            sum(word + e in lower for e in ("en", "st", "t")) >= 2
            and word + "em" not in lower
            and self.freq(word) < self.freq(word + "en") + 1.0  # schon, not a form of schonen
        ):
            return "verb stem or past tense"  # blieb/blieben/bliebst, trink/trinkt, ließ/ließen
        if word.endswith("en"):
            stem = word[:-2]
            participles = ("ge" + stem + "t", "ge" + stem + "et", "ge" + word)
            if (
                stem in lower
                and stem + "st" in lower
                and stem + "e" not in lower
                and not any(p in lower for p in participles)
            ):
                return "past tense plural"  # kamen: kam, kamst, no kame, no gekamt
        return None

    def noun_form(self, word: str) -> str | None:
        """Jahre, Augen, Fotos, Tages, Züge, Viren: plurals and case forms of a noun."""
        lex = self.lex
        capital_word = word in lex.capital
        if not capital_word and word.endswith("en"):
            stem = word[:-2]
            participles = ("ge" + stem + "t", "ge" + stem + "et", "ge" + word)
            noun = word[:-1] if word[:-1] in lex.capital else stem if stem in lex.capital else None
            if noun and not any(p in lex.lower for p in participles):
                return f"noun plural ({noun})"  # waren, gaben, taten: no verb has them as infinitive
        for ending in ("e", "en", "n", "er", "ern", "s", "es", "ns", "ens"):
            if not word.endswith(ending):
                continue
            stem = word[: -len(ending)]
            if len(stem) < 3 or stem not in lex or (stem not in lex.capital and ending not in ("e", "s", "es")):
                continue
            if stem not in lex.capital and stem + "em" in lex:
                continue  # an adjective's stem (treu, lind): adjective_form decides
            if ending == "e":
                if word + "s" not in lex:
                    continue  # no genitive Hundes: a feminine noun (Jacke, Katze), not a plural
                inflected, genitive, plain = self._heads(word)
                if plain > inflected + genitive or (plain and self._other_plural(stem)):
                    continue  # a noun of its own: Baum|rinde; Rot|buche (Buch has Bücher)
            elif not capital_word:
                continue  # lowercase -s/-en/-er words are adverbs, infinitives, adjectives
            elif ending in ("en", "n", "er") and word + "s" in lex:
                continue  # has a genitive of its own: Roman, Boxer, Samen
            return f"noun plural or case ({stem})"
        if word.endswith("e") or word.endswith("en"):
            core = word[:-1] if word.endswith("e") else word
            for umlaut, vowel in _UMLAUT_BACK:
                i = core.rfind(umlaut)
                if i >= 0:
                    stem = core[:i] + vowel + core[i + len(umlaut) :]
                    if stem in lex.capital and stem != word:
                        return f"noun plural ({stem})"  # Züge, Höfe, Öfen
                    break
        if capital_word and word.endswith("en"):
            for singular in ("us", "um", "a"):
                if word[:-2] + singular in lex.capital:
                    return f"noun plural ({word[:-2] + singular})"  # Viren, Daten, Ligen
        return None

    def _other_plural(self, stem: str) -> bool:
        """STEM has an umlaut plural, so STEM+e is not its plural: Fälle, Bücher, Häuser."""
        i = max(stem.rfind(v) for v in "aou")
        if i < 0:
            return False
        if stem[i] == "u" and i > 0 and stem[i - 1] == "a":
            mutated = stem[: i - 1] + "aeu" + stem[i + 1 :]
        else:
            mutated = stem[:i] + stem[i] + "e" + stem[i + 1 :]
        return mutated + "e" in self.lex.capital or mutated + "er" in self.lex.capital

    def english(self, word: str) -> str | None:
        """first, sound, check: far commoner in English than in German."""
        en, de = self.freq(word, "en"), self.freq(word, "de")
        if en - de >= ENGLISH_MARGIN:
            return f"English word (zipf en {en:.1f}, de {de:.1f})"
        return None

    def listed(self, word: str) -> str | None:
        """Entries of the hand-kept lists: names, foreign words, offensive words."""
        if word in NAMES:
            return "proper name"
        if word in FOREIGN:
            return "foreign word"
        if word in OFFENSIVE:
            return "offensive"
        return None

    def exclusion(self, word: str) -> tuple[str, str] | None:
        """The first rule that leaves WORD out of the solutions: (rule, detail), or None."""
        for rule in RULES:
            reason = getattr(self, rule)(word)
            if reason:
                return rule, reason
        return None


RULES = ("listed", "english", "adjective_form", "verb_form", "noun_form")


# --- building the lists ---------------------------------------------------------------


@dataclass
class BuildResult:
    """The three lists and the figures that explain them."""

    allowed: list[str]
    solutions: list[str]
    ngerman: list[str]
    min_zipf: float
    candidates: int  # five-letter words at or above min_zipf
    excluded: dict[str, list[str]]  # rule -> words at or above min_zipf it left out, commonest first
    eligible: int  # candidates no rule left out
    lowest_zipf: float  # frequency of the rarest solution
    transliterated: int  # allowed words that had ä, ö, ü or ß

    def summary(self) -> dict:
        """Counts for people and scripts (a few examples per rule)."""
        return {
            "allowed": len(self.allowed),
            "solutions": len(self.solutions),
            "ngerman": len(self.ngerman),
            "transliterated": self.transliterated,
            "min_zipf": self.min_zipf,
            "candidates": self.candidates,
            "excluded": {rule: len(words) for rule, words in self.excluded.items()},
            "examples": {rule: words[:12] for rule, words in self.excluded.items()},
            "eligible": self.eligible,
            "lowest_zipf": self.lowest_zipf,
        }


def build_lists(
    lex: Lexicon, zipf: Zipf, solutions: int = DEFAULT_SOLUTIONS, min_zipf: float = DEFAULT_MIN_ZIPF
) -> BuildResult:
    """Allowed = every five-letter word; solutions = the SOLUTIONS commonest words at or
    above MIN_ZIPF that no rule leaves out (fewer if there are not that many)."""
    if solutions < 1:
        raise RatenError("--solutions must be at least 1")
    morph = Morphology(lex, zipf)
    five = lex.five()
    ranked = sorted(five, key=lambda w: (-morph.freq(w), w))
    candidates = [w for w in ranked if morph.freq(w) >= min_zipf]
    excluded: dict[str, list[str]] = {rule: [] for rule in RULES}
    eligible = []
    for word in candidates:
        verdict = morph.exclusion(word)
        if verdict:
            excluded[verdict[0]].append(word)
        else:
            eligible.append(word)
    chosen = eligible[:solutions]
    return BuildResult(
        allowed=five,
        solutions=sorted(chosen),
        ngerman=five,
        min_zipf=min_zipf,
        candidates=len(candidates),
        excluded=excluded,
        eligible=len(eligible),
        lowest_zipf=morph.freq(chosen[-1]) if chosen else 0.0,
        transliterated=sum(any(s != w for s in lex.spellings[w]) for w in five),
    )


def default_out_dir() -> Path:
    """The package's own data/de directory (where `_load_de` reads the lists)."""
    return Path(str(resources.files("raten"))) / "data" / "de"


def write_list(path: Path, words: Iterable[str]) -> None:
    """One word per line, sorted, trailing newline: the same lists give the same bytes."""
    path.write_text("".join(w + "\n" for w in sorted(set(words))), encoding="utf-8")


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def debian_version(package: str = "wngerman", status: Path = Path("/var/lib/dpkg/status")) -> str | None:
    """The installed Debian package's version, from dpkg's status file (None if unknown)."""
    try:
        text = status.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    for block in text.split("\n\n"):
        if re.search(rf"^Package: {re.escape(package)}$", block, re.M):
            found = re.search(r"^Version: (\S+)$", block, re.M)
            return found.group(1) if found else None
    return None


def wordfreq_version() -> str | None:
    """The installed wordfreq's version (None if unknown)."""
    from importlib import metadata

    try:
        return metadata.version("wordfreq")
    except metadata.PackageNotFoundError:
        return None


NOTICE_TEMPLATE = """\
German word lists of raten (presets `de` and `de-ext`)
=====================================================

Files
  allowed.txt    {allowed} words: every five-letter word of ngerman (after transliteration)
  solutions.txt  {solutions} words: the commonest of them that look like base forms
  ngerman.txt    {ngerman} words: every five-letter word of ngerman, for `de-ext`
                 (`de-ext` = de plus ngerman.txt, as both solutions and allowed)

All lists: lowercase a-z, one word per line, sorted, trailing newline.

Sources
  Debian package wngerman {debian}, file /usr/share/dict/ngerman
    (upstream igerman98 by Björn Jacke, https://www.j3e.de/ispell/igerman98/;
    {lines} entries, sha256 {dict_sha256}).
    Licence: GPL-2+ (GNU General Public License, version 2 or later).
  PyPI package wordfreq {wordfreq} by Robyn Speer, word frequencies for "de" and "en"
    (https://github.com/rspeer/wordfreq). Licence: code Apache-2.0, data CC BY-SA 4.0
    (its README names the corpora the data comes from). Only the choice and ranking of
    the solutions comes from wordfreq; no frequency data is copied into these files.

Licence of these files
  The three lists are derived from ngerman and are distributed under the GPL-2+, like
  the dictionary they come from (the rest of raten is MIT). The choice of solutions is
  based on wordfreq frequencies (CC BY-SA 4.0, credited above).

How they were made (src/raten/wordlists/german.py)
  1. ngerman entries that are all lowercase or capitalised and consist of letters only
     (acronyms, mixed case and entries with other characters are dropped), lowercased,
     transliterated ä→ae, ö→oe, ü→ue, ß→ss, five letters long: allowed.txt ({transliterated}
     of them had an umlaut or ß). Words that are five letters only before
     transliteration (Größe) are not five-letter words in the game's alphabet and are left
     out everywhere.
  2. ngerman.txt holds the same words. `de-ext` takes them all as solutions; it uses the
     transliterated words, not only the ngerman words that are plain ASCII (as some other
     "Standard + ngerman" lists do), because the game transliterates (fuenf, kaese, muede
     are words like any other) and dropping umlaut words would leave an arbitrary hole.
  3. Solutions: words with wordfreq zipf >= {min_zipf} ({candidates} words), ranked by
     frequency (the frequencies of all ngerman spellings of a word added up). Left out,
     by the first rule that applies:
{excluded}
     The {solutions} commonest of the remaining {eligible} are the solutions; the rarest
     has zipf {lowest_zipf}.
  The rules can be wrong both ways: ngerman lists a word that is both noun and verb
  only once, in lowercase, so some nouns that look like verb forms are missing (Hetze,
  Robbe) and some plurals that head compound nouns are kept.

Rebuild
  apt-get install wngerman && pip install 'raten[build-words]'
  raten words build{dict_option} --solutions {solutions} --min-zipf {min_zipf}
"""

RULE_LABELS = {
    "listed": "hand-kept lists of proper names, foreign words and offensive words",
    "english": f"far commoner in English than in German (zipf difference >= {ENGLISH_MARGIN})",
    "adjective_form": "inflected adjectives and determiners (alten, jeder)",
    "verb_form": "finite verb forms, verb stems and past tense (kommt, finde, blieb)",
    "noun_form": "plurals and case forms of nouns (Jahre, Fotos, Tages, Züge)",
}


def notice_text(
    result: BuildResult,
    lex: Lexicon,
    dict_sha256: str,
    debian: str | None,
    wordfreq: str | None,
    dict_path: Path = DEFAULT_DICT,
) -> str:
    """The NOTICE that names sources, versions, licences and the command that rebuilds."""
    excluded = "\n".join(f"       {len(words):5d}  {RULE_LABELS[rule]}" for rule, words in result.excluded.items())
    return NOTICE_TEMPLATE.format(
        allowed=len(result.allowed),
        solutions=len(result.solutions),
        ngerman=len(result.ngerman),
        debian=debian or "(version unknown)",
        lines=lex.lines,
        dict_sha256=dict_sha256,
        wordfreq=wordfreq or "(version unknown)",
        transliterated=result.transliterated,
        min_zipf=result.min_zipf,
        candidates=result.candidates,
        excluded=excluded,
        eligible=result.eligible,
        lowest_zipf=f"{result.lowest_zipf:.2f}",
        dict_option="" if dict_path == DEFAULT_DICT else f" --dict {dict_path}",
    )


def write_lists(result: BuildResult, out: Path, notice: str) -> dict[str, Path]:
    """Write the three lists and NOTICE into OUT (created if missing)."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        paths = {name: out / f"{name}.txt" for name in ("solutions", "allowed", "ngerman")}
        write_list(paths["solutions"], result.solutions)
        write_list(paths["allowed"], set(result.allowed) | set(result.solutions))
        write_list(paths["ngerman"], result.ngerman)
        paths["NOTICE"] = out / "NOTICE"
        paths["NOTICE"].write_text(notice, encoding="utf-8")
    except OSError as e:
        raise RatenError(f"cannot write the word lists to {str(out)!r}: {e.strerror}") from None
    return paths


def build(
    dict_path: Path = DEFAULT_DICT,
    out: Path | None = None,
    n_solutions: int = DEFAULT_SOLUTIONS,
    min_zipf: float = DEFAULT_MIN_ZIPF,
    dry_run: bool = False,
) -> tuple[BuildResult, dict]:
    """Build the lists from DICT_PATH and wordfreq and (unless DRY_RUN) write them into OUT.

    Returns the result and a report for people and scripts (``written`` names the files).
    """
    lex = read_dictionary(dict_path)
    result = build_lists(lex, wordfreq_zipf(), solutions=n_solutions, min_zipf=min_zipf)
    report = result.summary()
    report["dictionary"] = {"path": str(dict_path), "entries": lex.lines, "dropped": lex.dropped}
    if not dry_run:
        debian = debian_version() if dict_path == DEFAULT_DICT else None
        notice = notice_text(result, lex, _sha256(dict_path), debian, wordfreq_version(), dict_path)
        out_dir = out if out is not None else default_out_dir()
        report["written"] = {name: str(p) for name, p in write_lists(result, out_dir, notice).items()}
    return result, report
