"""`raten serve --list NAME=SOLUTIONS_FILE:ALLOWED_FILE`: specs, errors, and the lists served."""

from __future__ import annotations

import os
import random
import string
import warnings
from pathlib import Path

import pytest
from click.testing import CliRunner

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx2
    from fastapi.testclient import TestClient

from raten.cli.main import main
from raten.engine.words import WordSet
from raten.errors import RatenError
from raten.web import create_app
from raten.web.service import Lists
from raten.wordlists.files import MAX_FILE_BYTES
from raten.wordlists.presets import MAX_LIST_WORDS, ListSpec, load_list_spec, load_words, parse_list_spec

SOLUTIONS = [
    "cigar",
    "rebut",
    "sissy",
    "humph",
    "awake",
    "blush",
    "focal",
    "evade",
    "naval",
    "serve",
    "heath",
    "dwarf",
    "model",
    "karma",
    "stink",
    "grade",
    "quiet",
    "bench",
    "abate",
    "feign",
    "major",
    "death",
    "fresh",
    "crust",
    "stool",
    "colon",
    "abase",
    "marry",
    "react",
    "batty",
    "pride",
    "floss",
]
ALLOWED = [
    "raise",
    "slate",
    "tares",
    "crane",
    "adieu",
    "audio",
    "lions",
    "pious",
    "rusty",
    "month",
    "vapid",
    "fjord",
    "glyph",
    "nymph",
    "soare",
    "roate",
]


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> tuple[Path, Path]:
    d = tmp_path_factory.mktemp("mylist")
    (d / "sol.txt").write_text("\n".join(SOLUTIONS) + "\n")
    (d / "all.txt").write_text("\n".join(ALLOWED) + "\n")
    return d / "sol.txt", d / "all.txt"


def test_parse_list_spec() -> None:
    assert parse_list_spec("Mine=s.txt:a.txt") == ListSpec("mine", Path("s.txt"), Path("a.txt"), "en")
    assert parse_list_spec("spiel=s.txt:a.txt:DE") == ListSpec("spiel", Path("s.txt"), Path("a.txt"), "de")
    assert parse_list_spec("only=s.txt:") == ListSpec("only", Path("s.txt"), None, "en")
    spec = ListSpec("x", Path("/a/s.txt"), None, "de")
    assert parse_list_spec(str(spec)) == spec  # the form worker processes get


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("mine", "--list takes NAME=SOLUTIONS_FILE:ALLOWED_FILE"),
        ("mine=", "--list takes NAME=SOLUTIONS_FILE:ALLOWED_FILE"),
        ("mine=s.txt", "--list takes NAME=SOLUTIONS_FILE:ALLOWED_FILE"),
        ("mine=:a.txt", "--list takes NAME=SOLUTIONS_FILE:ALLOWED_FILE"),
        ("mine=s:a:de:x", "--list takes NAME=SOLUTIONS_FILE:ALLOWED_FILE"),
        ("en=s.txt:a.txt", "'en' is a built-in list"),
        ("my list=s.txt:a.txt", "must be 1 to 40 characters"),
        (f"{'x' * 41}=s.txt:a.txt", "must be 1 to 40 characters"),
        ("mine=s.txt:a.txt:xx", "language 'xx' is not one of en, de, de-umlaut, fr, es, it, nl, pt"),
    ],
)
def test_bad_specs_say_what_is_wrong(spec, message) -> None:
    with pytest.raises(RatenError, match=message.replace("[", r"\[")):
        parse_list_spec(spec)


def test_bad_files_name_the_list_and_the_file(tmp_path, files) -> None:
    with pytest.raises(RatenError, match=r"list mine: word list '.*nope.txt' does not exist"):
        load_list_spec(f"mine={tmp_path / 'nope.txt'}:{files[1]}")
    bad = tmp_path / "bad.txt"
    bad.write_text("cigar\ntoolong\n")
    with pytest.raises(RatenError, match="toolong"):
        load_list_spec(f"mine={bad}:")


