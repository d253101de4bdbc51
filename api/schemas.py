"""The request and response schemas shared by the resources (the per-game ones: game_views.py)."""
from marshmallow import Schema, fields, validate

from engine import registry

from .error_codes import ERROR_CODES

MAX_VERSION = 10**15 - 1  # far past any game, and exact in every client's numbers (JSON doubles)
LOG_EVENT_TYPES = ["GameCreated", "PlayerJoined", "GameStarted", "ActionTaken", "TurnTimedOut",
                   "PlayerResigned", "GameEnded"]
ISO_TIME = {"description": "ISO 8601 time in UTC", "example": "2026-11-21T12:00:00Z"}
#: The games' names, documented as an enum (an unknown one answers 422 game/unknown).
GAME_NAME = {"enum": sorted(registry.GAMES), "example": "nautilus"}


class JsonInteger(fields.Integer):
    """An integer in a JSON body, as JSON writes it: marshmallow alone takes "5", 5.0, true."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.make_error("invalid", input=value)
        return super()._deserialize(value, attr, data, **kwargs)


class JsonBoolean(fields.Boolean):
    """true or false in a JSON body: marshmallow alone takes 1, "yes", "on"..."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class ProblemSchema(Schema):
    """An error answer: RFC 9457 problem details, with `code` and `message` as extension
    members (the two fields clients have always read)."""
    type = fields.String(required=True, metadata={
        "description": "A URI naming the kind of problem: `about:blank`, the status says it",
        "example": "about:blank"})
    title = fields.String(required=True, metadata={
        "description": "The status's phrase, e.g. Conflict"})
    status = fields.Integer(required=True, metadata={"description": "The HTTP status code"})
    detail = fields.String(required=True, metadata={"description": "The same words as "
                                                                   "`message`"})
    code = fields.String(required=True, validate=validate.OneOf(list(ERROR_CODES)), metadata={
        "description": "Stable machine-readable code, e.g. move/stale_version; each error "
                       "response lists those it may carry"})
    message = fields.String(required=True, metadata={"description": "What went wrong, in words"})
    errors = fields.Dict(metadata={"description": "Field-by-field validation errors"})
    current_version = fields.Integer(metadata={
        "description": "With move/stale_version: the game's version now"})


class OptionSchema(Schema):
    default = fields.Raw(allow_none=True)
    description = fields.String()
    choices = fields.List(fields.Raw(), allow_none=True)
    type = fields.String(validate=validate.OneOf(["string", "integer", "boolean"]))


class CatalogGameSchema(Schema):
    name = fields.String(required=True, metadata=GAME_NAME)
    title = fields.String(required=True)
    min_players = fields.Integer(required=True)
    max_players = fields.Integer(required=True)
    rules_version = fields.String(required=True)
    options = fields.Dict(keys=fields.String(), values=fields.Nested(OptionSchema))
    notation = fields.List(fields.String(), metadata={
        "description": "How to write each kind of move, with an example"})


class CatalogSchema(Schema):
    games = fields.List(fields.Nested(CatalogGameSchema), required=True)


class PlayerCreateSchema(Schema):
    name = fields.String(required=True, validate=validate.Length(min=1, max=64))
    email = fields.Email(allow_none=True, load_default=None)
    webhook_url = fields.Url(allow_none=True, load_default=None,
                             schemes={"http", "https"}, require_tld=False)


class NotificationPreferencesSchema(Schema):
    email = JsonBoolean(metadata={"description": "Turn and end-of-game emails"})
    webhook = JsonBoolean(metadata={"description": "Webhook deliveries"})
    reminders = JsonBoolean(metadata={
        "description": "Reminders at 50% and 90% of a clock, by email and webhook"})
    replies_from_any_address = JsonBoolean(metadata={
        "description": "Play emailed replies sent from any address (the reply address's "
                       "token still authorises); off: only from your own email address"})


class PlayerPatchSchema(Schema):
    name = fields.String(validate=validate.Length(min=1, max=64))
    email = fields.Email(allow_none=True)
    webhook_url = fields.Url(allow_none=True, schemes={"http", "https"}, require_tld=False)
    notifications = fields.Nested(NotificationPreferencesSchema)


