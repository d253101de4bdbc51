"""Checks shared by the tests that run whole games on real servers under faults or on a
cluster: nothing stuck, every timeout once, every email once, and a careful mover."""

from __future__ import annotations

import threading
import time
import uuid
from collections import Counter

import pytest
import requests

from service.play.games import GameService
from tests.e2e.server import Client
from tests.peers import SmtpInbox

RECOVERY_SECONDS = 150
"""A game unfinished that has not moved for this long is frozen."""
LONGEST_SECONDS = 600
"""The most the games are waited for in all, while they move. A game under a clock of 2 s a
move, with 45 timeouts, takes 93 s on a quiet machine and 123 s at load 14 on 2 cores; a
clocked game's length is its seed's, so the time it takes is no sign of a lost consequence,
and only a game that stopped moving is one."""


def stuck(service: GameService, game_ids: list[str]) -> list[str]:
    found = []
    now_ms = int(time.time() * 1000)
    for game_id in game_ids:
        snap = service.load(game_id)
        if snap["status"] != "finished":
            last = service.games.events(game_id)[-1]
            found.append(
                f"{game_id} v{snap['version']} active {snap['active_seats']} last "
                f"{last['type']} {(now_ms - last['at']) / 1000:.1f} s ago"
            )
    return found


def wait_until_finished(service: GameService, game_ids: list[str]) -> None:
    """Until every game is finished; fails when one of them has not moved for
    RECOVERY_SECONDS (frozen), or after LONGEST_SECONDS."""
    started = time.monotonic()
    moved: dict[str, tuple[int, float]] = {}  # by game: its version, and since when
    while (now := time.monotonic()) < started + LONGEST_SECONDS:
        try:
            snaps = {game_id: service.load(game_id) for game_id in game_ids}
        except Exception:  # Redis coming back
            time.sleep(0.5)
            continue
        on = {g: snap["version"] for g, snap in snaps.items() if snap["status"] != "finished"}
        if not on:
            return
        for game_id, version in on.items():
            if moved.get(game_id, (None, 0.0))[0] != version:
                moved[game_id] = (version, now)
        if any(now - moved[game_id][1] > RECOVERY_SECONDS for game_id in on):
            break
        time.sleep(0.5)
    pytest.fail(
        f"games frozen after the fault (or still on after {LONGEST_SECONDS} s):\n"
        + "\n".join(stuck(service, game_ids))
    )


def assert_each_timeout_once(service: GameService, game_id: str) -> None:
    """A seat's clock runs out at most once per turn: between two timeouts of one seat, that
    seat moved; and under `auto` each timeout is followed by that seat's move, unless another
    seat's resignation ended the game first (the move the computer was about to make for it
    then has no game left to be made in)."""
    open_timeouts: set[int] = set()
    previous: dict = {}
    for event in service.games.events(game_id):
        if event["type"] == "TurnTimedOut":
            assert event["seat"] not in open_timeouts, f"{game_id}: a second timeout {event}"
            open_timeouts.add(event["seat"])
        elif event["type"] in ("ActionTaken", "PlayerResigned"):
            open_timeouts.discard(event["seat"])
        elif event["type"] == "GameEnded" and previous.get("type") == "PlayerResigned":
            open_timeouts.clear()
        previous = event
    assert not open_timeouts, f"{game_id}: a timeout with no move after it"


def assert_emails_once(smtp: SmtpInbox, people: dict[str, str], game_ids: list[str]) -> None:
    """No email twice (the same delivery: recipient, game, version, event and reminder), and
    each person's game.finished email exactly once per game."""
    seen = Counter()
    for recipients, message, _ in list(smtp.messages):
        for to in recipients:
            seen[
                (
                    to,
                    message["X-Turnpost-Game"],
                    message["X-Turnpost-Event"],
                    message["X-Turnpost-Delivery"],
                )
            ] += 1
    doubled = [k for k, n in seen.items() if n > 1]
    assert not doubled, f"emails sent twice: {doubled}"
    for game_id, address in ((g, people[g]) for g in game_ids):
        finished = [
            k for k in seen if k[0] == address and k[1] == game_id and k[2] == "game.finished"
        ]
        assert len(finished) == 1, f"{game_id}: game.finished emails to {address}: {finished}"


class Mover(threading.Thread):
    """A person who plays whenever it is their turn, through HTTP, as a careful client does:
    every move has an Idempotency-Key, kept while the answer is a 5xx or no answer at all."""

    def __init__(self, base: str, players: list[tuple[Client, str]]):
        super().__init__(daemon=True)
        self.base = base
        self.players = players
        self.acknowledged: list[tuple[str, int, str]] = []
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            for client, game_id in self.players:
                try:
                    self.turn(client, game_id)
                except requests.RequestException:
                    time.sleep(0.2)

    def turn(self, client: Client, game_id: str) -> None:
        legal = client.get(f"/v1/games/{game_id}/legal-moves")
        if legal.status_code != 200 or not legal.json()["moves"]:
            # not its turn: wait a little, as a careful client does (polling as fast as the
            # server answers would pass the reads limit, 1,200 a minute, and get 429s)
            time.sleep(0.1)
            return
        move = legal.json()["moves"][0]["notation"]
        body = {"notation": move, "expected_version": legal.json()["version"]}
        key = uuid.uuid4().hex
        for _ in range(50):
            try:
                r = requests.post(
                    f"{self.base}/v1/games/{game_id}/moves",
                    json=body,
                    headers={**client.headers, "Idempotency-Key": key},
                    timeout=10,
                )
            except requests.RequestException:
                time.sleep(0.2)
                continue
            if r.status_code >= 500:
                time.sleep(0.2)
                continue
            if r.status_code == 201:
                self.acknowledged.append((game_id, r.json()["version"], r.json()["move"]))
            return
