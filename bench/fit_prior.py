"""Fit the frequency prior's numbers (midpoint, slope, penalties) for English and German, and the
mixture's share outside each German list's solutions.

English: the original 2315 Wordle answers (a person's choice of common words) among the 12972
allowed words of the ``en`` preset. German: 6mal5.com's 1070 answers among the words 6mal5 (its
3827, ../shared/data/de, read here only, never shipped) or the ``de`` preset (6281) accept: the
words the prior weighs. Prints each fit, its log-likelihood and
a few weights, and whether they equal ``raten.wordlists.prior.FITTED`` (the committed values);
for German also the fit without the two German categories (proper names, words only wordfreq
knows), the prior as it was before them.

Run: ``.venv/bin/python bench/fit_prior.py`` (docs/prior.md).
"""

from __future__ import annotations

import sys
from pathlib import Path

from raten.wordlists.files import read_word_file
from raten.wordlists.presets import load_preset
from raten.wordlists.prior import FITTED, MIXTURE_OUTSIDE, WORDFREQ_VERSION, fit, fit_mixture, frequency_weights

SHARED_DE = Path(__file__).resolve().parents[2] / "shared" / "data" / "de"


def main() -> int:
    en = load_preset("en")
    sets = {"en": (en.allowed, en.solutions)}
    if (SHARED_DE / "allowed.txt").exists():
        six = read_word_file(SHARED_DE / "allowed.txt")
        sets["de"] = (sorted(set(six) | set(load_preset("de").allowed)), read_word_file(SHARED_DE / "solutions.txt"))
    else:
        print(f"(German skipped: {SHARED_DE} not found)")
    print(f"wordfreq {WORDFREQ_VERSION}")
    same = True
    for language, (allowed, answers) in sets.items():
        result = fit(allowed, answers, language)
        f = result.logistic
        print(
            f"{language}: midpoint {f.midpoint} slope {f.slope} penalty {f.penalty} name {f.name}"
            f" unlisted {f.unlisted}"
            f"  (log-likelihood {result.log_likelihood:.1f} over {result.words} words, {result.answers} answers)"
        )
        same &= f == FITTED[language]
        if language == "de":
            old = fit(allowed, answers, language, categories_too=False)
            o = old.logistic
            print(
                f"de without names and unlisted: midpoint {o.midpoint} slope {o.slope} penalty {o.penalty}"
                f"  (log-likelihood {old.log_likelihood:.1f})"
            )
    sample = ["crane", "slate", "ideas", "baked", "glamp", "snafu", "kefir", "xylyl"]
    weights = frequency_weights(sample, "en")
    print("en weights: " + ", ".join(f"{w} {x:.4f}" for w, x in zip(sample, weights)))
    german = ["tarne", "hunde", "kevin", "sarah", "email", "sowas", "track", "jimmy", "about"]
    weights = frequency_weights(german, "de")
    print("de weights: " + ", ".join(f"{w} {x:.4f}" for w, x in zip(german, weights)))
    if "de" in sets:
        answers = sets["de"][1]
        for name in MIXTURE_OUTSIDE:
            words = load_preset(name, prior="uniform")
            share = fit_mixture(words.solutions, words.allowed, answers)
            outside = sum(a in set(words.allowed) - set(words.solutions) for a in answers)
            print(f"mixture {name}: share outside the solutions {share} ({outside} of 6mal5's answers)")
            same &= share == MIXTURE_OUTSIDE[name]
    print(
        "committed values "
        + ("match" if same else "DIFFER: update FITTED and MIXTURE_OUTSIDE in src/raten/wordlists/prior.py")
    )
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
