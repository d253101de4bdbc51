"""/v1/matchmaking/{game}: ask for a rated game against someone near your rating, see where
your request stands, stop waiting. The worker pairs (service/matchmaking)."""

from flask.views import MethodView

from service.errors import ErrorCode

from .. import context
from ..blueprints import Blueprint
from ..json_answers import json_answer
from ..matchmaking_schemas import MatchAskSchema, MatchRequestSchema
from ..schemas import location_header

blp = Blueprint.resource(
    "matchmaking", "/v1/matchmaking", "Matchmaking: a rated game against someone near your rating"
)


def matchmaking():
    return context.services().matchmaking


@blp.route("/<game>")
class Request(MethodView):
    @blp.operation(
        "askForMatch",
        201,
        MatchRequestSchema,
        headers=location_header("Your request"),
        body=MatchAskSchema,
        body_required=False,
        errors=[ErrorCode.MATCHMAKING_NOT_FOUND, ErrorCode.PLAYER_NOT_FOUND],
    )
    @blp.alt_response(200, schema=MatchRequestSchema, description="You were waiting already")
    def post(self, body, game):
        """Ask for a rated game of this title against someone near your rating"""
        found, made = matchmaking().ask(
            context.caller(), game, (body or {}).get("bot_after_seconds")
        )
        return json_answer(found, 201 if made else 200, {"Location": f"{blp.url_prefix}/{game}"})

    @blp.operation("getMatch", 200, MatchRequestSchema, errors=[ErrorCode.MATCHMAKING_NOT_FOUND])
    def get(self, game):
        """Your latest request for a game of this title: waiting, matched (with your game) or
        cancelled"""
        return json_answer(matchmaking().get(context.caller(), game))

    @blp.operation(
        "cancelMatch",
        200,
        MatchRequestSchema,
        errors=[ErrorCode.MATCHMAKING_NOT_FOUND, ErrorCode.MATCHMAKING_MATCHED],
    )
    def delete(self, game):
        """Stop waiting for a game of this title"""
        return json_answer(matchmaking().cancel(context.caller(), game))
