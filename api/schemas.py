"""The request and response schemas shared by the resources (the per-game ones: game_views.py)."""

from marshmallow import Schema, fields, validate

from engine import registry
from service.errors import ErrorCode
from service.players.accounts import MAX_FRIENDS
from store.record import EventType

from .rating_schemas import (
    HeadToHeadSchema,
    RatingChangeSchema,
    ResultSchema,
    TitleRatingSchema,
    TitleRecordSchema,
)

MAX_VERSION = 10**15 - 1  # far past any game, and exact in every client's numbers (JSON doubles)
LOG_EVENT_TYPES = [kind.value for kind in EventType]
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

    type = fields.String(
        required=True,
        metadata={
            "description": "A URI naming the kind of problem: `about:blank`, the status says it",
            "example": "about:blank",
        },
    )
    title = fields.String(
        required=True, metadata={"description": "The status's phrase, e.g. Conflict"}
    )
    status = fields.Integer(required=True, metadata={"description": "The HTTP status code"})
    detail = fields.String(required=True, metadata={"description": "The same words as `message`"})
    code = fields.String(
        required=True,
        validate=validate.OneOf([error.code for error in ErrorCode]),
        metadata={
            "description": "Stable machine-readable code, e.g. move/stale_version; each error "
            "response lists those it may carry"
        },
    )
    message = fields.String(required=True, metadata={"description": "What went wrong, in words"})
    errors = fields.Dict(metadata={"description": "Field-by-field validation errors"})
    current_version = fields.Integer(
        metadata={"description": "With move/stale_version: the game's version now"}
    )


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
    notation = fields.List(
        fields.String(), metadata={"description": "How to write each kind of move, with an example"}
    )
    bots = fields.List(
        fields.String(),
        metadata={
            "description": "The bots a seat of this title may hold: `bot:random`, "
            "`bot:heuristic`, and `bot:expert` (a search within the server's time per move) "
            "where its bots can search"
        },
    )


class CatalogSchema(Schema):
    games = fields.List(fields.Nested(CatalogGameSchema), required=True)


class PlayerCreateSchema(Schema):
    name = fields.String(required=True, validate=validate.Length(min=1, max=64))
    email = fields.Email(allow_none=True, load_default=None)
    webhook_url = fields.Url(
        allow_none=True, load_default=None, schemes={"http", "https"}, require_tld=False
    )


class NotificationPreferencesSchema(Schema):
    email = JsonBoolean(metadata={"description": "Turn and end-of-game emails"})
    webhook = JsonBoolean(metadata={"description": "Webhook deliveries"})
    reminders = JsonBoolean(
        metadata={"description": "Reminders at 50% and 90% of a clock, by email and webhook"}
    )
    replies_from_any_address = JsonBoolean(
        metadata={
            "description": "Play emailed replies sent from any address (the reply address's "
            "token still authorises); off: only from your own email address"
        }
    )


TIME_ZONE = {
    "description": "An IANA time zone (Europe/Rome): the deadlines in your emails and on the "
    "web pages are shown in it; null: UTC",
    "example": "Europe/Rome",
}


class PlayerPatchSchema(Schema):
    name = fields.String(validate=validate.Length(min=1, max=64))
    email = fields.Email(allow_none=True)
    webhook_url = fields.Url(allow_none=True, schemes={"http", "https"}, require_tld=False)
    time_zone = fields.String(allow_none=True, validate=validate.Length(max=64), metadata=TIME_ZONE)
    notifications = fields.Nested(NotificationPreferencesSchema)


WEBHOOK_SECRET = {
    "description": "The secret that signs your webhook deliveries: `whsec_` + "
    "base64, as Standard Webhooks (webhook-signature) and Stripe's "
    "libraries (Turnpost-Signature) take it. Shown only in the "
    "answer that made it."
}


class PlayerSchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    email = fields.String(allow_none=True)
    webhook_url = fields.String(allow_none=True)
    time_zone = fields.String(allow_none=True, metadata=TIME_ZONE)
    notifications = fields.Nested(NotificationPreferencesSchema, required=True)
    webhook_status = fields.String(
        required=True,
        validate=validate.OneOf(["none", "ok", "failing"]),
        metadata={
            "description": "failing: deliveries kept failing, so you get emails instead until "
            "one succeeds or you change webhook_url"
        },
    )
    webhook_secret = fields.String(metadata=WEBHOOK_SECRET)


class PlayerCreatedSchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    token = fields.String(
        required=True,
        metadata={
            "description": "The API token: send it as 'Authorization: Bearer <token>'. Shown once."
        },
    )
    webhook_secret = fields.String(metadata=WEBHOOK_SECRET)


class FriendsUpdateSchema(Schema):
    friends = fields.List(
        fields.String(validate=validate.Length(min=1, max=64)),
        required=True,
        validate=validate.Length(max=MAX_FRIENDS),
        metadata={
            "description": "Player ids: each may seat you in a game directly; "
            "anyone else who names you in a game's seats "
            "invites you (you join or decline)"
        },
    )


class FriendSchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)


class PlayerSearchQuerySchema(Schema):
    name = fields.String(
        required=True,
        validate=validate.Length(min=1, max=64),
        metadata={"description": "The start of the name, in any case"},
    )
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))


class PlayerFoundSchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)


class PlayerSearchSchema(Schema):
    players = fields.List(
        fields.Nested(PlayerFoundSchema),
        required=True,
        metadata={
            "description": "The players whose name starts with the given one, by name "
            "(names are not unique: the id tells them apart)"
        },
    )


class PublicPlayerSchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    games_played = fields.Integer(
        required=True,
        metadata={"description": "The games the player has a seat in or had, finished or not"},
    )
    ratings = fields.List(
        fields.Nested(TitleRatingSchema),
        required=True,
        metadata={"description": "A rating per game the player played rated games of"},
    )
    record = fields.List(
        fields.Nested(TitleRecordSchema),
        required=True,
        metadata={"description": "Per game: finished games, wins and places"},
    )
    recent = fields.List(
        fields.Nested(ResultSchema),
        required=True,
        metadata={"description": "The last 10 finished games, latest first"},
    )
    head_to_head = fields.Nested(
        HeadToHeadSchema,
        required=True,
        allow_none=True,
        metadata={"description": "The player's finished games with you; null on your own"},
    )


class FriendsSchema(Schema):
    friends = fields.List(
        fields.Nested(FriendSchema),
        required=True,
        metadata={"description": "The players who may seat you directly, by id"},
    )


class WebhookSecretSchema(Schema):
    webhook_secret = fields.String(required=True, metadata=WEBHOOK_SECRET)


class TokenSchema(Schema):
    token = fields.String(
        required=True,
        metadata={
            "description": "Your new API token: send it as 'Authorization: Bearer <token>'. Shown "
            "once; the one before no longer works."
        },
    )


class SignInRequestSchema(Schema):
    email = fields.Email(
        required=True,
        validate=validate.Length(max=254),
        metadata={"description": "The address you registered with"},
    )


class SignInAcceptedSchema(Schema):
    message = fields.String(required=True)


class DeliverySchema(Schema):
    id = fields.String(
        required=True,
        metadata={
            "description": "The delivery id: the same on every retry (header Turnpost-Delivery)"
        },
    )
    at = fields.String(required=True, metadata=ISO_TIME)
    channel = fields.String(required=True, validate=validate.OneOf(["email", "webhook"]))
    event = fields.String(
        required=True,
        validate=validate.OneOf(
            ["turn.started", "turn.reminder", "game.finished", "game.invited", "game.cancelled"]
        ),
    )
    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    status = fields.String(
        required=True,
        validate=validate.OneOf(
            ["sent", "fallback", "retrying", "failed", "superseded", "throttled"]
        ),
        metadata={
            "description": "fallback: an email sent because the webhook failed; superseded: "
            "not sent, the turn had moved on (or the invitation was answered); "
            "throttled: an invitation not emailed, because another from the same "
            "player was (INVITATION_EMAIL_SECONDS)"
        },
    )
    attempt = fields.Integer(required=True)
    detail = fields.String(required=True)


