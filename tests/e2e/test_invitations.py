"""Seating another player is an invitation (issue 15), with every part real: `turnpost serve`
(API and worker) on the test Valkey, an SMTP server (aiosmtpd) and a webhook receiver on
loopback. The invited player hears of it by email and webhook, the game waits for them, a
refusal cancels it and its creator is told, and nobody can fill a stranger's mailbox."""

import json
import time
from pathlib import Path

import pytest
import requests
from openapi_schema_validator import OAS30Validator, validate

from tests.e2e.server import Client, LiveServer
from tests.peers import SmtpInbox, WebhookReceiver, text_of

DOCUMENT = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"
FLOOD = 100


@pytest.fixture(scope="module")
def town(valkey):
    """The server, its outgoing mail and a webhook receiver."""
    with SmtpInbox() as outgoing, WebhookReceiver() as receiver:
        env = {
            "SMTP_URL": outgoing.url,
            "EMAIL_DELAY_SECONDS": "0",
            "EMAIL_THROTTLE_SECONDS": "0",
            "WEBHOOK_ALLOW_HTTP": "1",
            "WEBHOOK_ALLOW_LOOPBACK": "1",
            "BOT_DELAY_SECONDS": "0",
            # the flood below creates FLOOD games at once: over the usual limit per minute
            "LIMIT_CREATE_PER_PLAYER": f"{FLOOD * 2}/minute",
        }
        server = LiveServer(redis_url=valkey.url, env=env).wait_ready()
        try:
            yield server, outgoing, receiver
        finally:
            server.stop()


def event_to(address, event, game_id=None):
    return lambda m, rcpt: (
        address in rcpt
        and m["X-Turnpost-Event"] == event
        and (game_id is None or m["X-Turnpost-Game"] == game_id)
    )


def conforms(body, name):
    components = json.loads(DOCUMENT.read_text())["components"]
    validate(
        body,
        {"allOf": [{"$ref": f"#/components/schemas/{name}"}], "components": components},
        cls=OAS30Validator,
    )


def invitations(calls, game_id):
    return [
        c["json"]
        for c in calls
        if c["json"]["event"] == "game.invited" and c["json"]["game_id"] == game_id
    ]


def test_the_invited_player_is_told_by_email_and_webhook_and_the_game_waits_for_them(town):
    server, outgoing, receiver = town
    ada = Client(server.url, "Ada", email="ada.invites@example.org")
    bo = Client(server.url, "Bo", email="bo.invited@example.org")
    for person in (ada, bo):  # each follows the link that confirms their address
        person.confirm(outgoing)
    r = requests.patch(
        f"{server.url}/v1/players/me",
        json={"webhook_url": receiver.url},
        headers=bo.headers,
        timeout=10,
    )
    assert r.status_code == 200, r.text
    game = ada.post("/v1/games", {"game": "nautilus", "seats": [ada.id, bo.id]}).json()
    assert game["status"] == "open"
    assert [s["kind"] for s in game["seats"]] == ["player", "invited"]

    letter = outgoing.wait_for(event_to("bo.invited@example.org", "game.invited", game["id"]))
    text = text_of(letter)
    assert letter["Subject"] == f"[turnpost] Ada invites you to play Nautilus (game {game['id']})"
    assert f"Ada invites you to a game of Nautilus (game {game['id']})" in text
    assert f"/v1/games/{game['id']}/join" in text and f"/v1/games/{game['id']}/decline" in text
    assert "If you refuse, the game is cancelled." in text
    assert "The game as you see it" not in text  # not started: no board, no hand
    calls = receiver.wait_until(lambda calls: invitations(calls, game["id"]))
    body = invitations(calls, game["id"])[0]
    conforms(body, "WebhookGameInvited")
    assert body["invited_by"] == {"id": ada.id, "name": "Ada"} and body["seat"] == 1
    assert body["links"]["join"].endswith(f"/v1/games/{game['id']}/join")

    # nothing starts, and nobody is told it is their turn, until Bo accepts
    time.sleep(1)
    assert ada.get(f"/v1/games/{game['id']}").json()["status"] == "open"
    assert not [
        m
        for _, m, _ in outgoing.messages
        if m["X-Turnpost-Game"] == game["id"] and m["X-Turnpost-Event"] == "turn.started"
    ]
    joined = bo.post(f"/v1/games/{game['id']}/join")
    assert joined.status_code == 200 and joined.json()["status"] == "active"
    first = joined.json()["active_seats"][0]
    address = ["ada.invites@example.org", "bo.invited@example.org"][first]
    outgoing.wait_for(event_to(address, "turn.started", game["id"]))


