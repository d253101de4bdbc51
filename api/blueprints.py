"""The Blueprint every operation of the API is declared on: flask-smorest's, whose body and
query schemas are made once, when an operation is declared.

webargs makes a new instance of a schema given as a class for every request it reads, and a
new marshmallow schema deep-copies its declared fields: about a tenth of a small POST's time.
A schema instance keeps nothing of one load for the next, so one serves every request; the
OpenAPI document still names the schema's class (flask-smorest keeps what it was given)."""

from __future__ import annotations

from typing import Any

import flask_smorest
from marshmallow import Schema
from webargs.flaskparser import FlaskParser


class SchemaOnceParser(FlaskParser):
    def use_args(self, argmap: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(argmap, type) and issubclass(argmap, Schema):
            argmap = argmap()
        return super().use_args(argmap, *args, **kwargs)


class Blueprint(flask_smorest.Blueprint):
    ARGUMENTS_PARSER = SchemaOnceParser()
