"""Messages reach people (service.consequences.due_for_messages, the chat notices of
service/notify/notifications.py): a webhook per message, an email once the table is quiet
that gathers what the reader was not told, at most one an hour a game; the turn email lists
the messages since the reader's last move. Real Valkey, real SMTP, a real webhook receiver."""

from __future__ import annotations

import html
import json
from pathlib import Path

import pytest
from openapi_schema_validator import OAS30Validator, validate

from service.consequences import Contact, due_for_messages
from service.notify.notifications import (
    CHAT_MESSAGE,
    PROPOSAL_MADE,
    TURN_STARTED,
    Notice,
    NotificationService,
)
from service.play.facts import GameFacts
from service.play.games import GameService
from service.play.talk import Talk, TalkLimits
from service.settings import Settings
from store.games import GameStore
from store.notifications import NotificationStore
from store.players import PlayerStore
from tests.addresses import ConfirmedPlayers
from tests.hostile_text import SHOWN
from tests.peers import WebhookReceiver, html_of, text_of
from transports.mailer import SmtpMailer

DOCUMENT = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"
SETTINGS = Settings(
    public_url="http://turnpost.test",
    email_throttle_seconds=0,
    chat_email_delay_seconds=600,
    chat_email_every_seconds=3600,
    webhook_allow_http=True,
    webhook_allow_loopback=True,
)


@pytest.fixture
def world(redis_client, smtp):
    players = ConfirmedPlayers(
        PlayerStore(redis_client),
        NotificationStore(redis_client),
        webhook_urls=SETTINGS.webhook_urls,
    )
    games = GameService(GameStore(redis_client), PlayerStore(redis_client))
    talk = Talk(games, PlayerStore(redis_client), TalkLimits(1000, 1000))
    notify = NotificationService(
        GameStore(redis_client),
        PlayerStore(redis_client),
        NotificationStore(redis_client),
        SETTINGS,
        SmtpMailer(smtp.url),
    )
    return players, games, talk, notify


def three(players, games, title="consonar", **extra):
    """Ada, Bo and Cy, with emails, seated in a game of `title` (Bo and Cy are Ada's friends)."""
    ids = [
        players.register(n, email=f"{n.lower()}@example.org", **extra)["id"]
        for n in ("Ada", "Bo", "Cy")
    ]
    for friend in ids[1:]:
        players.set_friends(friend, [ids[0]])
    return games.create(ids[0], title, ids)["id"], ids


def chat_email(notify, game_id, seat, version):
    return notify.email(Notice(CHAT_MESSAGE, game_id, seat, version))


def test_each_reader_but_the_writer_is_told_by_webhook_at_once_and_email_later(world):
    players, games, talk, _ = world
    ada, bo = (players.register(n)["id"] for n in ("Ada", "Bo"))
    players.set_friends(bo, [ada])
    game_id = games.create(ada, "consonar", [ada, bo, "bot:random"])["id"]
    snap = games.load(game_id)
    table = talk.say(game_id, ada, "hello all")
    private = talk.say(game_id, bo, "just you", to=0)
    events = games.games.events(game_id, after=table["version"] - 1)
    contacts = {0: Contact(email=True, webhook=True), 1: Contact(email=True, webhook=True)}
    now = events[-1]["at"] + 5
    due = due_for_messages(GameFacts.of(games.load(game_id)), events, contacts, SETTINGS, now)
    told = sorted((d.notice.version, d.notice.seat, d.channel, at) for at, d in due)
    first_at, second_at = events[0]["at"], events[1]["at"]
    assert told == [
        (table["version"], 1, "email", first_at + 600_000),  # Bo, not Ada, not the bot
        (table["version"], 1, "webhook", now),
        (private["version"], 0, "email", second_at + 600_000),  # Ada alone
        (private["version"], 0, "webhook", now),
    ]
    assert snap["seats"][2]["kind"] == "bot"


def test_an_email_gathers_the_messages_not_told_once_the_table_is_quiet(world, smtp):
    players, games, talk, notify = world
    game_id, (_ada, bo, cy) = three(players, games)
    first = talk.say(game_id, bo, "one")
    talk.say(game_id, cy, "secret for Bo", to=1)
    second = talk.say(game_id, bo, SHOWN["markup"])
    assert chat_email(notify, game_id, 0, first["version"])[0] == "superseded"
    assert chat_email(notify, game_id, 0, second["version"])[0] == "sent"
    message = smtp.wait_for(lambda m, rcpt: "ada@example.org" in rcpt)
    assert message["X-Turnpost-Event"] == CHAT_MESSAGE
    assert (
        message["Subject"] == "[turnpost] Con Sonar! with Bo, Cy: 2 new messages (" + game_id + ")"
    )
    text, html = text_of(message), html_of(message)
    assert "Bo, to the table" in text and ": one" in text and SHOWN["markup"] in text
    assert "secret for Bo" not in text + html
    assert "<img src=x" not in html and "&lt;img src=x" in html
    # a retry of the same notice sends nothing more
    assert chat_email(notify, game_id, 0, second["version"])[0] in ("duplicate", "superseded")
    # within the hour the next one waits for the window
    third = talk.say(game_id, cy, "three")
    outcome, wait = chat_email(notify, game_id, 0, third["version"])
    assert outcome == "deferred" and 3500 < wait <= 3600


