"""`raten bench`: play a strategy against every solution and show how many guesses it needs.

A thin face: playing lives in ``raten.play.simulate``, counting in ``raten.play.results``, the
chart in ``raten.cli.bench_plot``.
"""

from __future__ import annotations

import time
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich.measure import Measurement
from rich.table import Table

from raten.cli.common import (
    boards_option,
    complete_strategies,
    console,
    guarantee_options,
    hard_option,
    json_option,
    list_context,
    long_progress,
    print_json,
    user_errors,
    word_options,
    words_from_options,
)
from raten.engine.matrix import load_matrix
from raten.engine.rank import STRATEGIES
from raten.errors import RatenError
from raten.play.results import NOTES, WIN_WITHIN, BenchResult, coverage
from raten.play.simulate import play_answers, sample_answers, simulate
from raten.play.strategies import guarded, resolve
from raten.wordlists.files import read_word_file
from raten.wordlists.presets import default_over

if TYPE_CHECKING:
    from raten.engine.words import WordSet


@click.command()
@word_options
@click.option(
    "--strategy",
    "-s",
    default="entropy",
    show_default=True,
    shell_complete=complete_strategies,
    help="One of " + ", ".join(STRATEGIES) + "; lookahead:K (K leaders re-ranked), tree:FILE (a decision tree), "
    "a comma-separated list, or all.",
)
@click.option("--opener", help="Fixed first guess (default: each strategy's own best first guess).")
@hard_option
@click.option("--sample", type=int, help="Play only N solutions drawn at random (see --seed).")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed for --sample.")
@boards_option
@click.option(
    "--games", type=int, default=1000, show_default=True, help="With --boards: how many seeded random answer tuples."
)
@click.option(
    "--play",
    "play_file",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Play the answers in FILE (one word a line; they may lie outside the list) instead of the solutions.",
)
@click.option(
    "--worst", default=10, show_default=True, type=click.IntRange(min=0), help="How many of the hardest words to list."
)
@click.option(
    "--play-all",
    is_flag=True,
    help="Play every allowed word of the list as the answer, once each (the solver keeps its own solutions).",
)
@guarantee_options
@json_option
@click.option("--plot", type=click.Path(path_type=Path), help="Write the distribution as a bar chart (.png or .svg).")
@user_errors
def bench(
    preset,
    solutions,
    allowed,
    any_answer,
    prior,
    strategy,
    opener,
    hard,
    sample,
    seed,
    boards,
    games,
    play_file,
    worst,
    play_all,
    guarantee,
    guarantee_over,
    as_json,
    plot,
):
    """Play every solution (or a sample) with a strategy and count the guesses.

    Shows the average, the total, how many games took 1..6 guesses or failed (not solved
    in 6: played on to the end, counted in the total), the hardest words and the time.
    With --boards N it plays --games seeded random answer tuples on N boards at once and
    reports the win rate within the variant's limit (Dordle 7, Quordle 9, Octordle 13,
    Sedecordle 21 guesses).

    Example: raten bench --words en --strategy all --plot bench.png

    Example: raten bench --words en --boards 4 --games 10000 --seed 1

    With --play FILE it plays the answers in FILE with the list's own solutions and allowed
    words, as a solver meets a game whose answer list it does not know: an answer that is
    not a solution is won only if a probing guess hits it, one that is not even an allowed
    word never; both count as failed, with a note.

    Example: raten bench --words de --play answers.txt
    """
    if plot:
        from raten.cli.bench_plot import check_plot_path

        check_plot_path(plot)  # before the games, so a bad path never throws them away
    words = words_from_options(preset, solutions, allowed, any_answer, prior)
    if boards > 1:
        if hard or sample or play_file or play_all:
            raise RatenError(
                "--hard, --sample, --play and --play-all are for one board "
                "(with --boards, --games and --seed choose the games)"
            )
        _bench_boards(words, boards, strategy, opener, games, seed, worst, as_json, plot)
        return
    strategies = guarded(resolve(strategy, words), guarantee, guarantee_over or default_over(words, hard))
    if play_file is not None or play_all:
        if sample:
            raise RatenError("--sample chooses among the list's solutions; with --play the file chooses the games")
        if play_file is not None and play_all:
            raise RatenError("--play FILE and --play-all both choose the answers: give one")
        targets = list(words.allowed) if play_all else read_word_file(play_file, words.length, words.alphabet)
        where = "every allowed word" if play_all else str(play_file)
        _bench_play(words, strategies, targets, where, hard, opener, worst, as_json, plot)
        return
    answers = sample_answers(words, sample, seed)
    matrix = load_matrix(words)
    results: list[BenchResult] = []
    started = time.perf_counter()
    with long_progress() as progress:
        for strat in strategies:
            task = progress.add_task(strat.name, total=len(answers))
            results.append(
                simulate(
                    matrix,
                    strat,
                    hard=hard,
                    opener=opener,
                    answers=answers,
                    progress=partial(progress.advance, task),
                )
            )
            progress.remove_task(task)
    elapsed = time.perf_counter() - started
    if plot:
        from raten.cli.bench_plot import plot_results

        plot_results(results, plot)
    if as_json:
        context = list_context(words, [r.strategy for r in results], hard)
        context |= {"games": len(answers), "sample": sample, "seed": seed if sample else None, "opener": opener}
        print_json(context | {"results": [_json_result(r, worst) for r in results]})
        return
    what = f"{words.name}: {len(answers)} of {len(words.solutions)} solutions" + (
        f" (sample, seed {seed})" if sample else ""
    )
    console.print(f"[bold]bench[/bold] {what}, {len(words.allowed)} allowed{', hard mode' if hard else ''}")
    if len(results) == 1:
        _print_one(results[0], worst)
    else:
        _print_wide(_comparison(results))
    console.print(f"[dim]{elapsed:.1f} s in all[/dim]")
    if plot:
        console.print(f"chart written to {plot}")


