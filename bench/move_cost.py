"""A move's cost on the server: CPU time, Redis round trips and what the request sends to Redis,
for the code of this tree and for the code of another commit (the "before").

Each tree is measured in a child process of its own whose imports come from that tree (its
directory first on sys.path), against a fresh embedded Valkey (append-only file on). The child
builds the production app as `turnpost.wsgi` does (REDIS_URL and the settings from the
environment: email delay 30 s, no SMTP server) and drives it through Flask's test client, in
process: two players with email addresses play Nautilus with a clock (per_move_seconds 86400,
`on_timeout: forfeit`), so nearly every move starts the other player's turn with an email, a
deadline and two reminders due. No worker runs: what the request leaves for workers stays
queued (the old code's RQ jobs, the new code's outbox entries).

Per POST /v1/games/{id}/moves (only that request is counted; the reads that pick a legal move
before it are not):
- CPU: time.process_time() of the child around the request (the app, Flask's test client and
  redis-py; no other thread runs);
- round trips: writes of a command or a pipeline to a Redis socket (redis-py's
  Connection.send_packed_command, wrapped), each followed by reading its answers;
- commands: what those round trips carried (a pipeline's commands counted one by one), and
  whether any touched an RQ key (`rq:...`): an RQ enqueue in the request;
- commands Valkey ran (INFO commandstats, those inside scripts included), read from another
  connection around each request.

`python -m bench.move_cost [--before COMMIT_TREE] [--moves N]`: the before tree defaults to
/tmp/before (`git worktree add /tmp/before 1854caf`).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from bench.results import replace_section

HERE = Path(__file__).parent
TREE = HERE.parent
MOVES = 300
BEFORE_COMMIT = "1854caf"
"""The last commit with the RQ scheduler in the move request (issue 13's rewrite is af1ea29)."""
GAME = "nautilus"
CLOCK = {"per_move_seconds": 86400, "on_timeout": "forfeit"}


# -- the child: runs with the measured tree's code ------------------------------------------


def child(moves: int) -> dict:
    """Measure `moves` moves with the code importable from sys.path[0]."""
    import random
    import time

    import redis
    from redis.connection import Connection

    from store.embedded import EmbeddedValkey
    from store.players import PlayerStore

    round_trips: list[int] = [0]
    sent: list[tuple[str, bool]] = []
    originals = {
        name: getattr(Connection, name)
        for name in ("send_packed_command", "send_command", "pack_commands")
    }

    def record(args) -> None:
        name = args[0].decode() if isinstance(args[0], bytes) else str(args[0])
        rq = any(
            (
                a.startswith(b"rq:")
                if isinstance(a, bytes)
                else isinstance(a, str) and a.startswith("rq:")
            )
            for a in args[1:]
        )
        sent.append((name.upper(), rq))

    def send_packed_command(self, command, check_health=True):
        round_trips[0] += 1
        return originals["send_packed_command"](self, command, check_health)

    def send_command(self, *args, **kwargs):
        record(args)
        return originals["send_command"](self, *args, **kwargs)

    def pack_commands(self, commands):
        for args in commands:
            record(args)
        return originals["pack_commands"](self, commands)

    wrappers = {
        "send_packed_command": send_packed_command,
        "send_command": send_command,
        "pack_commands": pack_commands,
    }

    with tempfile.TemporaryDirectory() as data:
        valkey = EmbeddedValkey(Path(data) / "valkey").start()
        try:
            os.environ.update({"REDIS_URL": valkey.url, "OUTBOX_DIR": str(Path(data) / "mail")})
            os.environ.pop("SMTP_URL", None)
            import turnpost.wsgi

            app = turnpost.wsgi.app
            code = {
                name: sys.modules[name].__file__ for name in ("turnpost.wsgi", "service.play.games")
            }
            http = app.test_client()
            stats = redis.Redis.from_url(valkey.url)

            def call(method, path, token=None, body=None):
                headers = {"Authorization": f"Bearer {token}"} if token else {}
                response = http.open(path, method=method, json=body, headers=headers)
                return response.status_code, response.get_json()

            people = []
            for name in ("ada", "bo"):
                status, body = call(
                    "POST", "/v1/players", body={"name": name, "email": f"{name}@example.org"}
                )
                assert status == 201, body
                # confirmed as its owner would confirm it by the emailed link (a tree from
                # before addresses were confirmed emails it anyway)
                if hasattr(PlayerStore, "confirm_email"):
                    PlayerStore(stats).confirm_email(body["id"], f"{name}@example.org")
                people.append((body["id"], body["token"]))
            call("PUT", "/v1/players/me/friends", people[1][1], {"friends": [people[0][0]]})

            def new_game() -> str:
                status, body = call(
                    "POST",
                    "/v1/games",
                    people[0][1],
                    {"game": GAME, "seats": [p[0] for p in people], "time_control": CLOCK},
                )
                assert status == 201, body
                return body["id"]

            def executed() -> int:
                info = stats.info("commandstats")
                return sum(v["calls"] for k, v in info.items() if k not in ("cmdstat_info",))

            picker = random.Random(13)
            game_id = new_game()
            measured = []
            for name, wrapper in wrappers.items():
                setattr(Connection, name, wrapper)
            try:
                while len(measured) < moves:
                    _, summary = call("GET", f"/v1/games/{game_id}", people[0][1])
                    if summary["status"] == "finished":
                        game_id = new_game()
                        continue
                    token = people[summary["active_seats"][0]][1]
                    _, legal = call("GET", f"/v1/games/{game_id}/legal-moves", token)
                    move = picker.choice(legal["moves"])
                    before_commands = executed()
                    round_trips[0] = 0
                    sent.clear()
                    cpu, wall = time.process_time(), time.perf_counter()
                    status, body = call(
                        "POST",
                        f"/v1/games/{game_id}/moves",
                        token,
                        {"notation": move["notation"], "expected_version": legal["version"]},
                    )
                    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
                    trips, commands = round_trips[0], list(sent)
                    assert status == 201, body
                    measured.append(
                        {
                            "cpu_ms": cpu * 1000,
                            "wall_ms": wall * 1000,
                            "round_trips": trips,
                            "commands": [c for c, _ in commands],
                            "rq_commands": sum(rq for _, rq in commands),
                            "executed": executed() - before_commands - 1,
                            "ended": body["game"]["status"] == "finished",
                        }
                    )
            finally:
                for name, original in originals.items():
                    setattr(Connection, name, original)
            return {"code": code, "moves": measured}
        finally:
            valkey.stop()


# -- the parent -----------------------------------------------------------------------------


def run_in(tree: Path, moves: int) -> dict:
    """The child on `tree`'s code, without this machine's Redis and email settings: it starts
    its own Valkey and sends no email."""
    from bench.children import run_child  # the parent's: a child imports from `tree`

    mine = ("REDIS_URL", "SMTP_URL", "EMAIL_DELAY_SECONDS", "EMAIL_THROTTLE_SECONDS")
    environ = {name: value for name, value in os.environ.items() if name not in mine}
    return run_child(tree, __file__, f"child({moves})", environ)


def summary(label: str, result: dict) -> dict:
    turns = [m for m in result["moves"] if not m["ended"]]
    commands: dict[str, int] = {}
    for m in turns:
        for name in m["commands"]:
            commands[name] = commands.get(name, 0) + 1
    return {
        "label": label,
        "moves": len(result["moves"]),
        "turn_moves": len(turns),
        "cpu_ms": statistics.median(m["cpu_ms"] for m in turns),
        "cpu_mean_ms": statistics.fmean(m["cpu_ms"] for m in turns),
        "wall_ms": statistics.median(m["wall_ms"] for m in turns),
        "round_trips": statistics.median(m["round_trips"] for m in turns),
        "round_trips_max": max(m["round_trips"] for m in turns),
        "commands": statistics.median(len(m["commands"]) for m in turns),
        "executed": statistics.median(m["executed"] for m in turns),
        "rq_moves": sum(1 for m in turns if m["rq_commands"]),
        "rq_commands": statistics.median(m["rq_commands"] for m in turns),
        "per_move": {k: round(v / len(turns), 2) for k, v in sorted(commands.items())},
    }


def measure(before: Path, moves: int) -> tuple[dict, dict]:
    return (summary("before", run_in(before, moves)), summary("after", run_in(TREE, moves)))


def table(before: dict, after: dict) -> str:
    def row(r: dict) -> str:
        return (
            f"| {r['label']} | {r['turn_moves']} | {r['cpu_ms']:.2f} | {r['cpu_mean_ms']:.2f} | "
            f"{r['wall_ms']:.2f} | {r['round_trips']:.0f} (max {r['round_trips_max']}) | "
            f"{r['commands']:.0f} | {r['executed']:.0f} | {r['rq_moves']} |"
        )

    ratio = (
        f"| after / before | | {after['cpu_ms'] / before['cpu_ms']:.2f} | "
        f"{after['cpu_mean_ms'] / before['cpu_mean_ms']:.2f} | "
        f"{after['wall_ms'] / before['wall_ms']:.2f} | "
        f"{after['round_trips'] / before['round_trips']:.2f} | "
        f"{after['commands'] / before['commands']:.2f} | "
        f"{after['executed'] / before['executed']:.2f} | |"
    )
    return (
        "| code | moves | CPU median ms | CPU mean ms | wall median ms | round trips, median "
        "| commands sent | commands Valkey ran | moves with an RQ command |\n"
        "|---|---|---|---|---|---|---|---|---|\n"
        f"{row(before)}\n{row(after)}\n{ratio}\n"
    )


def commands_line(r: dict) -> str:
    return ", ".join(f"{name} {n:g}" for name, n in r["per_move"].items())


def commit_of(tree: Path) -> str:
    return subprocess.run(
        ["git", "-C", str(tree), "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()


def section(
    before: dict, after: dict, trees: tuple[str, str], command: str, load: tuple[float, float]
) -> str:
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    run_at = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    return f"""
## A move's cost on the server

`{command}` ({run_at}; {machine}, shared with other engineers' work: load average
{load[0]:.1f} before and {load[1]:.1f} after the run). The production app (`turnpost.wsgi`'s,
its settings from the environment: email delay 30 s) of each commit, in a process of its own
importing that commit's code, on a fresh embedded Valkey (append-only file on), driven
in process through Flask's test client: two players with email addresses play Nautilus with
a clock (a day per move, `forfeit`), {before["turn_moves"]} moves that start the other player's
turn (an email, a deadline and two reminders become due). No worker runs. Per POST of a move:
CPU of the process (time.process_time), round trips (writes of a command or pipeline to a
Redis socket, counted by wrapping redis-py's Connection.send_packed_command), the commands they
carried, the commands Valkey ran (INFO commandstats, those inside scripts included), and
moves that sent any command on an RQ key (`rq:...`: an RQ enqueue). Medians; "before" is
{trees[0]} (the RQ scheduler), "after" is {trees[1]}. Target: at most 4 round trips and no RQ
enqueue in the request. Both rows from one run.

{table(before, after)}
Commands per move, before: {commands_line(before)}.
After: {commands_line(after)}.
"""


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench.move_cost",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--before", type=Path, default=Path("/tmp/before"))
    parser.add_argument("--moves", type=int, default=MOVES)
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args(argv)
    if not (args.before / "turnpost" / "wsgi.py").exists():
        raise SystemExit(
            f"no code to compare at {args.before}: git worktree add {args.before} {BEFORE_COMMIT}"
        )
    load_before = os.getloadavg()[0]
    before, after = measure(args.before, args.moves)
    command = " ".join(["python -m bench.move_cost", *argv])
    text = section(
        before,
        after,
        (commit_of(args.before), commit_of(TREE)),
        command,
        (load_before, os.getloadavg()[0]),
    )
    if not args.no_write:
        replace_section("A move's cost on the server", text)
    print(text)


if __name__ == "__main__":
    main(sys.argv[1:])
