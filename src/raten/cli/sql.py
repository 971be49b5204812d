"""`raten sql`: build the feedback table into SQLite or DuckDB, run the SQL solver, print its SQL.

A thin face: the work is in raten.sql.build, raten.sql.database and the .sql files.
"""

from __future__ import annotations

from pathlib import Path

import click

from raten.cli.common import (
    RatenGroup,
    console,
    hints_table,
    json_option,
    parse_moves,
    print_json,
    progress_bar,
    sigterm_as_interrupt,
    top_option,
    word_options,
    words_from_options,
)
from raten.sql.build import build_database, check_target
from raten.sql.database import QueryResult, SqlDatabase, show_sql
from raten.sql.queries import ENGINES, QUERIES, SCHEMAS, SHOWABLE


def _db_option(required: bool = True):
    return click.option(
        "--db",
        "db",
        type=click.Path(path_type=Path, dir_okay=False),
        required=required,
        help="The database file (SQLite or DuckDB, told apart by its first bytes).",
    )


@click.group(cls=RatenGroup)
def sql() -> None:
    """The feedback table in SQLite or DuckDB, and a solver written in SQL alone.

    Example: raten sql build --db en.sqlite && raten sql query --db en.sqlite next crane=..?!.
    """


@sql.command()
@word_options
@click.option("--engine", type=click.Choice(ENGINES), default="sqlite", show_default=True, help="Database engine.")
@click.option(
    "--schema",
    type=click.Choice(SCHEMAS),
    default="classic",
    show_default=True,
    help="classic: one row per guess x answer; compact: one row per guess, scores packed.",
)
@_db_option()
@click.option("--force", is_flag=True, help="Replace the file if it exists.")
@json_option
def build(preset, solutions, allowed, any_answer, prior, engine, schema, db, force, as_json):
    """Write the feedback of every allowed guess against every answer into a new database."""
    check_target(db, force)  # before the word lists and the progress bar
    words = words_from_options(preset, solutions, allowed, any_answer, prior, weighted=False)
    label = f"{words.name} → {db.name} ({engine}, {schema})"
    with sigterm_as_interrupt(), progress_bar(transient=as_json) as bar:  # the temporary file goes on SIGTERM too
        task = bar.add_task(label, total=len(words.allowed) * len(words.solutions))
        report = build_database(
            words, db, engine, schema, force=force, progress=lambda done, _total: bar.update(task, completed=done)
        )
    if as_json:
        print_json(report.to_dict())
        return
    console.print(
        f"wrote [bold]{report.path}[/bold]: {report.guesses} guesses x {report.answers} answers "
        f"= {report.pairs:,} scores, {report.size_bytes / 1e6:.1f} MB in {report.seconds:.1f} s"
    )


@sql.command()
@_db_option()
@top_option(10, "guesses")
@json_option
@click.argument("what", metavar="openers|remaining|next", type=click.Choice(QUERIES))
@click.argument("moves", nargs=-1, metavar="[GUESS=PATTERN]...")
def query(db, top, as_json, what, moves):
    """Run a solver query in SQL: openers, remaining (answers left) or next (best next guesses).

    Example: raten sql query --db en.sqlite next soare=..... dumpy=.?..!
    """
    pairs = parse_moves(moves)
    with SqlDatabase(db) as database:
        result = database.query(what, pairs, top)
    if as_json:
        out: dict = {}
        if result.candidates is not None:
            out |= {"candidates": len(result.candidates), "candidate_words": result.candidates}
        if result.hints is not None:
            out["openers" if what == "openers" else "hints"] = [h.to_dict() for h in result.hints]
        print_json(out)
        return
    if result.candidates is not None:
        _print_words(result.candidates)
    if result.hints is not None:
        what_shown = "best openers" if what == "openers" else "best next guesses"
        console.print(hints_table(result.hints, title=_title(result, what_shown)))


def _title(result: QueryResult, what: str) -> str:
    return f"{what} (SQL, {result.engine} {result.schema}, {result.words_name})"


def _print_words(words: list[str], limit: int = 60) -> None:
    console.print(f"[bold]{len(words)}[/bold] candidates left:")
    shown = " ".join(w.upper() for w in words[:limit])
    console.print("  " + shown + (f" ... (+{len(words) - limit})" if len(words) > limit else ""))


@sql.command()
@_db_option(required=False)
@click.option(
    "--engine", type=click.Choice(ENGINES), default=None, help="Engine (default: the --db file's, or sqlite)."
)
@click.option(
    "--schema", type=click.Choice(SCHEMAS), default=None, help="Layout (default: the --db file's, or classic)."
)
@click.argument("what", metavar="openers|remaining|next|schema", type=click.Choice(SHOWABLE))
@click.argument("moves", nargs=-1, metavar="[GUESS=PATTERN]...")
def show(db, engine, schema, what, moves):
    """Print the SQL of a query (or the schema), as raten runs it.

    Without guesses the file is printed as it is (written for one scored guess); with
    guesses, expanded for them, their parameter values listed first (the wordidx needs --db).
    """
    text = show_sql(what, parse_moves(moves), engine=engine, schema=schema, db=db)
    click.echo(text, nl=not text.endswith("\n"))
