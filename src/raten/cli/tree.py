"""`raten tree`: build an exact decision tree (one opener or all of them) and `raten tree check FILE`.

A thin face: one opener's proof is ``raten.trees.opener``, the search ``raten.trees.search``,
the parallel runs ``raten.trees.jobs`` with their results file ``raten.trees.results_file`` and
report ``raten.trees.report``, the tree file and its check ``raten.trees.model``.
"""

from __future__ import annotations

import dataclasses
import gc
import os
import time
from pathlib import Path

import click
from rich.progress import Progress, TextColumn
from rich.table import Table

from raten.cli.common import (
    RatenGroup,
    check_output,
    console,
    err_console,
    hard_option,
    json_option,
    print_json,
    progress_bar,
    sigterm_as_interrupt,
    word_options,
    words_from_options,
)
from raten.engine.words import WordSet
from raten.errors import RatenError
from raten.trees.memo_file import DEFAULT_MEMO_GB, MAX_GB
from raten.trees.model import Tree
from raten.trees.opener import OpenerProof
from raten.trees.search import INF, default_memo_bits
from raten.wordlists.presets import ALL_PRESETS


class _Log:
    """Progress for logs (stderr is not a terminal): one plain line every ``every`` seconds."""

    def __init__(self, every: float = 15.0) -> None:
        self.every = every
        self.last = time.perf_counter()

    def __call__(self, text: str, final: bool = False) -> None:
        now = time.perf_counter()
        if not err_console.is_terminal and (final or now - self.last >= self.every):
            self.last = now
            err_console.print(f"[{time.strftime('%H:%M:%S')}] {text}", soft_wrap=True)


def _progress() -> Progress:
    return progress_bar(TextColumn("{task.fields[note]}"))


def _limit(max_guesses: int) -> int | None:
    if max_guesses < 0:
        raise RatenError("--max-guesses must be 0 (no limit) or more")
    return max_guesses or None


def _dist(distribution: dict) -> str:
    return " ".join(f"{k}:{v}" for k, v in sorted(distribution.items(), key=lambda kv: int(kv[0])))


