"""Building a list of any language and length from a Debian hunspell dictionary and wordfreq.

`raten words build --lang LANG --length L`:

- **allowed**: every word form the dictionary yields through its affix rules (``unmunch``,
  Debian's hunspell-tools, streamed: Portuguese gives 83 million lines), and every word of
  wordfreq's list of the language (unmunch does not follow every rule: French verbs, whose
  flags are two letters long, give no form), that hunspell accepts as a word (``hunspell -G``,
  which applies every rule; German nouns as capitalised) and that is L letters
  of the language's letters once written its way (``languages.py``); letters only (no
  hyphen, apostrophe or digit), and outside German no capital letter (proper names and
  abbreviations: Paris, NASA);
- **solutions**: the dictionary's own entries (its base forms: PLANET, not PLANETS) among the
  allowed words, no proper name (a capitalised entry outside German; in German one whose only
  affix flag is S, the genitive, as Kevin/S and Aachen/Sm), commonest first by wordfreq's zipf frequency of
  their commonest spelling, at least ``MIN_ZIPF``, about 2,000 (``solutions_wanted``); no slur
  or vulgar word (``offensive/LANG.txt``, kept by hand: they stay allowed guesses).

The same dictionary and wordfreq give the same bytes (``tests/wordlists/test_built_lists.py``
rebuilds every shipped list where the dictionaries are installed); the NOTICE written beside
the lists names the package versions, the files' checksums and the licences.
"""

from __future__ import annotations

import codecs
import re
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from raten.engine.feedback import MAX_LENGTH, MIN_LENGTH
from raten.errors import RatenError
from raten.wordlists.german.hunspell import HunspellDict, encoding
from raten.wordlists.german.hunspell import _accepted as accepted_by
from raten.wordlists.german.notice import debian_version, file_sha256, wordfreq_version
from raten.wordlists.languages import LANGUAGES, Language, list_name, solutions_wanted

#: The rarest a solution may be (zipf: 2.5 is about three in a billion words of text).
MIN_ZIPF = 2.5
_INSTALL = "apt-get install hunspell-tools hunspell"


@dataclass
class BuiltList:
    """What a build made: the lists, and what it took to make them."""

    name: str
    lang: str
    length: int
    allowed: list[str]
    solutions: list[str]
    forms: int = 0  #: unmunch's lines read
    candidates: int = 0  #: forms of the length in the language's letters, before hunspell's check
    entries: int = 0  #: dictionary entries (base forms) among the allowed words, names left out
    eligible: int = 0  #: of those, at least MIN_ZIPF common
    lowest_zipf: float = 0.0
    names: list[str] = field(default_factory=list)  #: entries left out as proper names (some)

    def report(self) -> dict:
        return {
            "list": self.name,
            "language": self.lang,
            "length": self.length,
            "allowed": len(self.allowed),
            "solutions": len(self.solutions),
            "forms_read": self.forms,
            "candidates": self.candidates,
            "entries": self.entries,
            "eligible": self.eligible,
            "lowest_zipf": round(self.lowest_zipf, 2),
        }


def language(lang: str) -> Language:
    try:
        return LANGUAGES[lang]
    except KeyError:
        raise RatenError(f"unknown language {lang!r}: one of {', '.join(LANGUAGES)}", "unknown_language") from None


def _dictionary(lang: Language) -> HunspellDict:
    d = HunspellDict(lang.stem, lang.package)
    if not d.dic.is_file():
        raise RatenError(f"the {lang.name} dictionary {str(d.dic)!r} is missing: apt-get install {lang.package}")
    return d


def _spelled(lang: Language, length: int, form: str) -> str | None:
    """``form`` written the list's way if it is a word of ``length`` letters of the language's
    letters (no capital outside German, no all-capitals), else None."""
    if not form.isalpha() or 2 * len(form) < length or len(form) > 2 * length:
        return None
    if lang.nouns_capitalised:
        if len(form) > 1 and not form[1:].islower():
            return None
    elif not form.islower():
        return None
    norm = lang.alphabet.normalise(form)
    if len(norm) != length or any(c not in lang.alphabet.letters for c in norm):
        return None
    return norm


def _fits(word: str, charset: str) -> bool:
    """Whether the dictionary's character set can write ``word`` (else it is none of its words)."""
    try:
        word.encode(charset)
    except UnicodeEncodeError:
        return False
    return True


