"""The commit policy (`due_after_commit`) as a pure function over recorded commits of every
title: whole games are played through the real service on the test Valkey, every commit is
recorded from its outbox entry with the snapshot it wrote, and the policy's answer for each is
checked against what the rules of notification say, computed independently from the legal
moves before and after the commit."""

import pytest

from engine import match as runner
from engine import registry
from engine.rng import Rng
from service.consequences import Contact, Delivery, due_after_commit
from service.notify.notifications import (
    GAME_CANCELLED,
    GAME_FINISHED,
    GAME_INVITED,
    TURN_REMINDER,
    TURN_STARTED,
    Notice,
)
from service.play import history
from service.play.facts import GameFacts
from service.play.games import GameService
from service.players.accounts import PlayerService
from service.settings import Settings
from store.games import GameStore
from store.outbox import OutboxStore
from store.players import PlayerStore

SETTINGS = Settings(email_delay_seconds=30, bot_delay_seconds=2)
NOW = 10**13  # far after every commit: a bot's delay has passed


def record_game(redis_client, name, seats_of, clock=None, picker_seed=b"policy"):
    """Play a whole game with random legal moves; the commits as (before, after, first, last),
    read back from the outbox the append wrote."""
    players = PlayerService(PlayerStore(redis_client))
    games = GameService(GameStore(redis_client), PlayerStore(redis_client), min_move_seconds=1)
    outbox = OutboxStore(redis_client)
    outbox.ensure_groups()
    people = [players.register(f"P{i}")["id"] for i in range(4)]
    for friend in people[1:]:  # P0 seats them without inviting them
        players.set_friends(friend, [people[0]])
    seats = seats_of(people)
    game_id = games.create(people[0], name, seats, time_control=clock)["id"]
    picker = Rng(picker_seed + bytes(32))
    snaps = {}
    for _ in range(3000):
        snap = games.load(game_id)
        snaps[snap["version"]] = snap
        if snap["status"] == "finished":
            break
        seat = picker.choice(snap["active_seats"])
        record = snap["seats"][seat]
        if record["kind"] == "bot":
            games.bot_move(game_id, seat, snap["version"])
            continue
        legal = games.legal_moves(game_id, record["player_id"])
        games.play(
            game_id,
            record["player_id"],
            legal["version"],
            action=picker.choice(legal["moves"])["action"],
        )
    else:
        pytest.fail("the game did not end")
    commits = []
    for entry in outbox.read("recorder", 10_000, 10):
        if entry.game_id == game_id:
            before = snaps.get(entry.first - 1)
            commits.append((before, snaps[entry.version], entry.first, entry.version))
    assert commits and commits[-1][1]["status"] == "finished"
    return commits


def legal(snap, seat):
    if snap is None or snap["match"] is None:
        return None
    return runner.legal_actions(history.game_of(snap), snap["match"], seat)


def expected_turn_starts(before, after):
    """People who may act after the commit and whose legal moves it changed."""
    if after["status"] != "active":
        return set()
    return {
        s
        for s, r in enumerate(after["seats"])
        if r["kind"] == "player"
        and s in after["active_seats"]
        and legal(after, s) != legal(before, s)
    }


def kinds(due):
    return {(d.notice.event, d.notice.seat, d.channel) for _, d in due.deliveries}


@pytest.mark.parametrize("name", sorted(registry.GAMES))
@pytest.mark.slow
def test_turn_starts_and_the_end_of_every_title_ask_for_the_right_notices(redis_client, name):
    count = registry.GAMES[name].info.min_players
    commits = record_game(redis_client, name, lambda people: people[:count])
    everyone = Contact(email=True, webhook=True)
    asked_any = False
    for before, after, first, last in commits:
        contacts = {s: everyone for s in range(count)}
        due = due_after_commit(GameFacts.of(after), first, last, contacts, SETTINGS, NOW)
        if after["status"] == "finished":
            assert kinds(due) == {
                (GAME_FINISHED, s, c) for s in range(count) for c in ("email", "webhook")
            }
            assert all(at == NOW for at, _ in due.deliveries)
            continue
        starts = expected_turn_starts(before, after)
        assert kinds(due) == {(TURN_STARTED, s, c) for s in starts for c in ("email", "webhook")}
        asked_any |= bool(starts)
        for at, delivery in due.deliveries:
            assert delivery.notice.version == after["match"]["seat_since"][delivery.notice.seat]
            assert at == NOW + (30_000 if delivery.channel == "email" else 0)
        assert due.bot_seats == [] and due.wake_at is None and due.replacements == []
    assert asked_any


