"""An email address is sent nothing but the letter that confirms it until its owner follows
that letter's link: no turn email, reminder, invitation, fallback for a failed webhook, nor an
answer to a reply. Invitations by email are limited per recipient address, whoever invites.
The service as the API and the workers assemble it, a real Valkey, a real SMTP peer (aiosmtpd)
that counts what arrives."""

import json
import re

import pytest

from service.assembly import assemble
from service.notify.notifications import GAME_INVITED, TURN_REMINDER, TURN_STARTED, Notice
from service.settings import Settings
from store import keys
from tests.peers import text_of
from transports.mailer import SmtpMailer

SITE = "http://turnpost.test"


@pytest.fixture
def services(redis_client, smtp):
    settings = Settings(public_url=SITE, mail_domain="play.test", email_throttle_seconds=0)
    return assemble(redis_client, settings=settings, mailer=SmtpMailer(smtp.url))


def letters(smtp, address):
    return [m for rcpt, m, _ in smtp.messages if address in rcpt]


def run_letters(services, redis_client):
    """What the worker's clock does with the letters asked for: send them (run here)."""
    for bucket in range(keys.BUCKETS):
        for raw in redis_client.zrange(keys.schedule(bucket), 0, -1):
            item = json.loads(raw)
            if item["kind"] == "sign_in":
                services.sign_in.send_links(item["email"], item.get("why", "sign_in"))
                redis_client.zrem(keys.schedule(bucket), raw)


def follow(services, smtp, address, name):
    """The owner of the address follows the link of `name` in the newest letter to it."""
    text = text_of(letters(smtp, address)[-1])
    link = re.search(rf"Sign in as {name}: {SITE}/sign-in/([A-Za-z0-9_-]+)", text).group(1)
    return services.sign_in.redeem_link(link)


def test_an_unconfirmed_address_gets_nothing_but_its_confirmation(services, redis_client, smtp):
    players, games = services.players, services.games
    ada = players.register("Ada", "ada@example.org")["id"]
    bo = players.register("Bo", "bo@example.org")["id"]
    assert players.profile(ada)["email_confirmed"] is False
    run_letters(services, redis_client)
    assert len(letters(smtp, "ada@example.org")) == 1, "one letter: the confirmation"
    first = letters(smtp, "ada@example.org")[0]
    assert first["Subject"] == "[turnpost] Confirm your email address"
    assert first["X-Turnpost-Event"] == "sign_in.link"
    follow(services, smtp, "bo@example.org", "Bo")
    assert players.profile(bo)["email_confirmed"] is True
    # Bo invites Ada, she joins and they play (The Nine Domains: both choose at once):
    # nothing of it reaches her address, not even as the fallback of a failed webhook
    game = games.create(bo, "ninedomains", [bo, ada])["id"]
    assert services.notifications.email(Notice(GAME_INVITED, game, 1, 1)) == ("unconfirmed", 0)
    games.join(game, ada)
    snap = games.games.snapshot(game)
    assert snap["active_seats"] == [0, 1]
    since = snap["version"]
    for seat, expected in ((0, "sent"), (1, "unconfirmed")):
        for notice in (Notice(TURN_STARTED, game, seat, since),):
            assert services.notifications.email(notice)[0] == expected
        reminder = Notice(TURN_REMINDER, game, seat, since, "50")
        assert services.notifications.email(reminder, fallback=True)[0] == expected
    assert len(letters(smtp, "ada@example.org")) == 1
    deliveries = players.deliveries(ada)["deliveries"]
    assert len(deliveries) == 3 and {d["status"] for d in deliveries} == {"unconfirmed"}
    assert "not confirmed" in deliveries[0]["detail"]
    # she follows the link: from then on her address gets her news
    assert follow(services, smtp, "ada@example.org", "Ada") == ada
    assert players.profile(ada)["email_confirmed"] is True
    reminder = Notice(TURN_REMINDER, game, 1, since, "90")
    assert services.notifications.email(reminder)[0] == "sent"
    assert len(letters(smtp, "ada@example.org")) == 2


