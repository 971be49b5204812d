"""Compile the numba kernels the suite uses into numba's cache, ahead of the tests.

`make test` runs this in the background while it installs the browser and lints, and waits for
it before pytest: on a fresh clone the first browser test's server compiled them inside the
test (67 s of its setup, against 8 s with a warm cache). The work is what the tests do first:
the web app the browser tests serve, then ``raten.warm`` (what ``raten cache warm`` runs:
rankings in both modes and under a prior, the exact search, a simulation and the look-ahead).
It writes nothing but numba's cache (the feedback tables go to a temporary folder) and a stamp
in the cache's folder, and prints ``warm`` when it is done. With the stamp there (this script,
``raten.warm``, numba and Python as they were) it prints
``warm`` at once: `make check` runs it every time, and the work (building the lists' tables,
ranking their openers) took 7 CPU seconds here even with nothing left to compile. The folder
is named by a digest of the kernel sources (raten.engine.jitcache), so a changed kernel finds
no stamp and is compiled again.
"""

from __future__ import annotations

import hashlib
import os
import platform
import sys
import tempfile
import traceback
from pathlib import Path

STAMP = "warm-kernels.stamp"


def stamp_text() -> str:
    """What the stamp says: the digest of this script and of ``raten.warm``, numba's version,
    Python's, the machine."""
    import numba

    import raten.warm

    work = Path(__file__).read_bytes() + Path(raten.warm.__file__).read_bytes()
    digest = hashlib.sha256(work).hexdigest()[:16]
    return f"{digest} numba {numba.__version__} python {sys.version.split()[0]} {platform.machine()}\n"


def main() -> None:
    """Run the work once; any error is printed and leaves the cache as it is (tests compile)."""
    from raten.engine import jitcache

    stamp = jitcache.cache_folder() / STAMP
    if stamp.exists() and stamp.read_text() == stamp_text():
        print("warm")
        return
    with tempfile.TemporaryDirectory(prefix="raten-warm-") as tmp:
        os.environ["RATEN_CACHE_DIR"] = tmp
        from raten.warm import warm
        from raten.web import create_app
        from raten.web.service import Lists
        from raten.wordlists.presets import load_words

        lists = Lists.load({"en": load_words("en"), "de": load_words("de")})
        create_app(lists=lists, db_path=Path(tmp) / "warm.sqlite3", daily_secret="warm")
        warm(("en", "de"))  # what `raten cache warm` (and `make install`) compiles
    stamp.parent.mkdir(parents=True, exist_ok=True)
    stamp.write_text(stamp_text())
    print("warm")


if __name__ == "__main__":
    try:
        main()
    except Exception:  # the whole traceback into the log: the tests then compile what they need
        traceback.print_exc()
        sys.exit(1)
