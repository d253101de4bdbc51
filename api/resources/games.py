"""/v1/games: create, list, summary, join, view, legal moves, moves, log, resign."""

import base64
import json
import re
from urllib.parse import urlencode

from flask import Response, request
from flask.views import MethodView

from service.errors import ErrorCode, ServiceError
from service.play.games import ReplayedAnswer
from store.record import EventType

from .. import context, metrics
from ..blueprints import Blueprint
from ..error_codes import SEATED_WRITE_CODES
from ..event_streams import Event, event_schema, event_stream, resume_parameters, resume_point
from ..game_views import GameViewSchema, LegalMovesSchema, MoveSchema
from ..json_answers import json_answer
from ..paging import log_page, next_page
from ..schemas import (
    LOG_EVENT_TYPES,
    NEXT_PAGE,
    GameCreateSchema,
    GameListQuerySchema,
    GameListSchema,
    GameSummarySchema,
    JoinSchema,
    LogQuerySchema,
    LogSchema,
    MoveResultSchema,
    location_header,
)

blp = Blueprint.resource(
    "games", "/v1/games", "Games: create and join, read your view, play, follow the log"
)

IDEMPOTENCY_HEADER = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "schema": {"type": "string", "minLength": 1, "maxLength": 100},
    "description": "A retry with the same key and the same body returns the "
    "first answer (for a day); the same key with another "
    "body answers 422 request/idempotency_mismatch",
}
REPLAYED = {
    "Idempotent-Replayed": {
        "description": "`true` when this is the first answer to your Idempotency-Key, given "
        "again: the move was played once, by the first request",
        "required": False,
        "schema": {"type": "string", "enum": ["true"]},
    }
}
VERSION_TEXT = re.compile(r"[0-9]{1,15}")  # a version in a header: at most MAX_VERSION
RESUME_PARAMETERS = resume_parameters(
    {"type": "string", "pattern": r"^[0-9]{0,15}$"},  # empty: from the start
    "The last version you received: the stream resumes after it",
    "Resume after this version, for a client that cannot send "
    "Last-Event-ID (the header wins when both are there)",
)
SSE_EVENT = event_schema(
    VERSION_TEXT.pattern,
    "The entry's version",
    {"enum": LOG_EVENT_TYPES, "description": "The entry's type"},
    "The entry as /log lists it (a LogEntry), as JSON",
)
ETAG = {
    "ETag": {
        "description": "The game's version, quoted: send it as If-None-Match",
        "required": True,
        "schema": {"type": "string", "pattern": r'^"[0-9]+"$'},
    }
}
LOCATION = location_header("What was made: the game, or the log from the move on")
TOKEN_OR_TICKET: list[dict[str, list[str]]] = [{"bearerAuth": []}, {"streamTicket": []}]
ENDED = ("finished", "cancelled")  # nothing more will be written to the game's log
IF_NONE_MATCH = {
    "name": "If-None-Match",
    "in": "header",
    "required": False,
    "schema": {"type": "string"},
    "description": "The ETag you hold; 304 when the game has not moved",
}


