"""POST /v1/players; find players by name; a player's public profile; GET and PATCH /v1/players/me; your friends; the API token and the
webhook secret; the delivery log; your stream of events; POST /v1/sign-in (a sign-in link by
email, for a lost token)."""

import re
from urllib.parse import urlencode

from flask import current_app
from flask.views import MethodView

from service.errors import ErrorCode
from service.notify import notifications as notice
from service.notify import tournament_letters

from .. import context
from ..blueprints import Blueprint
from ..event_streams import Event, event_schema, event_stream, resume_parameters, resume_point
from ..json_answers import json_answer
from ..own_data_schemas import AccountDeletedSchema, AccountDeleteQuerySchema, PlayerExportSchema
from ..paging import next_page
from ..schemas import (
    GAME_NOTICES,
    NEXT_PAGE,
    TALK_NOTICES,
    BlockedSchema,
    BlockedUpdateSchema,
    DeliveryListSchema,
    DeliveryQuerySchema,
    FriendsSchema,
    FriendsUpdateSchema,
    PlayerCreatedSchema,
    PlayerCreateSchema,
    PlayerPatchSchema,
    PlayerSchema,
    PlayerSearchQuerySchema,
    PlayerSearchSchema,
    PublicPlayerSchema,
    SignInAcceptedSchema,
    SignInRequestSchema,
    StreamTicketSchema,
    TokenSchema,
    VacationStateSchema,
    VacationTakeSchema,
    WebhookSecretSchema,
    location_header,
)

blp = Blueprint.resource(
    "players", "/v1/players", "Registering, your profile and your notification settings"
)


@blp.route("")
class Players(MethodView):
    @blp.operation(
        "registerPlayer",
        201,
        PlayerCreatedSchema,
        headers=location_header("Your profile (with the token as bearer)"),
        body=PlayerCreateSchema,
        errors=[ErrorCode.PLAYER_INVALID, ErrorCode.PLAYER_UNSAFE_WEBHOOK],
        security=[],
    )
    def post(self, body):
        """Register a player; the answer holds the API token, shown only once. An `email`
        is sent one letter with a link that confirms it; until its owner follows the link,
        it is emailed nothing else"""
        return context.players().register(**body), 201, {"Location": f"{blp.url_prefix}/me"}

    @blp.operation("findPlayers", 200, PlayerSearchSchema, query=PlayerSearchQuerySchema)
    def get(self, query):
        """Find players by the start of their name, to seat or invite them by id"""
        context.caller()
        return {"players": context.players().named(query["name"], query["limit"])}


@blp.route("/<player_id>")
class PublicPlayer(MethodView):
    @blp.operation("getPlayer", 200, PublicPlayerSchema, errors=[ErrorCode.PLAYER_NOT_FOUND])
    def get(self, player_id):
        """A player's public profile: their name, ratings and record, and their games with you"""
        reader = context.caller()
        profile = context.players().public_profile(player_id)
        return {**profile, **context.services().ratings.of_player(player_id, reader)}


@blp.route("/me")
class Me(MethodView):
    @blp.operation("getMe", 200, PlayerSchema, errors=[ErrorCode.PLAYER_NOT_FOUND])
    def get(self):
        """Your profile and notification settings"""
        return context.players().profile(context.caller())

    @blp.operation(
        "deleteMe",
        200,
        AccountDeletedSchema,
        query=AccountDeleteQuerySchema,
        errors=[ErrorCode.PLAYER_NOT_FOUND, ErrorCode.PLAYER_CONFIRM_MISMATCH],
    )
    def delete(self, query):
        """Delete your account, confirmed with your player id"""
        return context.services().own_data.delete(context.caller(), query["confirm"])

    @blp.operation(
        "updateMe",
        200,
        PlayerSchema,
        body=PlayerPatchSchema,
        body_required=False,
        errors=[
            ErrorCode.PLAYER_NOT_FOUND,
            ErrorCode.PLAYER_INVALID,
            ErrorCode.PLAYER_UNSAFE_WEBHOOK,
        ],
    )
    def patch(self, changes):
        """Change your name, email, webhook or notification settings (a first webhook gets
        its secret in this answer)"""
        return context.players().update(context.caller(), changes)


@blp.route("/me/export")
class Export(MethodView):
    @blp.operation(
        "exportMe",
        200,
        PlayerExportSchema,
        headers={
            "Content-Disposition": {
                "description": "attachment; filename=turnpost-<your id>.json",
                "schema": {"type": "string"},
            }
        },
        errors=[ErrorCode.PLAYER_NOT_FOUND],
    )
    def get(self):
        """Everything the server holds about you, as one JSON document"""
        player = context.caller()
        return json_answer(
            context.services().own_data.export(player),
            200,
            {"Content-Disposition": f'attachment; filename="turnpost-{player}.json"'},
        )


