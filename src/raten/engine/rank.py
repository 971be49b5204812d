"""Ranking next guesses: entropy (default), partitions, expected size, minimax, frequency,
candidates-only entropy and two-step look-ahead.

All partition-based strategies share one compiled pass that measures how each guess
splits the candidates; they differ only in which statistic they sort by and which guesses
they consider. Ties go to words that could still be the answer, then alphabetically.
``lookahead`` takes its breadth in the name: ``lookahead:K`` (default K = 10).
"""

from __future__ import annotations

import sys
import threading
import time
from dataclasses import asdict, dataclass

import numpy as np

from raten.engine.partition import partition_stats_numpy
from raten.engine.strategy_names import LOOKAHEAD_K, STRATEGIES
from raten.errors import RatenError

#: Decimal places bits are compared at, so equal splits tie regardless of summation order.
_TIE_DECIMALS = 9
#: Bonus per distinct letter in the frequency ranking.
_DISTINCT_BONUS = 0.1
#: Tables of at most this many cells (guesses × candidates) are split with numpy while numba is
#: not loaded yet. Loading it (numba's import, then LLVM for the first
#: cached kernel) takes about 0.4 s; on 2 shared cores numpy splits 12972 × 20 (a hint after one
#: English guess) in 8-15 ms and 12972 × 243 in 60-80 ms, where the kernel takes 2 and 7 ms warm.
#: The limit keeps numpy's time well under that and its scratch arrays small (about 16 bytes a
#: cell); bigger tables (an opener ranking, 12972 × 2315 = 30M cells) go to the kernel.
NUMPY_CELLS = 1 << 22


def parse_strategy(name: str) -> tuple[str, int]:
    """Split a strategy name into (base name, look-ahead breadth K); K is 0 unless look-ahead.

    Accepts the names in ``STRATEGIES`` and ``lookahead:K`` with K a positive integer.
    """
    base, sep, arg = name.strip().lower().partition(":")
    if base not in STRATEGIES:
        raise RatenError(f"unknown strategy {name!r}: choose one of {', '.join(STRATEGIES)} (or lookahead:K)")
    if base != "lookahead":
        if sep:
            raise RatenError(f"strategy {base!r} takes no argument (got {name!r})")
        return base, 0
    if not sep:
        return base, LOOKAHEAD_K
    try:
        k = int(arg)
    except ValueError:
        k = 0
    if k < 1:
        raise RatenError(f"lookahead:K needs a positive whole number K, not {arg!r}")
    return base, k


@dataclass(frozen=True)
class Hint:
    """A suggested guess and how it splits the remaining candidates."""

    word: str
    bits: float
    candidate: bool
    patterns: int
    largest: int
    expected_remaining: float

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class Split:
    """How each of several guesses splits the candidates (arrays aligned with the guesses)."""

    bits: np.ndarray
    patterns: np.ndarray
    largest: np.ndarray
    expected_remaining: np.ndarray


#: Seconds the kernel loader waits after the first numpy ranking before it imports numba.
LOADER_GRACE = 0.3


class _KernelLoader:
    """The compiled partition kernel, loaded in a background thread after the first numpy split.

    A process that ranks once (``raten hint``) never waits for numba; one that ranks again (a
    ``raten solve`` session, a notebook, the library in a loop) gets the kernel from its second or
    third ranking on, once the thread has imported numba, loaded the kernel from numba's cache and
    run it on the first split's table (the same types, so no later load). Until then, and for
    ever if that fails, the numpy path goes on: both give the same numbers. Measured
    (``bench/bench_second_rank.py``, en after CRANE, 3.4M cells): 75 ms a ranking with numpy,
    13 ms from the second on when a second passes between rankings; rankings back to back
    take about twice as long during the half second of loading (the thread holds the GIL).
    """

    def __init__(self) -> None:
        self.thread: threading.Thread | None = None
        self.ready = threading.Event()
        self._lock = threading.Lock()

    def start(self, table: np.ndarray, rows: np.ndarray, cols: np.ndarray, weights: np.ndarray | None) -> None:
        """Begin loading, once per process (a daemon thread: it never holds up the exit)."""
        with self._lock:
            if self.thread is not None:
                return
            self.thread = threading.Thread(
                target=self._load, args=(table, rows, cols, weights), name="raten-kernel-loader", daemon=True
            )
            self.thread.start()

    def _load(self, table: np.ndarray, rows: np.ndarray, cols: np.ndarray, weights: np.ndarray | None) -> None:
        # a grace before the work: a process that ranks once and prints (``raten hint``) is gone
        # by then, without numba's import taking the GIL from its last steps (20 ms of 320)
        time.sleep(LOADER_GRACE)
        try:
            from raten.engine import jitcache, kernels

            with jitcache.NOTICE.silenced():  # no one waits for it: no "compiling" notice
                kernels.partition_stats(table, rows, cols, weights)
        except Exception:  # no kernel then: the numpy path stays, as before
            return
        self.ready.set()

    def wait(self, timeout: float | None = None) -> bool:
        """Whether the kernel is loaded, after waiting up to ``timeout`` seconds for a loading
        under way (for tests and benchmarks; rankings never wait)."""
        if self.thread is not None:
            self.thread.join(timeout)
        return self.ready.is_set()


