"""The `raten` command: a thin face over the library (hint, openers, analyze, score, solve).

bench, tree, sql, serve, words and cache live in their own modules and load only when used.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from raten._version import __version__
from raten.cli.common import (
    RatenGroup,
    boards_option,
    complete_lists,
    complete_strategies,
    console,
    criterion,
    emoji,
    emoji_of,
    err_console,
    guarantee_options,
    hard_option,
    hints_table,
    json_option,
    list_context,
    parse_moves,
    print_json,
    show_warnings,
    top_option,
    word_options,
    words_from_options,
)
from raten.engine.constraints import standing
from raten.engine.feedback import code_to_colours, format_pattern, pattern
from raten.engine.strategy_names import STRATEGIES
from raten.engine.words import check_word
from raten.errors import RatenError
from raten.wordlists.presets import ALL_PRESETS

# State, ranking and rich.table are imported inside the commands that use them: they bring
# numpy, numba and the pattern matrix, which --help, --version, score and usage errors do
# without (see tests/cli/test_startup.py).
if TYPE_CHECKING:
    from raten.engine.state import State
    from raten.play.session import Session

# Loaded when used; --help lists them by their first help paragraph (kept equal to the
# command's own by tests/cli/test_startup.py), since loading bench, tree or sql costs numba.
LAZY_COMMANDS = {
    "bench": (
        "raten.cli.bench:bench",
        "Play every solution (or a sample) with a strategy and count the guesses.",
    ),
    "tree": (
        "raten.cli.tree:tree",
        "Build the decision tree with the fewest guesses in total, proven optimal by exact search.",
    ),
    "cache": (
        "raten.cli.cache:cache",
        "Where the pattern-matrix cache is, what it holds, a digest check of every entry, cleaning.",
    ),
    "sql": (
        "raten.cli.sql:sql",
        "The feedback table in SQLite or DuckDB, and a solver written in SQL alone.",
    ),
    "serve": (
        "raten.cli.serve:serve",
        "Serve the solver page, the game and the openers (JSON API under /api, schema at /docs).",
    ),
    "review": (
        "raten.cli.review:review",
        "Judge a finished game guess by guess: exact values, regret, skill and luck.",
    ),
    "book": (
        "raten.cli.book:book",
        "The guarantee's opening book: the first two safe guesses, computed offline.",
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


def _state(preset, solutions, allowed, any_answer, prior, hard, moves) -> State:
    from raten.engine.state import State

    words = words_from_options(preset, solutions, allowed, any_answer, prior)
    return State(words, hard=hard).replay(parse_moves(moves))


def _strategy_option(f):
    return click.option(
        "--strategy",
        "-s",
        default="entropy",
        show_default=True,
        shell_complete=complete_strategies,
        help="Ranking: " + ", ".join(STRATEGIES) + ".",
    )(f)


def _answers_only_option(f):
    return click.option(
        "--answers-only", is_flag=True, help="Rank only words that could be the answer (the candidates)."
    )(f)


def _tree_option(f):
    return click.option(
        "--tree",
        "tree_file",
        type=click.Path(path_type=Path),
        help="Follow a decision tree instead of ranking: a file from `raten tree --out`, or a shipped proven tree "
        "by name (en-normal, en-hard, de-normal, de-hard, 6mal5-normal, 6mal5-hard).",
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
@_answers_only_option
@_tree_option
@boards_option
@guarantee_options
@json_option
@click.argument("moves", nargs=-1, metavar="[GUESS=PATTERN]...")
def hint(
    preset,
    solutions,
    allowed,
    any_answer,
    prior,
    hard,
    top,
    strategy,
    answers_only,
    tree_file,
    boards,
    guarantee,
    guarantee_over,
    as_json,
    moves,
):
    """The best next guesses after the guesses you made and the colours you got.

    Example: raten hint --words en crane=..?!.
    """
    if boards > 1:
        from raten.cli import boards as many

        _no_boards_option(hard, tree_file)
        words = words_from_options(preset, solutions, allowed, any_answer, prior)
        return many.hint(words, boards, top, strategy, as_json, moves)
    state = _state(preset, solutions, allowed, any_answer, prior, hard, moves)
    guarded = guarantee is not None and not tree_file and not state.solved
    # under the guarantee the strategy's own ranking is made deep enough for its decision, once
    deep = guarded and not answers_only and top >= 1  # --top 0 is refused by the ranking itself
    ranked = state.hints(top=max(top, _guarded_ranked()) if deep else top, strategy=strategy, answers_only=answers_only)
    hints = ranked[:top]
    tree_guess = _tree_guess(tree_file, state) if tree_file else None
    guard = _guarded(state, hints, guarantee, guarantee_over, strategy, ranked if deep else None) if guarded else None
    if as_json:
        out = {
            "solved": state.solved,
            "candidates": state.count,
            "candidate_words": state.candidate_words,
            "hints": [h.to_dict() for h in hints],
            "constraints": state.constraints.to_dict(),
            "fallback": state.fallback is not None,
            "prior": state.words.prior,
            "warnings": list(state.warnings),
        }
        if tree_file:
            out["tree_guess"] = tree_guess
        out["guarantee"] = guard.to_dict(hints) if guard is not None else None
        print_json(out)
        return
    show_warnings(state.warnings)
    _print_candidates(state)
    if state.solved:
        return
    if tree_guess:
        console.print(f"decision tree says: [bold]{tree_guess.upper()}[/bold]")
    title = f"best next guesses ({strategy}{', hard mode' if hard else ''})"
    console.print(hints_table(hints, title=title, marks=[guard.mark(h.word) for h in hints] if guard else None))
    if guard is not None:
        console.print(guard.summary())


def _guarded_ranked() -> int:
    """How deep the guarded strategy's decision reads the ranking (``strategies.GUARDED_RANKED``)."""
    from raten.play.strategies import GUARDED_RANKED

    return GUARDED_RANKED


