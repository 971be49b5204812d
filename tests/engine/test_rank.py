"""Ranking: the published figures, the compiled kernel against plain Python, ties, few candidates, hard mode."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from published import EN_AFTER_CRANE, EN_OPENERS
from raten.engine import kernels
from raten.engine.feedback import pattern
from raten.engine.matrix import PatternMatrix, build_matrix, load_matrix
from raten.engine.rank import Split, _best_first, _primary_key, analyze, rank, split_of, split_stats
from raten.engine.state import State
from raten.engine.words import WordSet
from raten.errors import RatenError
from reference import DOTS, ref_colours, ref_histogram, ref_rank, ref_split


@pytest.fixture(scope="module")
def en_start(en_words) -> State:
    return State(en_words)


@pytest.fixture(scope="module")
def crane(en_start) -> State:
    return en_start.after("crane", "..?!.")


@pytest.fixture(scope="module")
def crane_reference(en_words, crane) -> dict[str, tuple[float, int, int, float]]:
    """Plain-Python split of every allowed guess against the 20 candidates after crane=..?!."""
    cands = crane.candidate_words
    return {g: ref_split(g, cands) for g in en_words.allowed}


def test_published_english_openers(en_start) -> None:
    hints = en_start.hints(top=10)
    assert [(h.word, round(h.bits, 4)) for h in hints] == EN_OPENERS
    assert [h.candidate for h in hints] == [w in en_start.words.solution_index for w, _ in EN_OPENERS]


@pytest.mark.slow
def test_openers_agree_with_reference(en_start, en_words) -> None:
    """Each of the top ten, and a random sample of other guesses, scored again in plain Python."""
    hints = en_start.hints(top=10)
    for h in hints:
        bits, patterns, largest, expected = ref_split(h.word, en_words.solutions)
        assert h.bits == pytest.approx(bits, abs=1e-12)
        assert (h.patterns, h.largest) == (patterns, largest)
        assert h.expected_remaining == pytest.approx(expected, rel=1e-12)
    sample = random.Random(1).sample(en_words.allowed, 60)
    split = split_stats(
        load_matrix(en_words).data,
        np.array([en_words.allowed_index[w] for w in sample]),
        np.arange(len(en_words.solutions)),
    )
    for i, w in enumerate(sample):
        bits, patterns, largest, _ = ref_split(w, en_words.solutions)
        assert split.bits[i] == pytest.approx(bits, abs=1e-12)
        assert split.bits[i] <= hints[-1].bits + 1e-12 or w in {h.word for h in hints}
        assert (split.patterns[i], split.largest[i]) == (patterns, largest)


def test_published_hints_after_crane(crane) -> None:
    assert crane.count == 20
    hints = crane.hints(top=4)
    assert [(h.word, round(h.bits, 4)) for h in hints] == EN_AFTER_CRANE
    assert hints[2].bits == pytest.approx(hints[3].bits, abs=1e-12)  # a tie, broken A-Z


@pytest.mark.slow
def test_full_ranking_after_crane_equals_reference(crane, crane_reference) -> None:
    """Every one of the 12972 guesses scored in plain Python; the top 25 must match in order."""
    cands = set(crane.candidate_words)
    expected = sorted(crane_reference, key=lambda w: (-round(crane_reference[w][0], 9), w not in cands, w))[:25]
    hints = crane.hints(top=25)
    assert [h.word for h in hints] == expected
    for h in hints:
        assert h.bits == pytest.approx(crane_reference[h.word][0], abs=1e-12)
        assert h.candidate == (h.word in cands)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("strategy", "key"),
    [
        ("partitions", lambda s: -s[1]),
        ("minimax", lambda s: s[2]),
        ("expected", lambda s: round(s[3], 9)),
    ],
)
def test_other_strategies_equal_reference(crane, crane_reference, strategy: str, key) -> None:
    cands = set(crane.candidate_words)
    expected = sorted(crane_reference, key=lambda w: (key(crane_reference[w]), w not in cands, w))[:10]
    assert [h.word for h in crane.hints(top=10, strategy=strategy)] == expected


def test_published_german_figures(de6_words) -> None:
    state = State(de6_words)
    hints = state.hints(top=10)
    sarte = hints[0]
    assert sarte.word == "sarte"
    assert round(sarte.bits, 4) == 5.8835
    assert (sarte.patterns, sarte.largest, sarte.candidate) == (121, 93, False)
    raten_ = next(h for h in hints if h.word == "raten")
    assert round(raten_.bits, 4) == 5.8223
    assert raten_.candidate is True
    for h in (sarte, raten_):
        bits, patterns, largest, _ = ref_split(h.word, de6_words.solutions)
        assert h.bits == pytest.approx(bits, abs=1e-12)
        assert (h.patterns, h.largest) == (patterns, largest)


# --- the compiled partition kernel against plain Python -----------------------------


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_partition_kernel_equals_plain_histogram(data: st.DataObject, en_words) -> None:
    """Both branches of the kernel (more and fewer candidates than patterns)."""
    table = load_matrix(en_words).data
    n_cols = data.draw(st.integers(1, 700))
    seed = data.draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    cols = np.sort(rng.choice(table.shape[1], size=n_cols, replace=False)).astype(np.int64)
    rows = rng.choice(table.shape[0], size=5, replace=False).astype(np.int64)
    bits, patterns, largest, sum_sq = kernels.partition_stats(table, rows, cols)
    for i, r in enumerate(rows):
        hist: dict[int, int] = {}
        for c in cols:
            v = int(table[r, c])
            hist[v] = hist.get(v, 0) + 1
        n = len(cols)
        assert bits[i] == pytest.approx(-sum(k / n * math.log2(k / n) for k in hist.values()), abs=1e-12)
        sizes = list(hist.values())
        assert (patterns[i], largest[i], sum_sq[i]) == (len(sizes), max(sizes), sum(k * k for k in sizes))


@pytest.mark.slow
@pytest.mark.parametrize(("n_cols", "shuffled"), [(1, 0), (7, 0), (243, 0), (244, 0), (2315, 0), (2315, 1)])
def test_partition_kernel_serial_and_parallel_agree(
    en_words, n_cols: int, shuffled: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Few candidates, many, and every column in order (read straight through) or shuffled."""
    table = load_matrix(en_words).data
    rng = np.random.default_rng(n_cols)
    cols = np.sort(rng.choice(table.shape[1], size=n_cols, replace=False)).astype(np.int64)
    if shuffled:
        rng.shuffle(cols)
    rows = rng.permutation(table.shape[0]).astype(np.int64)
    monkeypatch.setattr(kernels, "PARALLEL_CELLS", 1 << 62)
    serial = kernels.partition_stats(table, rows, cols)
    monkeypatch.setattr(kernels, "PARALLEL_CELLS", 0)
    parallel = kernels.partition_stats(table, rows, cols)
    for a, b in zip(serial, parallel):
        assert np.array_equal(a, b)
    if shuffled:  # the same multiset of columns: the same splits (bits up to summation order)
        ordered = kernels.partition_stats(table, rows, np.sort(cols))
        assert np.allclose(ordered[0], serial[0], atol=1e-12)
        for a, b in zip(ordered[1:], serial[1:]):
            assert np.array_equal(a, b)
    # spot-check a few rows against plain Python
    for i in range(0, len(rows), 1297):
        guess = en_words.allowed[rows[i]]
        bits, patterns, largest, _ = ref_split(guess, [en_words.solutions[c] for c in cols])
        assert serial[0][i] == pytest.approx(bits, abs=1e-12)
        assert (serial[1][i], serial[2][i]) == (patterns, largest)


