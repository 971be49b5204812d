"""docs/cli.md from ``--help``: ``python -m raten.cli.reference [OUT]`` (``make docs``).

Walks the click tree from ``raten``, lazily loaded subcommands included (``RatenGroup`` loads
them through ``get_command``), at a fixed width so the text does not depend on the terminal.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import click

from raten.cli.main import main

WIDTH = 100
HEADER = """# Command-line reference

Generated from `--help` by `python -m raten.cli.reference docs/cli.md` (`make docs`); do not edit.
A test fails when this file is stale.
"""


def _walk(cmd: click.Command, ctx: click.Context) -> Iterator[tuple[str, str]]:
    yield ctx.command_path, cmd.get_help(ctx)
    if isinstance(cmd, click.Group):
        for name in cmd.list_commands(ctx):
            sub = cmd.get_command(ctx, name)
            if sub is not None and not sub.hidden:
                yield from _walk(sub, sub.make_context(name, [], parent=ctx, resilient_parsing=True))


def reference() -> str:
    """The whole reference as Markdown: one section per command, its help in a text block."""
    # make_context, not Context(): it applies each command's context_settings (-h as well as --help)
    ctx = main.make_context("raten", [], resilient_parsing=True, terminal_width=WIDTH, max_content_width=WIDTH)
    parts = [HEADER]
    for path, text in _walk(main, ctx):
        parts.append(f"## `{path}`\n\n```text\n{text.rstrip()}\n```\n")
    return "\n".join(parts)


if __name__ == "__main__":
    text = reference()
    if len(sys.argv) > 1:
        Path(sys.argv[1]).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
