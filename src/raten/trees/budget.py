"""A review's default search budget, in a module of its own so that the command line's help
shows it without loading the search (``trees.values.Budget`` is the budget itself)."""

from __future__ import annotations

#: A review's default budget, in work (``kernels.ST_CELLS``): the same values on every machine and
#: under any load; about what 1 s of search reached on an idle core (docs/review.md).
REVIEW_CELLS = 500_000_000
#: The seconds a review's default budget may take at most, whatever is left of its cells: only a
#: machine many times slower than an idle core reaches it first.
REVIEW_SECONDS = 30.0