@blp.route("/me/friends")
class Friends(MethodView):
    @blp.operation("getFriends", 200, FriendsSchema, errors=[ErrorCode.PLAYER_NOT_FOUND])
    def get(self):
        """The players who may seat you in a game without an invitation"""
        return context.players().friends(context.caller())

    @blp.operation(
        "setFriends",
        200,
        FriendsSchema,
        body=FriendsUpdateSchema,
        errors=[ErrorCode.PLAYER_NOT_FOUND, ErrorCode.PLAYER_INVALID_FRIENDS],
    )
    def put(self, body):
        """Set the players who may seat you in a game without an invitation (the whole list)"""
        return context.players().set_friends(context.caller(), body["friends"])


@blp.route("/me/vacation")
class Vacation(MethodView):
    @blp.operation("getVacation", 200, VacationStateSchema, errors=[ErrorCode.PLAYER_NOT_FOUND])
    def get(self):
        """Your vacations ahead and the vacation days you have left this year"""
        return _vacations().state(context.caller())

    @blp.operation(
        "takeVacation",
        201,
        VacationStateSchema,
        body=VacationTakeSchema,
        errors=[
            ErrorCode.PLAYER_NOT_FOUND,
            ErrorCode.VACATION_INVALID,
            ErrorCode.VACATION_NOT_ENOUGH_DAYS,
            ErrorCode.VACATION_OVERLAPS,
        ],
    )
    def post(self, body):
        """Take a vacation: your clocks in every game stand still from one date to another"""
        return _vacations().take(
            context.caller(), body["from_date"].isoformat(), body["to_date"].isoformat()
        )

    @blp.operation("endVacation", 200, VacationStateSchema, errors=[ErrorCode.PLAYER_NOT_FOUND])
    def delete(self):
        """Come back: end the vacation you are on now and cancel those ahead"""
        return _vacations().end(context.caller())


def _vacations():
    found = context.services().vacations
    if found is None:  # every assembly has one
        raise RuntimeError("the app was assembled without vacations")
    return found


@blp.route("/me/blocked")
class Blocked(MethodView):
    @blp.operation("getBlocked", 200, BlockedSchema, errors=[ErrorCode.PLAYER_NOT_FOUND])
    def get(self):
        """The players you have blocked"""
        return context.players().blocked(context.caller())

    @blp.operation(
        "setBlocked",
        200,
        BlockedSchema,
        body=BlockedUpdateSchema,
        errors=[ErrorCode.PLAYER_NOT_FOUND, ErrorCode.PLAYER_INVALID_FRIENDS],
    )
    def put(self, body):
        """Set the players you have blocked (the whole list)"""
        return context.players().set_blocked(context.caller(), body["blocked"])


@blp.route("/me/webhook-secret")
class WebhookSecret(MethodView):
    @blp.operation(
        "rotateWebhookSecret",
        201,
        WebhookSecretSchema,
        headers=location_header("Your profile, whose webhook it signs"),
        errors=[ErrorCode.PLAYER_NOT_FOUND, ErrorCode.PLAYER_NO_WEBHOOK],
    )
    def post(self):
        """Make a new webhook secret; the old one stops working at once"""
        return (
            context.players().rotate_webhook_secret(context.caller()),
            201,
            {"Location": f"{blp.url_prefix}/me"},
        )


@blp.route("/me/token")
class Token(MethodView):
    @blp.operation(
        "rotateToken",
        201,
        TokenSchema,
        headers=location_header("Your profile (with the new token as bearer)"),
        errors=[ErrorCode.PLAYER_NOT_FOUND],
    )
    def post(self):
        """Make a new API token; the old one stops working at once, and every web session
        of yours is signed out"""
        return (
            context.players().new_token(context.caller()),
            201,
            {"Location": f"{blp.url_prefix}/me"},
        )


@blp.route("/me/deliveries")
class Deliveries(MethodView):
    @blp.operation(
        "listDeliveries",
        200,
        DeliveryListSchema,
        headers=NEXT_PAGE,
        query=DeliveryQuerySchema,
        errors=[ErrorCode.PLAYER_NOT_FOUND],
    )
    def get(self, query):
        """Your latest email and webhook deliveries, newest first"""
        found = context.players().deliveries(context.caller(), query["limit"], query.get("before"))
        url = None
        if found["next_before"] is not None:
            url = (
                f"{blp.url_prefix}/me/deliveries?"
                f"{urlencode({'limit': query['limit'], 'before': found['next_before']})}"
            )
        return next_page({"deliveries": found["deliveries"]}, url)