def _bench_play(words, strategies, targets, play_file, hard, opener, worst, as_json, plot) -> None:
    """`raten bench --play FILE`: the answers of another game, played with this list."""
    matrix = load_matrix(words)
    cover = coverage(words, targets)
    results: list[BenchResult] = []
    started = time.perf_counter()
    with long_progress() as progress:
        for strat in strategies:
            task = progress.add_task(strat.name, total=len(targets))
            results.append(
                play_answers(matrix, targets, strat, hard=hard, opener=opener, progress=partial(progress.advance, task))
            )
            progress.remove_task(task)
    elapsed = time.perf_counter() - started
    if plot:
        from raten.cli.bench_plot import plot_results

        plot_results(results, plot)
    if as_json:
        context = list_context(words, [r.strategy for r in results], hard)
        context |= {"play": str(play_file), "games": len(targets), "coverage": cover.to_dict(), "opener": opener}
        out = []
        for r in results:
            one = _json_result(r, worst)
            one["win_rate"] = round(r.win_rate, 6)
            one["failures"] = _failures(r)
            out.append(one)
        print_json(context | {"results": out})
        return
    console.print(
        f"[bold]bench --play[/bold] {play_file}: {len(targets)} answers played with {words.name} "
        f"({len(words.solutions)} solutions, {len(words.allowed)} allowed){', hard mode' if hard else ''}"
    )
    console.print(
        f"of the {cover.answers} answers, {cover.solutions} are solutions of {words.name}, "
        f"{cover.allowed_only} only allowed words, {len(cover.not_allowed)} not allowed words"
    )
    for r in results:
        if len(results) > 1:
            console.print()
        _print_one(r, worst)
        console.print(
            f"won within {WIN_WITHIN}: [bold]{100 * r.win_rate:.2f}%[/bold] "
            f"({r.won} of {r.games}); average over the {int(r.solved.sum())} games won "
            f"[bold]{r.average_won:.4f}[/bold]"
        )
        failures = _failures(r)
        if failures:
            table = Table(title=f"{len(failures)} games failed", title_justify="left")
            table.add_column("answer", style="bold")
            table.add_column("guesses", justify="right")
            table.add_column("why")
            for f in failures:
                table.add_row(f["answer"].upper(), str(f["guesses"]), NOTES.get(f["note"] or "", "over six guesses"))
            _print_wide(table)
    console.print(f"[dim]{elapsed:.1f} s in all[/dim]")
    if plot:
        console.print(f"chart written to {plot}")


def _failures(r: BenchResult) -> list[dict]:
    """Every failed game: its answer, guesses played and why (a note key, or None: over six guesses)."""
    notes = r.notes or {}
    return [
        {"answer": a, "guesses": int(n), "won": bool(won), "note": notes.get(a)}
        for (a,), n, won in zip(r.answers, r.guesses, r.solved, strict=True)
        if n > WIN_WITHIN or not won
    ]


def _distribution_table(dist: dict[str, int], games: int) -> Table:
    """Games per number of guesses (and failed), with a bar each: one board or many."""
    biggest = max(dist.values()) or 1
    table = Table(title="guesses per game", title_justify="left")
    for col in ("guesses", "games", "share"):
        table.add_column(col, justify="right")
    table.add_column("", no_wrap=True)
    for key, n in dist.items():
        style = "red" if key == "failed" else "cyan"
        bar = "█" * round(40 * n / biggest) if n else ""
        table.add_row(key, str(n), f"{100 * n / max(games, 1):.1f}%", f"[{style}]{bar}[/{style}]")
    return table


def _print_wide(table: Table) -> None:
    """Print a table at its natural width, so a narrow or piped output does not truncate its cells."""
    natural = Measurement.get(console, console.options.update(width=1000), table).maximum
    width = console.width
    if natural <= width:
        console.print(table)
        return
    console.width = natural
    try:
        console.print(table)
    finally:
        console.width = width


