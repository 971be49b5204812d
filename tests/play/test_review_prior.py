"""The review and the exact trees under a weighted prior: V, Q, regret and luck against brute force;
the CLI (`raten tree`, `raten tree check`, `raten review`) and `POST /api/review` with a prior."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from click.testing import CliRunner

from raten.engine.feedback import ALL_GREEN, pattern
from raten.engine.hardmode import violation
from raten.engine.words import WordSet
from raten.play.review import luck_score, review
from raten.trees.values import Budget, Values
from raten.trees.weights import integer_weights
from raten.wordlists.presets import load_words


def big() -> Budget:
    """A budget that never runs out within a test (a fresh one: its clock starts when it is made,
    so one made at import would be spent in a long run before the test that uses it)."""
    return Budget(seconds=600)


INF = 1 << 40


class Brute:
    """Least weighted totals by trying every (legal) guess at every position: the reference."""

    def __init__(self, words: WordSet, hard: bool):
        self.words = words
        self.hard = hard
        self.w = [int(x) for x in integer_weights(words)]
        self.memo: dict = {}

    def weight(self, cands) -> int:
        return sum(self.w[s] for s in cands)

    def total(self, cands: tuple[int, ...], history: tuple) -> int:
        """V of ``cands`` as a weighted total."""
        if len(cands) == 1:
            return self.w[cands[0]]
        key = (cands, history if self.hard else ())
        if key not in self.memo:
            self.memo[key] = min(
                self.q(cands, history, g) for g in self.words.allowed if not (self.hard and violation(g, history))
            )
        return self.memo[key]

    def groups(self, cands, g: str) -> dict[int, tuple[int, ...]]:
        out: dict[int, list[int]] = {}
        for s in cands:
            out.setdefault(pattern(g, self.words.solutions[s]), []).append(s)
        return {c: tuple(v) for c, v in out.items()}

    def q(self, cands: tuple[int, ...], history: tuple, g: str) -> int:
        """Q of guess ``g`` as a weighted total: W + the groups' least totals (0 for g's own)."""
        groups = self.groups(cands, g)
        if len(groups) == 1 and ALL_GREEN not in groups:
            return INF
        total = self.weight(cands)
        for code, grp in groups.items():
            if code != ALL_GREEN:
                total += self.total(grp, (*history, (g, code)))
        return total


def weighted_list(seed: int) -> WordSet:
    """Seven English answers and six more guesses, with random weights (some very skewed)."""
    en = load_words("en")
    rng = random.Random(seed)
    sols = rng.sample(en.solutions, 7)
    extra = rng.sample(en.allowed, 6)
    words = WordSet.from_lists(sols, extra, name=f"review-prior-{seed}")
    spread = rng.choice((1, 3, 6))
    return words.with_prior("test", np.array([10 ** rng.uniform(-spread, spread) for _ in sols]))


@pytest.mark.parametrize("hard", [False, True])
@pytest.mark.parametrize("seed", range(6))
def test_weighted_v_and_q_equal_brute_force(seed, hard):
    words = weighted_list(seed)
    ref = Brute(words, hard)
    values = Values(words, hard=hard, max_guesses=None, budget=big())
    pos = values.start()
    every = tuple(range(len(words.solutions)))
    v, _ = values.best(pos)
    assert v.exact and v.total == ref.total(every, ()) and v.count == ref.weight(every)
    for g in words.allowed:
        q = values.guess(pos, g).q
        want = ref.q(every, (), g)
        if want < INF:
            assert q.exact and q.total == want and q.count == ref.weight(every), g
    rng = random.Random(seed)
    g0 = rng.choice(words.allowed)
    code = pattern(g0, rng.choice(words.solutions))
    nxt = values.after(pos, g0, code)
    if len(nxt.cands) > 1:
        cands = tuple(int(i) for i in nxt.cands)
        v, _ = values.best(nxt)
        assert v.total == ref.total(cands, ((g0, code),)) and v.mean == pytest.approx(v.total / ref.weight(cands))


@pytest.mark.parametrize("seed", range(4))
def test_weighted_regret_and_luck_follow_the_brute_force_values(seed):
    """The first move of a game: regret = (Q - best Q) / W, luck from the outcomes' V weighted by
    their share of the weight, both from the reference values."""
    words = weighted_list(100 + seed)
    ref = Brute(words, False)
    rng = random.Random(seed)
    answer = rng.choice(words.solutions)
    first = rng.choice(words.allowed)
    every = tuple(range(len(words.solutions)))
    if ref.q(every, (), first) >= INF:
        return
    r = review(words, [first, answer], answer, budget=big(), solver=False)
    m = r.moves[0]
    # the review works under the 6-guess limit; these tiny lists never need more than six
    whole = ref.weight(every)
    best = ref.total(every, ())
    assert m.regret_kind == "exact"
    assert m.regret == pytest.approx((ref.q(every, (), first) - best) / whole)
    assert m.best_q == pytest.approx(best / whole)
    groups = ref.groups(every, first)
    badness = {c: (0.0 if c == ALL_GREEN else ref.total(g, ()) / ref.weight(g)) for c, g in groups.items()}
    mine = badness[pattern(first, answer)]
    worse = sum(ref.weight(g) for c, g in groups.items() if badness[c] > mine + 1e-12) / whole
    same = sum(ref.weight(g) for c, g in groups.items() if abs(badness[c] - mine) <= 1e-12) / whole
    assert m.luck == luck_score(worse, same)
    after = groups[pattern(first, answer)]
    assert m.bits == pytest.approx(np.log2(whole / ref.weight(after)))
    assert r.prior == "test"


@pytest.mark.slow
def test_a_german_review_under_the_frequency_prior_is_weighted_and_honest_at_the_start():
    """The opener tables are uniform: under the frequency prior the first move is not read from
    them, so with a small budget its best value is a bound, never a claimed exact value."""
    de = load_words("de")
    r = review(de, ["tarne", "tasse"], "tasse", prior="frequency", budget=Budget(seconds=1), solver=False)
    assert r.prior == "frequency"
    first = r.moves[0]
    assert first.before == len(load_words("de", prior="frequency").solutions)
    assert not first.best_exact and first.regret_kind != "exact"
    assert r.moves[-1].q_exact


def _tiny_files(tmp_path):
    en = load_words("en")
    rng = random.Random(4)
    sols = rng.sample(en.solutions, 14)
    extra = rng.sample(en.allowed, 10)
    s, a = tmp_path / "s.txt", tmp_path / "a.txt"
    s.write_text("\n".join(sols) + "\n")
    a.write_text("\n".join(sols + extra) + "\n")
    return s, a


def test_cli_tree_under_the_frequency_prior_writes_and_checks_a_weighted_tree(tmp_path):
    from raten.cli.main import main

    s, a = _tiny_files(tmp_path)
    out = tmp_path / "t.txt"
    lists = ["--solutions", str(s), "--allowed", str(a)]
    res = CliRunner().invoke(main, ["tree", *lists, "--prior", "frequency", "--out", str(out), "--json"])
    assert res.exit_code == 0, res.output
    summary = json.loads(res.output)
    words = load_words(None, solutions=s, allowed=a, prior="frequency")
    w = dict(zip(words.solutions, integer_weights(words), strict=True))
    assert summary["prior"] == "frequency" and summary["weight"] == sum(int(x) for x in w.values())
    head = out.read_text().splitlines()[1]
    assert "prior=frequency" in head and f"weight={summary['weight']}" in head
    # the file's total, recounted here: sum of weight x guesses
    paths = [line.split() for line in out.read_text().splitlines()[2:]]
    assert summary["total"] == sum(int(w[p[-2]]) * (len(p) // 2) for p in paths)
    ok = CliRunner().invoke(main, ["tree", "check", *lists, str(out), "--json"])
    assert ok.exit_code == 0, ok.output
    assert json.loads(ok.output)["total"] == summary["total"]
    wrong = CliRunner().invoke(main, ["tree", "check", *lists, "--prior", "uniform", str(out)])
    assert wrong.exit_code != 0 and "frequency prior" in wrong.output and "Traceback" not in wrong.output


@pytest.mark.slow
def test_cli_review_under_the_frequency_prior():
    from raten.cli.main import main

    args = ["review", "--words", "de", "--prior", "frequency", "--seconds", "0.5", "tarne", "tasse"]
    args += ["--answer", "tasse"]
    res = CliRunner().invoke(main, [*args, "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["prior"] == "frequency"
    table = CliRunner().invoke(main, args)
    assert table.exit_code == 0 and "frequency prior" in table.output


@pytest.mark.slow
def test_post_review_with_a_prior(tmp_path):
    from fastapi.testclient import TestClient

    from raten.web import create_app
    from raten.web.service import Lists

    app = create_app(lists=Lists.load({"de": load_words("de")}), db_path=tmp_path / "r.sqlite3", daily_secret="t")
    game = {"list": "de", "guesses": ["tarne", "tasse"], "answer": "tasse"}
    with TestClient(app) as client:
        app.state.lists.warmup.wait("de", "frequency")  # loaded in the background (503 until then)
        ok = client.post("/api/review", json=game | {"prior": "frequency"})
        assert ok.status_code == 200, ok.text
        assert ok.json()["prior"] == "frequency"
        plain = client.post("/api/review", json=game)
        assert plain.status_code == 200 and plain.json()["prior"] == "mixture"  # de's own
        bad = client.post("/api/review", json=game | {"prior": "zipf"})
        assert bad.status_code == 422 and "error" in bad.json()
