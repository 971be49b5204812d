"""numba's cache folder (raten.engine.jitcache): named by a digest of every kernel source, so a
caller compiled against an older callee in another file is never loaded again."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from raten.engine import jitcache

PACKAGE = Path(jitcache.__file__).resolve().parents[1]  # the raten folder (KERNEL_SOURCES are relative to it)


def compiling_modules(package: Path) -> set[str]:
    """Files with an ``@njit`` function, and the raten modules they import at the top (the
    constants and compiled callees a compiled function carries), read with ``ast``."""
    out: set[str] = set()
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text())
        decorated = any(
            getattr(d.func if isinstance(d, ast.Call) else d, "id", None) == "njit"
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef)
            for d in node.decorator_list
        )
        if not decorated:
            continue
        out.add(path.relative_to(package).as_posix())
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("raten."):
                target = node.module.removeprefix("raten.").replace(".", "/")
                if target != "engine/jitcache":
                    out.add(f"{target}.py" if (package / f"{target}.py").exists() else f"{target}/__init__.py")
    return out


@pytest.mark.slow
def test_the_digest_covers_every_file_that_compiles_and_what_it_imports():
    assert set(jitcache.KERNEL_SOURCES) == compiling_modules(PACKAGE)


def test_every_cached_kernel_is_kept_in_the_digest_folder():
    from raten.engine import hardmode, kernels, lookahead
    from raten.trees import kernels as tree_kernels
    from raten.trees import memo, scan

    folder = jitcache.cache_folder()
    assert folder.name == f"kernels-{jitcache.kernel_digest()}"
    assert os.environ["NUMBA_CACHE_DIR"] == str(folder)
    seen = 0
    for module in (hardmode, kernels, lookahead, tree_kernels, memo, scan):
        for name, value in vars(module).items():
            cache = getattr(value, "_cache", None)
            if getattr(value, "__module__", None) != module.__name__ or cache is None:
                continue
            if type(cache).__name__ == "FunctionCache":
                assert Path(cache.cache_path).is_relative_to(folder), f"{module.__name__}.{name}: {cache.cache_path}"
                seen += 1
    assert seen >= 20  # every compiled function of the five files asks for a cache


def copy_sources(to: Path) -> Path:
    for name in jitcache.KERNEL_SOURCES:
        (to / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(PACKAGE / name, to / name)
    return to


def test_any_change_to_any_kernel_source_moves_the_folder(tmp_path):
    copy = copy_sources(tmp_path / "raten")
    assert jitcache.kernel_digest(copy) == jitcache.kernel_digest()
    seen = {jitcache.kernel_digest()}
    for name in jitcache.KERNEL_SOURCES:
        path = copy / name
        before = path.read_bytes()
        path.write_bytes(before + b"\n")  # one blank line: numba's own key would not see it in a callee
        seen.add(jitcache.kernel_digest(copy))
        path.write_bytes(before)
    assert len(seen) == len(jitcache.KERNEL_SOURCES) + 1


def test_the_folder_honours_the_users_numba_cache_dir_and_is_inherited_unchanged(monkeypatch, tmp_path):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    mine = jitcache.cache_folder()
    assert mine == tmp_path / f"kernels-{jitcache.kernel_digest()}"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(mine))  # what a subprocess inherits
    assert jitcache.cache_folder() == mine
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "kernels-0123456789abcdef"))  # an older package's
    assert jitcache.cache_folder() == mine


SAVE_ONE = """
import sys
from raten.engine import jitcache
from numba.core.caching import IndexDataCacheFile
cache = IndexDataCacheFile(sys.argv[1], "f-1", (0.0, 0))
print("ready", flush=True)
cache.save(("sig",), {"code": 1})
"""


def _blocked_on_a_lock(pid: int) -> bool:
    """Whether process ``pid`` waits for a lock another holds (Linux's /proc/locks lists the
    waiter as ``N: -> FLOCK  ADVISORY  WRITE <pid> ...``)."""
    for line in Path("/proc/locks").read_text().splitlines():
        parts = line.split()
        if len(parts) > 5 and parts[1] == "->" and parts[5] == str(pid):
            return True
    return False


@pytest.mark.slow
def test_a_save_waits_while_another_process_holds_the_cache_entry(tmp_path):
    """numba's index-then-data write is one step for other processes: a save waits for the lock
    (without it the child writes its index within milliseconds of saying it is ready). The test
    waits for a condition, never a time: the child blocked on the lock, or (the bug) its index
    written or the child gone."""
    import fcntl
    import time

    if not Path("/proc/locks").exists():
        pytest.skip("no /proc/locks to see the child wait on the lock")
    index = tmp_path / "f-1.nbi"
    with open(str(index) + ".lock", "ab") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        child = subprocess.Popen([sys.executable, "-c", SAVE_ONE, str(tmp_path)], stdout=subprocess.PIPE, text=True)
        assert child.stdout is not None and child.stdout.readline() == "ready\n"
        deadline = time.monotonic() + 120  # generous: the loop ends as soon as one of these holds
        while not (_blocked_on_a_lock(child.pid) or index.exists() or child.poll() is not None):
            assert time.monotonic() < deadline, "the child neither waited on the lock nor saved"
            time.sleep(0.01)
        assert _blocked_on_a_lock(child.pid)
        assert not index.exists() and child.poll() is None
    assert child.wait(timeout=120) == 0
    assert index.exists() and (tmp_path / "f-1.1.nbc").exists()


CALLEE = "from numba import njit\n\n@njit(cache=True)\ndef f(x):\n    return x + {step}\n"
CALLER = "from numba import njit\nfrom callee import f\n\n@njit(cache=True)\ndef g(x):\n    return f(x) * 10\n"


def run_caller(where: Path, folder: Path) -> int:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(folder), "PYTHONPATH": str(where)}
    code = "from caller import g; print(g(1))"
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=where, capture_output=True, text=True, check=True)
    return int(out.stdout)


@pytest.mark.slow
def test_a_callee_changed_in_another_file_is_not_served_from_the_old_cache(tmp_path):
    """numba alone serves the caller compiled with the old callee (the control, so the test can
    fail); a folder named by the digest of both files compiles it anew."""
    src = tmp_path / "src"
    src.mkdir()
    sources = ("callee.py", "caller.py")
    (src / "caller.py").write_text(CALLER)
    (src / "callee.py").write_text(CALLEE.format(step=1))
    first = tmp_path / "cache" / f"kernels-{jitcache.kernel_digest(src, sources)}"
    assert run_caller(src, first) == 20
    (src / "callee.py").write_text(CALLEE.format(step=2))
    assert run_caller(src, first) == 20  # stale: numba keys g by caller.py alone
    second = tmp_path / "cache" / f"kernels-{jitcache.kernel_digest(src, sources)}"
    assert second != first
    assert run_caller(src, second) == 30


@pytest.mark.slow
def test_no_cached_kernel_has_a_default_argument() -> None:
    """numba loads a cached specialisation whose default was left out (an ``Omitted`` type) and
    then crashes (numba issue 4959; ``trees.kernels.solve`` segfaulted so on a warm cache):
    every ``@njit(cache=True)`` function takes all its arguments, so no caller can omit one."""
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.FunctionDef) or not (node.args.defaults or node.args.kw_defaults):
                continue
            if any(
                getattr(d.func if isinstance(d, ast.Call) else d, "id", None) == "njit" for d in node.decorator_list
            ):
                offenders.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {node.name}")
    assert offenders == []


#: Compiles one small raten kernel (``engine.kernels``' feedback table) and one function of its own.
COMPILE_ONE = """
import numpy as np
from numba import njit
from raten.engine import kernels

@njit(cache=False)
def own(x):
    return x + 1

own(1)  # not raten's: no notice
kernels.feedback_matrix(np.zeros((2, 5), dtype=np.uint8), np.zeros((3, 5), dtype=np.uint8))
kernels.feedback_matrix(np.zeros((1, 5), dtype=np.uint8), np.zeros((1, 5), dtype=np.uint8))
print("done")
"""


@pytest.mark.slow
def test_a_compile_is_said_once_on_stderr_and_a_cached_kernel_loads_silently(tmp_path):
    """Issue 27 item 13: the first compile of a raten kernel says so on stderr, once; the next
    process finds it in the cache and says nothing."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    runs = [
        subprocess.run([sys.executable, "-c", COMPILE_ONE], env=env, capture_output=True, text=True, check=True)
        for _ in range(2)
    ]
    assert [r.stdout for r in runs] == ["done\n", "done\n"]
    assert runs[0].stderr == jitcache.COMPILE_NOTICE + "\n"
    assert runs[1].stderr == ""
