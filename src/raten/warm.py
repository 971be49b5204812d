"""Compile raten's numba kernels ahead, so the first real command is fast (issue 27 item 13).

On a fresh install numba compiles each kernel the first time it runs: the first ``raten tree
--opener salet`` was silent for about 100 s, the first opener ranking of a big list for half a
minute. :func:`warm` runs the work that compiles them into numba's cache (a folder named by a
digest of the kernel sources, :mod:`raten.engine.jitcache`): the rankings of a big and a small
table in both modes and under a prior, the exact search of a small list (plain and weighted, with
and without a limit, normal and hard; SALET's tree on ``en``), and games played by the entropy
and look-ahead strategies. With a warm cache it only loads them (a few seconds). ``raten cache
warm`` calls it, and so does ``make install``. The word lists' pattern tables are built on the
way, into the matrix cache (``RATEN_CACHE_DIR``), where the first real command would have built
them.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

#: A tiny list for the exact search: its kernels are the same whatever the list's size.
_TINY_SOLUTIONS = ["crane", "slate", "trace", "crate", "react", "caret"]
_TINY_ALLOWED = ["salet", "roate"]


def warm(lists: tuple[str, ...] = ("en", "de"), say: Callable[[str], None] | None = None) -> float:
    """Run the work that compiles every kernel: ``lists`` are the presets ranked (the last one also
    under its frequency prior, and played); ``say`` hears a line per step. Returns the wall
    seconds it took."""
    from raten.engine.state import State
    from raten.engine.words import WordSet
    from raten.play.simulate import play_answers
    from raten.trees.opener import OpenerProof
    from raten.trees.search import Searcher
    from raten.wordlists.presets import load_words

    tell = say or (lambda _text: None)
    start = time.perf_counter()
    loaded = [load_words(name) for name in lists]
    for words in loaded:
        tell(f"ranking {words.name}'s openers and a second guess, normal and hard mode")
        for hard in (False, True):
            state = State(words, hard=hard)
            state.hints(top=5)
            state.after(state.hints(top=1)[0].word, 0).hints(top=5)
        # no solution fits (an allowed word shown all green): the fallback's own table and ranking
        other = next((w for w in words.allowed if w not in set(words.solutions)), None)
        if other is not None:
            State(words).after(other, 242).hints(top=5)
    if loaded:
        tell(f"ranking under {lists[-1]}'s frequency prior")
        State(load_words(lists[-1], prior="frequency")).hints(top=5)
    tiny = WordSet.from_lists(_TINY_SOLUTIONS, _TINY_ALLOWED, name="warm")
    tell("the exact search (plain and weighted, with and without a limit, normal and hard mode)")
    for words in (tiny, tiny.with_prior("warm", np.array([3.0, 1.0, 1.0, 2.0, 1.0, 1.0]))):
        for hard, limit in ((False, None), (True, 4)):
            Searcher(words, hard=hard, max_guesses=limit).solve_opener("salet")
            OpenerProof(words, "salet", hard=hard, max_guesses=limit).run()
    tell("the guarantee's feasibility search (normal and hard mode)")
    from raten.trees.safety import Guarantee

    for hard in (False, True):
        Guarantee(tiny, hard=hard, limit=4, memo_bits=10).judge((), list(tiny.allowed))
    if "en" in lists:  # a real list's groups reach the level bounds a tiny one never needs (2 s)
        tell("the exact tree of SALET on en")
        OpenerProof(loaded[lists.index("en")], "salet").run()
    if loaded:
        tell("games played by the entropy and look-ahead strategies")
        for strategy in ("entropy", "lookahead"):
            play_answers(loaded[-1], loaded[-1].solutions[:3], strategy)
    return time.perf_counter() - start
