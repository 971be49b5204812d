"""The library API: the facade in ``raten`` and the functional API of existing solver scripts."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import raten
from raten.errors import RatenError
from reference import ref_code, ref_entropy, ref_filter, ref_rank


def test_public_names() -> None:
    for name in raten.__all__:
        assert hasattr(raten, name), name
    assert raten.__version__


def test_the_readme_example(en_words) -> None:
    words = raten.load_words("en")
    assert words is en_words
    state = raten.State(words).after("crane", "..?!.")
    assert len(state.candidates) == state.count == 20
    assert state.candidate_words == ref_filter(words.solutions, [("crane", ref_code("crane", "fanny"))])
    hints = state.hints(top=5)
    assert len(hints) == 5
    assert hints[0].word == "tousy"
    assert round(hints[0].bits, 4) == 3.3414
    assert set(hints[0].to_dict()) == {"word", "bits", "candidate", "patterns", "largest", "expected_remaining"}


def test_feedback_and_pattern() -> None:
    assert raten.feedback("spiel", "insel") == "?.?!!"
    assert raten.pattern("spiel", "insel") == 98
    assert raten.pattern("SPIEL", " Insel ") == 98
    assert raten.pattern("Käse", "kasse") == ref_code("kaese", "kasse")
    assert raten.parse_pattern("?.?!!") == 98
    assert raten.format_pattern(98, "emoji") == "🟨⬜🟨🟩🟩"


@pytest.mark.parametrize(("guess", "target"), [("spie", "insel"), ("spiel", "ins3l"), ("", "insel")])
def test_pattern_rejects_bad_words(guess: str, target: str) -> None:
    with pytest.raises(RatenError):
        raten.pattern(guess, target)


def test_expected_entropy(en_words) -> None:
    assert round(raten.expected_entropy("soare", list(en_words.solutions)), 4) == 5.8860  # published
    sample = random.Random(3).sample(en_words.solutions, 200)
    for guess in ("crane", "xylyl", "eerie", "zzzzz"):
        assert raten.expected_entropy(guess, sample) == pytest.approx(ref_entropy(guess, sample), abs=1e-12)
    assert raten.expected_entropy("crane", ["crane"]) == 0.0
    assert raten.expected_entropy("crane", ("crane", "trace")) == pytest.approx(1.0)


def test_top_n_hints_order() -> None:
    # by bits, then candidates first, then alphabetically (see test_rank for the same case)
    cands = ["bbbbc", "bbbbd", "bbbbe"]
    pool = ["aaaaa", "zzzzd", "aaaac", "bbbbe", "cdezz", "yyyye", "bbbbc", "bbbbd"]
    hints = raten.top_n_hints(cands, pool, n=8)
    assert [w for _, w, _ in hints] == ["cdezz", "bbbbc", "bbbbd", "bbbbe", "aaaac", "yyyye", "zzzzd", "aaaaa"]
    assert [c for _, _, c in hints] == [False, True, True, True, False, False, False, False]
    assert raten.top_n_hints(cands, pool) == hints[:3]  # n defaults to 3


def test_top_n_hints_published(en_words, en_start_crane_candidates) -> None:
    hints = raten.top_n_hints(en_start_crane_candidates, list(en_words.allowed), n=4)
    assert [(w, round(b, 4)) for b, w, _ in hints] == [
        ("tousy", 3.3414),
        ("thigs", 3.3087),
        ("tings", 3.2842),
        ("tying", 3.2842),
    ]


@pytest.fixture(scope="module")
def en_start_crane_candidates(en_words) -> list[str]:
    return ref_filter(en_words.solutions, [("crane", ref_code("crane", "fanny"))])


@settings(max_examples=60, deadline=None)
@given(data=st.data())
@pytest.mark.slow
def test_top_n_hints_equals_reference(data: st.DataObject, en_words) -> None:
    cands = data.draw(st.lists(st.sampled_from(en_words.solutions), min_size=1, max_size=30, unique=True))
    pool = data.draw(st.lists(st.sampled_from(en_words.allowed), min_size=1, max_size=50, unique=True))
    pool += data.draw(st.lists(st.sampled_from(cands), max_size=5, unique=True))
    pool = list(dict.fromkeys(pool))
    n = data.draw(st.integers(1, 10))
    got = raten.top_n_hints(cands, pool, n)
    expected = ref_rank(cands, pool, n)
    assert [(w, c) for _, w, c in got] == [(w, c) for _, w, c in expected]
    for (b1, _, _), (b2, _, _) in zip(got, expected):
        assert b1 == pytest.approx(b2, abs=1e-12)


def test_api_normalises_and_checks_lists() -> None:
    assert raten.top_n_hints(["RATEN", "arten"], ["Raten"], n=1)[0][1:] == ("raten", True)
    with pytest.raises(RatenError, match="candidate"):
        raten.top_n_hints(["rat"], ["raten"])
    with pytest.raises(RatenError, match="guess"):
        raten.expected_entropy("ratenx", ["raten"])
    with pytest.raises(RatenError, match="no candidates"):
        raten.expected_entropy("raten", [])
    with pytest.raises(RatenError, match="no candidates"):
        raten.top_n_hints([], ["raten"])


def test_wordset_and_state_from_lists() -> None:
    words = raten.WordSet.from_lists(["Raten", "arten", "Käse"], ["zebra"], name="mini", language="de")
    state = raten.State(words)
    assert state.count == 3
    after = state.after("zebra", ref_code("zebra", "raten"))
    assert after.candidate_words == ref_filter(words.solutions, [("zebra", ref_code("zebra", "raten"))])
