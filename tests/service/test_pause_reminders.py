"""An agreed pause moves the turn's reminders (50% and 90% of its clock) on every channel: a
reminder scheduled before the pause that comes due at its old time waits until the time the
pause moved it to, by email, webhook and Web Push alike. Real Valkey, a real SMTP server, a
webhook receiver and a push service on loopback (tests/peers.py)."""

from __future__ import annotations

import time

import pytest

from service.notify.notifications import TURN_REMINDER, Notice, NotificationService
from service.notify.push import PushDevices
from service.play import history
from service.play.games import GameService
from service.play.talk import Talk, TalkLimits
from service.secrets import ServerKeys
from service.settings import Settings
from store.games import GameStore
from store.notifications import NotificationStore
from store.players import PlayerStore
from store.push import PushStore
from tests.addresses import ConfirmedPlayers
from tests.peers import PushService, WebhookReceiver
from transports.mailer import SmtpMailer

SETTINGS = Settings(
    public_url="http://turnpost.test", webhook_allow_http=True, webhook_allow_loopback=True
)
DAY = 86_400


class Clock:
    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def world(redis_client, smtp):
    clock = Clock()
    notes = NotificationStore(redis_client)
    players = ConfirmedPlayers(PlayerStore(redis_client), notes, webhook_urls=SETTINGS.webhook_urls)
    games = GameService(GameStore(redis_client), PlayerStore(redis_client), clock=clock)
    talk = Talk(games, PlayerStore(redis_client), TalkLimits(1000, 1000))
    devices = PushDevices(
        PushStore(redis_client), notes, ServerKeys(SETTINGS, notes), SETTINGS, clock
    )
    notify = NotificationService(
        GameStore(redis_client),
        PlayerStore(redis_client),
        notes,
        SETTINGS,
        SmtpMailer(smtp.url),
        clock=clock,
        push_devices=devices,
    )
    return players, games, talk, notify, devices, clock


@pytest.mark.slow  # over a second: not in make test-fast
def test_a_pause_agreed_after_the_reminders_were_scheduled_moves_them(world, smtp):
    players, games, talk, notify, devices, clock = world
    with WebhookReceiver() as hook, PushService() as pushed:
        ids = [
            players.register(n, email=f"{n.lower()}@example.org", webhook_url=hook.url)["id"]
            for n in ("Ada", "Bo")
        ]
        players.set_friends(ids[1], [ids[0]])
        control = {"per_move_seconds": DAY, "on_timeout": "auto"}
        game_id = games.create(ids[0], "nautilus", ids, time_control=control)["id"]
        snap = games.load(game_id)
        seat = snap["active_seats"][0]
        pushed.application_server_key = devices.public_key()
        subscription = pushed.browser("phone").subscription
        devices.add(ids[seat], subscription["endpoint"], **subscription["keys"], device="phone")
        since = snap["match"]["seat_since"][seat]
        due = history.reminder_at(snap, seat, 50)
        assert due is not None
        reminder = Notice(TURN_REMINDER, game_id, seat, since, "-50")
        clock.now += 3600
        proposal = talk.propose(game_id, ids[1 - seat], "pause", 3)
        talk.answer(game_id, ids[seat], proposal["id"], True)
        moved = history.reminder_at(games.load(game_id), seat, 50)
        assert moved == due + 3 * DAY * 1000
        # the reminder comes due when it was scheduled: every channel waits for its new time
        clock.now = due / 1000 + 1
        for channel, waits in (
            (notify.email, "deferred"),
            (notify.webhook, "busy"),
            (notify.push, "deferred"),
        ):
            outcome, wait = channel(reminder)
            assert outcome == waits and wait == pytest.approx(3 * DAY - 1, abs=2), channel
        assert (smtp.messages, hook.requests, pushed.requests) == ([], [], [])
        # at the time the pause moved it to, it goes, once on each channel
        clock.now = moved / 1000 + 1
        assert [
            channel(reminder)[0] for channel in (notify.email, notify.webhook, notify.push)
        ] == ["sent"] * 3
        pushed.wait_count(1)
        hook.wait_count(1)
    assert smtp.wait_for(lambda m, rcpt: m["X-Turnpost-Event"] == "turn.reminder")
