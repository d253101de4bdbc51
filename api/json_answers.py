"""The hot reads answered straight as JSON, without a marshmallow dump per item.

A view, the legal moves, a game's summary and the game lists are built by whitelist already:
the engine's `view` names every field a seat may see, and the service's summaries are plain
dicts of plain values. Dumping them through their schemas again cost most of such a request
(The Nine Domains' opening, 504 moves, took 28 of its 37 ms in marshmallow), and changed
nothing: tests/api/test_json_answers.py checks, on thousands of positions of every game, that
each answer equals what its schema dumps. The schemas still describe these answers in the
OpenAPI document (`@blp.response`), and flask-smorest passes a `Response` through as it is.
"""

from __future__ import annotations

from typing import Any

import orjson
from flask import Response


def json_answer(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    """`body` as JSON (keys sorted and a final newline, as Flask writes them), with `status`
    and `headers`."""
    return Response(
        orjson.dumps(body, option=orjson.OPT_SORT_KEYS | orjson.OPT_APPEND_NEWLINE),
        status=status,
        headers=headers,
        mimetype="application/json",
    )