@click.group(cls=RatenGroup, invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@word_options
@click.option("--opener", help="Solve the tree under this first guess (default: the guess with most groups).")
@click.option("--best", is_flag=True, help="Search every allowed opener for the best one.")
@click.option(
    "--upper-tree",
    type=click.Path(path_type=Path),
    help="With --opener: a tree under the same opener (e.g. another solver's); each group's total in it is a "
    "cut-off for that group's search from the start.",
)
@hard_option
@click.option("--max-guesses", default=6, show_default=True, help="Most guesses any solution may take (0: no limit).")
@click.option("--out", type=click.Path(path_type=Path), help="Write the tree to this file.")
@json_option
@click.option("--top", default=20, show_default=True, help="With --best: how many openers get exact totals.")
@click.option(
    "--jobs",
    "-j",
    default=os.cpu_count() or 1,
    show_default="the number of CPUs",
    type=click.IntRange(min=1),
    help="With --best, or --opener with --results: local processes.",
)
@click.option("--scheduler", metavar="ADDRESS", help="With --best: run the jobs on this Dask scheduler.")
@click.option(
    "--results",
    type=click.Path(path_type=Path),
    help="With --best: results file, one line per finished opener; rerun to resume (default: in the cache). "
    "With --opener: the opener's groups become jobs, one line per finished group.",
)
@click.option(
    "--table",
    type=click.Path(path_type=Path),
    help="With --best: write every opener with its exact total or proven lower bound (tab-separated).",
)
@click.option(
    "--cutoff",
    type=int,
    metavar="TOTAL",
    help="With --best: search only below this total from the start (a known top-th total + 1); "
    "openers needing it or more are refuted by a proven bound.",
)
@click.option(
    "--first",
    metavar="WORDS",
    help="With --best: search these openers first, comma-separated (e.g. a published ranking); "
    "default: the committed table's best.",
)
@click.option(
    "--stop-after",
    type=click.FloatRange(min=0, min_open=True),
    metavar="MINUTES",
    help="With --best (or --opener with --results): stop after this long and report what is proven so far "
    "(rerun to resume).",
)
@click.option(
    "--memo-bits",
    type=click.IntRange(1, 32),
    help="Memo table size, 2**bits entries per process (--opener) [default: 18, 22 for more than 4,000 solutions].",
)
@click.option(
    "--memo-gb",
    type=click.FloatRange(0, MAX_GB),
    default=DEFAULT_MEMO_GB,
    show_default=True,
    help=f"With --best: memo shared by the worker processes, in GB (at most {MAX_GB:g}; 0: a private memo of "
    "2**--memo-bits entries per process); saved beside the results file, so a resumed run starts with it.",
)
@click.option("--name", help="Name for the word lists in the tree header (default: the preset or file name).")
@click.pass_context
def tree(
    ctx,
    preset,
    solutions,
    allowed,
    any_answer,
    prior,
    opener,
    best,
    upper_tree,
    hard,
    max_guesses,
    out,
    as_json,
    top,
    jobs,
    scheduler,
    results,
    table,
    cutoff,
    first,
    stop_after,
    memo_bits,
    memo_gb,
    name,
):
    """Build the decision tree with the fewest guesses in total, proven optimal by exact search.

    Under --prior frequency the total is weighted (the fewest expected guesses; the file says
    prior= and weight=). Ties go to the smaller worst case. `raten tree check FILE` verifies a
    tree file.
    """
    if ctx.invoked_subcommand:
        return
    if opener and best:
        raise RatenError("use either --opener WORD or --best, not both")
    if upper_tree and not opener:
        raise RatenError("--upper-tree goes with --opener WORD")
    # Every output is checked before the search, so a bad path never throws a finished search away.
    check_output(out, "tree file")
    check_output(table, "table file")
    check_output(results, "results file")
    words = words_from_options(preset, solutions, allowed, any_answer, prior)
    if name:
        words = dataclasses.replace(words, name=name)
    limit = _limit(max_guesses)
    memo_bits = memo_bits or default_memo_bits(len(words.solutions))
    memo = (memo_bits, memo_gb)
    if best:
        order = ([w.strip().lower() for w in (first or "").split(",") if w.strip()], stop_after)
        _best(words, hard, limit, out, as_json, top, jobs, scheduler, results, memo, table, cutoff, order)
    else:
        upper = Tree.read(upper_tree) if upper_tree else None
        if results:
            if not opener:
                raise RatenError("--results goes with --best, or with --opener WORD (its groups as jobs)")
            _groups(words, opener, hard, limit, out, as_json, (jobs, scheduler, results, stop_after), memo, upper)
        else:
            _one(words, opener, hard, limit, out, as_json, memo_bits, upper)
    # numba's many objects stay out of the interpreter's last collection at exit (0.2 CPU s of a
    # one-opener proof's 1.5); nothing of ours waits on it: the files are closed
    gc.freeze()


def _one(words: WordSet, opener: str | None, hard: bool, limit: int | None, out, as_json, memo_bits, upper) -> None:
    proof = OpenerProof(words, opener, hard=hard, max_guesses=limit, memo_bits=memo_bits, upper=upper)
    label = proof.opener.upper()
    with _progress() as bar:
        task = bar.add_task(f"{label}: solving groups", total=None, note="")

        log = _Log()

        def step(done: int, n: int, total: int) -> None:
            bar.update(task, completed=done, total=n, note=f"total so far {total}")
            log(f"{label}: {done}/{n} groups solved, total so far {total}", final=done == n)

        proven = proof.run(progress=None if as_json else step)
    t = proven.tree
    if out:
        t.write(out)
    if as_json:
        print_json(proven.to_dict(out))
        return
    mode = "hard mode" if hard else "normal mode"
    console.print(
        f"[bold]{t.opener.upper()}[/bold] ({words.name}, {mode}, {len(words.solutions)} solutions"
        f"{f', at most {limit} guesses' if limit else ''}{_prior_note(t)}): total [bold]{t.total}[/bold], "
        f"{'expected' if t.prior != 'uniform' else 'average'} {t.average:.4f}, worst {t.worst}"
    )
    console.print(f"  guesses: {_dist(t.distribution)}")
    console.print(
        f"  proven optimal for this opener; worst case {t.worst} is the least among trees of this total"
        f" ({proven.seconds:.1f} s, {proven.nodes} nodes)"
    )
    if proven.chosen_by != "given":
        console.print(f"  [dim]opener chosen by {proven.chosen_by}; --best searches every opener[/dim]")
    if out:
        console.print(f"  tree written to {out}")


def _groups(words: WordSet, opener: str, hard: bool, limit: int | None, out, as_json, run, memo, upper) -> None:
    """``--opener WORD --results FILE``: the opener's groups as jobs, resumable (``trees.groups``)."""
    from raten.trees.groups import run_groups
    from raten.trees.opener import OpenerProof

    jobs, scheduler, results, stop_after = run
    ceilings = OpenerProof(words, opener, hard=hard, max_guesses=limit, memo_bits=1, upper=upper).ceilings
    log = _Log()

    def step(done: int, n: int, total: int) -> None:
        log(f"{opener.upper()}: {done}/{n} groups exact, the total at least {total}", final=done == n)

    with sigterm_as_interrupt():
        report = run_groups(
            words, opener, hard, limit, results=results, jobs=jobs, scheduler=scheduler, memo_bits=memo[0],
            memo_gb=memo[1], ceilings=ceilings, progress=None if as_json else step,
            stop_after=None if stop_after is None else stop_after * 60,
        )  # fmt: skip
    t = report.tree
    if t is not None and out:
        t.write(out)
    summary = {
        "opener": report.opener,
        "groups": report.groups,
        "groups_exact": len(report.totals),
        "complete": report.complete,
        "total": report.bound if report.complete else None,
        "at_least": report.bound,
        "average": round(report.bound / report.weight, 4) if report.complete else None,
        "worst": t.worst if t is not None else None,
        "worst_least_among_optimal": False,
        "seconds": round(report.seconds, 1),
        "results": str(results),
        "out": str(out) if out and t is not None else None,
    }
    if as_json:
        print_json(summary)
        return
    if t is not None:
        console.print(
            f"[bold]{t.opener.upper()}[/bold] ({words.name}, {'hard' if hard else 'normal'} mode, "
            f"{len(words.solutions)} solutions): total [bold]{t.total}[/bold], average {t.average:.4f}, worst {t.worst}"
        )
        console.print(f"  guesses: {_dist(t.distribution)}")
        console.print("  proven optimal for this opener, group by group (the worst case is not shaved)")
    else:
        console.print(
            f"[bold]stopped[/bold]: {len(report.totals)} of {report.groups} groups of {report.opener.upper()} exact; "
            f"its total is at least {report.bound}; rerun the same command to resume"
        )
    console.print(f"  [dim]results: {results}[/dim]")
    if out and t is not None:
        console.print(f"  tree written to {out}")


def _prior_note(t: Tree) -> str:
    """ ", frequency prior (total weight W)" for a weighted tree, "" for a uniform one."""
    return "" if t.prior == "uniform" else f", {t.prior} prior, total weight {t.weight}"


def _known_best(words: WordSet, hard: bool, limit: int | None, top: int) -> tuple[list[str], int | None]:
    """The committed table's ``top`` best exact openers and its top-th total plus one, for these
    lists, mode and limit (six, uniform prior); ([], None) without a table. The table is
    verified on reading (``raten.trees.values.opener_rows``: a forged one is refused)."""
    if limit != 6 or words.weights is not None:
        return [], None
    from raten.trees.values import best_openers

    rows = best_openers(words, hard, top=top)
    if not rows:
        return [], None
    return [r.opener for r in rows], (rows[top - 1].total.total + 1 if len(rows) >= top else None)


def _eta(seconds: float | None) -> str:
    if seconds is None:
        return "time left not yet known"
    return f"about {seconds / 60:.1f} min left" if seconds >= 90 else f"about {seconds:.0f} s left"


def _best(words, hard, limit, out, as_json, top, jobs, scheduler, results, memo, table, cutoff, order) -> None:
    from raten.trees.jobs import BestProgress, run_best
    from raten.trees.report import openers_table
    from raten.trees.results_file import default_results_path

    results = results or default_results_path(words, hard, limit)
    given, stop_after = order
    for word in given:
        if word not in words.allowed_index:
            raise RatenError(f"--first: {word.upper()} is not an allowed guess in the {words.name} list")
    first, first_beta = (given, None) if given else _known_best(words, hard, limit, top)
    if first and not as_json:
        source = "given" if given else "committed table's"
        err_console.print(
            f"[dim]searching the {source} {len(first)} best openers first "
            f"({first[0].upper()} ...); the cut-off comes from their totals proven now[/dim]"
        )
    with sigterm_as_interrupt(), _progress() as bar:  # SIGTERM stops the worker processes too
        task = bar.add_task("openers", total=len(words.allowed), note="")

        log = _Log()

        def step(p: BestProgress) -> None:
            best = p.best
            note = f"best {best['opener'].upper()} {best['total']}" if best else "no exact total yet"
            if p.cutoff < INF:
                note += f", cut-off {p.cutoff}"
            if p.first_left:
                note += f", {p.first_left} known best openers to search first"
            note += f", {p.jobs_left} openers left to bound or search, {_eta(p.eta)}"
            bar.update(task, completed=p.settled, total=p.openers, note=note)
            log(f"{p.settled}/{p.openers} openers settled ({p.jobs_done} jobs); {note}", final=p.settled == p.openers)

        report = run_best(
            words,
            hard,
            limit,
            top=top,
            jobs=jobs,
            scheduler=scheduler,
            results=results,
            memo_bits=memo[0],
            memo_gb=memo[1],
            start_cutoff=cutoff,
            first=first,
            first_beta=first_beta,
            progress=None if as_json else step,
            stop_after=None if stop_after is None else stop_after * 60,
        )
    if table:
        table.write_text(openers_table(report), encoding="utf-8")
    summary = report.to_dict(top, out)  # a RatenError when no opener solves every word
    best_tree = report.best_tree()
    if out and best_tree is not None:
        best_tree.write(out)
    if as_json:
        print_json(summary)
        return
    if not report.complete:
        _stopped(report, summary, results, out)
        return
    best, ranking = summary["best"], summary["top"]
    console.print(
        f"best opener for {words.name} ({'hard' if hard else 'normal'} mode"
        f"{f', at most {limit} guesses' if limit else ''}"
        f"{'' if words.prior == 'uniform' else f', {words.prior} prior'}): [bold]{best['opener'].upper()}[/bold] "
        f"total [bold]{best['total']}[/bold], average {best['average']:.4f}, worst {best['worst']}"
    )
    console.print(f"  guesses: {_dist(best['distribution'])}")
    rest = f"every other opener needs at least {report.cutoff}" if report.cutoff < INF else "all openers exact"
    console.print(
        f"  proven optimal over all {report.openers} openers ({rest}); {report.seconds:.1f} s"
        f"{f', {report.resumed} resumed from {results}' if report.resumed else ''}"
    )
    table = Table(title=f"top {len(ranking)} openers", title_justify="left")
    for col in ("#", "opener", "total", "average", "worst", "guesses"):
        table.add_column(col, justify="left" if col in ("opener", "guesses") else "right")
    for r in ranking:
        table.add_row(
            str(r["rank"]),
            r["opener"].upper(),
            str(r["total"]),
            f"{r['average']:.4f}",
            str(r["worst"]),
            _dist(r["distribution"]),
        )
    console.print(table)
    if report.resumed:
        rc = report.recheck
        on_digest = f", {rc.on_digest} search bounds on their digest alone" if rc.on_digest else ""
        console.print(
            f"  [dim]resumed lines re-checked: {rc.trees} trees, {rc.bounds} bounds recomputed{on_digest}[/dim]"
        )
    console.print(f"  [dim]results: {results}[/dim]")
    if out:
        console.print(f"  tree written to {out}")


def _stopped(report, summary: dict, results: Path, out: Path | None) -> None:
    """What a run stopped by --stop-after proved: the best exact total so far, the least bound."""
    best, low = summary["best"], summary["lower_bound"]
    console.print(f"[bold]stopped[/bold] after {report.seconds / 60:.1f} min; rerun the same command to resume")
    if best:
        console.print(
            f"  best so far: [bold]{best['opener'].upper()}[/bold] total {best['total']} (exact for this opener), "
            f"average {best['average']:.4f}, worst {best['worst']}"
        )
    if low is not None:
        gap = f", gap {best['total'] - low}" if best else ""
        console.print(f"  every opener needs at least {low} guesses in total{gap}; {summary['unsettled']} unsettled")
    console.print(f"  [dim]results: {results}[/dim]")
    if out and best:
        console.print(f"  tree written to {out}")


@tree.command("within")
@word_options
@hard_option
@click.option("--max-guesses", default=6, show_default=True, type=click.IntRange(1, 20), help="The guess limit.")
@click.option("--opener", "openers", help="Judge these openers only, comma-separated (default: every allowed word).")
@click.option(
    "--results",
    type=click.Path(path_type=Path),
    help="Results file, one line per opener; rerun to resume (undecided openers are judged again).",
)
@click.option(
    "--work",
    type=click.FloatRange(min=0, min_open=True),
    help="Table cells one group's search may read before it is left undecided (default: no limit).",
)
@click.option(
    "--stop-after", type=click.FloatRange(min=0, min_open=True), metavar="MINUTES", help="Stop after this long."
)
@click.option(
    "--table",
    type=click.Path(path_type=Path),
    help="An openers table of these lists, mode and limit (from --best): mark every impossible opener in it.",
)
@click.option("--out", type=click.Path(path_type=Path), help="Write the tree of the first possible opener here.")
@json_option
def within(
    preset,
    solutions,
    allowed,
    any_answer,
    prior,
    hard,
    max_guesses,
    openers,
    results,
    work,
    stop_after,
    table,
    out,
    as_json,
):
    """Which openers can solve every answer within the guess limit: a proof either way.

    Each opener's groups, smallest first, go to the feasibility search (every legal guess, so a
    "no" is a proof): one group that cannot be solved within the guesses left makes the opener
    impossible. With --table, every impossible opener's row becomes "at-least impossible"
    (its digest recomputed). The first possible opener's tree, checked, goes to --out.
    """
    from raten.trees.report import mark_impossible
    from raten.trees.within import IMPOSSIBLE, POSSIBLE, Within

    check_output(out, "tree file")
    check_output(results, "results file")
    words = words_from_options(preset, solutions, allowed, any_answer, prior)
    judge = Within(words, hard=hard, limit=max_guesses)
    todo = [w.strip().lower() for w in openers.split(",") if w.strip()] if openers else list(words.allowed)
    log = _Log()
    counts = {IMPOSSIBLE: 0, POSSIBLE: 0, "unknown": 0}

    def step(v, i: int, n: int) -> None:
        counts[v.status] += 1
        note = ", ".join(f"{k} {c}" for k, c in counts.items())
        if not as_json:
            log(f"{i}/{n} openers judged ({note}); {v.opener.upper()} {v.status}", final=i == n)

    with sigterm_as_interrupt():
        found = judge.run(todo, results, None if work is None else int(work), stop_after and stop_after * 60, step)
    by = {k: sorted(o for o, v in found.items() if v.status == k) for k in counts}
    tree_file = None
    if by[POSSIBLE] and out:
        t = judge.tree(by[POSSIBLE][0])
        t.check(words, source=str(out))
        t.write(out)
        tree_file = str(out)
    if table:
        marked = mark_impossible(table, words, hard, max_guesses, set(by[IMPOSSIBLE]))
    summary = {
        "words": words.name,
        "mode": "hard" if hard else "normal",
        "max_guesses": max_guesses,
        "openers": len(todo),
        "judged": len(found),
        "impossible": len(by[IMPOSSIBLE]),
        "possible": len(by[POSSIBLE]),
        "unknown": len(by["unknown"]),
        "first_possible": by[POSSIBLE][0] if by[POSSIBLE] else None,
        "tree": tree_file,
        "table_rows_marked": marked if table else None,
        "results": str(results) if results else None,
    }
    if as_json:
        print_json(summary | {"impossible_openers": by[IMPOSSIBLE], "unknown_openers": by["unknown"]})
        return
    mode = "hard mode" if hard else "normal mode"
    console.print(
        f"{words.name} ({mode}, within {max_guesses} guesses): {len(found)} of {len(todo)} openers judged: "
        f"[bold]{len(by[IMPOSSIBLE])} impossible[/bold], {len(by[POSSIBLE])} possible, {len(by['unknown'])} undecided"
    )
    if by[IMPOSSIBLE] and len(by[IMPOSSIBLE]) <= 40:
        console.print("  impossible: " + " ".join(o.upper() for o in by[IMPOSSIBLE]))
    if tree_file:
        console.print(f"  the tree of {by[POSSIBLE][0].upper()} (every answer within {max_guesses}) written to {out}")
    if table:
        console.print(f"  {marked} rows of {table} marked impossible")


@tree.command("check")
@word_options
@json_option
@click.argument("file", type=click.Path(path_type=Path))
@click.pass_context
def check(ctx, preset, solutions, allowed, any_answer, prior, as_json, file):
    """Verify a tree file: every solution reached, every pattern right, a tree, hard-mode legal; recount it.

    Every claim of the header is compared with the tree (opener, solutions, total, worst,
    weight, guess limit), and its digest with its claims (mode, limit, proven=); the first
    claim that fails is named and the exit status is 1. The word list defaults to the one
    named in the file's header when it is a preset.
    """
    t = Tree.read(file)
    explicit = ctx.get_parameter_source("preset") != click.core.ParameterSource.DEFAULT
    if not explicit and solutions is None and t.words_name in ALL_PRESETS:
        preset = t.words_name
    # the prior defaults to the one the header names, so a weighted tree is recounted as built
    words = words_from_options(preset, solutions, allowed, any_answer, prior, default_prior=t.prior)
    if solutions is not None and t.words_name not in ("", "-"):
        words = dataclasses.replace(words, name=t.words_name)  # files carry no name: use the header's
    summary = t.check(words, source=str(file))
    if as_json:
        print_json(summary | {"ok": True, "claims_verified": summary["digest"] is not None})
        return
    console.print(
        f"[green]ok[/green] {file}: {summary['solutions']} solutions of {words.name}, {summary['mode']} mode, "
        f"opener {summary['opener'].upper()}{_prior_note(t)}, total {summary['total']}, "
        f"average {summary['average']:.4f}, "
        f"worst {summary['worst']}"
    )
    console.print(f"  guesses: {_dist(summary['distribution'])}")
    if summary["digest"] is None:
        console.print(
            "  [yellow]unverified:[/yellow] the header carries no digest (a file from before digests), so its "
            "mode, max_guesses and proven= claims are not checked against edits"
        )