def test_simultaneous_seats_one_choice_does_not_restart_the_others_turn(redis_client):
    commits = record_game(redis_client, "ninedomains", lambda people: people[:2])
    one_seat_commits = 0
    for before, after, first, last in commits:
        if after["status"] != "active" or before is None or before["match"] is None:
            continue
        due = due_after_commit(
            GameFacts.of(after),
            first,
            last,
            {0: Contact(email=True), 1: Contact(email=True)},
            SETTINGS,
            NOW,
        )
        waiting = set(before["active_seats"]) & set(after["active_seats"])
        if waiting and len(before["active_seats"]) == 2:
            one_seat_commits += 1
            assert not {d.notice.seat for _, d in due.deliveries} & waiting
    assert one_seat_commits > 0


def test_a_clock_adds_reminders_at_half_and_nine_tenths(redis_client):
    clock = {"per_move_seconds": 3600, "on_timeout": "auto"}
    commits = record_game(redis_client, "nautilus", lambda people: people[:2], clock)
    _, after, first, last = next(c for c in commits if c[1]["status"] == "active")
    due = due_after_commit(
        GameFacts.of(after), first, last, {0: Contact(email=True), 1: Contact()}, SETTINGS, NOW
    )
    seat = after["active_seats"][0]
    deadline = after["deadlines"][seat]
    reminders = sorted(
        (at, d.notice.tag) for at, d in due.deliveries if d.notice.event == TURN_REMINDER
    )
    if seat == 0:
        assert reminders == [(deadline - 1_800_000, "-50"), (deadline - 360_000, "-90")]
    else:
        assert reminders == [] and due.deliveries == []


def test_a_person_without_email_or_webhook_is_asked_nothing(redis_client):
    commits = record_game(redis_client, "buttons", lambda people: people[:2])
    for _, after, first, last in commits:
        assert (
            due_after_commit(GameFacts.of(after), first, last, {}, SETTINGS, NOW).deliveries == []
        )


def test_a_bot_to_move_moves_after_its_delay_or_wakes_the_game_then(redis_client):
    commits = record_game(
        redis_client, "consonar", lambda people: [people[0], "bot:heuristic", "bot:random"]
    )
    bot_turns = [
        (after, first, last)
        for _, after, first, last in commits
        if after["status"] == "active"
        and any(after["seats"][s]["kind"] == "bot" for s in after["active_seats"])
    ]
    assert bot_turns
    for after, first, last in bot_turns:
        bots = [s for s in after["active_seats"] if after["seats"][s]["kind"] == "bot"]
        later = due_after_commit(
            GameFacts.of(after), first, last, {}, SETTINGS, after["updated_at"] + 2000
        )
        assert later.bot_seats == bots and later.wake_at is None
        sooner = due_after_commit(
            GameFacts.of(after), first, last, {}, SETTINGS, after["updated_at"] + 500
        )
        assert sooner.bot_seats == [] and sooner.wake_at == after["updated_at"] + 2000


