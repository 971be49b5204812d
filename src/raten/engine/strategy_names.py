"""The ranking strategies' names and descriptions, apart from their compiled code in
``rank``, so that ``raten --help`` can list them without loading numba."""

#: How many one-step leaders ``lookahead`` re-ranks by the two-step score, unless named.
LOOKAHEAD_K = 10

STRATEGIES = {
    "entropy": "most information: highest entropy of the feedback distribution",
    "partitions": "most distinct feedback patterns",
    "expected": "smallest expected number of remaining candidates",
    "minimax": "smallest largest group",
    "frequency": "candidates with the most common letters (no look-ahead)",
    "candidates-entropy": "highest entropy among guesses that could still be the answer",
    "lookahead": f"two-step entropy: the top K by entropy re-ranked by bits plus the expected best "
    f"second guess's bits (lookahead:K, default K={LOOKAHEAD_K})",
}
