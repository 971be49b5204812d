"""raten as users install it (issue 27 item 16): the wheel ships what the program reads at run
time (the proven trees and opener tables), and a command whose extra is missing names it."""

from __future__ import annotations

import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from raten.cli import main
from raten.errors import RatenError
from raten.extras import EXTRAS, require
from raten.trees import values

REPO = Path(__file__).resolve().parents[1]
TREES = REPO / "src" / "raten" / "data" / "trees"
#: The oldest setuptools that reads pyproject.toml's SPDX licence and license-files (PEP 639).
SETUPTOOLS = (77,)


def _setuptools() -> tuple[int, ...]:
    try:
        return tuple(int(p) for p in importlib.metadata.version("setuptools").split(".")[:2])
    except (importlib.metadata.PackageNotFoundError, ValueError):
        return (0,)


def test_the_trees_are_package_data_read_from_the_package() -> None:
    assert Path(values.__file__).resolve().parents[1] / "data" / "trees" == TREES
    if "RATEN_TREES" not in os.environ:
        assert values.TREES_DIR == TREES
    assert not (REPO / "trees").exists(), "one copy of the trees: src/raten/data/trees"
    names = sorted(p.name for p in TREES.iterdir())
    for name in ("en", "de", "6mal5"):
        for mode in ("normal", "hard"):
            assert f"{name}-{mode}.txt" in names and f"{name}-{mode}-openers.tsv" in names


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The wheel ``pip wheel`` builds from a copy of the repository (offline: no build isolation,
    no index), unzipped: what ``pip install`` would put in site-packages."""
    if _setuptools() < SETUPTOOLS:
        pytest.skip("building the wheel offline needs setuptools >= 77 (`make install` installs it)")
    tmp = tmp_path_factory.mktemp("wheel")
    repo = tmp / "repo"
    repo.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE", "NOTICE"):
        shutil.copy2(REPO / name, repo / name)
    shutil.copytree(REPO / "src", repo / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    out = tmp / "dist"
    build = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q"]
    done = subprocess.run([*build, "-w", str(out), str(repo)], capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    (wheel,) = out.glob("raten-*.whl")
    site = tmp / "site"
    with zipfile.ZipFile(wheel) as z:
        z.extractall(site)
    return site


def _installed_env(site: Path) -> dict[str, str]:
    """The environment of a process that runs the unzipped wheel alone: the repository's src not on
    the path, and no coverage measurement (the suite's coverage is of src/raten; measuring the
    wheel's copy would add a second, mostly unrun copy of every file to the report)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTHONPATH", "RATEN_TREES") and not k.startswith(("COV_CORE_", "COVERAGE_"))
    }
    return {**env, "PYTHONPATH": str(site)}