#: The one loader of the process.
KERNEL = _KernelLoader()


def partition_path(cells: int) -> str:
    """Which path splits a table of ``cells`` guess × candidate cells: ``"numpy"`` when it is small
    and the compiled kernel is not at hand (this process has not imported numba, or its
    :data:`KERNEL` loader is still loading it), else ``"numba"``: a process that has numba (hard
    mode, simulation, trees, the web app, the benchmarks) has paid for it and keeps the faster
    kernel, and so does one whose loader has loaded it after its first ranking. Both give the same
    numbers, bit for bit (``raten.engine.partition``), so the choice changes speed only, never a
    ranking.
    """
    if cells > NUMPY_CELLS or KERNEL.ready.is_set():
        return "numba"
    return "numba" if "numba" in sys.modules and KERNEL.thread is None else "numpy"


def split_stats(table: np.ndarray, rows: np.ndarray, cols: np.ndarray, weights: np.ndarray | None = None) -> Split:
    """Entropy, pattern count, largest group and expected remaining for each guess row; the one
    place that chooses between the numpy and the compiled partition statistics (``partition_path``).

    ``weights`` (one positive weight per column, any scale) is the prior of the candidates:
    entropy and expected remaining are then the weighted ones; pattern count and largest group
    stay counts. None (uniform) runs the unweighted statistics, today's code and figures.
    """
    rows = np.ascontiguousarray(rows, dtype=np.int64)
    cols = np.ascontiguousarray(cols, dtype=np.int64)
    if weights is not None:
        weights = np.asarray(weights, dtype=np.float64)
        weights = np.ascontiguousarray(weights / weights.sum()) if len(weights) else weights
    if partition_path(len(rows) * len(cols)) == "numpy":
        stats = partition_stats_numpy(table, rows, cols, weights)
        KERNEL.start(table, rows, cols, weights)  # the next rankings get the compiled kernel
    else:
        from raten.engine import kernels  # numba: imported only when a table is big or it is loaded anyway

        stats = kernels.partition_stats(table, rows, cols, weights)
    bits, patterns, largest, fourth = stats
    # without weights the fourth is the sum of squared group sizes, with them expected remaining
    return Split(bits, patterns, largest, fourth / max(len(cols), 1) if weights is None else fourth)


def _best_first(primary: np.ndarray, is_candidate: np.ndarray, rows: np.ndarray, top: int) -> np.ndarray:
    """Indices of the ``top`` best entries: smallest ``primary``, then answer candidates, then
    lowest row (allowed is sorted, so alphabetical). Sorts only the entries that can make the cut."""
    if top < len(primary):
        cut = np.partition(primary, top - 1)[top - 1]
        keep = np.flatnonzero(primary <= cut)
    else:
        keep = np.arange(len(primary))
    # np.lexsort sorts by the last key first.
    order = np.lexsort((rows[keep], ~is_candidate[keep], primary[keep]))
    return keep[order][:top]


def _primary_key(strategy: str, split: Split) -> np.ndarray:
    """The statistic a partition strategy sorts by, smaller is better."""
    if strategy in ("entropy", "candidates-entropy", "lookahead"):
        return -np.round(split.bits, _TIE_DECIMALS)
    if strategy == "partitions":
        return -split.patterns.astype(np.int64)
    if strategy == "expected":
        return np.round(split.expected_remaining, _TIE_DECIMALS)
    return split.largest.astype(np.int64)


