"""The hot reads answered straight as JSON, without a marshmallow dump per item.

A view, the legal moves, a game's summary and the game lists are built by whitelist already:
the engine's `view` names every field a seat may see, and the service's summaries are plain
dicts of plain values. Dumping them through their schemas again cost most of such a request
(The Nine Domains' opening, 504 moves, took 28 of its 37 ms in marshmallow), and changed
nothing: tests/api/test_json_answers.py checks, on thousands of positions of every game, that
each answer equals what its schema dumps. The schemas still describe these answers in the
OpenAPI document (`@blp.operation`'s answer), and flask-smorest passes a `Response` through as it is.
"""

from __future__ import annotations

from typing import Any

import orjson
from flask import Response
from flask.json.provider import DefaultJSONProvider
from werkzeug.sansio.response import Response as AnyResponse

ORJSON_OPTIONS = (
    orjson.OPT_SORT_KEYS
    | orjson.OPT_APPEND_NEWLINE
    | orjson.OPT_NON_STR_KEYS
    | orjson.OPT_PASSTHROUGH_DATETIME  # as Flask writes them (an HTTP date), by its default
)


def json_answer(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    """`body` as JSON (keys sorted and a final newline, as Flask writes them), with `status`
    and `headers`."""
    return Response(
        orjson.dumps(body, option=orjson.OPT_SORT_KEYS | orjson.OPT_APPEND_NEWLINE),
        status=status,
        headers=headers,
        mimetype="application/json",
    )


class OrjsonProvider(DefaultJSONProvider):
    """Flask's JSON answers (`jsonify`, and so every answer flask-smorest dumps through a
    schema) written by orjson, in about a tenth of Python's json's time: keys sorted, no
    spaces and a final newline as Flask writes them, text as UTF-8 rather than escaped (as the
    hot reads' answers above), and what orjson does not know (a date) by Flask's `default`.
    What orjson refuses (a lone surrogate, an integer beyond 64 bits), and the indented answers
    of debug mode, are left to Flask's own. Reading JSON, and `tojson` in templates, stay
    Flask's."""

    def response(self, *args: Any, **kwargs: Any) -> AnyResponse:
        if self.compact is False or (self.compact is None and self._app.debug):
            return super().response(*args, **kwargs)
        body = self._prepare_response_obj(args, kwargs)
        try:
            data = orjson.dumps(body, default=self.default, option=ORJSON_OPTIONS)
        except orjson.JSONEncodeError:
            return super().response(*args, **kwargs)
        return Response(data, mimetype=self.mimetype)  # the app's response_class
