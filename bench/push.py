"""Web Push deliveries per second of one `turnpost worker`.

Everything is real and on loopback: an embedded Valkey, one `turnpost worker` process (its
outbox consumer derives each notice from a commit and queues a push job; RQ, in the same
process, encrypts the message for the device (RFC 8291), signs the VAPID JWT and POSTs it), and
a push service in this process that answers 201 (it does not decrypt here, so that its CPU
stays out of the worker's way on the two cores). GAMES games of The Nine Domains are created as
fast as this process can (each starts Bo's turn, and Bo has one device) with
PUSH_DELAY_SECONDS=0; the rate is the messages received over the time from the first commit to
the last message; the worker's CPU per message comes from /proc.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from bench.results import replace_section
from bench.worker import worker_on_valkey
from service.assembly import assemble
from service.settings import Settings
from store.connection import connect
from tests.peers import PushService

GAMES = 300


class CountingPushService(PushService):
    """Takes every POST as a push service would, without decrypting it."""

    def check(self, name, headers, body):
        return {"problems": [], "browser": name}


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure() -> dict[str, float]:
    with (
        CountingPushService() as push,
        worker_on_valkey(
            {"PUSH_DELAY_SECONDS": "0", "WEBHOOK_ALLOW_HTTP": "1", "WEBHOOK_ALLOW_LOOPBACK": "1"}
        ) as (server, worker),
    ):
        settings = Settings(webhook_allow_http=True, webhook_allow_loopback=True)
        services = assemble(connect(server.url), settings)
        ada = services.players.register("Ada")["id"]
        bo = services.players.register("Bo")["id"]
        services.players.set_friends(bo, [ada])
        sub = push.browser("bo").subscription
        services.push.add(bo, sub["endpoint"], **sub["keys"], device="bench")
        services.games.create(ada, "ninedomains", [ada, bo])  # warm-up
        push.wait_count(1, timeout=60)
        cpu_before = cpu_seconds(worker.pid)
        load = os.getloadavg()[0]
        started = time.time()
        for _ in range(GAMES):
            services.games.create(ada, "ninedomains", [ada, bo])
        created = time.time()
        push.wait_count(GAMES + 1, timeout=600)
        last = max(r["at"] for r in push.requests)
        cpu = cpu_seconds(worker.pid) - cpu_before
    seconds = last - started
    return {
        "messages": GAMES,
        "seconds": seconds,
        "creating": created - started,
        "per_second": GAMES / seconds,
        "cpu": cpu,
        "load": load,
    }


def section(found: dict[str, float]) -> str:
    return (
        "\n## Web Push deliveries (`python -m bench.push`)\n\n"
        f"{found['messages']:.0f} games created as fast as one process can, each starting a "
        "turn of a player with one device; one `turnpost worker` (outbox consumer, clock and "
        "RQ in one process), Valkey and a push service (answering 201, not decrypting) on "
        "loopback, 2 cores shared with the creating process.\n\n"
        "| messages | creating the games | first commit to last message | messages/s "
        "| worker CPU per message |\n"
        "|---|---|---|---|---|\n"
        f"| {found['messages']:.0f} | {found['creating']:.1f} s | {found['seconds']:.1f} s | "
        f"{found['per_second']:.0f} | {found['cpu'] / found['messages'] * 1000:.1f} ms |\n\n"
        f"The machine's load average was {found['load']:.1f} when it began (other work "
        "shares its two cores): the wall-clock figures are what the worker got. Its CPU per "
        "message bounds what one idle core could do: at most about "
        f"{1000 / (found['cpu'] / found['messages'] * 1000):.0f} messages a second (an "
        "estimate, not measured on an idle machine).\n\n"
        "The worker's CPU per message counts everything a commit causes there (the outbox "
        "entry, the player's lists and stream, the push job), not the push alone.\n\n"
        "Each message is one RQ job (RQ's own bookkeeping, about 4.5 ms of CPU a job, is "
        "part of the figure), an ECDH key agreement and AES-GCM encryption for the device, "
        "an ES256 signature of the VAPID JWT and one HTTP POST.\n"
    )


def main() -> None:
    result = section(measure())
    replace_section("Web Push deliveries (`python -m bench.push`)", result)
    print(result)


if __name__ == "__main__":
    main()