def _guarded(state: State, hints, limit: int | None, over: str | None, strategy: str, ranked=None):
    """The guarantee's view of the position (``raten.play.safe_hints``), or None when it is off,
    the game is over or nothing is ranked; ``ranked``: the strategy's own deeper ranking."""
    if limit is None or state.solved or not hints:
        return None
    from raten.play.safe_hints import guarded_hints
    from raten.wordlists.presets import default_over

    return guarded_hints(state, hints, limit, over or default_over(state.words, state.hard), strategy, ranked=ranked)


def _print_candidates(state: State, limit: int = 60) -> None:
    """Where the game stands (solved, the answer, or how many are left), the words and the constraints."""
    words = state.candidate_words
    line = standing(words, solved=state.solved, fallback=state.fallback is not None, guesses=len(state.history))
    if state.solved or len(words) == 1:
        console.print(f"[bold green]{line}[/bold green]")
        if state.solved:
            return
    else:
        console.print(f"{line}:")
        shown = " ".join(w.upper() for w in words[:limit])
        console.print("  " + shown + (f" ... (+{len(words) - limit})" if len(words) > limit else ""))
    for line in state.constraints.describe():
        console.print(f"  [dim]{line}[/dim]")


@main.command()
@word_options
@hard_option
@top_option(10, "openers")
@_strategy_option
@_answers_only_option
@json_option
def openers(preset, solutions, allowed, any_answer, prior, hard, top, strategy, answers_only, as_json):
    """The best first guesses for a word list."""
    from raten.engine.state import State

    state = State(words_from_options(preset, solutions, allowed, any_answer, prior), hard=hard)
    hints = state.hints(top=top, strategy=strategy, answers_only=answers_only)
    if as_json:
        print_json(list_context(state.words, strategy, hard) | {"openers": [h.to_dict() for h in hints]})
        return
    words = state.words
    prior = "" if words.prior == "uniform" else f", {words.prior} prior"
    title = (
        f"best openers for {words.name} ({len(words.solutions)} solutions, {len(words.allowed)} allowed"
        f"{prior}{', hard mode' if hard else ''})\nranked by {strategy}: {criterion(strategy)}"
    )
    console.print(hints_table(hints, title=title))


