"""raten as users install it (issue 27 item 16): the wheel ships what the program reads at run
time (the proven trees and opener tables), and a command whose extra is missing names it."""

from __future__ import annotations

import contextlib
import importlib.metadata
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
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
def wheel(tmp_path_factory) -> Path:
    """The wheel ``pip wheel`` builds from a copy of the repository (offline: no build isolation, no index)."""
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
    (built,) = out.glob("raten-*.whl")
    return built


@pytest.fixture(scope="module")
def site(wheel, tmp_path_factory) -> Path:
    """The wheel unzipped: what ``pip install`` would put in site-packages."""
    site = tmp_path_factory.mktemp("site")
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
    assert check.returncode == 0 and "opener TARNE, total 3335" in " ".join(check.stdout.split()), check.stderr


def _requirements(dist: str, extras: tuple[str, ...] = (), seen: set[str] | None = None) -> set[str]:
    """The installed distributions ``dist`` needs with these extras, itself left out (by name)."""
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    seen = set() if seen is None else seen
    for line in importlib.metadata.requires(dist) or []:
        req = Requirement(line)
        wanted = any(req.marker is None or req.marker.evaluate({"extra": e}) for e in (*extras, ""))
        name = canonicalize_name(req.name)
        if wanted and name not in seen and name != canonicalize_name(dist):
            seen.add(name)
            _requirements(req.name, tuple(req.extras), seen)
    return seen


def _site_of(dists: set[str], dest: Path) -> Path:
    """A folder holding only these distributions (links to this environment's files): the
    dependencies pip would install, and nothing else (no extra's packages, no raten)."""
    dest.mkdir()
    for name in dists:
        dist = importlib.metadata.distribution(name)
        root = Path(str(dist.locate_file("")))
        for top in {f.parts[0] for f in dist.files or [] if f.parts[0] != ".."}:
            if (root / top).exists() and not (dest / top).exists():
                (dest / top).symlink_to(root / top)
    return dest


@pytest.fixture(scope="module")
def venv(wheel, tmp_path_factory) -> tuple[Path, Path]:
    """A fresh virtual environment with the wheel installed by pip, as a user gets it, and only
    raten's own dependencies beside it (this environment's copies, so nothing is downloaded);
    with the folder of the web extra's packages, which a process may add to its path."""
    pytest.importorskip("packaging")
    tmp = tmp_path_factory.mktemp("venv")
    env = tmp / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True, timeout=120)
    (purelib,) = (env / "lib").glob("python3*/site-packages")
    core = _requirements("raten")
    (purelib / "raten-deps.pth").write_text(f"{_site_of(core, tmp / 'core')}\n", encoding="utf-8")
    web = _site_of(_requirements("raten", ("web",)) - core, tmp / "web")
    install = [sys.executable, "-m", "pip", "--python", str(env / "bin" / "python"), "install", "-q"]
    done = subprocess.run(
        [*install, "--no-deps", "--no-index", str(wheel)], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return env, web


def _raten(venv: tuple[Path, Path], *args: str, cwd: Path, web: bool = False) -> subprocess.CompletedProcess:
    """The installed ``raten`` script, from a folder that is not the repository."""
    env = _installed_env(venv[1]) if web else {k: v for k, v in _installed_env(venv[1]).items() if k != "PYTHONPATH"}
    return subprocess.run(
        [str(venv[0] / "bin" / "raten"), *args], capture_output=True, text=True, env=env, cwd=cwd, timeout=600
    )


@pytest.mark.slow
def test_the_pip_installed_wheel_answers_from_its_own_files(venv, tmp_path) -> None:
    """``pip install`` of the wheel into a fresh environment: the script runs raten from there
    (not from the repository), with SALET's exact value, a hint and the shipped tree's check."""
    py = venv[0] / "bin" / "python"
    code = "import raten, raten.trees.values as v; print(raten.__file__); print(v.TREES_DIR)"
    found = subprocess.run(
        [str(py), "-c", code], capture_output=True, text=True, env=_installed_env(venv[1]), cwd=tmp_path
    )
    module, trees = (Path(p) for p in found.stdout.split())
    assert module.is_relative_to(venv[0]) and trees.is_relative_to(venv[0]) and trees.name == "trees", found.stderr
    done = _raten(venv, "review", "--words", "en", "salet", "courd", "--answer", "whiff", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    first = json.loads(done.stdout)["moves"][0]
    assert first["q_exact"] is True and first["q"] == pytest.approx(7920 / 2315)
    hint = _raten(venv, "hint", "--words", "de", "--json", "tarne=..?!.", cwd=tmp_path)
    assert hint.returncode == 0 and json.loads(hint.stdout)["candidates"] > 0, hint.stderr
    check = _raten(venv, "tree", "check", str(trees / "en-normal.txt"), cwd=tmp_path)
    assert check.returncode == 0 and "total 7920" in " ".join(check.stdout.split()), check.stdout + check.stderr


@pytest.mark.slow
def test_the_pip_installed_wheel_names_the_missing_web_extra_then_serves_with_it(venv, tmp_path) -> None:
    """Without the web extra ``raten serve`` says what to install (it ended in a traceback); with
    its packages on the path the installed server answers the API."""
    bare = _raten(venv, "serve", "--port", "0", "--db", str(tmp_path / "x.sqlite3"), cwd=tmp_path)
    assert bare.returncode == 1 and "Traceback" not in bare.stderr, bare.stderr
    assert "needs the web extra" in bare.stderr and "pip install 'raten[web]'" in bare.stderr
    import httpx

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    args = [str(venv[0] / "bin" / "raten"), "serve", "--port", str(port), "--db", str(tmp_path / "x.sqlite3")]
    log = tmp_path / "serve.log"
    with (
        log.open("w") as err,
        subprocess.Popen([*args, "--lists", "en"], env=_installed_env(venv[1]), cwd=tmp_path, stderr=err) as proc,
    ):
        deadline = time.monotonic() + 600  # a bound on a hang, not a wait: the first start compiles the kernels
        try:
            while True:  # until it answers or ends: a condition, not a time
                assert proc.poll() is None, log.read_text()[-3000:]
                assert time.monotonic() < deadline, "raten serve did not answer: " + log.read_text()[-3000:]
                try:
                    lists = httpx.get(f"http://127.0.0.1:{port}/api/lists", timeout=5)
                    break
                except httpx.TransportError:
                    time.sleep(0.1)
            assert lists.status_code == 200 and '"en"' in lists.text
        finally:
            children = _descendants(proc.pid)
            proc.terminate()
            proc.wait(timeout=120)
            for pid in children:  # its rank worker outlives SIGTERM (a flaw of raten.web's): not left behind
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)


def _descendants(pid: int) -> list[int]:
    """The processes below ``pid`` (Linux's /proc; none elsewhere)."""
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return []
    return [p for c in children for p in (int(c), *_descendants(int(c)))]


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