def test_the_readers_own_message_or_move_makes_the_email_moot(world):
    players, games, talk, notify = world
    game_id, (ada, bo, cy) = three(players, games)
    sent = talk.say(game_id, bo, "your move, Ada?")
    talk.say(game_id, ada, "thinking")
    assert chat_email(notify, game_id, 0, sent["version"])[0] == "superseded"
    sent = talk.say(game_id, ada, "done thinking")
    mover = games.load(game_id)["active_seats"][0]
    ids = (ada, bo, cy)
    moves = games.legal_moves(game_id, ids[mover])
    writer = (mover + 1) % 3
    note = talk.say(game_id, ids[writer], "go on")
    games.play(game_id, ids[mover], moves["version"], notation=moves["moves"][0]["notation"])
    assert chat_email(notify, game_id, mover, note["version"])[0] == "superseded"


def test_the_turn_email_lists_the_messages_since_the_readers_last_move(world, smtp):
    players, games, talk, notify = world
    ids = [players.register(n, email=f"{n.lower()}@example.org")["id"] for n in ("Ada", "Bo")]
    players.set_friends(ids[1], [ids[0]])
    game_id = games.create(ids[0], "nautilus", ids)["id"]
    # play until a turn passes from one seat to the other, with a message in between
    while True:
        snap = games.load(game_id)
        seat = snap["active_seats"][0]
        moves = games.legal_moves(game_id, ids[seat])
        games.play(game_id, ids[seat], moves["version"], notation=moves["moves"][0]["notation"])
        after = games.load(game_id)
        if after["active_seats"] != [seat]:
            break
    reader = after["active_seats"][0]
    other = 1 - reader
    # the other writes, then the reader's turn email goes (its notice version is the turn's)
    said = talk.say(game_id, ids[other], "over to you <3")
    version = games.load(game_id)["match"]["seat_since"][reader]
    assert notify.email(Notice(TURN_STARTED, game_id, reader, version))[0] == "sent"
    address = ("ada@example.org", "bo@example.org")[reader]
    text = text_of(smtp.wait_for(lambda m, rcpt: address in rcpt))
    assert "Messages since your last move:" in text and "over to you <3" in text
    # the message's own email is then moot: the turn email told it
    assert chat_email(notify, game_id, reader, said["version"])[0] == "superseded"


@pytest.mark.slow
def test_a_webhook_per_message_carries_it_to_its_reader_only(world):
    players, games, talk, notify = world
    with WebhookReceiver() as hook:
        ids = [players.register(n, webhook_url=hook.url)["id"] for n in ("Ada", "Bo", "Cy")]
        for friend in ids[1:]:
            players.set_friends(friend, [ids[0]])
        game_id = games.create(ids[0], "buttons", ids)["id"]
        sent = talk.say(game_id, ids[0], "for Cy", to=2)
        assert notify.webhook(Notice(CHAT_MESSAGE, game_id, 2, sent["version"]))[0] == "sent"
        # Bo may not read it: nothing is sent to him, whatever asks
        calls = len(hook.requests)
        assert notify.webhook(Notice(CHAT_MESSAGE, game_id, 1, sent["version"]))[0] == "gone"
        assert len(hook.requests) == calls
        body = hook.requests[-1]["json"]
    assert body["event"] == "chat.message" and body["seat"] == 2
    assert body["message"] == {
        "version": sent["version"],
        "at": sent["at"],
        "seat": 0,
        "name": "Ada",
        "text": "for Cy",
        "private": True,
        "to": 2,
    }
    components = json.loads(DOCUMENT.read_text())["components"]
    validate(
        body,
        {"allOf": [{"$ref": "#/components/schemas/WebhookChatMessage"}], "components": components},
        cls=OAS30Validator,
    )


def test_chat_emails_can_be_turned_off(world, smtp):
    players, games, talk, notify = world
    game_id, (ada, bo, _) = three(players, games)
    players.update(ada, {"notifications": {"chat": False}})
    sent = talk.say(game_id, bo, "anyone?")
    assert chat_email(notify, game_id, 0, sent["version"])[0] == "off"


