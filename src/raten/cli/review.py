"""`raten review`: judge a finished game guess by guess (exact values, regret, skill, luck)."""

from __future__ import annotations

import click
from rich import box
from rich.table import Table

from raten.cli.common import (
    console,
    emoji_of,
    guarantee_options,
    hard_option,
    json_option,
    print_json,
    word_options,
    words_from_options,
)
from raten.errors import RatenError
from raten.trees.budget import REVIEW_CELLS, REVIEW_SECONDS

#: How a bound is marked, by its kind (``regret_kind``, ``total_kind``, ``skill_kind``).
_SIGN = {"at least": "≥", "at most": "≤"}


def _value(x: float | None, exact: bool) -> str:
    """A value with ≥ when it is only a lower bound."""
    if x is None:
        return "-"
    return f"{x:.3f}" if exact else f"≥{x:.3f}"


def _bounded(x: float | None, kind: str) -> str:
    """A regret (or a skill) with ≥ or ≤ when it is only a bound, - when unknown."""
    if x is None or kind == "unknown":
        return "-"
    return _SIGN.get(kind, "") + (f"{x:.3f}" if isinstance(x, float) else str(x))


def _safety(m) -> str:
    """The guarantee's cell: ``safe``, or how many covered words were put at risk and the best safe guess."""
    s = m.safety
    if s is None:
        return ""
    first = {"safe": "safe", "undecided": "?", "unchecked": "-", "uncovered": "-"}.get(s.status, f"{s.at_risk} at risk")
    if s.status == "safe" or s.best is None:
        return first
    return first + "\n" + (s.best.upper() if s.best_safe else f"none ({s.best.upper()})")


@click.command()
@word_options
@hard_option
@guarantee_options
@json_option
@click.option("--answer", help="The answer (the colours follow from it).")
@click.option(
    "--share",
    "share_file",
    type=click.File("r", encoding="utf-8"),
    help="A pasted share text (file or - for stdin): it gives the colours, so name the guesses too.",
)
@click.option(
    "--work",
    type=click.IntRange(min=0),
    default=REVIEW_CELLS,
    show_default=True,
    metavar="CELLS",
    help="Search budget in work (table cells read; 0: none), the same on every machine: after it values "
    "are lower bounds.",
)
@click.option(
    "--seconds",
    default=REVIEW_SECONDS,
    show_default=True,
    type=click.FloatRange(min=0, min_open=True),
    help="Ceiling on the search time: after it values are lower bounds, work left or not.",
)
@click.argument("guesses", nargs=-1, metavar="GUESS[=PATTERN]...")
def review(
    preset,
    solutions,
    allowed,
    any_answer,
    prior,
    hard,
    guarantee,
    guarantee_over,
    as_json,
    answer,
    share_file,
    work,
    seconds,
    guesses,
):
    """Judge a finished game guess by guess: exact values, regret, skill and luck.

    Give the answer, or the colours as GUESS=PATTERN, or a share text with --share and the guesses.
    With the guarantee on (the default), each guess is marked safe or not, with the best safe guess.
    Example: raten review --words en crane tousy haunt --answer haunt
    """
    if not guesses:
        why = ": a share text shows only their colours" if share_file else ""
        raise click.UsageError(f"name the guesses (GUESS or GUESS=PATTERN){why}")
    from raten.play.review import review as run
    from raten.trees.safety import covers
    from raten.trees.values import Budget

    words = words_from_options(preset, solutions, allowed, any_answer, prior)
    typed = [g.split("=", 1) for g in guesses]
    with_colours = [t for t in typed if len(t) == 2]
    if with_colours and len(with_colours) != len(typed):
        raise RatenError("give the colours of every guess (GUESS=PATTERN) or of none")
    patterns = [t[1] for t in with_colours] if with_colours else None
    share = share_file.read() if share_file else None
    result = run(
        words,
        [t[0] for t in typed],
        answer,
        patterns=patterns,
        share=share,
        hard=hard,
        budget=Budget.work(work or None, seconds),
        guarantee=guarantee,
        guarantee_over=guarantee_over,
    )
    if as_json:
        print_json(result.to_dict())
        return
    prior = "" if words.prior == "uniform" else f", {words.prior} prior"
    # two lines a guess, so that the table fits 80 columns (a pipe's width) with every cell whole
    title = f"review ({words.name}{', hard mode' if hard else ''}{prior})"
    table = Table(title=title, box=box.ROUNDED, show_lines=True)
    cols = ("#", "guess", "left", "Q\nbest (Q)", "regret\nrank", "skill", "luck")
    safe_col = "safe\ninstead"
    for col in cols + ((safe_col,) if guarantee is not None else ()):
        table.add_column(col, justify="left" if col in ("guess", "Q\nbest (Q)", safe_col) else "right", overflow="fold")
    for m in result.moves:
        rank = "-" if m.rank is None else f"{m.rank}" + ("" if m.rank_by == "exact" else "~")
        table.add_row(
            str(m.number),
            m.guess.upper() + (" *" if m.could_be_answer else "") + "\n" + emoji_of(m.pattern),
            f"{m.before}→{m.after}",
            _value(m.q, m.q_exact) + "\n" + f"{(m.best or '-').upper()} {_value(m.best_q, m.best_exact)}",
            _bounded(m.regret, m.regret_kind) + "\n" + rank,
            "-" if m.skill is None else str(m.skill),
            "-" if m.luck is None else str(m.luck),
            *((_safety(m),) if guarantee is not None else ()),
        )
    console.print(table)
    console.print(
        "[dim]* could have been the answer; Q: expected guesses still needed, the green one counted; "
        "≥ at least, ≤ at most (a bound); ~ rank by entropy[/dim]"
    )
    if guarantee is not None:
        covered = covers(result.guarantee_over) if result.guarantee_over else "every covered word"
        console.print(
            f"[dim]safe: {covered} still possible is found "
            f"within {guarantee} guesses; "
            f"N at risk: words that could need a guess {guarantee + 1}, below it the best safe guess; "
            "? not decided; - beyond what a review checks (the first two moves without the opening book)[/dim]"
        )
    expected = _value(result.expected, result.expected_exact)
    outcome = f"solved in {result.guesses}" if result.solved else f"not solved in {result.guesses}"
    console.print(f"{outcome}; optimal play expects {expected} from the start")
    total = _bounded(result.total_regret, result.total_kind)
    skill = _bounded(result.skill, result.skill_kind)
    console.print(f"total regret {total} guesses, skill {skill}, luck {'-' if result.luck is None else result.luck}")
    if result.solver:
        moves = " ".join(f"{g.upper()} {emoji_of(p)}" for g, p in result.solver)
        console.print(f"raten's own game ({result.solver_source}): {moves}")
    for note in [n for m in result.moves for n in m.notes] + result.notes:
        console.print(f"[yellow]note:[/yellow] {note}")
