"""The word lists a server offers, loaded and warmed once, and the solver answers it gives.

Openers are ranked at start-up and kept; ranked states are kept in an LRU cache bounded in
bytes, keyed without ``top`` and ``limit`` (each state is ranked ``MAX_TOP`` deep once and
sliced), since many people ask about the same early states. The work one request may cost is
capped here: look-ahead only for small states, and no ranking of a huge fallback.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import threading
import warnings
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from raten._version import __version__
from raten.engine.feedback import format_pattern, pattern
from raten.engine.rank import GuessSplit, Hint, split_of
from raten.engine.state import State
from raten.engine.words import WordSet
from raten.errors import Notice, RatenError, shorten
from raten.play.game import daily_list
from raten.web.warmup import Warmup
from raten.wordlists.presets import ALL_PRESETS, PRESETS, default_over, is_list_spec, load_named
from raten.wordlists.prior import FREQUENCY, MIXTURE, PRIORS, apply_prior, frequency_fits

if TYPE_CHECKING:
    from raten.web.sharing import Shared

#: Groups of the top hint's split shown one by one; the rest are summed.
SPLIT_GROUPS = 12


#: The most hints a request may ask for; every ranking is made this deep once and sliced.
MAX_TOP = 50
#: The work (table cells) the guarantee may do for one hints request after the book's two moves:
#: about a second; a position that needs more is answered "not decided".
GUARANTEE_WORK = 100_000_000
#: Look-ahead is offered up to this many candidates (above, one request costs seconds of CPU).
LOOKAHEAD_MAX_CANDIDATES = 200
#: A state that rules out every solution is ranked over its allowed words up to this many.
FALLBACK_MAX_RANKED = 1000
#: Bytes of ranked answers kept in the cache (hints, split and constraints as JSON, candidates).
CACHE_BYTES = 64 * 1024 * 1024
#: Seconds a ranked answer is kept in Redis (``--redis``), where every node finds it.
SHARED_TTL = 24 * 3600


@dataclass(frozen=True)
class HintQuery:
    """One hint request, the argument of ``Lists.hints``; its ``key`` (without ``top`` and
    ``limit``) is the cache key, so varying them is answered from one ranking."""

    name: str = "en"
    rows: tuple[tuple[str, str], ...] = ()
    hard: bool = False
    top: int = 10
    strategy: str = "entropy"
    limit: int = 200
    #: ``uniform`` or ``frequency``; None is the list's own (``Lists.resolved`` fills it in).
    prior: str | None = None
    answers_only: bool = False
    #: The guarantee's limit (None: off) and coverage (None: the list's own).
    guarantee: int | None = 6
    guarantee_over: str | None = None

    @property
    def key(self) -> tuple:
        """What the ranking depends on: the state, the strategy, the prior (the prior's name
        names its weights: they are computed deterministically from the list and wordfreq) and the guarantee."""
        return (
            self.name,
            self.rows,
            self.hard,
            self.strategy,
            self.prior,
            self.answers_only,
            self.guarantee,
            self.guarantee_over,
        )


@dataclass(frozen=True)
class Ranked:
    """One state ranked ``MAX_TOP`` deep: the answer of every query with its key, before slicing."""

    answer: dict
    candidates: list[str]
    size: int


@dataclass(frozen=True)
class ListEntry:
    """One word list as served: its words (with its default prior), the empty state and its best
    openers; the list under another prior is loaded when first asked for (``start_state``)."""

    name: str
    words: WordSet
    description: str
    start: State
    openers: tuple[Hint, ...]
    spec: str = ""
    _priors: dict[str, State] = field(default_factory=dict, repr=False, compare=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    @property
    def language(self) -> str:
        return self.words.language

    @property
    def prior(self) -> str:
        return self.words.prior

    def ready_state(self, prior: str) -> State | None:
        """The empty state under ``prior`` if it is loaded already, else None (loads nothing)."""
        return self.start if prior == self.prior else self._priors.get(prior)

    def start_state(self, prior: str) -> State:
        """The empty state of this list under ``prior`` (built once; the first call of a
        frequency prior loads or builds its allowed x allowed matrix)."""
        if prior == self.prior:
            return self.start
        with self._lock:
            if prior not in self._priors:
                from raten.wordlists.prior import apply_prior

                base = load_named(self.spec, prior) if self.spec else apply_prior(self.words, prior)
                self._priors[prior] = State(base)
            return self._priors[prior]


class Lists:
    """The lists a server offers, by name, warmed at construction."""

    def __init__(self, entries: Mapping[str, ListEntry], cache_bytes: int = CACHE_BYTES) -> None:
        """``cache_bytes``: about how much memory ranked answers may take (least recently used go)."""
        if not entries:
            raise RatenError("no word list could be loaded")
        self.entries = dict(entries)
        #: Loads the lists under their other priors in the background (``raten.web.warmup``).
        self.warmup = Warmup(self, rank_start)
        self._flights: dict[tuple, asyncio.Future] = {}
        self.default = next(iter(self.entries))
        #: Names that load these lists again (presets and ``--list`` specs), for worker processes.
        self.specs: list[str] = list(self.entries)
        self._cache: OrderedDict[tuple, Ranked] = OrderedDict()
        self._cache_lock = threading.Lock()
        self._cache_used = 0
        self.cache_bytes = cache_bytes
        #: Each list's words by hash: in the shared cache's keys, so nodes serving other words under
        #: the same name (or another raten) never read each other's answers.
        self._fingerprints = {name: f"{__version__}:{e.words.fingerprint}" for name, e in self.entries.items()}

    @classmethod
    def load(
        cls,
        sources: Mapping[str, WordSet] | Iterable[str] | None = None,
        openers_top: int = 50,
        extra: Iterable[str] = (),
    ) -> Lists:
        """Word sets by name, or names: presets or ``--list`` specs ``NAME=SOLUTIONS:ALLOWED``
        (default: every preset that can be loaded; a preset that is missing is skipped with a
        warning), then the ``extra`` specs (`raten serve --list`; a bad one is an error). Loads
        every matrix, ranks the openers and runs one hint, so the first request is as fast as
        the rest. ``specs`` keeps the names that load the same lists again (worker processes)."""
        specs: list[str] = []
        if sources is None or not isinstance(sources, Mapping):
            names = [*(PRESETS if sources is None else sources), *extra]
            word_sets: dict[str, WordSet] = {}
            for name in names:
                try:
                    words = load_named(name)
                except RatenError as e:
                    if sources is not None or is_list_spec(name):
                        raise
                    warnings.warn(f"word list {name} is not available: {e}", stacklevel=2)
                    continue
                key = words.name if is_list_spec(name) else name
                if key in word_sets:
                    raise RatenError(f"word list {key!r} is named twice")
                word_sets[key] = words
                specs.append(name)
        else:
            word_sets = dict(sources)
            for spec in extra:
                words = load_named(spec)
                if words.name in word_sets:
                    raise RatenError(f"word list {words.name!r} is named twice")
                word_sets[words.name] = words
        entries = {}
        for name, words in word_sets.items():
            start = State(words)
            openers = tuple(start.hints(top=openers_top))
            # compile and page in everything a hint needs, after a row that can occur (all grey may not)
            seen = next((s for s in words.solutions if s != openers[0].word), words.solutions[0])
            start.after(openers[0].word, pattern(openers[0].word, seen)).hints(top=1)
            description = ALL_PRESETS[name].description if name in ALL_PRESETS else own_description(words)
            spec = next((sp for sp in specs if sp == name or (is_list_spec(sp) and words.name == name)), "")
            entries[name] = ListEntry(name, words, description, start, openers, spec)
        lists = cls(entries)
        lists.specs = specs or list(entries)
        return lists

    def daily_entry(self, language: str) -> ListEntry:
        """The list the daily game of ``language`` is played on (see ``raten.play.game.daily_list``)."""
        return self.entries[daily_list({n: e.words for n, e in self.entries.items()}, language)]

    def get(self, name: str) -> ListEntry:
        try:
            return self.entries[name]
        except KeyError:
            raise RatenError(
                f"unknown word list {shorten(name)!r}: choose one of {', '.join(self.entries)}",
                "unknown_list",
                name=shorten(name),
                choices=", ".join(self.entries),
            ) from None

    # --- hints -------------------------------------------------------------------------

    def resolved(self, query: HintQuery) -> HintQuery:
        """The query with its list checked and its prior named (the list's own when it names
        none) and checked: once per request, before ``cached_hints``, ``rank`` and ``keep``."""
        entry = self.get(query.name)
        prior = query.prior or entry.prior
        if prior not in PRIORS:
            raise RatenError(
                f"unknown prior {shorten(prior)!r}: choose one of {', '.join(PRIORS)}",
                "unknown_prior",
                prior=shorten(prior),
                choices=", ".join(PRIORS),
            )
        if prior in (FREQUENCY, MIXTURE) and prior != entry.prior and not frequency_fits(entry.words):
            apply_prior(entry.words, prior)  # the prior's own error: not fitted on this list's words
        return query if prior == query.prior else replace(query, prior=prior)

    def prior_state(self, name: str, prior: str) -> State:
        """The list's empty state under ``prior``: its own at once, another once the warm-up has
        loaded it, else ``warming_up`` (503; the load is asked for, once): a request never loads a table."""
        entry = self.get(name)
        return entry.start if prior == entry.prior else self.warmup.state(entry, prior)

    def keep_start(self, name: str, prior: str, ranked: Ranked) -> None:
        """Cache the empty state's ranking under ``prior`` (made by the warm-up process)."""
        self.keep(self.resolved(HintQuery(name=name, prior=prior)), ranked)

    def openers(self, name: str, prior: str | None = None, top: int = MAX_TOP) -> list[Hint]:
        """The best first guesses of a list under a prior (the default prior's are ranked at start)."""
        query = self.resolved(HintQuery(name=name, prior=prior, top=top))
        entry = self.get(name)
        if query.prior == entry.prior:
            return list(entry.openers[:top])
        return [Hint(**h) for h in json.loads(self._answer(query))["hints"]]

    async def openers_answer(
        self, name: str, prior: str | None, top: int, rank: Callable[[HintQuery], Awaitable[Ranked]]
    ) -> list[Hint]:
        """``openers`` for ``GET /api/openers``: another prior's openers come from the cache (the
        warm-up ranks them), else from ``rank`` (the work queue) like any hint, never ranked here."""
        query = self.resolved(HintQuery(name=name, prior=prior, top=top))
        entry = self.get(name)
        if query.prior == entry.prior:
            return list(entry.openers[:top])
        return [Hint(**h) for h in json.loads(await self.answer(query, rank))["hints"]]

    def hints_json(self, query: HintQuery) -> bytes:
        """The answer of ``POST /api/hints`` as JSON bytes, ranked once per cache key."""
        return self._answer(self.resolved(query))

    def _answer(self, query: HintQuery) -> bytes:
        """``hints_json`` of a resolved query: from the cache, else ranked here and kept."""
        hit = self.cached_hints(query)
        return hit if hit is not None else self.keep(query, self.rank(query))

    async def answer(
        self, query: HintQuery, rank: Callable[[HintQuery], Awaitable[Ranked]], shared: Shared | None = None
    ) -> bytes:
        """The answer of one ``POST /api/hints``: the query resolved once (an unknown list is
        refused at once, a prior still loading is ``warming_up``), from the cache, else from the
        nodes' shared cache in Redis (``shared``), else ranked by ``rank`` (the server's work
        queue) and kept in both. Requests for a state being ranked wait for that one ranking
        (single flight): ten clients asking the same new state cost one."""
        query = self.resolved(query)
        self.prior_state(query.name, query.prior or "")
        hit = self.cached_hints(query)
        if hit is not None:
            return hit
        key = (id(asyncio.get_running_loop()), query.key)  # a future belongs to its loop (tests run several)
        flight = self._flights.get(key)
        if flight is None:
            flight = self._flights[key] = asyncio.ensure_future(self._fetch(query, rank, shared))
            flight.add_done_callback(lambda _f: self._flights.pop(key, None))
        ranked = await asyncio.shield(flight)
        return self.keep(query, ranked)

    def shared_key(self, query: HintQuery) -> str:
        """The key of a resolved query's ranking in Redis (the words' hash and the cache key, hashed)."""
        state = json.dumps([self._fingerprints[query.name], query.key]).encode()
        return "raten:hints:" + hashlib.sha256(state).hexdigest()[:32]

    async def _fetch(
        self, query: HintQuery, rank: Callable[[HintQuery], Awaitable[Ranked]], shared: Shared | None
    ) -> Ranked:
        """A ranking from the shared cache, else ranked and put there."""
        if shared is None:
            return await rank(query)
        key = self.shared_key(query)
        kept = await shared.get(key)
        if kept is not None:
            data = json.loads(kept)
            return Ranked(data["answer"], data["candidates"], data["size"])
        ranked = await rank(query)
        value = json.dumps({"answer": ranked.answer, "candidates": ranked.candidates, "size": ranked.size})
        await shared.put(key, value.encode(), SHARED_TTL)
        return ranked

    def keep(self, query: HintQuery, ranked: Ranked) -> bytes:
        """Cache a ranking (made here or in a worker process) and answer the resolved ``query`` from it."""
        with self._cache_lock:
            old = self._cache.pop(query.key, None)
            self._cache_used += ranked.size - (old.size if old else 0)
            self._cache[query.key] = ranked
            while self._cache_used > self.cache_bytes and len(self._cache) > 1:
                self._cache_used -= self._cache.popitem(last=False)[1].size
        return _sliced(ranked, query)

    def cached_hints(self, query: HintQuery) -> bytes | None:
        """The answer to the resolved ``query`` if its state is ranked already (whatever its top
        and limit), or None."""
        with self._cache_lock:
            ranked = self._cache.get(query.key)
            if ranked is None:
                return None
            self._cache.move_to_end(query.key)
        return _sliced(ranked, query)

    def hints(self, query: HintQuery) -> dict:
        """Candidates, hints, the top hint's split and the constraints after the query's rows."""
        return json.loads(self.hints_json(query))

    def rank(self, query: HintQuery) -> Ranked:
        """Rank the resolved query's state ``MAX_TOP`` deep, within the work this server offers."""
        entry = self.get(query.name)
        start = entry.start_state(query.prior or entry.prior)
        start = start if not query.hard else State(start.matrix, hard=True)
        state = start.replay(query.rows)
        warnings_ = list(state.warnings)
        if query.strategy == "lookahead" and state.count > LOOKAHEAD_MAX_CANDIDATES:
            raise RatenError(
                f"look-ahead is offered for at most {LOOKAHEAD_MAX_CANDIDATES} candidates, and {state.count} are"
                " left: add a row or choose another strategy",
                "lookahead_too_broad",
                limit=LOOKAHEAD_MAX_CANDIDATES,
                count=state.count,
            )
        if not query.rows and query.strategy == "entropy" and query.prior == entry.prior and not query.answers_only:
            hints = list(entry.openers[:MAX_TOP])
        elif state.fallback is not None and state.count > FALLBACK_MAX_RANKED:
            hints = []
            warnings_.append(
                Notice(
                    f"{state.count} allowed words fit, too many to rank (at most {FALLBACK_MAX_RANKED}): add a row",
                    "too_many",
                    n=state.count,
                )
            )
        else:
            hints = state.hints(top=MAX_TOP, strategy=query.strategy, answers_only=query.answers_only)
        guarantee = None
        if query.guarantee is not None and hints and not state.solved:
            from raten.play.safe_hints import guarded_hints  # the feasibility kernels: loaded when first used

            over = query.guarantee_over or default_over(state.words, state.hard)
            own = None if query.answers_only else hints  # the strategy's own ranking: its decision reads it
            guard = guarded_hints(state, hints, query.guarantee, over, query.strategy, work=GUARANTEE_WORK, ranked=own)
            guarantee = guard.to_dict(hints)
        summary = state.constraints.describe()
        answer = {
            "list": query.name,
            "prior": query.prior,
            "count": state.count,
            "fallback": state.fallback is not None,
            "solved": state.solved,
            "hints": [hint_dict(h) for h in hints],
            "split": split_dict(split_of(state, hints[0].word)) if hints else None,
            "constraints": state.constraints.to_dict(),
            "summary": summary,
            "warnings": [str(w) for w in warnings_],
            "notices": [notice_dict(w) for w in warnings_],
            "guarantee": guarantee,
        }
        words = state.candidate_words
        size = 2048 + 8 * len(words) + 200 * len(hints) + sum(len(line) for line in summary)
        return Ranked(answer, words, size)


