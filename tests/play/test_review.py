"""The review: exact V and Q against brute force, zero regret along proven trees, the inputs and faces."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from raten.engine.feedback import ALL_GREEN, format_pattern, pattern
from raten.engine.hardmode import violation
from raten.engine.words import WordSet
from raten.errors import RatenError
from raten.play.review import luck_score, review, skill_score
from raten.play.review_colours import parse_share
from raten.trees.model import Tree
from raten.trees.values import Budget, Values
from raten.wordlists.presets import load_words

TREES = Path(__file__).resolve().parents[2] / "src" / "raten" / "data" / "trees"


def big() -> Budget:
    """A budget no test spends, on a fresh clock (one made at import ran out in a long suite)."""
    return Budget(seconds=600)


def brute_total(words: WordSet, cands: tuple[int, ...], history: tuple, hard: bool, memo: dict) -> int:
    """Least total guesses for ``cands`` by trying every (legal) guess, recursively: the reference."""
    if len(cands) == 1:
        return 1
    key = (cands, history if hard else ())
    if key in memo:
        return memo[key]
    best = 1 << 40
    for g in words.allowed:
        if hard and violation(g, history):
            continue
        best = min(best, brute_q(words, cands, history, hard, memo, g))
    memo[key] = best
    return best


def brute_q(words: WordSet, cands: tuple[int, ...], history: tuple, hard: bool, memo: dict, g: str) -> int:
    """Total of guess ``g`` then optimal play: n + the groups' least totals (0 for g's own)."""
    groups: dict[int, list[int]] = {}
    for s in cands:
        groups.setdefault(pattern(g, words.solutions[s]), []).append(s)
    if len(groups) == 1 and ALL_GREEN not in groups:
        return 1 << 40  # no progress
    total = len(cands)
    for code, grp in groups.items():
        if code != ALL_GREEN:
            total += brute_total(words, tuple(grp), (*history, (g, code)), hard, memo)
    return total


def small_list(seed: int) -> WordSet:
    en = load_words("en")
    rng = random.Random(seed)
    sols = rng.sample(en.solutions, 7)
    extra = rng.sample(en.allowed, 6)
    return WordSet.from_lists(sols, extra, name=f"review-{seed}")


@pytest.mark.slow
@pytest.mark.parametrize("hard", [False, True])
@pytest.mark.parametrize("seed", range(6))
def test_v_and_q_equal_brute_force_on_small_random_lists(seed, hard):
    words = small_list(seed)
    values = Values(words, hard=hard, max_guesses=None, budget=big())
    pos = values.start()
    memo: dict = {}
    every = tuple(range(len(words.solutions)))
    v, _ = values.best(pos)
    assert v.exact and v.total == brute_total(words, every, (), hard, memo)
    for g in words.allowed:
        q = values.guess(pos, g).q
        ref = brute_q(words, every, (), hard, memo, g)
        if ref < 1 << 40:
            assert q.exact and q.total == ref, g
    # one position deeper, after a random first guess
    rng = random.Random(seed)
    g0 = rng.choice(words.allowed)
    code = pattern(g0, rng.choice(words.solutions))
    nxt = values.after(pos, g0, code)
    if len(nxt.cands) > 1:
        cands = tuple(int(i) for i in nxt.cands)
        v, _ = values.best(nxt)
        assert v.total == brute_total(words, cands, ((g0, code),), hard, memo)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["de-normal", "de-hard", "en-normal", "en-hard"])
def test_every_move_of_a_proven_tree_has_regret_zero(name):
    words = load_words(name.split("-")[0], prior="uniform")  # the proven trees are for the solutions, equally likely
    tree = Tree.read(TREES / f"{name}.txt")
    hard = name.endswith("hard")
    for answer, path in sorted(tree.paths.items()):
        r = review(words, [g for g, _ in path], answer, hard=hard, budget=big(), solver=False)
        for m in r.moves:
            assert m.regret == 0.0 and m.regret_kind == "exact" and m.skill == 99, (answer, m)
        assert r.skill == 99 and r.total_regret == 0.0


@pytest.mark.slow
def test_a_worse_move_has_the_regret_of_its_subtree_totals():
    words = load_words("de", prior="uniform")
    values = Values(words, budget=big())
    pos = values.after(values.start(), "tarne", pattern("tarne", "taste"))
    best, _ = values.best(pos)
    worse = next(w for w in ("tarne", "kilos", "abend") if values.guess(pos, w).q.total > best.total)
    q = values.guess(pos, worse).q
    r = review(words, ["tarne", worse, "taste"], "taste", budget=big(), solver=False)
    m = r.moves[1]
    assert m.regret_kind == "exact" and m.regret == pytest.approx((q.total - best.total) / len(pos.cands))
    assert m.regret > 0 and m.skill < 99 and m.best_q == pytest.approx(best.total / len(pos.cands))


@pytest.mark.slow
def test_could_be_answer_is_whether_the_guess_fits_every_earlier_row():
    """Against the slow way: the solutions that would have shown every earlier row's colours."""
    words = load_words("de", prior="uniform")
    guesses = ["kilos", "tarne", "tasse", "taste"]
    r = review(words, guesses, "taste", budget=big(), solver=False)
    for i, m in enumerate(r.moves):
        rows = [(g, pattern(g, "taste")) for g in guesses[:i]]
        fits = {s for s in words.solutions if all(pattern(g, s) == c for g, c in rows)}
        assert m.could_be_answer == (m.guess in fits), m
    assert {m.could_be_answer for m in r.moves} == {True, False}  # both kinds of move are checked


