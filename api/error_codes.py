"""Every stable error code the API answers with: its HTTP status and what it means.

The OpenAPI document lists, for each operation and status, the codes that operation may answer
with (api/spec_plugin.py writes them). The codes every operation of a kind shares (a bad body, a
missing token) are added there by rule; an operation names its own with `raises(...)`. A test
checks that every code the code base raises is in this table, and the schemathesis run that
every error it sees carries a code its operation documents.
"""
from __future__ import annotations

from flask_smorest import Blueprint

ERROR_CODES: dict[str, tuple[int, str]] = {
    "request/bad_json": (400, "the body is not valid JSON"),
    "auth/unauthorized": (401, "no bearer token was sent: `Authorization: Bearer <token>`"),
    "auth/bad_token": (401, "the bearer token is not valid"),
    "auth/forbidden": (403, "you may not do this"),
    "game/not_a_player": (403, "you have no seat in this game"),
    "inbound/bad_secret": (403, "the Turnpost-Inbound-Secret header is missing or wrong"),
    "game/not_found": (404, "there is no game with this id"),
    "player/not_found": (404, "there is no such player"),
    "inbound/disabled": (404, "inbound email is not set up on this server (INBOUND_SECRET)"),
    "move/stale_version": (409, "the game has moved on since the version you sent; "
                                "`current_version` tells where it is: read again and retry"),
    "move/invalid": (409, "the game refuses the move"),
    "move/not_your_turn": (409, "it is not your turn"),
    "move/illegal": (409, "the move is well formed but not allowed now: see /legal-moves"),
    "move/game_over": (409, "the game is over"),
    "game/not_started": (409, "the game waits for players to take its open seats"),
    "game/already_resigned": (409, "you have already left this game"),
    "game/full": (409, "the game has no open seat"),
    "game/already_seated": (409, "you already have a seat in this game"),
    "game/seat_taken": (409, "the seat you asked for is not open"),
    "game/busy": (409, "the game changed under the request again and again: try again"),
    "game/not_invited": (409, "you have no invitation to answer in this game (never invited, "
                              "or already joined or declined)"),
    "game/cancelled": (409, "the game was cancelled: an invited player declined"),
    "player/no_webhook": (409, "you have no webhook: set webhook_url first"),
    "request/timeout": (408, "the body did not arrive in time (BODY_TIMEOUT_SECONDS)"),
    "not_found": (404, "no operation has this path (see /openapi.json)"),
    "request/method_not_allowed": (405, "the path does not take this method: `Allow` lists "
                                        "those it takes"),
    "request/too_large": (413, "the body is larger than 256 KiB"),
    "request/unsupported_media_type": (415, "the body must be sent as application/json"),
    "request/invalid": (422, "the request does not match the schema; `errors` says where"),
    "request/idempotency_mismatch": (422, "the Idempotency-Key was used before with another "
                                          "body: a retry sends the same body, a new move a "
                                          "new key"),
    "move/malformed": (422, "the move cannot be read: send `notation` or `action` (one), "
                            "written as /legal-moves lists them"),
    "player/invalid": (422, "a player needs a name"),
    "player/unsafe_webhook": (422, "the webhook URL is not https, or its host is not a public "
                                   "address (loopback, private, link-local, reserved)"),
    "game/unknown": (422, "there is no game by that name (see /v1/catalog)"),
    "game/invalid_seats": (422, "the seats do not fit the game: count, unknown player or bot, "
                                "a player twice, or no seat for a person"),
    "player/invalid_friends": (422, "a friend is not a player, is yourself, or the list is "
                                    "longer than 500"),
    "game/invalid_options": (422, "an option is unknown or has a value the game does not take"),
    "inbound/empty": (422, "the body must be a raw RFC 822 message"),
    "game/invalid_time_control": (422, "per_move_seconds is out of range, or on_timeout is "
                                        "not auto or forfeit"),
    "rate/limited": (429, "too many requests: wait the Retry-After seconds; the RateLimit "
                          "headers tell your quota"),
    "stream/too_many": (429, "you have the most event streams open that one player may "
                             "(STREAMS_PER_PLAYER): close one first"),
    "server/error": (500, "the server failed; nothing was changed"),
}

#: What an operation with a request body may always answer with.
BODY_CODES = ("request/timeout", "request/too_large")
#: ... and with a JSON request body.
JSON_BODY_CODES = ("request/bad_json", "request/unsupported_media_type", "request/invalid")
#: What an operation that reads query parameters may always answer with.
QUERY_CODES = ("request/invalid",)
#: What an operation that needs a bearer token may always answer with.
AUTH_CODES = ("auth/unauthorized", "auth/bad_token")
#: What any operation may answer with.
ANY_CODES = ("rate/limited", "server/error")

EXTENSION = "x-error-codes"


def raises(*codes: str):
    """Document the error codes an operation answers with beyond those its kind always has."""
    unknown = [code for code in codes if code not in ERROR_CODES]
    if unknown:
        raise ValueError(f"undocumented error codes {unknown}: add them to ERROR_CODES")
    return Blueprint.doc(**{EXTENSION: list(codes)})
