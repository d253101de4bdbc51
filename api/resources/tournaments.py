"""/v1/tournaments: create one, the lobby's and your own, a tournament with its standings and
pairings, sign up, withdraw, and its log live. A request records the player's intent only: the
worker starts the tournament, creates its games and pairs its rounds (service/tournaments)."""

import re

from flask import Response, current_app
from flask.views import MethodView

from service.errors import ErrorCode
from store.tournaments import TournamentEventType

from .. import context
from ..blueprints import Blueprint
from ..error_codes import TOURNAMENT_WRITE_CODES
from ..event_streams import Event, event_schema, event_stream, resume_parameters, resume_point
from ..json_answers import json_answer
from ..schemas import location_header
from ..tournament_schemas import (
    TournamentCreateSchema,
    TournamentListQuerySchema,
    TournamentListSchema,
    TournamentSchema,
)

blp = Blueprint.resource(
    "tournaments",
    "/v1/tournaments",
    "Tournaments: round-robins and Swiss events of two-player games",
)

VERSION_TEXT = re.compile(r"[0-9]{1,15}")
ENDED = ("finished", "cancelled")
TOURNAMENT_EVENT = event_schema(
    VERSION_TEXT.pattern,
    "The event's version in the tournament's log",
    {"enum": sorted(TournamentEventType), "description": "The event's type"},
    "The event as JSON: its type, version and time (`at`, ms) and its own fields",
)


def tournaments():
    return context.services().tournaments


@blp.route("")
class Tournaments(MethodView):
    @blp.operation(
        "createTournament",
        201,
        TournamentSchema,
        headers=location_header("The tournament"),
        body=TournamentCreateSchema,
        errors=[
            ErrorCode.GAME_UNKNOWN,
            ErrorCode.GAME_INVALID_OPTIONS,
            ErrorCode.GAME_INVALID_TIME_CONTROL,
            ErrorCode.TOURNAMENT_INVALID,
            ErrorCode.PLAYER_NOT_FOUND,
        ],
    )
    def post(self, body):
        """Create a tournament, taking sign-ups (you are not signed up by creating it)"""
        start = body["start_at"]
        made = tournaments().create(
            context.caller(),
            body["game"],
            body["format"],
            body["size"],
            body["time_control"],
            name=body["name"],
            options=body["options"],
            rated=body["rated"],
            rounds=body["rounds"],
            start_at=None if start is None else int(start.timestamp() * 1000),
        )
        return json_answer(made, 201, {"Location": f"{blp.url_prefix}/{made['id']}"})

    @blp.operation("listTournaments", 200, TournamentListSchema, query=TournamentListQuerySchema)
    def get(self, query):
        """The tournaments taking sign-ups (the lobby's); entered=me yours"""
        player = context.caller()
        if query.get("entered") == "me":
            return json_answer({"tournaments": tournaments().of_player(player)})
        return json_answer({"tournaments": tournaments().open_list()})


@blp.route("/<tournament_id>")
class Tournament(MethodView):
    @blp.operation("getTournament", 200, TournamentSchema, errors=[ErrorCode.TOURNAMENT_NOT_FOUND])
    def get(self, tournament_id):
        """A tournament: its players, standings with tiebreaks, and each round's games"""
        return json_answer(tournaments().get(tournament_id, context.caller()))


@blp.route("/<tournament_id>/signup")
class SignUp(MethodView):
    @blp.operation(
        "signUpToTournament",
        200,
        TournamentSchema,
        errors=[
            *TOURNAMENT_WRITE_CODES,
            ErrorCode.PLAYER_NOT_FOUND,
            ErrorCode.TOURNAMENT_CLOSED,
            ErrorCode.TOURNAMENT_ALREADY_SIGNED_UP,
        ],
    )
    def post(self, tournament_id):
        """Sign up to a tournament taking sign-ups"""
        return json_answer(tournaments().sign_up(tournament_id, context.caller()))


@blp.route("/<tournament_id>/withdraw")
class Withdraw(MethodView):
    @blp.operation(
        "withdrawFromTournament",
        200,
        TournamentSchema,
        errors=[
            *TOURNAMENT_WRITE_CODES,
            ErrorCode.TOURNAMENT_NOT_ENTERED,
            ErrorCode.TOURNAMENT_OVER,
        ],
    )
    def post(self, tournament_id):
        """Leave a tournament: off the list before it starts, withdrawn after"""
        return json_answer(tournaments().leave(tournament_id, context.caller()))


@blp.route("/<tournament_id>/stream")
class Stream(MethodView):
    @blp.operation(
        "streamTournament",
        errors=[
            ErrorCode.TOURNAMENT_NOT_FOUND,
            ErrorCode.STREAM_TOO_MANY,
        ],
        parameters=resume_parameters(
            {"type": "string", "pattern": r"^[0-9]{0,15}$"},
            "The last version you received: the stream resumes after it",
            "Resume after this version (for a client that cannot send Last-Event-ID; the "
            "header wins)",
        ),
        security=[{"bearerAuth": []}, {"streamTicket": []}],
        responses={
            "200": {
                "description": "Server-sent events: first a `retry:` hint, then one event per "
                "entry of the tournament's log (id = version, event = type), a keep-alive "
                "comment every 15 seconds. It ends after TournamentEnded or "
                "TournamentCancelled, or after five minutes: reconnect with Last-Event-ID",
                "content": {"text/event-stream": {"schema": TOURNAMENT_EVENT}},
            },
            "204": {"description": "The tournament is over and you have its last event"},
        },
    )
    def get(self, tournament_id):
        """The tournament's log, live (server-sent events), resumable with Last-Event-ID"""
        player = context.caller()
        live = current_app.extensions["turnpost"]["stream_tournaments"]
        after = int(resume_point(VERSION_TEXT, "version numbers") or "0")
        shown = live.get(tournament_id)
        if shown["status"] in ENDED and after >= shown["version"]:
            return Response(status=204)

        def wait(after: int, block_ms: int) -> tuple[list[Event], bool]:
            found = live.events_after(tournament_id, after, block_ms)
            over = any(
                e["type"] in (TournamentEventType.ENDED, TournamentEventType.CANCELLED)
                for e in found
            )
            return [Event(e["version"], e["type"], e) for e in found], over

        return event_stream(player, after, wait)
