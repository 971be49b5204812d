"""The documentation tells the truth: docs/cli.md is today's ``--help``, every command of the
README runs (and prints what the README shows), no page points to lists users do not have, and
the docs site builds with ``mkdocs build --strict``."""

from __future__ import annotations

import ast
import doctest
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

from raten.cli.main import main
from raten.cli.reference import reference
from raten.wordlists.presets import load_words

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
CLI_MD = REPO / "docs" / "cli.md"
DOCS = sorted((REPO / "docs").glob("*.md"))
README_TEXT = README.read_text(encoding="utf-8")


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


ENV = {**os.environ, "COLUMNS": "80", "NO_COLOR": "1", "TERM": "dumb"}


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory) -> Path:
    """Where the README's commands run: a fresh folder, as a user's would be, with the committed
    trees (``src/raten/data/trees/``) and the placeholder files the README names (``answers.txt``
    and ``allowed.txt``, a German game's lists: here ``de``'s own)."""
    home = tmp_path_factory.mktemp("readme")
    trees = Path("src", "raten", "data", "trees")
    (home / trees.parent).mkdir(parents=True)
    (home / trees).symlink_to(REPO / trees)
    de = load_words("de")
    (home / "answers.txt").write_text("\n".join(de.solutions) + "\n", encoding="utf-8")
    (home / "allowed.txt").write_text("\n".join(de.allowed) + "\n", encoding="utf-8")
    return home


def _raten(command: str, cwd: Path) -> subprocess.CompletedProcess:
    """Run a ``raten ...`` command line as a user would (no input on stdin: an interactive
    command meets the end of input at once)."""
    args = [sys.executable, "-m", "raten", *command.split()[1:]]
    return subprocess.run(
        args, capture_output=True, text=True, env=ENV, cwd=cwd, stdin=subprocess.DEVNULL, timeout=600, check=False
    )


def _slow(command: str) -> bool:
    """Commands of more than a few seconds: en-nyt's 220 MB table, a server start, a proof, and
    (about 2 CPU seconds each) de's openers and the weighted priors' 6281 x 6281 table."""
    return (
        "en-nyt" in command
        or "--prior frequency" in command
        or command.startswith(
            ("raten serve", "raten tree --words", "raten openers --words de", "raten hint --words de")
        )
    )


def _params(items, command_of):
    return [
        pytest.param(*item, id=command_of(item)[:60], marks=[pytest.mark.slow] if _slow(command_of(item)) else [])
        for item in items
    ]


@pytest.mark.parametrize("command, shown", _params(_console_examples(README_TEXT), lambda item: item[0]))
def test_readme_console_examples_print_what_they_show(command, shown, sandbox):
    done = _raten(command, sandbox)
    assert done.returncode == 0, done.stderr

    def lines(s: str) -> list[str]:
        return [line.rstrip() for line in s.strip("\n").splitlines()]

    assert lines(done.stdout) == lines(shown)


def test_readme_has_console_examples():
    assert _console_examples(README.read_text(encoding="utf-8"))


# --- every README command is run ------------------------------------------------------------------

# Commands of the README that this file does not run, and why. Everything else must be run here.
EXEMPT = {
    "make run": "installs and starts the web app until stopped; the serve commands below start the same app",
    "make test": "is the whole suite, this file included",
    "raten tree --words de --prior uniform --best --jobs 2 --out best.txt": (
        "the proof over all 6,281 openers takes a quarter of an hour; tests/trees run --best on small lists"
    ),
}


def _commands(block: str, lang: str) -> list[str]:
    """The command lines of one ```sh or ```console block: a trailing backslash joins the next
    line, a ``#`` comment is dropped; in a console block only ``$ `` lines are commands."""
    out, pending = [], ""
    for raw in block.splitlines():
        if lang == "console" and not pending:
            if not raw.startswith("$ "):
                continue
            raw = raw[2:]
        line = pending + raw
        if line.endswith("\\"):
            pending = line[:-1]
            continue
        pending = ""
        line = re.sub(r"\s+#\s.*$", "", line).strip()
        if line and not line.startswith("#"):
            out.append(" ".join(line.split()))
    return out


def _readme_blocks(text: str) -> list[tuple[str, list[str]]]:
    return [(lang, _commands(block, lang)) for lang in ("sh", "console") for block in _blocks(text, lang)]


def test_the_command_parser():
    assert _commands("raten a   # say\n# only a comment\nraten b \\\n    --c d\n", "sh") == ["raten a", "raten b --c d"]
    assert _commands("$ raten x\noutput # not a comment\n$ raten y\n", "console") == ["raten x", "raten y"]


