"""Every error is RFC 9457 problem details (`application/problem+json`):
{"type": "about:blank", "title", "status", "detail", "code": "<stable code>",
"message": "<words>", ...details}. `code` and `message` are extension members: the two fields
clients read before problem details, kept so that they go on working. The `message` (and
`detail`) is said in the language the request's Accept-Language asks for (api/languages.py).

But a person's browser, outside the API (not /v1, and asking for HTML before JSON), gets an
error as a page of the web client, with the site's navigation (web.blueprint.error_page)."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

from apispec import APISpec
from flask import Flask, Response, abort, current_app, request
from flask_babel import get_locale
from flask_smorest import Api
from werkzeug.exceptions import HTTPException

from service.errors import ErrorCode, OutcomeUnknown, ServiceError, TooMany, Words
from service.languages import DEFAULT
from store.connection import STORE_AWAY
from web.blueprint import error_page, wants_a_page

from . import context, field_words, languages
from .schemas import ProblemSchema

log = logging.getLogger("turnpost.api")

#: The error of each status Flask, werkzeug or flask-smorest answer before a use case runs.
HTTP_ERRORS = {
    error.status: error
    for error in (
        ErrorCode.REQUEST_BAD_JSON,
        ErrorCode.AUTH_UNAUTHORIZED,
        ErrorCode.AUTH_FORBIDDEN,
        ErrorCode.NO_SUCH_PATH,
        ErrorCode.REQUEST_METHOD_NOT_ALLOWED,
        ErrorCode.REQUEST_TIMEOUT,
        ErrorCode.REQUEST_TOO_LARGE,
        ErrorCode.REQUEST_UNSUPPORTED_MEDIA_TYPE,
        ErrorCode.REQUEST_INVALID,
        ErrorCode.RATE_LIMITED,
        ErrorCode.SERVER_ERROR,
    )
}


#: What an error that werkzeug words (in English only) says in another language.
HTTP_WORDS = {
    404: Words("no operation has this path (see /openapi.json)"),
    405: Words("the path does not take this method: Allow lists those it takes"),
    413: Words("the body is too large"),
}


class TurnpostApi(Api):
    """flask-smorest's Api, with our errors, and an OpenAPI document put together when it is
    first read (GET /openapi.json, `turnpost openapi`, a serving process before it settles its
    heap) rather than while the app is made: documenting every view is half the cost of
    `create_app`, which a serving process pays once but the tests pay for each of a thousand
    apps that never read their document."""

    ERROR_SCHEMA = ProblemSchema
    DEFAULT_ERROR_RESPONSE_NAME = None  # each error status is documented: see spec_plugin.py

    def __init__(self, app: Flask, *, spec_kwargs: dict) -> None:
        self._to_document: list[tuple[Any, str, list | None]] = []
        self._finish_document: Callable[[APISpec], None] | None = None
        self._document_on_read = False
        super().__init__(app, spec_kwargs=spec_kwargs)

    @property
    def spec(self) -> APISpec:
        """The document, with every blueprint registered so far documented once the app is
        made (before that, as flask-smorest and create_app build it up)."""
        if self._document_on_read:
            while self._to_document:
                blueprint, name, parameters = self._to_document.pop(0)
                blueprint.register_views_in_doc(
                    self, self._app, self._spec, name=name, parameters=parameters
                )
                self._spec.tag({"name": name, "description": blueprint.description})
            finish, self._finish_document = self._finish_document, None
            if finish:
                finish(self._spec)
        return self._spec

    @spec.setter
    def spec(self, spec: APISpec) -> None:
        self._spec = spec

    def register_blueprint(self, blp: Any, *, parameters: list | None = None, **options: Any):
        """As flask-smorest's, but its views are documented when the document is read."""
        name = options.get("name", blp.name)
        self._app.extensions["flask-smorest"]["blp_name_to_api"][name] = self
        self._app.register_blueprint(blp, **options)
        self._to_document.append((blp, name, parameters))

    def document_when_read(self, finish: Callable[[APISpec], None]) -> None:
        """The app is made: its document is put together when first read, then `finish`ed."""
        self._finish_document = finish
        self._document_on_read = True

    def handle_http_exception(self, error: HTTPException):
        status = error.code or 500
        if wants_a_page():
            return _as_a_page(status, error)
        known = HTTP_ERRORS.get(status)
        payload = {
            "code": known.code if known else f"http/{status}",
            "message": error.description or error.name,
        }
        werkzeugs_words = error.description == type(error).description  # English only
        if status in HTTP_WORDS and werkzeugs_words and languages.asked() != DEFAULT:
            payload["message"] = HTTP_WORDS[status]
        data = getattr(error, "data", None) or {}
        if "message" in data:
            payload["message"] = data["message"]
        errors = data.get("errors") or data.get("messages")
        if errors:
            errors = field_words.said_in(errors, languages.asked())
            payload["errors"] = errors
            payload["message"] = Words(
                "the request does not match the schema: %(where)s", where=_summarize(errors)
            )
        if status == 400:
            payload["message"] = Words("the request body is not valid JSON")
        headers = dict(data.get("headers") or {})
        if status == 405:
            headers.update({k: v for k, v in error.get_headers() if k.lower() == "allow"})
        if status == 500:
            log.exception("unhandled error")
            payload["message"] = Words("the server failed; the game is unchanged")
        return problem(status, payload, headers)


