"""Static files with content-hashed URLs (immutable for a year) and the API docs from local files
(issue 12 item 10): hashes computed here from the files, headers read from real answers. The page
scripts are ES modules: each is served with its imports versioned, and every page preloads the
modules its own imports."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from urllib.parse import urljoin

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient

from raten.web import create_app
from raten.web.assets import IMMUTABLE, Assets, docs_assets_dir
from raten.web.service import Lists

STATIC = Path(__file__).resolve().parents[2] / "src" / "raten" / "web" / "static"
PAGES = ["/", "/play", "/openers", "/nowhere"]


@pytest.fixture(scope="module")
def client(en_words, tmp_path_factory):
    app = create_app(lists=Lists.load({"en": en_words}), db_path=tmp_path_factory.mktemp("a") / "db", daily_secret="t")
    with TestClient(app) as c:
        yield c


def local_urls(html: str) -> list[str]:
    return re.findall(r'(?:src|href)="(/static/[^"]+)"', html)


def imports(module: str) -> list[str]:
    """The relative specifiers a module's static imports name (``./config.js?v=...``)."""
    return re.findall(r"""^(?:import|export)\b[^"';]*?["'](\.\.?/[^"']+)["']""", module, re.M)


@pytest.mark.slow
def test_the_pages_link_every_static_file_by_its_content_hash(client):
    seen = set()
    for path in PAGES:
        linked = local_urls(client.get(path, headers={"accept": "text/html"}).text)
        for url in linked:
            name, _, version = url.removeprefix("/static/").partition("?v=")
            served = client.get(url).content
            assert version == hashlib.sha256(served).hexdigest()[:12], url
            # the file as it is, but for the versions its imports carry; each of them preloaded
            assert re.sub(rb"\?v=\w+", b"", served) == (STATIC / name).read_bytes(), url
            for spec in imports(served.decode()) if name.endswith(".js") else []:
                assert "?v=" in spec and urljoin(url, spec) in linked, (url, spec)
            seen.add(name)
    modules = {p.relative_to(STATIC).as_posix() for p in STATIC.glob("*.js")}
    assert modules | {"raten.css", "favicon.svg", "device/client.js"} <= seen  # no module left unused


def test_a_page_loads_one_module_and_preloads_what_it_imports(client):
    for path, entry in [
        ("/solver", "solver.js"),
        ("/solver?boards=4", "solver.js"),
        ("/play", "play.js"),
        ("/play?boards=2", "play.js"),
        ("/openers", "openers.js"),
        ("/nowhere", "common.js"),
    ]:
        html = client.get(path, headers={"accept": "text/html"}).text
        scripts = re.findall(r"<script([^>]*)>", html)
        classic = [a for a in scripts if "type=" not in a]
        assert [re.search(r"/static/([\w./-]+)\?", a)[1] for a in classic] == ["theme.js"], (
            path
        )  # before the first paint
        modules = [re.search(r'src="/static/([\w./-]+)\?', a)[1] for a in scripts if 'type="module"' in a]
        assert modules == [entry], path
        assert "common.js" in html and "config.js" in html


def test_a_module_url_changes_with_what_it_imports(tmp_path):
    (tmp_path / "lib").mkdir()
    (tmp_path / "a.js").write_text('import { b } from "./b.js";\nexport { c } from "./lib/c.js";\nb();\n')
    (tmp_path / "b.js").write_text('import "./lib/c.js";\nexport function b() {}\n')
    (tmp_path / "lib" / "c.js").write_text("export const c = 1;\n")
    assets = Assets(tmp_path, "/static")
    a, b, c = (assets.url(n) for n in ("a.js", "b.js", "lib/c.js"))
    assert a.imports == (b, c) and b.imports == (c,) and c.imports == ()
    body = assets.served("a.js").body.decode()
    assert (
        f'from "./b.js?v={assets.digest("b.js")}";' in body
        and f'from "./lib/c.js?v={assets.digest("lib/c.js")}";' in body
    )
    (tmp_path / "lib" / "c.js").write_text("export const c = 2;\n")
    assert all(assets.url(n) != old for n, old in [("a.js", a), ("b.js", b), ("lib/c.js", c)])
    (tmp_path / "lib" / "c.js").write_text('import "../a.js";\n')
    with pytest.raises(ValueError, match="circle"):
        assets.url("a.js")
    (tmp_path / "lib" / "c.js").write_text('import "./gone.js";\n')
    with pytest.raises(FileNotFoundError, match=r"gone\.js"):
        assets.url("a.js")


def test_a_served_module_is_immutable_under_its_hash_and_revalidated_by_its_etag(client):
    url = next(u for u in local_urls(client.get("/").text) if "/solver.js?" in u)
    first = client.get(url)
    assert first.status_code == 200 and first.headers["cache-control"] == IMMUTABLE
    assert first.headers["content-type"].startswith("text/javascript")
    again = client.get("/static/solver.js", headers={"if-none-match": first.headers["etag"]})
    assert again.status_code == 304 and again.headers["cache-control"] == "no-cache"


def test_a_hashed_url_is_immutable_and_any_other_is_revalidated(client):
    url = next(u for u in local_urls(client.get("/").text) if "raten.css" in u)
    first = client.get(url)
    assert first.status_code == 200 and first.headers["cache-control"] == "public, max-age=31536000, immutable"
    again = client.get(url, headers={"if-none-match": first.headers["etag"]})
    assert again.status_code == 304 and again.headers["cache-control"] == IMMUTABLE
    for other in ["/static/raten.css", "/static/raten.css?v=0123456789ab", "/static/raten.css?v="]:
        r = client.get(other)
        assert r.status_code == 200 and r.headers["cache-control"] == "no-cache", other
    assert client.get("/static/missing.css?v=x").status_code == 404


def test_a_changed_file_gets_a_new_hash(tmp_path):
    (tmp_path / "a.css").write_text("a {}")
    assets = Assets(tmp_path, "/static")
    before = assets.url("a.css")
    (tmp_path / "a.css").write_text("a { color: red }")
    after = assets.url("a.css")
    assert before != after and after.endswith(hashlib.sha256(b"a { color: red }").hexdigest()[:12])
    assert assets.digest("../" + tmp_path.name + "/a.css") is not None  # inside, by another way
    assert assets.digest("../outside.css") is None and assets.digest("nothing.css") is None
    with pytest.raises(FileNotFoundError):
        assets.url("nothing.css")


@pytest.mark.parametrize("path", ["/docs", "/redoc"])
def test_the_api_docs_load_nothing_from_another_host(client, path):
    r = client.get(path)
    assert r.status_code == 200
    assert not re.search(r'(?:src|href)="(?:https?:)?//', r.text), "a viewer file from another host"
    csp = r.headers["content-security-policy"]
    assert "http" not in csp and "cdn" not in csp
    urls = [u for u in local_urls(r.text) if u.startswith("/static/docs/")]
    assert urls
    for url in urls:
        name, _, version = url.removeprefix("/static/docs/").partition("?v=")
        assert version == hashlib.sha256((docs_assets_dir() / name).read_bytes()).hexdigest()[:12]
        answer = client.get(url)
        assert answer.status_code == 200 and answer.headers["cache-control"] == IMMUTABLE
