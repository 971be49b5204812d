"""The `raten` command: a thin face over the library (hint, openers, analyze, score, solve).

bench, tree, sql, serve and words live in their own modules and load only when used.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from raten._version import __version__
from raten.cli.common import (
    RatenGroup,
    boards_option,
    console,
    emoji,
    err_console,
    hard_option,
    hints_table,
    json_option,
    parse_moves,
    print_json,
    show_warnings,
    top_option,
    word_options,
    words_from_options,
)
from raten.engine.feedback import format_pattern, parse_pattern, pattern
from raten.engine.strategy_names import STRATEGIES
from raten.engine.words import check_word
from raten.errors import RatenError

# State, ranking and rich.table are imported inside the commands that use them: they bring
# numpy, numba and the pattern matrix, which --help, --version, score and usage errors do
# without (see tests/test_startup.py).
if TYPE_CHECKING:
    from raten.engine.state import State

# Loaded when used; --help lists them by their first help paragraph (kept equal to the
# command's own by tests/test_startup.py), since loading bench, tree or sql costs numba.
LAZY_COMMANDS = {
    "bench": (
        "raten.cli.bench:bench",
        "Play every solution (or a sample) with a strategy and count the guesses.",
    ),
    "tree": (
        "raten.cli.tree:tree",
        "Build the decision tree with the fewest guesses in total, proven optimal by exact search.",
    ),
    "sql": (
        "raten.cli.sql:sql",
        "The feedback table in SQLite or DuckDB, and a solver written in SQL alone.",
    ),
    "serve": (
        "raten.cli.serve:serve",
        "Serve the solver page, the game and the openers (JSON API under /api, schema at /docs).",
    ),
    "words": (
        "raten.cli.words:words",
        "The built-in word lists, their sizes and sources (`raten words build` rebuilds German).",
    ),
}


@click.group(cls=RatenGroup, lazy=LAZY_COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="raten")
def main() -> None:
    """raten: the Wordle solver for German and English.

    Patterns may be written as .?! (grey, yellow, green), b/y/g, 0/1/2 or emoji.
    Example: raten hint --words en crane=..?!.
    """


def _state(preset, solutions, allowed, any_answer, hard, moves) -> State:
    from raten.engine.state import State

    words = words_from_options(preset, solutions, allowed, any_answer)
    return State(words, hard=hard).replay(parse_moves(moves))


def _strategy_option(f):
    return click.option(
        "--strategy",
        "-s",
        default="entropy",
        show_default=True,
        help="Ranking: " + ", ".join(STRATEGIES) + ".",
    )(f)


def _tree_option(f):
    return click.option(
        "--tree",
        "tree_file",
        type=click.Path(path_type=Path),
        help="Follow a decision tree file (from `raten tree --out`) instead of ranking.",
    )(f)


def _no_boards_option(hard: bool, tree_file: Path | None) -> None:
    """--hard and --tree are for one board: say so instead of ignoring them."""
    if hard:
        raise RatenError("--hard is for one board: Dordle, Quordle and the others have no hard mode")
    if tree_file:
        raise RatenError("--tree is for one board")


def _tree_guess(tree_file: Path, state: State) -> str:
    from raten.trees.player import load_tree

    return load_tree(tree_file, state.words).next_guess(state)


@main.command()
@word_options
@hard_option
@top_option(10)
@_strategy_option
@_tree_option
@boards_option
@json_option
@click.argument("moves", nargs=-1, metavar="[GUESS=PATTERN]...")
def hint(preset, solutions, allowed, any_answer, hard, top, strategy, tree_file, boards, as_json, moves):
    """The best next guesses after the guesses you made and the colours you got.

    Example: raten hint --words en crane=..?!.
    """
    if boards > 1:
        from raten.cli import boards as many

        _no_boards_option(hard, tree_file)
        words = words_from_options(preset, solutions, allowed, any_answer)
        return many.hint(words, boards, top, strategy, as_json, moves)
    state = _state(preset, solutions, allowed, any_answer, hard, moves)
    hints = state.hints(top=top, strategy=strategy)
    tree_guess = _tree_guess(tree_file, state) if tree_file else None
    if as_json:
        out = {
            "candidates": state.count,
            "candidate_words": state.candidate_words,
            "hints": [h.to_dict() for h in hints],
            "constraints": state.constraints.to_dict(),
            "fallback": state.fallback is not None,
            "warnings": list(state.warnings),
        }
        if tree_file:
            out["tree_guess"] = tree_guess
        print_json(out)
        return
    show_warnings(state.warnings)
    _print_candidates(state)
    if tree_guess:
        console.print(f"decision tree says: [bold]{tree_guess.upper()}[/bold]")
    console.print(hints_table(hints, title=f"best next guesses ({strategy}{', hard mode' if hard else ''})"))


def _print_candidates(state: State, limit: int = 60) -> None:
    words = state.candidate_words
    label = "allowed words fit" if state.fallback is not None else "candidates left"
    console.print(f"[bold]{len(words)}[/bold] {label}" + (":" if words else ""))
    if len(words) <= limit:
        console.print("  " + " ".join(w.upper() for w in words))
    else:
        console.print("  " + " ".join(w.upper() for w in words[:limit]) + f" ... (+{len(words) - limit})")
    for line in state.constraints.describe():
        console.print(f"  [dim]{line}[/dim]")


@main.command()
@word_options
@hard_option
@top_option(10, "openers")
@_strategy_option
@json_option
def openers(preset, solutions, allowed, any_answer, hard, top, strategy, as_json):
    """The best first guesses for a word list."""
    from raten.engine.state import State

    state = State(words_from_options(preset, solutions, allowed, any_answer), hard=hard)
    hints = state.hints(top=top, strategy=strategy)
    if as_json:
        print_json({"openers": [h.to_dict() for h in hints]})
        return
    words = state.words
    title = f"best openers for {words.name} ({len(words.solutions)} solutions, {len(words.allowed)} allowed)"
    console.print(hints_table(hints, title=title))


@main.command(name="analyze")
@word_options
@json_option
@click.option("--limit", default=12, show_default=True, help="Words shown per group in the terminal.")
@click.argument("word")
@click.argument("moves", nargs=-1, metavar="[GUESS=PATTERN]...")
def analyze_cmd(preset, solutions, allowed, any_answer, as_json, limit, word, moves):
    """How WORD splits the remaining candidates: every group, its pattern and its words."""
    from rich.table import Table

    from raten.engine.rank import analyze

    word = check_word(word, "word")
    state = _state(preset, solutions, allowed, any_answer, False, moves)
    report = analyze(state, word)
    if as_json:
        print_json(report)
        return
    show_warnings(state.warnings)
    console.print(
        f"[bold]{word.upper()}[/bold] against {state.count} candidates: {report['bits']:.4f} bits, "
        f"{report['patterns']} patterns, largest group {report['largest']}, "
        f"expected left {report['expected_remaining']:.2f}"
    )
    table = Table()
    table.add_column("pattern")
    table.add_column("count", justify="right")
    table.add_column("", no_wrap=True)
    table.add_column("words")
    biggest = report["largest"] or 1
    for b in report["buckets"]:
        bar = "█" * max(1, round(30 * b["count"] / biggest))
        shown = " ".join(w.upper() for w in b["words"][:limit])
        if b["count"] > limit:
            shown += f" ... (+{b['count'] - limit})"
        table.add_row(emoji(parse_pattern(b["pattern"])), str(b["count"]), f"[cyan]{bar}[/cyan]", shown)
    console.print(table)


@main.command()
@click.option(
    "--notation",
    type=click.Choice(["emoji", "dots", "letters", "digits"]),
    default=None,
    help="How to write the colours (default: emoji, or dots with --json).",
)
@json_option
@click.argument("guess")
@click.argument("answers", nargs=-1, required=True)
def score(notation, as_json, guess, answers):
    """The colours the game shows for GUESS against each ANSWER."""
    g = check_word(guess, "guess")
    codes = [pattern(g, check_word(a, "answer")) for a in answers]
    fmt = notation or ("dots" if as_json else "emoji")
    if as_json:
        print_json({"patterns": [format_pattern(c, fmt) for c in codes]})
        return
    for a, c in zip(answers, codes):
        click.echo(f"{g.upper()} vs {a.strip().upper()}: {format_pattern(c, fmt)}")


@main.command()
@word_options
@hard_option
@top_option(5)
@_strategy_option
@_tree_option
@boards_option
def solve(preset, solutions, allowed, any_answer, hard, top, strategy, tree_file, boards):
    """Interactive: raten suggests a guess, you type the colours the game showed, until solved.

    At the guess prompt press Enter to take the suggestion or type your own word; at the
    colours prompt type e.g. ..?!. (or b/y/g, 0/1/2, emoji), 'undo' to go back, 'quit' to stop.
    """
    if boards > 1:
        from raten.cli import boards as many

        _no_boards_option(hard, tree_file)
        return many.solve(words_from_options(preset, solutions, allowed, any_answer), boards, top, strategy)
    from raten.play.session import Session

    session = Session(
        words_from_options(preset, solutions, allowed, any_answer), hard=hard, strategy=strategy, tree=tree_file
    )
    while True:
        show_warnings(session.new_warnings)
        if session.history:
            _print_candidates(session.state, limit=30)
        hints = session.suggestions(top)
        suggestion = session.suggestion()
        console.print(hints_table(hints))
        guess = click.prompt("guess", default=suggestion.upper(), show_default=True).strip().lower()
        if guess in ("quit", "q"):
            return
        try:
            guess = session.check_guess(guess)
        except RatenError as e:
            err_console.print(f"[red]{e}[/red]")
            continue
        colours = click.prompt("colours").strip()
        if colours.lower() in ("quit", "q"):
            return
        if colours.lower() == "undo":
            session.undo()
            continue
        try:
            session.enter(guess, colours)
        except RatenError as e:
            err_console.print(f"[red]{e}[/red]")
            continue
        if session.solved:
            grid = " ".join(emoji(c) for _, c in session.history)
            console.print(f"[green]solved in {len(session.history)}[/green]: {grid}")
            return


if __name__ == "__main__":
    main()
