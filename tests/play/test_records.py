"""play/records.py: statistics worked out from the games, against a slow day-by-day reference."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from raten.errors import RatenError
from raten.play.records import Finished, daily_record, practice_record, record_of


def test_daily_streak_counts_consecutive_days_won():
    games = [Finished(10, True, 3), Finished(11, True, 4), Finished(12, False, 6), Finished(13, True, 2)]
    games += [Finished(14, True, 5), Finished(15, True, 1)]
    r = daily_record(games, 6, today=15)
    assert (r.played, r.wins, r.current_streak, r.max_streak) == (6, 5, 3, 3)
    assert r.distribution == (1, 1, 1, 1, 1, 0) and r.marked == 1 and r.win_percent == 83


def test_the_daily_streak_waits_for_today_and_ends_with_a_missed_day():
    games = [Finished(20, True, 3), Finished(21, True, 4)]
    assert daily_record(games, 6, today=22).current_streak == 2  # today not played yet
    assert daily_record(games, 6, today=23).current_streak == 0  # yesterday missed
    assert daily_record(games, 6, today=23).max_streak == 2
    gap = [Finished(1, True, 3), Finished(3, True, 3)]
    assert daily_record(gap, 6, today=3).current_streak == 1
    assert daily_record(games, 6, today=22).marked is None  # no game today
    lost_today = daily_record([*games, Finished(22, False, 6)], 6, today=22)
    assert lost_today.current_streak == 0 and lost_today.marked is None


def test_practice_counts_an_abandoned_game_as_played_and_not_won():
    games = [Finished(None, True, 4), Finished(None, False, 1), Finished(None, True, 9), Finished(None, True, 7)]
    r = practice_record(games, 9)
    assert (r.played, r.wins, r.current_streak, r.max_streak, r.marked) == (4, 3, 2, 2, 7)
    assert len(r.distribution) == 9 and r.distribution[6] == 1 and r.distribution[8] == 1
    empty = practice_record([], 7)
    assert empty.to_dict() == {
        "played": 0,
        "wins": 0,
        "win_percent": 0,
        "current_streak": 0,
        "max_streak": 0,
        "distribution": [0] * 7,
        "marked": None,
    }


def slow_daily(results: dict[int, bool], today: int) -> tuple[int, int]:
    """(current, max) streak walking the calendar one day at a time."""
    best = 0
    for start in results:
        n = 0
        while results.get(start + n):
            n += 1
        best = max(best, n)
    current = 0
    day = today if today in results else today - 1
    while results.get(day):
        current += 1
        day -= 1
    return current, best


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(results=st.dictionaries(st.integers(1, 40), st.booleans(), max_size=30), today=st.integers(1, 45))
def test_daily_streaks_against_the_calendar(results, today):
    results = {d: w for d, w in results.items() if d <= today}
    games = [Finished(d, w, 3 if w else 6) for d, w in sorted(results.items(), key=lambda kv: -kv[0])]
    r = daily_record(games, 6, today)
    assert (r.current_streak, r.max_streak) == slow_daily(results, today)
    assert r.played == len(results) and r.wins == sum(results.values())


def test_record_of_counts_up_to_the_variant_limit():
    games = [Finished(1, True, 9), Finished(2, False, 9)]
    quordle = record_of(games, 4, "daily", today=2)
    assert quordle.distribution == (0,) * 8 + (1,) and quordle.played == 2
    assert record_of(games[:1], 4, "practice", today=2).distribution == quordle.distribution
    with pytest.raises(RatenError):
        record_of(games, 1, "daily", today=2)  # nine guesses do not win Wordle