def test_partition_kernel_with_no_candidates(en_words) -> None:
    bits, patterns, _largest, _sum_sq = kernels.partition_stats(
        load_matrix(en_words).data, np.arange(3, dtype=np.int64), np.zeros(0, dtype=np.int64)
    )
    assert bits.tolist() == [0.0] * 3 and patterns.tolist() == [0] * 3


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_ranking_on_random_subsets_equals_plain_python(data: st.DataObject, en_words) -> None:
    cands = data.draw(st.lists(st.sampled_from(en_words.solutions), min_size=1, max_size=40, unique=True))
    extra = data.draw(st.lists(st.sampled_from(en_words.allowed), min_size=0, max_size=60, unique=True))
    top = data.draw(st.integers(1, 12))
    words = WordSet.from_lists(cands, extra, name="subset")
    state = State(PatternMatrix(words, build_matrix(words)))
    pool = words.solutions if len(cands) <= 2 else words.allowed
    expected = ref_rank(words.solutions, pool, top)
    hints = state.hints(top=top)
    assert [(h.word, h.candidate) for h in hints] == [(w, c) for _, w, c in expected]
    for h, (bits, _, _) in zip(hints, expected):
        assert h.bits == pytest.approx(bits, abs=1e-12)


def test_ties_go_to_candidates_then_alphabetical() -> None:
    # Candidates BBBBC BBBBD BBBBE. CDEZZ tells all three apart (log2 3 bits); every candidate and
    # AAAAC, YYYYE, ZZZZD pick out one of the three (0.918 bits, a tie); AAAAA tells nothing.
    words = WordSet.from_lists(["bbbbc", "bbbbd", "bbbbe"], ["aaaac", "cdezz", "zzzzd", "yyyye", "aaaaa"])
    hints = State(PatternMatrix(words, build_matrix(words))).hints(top=10)
    assert [h.word for h in hints] == ["cdezz", "bbbbc", "bbbbd", "bbbbe", "aaaac", "yyyye", "zzzzd", "aaaaa"]
    assert [round(h.bits, 4) for h in hints] == [1.585] + [0.9183] * 6 + [0.0]
    assert [h.candidate for h in hints] == [False, True, True, True, False, False, False, False]


