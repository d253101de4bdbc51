"""Every error the API answers with, as one table, and the exception a use case ends with.

`ErrorCode` is the table: each member carries its stable code (the value clients read), its
HTTP status and what it means. A use case raises `ServiceError(ErrorCode.GAME_FULL, words)`;
the API answers with the member's status once (api/errors.py); the OpenAPI document lists each
operation's members with their meaning (api/error_codes.py, api/spec_plugin.py). A code that is
not a member cannot be raised: a typo fails the type checker, not a client.

The engine stays pure and names its refusals by code only (`engine.core.GameError`); each of
its codes is a member here, and `service.play.refusals.refused` looks it up (and words the
refusal for the languages).

A message is English. The API says it in the language a client asks for (api/languages.py):
a message written as a literal is its own gettext message id; one with values is `Words`,
which keeps its message id (named placeholders) and values. babel.cfg extracts both.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from typing import Any

from transports.phrases import Phrase


class ErrorCode(Enum):
    status: int
    meaning: str

    def __new__(cls, code: str, status: int, meaning: str) -> ErrorCode:
        member = object.__new__(cls)
        member._value_ = code
        member.status = status
        member.meaning = meaning
        return member

    @property
    def code(self) -> str:
        return str(self.value)

    @classmethod
    def of(cls, code: str) -> ErrorCode:
        """The member whose code this is; ValueError for a code the table lacks."""
        for error in cls:
            if error.code == code:
                return error
        raise ValueError(f"{code!r} is not in the table of error codes")

    REQUEST_BAD_JSON = "request/bad_json", 400, "the body is not valid JSON"
    AUTH_UNAUTHORIZED = (
        "auth/unauthorized",
        401,
        "no bearer token was sent: `Authorization: Bearer <token>`",
    )
    AUTH_BAD_TOKEN = "auth/bad_token", 401, "the bearer token is not valid"
    AUTH_FORBIDDEN = "auth/forbidden", 403, "you may not do this"
    GAME_NOT_A_PLAYER = "game/not_a_player", 403, "you have no seat in this game"
    INBOUND_BAD_SECRET = (
        "inbound/bad_secret",
        403,
        "the Turnpost-Inbound-Secret header is missing or wrong",
    )
    GAME_NOT_FOUND = "game/not_found", 404, "there is no game with this id"
    PLAYER_NOT_FOUND = "player/not_found", 404, "there is no such player"
    LEADERBOARD_NOT_FOUND = (
        "leaderboard/not_found",
        404,
        "there is no leaderboard by that name: each game of /v1/catalog has one",
    )
    TOURNAMENT_NOT_FOUND = "tournament/not_found", 404, "there is no tournament with this id"
    MATCHMAKING_NOT_FOUND = (
        "matchmaking/not_found",
        404,
        "you have not asked for a game of this title (or there is no such game)",
    )
    INBOUND_DISABLED = (
        "inbound/disabled",
        404,
        "inbound email is not set up on this server (INBOUND_SECRET)",
    )
    MOVE_STALE_VERSION = (
        "move/stale_version",
        409,
        "the game has moved on since the version you sent; `current_version` "
        "tells where it is: read again and retry",
    )
    MOVE_INVALID = "move/invalid", 409, "the game refuses the move"
    MOVE_NOT_YOUR_TURN = "move/not_your_turn", 409, "it is not your turn"
    MOVE_ILLEGAL = (
        "move/illegal",
        409,
        "the move is well formed but not allowed now: see /legal-moves",
    )
    MOVE_GAME_OVER = "move/game_over", 409, "the game is over"
    GAME_NOT_STARTED = (
        "game/not_started",
        409,
        "the game waits for players to take its open seats",
    )
    GAME_ALREADY_RESIGNED = "game/already_resigned", 409, "you have already left this game"
    GAME_FULL = "game/full", 409, "the game has no open seat"
    GAME_ALREADY_SEATED = "game/already_seated", 409, "you already have a seat in this game"
    GAME_SEAT_TAKEN = "game/seat_taken", 409, "the seat you asked for is not open"
    GAME_BUSY = ("game/busy", 409, "the game changed under the request again and again: try again")
    GAME_NOT_INVITED = (
        "game/not_invited",
        409,
        "you have no invitation to answer in this game (never invited, or "
        "already joined or declined)",
    )
    GAME_CANCELLED = "game/cancelled", 409, "the game was cancelled: an invited player declined"
    GAME_NOT_FINISHED = "game/not_finished", 409, "a rematch follows a finished game"
    CHAT_CLOSED = (
        "chat/closed",
        409,
        "messages are written while the game is on (a finished game's stay readable)",
    )
    PROPOSAL_NOT_ALLOWED = (
        "proposal/not_allowed",
        409,
        "that proposal cannot be made now: the message says why (no move of yours to take "
        "back, one already open, no clock to pause, past the second round...)",
    )
    PROPOSAL_NOT_ASKED = (
        "proposal/not_asked",
        409,
        "you are not asked to answer this proposal (you made it, or answered it), or it is "
        "not yours to withdraw",
    )
    GAME_BLOCKED = (
        "game/blocked",
        409,
        "you and a player of this game have blocked one another: you are not seated together",
    )
    TOURNAMENT_CLOSED = (
        "tournament/closed",
        409,
        "sign-ups are closed: the tournament is full, has begun or is over",
    )
    TOURNAMENT_ALREADY_SIGNED_UP = (
        "tournament/already_signed_up",
        409,
        "you are signed up to this tournament already",
    )
    TOURNAMENT_NOT_ENTERED = (
        "tournament/not_entered",
        409,
        "you are not playing in this tournament (never signed up, left or withdrew)",
    )
    TOURNAMENT_OVER = "tournament/over", 409, "the tournament is over"
    TOURNAMENT_BUSY = (
        "tournament/busy",
        409,
        "the tournament changed under the request again and again: try again",
    )
    MATCHMAKING_MATCHED = (
        "matchmaking/matched",
        409,
        "your request is matched already: `game_id` is your game",
    )
    PLAYER_NO_WEBHOOK = ("player/no_webhook", 409, "you have no webhook: set webhook_url first")
    PUSH_TOO_MANY = (
        "push/too_many",
        409,
        "you have the most push subscriptions one player may keep "
        "(PUSH_DEVICES_PER_PLAYER): remove one first",
    )
    PUSH_NOT_FOUND = "push/not_found", 404, "you have no push subscription with this id"
    REQUEST_TIMEOUT = (
        "request/timeout",
        408,
        "the body did not arrive in time (BODY_TIMEOUT_SECONDS)",
    )
    PROPOSAL_NOT_FOUND = (
        "proposal/not_found",
        404,
        "the game has no open proposal with this id (it was answered, withdrawn or lapsed)",
    )
    NO_SUCH_PATH = "not_found", 404, "no operation has this path (see /openapi.json)"
    REQUEST_METHOD_NOT_ALLOWED = (
        "request/method_not_allowed",
        405,
        "the path does not take this method: `Allow` lists those it takes",
    )
    REQUEST_TOO_LARGE = "request/too_large", 413, "the body is larger than 256 KiB"
    REQUEST_UNSUPPORTED_MEDIA_TYPE = (
        "request/unsupported_media_type",
        415,
        "the body must be sent as application/json",
    )
    REQUEST_INVALID = (
        "request/invalid",
        422,
        "the request does not match the schema; `errors` says where",
    )
    REQUEST_IDEMPOTENCY_MISMATCH = (
        "request/idempotency_mismatch",
        422,
        "the Idempotency-Key was used before with another body: a "
        "retry sends the same body, a new move a new key",
    )
    MOVE_MALFORMED = (
        "move/malformed",
        422,
        "the move cannot be read: send `notation` or `action` (one), written as "
        "/legal-moves lists them",
    )
    PLAYER_INVALID = "player/invalid", 422, "a player needs a name"
    PLAYER_CONFIRM_MISMATCH = (
        "player/confirm_mismatch",
        422,
        "deleting an account is confirmed with its own player id (`confirm`)",
    )
    PLAYER_UNSAFE_WEBHOOK = (
        "player/unsafe_webhook",
        422,
        "the webhook URL is not https, or its host is not a public address "
        "(loopback, private, link-local, reserved)",
    )
    CHAT_INVALID = (
        "chat/invalid",
        422,
        "a message is plain text on one line of 1 to 500 characters: no control characters, "
        "line breaks, lone surrogates or characters that turn the direction of the text",
    )
    CHAT_BAD_RECIPIENT = (
        "chat/bad_recipient",
        422,
        "a private message goes to one other player (`to`: their seat) of a game of three "
        "seats or more",
    )
    PUSH_INVALID_SUBSCRIPTION = (
        "push/invalid_subscription",
        422,
        "the subscription is not one a browser makes: `keys.p256dh` must be a P-256 point "
        "and `keys.auth` 16 bytes, both base64url",
    )
    PUSH_UNSAFE_ENDPOINT = (
        "push/unsafe_endpoint",
        422,
        "the push service's endpoint is not https, or its host is not a public address",
    )
    REPORT_INVALID = (
        "report/invalid",
        422,
        "a report names a player (not you), or a message of a game that you may read, and "
        "gives a reason",
    )
    GAME_UNKNOWN = "game/unknown", 422, "there is no game by that name (see /v1/catalog)"
    GAME_INVALID_SEATS = (
        "game/invalid_seats",
        422,
        "the seats do not fit the game: count, unknown player or bot, a player "
        "twice, or no seat for a person",
    )
    PLAYER_INVALID_FRIENDS = (
        "player/invalid_friends",
        422,
        "a friend is not a player, is yourself, or the list is longer than 500",
    )
    GAME_INVALID_OPTIONS = (
        "game/invalid_options",
        422,
        "an option is unknown or has a value the game does not take",
    )
    TOURNAMENT_INVALID = (
        "tournament/invalid",
        422,
        "the tournament's settings do not fit: its game, format, size, rounds, start or name",
    )
    INBOUND_EMPTY = "inbound/empty", 422, "the body must be a raw RFC 822 message"
    GAME_INVALID_TIME_CONTROL = (
        "game/invalid_time_control",
        422,
        "the clock's kind is unknown, a field of it is out of range (the catalog's `clocks` "
        "has the bounds), or on_timeout is not auto or forfeit",
    )
    VACATION_INVALID = (
        "vacation/invalid",
        422,
        "the vacation's dates do not read, end before they start, or start in the past",
    )
    VACATION_NOT_ENOUGH_DAYS = (
        "vacation/not_enough_days",
        409,
        "the vacation is longer than the vacation days left this year",
    )
    VACATION_OVERLAPS = (
        "vacation/overlaps",
        409,
        "the vacation overlaps one already taken: end or change that one first",
    )
    RATE_LIMITED = (
        "rate/limited",
        429,
        "too many requests: wait the Retry-After seconds; the RateLimit headers tell your quota",
    )
    STREAM_TOO_MANY = (
        "stream/too_many",
        429,
        "you have the most event streams open that one player may "
        "(STREAMS_PER_PLAYER): close one first",
    )
    SERVER_ERROR = "server/error", 500, "the server failed; nothing was changed"
    SERVER_UNAVAILABLE = (
        "server/unavailable",
        503,
        "the server could not reach its database just now (a restart, a failover): try again "
        "after Retry-After seconds. For a write the outcome may be unknown: send the same "
        "request with the same Idempotency-Key (it answers what happened, or applies it now, "
        "once), or read the game: its version tells",
    )


class Words(Phrase):
    """A message with values, in English (`Words("there is no player %(player)s",
    player=pid)` is "there is no player p_1"), that keeps its gettext message id and values so
    that it can be said in another language (transports.phrases.Phrase, under the service's
    name: a transport's Phrase passes through a ServiceError as it is)."""


class ServiceError(Exception):
    """A use case refused: `error` says which (and so the HTTP status), `message` says it to a
    person, `details` are extra fields for clients (for example current_version)."""

    def __init__(self, error: ErrorCode, message: str | None = None, **details: Any):
        self.error = error
        self.message = message or error.meaning
        self.details = details
        super().__init__(self.message)

    @property
    def code(self) -> str:
        return self.error.code

    @property
    def status(self) -> int:
        return self.error.status


def no_player(player_id: str, code: ErrorCode = ErrorCode.PLAYER_NOT_FOUND) -> ServiceError:
    """The refusal of a player id that names nobody (under the use case's own code)."""
    return ServiceError(code, Words("there is no player %(player)s", player=player_id))


def game_not_found(game_id: str) -> ServiceError:
    """The refusal of a game id that names no game."""
    return ServiceError(ErrorCode.GAME_NOT_FOUND, Words("there is no game %(game)s", game=game_id))


def no_game(title: str, code: ErrorCode, games: Iterable[str]) -> ServiceError:
    """The refusal of a name that is none of our `games`, naming them."""
    return ServiceError(
        code,
        Words(
            "there is no game %(game)r; the games are: %(games)s",
            game=title,
            games=", ".join(sorted(games)),
        ),
    )


class StaleVersion(ServiceError):
    def __init__(self, current_version: int):
        super().__init__(
            ErrorCode.MOVE_STALE_VERSION,
            Words(
                "the game has moved on to version %(version)s: read it again and send your "
                "move with that version",
                version=current_version,
            ),
            current_version=current_version,
        )


class OutcomeUnknown(ServiceError):
    """A write was sent to the store and its answer lost (the connection died after the
    append script was sent), and the store did not come back in time to tell whether it was
    applied: 503 server/unavailable, with `retry_after` seconds (the Retry-After header)."""

    def __init__(self, game_id: str, retry_after: int):
        super().__init__(
            ErrorCode.SERVER_UNAVAILABLE,
            Words(
                "the outcome of this write to game %(game)s is unknown: the server lost its "
                "database after it sent the write. After Retry-After seconds, send the same "
                "request with the same Idempotency-Key: it answers what happened, or applies "
                "it now, once. Without a key, read the game: its version and log tell whether "
                "it was applied",
                game=game_id,
            ),
        )
        self.retry_after = retry_after


class TooMany(ServiceError):
    """Too many requests, or too many of something open at once: try again after
    `retry_after` seconds (sent as the Retry-After header)."""

    def __init__(self, message: str, retry_after: int, error: ErrorCode = ErrorCode.RATE_LIMITED):
        super().__init__(error, message)
        self.retry_after = retry_after
