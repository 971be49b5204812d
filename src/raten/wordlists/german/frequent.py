"""German words that no dictionary lists but German text uses often: wordfreq's vocabulary, filtered.

German games accept words the spelling dictionaries lack: colloquial forms (sowas, haufe),
old spellings (cirka), loans (track, ultra, barre, stepp). wordfreq's German frequency list
knows them. A five-letter word (after ä→ae, ö→oe, ü→ue, ß→ss, spellings that transliterate
alike added up, as the prior does) is taken when

- its German zipf frequency is at least ``MIN_ZIPF`` (2.25: about one in 5.6 million words), and
- it is not much commoner in English than in German: ``zipf_de >= zipf_en - MAX_GAP`` (1.25).
  A loan that German uses (track 3.92 against 5.02 in English, ultra 3.93 against 4.23) is
  used nearly as often as in English; English words that reach German text in quotations,
  titles and names (about 4.0 against 6.4, place 3.7 against 5.7) are a hundred times rarer.

Both numbers are measured choices (docs/german-optimal.md, docs/word-lists.md): the loosest that keeps
6mal5.com's answers, whose precision against 6mal5's accepted words hardly depends on them
(about one added word in nine is one 6mal5 accepts, whatever the threshold between 2.25 and
3). Most words this lets in are names and rare loans; the frequency prior gives words that
only wordfreq vouches for their own fitted penalty (raten.wordlists.prior), so they are
accepted as guesses without being taken for likely answers.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

MIN_ZIPF = 2.25
MAX_GAP = 1.25


def frequent_words(
    german: Mapping[str, float],
    english: Mapping[str, float],
    min_zipf: float = MIN_ZIPF,
    max_gap: float = MAX_GAP,
    exclude: Collection[str] = (),
) -> list[str]:
    """The five-letter words of GERMAN (word -> zipf, transliterated) at least MIN_ZIPF common and
    not more than MAX_GAP zipf commoner in ENGLISH, less EXCLUDE (offensive words), sorted."""
    return sorted(
        w
        for w, z in german.items()
        if len(w) == 5 and w.isascii() and w.isalpha() and z >= min_zipf
        if z >= english.get(w, 0.0) - max_gap and w not in exclude
    )