@blp.route("")
class Games(MethodView):
    @blp.operation(
        "createGame",
        201,
        GameSummarySchema,
        headers=LOCATION,
        body=GameCreateSchema,
        errors=[
            ErrorCode.GAME_UNKNOWN,
            ErrorCode.GAME_INVALID_SEATS,
            ErrorCode.GAME_INVALID_OPTIONS,
            ErrorCode.GAME_INVALID_TIME_CONTROL,
        ],
    )
    def post(self, body):
        """Create a game: the seats are player ids (others are invited), bots, or null"""
        game = context.games().create(
            context.caller(),
            body["game"],
            body["seats"],
            body["options"],
            body["time_control"],
            body["if_declined"],
            rated=body["rated"],
        )
        metrics.created(game["game"])
        return game, 201, {"Location": f"{blp.url_prefix}/{game['id']}"}

    @blp.operation("listGames", 200, GameListSchema, headers=NEXT_PAGE, query=GameListQuerySchema)
    def get(self, query):
        """Your games; awaiting=me your inbox, invited=me your invitations, status=open the lobby"""
        player = context.caller()
        if query.get("status") == "open":
            return json_answer({"games": context.games().open_games(query["limit"], viewer=player)})
        if query.get("invited") == "me":
            return json_answer({"games": context.games().invitations(player, query["limit"])})
        awaiting = query.get("awaiting") == "me"
        games, following = context.games().list_games(
            player, awaiting, query["limit"], read_cursor(query.get("cursor"))
        )
        url = None
        if following is not None:
            args = {
                **({"awaiting": "me"} if awaiting else {}),
                "limit": query["limit"],
                "cursor": make_cursor(following),
            }
            url = f"{blp.url_prefix}?{urlencode(args)}"
        return json_answer(*next_page({"games": games}, url))


@blp.route("/<game_id>")
class Game(MethodView):
    @blp.operation("getGame", 200, GameSummarySchema, errors=[ErrorCode.GAME_NOT_FOUND])
    def get(self, game_id):
        """A game's summary: status, seats, version, who is to move, deadline, outcome"""
        context.caller()
        return json_answer(context.games().summary(game_id))


@blp.route("/<game_id>/join")
class Join(MethodView):
    @blp.operation(
        "joinGame",
        200,
        GameSummarySchema,
        body=JoinSchema,
        body_required=False,
        errors=[
            ErrorCode.GAME_NOT_FOUND,
            ErrorCode.PLAYER_NOT_FOUND,
            ErrorCode.GAME_FULL,
            ErrorCode.GAME_ALREADY_SEATED,
            ErrorCode.GAME_SEAT_TAKEN,
            ErrorCode.GAME_BUSY,
            ErrorCode.GAME_CANCELLED,
        ],
    )
    def post(self, body, game_id):
        """Take an open seat, or the seat reserved for you (accepting the invitation)"""
        return context.games().join(game_id, context.caller(), body.get("seat"))


@blp.route("/<game_id>/rematch")
class Rematch(MethodView):
    @blp.operation(
        "rematchGame",
        201,
        GameSummarySchema,
        headers=LOCATION,
        errors=[*SEATED_WRITE_CODES, ErrorCode.GAME_NOT_FINISHED, ErrorCode.GAME_INVALID_SEATS],
    )
    @blp.alt_response(200, schema=GameSummarySchema, description="The rematch asked for before")
    def post(self, game_id):
        """Ask for a rematch of a finished game"""
        game, created = context.games().rematch(game_id, context.caller())
        if created:
            metrics.created(game["game"])
        return game, 201 if created else 200, {"Location": f"{blp.url_prefix}/{game['id']}"}


@blp.route("/<game_id>/decline")
class Decline(MethodView):
    @blp.operation(
        "declineGame",
        200,
        GameSummarySchema,
        errors=[
            ErrorCode.GAME_NOT_FOUND,
            ErrorCode.GAME_NOT_INVITED,
            ErrorCode.GAME_CANCELLED,
            ErrorCode.GAME_BUSY,
        ],
    )
    def post(self, game_id):
        """Refuse an invitation to a game"""
        return context.games().decline(game_id, context.caller())


TEXT_BOARD = {
    "text/plain": {
        "schema": {
            "type": "string",
            "description": "The board as monospace text (UTF-8, lines of at most "
            "72 columns), for terminals and chat clients",
        }
    }
}


