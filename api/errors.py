"""Every error is JSON: {"code": "<stable code>", "message": "<words>", ...details}."""
from __future__ import annotations

import logging

from flask import jsonify
from flask_smorest import Api
from werkzeug.exceptions import HTTPException

from service.errors import ServiceError, TooMany

from .schemas import ErrorSchema

log = logging.getLogger("turnpost.api")

HTTP_CODES = {
    400: "request/bad_json", 401: "auth/unauthorized", 403: "auth/forbidden",
    404: "not_found", 405: "request/method_not_allowed", 409: "conflict",
    408: "request/timeout", 413: "request/too_large", 415: "request/unsupported_media_type",
    422: "request/invalid", 428: "request/precondition_required", 429: "rate/limited",
    500: "server/error",
}


class TurnpostApi(Api):
    ERROR_SCHEMA = ErrorSchema
    DEFAULT_ERROR_RESPONSE_NAME = None  # each error status is documented: see spec_plugin.py

    def handle_http_exception(self, error: HTTPException):
        payload = {"code": HTTP_CODES.get(error.code, f"http/{error.code}"),
                   "message": error.description or error.name}
        data = getattr(error, "data", None) or {}
        if "message" in data:
            payload["message"] = data["message"]
        errors = data.get("errors") or data.get("messages")
        if errors:
            payload["errors"] = errors
            payload["message"] = "the request does not match the schema: " + _summarize(errors)
        if error.code == 400:
            payload["message"] = "the request body is not valid JSON"
        headers = dict(data.get("headers") or {})
        if error.code == 405:
            headers.update({k: v for k, v in error.get_headers() if k.lower() == "allow"})
        if error.code == 500:
            log.exception("unhandled error")
            payload["message"] = "the server failed; the game is unchanged"
        return payload, error.code, headers


def _summarize(errors, prefix="") -> str:
    parts = []
    for key, value in errors.items():
        name = f"{prefix}{key}" if prefix else str(key)
        if name in ("json", "query", "headers") and isinstance(value, dict):
            parts.append(_summarize(value))
        elif isinstance(value, dict):
            parts.append(_summarize(value, name + "."))
        else:
            parts.append(f"{name}: {' '.join(map(str, value))}")
    return "; ".join(p for p in parts if p)


def register(app) -> None:
    @app.errorhandler(ServiceError)
    def service_error(err: ServiceError):
        body = {"code": err.code, "message": err.message, **err.details}
        headers = {"Retry-After": str(err.retry_after)} if isinstance(err, TooMany) else {}
        return jsonify(body), err.status, headers
