"""A quick start: what `raten` imports for --help, --version, score and usage errors.

Not timed (timings belong in bench/bench_startup.py): these tests look at which modules a
fresh process has loaded once the command is done, so a heavy import that creeps back into
a module-level import line fails here.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import click
import pytest

from raten.cli.main import LAZY_COMMANDS, main

# Runs the CLI as the `raten` script does, then writes the names in sys.modules to argv[1].
WRAPPER = """
import json, sys
out, sys.argv = sys.argv[1], ["raten", *sys.argv[2:]]
try:
    from raten.cli import main
    main()
except SystemExit as e:
    print("exit", e.code, file=sys.stderr)
finally:
    with open(out, "w") as f:
        json.dump(sorted(sys.modules), f)
"""

# numpy alone takes longer than the whole of `raten --version` should; numba and the
# pattern matrix are for commands that rank.
HEAVY = ("numpy", "numba", "raten.engine.matrix")


def loaded_after(tmp_path: Path, *args: str) -> tuple[set[str], subprocess.CompletedProcess]:
    out = tmp_path / "modules.json"
    proc = subprocess.run([sys.executable, "-c", WRAPPER, str(out), *args], capture_output=True, text=True, timeout=120)
    assert "Traceback" not in proc.stderr, proc.stderr
    return set(json.loads(out.read_text())), proc


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "exit_code"),
    [
        (["--version"], 0),
        (["--help"], 0),
        (["hint", "--help"], 0),
        (["score", "crane", "react", "spiel"], 0),
        (["score", "--json", "crane", "react"], 0),
        (["score", "crane"], 2),  # usage error: no answer
        (["hint", "--top", "many"], 2),  # usage error: not a number
        (["no-such-command"], 2),
    ],
)
def test_light_commands_import_neither_numba_nor_the_matrix(tmp_path, args, exit_code):
    modules, proc = loaded_after(tmp_path, *args)
    assert f"exit {exit_code}" in proc.stderr
    assert [m for m in HEAVY if m in modules] == []


@pytest.mark.slow
def test_score_error_is_clean_and_light(tmp_path):
    modules, proc = loaded_after(tmp_path, "score", "crane", "toolong")
    assert "exit 1" in proc.stderr
    assert "not 5" in proc.stderr
    assert [m for m in HEAVY if m in modules] == []


@pytest.mark.slow
def test_hint_loads_the_engine_but_not_the_rest(tmp_path):
    solutions = tmp_path / "solutions.txt"
    solutions.write_text("crane\nslate\nspiel\ninsel\nreact\n")
    # the guarantee's search loads the compiled kernels (docs/safe-play.md): off, the hint needs none
    args = ("hint", "--solutions", str(solutions), "--guarantee", "off", "slate=..!.!")
    loaded_after(tmp_path, *args)  # builds the matrix (warm cache for the second run)
    modules, proc = loaded_after(tmp_path, *args)
    assert "exit 0" in proc.stderr
    # A warm normal-mode hint splits its small table with numpy: numba is not needed either.
    assert {"raten.engine.matrix", "raten.engine.rank"} <= modules
    unneeded = (*NOT_FOR_A_HINT, "raten.trees", "raten.play", "raten.web", "raten.sql", "rich.progress")
    assert sorted(m for m in modules if m.startswith(unneeded)) == []


# What a warm normal-mode hint must not load: numba (its import and LLVM's start-up take longer
# than the whole hint), and the modules that would load it.
NOT_FOR_A_HINT = ("numba", "llvmlite", "raten.engine.kernels", "raten.engine.hardmode", "raten.engine.lookahead")


@pytest.mark.slow
def test_warm_english_hint_after_a_guess_imports_no_numba(tmp_path):
    """The command of issue 9's start-up target, with a warm matrix cache (the guarantee off: its
    search is compiled)."""
    args = ("hint", "--words", "en", "--guarantee", "off", "crane=..?!.")
    loaded_after(tmp_path, *args)  # builds the matrix (this one may load numba)
    modules, proc = loaded_after(tmp_path, *args)
    assert "exit 0" in proc.stderr
    assert "raten.engine.partition" in modules
    assert sorted(m for m in modules if m.startswith(NOT_FOR_A_HINT)) == []


@pytest.mark.slow
def test_hard_mode_hint_still_loads_its_compiled_rule(tmp_path):
    """The other side of the line: hard mode filters the guesses with the compiled rule."""
    args = ("hint", "--words", "en", "--hard", "crane=..?!.")
    loaded_after(tmp_path, *args)
    modules, proc = loaded_after(tmp_path, *args)
    assert "exit 0" in proc.stderr
    assert {"numba", "raten.engine.hardmode"} <= modules


def test_help_lists_lazy_commands_by_their_own_first_paragraph():
    ctx = click.Context(main)
    for name, (_, paragraph) in LAZY_COMMANDS.items():
        real = main.get_command(ctx, name)
        assert real is not None, name
        assert " ".join(real.help.split("\n\n")[0].split()) == paragraph, name
        stand_in = click.Command(name, help=paragraph)
        for limit in (40, 70, 200):
            assert stand_in.get_short_help_str(limit) == real.get_short_help_str(limit), (name, limit)