@blp.route("/<game_id>/view")
class View(MethodView):
    @blp.operation(
        "getView",
        200,
        GameViewSchema,
        headers=ETAG,
        description="Your view as JSON; with `Accept: text/plain` the board as "
        "text, drawn from the same view",
        errors=[ErrorCode.GAME_NOT_FOUND, ErrorCode.GAME_NOT_STARTED, ErrorCode.GAME_CANCELLED],
        parameters=[IF_NONE_MATCH],
        responses={200: {"content": TEXT_BOARD}},
    )
    @blp.alt_response(
        304, description="Not modified: the game is at the version you hold", headers=ETAG
    )
    def get(self, game_id):
        """Your view of the game (a spectator's if you have no seat), as JSON or as a board"""
        player = context.caller()
        held = _held_version()
        headers = {"Vary": "Accept"}
        if _prefers_text():
            board = context.games().board(game_id, player, unless_version=held)
            if board is None:
                return Response(status=304, headers={"ETag": f'"{held}"', **headers})
            version, text = board
            return Response(
                text, status=200, mimetype="text/plain", headers={"ETag": f'"{version}"', **headers}
            )
        view = context.games().view(game_id, player, unless_version=held)
        if view is None:
            return Response(status=304, headers={"ETag": f'"{held}"', **headers})
        return json_answer(view, 200, {"ETag": f'"{view["version"]}"', **headers})


@blp.route("/<game_id>/legal-moves")
class LegalMoves(MethodView):
    @blp.operation(
        "getLegalMoves",
        200,
        LegalMovesSchema,
        errors=[
            ErrorCode.GAME_NOT_FOUND,
            ErrorCode.GAME_NOT_A_PLAYER,
            ErrorCode.GAME_NOT_STARTED,
            ErrorCode.GAME_CANCELLED,
        ],
    )
    def get(self, game_id):
        """Your legal moves now, structured and in notation (empty when it is not your turn)"""
        return json_answer(context.games().legal_moves_for_json(game_id, context.caller()))


@blp.route("/<game_id>/moves")
class Moves(MethodView):
    @blp.operation(
        "playMove",
        201,
        MoveResultSchema,
        headers={**LOCATION, **REPLAYED},
        body=MoveSchema,
        errors=[
            *SEATED_WRITE_CODES,
            ErrorCode.GAME_NOT_STARTED,
            ErrorCode.GAME_CANCELLED,
            ErrorCode.MOVE_STALE_VERSION,
            ErrorCode.MOVE_NOT_YOUR_TURN,
            ErrorCode.MOVE_ILLEGAL,
            ErrorCode.MOVE_GAME_OVER,
            ErrorCode.GAME_ALREADY_RESIGNED,
            ErrorCode.MOVE_MALFORMED,
            ErrorCode.REQUEST_IDEMPOTENCY_MISMATCH,
        ],
        parameters=[IDEMPOTENCY_HEADER],
    )
    def post(self, body, game_id):
        """Play a move (notation or action) made on expected_version"""
        if ("notation" in body) == ("action" in body):
            raise ServiceError(
                ErrorCode.MOVE_MALFORMED, "send either notation or action (one of them)"
            )
        key = request.headers.get("Idempotency-Key")
        if key is not None and not 1 <= len(key) <= 100:
            raise ServiceError(
                ErrorCode.REQUEST_INVALID, "Idempotency-Key must be 1 to 100 characters"
            )
        result = context.games().play(
            game_id,
            context.caller(),
            body["expected_version"],
            notation=body.get("notation"),
            action=body.get("action"),
            idempotency_key=key,
        )
        headers = {"Location": f"{blp.url_prefix}/{game_id}/log?after={body['expected_version']}"}
        if isinstance(result, ReplayedAnswer):
            headers["Idempotent-Replayed"] = "true"
        else:
            metrics.moved(result["game"]["game"])
        return json_answer(result, 201, headers)


@blp.route("/<game_id>/log")
class Log(MethodView):
    @blp.operation(
        "getLog",
        200,
        LogSchema,
        headers=NEXT_PAGE,
        query=LogQuerySchema,
        errors=[ErrorCode.GAME_NOT_FOUND],
    )
    def get(self, query, game_id):
        """The event log as you may see it; page with after=<last version you have>"""
        log = context.games().log(game_id, context.caller(), query["after"], query["limit"])
        more = query["after"] < log["read_to"] < log["version"]
        return log_page(log, f"{blp.url_prefix}/{game_id}/log", query["limit"], more)


