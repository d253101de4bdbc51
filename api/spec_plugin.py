"""An apispec plugin that finishes every operation of the OpenAPI document the same way.

It runs on each operation as a blueprint registers it, so an endpoint added later gets the same
treatment without anyone remembering to:

- each error status the operation may answer with is an `application/problem+json` response
  whose schema is the shared `Problem` with `code` narrowed to the codes it may carry (listed
  in its description too, and machine-readable as `x-error-codes`). The codes come from
  api/error_codes.py: the ones of the operation's kind (a body, a JSON body, query
  parameters, a bearer token) by rule, and its own from `raises(...)` (`blp.operation`'s
  `errors`);
- its description comes from api/operation_docs.py, and its links from LINKS;
- the examples recorded for its operationId (api/examples.py) go into its bodies.

It also holds the marshmallow converter the document is written with (see
GeneratorFriendlyConverter): what it writes is read alike by openapi-python-client,
openapi-generator and the linters (docs/clients.md).
"""

from __future__ import annotations

import json
from http import HTTPStatus

import marshmallow
from apispec import APISpec, BasePlugin
from apispec_oneofschema import MarshmallowPlugin
from apispec_oneofschema.plugin import OneofOpenAPIConverter
from marshmallow import fields

from service.errors import ErrorCode

from . import examples
from .error_codes import (
    ANY_CODES,
    AUTH_CODES,
    BODY_CODES,
    EXTENSION,
    JSON_BODY_CODES,
    QUERY_CODES,
)
from .http_conventions import CONDITIONAL_OPERATIONS
from .operation_docs import DESCRIPTIONS

PROBLEM_SCHEMA_REF = {"$ref": "#/components/schemas/Problem"}
PROBLEM_MEDIA_TYPE = "application/problem+json"
GAME_ID = {"game_id": "$response.body#/id"}
IF_NONE_MATCH = {
    "name": "If-None-Match",
    "in": "header",
    "required": False,
    "schema": {"type": "string"},
    "description": "ETags you hold (RFC 9110: weak or strong, a list, or *): "
    "304 when the answer would be the same",
}
ETAG = {
    "ETag": {
        "description": "The answer's version: send it back as If-None-Match",
        "required": True,
        "schema": {"type": "string"},
    }
}
NOT_MODIFIED = {
    "description": "Not modified: the answer is the one your ETag names",
    "headers": ETAG,
}
_FOLLOW = {
    "getGame": "The game's summary",
    "getView": "Your view of it",
    "getLegalMoves": "Your legal moves in it",
    "playMove": "Play a move in it",
    "getLog": "Its log",
}
#: Links from an answer that names a game to the operations on that game (OpenAPI links, which
#: generators and schemathesis' stateful phase follow): {operationId: {status: {name: link}}}.
LINKS = {
    operation: {
        status: {
            target: {"operationId": target, "parameters": GAME_ID, "description": text}
            for target, text in _FOLLOW.items()
            if target != operation
        }
    }
    for operation, status in (("createGame", "201"), ("joinGame", "200"), ("getGame", "200"))
}


class ContractPlugin(BasePlugin):
    def init_spec(self, spec: APISpec) -> None:
        self.spec = spec
        self.examples = examples.load()

    def operation_helper(self, path=None, operations=None, **kwargs) -> None:
        for operation in (operations or {}).values():
            responses = operation["responses"] = {  # flask-smorest's keys are numbers
                str(status): doc for status, doc in operation.get("responses", {}).items()
            }
            for status, codes in _by_status(self._codes(operation)).items():
                responses[str(status)] = error_response(status, codes)
            operation_id = operation.get("operationId")
            operation.setdefault("description", DESCRIPTIONS.get(operation_id, ""))
            if operation_id in CONDITIONAL_OPERATIONS:
                _make_conditional(operation)
            for response, links in LINKS.get(operation_id, {}).items():
                responses[response]["links"] = links
            self._add_examples(operation)

    def _codes(self, operation: dict) -> list[ErrorCode]:
        codes = list(ANY_CODES) + [ErrorCode.of(code) for code in operation.pop(EXTENSION, [])]
        if "requestBody" in operation:
            codes += BODY_CODES
            if "application/json" in operation["requestBody"].get("content", {}):
                codes += JSON_BODY_CODES
        if any(p.get("in") == "query" for p in operation.get("parameters", [])):
            codes += QUERY_CODES
        if operation.get("security", self.spec.options.get("security")):
            codes += AUTH_CODES
        return codes

    def _add_examples(self, operation: dict) -> None:
        recorded = self.examples.get(operation.get("operationId"), {})
        bodies = [(operation.get("requestBody"), recorded.get("request", {}))]
        bodies += [
            (operation["responses"].get(status), named)
            for status, named in recorded.get("responses", {}).items()
        ]
        for body, named in bodies:
            if body and named:
                content = body["content"]  # JSON, or problem+json (a view may add text/plain)
                media = content.get("application/json") or next(iter(content.values()))
                media["examples"] = {
                    name: {"value": value} for name, value in sorted(named.items())
                }


def _make_conditional(operation: dict) -> None:
    """Document If-None-Match, the ETag and the 304 (api/http_conventions.py answers them),
    where the operation has not documented its own."""
    parameters = operation.setdefault("parameters", [])
    if not any(p.get("name") == "If-None-Match" for p in parameters):
        parameters.append(IF_NONE_MATCH)
    operation["responses"]["200"].setdefault("headers", dict(ETAG))
    operation["responses"].setdefault("304", NOT_MODIFIED)


