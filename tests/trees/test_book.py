"""The opening book: the guarded strategy's first two decisions, stored, trusted only when intact."""

from __future__ import annotations

import dataclasses
import json
from importlib import resources
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_safety import small_words

from raten.cli.main import main
from raten.engine.feedback import format_pattern
from raten.engine.state import State
from raten.play.strategies import STRATEGIES, GuardedStrategy
from raten.trees.book import BookError, Decision, build_book, check_book, read_book
from raten.trees.safety import Guarantee
from raten.wordlists.presets import default_over, load_words

BOOKS = Path(str(resources.files("raten") / "data" / "books"))


def guarded(limit: int = 4, book=None) -> GuardedStrategy:
    return GuardedStrategy(STRATEGIES["entropy"], limit, "all", book=book)


@pytest.mark.parametrize("hard", [False, True])
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.slow
def test_a_book_holds_what_a_fresh_strategy_decides(seed: int, hard: bool) -> None:
    words = small_words(seed)
    start = State(words, hard=hard)
    book = build_book(guarded(), start)
    fresh = guarded()  # its own memo: the decisions do not depend on what was searched before
    assert book.opener == fresh.decide(start, use_book=False)
    for code, decision in book.second.items():
        assert decision == fresh.decide(start.after(book.opener.word, code), use_book=False)
    assert check_book(book, guarded(), start) == []


def test_a_strategy_plays_from_its_book() -> None:
    words = small_words(3)
    start = State(words)
    book = build_book(guarded(), start)
    code, decision = next(iter(book.second.items()))
    other = next(w for w in words.allowed if w != decision.word)
    forged = dataclasses.replace(book, second={**book.second, code: Decision(other, True, "all")})
    player = guarded(book=forged)
    assert player.next_guess(start) == book.opener.word
    assert player.next_guess(start.after(book.opener.word, code)) == other  # read, not searched
    # a book for another limit is not used
    assert guarded(limit=5, book=forged).decide(start.after(book.opener.word, code)) != Decision(other, True, "all")


def _forged(seed: int, limit: int):
    """A book of small list ``seed`` with one second guess replaced by an unsafe one marked safe."""
    words = small_words(seed)
    start = State(words)
    book = build_book(guarded(limit), start)
    judge = Guarantee(words, limit=limit, over="all", memo_bits=10)
    for code in book.second:
        history = ((book.opener.word, code),)
        bad = [v.word for v in judge.judge(history, list(words.allowed)) if v.safe is False]
        if bad:
            return start, dataclasses.replace(book, second={**book.second, code: Decision(bad[0], True, "all")}), bad[0]
    return None


def test_check_finds_a_forged_safe_guess(tmp_path: Path) -> None:
    found = next(f for f in (_forged(seed, limit) for seed in range(20) for limit in (3, 4)) if f is not None)
    start, forged, bad = found
    path = tmp_path / "forged.json"
    forged.save(path)  # a forged claim with a right digest: only a fresh search finds it
    problems = check_book(read_book(path), guarded(forged.key.limit), start)
    assert len(problems) == 1 and bad.upper() in problems[0]


def test_a_damaged_book_is_refused_by_name(tmp_path: Path) -> None:
    words = small_words(1)
    book = build_book(guarded(), State(words))
    path = tmp_path / "book.json"
    book.save(path)
    assert read_book(path) == book
    data = json.loads(path.read_text())
    data["opener"]["word"] = next(w for w in words.allowed if w != book.opener.word)
    path.write_text(json.dumps(data))
    with pytest.raises(BookError, match="digest does not match"):
        read_book(path)
    path.write_text(path.read_text()[:40])
    with pytest.raises(BookError, match="not a readable opening book"):
        read_book(path)
    path.write_text("[]")
    with pytest.raises(BookError, match="not an opening book"):
        read_book(path)


@pytest.mark.parametrize("path", sorted(BOOKS.glob("*.json")), ids=lambda p: p.stem)
@pytest.mark.slow
def test_every_shipped_book_is_for_its_list_as_it_is(path: Path) -> None:
    """A book whose lists, prior or strategy changed would never be used: each must match."""
    book = read_book(path)
    words = load_words(book.name)
    hard = book.key.hard
    assert path.name == f"{book.name}-{'hard' if hard else 'normal'}-{book.key.over}.json"
    assert book.key.over == default_over(words, hard)
    strategy = GuardedStrategy(STRATEGIES[book.key.strategy], book.key.limit, book.key.over)
    assert book.key == strategy.book_key(State(words, hard=hard))
    assert {d["word"] for d in book.openers} >= {book.opener.word} or book.opener.safe is not True


@pytest.mark.slow
def test_the_6mal5_book_rebuilds_exactly_and_checks(tmp_path: Path) -> None:
    out = tmp_path / "book.json"
    built = CliRunner().invoke(main, ["book", "build", "--words", "6mal5", "--out", str(out), "--json"])
    assert built.exit_code == 0, built.output
    shipped = json.loads((BOOKS / "6mal5-normal-all.json").read_text())
    fresh = json.loads(out.read_text())
    for data in (shipped, fresh):
        data.pop("cpu_seconds"), data.pop("digest")
    assert fresh == shipped
    checked = CliRunner().invoke(main, ["book", "check", "--words", "6mal5", "--json"])
    assert checked.exit_code == 0, checked.output
    assert json.loads(checked.output)["ok"] is True


def test_book_commands_refuse_bad_input(tmp_path: Path) -> None:
    runner = CliRunner()
    off = runner.invoke(main, ["book", "build", "--words", "6mal5", "--guarantee", "off"])
    assert off.exit_code != 0 and "--guarantee" in off.output
    missing = runner.invoke(main, ["book", "check", "--words", "6mal5", str(tmp_path / "none.json")])
    assert missing.exit_code != 0 and "no such book" in missing.output
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    damaged = runner.invoke(main, ["book", "check", "--words", "6mal5", str(bad)])
    assert damaged.exit_code != 0 and "not a readable opening book" in damaged.output
    assert "Traceback" not in damaged.output
    nowhere = runner.invoke(main, ["book", "build", "--words", "6mal5", "--out", str(tmp_path / "no" / "b.json")])
    assert nowhere.exit_code != 0 and "no such folder" in nowhere.output


def test_pattern_keys_are_dots() -> None:
    book = read_book(BOOKS / "6mal5-normal-all.json")
    raw = json.loads((BOOKS / "6mal5-normal-all.json").read_text())
    assert set(raw["second"]) == {format_pattern(c, "dots") for c in book.second}