def test_serve_offers_the_extra_lists(tmp_path, files, monkeypatch) -> None:
    import uvicorn

    from raten.cli import serve as serve_module

    seen: dict = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: seen.update(options, app=app))
    monkeypatch.setattr(serve_module, "_wait_for_rank_workers", lambda _app: None)
    monkeypatch.chdir(files[0].parent)
    args = ["serve", "--db", str(tmp_path / "ok.sqlite3"), "--lists", "en"]
    result = CliRunner().invoke(main, [*args, "--list", "mine=sol.txt:all.txt", "--list", "spiel=sol.txt::de"])
    assert result.exit_code == 0, result.output
    lists = seen["app"].state.lists
    assert list(lists.entries) == ["en", "mine", "spiel"]
    assert lists.entries["mine"].words.solutions == tuple(sorted(SOLUTIONS))
    assert len(lists.entries["mine"].words.allowed) == len(set(SOLUTIONS) | set(ALLOWED))
    assert lists.entries["spiel"].language == "de" and lists.entries["spiel"].words.allowed == tuple(sorted(SOLUTIONS))
    # worker processes load the same lists from absolute paths, whatever their directory
    assert lists.specs[1] == f"mine={files[0]}:{files[1]}:en"
    monkeypatch.chdir(tmp_path)
    again = Lists.load(lists.specs)
    assert {n: e.words.allowed for n, e in again.entries.items()} == {
        n: e.words.allowed for n, e in lists.entries.items()
    }


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--list", "mine"], "--list takes NAME=SOLUTIONS_FILE:ALLOWED_FILE"),
        (["--list", "mine=nope.txt:"], "list mine: word list"),
        (["--list", "a=sol.txt:", "--list", "A=sol.txt:"], "--list names 'a' twice"),
    ],
)
def test_serve_refuses_bad_lists_in_one_line(tmp_path, files, monkeypatch, extra, message) -> None:
    import uvicorn

    monkeypatch.setattr(uvicorn, "run", lambda *_a, **_k: pytest.fail("served"))
    monkeypatch.chdir(files[0].parent)
    result = CliRunner().invoke(main, ["serve", "--db", str(tmp_path / "x.sqlite3"), "--lists", "en", *extra])
    assert result.exit_code != 0
    assert message in result.output and "Traceback" not in result.output


@pytest.mark.slow
def test_the_solver_the_game_and_the_openers_page_offer_them(tmp_path, files, en_words) -> None:
    lists = Lists.load({"en": en_words}, extra=[f"mine={files[0]}:{files[1]}"])
    app = create_app(lists=lists, db_path=tmp_path / "raten.sqlite3", daily_secret="t")
    with TestClient(app) as c:
        offered = c.get("/api/lists").json()
        assert "mine" in str(offered)
        hints = c.post("/api/hints", json={"list": "mine", "top": 3}).json()
        assert len(hints["hints"]) == 3
        assert all(h["word"] in set(SOLUTIONS) | set(ALLOWED) for h in hints["hints"])
        openers = c.get("/api/openers", params={"list": "mine", "top": 5}).json()
        assert openers["list"] == "mine" and len(openers["openers"]) == 5
        game = c.post("/api/games", json={"list": "mine", "mode": "practice"})
        assert game.status_code == 200, game.text
        assert game.json()["list"] == "mine"
        for page in ("/", "/play", "/openers"):
            html = c.get(page, params={"list": "mine"})
            assert html.status_code == 200 and '"mine"' in html.text, page
    with pytest.raises(RatenError, match="named twice"):
        Lists.load({"mine": en_words}, extra=[f"mine={files[0]}:"])


@pytest.mark.parametrize("seed", range(40))
@pytest.mark.slow
def test_a_tiny_list_starts_even_when_all_grey_after_the_top_opener_fits_nothing(seed) -> None:
    # the warm-up row used to be all grey, which 3 solutions and 2 other words often cannot give
    en = load_words("en")
    rng = random.Random(seed)
    words = WordSet.from_lists(rng.sample(en.solutions, 3), rng.sample(en.allowed, 2), name=f"tiny{seed}")
    entry = Lists.load({words.name: words}).get(words.name)
    assert entry.openers and entry.openers[0].word in words.allowed


@pytest.mark.slow
def test_api_lists_names_own_lists_never_their_paths(tmp_path, files) -> None:
    """``/api/lists`` tells players a list's name and sizes; the host's folders are not theirs."""
    words = {"tiny": WordSet.from_lists(SOLUTIONS[:5], ALLOWED[:3], name="tiny")}
    lists = Lists.load(words, extra=[f"mine={files[0]}:{files[1]}"])
    app = create_app(lists=lists, db_path=tmp_path / "raten.sqlite3", daily_secret="t")
    with TestClient(app) as c:
        body = c.get("/api/lists").json()
        page = c.get("/", params={"list": "mine"}).text
    offered = {e["name"]: e for e in body["lists"]}
    mine = offered["mine"]
    assert mine["description"] == f"own word lists ({len(SOLUTIONS)} solutions, {mine['allowed']} allowed)"
    assert str(files[0].parent) not in str(body) and str(files[0].parent) not in page
    assert "sol.txt" not in str(body)


