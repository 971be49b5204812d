"""Security headers on every response: a Content-Security-Policy that fits the pages as
they are (no inline scripts or styles; the config is a JSON data block), nosniff, no framing.

The API docs (/docs, /redoc) load FastAPI's viewers from a CDN with one inline script each;
their policy allows that CDN and those scripts by hash, nothing else.
"""

from __future__ import annotations

import base64
import hashlib
import re

from fastapi import FastAPI
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: The pages' policy: everything from this server, nothing inline, no framing; workers (the
#: solver's engine on the device and the service worker) only from this server too.
PAGE_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; worker-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
_CDN = "https://cdn.jsdelivr.net"
_INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.S)


def inline_script_hashes(html: str) -> list[str]:
    """CSP source expressions ('sha256-...') of every inline script of a page."""
    return [
        "'sha256-" + base64.b64encode(hashlib.sha256(body.encode()).digest()).decode() + "'"
        for body in _INLINE_SCRIPT.findall(html)
    ]


def docs_policy(app: FastAPI) -> str:
    """The policy of FastAPI's API docs pages, their inline scripts allowed by hash."""
    swagger = get_swagger_ui_html(
        openapi_url=app.openapi_url or "/openapi.json",
        title=f"{app.title} - Swagger UI",
        oauth2_redirect_url=app.swagger_ui_oauth2_redirect_url,
        init_oauth=app.swagger_ui_init_oauth,
        swagger_ui_parameters=app.swagger_ui_parameters,
    ).body
    redoc = get_redoc_html(openapi_url=app.openapi_url or "/openapi.json", title=f"{app.title} - ReDoc").body
    swagger_text, redoc_text = bytes(swagger).decode(), bytes(redoc).decode()
    hashes = " ".join(dict.fromkeys(inline_script_hashes(swagger_text) + inline_script_hashes(redoc_text)))
    return (
        f"default-src 'self'; script-src 'self' {_CDN} {hashes}; style-src 'self' 'unsafe-inline' {_CDN} "
        "https://fonts.googleapis.com; font-src https://fonts.gstatic.com; img-src 'self' data: "
        "https://fastapi.tiangolo.com https://cdn.redoc.ly; worker-src blob:; connect-src 'self'; "
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
