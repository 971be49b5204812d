"""The strategy registry: one interface (state → ranked hints, state → next guess) for every
way of choosing a guess, so `hint`, `solve` and `bench` all play the same strategies.

The seven ranking strategies delegate to ``raten.engine.rank``, so a benchmark plays exactly the
guesses `raten hint --strategy NAME` shows. Names:

- the keys of ``raten.engine.rank.STRATEGIES``: entropy, partitions, expected, minimax, frequency,
  candidates-entropy, lookahead;
- ``lookahead:K``: look-ahead re-ranking the top K (default ``raten.engine.rank.LOOKAHEAD_K``);
- ``tree:FILE``: follow a decision tree file from ``raten tree`` (bench only; loaded lazily);
- ``all`` (where a list is asked for): the seven ranking strategies.

``guarded`` wraps a ranking strategy in the guarantee (``raten.trees.safety``): it plays the
first of the strategy's guesses that keeps every covered word within the limit.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from raten.engine.rank import LOOKAHEAD_K, Hint, parse_strategy, rank
from raten.engine.rank import STRATEGIES as RANKINGS
from raten.errors import RatenError


class Strategy(Protocol):
    """Anything that picks the next guess for a ``State``; ``name`` and ``description`` are
    only read (a frozen dataclass's fields satisfy them)."""

    @property
    def name(self) -> str: ...

    @property
    def description(self) -> str: ...

    def next_guess(self, state) -> str:
        """The word to guess next."""
        ...


@dataclass(frozen=True)
class RankingStrategy:
    """A strategy that ranks guesses with ``raten.engine.rank`` (the same ranking `raten hint` shows)."""

    name: str
    description: str

    def rank(self, state, top: int = 5) -> list[Hint]:
        """The best ``top`` guesses, best first."""
        return rank(state, top=top, strategy=self.name)

    def next_guess(self, state) -> str:
        """The best guess."""
        return self.rank(state, top=1)[0].word


@dataclass
class TreeStrategy:
    """Follows a decision tree file; the tree module is imported only when one is used."""

    path: Path
    words: Any
    name: str = ""
    description: str = "follow a decision tree file"
    _tree: Any = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if not self.name:
            self.name = f"tree:{self.path}"

    def next_guess(self, state) -> str:
        """The tree's guess for this history."""
        if self._tree is None:
            from raten.trees.player import load_tree

            self._tree = load_tree(self.path, self.words)
        return self._tree.next_guess(state)


#: How many of the strategy's guesses the guarantee looks at before it searches for its own.
GUARDED_RANKED = 20
#: The version of ``GuardedStrategy``'s decision rule, kept in each opening book's key (a book of
#: another rule is not read): 2, at run time one work for a whole decision, over every coverage
#: it tries, building a book the whole work for each (1: each had the whole work at run time too).
DECISION_RULE = 2


@dataclass
class GuardedStrategy:
    """A ranking strategy under the guarantee: its first safe guess, else the search's safe guess,
    else the guess with the least worst case (``raten.trees.safety.Guarantee.choose``)."""

    base: RankingStrategy
    limit: int
    over: str
    work: int | None = None  #: the work one decision may do (None: ``safety.WORK``, the opener's ``OPENER_WORK``)
    book: Any = None  #: the opening book to read (None: the shipped one of the list, if any)
    _guarantees: dict[tuple[str, bool, str], Any] = field(default_factory=dict, repr=False)
    #: The opener's decision once made and those after it (a book made at run time: a list
    #: without a shipped one would otherwise decide its opener again for every game)
    _early: dict[tuple, Any] = field(default_factory=dict, repr=False)

    @property
    def name(self) -> str:
        return self.base.name

    @property
    def description(self) -> str:
        return f"{self.base.description}, never risking a game past {self.limit} guesses ({self.over} words)"

    def guarantee(self, state, over: str | None = None) -> Any:
        """The ``Guarantee`` of the state's lists and mode over ``over`` (default: the strategy's),
        built once, its memo kept."""
        over = over or self.over
        key = (state.words.prior_key, state.hard, over)
        if key not in self._guarantees:
            from raten.trees.safety import Guarantee

            self._guarantees[key] = Guarantee(state.words, hard=state.hard, limit=self.limit, over=over)
        return self._guarantees[key]

    def rank(self, state, top: int = 5) -> list[Hint]:
        return self.base.rank(state, top=top)

    def book_key(self, state) -> Any:
        """What this strategy's decisions on ``state``'s lists and mode depend on (a book's key)."""
        from raten.trees.book import BookKey
        from raten.trees.safety import OPENER_WORK, WORK

        later = WORK if self.work is None else self.work
        opener = OPENER_WORK if self.work is None else self.work
        return BookKey(
            state.words.prior_key,
            state.hard,
            self.limit,
            self.over,
            self.base.name,
            GUARDED_RANKED,
            later,
            opener,
            DECISION_RULE,
        )

    def decide(self, state, use_book: bool = True) -> Any:
        """The guess to play and its verdict (a ``raten.trees.book.Decision``): the first two
        moves from the shipped opening book where one matches, every other move searched
        (``use_book`` False: building a book, the opener with ``OPENER_WORK``)."""
        from raten.trees.book import shipped_book

        key = self.book_key(state)
        if use_book and len(state.history) <= 1:
            book = self.book if self.book is not None else shipped_book(state.words, key)
            found = book.decision(state.history) if book is not None and book.key == key else None
            if found is not None:
                return found
        early = self._early_key(key, use_book, state.history)
        if early in self._early:
            return self._early[early]
        decision = self._decide(state, key, use_book)
        if early is not None:
            self._early[early] = decision
        return decision

    def _early_key(self, key: Any, use_book: bool, history) -> tuple | None:
        """Where ``_early`` keeps the decision of ``history``: the opener's, and those after the
        strategy's own opener (at most one a pattern, whatever openers a server's clients type)."""
        if not history:
            return (key, use_book, ())
        opener = self._early.get((key, use_book, ()))
        return (key, use_book, history) if len(history) == 1 and opener and history[0][0] == opener.word else None

    def _decide(self, state, key: Any, use_book: bool) -> Any:
        """The decision of ``decide`` searched: the widest coverage with a safe guess."""
        from raten.trees.book import Decision
        from raten.trees.safety import narrower, wider

        ranked = [h.word for h in self.base.rank(state, top=GUARDED_RANKED)]
        start = self.over
        if not len(self.guarantee(state, start).candidates(state.history)):
            # no covered word fits: keep the next wider coverage that has one safe instead
            start = next(
                (w for w in wider(start, state.words) if len(self.guarantee(state, w).candidates(state.history))), start
            )
        fallback = None
        # the opener's larger work only offline, building a book; a list without one (another
        # length's, a file's) decides its opener at run time with a later decision's work
        work = key.opener_work if not state.history and not use_book else key.work
        left = work
        steps = narrower(start, state.words)
        for i, over in enumerate(steps):  # the widest coverage that has a safe guess here
            # at run time one work for the whole decision: each coverage but the narrowest may use
            # half of what the wider ones left, so a narrower one has its turn; building a book
            # (offline, once) each coverage has the whole work
            last = i == len(steps) - 1
            share = (left if last else max(1, left // 2)) if use_book else work
            guarantee = self.guarantee(state, over)
            before = guarantee.cells
            choice = guarantee.choose(state.history, ranked, share)
            left -= guarantee.cells - before
            if choice is not None and choice.safe:
                return Decision(choice.word, True, over)
            if choice is not None and choice.word:  # the narrowest coverage's least worst case
                fallback = Decision(choice.word, choice.safe, over)
            if left <= 0 and use_book:
                break
        return fallback or Decision(ranked[0], None, self.over)

    def next_guess(self, state) -> str:
        """The strategy's first safe guess (see the class)."""
        return self.decide(state).word


def guarded(strategies: list[Strategy], limit: int | None, over: str) -> list[Strategy]:
    """The ranking strategies of ``strategies`` under the guarantee (``limit`` None: as they are;
    a decision tree is played as it is)."""
    if limit is None:
        return strategies
    return [GuardedStrategy(s, limit, over) if isinstance(s, RankingStrategy) else s for s in strategies]


#: The ranking strategies by name, in the order tables list them.
STRATEGIES: dict[str, RankingStrategy] = {
    name: RankingStrategy(name, description) for name, description in RANKINGS.items()
}


def get_strategy(name: str, words=None) -> Strategy:
    """The strategy called ``name`` (see the module docstring); ``words`` is needed by trees."""
    text = name.strip()
    if text.lower().startswith("tree:"):
        path = text[len("tree:") :]
        if not path:
            raise RatenError("tree:FILE needs a file name")
        if words is None:
            raise RatenError("a decision tree strategy needs the word lists it was built for")
        return TreeStrategy(Path(path), words)
    base, k = parse_strategy(text)
    if base == "lookahead" and k != LOOKAHEAD_K:
        return RankingStrategy(f"lookahead:{k}", f"{STRATEGIES[base].description}, K={k}")
    return STRATEGIES[base]


def resolve(names: str | list[str] | tuple[str, ...], words=None) -> list[Strategy]:
    """Strategies for a comma-separated name list (or a list of names); ``all`` means every
    ranking strategy. Duplicates are dropped, order kept."""
    parts = [p for p in (names.split(",") if isinstance(names, str) else names)]
    out: list[Strategy] = []
    seen: set[str] = set()
    for part in (p.strip() for p in parts):
        if not part:
            continue
        chosen = list(STRATEGIES.values()) if part.lower() == "all" else [get_strategy(part, words)]
        for s in chosen:
            if s.name not in seen:
                seen.add(s.name)
                out.append(s)
    if not out:
        raise RatenError("no strategy given: name one of " + ", ".join(STRATEGIES) + " or all")
    return out
