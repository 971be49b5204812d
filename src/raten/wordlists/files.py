"""Reading word lists from text files, with every failure a message that names the file."""

from __future__ import annotations

from pathlib import Path

from raten.engine.words import normalise_list
from raten.errors import RatenError


def read_text(path: str | Path, what: str = "word list", missing_hint: str = "") -> str:
    """A UTF-8 text file's content (a byte-order mark, as Windows editors write, is dropped);
    every way of failing becomes a RatenError naming ``what``."""
    p = Path(path)
    try:
        return p.read_text(encoding="utf-8-sig")
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
