"""Safe guesses against brute force on small random lists: normal and hard, limits 2 to 5."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from functools import cache

import pytest

from raten.engine.words import WordSet
from raten.trees.safety import Guarantee, covered_set, covers, narrower
from reference import ref_code

GREEN_CODE = 242


def small_words(seed: int) -> WordSet:
    """Random five-letter strings over a small alphabet: many look-alikes, many tight groups."""
    rng = random.Random(seed)
    alphabet = "aeinrstl"[: rng.randint(5, 8)]
    words: set[str] = set()
    size = rng.randint(10, 22)
    while len(words) < size:
        words.add("".join(rng.choice(alphabet) for _ in range(5)))
    pool = sorted(words)
    rng.shuffle(pool)
    cut = rng.randint(3, size - 2)
    return WordSet.from_lists(pool[:cut], pool[cut:], name=f"small{seed}")


def legal(guess: str, history: tuple) -> bool:
    """Hard mode, written out: every green kept in place, every revealed letter used as often."""
    for g, code in history:
        digits = [(code // 3**k) % 3 for k in range(4, -1, -1)]
        if any(d == 2 and guess[i] != g[i] for i, d in enumerate(digits)):
            return False
        shown = Counter(g[i] for i, d in enumerate(digits) if d)
        have = Counter(guess)
        if any(have[letter] < n for letter, n in shown.items()):
            return False
    return True


def brute(words: WordSet, hard: bool):
    """``solvable(cands, left, history)``: every guess tried at every node, nothing pruned."""

    @cache
    def solvable(cands: frozenset, left: int, history: tuple) -> bool:
        if not cands:
            return True
        if left <= 0:
            return False
        if len(cands) == 1:
            return True
        return any(safe(g, cands, left, history) for g in words.allowed if not hard or legal(g, history))

    def safe(g: str, cands: frozenset, left: int, history: tuple) -> bool:
        groups: dict[int, set[str]] = {}
        for s in cands:
            groups.setdefault(ref_code(g, s), set()).add(s)
        return all(
            solvable(frozenset(grp), left - 1, (*history, (g, code)))
            for code, grp in groups.items()
            if code != GREEN_CODE
        )

    return solvable, safe


@pytest.mark.slow
@pytest.mark.parametrize("hard", [False, True])
@pytest.mark.parametrize("seed", range(12))
def test_safety_equals_brute_force(seed: int, hard: bool) -> None:
    words = small_words(seed)
    solvable, safe = brute(words.any_answer(), hard)
    everything = frozenset(words.allowed)
    rng = random.Random(seed)
    for limit in (2, 3, 4, 5):
        guarantee = Guarantee(words, hard=hard, limit=limit, over="all", memo_bits=10)
        # the start, and a position one guess in
        first = rng.choice(words.allowed)
        answer = rng.choice(words.allowed)
        for history in ((), ((first, ref_code(first, answer)),)):
            cands = frozenset(w for w in everything if all(ref_code(g, w) == c for g, c in history))
            left = limit - len(history)
            pool = [g for g in words.allowed if not hard or legal(g, history)]
            got = guarantee.judge(history, pool, work=None)
            for verdict in got:
                want = safe(verdict.word, cands, left, history) if left > 0 else False
                assert verdict.safe is want, (words, hard, limit, history, verdict)
                if not want and left > 0:
                    assert verdict.at_risk > 0
            choice = guarantee.choose(history, pool[::-1], work=None)
            if choice is not None and left > 0:
                assert choice.safe is solvable(cands, left, history), (words, hard, limit, history, choice)
                if choice.safe:
                    assert safe(choice.word, cands, left, history)


def test_the_first_safe_guess_in_the_strategy_order_is_played() -> None:
    for seed in range(200):
        words = small_words(seed)
        _, safe = brute(words.any_answer(), False)
        cands = frozenset(words.allowed)
        for limit in (2, 3, 4):
            verdicts = [safe(g, cands, limit, ()) for g in words.allowed]
            if verdicts[0] or not any(verdicts):
                continue
            choice = Guarantee(words, limit=limit, memo_bits=10).choose((), list(words.allowed), work=None)
            assert choice is not None and choice.safe
            assert choice.word == words.allowed[verdicts.index(True)]
            return
    pytest.fail("no list where the first guess is unsafe and a later one safe")


def test_no_safe_guess_plays_the_least_worst_case() -> None:
    for seed in range(200):
        words = small_words(seed)
        solvable, safe = brute(words.any_answer(), False)
        cands = frozenset(words.allowed)
        if solvable(cands, 2, ()) or not solvable(cands, 3, ()):
            continue
        choice = Guarantee(words, limit=2, memo_bits=10).choose((), list(words.allowed), work=None)
        assert choice is not None and choice.safe is False and choice.worst == 3
        assert safe(choice.word, cands, 3, ())
        return
    pytest.fail("no list that needs exactly one guess more than three")


def test_likely_covers_the_solutions_and_common_words() -> None:
    words = WordSet.from_lists(["crane", "zzzzz"], ["house", "qajaq", "crane", "zzzzz"], name="t", language="en")
    cover = covered_set(words, "likely")
    assert {"crane", "zzzzz", "house"} <= set(cover.solutions)
    assert "qajaq" not in cover.solutions


def _ladder_words() -> WordSet:
    """Two solutions and common and rare allowed words: a ladder of every step."""
    return WordSet.from_lists(
        ["crane", "zzzzz"], ["house", "haven", "qajaq", "crane", "zzzzz", "psalm", "abaci"], name="t", language="en"
    )


def test_the_fallback_narrows_step_by_step_each_coverage_inside_the_last() -> None:
    """The ladder from every word down to the solutions: each coverage holds the next (and the
    list's solutions down to ``likely``); a weighted prior keeps the list's own solutions as the
    last step, and a list whose solutions are every allowed word (en-nyt) ends at ``likely``."""
    words = _ladder_words()
    steps = narrower("all", words)
    assert steps[0] == "all" and steps[-2:] == ("likely", "solutions") and len(steps) > 3
    covered = [set(covered_set(words, over).solutions) for over in steps]
    assert all(wide >= narrow for wide, narrow in itertools.pairwise(covered))
    assert all({"crane", "zzzzz"} <= c for c in covered)
    assert narrower("likely", words) == ("likely", "solutions")
    assert all(covers(over).startswith("every ") for over in steps)
    from raten.wordlists.prior import apply_prior

    for prior in ("frequency", "mixture"):
        weighted = apply_prior(words, prior)
        assert narrower("all", weighted)[-1] == "solutions"
        assert set(covered_set(weighted, "solutions").solutions) == {"crane", "zzzzz"}  # the list's own
        assert {"crane", "zzzzz"} <= set(covered_set(weighted, "likely").solutions)
    every = WordSet.from_lists(words.allowed, words.allowed, name="t", language="en")
    assert narrower("all", apply_prior(every, "frequency"))[-1] == "likely"  # its solutions: every word


@pytest.mark.slow
def test_where_no_covered_word_fits_the_next_wider_coverage_is_kept_safe() -> None:
    """QAJAQ is no likely word: once the rows leave only it, the guess is judged over every word."""
    from raten.engine.feedback import pattern
    from raten.engine.state import State
    from raten.play.strategies import STRATEGIES, GuardedStrategy

    words = WordSet.from_lists(
        ["crane", "house"], ["qajaq", "haven", "psalm", "crane", "house"], name="t", language="en"
    )
    state = State(words).after("psalm", pattern("psalm", "qajaq")).after("haven", pattern("haven", "qajaq"))
    strategy = GuardedStrategy(STRATEGIES["entropy"], 6, "likely")
    assert len(strategy.guarantee(state).candidates(state.history)) == 0
    decision = strategy.decide(state)
    assert decision.over == "all" and decision.safe is True


def test_a_damaged_option_is_refused() -> None:
    from raten.errors import RatenError

    words = small_words(0)
    with pytest.raises(RatenError, match="guarantee-over"):
        covered_set(words, "most")
    with pytest.raises(RatenError, match="guarantee-over"):
        covered_set(words, "weight>=0.3")  # not a step of the ladder
    with pytest.raises(RatenError, match="limit"):
        Guarantee(words, limit=0)


@pytest.mark.slow
def test_a_guarded_strategy_plays_a_safe_guess() -> None:
    """Under the guarantee the entropy strategy's guess is safe wherever a safe guess exists."""
    from raten.engine.state import State
    from raten.play.strategies import STRATEGIES, GuardedStrategy

    checked = 0
    for seed in range(60):
        words = small_words(seed)
        solvable, safe = brute(words.any_answer(), False)
        cands = frozenset(words.allowed)
        for limit in (2, 3):
            if not solvable(cands, limit, ()):
                continue
            guess = GuardedStrategy(STRATEGIES["entropy"], limit, "all").next_guess(State(words))
            assert safe(guess, cands, limit, ()), (words, limit, guess)
            checked += 1
    assert checked >= 5


def _scripted(monkeypatch, script: dict[str, tuple[bool, int]]) -> dict[str, int]:
    """``Guarantee._judge`` replaced: each word of ``script`` is (its verdict, the work it takes to
    settle it); a call spends the work it may (up to ``ST_STOP_AT``), goes on where the last call
    stopped, and says undecided until that work is done. Returns the work spent on each word."""
    from raten.trees import kernels as tk
    from raten.trees.safety import Safety

    spent = dict.fromkeys(script, 0)

    def judge(self, rows, *_position, count):  # noqa: ARG001 - the position is the script's
        word = self.words.allowed[rows[0]]
        verdict, cost = script[word]
        room = int(self.stats[tk.ST_STOP_AT] - self.stats[tk.ST_CELLS]) if self.stats[tk.ST_STOP_AT] else cost
        step = min(room, cost - spent[word])
        spent[word] += step
        self.stats[tk.ST_CELLS] += step
        return [Safety(word, verdict if spent[word] >= cost else None)]

    monkeypatch.setattr(Guarantee, "_judge", judge)
    return spent


def test_the_strategys_first_safe_guess_is_kept_when_the_work_allows(monkeypatch) -> None:
    """The choice is the first safe guess in the strategy's order, even when a later one is
    proven safe sooner: the rounds go back to the earlier one with more work."""
    words = small_words(3)
    a, b, c = words.allowed[:3]
    spent = _scripted(monkeypatch, {a: (False, 300), b: (True, 5_000), c: (True, 10)})
    choice = Guarantee(words).choose((), [a, b, c], work=100_000)
    assert choice is not None and choice.word == b and choice.safe
    assert spent[a] == 300 and spent[b] == 5_000


def test_a_guess_hard_to_decide_does_not_use_up_the_others_turn(monkeypatch) -> None:
    """One guess that no work settles (SOARE over en-nyt's common words in hard mode) leaves the
    guesses after it their turn: the first one proven safe is played, the work kept."""
    words = small_words(3)
    a, b, c = words.allowed[:3]
    spent = _scripted(monkeypatch, {a: (True, 10**12), b: (False, 50), c: (True, 400)})
    choice = Guarantee(words).choose((), [a, b, c], work=100_000)
    assert choice is not None and choice.word == c and choice.safe
    assert spent[a] <= 50_000 and sum(spent.values()) <= 100_000  # the ranked guesses had half


def _spending(monkeypatch) -> list[tuple[str, int]]:
    """``Guarantee.choose`` replaced by one that spends all the work it is given and decides
    nothing; returns the (coverage, work) of each call."""
    from raten.trees import kernels as tk
    from raten.trees.safety import Choice

    asked: list[tuple[str, int]] = []

    def choose(self, history, ranked, work):  # noqa: ARG001 - nothing is searched
        asked.append((self.over, work))
        self.stats[tk.ST_CELLS] += work
        return Choice(ranked[0], None)

    monkeypatch.setattr(Guarantee, "choose", choose)
    return asked


def test_one_decision_does_its_work_once_over_every_coverage(monkeypatch) -> None:
    """At run time the coverages a decision tries share its work (each had all of it before:
    seven times the work on a list without a book), and each narrower one still has its turn;
    building a book each has the whole work."""
    from raten.engine.state import State
    from raten.play.strategies import STRATEGIES, GuardedStrategy

    asked = _spending(monkeypatch)
    words = _ladder_words()
    decision = GuardedStrategy(STRATEGIES["entropy"], 6, "all", work=1_000).decide(State(words).after("psalm", 0))
    assert decision.safe is None
    assert [over for over, _ in asked] == list(narrower("all", words))
    assert sum(work for _, work in asked) <= 1_000 and all(work >= 1 for _, work in asked)
    assert asked[0][1] == 500  # the widest coverage: half, the rest for the narrower ones
    asked.clear()  # building a book, offline: each coverage has the whole work
    GuardedStrategy(STRATEGIES["entropy"], 6, "all", work=1_000).decide(State(words).after("psalm", 0), use_book=False)
    assert asked == [(over, 1_000) for over in narrower("all", words)]


def test_the_first_two_moves_are_decided_once_per_strategy(monkeypatch) -> None:
    """Without a book the opener and the second guesses after it are decided once and kept (a
    benchmark decided the opener of every game again); later moves and the second guesses after
    another opener are not kept (a server's clients could fill the memory with them)."""
    from raten.engine.state import State
    from raten.play.strategies import STRATEGIES, GuardedStrategy

    asked = _spending(monkeypatch)
    words = _ladder_words()
    strategy = GuardedStrategy(STRATEGIES["entropy"], 6, "all", work=1_000)
    for state in (State(words), State(words).after(strategy.decide(State(words)).word, 0)):
        first = strategy.decide(state)
        calls = len(asked)
        assert strategy.decide(state) == first and len(asked) == calls
    opener = strategy.decide(State(words)).word
    other = next(w for w in words.allowed if w != opener)
    for state in (State(words).after(other, 0), State(words).after(opener, 0).after(other, 0)):
        strategy.decide(state)
        calls = len(asked)
        strategy.decide(state)
        assert len(asked) > calls, state.history


@pytest.mark.parametrize("hard", [False, True])
def test_look_alikes_need_a_guess_each(hard: bool) -> None:
    """Words that differ in one letter and nothing to tell them apart: n of them need n guesses,
    never fewer (the search answers n words within n guesses without searching)."""
    for n in (3, 4):
        alike = [f"aaaa{c}" for c in "bcde"[:n]]
        words = WordSet.from_lists(alike, alike, name="alike")
        for limit in (n - 1, n, n + 1):
            choice = Guarantee(words, hard=hard, limit=limit).choose((), alike[:1])
            assert choice is not None and choice.safe is (limit >= n), (n, limit, choice)
            assert choice.worst == max(limit, n)