def test_a_refusal_cancels_the_game_and_its_creator_is_told(town):
    server, outgoing, _receiver = town
    cy = Client(server.url, "Cy", email="cy.creates@example.org")
    di = Client(server.url, "Di", email="di.refuses@example.org")
    for person in (cy, di):
        person.confirm(outgoing)
    game_id = cy.post("/v1/games", {"game": "ninedomains", "seats": [di.id, cy.id]}).json()["id"]
    outgoing.wait_for(event_to("di.refuses@example.org", "game.invited", game_id))
    r = di.post(f"/v1/games/{game_id}/decline")
    assert r.status_code == 200 and r.json()["status"] == "cancelled"
    told = outgoing.wait_for(event_to("cy.creates@example.org", "game.cancelled", game_id))
    assert "Di declined the invitation" in text_of(told)
    assert (
        cy.post(f"/v1/games/{game_id}/moves", {"notation": "x", "expected_version": 3}).json()[
            "code"
        ]
        == "game/cancelled"
    )


def test_a_friend_is_seated_at_once_and_gets_a_turn_email_not_an_invitation(town):
    server, outgoing, _ = town
    ed = Client(server.url, "Ed", email="ed.friend@example.org")
    flo = Client(server.url, "Flo", email="flo.friend@example.org")
    for person in (ed, flo):
        person.confirm(outgoing)
    assert (
        requests.put(
            f"{server.url}/v1/players/me/friends",
            json={"friends": [flo.id]},
            headers=ed.headers,
            timeout=10,
        ).status_code
        == 200
    )
    game = flo.post("/v1/games", {"game": "ninedomains", "seats": [flo.id, ed.id]}).json()
    assert game["status"] == "active"  # both choose at once: both are told
    outgoing.wait_for(event_to("ed.friend@example.org", "turn.started", game["id"]))
    assert [m["X-Turnpost-Event"] for m in outgoing.to("ed.friend@example.org")] == ["turn.started"]


def test_a_hundred_invitations_from_one_account_send_the_stranger_one_email(town):
    server, outgoing, _ = town
    mallory = Client(server.url, "Mallory")
    victim = Client(server.url, "Victim", email="victim@example.org")
    victim.confirm(outgoing)
    made = [
        mallory.post("/v1/games", {"game": "nautilus", "seats": [mallory.id, victim.id]})
        for _ in range(FLOOD)
    ]
    assert [r.status_code for r in made] == [201] * FLOOD
    # the worker handles every invitation: one email, the rest recorded as throttled
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        deliveries = victim.get("/v1/players/me/deliveries?limit=200").json()["deliveries"]
        if len([d for d in deliveries if d["channel"] == "email"]) >= FLOOD:
            break
        time.sleep(0.5)
    statuses = sorted(d["status"] for d in deliveries if d["channel"] == "email")
    assert statuses == ["sent"] + ["throttled"] * (FLOOD - 1)
    assert [m["X-Turnpost-Event"] for m in outgoing.to("victim@example.org")] == ["game.invited"]
    # the victim is seated in none of them, and sees them all as invitations
    assert victim.get("/v1/games").json()["games"] == []
    assert victim.get("/v1/games?awaiting=me").json()["games"] == []
    assert len(victim.get("/v1/games?invited=me&limit=200").json()["games"]) == FLOOD