def test_a_seat_whose_clock_ran_out_under_auto_gets_the_computers_move(redis_client):
    players = PlayerService(PlayerStore(redis_client))
    moment = [1_000.0]
    games = GameService(
        GameStore(redis_client),
        PlayerStore(redis_client),
        clock=lambda: moment[0],
        min_move_seconds=1,
    )
    a, b = players.register("Ada")["id"], players.register("Bo")["id"]
    players.set_friends(b, [a])
    for policy, expected in (("auto", True), ("forfeit", False)):
        game_id = games.create(
            a, "nautilus", [a, b], time_control={"per_move_seconds": 60, "on_timeout": policy}
        )["id"]
        snap = games.load(game_id)
        seat = snap["active_seats"][0]
        moment[0] += 61
        assert games.expire_turn(game_id, seat, snap["match"]["seat_since"][seat]) == "applied"
        after = games.load(game_id)
        due = due_after_commit(
            GameFacts.of(after),
            after["version"],
            after["version"],
            {},
            SETTINGS,
            int(moment[0] * 1000),
        )
        assert (due.replacements == [seat]) is expected
        if expected:
            assert games.play_for_timed_out(game_id, seat)
            assert not games.play_for_timed_out(game_id, seat)  # once
            moved = games.load(game_id)
            assert moved["timed_out"] == [] and moved["version"] == after["version"] + 1


def test_a_delivery_survives_the_schedule_as_it_was():
    delivery = Delivery("webhook", Notice(TURN_REMINDER, "g_1", 1, 7, "-90"), 3)
    assert Delivery.from_item(delivery.item()) == delivery
    assert delivery.job_id == "webhook-g_1-1-7-turn_reminder-90-try3"


def test_an_invitation_is_told_at_once_and_no_turn_comes_before_it_is_accepted(redis_client):
    """Ada invites Bo and Cy to a game of Buttons: each commit's notices, from the snapshot it
    wrote (and, as the worker may read it later, from the game as it is now)."""
    players = PlayerService(PlayerStore(redis_client))
    games = GameService(GameStore(redis_client), PlayerStore(redis_client))
    ada, bo, cy = (players.register(name)["id"] for name in ("Ada", "Bo", "Cy"))
    everyone = {s: Contact(email=True, webhook=True) for s in range(3)}
    game_id = games.create(ada, "buttons", [ada, bo, cy])["id"]
    created = games.load(game_id)
    due = due_after_commit(GameFacts.of(created), 1, 1, everyone, SETTINGS, NOW)
    assert kinds(due) == {(GAME_INVITED, s, c) for s in (1, 2) for c in ("email", "webhook")}
    assert all(at == NOW for at, _ in due.deliveries)  # an invitation does not wait
    games.join(game_id, bo)
    joined = games.load(game_id)
    assert kinds(due_after_commit(GameFacts.of(joined), 2, 2, everyone, SETTINGS, NOW)) == set()
    # the creation's entry read late: only Cy's invitation still holds
    late = due_after_commit(GameFacts.of(joined), 1, 1, everyone, SETTINGS, NOW)
    assert kinds(late) == {(GAME_INVITED, 2, c) for c in ("email", "webhook")}
    games.join(game_id, cy)
    started = games.load(game_id)
    turns = due_after_commit(GameFacts.of(started), 3, started["version"], everyone, SETTINGS, NOW)
    assert {event for event, _, _ in kinds(turns)} == {TURN_STARTED}
    assert due_after_commit(GameFacts.of(started), 1, 1, everyone, SETTINGS, NOW).deliveries == []


def test_a_cancelled_game_tells_everyone_seated_or_invited_once(redis_client):
    players = PlayerService(PlayerStore(redis_client))
    games = GameService(GameStore(redis_client), PlayerStore(redis_client))
    ada, bo, cy = (players.register(name)["id"] for name in ("Ada", "Bo", "Cy"))
    everyone = {s: Contact(email=True) for s in range(3)}
    game_id = games.create(ada, "buttons", [ada, bo, cy])["id"]
    games.decline(game_id, cy)
    cancelled = games.load(game_id)
    due = due_after_commit(
        GameFacts.of(cancelled), 2, cancelled["version"], everyone, SETTINGS, NOW
    )
    assert kinds(due) == {(GAME_CANCELLED, 0, "email"), (GAME_CANCELLED, 1, "email")}
    assert due_after_commit(GameFacts.of(cancelled), 1, 1, everyone, SETTINGS, NOW).deliveries == []
