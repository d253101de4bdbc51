"""An invitation email's one-click links over HTTP (real Valkey, a real SMTP peer): the email
links to the game's page and carries a signed link to accept and one to refuse, before the
API's lines; opening a link only asks, its button answers, as the invited player; a link of
an invitation already answered, a forged one, an expired one, and a move link in its place
change nothing."""

import re
import time

import pytest

from api.app import create_app
from service.notify.links import INVITATION, sign_link
from service.notify.notifications import GAME_INVITED, INVITED_AT, Notice
from service.settings import Settings
from store.notifications import NotificationStore
from tests.addresses import confirm_all
from tests.peers import html_of, text_of
from transports.mailer import SmtpMailer

BASE = "http://turnpost.test"


@pytest.fixture
def invited(redis_client, smtp):
    """Bo's invitation email to Ada's game of Nautilus, and what it was sent from."""
    app = create_app(redis_client, settings=Settings(public_url=BASE), mailer=SmtpMailer(smtp.url))
    services = app.extensions["turnpost"]["services"]
    ada = services.players.register("Ada", email="ada@example.org")["id"]
    bo = services.players.register("Bo", email="bo@example.org")["id"]
    confirm_all(redis_client)
    game_id = services.games.create(ada, "nautilus", [ada, bo])["id"]
    assert services.notifications.email(Notice(GAME_INVITED, game_id, 1, INVITED_AT))[0] == "sent"
    email = smtp.wait_for(lambda m, r: "bo@example.org" in r)
    links = dict(
        (label, url.removeprefix(BASE))
        for url, label in re.findall(r'<a href="([^"]+)">([^<]+)</a>', html_of(email))
    )
    return app.test_client(), services, game_id, bo, email, links


def test_the_email_links_to_the_game_and_answers_in_one_click_before_the_api(invited):
    _client, _services, game_id, _bo, email, links = invited
    assert links["See the game"] == f"/games/{game_id}"
    assert links["Accept the invitation"].startswith("/i/")
    assert links["Refuse it"].startswith("/i/")
    text = text_of(email)
    assert text.index("Accept the invitation: http") < text.index(f"POST {BASE}/v1/games/")
    assert "Authorization: Bearer" in text and "If you refuse, the game is cancelled." in text


def test_opening_the_accept_link_asks_and_its_button_seats_the_invited_player(invited):
    client, services, game_id, bo, _email, links = invited
    for _ in range(2):  # a mail scanner may fetch it
        page = client.get(links["Accept the invitation"])
        assert page.status_code == 200 and b'<form method="post">' in page.data
        assert b"Accept the invitation</button>" in page.data
        assert page.headers["Cache-Control"] == "no-store"
    assert services.games.summary(game_id)["status"] == "open"
    answer = client.post(links["Accept the invitation"])
    assert answer.status_code == 303 and answer.headers["Location"] == f"/games/{game_id}"
    summary = services.games.summary(game_id)
    assert summary["status"] == "active" and summary["seats"][1]["player_id"] == bo
    assert b"the game has begun" in client.get(f"/games/{game_id}").data  # the flash
    for link in (links["Accept the invitation"], links["Refuse it"]):
        again = client.post(link)
        assert again.status_code == 409 and b"answered already" in again.data
    assert services.games.summary(game_id)["status"] == "active"


def test_the_refuse_link_declines_after_asking(invited):
    client, services, game_id, _bo, _email, links = invited
    page = client.get(links["Refuse it"])
    assert page.status_code == 200 and b"Refuse the invitation</button>" in page.data
    assert services.games.summary(game_id)["status"] == "open"
    answer = client.post(links["Refuse it"])
    assert answer.status_code == 200 and b"You refused the invitation" in answer.data
    assert services.games.summary(game_id)["status"] == "cancelled"
    assert client.post(links["Accept the invitation"]).status_code == 409


def test_forged_expired_and_move_links_answer_nothing(invited, redis_client):
    client, services, game_id, _bo, _email, links = invited
    accept = links["Accept the invitation"]
    forged = accept[:-3] + ("AAA" if not accept.endswith("AAA") else "BBB")
    key = NotificationStore(redis_client).server_secret()
    expired = sign_link(key, game_id, 1, INVITED_AT, "accept", int(time.time()) - 1, INVITATION)
    as_a_move = sign_link(key, game_id, 1, INVITED_AT, "accept", int(time.time()) + 99)
    for path, status in (
        (forged, 404),
        (f"/i/{expired}", 410),
        (f"/i/{as_a_move}", 404),  # signed for another purpose
        ("/i/nonsense", 404),
    ):
        assert client.get(path).status_code == status, path
        assert client.post(path).status_code == status, path
    invitation = accept.removeprefix("/i/")
    assert client.post(f"/m/{invitation}").status_code == 404  # not a move link either
    assert services.games.summary(game_id)["status"] == "open"
