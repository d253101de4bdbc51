"""What the worker pays to carry out moves and send their emails, for the code of this tree
and of another commit (the "before": the last one with a job per email and an entry carried
out alone).

In a child process importing the measured tree's code: the production app (Flask's test
client) on a fresh embedded Valkey plays GAMES games of The Nine Domains between players with
email addresses and a clock, a move in each game in turn (a busy server); after each such
round the worker's outbox consumer (workers.process.WorkerProcess.outbox_step) carries out
the round's entries, and RQ's loop (burst) runs every job they queued, sending to a real
SMTP server (aiosmtpd) in the child. Emails at once and unthrottled (EMAIL_DELAY_SECONDS=0,
EMAIL_THROTTLE_SECONDS=0): every turn is emailed. Measured: CPU of the thread running each loop (time.thread_time: the SMTP server's
thread is left out), round trips to Redis (writes of a command or pipeline, counted by wrapping
redis-py's Connection.send_packed_command), RQ jobs run, emails received and the SMTP
connections they came on. Each tree is measured ROUNDS times, alternating; medians.

`python -m bench.deliveries [--before TREE] [--print-only]`; the before tree defaults to
/tmp/before-deliveries (`git worktree add /tmp/before-deliveries 8d9a3c1`).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

from bench.results import replace_section

TREE = Path(__file__).resolve().parent.parent
BEFORE_COMMIT = "8d9a3c1"
GAMES = 40
ROUNDS = 3


def child(profile: bool = False) -> dict:
    """Measure with the code importable from sys.path[0]; with `profile`, the worker's loops
    run under cProfile and the answer has the top ten of its own time ("profile")."""
    import cProfile
    import tempfile
    import threading
    import time

    from aiosmtpd.controller import Controller
    from redis.connection import Connection

    from api.app import create_app
    from api.front_door import FrontDoor
    from bench.profile_requests import top_ten
    from bench.run import MailSink, free_port
    from service.settings import Settings
    from store.connection import connect
    from store.embedded import EmbeddedValkey
    from store.games import GameStore
    from workers.process import WorkerProcess, _InProcessWorker
    from workers.queue import queue

    class Sessions(MailSink):
        def __init__(self):
            super().__init__()
            self.peers: set = set()

        async def handle_DATA(self, server, session, envelope):
            self.peers.add(tuple(session.peer))
            return await super().handle_DATA(server, session, envelope)

    trips = [0]
    send = Connection.send_packed_command

    def counted(self, command, check_health=True):
        trips[0] += 1
        return send(self, command, check_health)

    Connection.send_packed_command = counted  # type: ignore[method-assign]
    with tempfile.TemporaryDirectory() as tmp:
        valkey = EmbeddedValkey(Path(tmp) / "data").start()
        sink = Sessions()
        smtp = Controller(sink, hostname="127.0.0.1", port=free_port())
        smtp.start()
        try:
            env = {
                "REDIS_URL": valkey.url,
                "SMTP_URL": f"smtp://127.0.0.1:{smtp.port}",
                "EMAIL_DELAY_SECONDS": "0",
                "EMAIL_THROTTLE_SECONDS": "0",
                "PUBLIC_URL": "http://127.0.0.1:8000",
                "OUTBOX_DIR": str(Path(tmp) / "outbox"),
            }
            os.environ.update(env)  # the jobs build their services from the environment
            client = connect(valkey.url)
            app = create_app(
                client,
                settings=Settings.from_env(env),
                front_door=FrontDoor.from_env({"RATE_LIMITS": "off"}),
            )
            http = app.test_client()
            store = GameStore(client)

            worker = WorkerProcess(env)
            worker.outbox.ensure_groups()
            a, b, games = games_between_two(http, store, GAMES, "d")
            rq = _InProcessWorker([queue(client)], connection=client)
            rq.process_stop = threading.Event()
            versions = {game["id"]: game["version"] for game, _ in games}
            profiler = cProfile.Profile(time.thread_time)  # CPU: waiting for Redis left out
            entries = GAMES
            outbox_cpu = rq_cpu = 0.0
            outbox_trips = rq_trips = jobs = 0
            for step in range(max(len(ahead) for _, ahead in games) + 1):
                for game, ahead in games:  # a move in every game still going: a busy minute
                    if step < len(ahead):
                        seat, notation = ahead[step]
                        answer = http.post(
                            f"/v1/games/{game['id']}/moves",
                            headers=(a, b)[seat][1],
                            json={"notation": notation, "expected_version": versions[game["id"]]},
                        )
                        versions[game["id"]] = answer.json["version"]
                        entries += 1
                trips[0] = 0
                started = time.thread_time()
                if profile:
                    profiler.enable()
                while worker.outbox_step():
                    pass
                profiler.disable()
                outbox_cpu += time.thread_time() - started
                outbox_trips += trips[0]
                jobs += queue(client).count
                trips[0] = 0
                started = time.thread_time()
                if profile:
                    profiler.enable()
                rq.work(burst=True, logging_level="WARNING")
                profiler.disable()
                rq_cpu += time.thread_time() - started
                rq_trips += trips[0]
            time.sleep(0.5)
            return {
                "entries": entries,
                "outbox_cpu_ms": outbox_cpu * 1000 / entries,
                "outbox_trips": outbox_trips / entries,
                "jobs": jobs,
                "emails": sink.received,
                "connections": len(sink.peers),
                "rq_cpu_ms": rq_cpu * 1000 / max(sink.received, 1),
                "rq_trips": rq_trips / max(sink.received, 1),
                "all_cpu_ms": (outbox_cpu + rq_cpu) * 1000 / entries,
                **({"profile": top_ten(profiler, entries, "entry")} if profile else {}),
            }
        finally:
            smtp.stop()
            valkey.stop()


def games_between_two(http, store, count: int, seed: str) -> tuple[tuple, tuple, list]:
    """Two players with email addresses (the second seats the first without an invitation)
    and `count` games of GAME between them with a clock, through `http` (Flask's test client of
    the app): ((id, headers) of each player, [(game, its moves computed ahead)])."""
    from bench.run import CLOCK, GAME, moves_ahead
    from store.players import PlayerStore

    def register(name):
        email = f"{name}@example.org"
        body = http.post("/v1/players", json={"name": name, "email": email}).json
        # confirmed as its owner would confirm it by the emailed link: the emails after count
        PlayerStore(store.r).confirm_email(body["id"], email)
        return body["id"], {"Authorization": f"Bearer {body['token']}"}

    a, b = register("ada"), register("bo")
    http.put("/v1/players/me/friends", json={"friends": [a[0]]}, headers=b[1])
    games = []
    for i in range(count):
        game = http.post(
            "/v1/games",
            json={"game": GAME, "seats": [a[0], b[0]], "time_control": CLOCK},
            headers=a[1],
        ).json
        games.append((game, moves_ahead(store, game["id"], f"{seed}{i}".encode())))
    return a, b, games


def run_child(tree: Path, profile: bool = False) -> dict:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            f"import json, bench.deliveries as d; print(json.dumps(d.child({profile})))",
        ],
        cwd=tree,
        env={**os.environ, "PYTHONPATH": str(tree)},
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def median_of(runs: list[dict]) -> dict:
    return {key: statistics.median(run[key] for run in runs) for key in runs[0]}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", type=Path, default=Path("/tmp/before-deliveries"))
    parser.add_argument("--print-only", action="store_true", help="leave RESULTS.md alone")
    parser.add_argument(
        "--before-is",
        default=f"{BEFORE_COMMIT} (a job per email and an SMTP connection per email; each entry "
        "carried out alone)",
        help="what the before tree is, in RESULTS.md's words",
    )
    args = parser.parse_args()
    # the before tree has no bench/deliveries.py: it runs this one's child on its own code
    (args.before / "bench" / "deliveries.py").write_text(Path(__file__).read_text())
    load_before = os.getloadavg()[0]
    runs: dict[str, list[dict]] = {"before": [], "after": []}
    for _ in range(ROUNDS):
        runs["before"].append(run_child(args.before))
        runs["after"].append(run_child(TREE))
    before, after = median_of(runs["before"]), median_of(runs["after"])
    profiled = run_child(TREE, profile=True)["profile"]

    def row(name: str, r: dict) -> str:
        return (
            f"| {name} | {r['entries']:.0f} | {r['outbox_cpu_ms']:.3f} | {r['outbox_trips']:.2f} "
            f"| {r['emails']:.0f} | {r['jobs']:.0f} | {r['connections']:.0f} "
            f"| {r['rq_trips']:.2f} | {r['rq_cpu_ms']:.2f} | {r['all_cpu_ms']:.2f} |"
        )

    text = f"""
