"""The hints' guarantee reads the hint's own ranking (bench/bench_hint_guarantee.py): the same
decision and verdicts as when it ranks the position itself, without ranking it again."""

from __future__ import annotations

import pytest

from raten.engine.feedback import pattern
from raten.engine.state import State
from raten.play import safe_hints, strategies
from raten.play.strategies import GUARDED_RANKED
from raten.wordlists.presets import load_words


@pytest.mark.parametrize("answer", ["eifer", "moder", "zecke"])
def test_a_given_ranking_gives_the_same_verdicts_without_ranking_again(answer, monkeypatch) -> None:
    words = load_words("6mal5")
    state = State(words)
    for guess in ("sarte", "bevor"):
        state = state.after(guess, pattern(guess, answer))
    ranked = state.hints(top=GUARDED_RANKED)
    own = safe_hints.guarded_hints(state, ranked[:10], 6, "all")

    def no_ranking(*_args, **_kwargs):
        raise AssertionError("the position was ranked again")

    safe_hints._STRATEGIES.clear()  # a fresh memo: every verdict searched again
    monkeypatch.setattr(strategies, "rank", no_ranking)
    reused = safe_hints.guarded_hints(state, ranked[:10], 6, "all", ranked=ranked)
    assert reused.decision == own.decision
    assert reused.verdicts == own.verdicts
    assert reused.covered == own.covered