def _plausible(charset: str, length: int) -> re.Pattern[bytes]:
    """The lines of unmunch's output that ``_spelled`` may keep: half to twice ``length``
    characters between ASCII blanks, none inside, counted in bytes (a character of UTF-8 is a
    lead byte and its continuation bytes). A C-speed scan: unmunch writes 83 million lines for
    Portuguese, and deciding each one in Python took minutes."""
    low, high = (length + 1) // 2, 2 * length
    char = rb"[^\s\x80-\xbf][\x80-\xbf]*" if codecs.lookup(charset).name == "utf-8" else rb"[^\s]"
    return re.compile(rb"^[ \t\r\f\v]*((?:%b){%d,%d})[ \t\r\f\v]*$" % (char, low, high), re.MULTILINE)


def _unmunch(d: HunspellDict, charset: str, length: int) -> Iterator[tuple[int, list[str]]]:
    """unmunch's output for ``d`` block by block, streamed (not held: a dictionary can give tens
    of millions of lines): each block's number of lines and those of them that may be words of
    ``length`` letters, decoded."""
    tool = shutil.which("unmunch")
    if tool is None:
        raise RatenError(f"expanding the hunspell dictionaries needs unmunch: {_INSTALL}")
    plausible = _plausible(charset, length)

    def lines_of(block: bytes) -> tuple[int, list[str]]:
        found = [m.group(1).decode(charset, "replace").strip() for m in plausible.finditer(block)]
        return block.count(b"\n"), found

    with subprocess.Popen([tool, str(d.dic), str(d.aff)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL) as p:
        assert p.stdout is not None
        rest = b""
        while block := p.stdout.read(1 << 20):
            data = rest + block
            cut = data.rfind(b"\n") + 1  # whole lines now, the next one's start later
            rest = data[cut:]
            yield lines_of(data[:cut])
        if rest:
            yield lines_of(rest + b"\n")
    if p.returncode:
        raise RatenError(f"unmunch failed on {d.dic} (exit {p.returncode})")


def _entries(d: HunspellDict, charset: str) -> Iterator[tuple[str, str]]:
    """(word, affix flags) of every entry of the .dic file (its first line is the count)."""
    for line in d.dic.read_bytes().decode(charset, "replace").splitlines()[1:]:
        head = line.split(maxsplit=1)[0] if line.strip() else ""
        word, _, flags = head.partition("/")
        if word:
            yield word, flags


def build(lang_key: str, length: int, min_zipf: float = MIN_ZIPF, solutions: int | None = None) -> BuiltList:
    """The lists of ``lang_key`` at ``length`` letters (see the module's text)."""
    if not MIN_LENGTH <= length <= MAX_LENGTH:
        raise RatenError(f"--length must be {MIN_LENGTH} to {MAX_LENGTH}, not {length}")
    lang = language(lang_key)
    d = _dictionary(lang)
    charset = encoding(d)
    spellings: dict[str, set[str]] = {}
    forms = 0
    for lines, plausible in _unmunch(d, charset, length):
        forms += lines
        for form in plausible:
            norm = _spelled(lang, length, form)
            if norm is not None:
                spellings.setdefault(norm, set()).add(form)
    # wordfreq's words too: unmunch does not follow every affix rule (French verbs, FLAG long), and
    # a form hunspell accepts is the dictionary's even so (German nouns capitalised: hund as Hund)
    for word in _vocabulary(lang.code):
        norm = _spelled(lang, length, word)
        if norm is not None:
            capital = [word[:1].upper() + word[1:]] if lang.nouns_capitalised else []
            spellings.setdefault(norm, set()).update([word, *capital])
    # the entries too: unmunch writes a stem only when its flags allow it bare, hunspell decides
    names: set[str] = set()
    bases: dict[str, set[str]] = {}
    for word, flags in _entries(d, charset):
        norm = _spelled(lang, length, word)
        if norm is None:
            continue
        if lang.nouns_capitalised and word[:1].isupper() and not {f for f in flags if f.isupper()} - {"S"}:
            # Kevin/S, Aachen/Sm, Moldau/m: no inflection but the genitive, a proper name (nouns have
            # plural flags: Schere/Nm, Effekt/EPSTm); a noun whose plural is itself goes too (Kissen/Smij)
            names.add(word)
            continue
        bases.setdefault(norm, set()).add(word)
        spellings.setdefault(norm, set()).add(word)
    # hunspell's word: a form as written (``aachen``, a lowercase entry for compounds only, is none)
    ok = accepted_by(d, charset, sorted({s for written in spellings.values() for s in written if _fits(s, charset)}))
    accepted = {norm for norm, written in spellings.items() if written & ok}
    allowed = sorted(accepted)
    zipf = _wordfreq().zipf_frequency
    offensive = _offensive(lang)
    scored = []
    for norm in sorted(bases):
        if (
            bases[norm] & ok and norm not in offensive
        ):  # the entry itself a word (not only in compounds: German aachen/Sozm)
            scored.append((max(zipf(s, lang.code) for s in sorted(spellings[norm])), norm))
    eligible = sorted((s for s in scored if s[0] >= min_zipf), key=lambda s: (-s[0], s[1]))
    chosen = eligible[: solutions or solutions_wanted(length)]
    return BuiltList(
        name=list_name(lang_key, length),
        lang=lang_key,
        length=length,
        allowed=allowed,
        solutions=sorted(w for _, w in chosen),
        forms=forms,
        candidates=len(spellings),
        entries=len(scored),
        eligible=len(eligible),
        lowest_zipf=chosen[-1][0] if chosen else 0.0,
        names=sorted(names)[:20],
    )


def _offensive(lang: Language) -> set[str]:
    """The slurs and vulgar words of ``offensive/LANG.txt``, written the list's way."""
    text = (resources.files("raten.wordlists") / "offensive" / f"{lang.code}.txt").read_text(encoding="utf-8")
    lines = (line.split("#", 1)[0] for line in text.splitlines())
    return {lang.alphabet.normalise(w) for line in lines for w in line.split()}


def _wordfreq():
    """The wordfreq module, or a clear error."""
    try:
        import wordfreq
    except ImportError:
        raise RatenError("building word lists needs wordfreq: pip install wordfreq") from None
    return wordfreq


def _vocabulary(code: str) -> list[str]:
    """wordfreq's words of a language (its whole list, commonest first)."""
    return list(_wordfreq().get_frequency_dict(code))


def notice(built: BuiltList) -> str:
    """The NOTICE written beside a built list: where every word came from, and the licences."""
    lang = language(built.lang)
    d = HunspellDict(lang.stem, lang.package)
    return f"""The {built.name} word lists ({lang.name}, {built.length} letters): {len(built.solutions)} solutions, \
{len(built.allowed)} allowed words.

Built by `raten words build --lang {built.lang} --length {built.length}` (raten.wordlists.hunspell_lists) from:

- {d.dic.name} and {d.aff.name} of the Debian package {lang.package} {debian_version(lang.package) or "?"}
  (sha256 {file_sha256(d.dic)} and {file_sha256(d.aff)}),
  licence: {lang.licence}; expanded through its affix rules by unmunch and checked by hunspell
  -G (Debian's hunspell-tools and hunspell);
- word frequencies of wordfreq {wordfreq_version() or "?"} (code Apache-2.0, data CC BY-SA 4.0), by Robyn Speer.

allowed.txt: every word form of {built.length} letters the dictionary accepts, in its letters
({lang.alphabet.spelled()}; {lang.alphabet.folding()}), no capitalised form{
        " other than German nouns" if lang.nouns_capitalised else ""
    } ({built.forms} forms read, {built.candidates} of the length before hunspell's check).
solutions.txt: the {len(built.solutions)} commonest of the dictionary's {built.entries} entries of that length
(base forms; proper names, slurs and vulgar words left out), at least {MIN_ZIPF} on wordfreq's zipf
scale (the rarest {built.lowest_zipf:.2f}).

The lists are a derived work of the dictionary and carry its licence; wordfreq's data only ranks them.
"""


def write(built: BuiltList, out: Path) -> dict[str, str]:
    """Write solutions.txt, allowed.txt and NOTICE into ``out`` (made if missing)."""
    out.mkdir(parents=True, exist_ok=True)
    files = {
        "solutions": "\n".join(built.solutions) + "\n",
        "allowed": "\n".join(built.allowed) + "\n",
    }
    written = {}
    for part, text in files.items():
        path = out / f"{part}.txt"
        path.write_text(text, encoding="utf-8")
        written[part] = str(path)
    (out / "NOTICE").write_text(notice(built), encoding="utf-8")
    written["notice"] = str(out / "NOTICE")
    return written
