"""The documentation tells the truth: docs/cli.md is today's ``--help``, and the README's
examples run and print what the README shows."""

from __future__ import annotations

import ast
import doctest
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from raten.cli.main import main
from raten.cli.reference import reference

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
CLI_MD = REPO / "docs" / "cli.md"


# --- docs/cli.md ----------------------------------------------------------------------------------


def test_cli_reference_is_up_to_date():
    assert CLI_MD.read_text(encoding="utf-8") == reference(), (
        "docs/cli.md is stale: run `make docs` (python -m raten.cli.reference docs/cli.md)"
    )


def test_cli_reference_has_every_command_including_the_lazy_ones():
    text = reference()
    for path in ("raten", "raten hint", "raten tree", "raten tree check", "raten sql query", "raten serve"):
        assert f"## `{path}`\n" in text


def test_cli_reference_does_not_depend_on_the_terminal_or_what_ran_before(monkeypatch):
    monkeypatch.setenv("COLUMNS", "40")
    narrow = reference()
    monkeypatch.setenv("COLUMNS", "200")
    CliRunner().invoke(main, ["--help"])  # click caches each command's help option on first use
    CliRunner().invoke(main, ["tree", "check", "-h"])
    assert reference() == narrow


# --- README ---------------------------------------------------------------------------------------


def _blocks(text: str, lang: str) -> list[str]:
    return re.findall(rf"^```{lang}\n(.*?)^```", text, flags=re.M | re.S)


def _claim(comment: str) -> str | None:
    """What a ``# comment`` after an expression says its value looks like, or None when it is
    prose: a comment that starts like a Python value (quote, bracket, digit), up to the first
    ``, `` outside brackets and quotes ("98, the 0..242 code" claims 98). ``...`` matches anything."""
    if not comment or comment[0] not in "'\"[({-0123456789":
        return None
    depth, quote = 0, None
    for i, ch in enumerate(comment):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif depth == 0 and comment.startswith(", ", i):
            return comment[:i]
    return comment


def _comment_after(line: str) -> str:
    """The comment of a source line (a ``#`` outside any string literal)."""
    quote = None
    for i, ch in enumerate(line):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#":
            return line[i + 1 :].strip()
    return ""


def run_python_block(code: str) -> list[tuple[str, str, str]]:
    """Run ``code`` statement by statement; return (source, claim, repr) for each expression
    whose comment claims a value."""
    checked = []
    namespace: dict = {}
    lines = code.splitlines()
    for node in ast.parse(code).body:
        source = ast.get_source_segment(code, node) or ""
        if isinstance(node, ast.Expr):
            value = eval(compile(ast.Expression(node.value), "<README>", "eval"), namespace)
            claim = _claim(_comment_after(lines[node.end_lineno - 1]))
            if claim is not None:
                checked.append((source, claim, repr(value)))
        else:
            exec(compile(ast.Module([node], []), "<README>", "exec"), namespace)
    return checked


def test_the_claim_parser():
    assert _claim("'?.?!!'") == "'?.?!!'"
    assert _claim("98, the 0..242 code (first letter most significant)") == "98"
    assert _claim("[(3.3414..., 'tousy', False), ...]") == "[(3.3414..., 'tousy', False), ...]"
    assert _claim("the 20 answers left") is None
    assert _comment_after("f('#', 1)  # 2") == "2"


def test_a_wrong_claim_is_caught():
    [(_, claim, got)] = run_python_block("1 + 1  # 3\nx = 5  # 3\n'a'  # prose")
    assert not doctest.OutputChecker().check_output(claim, got, doctest.ELLIPSIS)


def test_readme_python_examples_run_and_show_their_values():
    blocks = _blocks(README.read_text(encoding="utf-8"), "python")
    assert blocks, "the README has no ```python block"
    checker = doctest.OutputChecker()
    checked = [c for block in blocks for c in run_python_block(block)]
    assert len(checked) >= 3
    wrong = [(src, claim, got) for src, claim, got in checked if not checker.check_output(claim, got, doctest.ELLIPSIS)]
    assert wrong == []


def _console_examples(text: str) -> list[tuple[str, str]]:
    """``$ raten ...`` lines of ```console blocks with the output shown under them."""
    out = []
    for block in _blocks(text, "console"):
        for chunk in re.split(r"^(?=\$ )", block, flags=re.M):
            command, _, output = chunk.partition("\n")
            if command.startswith("$ raten ") and output.strip():
                out.append((command[2:], output))
    return out


@pytest.mark.parametrize("command, shown", _console_examples(README.read_text(encoding="utf-8")))
def test_readme_console_examples_print_what_they_show(command, shown):
    env = {**os.environ, "COLUMNS": "80", "NO_COLOR": "1", "TERM": "dumb"}
    args = [sys.executable, "-m", "raten", *command.split()[1:]]
    done = subprocess.run(args, capture_output=True, text=True, env=env, timeout=120, check=False)
    assert done.returncode == 0, done.stderr

    def lines(s: str) -> list[str]:
        return [line.rstrip() for line in s.strip("\n").splitlines()]

    assert lines(done.stdout) == lines(shown)


def test_readme_has_console_examples():
    assert _console_examples(README.read_text(encoding="utf-8"))
