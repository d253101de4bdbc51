"""The view endpoint's response: a oneOf over the games, discriminated by `game`.

Each game's view schema lives in api/game_schemas/<game>.py (VIEW_SCHEMA); here it is joined
with the envelope every view has. Dumping through these schemas is a second whitelist: a key a
game's view does not declare never reaches a client.
"""
from __future__ import annotations

import importlib

from marshmallow import Schema, fields
from marshmallow_oneofschema import OneOfSchema

from engine import registry


class ViewEnvelopeSchema(Schema):
    game = fields.String(required=True, metadata={"description": "The game's name"})
    version = fields.Integer(required=True, metadata={"description": "The game's version; "
                                                      "also the ETag"})
    seat = fields.Integer(required=True, allow_none=True, metadata={
        "description": "Your seat, or null when you watch as a spectator"})
    active_seats = fields.List(fields.Integer(), required=True, metadata={
        "description": "The seats that may act now"})


def game_schema_module(name: str):
    return importlib.import_module(f"api.game_schemas.{name}")


def _view_schemas() -> dict[str, type[Schema]]:
    schemas = {}
    for name, game in sorted(registry.GAMES.items()):
        module = game_schema_module(name)
        title = module.VIEW_SCHEMA.__name__.removesuffix("Schema")
        schemas[name] = type(f"{title}Schema", (ViewEnvelopeSchema, module.VIEW_SCHEMA), {})
    return schemas


def action_schemas() -> dict[str, type[Schema]]:
    return {name: game_schema_module(name).ACTION_SCHEMA for name in sorted(registry.GAMES)}


class GameViewSchema(OneOfSchema):
    type_field = "game"
    type_field_remove = False
    type_schemas = _view_schemas()

    def get_obj_type(self, obj):
        return obj["game"]
