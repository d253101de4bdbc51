"""Tournaments run by the worker (its outbox consumer and clock, in this process, on the test
Valkey): sign-ups recorded by the requests; the start, the rounds' games, the results, the
next round's pairing and the notices carried out as consequences, each once however often an
entry is carried out; a player who leaves has their games resolved by the clock's policy.

The games are The Nine Domains (two players, a handful of moves): both seats playing their
first legal move every time always ends in a draw (equal points and domains), and a resignation
in a loss, so each result is the test's choice."""

from __future__ import annotations

import time
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from api.schemas import GameSummarySchema
from api.tournament_schemas import WebhookTournamentRoundSchema
from service.assembly import assemble
from service.errors import ServiceError
from service.play import clock
from service.settings import Settings
from service.timefmt import epoch_ms, iso
from service.tournaments.events import replay
from store import keys
from store.outbox import OutboxStore
from tests.addresses import confirm
from tests.peers import WebhookReceiver, text_of
from transports.mailer import SmtpMailer
from workers import process as worker_process
from workers.process import WorkerProcess

CLOCK = {"per_move_seconds": 86400, "on_timeout": "forfeit"}


@pytest.fixture
def world(valkey, redis_client, monkeypatch):
    """The requests' services, and a worker whose steps this test takes."""
    monkeypatch.setattr(worker_process, "OUTBOX_LINGER_SECONDS", 0)
    services = assemble(redis_client, Settings(vacation_days_a_year=0))
    worker = WorkerProcess(
        {"REDIS_URL": valkey.url, "EMAIL_DELAY_SECONDS": "0", "VACATION_DAYS_A_YEAR": "0"}
    )
    worker.outbox.ensure_groups()
    yield services, worker
    worker.stop.set()


def drain(worker, twice=False):
    """Carry out every entry in the outbox (and what they cause), each `twice` if asked: as a
    worker killed after its work and before its acknowledgement, whose entry is taken over."""
    for _ in range(500):
        entries = worker.outbox.read(worker.name, 200, 5)
        if not entries:
            return
        for entry in entries:
            worker.consequences.carry_out(entry)
            if twice:
                worker.consequences.carry_out(entry)
        worker.outbox.done(entries)
    raise AssertionError("the outbox never emptied")


def register(services, n, prefix="P"):
    return [services.players.register(f"{prefix}{i}")["id"] for i in range(n)]


def seats_of(services, game_id):
    return [s["player_id"] for s in services.games.summary(game_id)["seats"]]


def play_out(services, game_id, loser=None):
    """Play the game to its end: `loser` resigns (after the first round of cards), or nobody
    does and both seats play their first legal move to a draw."""
    games = services.games
    for step in range(200):
        summary = games.summary(game_id)
        if summary["status"] == "finished":
            return summary
        if loser is not None and step >= 2:
            games.resign(game_id, loser)
            continue
        seat = summary["active_seats"][0]
        player = summary["seats"][seat]["player_id"]
        legal = games.legal_moves(game_id, player)
        games.play(game_id, player, legal["version"], action=legal["moves"][0]["action"])
    raise AssertionError("the game did not end")


def play_against_the_computer(services, worker, game_id, seat):
    """The person in `seat` plays their first legal move whenever they may; the other seat,
    whose player left the tournament, must never be what the game waits for."""
    games = services.games
    for _ in range(100):
        drain(worker)
        summary = games.summary(game_id)
        if summary["status"] == "finished":
            return
        assert seat in summary["active_seats"], "the game waits for the player who left"
        player = summary["seats"][seat]["player_id"]
        legal = games.legal_moves(game_id, player)
        games.play(game_id, player, legal["version"], action=legal["moves"][0]["action"])
    raise AssertionError("the game did not end")


def stream_events(redis_client, player_id):
    found = redis_client.xrange(keys.player_events(player_id))
    return [{k.decode(): v.decode() for k, v in fields.items()} for _, fields in found]


