"""raten: a Wordle solver for German and English.

>>> import raten
>>> raten.feedback("spiel", "insel")
'?.?!!'

The names below load on first use (PEP 562), so ``import raten`` - and every
``import raten.something``, the command line's included - costs no numpy or numba
until a name that needs them is touched.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from raten._version import __version__

if TYPE_CHECKING:
    from raten.compat import expected_entropy, feedback, pattern, top_n_hints
    from raten.engine.feedback import format_pattern, parse_pattern
    from raten.engine.matrix import PatternMatrix, load_matrix
    from raten.engine.rank import Hint, analyze, rank
    from raten.engine.state import State
    from raten.engine.words import WordSet
    from raten.errors import RatenError
    from raten.wordlists.presets import PRESETS, load_words

#: Public name -> the module that defines it.
_WHERE = {
    "expected_entropy": "raten.compat",
    "feedback": "raten.compat",
    "pattern": "raten.compat",
    "top_n_hints": "raten.compat",
    "format_pattern": "raten.engine.feedback",
    "parse_pattern": "raten.engine.feedback",
    "PatternMatrix": "raten.engine.matrix",
    "load_matrix": "raten.engine.matrix",
    "Hint": "raten.engine.rank",
    "analyze": "raten.engine.rank",
    "rank": "raten.engine.rank",
    "State": "raten.engine.state",
    "WordSet": "raten.engine.words",
    "RatenError": "raten.errors",
    "PRESETS": "raten.wordlists.presets",
    "load_words": "raten.wordlists.presets",
}

__all__ = [
    "PRESETS",
    "Hint",
    "PatternMatrix",
    "RatenError",
    "State",
    "WordSet",
    "__version__",
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


def __getattr__(name: str) -> Any:
    try:
        module = _WHERE[name]
    except KeyError:
        raise AttributeError(f"module 'raten' has no attribute {name!r}") from None
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WHERE))