def test_bits_a_last_place_apart_tie_so_the_order_cannot_flip() -> None:
    """The device engine's bits and the server's for one guess may differ in the last place (the
    CPU's log2, an order of sums: 3.578317118493435 against 3.5783171184934344, issue 27); at the
    ranking's 9 decimals they are one key, so the order goes to candidates, then A-Z, either way."""
    lo = 3.5783171184934344
    hi = float(np.nextafter(lo, 4.0))
    assert hi == 3.578317118493435
    rows = np.arange(4)
    is_candidate = np.array([False, False, True, True])
    for bits in ([hi, lo, lo, hi], [lo, hi, hi, lo], [lo, lo, hi, hi]):
        split = Split(np.array(bits), np.ones(4, dtype=np.int32), np.ones(4, dtype=np.int32), np.ones(4))
        assert list(_best_first(_primary_key("entropy", split), is_candidate, rows, 4)) == [2, 3, 0, 1], bits


def _state_with(en_start: State, n: int) -> State:
    """The state after CRANE showed a pattern that leaves exactly ``n`` candidates (found, not chosen)."""
    hist = ref_histogram("crane", en_start.words.solutions)
    return en_start.after("crane", min(code for code, k in hist.items() if k == n))


@pytest.mark.parametrize("n", [1, 2])
def test_few_candidates_suggest_a_candidate(en_start, n: int) -> None:
    state = _state_with(en_start, n)
    assert state.count == n
    hints = state.hints(top=5)
    assert len(hints) == n
    assert all(h.candidate for h in hints)
    assert sorted(h.word for h in hints) == state.candidate_words
    assert hints[0].bits == pytest.approx(1.0 if n == 2 else 0.0)


@pytest.mark.slow
def test_hard_mode_ranks_only_legal_guesses(en_words, crane) -> None:
    hard = State(en_words, hard=True).after("crane", "..?!.")
    hints = hard.hints(top=40)
    assert all(hard.hard_mode_violation(h.word) is None for h in hints)
    assert "tousy" not in {h.word for h in hints}
    legal = [w for w in en_words.allowed if hard.hard_mode_violation(w) is None]
    expected = ref_rank(hard.candidate_words, legal, 40)
    assert [h.word for h in hints] == [w for _, w, _ in expected]
    assert hints[0].bits < crane.hints(top=1)[0].bits


def test_rank_errors(crane) -> None:
    with pytest.raises(RatenError, match="unknown strategy"):
        crane.hints(strategy="best")
    with pytest.raises(RatenError, match="top must be at least 1"):
        rank(crane, top=0)


def test_analyze_equals_reference(crane) -> None:
    cands = crane.candidate_words
    for word in ("tousy", "qxzvj", "taint"):
        report = analyze(crane, word)
        bits, patterns, largest, expected = ref_split(word, cands)
        assert report["bits"] == pytest.approx(bits, abs=1e-12)
        assert (report["patterns"], report["largest"]) == (patterns, largest)
        assert report["expected_remaining"] == pytest.approx(expected)
        assert report["candidate"] == (word in cands)
        groups: dict[str, list[str]] = {}
        for w in cands:
            groups.setdefault("".join(DOTS[c] for c in ref_colours(word, w)), []).append(w)
        assert {b["pattern"]: b["words"] for b in report["buckets"]} == groups
        assert [b["count"] for b in report["buckets"]] == sorted((len(v) for v in groups.values()), reverse=True)
        assert sum(b["count"] for b in report["buckets"]) == 20


# --- the typed split of one guess ---------------------------------------------------------


def _reference_groups(word: str, cands: list[str]) -> dict[int, list[str]]:
    groups: dict[int, list[str]] = {}
    for w in cands:
        code = int("".join(str(c) for c in ref_colours(word, w)), 3)
        groups.setdefault(code, []).append(w)
    return groups


@pytest.mark.parametrize("word", ["tousy", "qxzvj", "taint", "crane"])
def test_split_of_groups_candidates_by_pattern_code(crane, word) -> None:
    cands = crane.candidate_words
    split = split_of(crane, word)
    groups = _reference_groups(word, cands)
    assert {g.code: [cands[i] for i in g.members] for g in split.groups} == groups
    assert [g.count for g in split.groups] == sorted((len(v) for v in groups.values()), reverse=True)
    sizes = [(-g.count, g.code) for g in split.groups]
    assert sizes == sorted(sizes)
    bits, patterns, largest, expected = ref_split(word, cands)
    assert split.word == split.hint.word == word
    assert split.hint.bits == pytest.approx(bits, abs=1e-12)
    assert (split.hint.patterns, split.hint.largest) == (patterns, largest)
    assert split.hint.expected_remaining == pytest.approx(expected)
    assert split.hint.candidate == (word in cands)


