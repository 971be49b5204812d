"""raten: a Wordle solver for German and English.

>>> import raten
>>> raten.feedback("spiel", "insel")
'?.?!!'
"""

from raten.api import expected_entropy, pattern, top_n_hints
from raten.errors import RatenError
from raten.feedback import feedback, format_pattern, parse_pattern
from raten.matrix import PatternMatrix, load_matrix
from raten.rank import Hint, analyze, rank
from raten.state import State
from raten.words import PRESETS, WordSet, load_words

__version__ = "0.1.0"

__all__ = [
    "Hint",
    "PRESETS",
    "PatternMatrix",
    "RatenError",
    "State",
    "WordSet",
    "analyze",
    "expected_entropy",
    "feedback",
    "format_pattern",
    "load_matrix",
    "load_words",
    "parse_pattern",
    "pattern",
    "rank",
    "top_n_hints",
]
