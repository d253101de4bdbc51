"""A turn email carries the game: the board and the hand as the reader's seat sees them (text
in the plain part, the HTML board in the HTML part), and everything since the reader's last
move, what that move itself caused included. Real Valkey, real SMTP (aiosmtpd)."""

from __future__ import annotations

import pytest

from service.notify.notifications import TURN_STARTED, Notice, NotificationService
from service.play import boards
from service.play.facts import read
from service.play.games import GameService
from service.settings import Settings
from store.games import GameStore
from store.notifications import NotificationStore
from store.players import PlayerStore
from tests.addresses import ConfirmedPlayers
from tests.peers import html_of, text_of
from transports.mailer import SmtpMailer


@pytest.fixture
def table(redis_client, smtp):
    players = ConfirmedPlayers(PlayerStore(redis_client))
    games = GameService(GameStore(redis_client), PlayerStore(redis_client))
    notify = NotificationService(
        GameStore(redis_client),
        PlayerStore(redis_client),
        NotificationStore(redis_client),
        Settings(email_throttle_seconds=0),
        SmtpMailer(smtp.url),
    )
    return players, games, notify


def play(games, game_id, player_id, notation):
    version = games.summary(game_id)["version"]
    return games.play(game_id, player_id, version, notation=notation)


def turn_email(notify, smtp, games, game_id, seat, address):
    snap = games.load(game_id)
    assert notify.email(Notice(TURN_STARTED, game_id, seat, snap["version"]))[0] == "sent"
    return smtp.wait_for(
        lambda m, rcpt: address in rcpt and m["X-Turnpost-Version"] == str(snap["version"])
    )


def test_the_second_to_commit_reads_the_reveal_and_battles_their_own_move_caused(table, smtp):
    players, games, notify = table
    ada = players.register("Ada", email="ada@example.org")["id"]
    bo = players.register("Bo <b>", email="bo@example.org")["id"]
    players.set_friends(bo, [ada])  # Ada seats Bo without inviting him
    game_id = games.create(ada, "ninedomains", [ada, bo])["id"]
    play(games, game_id, ada, games.legal_moves(game_id, ada)["moves"][0]["notation"])
    bo_move = games.legal_moves(game_id, bo)["moves"][-1]["notation"]
    play(games, game_id, bo, bo_move)  # Bo commits second: the round is fought
    while 1 not in games.load(game_id)["active_seats"]:
        play(games, game_id, ada, "pass")  # Ada's 2- or 3- won: she declines its swap
    message = turn_email(notify, smtp, games, game_id, 1, "bo@example.org")
    text = text_of(message).replace("\r\n", "\n")
    since = text.split("Since your last move:")[1].split("The game as you see it")[0]
    assert "you lay face down" in since
    assert "the cards are revealed" in since
    for slot in ("left:", "middle:", "right:"):
        assert slot in since, f"the {slot[:-1]} battle is missing"


def test_a_turn_email_shows_the_board_and_hand_of_the_readers_seat_only(table, smtp):
    players, games, notify = table
    ada = players.register("Ada", email="ada@example.org")["id"]
    bo = players.register('<img src=x onerror="alert(1)">', email="bo@example.org")["id"]
    players.set_friends(bo, [ada])  # Ada seats Bo without inviting him
    game_id = games.create(ada, "nautilus", [ada, bo])["id"]
    snap = games.load(game_id)
    seat = snap["active_seats"][0]
    _reader, address = [(ada, "ada@example.org"), (bo, "bo@example.org")][seat]
    message = turn_email(notify, smtp, games, game_id, seat, address)
    text, html = text_of(message).replace("\r\n", "\n"), html_of(message)
    snap = games.load(game_id)
    board_text, board_html = boards.seat_boards(snap, seat)
    assert board_text in text
    assert board_html in html
    hand = " ".join(map(str, snap["match"]["state"]["hands"][seat]))
    assert f"Your hand: {hand}" in text
    other_hand = " ".join(map(str, snap["match"]["state"]["hands"][1 - seat]))
    assert other_hand not in text and other_hand not in board_html
    assert "<img" not in html and "&lt;img src=x" in html


def test_a_turn_email_links_to_the_how_to_play_page_of_its_title(table, smtp):
    players, games, notify = table
    ada = players.register("Ada", email="ada@example.org")["id"]
    bo = players.register("Bo", email="bo@example.org")["id"]
    players.set_friends(bo, [ada])
    game_id = games.create(ada, "buttons", [ada, bo])["id"]
    seat = games.load(game_id)["active_seats"][0]
    address = ["ada@example.org", "bo@example.org"][seat]
    message = turn_email(notify, smtp, games, game_id, seat, address)
    page = f"{Settings().public_url}/how-to-play/buttons"
    assert f"How to play Buttons: {page}" in text_of(message)
    assert f'<a href="{page}">How to play Buttons</a>' in html_of(message)


def test_a_turn_email_waits_for_redis_four_times(table, smtp, monkeypatch):
    """The game's facts; the reader with the game's recent events (store.reads.at_once: the
    letter's table and "your turn goes on" both use them); the claim before the send; the
    record after it. A turn email is the most frequent thing the workers do."""
    from redis.connection import Connection

    players, games, notify = table
    ada = players.register("Ada", email="ada@example.org")["id"]
    bo = players.register("Bo", email="bo@example.org")["id"]
    players.set_friends(bo, [ada])
    game_id = games.create(ada, "buttons", [ada, bo])["id"]
    people = [ada, bo]

    def notice(seat):
        return Notice(TURN_STARTED, game_id, seat, read(notify.games, game_id).seat_since[seat])

    seat = games.load(game_id)["active_seats"][0]
    assert notify.email(notice(seat))[0] == "sent"  # scripts cached, pools open
    while seat in games.load(game_id)["active_seats"]:  # the seat's whole turn
        play(
            games,
            game_id,
            people[seat],
            games.legal_moves(game_id, people[seat])["moves"][0]["notation"],
        )
    seat = games.load(game_id)["active_seats"][0]
    turn = notice(seat)
    trips = []
    send = Connection.send_packed_command

    def counted(self, command, check_health=True):
        trips.append(command)
        return send(self, command, check_health)

    monkeypatch.setattr(Connection, "send_packed_command", counted)
    outcome = notify.email(turn)
    monkeypatch.undo()
    assert outcome[0] == "sent"
    assert len(trips) == 4, [bytes(c[0] if isinstance(c, list) else c)[:60] for c in trips]