def _installed(site: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    """``python -m raten ARGS`` from the unzipped wheel alone: the repository's src is not on the path."""
    env = _installed_env(site)
    return subprocess.run(
        [sys.executable, "-m", "raten", *args], capture_output=True, text=True, env=env, cwd=cwd, timeout=600
    )


@pytest.mark.slow
def test_the_wheel_ships_every_file_the_values_read(site) -> None:
    shipped = site / "raten" / "data" / "trees"
    assert sorted(p.name for p in shipped.iterdir()) == sorted(p.name for p in TREES.iterdir())
    for path in TREES.iterdir():
        assert (shipped / path.name).read_bytes() == path.read_bytes()
    assert (site / "raten" / "data" / "de" / "solutions.txt").is_file()
    own = REPO / "src" / "raten" / "data" / "6mal5"
    for name in ("solutions.txt", "allowed.txt", "NOTICE"):
        assert (site / "raten" / "data" / "6mal5" / name).read_bytes() == (own / name).read_bytes(), name
    (info,) = site.glob("raten-*.dist-info")
    assert any(p.read_bytes() == (own / "NOTICE").read_bytes() for p in info.rglob("NOTICE")), "6mal5's licence"


@pytest.mark.slow
def test_the_wheel_ships_the_store_migrations(site) -> None:
    """The schema's SQL files, one per version and engine, as the store reads them at start."""
    own = REPO / "src" / "raten" / "web" / "store" / "migrations"
    files = sorted(p.relative_to(own) for p in own.rglob("*.sql"))
    assert {p.parts[0] for p in files} == {"sqlite", "postgresql"}
    for rel in files:
        assert (site / "raten" / "web" / "store" / "migrations" / rel).read_bytes() == (own / rel).read_bytes(), rel


@pytest.mark.slow
def test_the_installed_6mal5_preset_reads_its_lists_from_the_package(site, tmp_path) -> None:
    """A user has no ../shared: the installed preset and its proven trees come from the wheel alone."""
    hint = _installed(site, "hint", "--words", "6mal5", "--tree", "6mal5-normal", "--json", "sarte=...?!", cwd=tmp_path)
    assert hint.returncode == 0, hint.stderr
    out = json.loads(hint.stdout)
    assert out["candidates"] == 8 and out["tree_guess"] == "litho"


@pytest.mark.slow
def test_the_installed_review_gives_salet_its_exact_value(site, tmp_path) -> None:
    where = _installed(site, "--version", cwd=tmp_path)
    assert where.returncode == 0, where.stderr
    code = "import raten, raten.trees.values as v; print(raten.__file__); print(v.TREES_DIR)"
    found = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=_installed_env(site), cwd=tmp_path
    )
    module, trees = found.stdout.split()
    assert Path(module).is_relative_to(site) and Path(trees) == site / "raten" / "data" / "trees"
    done = _installed(site, "review", "--words", "en", "salet", "courd", "--answer", "whiff", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    first = json.loads(done.stdout)["moves"][0]
    assert first["guess"] == "salet" and first["q_exact"] is True and first["rank_by"] == "exact"
    assert first["q"] == pytest.approx(7920 / 2315)  # Selby's total for SALET over the 2315 answers
    hint = _installed(site, "hint", "--words", "en", "--json", "crane=..?!.", cwd=tmp_path)
    assert hint.returncode == 0 and json.loads(hint.stdout)["candidates"] == 20
    check = _installed(site, "tree", "check", str(site / "raten" / "data" / "trees" / "de-normal.txt"), cwd=tmp_path)
    assert check.returncode == 0 and "opener TARNE, total 3330" in " ".join(check.stdout.split()), check.stderr


@pytest.mark.parametrize(
    ("module", "args", "extra"),
    [
        ("uvicorn", ["serve"], "web"),
        ("fastapi", ["serve"], "web"),
        ("duckdb", ["sql", "build", "--engine", "duckdb", "--db", "{tmp}/x.duckdb"], "sql"),
        ("matplotlib", ["bench", "--plot", "{tmp}/x.png"], "plot"),
    ],
)
def test_a_command_whose_extra_is_missing_names_it(monkeypatch, tmp_path, module, args, extra) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # as if it were not installed
    result = CliRunner().invoke(main, [a.format(tmp=tmp_path) for a in args])
    assert result.exit_code == 1, result.output
    assert f"needs the {extra} extra ({module} not installed): pip install 'raten[{extra}]'" in result.output
    assert "Traceback" not in result.output and not list(tmp_path.iterdir())


def test_require_names_every_missing_module_of_the_extra(monkeypatch) -> None:
    assert set(EXTRAS) == {"web", "sql", "plot", "cluster"}
    for name in EXTRAS["cluster"]:
        monkeypatch.setitem(sys.modules, name, None)
    with pytest.raises(RatenError) as caught:
        require("cluster", "--scheduler")
    assert caught.value.key == "missing_extra"
    assert caught.value.params == {"extra": "cluster", "missing": ["dask", "distributed"]}
    assert str(caught.value) == (
        "--scheduler needs the cluster extra (dask, distributed not installed): pip install 'raten[cluster]'"
    )