class StreamTicketSchema(Schema):
    ticket = fields.String(
        required=True,
        metadata={
            "description": "Add it to an event stream's address as `?ticket=`, in place of the "
            "Authorization header (which a browser's EventSource cannot send)"
        },
    )
    expires_in = fields.Integer(
        required=True,
        metadata={
            "description": "Seconds during which the ticket opens a stream; an open stream lasts"
        },
    )


class DeliveryListSchema(Schema):
    deliveries = fields.List(fields.Nested(DeliverySchema), required=True)
    next = fields.String(
        required=True,
        allow_none=True,
        metadata={
            "description": "The next page's address (relative) when older deliveries are kept; "
            "null on the last page"
        },
    )


class DeliveryQuerySchema(Schema):
    limit = fields.Integer(load_default=50, validate=validate.Range(1, 200))
    before = fields.Integer(
        validate=validate.Range(1, 2**53),
        metadata={
            "description": "Where the page starts: the `before` in the previous page's `next`"
        },
    )


class TimeControlSchema(Schema):
    per_move_seconds = JsonInteger(
        required=True,
        validate=validate.Range(1, 8 * 7 * 86400),
        metadata={
            "description": "Seconds per move: from the server's minimum (a minute unless its "
            "MIN_MOVE_SECONDS says otherwise) to eight weeks"
        },
    )
    on_timeout = fields.String(load_default="auto", validate=validate.OneOf(["auto", "forfeit"]))


class GameCreateSchema(Schema):
    game = fields.String(required=True, metadata=GAME_NAME)
    seats = fields.List(
        fields.String(allow_none=True),
        required=True,
        validate=validate.Length(min=1, max=6),
        metadata={
            "description": "One entry per seat: a player id, one of the title's bots (its "
            "`bots` in the catalog: 'bot:random', 'bot:heuristic', 'bot:expert'), or null for "
            "an open seat"
        },
    )
    options = fields.Dict(keys=fields.String(), load_default=dict)
    time_control = fields.Nested(TimeControlSchema, allow_none=True, load_default=None)
    if_declined = fields.String(
        load_default="cancel",
        validate=validate.OneOf(["cancel", "open"]),
        metadata={
            "description": "When an invited player declines: `cancel` the game (the default), or "
            "`open` their seat to anyone in the lobby"
        },
    )
    rated = JsonBoolean(
        allow_none=True,
        load_default=None,
        metadata={
            "description": "Whether the game counts for the players' ratings; by default (null) "
            "a game between people is rated and one with a bot seat is not (bots are rated as "
            "players of their own)"
        },
    )


class SeatSchema(Schema):
    seat = fields.Integer(required=True)
    kind = fields.String(
        required=True,
        validate=validate.OneOf(["player", "bot", "open", "invited"]),
        metadata={
            "description": "invited: reserved for the player named, who has not accepted (join) "
            "or declined yet"
        },
    )
    player_id = fields.String(allow_none=True)
    name = fields.String(allow_none=True)
    deadline = fields.String(allow_none=True, metadata=ISO_TIME)


class OutcomeSchema(Schema):
    winners = fields.List(fields.Integer(), required=True)
    scores = fields.List(fields.Float(), allow_none=True)
    reason = fields.String(required=True)


class GameTournamentSchema(Schema):
    id = fields.String(
        required=True, metadata={"description": "The tournament (GET /v1/tournaments/{id})"}
    )
    round = fields.Integer(required=True)
    board = fields.Integer(required=True, metadata={"description": "The game's place in its round"})


