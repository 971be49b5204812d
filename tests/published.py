"""Figures published for the reference lists (../shared/data/PROVENANCE.md), one copy for every test.

These are what others published, not what raten computed: tests compare their computed
output against them.
"""

#: Top ten English openers (2315 solutions, 12972 allowed): word, bits to 4 decimals.
EN_OPENERS = [
    ("soare", 5.8860),
    ("roate", 5.8828),
    ("raise", 5.8779),
    ("raile", 5.8657),
    ("reast", 5.8655),
    ("slate", 5.8558),
    ("crate", 5.8349),
    ("salet", 5.8346),
    ("irate", 5.8314),
    ("trace", 5.8305),
]

#: The best guesses after crane=..?!. (20 candidates left).
EN_AFTER_CRANE = [("tousy", 3.3414), ("thigs", 3.3087), ("tings", 3.2842), ("tying", 3.2842)]
