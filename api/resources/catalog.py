"""GET /v1/catalog: the games this server hosts, its words (descriptions) in the language the
request's Accept-Language asks for (api/languages.py)."""

from collections.abc import Callable
from typing import Any

from flask.views import MethodView

from engine import registry
from service.errors import Words
from service.play.games import bots_of, clock_catalog
from service.play.how_to_play import page_path
from service.play.table import TIMEOUT_WORDS

from .. import context
from ..blueprints import Blueprint
from ..languages import asked, headers, said_in
from ..schemas import CatalogSchema

blp = Blueprint.resource(
    "catalog", "/v1/catalog", "The games: player counts, options, how to write moves"
)


@blp.route("")
class Catalog(MethodView):
    @blp.operation("getCatalog", 200, CatalogSchema, security=[])
    def get(self):
        """The games this server hosts"""
        language = asked()

        def said(text: str) -> str:
            return said_in(text, language)

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
                    "options": {k: _option(o.to_json(), said) for k, o in info.options.items()},
                    "notation": list(info.notation),
                    "bots": list(bots_of(game)),
                    "how_to_play": site + page_path(info.name),
                }
            )
        days = context.services().settings.vacation_days_a_year
        vacation = Words(
            "Each player has %(days)d vacation days a calendar year (UTC). Taken ahead (POST "
            "/v1/players/me/vacation), they stop the player's clocks in every game; when a clock "
            "would run out and days are left, one is used there and then, a day at a time, "
            "before the timeout policy applies. A vacation ends early when the player moves or "
            "says so.",
            days=days,
        )
        answer = {
            "games": games,
            "clocks": [
                _clock(clock, said) for clock in clock_catalog(context.games().min_move_seconds)
            ],
            "on_timeout": {policy: said(words) for policy, words in TIMEOUT_WORDS.items()},
            "vacation": {"days_a_year": days, "description": said(vacation)},
        }
        return answer, 200, headers(language)


def _option(option: dict[str, Any], said: Callable[[str], str]) -> dict[str, Any]:
    return {**option, "description": said(option["description"])}


def _clock(clock: dict[str, Any], said: Callable[[str], str]) -> dict[str, Any]:
    """A kind of clock of the catalog, its words said (those the catalogues have)."""
    return {
        **clock,
        "description": said(clock["description"]),
        "fields": {
            name: {**field, "description": said(field["description"])}
            for name, field in clock["fields"].items()
        },
        "presets": [{**preset, "words": said(preset["words"])} for preset in clock["presets"]],
    }
