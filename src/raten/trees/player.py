"""Following a decision tree in a game: the next guess for a history, off-tree moves explained.

``load_tree(path, words).next_guess(state)`` plays a tree file that ``raten tree`` wrote;
the tree itself and its file format are ``raten.trees.model``.
"""

from __future__ import annotations

from pathlib import Path

from raten.engine.feedback import format_pattern
from raten.engine.hardmode import violation
from raten.engine.words import WordSet
from raten.errors import RatenError
from raten.trees.model import Tree, moves_text, tree_path


class TreePlayer:
    """Follows a checked tree: the next guess for a game's history."""

    def __init__(self, tree: Tree, words: WordSet, source: str = "tree"):
        tree.check(words, source)
        self.tree = tree
        self.words = words
        self.source = source
        self._next = tree.next_table()

    def guess_for(self, history) -> str:
        """The tree's guess after ``history`` ((guess, pattern code) pairs); RatenError off the tree."""
        hist = tuple((str(g).lower(), int(c)) for g, c in history)
        if hist and hist[-1][1] == self.words.all_green:
            raise RatenError("the game is already solved")
        if hist in self._next:
            return self._next[hist]
        i = 0
        while i < len(hist) and hist[: i + 1] in self._next:
            i += 1
        prefix = hist[:i]
        expected = self._next.get(prefix)
        g, c = hist[i]
        if expected is not None and expected != g:
            raise RatenError(
                f"the game left the tree ({self.source}): after {moves_text(prefix)} the tree guesses "
                f"{expected.upper()}, not {g.upper()}"
            )
        shown = format_pattern(c, length=self.words.length)
        raise RatenError(
            f"the game left the tree ({self.source}): no solution shows {shown} for "
            f"{g.upper()} after {moves_text(prefix)}"
        )

    def next_guess(self, state) -> str:
        """The tree's next guess for a ``State`` (its history); checked for hard mode when the state is hard."""
        guess = self.guess_for(state.history)
        if getattr(state, "hard", False):
            reason = violation(guess, state.history)
            if reason:
                raise RatenError(
                    f"the tree ({self.source}) is for normal mode: its guess {guess.upper()} breaks hard mode "
                    f"({reason}); build one with `raten tree --hard`"
                )
        return guess

    def __call__(self, state) -> str:
        return self.next_guess(state)


_PLAYERS: dict[tuple, TreePlayer] = {}


def load_tree(path: str | Path, words: WordSet) -> TreePlayer:
    """Read, check and prepare a tree file for ``words`` (RatenError if it does not fit them).

    Kept per file (and its modification time) and word lists, since a game asks once a turn.
    """
    p = tree_path(path)
    try:
        key = (str(p.resolve()), p.stat().st_mtime_ns, words.fingerprint)
    except OSError:
        key = None
    if key is not None and key in _PLAYERS:
        return _PLAYERS[key]
    player = TreePlayer(Tree.read(p), words, source=str(path))
    if key is not None:
        if len(_PLAYERS) >= 8:
            _PLAYERS.clear()
        _PLAYERS[key] = player
    return player
