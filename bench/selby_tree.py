"""Convert a decision tree printed by Selby's solver (``wordle -p FILE``) to raten's tree file.

Selby's trees (github.com/alex1770/wordle, e.g. ``lants.bighidden.origwords.tree``) print one
line per answer, each move as ``word PATTERN<n>`` (B/Y/G, n the guess number) in columns of 13
characters, a line leaving out the moves it shares with the line above (and the guess, when
only its pattern differs: the line then starts 6 characters into a column). The raten file it
becomes can be checked with ``raten tree check`` and ``checker/check_optimum.py``::

    .venv/bin/python bench/selby_tree.py /tmp/selby/lants.bighidden.origwords.tree lants-selby.txt \\
        --words en --any-answer
    .venv/bin/raten tree check lants-selby.txt --words en --any-answer
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from raten.engine.feedback import ALL_GREEN, parse_pattern
from raten.trees.model import Tree
from raten.wordlists.presets import load_words

#: Characters per move in Selby's printout: "lants BBBBB1 ", the pattern after the word's 6.
COLUMN = 13
WORD_WIDTH = 6


def read_selby(text: str) -> dict[str, tuple]:
    """Each answer's moves ((guess, code) ...) from Selby's printout."""
    paths: dict[str, tuple] = {}
    moves: list[tuple[str, int]] = []
    for no, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip(" "))
        level, rest = divmod(indent, COLUMN)
        toks = line.split()
        if rest == WORD_WIDTH and level < len(moves):  # the guess above, another pattern
            toks.insert(0, moves[level][0])
        elif rest:
            raise SystemExit(f"line {no}: indent {indent} does not start a move")
        if len(toks) % 2:
            raise SystemExit(f"line {no}: expected word PATTERN pairs")
        moves = moves[:level]
        for word, mark in zip(toks[::2], toks[1::2]):
            moves.append((word.lower(), parse_pattern(mark.rstrip("0123456789").lower())))
        if moves[-1][1] != ALL_GREEN:
            raise SystemExit(f"line {no}: the path does not end in GGGGG")
        paths[moves[-1][0]] = tuple(moves)
    return paths


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("selby", type=Path, help="Selby's tree printout")
    ap.add_argument("out", type=Path, help="the raten tree file to write")
    ap.add_argument("--words", default="en", help="the preset the tree is for")
    ap.add_argument("--any-answer", action="store_true", help="every allowed word may be the answer")
    ap.add_argument("--hard", action="store_true", help="a hard-mode tree")
    ap.add_argument("--max-guesses", type=int, default=0, help="the guess limit to claim (0: none)")
    args = ap.parse_args()
    words = load_words(args.words, any_answer=args.any_answer)
    paths = read_selby(args.selby.read_text())
    opener = next(iter(paths.values()))[0][0]
    tree = Tree.from_paths(words, paths, hard=args.hard, max_guesses=args.max_guesses or None, opener=opener)
    tree.write(args.out)
    print(f"{args.out}: {len(paths)} answers, opener {opener.upper()}, total {tree.total}, worst {tree.worst}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
