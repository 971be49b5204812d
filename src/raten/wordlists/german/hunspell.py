"""Expanding a hunspell German dictionary (Debian's frami one) into the five-letter word forms it accepts.

A hunspell dictionary stores stems with affix flags (``geh/DIXY``); the inflected forms
(ginge, gehst, Hunde, enger) exist only through the affix rules. ``unmunch`` (Debian's
hunspell-tools) writes out every stem with every affix, but it ignores the flags that
restrict a form to compounds (ONLYINCOMPOUND: "Abhol", "Mikro" as in Abholdienst) or to
affixed use (NEEDAFFIX), so it lists parts that are no words. ``hunspell -G`` (Debian's
hunspell), which applies every rule, then keeps only the forms it accepts as words.

The default is Debian's hunspell-de-de-frami (igerman98 extended by Franz Michael Baumann,
LibreOffice's German dictionary). Debian's hunspell-de-de is igerman98 20161207, the same
source and version as wngerman: its five-letter forms are wngerman's, plus two that frami
has too, and none of the loans games accept (chili, coach, joint); the two packages conflict.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from raten.engine.words import normalise
from raten.errors import RatenError

_FIVE = re.compile(r"[a-z]{5}")
_SET = re.compile(rb"^SET\s+(\S+)", re.M)
_INSTALL = "apt-get install hunspell-tools hunspell"


@dataclass(frozen=True)
class HunspellDict:
    """One hunspell dictionary: the path without .dic/.aff and the Debian package that ships it."""

    stem: Path
    package: str | None = None

    @property
    def dic(self) -> Path:
        return self.stem.with_suffix(".dic")

    @property
    def aff(self) -> Path:
        return self.stem.with_suffix(".aff")


DEFAULT_HUNSPELL = HunspellDict(Path("/usr/share/hunspell/de_DE_frami"), "hunspell-de-de-frami")


def from_path(path: str | Path) -> HunspellDict:
    """A dictionary given on the command line: the .dic or .aff file, or the path without them."""
    p = Path(path)
    stem = p.with_suffix("") if p.suffix in (".dic", ".aff") else p
    return DEFAULT_HUNSPELL if stem == DEFAULT_HUNSPELL.stem else HunspellDict(stem)


def _install(d: HunspellDict) -> str:
    return f"apt-get install {d.package}" if d.package else "pass another with --hunspell"


def encoding(d: HunspellDict) -> str:
    """The character set the .aff file's SET line names (hunspell's default ISO8859-1 without one)."""
    try:
        head = d.aff.read_bytes().removeprefix(b"\xef\xbb\xbf")  # a UTF-8 byte-order mark (pt_BR's)
    except OSError as e:
        raise RatenError(f"cannot read the hunspell affix file {str(d.aff)!r}: {e.strerror}; {_install(d)}") from None
    found = _SET.search(head)
    name = found.group(1).decode("ascii", "replace") if found else "ISO8859-1"
    try:
        "".encode(name)
    except LookupError:
        raise RatenError(f"{str(d.aff)!r} names an unknown character set {name!r}") from None
    return name


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise RatenError(f"expanding the hunspell dictionaries needs {name}: {_INSTALL}")
    return path


def _run(args: list[str], stdin: bytes = b"") -> bytes:
    """Run a tool and return its output; a failure is a RatenError naming the command."""
    done = subprocess.run(args, input=stdin, capture_output=True, check=False)
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no message"]
        raise RatenError(f"{Path(args[0]).name} failed (exit {done.returncode}): {message[0]}")
    return done.stdout


def five_letter(entries: list[str]) -> list[str]:
    """The entries that are five letters a-z after transliteration, sorted, each once."""
    return sorted({e for e in entries if _FIVE.fullmatch(normalise(e))})


def expand(d: HunspellDict) -> list[str]:
    """Every form of D that unmunch lists, is five letters after transliteration and that
    hunspell accepts as a word, in the dictionary's own spelling (Gieß, ginge), sorted."""
    if not d.dic.is_file():
        raise RatenError(f"hunspell dictionary {str(d.dic)!r} does not exist: {_install(d)}")
    charset = encoding(d)
    raw = _run([_tool("unmunch"), str(d.dic), str(d.aff)])
    candidates = five_letter(raw.decode(charset, "replace").splitlines())
    accepted = _accepted(d, charset, candidates)
    return [w for w in candidates if w in accepted]


def _accepted(d: HunspellDict, charset: str, words: list[str]) -> set[str]:
    """The ``words`` hunspell accepts with D (each written in D's character set)."""
    # -G prints only the words hunspell accepts; -p keeps a personal dictionary out of it
    checked = _run(
        [_tool("hunspell"), "-d", str(d.stem), "-i", charset, "-p", "/dev/null", "-G"],
        "".join(w + "\n" for w in words).encode(charset),
    )
    return set(checked.decode(charset).split())


def accepts(d: HunspellDict, spellings: Mapping[str, Iterable[str]]) -> set[str]:
    """The words (keys of ``spellings``) that D accepts in one of their spellings, as written or
    capitalised (nouns), through its affix and compound rules: what ``expand`` cannot list."""
    if not d.dic.is_file():
        raise RatenError(f"hunspell dictionary {str(d.dic)!r} does not exist: {_install(d)}")
    charset = encoding(d)
    forms: dict[str, str] = {}
    for word, written in spellings.items():
        for spelling in written:
            for form in (spelling, spelling[:1].upper() + spelling[1:]):
                try:
                    form.encode(charset)
                except UnicodeEncodeError:
                    continue  # a letter the dictionary cannot have: not one of its words
                forms[form] = word
    accepted = _accepted(d, charset, sorted(forms))
    return {forms[form] for form in accepted if form in forms}


def name_forms(d: HunspellDict) -> list[str]:
    """The five-letter forms (transliterated, sorted) of D's proper names: capitalised stems whose
    only flag is S, the genitive -s (Kevin/S, Sarah/S, Accra/S), so no plural, no compound and no
    other inflection. Common nouns have plural or compound flags (Hund/EPSTm); the rule also takes
    a few rare nouns without them (Aguti, Krill), which is why it only lowers their prior."""
    if not d.dic.is_file():
        raise RatenError(f"hunspell dictionary {str(d.dic)!r} does not exist: {_install(d)}")
    forms: set[str] = set()
    for line in d.dic.read_bytes().decode(encoding(d), "replace").splitlines()[1:]:
        stem, _, flags = line.strip().partition("/")
        if not (stem[:1].isupper() and stem[1:].islower() and stem.isalpha()) or set(flags) - {"S"}:
            continue
        for form in (stem, stem + "s") if flags else (stem,):
            word = normalise(form.lower())
            if _FIVE.fullmatch(word):
                forms.add(word)
    return sorted(forms)