def frequency_scores(candidate_letters: np.ndarray, alphabet: int) -> np.ndarray:
    """Score each candidate: share of candidates containing each of its distinct letters (codes
    below ``alphabet``), summed, plus a small bonus per distinct letter."""
    n = candidate_letters.shape[0]
    onehot = np.zeros((n, alphabet), dtype=bool)
    np.put_along_axis(onehot, candidate_letters.astype(np.int64), True, axis=1)
    share = onehot.mean(axis=0)
    return onehot @ share + _DISTINCT_BONUS * onehot.sum(axis=1)


def rank_table(
    table: np.ndarray,
    rows: np.ndarray,
    cols: np.ndarray,
    candidate_rows: np.ndarray,
    words,
    top: int = 5,
    strategy: str = "entropy",
    *,
    hard: bool = False,
    weights: np.ndarray | None = None,
    answers_only: bool = False,
) -> list[Hint]:
    """Rank guess ``rows`` of ``table`` against candidate ``cols``.

    ``candidate_rows`` are the rows whose word could be the answer (for the mark and the
    tie-break); the table's rows are the allowed words of the ``WordSet`` ``words``, in
    alphabetical order (their letters score ``frequency``). ``hard`` matters to ``lookahead``
    only, whose second guesses must keep what the first one reveals in hard mode. ``weights`` is the
    prior of the candidate columns (None: uniform); ``answers_only`` ranks only the candidate
    rows. In hard mode a guess that cannot split the candidates (one pattern, 0 bits) and cannot
    be the answer is never suggested while some legal guess splits them (in normal mode such
    guesses only ever come last, after every useful one).
    """
    base, k = parse_strategy(strategy)
    if len(cols) == 0:
        raise RatenError("no candidates are left to rank guesses against")
    if top < 1:
        raise RatenError("top must be at least 1")
    candidate_rows = np.asarray(candidate_rows, dtype=np.int64)
    if base == "frequency":
        rows = candidate_rows
        scores = frequency_scores(words.allowed_letters[rows], words.alphabet.size)
        order = np.lexsort((rows, -np.round(scores, _TIE_DECIMALS)))[:top]
        rows = rows[order]
        split = split_stats(table, rows, cols, weights)
        chosen = np.arange(len(rows))
        is_candidate = np.ones(len(rows), dtype=bool)
    else:
        only_candidates = answers_only or base == "candidates-entropy"
        rows = candidate_rows if only_candidates else np.asarray(rows, dtype=np.int64)
        split = split_stats(table, rows, cols, weights)
        mark = np.zeros(max(len(words.allowed), int(rows.max(initial=-1)) + 1), dtype=bool)
        mark[candidate_rows] = True
        is_candidate = mark[rows]
        useless = (split.patterns == 1) & ~is_candidate
        if hard and useless.any() and not useless.all():
            keep = np.flatnonzero(~useless)
            rows, is_candidate = rows[keep], is_candidate[keep]
            split = Split(split.bits[keep], split.patterns[keep], split.largest[keep], split.expected_remaining[keep])
        if base == "lookahead":
            chosen = _lookahead_order(table, rows, cols, split, is_candidate, k, top, hard, words, weights)
        else:
            chosen = _best_first(_primary_key(base, split), is_candidate, rows, top)
    return [
        Hint(
            word=words.allowed[rows[i]],
            bits=float(split.bits[i]),
            candidate=bool(is_candidate[i]),
            patterns=int(split.patterns[i]),
            largest=int(split.largest[i]),
            expected_remaining=float(split.expected_remaining[i]),
        )
        for i in chosen
    ]


def _lookahead_order(
    table: np.ndarray,
    rows: np.ndarray,
    cols: np.ndarray,
    split: Split,
    is_candidate: np.ndarray,
    k: int,
    top: int,
    hard: bool,
    words,
    weights: np.ndarray | None = None,
) -> np.ndarray:
    """The ``k`` entropy leaders re-ranked by bits + expected best second bits, then the rest by entropy."""
    by_entropy = _best_first(_primary_key("entropy", split), is_candidate, rows, max(k, top))
    head = by_entropy[:k]
    guess_letters = words.allowed_letters
    row_letters = guess_letters[rows] if hard else None
    from raten.engine.lookahead import guess_block, second_step_bits  # only look-ahead pays its import

    block = guess_block(table, rows, cols)
    scores = np.array(
        [
            split.bits[i]
            + second_step_bits(
                table,
                rows,
                cols,
                int(rows[i]),
                guess_letters[rows[i]],
                row_letters,
                hard,
                block=block,
                weights=weights,
                alphabet=words.alphabet.size,
            )
            for i in head
        ]
    )
    order = np.lexsort((rows[head], ~is_candidate[head], -np.round(scores, _TIE_DECIMALS)))
    return np.concatenate([head[order], by_entropy[k:]])[:top]


