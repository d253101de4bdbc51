"""The request and response schemas shared by the resources (the per-game ones: game_views.py)."""

from marshmallow import Schema, fields, validate

from engine import registry
from service.errors import ErrorCode
from service.languages import LANGUAGES
from service.notify import notifications as notice
from service.notify.digest import DIGEST
from service.play.talk import MAX_CHARS as MAX_MESSAGE_CHARS
from service.players.accounts import MAX_FRIENDS, WEBHOOK_KINDS
from store.record import EventType

from .described import boolean, described, integer, listed, nested, string
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
GAME_NOTICES = [notice.GAME_FINISHED, notice.GAME_INVITED, notice.GAME_CANCELLED]
"""The events about a game as a whole, which every way of telling a player carries."""
TALK_NOTICES = [notice.CHAT_MESSAGE, notice.PROPOSAL_MADE, notice.PROPOSAL_CLOSED]
"""The events of the players' messages and proposals."""
DELIVERY_EVENTS = [notice.TURN_STARTED, notice.TURN_REMINDER, *GAME_NOTICES, *TALK_NOTICES, DIGEST]
PUSH_EVENTS = [notice.TURN_STARTED, notice.TURN_CONTINUES, notice.TURN_REMINDER, *GAME_NOTICES]


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


def optional_integer(description: str, least: int, most: int) -> JsonInteger:
    """A whole number from `least` to `most` that a request may leave out or send as null."""
    return JsonInteger(
        load_default=None,
        allow_none=True,
        validate=validate.Range(least, most),
        metadata={"description": description},
    )


class ProblemSchema(Schema):
    """An error answer: RFC 9457 problem details, with `code` and `message` as extension
    members (the two fields clients have always read)."""

    type = string(
        "A URI naming the kind of problem: `about:blank`, the status says it",
        metadata={"example": "about:blank"},
    )
    title = string("The status's phrase, e.g. Conflict")
    status = integer("The HTTP status code")
    detail = string("The same words as `message`")
    code = string(
        "Stable machine-readable code, e.g. move/stale_version; each error "
        "response lists those it may carry",
        validate=validate.OneOf([error.code for error in ErrorCode]),
    )
    message = string("What went wrong, in words")
    errors = fields.Dict(
        metadata={
            "description": "Field-by-field validation errors: by location and field name, "
            "each field's messages in the language of `message`"
        }
    )
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
    how_to_play = described(
        fields.Url,
        "The web page that teaches this title to a person who never played "
        "it: the goal, a turn, the end and the scoring, with pictures of a real game, and "
        "these options in plain words",
    )


class ClockFieldSchema(Schema):
    minimum = fields.Integer(required=True)
    maximum = fields.Integer(required=True)
    description = fields.String(required=True)


class CatalogClockSchema(Schema):
    kind = fields.String(required=True, validate=validate.OneOf(["none", "per_move", "bank"]))
    description = fields.String(required=True)
    fields_ = described(
        fields.Dict,
        "Each field of this kind's time_control, in seconds",
        data_key="fields",
        attribute="fields",
        keys=fields.String(),
        values=fields.Nested(ClockFieldSchema),
    )
    presets = listed(fields.Dict(), "time_controls offered on the web form, with their words")


class VacationRulesSchema(Schema):
    days_a_year = integer("Vacation days each player has a calendar year")
    description = fields.String(required=True)


class CatalogSchema(Schema):
    games = fields.List(fields.Nested(CatalogGameSchema), required=True)
    clocks = listed(
        fields.Nested(CatalogClockSchema), "The kinds of clock a game may have (time_control.kind)"
    )
    on_timeout = described(
        fields.Dict, "What each timeout policy does", keys=fields.String(), values=fields.String()
    )
    vacation = fields.Nested(VacationRulesSchema, required=True)


