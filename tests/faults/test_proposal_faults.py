"""Valkey killed (SIGKILL, down a second, started again on its append-only file) between
proposals and their answers, with a real `turnpost serve` and a real `turnpost worker`: every
proposal acknowledged before is still open after; its acceptance, sent again and again until
the server answers, is carried out once (a move taken back once, the clocks paused once); the
proposals nobody answers lapse once, by the worker's clock."""

from __future__ import annotations

import time

import pytest
import requests

from service.play import agreements, history
from service.play.talk import Talk, TalkLimits
from store.connection import connect
from store.players import PlayerStore
from tests.e2e.server import Client
from tests.faults.test_faults import World

PAUSE_DAYS = 2


@pytest.fixture
def world(tmp_path):
    built = World(tmp_path)
    yield built
    built.close()


def persistently(call):
    """A careful client: the request again while Valkey is away (no answer, or a 5xx)."""
    deadline = time.monotonic() + 60
    while True:
        try:
            r = call()
            if r.status_code < 500:
                return r
        except requests.RequestException:
            pass
        assert time.monotonic() < deadline, "the server did not come back"
        time.sleep(0.2)


def closed(service, game_id):
    return [e for e in service.games.events(game_id) if e["type"] == "ProposalClosed"]


def test_valkey_killed_between_proposals_and_their_answers_loses_and_doubles_nothing(world):
    world.start_worker()
    server = world.start_server()
    service = world.service()
    ada, bo = Client(server.url, "Ada"), Client(server.url, "Bo")
    bo.befriend(ada)
    clock = {"per_move_seconds": 86_400, "on_timeout": "auto"}
    takebacks, pauses, lapsing = [], [], []
    for _ in range(3):  # a face-down commit of The Nine Domains: it may be taken back
        game_id = service.create(ada.id, "ninedomains", [ada.id, bo.id])["id"]
        before = service.load(game_id)["match"]
        legal = ada.get(f"/v1/games/{game_id}/legal-moves").json()
        move = {"action": legal["moves"][0]["action"], "expected_version": legal["version"]}
        assert ada.post(f"/v1/games/{game_id}/moves", move).status_code == 201
        r = ada.post(f"/v1/games/{game_id}/proposals", {"kind": "takeback"})
        assert r.status_code == 201, r.text
        takebacks.append((game_id, r.json()["id"], before))
    for _ in range(2):
        game_id = service.create(ada.id, "nautilus", [ada.id, bo.id], time_control=clock)["id"]
        r = bo.post(f"/v1/games/{game_id}/proposals", {"kind": "pause", "days": PAUSE_DAYS})
        assert r.status_code == 201, r.text
        pauses.append((game_id, r.json()["id"], service.load(game_id)["deadlines"]))
    quick = Talk(service, PlayerStore(connect(world.url)), TalkLimits(proposal_hours=6 / 3600))
    for _ in range(2):  # nobody answers: they lapse six seconds on, by the worker's clock
        game_id = service.create(ada.id, "buttons", [ada.id, bo.id])["id"]
        lapsing.append((game_id, quick.propose(game_id, ada.id, "draw")["id"]))
    time.sleep(1.5)  # the append-only file is written to disk every second
    world.kill_valkey_and_restart(down_seconds=1)
    service = world.service()
    for game_id, proposal, _ in takebacks:
        assert agreements.find(service.load(game_id), proposal) is not None, "a proposal lost"
    answers = [(game_id, proposal) for game_id, proposal, _ in takebacks + pauses]
    for game_id, proposal in answers:
        path = f"/v1/games/{game_id}/proposals/{proposal}/answer"
        accepter = bo if proposal in [p for _, p, _ in takebacks] else ada
        first = persistently(lambda: accepter.post(path, {"accept": True}))
        assert first.status_code in (200, 404), first.text  # 404: a lost answer's retry
        again = accepter.post(path, {"accept": True})
        assert again.status_code == 404 and again.json()["code"] == "proposal/not_found"
    for game_id, proposal, before in takebacks:
        ends = closed(service, game_id)
        assert [(e["proposal"], e["result"]) for e in ends] == [(proposal, "accepted")]
        now = service.load(game_id)
        assert now["match"]["state"] == before["state"], "the move was not taken back once"
        assert sum(e["type"] == "ActionTaken" for e in service.games.events(game_id)) == 1
        assert history.replay(service.games.events(game_id)) == now
    for game_id, proposal, deadlines in pauses:
        assert [(e["proposal"], e["result"]) for e in closed(service, game_id)] == [
            (proposal, "accepted")
        ]
        shifted = [None if d is None else d + PAUSE_DAYS * 86_400_000 for d in deadlines]
        assert service.load(game_id)["deadlines"] == shifted, "the clocks paused once"
    deadline = time.monotonic() + 30
    while not all(closed(service, game_id) for game_id, _ in lapsing):
        assert time.monotonic() < deadline, "a proposal did not lapse"
        time.sleep(0.2)
    time.sleep(1)  # a second lapse, were there one, would have come by now
    for game_id, proposal in lapsing:
        assert [(e["proposal"], e["result"], e["by"]) for e in closed(service, game_id)] == [
            (proposal, "lapsed", None)
        ]
        assert history.replay(service.games.events(game_id)) == service.load(game_id)