def rank(state, top: int = 5, strategy: str = "entropy", *, answers_only: bool = False) -> list[Hint]:
    """The best next guesses for a ``State``, best first, under its word set's prior
    (``answers_only``: only words that could be the answer)."""
    table, cols = state.answer_table()
    weights = state.answer_weights()
    # a clear favourite under a prior: every candidate ranked, then the likeliest first
    favourite = weights is not None and state.decided
    hints = rank_table(
        table,
        state.guess_rows(),
        cols,
        state.candidate_rows(),
        state.words,
        top=state.count if favourite else top,
        strategy=strategy,
        hard=state.hard,
        weights=weights,
        answers_only=answers_only,
    )
    if favourite:
        allowed = state.words.allowed
        weight = {allowed[r]: w for r, w in zip(state.candidate_rows(), weights)}
        hints = sorted(hints, key=lambda h: -weight[h.word])[:top]  # stable: the ranking's order on a tie
    return hints


@dataclass(frozen=True, eq=False)
class Group:
    """The candidates one feedback pattern leaves: its ``code`` and ``members``, the
    ascending positions of those candidates in the state's candidate list."""

    code: int
    members: np.ndarray

    @property
    def count(self) -> int:
        return len(self.members)


@dataclass(frozen=True, eq=False)
class GuessSplit:
    """How one guess splits a state's candidates: its statistics as a ``Hint`` and every
    group, largest first (equal sizes by pattern code). Faces only serialise it."""

    hint: Hint
    groups: tuple[Group, ...]

    @property
    def word(self) -> str:
        return self.hint.word

    def head(self, n: int) -> tuple[tuple[Group, ...], int, int]:
        """The ``n`` largest groups, how many groups are left over and how many words they hold."""
        rest = self.groups[n:]
        return self.groups[:n], len(rest), sum(g.count for g in rest)


def split_of(state, word: str) -> GuessSplit:
    """How ``word`` splits the state's candidates, from its row of the pattern matrix (an
    unlisted word, or a state whose candidates are allowed words, is compared directly)."""
    from raten.engine.matrix import feedback_against

    row = state.words.allowed_index.get(word)
    if state.fallback is None and row is not None:
        codes = np.asarray(state.matrix.data[row, state.candidates])
    else:
        codes = feedback_against(word, state.candidate_words)
    stats = split_stats(
        codes[None, :], np.zeros(1, dtype=np.int64), np.arange(len(codes), dtype=np.int64), state.answer_weights()
    )
    order = np.argsort(codes, kind="stable")
    codes_seen, starts, sizes = np.unique(codes[order], return_index=True, return_counts=True)
    by_size = np.lexsort((codes_seen, -sizes))
    groups = tuple(Group(int(codes_seen[g]), order[starts[g] : starts[g] + sizes[g]]) for g in by_size)
    hint = Hint(
        word=word,
        bits=float(stats.bits[0]),
        candidate=bool(np.any(codes == state.words.all_green)),
        patterns=int(stats.patterns[0]),
        largest=int(stats.largest[0]),
        expected_remaining=float(stats.expected_remaining[0]),
    )
    return GuessSplit(hint, groups)


def analyze(state, word: str) -> dict:
    """How ``word`` splits the current candidates: every group with its pattern and words."""
    from raten.engine.feedback import format_pattern

    split = split_of(state, word)
    hint, cands = split.hint, state.candidate_words
    return {
        "word": word,
        "bits": hint.bits,
        "patterns": hint.patterns,
        "largest": hint.largest,
        "expected_remaining": hint.expected_remaining,
        "candidate": hint.candidate,
        "buckets": [
            {
                "pattern": format_pattern(g.code, length=state.words.length),
                "count": g.count,
                "words": [cands[i] for i in g.members],
            }
            for g in split.groups
        ],
    }
