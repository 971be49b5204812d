"""What the solver page needs to compute on the device: each word list as a file for the
browser's engine (``static/device/engine.js``), and the service worker at the site's root.

The list file carries, besides the words, the ``c * log2(c)`` and ``log2(n)`` values the Python
ranking adds (``raten.engine.partition``), so that the browser's bits agree with the server's to
the last place whatever its own ``Math.log2`` rounds to (V8's differs from the C library's for a
few dozen integers below 20,000). Under a prior with weights (the frequency prior) it carries
the weight of every solution too, and engine.js ranks by the weighted entropy in the compiled
kernel's order of sums. Its URL carries the lists' fingerprint (and the prior; and the books'
digest, ``list_version``), so a cache keeps it for good and a changed list is a new URL; the
weights follow from the lists and the pinned wordfreq, so the fingerprint names them too.

It carries the shipped opening books of the list too (``device_books``), so that the engine
answers the guarantee of the first two moves as ``/api/hints`` does.
"""

from __future__ import annotations

import hashlib
import json
from types import SimpleNamespace
from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, Response

from raten.engine.alphabet import LATIN
from raten.engine.partition import log2, xlogx
from raten.engine.words import UNIFORM, WordSet
from raten.errors import RatenError
from raten.web.assets import Assets
from raten.web.service import FALLBACK_MAX_RANKED, Lists
from raten.wordlists.presets import default_over
from raten.wordlists.prior import FREQUENCY, MIXTURE, PRIORS, apply_prior, frequency_fits

#: The service worker, among the static files; served as /sw.js, so that its scope is the site.
SERVICE_WORKER = "device/sw.js"
#: The largest table (allowed × solutions, a byte a cell) a browser is asked to build: en's is
#: 30 MB; a list of every allowed word as an answer (en-nyt: 14855², 220 MB) stays on the server.
MAX_DEVICE_CELLS = 64 * 1024 * 1024
_FOREVER = "public, max-age=31536000, immutable"


def list_file(words: WordSet) -> bytes:
    """The list as JSON for engine.js: name, language, version, prior, solutions, allowed (both in
    the engine's order), each solution's weight under a weighted prior, and the numbers its
    entropy adds, for every candidate count it may rank."""
    most = max(len(words.solutions), min(len(words.allowed), FALLBACK_MAX_RANKED))
    body = {
        "name": words.name,
        "language": words.language,
        "version": words.prior_key,
        "prior": words.prior,
        "solutions": list(words.solutions),
        "allowed": list(words.allowed),
        "xlogx": xlogx(most).tolist(),
        "log2": [0.0] + [log2(n) for n in range(1, most + 1)],  # log2(0) is never used
    }
    if words.weights is not None:
        body["weights"] = words.weights.tolist()  # JSON floats round-trip exactly
    books = device_books(words)
    if books:
        body["books"] = books
    return json.dumps(body, separators=(",", ":")).encode()


def _shipped(words: WordSet) -> dict[str, Any]:
    """The shipped ``raten.trees.book.Book`` of each mode the server's hints read for ``words``
    (``/api/hints``' default limit, the list's default coverage, the key checked by
    ``shipped_book``: a book for other lists or another prior is left out, and so is a damaged
    one: the page still works, and ``/api/hints`` names the damage)."""
    from raten.play.safe_hints import guarded_strategy  # the feasibility kernels: loaded when first used
    from raten.trees.book import BookError, shipped_book
    from raten.trees.safety import LIMIT

    out = {}
    for hard in (False, True):
        # the key depends on the lists and the mode only: no state (and no table) is built for it
        over = default_over(words, hard)
        key = guarded_strategy("entropy", LIMIT, over).book_key(SimpleNamespace(words=words, hard=hard))
        try:
            book = shipped_book(words, key)
        except BookError:
            book = None
        if book is not None:
            out["hard" if hard else "normal"] = book
    return out


def device_books(words: WordSet) -> dict:
    """The shipped books of ``words`` for engine.js, by mode (``normal``, ``hard``; see ``_shipped``).
    Compact: a decision is ``[word, safe, over, covered]`` (covered: how many covered words fit
    the rows, the API's ``guarantee.covered``), a verdict ``[word, safe, at_risk]``, the second
    guesses keyed by the opener's pattern code."""
    return {mode: _compact(words, book) for mode, book in _shipped(words).items()}


_VERSIONS: dict[tuple[str, str], str] = {}


def list_version(words: WordSet) -> str:
    """The ``v`` of the list file's URL: the lists' fingerprint, and the digest of the books it
    carries (a book rebuilt for the same lists is a new file, not one cached for good)."""
    key = (words.name, words.prior_key)
    if key not in _VERSIONS:
        digests = [book.to_dict()["digest"] for _, book in sorted(_shipped(words).items())]
        book = hashlib.sha256("".join(digests).encode()).hexdigest()[:12] if digests else ""
        _VERSIONS[key] = f"{words.fingerprint}.{book}" if book else words.fingerprint
    return _VERSIONS[key]