def test_scores():
    assert skill_score(0) == 99 and skill_score(1e-9) == 98 and skill_score(0.5) == 36
    assert luck_score(0.5, 0.0) == 50 and luck_score(0.0, 1.0) == 50 and luck_score(1.0, 0.0) == 99


@pytest.mark.slow
def test_colours_and_share_text_agree_with_the_answer():
    words = load_words("de", prior="uniform")
    guesses = ["tarne", "kilos", "taste"]
    codes = [pattern(g, "taste") for g in guesses]
    share = "6mal5 #123 3/6\n\n" + "\n".join(format_pattern(c, "emoji") for c in codes)
    nyt = share.replace("\U0001f7e9", "\U0001f7e7").replace("\U0001f7e8", "\U0001f7e6")  # high contrast
    assert parse_share(nyt, 5) == codes
    a = review(words, guesses, "taste", solver=False)
    b = review(words, guesses, patterns=[format_pattern(c) for c in codes], solver=False)
    c = review(words, guesses, share=nyt, solver=False)
    assert a.to_dict() == b.to_dict() == c.to_dict()
    with pytest.raises(RatenError) as e:
        review(words, guesses, "tasse", share=share)
    assert e.value.key == "review_mismatch"
    with pytest.raises(RatenError):
        parse_share("Wordle 1,000 X/6", 5)


def test_a_lost_german_game_names_the_answer_as_german_writes_it():
    words = WordSet.from_lists(["boese", "kaese", "masse"], ["boese", "kaese", "masse", "tarne"], language="de")
    lost = next(n for n in review(words, ["tarne", "kaese"], "boese").notes if n.key == "review_lost_answer")
    assert str(lost).endswith("the answer was BÖSE") and lost.params["answer"] == "BÖSE"
    lost = next(n for n in review(words, ["tarne", "kaese"], "masse").notes if n.key == "review_lost_answer")
    assert lost.params["answer"] == "MASSE"  # Masse or Maße: as typed


@pytest.mark.slow
def test_a_lost_game():
    words = load_words("de", prior="uniform")
    guesses = ["kilos", "abend", "mumps", "fjord", "wachs", "zwerg"]
    r = review(words, guesses, "taste")
    assert not r.solved and r.guesses == 6 and any("not solved" in n for n in r.notes)
    assert all(m.regret is None or m.regret >= 0 for m in r.moves)
    assert r.solver[-1][1] == "!!!!!"


def test_a_hard_mode_game_and_an_illegal_hard_move():
    words = load_words("de", prior="uniform")
    # TARSE: de's proven hard-mode optimum (docs/german-optimal.md, trees/de-hard-openers.tsv)
    r = review(words, ["tarse", "taste"], "taste", hard=True)
    assert r.hard and r.moves[0].regret == 0.0 and r.moves[0].skill == 99
    g2 = next(g for g in ("kilos", "abend") if violation(g, (("tarse", pattern("tarse", "taste")),)))
    with pytest.raises(RatenError) as e:
        review(words, ["tarse", g2, "taste"], "taste", hard=True)
    assert e.value.key == "review_hard"


@pytest.mark.slow
def test_an_answer_outside_the_list_is_said_honestly():
    words = load_words("de", prior="uniform")
    outside = next(w for w in words.allowed if w not in words.solution_index)
    r = review(words, ["tarne", outside], outside)
    assert r.solved and any("not one of the" in n for n in r.notes)
    assert r.solver == []


@pytest.mark.slow
def test_an_english_first_guess_is_exact_from_the_proven_openers_table():
    r = review(load_words("en"), ["crane", "tousy", "haunt"], "haunt", budget=Budget(seconds=0.2))
    first = r.moves[0]
    assert first.best_exact and first.regret_kind == "exact" and first.best == "salet"
    # published totals over the 2315 answers: SALET 7920, CRANE 7930 (Selby's table; trees/en-normal-openers.tsv)
    assert first.regret == pytest.approx((7930 - 7920) / 2315)