WEBHOOK_KIND = {
    "description": "What your webhook_url gets: `signed` (the default), the signed JSON of "
    "docs/notifications.md; `discord` or `slack`, a line of text in that app's incoming-webhook "
    "JSON (the game, the last move as everyone reads it, a link), for a channel's webhook URL"
}


LANGUAGE = {
    "description": "The language of your web pages: en (English), ru (Russian) or it "
    "(Italian); null: none chosen, so each page follows the browser's Accept-Language, "
    "and English where it asks for none of these. Error codes and the notation of moves "
    "are the same in every language",
    "example": "it",
}


class PlayerCreateSchema(Schema):
    name = fields.String(required=True, validate=validate.Length(min=1, max=64))
    email = fields.Email(allow_none=True, load_default=None)
    webhook_url = fields.Url(
        allow_none=True, load_default=None, schemes={"http", "https"}, require_tld=False
    )
    webhook_kind = fields.String(
        load_default=None, validate=validate.OneOf(WEBHOOK_KINDS), metadata=WEBHOOK_KIND
    )
    language = fields.String(
        allow_none=True, load_default=None, validate=validate.OneOf(LANGUAGES), metadata=LANGUAGE
    )


class ChannelChoiceSchema(Schema):
    email = JsonBoolean()
    push = JsonBoolean()
    webhook = JsonBoolean()


class EventChannelsSchema(Schema):
    turn = fields.Nested(
        ChannelChoiceSchema, metadata={"description": "Your turn starts or goes on"}
    )
    reminder = fields.Nested(
        ChannelChoiceSchema, metadata={"description": "Reminders at 50% and 90% of a clock"}
    )
    invitation = fields.Nested(
        ChannelChoiceSchema,
        metadata={"description": "Invitations, and a game cancelled because one was declined"},
    )
    game_over = fields.Nested(ChannelChoiceSchema, metadata={"description": "A game ends"})
    chat = fields.Nested(
        ChannelChoiceSchema, metadata={"description": "Messages in a game's chat, where it has one"}
    )


class NotificationPreferencesSchema(Schema):
    events = fields.Nested(
        EventChannelsSchema,
        metadata={
            "description": "For each notice, the channels it goes by (all on by default; a "
            "PATCH changes only those it names). A channel switched off below is off for "
            "every notice"
        },
    )
    digest_at = fields.String(
        allow_none=True,
        validate=validate.Regexp(r"^([01][0-9]|2[0-3]):[0-5][0-9]$"),
        metadata={
            "description": "HH:MM in your time zone: one email a day at that time, listing "
            "every game waiting for you (nearest deadline first, each with its board and "
            "one-click moves), instead of an email per turn; reminders, invitations and "
            "ends of games still come on their own. null: an email per turn",
            "example": "07:30",
        },
    )
    email = JsonBoolean(metadata={"description": "Turn and end-of-game emails"})
    chat = JsonBoolean(
        metadata={
            "description": "Emails of the players' messages, once the table is quiet, at most "
            "one an hour for a game (off: your turn emails still list them)"
        }
    )
    webhook = JsonBoolean(metadata={"description": "Webhook deliveries"})
    push = JsonBoolean(
        metadata={"description": "Push messages to the devices you turned them on for"}
    )
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
    webhook_kind = fields.String(validate=validate.OneOf(WEBHOOK_KINDS), metadata=WEBHOOK_KIND)
    time_zone = fields.String(allow_none=True, validate=validate.Length(max=64), metadata=TIME_ZONE)
    language = fields.String(allow_none=True, validate=validate.OneOf(LANGUAGES), metadata=LANGUAGE)
    notifications = fields.Nested(NotificationPreferencesSchema)


WEBHOOK_SECRET = {
    "description": "The secret that signs your webhook deliveries: `whsec_` + "
    "base64, as Standard Webhooks (webhook-signature) and Stripe's "
    "libraries (Turnpost-Signature) take it. Shown only in the "
    "answer that made it."
}


