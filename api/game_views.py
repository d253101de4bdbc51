"""The payloads whose shape depends on the game: the view, the legal moves and the move's action.

Each game's view and action schemas live in api/game_schemas/<game>.py (VIEW_SCHEMA,
ACTION_SCHEMA); here each is joined with the envelope every such payload has, and the games are
put together in a oneOf discriminated by `game`. Dumping through these schemas is a second
whitelist: a key a game's view or action does not declare never reaches a client.

A move request does not name its game (the path does), so its `action` is documented as exactly
the union of the games' actions (`anyOf`: their types overlap, so not `oneOf`); the engine checks
it against the game it is for.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping

from marshmallow import Schema, fields, validate
from marshmallow_oneofschema import OneOfSchema

from engine import registry

from .described import described, integer, listed, string
from .schemas import MAX_VERSION, JsonInteger, SeatClockSchema


class ViewEnvelopeSchema(Schema):
    game = string("The game's name")
    version = integer("The game's version; also the ETag")
    seat = integer("Your seat, or null when you watch as a spectator", allow_none=True)
    active_seats = listed(fields.Integer(), "The seats that may act now")
    clocks = listed(
        fields.Nested(SeatClockSchema),
        "Each seat's clock, by seat (null in a game without a clock)",
        allow_none=True,
    )


class LegalMovesEnvelopeSchema(Schema):
    game = string("The game's name")
    version = integer("The version these moves are for: send it as expected_version")
    seat = integer("Your seat")


def game_schema_module(name: str):
    return importlib.import_module(f"api.game_schemas.{name}")


def _title(schema: type[Schema], suffix: str) -> str:
    return schema.__name__.removesuffix(suffix)


def _game_name(name: str) -> fields.String:
    """The `game` field of one game's payload: only its name, so that the oneOf is exact."""
    return fields.String(
        required=True, validate=validate.OneOf([name]), metadata={"description": "The game's name"}
    )


def _view_schema(name: str) -> type[Schema]:
    view = game_schema_module(name).VIEW_SCHEMA
    return type(view.__name__, (ViewEnvelopeSchema, view), {"game": _game_name(name)})


def legal_moves_schema(name: str, action: type[Schema]) -> type[Schema]:
    """`{game, version, seat, moves: [{notation, action, description}]}` for the game `name`."""
    title = _title(action, "ActionSchema")
    move = type(
        f"{title}LegalMoveSchema",
        (Schema,),
        {
            "notation": fields.String(
                required=True, metadata={"description": "The move in the game's notation"}
            ),
            "action": fields.Nested(
                action,
                required=True,
                metadata={"description": "The same move as a structured action"},
            ),
            "description": fields.String(
                required=True,
                metadata={
                    "description": "The same move in words, said to you from what you may see: "
                    'you are "you", the other players are named (for example "Place your 4 on '
                    "Ben's side, column 4\"); no two moves of a list read the same. For people "
                    "to read: play a move by its notation or action"
                },
            ),
        },
    )
    return type(
        f"{title}LegalMovesSchema",
        (LegalMovesEnvelopeSchema,),
        {
            "game": _game_name(name),
            "moves": fields.List(
                fields.Nested(move),
                required=True,
                metadata={
                    "description": "Every move you may make now (empty when it is not your turn)"
                },
            ),
        },
    )


class GameViewSchema(OneOfSchema):
    type_field = "game"
    type_field_remove = False
    type_schemas: Mapping[str, type[Schema]] = {
        name: _view_schema(name) for name in sorted(registry.GAMES)
    }

    def get_obj_type(self, obj):
        return obj["game"]


class LegalMovesSchema(OneOfSchema):
    type_field = "game"
    type_field_remove = False
    type_schemas: Mapping[str, type[Schema]] = {
        name: legal_moves_schema(name, game_schema_module(name).ACTION_SCHEMA)
        for name in sorted(registry.GAMES)
    }

    def get_obj_type(self, obj):
        return obj["game"]


def _any_action() -> dict:
    """The JSON schema of "one of the games' actions", by reference to their components."""
    return {
        "anyOf": [
            {
                "$ref": "#/components/schemas/"
                + _title(game_schema_module(name).ACTION_SCHEMA, "Schema")
            }
            for name in sorted(registry.GAMES)
        ]
    }


def _is_object(value) -> bool:
    """The action is a JSON object (its fields are the game's to check)."""
    return isinstance(value, dict)


class MoveSchema(Schema):
    expected_version = described(
        JsonInteger,
        "The version you read; a stale one answers 409 move/stale_version",
        validate=validate.Range(0, MAX_VERSION),
    )
    notation = fields.String(
        validate=validate.Length(min=1, max=500),
        metadata={"description": "The move in the game's notation (see the catalog)"},
    )
    action = fields.Raw(
        validate=_is_object,
        metadata={
            "description": "The move as a structured action, as /legal-moves lists them",
            **_any_action(),
        },
    )
