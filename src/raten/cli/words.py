"""`raten words`: the built-in lists, their sizes and sources; `raten words build` rebuilds German,
and with --lang builds a list of any language and length from its hunspell dictionary."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import click
from rich.table import Table

from raten.cli.common import (
    RatenGroup,
    check_output,
    complete_lists,
    console,
    err_console,
    json_option,
    print_json,
    user_errors,
)
from raten.engine.feedback import MAX_LENGTH, MIN_LENGTH
from raten.errors import RatenError
from raten.wordlists import hunspell_lists
from raten.wordlists.german import build as german_build
from raten.wordlists.german.dictionary import DEFAULT_DICT
from raten.wordlists.german.hunspell import DEFAULT_HUNSPELL, from_path
from raten.wordlists.german.morphology import RULE_LABELS
from raten.wordlists.german.nonwords import KINDS
from raten.wordlists.languages import LANGUAGES
from raten.wordlists.presets import ALL_PRESETS, EXTRA_PRESETS, PRESETS, load_preset


@click.group(cls=RatenGroup, invoke_without_command=True)
@json_option
@click.pass_context
def words(ctx, as_json):
    """The built-in word lists, their sizes and sources (`raten words build` rebuilds German)."""
    if ctx.invoked_subcommand:
        return
    sizes: dict[str, tuple[int, int] | tuple[None, None]] = {}
    for name in ALL_PRESETS:
        try:
            ws = load_preset(name)
            sizes[name] = (len(ws.solutions), len(ws.allowed))
        except RatenError as e:
            sizes[name] = (None, None)
            err_console.print(f"[yellow]warning:[/yellow] {e}")
    if as_json:

        def rows(presets: dict) -> list[dict]:
            return [
                {
                    "name": name,
                    "language": preset.language,
                    "solutions": sizes[name][0],
                    "allowed": sizes[name][1],
                    "prior": preset.prior,
                    "description": preset.description,
                    "source": preset.source,
                }
                for name, preset in presets.items()
            ]

        # "presets": the lists a server offers by default; "extra_presets": built in, offered when named
        print_json({"presets": rows(PRESETS), "extra_presets": rows(EXTRA_PRESETS)})
        return
    table = Table(title="word lists")
    for col in ("name", "language", "solutions", "allowed", "source"):
        table.add_column(col, justify="right" if col in ("solutions", "allowed") else "left")
    for name, preset in ALL_PRESETS.items():
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
    "--hunspell",
    "hunspell_path",
    type=click.Path(path_type=Path),
    default=DEFAULT_HUNSPELL.stem,
    show_default=True,
    help="hunspell dictionary (.dic/.aff, or the path without them) whose expanded forms are allowed too.",
)
@click.option("--no-hunspell", is_flag=True, help="Allow wngerman's words only (the lists before hunspell).")
@click.option(
    "--no-frequent",
    is_flag=True,
    help="Allow the dictionaries' words only, not the frequent words wordfreq adds (sowas, track).",
)
@click.option(
    "--filter-non-words/--keep-non-words",
    default=True,
    show_default=True,
    help="Drop the frequent words that are no German word: runs of one letter (XXXXX), Roman numerals, "
    "interjections and words neither dictionary nor hunspell's affix rules accept, unless 6mal5.com's "
    "allowed list (the 6mal5 preset) has them. --keep-non-words allows every frequent word (de before "
    "December 2026).",
)
@click.option(
    "--compare",
    type=click.Path(path_type=Path, dir_okay=False),
    multiple=True,
    help="A word list (another game's) to count in the built lists: allowed, solutions, wngerman alone. Repeatable.",
)
@click.option(
    "--out",
    type=click.Path(path_type=Path, file_okay=False),
    default=None,
    help="Directory for the lists (solutions, allowed, ngerman, frequent, proper .txt) and NOTICE "
    "[default: the package's data/de].",
)
@click.option(
    "--solutions",
    "n_solutions",
    type=click.IntRange(min=1),
    default=None,
    help=f"How many solutions [default: {german_build.DEFAULT_SOLUTIONS}; with --lang about 2,000, 1,000 for "
    "four letters].",
)
@click.option(
    "--min-zipf",
    type=float,
    default=None,
    help=f"Rarest wordfreq zipf frequency a solution may have [default: {german_build.DEFAULT_MIN_ZIPF}; "
    f"with --lang {hunspell_lists.MIN_ZIPF}].",
)
@click.option(
    "--lang",
    type=click.Choice(list(LANGUAGES)),
    default=None,
    help="Build a list of this language from its Debian hunspell dictionary and wordfreq instead "
    "(de-umlaut: German with Ä, Ö, Ü as letters); into the package's data/lists/NAME unless --out.",
)
@click.option(
    "--length",
    type=click.IntRange(MIN_LENGTH, MAX_LENGTH),
    default=5,
    show_default=True,
    help="Letters per word, with --lang.",
)
@click.option("--dry-run", is_flag=True, help="Report what would be built, write nothing.")
@json_option
@user_errors
@click.pass_context
def build(
    ctx: click.Context,
    dict_path: Path,
    hunspell_path: Path,
    no_hunspell: bool,
    no_frequent: bool,
    filter_non_words: bool,
    compare: tuple[Path, ...],
    out: Path | None,
    n_solutions: int | None,
    min_zipf: float | None,
    lang: str | None,
    length: int,
    dry_run: bool,
    as_json: bool,
) -> None:
    """Rebuild the German lists (de, de-ext) from wngerman, the hunspell dictionary and wordfreq;
    with --lang LANG --length L, a list of any language and length (en-6, de-umlaut, fr ...).

    Example: raten words build --lang en --length 6
    """
    if out is not None and not out.is_dir():
        check_output(out, "output folder")  # the folder it goes in must exist, as for every output
    if lang is not None or length != 5:
        _build_language(ctx, lang, length, out, n_solutions, min_zipf, dry_run, as_json)
        return
    n_solutions = n_solutions or german_build.DEFAULT_SOLUTIONS
    min_zipf = german_build.DEFAULT_MIN_ZIPF if min_zipf is None else min_zipf
    hunspell = None if no_hunspell else from_path(hunspell_path)
    result, report = german_build.build(
        dict_path, out, n_solutions, min_zipf, dry_run, hunspell, compare, not no_frequent, filter_non_words
    )
    if as_json:
        print_json(report)
        return
    console.print(f"{dict_path}: {report['dictionary']['entries']} entries, {len(result.wngerman)} five-letter words")
    if hunspell is not None:
        console.print(
            f"{hunspell.stem}: {len(result.hunspell)} five-letter forms, {len(result.added())} not in wngerman "
            f"({' '.join(result.added()[:: max(1, len(result.added()) // 8)][:8])})"
        )
    if result.frequent:
        console.print(
            f"wordfreq: {len(result.frequent)} frequent words neither dictionary lists "
            f"({' '.join(result.frequent[:: max(1, len(result.frequent) // 8)][:8])})"
        )
    if report["non_words"] is not None:
        _print_non_words(report["non_words"])
    console.print(f"allowed: {len(result.allowed)} words ({result.transliterated} transliterated)")
    console.print(f"{result.candidates} have zipf >= {min_zipf}; left out:")
    for rule, dropped in result.excluded.items():
        console.print(f"  {len(dropped):5d}  {RULE_LABELS[rule]}: {' '.join(dropped[:8])}")
    console.print(
        f"solutions: {len(result.solutions)} of {result.eligible} eligible (rarest zipf {result.lowest_zipf:.2f})"
    )
    if len(result.solutions) < n_solutions:
        console.print(f"[yellow]warning:[/yellow] only {len(result.solutions)} words qualify, not {n_solutions}")
    for name, c in report["coverage"].items():
        console.print(
            f"{name}: {c['words']} words, {c['allowed']} allowed (wngerman alone {c['allowed_wngerman_only']}), "
            f"{c['solutions']} solutions; not allowed: {' '.join(c['not_allowed'][:12]) or 'none'}"
        )
    if dry_run:
        console.print("dry run: nothing written")
    else:
        console.print(f"wrote {', '.join(report['written'].values())}")


_GERMAN_ONLY = ("dict_path", "hunspell_path", "no_hunspell", "no_frequent", "filter_non_words", "compare")


def _build_language(ctx, lang, length, out, n_solutions, min_zipf, dry_run, as_json) -> None:
    """`raten words build --lang LANG --length L`: the hunspell and wordfreq build of any list."""
    if lang is None:
        raise click.UsageError("--length needs --lang (the German build without --lang makes five letters)")
    given = [p for p in _GERMAN_ONLY if ctx.get_parameter_source(p) == click.core.ParameterSource.COMMANDLINE]
    if given:
        raise click.UsageError(f"--{given[0].replace('_', '-')} is for the German build, not with --lang")
    if lang in ("en", "de") and length == 5:
        raise click.UsageError(
            f"{lang} at five letters is the built-in {lang} list (en: Wordle's own; de: `raten words build` "
            "without --lang)"
        )
    built = hunspell_lists.build(lang, length, hunspell_lists.MIN_ZIPF if min_zipf is None else min_zipf, n_solutions)
    report = built.report()
    target = out if out is not None else Path(str(resources.files("raten") / "data" / "lists" / built.name))
    report["written"] = {} if dry_run else hunspell_lists.write(built, target)
    if as_json:
        print_json(report)
        return
    console.print(
        f"{built.name}: {report['forms_read']} forms read, {report['candidates']} of {length} letters, "
        f"{report['allowed']} allowed; {report['entries']} dictionary entries, {report['eligible']} at zipf >= "
        f"{min_zipf or hunspell_lists.MIN_ZIPF}, {report['solutions']} solutions (rarest zipf {report['lowest_zipf']})"
    )
    console.print("dry run: nothing written" if dry_run else f"wrote {', '.join(report['written'].values())}")


def _print_non_words(sifted: dict) -> None:
    """The non-word filter's line per kind: how many it dropped, and the first of them."""
    console.print(
        f"non-words: {sifted['dropped']} frequent words dropped, {sifted['kept']} kept "
        f"({sifted['kept_by_6mal5']} because 6mal5 accepts them, {len(sifted['kept_by_hunspell'])} by hunspell)"
    )
    for kind, words in sifted["words"].items():
        console.print(f"  {len(words):5d}  {KINDS[kind]}: {' '.join(words[:12])}")


