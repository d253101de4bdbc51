"""Each request gets an id (the caller's `X-Request-Id` when it is a sane one, else a new one),
echoed in the answer and carried by every log line of the request and of the work it causes
(store.request_ids); and one access log line when it is answered.

The access line names the route's pattern (`/v1/games/<game_id>/moves`), never the path: a
path may hold a secret (a one-click or sign-in link), and a query string too. The caller is
named by player id; a token is never logged."""

from __future__ import annotations

import logging
import re
import time
import uuid

from flask import Flask, Response, g, request

from store.request_ids import REQUEST_ID

access = logging.getLogger("turnpost.access")
SANE_ID = re.compile(r"[A-Za-z0-9._-]{8,64}")


def install(app: Flask) -> None:
    @app.before_request
    def start_request() -> None:
        offered = request.environ.get("HTTP_X_REQUEST_ID", "")
        request_id = offered if SANE_ID.fullmatch(offered) else uuid.uuid4().hex
        kept = g._get_current_object()  # once, not per use
        kept.request_id = request_id
        kept.request_token = REQUEST_ID.set(request_id)
        kept.request_started = time.perf_counter()

    @app.after_request
    def log_request(response: Response) -> Response:
        request_id = g.get("request_id")
        if request_id is None:
            return response
        response.headers["X-Request-Id"] = request_id
        if access.isEnabledFor(logging.INFO):
            asked = request._get_current_object()  # type: ignore[attr-defined]
            name = route()
            access.info(
                "%s %s %s",
                asked.method,
                name,
                response.status_code,
                extra={
                    "fields": {
                        "method": asked.method,
                        "route": name,
                        "status": response.status_code,
                        "ms": round((time.perf_counter() - g.request_started) * 1000, 2),
                        "player": g.get("caller"),
                    }
                },
            )
        return response

    @app.teardown_request
    def end_request(_error) -> None:
        token = g.pop("request_token", None)
        if token is not None:
            try:
                REQUEST_ID.reset(token)
            except ValueError:  # torn down in another context (a streamed answer's end)
                REQUEST_ID.set("")


def started() -> float | None:
    """When the request began (time.perf_counter), if it was begun here."""
    return g.get("request_started")


def route() -> str:
    """The pattern of the route that answered, or "(no route)"."""
    rule = request.url_rule
    return rule.rule if rule is not None else "(no route)"
