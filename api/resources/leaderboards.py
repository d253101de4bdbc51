"""GET /v1/leaderboards/{game}: a title's leaderboard, a page at a time."""

from urllib.parse import urlencode

from flask.views import MethodView

from service.errors import ErrorCode

from .. import context
from ..blueprints import Blueprint
from ..json_answers import json_answer
from ..paging import next_page
from ..rating_schemas import LeaderboardQuerySchema, LeaderboardSchema
from ..schemas import NEXT_PAGE

blp = Blueprint.resource("leaderboards", "/v1/leaderboards", "The best rated players of each game")


@blp.route("/<game>")
class Leaderboard(MethodView):
    @blp.operation(
        "getLeaderboard",
        200,
        LeaderboardSchema,
        headers=NEXT_PAGE,
        query=LeaderboardQuerySchema,
        errors=[ErrorCode.LEADERBOARD_NOT_FOUND],
        security=[],
    )
    def get(self, query, game):
        """A game's leaderboard: the players with enough rated games who played one lately"""
        board = context.services().ratings.leaderboard(game, query["page"], query["per_page"])
        url = None
        if board["page"] < board["pages"]:
            url = (
                f"{blp.url_prefix}/{game}?"
                f"{urlencode({'page': board['page'] + 1, 'per_page': board['per_page']})}"
            )
        return json_answer(*next_page(board, url))  # plain values: see json_answers
