"""Webhooks of kind Discord and Slack: real `turnpost worker` processes post each notice to an
HTTP receiver on loopback as the chat app's incoming-webhook JSON, checked against the shape
the app documents; the line tells the game, the last move as everyone reads it and a link,
never what only the player's seat may know; the SSRF guard holds for these kinds too."""

from __future__ import annotations

import time

import pytest
from jsonschema import Draft202012Validator

from api.app import create_app
from engine.core import LogEntry
from engine.rng import Rng
from service.assembly import assemble
from service.notify import chat_apps
from service.notify.notifications import CHAT_MESSAGE, TURN_STARTED, Notice
from service.play import logview
from service.play.talk import Talk, TalkLimits
from service.settings import Settings
from store.players import PlayerStore
from tests.peers import WebhookReceiver
from tests.service.test_safe_urls import INTERNAL
from tests.workers.test_bots_and_timers import wait_for
from transports.safe_urls import UrlPolicy

# Discord, "Execute Webhook" (JSON params): content at most 2,000 characters; username 1 to 80,
# never containing "discord" or "clyde"; allowed_mentions' parse of roles, users, everyone;
# one of content, embeds, components, files or poll.
DISCORD = {
    "type": "object",
    "properties": {
        "content": {"type": "string", "maxLength": 2000},
        "username": {
            "type": "string",
            "minLength": 1,
            "maxLength": 80,
            "not": {"pattern": "(?i)discord|clyde"},
        },
        "avatar_url": {"type": "string"},
        "tts": {"type": "boolean"},
        "embeds": {"type": "array", "maxItems": 10},
        "allowed_mentions": {
            "type": "object",
            "properties": {
                "parse": {"type": "array", "items": {"enum": ["roles", "users", "everyone"]}},
                "roles": {"type": "array", "maxItems": 100},
                "users": {"type": "array", "maxItems": 100},
                "replied_user": {"type": "boolean"},
            },
            "additionalProperties": False,
        },
        "components": {"type": "array"},
        "attachments": {"type": "array"},
        "flags": {"type": "integer"},
        "thread_name": {"type": "string"},
        "applied_tags": {"type": "array"},
        "poll": {"type": "object"},
    },
    "additionalProperties": False,
    "anyOf": [{"required": [k]} for k in ("content", "embeds", "components", "files", "poll")],
}
# Slack, incoming webhooks: text (the message, or the fallback of its blocks), mrkdwn, blocks,
# attachments, thread_ts, unfurl_links, unfurl_media.
SLACK = {
    "type": "object",
    "properties": {
        "text": {"type": "string", "minLength": 1, "maxLength": 40000},
        "blocks": {"type": "array", "maxItems": 50},
        "attachments": {"type": "array"},
        "thread_ts": {"type": "string"},
        "mrkdwn": {"type": "boolean"},
        "unfurl_links": {"type": "boolean"},
        "unfurl_media": {"type": "boolean"},
    },
    "required": ["text"],
    "additionalProperties": False,
}


def private_to(games, game_id, seat):
    """Log texts that `seat` reads and a spectator may not (its hand, its face-down cards)."""
    snap = games.load(game_id)
    entries = [
        LogEntry.from_json(raw) for e in games.games.events(game_id) for raw in e.get("entries", [])
    ]
    public = {logview.with_names(e.text, snap["seats"]) for e in entries if e.visible_to(None)}
    return {
        logview.with_names(e.text, snap["seats"])
        for e in entries
        if e.visible_to(seat) and not e.visible_to(None)
    } - public


def play_to_the_end(games, game_id, people, players, picker):
    """Random moves to the end; Ada (seat 0) moves last of those who may (so that her own
    face-down card is the last event she is told of), once her turn was posted (a turn moved
    on before its post would be dropped as superseded)."""
    while (summary := games.summary(game_id))["status"] != "finished":
        seat = summary["active_seats"][-1]
        if seat == 0:
            turn = games.load(game_id)["match"]["seat_since"][0]
            wait_for(lambda: turn_posted(players, people[0], game_id, turn), 20)
        move = picker.choice(games.legal_moves(game_id, people[seat])["moves"])
        games.play(game_id, people[seat], summary["version"], action=move["action"])


