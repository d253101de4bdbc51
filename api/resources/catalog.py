"""GET /v1/catalog: the games this server hosts."""

from flask.views import MethodView

from engine import registry
from service.play.games import bots_of, clock_catalog
from service.play.how_to_play import page_path
from service.play.table import TIMEOUT_WORDS

from .. import context
from ..blueprints import Blueprint
from ..schemas import CatalogSchema

blp = Blueprint(
    "catalog",
    __name__,
    url_prefix="/v1/catalog",
    description="The games: player counts, options, how to write moves",
)


@blp.route("")
class Catalog(MethodView):
    @blp.doc(security=[], operationId="getCatalog")
    @blp.response(200, CatalogSchema)
    def get(self):
        """The games this server hosts"""
        games = []
        site = context.services().settings.public_url
        for _, game in sorted(registry.GAMES.items()):
            info = game.info
            games.append(
                {
                    "name": info.name,
                    "title": info.title,
                    "min_players": info.min_players,
                    "max_players": info.max_players,
                    "rules_version": info.rules_version,
                    "options": {k: o.to_json() for k, o in info.options.items()},
                    "notation": list(info.notation),
                    "bots": list(bots_of(game)),
                    "how_to_play": site + page_path(info.name),
                }
            )
        days = context.services().settings.vacation_days_a_year
        return {
            "games": games,
            "clocks": clock_catalog(context.games().min_move_seconds),
            "on_timeout": dict(TIMEOUT_WORDS),
            "vacation": {
                "days_a_year": days,
                "description": f"Each player has {days} vacation days a calendar year (UTC). "
                "Taken ahead (POST /v1/players/me/vacation), they stop the player's clocks in "
                "every game; when a clock would run out and days are left, one is used "
                "there and then, a day at a time, before the timeout policy applies. A "
                "vacation ends early when the player moves or says so.",
            },
        }