def test_a_new_address_is_unconfirmed_until_its_own_owner_confirms_it(services, redis_client, smtp):
    players = services.players
    ada = players.register("Ada", "ada@example.org")["id"]
    run_letters(services, redis_client)
    follow(services, smtp, "ada@example.org", "Ada")
    assert players.profile(ada)["email_confirmed"] is True
    # a change of case is the same address
    assert players.update(ada, {"email": "Ada@Example.org"})["email_confirmed"] is True
    changed = players.update(ada, {"email": "victim@example.org"})
    assert changed["email_confirmed"] is False
    run_letters(services, redis_client)
    assert len(letters(smtp, "victim@example.org")) == 1
    # a link emailed to the old address does not confirm the new one
    players.update(ada, {"email": "ada@example.org"})
    assert players.profile(ada)["email_confirmed"] is True, "confirmed once, by its owner"
    services.sign_in.request_link("ada@example.org")
    run_letters(services, redis_client)
    players.update(ada, {"email": "victim@example.org"})
    follow(services, smtp, "ada@example.org", "Ada")
    assert players.profile(ada)["email_confirmed"] is False


def test_an_account_stored_before_confirmations_keeps_its_address_confirmed(services, redis_client):
    """Accounts made before addresses were confirmed have no flag: their address counts as
    confirmed (their games go on by email) until it changes."""
    players = services.players
    redis_client.set(
        keys.player("p_legacy"),
        json.dumps({"name": "Old", "email": "old@example.org", "webhook_url": None}),
    )
    assert players.profile("p_legacy")["email_confirmed"] is True
    assert players.update("p_legacy", {"email": "new@example.org"})["email_confirmed"] is False
    assert players.update("p_legacy", {"email": "old@example.org"})["email_confirmed"] is False


def test_invitations_are_emailed_to_one_address_at_most_its_hourly_limit_whoever_invites(
    services, redis_client, smtp
):
    players, games = services.players, services.games
    limit = services.settings.invitations_per_address_per_hour
    victim = players.register("Vic", "vic@example.org")["id"]
    run_letters(services, redis_client)
    follow(services, smtp, "vic@example.org", "Vic")
    outcomes = []
    for n in range(40):  # forty new accounts, one invitation each
        inviter = players.register(f"Inviter {n}")["id"]
        game = games.create(inviter, "ninedomains", [inviter, victim])["id"]
        outcomes.append(services.notifications.email(Notice(GAME_INVITED, game, 1, 1))[0])
        if n == 0:  # a delivery tried again is not counted twice
            again = services.notifications.email(Notice(GAME_INVITED, game, 1, 1))[0]
            assert again == "duplicate"
    assert outcomes.count("sent") == limit and outcomes.count("throttled") == 40 - limit
    invitations = [m for m in letters(smtp, "vic@example.org") if m["X-Turnpost-Game"]]
    assert len(invitations) == limit


def reply(token: str, version: int, sender: str, move: str, message_id: str) -> bytes:
    return (
        f"From: {sender}\r\nTo: move+{token}.{version}@play.test\r\n"
        f"Subject: Re: your move\r\nMessage-ID: <{message_id}>\r\n\r\n{move}\r\n"
    ).encode()


def test_a_reply_is_answered_at_the_players_confirmed_address_only(services, redis_client, smtp):
    """With replies from any address allowed, a reply whose From is someone else's (forged,
    with a reply token) is played, but the answer goes to the player's own address, never to
    the From; an address not confirmed gets no answer."""
    players, games = services.players, services.games
    ada = players.register("Ada", "ada@example.org")["id"]
    run_letters(services, redis_client)
    follow(services, smtp, "ada@example.org", "Ada")
    players.update(ada, {"notifications": {"replies_from_any_address": True}})

    def answers(address):
        return [m for m in letters(smtp, address) if m["X-Turnpost-Event"] == "mail.answer"]

    def play_by_reply(sender: str, message_id: str) -> None:
        game = games.create(ada, "ninedomains", [ada, "bot:random"])["id"]
        version = games.games.snapshot(game)["version"]
        token = services.notifications.keys.reply_token(game, 0)
        move = games.legal_moves(game, ada)["moves"][0]["notation"]
        raw = reply(token, version, sender, move, message_id)
        assert services.mail_moves.receive(raw).code == "mail/played"

    play_by_reply("victim@example.net", "forged@example.net")
    assert letters(smtp, "victim@example.net") == []
    assert len(answers("ada@example.org")) == 1
    # her address changes and is not confirmed yet: her reply is played, answered to no one
    players.update(ada, {"email": "ada@new.example.org"})
    play_by_reply("ada@new.example.org", "second@example.net")
    play_by_reply("victim@example.net", "third@example.net")
    assert answers("ada@new.example.org") == answers("victim@example.net") == []
    assert len(answers("ada@example.org")) == 1