@main.command(name="analyze")
@word_options
@json_option
@click.option(
    "--limit", default=12, show_default=True, type=click.IntRange(min=0), help="Words shown per group in the terminal."
)
@click.argument("word")
@click.argument("moves", nargs=-1, metavar="[GUESS=PATTERN]...")
def analyze_cmd(preset, solutions, allowed, any_answer, prior, as_json, limit, word, moves):
    """How WORD splits the remaining candidates: every group, its pattern and its words."""
    from rich.table import Table

    from raten.engine.rank import analyze

    state = _state(preset, solutions, allowed, any_answer, prior, False, moves)
    word = state.words.check(word, "word")
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
        table.add_row(emoji_of(b["pattern"]), str(b["count"]), f"[cyan]{bar}[/cyan]", shown)
    console.print(table)


@main.command()
@click.option(
    "--notation",
    type=click.Choice(["emoji", "dots", "letters", "digits"]),
    default=None,
    help="How to write the colours (default: emoji, or dots with --json).",
)
@click.option(
    "--words",
    "-w",
    "preset",
    default=None,
    metavar="LIST",
    shell_complete=complete_lists,
    help="Spell the words as this built-in list does (its length and letters: de-umlaut keeps Ä, Ö, Ü); "
    "default: any 4 to 8 letters a-z, umlauts transliterated.",
)
@json_option
@click.argument("guess")
@click.argument("answers", nargs=-1, required=True)
def score(notation, preset, as_json, guess, answers):
    """The colours the game shows for GUESS against each ANSWER (words of one length, 4 to 8 letters)."""
    if preset is not None:
        from raten.wordlists.presets import load_preset

        words = load_preset(preset)
        length, alphabet = words.length, words.alphabet
        g = words.check(guess, "guess")
    else:
        from raten.engine.alphabet import LATIN

        g = check_word(guess, "guess")
        length, alphabet = len(g), LATIN
    spelled = [check_word(a, "answer", length=length, alphabet=alphabet) for a in answers]
    codes = [pattern(g, a) for a in spelled]
    fmt = notation or ("dots" if as_json else "emoji")
    if as_json:
        print_json(
            {
                "guess": g,
                "notation": fmt,
                "results": [{"answer": a, "pattern": format_pattern(c, fmt, length)} for a, c in zip(spelled, codes)],
                "patterns": [format_pattern(c, fmt, length) for c in codes],
            }
        )
        return
    for a, c in zip(spelled, codes):
        click.echo(f"{g.upper()} vs {a.upper()}: {format_pattern(c, fmt, length)}")


@main.command()
@word_options
@hard_option
@top_option(5)
@_strategy_option
@_tree_option
@click.option("--answer", help="Play by itself against this known answer (no typing): shows how raten finds it.")
@boards_option
@guarantee_options
def solve(
    preset,
    solutions,
    allowed,
    any_answer,
    prior,
    hard,
    top,
    strategy,
    tree_file,
    answer,
    boards,
    guarantee,
    guarantee_over,
):
    """Interactive: raten suggests a guess, you type the colours the game showed, until solved.

    At the guess prompt press Enter to take the suggestion or type your own word; at the
    colours prompt type e.g. ..?!. (or b/y/g, 0/1/2, emoji). 'undo' at either prompt goes
    back a step, 'quit' (or Ctrl-D) stops and prints the moves so far.
    """
    if boards > 1:
        from raten.cli import boards as many

        _no_boards_option(hard, tree_file)
        if answer:
            raise RatenError("--answer is for one board")
        return many.solve(words_from_options(preset, solutions, allowed, any_answer, prior), boards, top, strategy)
    from raten.play.session import Session

    words = words_from_options(preset, solutions, allowed, any_answer, prior)
    session = Session(
        words,
        hard=hard,
        strategy=strategy,
        tree=tree_file,
        answer=answer,
        guarantee=guarantee,
        guarantee_over=guarantee_over,
    )
    console.print(f"[bold]raten solve[/bold] {session.intro()}")
    if answer is not None:
        for _ in session.autoplay():
            show_warnings(session.new_warnings)
            _print_row(session)
        _print_end(session)
        return
    try:
        _solve_loop(session, top)
    except EOFError:
        console.print()
        _print_resume(session, "end of input")
    except KeyboardInterrupt:
        console.print()
        _print_resume(session, "interrupted")
        sys.exit(130)


