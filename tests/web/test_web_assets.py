"""Static files with content-hashed URLs (immutable for a year) and the API docs from local files
(issue 12 item 10): hashes computed here from the files, headers read from real answers."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

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


def test_the_pages_link_every_static_file_by_its_content_hash(client):
    seen = set()
    for path in PAGES:
        for url in local_urls(client.get(path, headers={"accept": "text/html"}).text):
            name, _, version = url.removeprefix("/static/").partition("?v=")
            assert version == hashlib.sha256((STATIC / name).read_bytes()).hexdigest()[:12], url
            seen.add(name)
    assert {"raten.css", "theme.js", "common.js", "settings.js", "play.js", "solver.js", "openers.js"} <= seen


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