class PlayerNameSchema(Schema):
    """A player as others name them: the id (which tells them apart) and the name."""

    id = fields.String(required=True)
    name = fields.String(required=True)


class PlayerSchema(PlayerNameSchema):
    email = fields.String(allow_none=True)
    email_confirmed = boolean(
        "Whether the owner of `email` followed a link emailed to it for you. "
        "Until then it gets nothing but the letters with those links: no turn email, "
        "reminder or invitation. A new address is sent one at once; POST /v1/sign-in "
        "sends another"
    )
    webhook_url = fields.String(allow_none=True)
    webhook_kind = fields.String(
        required=True, validate=validate.OneOf(WEBHOOK_KINDS), metadata=WEBHOOK_KIND
    )
    time_zone = fields.String(allow_none=True, metadata=TIME_ZONE)
    language = fields.String(
        required=True, allow_none=True, validate=validate.OneOf(LANGUAGES), metadata=LANGUAGE
    )
    notifications = fields.Nested(NotificationPreferencesSchema, required=True)
    webhook_status = string(
        "failing: deliveries kept failing, so you get emails instead until "
        "one succeeds or you change webhook_url",
        validate=validate.OneOf(["none", "ok", "failing"]),
    )
    webhook_secret = fields.String(metadata=WEBHOOK_SECRET)


class PlayerCreatedSchema(PlayerNameSchema):
    token = string("The API token: send it as 'Authorization: Bearer <token>'. Shown once.")
    webhook_secret = fields.String(metadata=WEBHOOK_SECRET)


def player_ids(description: str) -> fields.List:
    """A request's whole list of player ids (friends, blocked players)."""
    return listed(
        fields.String(validate=validate.Length(min=1, max=64)),
        description,
        validate=validate.Length(max=MAX_FRIENDS),
    )


class FriendsUpdateSchema(Schema):
    friends = player_ids(
        "Player ids: each may seat you in a game directly; "
        "anyone else who names you in a game's seats "
        "invites you (you join or decline)",
    )


class FriendSchema(PlayerNameSchema):
    """A friend, or a player you blocked."""


class PlayerSearchQuerySchema(Schema):
    name = string("The start of the name, in any case", validate=validate.Length(min=1, max=64))
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))


class PlayerFoundSchema(PlayerNameSchema):
    """A player whose name starts with the one searched for."""


class PlayerSearchSchema(Schema):
    players = listed(
        fields.Nested(PlayerFoundSchema),
        "The players whose name starts with the given one, by name "
        "(names are not unique: the id tells them apart)",
    )


class PublicPlayerSchema(PlayerNameSchema):
    games_played = integer("The games the player has a seat in or had, finished or not")
    ratings = listed(
        fields.Nested(TitleRatingSchema), "A rating per game the player played rated games of"
    )
    record = listed(fields.Nested(TitleRecordSchema), "Per game: finished games, wins and places")
    recent = listed(fields.Nested(ResultSchema), "The last 10 finished games, latest first")
    head_to_head = nested(
        HeadToHeadSchema, "The player's finished games with you; null on your own", allow_none=True
    )


class FriendsSchema(Schema):
    friends = listed(fields.Nested(FriendSchema), "The players who may seat you directly, by id")


class BlockedUpdateSchema(Schema):
    blocked = player_ids(
        "Player ids: none of them invites you or is seated with you from "
        "the lobby, and their messages are hidden from you",
    )


class BlockedSchema(Schema):
    blocked = listed(fields.Nested(FriendSchema), "The players you have blocked, by id")


class ReportPostSchema(Schema):
    reason = string(
        "Why, in a line (checked as a message is)", validate=validate.Length(1, MAX_MESSAGE_CHARS)
    )
    player_id = fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.Length(1, 64),
        metadata={"description": "The player you report (not with a message)"},
    )
    game_id = fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.Length(1, 64),
        metadata={"description": "With `message`: the game of the message you report"},
    )
    message = optional_integer(
        "The message's version (as /chat lists it), one you may read", 1, MAX_VERSION
    )