def turn_posted(players, player_id, game_id, turn):
    """Whether the player's webhook was sent their turn that began at version `turn`, as
    their deliveries log tells (it is written once the receiver answered the post)."""
    return any(
        (d["channel"], d["event"], d["game_id"], d["version"], d["status"])
        == ("webhook", TURN_STARTED, game_id, turn, "sent")
        for d in players.deliveries(player_id)["deliveries"]
    )


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["discord", "slack"])
def test_a_chat_webhook_gets_a_line_in_the_apps_shape(services, start_workers, kind):
    players, games = services
    with WebhookReceiver() as receiver:
        start_workers(PUBLIC_URL="http://turnpost.test")
        ada = players.register("Ada", webhook_url=receiver.url, webhook_kind=kind)["id"]
        bo = players.register("B*o_[x](http://evil.example) @everyone")["id"]
        players.set_friends(bo, [ada])
        people = [ada, bo]
        game_id = games.create(ada, "ninedomains", people)["id"]
        picker = Rng(b"chat webhooks" + bytes(32))
        play_to_the_end(games, game_id, people, players, picker)
        calls = receiver.wait_until(
            lambda got: any("is over" in str(c["json"]) for c in got), timeout=30
        )
        time.sleep(0.5)
    schema = DISCORD if kind == "discord" else SLACK
    secrets = private_to(games, game_id, 0)
    assert secrets, "Ada had something to keep to herself"
    for call in calls:
        Draft202012Validator(schema).validate(call["json"])
        assert "Turnpost-Signature" not in call["headers"], "the chat app has no secret to check"
        text = call["json"]["content" if kind == "discord" else "text"]
        assert f"http://turnpost.test/play/{game_id}" in text
        assert "The Nine Domains" in text
        for secret in secrets:  # what only Ada's seat reads never goes to a channel
            assert secret not in text, secret
    winners = games.summary(game_id)["outcome"]["winners"]
    said = {(0,): "Ada won", (1,): "B"}.get(tuple(winners), "share the win")
    (end,) = [str(c["json"]) for c in calls if "is over" in str(c["json"])]
    assert f"is over: {said}" in end, "told as everyone reads it, not as Ada's seat does"
    first = calls[0]["json"]
    if kind == "discord":
        assert first["allowed_mentions"] == {"parse": []}
        assert r"B\*o\_\[x\](http://evil.example) \@everyone" in first["content"]
        assert first["content"].endswith(f" <http://turnpost.test/play/{game_id}>")
    else:
        assert first["text"].endswith(f" <http://turnpost.test/play/{game_id}|{game_id}>")
        assert "[x](http://evil.example) @everyone" in first["text"]


@pytest.mark.slow
def test_a_flood_of_messages_posts_one_line_an_hour_to_each_readers_chat_app(
    services, start_workers, redis_client
):
    """A chat app's channel is read by people: a flood of messages gathers into one line once
    the table is quiet, and no second one within the hour, as the chat email (the signed
    webhook's `chat.message` stays an event per message, for programs). The line names no
    message, and a private message is not told to a channel at all."""
    players, games = services
    with WebhookReceiver() as discord, WebhookReceiver() as slack:
        start_workers(
            PUBLIC_URL="http://turnpost.test",
            CHAT_EMAIL_DELAY_SECONDS="1",
            CHAT_EMAIL_EVERY_SECONDS="3600",
        )
        ada = players.register("Ada", webhook_url=discord.url, webhook_kind="discord")["id"]
        bo = players.register("Bo")["id"]
        cy = players.register("Cy", webhook_url=slack.url, webhook_kind="slack")["id"]
        for reader in (ada, cy):  # their turns are not posted: only what the messages cause
            players.update(reader, {"notifications": {"events": {"turn": {"webhook": False}}}})
        for friend in (bo, cy):
            players.set_friends(friend, [ada])
        game_id = games.create(ada, "consonar", [ada, bo, cy])["id"]
        talk = Talk(games, PlayerStore(redis_client), TalkLimits(1000, 1000))
        for i in range(15):
            talk.say(game_id, bo, f"flood {i}")
        talk.say(game_id, bo, "for Cy alone", to=2)
        lines = [
            discord.wait_count(1)[0]["json"]["content"],
            slack.wait_count(1)[0]["json"]["text"],
        ]
        for i in range(15, 25):  # more within the hour: no second line, however quiet
            talk.say(game_id, bo, f"flood {i}")
        time.sleep(4)  # four times the quiet delay
        assert (len(discord.requests), len(slack.requests)) == (1, 1)
    assert lines[0].startswith("Ada: new messages in Con Sonar! with Bo, Cy")
    assert lines[1].startswith("Cy: new messages in Con Sonar! with Ada, Bo")
    for line in lines:
        assert "flood" not in line and "alone" not in line
        assert "/play/" + game_id in line