## Email deliveries (`python -m bench.deliveries`)

{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, load average {load_before:.1f} before and
{os.getloadavg()[0]:.1f} after (the machine is shared; CPU is of the measuring thread only).
{GAMES} games of The Nine Domains between two players with email addresses and a clock, a move
in each game in turn; after each such round the worker's outbox consumer carried out its
entries and RQ's loop ran every job, sending to a real SMTP server; every turn emailed at once
(EMAIL_DELAY_SECONDS=0, EMAIL_THROTTLE_SECONDS=0). "Before" is {args.before_is}, "after" this
tree. Medians of {ROUNDS} runs of each, alternating.

| code | entries | outbox CPU ms an entry | round trips an entry | emails | RQ jobs | SMTP connections | RQ round trips an email | RQ CPU ms an email | worker CPU ms an entry |
|---|---|---|---|---|---|---|---|---|---|
{row("before", before)}
{row("after", after)}
| after / before | | {after["outbox_cpu_ms"] / before["outbox_cpu_ms"]:.2f} | {after["outbox_trips"] / before["outbox_trips"]:.2f} | | | | {after["rq_trips"] / before["rq_trips"]:.2f} | {after["rq_cpu_ms"] / before["rq_cpu_ms"]:.2f} | {after["all_cpu_ms"] / before["all_cpu_ms"]:.2f} |

Where the worker's CPU goes, after (cProfile of both loops, timed by the thread's CPU time,
in one more run; per outbox entry, so a move's consequences and its email; the profiler
inflates every figure alike):

{profiled}
"""
    print(text)
    if not args.print_only:
        replace_section("Email deliveries (`python -m bench.deliveries`)", text)


if __name__ == "__main__":
    main()