class ReportReceivedSchema(Schema):
    id = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(["received"]))


class WebhookSecretSchema(Schema):
    webhook_secret = fields.String(required=True, metadata=WEBHOOK_SECRET)


class TokenSchema(Schema):
    token = string(
        "Your new API token: send it as 'Authorization: Bearer <token>'. Shown "
        "once; the one before no longer works."
    )


class SignInRequestSchema(Schema):
    email = described(
        fields.Email, "The address you registered with", validate=validate.Length(max=254)
    )


class SignInAcceptedSchema(Schema):
    message = fields.String(required=True)


class DeliverySchema(Schema):
    id = string("The delivery id: the same on every retry (header Turnpost-Delivery)")
    at = fields.String(required=True, metadata=ISO_TIME)
    channel = fields.String(required=True, validate=validate.OneOf(["email", "webhook", "push"]))
    event = fields.String(required=True, validate=validate.OneOf(DELIVERY_EVENTS))
    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    status = string(
        "fallback: an email sent because the webhook failed; superseded: "
        "not sent, the turn had moved on (or the invitation was answered); "
        "throttled: an invitation not emailed, because another from the same "
        "player was (INVITATION_EMAIL_SECONDS)",
        validate=validate.OneOf(
            ["sent", "fallback", "retrying", "failed", "superseded", "throttled"]
        ),
    )
    attempt = fields.Integer(required=True)
    detail = fields.String(required=True)


BASE64URL = r"^[A-Za-z0-9_-]+={0,2}$"


class PushKeysSchema(Schema):
    p256dh = string(
        "The browser's P-256 public key, base64url (65 bytes)",
        validate=[validate.Length(min=80, max=100), validate.Regexp(BASE64URL)],
    )
    auth = string(
        "The browser's 16-byte authentication secret, base64url",
        validate=[validate.Length(min=20, max=30), validate.Regexp(BASE64URL)],
    )


class PushSubscriptionCreateSchema(Schema):
    """A browser's PushSubscription as `JSON.stringify(subscription)` writes it, and the
    device's name as you want to see it in your list."""

    endpoint = described(
        fields.Url,
        "The push service's URL for this browser (https)",
        schemes={"http", "https"},
        require_tld=False,
        validate=validate.Length(max=1024),
    )
    keys = fields.Nested(PushKeysSchema, required=True)
    expirationTime = fields.Integer(
        allow_none=True, load_default=None, metadata={"description": "Ignored"}
    )
    device = fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.Length(max=64),
        metadata={"description": "A name for the device, e.g. Firefox on my phone"},
    )


class PushSubscriptionSchema(Schema):
    id = fields.String(required=True)
    device = fields.String(required=True)
    push_service = string("The host of the push service it goes through")
    created_at = fields.String(required=True, metadata=ISO_TIME)


class PushSubscriptionsSchema(Schema):
    application_server_key = string(
        "The server's VAPID public key, base64url: subscribe with it "
        "(`pushManager.subscribe({userVisibleOnly: true, applicationServerKey})`)"
    )
    subscriptions = fields.List(fields.Nested(PushSubscriptionSchema), required=True)


class PushMessageSchema(Schema):
    """What the server's push messages hold, once the browser decrypted them (aes128gcm)."""

    title = fields.String(required=True)
    body = fields.String(required=True)
    url = string("The game's page: open it")
    event = fields.String(required=True, validate=validate.OneOf(PUSH_EVENTS))
    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    tag = string("The game's id: a newer notification replaces the older")
    delivery_id = fields.String(required=True)


class FeedsSchema(Schema):
    calendar_url = string(
        "iCalendar (text/calendar): a VEVENT per game waiting for you with "
        "a clock, ending at its deadline (UTC). No token needed: the address is the secret"
    )
    atom_url = string("Atom: an entry per game waiting for your move")


