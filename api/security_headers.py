"""The headers that tell a browser how far to trust what this server sends, on every answer.

- `Content-Security-Policy`. A page (any `text/html` answer: the web client's pages, the
  pages reached from an email, the errors) runs script from this site's own files only: no
  inline script, no inline event handler, no `eval`, no plugin; styles come from this site's
  stylesheets, and `style` attributes are allowed (`style-src-attr`), for the boards, which
  are drawn with inline styles so that the same HTML reads in an email; forms post to this
  site only; `<base>` is refused. A JSON data block (`<script type="application/json">`) is
  no script and needs nothing. Every other answer (the API's JSON, the stylesheets and
  scripts themselves) gets `default-src 'none'`. The API documentation (/docs, Swagger UI)
  has an inline script of its own and styles it sets itself: its policy allows that very
  script by its SHA-256 and inline styles, and nothing else more.
- `frame-ancestors 'none'` and `X-Frame-Options: DENY`: no other site may show a page of this
  one in a frame (and make a person click in it).
- `X-Content-Type-Options: nosniff`: an answer is read as the type it says.
- `Referrer-Policy: same-origin`: the address of a page (a sign-in link, a turn page: their
  secrets are in the path) never goes to another site; the site's own forms still carry it,
  which flask-wtf's CSRF check over https wants.
- `Strict-Transport-Security` (`HSTS_SECONDS`), on an answer that came over https (behind a
  TLS proxy: its X-Forwarded-Proto, trusted with PROXY_HOPS), or from a server whose
  PUBLIC_URL is https (a browser heeds the header only over https anyway).
"""

from __future__ import annotations

import base64
import hashlib
import re

from flask import Flask, Response, request

from .http_conventions import header

PAGE_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "style-src-attr 'unsafe-inline'",
        "img-src 'self' data:",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
OTHER_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
DOCS_BLUEPRINT = "swagger_ui"
_INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.S)


def docs_policy(html: str) -> str:
    """Swagger UI's page: its inline scripts by their hashes, its own inline styles."""
    hashes = " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(found.encode()).digest()).decode() + "'"
        for found in _INLINE_SCRIPT.findall(html)
    )
    return "; ".join(
        [
            "default-src 'self'",
            f"script-src 'self' {hashes}".strip(),
            "style-src 'self' 'unsafe-inline'",
            "img-src 'self' data:",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        ]
    )


def install(app: Flask, public_url: str, hsts_seconds: int) -> None:
    public_https = public_url.lower().startswith("https://")
    docs_policies: dict[str, str] = {}  # the page is the same every time: its policy too

    @app.after_request
    def security_headers(response: Response) -> Response:
        asked = request._get_current_object()  # type: ignore[attr-defined]  # once, not per use
        headers = response.headers
        if response.mimetype == "text/html":
            if asked.blueprint == DOCS_BLUEPRINT and not response.is_streamed:
                html = response.get_data(as_text=True)
                if html not in docs_policies:
                    docs_policies.clear()
                    docs_policies[html] = docs_policy(html)
                headers["Content-Security-Policy"] = docs_policies[html]
            else:
                headers["Content-Security-Policy"] = PAGE_POLICY
        elif header(headers, "Content-Security-Policy") is None:  # one of its own is kept
            headers["Content-Security-Policy"] = OTHER_POLICY
        headers["X-Frame-Options"] = "DENY"
        headers["X-Content-Type-Options"] = "nosniff"
        headers["Referrer-Policy"] = "same-origin"
        if hsts_seconds > 0 and (asked.is_secure or public_https):
            headers["Strict-Transport-Security"] = f"max-age={hsts_seconds}"
        return response
