"""Which error codes each operation documents (the table itself is `service.errors.ErrorCode`).

The OpenAPI document lists, for each operation and status, the codes that operation may answer
with (api/spec_plugin.py writes them). The codes every operation of a kind shares (a bad body, a
missing token) are added there by rule; an operation names its own with `raises(...)`, which
`Blueprint.operation(errors=...)` applies (api/blueprints.py); the schemathesis run checks that
every error it sees carries a code its operation documents.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask_smorest import Blueprint

from service.errors import ErrorCode

#: What an operation with a request body may always answer with.
BODY_CODES = (ErrorCode.REQUEST_TIMEOUT, ErrorCode.REQUEST_TOO_LARGE)
#: ... and with a JSON request body.
JSON_BODY_CODES = (
    ErrorCode.REQUEST_BAD_JSON,
    ErrorCode.REQUEST_UNSUPPORTED_MEDIA_TYPE,
    ErrorCode.REQUEST_INVALID,
)
#: What an operation that reads query parameters may always answer with.
QUERY_CODES = (ErrorCode.REQUEST_INVALID,)
#: What an operation that needs a bearer token may always answer with.
AUTH_CODES = (ErrorCode.AUTH_UNAUTHORIZED, ErrorCode.AUTH_BAD_TOKEN)
#: What any operation may answer with (its database away for now: api/errors.py; a write
#: whose outcome is unknown: service.play.commit).
ANY_CODES = (ErrorCode.RATE_LIMITED, ErrorCode.SERVER_ERROR, ErrorCode.SERVER_UNAVAILABLE)

#: What a write to a game by one of its players may answer with: no such game, the caller
#: holds no seat in it, or another write to it is under way (each operation adds its own).
SEATED_WRITE_CODES = (ErrorCode.GAME_NOT_FOUND, ErrorCode.GAME_NOT_A_PLAYER, ErrorCode.GAME_BUSY)
#: What a write to a tournament may answer with: no such tournament, or another write to it
#: is under way.
TOURNAMENT_WRITE_CODES = (ErrorCode.TOURNAMENT_NOT_FOUND, ErrorCode.TOURNAMENT_BUSY)

EXTENSION = "x-error-codes"


def raises(*errors: ErrorCode) -> Callable[[Any], Any]:
    """Document the error codes an operation answers with beyond those its kind always has."""
    return Blueprint.doc(**{EXTENSION: [error.code for error in errors]})
