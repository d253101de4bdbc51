"""A deleted player is written to no more: not about the deletion's own events (her open games
left, her invitations declined, her seats renamed), nor about a move another player makes
while the deletion runs. Here a real `turnpost worker` sends to a real SMTP server, and the
deletion is held before its last step while Bo moves and the worker catches up: the worst
moment for an email that reads her address."""

import time

import pytest

from bench.run import settled
from service.assembly import assemble
from service.settings import Settings
from store.players import PlayerStore
from tests.addresses import confirm

ADA, BO = "ada@example.org", "bo@example.org"


def move(api, game_id, player_id):
    """The player's first legal move, on the game's current version."""
    version = api.games.load(game_id)["version"]
    notation = api.games.legal_moves(game_id, player_id)["moves"][0]["notation"]
    api.games.play(game_id, player_id, version, notation)


@pytest.mark.slow
def test_the_deletions_own_consequences_email_the_deleted_player_nothing(
    redis_client, smtp, start_workers, monkeypatch
):
    api = assemble(redis_client, Settings())
    start_workers(SMTP_URL=smtp.url, PUBLIC_URL="http://turnpost.test")
    ada = api.players.register("Adaline", email=ADA)["id"]
    bo = api.players.register("Bo", email=BO)["id"]
    for player in (ada, bo):
        confirm(redis_client, player)
    api.players.set_friends(bo, [ada])
    clock = {"per_move_seconds": 86400, "on_timeout": "auto"}
    going = api.games.create(ada, "ninedomains", [ada, bo], time_control=clock)["id"]
    move(api, going, ada)  # Bo's turn
    waiting = api.games.create(ada, "buttons", [ada, None])["id"]  # an open seat in the lobby
    invited = api.games.create(bo, "buttons", [bo, ada])["id"]  # Ada is invited by Bo
    api.players.set_friends(bo, [])
    asked = api.games.create(ada, "buttons", [ada, bo])["id"]  # Bo is invited by Ada
    settled(redis_client, quiet_seconds=1.0, at_most_seconds=60)
    assert smtp.wait_for(lambda m, rcpt: BO in rcpt and m["X-Turnpost-Game"] == going)

    last_step = PlayerStore.delete_player

    def after_the_worker(store, *args, **kwargs):
        move(api, going, bo)  # now it is Ada's turn, or her seat's
        settled(redis_client, quiet_seconds=1.0, at_most_seconds=60)
        return last_step(store, *args, **kwargs)

    monkeypatch.setattr(PlayerStore, "delete_player", after_the_worker)
    began = time.time()
    answer = api.own_data.delete(ada, ada)
    assert set(answer["games"]) >= {waiting, invited, asked}, answer
    assert going in answer["renamed"], answer
    settled(redis_client, quiet_seconds=1.0, at_most_seconds=60)

    to_ada = [m for rcpt, m, at in smtp.messages if ADA in rcpt and at >= began]
    assert to_ada == [], [(m["X-Turnpost-Event"], m["Subject"]) for m in to_ada]
    # the deletion's events did reach Bo, who is still there
    assert any(BO in rcpt and at >= began for rcpt, _, at in smtp.messages)