def test_every_readme_command_is_run_or_exempt_with_a_reason():
    shown = {command for command, _ in _console_examples(README_TEXT)}
    blocks = _readme_blocks(README_TEXT)
    assert blocks
    for _lang, commands in blocks:
        for command in commands:
            assert command in EXEMPT or command.startswith("raten "), f"nothing runs {command!r}: run it or exempt it"
    ran = {c for _, commands in blocks for c in commands if c.startswith("raten ")}
    assert shown <= ran
    assert set(EXEMPT) <= {c for _, commands in blocks for c in commands}, "an exemption for a command no longer there"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve(command: str, cwd: Path, tmp: Path) -> list[str]:
    """Start ``raten serve ...`` as written, on a free port with a temporary database; return the
    names of the lists it offers once it answers, then stop it (the process this test started)."""
    port = _free_port()
    args = [sys.executable, "-m", "raten", *command.split()[1:], "--port", str(port)]
    args += ["--db", str(tmp / "games.sqlite3")]
    log = tmp / "serve.log"
    with log.open("w") as out, subprocess.Popen(args, cwd=cwd, env=ENV, stdout=out, stderr=subprocess.STDOUT) as server:
        try:
            deadline = time.monotonic() + 300
            while time.monotonic() < deadline:
                assert server.poll() is None, log.read_text()[-2000:]
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/lists", timeout=5) as answer:
                        return [entry["name"] for entry in json.load(answer)["lists"]]
                except OSError:
                    time.sleep(0.5)
            raise AssertionError(f"{command} did not answer within 300 s: {log.read_text()[-2000:]}")
        finally:
            server.terminate()
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()


_SH_BLOCKS = [(commands,) for lang, commands in _readme_blocks(README_TEXT) if lang == "sh"]


@pytest.mark.parametrize(
    "commands",
    _params([c for c in _SH_BLOCKS if any(x.startswith("raten ") for x in c[0])], lambda item: item[0][0]),
)
def test_readme_sh_blocks_run(commands, sandbox, tmp_path):
    """Each ```sh block's raten commands, in order (a later line may read what an earlier one
    wrote), in the sandbox; ``raten serve`` starts, answers and stops."""
    for command in commands:
        if command in EXEMPT or not command.startswith("raten "):
            continue
        if command.startswith("raten serve"):
            names = _serve(command, sandbox, tmp_path)
            for spec in re.findall(r"--lists (\S+)", command):
                assert names[: len(spec.split(","))] == spec.split(","), names
            for name in re.findall(r"--list (\w+)=", command):
                assert name in names, names
            continue
        done = _raten(command, sandbox)
        assert done.returncode == 0, f"{command}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"


# --- the README as a user's guide, and the docs site ------------------------------------------------


def test_the_readme_starts_with_the_two_commands_and_stays_short():
    assert README_TEXT.startswith("# raten\n\n```sh\nmake run ")
    assert README_TEXT.splitlines()[4].startswith("make test ")
    assert len(README_TEXT.splitlines()) <= 200


def test_no_page_points_to_reference_lists_that_users_do_not_have():
    """Users have no ../shared: a figure measured on such a list names it in words, and its
    command takes a file (``--play 6mal5-answers.txt``)."""
    for path in [README, *DOCS]:
        text = path.read_text(encoding="utf-8")
        assert "../shared" not in text and "/work/" not in text, path.name


def _github_anchor(heading: str) -> str:
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_the_readme_links_resolve():
    anchors = {_github_anchor(h) for h in re.findall(r"^#+ (.*)$", README_TEXT, flags=re.M)}
    links = re.findall(r"\]\(([^)\s]+)\)", README_TEXT)
    assert links
    for link in links:
        if link.startswith(("http://", "https://")):
            continue
        target, _, anchor = link.partition("#")
        if target:
            assert (REPO / target).exists(), link
        else:
            assert anchor in anchors, link


@pytest.mark.slow
def test_the_docs_site_builds_with_strict(tmp_path):
    """mkdocs.yml's nav holds every page, and no link or anchor between the pages is broken
    (``strict``). Slow for ``make check``, which builds the site itself (`make site`) anyway."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "--quiet",
            "--config-file",
            str(REPO / "mkdocs.yml"),
            "--site-dir",
            str(tmp_path / "site"),
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "site" / "index.html").exists()
    assert (tmp_path / "site" / "cli" / "index.html").exists()