class GameSummarySchema(Schema):
    id = fields.String(required=True)
    game = fields.String(required=True, metadata=GAME_NAME)
    status = fields.String(
        required=True,
        validate=validate.OneOf(["open", "active", "finished", "cancelled"]),
        metadata={
            "description": "open: waiting for players to take its seats; cancelled: an invited "
            "player declined, and the game never started"
        },
    )
    version = fields.Integer(required=True)
    seats = fields.List(fields.Nested(SeatSchema), required=True)
    active_seats = fields.List(fields.Integer(), required=True)
    deadline = fields.String(allow_none=True, metadata=ISO_TIME)
    outcome = fields.Nested(OutcomeSchema, allow_none=True)
    options = fields.Dict(keys=fields.String())
    time_control = fields.Nested(TimeControlSchema, allow_none=True)
    rated = fields.Boolean(
        metadata={"description": "Whether the game counts for the players' ratings"}
    )
    tournament = fields.Nested(
        GameTournamentSchema,
        allow_none=True,
        metadata={"description": "The tournament the game is a part of; null for most games"},
    )
    rules_version = fields.String()
    seed_commitment = fields.String(
        metadata={"description": "SHA-256 (hex) of the game's secret seed, published at creation"}
    )
    seed = fields.String(
        allow_none=True, metadata={"description": "The seed (hex), revealed when the game is over"}
    )
    created_at = fields.String(metadata=ISO_TIME)
    updated_at = fields.String(metadata=ISO_TIME)


class GameListQuerySchema(Schema):
    awaiting = fields.String(
        validate=validate.OneOf(["me"]),
        metadata={
            "description": "awaiting=me: only games waiting for my move, nearest deadline first"
        },
    )
    status = fields.String(
        validate=validate.OneOf(["open"]),
        metadata={"description": "status=open: the lobby of games with an open seat"},
    )
    invited = fields.String(
        validate=validate.OneOf(["me"]),
        metadata={
            "description": "invited=me: the games with a seat reserved for me that I have not "
            "joined or declined yet, newest first"
        },
    )
    limit = fields.Integer(load_default=50, validate=validate.Range(1, 200))
    cursor = fields.String(
        validate=validate.Length(1, 200),
        metadata={
            "description": "Where the page starts: the cursor in the previous page's `next` (your "
            "games and your inbox page this way; the lobby and your invitations "
            "answer their first `limit` only)"
        },
    )


class GameListSchema(Schema):
    games = fields.List(fields.Nested(GameSummarySchema), required=True)
    next = fields.String(
        allow_none=True,
        metadata={
            "description": "The next page's address (relative) when there are more of your games "
            "or your inbox; null on the last page (absent for the lobby and "
            "invitations)"
        },
    )


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
    next = fields.String(
        required=True,
        allow_none=True,
        metadata={
            "description": "The next page's address (relative) while the log has more entries "
            "after this page; null on the last page"
        },
    )


class InboundResultSchema(Schema):
    status = fields.String(
        required=True,
        validate=validate.OneOf(["played", "refused", "ignored"]),
        metadata={
            "description": "played: at least one move was played; refused: nothing was played "
            "and the sender got an answer saying why; ignored: an automatic "
            "message, or one already read (same Message-ID)"
        },
    )
    code = fields.String(required=True, metadata={"example": "mail/played"})


class WebhookLinksSchema(Schema):
    game = fields.Url(required=True, require_tld=False)
    view = fields.Url(required=True, require_tld=False)
    legal_moves = fields.Url(required=True, require_tld=False)


class WebhookDeliverySchema(Schema):
    """What every webhook delivery's body begins with. Each delivery's schema narrows `event`
    and `status` to its own values (a field it declares again keeps its place here)."""

    event = fields.String(required=True)
    delivery_id = fields.String(
        required=True,
        metadata={"description": "The same on every retry, and in the webhook-id header"},
    )
    game_id = fields.String(required=True)
    game = fields.String(required=True, metadata=GAME_NAME)
    version = fields.Integer(required=True)
    seat = fields.Integer(required=True, metadata={"description": "Your seat"})
    status = fields.String(required=True)