@pytest.mark.slow
def test_proposals_are_told_as_a_turn_to_whom_they_concern(world, smtp):
    players, games, talk, notify = world
    with WebhookReceiver() as hook:
        ids = [
            players.register(n, email=f"{n.lower()}@example.org", webhook_url=hook.url)["id"]
            for n in ("Ada", "Bo", "Cy")
        ]
        for friend in ids[1:]:
            players.set_friends(friend, [ids[0]])
        game_id = games.create(ids[0], "buttons", ids)["id"]
        made = talk.propose(game_id, ids[0], "draw")
        events = games.games.events(game_id, after=made["id"] - 1)
        contacts = {s: Contact(email=True, webhook=True) for s in range(3)}
        due = due_for_messages(GameFacts.of(games.load(game_id)), events, contacts, SETTINGS, 0)
        assert sorted((d.notice.event, d.notice.seat, d.channel) for _, d in due) == [
            ("proposal.made", seat, channel) for seat in (1, 2) for channel in ("email", "webhook")
        ]
        assert notify.webhook(Notice(PROPOSAL_MADE, game_id, 1, made["id"]))[0] == "sent"
        body = hook.requests[-1]["json"]
        assert body["proposal"] == {
            "id": made["id"],
            "kind": "draw",
            "seat": 0,
            "status": "open",
            "by": None,
            "words": "Ada proposes to end the game with a shared result",
        }
        components = json.loads(DOCUMENT.read_text())["components"]
        validate(
            body,
            {"allOf": [{"$ref": "#/components/schemas/WebhookProposal"}], "components": components},
            cls=OAS30Validator,
        )
        assert notify.email(Notice(PROPOSAL_MADE, game_id, 2, made["id"]))[0] == "sent"
        text = text_of(smtp.wait_for(lambda m, rcpt: "cy@example.org" in rcpt))
        assert "Ada proposes to end the game with a shared result" in text
        talk.answer(game_id, ids[1], made["id"], False)  # Bo declines
        assert notify.email(Notice(PROPOSAL_MADE, game_id, 1, made["id"]))[0] == "superseded"
        closed = games.games.events(game_id)[-1]
        due = due_for_messages(GameFacts.of(games.load(game_id)), [closed], contacts, SETTINGS, 0)
        told = sorted({(d.notice.event, d.notice.seat) for _, d in due})
        assert told == [("proposal.closed", 0), ("proposal.closed", 2)]  # not Bo, who closed it


@pytest.mark.slow
def test_hostile_messages_are_told_inert_in_the_emails_and_the_webhook(world, smtp):
    """Every text of the red team's list that is taken reaches the message email and the turn
    email as written in the text part, escaped in the HTML part (never markup, no link made
    of it), in no header; and the webhook's JSON gives it back as written."""
    players, games, talk, notify = world
    with WebhookReceiver() as hook:
        ids = [
            players.register(n, email=f"{n.lower()}@example.org", webhook_url=hook.url)["id"]
            for n in ("Ada", "Bo")
        ]
        players.set_friends(ids[1], [ids[0]])
        game_id = games.create(ids[0], "nautilus", ids)["id"]
        reader = games.load(game_id)["active_seats"][0]
        writer = ids[1 - reader]
        said = [talk.say(game_id, writer, text) for text in SHOWN.values()]
        for sent in said:
            assert notify.webhook(Notice(CHAT_MESSAGE, game_id, reader, sent["version"]))[0] == (
                "sent"
            )
        given = [call["json"]["message"]["text"] for call in hook.requests]
        assert given == list(SHOWN.values())
    address = ("ada@example.org", "bo@example.org")[reader]
    assert chat_email(notify, game_id, reader, said[-1]["version"])[0] == "sent"
    version = games.load(game_id)["match"]["seat_since"][reader]
    assert notify.email(Notice(TURN_STARTED, game_id, reader, version))[0] == "sent"
    letters = [m for rcpt, m, _ in smtp.messages if address in rcpt]
    assert [m["X-Turnpost-Event"] for m in letters] == [CHAT_MESSAGE, TURN_STARTED]
    for letter in letters:
        text, html_part = text_of(letter), html_of(letter)
        headers = "\n".join(f"{k}: {v}" for k, v in letter.items())
        for written in SHOWN.values():
            assert written in text, written
            assert written in html.unescape(html_part), written  # as text, escaped
            assert written not in headers
        assert "<img src=x" not in html_part and "<script>alert" not in html_part
        assert "<b>bold" not in html_part
        assert 'href="https://evil.example' not in html_part
        assert 'href="javascript' not in html_part
