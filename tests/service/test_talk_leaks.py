"""The leak checker for table talk: games of every title, random moves with random messages to
the table and private ones among them, and every surface each reader gets (the log and its
stream, the list of messages, the seat's table that every page renders, the turn page and the
game's public page as HTML, the turn email, the message email, the message webhook's body, a
chat app's line and the push message) holds no message that reader may not read: a spectator
none, a third player no private message of two others.

GAMES_PER_TITLE is kept modest here (the issue's 200 a title would run as a bench: set
TALK_LEAK_GAMES)."""

from __future__ import annotations

import email
import email.policy
import json
import os
import random
from email.message import EmailMessage

import pytest

from api.app import create_app
from engine import registry
from service.notify.notifications import CHAT_MESSAGE, TURN_STARTED, Notice
from service.play.facts import GameFacts
from service.settings import Settings
from transports.mailer import Mail, SmtpMailer

pytestmark = pytest.mark.slow  # 80 games with their messages, every surface of every reader

GAMES_PER_TITLE = int(os.environ.get("TALK_LEAK_GAMES", "20"))
MOVES_PER_GAME = 15


def read(letter: Mail | EmailMessage) -> str:
    """What a reader reads of an email: its headers and every text part, decoded (a part sent
    quoted-printable would hide a leaked word from a search of its bytes)."""
    message = (
        email.message_from_bytes(letter.data, policy=email.policy.default)
        if isinstance(letter, Mail)
        else letter
    )
    headers = "".join(f"{name}: {value}\n" for name, value in message.items())
    texts = [p.get_content() for p in message.walk() if p.get_content_maintype() == "text"]
    return headers + "\n".join(texts)


@pytest.fixture
def services(redis_client, smtp):
    settings = Settings(
        public_url="http://turnpost.test",
        mail_domain="play.test",
        talk_per_minute=100_000,
        talk_per_hour=100_000,
    )
    app = create_app(redis_client, settings=settings, mailer=SmtpMailer(smtp.url))
    return app.extensions["turnpost"]["services"], app.test_client()


def seat_people(services, title, count, rnd):
    names = [f"P{i}{rnd.randrange(1000)}" for i in range(count)]
    ids = [services.players.register(n, email=f"{n.lower()}@example.org")["id"] for n in names]
    for friend in ids[1:]:
        services.players.set_friends(friend, [ids[0]])
    return services.games.create(ids[0], title, ids)["id"], ids


def play_with_talk(services, game_id, ids, rnd) -> dict[str, set[int]]:
    """Random moves and messages; each message's unique marker -> the seats that may read it."""
    markers: dict[str, set[int]] = {}
    for step in range(MOVES_PER_GAME):
        snap = services.games.load(game_id)
        if snap["status"] != "active":
            break
        for _ in range(rnd.randrange(3)):
            writer = rnd.randrange(len(ids))
            marker = f"<m{game_id}x{step}x{len(markers)}>"
            if len(ids) >= 3 and rnd.random() < 0.6:
                to = rnd.choice([s for s in range(len(ids)) if s != writer])
                services.talk.say(game_id, ids[writer], f"psst {marker}", to)
                markers[marker] = {writer, to}
            else:
                services.talk.say(game_id, ids[writer], f"all {marker}")
                markers[marker] = set(range(len(ids)))
        seat = rnd.choice(snap["active_seats"])
        moves = services.games.legal_moves(game_id, ids[seat])
        move = rnd.choice(moves["moves"])
        services.games.play(game_id, ids[seat], moves["version"], action=move["action"])
    return markers


def surfaces(services, client, game_id, reader_id: str | None, seat: int | None) -> str:
    """Everything `reader_id` (at `seat`; None: a spectator or a stranger) is given, as text."""
    games, notify = services.games, services.notifications
    shown = [
        games.log(game_id, reader_id, limit=1000),
        games.wait_log(game_id, reader_id, 0, 1),
        repr(services.tables.for_player(game_id, reader_id)),
    ]
    if seat is None:
        shown.append(client.get(f"/play/{game_id}").get_data(as_text=True))
        return json.dumps(shown, default=str)
    shown.append(services.talk.messages(game_id, reader_id, limit=200))
    game = GameFacts.of(games.load(game_id))
    profile = services.players.players.get(reader_id)
    table = services.tables.of(game, seat, told_until=None)
    turn_page = services.one_click.turn_url(table).removeprefix("http://turnpost.test")
    shown.append(client.get(turn_page).get_data(as_text=True))
    notice = Notice(TURN_STARTED, game_id, seat, game.version)
    shown.append(read(notify._turn_letter(table, notice, profile, "d-1", False)))
    shown.append(read(notify._chat_letter(table, notice, profile, "d-2")))
    shown.append(notify._push_message(game, notice, profile))
    for event in games.games.events(game_id):
        if event["type"] == "MessageSent" and seat in event["to"] and event["seat"] != seat:
            chat = Notice(CHAT_MESSAGE, game_id, seat, event["version"])
            shown.append(notify._chat_payload(game, chat, "d-3"))
            shown.append(notify._chat_body("slack", game, chat, profile))
    return json.dumps(shown, default=str)


@pytest.mark.parametrize("title", sorted(registry.GAMES))
def test_no_surface_shows_a_reader_a_message_that_is_not_theirs(services, title):
    services, client = services
    rnd = random.Random(f"talk-leaks-{title}")
    info = registry.GAMES[title].info
    stranger = services.players.register("Stranger")["id"]
    private_seen = 0
    counts = range(info.min_players, info.max_players + 1)
    for i in range(GAMES_PER_TITLE):
        count = counts[i % len(counts)]
        game_id, ids = seat_people(services, title, count, rnd)
        markers = play_with_talk(services, game_id, ids, rnd)
        readers = [(pid, seat) for seat, pid in enumerate(ids)] + [(stranger, None), (None, None)]
        for reader_id, seat in readers:
            text = surfaces(services, client, game_id, reader_id, seat)
            for marker, allowed in markers.items():
                if seat in allowed:  # their own: shown to them (the check sees what it checks)
                    assert marker in text, (title, game_id, seat, marker)
                else:
                    assert marker not in text, (title, game_id, seat, marker)
                    private_seen += seat is not None
    if info.max_players >= 3:
        assert private_seen > 0, "no private message was ever checked against a third player"
