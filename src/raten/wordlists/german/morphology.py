"""The rules that pick base forms of common words out of the dictionary, for the solutions.

Inflected forms, plurals, verb forms, English words and proper names are left out by
rules that use only what the two sources know: a word's neighbours in ngerman (does the
stem also take -em, is there a genitive in -s, is it the head of a compound noun) and how
often wordfreq has seen the word and its stem. The frequency source is a function
``zipf(word, lang)`` so tests can pass a fake one instead of wordfreq. What no rule can
tell (names, foreign words, offensive words) is listed by hand in the package's text files.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable
from importlib import resources

from raten.wordlists.german.dictionary import Lexicon

# A word wordfreq knows this much better in English than in German is taken as English.
ENGLISH_MARGIN = 1.5

Zipf = Callable[[str, str], float]
"""A frequency source: ``zipf(word, lang)`` on the zipf scale (log10 per billion words)."""

_ADJ_ENDINGS = ("e", "en", "em", "er", "es")
_UMLAUT_BACK = (("aeu", "au"), ("ae", "a"), ("oe", "o"), ("ue", "u"))
_LINKS = ("", "s", "n", "e", "en", "es", "er", "ens")
_SUFFIXES = ("schaft", "heit", "keit", "ung", "tum", "nis")  # derive nouns from verbs: Machenschaft


def hand_list(name: str) -> frozenset[str]:
    """The words of one of the package's hand-kept lists (``#`` starts a comment)."""
    text = resources.files("raten.wordlists.german").joinpath(name).read_text(encoding="utf-8")
    return frozenset(word for line in text.splitlines() for word in line.split("#", 1)[0].split())


# Kept by hand, for what neither source can tell: a name from a noun, a foreign word the
# English rule misses, a slur. Each file's header says what belongs in it.
NAMES = hand_list("names.txt")
FOREIGN = hand_list("foreign.txt")
OFFENSIVE = hand_list("offensive.txt")


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


# The rules in the order `Morphology.exclusion` tries them: the first that applies gives the reason.
RULES = ("listed", "english", "adjective_form", "verb_form", "noun_form")

RULE_LABELS = {
    "listed": "hand-kept lists of proper names, foreign words and offensive words",
    "english": f"far commoner in English than in German (zipf difference >= {ENGLISH_MARGIN})",
    "adjective_form": "inflected adjectives and determiners (alten, jeder)",
    "verb_form": "finite verb forms, verb stems and past tense (kommt, finde, blieb)",
    "noun_form": "plurals and case forms of nouns (Jahre, Fotos, Tages, Züge)",
}
"""What each rule leaves out, in words for the NOTICE and `raten words build`."""
