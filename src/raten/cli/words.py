"""`raten words`: the built-in lists, their sizes and sources; `raten words build` rebuilds German."""

from __future__ import annotations

from pathlib import Path

import click
from rich.table import Table

from raten.cli.common import RatenGroup, check_output, console, err_console, json_option, print_json, user_errors
from raten.errors import RatenError
from raten.wordlists.german import build as german_build
from raten.wordlists.german.dictionary import DEFAULT_DICT
from raten.wordlists.german.morphology import RULE_LABELS
from raten.wordlists.presets import PRESETS, load_preset


@click.group(cls=RatenGroup, invoke_without_command=True)
@json_option
@click.pass_context
def words(ctx, as_json):
    """The built-in word lists, their sizes and sources (`raten words build` rebuilds German)."""
    if ctx.invoked_subcommand:
        return
    sizes: dict[str, tuple[int, int] | tuple[None, None]] = {}
    for name in PRESETS:
        try:
            ws = load_preset(name)
            sizes[name] = (len(ws.solutions), len(ws.allowed))
        except RatenError as e:
            sizes[name] = (None, None)
            err_console.print(f"[yellow]warning:[/yellow] {e}")
    if as_json:
        rows = [
            {
                "name": name,
                "language": preset.language,
                "solutions": sizes[name][0],
                "allowed": sizes[name][1],
                "description": preset.description,
                "source": preset.source,
            }
            for name, preset in PRESETS.items()
        ]
        print_json({"presets": rows})
        return
    table = Table(title="word lists")
    for col in ("name", "language", "solutions", "allowed", "source"):
        table.add_column(col, justify="right" if col in ("solutions", "allowed") else "left")
    for name, preset in PRESETS.items():
        solutions, allowed = sizes[name]
        table.add_row(name, preset.language, str(solutions), str(allowed), preset.source)
    console.print(table)


@words.command()
@click.option(
    "--dict",
    "dict_path",
    type=click.Path(path_type=Path, dir_okay=True),
    default=DEFAULT_DICT,
    show_default=True,
    help="wngerman-style word list (Debian package wngerman).",
)
@click.option(
    "--out",
    type=click.Path(path_type=Path, file_okay=False),
    default=None,
    help="Directory for solutions.txt, allowed.txt, ngerman.txt and NOTICE [default: the package's data/de].",
)
@click.option(
    "--solutions", "n_solutions", default=german_build.DEFAULT_SOLUTIONS, show_default=True, help="How many solutions."
)
@click.option(
    "--min-zipf",
    default=german_build.DEFAULT_MIN_ZIPF,
    show_default=True,
    help="Rarest wordfreq zipf frequency a solution may have.",
)
@click.option("--dry-run", is_flag=True, help="Report what would be built, write nothing.")
@json_option
@user_errors
def build(dict_path: Path, out: Path | None, n_solutions: int, min_zipf: float, dry_run: bool, as_json: bool) -> None:
    """Rebuild the German lists (de, de-ext) from wngerman and wordfreq."""
    if out is not None and not out.is_dir():
        check_output(out, "output folder")  # the folder it goes in must exist, as for every output
    result, report = german_build.build(dict_path, out, n_solutions, min_zipf, dry_run)
    if as_json:
        print_json(report)
        return
    console.print(
        f"{dict_path}: {report['dictionary']['entries']} entries, {len(result.allowed)} five-letter words "
        f"({result.transliterated} transliterated)"
    )
    console.print(f"{result.candidates} have zipf >= {min_zipf}; left out:")
    for rule, dropped in result.excluded.items():
        console.print(f"  {len(dropped):5d}  {RULE_LABELS[rule]}: {' '.join(dropped[:8])}")
    console.print(
        f"solutions: {len(result.solutions)} of {result.eligible} eligible (rarest zipf {result.lowest_zipf:.2f})"
    )
    if len(result.solutions) < n_solutions:
        console.print(f"[yellow]warning:[/yellow] only {len(result.solutions)} words qualify, not {n_solutions}")
    if dry_run:
        console.print("dry run: nothing written")
    else:
        console.print(f"wrote {', '.join(report['written'].values())}")
