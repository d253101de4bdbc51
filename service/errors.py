"""Errors a use-case can end with. Each has an HTTP status, a stable code and a message that a
player understands; `details` are extra fields for clients (for example current_version)."""
from __future__ import annotations

from typing import Any

from engine.core import GameError


class ServiceError(Exception):
    status = 400
    code = "request/invalid"

    def __init__(self, message: str, code: str | None = None, **details: Any):
        super().__init__(message)
        self.message = message
        self.details = details
        if code:
            self.code = code

    @classmethod
    def from_game_error(cls, err: GameError) -> "ServiceError":
        mapped = Invalid if err.status == 422 else Conflict
        return mapped(err.message, code=err.code)


class Unauthorized(ServiceError):
    status = 401
    code = "auth/unauthorized"


class Forbidden(ServiceError):
    status = 403
    code = "auth/forbidden"


class NotFound(ServiceError):
    status = 404
    code = "not_found"


class Conflict(ServiceError):
    status = 409
    code = "conflict"


class StaleVersion(Conflict):
    code = "move/stale_version"

    def __init__(self, current_version: int):
        super().__init__(f"the game has moved on to version {current_version}: read it again "
                         "and send your move with that version", current_version=current_version)


class Invalid(ServiceError):
    status = 422
    code = "request/invalid"


class TooMany(ServiceError):
    """Too many requests, or too many of something open at once: try again after
    `retry_after` seconds (sent as the Retry-After header)."""
    status = 429
    code = "rate/limited"

    def __init__(self, message: str, retry_after: int, code: str | None = None):
        super().__init__(message, code=code)
        self.retry_after = retry_after