def test_split_of_the_top_hint_matches_its_ranking(crane) -> None:
    top = crane.hints(top=1)[0]
    assert split_of(crane, top.word).hint == top


def test_split_head_keeps_the_largest_and_sums_the_rest(crane) -> None:
    split = split_of(crane, "tousy")
    shown, other_groups, other_words = split.head(3)
    assert shown == split.groups[:3]
    assert other_groups == len(split.groups) - 3
    assert other_words + sum(g.count for g in shown) == crane.count
    assert split.head(100) == (split.groups, 0, 0)


def test_split_of_a_fallback_state(en_start) -> None:
    state = en_start.after("soare", "!!!!!")  # no solution fits: the allowed word does
    assert state.fallback is not None
    split = split_of(state, "soare")
    assert [(g.code, list(g.members)) for g in split.groups] == [(242, [0])]
    assert split.hint.candidate and split.hint.bits == 0


def test_hard_mode_suggests_no_zero_bit_guess_while_a_guess_splits(en_words) -> None:
    """After BIGHT=.!!!! in hard mode every legal guess is ?IGHT: the nine candidates split the
    others (0.503 bits each), AIGHT, BIGHT and DIGHT cannot (one pattern). They used to fill the
    list after the candidates; now only the useful guesses are offered."""
    state = State(en_words, hard=True).after("bight", ".!!!!")
    assert state.candidate_words == ["eight", "fight", "light", "might", "night", "right", "sight", "tight", "wight"]
    useless = [w for w in ("aight", "bight", "dight") if ref_split(w, state.candidate_words)[1] == 1]
    assert useless == ["aight", "bight", "dight"]  # the premise: legal, and they tell nothing
    hints = state.hints(top=12)
    assert [h.word for h in hints] == state.candidate_words
    assert all(h.bits > 0 for h in hints)
    # normal mode keeps every guess (the useless ones only ever come after the useful ones)
    normal = State(en_words).after("bight", ".!!!!").hints(top=40)
    assert all(h.bits > 0 for h in normal)


def test_hard_mode_with_only_useless_guesses_still_suggests_them() -> None:
    """When no legal guess splits the candidates, the zero-bit guesses are all there is."""
    words = WordSet.from_lists(["aaaab", "aaaac"], ["aaaad", "aaaae"])
    table = build_matrix(words)
    from raten.engine.rank import rank_table

    hints = rank_table(table, np.array([2, 3]), np.arange(2), np.array([0, 1]), words, top=5, hard=True)
    assert [h.word for h in hints] == ["aaaad", "aaaae"] and all(h.bits == 0 for h in hints)


@pytest.mark.parametrize("strategy", ["entropy", "expected", "minimax", "partitions", "lookahead:3"])
def test_answers_only_ranks_only_candidates(crane, strategy: str) -> None:
    hints = crane.hints(top=30, strategy=strategy, answers_only=True)
    assert {h.word for h in hints} == set(crane.candidate_words)
    assert all(h.candidate for h in hints)
    if strategy == "entropy":
        want = ref_rank(crane.candidate_words, crane.candidate_words, top=30)
        assert [h.word for h in hints] == [w for _, w, _ in want]
        assert crane.hints(top=30, strategy="candidates-entropy") == hints


@given(seed=st.integers(0, 10_000), rows=st.integers(0, 3))
@settings(max_examples=40, deadline=None)
@pytest.mark.slow
def test_a_clear_favourite_is_guessed_first(seed: int, rows: int) -> None:
    """``State.decided``: the likeliest candidate weighs at least half (under equal weights: one or
    two candidates left, as before); then only candidates are ranked, the likeliest first."""
    rnd = random.Random(seed)
    allowed = sorted({"".join(rnd.choice("abcde") for _ in range(5)) for _ in range(60)})
    words = WordSet.from_lists(allowed[:20], allowed, name="r")
    weighted = words.with_prior(
        "test", np.array([rnd.choice([1.0, 3.0, 40.0]) for _ in allowed]), solutions=words.allowed
    )
    answer = rnd.choice(allowed)
    for plain in (State(words), State(weighted)):
        state = plain
        for _ in range(rows):
            guess = rnd.choice(allowed)
            state = state.after(guess, pattern(guess, answer))
        w = state.answer_weights()
        favourite = state.count <= 2 if w is None else state.count <= 2 or 2 * w.max() >= w.sum()
        assert state.decided == favourite
        hints = state.hints(top=3)
        if favourite:
            assert set(state.guess_rows()) == set(state.candidate_rows())
            if w is not None:
                assert dict(zip(state.candidate_words, w))[hints[0].word] == w.max()