WEBHOOK_SECRET = {"description": "The secret that signs your webhook deliveries: `whsec_` + "
                                 "base64, as Standard Webhooks (webhook-signature) and Stripe's "
                                 "libraries (Turnpost-Signature) take it. Shown only in the "
                                 "answer that made it."}


class PlayerSchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    email = fields.String(allow_none=True)
    webhook_url = fields.String(allow_none=True)
    notifications = fields.Nested(NotificationPreferencesSchema, required=True)
    webhook_status = fields.String(required=True, validate=validate.OneOf(
        ["none", "ok", "failing"]), metadata={
        "description": "failing: deliveries kept failing, so you get emails instead until "
                       "one succeeds or you change webhook_url"})
    webhook_secret = fields.String(metadata=WEBHOOK_SECRET)


class PlayerCreatedSchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    token = fields.String(required=True, metadata={
        "description": "The API token: send it as 'Authorization: Bearer <token>'. Shown once."})
    webhook_secret = fields.String(metadata=WEBHOOK_SECRET)


class WebhookSecretSchema(Schema):
    webhook_secret = fields.String(required=True, metadata=WEBHOOK_SECRET)


class TokenSchema(Schema):
    token = fields.String(required=True, metadata={
        "description": "Your new API token: send it as 'Authorization: Bearer <token>'. Shown "
                       "once; the one before no longer works."})


class SignInRequestSchema(Schema):
    email = fields.Email(required=True, validate=validate.Length(max=254), metadata={
        "description": "The address you registered with"})


class SignInAcceptedSchema(Schema):
    message = fields.String(required=True)


class DeliverySchema(Schema):
    id = fields.String(required=True, metadata={
        "description": "The delivery id: the same on every retry (header Turnpost-Delivery)"})
    at = fields.String(required=True, metadata=ISO_TIME)
    channel = fields.String(required=True, validate=validate.OneOf(["email", "webhook"]))
    event = fields.String(required=True, validate=validate.OneOf(
        ["turn.started", "turn.reminder", "game.finished"]))
    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    status = fields.String(required=True, validate=validate.OneOf(
        ["sent", "fallback", "retrying", "failed", "superseded"]), metadata={
        "description": "fallback: an email sent because the webhook failed; superseded: "
                       "not sent, the turn had moved on"})
    attempt = fields.Integer(required=True)
    detail = fields.String(required=True)


class DeliveryListSchema(Schema):
    deliveries = fields.List(fields.Nested(DeliverySchema), required=True)


class DeliveryQuerySchema(Schema):
    limit = fields.Integer(load_default=50, validate=validate.Range(1, 200))


class TimeControlSchema(Schema):
    per_move_seconds = JsonInteger(required=True, validate=validate.Range(1, 8 * 7 * 86400),
                                   metadata={"description": "Seconds per move: from a minute "
                                             "(the server's minimum) to eight weeks"})
    on_timeout = fields.String(load_default="auto", validate=validate.OneOf(["auto", "forfeit"]))


class GameCreateSchema(Schema):
    game = fields.String(required=True, metadata=GAME_NAME)
    seats = fields.List(fields.String(allow_none=True), required=True,
                        validate=validate.Length(min=1, max=6), metadata={
                            "description": "One entry per seat: a player id, 'bot:random', "
                                           "'bot:heuristic', or null for an open seat"})
    options = fields.Dict(keys=fields.String(), load_default=dict)
    time_control = fields.Nested(TimeControlSchema, allow_none=True, load_default=None)


class SeatSchema(Schema):
    seat = fields.Integer(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(["player", "bot", "open"]))
    player_id = fields.String(allow_none=True)
    name = fields.String(allow_none=True)
    deadline = fields.String(allow_none=True, metadata=ISO_TIME)


class OutcomeSchema(Schema):
    winners = fields.List(fields.Integer(), required=True)
    scores = fields.List(fields.Float(), allow_none=True)
    reason = fields.String(required=True)


