"""Running `raten` in-process for the command-line tests: every run must end without a traceback."""

from __future__ import annotations

import json

from click.testing import CliRunner, Result

from raten.cli.main import main


def run(*args: str, input: str | None = None) -> Result:
    """Run `raten ARGS` in-process; an exception other than the exit is a failure of the test."""
    result = CliRunner().invoke(main, list(args), input=input, catch_exceptions=True)
    assert "Traceback" not in result.output
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"raten {' '.join(args)} raised {result.exception!r}") from result.exception
    return result


def ok_json(*args: str) -> dict:
    """`raten ARGS --json`, ended well, as data."""
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)