class StreamTicketSchema(Schema):
    ticket = string(
        "Add it to an event stream's address as `?ticket=`, in place of the "
        "Authorization header (which a browser's EventSource cannot send); it opens one "
        "stream, once"
    )
    expires_in = integer(
        "Seconds during which the ticket opens a stream, once; an open stream lasts"
    )


class DeliveryListSchema(Schema):
    deliveries = fields.List(fields.Nested(DeliverySchema), required=True)
    next = string(
        "The next page's address (relative) when older deliveries are kept; null on the last page",
        allow_none=True,
    )


class DeliveryQuerySchema(Schema):
    limit = fields.Integer(load_default=50, validate=validate.Range(1, 200))
    before = fields.Integer(
        validate=validate.Range(1, 2**53),
        metadata={
            "description": "Where the page starts: the `before` in the previous page's `next`"
        },
    )


EIGHT_WEEKS = 8 * 7 * 86400


def clock_seconds(description: str, least: int = 1, most: int = EIGHT_WEEKS) -> JsonInteger:
    """A time control's seconds, in a request (which names those of its kind only)."""
    return JsonInteger(validate=validate.Range(least, most), metadata={"description": description})


class TimeControlSchema(Schema):
    """A game's clock. `kind` per_move (the default, and every game created before kinds):
    `per_move_seconds` for each move; `bank`: a time bank of `initial_seconds`, charged while
    it is your turn, `increment_seconds` added after each of your moves (each step of a turn
    counts), never above `max_seconds`; `none`: no clock (the same as a null time_control).
    The bounds are in the catalog's `clocks`."""

    kind = fields.String(
        load_default="per_move",
        validate=validate.OneOf(["none", "per_move", "bank"]),
        metadata={"description": "per_move, bank, or none"},
    )
    per_move_seconds = clock_seconds(
        "per_move: seconds per move, from the server's minimum (a minute "
        "unless its MIN_MOVE_SECONDS says otherwise) to eight weeks"
    )
    initial_seconds = clock_seconds("bank: the bank at the start, from the minimum to eight weeks")
    increment_seconds = clock_seconds(
        "bank: added after each of your moves, up to two weeks", least=0, most=14 * 86400
    )
    max_seconds = clock_seconds(
        "bank: the most the bank holds (at least initial_seconds), up to eight weeks"
    )
    weekends_off = JsonBoolean(
        load_default=False,
        metadata={
            "description": "A player's clock stands still on Saturday and Sunday in their own "
            "time zone (their profile's time_zone; UTC without one)"
        },
    )
    on_timeout = fields.String(load_default="auto", validate=validate.OneOf(["auto", "forfeit"]))


class VacationSpanSchema(Schema):
    starts_at = fields.String(required=True, metadata=ISO_TIME)
    ends_at = fields.String(required=True, metadata=ISO_TIME)


class SeatClockSchema(Schema):
    """A seat's clock, as the game's last event left it."""

    bank_seconds = integer(
        "What the bank held (whole seconds) when the clock last started or "
        "was charged, at `since`; under per_move, the time for the move"
    )
    since = string("Since when the clock runs; null: stopped", allow_none=True, metadata=ISO_TIME)
    deadline = string(
        "When the bank is used up, weekends off and vacations left out",
        allow_none=True,
        metadata=ISO_TIME,
    )
    vacation = nested(
        VacationSpanSchema,
        "The player's vacation now, or the next one: the clock stands "
        "still from starts_at to ends_at",
        allow_none=True,
    )


class SeatClockNowSchema(SeatClockSchema):
    """A seat's clock, with what it holds now."""

    left_seconds = integer("What the bank holds now (whole seconds)")
    paused = string(
        "Why the running clock stands still now: the player's weekend "
        "(weekends_off) or vacation; null when it runs or is stopped",
        allow_none=True,
        validate=validate.OneOf(["weekend", "vacation"]),
    )