@pytest.mark.slow
def test_a_private_message_alone_is_not_told_to_a_chat_app(redis_client):
    """A channel may be read by others than its player: a private message is not even said to
    have come (its reader is told by email)."""
    world = assemble(
        redis_client,
        Settings(
            public_url="http://turnpost.test", webhook_allow_http=True, webhook_allow_loopback=True
        ),
    )
    with WebhookReceiver() as discord:
        ada = world.players.register("Ada", webhook_url=discord.url, webhook_kind="discord")["id"]
        bo, cy = (world.players.register(n)["id"] for n in ("Bo", "Cy"))
        for friend in (bo, cy):
            world.players.set_friends(friend, [ada])
        game_id = world.games.create(ada, "consonar", [ada, bo, cy])["id"]
        said = world.talk.say(game_id, bo, "for Ada alone", to=0)
        notice = Notice(CHAT_MESSAGE, game_id, 0, said["version"])
        assert world.notifications.webhook(notice)[0] == "off"
        assert discord.requests == []


def test_a_long_line_is_cut_to_discords_limit_and_slacks_control_characters_are_escaped():
    long = chat_apps.body(
        "discord", "Ada: " + "x" * 3000, ("Bo played",), "https://t.example/g", "g"
    )
    assert len(long["content"]) == 2000 and long["content"].endswith(" <https://t.example/g>")
    Draft202012Validator(DISCORD).validate(long)
    slack = chat_apps.body(
        "slack", "Ada <b> & Bo", ("Bo played <x>",), "https://t.example/g", "g_1"
    )
    assert slack["text"] == (
        "Ada &lt;b&gt; &amp; Bo. Bo played &lt;x&gt; <https://t.example/g|g_1>"
    )
    Draft202012Validator(SLACK).validate(slack)


@pytest.mark.slow
def test_chat_webhooks_on_the_servers_own_network_are_refused(redis_client):
    client = create_app(redis_client).test_client()
    for kind in ("discord", "slack"):
        for url in INTERNAL:
            r = client.post(
                "/v1/players", json={"name": "Mallory", "webhook_url": url, "webhook_kind": kind}
            )
            assert r.status_code == 422, (kind, url)
            assert r.json["code"] in ("player/unsafe_webhook", "request/invalid"), url
    r = client.post("/v1/players", json={"name": "Ada", "webhook_kind": "irc"})
    assert r.status_code == 422 and r.json["code"] == "request/invalid"
    me = {
        "Authorization": f"Bearer {client.post('/v1/players', json={'name': 'Eve'}).json['token']}"
    }
    for kind in ("discord", "slack"):
        for url in INTERNAL:
            r = client.patch(
                "/v1/players/me", json={"webhook_url": url, "webhook_kind": kind}, headers=me
            )
            assert r.status_code == 422, (kind, url)
    assert client.get("/v1/players/me", headers=me).json["webhook_url"] is None


@pytest.mark.slow
def test_a_chat_post_to_a_loopback_address_is_not_made_in_production():
    """Checked again at delivery: an address that became internal is not connected to."""
    with WebhookReceiver() as receiver:
        result = chat_apps.post(
            receiver.url.replace("http://", "https://"),
            chat_apps.body("slack", "Ada", (), "https://t.example/g", "g"),
            2.0,
            UrlPolicy(),
        )
        time.sleep(0.2)
    assert result.status is None and result.detail == "could not connect"
    assert receiver.requests == []


@pytest.mark.slow  # over a second: not in make test-fast
def test_a_chat_post_follows_no_redirect():
    """A chat app's address that answers a redirect to the server's own network is not
    followed there (the SSRF guard of every webhook)."""
    with (
        WebhookReceiver() as inside,
        WebhookReceiver(statuses=[302], location=inside.url) as outside,
    ):
        result = chat_apps.post(
            outside.url,
            chat_apps.body("discord", "Ada", (), "https://t.example/g", "g"),
            2.0,
            UrlPolicy(allow_http=True, allow_loopback=True),
        )
        time.sleep(0.2)
    assert (result.status, result.detail) == (302, "refused by the receiver (HTTP 302)")
    assert len(outside.requests) == 1 and inside.requests == []