def rank_start(spec: str, name: str, prior: str) -> Ranked:
    """In the warm-up process (``raten.web.warmup``): build the list's table under ``prior`` into
    the matrix cache if it is not there, and rank its empty state (what ``/api/openers?prior=``
    and a first hint ask)."""
    words = load_named(spec)
    lists = Lists({name: ListEntry(name, words, "", State(words), (), spec)})
    return lists.rank(HintQuery(name=name, prior=prior))


def own_description(words: WordSet) -> str:
    """What ``/api/lists`` and the pages say of a list that is not a preset: its sizes, never its
    files (their paths are the host's business, not the players')."""
    return f"own word lists ({len(words.solutions)} solutions, {len(words.allowed)} allowed)"


def _sliced(ranked: Ranked, query: HintQuery) -> bytes:
    """A ranked answer cut to the query's ``top`` hints and ``limit`` candidates, as JSON bytes."""
    answer = ranked.answer
    body = {
        "list": answer["list"],
        "prior": answer["prior"],
        "count": answer["count"],
        "fallback": answer["fallback"],
        "solved": answer["solved"],
        "candidates": ranked.candidates[: query.limit],
        "hints": answer["hints"][: query.top],
        "split": answer["split"],
        "constraints": answer["constraints"],
        "summary": answer["summary"],
        "warnings": answer["warnings"],
        "notices": answer["notices"],
        "guarantee": answer["guarantee"] and answer["guarantee"] | {"hints": answer["guarantee"]["hints"][: query.top]},
    }
    return json.dumps(body, separators=(",", ":")).encode()


def notice_dict(warning: str) -> dict:
    """A warning as JSON: its English text, its key and parameters (``raten.errors.Notice``), so
    a page words it in its own language; a plain string has the key ``warning``."""
    return {
        "key": getattr(warning, "key", "warning"),
        "params": {k: v for k, v in getattr(warning, "params", {}).items() if isinstance(v, str | int)},
        "text": str(warning),
    }


def hint_dict(h: Hint) -> dict:
    """A hint as JSON-ready dict (``dataclasses.asdict`` is ten times slower, on the hot path)."""
    return {
        "word": h.word,
        "bits": h.bits,
        "candidate": h.candidate,
        "patterns": h.patterns,
        "largest": h.largest,
        "expected_remaining": h.expected_remaining,
    }


def split_dict(split: GuessSplit) -> dict:
    """A split as JSON: its ``SPLIT_GROUPS`` largest groups, the rest summed."""
    shown, other_groups, other_words = split.head(SPLIT_GROUPS)
    return {
        "word": split.word,
        "groups": [{"pattern": format_pattern(g.code, length=len(split.word)), "count": g.count} for g in shown],
        "other_groups": other_groups,
        "other_words": other_words,
    }
