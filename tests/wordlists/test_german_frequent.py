"""The frequent-word filter: German zipf at least the threshold, not much commoner in English."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from raten.wordlists.german.frequent import MAX_GAP, MIN_ZIPF, frequent_words


def test_loans_stay_and_quoted_english_goes() -> None:
    german = {"track": 3.92, "ultra": 3.93, "about": 4.0, "sowas": 4.98, "stepp": 2.27, "raree": 2.0}
    english = {"track": 5.02, "ultra": 4.23, "about": 6.4, "stepp": 1.85}
    assert frequent_words(german, english) == ["sowas", "stepp", "track", "ultra"]


def test_only_five_ascii_letters_and_not_excluded() -> None:
    german = {"haus": 5.0, "haeuser": 5.0, "ab-cd": 4.0, "kaese": 4.0, "fuenf": 4.0}
    assert frequent_words(german, {}, exclude={"fuenf"}) == ["kaese"]


words = st.text("abcdefgh", min_size=4, max_size=6)


@given(st.dictionaries(words, st.floats(0, 7)), st.dictionaries(words, st.floats(0, 7)))
def test_the_rule_word_by_word(german: dict[str, float], english: dict[str, float]) -> None:
    expected = [
        w
        for w in sorted(german)
        if len(w) == 5 and german[w] >= MIN_ZIPF and german[w] + MAX_GAP >= english.get(w, 0.0)
    ]
    assert frequent_words(german, english) == expected
