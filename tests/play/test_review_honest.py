"""The review does not flatter or contradict itself (issue 27, items 1-4): a bounded regret makes
the game's total and skill bounds, the budget is work (the same figures under any load), a game
that cannot have happened is refused with the hint's error, and the table fits 80 columns."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from rich.cells import cell_len

from raten.cli.main import main
from raten.engine.feedback import format_pattern, parse_pattern, pattern
from raten.engine.state import State
from raten.errors import RatenError
from raten.play import review as review_module
from raten.play.review import review, skill_score
from raten.trees import values
from raten.trees.values import REVIEW_CELLS, REVIEW_SECONDS, Budget, Values
from raten.web import create_app, i18n
from raten.web.service import Lists
from raten.wordlists.presets import load_words

#: SALET then QAJAQ against PINCH (the issue's game): within this much work QAJAQ's search is
#: stopped after COURD proved the best, so its regret is "at least"; the full search takes about 3e8.
BOUNDED_CELLS = 100_000_000
GAME = (["salet", "qajaq"], "pinch")
#: rows no word can have shown: TOUSY's green O in position 2 against HAUNT's green A
IMPOSSIBLE = [("crane", "?...."), ("tousy", ".!!.."), ("haunt", "!!!!!")]


@pytest.fixture
def fresh_memo(monkeypatch):
    """Searchers (and memos) of this test's own: the work a review needs does not depend on earlier tests."""
    monkeypatch.setattr(values, "_searchers", {})


