"""The HTTP conventions every API answer follows, applied in one place after each request.

- Conditional GETs (RFC 9110): every per-game GET and the game lists (the inbox) carry an
  ETag; `If-None-Match` is compared the weak way, takes a list and `*`, and a match answers 304
  with no body. The view's ETag is its game's version (documented as such); the others' is a
  hash of the answer's bytes.
- Per-player answers (any answer to a request with a bearer token) say `Cache-Control:
  private, no-cache` (a shared cache must not keep them; a browser revalidates with the ETag)
  and `Vary: Authorization`.
- CORS for the origins listed in the CORS_ORIGINS setting (none by default), preflight
  included, by flask-cors: a browser page on one of them may send the bearer token. Then
  every answer of the API says `Vary: Origin` (flask-cors leaves it out when one origin is
  listed), so that no shared cache gives an answer made for one origin to another.
"""

from __future__ import annotations

from flask import Flask, Response, request
from flask_cors import CORS
from werkzeug.datastructures import Headers

from .errors import SECURED_BLUEPRINTS

#: The endpoints whose GET answers are conditional, with the operationIds that document them.
CONDITIONAL = {
    "games.Games": "listGames",
    "games.Game": "getGame",
    "games.View": "getView",
    "games.LegalMoves": "getLegalMoves",
    "games.Log": "getLog",
}
CONDITIONAL_OPERATIONS = set(CONDITIONAL.values())
#: The request headers that can make an answer conditional (a 304 or a 412); without any, an
#: answer is what it is, and werkzeug's make_conditional is not called for nothing.
CONDITIONS = ("HTTP_IF_NONE_MATCH", "HTTP_IF_MATCH", "HTTP_IF_MODIFIED_SINCE")
#: The headers a cross-origin page may read from an answer.
EXPOSED_HEADERS = ["ETag", "Location", "WWW-Authenticate", "Allow", "Idempotent-Replayed"]


def register(app: Flask, cors_origins: tuple[str, ...]) -> None:
    if cors_origins:
        CORS(
            app,
            resources={r"/v1/*": {"origins": list(cors_origins)}},
            allow_headers=[
                "Authorization",
                "Content-Type",
                "If-None-Match",
                "Idempotency-Key",
                "Last-Event-ID",
            ],
            expose_headers=EXPOSED_HEADERS,
            max_age=600,
            vary_header=False,  # said below, on every answer
        )

    @app.after_request
    def follow_the_conventions(response: Response) -> Response:
        asked = request._get_current_object()  # type: ignore[attr-defined]  # once, not per use
        environ = asked.environ
        if asked.blueprint in SECURED_BLUEPRINTS and "HTTP_AUTHORIZATION" in environ:
            headers = response.headers
            cache_control = header(headers, "Cache-Control")
            if cache_control is None:
                headers["Cache-Control"] = "private, no-cache"
            elif "private" not in cache_control:
                headers["Cache-Control"] = "private, " + cache_control
            if header(headers, "Vary") is None:
                headers["Vary"] = "Authorization"  # what vary.add writes in an answer without
            else:
                response.vary.add("Authorization")
        if cors_origins and asked.path.startswith("/v1/"):
            response.vary.add("Origin")
        if (
            asked.method == "GET"
            and asked.endpoint in CONDITIONAL
            and response.status_code == 200
            and not response.is_streamed
        ):
            response.add_etag()  # keeps an ETag the operation set itself (the view's version)
            if any(header in environ for header in CONDITIONS):
                response.make_conditional(asked)
        return response


def header(headers: Headers, name: str) -> str | None:
    """The first value of the header `name` (in any case), or None. As `headers.get(name)`,
    but werkzeug's raises and catches an exception (a KeyError that is also an HTTP error,
    some 5 µs to make) for a header that is absent, as most that an answer is asked for
    are."""
    wanted = name.lower()
    for key, value in headers:
        if key.lower() == wanted:
            return value
    return None