class WebhookTurnStartedSchema(WebhookDeliverySchema):
    """The body of a `turn.started` webhook delivery (also `turn.continues` when the step of
    a multi-step turn that you just played leaves the turn yours, and `turn.reminder`):
    POSTed to your webhook_url, signed as docs/notifications.md says."""

    event = fields.String(
        required=True, validate=validate.OneOf(["turn.started", "turn.continues", "turn.reminder"])
    )
    status = fields.String(required=True, validate=validate.OneOf(["active", "finished"]))
    active_seats = fields.List(fields.Integer(), required=True)
    deadline = fields.String(required=True, allow_none=True, metadata=ISO_TIME)
    sent_at = fields.String(required=True, metadata=ISO_TIME)
    links = fields.Nested(WebhookLinksSchema, required=True)


class WebhookGameFinishedSchema(WebhookTurnStartedSchema):
    """The body of a `game.finished` webhook delivery."""

    event = fields.String(required=True, validate=validate.OneOf(["game.finished"]))
    outcome = fields.Nested(OutcomeSchema, required=True)
    ratings = fields.List(
        fields.Nested(RatingChangeSchema),
        required=True,
        allow_none=True,
        metadata={"description": "A rated game's rating change for each seat; null if unrated"},
    )


class WebhookInviterSchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True, allow_none=True)


class WebhookInvitationLinksSchema(Schema):
    game = fields.Url(required=True, require_tld=False)
    join = fields.Url(
        required=True,
        require_tld=False,
        metadata={"description": "POST here to accept (take the seat reserved for you)"},
    )
    decline = fields.Url(
        required=True, require_tld=False, metadata={"description": "POST here to refuse"}
    )


class WebhookGameInvitedSchema(WebhookDeliverySchema):
    """The body of a `game.invited` webhook delivery: a player named you in a new game's
    seats. You are not seated until you join; decline refuses."""

    event = fields.String(required=True, validate=validate.OneOf(["game.invited"]))
    seat = fields.Integer(required=True, metadata={"description": "The seat reserved for you"})
    status = fields.String(required=True, validate=validate.OneOf(["open"]))
    invited_by = fields.Nested(WebhookInviterSchema, required=True)
    if_declined = fields.String(
        required=True,
        validate=validate.OneOf(["cancel", "open"]),
        metadata={
            "description": "What your refusal does: cancel the game, or open your seat to anyone"
        },
    )
    sent_at = fields.String(required=True, metadata=ISO_TIME)
    links = fields.Nested(WebhookInvitationLinksSchema, required=True)


class WebhookGameLinkSchema(Schema):
    game = fields.Url(required=True, require_tld=False)


class WebhookGameCancelledSchema(WebhookDeliverySchema):
    """The body of a `game.cancelled` webhook delivery: an invited player declined, so the
    game (which had not started) is cancelled."""

    event = fields.String(required=True, validate=validate.OneOf(["game.cancelled"]))
    status = fields.String(required=True, validate=validate.OneOf(["cancelled"]))
    invited_by = fields.Nested(WebhookInviterSchema, required=True)
    sent_at = fields.String(required=True, metadata=ISO_TIME)
    links = fields.Nested(WebhookGameLinkSchema, required=True)


NEXT_PAGE = {
    "Link": {
        "description": 'The next page, when there is one: `<url>; rel="next"` '
        "(the same as the `next` field)",
        "required": False,
        "schema": {"type": "string"},
    }
}
"""The header of an answer that is one page of a longer list."""


def location_header(made: str) -> dict[str, dict]:
    """The `Location` header of an answer that made something (`made` says what it points to)."""
    return {
        "Location": {
            "description": made,
            "required": True,
            "schema": {"type": "string", "format": "uri-reference"},
        }
    }
