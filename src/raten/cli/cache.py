"""`raten cache`: where the matrix cache is, what it holds, a digest check of every entry, cleaning,
and compiling the kernels ahead."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from rich.table import Table

from raten.cli.common import RatenGroup, complete_lists, console, json_option, print_json
from raten.engine import cache as matrix_cache
from raten.wordlists.presets import ALL_PRESETS


def _mb(n: int) -> str:
    return f"{n / 1e6:.1f} MB"


def _count(n: int, what: str = "entry") -> str:
    return f"{n} {what if n == 1 else what[:-1] + 'ies' if what.endswith('y') else what + 's'}"


def _show(entries: list[matrix_cache.Entry]) -> None:
    """A table of the entries, then one line for each that is not sound (what is wrong, what was done)."""
    if not entries:
        return
    table = Table(title_justify="left")
    for col in ("lists", "key", "shape", "size", "state"):
        table.add_column(col, justify="right" if col == "size" else "left", no_wrap=True)
    for e in entries:
        colour = {"ok": "green", "damaged": "red"}.get(e.state, "yellow")
        shape = f"{e.shape[0]}×{e.shape[1]}" if e.shape else ""
        state = f"[{colour}]{e.state}[/{colour}]" + (" (removed)" if e.removed else "")
        table.add_row(e.name, (e.fingerprint or e.file)[:12], shape, _mb(e.bytes), state)
    console.print(table)
    for e in entries:
        if e.detail:
            console.print(f"  {e.file}: {e.detail}", soft_wrap=True)


def _report(directory: Path, entries: list[matrix_cache.Entry]) -> dict:
    return {
        "directory": str(directory),
        "exists": directory.is_dir(),
        "bytes": sum(e.bytes for e in entries),
        "entries": [e.to_dict() for e in entries],
    }


@click.group(cls=RatenGroup, invoke_without_command=True)
@click.pass_context
def cache(ctx: click.Context) -> None:
    """Where the pattern-matrix cache is, what it holds, a digest check of every entry, cleaning.

    The folder is $RATEN_CACHE_DIR, or else the user cache folder. Each entry is a table and a
    digest of it, checked on every load; a damaged entry is rebuilt with a warning. `raten cache
    warm` compiles the numba kernels ahead (numba keeps them in a cache of its own).
    """
    if ctx.invoked_subcommand is None:
        ctx.invoke(info)


@cache.command()
@json_option
def info(as_json: bool = False) -> None:
    """The cache folder, its size and each entry: lists, shape, size, digest state."""
    directory = matrix_cache.cache_dir()
    found = matrix_cache.entries(directory)
    if as_json:
        print_json(_report(directory, found))
        return
    console.print(f"cache folder: [bold]{directory}[/bold]" + ("" if directory.is_dir() else " (not created yet)"))
    console.print(f"{_count(len(found))}, {_mb(sum(e.bytes for e in found))}")
    _show(found)


@cache.command()
@click.option("--no-repair", is_flag=True, help="Only report; exit with status 1 when an entry is damaged.")
@json_option
def verify(no_repair: bool, as_json: bool) -> None:
    """Check every entry against its digest and remove those that fail (rebuilt when next used)."""
    directory = matrix_cache.cache_dir()
    found = matrix_cache.verify(directory, repair=not no_repair)
    bad = [e for e in found if e.state != "ok"]
    if as_json:
        print_json({**_report(directory, found), "damaged": len(bad), "repaired": not no_repair})
    else:
        done = "removed, to be rebuilt when next used" if bad and not no_repair else "to repair"
        console.print(f"{len(found) - len(bad)} sound, {len(bad)} {done} in {directory}")
        _show(found)
    if bad and (no_repair or not all(e.removed for e in bad)):
        sys.exit(1)


@cache.command()
def warm() -> None:
    """Compile the numba kernels ahead (a minute or two once; seconds when they are compiled), so
    the first real command is fast; the word lists' tables are built on the way. `make install`
    runs it."""
    from raten import warm as warming
    from raten.engine import jitcache

    folder = jitcache.cache_folder()
    seconds = warming.warm(say=lambda text: console.print(f"[dim]{text}[/dim]"))
    console.print(f"the kernels are compiled in {folder} ({seconds:.1f} s)", soft_wrap=True)


@cache.command()
@click.option(
    "--list",
    "names",
    multiple=True,
    metavar="NAME",
    shell_complete=complete_lists,
    help="Only the entries of this word list (en, de, en+any ...).",
)
@json_option
def clear(names: tuple[str, ...], as_json: bool) -> None:
    """Remove every entry (or those of the lists named); they are rebuilt when next used."""
    directory = matrix_cache.cache_dir()
    held = sorted({e.name for e in matrix_cache.entries(directory)})
    removed = matrix_cache.clear(directory, names)
    kept = [e for e in removed if not e.removed]
    unmatched = [name for name in dict.fromkeys(names) if name not in held]
    if as_json:
        print_json({**_report(directory, removed), "removed": sum(e.removed for e in removed), "unmatched": unmatched})
    else:
        freed = _mb(sum(e.bytes for e in removed if e.removed))
        console.print(f"removed {_count(sum(e.removed for e in removed))} ({freed}) from {directory}")
        for e in kept:
            console.print(f"[yellow]kept[/yellow] {e.file}: {e.detail}", soft_wrap=True)
        for name in unmatched:
            unknown = "" if name in ALL_PRESETS else " (no built-in list has that name)"
            lists = ", ".join(held) or "nothing"
            console.print(
                f"[yellow]no entry matched[/yellow] --list {name!r}{unknown}; the cache holds {lists}", soft_wrap=True
            )
    if kept:
        sys.exit(1)