@pytest.mark.slow  # six games played through
def test_a_round_robin_runs_once_however_often_its_entries_are_carried_out(world, redis_client):
    services, worker = world
    people = register(services, 4)
    creator = people[0]
    t = services.tournaments.create(creator, "ninedomains", "round_robin", 4, CLOCK)
    for p in people:
        services.tournaments.sign_up(t["id"], p)
    assert services.tournaments.get(t["id"])["status"] == "signup"  # the worker starts it
    drain(worker, twice=True)
    shown = services.tournaments.get(t["id"])
    assert shown["status"] == "running" and shown["current_round"] == 1
    games = shown["pairings"][0]["games"]
    assert len(games) == 6
    assert all(services.games.summary(g["game_id"])["status"] == "active" for g in games)
    summary = services.games.summary(games[0]["game_id"])
    assert summary["tournament"] == {"id": t["id"], "round": 1, "board": 1}
    assert GameSummarySchema().dump(summary) == summary  # as the API answers it
    for p in people:
        assert len(services.games.list_games(p)[0]) == 3, "each game created once"
    # every result: the first seat wins board 1 and 4, board 2 is a draw, the others the second
    for board, g in enumerate(games, start=1):
        first, second = seats_of(services, g["game_id"])
        assert [first, second] == [g["first"]["player_id"], g["second"]["player_id"]]
        loser = {1: second, 4: second, 2: None}.get(board, first)
        play_out(services, g["game_id"], loser)
    drain(worker, twice=True)
    shown = services.tournaments.get(t["id"])
    assert shown["status"] == "finished"
    scores = [g["first_score"] for g in shown["pairings"][0]["games"]]
    assert scores == [1.0, 0.5, 0.0, 1.0, 0.0, 0.0]
    assert sum(r["points"] for r in shown["standings"]) == 6
    store = services.tournaments.store
    assert replay(store.events(t["id"])) == store.state(t["id"]), "the state is its log's fold"
    for p in people:
        told = [e for e in stream_events(redis_client, p) if e["event"].startswith("tournament.")]
        assert [e["event"] for e in told] == [
            "tournament.round_started",
            "tournament.round_ended",
        ], "each notice once"
        assert told[0]["tournament_id"] == t["id"] and len(told[0]["games"].split()) == 3


def test_sign_ups_are_refused_clearly(world):
    services, _ = world
    people = register(services, 4)
    t = services.tournaments.create(people[0], "ninedomains", "round_robin", 3, CLOCK)
    services.tournaments.sign_up(t["id"], people[0])
    with pytest.raises(ServiceError) as twice:
        services.tournaments.sign_up(t["id"], people[0])
    assert twice.value.code == "tournament/already_signed_up"
    services.tournaments.sign_up(t["id"], people[1])
    services.tournaments.sign_up(t["id"], people[2])
    with pytest.raises(ServiceError) as full:
        services.tournaments.sign_up(t["id"], people[3])
    assert full.value.code == "tournament/closed"
    with pytest.raises(ServiceError) as stranger:
        services.tournaments.leave(t["id"], people[3])
    assert stranger.value.code == "tournament/not_entered"
    with pytest.raises(ServiceError) as unknown:
        services.tournaments.get("t_nothere")
    assert unknown.value.code == "tournament/not_found"


def test_a_player_who_leaves_before_the_start_is_off_the_list(world):
    services, worker = world
    people = register(services, 4)
    t = services.tournaments.create(people[0], "ninedomains", "swiss", 4, CLOCK)
    for p in people[:3]:
        services.tournaments.sign_up(t["id"], p)
    services.tournaments.leave(t["id"], people[1])
    drain(worker)
    assert [p["player_id"] for p in services.tournaments.get(t["id"])["players"]] == [
        people[0],
        people[2],
    ]
    assert services.tournaments.of_player(people[1]) == []
    assert [s["id"] for s in services.tournaments.open_list()] == [t["id"]]
    services.tournaments.sign_up(t["id"], people[1])
    services.tournaments.sign_up(t["id"], people[3])
    drain(worker)
    assert services.tournaments.get(t["id"])["status"] == "running"
    assert services.tournaments.open_list() == []
    assert [s["id"] for s in services.tournaments.of_player(people[1])] == [t["id"]]


