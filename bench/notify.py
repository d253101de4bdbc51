"""Move to email: the time from a committed move to the turn email in an SMTP server's inbox.

Everything is real and on loopback: an embedded Valkey, one `turnpost worker` process (its
outbox consumer derives the notice from the commit and queues the email; RQ, in the same
process, sends it), an aiosmtpd server in this process. Two players play
Nautilus through the service with EMAIL_DELAY_SECONDS=0 and no throttle; after each move that
starts the other player's turn we wait for that email. Latency = the SMTP server's arrival
time minus the moment `play` returned (the commit). Moves are sequential: this is the latency
of one notification on an idle system, not a throughput figure.
"""

from __future__ import annotations

import statistics
import time

from bench.results import replace_section
from bench.worker import worker_on_valkey
from engine.rng import Rng
from service.assembly import assemble
from service.settings import Settings
from store.connection import connect
from tests.peers import SmtpInbox

MOVES = 300


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def measure() -> list[float]:
    latencies: list[float] = []
    with (
        SmtpInbox() as smtp,
        worker_on_valkey(
            {"SMTP_URL": smtp.url, "EMAIL_DELAY_SECONDS": "0", "EMAIL_THROTTLE_SECONDS": "0"}
        ) as (server, _),
    ):
        client = connect(server.url)
        settings = Settings(email_delay_seconds=0, email_throttle_seconds=0)
        services = assemble(client, settings)
        people = [
            services.players.register(n, email=f"{n}@example.org")["id"] for n in ("ada", "bo")
        ]
        for player_id, name in zip(people, ("ada", "bo")):  # as if by the emailed link
            services.players.players.confirm_email(player_id, f"{name}@example.org")
        services.players.set_friends(people[1], [people[0]])
        picker = Rng(b"bench-notify" + bytes(32))
        game_id = services.games.create(people[0], "nautilus", people)["id"]
        while len(latencies) < MOVES:
            summary = services.games.summary(game_id)
            if summary["status"] == "finished":
                game_id = services.games.create(people[0], "nautilus", people)["id"]
                continue
            mover = summary["active_seats"][0]
            moves = services.games.legal_moves(game_id, people[mover])["moves"]
            answer = services.games.play(
                game_id,
                people[mover],
                summary["version"],
                action=picker.choice(moves)["action"],
            )
            committed = time.time()
            version = str(answer["version"])
            if answer["game"]["status"] != "active":
                continue
            smtp.wait_for(
                lambda m, r, v=version, g=game_id: (
                    m["X-Turnpost-Game"] == g and m["X-Turnpost-Version"] == v
                ),
                timeout=30,
            )
            arrived = next(
                at
                for _, m, at in reversed(smtp.messages)
                if m["X-Turnpost-Game"] == game_id and m["X-Turnpost-Version"] == version
            )
            latencies.append((arrived - committed) * 1000)
    return latencies


def section(latencies: list[float]) -> str:
    return (
        "\n## Move to email\n\n"
        f"`make bench` (bench/notify.py): {len(latencies)} moves, each followed by the "
        "other player's turn email; one `turnpost worker`, aiosmtpd and Valkey on "
        "loopback, 2 cores, no email delay or throttle.\n\n"
        "| p50 | p90 | p99 | max |\n|---|---|---|---|\n"
        f"| {statistics.median(latencies):.1f} ms | {percentile(latencies, 90):.1f} ms | "
        f"{percentile(latencies, 99):.1f} ms | {max(latencies):.1f} ms |\n"
    )


def main() -> None:
    result = section(measure())
    replace_section("Move to email", result)
    print(result)


if __name__ == "__main__":
    main()