@blp.route("/me/stream-ticket")
class StreamTicket(MethodView):
    @blp.operation("makeStreamTicket", 201, StreamTicketSchema, errors=[ErrorCode.PLAYER_NOT_FOUND])
    def post(self):
        """A ticket that opens your event streams from a browser's EventSource"""
        return context.players().stream_ticket(context.caller()), 201


ENTRY_ID = re.compile(r"[0-9]{1,15}-[0-9]{1,10}")
PLAYER_EVENT_TYPES = [
    notice.TURN_STARTED,
    notice.TURN_CONTINUES,
    *GAME_NOTICES,
    *TALK_NOTICES,
    *tournament_letters.EVENTS,
    "matchmaking.matched",
]
PLAYER_EVENT = event_schema(
    ENTRY_ID.pattern,
    "The event's id in your stream: send it as Last-Event-ID",
    {"enum": PLAYER_EVENT_TYPES},
    'JSON: {"event", "game_id", "game", "version", "seat"}: which game, at which version; a '
    'tournament\'s event: {"event", "tournament_id", "game", "round"} and, when a round '
    'starts, "games": your games of the round (their ids, separated by spaces); '
    'matchmaking\'s: {"event", "game_id", "game"}',
)
NUMBERS = ("version", "seat", "round")
"""The fields of a stream's event that are numbers (a Redis stream keeps text)."""
RESUME_PARAMETERS = resume_parameters(
    {"type": "string", "pattern": f"^({ENTRY_ID.pattern})?$"},
    "The last event id you received: the stream resumes after it",
    "Resume after this event id (for a client that cannot send Last-Event-ID; the header wins)",
)


@blp.route("/me/stream")
class MyStream(MethodView):
    @blp.operation(
        "streamMyEvents",
        errors=[ErrorCode.STREAM_TOO_MANY],
        security=[{"bearerAuth": []}, {"streamTicket": []}],
        parameters=RESUME_PARAMETERS,
        responses={
            "200": {
                "description": "Server-sent events of everything that concerns you across "
                "all your games: a turn of yours starts (`turn.started`) or "
                "goes on (`turn.continues`), an invitation (`game.invited`), "
                "a game ends or is cancelled, another player writes a "
                "message you may read (`chat.message`: its version is the "
                "message's), a proposal asks you (`proposal.made`) or ends "
                "(`proposal.closed`); each with the game and its version; a "
                "round of one of your tournaments starts or ends "
                "(`tournament.round_started`, `tournament.round_ended`); "
                "matchmaking found your game (`matchmaking.matched`). First a `retry:` hint; a keep-alive comment every "
                "15 seconds; the stream ends after five minutes: reconnect "
                "with Last-Event-ID (an EventSource does). Without one it "
                "starts with what comes next; the last 1,000 events are kept "
                "for resuming.",
                "content": {"text/event-stream": {"schema": PLAYER_EVENT}},
            }
        },
    )
    def get(self):
        """Your events across all your games, live (server-sent events), resumable"""
        player = context.caller()
        given = resume_point(ENTRY_ID, "event ids such as 1-0")
        players = current_app.extensions["turnpost"]["stream_players"]
        after = given or players.last_event_id(player)

        def wait(after: str, block_ms: int) -> tuple[list[Event], bool]:
            found = players.wait_events(player, after, block_ms)
            return [
                Event(
                    entry_id,
                    fields["event"],
                    {k: int(v) if k in NUMBERS else v for k, v in fields.items()},
                )
                for entry_id, fields in found
            ], False

        return event_stream(player, after, wait)


sign_in_blp = Blueprint.resource(
    "sign_in", "/v1/sign-in", "A new API token by email, when yours is lost"
)

SIGN_IN_ACCEPTED = (
    "If a player here is registered with this address, a sign-in link is on "
    "its way to it. The link works once, for a short while, and gives a new "
    "API token."
)


@sign_in_blp.route("")
class SignIn(MethodView):
    @sign_in_blp.operation(
        "requestSignIn", 202, SignInAcceptedSchema, body=SignInRequestSchema, security=[]
    )
    def post(self, body):
        """Email a sign-in link to a registered address: one letter naming each account
        registered with it (following a link also confirms the address for that account);
        an address gets at most SIGN_IN_PER_ADDRESS_PER_HOUR letters an hour, whoever asks"""
        context.services().sign_in.request_link(body["email"])
        return {"message": SIGN_IN_ACCEPTED}, 202
