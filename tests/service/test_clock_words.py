"""What the turn emails and reminders say of the clock: what a bank holds ("Your bank holds
..."), the time a clock per move leaves for the move ("You have ... to move"), and who is on
vacation until when. The service's time is held still so that the words are exact. Real
Valkey, real SMTP (aiosmtpd)."""

from __future__ import annotations

import pytest

from service.notify.notifications import TURN_REMINDER, TURN_STARTED, Notice, NotificationService
from service.play.games import GameService
from service.settings import Settings
from service.timefmt import stamp
from store.games import GameStore
from store.notifications import NotificationStore
from store.players import PlayerStore
from tests.addresses import ConfirmedPlayers
from tests.peers import text_of
from transports.mailer import SmtpMailer

DAY = 86_400
START = 1_798_027_200_000  # Wednesday 23 December 2026, 12:00 UTC (no weekends off here)
BANK = {
    "kind": "bank",
    "initial_seconds": 10 * DAY,
    "increment_seconds": DAY,
    "max_seconds": 10 * DAY,
    "on_timeout": "auto",
}
PER_MOVE = {"kind": "per_move", "per_move_seconds": 3 * DAY, "on_timeout": "forfeit"}


@pytest.fixture
def world(redis_client, smtp):
    redis_client.flushall()
    now = [START]
    players = ConfirmedPlayers(PlayerStore(redis_client))
    games = GameService(
        GameStore(redis_client), PlayerStore(redis_client), clock=lambda: now[0] / 1000
    )
    notify = NotificationService(
        GameStore(redis_client),
        PlayerStore(redis_client),
        NotificationStore(redis_client),
        Settings(email_throttle_seconds=0),
        SmtpMailer(smtp.url),
        clock=lambda: now[0] / 1000,
    )
    ada = players.register("Ada", email="ada@example.org")["id"]
    bo = players.register("Bo", email="bo@example.org")["id"]
    players.set_friends(bo, [ada])
    return now, games, notify, [ada, bo]


def letter(world, smtp, game_id, event=TURN_STARTED, tag=""):
    """The text of the email to the seat that may act."""
    _, games, notify, _ = world
    snap = games.load(game_id)
    [seat] = snap["active_seats"]
    version = snap["match"]["seat_since"][seat]
    assert notify.email(Notice(event, game_id, seat, version, tag))[0] == "sent"
    address = ["ada@example.org", "bo@example.org"][seat]
    found = smtp.wait_for(
        lambda m, rcpt: address in rcpt and (event != TURN_REMINDER or "reminder" in m["Subject"])
    )
    return " ".join(text_of(found).split())


def test_a_turn_email_and_its_reminder_say_what_the_bank_holds(world, smtp):
    now, games, _, people = world
    game_id = games.create(people[0], "nautilus", people, time_control=BANK)["id"]
    text = letter(world, smtp, game_id)
    assert "Your bank holds 10 days." in text
    assert "to move" not in text
    now[0] += 9 * DAY * 1000  # nine days of the ten used: the 90% reminder is due
    text = letter(world, smtp, game_id, TURN_REMINDER, "-90")
    assert "It is still your turn" in text and "Your bank holds 1 day." in text


def test_a_clock_per_move_tells_the_time_left_to_move_not_a_bank(world, smtp):
    now, games, _, people = world
    game_id = games.create(people[0], "nautilus", people, time_control=PER_MOVE)["id"]
    text = letter(world, smtp, game_id)
    assert "You have 3 days to move." in text
    assert "bank" not in text
    now[0] += 2 * DAY * 1000 + 18 * 3_600_000
    text = letter(world, smtp, game_id, TURN_REMINDER, "-90")
    assert "It is still your turn" in text and "You have 6 hours to move." in text
    assert "bank" not in text


def test_the_other_players_vacation_is_told_with_its_end(world, smtp):
    _, games, _, people = world
    game_id = games.create(people[0], "nautilus", people, time_control=BANK)["id"]
    [seat] = games.load(game_id)["active_seats"]
    other = 1 - seat
    back = START + 4 * DAY * 1000
    copy = {"zone": None, "vacations": [[START - 1000, back]], "v": 1}
    games.set_calendar(game_id, people[other], copy)
    text = letter(world, smtp, game_id)
    name = ["Ada", "Bo"][other]
    assert f"{name} is on vacation until {stamp(back)}." in text
    assert "Your bank holds 10 days." in text  # the reader's own clock runs


def test_a_time_in_utc_is_told_without_reading_the_machines_time_zones():
    """A reader without a time zone is told times in UTC; reading every zone the machine
    knows (service.timefmt.time_zones) is for readers who have one."""
    from service.timefmt import time_zones

    time_zones.cache_clear()
    assert stamp(1_795_000_000_000, None).endswith(" UTC")
    assert time_zones.cache_info().currsize == 0
    assert stamp(1_795_000_000_000, "Europe/Rome").endswith(" Europe/Rome")
    assert stamp(1_795_000_000_000, "Mars/Olympus") == stamp(1_795_000_000_000, None)