@pytest.mark.slow
def test_an_english_hard_mode_first_guess_is_exact_from_the_proven_openers_table():
    r = review(load_words("en"), ["crane", "haunt"], "haunt", hard=True, budget=Budget(seconds=0.2), solver=False)
    first = r.moves[0]
    assert first.best_exact and first.regret_kind == "exact" and first.best == "salet"
    # published hard-mode totals within six guesses: SALET 8122, CRANE 8155 (Selby's table)
    assert first.regret == pytest.approx((8155 - 8122) / 2315)


@pytest.mark.slow
def test_a_game_without_an_openers_table_within_a_small_budget_says_at_least():
    # de-ext (every allowed word an answer) has no openers table, so the first guess gets a bound
    r = review(load_words("de-ext"), ["tarne", "kilos"], "kilos", hard=True, budget=Budget(seconds=0.2), solver=False)
    first = r.moves[0]
    assert not first.best_exact and first.regret_kind in ("unknown", "at least", "at most")
    assert r.moves[-1].q_exact  # the small end of the game is always exact
    assert np.isfinite(r.expected)


def test_cli_review_json():
    from raten.cli.main import main

    res = CliRunner().invoke(
        main, ["review", "--words", "de", "--prior", "uniform", "--json", "tarne", "tasse", "--answer", "tasse"]
    )
    assert res.exit_code == 0, res.output
    assert '"skill"' in res.output
    res = CliRunner().invoke(
        main, ["review", "--words", "de", "--prior", "uniform", "tarne", "tasse", "--answer", "tasse"]
    )
    assert res.exit_code == 0 and "skill" in res.output


@pytest.mark.slow
def test_post_review_answers_json_and_json_errors(tmp_path):
    from fastapi.testclient import TestClient

    from raten.web import create_app
    from raten.web.service import Lists

    app = create_app(
        lists=Lists.load({"de": load_words("de", prior="uniform")}), db_path=tmp_path / "r.sqlite3", daily_secret="t"
    )
    with TestClient(app) as client:
        ok = client.post(
            "/api/review", json={"list": "de", "prior": "uniform", "guesses": ["tarne", "tasse"], "answer": "tasse"}
        )
        assert ok.status_code == 200, ok.text
        body = ok.json()
        assert body["moves"][0]["skill"] == 99 and body["moves"][0]["best"] == "tarne"
        bad = client.post(
            "/api/review",
            json={"list": "de", "prior": "uniform", "guesses": ["tarne"], "patterns": [".....", "....."]},
            headers={"Accept-Language": "de"},
        )
        assert bad.status_code == 400 and "Farbzeilen" in bad.json()["error"]
        big = client.post(
            "/api/review", json={"list": "de", "prior": "uniform", "guesses": ["tarne"] * 13, "answer": "tasse"}
        )
        assert big.status_code == 422
        unknown = client.post("/api/review", json={"list": "xx", "guesses": ["tarne"], "answer": "tasse"})
        assert unknown.status_code == 400


def test_a_spent_budget_gives_lower_bounds_never_above_the_exact_values():
    words = load_words("de", prior="uniform")
    exact = Values(words, budget=big())
    spent = Values(words, budget=Budget(seconds=0))
    codes = {pattern("kilos", a) for a in words.solutions}
    positions = [spent.after(spent.start(), "kilos", c) for c in sorted(codes)]
    large = sorted((p for p in positions if len(p.cands) > 30), key=lambda p: len(p.cands))[:3]
    assert large
    for pos in large:
        bound, _ = spent.best(pos)
        value, _ = exact.best(pos)
        assert value.exact and bound.total <= value.total
        for g in ("tarne", "mauer"):
            q_bound, q = spent.guess(pos, g).q, exact.guess(pos, g).q
            assert q.exact and q_bound.total <= q.total
            assert not q_bound.exact or q_bound.total == q.total


def test_a_hard_mode_share_text_is_noticed():
    words = load_words("de", prior="uniform")
    share = "Wordle 1,234 2/6*\n\n" + format_pattern(pattern("tarne", "tasse"), "emoji")
    share += "\n" + format_pattern(242, "emoji")
    r = review(words, ["tarne", "tasse"], share=share, solver=False)
    assert any("hard-mode" in n for n in r.notes)


def test_a_copy_of_a_list_reuses_its_searcher():
    """A worker process receives a pickled copy of the list with every request: no new 60 MB memo each time."""
    import pickle

    words = load_words("de", prior="uniform")
    copy = pickle.loads(pickle.dumps(words))
    assert copy is not words and Values(copy).search is Values(words).search


@pytest.mark.slow
def test_a_guess_that_tells_little_leaves_a_bound_not_a_search_of_hours() -> None:
    """After XXXXX (all grey) 2278 English words are left: far too many to search within any
    budget, since a search once begun is not interrupted. The move says so instead of searching."""
    r = review(load_words("en"), ["xxxxx", "crane"], "crane", budget=big(), solver=False)
    second = r.moves[1]
    assert second.before == sum(1 for w in load_words("en").solutions if "x" not in w)
    assert second.best is None and second.regret_kind != "exact"
