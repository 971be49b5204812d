"""Fit the frequency prior's three numbers (midpoint, slope, penalty) for English and German.

English: the original 2315 Wordle answers (a person's choice of common words) among the 12972
allowed words of the ``en`` preset. German: 6mal5.com's 1070 answers among its 3827 accepted
words (../shared/data/de, read here only, never shipped). Prints each fit, its log-likelihood and
a few weights, and whether they equal ``raten.wordlists.prior.FITTED`` (the committed values).

Run: ``.venv/bin/python bench/fit_prior.py`` (docs/prior.md).
"""

from __future__ import annotations

import sys
from pathlib import Path

from raten.wordlists.files import read_word_file
from raten.wordlists.presets import load_preset
from raten.wordlists.prior import FITTED, WORDFREQ_VERSION, fit, frequency_weights

SHARED_DE = Path(__file__).resolve().parents[2] / "shared" / "data" / "de"


def main() -> int:
    en = load_preset("en")
    sets = {"en": (en.allowed, en.solutions)}
    if (SHARED_DE / "allowed.txt").exists():
        sets["de"] = (read_word_file(SHARED_DE / "allowed.txt"), read_word_file(SHARED_DE / "solutions.txt"))
    else:
        print(f"(German skipped: {SHARED_DE} not found)")
    print(f"wordfreq {WORDFREQ_VERSION}")
    same = True
    for language, (allowed, answers) in sets.items():
        result = fit(allowed, answers, language)
        f = result.logistic
        print(
            f"{language}: midpoint {f.midpoint} slope {f.slope} penalty {f.penalty}"
            f"  (log-likelihood {result.log_likelihood:.1f} over {result.words} words, {result.answers} answers)"
        )
        same &= f == FITTED[language]
    sample = ["crane", "slate", "ideas", "baked", "glamp", "snafu", "kefir", "xylyl"]
    weights = frequency_weights(sample, "en")
    print("en weights: " + ", ".join(f"{w} {x:.4f}" for w, x in zip(sample, weights)))
    print("committed values " + ("match" if same else "DIFFER: update FITTED in src/raten/wordlists/prior.py"))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