def _load_within(spec: str, seconds: float = 20.0) -> BaseException | None:
    """``load_list_spec(spec)`` on a thread: the error it raised, or a failure if it hangs."""
    import threading

    caught: list[BaseException] = []

    def load() -> None:
        try:
            load_list_spec(spec)
        except BaseException as e:  # handed to the test
            caught.append(e)

    thread = threading.Thread(target=load, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"reading {spec} hangs"
    return caught[0] if caught else None


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_fifo_is_refused_at_once_not_waited_for(tmp_path) -> None:
    fifo = tmp_path / "words.fifo"
    os.mkfifo(fifo)
    error = _load_within(f"mine={fifo}:")
    assert isinstance(error, RatenError) and "is not a regular file" in str(error)


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_an_endless_device_is_refused() -> None:
    error = _load_within("mine=/dev/zero:")
    assert isinstance(error, RatenError) and "is not a regular file" in str(error)


def test_a_huge_file_is_refused_by_its_size(tmp_path) -> None:
    big = tmp_path / "huge.txt"
    big.write_text("cigar\n" * (MAX_FILE_BYTES // 6 + 1))  # one byte more than a word file may have
    error = _load_within(f"mine={big}:")
    assert isinstance(error, RatenError) and f"larger than {MAX_FILE_BYTES // 1024} KiB" in str(error)


def test_a_list_of_too_many_words_is_refused() -> None:
    import itertools
    import tempfile

    words = ["".join(w) for w in itertools.islice(itertools.product("abcdefghij", repeat=5), MAX_LIST_WORDS + 1)]
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "many.txt"
        path.write_text("\n".join(words))
        assert path.stat().st_size <= MAX_FILE_BYTES
        error = _load_within(f"mine={path}:")
    assert isinstance(error, RatenError) and f"more than the {MAX_LIST_WORDS}" in str(error)


@pytest.mark.parametrize("kind", ["fifo", "zero", "million"])
@pytest.mark.slow
def test_serve_refuses_unreadable_list_files_in_one_line(tmp_path, monkeypatch, kind) -> None:
    """`raten serve --list` on a FIFO, /dev/zero or 10^6 words: one line, a non-zero exit, no traceback."""
    import uvicorn

    if kind == "fifo":
        if not hasattr(os, "mkfifo"):
            pytest.skip("FIFOs are POSIX")
        path = tmp_path / "words.fifo"
        os.mkfifo(path)
    elif kind == "zero":
        path = Path("/dev/zero")
        if not path.exists():
            pytest.skip("no /dev/zero")
    else:
        import itertools

        path = tmp_path / "million.txt"  # 10^6 different words: 6 MB, far more than a list may have
        path.write_text(
            "".join(
                "".join(w) + "\n"
                for w in itertools.islice(itertools.product(string.ascii_lowercase, repeat=5), 1_000_000)
            )
        )
    monkeypatch.setattr(uvicorn, "run", lambda *_a, **_k: pytest.fail("served"))
    words = tmp_path / "few.txt"
    words.write_text("\n".join(SOLUTIONS))
    args = ["serve", "--db", str(tmp_path / "x.sqlite3"), "--lists", "6mal5", "--list", f"mine={words}:{path}"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code != 0
    assert "list mine:" in result.output and "Traceback" not in result.output, result.output


def test_a_list_of_a_language_keeps_its_letters(tmp_path: Path) -> None:
    """:de-umlaut reads the files with Ä, Ö, Ü as letters (:de writes them as two), :es keeps Ñ."""
    (tmp_path / "s.txt").write_text("Bären\nSöhne\n", encoding="utf-8")
    kept = load_list_spec(f"mine={tmp_path / 's.txt'}::de-umlaut")
    assert kept.solutions == ("bären", "söhne") and kept.language == "de" and kept.length == 5
    folded = load_list_spec(f"mine={tmp_path / 's.txt'}::de")
    assert folded.solutions == ("baeren", "soehne") and folded.length == 6
    (tmp_path / "e.txt").write_text("Niños\nCañón\n", encoding="utf-8")
    assert load_list_spec(f"mio={tmp_path / 'e.txt'}::es").solutions == ("cañon", "niños")
