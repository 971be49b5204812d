"""`raten book build` and `raten book check`: the guarantee's opening book (``raten.trees.book``)."""

from __future__ import annotations

from pathlib import Path

import click

from raten.cli.common import (
    RatenGroup,
    console,
    err_console,
    guarantee_options,
    hard_option,
    json_option,
    print_json,
    progress_bar,
    word_options,
    words_from_options,
)
from raten.errors import RatenError
from raten.wordlists.presets import ALL_PRESETS, default_over


@click.group(cls=RatenGroup, context_settings={"help_option_names": ["-h", "--help"]})
def book() -> None:
    """The guarantee's opening book: the first two safe guesses, computed offline.

    A strategy under the guarantee reads its opener and its second guess from the book that
    matches its lists, prior, mode, limit, coverage and strategy, and searches every later
    move itself. The built-in lists ship their books; `raten book build` rebuilds one and
    `raten book check` proves every safe guess in it again with a fresh search.
    """


def _setup(preset, solutions, allowed, any_answer, prior, hard, guarantee, guarantee_over, strategy):
    from raten.engine.state import State
    from raten.play.strategies import GuardedStrategy, RankingStrategy, get_strategy

    words = words_from_options(preset, solutions, allowed, any_answer, prior)
    if guarantee is None:
        raise RatenError("an opening book is for a guarantee: give --guarantee N (not off)")
    base = get_strategy(strategy, words)
    if not isinstance(base, RankingStrategy):
        raise RatenError(f"{strategy}: an opening book is for a ranking strategy")
    over = guarantee_over or default_over(words, hard)
    return words, State(words, hard=hard), GuardedStrategy(base, guarantee, over)


def _where(words, hard: bool, over: str, file: Path | None) -> Path:
    from raten.trees.book import shipped_path

    if file is not None:
        return file
    if words.name not in ALL_PRESETS:
        raise RatenError("give the book's file (--out / FILE): only the built-in lists have a place in the package")
    return shipped_path(words.name, hard, over)


def _strategy_option(f):
    return click.option("--strategy", "-s", default="entropy", show_default=True, help="The ranking strategy.")(f)


@book.command("build")
@word_options
@hard_option
@guarantee_options
@_strategy_option
@click.option(
    "--out", type=click.Path(path_type=Path, dir_okay=False), help="Write here (default: the package's book)."
)
@json_option
def build(preset, solutions, allowed, any_answer, prior, hard, guarantee, guarantee_over, strategy, out, as_json):
    """Decide the opener and the second guess for every pattern, and write the book.

    Example: raten book build --words de --guarantee 6 --guarantee-over all
    """
    from raten.trees.book import build_book

    words, state, strat = _setup(
        preset, solutions, allowed, any_answer, prior, hard, guarantee, guarantee_over, strategy
    )
    path = _where(words, hard, strat.over, out)
    if not path.parent.is_dir():
        raise RatenError(f"{path.parent}: no such folder")
    with progress_bar(disable=not err_console.is_terminal) as progress:
        task = progress.add_task(f"{words.name}: second guesses", total=None)
        made = build_book(strat, state, lambda done, n: progress.update(task, completed=done, total=n))
    made.save(path)
    unsafe = [p for p, d in made.second.items() if d.safe is False]
    open_ = [p for p, d in made.second.items() if d.safe is None]
    summary = {
        "file": str(path),
        "opener": made.opener.to_dict(),
        "patterns": len(made.second),
        "unsafe": len(unsafe),
        "undecided": len(open_),
        "cpu_seconds": round(made.seconds, 1),
    }
    if as_json:
        print_json(summary)
        return
    safe = "safe" if made.opener.safe else "not proven safe"
    console.print(
        f"{path}: opener {made.opener.word.upper()} ({safe} over {made.opener.over} words), "
        f"{len(made.second)} second guesses ({len(unsafe)} with no safe guess, {len(open_)} with none "
        f"covered or undecided), {made.seconds:.1f} CPU s"
    )


@book.command("check")
@word_options
@hard_option
@guarantee_options
@_strategy_option
@json_option
@click.argument("file", required=False, type=click.Path(path_type=Path, dir_okay=False))
def check(preset, solutions, allowed, any_answer, prior, hard, guarantee, guarantee_over, strategy, as_json, file):
    """Prove every safe guess of a book again with a fresh search; exit 1 naming what fails.

    Example: raten book check --words de --guarantee 6
    """
    from raten.trees.book import check_book, read_book

    words, state, strat = _setup(
        preset, solutions, allowed, any_answer, prior, hard, guarantee, guarantee_over, strategy
    )
    path = _where(words, hard, strat.over, file)
    if not path.is_file():
        raise RatenError(f"{path}: no such book")
    made = read_book(path)
    with progress_bar(disable=not err_console.is_terminal) as progress:
        task = progress.add_task(f"{words.name}: proving", total=None)
        problems = check_book(made, strat, state, lambda done, n: progress.update(task, completed=done, total=n))
    if as_json:
        print_json({"file": str(path), "ok": not problems, "problems": problems})
    elif not problems:
        console.print(f"[green]ok[/green] {path}: the opener and {len(made.second)} second guesses hold")
    else:
        for p in problems:
            err_console.print(f"[red]fails[/red] {p}")
    if problems:
        raise SystemExit(1)
