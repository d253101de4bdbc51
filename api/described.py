"""The forms the API's schemas are made of: a field with its description, in one line.

A field made here is required (every answer carries it, null only where `allow_none=True`
says so) and has its description in the OpenAPI document; a request's optional fields pass
`required=False`. The games' view and action schemas (api/game_schemas/) are made of these
forms, and each of them refuses fields it does not know (`ClosedSchema`).
"""

from typing import Any, TypeVar

from marshmallow import RAISE, Schema, fields
from marshmallow.validate import Length

F = TypeVar("F", bound=fields.Field)


class ClosedSchema(Schema):
    """A schema that refuses unknown fields (`additionalProperties: false` in the document)."""

    class Meta:
        unknown = RAISE


def described(kind: type[F], description: str, *args: Any, **options: Any) -> F:
    """`kind(*args, **options)`, required unless `options` say otherwise, described (after
    any other `metadata` the options give, such as an example)."""
    metadata = {**options.pop("metadata", {}), "description": description}
    return kind(*args, **{"required": True, **options}, metadata=metadata)


def integer(description: str, **options: Any) -> fields.Integer:
    return described(fields.Integer, description, **options)


def string(description: str, **options: Any) -> fields.String:
    return described(fields.String, description, **options)


def boolean(description: str, **options: Any) -> fields.Boolean:
    return described(fields.Boolean, description, **options)


def listed(item: fields.Field, description: str, **options: Any) -> fields.List:
    return described(fields.List, description, item, **options)


def nested(schema: type[Schema], description: str, **options: Any) -> fields.Nested:
    return described(fields.Nested, description, schema, **options)


def pair(item: fields.Field, description: str, **options: Any) -> fields.List:
    """A list of two values, one per seat (index = seat)."""
    return listed(item, description, validate=Length(equal=2), **options)
