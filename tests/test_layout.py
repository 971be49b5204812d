"""The layout's rules, read from the source with ``ast`` (nothing is imported):

- ``raten/engine/`` imports nothing from raten outside ``raten.engine`` and ``raten.errors``;
- nothing outside ``raten/cli/`` imports click or rich;
- no import cycles between raten modules;
- ``raten/sql/`` and ``raten/web/`` do not import the ``raten`` facade (``raten._version`` is fine).

Every import counts, wherever it is written: at module level, inside a function (a lazy
import, there for start-up time) or in a ``try``. A lazy import still makes one module depend
on another, so it can break a layer rule or close a cycle as well as a top-level one; the only
difference is that a lazy cycle does not fail at import time, which is why only a test finds
it. Imports under ``if TYPE_CHECKING:`` never run: the layer rules leave them out, but the
cycle rule counts them, since a circle of type imports still ties two modules into one (as
``wordlists/german/build.py`` and ``notice.py`` once were).

An import names one module: ``from a.b import c`` is an import of ``a.b.c`` when that is a
module, else of ``a.b``; parent packages that Python runs on the way are not counted (every
module would otherwise depend on ``raten/__init__.py``).

Each rule is checked against a small synthetic tree in ``tmp_path`` too, so each can fail.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"


@dataclass(frozen=True)
class Import:
    source: str  # the importing module, e.g. raten.engine.rank
    target: str  # the imported module, e.g. raten.engine.lookahead, or a third-party name
    line: int
    lazy: bool  # inside a function
    type_only: bool = False  # under ``if TYPE_CHECKING:``

    def __str__(self) -> str:
        notes = (" (in a function)" if self.lazy else "") + (" (for types)" if self.type_only else "")
        return f"{self.source}:{self.line} imports {self.target}{notes}"


def module_names(src: Path, package: str = "raten") -> dict[str, Path]:
    """Every module of ``package`` under ``src``: dotted name to file (packages by ``__init__``)."""
    out = {}
    for path in sorted((src / package).rglob("*.py")):
        parts = list(path.relative_to(src).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _is_type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING"
    )


def imports(src: Path, package: str = "raten", type_checking: bool = False) -> list[Import]:
    """Every import in every module of ``package``, resolved to module names (with
    ``type_checking``, those under ``if TYPE_CHECKING:`` too)."""
    modules = module_names(src, package)
    found: list[Import] = []

    def resolve(name: str, is_package: bool, node: ast.ImportFrom) -> str:
        if not node.level:
            return node.module or ""
        base = name.split(".") if is_package else name.split(".")[:-1]
        base = base[: len(base) - (node.level - 1)]
        return ".".join(base + ([node.module] if node.module else []))

    for name, path in modules.items():
        is_package = path.name == "__init__.py"

        def visit(nodes: Iterable[ast.AST], lazy: bool, type_only: bool, name=name, is_package=is_package) -> None:
            for child in nodes:
                if isinstance(child, ast.If) and _is_type_checking(child):
                    visit(child.orelse, lazy, type_only)
                    if type_checking:
                        visit(child.body, lazy, True)
                    continue
                inner = lazy or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
                if isinstance(child, ast.Import):
                    for alias in child.names:
                        found.append(Import(name, alias.name, child.lineno, lazy, type_only))
                elif isinstance(child, ast.ImportFrom):
                    base = resolve(name, is_package, child)
                    for alias in child.names:
                        sub = f"{base}.{alias.name}"
                        found.append(Import(name, sub if sub in modules else base, child.lineno, lazy, type_only))
                visit(ast.iter_child_nodes(child), inner, type_only)

        visit(ast.parse(path.read_text(encoding="utf-8"), str(path)).body, False, False)
    return found


def _inside(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


# --- the rules: each returns the imports (or cycles) that break it -------------------------------


def engine_reaches_out(found: list[Import]) -> list[Import]:
    return [
        i
        for i in found
        if _inside(i.source, "raten.engine")
        and _inside(i.target, "raten")
        and not (_inside(i.target, "raten.engine") or i.target == "raten.errors")
    ]


def ui_outside_cli(found: list[Import]) -> list[Import]:
    return [
        i
        for i in found
        if not _inside(i.source, "raten.cli") and any(_inside(i.target, lib) for lib in ("click", "rich"))
    ]


def faces_use_facade(found: list[Import]) -> list[Import]:
    faces = ("raten.sql", "raten.web")
    return [i for i in found if any(_inside(i.source, face) for face in faces) and i.target == "raten"]


def cycles(found: list[Import]) -> list[list[str]]:
    """The strongly connected components (more than one module, or a module importing itself)."""
    graph: dict[str, set[str]] = {}
    for i in found:
        if _inside(i.target, "raten"):
            graph.setdefault(i.source, set()).add(i.target)
            graph.setdefault(i.target, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def connect(v: str) -> None:  # Tarjan
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1 or v in graph[v]:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return out


def _explain(comp: list[str], found: list[Import]) -> str:
    members = set(comp)
    edges = [str(i) for i in found if i.source in members and i.target in members]
    return " | ".join(sorted(set(edges)))


# --- the rules on the real source -----------------------------------------------------------------


@pytest.fixture(scope="module")
def real() -> list[Import]:
    found = imports(SRC)
    assert len({i.source for i in found}) > 30, "the parser found too few modules: is SRC right?"
    return found


@pytest.mark.slow
def test_engine_imports_only_engine_and_errors(real):
    assert [str(i) for i in engine_reaches_out(real)] == []


def test_only_cli_imports_click_or_rich(real):
    assert [str(i) for i in ui_outside_cli(real)] == []


@pytest.mark.slow
def test_no_import_cycles(real):
    assert [_explain(c, real) for c in cycles(real)] == []
    with_types = imports(SRC, type_checking=True)
    assert [_explain(c, with_types) for c in cycles(with_types)] == []


def test_sql_and_web_do_not_import_the_facade(real):
    assert [str(i) for i in faces_use_facade(real)] == []


# --- each rule can fail ---------------------------------------------------------------------------


def _tree(tmp_path: Path, files: dict[str, str]) -> list[Import]:
    for rel, text in files.items():
        path = tmp_path / "raten" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return imports(tmp_path)


SYNTHETIC = {
    "__init__.py": "from raten.engine.state import State\n",
    "errors.py": "",
    "_version.py": "",
    "engine/__init__.py": "",
    "engine/state.py": (
        "from typing import TYPE_CHECKING\n"
        "from raten.errors import RatenError\n"
        "from . import rank\n"
        "if TYPE_CHECKING:\n"
        "    from raten.play.game import Game\n"  # never runs: not counted
    ),
    "engine/rank.py": "def f():\n    from raten.wordlists import presets\n",  # lazy, still counted
    "wordlists/__init__.py": "",
    "wordlists/presets.py": "import raten.engine.rank\n",
    "play/__init__.py": "",
    "play/game.py": "import rich.console\n",
    "cli/__init__.py": "import click\nfrom rich.table import Table\n",
    "web/__init__.py": "from raten import _version\n",
    "web/api.py": "from raten import State\n",
    "sql/__init__.py": "def f():\n    import raten\n",
}


def test_the_parser_resolves_relative_lazy_and_type_checking_imports(tmp_path):
    found = _tree(tmp_path, SYNTHETIC)
    edges = {(i.source, i.target, i.lazy) for i in found}
    assert ("raten.engine.state", "raten.engine.rank", False) in edges  # from . import rank
    assert ("raten.engine.rank", "raten.wordlists.presets", True) in edges
    assert ("raten.web", "raten._version", False) in edges
    assert ("raten.web.api", "raten", False) in edges
    assert not any(i.target == "raten.play.game" for i in found)


def test_engine_rule_can_fail(tmp_path):
    bad = engine_reaches_out(_tree(tmp_path, SYNTHETIC))
    assert [(i.source, i.target) for i in bad] == [("raten.engine.rank", "raten.wordlists.presets")]


def test_click_rich_rule_can_fail(tmp_path):
    bad = ui_outside_cli(_tree(tmp_path, SYNTHETIC))
    assert [(i.source, i.target) for i in bad] == [("raten.play.game", "rich.console")]


def test_cycle_rule_can_fail(tmp_path):
    found = _tree(tmp_path, SYNTHETIC)
    assert cycles(found) == [["raten.engine.rank", "raten.wordlists.presets"]]
    assert "(in a function)" in _explain(cycles(found)[0], found)
    fixed = {**SYNTHETIC, "engine/rank.py": ""}
    assert cycles(_tree(tmp_path, fixed)) == []


def test_cycle_rule_counts_type_checking_imports(tmp_path):
    """engine/state.py imports play/game.py for types only: with an import back, a cycle."""
    files = {**SYNTHETIC, "engine/rank.py": "", "play/game.py": "from raten.engine.state import State\n"}
    assert cycles(_tree(tmp_path, files)) == []
    found = imports(tmp_path, type_checking=True)
    assert cycles(found) == [["raten.engine.state", "raten.play.game"]]
    assert "(for types)" in _explain(cycles(found)[0], found)


def test_facade_rule_can_fail(tmp_path):
    bad = faces_use_facade(_tree(tmp_path, SYNTHETIC))
    assert sorted((i.source, i.target, i.lazy) for i in bad) == [
        ("raten.sql", "raten", True),
        ("raten.web.api", "raten", False),
    ]