#: Tile colours of the board: Wordle's own grey, yellow and green.
_TILE_STYLES = ("bold white on #787c7e", "bold black on #c9b458", "bold white on #6aaa64")


def _print_row(session: Session) -> None:
    """The last move as coloured tiles with its emoji, then where the game stands."""
    from rich.text import Text

    guess, code = session.history[-1]
    row = Text()
    for letter, colour in zip(guess.upper(), code_to_colours(code, len(guess))):
        row.append(f" {letter} ", style=_TILE_STYLES[colour])
        row.append(" ")
    row.append(f" {emoji(code, len(guess))}  {session.status()}")
    console.print(row)


def _print_board(session: Session) -> None:
    """Every guess so far as a row of coloured tiles (letters with their emoji, for plain output too)."""
    from rich.text import Text

    for n, (guess, code) in enumerate(session.history, 1):
        row = Text(f"{n} ", style="dim")
        for letter, colour in zip(guess.upper(), code_to_colours(code, len(guess))):
            row.append(f" {letter} ", style=_TILE_STYLES[colour])
            row.append(" ")
        row.append(f" {emoji(code, len(guess))}")
        console.print(row)


def _print_end(session: Session) -> None:
    """The solved line and the share grid, one row per line."""
    console.print(f"[bold green]{session.status()}[/bold green]")
    console.print(session.share_grid())


def _print_resume(session: Session, why: str) -> None:
    """How the game stood when it stopped, so no move is lost: the moves as `raten hint` arguments."""
    if session.history:
        words = f"--words {session.words.name} " if session.words.name in ALL_PRESETS else ""
        hard = "--hard " if session.hard else ""
        moves = " ".join(shlex.quote(m) for m in session.moves_text().split())
        console.print(f"{why}; to go on: raten hint {words}{hard}{moves}", soft_wrap=True)
    else:
        console.print(f"{why}; no moves entered")


def _ask(label: str, default: str | None = None) -> str:
    """One line from the player, trimmed (Enter takes ``default``); EOF and Ctrl-C propagate."""
    prompt = f"{label} [{default}]: " if default else f"{label}: "
    text = input(prompt).strip()
    return text or (default or "")


def _solve_loop(session: Session, top: int) -> None:
    """The prompts: a guess (Enter takes the suggestion), then its colours, until solved or quit."""
    shown = None
    early = None  # the off-list warning given at the guess prompt, not repeated after the colours
    while True:
        if session.state is not shown:
            shown = session.state
            show_warnings([w for w in session.new_warnings if w != early])
            if session.history:
                _print_board(session)
                _print_candidates(session.state, limit=30)
            if session.solved:
                console.print(session.share_grid())
                return
            guard = session.guarded(top)
            marks = [guard.mark(h.word) for h in session.suggestions(top)] if guard else None
            console.print(hints_table(session.suggestions(top), marks=marks))
            if guard is not None:
                console.print(guard.summary())
        text = _ask("guess", session.suggestion().upper())
        command = text.lower()
        if command in ("quit", "q"):
            _print_resume(session, "stopped")
            return
        if command == "undo":
            if not session.undo():
                err_console.print("[yellow]nothing to undo[/yellow]")
            continue
        try:
            guess = session.check_guess(text)
        except RatenError as e:
            err_console.print(f"[red]{e}[/red]")
            continue
        early = session.state.off_list(guess)
        show_warnings([early] if early else [])
        while True:  # a mistyped pattern asks for the pattern again, not the guess
            colours = _ask(f"colours for {guess.upper()}")
            if colours.lower() in ("quit", "q"):
                _print_resume(session, "stopped")
                return
            if colours.lower() == "undo":  # back to the guess prompt
                break
            try:
                session.enter(guess, colours)
                break
            except RatenError as e:
                err_console.print(f"[red]{e}[/red]")


if __name__ == "__main__":
    main()