class GameSummarySchema(Schema):
    id = fields.String(required=True)
    game = fields.String(required=True, metadata=GAME_NAME)
    status = fields.String(required=True, validate=validate.OneOf(["open", "active", "finished"]))
    version = fields.Integer(required=True)
    seats = fields.List(fields.Nested(SeatSchema), required=True)
    active_seats = fields.List(fields.Integer(), required=True)
    deadline = fields.String(allow_none=True, metadata=ISO_TIME)
    outcome = fields.Nested(OutcomeSchema, allow_none=True)
    options = fields.Dict(keys=fields.String())
    time_control = fields.Nested(TimeControlSchema, allow_none=True)
    rules_version = fields.String()
    seed_commitment = fields.String(metadata={
        "description": "SHA-256 (hex) of the game's secret seed, published at creation"})
    seed = fields.String(allow_none=True, metadata={
        "description": "The seed (hex), revealed when the game is over"})
    created_at = fields.String(metadata=ISO_TIME)
    updated_at = fields.String(metadata=ISO_TIME)


class GameListQuerySchema(Schema):
    awaiting = fields.String(validate=validate.OneOf(["me"]), metadata={
        "description": "awaiting=me: only games waiting for my move, nearest deadline first"})
    status = fields.String(validate=validate.OneOf(["open"]), metadata={
        "description": "status=open: the lobby of games with an open seat"})
    limit = fields.Integer(load_default=50, validate=validate.Range(1, 200))


class GameListSchema(Schema):
    games = fields.List(fields.Nested(GameSummarySchema), required=True)


class JoinSchema(Schema):
    seat = JsonInteger(load_default=None, allow_none=True, validate=validate.Range(0, 5))


class MoveResultSchema(Schema):
    version = fields.Integer(required=True)
    move = fields.String(required=True)
    game = fields.Nested(GameSummarySchema, required=True)


class LogQuerySchema(Schema):
    after = fields.Integer(load_default=0, validate=validate.Range(0, MAX_VERSION))
    limit = fields.Integer(load_default=100, validate=validate.Range(1, 1000))


class LogLineSchema(Schema):
    text = fields.String(required=True)
    data = fields.Dict(keys=fields.String())


class LogEntrySchema(Schema):
    version = fields.Integer(required=True)
    type = fields.String(required=True, validate=validate.OneOf(LOG_EVENT_TYPES))
    at = fields.String(required=True, metadata=ISO_TIME)
    seat = fields.Integer()
    move = fields.String(metadata={"description": "Your own move, in notation (yours only)"})
    lines = fields.List(fields.Nested(LogLineSchema), required=True)


class LogSchema(Schema):
    version = fields.Integer(required=True)
    seat = fields.Integer(allow_none=True)
    entries = fields.List(fields.Nested(LogEntrySchema), required=True)


class InboundResultSchema(Schema):
    status = fields.String(required=True, validate=validate.OneOf(
        ["played", "refused", "ignored"]), metadata={
        "description": "played: at least one move was played; refused: nothing was played "
                       "and the sender got an answer saying why; ignored: an automatic "
                       "message, or one already read (same Message-ID)"})
    code = fields.String(required=True, metadata={"example": "mail/played"})


class WebhookLinksSchema(Schema):
    game = fields.Url(required=True, require_tld=False)
    view = fields.Url(required=True, require_tld=False)
    legal_moves = fields.Url(required=True, require_tld=False)


class WebhookTurnStartedSchema(Schema):
    """The body of a `turn.started` webhook delivery (also `turn.reminder`, with that event):
    POSTed to your webhook_url, signed as docs/notifications.md says."""
    event = fields.String(required=True, validate=validate.OneOf(["turn.started",
                                                                  "turn.reminder"]))
    delivery_id = fields.String(required=True, metadata={
        "description": "The same on every retry, and in the webhook-id header"})
    game_id = fields.String(required=True)
    game = fields.String(required=True, metadata=GAME_NAME)
    version = fields.Integer(required=True)
    seat = fields.Integer(required=True, metadata={"description": "Your seat"})
    status = fields.String(required=True, validate=validate.OneOf(["active", "finished"]))
    active_seats = fields.List(fields.Integer(), required=True)
    deadline = fields.String(required=True, allow_none=True, metadata=ISO_TIME)
    sent_at = fields.String(required=True, metadata=ISO_TIME)
    links = fields.Nested(WebhookLinksSchema, required=True)


class WebhookGameFinishedSchema(WebhookTurnStartedSchema):
    """The body of a `game.finished` webhook delivery."""
    event = fields.String(required=True, validate=validate.OneOf(["game.finished"]))
    outcome = fields.Nested(OutcomeSchema, required=True)
