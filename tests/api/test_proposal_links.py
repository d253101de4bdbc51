"""A proposal is answered from its email as a turn is played from one: the email of a
proposal to answer carries a signed link to accept it and one to decline it (real Valkey, a
real SMTP peer, over HTTP); opening a link only asks (a mail scanner may fetch it), its button
answers as the player asked; a link of a proposal closed since, a forged one, an expired one
and an invitation's or a move's link in its place answer nothing."""

import re
import time

import pytest

from api.app import create_app
from service.notify.links import INVITATION, PROPOSAL, sign_link
from service.notify.notifications import PROPOSAL_MADE, Notice
from service.settings import Settings
from store.notifications import NotificationStore
from tests.addresses import confirm_all
from tests.peers import html_of, text_of
from transports.mailer import SmtpMailer

BASE = "http://turnpost.test"


@pytest.fixture
def proposed(redis_client, smtp):
    """Ada, Bo and Cy at a game of Buttons; Ada proposes a shared result; Bo's email of it,
    and its links."""
    app = create_app(redis_client, settings=Settings(public_url=BASE), mailer=SmtpMailer(smtp.url))
    services = app.extensions["turnpost"]["services"]
    ids = [
        services.players.register(n, email=f"{n.lower()}@example.org")["id"]
        for n in ("Ada", "Bo", "Cy")
    ]
    confirm_all(redis_client)
    for friend in ids[1:]:
        services.players.set_friends(friend, [ids[0]])
    game_id = services.games.create(ids[0], "buttons", ids)["id"]
    made = services.talk.propose(game_id, ids[0], "draw")
    notice = Notice(PROPOSAL_MADE, game_id, 1, made["id"])
    assert services.notifications.email(notice)[0] == "sent"
    email = smtp.wait_for(lambda m, r: "bo@example.org" in r)
    links = dict(
        (label, url.removeprefix(BASE))
        for url, label in re.findall(r'<a href="([^"]+)">([^<]+)</a>', html_of(email))
    )
    return app.test_client(), services, game_id, ids, made["id"], email, links


def status(services, game_id, proposal):
    answer = services.talk.proposals(game_id, None)
    return next((p for p in answer["proposals"] if p["id"] == proposal), None)


def test_the_email_carries_an_accept_and_a_decline_link(proposed):
    _client, _services, game_id, _ids, _proposal, email, links = proposed
    assert links["Accept the proposal"].startswith("/p/")
    assert links["Decline it"].startswith("/p/")
    assert links["See the game"] == f"/games/{game_id}"
    text = text_of(email)
    assert "Accept the proposal: http" in text and "Decline it: http" in text


def test_opening_the_accept_link_asks_and_its_button_accepts_for_the_player(proposed):
    client, services, game_id, _ids, proposal, _email, links = proposed
    for _ in range(2):  # a mail scanner may fetch it
        page = client.get(links["Accept the proposal"])
        assert page.status_code == 200 and b'<form method="post">' in page.data
        assert b"Accept the proposal</button>" in page.data
        assert b"Ada proposes to end the game with a result shared" in page.data
        assert page.headers["Cache-Control"] == "no-store"
    assert status(services, game_id, proposal)["accepted"] == []
    answer = client.post(links["Accept the proposal"])
    assert answer.status_code == 303 and answer.headers["Location"] == f"/games/{game_id}"
    assert status(services, game_id, proposal)["accepted"] == [1]  # Cy still to answer
    for link in (links["Accept the proposal"], links["Decline it"]):
        again = client.post(link)
        assert again.status_code == 409 and b"not waiting for your answer" in again.data
    assert services.games.summary(game_id)["status"] == "active"


def test_the_decline_link_closes_the_proposal_after_asking(proposed):
    client, services, game_id, _ids, proposal, _email, links = proposed
    page = client.get(links["Decline it"])
    assert page.status_code == 200 and b"Decline the proposal</button>" in page.data
    answer = client.post(links["Decline it"])
    assert answer.status_code == 200 and b"You declined the proposal" in answer.data
    assert status(services, game_id, proposal) is None
    closed = services.games.games.events(game_id)[-1]
    assert (closed["type"], closed["result"], closed["by"]) == ("ProposalClosed", "declined", 1)
    assert client.post(links["Accept the proposal"]).status_code == 409


def test_forged_expired_and_other_links_answer_nothing(proposed, redis_client):
    client, services, game_id, _ids, proposal, _email, links = proposed
    accept = links["Accept the proposal"]
    forged = accept[:-3] + ("AAA" if not accept.endswith("AAA") else "BBB")
    key = NotificationStore(redis_client).server_secret()
    expired = sign_link(key, game_id, 1, proposal, "accept", int(time.time()) - 1, PROPOSAL)
    as_an_invitation = sign_link(key, game_id, 1, proposal, "accept", 2**40, INVITATION)
    as_a_move = sign_link(key, game_id, 1, proposal, "accept", 2**40)
    odd_answer = sign_link(key, game_id, 1, proposal, "maybe", 2**40, PROPOSAL)
    for path, code in (
        (forged, 404),
        (f"/p/{expired}", 410),
        (f"/p/{as_an_invitation}", 404),
        (f"/p/{as_a_move}", 404),
        (f"/p/{odd_answer}", 404),
        ("/p/nonsense", 404),
    ):
        assert client.get(path).status_code == code, path
        assert client.post(path).status_code == code, path
    assert client.post(f"/i/{accept.removeprefix('/p/')}").status_code == 404
    assert status(services, game_id, proposal)["accepted"] == []
