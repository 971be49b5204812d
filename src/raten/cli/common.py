"""Pieces every `raten` subcommand shares: word-list options, moves, JSON, tables, errors.

Subcommands in other modules (bench, tree, sql, serve) import from here so that every
command reads word lists and prints errors the same way.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import json
import os
import signal
import sys
import threading
import time
import warnings
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich.console import Console

from raten.engine import table_size
from raten.engine.feedback import format_pattern, parse_pattern
from raten.errors import RatenError, shorten
from raten.wordlists.presets import ALL_PRESETS, load_words
from raten.wordlists.prior import PRIORS

if TYPE_CHECKING:
    from rich.progress import Progress, ProgressColumn, TaskID
    from rich.table import Table

    from raten.engine.rank import Hint
    from raten.engine.words import WordSet

console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)


def complete_each(names: Iterable[str], incomplete: str) -> list[str]:
    """Complete the last of comma-separated names ("entropy,mi": "entropy,minimax"), none twice."""
    head, comma, last = incomplete.rpartition(",")
    taken = set(head.lower().split(","))
    return [head + comma + name for name in names if name.startswith(last.lower()) and name not in taken]


def complete_lists(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:  # noqa: ARG001
    """Shell completion of built-in list names (``--words``, ``cache clear --list``, ``serve --lists``)."""
    return complete_each(ALL_PRESETS, incomplete)


def complete_strategies(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:  # noqa: ARG001
    """Shell completion of strategy names, comma-separated (``lookahead:K`` and ``tree:FILE`` are typed
    on); with ``--boards N`` before it, the many-board strategies."""
    if (ctx.params.get("boards") or 1) > 1:
        from raten.engine.boards import BOARD_STRATEGIES

        return complete_each(BOARD_STRATEGIES, incomplete)
    from raten.engine.strategy_names import STRATEGIES

    return complete_each(STRATEGIES, incomplete)


def _table_limit(ctx: click.Context, param: click.Parameter, value: float | None) -> None:  # noqa: ARG001
    """--max-table-gb: the library reads the limit from the environment (worker processes too),
    set for this command only (a command run in-process, as the tests do, must not leave it set)."""
    if value is None:
        return
    before = os.environ.get(table_size.MAX_TABLE_ENV)
    os.environ[table_size.MAX_TABLE_ENV] = repr(value)

    def restore() -> None:
        if before is None:
            os.environ.pop(table_size.MAX_TABLE_ENV, None)
        else:
            os.environ[table_size.MAX_TABLE_ENV] = before

    ctx.call_on_close(restore)


def word_options(f: Callable) -> Callable:
    """Add --words / --solutions / --allowed / --any-answer / --prior to a command: the parameters
    ``preset, solutions, allowed, any_answer, prior`` it hands to ``words_from_options``
    (and --max-table-gb, which sets ``$RATEN_MAX_TABLE_GB``)."""
    f = click.option(
        "--max-table-gb",
        type=click.FloatRange(min=0, min_open=True),
        expose_value=False,
        callback=_table_limit,
        help=f"Largest feedback table (guesses × solutions bytes) built for the lists, in GB "
        f"[default: {table_size.DEFAULT_MAX_TABLE_GB:g}, or ${table_size.MAX_TABLE_ENV}]; "
        "a larger one is refused before any work.",
    )(f)
    f = click.option(
        "--prior",
        type=click.Choice(PRIORS, case_sensitive=False),
        default=None,
        help="How likely each word is to be the answer: uniform (the list's solutions, equally likely), "
        "frequency (every allowed word, the commoner the likelier) or mixture (the list's solutions most, every "
        "other allowed word a little, by frequency). Default: the list's own (en-nyt: frequency; de, de-ext: "
        "mixture; the others and files: uniform).",
    )(f)
    f = click.option(
        "--any-answer",
        is_flag=True,
        help="Every allowed word may be the answer, equally likely unless --prior weighs them (allowed x allowed "
        "table).",
    )(f)
    f = click.option(
        "--allowed",
        type=click.Path(path_type=Path),
        help="Allowed-guesses file, one word per line (may omit the solutions).",
    )(f)
    f = click.option(
        "--solutions",
        type=click.Path(path_type=Path),
        help="Solutions file, one word per line (instead of --words).",
    )(f)
    f = click.option(
        "--words",
        "-w",
        "preset",
        default=None,
        show_default="en",
        metavar="|".join(ALL_PRESETS),
        shell_complete=complete_lists,
        help="Built-in word list, any case (not with --solutions).",
    )(f)
    return f


json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
"""--json: machine-readable output instead of tables (every command that prints results)."""

hard_option = click.option(
    "--hard", is_flag=True, help="Hard mode: every guess keeps the greens and uses every revealed letter."
)
"""--hard: the same rule and the same help everywhere."""


def _guarantee(value: str | int | None) -> int | None:
    text = str(value).strip().lower()
    if text in ("off", "0", "none"):
        return None
    if not text.isdigit() or not 1 <= int(text) <= 30:
        raise click.BadParameter(f"{value!r}: give the guess limit (1 to 30) or off")
    return int(text)


def guarantee_options(f: Callable) -> Callable:
    """--guarantee N|off and --guarantee-over all|likely: never risk a game past N guesses."""
    f = click.option(
        "--guarantee-over",
        type=click.Choice(["all", "likely"]),
        help="Which words the guarantee covers: every allowed word (all) or the solutions and the "
        "common allowed words (likely). Default: the list's own (en, en-nyt: likely, en-nyt --hard: all; "
        "the others: all).",
    )(f)
    return click.option(
        "--guarantee",
        default="6",
        show_default=True,
        callback=lambda _ctx, _param, value: _guarantee(value),
        help="N: play only guesses that keep every covered word within N guesses, falling back step "
        "by step to narrower coverage (all, the words of frequency weight 0.02, 0.05, 0.1, 0.2 or more, "
        "likely, the solutions) where none is safe. off: the strategy's own first choice (the published "
        "figures).",
    )(f)


def boards_option(f: Callable) -> Callable:
    """--boards N: play N boards at once (2 Dordle, 4 Quordle, 8 Octordle, 16 Sedecordle)."""
    return click.option(
        "--boards",
        "-b",
        type=click.IntRange(1, 64),
        default=1,
        show_default=True,
        help="Boards played at once: 2 Dordle, 4 Quordle, 8 Octordle, 16 Sedecordle; "
        "patterns then read GUESS=P1,P2,... with - for a solved board.",
    )(f)


def top_option(default: int, what: str = "hints") -> Callable[[Callable], Callable]:
    """--top/-n: how many results of a kind to show (``what`` names them in the help)."""
    return click.option("--top", "-n", default=default, show_default=True, help=f"How many {what} to show.")


def words_from_options(
    preset: str | None,
    solutions: Path | None,
    allowed: Path | None,
    any_answer: bool,
    prior: str | None,
    *,
    weighted: bool = True,
    default_prior: str | None = None,
) -> WordSet:
    """The WordSet the word options ask for (``en`` when none; --words with --solutions is an error),
    with the prior --prior names (else ``default_prior``, else the list's own). A command whose
    results are not weighted (``weighted`` False: the SQL tables) refuses --prior frequency and
    takes the list uniform."""
    prior = prior or default_prior
    if not weighted:
        if prior not in (None, "uniform"):
            ctx = click.get_current_context(silent=True)
            name = ctx.command_path if ctx is not None else "this command"
            raise RatenError(f"{name} does not weigh answers by a prior yet: use --prior uniform")
        prior = "uniform"
    return load_words(preset, solutions=solutions, allowed=allowed, any_answer=any_answer, prior=prior)


def criterion(strategy: str) -> str:
    """What a strategy ranks by, in words (``lookahead:K`` as ``lookahead``)."""
    from raten.engine.strategy_names import STRATEGIES

    return STRATEGIES.get(strategy.partition(":")[0], strategy)


def list_context(words: WordSet, strategy: str | list[str], hard: bool) -> dict:
    """What a JSON result was computed on: the list, its sizes, the strategy, the prior and the mode."""
    return {
        "list": words.name,
        "solutions": len(words.solutions),
        "allowed": len(words.allowed),
        "strategy": strategy,
        "prior": words.prior,
        "hard": hard,
    }


def check_output(path: Path | None, what: str = "output file") -> Path | None:
    """Refuse, before any work, an output file that cannot be written: a folder, a folder that
    does not exist (raten creates none), or a place we may not write; the same rule for every command."""
    if path is None:
        return None
    shown = shorten(str(path), 80)
    try:
        if path.is_dir():
            raise RatenError(f"{what} {shown!r} is a directory, not a file")
        folder = path.parent
        if not folder.is_dir():
            raise RatenError(f"the folder {shorten(str(folder), 80)!r} for the {what} does not exist")
        if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
            raise RatenError(f"cannot write the {what} {shown!r}: permission denied")
    except OSError as e:  # a name too long, a folder we may not look into, ...
        raise RatenError(f"cannot write the {what} {shown!r}: {e.strerror}") from None
    return path


def os_error_message(error: OSError) -> str:
    """A file-system failure no command foresaw, as one line naming the file (never a traceback)."""
    where = f" {shorten(str(error.filename), 80)!r}" if error.filename else ""
    return f"cannot use{where}: {error.strerror or error}"


def progress_bar(*extra: ProgressColumn, transient: bool = True, disable: bool = False) -> Progress:
    """The progress bar of long commands (bench, tree, sql build), on stderr: description,
    bar, done/total, any ``extra`` columns, elapsed time."""
    # rich.progress and rich.table load when first used: --help, --version and score need neither.
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        *extra,
        TimeElapsedColumn(),
        console=err_console,
        transient=transient,
        disable=disable,
    )


#: Seconds between two plain progress lines where stderr is not a terminal (a pipe, a log).
LINE_EVERY = 15.0


class LineProgress:
    """Progress for a pipe or a log, where a bar cannot redraw: a plain line on stderr every
    ``every`` seconds per task, with the calls of rich's Progress that bench makes."""

    def __init__(self, every: float | None = None) -> None:
        self.every = LINE_EVERY if every is None else every
        self.tasks: dict[int, list] = {}  # id: [description, total, done, started, last line]
        self.count = 0

    def __enter__(self) -> LineProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.tasks.clear()

    def add_task(self, description: str, total: float | None = None) -> TaskID:
        from rich.progress import TaskID

        now = time.monotonic()
        self.count += 1
        task = TaskID(self.count)
        self.tasks[task] = [description, total, 0.0, now, now]
        return task

    def advance(self, task_id: TaskID, advance: float = 1) -> None:
        task = self.tasks[task_id]
        task[2] += advance
        now = time.monotonic()
        if now - task[4] >= self.every:
            task[4] = now
            description, total, done, started = task[:4]
            of = f" of {total:,.0f}" if total else ""
            err_console.print(f"{description}: {done:,.0f}{of} after {now - started:.0f} s", soft_wrap=True)

    def remove_task(self, task_id: TaskID) -> None:
        self.tasks.pop(task_id, None)


def long_progress() -> Progress | LineProgress:
    """Progress of a long loop on stderr: a bar on a terminal, a plain line every LINE_EVERY s elsewhere."""
    return progress_bar() if err_console.is_terminal else LineProgress()


def _terminated(signum: int, frame: object) -> None:  # noqa: ARG001
    raise KeyboardInterrupt


@contextlib.contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """Within: SIGTERM stops the command as Ctrl-C does, so its cleanup (temporary files, worker
    processes) runs; only in the main thread, where signals arrive (elsewhere it does nothing)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def parse_moves(moves: tuple[str, ...] | list[str]) -> list[tuple[str, str]]:
    """Split ``GUESS=PATTERN`` arguments."""
    out = []
    for move in moves:
        guess, sep, pattern = move.partition("=")
        if not sep or not guess or not pattern:
            raise RatenError(f"{move!r} is not GUESS=PATTERN (for example crane=..?!.)")
        out.append((guess, pattern))
    return out


def print_json(obj) -> None:
    """Write one JSON document to stdout."""
    click.echo(json.dumps(obj, ensure_ascii=False, indent=2))


def show_warnings(messages) -> None:
    for message in messages:
        # soft_wrap: a long path in a warning stays whole, to be copied (the terminal wraps it)
        err_console.print(f"[yellow]warning:[/yellow] {message}", soft_wrap=True)


def hints_table(hints: list[Hint], title: str | None = None, marks: list[str] | None = None) -> Table:
    """A rich table of hints: word, bits, candidate mark, patterns, largest, expected left, and
    with ``marks`` the guarantee's verdict of each."""
    from rich.table import Table

    table = Table(title=title, title_justify="left")
    table.add_column("#", justify="right", style="dim")
    table.add_column("guess", style="bold")
    table.add_column("bits", justify="right")
    table.add_column("answer?", justify="center")
    table.add_column("patterns", justify="right")
    table.add_column("largest", justify="right")
    table.add_column("exp. left", justify="right")
    if marks is not None:
        table.add_column("guarantee")
    for i, h in enumerate(hints, 1):
        cells = [
            str(i),
            h.word.upper(),
            f"{h.bits:.4f}",
            "[green]yes[/green]" if h.candidate else "",
            str(h.patterns),
            str(h.largest),
            f"{h.expected_remaining:.2f}",
        ]
        if marks is not None:
            mark = marks[i - 1]
            cells.append(f"[green]{mark}[/green]" if mark == "safe" else f"[yellow]{mark}[/yellow]" if mark else "")
        table.add_row(*cells)
    return table


def emoji(code: int, length: int) -> str:
    """The code of a word of ``length`` letters as emoji squares."""
    return format_pattern(code, "emoji", length)


def emoji_of(dots: str) -> str:
    """A pattern in ``.?!`` (one symbol a letter) as emoji squares."""
    return emoji(parse_pattern(dots, len(dots)), len(dots))


class RatenGroup(click.Group):
    """A click group that loads some subcommands only when used (fast start-up) and turns
    RatenError and library warnings into clean messages instead of tracebacks.

    ``lazy`` maps a command name to ``("module:attribute", first paragraph of its help)``:
    ``--help`` lists a command that is not loaded yet by that paragraph, so listing the
    commands imports none of them (tests/cli/test_startup.py checks the paragraphs match).
    """

    def __init__(self, *args, lazy: dict[str, tuple[str, str]] | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = lazy or {}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(self.lazy))

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """click's own listing, with a stand-in for each lazy command that is not loaded."""
        commands = []
        for name in self.list_commands(ctx):
            if name in self.lazy and name not in self.commands:
                commands.append((name, click.Command(name, help=self.lazy[name][1])))
            elif (cmd := self.get_command(ctx, name)) is not None and not cmd.hidden:
                commands.append((name, cmd))
        if commands:
            limit = formatter.width - 6 - max(len(name) for name, _ in commands)
            with formatter.section("Commands"):
                formatter.write_dl([(name, cmd.get_short_help_str(limit)) for name, cmd in commands])

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in self.lazy and name not in self.commands:
            module, _, attr = self.lazy[name][0].partition(":")
            self.add_command(getattr(importlib.import_module(module), attr), name)
        return super().get_command(ctx, name)

    def invoke(self, ctx: click.Context):
        with warnings.catch_warnings(), _TableProgress() as progress, table_size.reporting(progress):
            warnings.showwarning = _show_warning
            try:
                return super().invoke(ctx)
            except RatenError as e:
                raise click.ClickException(str(e)) from None
            except OSError as e:
                raise click.ClickException(os_error_message(e)) from None
            except KeyboardInterrupt:
                err_console.print("interrupted")
                sys.exit(130)


class _TableProgress:
    """Reports a big feedback table's build on stderr: its size first, then a progress bar of rows
    (on a terminal) or a plain line every ``every`` seconds (in a pipe or a log). While it builds,
    SIGTERM stops the command as Ctrl-C does, so the cache's temporary file (gigabytes) goes too."""

    def __init__(self, every: float = 15.0) -> None:
        self.every = every
        self.bar: Progress | None = None
        self.task: TaskID | None = None
        self.signals = contextlib.ExitStack()
        self.last = 0.0

    def __enter__(self) -> _TableProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop()  # a build stopped half way

    def _stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None
        self.signals.close()

    def __call__(self, name: str, guesses: int, solutions: int, done: int) -> None:
        if done == 0:
            size = guesses * solutions / table_size.GB
            self.signals.enter_context(sigterm_as_interrupt())
            err_console.print(
                f"building the feedback table of {name}: {guesses:,} guesses × {solutions:,} solutions, "
                f"{size:.2f} GB in the cache (once)",
                soft_wrap=True,
            )
            self.last = time.monotonic()
            if err_console.is_terminal:
                self.bar = progress_bar()
                self.bar.start()
                self.task = self.bar.add_task("feedback table", total=guesses)
        if self.bar is not None and self.task is not None:
            self.bar.update(self.task, completed=done)
        elif 0 < done < guesses and time.monotonic() - self.last >= self.every:
            self.last = time.monotonic()
            err_console.print(f"feedback table of {name}: {done:,} of {guesses:,} guess rows", soft_wrap=True)
        if done >= guesses:
            self._stop()


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:  # noqa: ARG001
    show_warnings([str(message)])


def user_errors(f: Callable) -> Callable:
    """For commands run outside a RatenGroup: RatenError becomes a clean click error."""

    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        try:
            return f(*args, **kwargs)
        except RatenError as e:
            raise click.ClickException(str(e)) from None
        except OSError as e:
            raise click.ClickException(os_error_message(e)) from None

    return wrapper