def _as_a_page(status: int, error: HTTPException):
    """A browser's error outside the API, as a page of the web client (its headers kept:
    Allow, Retry-After)."""
    if status == 500:
        log.exception("unhandled error")
    html, status, headers = error_page(status, error.description)
    kept = {k: v for k, v in error.get_headers() if k.lower() in ("allow", "retry-after")}
    kept |= dict((getattr(error, "data", None) or {}).get("headers") or {})
    return html, status, {**headers, **kept}


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


PROBLEM_MEDIA_TYPE = "application/problem+json"
STORE_AWAY_RETRY_SECONDS = 2
STORE_AWAY_MESSAGE = Words(
    "the server could not reach its database just now. Send the same request again after "
    "Retry-After seconds (a move with the same Idempotency-Key: it is applied once)"
)
SECURED_BLUEPRINTS = ("games", "players")


def problem(status: int, payload: dict, headers: dict | None = None) -> Response:
    """The error answer: `payload` ({code, message, ...}) as problem details, its message in
    the language asked for."""
    message, language = languages.say(payload["message"])
    payload = {**payload, "message": message}
    body = {
        "type": "about:blank",
        "title": HTTPStatus(status).phrase,
        "status": status,
        "detail": payload["message"],
        **payload,
    }
    headers = {**(headers or {}), **languages.headers(language)}
    if status == 401:
        headers["WWW-Authenticate"] = (
            'Bearer realm="turnpost"'
            if payload["code"] == "auth/unauthorized"
            else 'Bearer realm="turnpost", error="invalid_token"'
        )
    return Response(json.dumps(body), status=status, headers=headers, mimetype=PROBLEM_MEDIA_TYPE)


def _in_the_pages_language(message: str) -> str:
    return languages.said_in(message, str(get_locale() or DEFAULT))


def register(app: Flask) -> None:
    @app.errorhandler(ServiceError)
    def service_error(err: ServiceError):
        if wants_a_page():
            return error_page(err.status, _in_the_pages_language(err.message))
        response = problem(err.status, {"code": err.code, "message": err.message, **err.details})
        if isinstance(err, (TooMany, OutcomeUnknown)):
            response.headers["Retry-After"] = str(err.retry_after)
        return response

    def store_away(err: Exception):
        """The database away for now (restarting, failing over): 503 with Retry-After, told in
        the log in one line (redis-py reconnects on the next call)."""
        log.warning("the database is away: %s: %s", type(err).__name__, err)
        headers = {"Retry-After": str(STORE_AWAY_RETRY_SECONDS)}
        if wants_a_page():
            html, status, page_headers = error_page(503, _in_the_pages_language(STORE_AWAY_MESSAGE))
            return html, status, {**page_headers, **headers}
        payload = {"code": ErrorCode.SERVER_UNAVAILABLE.code, "message": STORE_AWAY_MESSAGE}
        return problem(503, payload, headers)

    for away in STORE_AWAY:
        app.register_error_handler(away, store_away)

    operations: dict[tuple[str, str], tuple[bool, bool]] = {}

    @app.before_request
    def check_the_caller_then_the_body():
        """A secured operation checks the token before anything in the request is read, so
        that a caller without a valid token learns nothing from the validation (401 first).
        Then a body sent as anything but JSON is refused (415) before its schema is read: it
        would otherwise read as no body at all ("Missing data")."""
        asked = request._get_current_object()  # type: ignore[attr-defined]  # once, not per use
        if asked.endpoint is None:  # no such route: nothing to check
            return
        operation = (asked.endpoint, asked.method)
        if operation not in operations:  # each route's methods, once
            operations[operation] = (_needs_a_token(), _reads_a_json_body())
        needs_a_token, reads_a_json_body = operations[operation]
        if needs_a_token and asked.method != "OPTIONS":
            context.caller()
        if reads_a_json_body and asked.content_length and not asked.is_json:
            abort(
                415,
                description=Words("the body must be JSON, sent as Content-Type: application/json"),
            )


def _apidoc() -> dict:
    """What flask-smorest knows of the operation called (empty outside the API)."""
    view = current_app.view_functions.get(request.endpoint or "")
    method = getattr(getattr(view, "view_class", None), request.method.lower(), None)
    return getattr(method, "_apidoc", {})


def _needs_a_token() -> bool:
    """Every operation of the games and players blueprints needs a token, but those documented
    with `security=[]` (registering)."""
    public = _apidoc().get("manual_doc", {}).get("security") == []
    return request.blueprint in SECURED_BLUEPRINTS and not public


def _reads_a_json_body() -> bool:
    """Whether the operation called declares a JSON body (flask-smorest's `arguments`)."""
    arguments = _apidoc().get("arguments", {})
    return any(p["in"] == "json" for p in arguments.get("parameters", []))
