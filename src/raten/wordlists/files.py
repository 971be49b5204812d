"""Reading word lists from text files, with every failure a message that names the file."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from raten.engine.alphabet import LATIN, Alphabet
from raten.engine.words import normalise_list
from raten.errors import RatenError

#: The largest word file read (bytes): about 2.8 million five-letter words, room for the big
#: lists an analyst tries (the feedback table's own limit refuses those in time, naming its
#: size); beyond is no word list (``/dev/zero``, a disk image) and would only fill the memory.
MAX_FILE_BYTES = 16 * 1024 * 1024


def read_text(
    path: str | Path, what: str = "word list", missing_hint: str = "", max_bytes: int = MAX_FILE_BYTES
) -> str:
    """A UTF-8 text file's content (a byte-order mark, as Windows editors write, is dropped);
    every way of failing becomes a RatenError naming ``what``. Only a regular file of at most
    ``max_bytes`` is read: a FIFO would block for ever and a device could be endless."""
    p = Path(path)
    try:
        mode = os.stat(p).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError
        if not stat.S_ISREG(mode):
            raise RatenError(f"{what} {str(p)!r} is not a regular file (a pipe, a device or a socket)")
        with open(p, "rb") as f:  # the size is read, not trusted from stat: the file may grow meanwhile
            data = f.read(max_bytes + 1)
        if len(data) > max_bytes:
            raise RatenError(f"{what} {str(p)!r} is larger than {max_bytes // 1024} KiB: that is no word list")
        return data.decode("utf-8-sig")
    except FileNotFoundError:
        raise RatenError(f"{what} {str(p)!r} does not exist{missing_hint}") from None
    except IsADirectoryError:
        raise RatenError(f"{what} {str(p)!r} is a directory, not a file") from None
    except UnicodeDecodeError:
        raise RatenError(f"{what} {str(p)!r} is not UTF-8 text") from None
    except OSError as e:
        raise RatenError(f"cannot read {what} {str(p)!r}: {e.strerror}") from None


def read_word_file(path: str | Path, length: int | None = None, alphabet: Alphabet = LATIN) -> tuple[str, ...]:
    """Read one word per line (blank lines and ``#`` comments skipped), normalised in ``alphabet``
    and sorted; every word ``length`` letters long (None: as long as the first)."""
    p = Path(path)
    text = read_text(p)
    lines = [line.split("#", 1)[0] for line in text.splitlines()]
    words = normalise_list(lines, source=str(p), length=length, alphabet=alphabet)
    if not words:
        raise RatenError(f"word list {str(p)!r} has no words")
    return words