def _json_result(r: BenchResult, worst: int) -> dict:
    """A result's JSON with its hardest games (one board: each game's answer; many: the tuple)."""
    out = r.to_dict()
    name = "answer" if r.boards == 1 else "answers"
    out["worst"] = [{name: a[0] if r.boards == 1 else list(a), "guesses": n, "path": p} for a, n, p in r.worst(worst)]
    return out


def _print_one(r: BenchResult, worst: int) -> None:
    console.print(
        f"[bold]{r.strategy}[/bold], opener [bold]{r.opener.upper()}[/bold]: "
        f"average [bold]{r.average:.4f}[/bold], total {r.total} guesses in {r.games} games, "
        f"max {r.max}, failed {r.failed}, {r.seconds:.2f} s"
    )
    _print_wide(_distribution_table(r.distribution, r.games))
    _print_hardest(r, worst)


def _print_hardest(r: BenchResult, worst: int) -> None:
    """The ``worst`` games that took most guesses, over the limit in red."""
    if worst <= 0:
        return
    what = ("words", "answer") if r.boards == 1 else ("answer tuples", "answers")
    hardest = Table(title=f"hardest {min(worst, r.games)} {what[0]}", title_justify="left")
    hardest.add_column(what[1], style="bold")
    hardest.add_column("guesses", justify="right")
    hardest.add_column("played")
    for answers, n, path in r.worst(worst):
        shown = f"[red]{n}[/red]" if n > r.limit else str(n)
        hardest.add_row(" ".join(a.upper() for a in answers), shown, " ".join(w.upper() for w in path))
    _print_wide(hardest)


def _comparison(results: list[BenchResult]) -> Table:
    table = Table(title="strategies compared (best average in bold)", title_justify="left")
    for col in (
        "strategy",
        "opener",
        "average",
        "total",
        *[str(n) for n in range(1, WIN_WITHIN + 1)],
        "failed",
        "max",
        "seconds",
    ):
        table.add_column(col, justify="left" if col in ("strategy", "opener") else "right")
    best = min(r.average for r in results)
    for r in results:
        dist = r.distribution
        avg = f"{r.average:.4f}"
        table.add_row(
            r.strategy,
            r.opener.upper(),
            f"[bold]{avg}[/bold]" if r.average == best else avg,
            str(r.total),
            *[str(dist[str(n)]) for n in range(1, WIN_WITHIN + 1)],
            f"[red]{dist['failed']}[/red]" if dist["failed"] else "0",
            str(r.max),
            f"{r.seconds:.2f}",
        )
    return table


def _bench_boards(
    words: WordSet,
    boards: int,
    strategy: str,
    opener: str | None,
    games: int,
    seed: int,
    worst: int,
    as_json: bool,
    plot,
) -> None:
    """`bench --boards N`: play seeded answer tuples with each named many-board strategy."""
    from raten.engine.boards import BOARD_STRATEGIES, parse_board_strategy
    from raten.play.simulate import sample_tuples

    names = list(BOARD_STRATEGIES) if strategy.strip().lower() == "all" else strategy.split(",")
    names = list(dict.fromkeys(parse_board_strategy(n) for n in names if n.strip()))
    tuples = sample_tuples(words, boards, games, seed)
    matrix = load_matrix(words)
    results: list[BenchResult] = []
    with long_progress() as progress:
        for name in names:
            task = progress.add_task(f"{name}, {boards} boards", total=games)
            results.append(
                simulate(
                    matrix,
                    name,
                    boards=boards,
                    seed=seed,
                    opener=opener,
                    answers=tuples,
                    progress=partial(progress.advance, task),
                )
            )
            progress.remove_task(task)
    if plot:
        from raten.cli.bench_plot import plot_boards

        plot_boards(results, plot)
    if as_json:
        print_json({"results": [_json_result(r, worst) for r in results]})
        return
    first = results[0]
    console.print(
        f"[bold]bench[/bold] {words.name}: {first.variant.name}, {boards} boards in {first.limit} guesses, "
        f"{games} random answer tuples (seed {seed})"
    )
    for r in results:
        _print_boards_result(r, worst)
    if plot:
        console.print(f"chart written to {plot}")


def _print_boards_result(r: BenchResult, worst: int) -> None:
    console.print(
        f"[bold]{r.strategy}[/bold], opener [bold]{r.opener.upper()}[/bold]: won [bold]{100 * r.win_rate:.2f}%[/bold] "
        f"({r.won} of {r.games}), average [bold]{r.average:.4f}[/bold] guesses, max {r.max}, {r.seconds:.1f} s"
    )
    _print_wide(_distribution_table(r.distribution, r.games))
    _print_hardest(r, worst)