class GameCreateSchema(Schema):
    game = fields.String(required=True, metadata=GAME_NAME)
    seats = listed(
        fields.String(allow_none=True),
        "One entry per seat: a player id, one of the title's bots (its "
        "`bots` in the catalog: 'bot:random', 'bot:heuristic', 'bot:expert'), or null for "
        "an open seat",
        validate=validate.Length(min=1, max=6),
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
    kind = string(
        "invited: reserved for the player named, who has not accepted (join) or declined yet",
        validate=validate.OneOf(["player", "bot", "open", "invited"]),
    )
    player_id = fields.String(allow_none=True)
    name = fields.String(allow_none=True)
    deadline = fields.String(allow_none=True, metadata=ISO_TIME)
    clock = fields.Nested(
        SeatClockNowSchema,
        allow_none=True,
        metadata={"description": "The seat's clock (null without a clock or before the start)"},
    )
    refused_by = fields.String(
        allow_none=True,
        metadata={
            "description": "An open seat whose invited player refused: that player's name "
            "(the seat was opened to the lobby after it)"
        },
    )


class OutcomeSchema(Schema):
    winners = fields.List(fields.Integer(), required=True)
    scores = fields.List(fields.Float(), allow_none=True)
    reason = fields.String(required=True)


class GameTournamentSchema(Schema):
    id = string("The tournament (GET /v1/tournaments/{id})")
    round = fields.Integer(required=True)
    board = integer("The game's place in its round")


class GameSummarySchema(Schema):
    id = fields.String(required=True)
    game = fields.String(required=True, metadata=GAME_NAME)
    status = string(
        "open: waiting for players to take its seats; cancelled: an invited "
        "player declined, and the game never started",
        validate=validate.OneOf(["open", "active", "finished", "cancelled"]),
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


class LogMessageSchema(Schema):
    text = string("The message, as written")
    private = boolean("To one other player only (`to`)")
    to = integer("The seat a private message is for; null: the whole table", allow_none=True)


class LogEntrySchema(Schema):
    version = fields.Integer(required=True)
    type = fields.String(required=True, validate=validate.OneOf(LOG_EVENT_TYPES))
    at = fields.String(required=True, metadata=ISO_TIME)
    seat = fields.Integer()
    move = fields.String(metadata={"description": "Your own move, in notation (yours only)"})
    message = fields.Nested(
        LogMessageSchema,
        metadata={
            "description": "A MessageSent's message (`seat` wrote it); only its readers get "
            "the entry at all"
        },
    )
    lines = fields.List(fields.Nested(LogLineSchema), required=True)


class LogSchema(Schema):
    version = fields.Integer(required=True)
    seat = fields.Integer(allow_none=True)
    entries = fields.List(fields.Nested(LogEntrySchema), required=True)
    next = string(
        "The next page's address (relative) while the log has more entries "
        "after this page; null on the last page",
        allow_none=True,
    )


class ChatPostSchema(Schema):
    text = string(
        "Plain text on one line (no control characters, line breaks or "
        "characters that turn the direction of the text), trimmed",
        validate=validate.Length(1, MAX_MESSAGE_CHARS),
        metadata={"example": "Good luck, have fun!"},
    )
    to = optional_integer(
        "A private message to the player at this seat (games of three "
        "seats or more); absent or null: to the whole table",
        0,
        5,
    )


class ChatMessageSchema(Schema):
    version = integer("The message's place in the game's log")
    at = fields.String(required=True, metadata=ISO_TIME)
    seat = integer("The writer's seat")
    name = string("The writer's name")
    text = fields.String(required=True)
    private = fields.Boolean(required=True)
    to = integer("The seat a private message is for; null: the whole table", allow_none=True)


class ChatQuerySchema(Schema):
    after = fields.Integer(load_default=0, validate=validate.Range(0, MAX_VERSION))
    limit = fields.Integer(load_default=50, validate=validate.Range(1, 200))


class ChatListSchema(Schema):
    version = integer("The game's version")
    seat = integer("Your seat")
    messages = fields.List(fields.Nested(ChatMessageSchema), required=True)
    next = string(
        "The next page's address (relative) while the log goes on after "
        "this page; null on the last page",
        allow_none=True,
    )


PROPOSAL_KINDS = ["takeback", "pause", "draw", "abort"]


class ProposalPostSchema(Schema):
    kind = string(
        "takeback: take back your last move (while it is the game's last "
        "and showed nothing hidden, drew no card or die); pause: pause the clocks for "
        "`days`; draw: end the game with a result shared by every player still in it; "
        "abort: end the game with no result (in its first two rounds)",
        validate=validate.OneOf(PROPOSAL_KINDS),
    )
    days = optional_integer("For a pause: how many days (1 to 30)", 1, 30)


class ProposalAnswerSchema(Schema):
    accept = described(JsonBoolean, "true: yes; false: no")


class ProposalSchema(Schema):
    id = integer("The proposal's id: its version in the log")
    kind = fields.String(required=True, validate=validate.OneOf(PROPOSAL_KINDS))
    seat = integer("The proposer's seat")
    name = string("The proposer's name")
    words = string("What it asks, in words")
    deadline = string("It lapses unanswered then", metadata=ISO_TIME)
    waiting = listed(fields.Integer(), "The seats still to answer")
    accepted = listed(fields.Integer(), "The seats that said yes")
    status = string(
        "void: what it was about changed first (the game moved on or ended)",
        validate=validate.OneOf(["open", "accepted", "declined", "withdrawn", "lapsed", "void"]),
    )
    move = fields.Integer(metadata={"description": "A takeback's move: its version in the log"})
    days = fields.Integer(metadata={"description": "A pause's days"})


class ProposalListSchema(Schema):
    version = fields.Integer(required=True)
    seat = integer("Your seat (null: none)", allow_none=True)
    proposals = fields.List(fields.Nested(ProposalSchema), required=True)
    may_propose = listed(
        fields.String(validate=validate.OneOf(PROPOSAL_KINDS)),
        "What you may propose now (a pause of 1 to 30 days)",
    )


class WebhookProposalInfoSchema(Schema):
    id = fields.Integer(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(PROPOSAL_KINDS))
    seat = integer("The proposer's seat")
    status = fields.String(
        required=True,
        validate=validate.OneOf(["open", "accepted", "declined", "withdrawn", "lapsed", "void"]),
    )
    by = integer("The seat that closed it; null while open, or by the clock", allow_none=True)
    words = fields.String(required=True)


class InboundResultSchema(Schema):
    status = string(
        "played: at least one move was played; said: no move, but the "
        "message after `say:` was sent to the table; refused: nothing was played "
        "and the sender got an answer saying why; ignored: an automatic "
        "message, or one already read (same Message-ID)",
        validate=validate.OneOf(["played", "said", "refused", "ignored"]),
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
    delivery_id = string("The same on every retry, and in the webhook-id header")
    game_id = fields.String(required=True)
    game = fields.String(required=True, metadata=GAME_NAME)
    version = fields.Integer(required=True)
    seat = integer("Your seat")
    status = fields.String(required=True)


class WebhookVacationSchema(Schema):
    seat = fields.Integer(required=True)
    until = string("Until when, in words, in UTC")


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
    bank_seconds = integer(
        "What your bank holds now (whole seconds); null without a clock", allow_none=True
    )
    on_vacation = listed(
        fields.Nested(WebhookVacationSchema),
        "The seats whose player is on vacation: their clocks stand still",
    )
    sent_at = fields.String(required=True, metadata=ISO_TIME)
    links = fields.Nested(WebhookLinksSchema, required=True)


class WebhookGameFinishedSchema(WebhookTurnStartedSchema):
    """The body of a `game.finished` webhook delivery."""

    event = fields.String(required=True, validate=validate.OneOf(["game.finished"]))
    outcome = fields.Nested(OutcomeSchema, required=True)
    ratings = listed(
        fields.Nested(RatingChangeSchema),
        "A rated game's rating change for each seat; null if unrated",
        allow_none=True,
    )


class WebhookInviterSchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True, allow_none=True)


class WebhookInvitationLinksSchema(Schema):
    game = fields.Url(required=True, require_tld=False)
    join = described(
        fields.Url, "POST here to accept (take the seat reserved for you)", require_tld=False
    )
    decline = described(fields.Url, "POST here to refuse", require_tld=False)


class WebhookGameInvitedSchema(WebhookDeliverySchema):
    """The body of a `game.invited` webhook delivery: a player named you in a new game's
    seats. You are not seated until you join; decline refuses."""

    event = fields.String(required=True, validate=validate.OneOf(["game.invited"]))
    seat = integer("The seat reserved for you")
    status = fields.String(required=True, validate=validate.OneOf(["open"]))
    invited_by = fields.Nested(WebhookInviterSchema, required=True)
    if_declined = string(
        "What your refusal does: cancel the game, or open your seat to anyone",
        validate=validate.OneOf(["cancel", "open"]),
    )
    sent_at = fields.String(required=True, metadata=ISO_TIME)
    links = fields.Nested(WebhookInvitationLinksSchema, required=True)


class WebhookChatLinksSchema(Schema):
    game = fields.Url(required=True, require_tld=False)
    chat = described(
        fields.Url, "The game's messages from this one on (GET, your token)", require_tld=False
    )


class WebhookChatMessageSchema(WebhookDeliverySchema):
    """The body of a `chat.message` webhook delivery: a message you may read (to the table, or
    privately to you) from another player, one delivery per message."""

    event = fields.String(required=True, validate=validate.OneOf(["chat.message"]))
    status = fields.String(required=True, validate=validate.OneOf(["active", "finished"]))
    message = fields.Nested(ChatMessageSchema, required=True)
    sent_at = fields.String(required=True, metadata=ISO_TIME)
    links = fields.Nested(WebhookChatLinksSchema, required=True)


class WebhookProposalLinksSchema(Schema):
    game = fields.Url(required=True, require_tld=False)
    proposals = fields.Url(required=True, require_tld=False)


class WebhookProposalSchema(WebhookDeliverySchema):
    """The body of a `proposal.made` webhook delivery (a proposal you are asked to answer) and
    of a `proposal.closed` one (a proposal you made or were asked about has ended)."""

    event = fields.String(
        required=True, validate=validate.OneOf(["proposal.made", "proposal.closed"])
    )
    status = fields.String(
        required=True, validate=validate.OneOf(["active", "finished", "cancelled"])
    )
    proposal = fields.Nested(WebhookProposalInfoSchema, required=True)
    sent_at = fields.String(required=True, metadata=ISO_TIME)
    links = fields.Nested(WebhookProposalLinksSchema, required=True)


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


class VacationTakeSchema(Schema):
    from_date = described(
        fields.Date,
        "The first day of the vacation, in your time zone (today or later)",
        data_key="from",
    )
    to_date = described(fields.Date, "The last day of the vacation, included", data_key="to")


class VacationSchema(Schema):
    starts_at = fields.String(required=True, metadata=ISO_TIME)
    ends_at = fields.String(required=True, metadata=ISO_TIME)
    days = integer("The vacation days it counts")
    automatic = boolean("A day used when one of your clocks would have run out")


class VacationStateSchema(Schema):
    days_a_year = fields.Integer(required=True)
    year = integer("The year counted (UTC)")
    used_days = fields.Integer(required=True)
    left_days = fields.Integer(required=True)
    time_zone = string("Whose days the dates are", allow_none=True)
    vacations = listed(fields.Nested(VacationSchema), "Your vacations now and ahead")
    on_vacation_until = string("While you are away: until when", allow_none=True, metadata=ISO_TIME)
