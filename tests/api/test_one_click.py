"""One-click move links over HTTP: the page only shows, the button plays, once; used, stale,
expired and forged links say so and change nothing."""

import re
import time

import pytest

from api.app import create_app
from service.notify.links import sign_link
from service.notify.notifications import TURN_STARTED, Notice
from service.settings import Settings
from store.notifications import NotificationStore
from tests.addresses import confirm_all
from tests.peers import html_of, text_of
from transports.mailer import SmtpMailer


@pytest.fixture
def emailed(redis_client, smtp, test_game):
    """Ada's turn email of a new game with Bo, and what it was sent from."""
    settings = Settings(public_url="http://turnpost.test", one_click_max_moves=12)
    app = create_app(redis_client, settings=settings, mailer=SmtpMailer(smtp.url))
    services = app.extensions["turnpost"]["services"]
    ada = services.players.register("Ada", email="ada@example.org")["id"]
    bo = services.players.register("Bo", email="bo@example.org")["id"]
    confirm_all(redis_client)
    services.players.set_friends(bo, [ada])  # Ada seats Bo without inviting him
    game_id = services.games.create(ada, "hiddenbid", [ada, bo])["id"]
    services.notifications.email(Notice(TURN_STARTED, game_id, 0, 2))
    email = smtp.wait_for(lambda m, r: "ada@example.org" in r)
    return app, services, game_id, ada, email


@pytest.fixture
def table(emailed):
    app, services, game_id, ada, email = emailed
    links = [
        url.replace("http://turnpost.test", "")
        for url in re.findall(r'href="([^"]+/m/[^"]+)"', html_of(email))
    ]
    return app.test_client(), services, game_id, ada, links


def test_one_link_per_legal_move(table):
    _client, services, game_id, ada, links = table
    assert len(links) == len(services.games.legal_moves(game_id, ada)["moves"]) == 3


def test_each_link_says_its_move_in_words_with_its_notation(emailed):
    _app, services, game_id, ada, email = emailed
    html, text = html_of(email), text_of(email)
    for move in services.games.legal_moves(game_id, ada)["moves"]:
        said = f"{move['description']} ({move['notation']})"
        assert re.search(rf'<a href="[^"]+/m/[^"]+">{re.escape(said)}</a>', html), said
        assert re.search(rf"^  {re.escape(said)}: http://turnpost.test/m/", text, re.M), said


def test_opening_a_link_plays_nothing_until_confirmed(table):
    client, services, game_id, ada, links = table
    first = services.games.legal_moves(game_id, ada)["moves"][0]
    for _ in range(3):  # a mail scanner may fetch it more than once
        page = client.get(links[0])
        assert page.status_code == 200 and b'<form method="post">' in page.data
        assert f"{first['description']} ({first['notation']})?" in page.get_data(as_text=True)
        assert page.headers["Cache-Control"] == "no-store"
    assert services.games.summary(game_id)["version"] == 2
    played = client.post(links[0])
    assert played.status_code == 200 and b"Played bid" in played.data
    assert services.games.summary(game_id)["version"] == 3


def test_a_used_link_says_so(table):
    client, services, game_id, _, links = table
    client.post(links[0])
    again = client.post(links[0])
    assert again.status_code == 409 and b"already used" in again.data
    assert client.get(links[0]).status_code == 409
    assert services.games.summary(game_id)["version"] == 3


def test_another_link_of_the_same_turn_is_stale_once_the_seat_moved(table):
    client, services, game_id, _, links = table
    client.post(links[0])
    stale = client.post(links[1])
    assert stale.status_code == 409 and b"moved on" in stale.data
    assert f'href="/games/{game_id}"'.encode() in stale.data  # the game's page
    assert services.games.summary(game_id)["version"] == 3


def test_an_expired_link_says_so(table, redis_client):
    client, services, game_id, ada, _ = table
    notation = services.games.legal_moves(game_id, ada)["moves"][0]["notation"]
    secret = NotificationStore(redis_client).server_secret()
    expired = sign_link(secret, game_id, 0, 2, notation, int(time.time()) - 1)
    for answer in (client.get(f"/m/{expired}"), client.post(f"/m/{expired}")):
        assert answer.status_code == 410 and b"expired" in answer.data
    assert services.games.summary(game_id)["version"] == 2


def test_a_forged_link_is_refused(table):
    client, services, game_id, _, links = table
    forged = links[0][:-3] + ("AAA" if not links[0].endswith("AAA") else "BBB")
    answer = client.post(forged)
    assert answer.status_code == 404 and b"not valid" in answer.data
    assert client.post("/m/nonsense").status_code == 404
    assert services.games.summary(game_id)["version"] == 2


def test_the_game_page_shows_only_public_things(table):
    client, services, game_id, _, _ = table
    page = client.get(f"/play/{game_id}")
    assert page.status_code == 200 and b"Hidden Bid" in page.data and b"Ada" in page.data
    snap = services.games.load(game_id)
    assert snap["secret_seed"].encode() not in page.data
    for hand in snap["match"]["state"]["hands"]:
        assert f"you were dealt {' '.join(map(str, hand))}".encode() not in page.data
    assert client.get("/play/g_nothere").status_code == 404
