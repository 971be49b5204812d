"""The solver's answer on many boards (``POST /api/hints/boards``): each board's candidates and
the best next guesses over all boards, from ``raten.engine.boards``.

Rankings are kept in a small LRU cache keyed by the lists and their prior (``prior_key``) and
the rows (not by ``top`` or ``limit``), so the start position of each list and board count,
which everybody asks for first, is ranked once. Every board ranks under the query's prior (the
list's own unless it names another; en-nyt: frequency), as ``raten.engine.boards`` does.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from raten.engine.boards import Boards, BoardSplit, board_split, rank_boards, variant
from raten.engine.state import State
from raten.web.service import MAX_TOP, ListEntry, Lists

#: Rankings kept (each some kilobytes of JSON plus the candidate lists).
CACHE_ENTRIES = 256
#: Board statistics kept (each about 0.2 MB on en): a board's split is the same whatever the
#: other boards are, so the start (every board alike) and boards a new row leaves alone reuse it.
SPLIT_ENTRIES = 64


@dataclass(frozen=True)
class BoardsQuery:
    """One request: the list, the board count, the rows (guess, one pattern or None per board)
    and the prior (named: the list's own when the request names none)."""

    name: str
    boards: int
    rows: tuple[tuple[str, tuple[str | None, ...]], ...] = ()
    top: int = 10
    strategy: str = "entropy"
    limit: int = 100
    prior: str = "uniform"

    @property
    def key(self) -> tuple:
        return (self.name, self.boards, self.rows, self.strategy, self.prior)


_cache: OrderedDict[tuple, tuple[dict, list[list[str]]]] = OrderedDict()
_splits: OrderedDict[tuple, BoardSplit] = OrderedDict()
_lock = threading.Lock()


def cached_split(state: State) -> BoardSplit:
    """``board_split`` of one board, kept by its lists and candidates."""
    key = (state.words.prior_key, state.fallback, state.candidates.tobytes())
    with _lock:
        hit = _splits.get(key)
        if hit is not None:
            _splits.move_to_end(key)
            return hit
    found = board_split(state)
    with _lock:
        _splits[key] = found
        while len(_splits) > SPLIT_ENTRIES:
            _splits.popitem(last=False)
    return found


def rank(entry: ListEntry, query: BoardsQuery) -> tuple[dict, list[list[str]]]:
    """The answer before slicing (ranked ``MAX_TOP`` deep) and each board's candidates."""
    key = (entry.words.prior_key, *query.key)
    with _lock:
        hit = _cache.get(key)
        if hit is not None:
            _cache.move_to_end(key)
            return hit
    game = Boards.start(entry.start_state(query.prior).matrix, query.boards)
    for guess, patterns in query.rows:
        game = game.after(guess, list(patterns))
    v = variant(query.boards)
    ranked = [] if game.done else rank_boards(game, top=MAX_TOP, strategy=query.strategy, split=cached_split)
    hints = [h.to_dict() for h in ranked]
    answer = {
        "list": entry.name,
        "prior": query.prior,
        "boards": query.boards,
        "variant": v.name,
        "max_tries": v.limit,
        "turns": game.turns,
        "done": game.done,
        "board": [
            {"board": b + 1, "solved": s.solved, "solved_at": game.solved_at(b), "count": s.count}
            for b, s in enumerate(game.states)
        ],
        "hints": hints,
    }
    found = (answer, [s.candidate_words for s in game.states])
    with _lock:
        _cache[key] = found
        while len(_cache) > CACHE_ENTRIES:
            _cache.popitem(last=False)
    return found


def answer_json(entry: ListEntry, query: BoardsQuery) -> bytes:
    """The answer of ``POST /api/hints/boards`` as JSON bytes, cut to ``top`` and ``limit``."""
    answer, candidates = rank(entry, query)
    body = {
        **answer,
        "hints": answer["hints"][: query.top],
        "board": [{**b, "candidates": words[: query.limit]} for b, words in zip(answer["board"], candidates)],
    }
    return json.dumps(body, separators=(",", ":")).encode()


def cached(entry: ListEntry, query: BoardsQuery) -> bool:
    """Whether ``query``'s position is ranked already (then it is answered without queueing)."""
    with _lock:
        return (entry.words.prior_key, *query.key) in _cache


async def answer(entry: ListEntry, query: BoardsQuery, rank: Callable[[BoardsQuery], Awaitable[bytes]]) -> bytes:
    """The answer of one ``POST /api/hints/boards``: from the cache, else by ``rank`` (the
    server's work queue, which runs ``answer_for``)."""
    return answer_json(entry, query) if cached(entry, query) else await rank(query)


def answer_for(lists: Lists, query: BoardsQuery) -> bytes:
    """``answer_json`` for the query's list of ``lists`` (what a worker thread or process runs)."""
    return answer_json(lists.get(query.name), query)
