"""Wordle feedback: the two-pass rule, the 0..242 code and the pattern notations.

Code: base 3, first letter most significant, 0 grey, 1 yellow, 2 green
(so ``?.?!!`` = 1*81 + 0*27 + 1*9 + 2*3 + 2 = 98 and all green = 242).
"""

from __future__ import annotations

from collections import Counter

from raten.errors import RatenError, shorten

WORD_LENGTH = 5
PATTERNS = 3**WORD_LENGTH
ALL_GREEN = PATTERNS - 1

GREY, YELLOW, GREEN = 0, 1, 2

Move = tuple[str, int]
"""One turn: the guess (normalised) and the 0..242 feedback code it showed."""

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


def code_to_colours(code: int) -> tuple[int, ...]:
    """Unpack a 0..242 code into five colours."""
    if not 0 <= code < PATTERNS:
        raise RatenError(f"pattern code {code} is outside 0..{PATTERNS - 1}")
    colours = []
    for _ in range(WORD_LENGTH):
        code, c = divmod(code, 3)
        colours.append(c)
    return tuple(reversed(colours))


def pattern(guess: str, answer: str) -> int:
    """The 0..242 feedback code of ``guess`` against ``answer``."""
    return colours_to_code(feedback_colours(guess, answer))


def parse_pattern(text: str) -> int:
    """Read a pattern in any notation (``.?!``, ``b/y/g``, ``x``/``-``, ``0/1/2``, emoji, high-contrast emoji)."""
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
    if len(colours) != WORD_LENGTH:
        raise RatenError(
            f"pattern {shorten(text)!r} has {len(colours)} symbols, not {WORD_LENGTH}",
            "pattern_length",
            pattern=shorten(text),
            length=len(colours),
        )
    return colours_to_code(colours)


def format_pattern(code: int, notation: str = "dots") -> str:
    """Write a 0..242 code in a notation: ``dots`` (.?!), ``letters``, ``digits`` or ``emoji``."""
    try:
        symbols = _NOTATIONS[notation]
    except KeyError:
        raise RatenError(f"unknown notation {notation!r}: one of {', '.join(_NOTATIONS)}") from None
    return "".join(symbols[c] for c in code_to_colours(code))