@blp.route("/<game_id>/resign")
class Resign(MethodView):
    @blp.operation(
        "resignGame",
        200,
        GameSummarySchema,
        errors=[
            *SEATED_WRITE_CODES,
            ErrorCode.MOVE_GAME_OVER,
            ErrorCode.GAME_ALREADY_RESIGNED,
            ErrorCode.GAME_CANCELLED,
        ],
    )
    def post(self, game_id):
        """Resign (or leave a game that has not started)"""
        return context.games().resign(game_id, context.caller())


@blp.route("/<game_id>/stream")
class Stream(MethodView):
    @blp.operation(
        "streamLog",
        errors=[ErrorCode.GAME_NOT_FOUND, ErrorCode.STREAM_TOO_MANY],
        parameters=RESUME_PARAMETERS,
        security=TOKEN_OR_TICKET,
        responses={
            "200": {
                "description": "Server-sent events: first a `retry:` hint, then one event per log "
                "entry (id = version, event = type, data = the entry as in /log), "
                "and a comment line as keep-alive every 15 seconds. The stream ends "
                "after GameEnded or GameCancelled, or after five minutes: reconnect "
                "with "
                "Last-Event-ID (a browser's EventSource does)",
                "content": {"text/event-stream": {"schema": SSE_EVENT}},
            },
            "204": {
                "description": "The game is over and you have its last event: nothing more "
                "will come (an EventSource stops reconnecting)"
            },
        },
    )
    def get(self, game_id):
        """The log as you may see it, live (server-sent events), resumable with Last-Event-ID"""
        player = context.caller()
        games = context.stream_games()
        after = int(resume_point(VERSION_TEXT, "version numbers") or "0")
        summary = games.summary(game_id)
        if summary["status"] in ENDED and after >= summary["version"]:
            return Response(status=204)

        read_to = after  # past the events this player may not read (others' messages)

        def wait(after: int, block_ms: int) -> tuple[list[Event], bool]:
            nonlocal read_to
            entries, read_to = games.wait_log(game_id, player, max(after, read_to), block_ms)
            if not entries:
                return [], games.summary(game_id)["status"] in ENDED
            over = any(
                e["type"] in (EventType.GAME_ENDED, EventType.GAME_CANCELLED) for e in entries
            )
            return [Event(e["version"], e["type"], e) for e in entries], over

        return event_stream(player, after, wait)


def make_cursor(place: tuple[float, str]) -> str:
    """An opaque cursor for the place where a page of games ends."""
    return base64.urlsafe_b64encode(json.dumps(list(place)).encode()).decode().rstrip("=")


def read_cursor(cursor: str | None) -> tuple[float, str] | None:
    if cursor is None:
        return None
    try:
        score, game_id = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
        if (
            isinstance(score, (int, float))
            and not isinstance(score, bool)
            and isinstance(game_id, str)
        ):
            return float(score), game_id
    except (ValueError, TypeError):
        pass
    raise ServiceError(
        ErrorCode.REQUEST_INVALID,
        "that cursor was not made by this server: use the `next` of a page as it is",
    )


def _prefers_text() -> bool:
    """Whether the request's Accept prefers text/plain to JSON (JSON when neither is named
    more precisely or with a higher quality: `*/*` and no Accept get JSON)."""
    return request.accept_mimetypes.best_match(["application/json", "text/plain"]) == "text/plain"


def _held_version() -> int | None:
    """A version in If-None-Match, weak or strong, if the client sent one of ours (others are
    compared by api/http_conventions.py with the answer's own ETag)."""
    for tag in request.if_none_match.as_set(include_weak=True):
        if tag and VERSION_TEXT.fullmatch(tag):
            return int(tag)
    return None
