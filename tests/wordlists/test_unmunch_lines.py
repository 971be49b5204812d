"""The scan that picks unmunch's lines worth a look (``hunspell_lists._plausible``) against the
rule itself (``_spelled``, line by line as unmunch's output was read before): it never drops a
line the rule keeps, in either character set, at any length."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from raten.engine.feedback import MAX_LENGTH, MIN_LENGTH
from raten.wordlists.hunspell_lists import _plausible, _spelled
from raten.wordlists.languages import LANGUAGES

#: Letters of the languages (ä, ö, ü and ß fold to two letters in de), a capital, marks.
LETTERS = "aeinrstäöüßéçñãẽ" + "Ä"
#: A line as unmunch writes it, or worse: a word, perhaps between blanks, perhaps with a mark.
LINE = st.tuples(
    st.sampled_from(["", " ", "\t"]),
    st.text(alphabet=LETTERS, min_size=1, max_size=17),
    st.sampled_from(["", " ", "\r", "-", "'s"]),
).map("".join)


@settings(max_examples=400, deadline=None)
@given(
    lines=st.lists(LINE, max_size=30),
    lang=st.sampled_from(sorted(LANGUAGES)),
    charset=st.sampled_from(["utf-8", "ISO8859-1"]),
    length=st.integers(MIN_LENGTH, MAX_LENGTH),
)
def test_the_scan_keeps_every_line_the_rule_keeps(lines, lang, charset, length) -> None:
    lines = [line for line in lines if line.encode(charset, "ignore").decode(charset) == line]  # writable
    block = b"".join(line.encode(charset) + b"\n" for line in lines)
    found = [m.group(1).decode(charset).strip() for m in _plausible(charset, length).finditer(block)]
    kept = [line.strip() for line in lines if _spelled(LANGUAGES[lang], length, line.strip()) is not None]
    assert [f for f in found if _spelled(LANGUAGES[lang], length, f) is not None] == kept