@pytest.mark.parametrize(
    "policy",
    ["forfeit", pytest.param("auto", marks=pytest.mark.slow)],  # the computer plays on
)
@pytest.mark.slow
def test_a_withdrawn_players_games_are_resolved_by_the_clocks_policy(world, policy):
    """Under forfeit they lose their open games at once; under auto the computer plays them
    to their end. The tournament ends all the same."""
    services, worker = world
    people = register(services, 3)
    t = services.tournaments.create(
        people[0],
        "ninedomains",
        "round_robin",
        3,
        {"per_move_seconds": 86400, "on_timeout": policy},
    )
    for p in people:
        services.tournaments.sign_up(t["id"], p)
    drain(worker)
    games = services.tournaments.get(t["id"])["pairings"][0]["games"]
    leaving = people[2]
    theirs = [g for g in games if leaving in (g["first"]["player_id"], g["second"]["player_id"])]
    others = [g for g in games if g not in theirs]
    services.tournaments.leave(t["id"], leaving)
    drain(worker)
    for g in theirs:
        seat = seats_of(services, g["game_id"]).index(leaving)
        if policy == "auto":  # the other plays on; the computer answers at once, every time
            play_against_the_computer(services, worker, g["game_id"], 1 - seat)
        summary = services.games.summary(g["game_id"])
        assert summary["status"] == "finished", policy
        if policy == "forfeit":
            assert summary["outcome"]["winners"] == [1 - seat]
    play_out(services, others[0]["game_id"], loser=others[0]["second"]["player_id"])
    drain(worker)
    shown = services.tournaments.get(t["id"])
    assert shown["status"] == "finished"
    store = services.tournaments.store
    assert replay(store.events(t["id"])) == store.state(t["id"])
    row = next(r for r in shown["standings"] if r["player_id"] == leaving)
    assert row["withdrawn"] == "withdrew" and row["games"] == 2
    if policy == "forfeit":
        assert row["points"] == 0


def test_a_player_who_runs_out_of_time_under_forfeit_is_withdrawn(world, redis_client):
    services, worker = world
    people = register(services, 3)
    t = services.tournaments.create(
        people[0],
        "ninedomains",
        "round_robin",
        3,
        {"per_move_seconds": 60, "on_timeout": "forfeit"},
    )
    for p in people:
        services.tournaments.sign_up(t["id"], p)
    drain(worker)
    late = people[1]
    games = services.tournaments.get(t["id"])["pairings"][0]["games"]
    first = next(g for g in games if late in (g["first"]["player_id"], g["second"]["player_id"]))
    seat = seats_of(services, first["game_id"]).index(late)
    snap = services.games.load(first["game_id"])
    services.games.expire_turns([(first["game_id"], seat, snap["match"]["seat_since"][seat])])
    assert services.games.summary(first["game_id"])["status"] == "active", "not due yet"
    later = time.time() + 120  # after the 60 s deadline
    services.games.clock = lambda: later
    verdicts = services.games.expire_turns(
        [(first["game_id"], seat, snap["match"]["seat_since"][seat])]
    )
    assert verdicts == ["applied"]
    drain(worker)
    shown = services.tournaments.get(t["id"])
    assert next(p for p in shown["players"] if p["player_id"] == late)["withdrawn"] == "timed out"
    for g in games:
        if late in (g["first"]["player_id"], g["second"]["player_id"]):
            assert services.games.summary(g["game_id"])["status"] == "finished"


def test_a_tournament_starts_at_its_date_or_is_cancelled_with_too_few(world, monkeypatch):
    services, worker = world
    people = register(services, 4)
    now = epoch_ms(services.tournaments.clock)
    full = services.tournaments.create(
        people[0], "ninedomains", "swiss", 8, CLOCK, start_at=now + 60_000, rounds=2
    )
    empty = services.tournaments.create(
        people[0], "ninedomains", "round_robin", 5, CLOCK, start_at=now + 60_000
    )
    for p in people:
        services.tournaments.sign_up(full["id"], p)
    services.tournaments.sign_up(empty["id"], people[0])
    drain(worker)
    assert services.tournaments.get(full["id"])["status"] == "signup"
    later = (now + 61_000) / 1000
    monkeypatch.setattr(worker.consequences, "clock", lambda: later)
    monkeypatch.setattr(services.tournaments, "clock", lambda: later)
    monkeypatch.setattr(worker.consequences.tournaments, "clock", lambda: later)
    assert worker.clock_step()
    drain(worker)
    started = services.tournaments.get(full["id"])
    assert started["status"] == "running" and started["rounds"] == 2
    assert len(started["pairings"][0]["games"]) == 2
    cancelled = services.tournaments.get(empty["id"])
    assert cancelled["status"] == "cancelled"
    assert cancelled["cancelled_because"] == "too few players: 1 signed up, 3 needed"


