"""Security headers on every response: a Content-Security-Policy that fits the pages as
they are (no inline scripts or styles; the config is a JSON data block), nosniff, no framing.

The API docs (/docs, /redoc) load FastAPI's viewers from this server (``raten.web.assets``)
with one inline script each; their policy allows those scripts by hash, no other host.
"""

from __future__ import annotations

import base64
import hashlib
import re

from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: The pages' policy: everything from this server, nothing inline, no framing; workers (the
#: solver's engine on the device and the service worker) only from this server too.
PAGE_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; worker-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
_INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.S)


def inline_script_hashes(html: str) -> list[str]:
    """CSP source expressions ('sha256-...') of every inline script of a page."""
    return [
        "'sha256-" + base64.b64encode(hashlib.sha256(body.encode()).digest()).decode() + "'"
        for body in _INLINE_SCRIPT.findall(html)
    ]


def docs_policy(*pages: str) -> str:
    """The policy of the API docs pages (their HTML given): their inline scripts allowed by hash,
    the viewers' inline styles and a worker (ReDoc's search), nothing from another host."""
    hashes = " ".join(dict.fromkeys(h for page in pages for h in inline_script_hashes(page)))
    return (
        f"default-src 'self'; script-src 'self' {hashes}; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; worker-src 'self' blob:; connect-src 'self'; "
        "object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
    )


def security_headers(policy: str) -> list[tuple[bytes, bytes]]:
    """The headers every response carries, with the given Content-Security-Policy."""
    return [
        (b"content-security-policy", policy.encode()),
        (b"x-content-type-options", b"nosniff"),
        (b"x-frame-options", b"DENY"),
        (b"referrer-policy", b"same-origin"),
    ]


class SecurityHeaders:
    """ASGI middleware adding ``security_headers`` to every HTTP response (the docs' policy on
    /docs and /redoc, the pages' everywhere else)."""

    def __init__(self, app: ASGIApp, docs: str, docs_paths: tuple[str, ...] = ("/docs", "/redoc")) -> None:
        self.app = app
        self.pages = security_headers(PAGE_POLICY)
        self.docs = security_headers(docs)
        self.docs_paths = docs_paths

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = self.docs if scope["path"] in self.docs_paths else self.pages

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        await self.app(scope, receive, send_with_headers)
