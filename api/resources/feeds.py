"""Your calendar of deadlines and feed of turns: their secret addresses, and new ones."""

from flask.views import MethodView

from service.errors import ErrorCode

from .. import context
from ..blueprints import Blueprint
from ..schemas import FeedsSchema

blp = Blueprint.resource(
    "feeds",
    "/v1/players/me/feeds",
    "Your deadlines as an iCalendar feed, your turns as an Atom feed",
)


@blp.route("")
class Feeds(MethodView):
    @blp.operation("getFeeds", 200, FeedsSchema, errors=[ErrorCode.PLAYER_NOT_FOUND])
    def get(self):
        """The secret addresses of your calendar of deadlines and your feed of turns"""
        return context.services().feeds.addresses(context.caller())

    @blp.operation("rotateFeeds", 201, FeedsSchema, errors=[ErrorCode.PLAYER_NOT_FOUND])
    def post(self):
        """New addresses for your calendar and feed; the old ones answer 404 at once"""
        return context.services().feeds.rotate(context.caller()), 201
