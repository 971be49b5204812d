"""The benchmark chart: the distribution of guesses as grouped bars, one group per strategy.

matplotlib is optional (``pip install raten[plot]``) and imported only here, only when asked.
"""

from __future__ import annotations

from pathlib import Path

from raten.cli.common import check_output
from raten.errors import RatenError, shorten
from raten.extras import require
from raten.play.results import WIN_WITHIN, BenchResult

FORMATS = (".png", ".svg")


def check_plot_path(path: str | Path) -> Path:
    """Refuse a plot path that is not .png or .svg or cannot be written (see ``check_output``), and
    a plot without matplotlib (the plot extra): before the games."""
    out = Path(path)
    if out.suffix.lower() not in FORMATS:
        raise RatenError(f"plot file {shorten(str(out), 80)!r} must end in .png or .svg")
    check_output(out, "plot file")
    require("plot", "--plot")
    return out


def plot_results(results: list[BenchResult], path: str | Path, title: str | None = None) -> Path:
    """Write a bar chart of each result's distribution (1..6 guesses, failed) to a PNG or SVG file."""
    out = check_plot_path(path)
    if not results:
        raise RatenError("nothing to plot")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    buckets = [str(n) for n in range(1, WIN_WITHIN + 1)] + ["failed"]
    width = 0.8 / len(buckets)
    fig, ax = plt.subplots(figsize=(max(6.0, 1.6 * len(results) + 3), 4.5))
    cmap = plt.get_cmap("viridis")
    for b, bucket in enumerate(buckets):
        colour = "#c0392b" if bucket == "failed" else cmap(b / (len(buckets) - 1))
        xs = [i + (b - (len(buckets) - 1) / 2) * width for i in range(len(results))]
        heights = [r.distribution[bucket] for r in results]
        ax.bar(xs, heights, width=width, color=colour, label=_label(bucket))
    ax.set_xticks(range(len(results)))
    ax.set_xticklabels([f"{r.strategy}\n{r.opener.upper()} · avg {r.average:.3f}" for r in results], fontsize=8)
    ax.set_ylabel("games")
    first = results[0]
    mode = ", hard mode" if first.hard else ""
    ax.set_title(title or f"guesses per game: {first.words}, {first.games} games{mode}")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0), title="guesses", title_fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    try:
        fig.savefig(out)
    except OSError as e:
        raise RatenError(f"cannot write the plot {str(out)!r}: {e.strerror}") from None
    finally:
        plt.close(fig)
    return out


def _label(bucket: str) -> str:
    if bucket == "failed":
        return f"failed (over {WIN_WITHIN})"
    return bucket


def plot_boards(results: list[BenchResult], path: str | Path) -> Path:
    """Write the many-board distribution (guesses per game, failed) as grouped bars, one group per strategy."""
    out = Path(path)
    if out.suffix.lower() not in FORMATS:
        raise RatenError(f"plot file {str(out)!r} must end in .png or .svg")
    require("plot", "--plot")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    keys = [*sorted({k for r in results for k in r.distribution if k != "failed"}, key=int), "failed"]
    width = 0.8 / len(results)
    fig, ax = plt.subplots(figsize=(max(6.0, 0.6 * len(keys) + 3), 4.5))
    for i, r in enumerate(results):
        xs = [k + (i - (len(results) - 1) / 2) * width for k in range(len(keys))]
        label = f"{r.strategy} ({100 * r.win_rate:.1f}% won, avg {r.average:.3f})"
        ax.bar(xs, [r.distribution.get(k, 0) for k in keys], width=width, label=label)
    ax.set_xticks(range(len(keys)))
    ax.set_xticklabels(keys)
    ax.set_xlabel("guesses")
    ax.set_ylabel("games")
    first = results[0]
    v = first.variant
    ax.set_title(f"{v.name} ({first.boards} boards, {first.limit} guesses): {first.words}, {first.games} games")
    ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(out)
    except OSError as e:
        raise RatenError(f"cannot write the plot {str(out)!r}: {e.strerror}") from None
    finally:
        plt.close(fig)
    return out
