"""The schemas of matchmaking (/v1/matchmaking/{game})."""

from marshmallow import Schema, fields, validate

from engine import registry

from .described import boolean, integer, string
from .schemas import optional_integer

ISO_TIME = {"description": "ISO 8601 time in UTC", "example": "2026-11-21T12:00:00Z"}


class MatchAskSchema(Schema):
    bot_after_seconds = optional_integer(
        "After this long without an opponent near your rating, a game against "
        "the bot nearest your rating (0: at once); null: wait for a person only",
        0,
        7 * 86400,
    )


class MatchOpponentSchema(Schema):
    player_id = string("null: a bot", allow_none=True)
    name = fields.String(required=True)
    bot = fields.Boolean(required=True)


class MatchRequestSchema(Schema):
    game = fields.String(required=True, metadata={"enum": sorted(registry.GAMES)})
    title = fields.String(required=True)
    status = string(
        "matched: `game_id` is your game, created moments after",
        validate=validate.OneOf(["waiting", "matched", "cancelled"]),
    )
    rating = integer("Yours when you asked")
    window = integer("The most rating points between you and your opponent")
    asked_at = fields.String(required=True, metadata=ISO_TIME)
    bot_after_seconds = fields.Integer(required=True, allow_none=True)
    bot_at = string(
        "When a bot takes the other seat, if no one has", allow_none=True, metadata=ISO_TIME
    )
    game_id = fields.String(required=True, allow_none=True)
    opponent = fields.Nested(MatchOpponentSchema, required=True, allow_none=True)
    first_seat = boolean("Whether you have seat 0 (who waited longer has it)", allow_none=True)