@words.command()
@click.argument("list_name", metavar="[LIST]", required=False, shell_complete=complete_lists)
@click.option("--solutions", type=click.Path(path_type=Path), help="Solutions file, one word per line (not with LIST).")
@click.option("--allowed", type=click.Path(path_type=Path), help="Allowed-guesses file (with --solutions).")
@click.option(
    "--of",
    "part",
    type=click.Choice(["solutions", "allowed"]),
    default="solutions",
    show_default=True,
    help="Which words the letter table counts.",
)
@json_option
@user_errors
def stats(list_name: str | None, solutions: Path | None, allowed: Path | None, part: str, as_json: bool) -> None:
    """Letter statistics of a list: words with a repeated letter, letter frequency overall and by position.

    Example: raten words stats de --of allowed
    """
    from raten.wordlists.presets import load_words
    from raten.wordlists.stats import letter_stats, list_stats

    ws = load_words(list_name, solutions=solutions, allowed=allowed)
    if as_json:
        print_json(list_stats(ws))
        return
    sol, allow = letter_stats(ws.solutions, ws.alphabet), letter_stats(ws.allowed, ws.alphabet)
    for what, s in (("solutions", sol), ("allowed words", allow)):
        console.print(
            f"{ws.name} {what}: {s.words}, with a repeated letter [bold]{s.repeated}[/bold] "
            f"([bold]{100 * s.repeated_share:.1f}%[/bold])"
        )
    s = sol if part == "solutions" else allow
    table = Table(title=f"letters of the {s.words} {part} of {ws.name}, most frequent first", title_justify="left")
    places = [f"{i}{'st' if i == 1 else 'nd' if i == 2 else 'rd' if i == 3 else 'th'}" for i in range(1, ws.length + 1)]
    for col in ("letter", "count", "share", "in words", *places):
        table.add_column(col, justify="left" if col == "letter" else "right")
    for c in s.ranked():
        j = s.alphabet.index(c)
        row = s.by_position
        best = max(range(ws.length), key=lambda i: row[i][j])
        cells = [f"[bold]{row[i][j]}[/bold]" if i == best and row[i][j] else str(row[i][j]) for i in range(ws.length)]
        table.add_row(c.upper(), str(s.counts[j]), f"{100 * s.share(c):.1f}%", str(s.in_words[j]), *cells)
    console.print(table)
    console.print("[dim]count: every occurrence; in words: words containing it; bold: its commonest position[/dim]")