def _compact(words: WordSet, book: Any) -> dict:
    """One ``raten.trees.book.Book`` as ``device_books`` ships it."""
    from raten.engine.matrix import feedback_against
    from raten.trees.safety import covered_set

    opener = book.opener
    codes: dict[str, Any] = {}  # coverage -> the opener's pattern against each covered word

    def fitting(over: str, code: int) -> int:
        # Guarantee.candidates after the opener's row: the covered words that show its pattern
        if over not in codes:
            codes[over] = feedback_against(opener.word, covered_set(words, over).solutions)
        return int((codes[over] == code).sum())

    second = {str(code): [d.word, d.safe, d.over, fitting(d.over, code)] for code, d in sorted(book.second.items())}
    return {
        "limit": book.key.limit,
        "over": book.key.over,
        "opener": [opener.word, opener.safe, opener.over, len(covered_set(words, opener.over).solutions)],
        "openers": [[v["word"], v["safe"], v["at_risk"]] for v in book.openers],
        "second": second,
    }


def on_device(words: WordSet) -> bool:
    """Whether the browser's engine ranks this list as the server does: five letters a-z (the
    engine's tables are built for them; other lengths and letters are ranked on the server), a
    fallback ranked equally likely (a word set that weighs its fallback is ranked on the server)
    and a table of at most ``MAX_DEVICE_CELLS`` (under the weighted priors every allowed word is a
    solution, so only lists of up to about 8,000 words: de and de-ext under their mixture, none of
    the other presets)."""
    if words.length != 5 or words.alphabet != LATIN:
        return False
    if getattr(words, "fallback_weights", None) is not None:
        return False
    return len(words.allowed) * len(words.solutions) <= MAX_DEVICE_CELLS


def _other_priors(words: WordSet) -> list[str]:
    """The priors besides the list's own whose table fits the device: uniform (allowed × the list's
    solutions), and the weighted ones (every allowed word a solution) where the prior is fitted."""
    weighted = frequency_fits(words) and len(words.allowed) ** 2 <= MAX_DEVICE_CELLS
    fits = {
        UNIFORM: len(words.allowed) * len(words.list_solutions) <= MAX_DEVICE_CELLS,
        FREQUENCY: weighted,
        MIXTURE: weighted,
    }
    return [prior for prior in PRIORS if prior != words.prior and fits[prior]]


def _words_url(name: str, words: WordSet, prior: str | None = None) -> str:
    if prior is None:
        return f"/device/words/{name}.json?v={list_version(words)}"
    return f"/device/words/{name}.json?" + urlencode({"prior": prior, "v": words.fingerprint})


def device_config(lists: Lists, name: str, static: Assets) -> dict | None:
    """The URLs the solver page's device part needs (its ``RATEN.device``), for list ``name``;
    None for a list the device does not rank (``on_device``): the page then hides its switch.
    Each carries its content's hash; the worker's also names the engine it imports, so that the
    worker and the page's offline copy ask for the very same engine URL."""
    entry = lists.get(name)
    words = entry.words
    if not on_device(words):
        return None
    engine = static.url("device/engine.js")
    # the list under each other prior too, when its table fits
    priors = {prior: _words_url(name, words, prior) for prior in _other_priors(words)}
    return {
        "words": _words_url(name, words),
        "prior": words.prior,
        "priors": priors,
        "worker": static.url("device/worker.js") + "&" + urlencode({"engine": engine}),
        "engine": engine,
        "sw": f"/sw.js?v={static.digest('device/sw.js')}",
    }


def device_router(static: Assets) -> APIRouter:
    """``GET /device/words/{name}.json`` and ``GET /sw.js`` (outside the API schema: files, not
    calls); ``static`` are the static files, whose service worker is served at the root."""
    files: dict[tuple[str, str], bytes] = {}
    router = APIRouter(include_in_schema=False)

    @router.get("/device/words/{name}.json")
    def device_words(name: str, request: Request) -> Response:
        lists: Lists = request.app.state.lists
        asked = request.query_params.get("prior")
        try:
            words = lists.get(name).words
            if asked not in (None, words.prior) and asked not in _other_priors(words):
                raise RatenError(f"the {name} list is not offered on the device under the prior {asked!r}")
        except RatenError as e:
            return Response(json.dumps({"error": str(e), "code": "not_found"}), 404, media_type="application/json")
        key = (name, asked or words.prior)
        if key not in files:  # under another prior: its weights only, no table is built here
            files[key] = list_file(words if key[1] == words.prior else apply_prior(words, key[1]))
        fresh = request.query_params.get("v") == (list_version(words) if key[1] == words.prior else words.fingerprint)
        headers = {"cache-control": _FOREVER if fresh else "no-cache"}
        return Response(files[key], media_type="application/json", headers=headers)

    @router.get("/sw.js")
    def service_worker() -> FileResponse:
        # no-cache: the browser asks for it anew on each visit and so learns of a new release
        path = static.directory / SERVICE_WORKER
        return FileResponse(path, media_type="text/javascript", headers={"cache-control": "no-cache"})

    return router