def test_a_tournament_needs_a_clock_and_settings_that_fit(world):
    services, _ = world
    me = register(services, 1)[0]
    cases = [
        (("ninedomains", "round_robin", 4, None), "game/invalid_time_control"),
        (("ninedomains", "knockout", 4, CLOCK), "tournament/invalid"),
        (("ninedomains", "round_robin", 11, CLOCK), "tournament/invalid"),
        (("ninedomains", "swiss", 3, CLOCK), "tournament/invalid"),
        (("chess", "swiss", 8, CLOCK), "game/unknown"),
    ]
    for args, code in cases:
        with pytest.raises(ServiceError) as refused:
            services.tournaments.create(me, *args)
        assert refused.value.code == code, args
    with pytest.raises(ServiceError) as rounds:
        services.tournaments.create(me, "ninedomains", "swiss", 8, CLOCK, rounds=8)
    assert rounds.value.code == "tournament/invalid"
    assert OutboxStore(services.tournaments.store.r).backlog()["waiting"] == 0


def test_a_worker_that_dies_halfway_through_a_rounds_games(world, redis_client, monkeypatch):
    """The worker dies after creating two of a round's six games (before it records that the
    round started): the entry stays pending, is carried out again, and each game is created
    once, the round started once, each player told once."""
    services, worker = world
    people = register(services, 4)
    t = services.tournaments.create(people[0], "ninedomains", "round_robin", 4, CLOCK)
    for p in people:
        services.tournaments.sign_up(t["id"], p)
    create = worker.consequences.tournaments.games.create_seated
    made = []

    def dies_after_two(*args, **kwargs):
        if len(made) == 2:
            raise ConnectionError("the worker's machine went away")
        made.append(args[0])
        return create(*args, **kwargs)

    monkeypatch.setattr(worker.consequences.tournaments.games, "create_seated", dies_after_two)
    entries = worker.outbox.read(worker.name, 200, 5)
    with pytest.raises(ConnectionError):
        for entry in entries:
            worker.consequences.carry_out(entry)
    assert len(made) == 2 and services.tournaments.get(t["id"])["pairings"][0]["started"] is False
    monkeypatch.setattr(worker.consequences.tournaments.games, "create_seated", create)
    for entry in entries:  # taken over by another worker, from the start
        worker.consequences.carry_out(entry)
    worker.outbox.done(entries)
    drain(worker)
    shown = services.tournaments.get(t["id"])
    assert shown["pairings"][0]["started"] is True
    for p in people:
        assert len(services.games.list_games(p)[0]) == 3
        started = [
            e for e in stream_events(redis_client, p) if e["event"] == "tournament.round_started"
        ]
        assert len(started) == 1
    log = services.tournaments.store.events(t["id"])
    assert [e["type"] for e in log].count("RoundStarted") == 1


