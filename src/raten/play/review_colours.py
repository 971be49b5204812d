"""Where a reviewed game's colours come from: the answer, typed patterns or a pasted share text,
each checked against the others so a review never judges a game that the sources disagree on."""

from __future__ import annotations

import re
from collections.abc import Sequence

from raten.engine.feedback import all_green, format_pattern, parse_pattern, pattern
from raten.errors import RatenError

_SHARE_SQUARES = "\u2b1b\u2b1c\U0001f7e8\U0001f7e9\U0001f7e7\U0001f7e6"


def parse_share(text: str, length: int) -> list[int]:
    """The rows of ``length`` squares of a share text (NYT, 6mal5, raten; high-contrast too) as
    pattern codes, in order."""
    row = re.compile(f"^[{_SHARE_SQUARES}]{{{length}}}$")
    rows = []
    for line in text.replace("\ufe0f", "").splitlines():
        line = line.strip()
        if row.match(line):
            rows.append(parse_pattern(line, length))
    if not rows:
        raise RatenError(f"the share text has no rows of {length} coloured squares", "share_empty", length=length)
    return rows


def share_says_hard(text: str) -> bool:
    """Whether a share text's header marks a hard-mode game (NYT writes ``3/6*``)."""
    return any(re.search(r"\b[1-6X]/6\*", line) for line in text.splitlines()[:3])


def colours_of(
    guesses: list[str], answer: str | None, patterns: Sequence[str | int] | None, share: str | None
) -> list[int]:
    """The colours of each guess (words of one length), from the answer, typed patterns or a share
    text, checked against each other."""
    length = len(guesses[0])
    sources: list[tuple[str, list[int]]] = []
    if answer is not None:
        sources.append(("the answer", [pattern(g, answer) for g in guesses]))
    if patterns is not None:
        sources.append(("the colours", [p if isinstance(p, int) else parse_pattern(p, length) for p in patterns]))
    if share is not None:
        sources.append(("the share text", parse_share(share, length)))
    if not sources:
        raise RatenError("give the answer, the colours of each guess or a share text", "review_no_colours")
    name, codes = sources[0]
    for other, theirs in sources[1:]:
        if len(theirs) != len(guesses):
            raise RatenError(
                f"{other} has {len(theirs)} rows for {len(guesses)} guesses",
                "review_rows",
                source=other,
                rows=len(theirs),
                guesses=len(guesses),
            )
        for i, (a, b) in enumerate(zip(codes, theirs)):
            if a != b:
                mine, shown = format_pattern(a, "emoji", length), format_pattern(b, "emoji", length)
                raise RatenError(
                    f"guess {i + 1} ({guesses[i].upper()}): {name} gives {mine} but {other} shows {shown}",
                    "review_mismatch",
                    number=i + 1,
                    guess=guesses[i].upper(),
                    first=name,
                    second=other,
                    ours=mine,
                    theirs=shown,
                )
    if len(codes) != len(guesses):
        raise RatenError(
            f"{name} has {len(codes)} rows for {len(guesses)} guesses",
            "review_rows",
            source=name,
            rows=len(codes),
            guesses=len(guesses),
        )
    for i, c in enumerate(codes[:-1]):
        if c == all_green(length):
            raise RatenError(
                f"guess {i + 1} already solved the game; remove the guesses after it", "review_after_win", number=i + 1
            )
    return codes
