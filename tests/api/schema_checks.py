"""The check every game's schema test shares: the documented schemas describe every view
(each seat's and the spectator's) and every legal action of a match."""

from api.game_views import game_schema_module
from engine import match as runner


def check_match_against_schemas(game, m) -> None:
    schemas = game_schema_module(game.info.name)
    view_schema, action_schema = schemas.VIEW_SCHEMA(), schemas.ACTION_SCHEMA(many=True)
    for seat in (None, *range(m["seats"])):
        view = game.view(m["state"], seat)
        assert view_schema.validate(view) == {}, (seat, view_schema.validate(view))
    for seat in sorted(runner.active_seats(game, m)):
        legal = runner.legal_actions(game, m, seat)
        assert legal and action_schema.validate(legal) == {}
