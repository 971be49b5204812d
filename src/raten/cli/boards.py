"""`raten hint --boards N` and `raten solve --boards N`: many boards in and out, nothing more.

The game and the ranking live in ``raten.engine.boards`` and ``raten.play.session``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from raten.cli.common import console, emoji, err_console, parse_moves, print_json, show_warnings
from raten.errors import RatenError

if TYPE_CHECKING:
    from rich.table import Table

    from raten.engine.boards import Boards, BoardsHint
    from raten.engine.words import WordSet


def split_patterns(text: str) -> list[str]:
    """One move's patterns, one per board, comma-separated (``-`` marks a solved board)."""
    return [p.strip() for p in text.split(",")]


def replay(words: WordSet, boards: int, moves: tuple[str, ...]) -> Boards:
    """The game after ``GUESS=P1,P2,...`` moves."""
    from raten.engine.boards import Boards

    game = Boards.start(words, boards)
    for guess, text in parse_moves(moves):
        game = game.after(guess, split_patterns(text))
    return game


def hint(words: WordSet, boards: int, top: int, strategy: str, as_json: bool, moves: tuple[str, ...]) -> None:
    """Print the boards and the best next guesses."""
    game = replay(words, boards, moves)
    hints = game.hints(top=top, strategy=strategy) if not game.done else []
    if as_json:
        print_json(_json(game, hints))
        return
    for state in game.states:
        show_warnings(state.warnings)
    print_boards(game)
    if hints:
        console.print(hints_table(hints, f"best next guesses ({strategy}, {game.variant.name})"))


def _json(game: Boards, hints: list[BoardsHint]) -> dict:
    return {
        "variant": game.variant.name,
        "limit": game.variant.limit,
        "guesses": list(game.guesses),
        "boards": [
            {
                "board": b + 1,
                "solved": s.solved,
                "solved_at": game.solved_at(b),
                "candidates": 0 if s.solved else s.count,
                "candidate_words": [] if s.solved else s.candidate_words,
            }
            for b, s in enumerate(game.states)
        ],
        "done": game.done,
        "hints": [h.to_dict() for h in hints],
    }


def print_boards(game: Boards, limit: int = 12) -> None:
    """One line per board: solved at which guess, or its candidates."""
    left = game.variant.limit - game.turns
    console.print(
        f"[bold]{game.variant.name}[/bold]: {game.turns} of {game.variant.limit} guesses played"
        + (f", {left} left" if left >= 0 else f", {-left} over the limit")
    )
    for b, state in enumerate(game.states):
        if state.solved:
            console.print(f"  board {b + 1}: [green]solved[/green] by guess {game.solved_at(b)}")
            continue
        words = state.candidate_words
        shown = " ".join(w.upper() for w in words[:limit]) + (
            f" ... (+{len(words) - limit})" if len(words) > limit else ""
        )
        console.print(f"  board {b + 1}: [bold]{len(words)}[/bold] left: {shown}")


def hints_table(hints: list[BoardsHint], title: str) -> Table:
    """A rich table of many-board hints."""
    from rich.table import Table

    table = Table(title=title, title_justify="left")
    table.add_column("#", justify="right", style="dim")
    table.add_column("guess", style="bold")
    table.add_column("bits", justify="right")
    table.add_column("exp. left", justify="right")
    table.add_column("answer on", justify="left")
    for i, h in enumerate(hints, 1):
        on = ",".join(map(str, h.boards))
        table.add_row(str(i), h.word.upper(), f"{h.bits:.4f}", f"{h.expected_remaining:.2f}", on)
    return table


def solve(words: WordSet, boards: int, top: int, strategy: str) -> None:
    """Interactive: suggest, read one pattern per board, until every board is solved."""
    from raten.play.session import BoardsSession

    session = BoardsSession(words, boards, strategy)
    while True:
        game = session.boards
        if game.turns:
            print_boards(game, limit=8)
        hints = session.suggestions(top)
        console.print(hints_table(hints, f"best next guesses ({session.strategy}, {game.variant.name})"))
        guess = click.prompt("guess", default=hints[0].word.upper(), show_default=True).strip().lower()
        if guess in ("quit", "q"):
            return
        text = click.prompt(f"colours, {boards} comma-separated (- for a solved board)").strip()
        if text.lower() in ("quit", "q"):
            return
        if text.lower() == "undo":
            session.undo()
            continue
        try:
            session.enter(guess, split_patterns(text))
        except RatenError as e:
            err_console.print(f"[red]{e}[/red]")
            continue
        if session.done:
            done = session.boards
            grid = " | ".join(" ".join(emoji(c, len(g)) for g, c in s.history) for s in done.states)
            console.print(f"[green]all {boards} boards solved in {done.turns}[/green]: {grid}")
            return
