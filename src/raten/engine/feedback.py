"""Wordle feedback: the two-pass rule, the pattern code and the pattern notations.

Code: base 3, first letter most significant, 0 grey, 1 yellow, 2 green, so a word of L
letters has 3**L codes 0..3**L - 1 (five letters: ``?.?!!`` = 1*81 + 0*27 + 1*9 + 2*3 + 2 = 98
and all green = 242). A table of codes holds one byte per cell up to five letters, two above.
"""

from __future__ import annotations

from collections import Counter

from raten.errors import RatenError, shorten

#: Word lengths raten plays.
MIN_LENGTH, MAX_LENGTH = 4, 8

#: The classic five-letter game's length, codes and all-green code: what tests of five-letter
#: lists and the published figures name. Code that holds a word set takes them from it
#: (``WordSet.length``, ``pattern_count``, ``all_green``); ``tests/test_layout.py`` keeps them out of
#: ``src/raten`` elsewhere.
WORD_LENGTH = 5
PATTERNS = 3**WORD_LENGTH
ALL_GREEN = PATTERNS - 1

GREY, YELLOW, GREEN = 0, 1, 2

Move = tuple[str, int]
"""One turn: the guess (normalised) and the feedback code it showed."""

History = tuple[Move, ...]
"""The turns of a game so far, in order: what the solver, the game, trees and SQL all read."""

#: Every symbol accepted for each colour, in any notation.
_SYMBOLS: dict[str, int] = {
    ".": GREY,
    "?": YELLOW,
    "!": GREEN,
    "b": GREY,
    "x": GREY,
    "-": GREY,
    "y": YELLOW,
    "g": GREEN,
    "0": GREY,
    "1": YELLOW,
    "2": GREEN,
    "\u2b1c": GREY,
    "\u2b1b": GREY,
    "\U0001f7e8": YELLOW,
    "\U0001f7e9": GREEN,
    # NYT's high-contrast share squares: orange for the right letter in the right place,
    # blue for a letter elsewhere in the word (the grey square stays the same).
    "\U0001f7e7": GREEN,
    "\U0001f7e6": YELLOW,
}
_NOTATIONS = {
    "dots": ".?!",
    "letters": "byg",
    "digits": "012",
    "emoji": "\u2b1c\U0001f7e8\U0001f7e9",
}
_VARIATION_SELECTOR = "\ufe0f"


def feedback_colours(guess: str, answer: str) -> tuple[int, ...]:
    """The colours of each letter of ``guess`` against ``answer``, by the two-pass rule.

    Greens first consume their letter; then yellows go left to right from what is left.
    This is the slow, obvious reference that the fast kernels are tested against.
    """
    colours = [GREY] * len(guess)
    left = Counter(a for g, a in zip(guess, answer) if g != a)
    for i, (g, a) in enumerate(zip(guess, answer)):
        if g == a:
            colours[i] = GREEN
    for i, g in enumerate(guess):
        if colours[i] != GREEN and left[g] > 0:
            colours[i] = YELLOW
            left[g] -= 1
    return tuple(colours)


def colours_to_code(colours: tuple[int, ...] | list[int]) -> int:
    """Pack colours into the base-3 code, first letter most significant."""
    code = 0
    for c in colours:
        code = code * 3 + c
    return code


def pattern_count(length: int) -> int:
    """How many feedback codes words of ``length`` letters have: 3**length."""
    return 3**length


def all_green(length: int) -> int:
    """The code of a word of ``length`` letters that is the answer: every letter green."""
    return 3**length - 1


def code_dtype(length: int) -> str:
    """The numpy type of a table of codes: one byte up to five letters (243 codes), two above
    (3**8 = 6,561 codes)."""
    return "uint8" if length <= 5 else "uint16"


def code_space(dtype_size: int) -> int:
    """The codes a table whose cells have ``dtype_size`` bytes may hold, at most: what its
    compiled statistics size their histograms by (one byte: 243, two: 6,561)."""
    return pattern_count(5 if dtype_size == 1 else MAX_LENGTH)


def code_to_colours(code: int, length: int = WORD_LENGTH) -> tuple[int, ...]:
    """Unpack a code into the colours of a word of ``length`` letters."""
    if not 0 <= code < 3**length:
        raise RatenError(f"pattern code {code} is outside 0..{3**length - 1}")
    colours = []
    for _ in range(length):
        code, c = divmod(code, 3)
        colours.append(c)
    return tuple(reversed(colours))


def pattern(guess: str, answer: str) -> int:
    """The feedback code of ``guess`` against ``answer`` (words of one length)."""
    if len(guess) != len(answer):
        raise RatenError(f"{guess!r} and {answer!r} differ in length: feedback compares words of one length")
    return colours_to_code(feedback_colours(guess, answer))


def parse_pattern(text: str, length: int = WORD_LENGTH) -> int:
    """Read a pattern of ``length`` symbols in any notation (``.?!``, ``b/y/g``, ``x``/``-``,
    ``0/1/2``, emoji, high-contrast emoji)."""
    cleaned = text.strip().lower().replace(_VARIATION_SELECTOR, "")
    colours = []
    for ch in cleaned:
        if ch not in _SYMBOLS:
            raise RatenError(
                f"pattern {shorten(text)!r} has an unknown symbol {ch!r}: use . ? ! (grey, yellow, green), "
                "b y g, 0 1 2 or the emoji \u2b1c \U0001f7e8 \U0001f7e9",
                "pattern_symbol",
                pattern=shorten(text),
                symbol=ch,
            )
        colours.append(_SYMBOLS[ch])
    if len(colours) != length:
        raise RatenError(
            f"pattern {shorten(text)!r} has {len(colours)} symbols, not {length}",
            "pattern_length",
            pattern=shorten(text),
            length=len(colours),
            expected=length,
        )
    return colours_to_code(colours)


def format_pattern(code: int, notation: str = "dots", length: int = WORD_LENGTH) -> str:
    """Write the code of a word of ``length`` letters in a notation: ``dots`` (.?!), ``letters``,
    ``digits`` or ``emoji``."""
    try:
        symbols = _NOTATIONS[notation]
    except KeyError:
        raise RatenError(f"unknown notation {notation!r}: one of {', '.join(_NOTATIONS)}") from None
    return "".join(symbols[c] for c in code_to_colours(code, length))
