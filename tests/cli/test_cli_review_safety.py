"""`raten review` with the guarantee (issue 23 item 2): a safe column within 80 columns, the
best safe guess under an unsafe one, the JSON's verdicts, and none of it with --guarantee off."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from raten.cli.main import main

GAME = ("sarte", "bevor", "wider", "einer", "eimer", "eifer")


def run(*args: str):
    argv = ["review", "--words", "6mal5", "--answer", "eifer", *args, *GAME]
    result = CliRunner(env={"COLUMNS": "80"}).invoke(main, argv)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result


@pytest.mark.slow
def test_the_table_marks_each_guess_and_names_the_best_safe_one() -> None:
    result = run()
    assert result.exit_code == 0, result.output
    assert max(len(line) for line in result.output.splitlines()) <= 80
    rows = [line for line in result.output.splitlines() if "EIMER" in line or "2 at risk" in line]
    assert any("2 at risk" in line for line in rows), result.output
    assert "ALAAF" in result.output  # the best safe guess below the unsafe one
    assert "safe" in result.output and "instead" in result.output


@pytest.mark.slow
def test_json_carries_each_verdict_and_off_leaves_them_out() -> None:
    on = json.loads(run("--json").stdout)
    assert (on["guarantee"], on["guarantee_over"]) == (6, "all")
    fifth = on["moves"][4]["safety"]
    assert fifth == {"status": "unsafe", "at_risk": 2, "best": "alaaf", "best_safe": True, "over": "all"}
    off = run("--guarantee", "off")
    assert off.exit_code == 0 and "instead" not in off.output and "at risk" not in off.output
    assert json.loads(run("--guarantee", "off", "--json").stdout)["moves"][4]["safety"] is None


def test_a_bad_guarantee_is_a_clean_usage_error() -> None:
    result = run("--guarantee", "seven")
    assert result.exit_code == 2 and "give the guess limit" in result.output
