"""Integer weights for the exact search: one positive integer per solution, from the word set's prior.

The search adds weights exactly (``raten.trees.kernels`` works in integers), so a prior's float
weights are scaled to integers summing to about ``SCALE`` (2**20), each rounded and at least 1.
A tree's total is then the sum of weight x guesses, and its expected number of guesses is that
total divided by the total weight. Under the uniform prior every weight is 1: totals are the
plain guess counts, exactly as without a prior.
"""

from __future__ import annotations

import numpy as np

from raten.engine.words import WordSet

#: The frequency prior's weights are scaled to integers summing to about this (each at least 1).
SCALE = 1 << 20


def integer_weights(words: WordSet) -> np.ndarray:
    """One positive int64 weight per solution of ``words``: all 1 under the uniform prior."""
    n = len(words.solutions)
    if words.weights is None:
        return np.ones(n, dtype=np.int64)
    p = np.asarray(words.weights, dtype=np.float64)
    return np.maximum(1, np.rint(p / p.sum() * SCALE)).astype(np.int64)


def is_uniform(weights: np.ndarray) -> bool:
    """Every weight 1: the totals are plain guess counts."""
    return bool((weights == 1).all())
