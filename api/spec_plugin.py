"""An apispec plugin that finishes every operation of the OpenAPI document the same way.

It runs on each operation as a blueprint registers it, so an endpoint added later gets the same
treatment without anyone remembering to:

- each error status the operation may answer with is a response using the shared `Error`
  schema, whose description lists its stable codes (also given, machine-readable, as
  `x-error-codes`). The codes come from api/error_codes.py: the ones of the operation's kind
  (a body, a JSON body, query parameters, a bearer token) by rule, and its own from
  `raises(...)`;
- the examples recorded for its operationId (api/examples.py) go into its JSON bodies.

It also holds the marshmallow converter the document is written with (see NullableRefConverter).
"""
from __future__ import annotations

from http import HTTPStatus

from apispec import APISpec, BasePlugin
from apispec_oneofschema import MarshmallowPlugin
from apispec_oneofschema.plugin import OneofOpenAPIConverter

from . import examples
from .error_codes import (ANY_CODES, AUTH_CODES, BODY_CODES, ERROR_CODES, EXTENSION,
                          JSON_BODY_CODES, QUERY_CODES)

ERROR_SCHEMA_REF = {"$ref": "#/components/schemas/Error"}


class ContractPlugin(BasePlugin):
    def init_spec(self, spec: APISpec) -> None:
        self.spec = spec
        self.examples = examples.load()

    def operation_helper(self, path=None, operations=None, **kwargs) -> None:
        for operation in (operations or {}).values():
            responses = operation["responses"] = {  # flask-smorest's keys are numbers
                str(status): doc for status, doc in operation.get("responses", {}).items()}
            for status, codes in _by_status(self._codes(operation)).items():
                responses[str(status)] = error_response(status, codes)
            self._add_examples(operation)

    def _codes(self, operation: dict) -> list[str]:
        codes = list(ANY_CODES) + operation.pop(EXTENSION, [])
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
        bodies += [(operation["responses"].get(status), named)
                   for status, named in recorded.get("responses", {}).items()]
        for body, named in bodies:
            if body and named:
                body["content"]["application/json"]["examples"] = {
                    name: {"value": value} for name, value in sorted(named.items())}


def _by_status(codes: list[str]) -> dict[int, list[str]]:
    """The codes grouped by status, each group in the order of ERROR_CODES."""
    groups: dict[int, list[str]] = {}
    for code in ERROR_CODES:
        if code in codes:
            groups.setdefault(ERROR_CODES[code][0], []).append(code)
    return groups


RATE_LIMIT_HEADERS = {
    "Retry-After": {"description": "Seconds to wait before trying again",
                    "schema": {"type": "integer", "minimum": 0}},
    "RateLimit-Policy": {"description": "The limit met (IETF draft-ietf-httpapi-ratelimit-headers), "
                                        "for example `120;w=60`",
                         "schema": {"type": "string"}},
    "RateLimit": {"description": "What is left of it: `limit=120, remaining=0, reset=42`",
                  "schema": {"type": "string"}},
}


def error_response(status: int, codes: list[str]) -> dict:
    listed = "\n".join(f"- `{code}`: {ERROR_CODES[code][1]}" for code in codes)
    response = {"description": f"{HTTPStatus(status).phrase}. `code` is one of:\n\n{listed}",
                "content": {"application/json": {"schema": ERROR_SCHEMA_REF}},
                EXTENSION: codes}
    if status == 429:
        response["headers"] = RATE_LIMIT_HEADERS
    return response


class NullableRefConverter(OneofOpenAPIConverter):
    """Write a nested schema that may be null as "that schema, or null" in OpenAPI 3.0.

    apispec writes it as `anyOf: [{type: object, nullable: true}, {$ref}]`, whose first branch
    takes any object at all: a generated client then reads a game's outcome as an untyped
    object. `{enum: [null], nullable: true}` is the 3.0 way to say "only null"."""

    def field2nullable(self, field, ret) -> dict:
        if field.allow_none and (self.openapi_version.major, self.openapi_version.minor) == (3, 0):
            refs = ret.pop("allOf", None) or ([{"$ref": ret.pop("$ref")}] if "$ref" in ret
                                              else None)
            if refs:
                return {"anyOf": [*refs, {"enum": [None], "nullable": True}]}
        return super().field2nullable(field, ret)


class TurnpostMarshmallowPlugin(MarshmallowPlugin):
    """apispec-oneofschema's plugin (a oneOf per OneOfSchema) with NullableRefConverter."""
    Converter = NullableRefConverter