def _by_status(errors: list[ErrorCode]) -> dict[int, list[ErrorCode]]:
    """The errors grouped by status, each group in the table's order."""
    groups: dict[int, list[ErrorCode]] = {}
    for error in ErrorCode:
        if error in errors:
            groups.setdefault(error.status, []).append(error)
    return groups


RATE_LIMIT_HEADERS = {
    "Retry-After": {
        "description": "Seconds to wait before trying again",
        "schema": {"type": "integer", "minimum": 0},
    },
    "RateLimit-Policy": {
        "description": "The limit met (IETF draft-ietf-httpapi-ratelimit-headers), "
        "for example `120;w=60`",
        "schema": {"type": "string"},
    },
    "RateLimit": {
        "description": "What is left of it: `limit=120, remaining=0, reset=42`",
        "schema": {"type": "string"},
    },
}


def narrowed_problem(errors: list[ErrorCode]) -> dict:
    """The shared `Problem`, with `code` one of these: a generated client types it exactly."""
    codes = {"type": "string", "enum": [error.code for error in errors]}
    return {"allOf": [PROBLEM_SCHEMA_REF, {"type": "object", "properties": {"code": codes}}]}


def error_response(status: int, errors: list[ErrorCode]) -> dict:
    listed = "\n".join(f"- `{error.code}`: {error.meaning}" for error in errors)
    response = {
        "description": f"{HTTPStatus(status).phrase}. `code` is one of:\n\n{listed}",
        "content": {PROBLEM_MEDIA_TYPE: {"schema": narrowed_problem(errors)}},
        EXTENSION: [error.code for error in errors],
    }
    if status == 429:
        response["headers"] = RATE_LIMIT_HEADERS
    if status == 503:
        response["headers"] = {
            "Retry-After": {
                "description": "Seconds to wait before sending the same request again (a write "
                "with the same Idempotency-Key, to learn its outcome)",
                "schema": {"type": "integer", "minimum": 0},
            }
        }
    return response


class GeneratorFriendlyConverter(OneofOpenAPIConverter):
    """apispec's converter, writing what every generator we test reads the same way.

    - A nested schema that may be null is "that schema, or null": `anyOf: [{$ref},
      {type: object, enum: [null], nullable: true}]`. apispec's own `anyOf: [{type: object,
      nullable: true}, {$ref}]` takes any object in its first branch (a generated client then
      reads a game's outcome as an untyped object), and `nullable` without a `type` is no
      schema at all to the linters.
    - A list of values that may be null is `anyOf: [{the values}, {null}]`: openapi-generator
      checks an enum that includes null against its values and refuses the null.
    - A field of any value that may be null is `{}`, which takes null already (`nullable`
      without a `type` is refused by the linters).
    - No `default` on a request field: openapi-typescript (by default) reads a default as
      "always there" and makes the field required, so a body without it does not compile;
      the default is said in the field's description instead.
    - `fields.Url` is `format: uri` (apispec writes `url`, which no standard defines).
    - A field with `metadata={"component": Name}` is written once as the component `Name` and
      referenced as `anyOf: [{$ref}]`: openapi-generator's python client checks an enum inside
      a list of lists as if it were the list, and reads a plain reference there as a model (it
      fails on every answer either way); a one-branch anyOf it reads as a model of its own.
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.field_mapping: dict[type, tuple[str | None, str | None]] = {
            **self.field_mapping,
            fields.Url: ("string", "uri"),
        }

    def field2property(self, field) -> dict:
        found = super().field2property(field)
        default = field.load_default
        if default is not marshmallow.missing and default is not None and not callable(default):
            said = json.dumps(default) if not isinstance(default, str) else f"`{default}`"
            found["description"] = f"{found.get('description', '')} Default: {said}.".strip()
        name = field.metadata.get("component")
        if name is None:
            return found
        if name not in self.spec.components.schemas:
            self.spec.components.schema(name, component=found)
        return {"anyOf": [{"$ref": f"#/components/schemas/{name}"}]}

    def field2nullable(self, field, ret) -> dict:
        if field.allow_none and (self.openapi_version.major, self.openapi_version.minor) == (3, 0):
            refs = ret.pop("allOf", None) or (
                [{"$ref": ret.pop("$ref")}] if "$ref" in ret else None
            )
            if refs:
                return {"anyOf": [*refs, NULL_ONLY]}
            if "type" not in ret:  # any value, null included: `{}` says it already
                return {}
            if "enum" in ret:
                values = [value for value in ret.pop("enum") if value is not None]
                branch = {key: ret.pop(key) for key in ("type", "format") if key in ret}
                return {"anyOf": [{**branch, "enum": values}, NULL_ONLY]}
        return super().field2nullable(field, ret)

    def field2default(self, field, **kwargs) -> dict:
        found = super().field2default(field, **kwargs)
        if field.load_default is not marshmallow.missing:
            found.pop("default", None)  # said in the description (field2property)
        return found


#: The schema of null alone, in OpenAPI 3.0.
NULL_ONLY = {"type": "object", "enum": [None], "nullable": True}


class TurnpostMarshmallowPlugin(MarshmallowPlugin):
    """apispec-oneofschema's plugin (a oneOf per OneOfSchema) with GeneratorFriendlyConverter."""

    Converter = GeneratorFriendlyConverter
