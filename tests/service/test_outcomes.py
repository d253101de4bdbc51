"""Honest outcomes: a write whose append script reached Valkey but whose answer was lost
(the connection died after the script was sent) is answered with what happened, never with
"nothing was changed" nor a refusal of the very move that was applied. A real Valkey, behind a
real TCP proxy that loses the script's answer and then refuses connections for a while."""

import pytest

from service.errors import ErrorCode, ServiceError
from service.play.games import GameService
from service.players.accounts import PlayerService
from store import keys
from store.connection import StoreUnavailable, connect
from store.games import GameStore
from store.players import PlayerStore
from tests.peers import CuttingProxy

pytestmark = pytest.mark.slow  # the proxy keeps Valkey away for a second or two


@pytest.fixture
def proxy(valkey, redis_client):
    cutting = CuttingProxy(valkey.port)
    yield cutting
    cutting.close()


def through(proxy: CuttingProxy) -> tuple[GameService, PlayerService]:
    """The services on a client (as the server makes it: redis-py 8 retries nothing) that
    talks to Valkey through the proxy."""
    client = connect(proxy.url)
    games = GameService(GameStore(client), PlayerStore(client))
    return games, PlayerService(PlayerStore(client))


def ready_game(games: GameService, players: PlayerService, test_game) -> tuple[str, str, dict]:
    ada, bo = players.register("Ada")["id"], players.register("Bo")["id"]
    players.set_friends(bo, [ada])
    game_id = games.create(ada, "hiddenbid", [ada, bo])["id"]
    legal = games.legal_moves(game_id, ada)
    return game_id, ada, legal


def test_a_move_whose_answer_was_lost_is_answered_as_played(proxy, redis_client, test_game):
    """Valkey runs the append, its answer is lost and Valkey is away 0.3 s: the move was
    played, and the answer says so (not 500 "nothing was changed", nor 409 stale)."""
    games, players = through(proxy)
    game_id, ada, legal = ready_game(games, players, test_game)
    proxy.cut_after(b"EVALSHA", down=0.3)
    answer = games.play(game_id, ada, legal["version"], action=legal["moves"][0]["action"])
    assert proxy.cuts == 1
    assert answer["version"] == legal["version"] + 1
    assert len(GameStore(redis_client).events(game_id)) == legal["version"] + 1


def test_a_game_whose_answer_was_lost_is_created_once(proxy, redis_client, test_game):
    games, players = through(proxy)
    ada = players.register("Ada")["id"]
    games.create(ada, "hiddenbid", [ada, None])  # the append script is loaded
    proxy.cut_after(b"EVALSHA", down=0.3)
    created = games.create(ada, "hiddenbid", [ada, None])
    assert proxy.cuts == 1
    snapshots = list(redis_client.scan_iter(match="tp:game:*:snap"))
    assert len(snapshots) == 2, snapshots
    assert keys.game_snapshot(created["id"]).encode() in snapshots


def test_an_outcome_still_unknown_at_the_deadline_is_503_and_its_key_tells_it(
    proxy, redis_client, test_game
):
    """Valkey is away longer than the request may wait: 503 server/unavailable with a
    Retry-After, never "nothing was changed"; the same request with the same Idempotency-Key
    then answers the move played, once."""
    games, players = through(proxy)
    games.commits.outcome_seconds = 0.5
    game_id, ada, legal = ready_game(games, players, test_game)
    action = legal["moves"][0]["action"]
    proxy.cut_after(b"EVALSHA", down=2.0)
    with pytest.raises(ServiceError) as unknown:
        games.play(game_id, ada, legal["version"], action=action, idempotency_key="k1")
    assert unknown.value.error is ErrorCode.SERVER_UNAVAILABLE
    assert unknown.value.status == 503 and unknown.value.retry_after >= 1
    assert "Idempotency-Key" in unknown.value.message
    proxy.down(0)
    again = games.play(game_id, ada, legal["version"], action=action, idempotency_key="k1")
    assert again["version"] == legal["version"] + 1
    assert len(GameStore(redis_client).events(game_id)) == legal["version"] + 1


def test_valkey_away_before_the_append_was_sent_changes_nothing(proxy, redis_client, test_game):
    """The one failure that may say "nothing was changed": the game could not even be read."""
    games, players = through(proxy)
    game_id, ada, legal = ready_game(games, players, test_game)
    proxy.down(2.0)
    with pytest.raises(StoreUnavailable):
        games.play(game_id, ada, legal["version"], action=legal["moves"][0]["action"])
    assert len(GameStore(redis_client).events(game_id)) == legal["version"]
