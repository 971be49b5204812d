"""Which prior should `de` default to? 6mal5.com's answers played under each candidate.

python bench/bench_play_priors.py --words de --play src/raten/data/6mal5/solutions.txt

Plays the entropy strategy, without the guarantee, against every answer of the file (as `raten
bench --play ... --guarantee off` does) with the list under: the uniform prior (fallback to the
allowed words that fit, equally likely), the uniform prior with that fallback weighted by
frequency, the frequency prior over every allowed word, the mixture (`de`'s default: the list's
solutions share most of the weight, the other allowed words the fitted rest by frequency), and
older mixtures that make the list's own solutions K times likelier than the frequency prior says.
Prints the games won within six, the mean number of guesses and the answers that took longer.
"""

from __future__ import annotations

import argparse
from collections import Counter

import numpy as np

from raten.play.simulate import play_answers
from raten.wordlists.files import read_word_file
from raten.wordlists.presets import load_preset
from raten.wordlists.prior import apply_prior, frequency_weights


def main() -> None:
    """One line per prior: within six, mean guesses, distribution, the games over six."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--words", default="de")
    ap.add_argument("--play", required=True, help="the answers to play, one a line")
    ap.add_argument("--mix", default="10,100", help="comma-separated K for the mixtures")
    args = ap.parse_args()
    base = load_preset(args.words, "uniform")
    answers = read_word_file(args.play)
    frequency = frequency_weights(base.allowed, base.language)
    own = np.isin(base.allowed, base.solutions)
    lists = {
        "uniform": base,
        "uniform, fallback by frequency": apply_prior(base, "uniform", weigh_fallback=True),
        "frequency": apply_prior(base, "frequency"),
        "mixture": apply_prior(base, "mixture"),
    }
    for k in (float(x) for x in args.mix.split(",") if x):
        lists[f"solutions x{k:g}, others by frequency"] = base.with_prior(
            f"mix{k:g}", frequency * np.where(own, k, 1.0), solutions=base.allowed
        )
    for label, words in lists.items():
        r = play_answers(words, answers, "entropy")
        g = r.guesses
        slow = [a for (a,), n in zip(r.answers, g, strict=True) if n > 6]
        print(
            f"{label}: {np.mean(g <= 6) * 100:.2f} % within six, mean {g.mean():.4f},"
            f" {dict(sorted(Counter(g.tolist()).items()))}, over six: {', '.join(slow) or 'none'}",
            flush=True,
        )


if __name__ == "__main__":
    main()
