import pytest

from engine import registry
from service.play.games import GameService
from service.players.accounts import PlayerService
from store.games import GameStore
from store.players import PlayerStore
from tests.engine.hidden_bid import GAME as HIDDEN_BID


@pytest.fixture
def test_game(monkeypatch):
    """The platform's test game, registered for this test only (never in the catalog)."""
    monkeypatch.setitem(registry.GAMES, "hiddenbid", HIDDEN_BID)
    return HIDDEN_BID


@pytest.fixture
def services(redis_client):
    players = PlayerService(PlayerStore(redis_client))
    games = GameService(GameStore(redis_client), PlayerStore(redis_client))
    return players, games
