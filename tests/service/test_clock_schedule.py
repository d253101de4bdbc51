"""The deadline the schedule holds is the pure clock's answer after every event: random games
on a real Valkey, with random move times, clocks, time zones, weekends off and vacations
copied in (CalendarSet), each deadline checked against a reference model of the seat's bank
that charges time a quarter hour at a time (tests/service/test_clock_properties.py)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.play import clock
from service.play.commit import deadline_items
from service.play.games import GameService
from store import keys
from store.games import GameStore
from store.players import PlayerStore
from tests.service.test_clock_properties import DAY, ZONES, reference_running

START = 1_798_000_000_000  # 2026-12-22


@st.composite
def scripts(draw):
    kind = draw(st.sampled_from(["bank", "per_move"]))
    control = (
        {
            "kind": "bank",
            "initial_seconds": draw(st.integers(60, 5 * 86400)),
            "increment_seconds": draw(st.integers(0, 86400)),
            "max_seconds": 6 * 86400,
        }
        if kind == "bank"
        else {"kind": "per_move", "per_move_seconds": draw(st.integers(60, 3 * 86400))}
    )
    control["weekends_off"] = draw(st.booleans())
    title = draw(st.sampled_from(["nautilus", "consonar"]))  # both have multi-step turns
    zones = [draw(st.sampled_from(ZONES)) for _ in range(2)]
    steps = draw(
        st.lists(
            st.tuples(
                st.integers(0, 3 * DAY),  # the time until the step
                st.sampled_from(["move", "vacation", "back"]),
                st.integers(0, 4 * DAY),  # a vacation's length
                st.integers(0, DAY),  # how late its copy comes (it began before the step)
            ),
            min_size=1,
            max_size=8,
        )
    )
    return title, control, zones, steps


@pytest.mark.slow
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(scripts())
def test_the_schedule_holds_the_pure_deadline_after_every_event(redis_client, script):
    title, control, zones, steps = script
    redis_client.flushall()
    now = [START]
    players = PlayerStore(redis_client)
    games = GameService(GameStore(redis_client), players, clock=lambda: now[0] / 1000)
    ids = []
    for name, zone in zip(("Ada", "Bo"), zones):
        player_id = f"p_{name}"
        players.create(player_id, {"name": name, "time_zone": zone}, f"token-{name}")
        ids.append(player_id)
    players.set_friends(ids[1], [ids[0]])
    game_id = games.create(ids[0], title, ids, time_control=control)["id"]
    reference = Reference(clock.Control.of(games.load(game_id)["time_control"]), zones)
    reference.follow(games.games.events(game_id))
    check(redis_client, games, game_id, reference)
    v = 0
    for wait, what, length, late in steps:
        now[0] += wait
        snap = games.load(game_id)
        if snap["status"] != "active":
            break
        if what == "move":
            seat = snap["active_seats"][0]
            legal = games.legal_moves(game_id, ids[seat])
            games.play(game_id, ids[seat], legal["version"], action=legal["moves"][0]["action"])
        else:
            v += 1
            seat = v % 2
            began = now[0] - min(late, wait)
            vacations = [[began, began + length]] if what == "vacation" else []
            copy = {"zone": zones[seat], "vacations": vacations, "v": v}
            games.set_calendar(game_id, ids[seat], copy)
        reference.follow(games.games.events(game_id))
        check(redis_client, games, game_id, reference)


class Reference:
    """Each seat's bank, charged from the events with the reference's quarter hours."""

    def __init__(self, control: clock.Control, zones):
        self.control = control
        self.zones = zones
        self.seen = 0
        self.bank = [control.start_ms, control.start_ms]
        self.since: list[int | None] = [None, None]
        self.vacations: list[tuple] = [(), ()]
        self.moved = None

    def calendar(self, seat, vacations=None):
        return clock.Calendar(
            self.zones[seat],
            self.control.weekends_off,
            self.vacations[seat] if vacations is None else vacations,
        )

    def follow(self, events):
        for event in events[self.seen :]:
            self.step(event)
        self.seen = len(events)

    def step(self, e):
        at = e["at"]
        if e["type"] == "CalendarSet":
            seat = e["seat"]
            self.vacations[seat] = tuple(tuple(v) for v in e["calendar"]["vacations"])
        for seat in (0, 1):
            if self.since[seat] is not None:
                spent = reference_running(self.since[seat], at, self.calendar(seat))
                self.bank[seat] = max(0, self.bank[seat] - spent)
                self.since[seat] = at
        self.moved = e if e["type"] == "ActionTaken" else None
        self.last = e

    def ends_turn(self, step, snap) -> bool:
        """Whether a step ended its seat's turn, by the rules: Con Sonar!'s turn ends with its
        Torpedo step (torpedo, defuse, delay, end), not with a Fleet card; a Nautilus seat goes
        on with its turn to move a card after an arrow, or to choose after using a Special."""
        if snap["game"] == "consonar":
            return step["action"]["type"] != "fleet"
        state = snap["match"]["state"]
        goes_on = state["phase"] in ("move", "submarine", "harpoon")
        return not (goes_on and snap["active_seats"] == [step["seat"]])

    def expect(self, snap):
        """Which seats run now, from the snapshot's active seats, started as the fold does; the
        increment for a step that ended its seat's turn."""
        step = self.moved
        if step is not None and self.control.kind == "bank" and self.ends_turn(step, snap):
            s = step["seat"]
            self.bank[s] = min(self.control.max_ms, self.bank[s] + self.control.increment_ms)
        self.moved = None
        since = snap["match"]["seat_since"]
        for seat in (0, 1):
            running = snap["status"] == "active" and seat in snap["active_seats"]
            if not running:
                self.since[seat] = None
                continue
            restarted = since[seat] == snap["version"]
            if self.since[seat] is None or (restarted and self.control.kind == "per_move"):
                if self.control.kind == "per_move":
                    self.bank[seat] = self.control.per_move_ms
                self.since[seat] = self.last["at"]
        return [None if self.since[s] is None else (self.since[s], self.bank[s]) for s in (0, 1)]


def check(redis_client, games, game_id, reference):
    snap = games.load(game_id)
    expected = reference.expect(snap)
    schedule = keys.schedule(keys.bucket_of(game_id))
    held = {m: int(redis_client.zscore(schedule, m)) for _, m in deadline_items(snap)}
    for seat, found in enumerate(expected):
        if found is None:
            assert snap["deadlines"][seat] is None
            continue
        start, bank = found
        due = snap["deadlines"][seat]
        # the pure answer: the bank is used up at the deadline, and not a moment before
        cal = reference.calendar(seat)
        assert reference_running(start, due, cal) == bank
        if bank:
            assert reference_running(start, due - 1, cal) == bank - 1
    assert sorted(held.values()) == sorted(d for d in snap["deadlines"] if d is not None)
