"""What the tests of several nodes and of games that travel share: a small list each node loads
on its own, rates no test reaches, and a game's answer read straight from the database."""

from __future__ import annotations

from raten.engine.words import WordSet
from raten.web.limits import Policy
from raten.web.service import Lists
from raten.web.store.core import connect

ROOMY = Policy(
    address="10000/second", player="10000/second", work="10000/second", new_player="10000/second",
    transfer="10000/second",
)  # fmt: skip


def small_lists(en_words: WordSet) -> Lists:
    """A node's own lists: 60 of en's solutions, 120 allowed words (each node ranks and caches on its own)."""
    words = WordSet.from_lists(en_words.solutions[:60], en_words.allowed[:120], name="small", language="en")
    return Lists.load({"small": words})


def answer_of(target, game_id: str) -> str:
    """A game's answer, read from the database (``target``: a SQLite file or a PostgreSQL URL)."""
    engine = connect(target)
    try:
        return engine.read("SELECT answer FROM games WHERE id = ?", (game_id,))[0][0]
    finally:
        engine.close()
