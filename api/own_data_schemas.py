"""A player's own data: the export (GET /v1/players/me/export) and the deletion of the account
(DELETE /v1/players/me)."""

from marshmallow import Schema, fields

from .described import integer, listed, nested, string
from .game_views import GameViewSchema
from .rating_schemas import HeadToHeadSchema, ResultSchema, TitleRatingSchema, TitleRecordSchema
from .schemas import (
    ChatMessageSchema,
    DeliverySchema,
    FriendSchema,
    GameSummarySchema,
    PlayerSchema,
    PushSubscriptionSchema,
    VacationStateSchema,
)


class ExportedGameSchema(GameSummarySchema):
    seat = integer("Your seat; null while you are invited, or after you left", allow_none=True)
    view = nested(
        GameViewSchema,
        "Your seat's view (as GET /v1/games/{id}/view gives it); null "
        "before the game started or without a seat",
        allow_none=True,
    )
    messages = listed(fields.Nested(ChatMessageSchema), "The messages you wrote in the game")


class ExportedRatingsSchema(Schema):
    ratings = fields.List(fields.Nested(TitleRatingSchema), required=True)
    record = fields.List(fields.Nested(TitleRecordSchema), required=True)
    recent = fields.List(fields.Nested(ResultSchema), required=True)
    head_to_head = fields.Nested(HeadToHeadSchema, required=True, allow_none=True)


class ExportedSessionSchema(Schema):
    agent = string("The browser")
    signed_in = integer("Epoch ms")
    seen = integer("Epoch ms")


class PlayerExportSchema(Schema):
    """Everything the server holds about you. Secrets are left out (your token, your webhook
    secret, your devices' push keys and endpoints, your sessions' cookies): only that they
    exist. Games are read from your seat: nobody else's hidden facts."""

    profile = fields.Nested(PlayerSchema, required=True)
    friends = fields.List(fields.Nested(FriendSchema), required=True)
    blocked = fields.List(fields.Nested(FriendSchema), required=True)
    calendar = fields.Nested(VacationStateSchema, required=True)
    games = listed(
        fields.Nested(ExportedGameSchema), "Every game you sit in, sat in or are invited to"
    )
    ratings = fields.Nested(ExportedRatingsSchema, required=True)
    deliveries = listed(
        fields.Nested(DeliverySchema), "The deliveries kept (the latest), newest first"
    )
    push_subscriptions = fields.List(fields.Nested(PushSubscriptionSchema), required=True)
    sessions = fields.List(fields.Nested(ExportedSessionSchema), required=True)


class AccountDeleteQuerySchema(Schema):
    confirm = string("Your own player id: that you mean it, and this account")


class AccountDeletedSchema(Schema):
    deleted = fields.Boolean(required=True)
    games = listed(
        fields.String(),
        "Your unfinished games that went on by their timeout policy (or that you left)",
    )
    renamed = listed(fields.String(), 'The games that now name you "a deleted player"')
