"""The Blueprint every operation of the API is declared on: flask-smorest's, whose body and
query schemas are made once, when an operation is declared; `Blueprint.resource(...)` declares a
resource module's blueprint and `blp.operation(...)` an operation's OpenAPI, each in one call.

webargs makes a new instance of a schema given as a class for every request it reads, and a
new marshmallow schema deep-copies its declared fields: about a tenth of a small POST's time.
A schema instance keeps nothing of one load for the next, so one serves every request; the
OpenAPI document still names the schema's class (flask-smorest keeps what it was given)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import flask_smorest
from marshmallow import Schema
from webargs.flaskparser import FlaskParser

from service.errors import ErrorCode

from .error_codes import raises


class SchemaOnceParser(FlaskParser):
    def use_args(self, argmap: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(argmap, type) and issubclass(argmap, Schema):
            argmap = argmap()
        return super().use_args(argmap, *args, **kwargs)


class Blueprint(flask_smorest.Blueprint):
    ARGUMENTS_PARSER = SchemaOnceParser()

    def operation(
        self,
        operation_id: str,
        status: int | None = None,
        answer: Any = None,
        *,
        errors: Iterable[ErrorCode] = (),
        body: Any = None,
        body_required: bool = True,
        query: Any = None,
        headers: dict[str, Any] | None = None,
        description: str | None = None,
        **doc: Any,
    ) -> Callable[[Any], Any]:
        """An operation of the API in one declaration: its operationId, the error codes it
        answers with beyond its kind's (api/error_codes.py), its JSON body or its query
        parameters (their schema), and its answer (status, schema, headers and description).
        Anything else of its OpenAPI (`security=[]` for a public one, `parameters`,
        `responses`) is passed on as it is written, as `doc(...)` does."""

        stack = [self.doc(operationId=operation_id, **doc), raises(*errors)]
        if query is not None:
            stack.append(self.arguments(query, location="query"))
        if body is not None:
            stack.append(self.arguments(body, required=body_required))
        if status is not None:
            stack.append(self.response(status, answer, headers=headers, description=description))

        def declare(view: Any) -> Any:
            for decorator in reversed(stack):  # as written above a view: the last one first
                view = decorator(view)
            return view

        return declare

    @classmethod
    def resource(cls, name: str, url_prefix: str, description: str) -> Blueprint:
        """A resource module's blueprint: its endpoints are named `name.<view>`, its paths
        start with `url_prefix`, and `name` with `description` is its tag in the OpenAPI
        document. Its import name is this module's: a resource has no templates or static
        files of its own."""
        return cls(name, __name__, url_prefix=url_prefix, description=description)