def run(*args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(main, list(args), env=env)


# --- item 1: a bounded regret gives a bounded total and skill -------------------------------------


@pytest.mark.usefixtures("fresh_memo")
def test_a_bounded_regret_makes_the_total_a_lower_bound_and_the_skill_an_upper_one(en_words) -> None:
    r = review(en_words, *GAME, budget=Budget.work(BOUNDED_CELLS, 600))
    first, second = r.moves
    assert first.regret_kind == "exact" and second.regret_kind == "at least" and second.regret > 0.5
    assert r.total_regret == pytest.approx(second.regret) and r.total_kind == "at least" and not r.total_exact
    assert r.skill == skill_score(second.regret) and r.skill_kind == "at most" and not r.skill_exact
    assert any(n.key == "review_partial" for n in r.notes)
    # the bounds hold: the exact review (a budget it does not reach) loses more and scores less
    exact = review(en_words, *GAME, budget=Budget(seconds=600))
    assert exact.total_kind == "exact" and exact.total_exact and exact.skill_exact
    assert exact.total_regret >= r.total_regret and exact.skill <= r.skill
    assert not any(n.key == "review_partial" for n in exact.notes)


def test_the_total_of_mixed_kinds() -> None:
    """Exact and "at least" regrets add up to a lower bound; upper bounds alone to an upper bound;
    an unknown regret counts 0, the least any regret can be."""
    base = review(load_words("de", prior="uniform"), ["tarne", "kilos", "taste"], "taste", solver=False).moves
    kinds = {
        ("exact", "exact", "exact"): (0.5, "exact"),
        ("exact", "at least", "exact"): (0.5, "at least"),
        ("exact", "at most", "exact"): (0.5, "at most"),
        ("exact", "unknown", "exact"): (0.0, "at least"),
        ("at most", "at least", "exact"): (0.5, "at least"),
        ("unknown", "unknown", "at most"): (None, "unknown"),
    }
    for case, (total, kind) in kinds.items():
        moves = [
            dataclasses.replace(m, regret_kind=k, regret=None if k == "unknown" else m.regret)
            for m, k in zip(base, case)
        ]
        got = review_module._total(moves)
        assert got[1] == kind and (got[0] == pytest.approx(total) if total is not None else got[0] is None), case


@pytest.mark.slow
def test_the_cli_and_its_json_say_the_bounds(monkeypatch) -> None:
    """Each run on a memo of its own, as each `raten review` process has (a warm memo knows more)."""
    args = ["review", "--words", "en", *GAME[0], "--answer", GAME[1], "--work", str(BOUNDED_CELLS)]
    monkeypatch.setattr(values, "_searchers", {})
    text = run(*args)
    assert text.exit_code == 0, text.output
    line = next(x for x in text.output.splitlines() if x.startswith("total regret"))
    assert line.startswith("total regret ≥0.") and ", skill ≤" in line
    monkeypatch.setattr(values, "_searchers", {})
    out = json.loads(run(*args, "--json").output)
    assert out["total_kind"] == "at least" and out["total_exact"] is False
    assert out["skill_kind"] == "at most" and out["skill_exact"] is False and out["skill"] < 99


@pytest.mark.usefixtures("fresh_memo")
@pytest.mark.slow
def test_the_api_says_the_bounds(tmp_path, monkeypatch, en_words) -> None:
    from raten.web.routes import review as api

    monkeypatch.setattr(api, "REVIEW_CELLS", BOUNDED_CELLS)
    app = create_app(lists=Lists.load({"en": en_words}), db_path=tmp_path / "r.sqlite3", daily_secret="t")
    with TestClient(app) as client:
        body = client.post("/api/review", json={"list": "en", "guesses": GAME[0], "answer": GAME[1]}).json()
    assert body["moves"][1]["regret_kind"] == "at least"
    assert body["total_regret"] == pytest.approx(body["moves"][1]["regret"])
    assert (body["total_kind"], body["total_exact"], body["skill_kind"], body["skill_exact"]) == (
        "at least",
        False,
        "at most",
        False,
    )


# --- item 2: the budget is work --------------------------------------------------------------------


def test_the_default_budget_is_work_with_seconds_as_a_ceiling(en_words) -> None:
    budget = Values(en_words).budget
    assert (budget.cells, budget.seconds) == (REVIEW_CELLS, REVIEW_SECONDS)
    from raten.web.routes import review as api

    assert (api.REVIEW_CELLS, api.REVIEW_SECONDS) == (REVIEW_CELLS, REVIEW_SECONDS)


@pytest.mark.slow
def test_the_same_work_gives_the_same_review_on_fresh_searchers(monkeypatch, en_words) -> None:
    """No clock in it: two fresh searchers with the same cell budget (one with a ceiling far off,
    one with the default) stop at the same work and give the same figures, bounds and all."""
    reviews = []
    for seconds in (600.0, REVIEW_SECONDS):
        monkeypatch.setattr(values, "_searchers", {})
        reviews.append(review(en_words, *GAME, budget=Budget.work(BOUNDED_CELLS, seconds)).to_dict())
    assert reviews[0] == reviews[1]
    assert reviews[0]["moves"][1]["regret_kind"] == "at least"  # the budget was reached, in both


@pytest.mark.slow
def test_a_loaded_machine_gives_the_same_figures() -> None:
    """`raten review --json` in a process of its own, then again with the other core kept busy:
    the same output (under a budget in seconds the loaded run reached less)."""
    args = [sys.executable, "-m", "raten", "review", "--json", "--words", "en", *GAME[0], "--answer", GAME[1]]
    args += ["--work", str(BOUNDED_CELLS)]
    env = {**os.environ, "RATEN_CACHE_DIR": os.environ["RATEN_CACHE_DIR"]}
    idle = subprocess.run(args, capture_output=True, text=True, env=env, check=True).stdout
    load = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        loaded = subprocess.run(args, capture_output=True, text=True, env=env, check=True).stdout
    finally:
        load.kill()
        load.wait()
    assert json.loads(loaded) == json.loads(idle)
    assert json.loads(idle)["total_kind"] == "at least"


# --- item 3: a game that cannot have happened ------------------------------------------------------


def hint_error(words, rows) -> RatenError:
    """The error `raten hint` (a ``State``) gives for ``rows``."""
    with pytest.raises(RatenError) as e:
        State(words).replay(rows)
    return e.value


@pytest.mark.parametrize("colours", ["patterns", "share"])
def test_impossible_colours_get_the_hints_error(en_words, colours) -> None:
    expected = hint_error(en_words, IMPOSSIBLE)
    assert expected.key == "contradiction"
    guesses = [g for g, _ in IMPOSSIBLE]
    squares = "\n".join(format_pattern(parse_pattern(p), "emoji") for _, p in IMPOSSIBLE)
    given = (
        {"patterns": [p for _, p in IMPOSSIBLE]} if colours == "patterns" else {"share": f"Wordle 1 3/6\n\n{squares}"}
    )
    with pytest.raises(RatenError) as e:
        review(en_words, guesses, **given)
    assert (str(e.value), e.value.key, e.value.params) == (str(expected), expected.key, expected.params)


def test_a_share_text_that_does_not_fit_the_guesses_is_refused(en_words) -> None:
    """The squares of CRANE then SALET against a game typed as CRANE then HAUNT: HAUNT all green
    cannot follow CRANE's colours (HAUNT has no C)."""
    share = "\n".join(format_pattern(pattern(g, "salet"), "emoji") for g in ("crane", "salet"))
    rows = [("crane", pattern("crane", "salet")), ("haunt", pattern("salet", "salet"))]
    with pytest.raises(RatenError) as e:
        review(en_words, ["crane", "haunt"], share=share)
    assert str(e.value) == str(hint_error(en_words, rows)) and e.value.key == "contradiction"


def test_the_cli_refuses_it_as_the_hint_does() -> None:
    rows = [f"{g}={p}" for g, p in IMPOSSIBLE]
    hint, judged = run("hint", *rows), run("review", *rows)
    assert judged.exit_code == hint.exit_code == 1
    assert judged.output == hint.output and "rows 2 (TOUSY) / 3 (HAUNT)" in judged.output.replace("\n", " ")


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_api_refuses_it_as_the_hints_endpoint_does(tmp_path, en_words, lang) -> None:
    app = create_app(lists=Lists.load({"en": en_words}), db_path=tmp_path / "r.sqlite3", daily_secret="t")
    headers = {"Accept-Language": lang}
    with TestClient(app) as client:
        rows = [{"guess": g, "pattern": p} for g, p in IMPOSSIBLE]
        hints = client.post("/api/hints", json={"list": "en", "rows": rows}, headers=headers)
        body = {"list": "en", "guesses": [g for g, _ in IMPOSSIBLE], "patterns": [p for _, p in IMPOSSIBLE]}
        judged = client.post("/api/review", json=body, headers=headers)
    assert hints.status_code == judged.status_code == 400
    assert judged.json() == hints.json()
    assert judged.json()["error"] == i18n.error_message(hint_error(en_words, IMPOSSIBLE), lang)


@pytest.mark.slow
def test_a_game_whose_answer_the_list_lacks_is_still_reviewed(en_words) -> None:
    """Rows that agree with each other but fit no word of the list: the answer is outside the list
    (the hint says so too), and the review values what it can instead of refusing."""
    rows = [("crane", pattern("crane", "zzzzz")), ("zzzzz", pattern("zzzzz", "zzzzz"))]
    assert hint_error(en_words, rows).key == "answer_not_in_list"
    r = review(en_words, [g for g, _ in rows], patterns=[c for _, c in rows], solver=False)
    assert r.solved and r.answer == "zzzzz"


# --- item 4: the table fits 80 columns, in a pipe too ----------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "guesses"),
    [
        (["--words", "de", "--prior", "uniform", "tarne", "kilos", "taste", "--answer", "taste"], 3),
        (["--words", "en", *GAME[0], "--answer", GAME[1]], 2),
        (["--words", "en", "xxxxx", "crane", "--answer", "crane", "--hard"], 2),  # 2315→2278, bounds, no best
    ],
)
@pytest.mark.parametrize("columns", [None, "80"])
def test_the_table_fits_80_columns_with_every_cell_whole(args, guesses, columns) -> None:
    """Through CliRunner stdout is no terminal, as in a pipe: rich then writes 80 columns
    (or $COLUMNS)."""
    env = {"COLUMNS": columns} if columns else {"COLUMNS": None}  # type: ignore[dict-item]
    result = run("review", *args, env=env)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert max(cell_len(line) for line in lines) <= 80
    assert "…" not in result.output
    numbers = [line.split("│")[1].strip() for line in lines if line.startswith("│") and line.split("│")[1].strip()]
    assert numbers == ["#"] + [str(i + 1) for i in range(guesses)]  # the "#" column is not squeezed away


def test_each_guess_shows_every_figure_in_the_table() -> None:
    out = run("review", "--words", "de", "--prior", "uniform", "tarne", "kilos", "taste", "--answer", "taste").output
    for cell in ("TARNE", "1050→4", "3.176", "TARNE 3.176", "KILOS", "TASSE 2.000", "0.500", "TASTE *", "36", "87"):
        assert cell in out, cell