@pytest.mark.slow  # three games, an SMTP server and a webhook receiver
def test_a_round_told_by_email_and_webhook_as_documented(redis_client, smtp):
    """The deliveries the worker queues for a round's start and end, run as the RQ jobs run
    them: the email says the player's games, the webhook's body is what its schema in the
    document dumps, and a delivery run twice sends once."""
    settings = Settings(
        webhook_allow_http=True, webhook_allow_loopback=True, public_url="http://turnpost.test"
    )

    class Kept:
        def __init__(self):
            self.queued = []

        def queue(self, deliveries):
            self.queued.extend(deliveries)

    kept = Kept()
    services = assemble(redis_client, settings, mailer=SmtpMailer(smtp.url), deliveries=kept)
    outbox = OutboxStore(redis_client)
    outbox.ensure_groups()

    def work():
        for _ in range(50):
            entries = outbox.read("test", 100, 5)
            if not entries:
                return
            for entry in entries:
                services.consequences.carry_out(entry)
            outbox.done(entries)

    with WebhookReceiver() as receiver:
        ada = services.players.register("Ada", email="ada@example.org", webhook_url=receiver.url)[
            "id"
        ]
        confirm(redis_client, ada)
        others = register(services, 2)
        t = services.tournaments.create(ada, "ninedomains", "round_robin", 3, CLOCK, name="Cup")
        for p in [ada, *others]:
            services.tournaments.sign_up(t["id"], p)
        work()
        for game in services.tournaments.get(t["id"])["pairings"][0]["games"]:
            play_out(services, game["game_id"], game["second"]["player_id"])
        work()
        mine = [
            d
            for d in kept.queued
            if d.notice.event.startswith("tournament.") and d.notice.seat == 0
        ]
        assert services.tournaments.get(t["id"])["players"][0]["player_id"] == ada
        assert sorted((d.channel, d.notice.event) for d in mine) == [
            ("email", "tournament.round_ended"),
            ("email", "tournament.round_started"),
            ("webhook", "tournament.round_ended"),
            ("webhook", "tournament.round_started"),
        ]
        for delivery in mine:
            send = getattr(services.notifications, delivery.channel)
            assert send(delivery.notice)[0] == "sent"
        again = next(d for d in mine if d.channel == "email")
        assert services.notifications.email(again.notice)[0] == "duplicate"
        calls = receiver.wait_count(2)
    started = next(c["json"] for c in calls if c["json"]["event"] == "tournament.round_started")
    assert WebhookTournamentRoundSchema().dump(started) == started
    assert started["tournament_id"] == t["id"] and len(started["games"]) == 2
    assert started["links"]["page"] == f"http://turnpost.test/tournaments/{t['id']}"
    ended = next(c["json"] for c in calls if c["json"]["event"] == "tournament.round_ended")
    assert ended["status"] == "finished" and ended["place"] is not None
    letters = {m["X-Turnpost-Event"]: m for m in smtp.to("ada@example.org")}
    started_text = text_of(letters["tournament.round_started"])
    assert "Cup: it has begun" in letters["tournament.round_started"]["Subject"]
    for game in started["games"]:
        assert f"http://turnpost.test/games/{game['game_id']}" in started_text
    assert "The tournament Cup (The Nine Domains, round-robin) is over." in text_of(
        letters["tournament.round_ended"]
    )


def test_a_tournament_game_keeps_each_players_calendar(world, redis_client):
    """A round's games are created with each player's calendar copied in, as any game is: the
    time zone their weekends off are counted in and the vacation they took ahead (their clock
    stands still until it ends)."""
    services, worker = world
    people = register(services, 3)
    zones = dict(zip(people, ["Asia/Kolkata", "America/New_York", "Europe/London"]))
    for p, zone in zones.items():
        services.players.update(p, {"time_zone": zone})
    away = people[0]
    today = datetime.now(ZoneInfo(zones[away])).date().isoformat()
    vacations = assemble(redis_client, Settings(vacation_days_a_year=30)).vacations
    until = vacations.take(away, today, today)["on_vacation_until"]
    bank = {
        "kind": "bank",
        "initial_seconds": 86400,
        "increment_seconds": 3600,
        "max_seconds": 2 * 86400,
        "on_timeout": "forfeit",
        "weekends_off": True,
    }
    t = services.tournaments.create(away, "ninedomains", "round_robin", 3, bank)
    for p in people:
        services.tournaments.sign_up(t["id"], p)
    drain(worker)
    games = services.tournaments.get(t["id"])["pairings"][0]["games"]
    game_id = next(g["game_id"] for g in games if away in seats_of(services, g["game_id"]))
    snap = services.games.load(game_id)
    seat = seats_of(services, game_id).index(away)
    other = seats_of(services, game_id)[1 - seat]
    copies = snap["calendars"]
    assert (copies[1 - seat]["zone"], copies[1 - seat]["vacations"]) == (zones[other], [])
    assert copies[seat]["zone"] == zones[away]
    [(start, end)] = copies[seat]["vacations"]
    assert iso(end) == until
    assert services.games.summary(game_id)["seats"][seat]["clock"]["paused"] == "vacation"
    cal = clock.Calendar(zones[away], True, ((start, end),))
    assert snap["deadlines"][seat] == clock.advance(snap["created_at"], 86400_000, cal)
    assert snap["deadlines"][seat] > end  # her bank runs from her return
