"""raten: a Wordle solver for German and English.

>>> import raten
>>> raten.feedback("spiel", "insel")
'?.?!!'
"""

from raten._version import __version__
from raten.compat import expected_entropy, feedback, pattern, top_n_hints
from raten.engine.feedback import format_pattern, parse_pattern
from raten.engine.matrix import PatternMatrix, load_matrix
from raten.engine.rank import Hint, analyze, rank
from raten.engine.state import State
from raten.engine.words import WordSet
from raten.errors import RatenError
from raten.wordlists.presets import PRESETS, load_words

__all__ = [
    "__version__",
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
