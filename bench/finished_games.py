"""Redis memory of a finished game's log, as a Stream and once compacted (store.games.compact),
per title: 20 random two-player games each, played through the service on a real Valkey;
medians. `python -m bench.finished_games`; figures go to bench/RESULTS.md."""

from __future__ import annotations

import random
import statistics
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from bench.results import replace_section
from engine import registry
from service.play.games import GameService
from service.players.accounts import PlayerService
from store import keys
from store.connection import connect
from store.embedded import EmbeddedValkey
from store.games import GameStore
from store.players import PlayerStore

GAMES_PER_TITLE = 20


def play(games: GameService, people: list[str], name: str, rnd: random.Random) -> str:
    game_id = games.create(people[0], name, [people[0], None])["id"]
    games.join(game_id, people[1])
    while (snap := games.load(game_id))["status"] == "active":
        seat = rnd.choice(snap["active_seats"])
        moves = games.legal_moves(game_id, people[seat])
        games.play(
            game_id, people[seat], moves["version"], action=rnd.choice(moves["moves"])["action"]
        )
    return game_id


def main() -> None:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        valkey = EmbeddedValkey(Path(tmp) / "data", appendonly=False).start()
        try:
            client = connect(valkey.url)
            players = PlayerService(PlayerStore(client))
            games = GameService(GameStore(client), PlayerStore(client))
            rnd = random.Random(19)
            for name, game in sorted(registry.GAMES.items()):
                people = [players.register(n)["id"] for n in ("Ada", "Bo")]
                stream, archive, snapshot, events = [], [], [], []
                for _ in range(GAMES_PER_TITLE):
                    game_id = play(games, people, name, rnd)
                    events.append(len(games.games.events(game_id)))
                    stream.append(client.memory_usage(keys.game_log(game_id), samples=0))
                    snapshot.append(client.memory_usage(keys.game_snapshot(game_id), samples=0))
                    assert games.games.compact(game_id)
                    archive.append(client.memory_usage(keys.game_archive(game_id), samples=0))
                rows.append(
                    (
                        game.info.title,
                        statistics.median(events),
                        statistics.median(stream),
                        statistics.median(archive),
                        statistics.median(snapshot),
                    )
                )
        finally:
            valkey.stop()
    table = "\n".join(
        f"| {title} | {n:.0f} | {s:,.0f} | {a:,.0f} | {s / a:.1f}x | {snap:,.0f} |"
        for title, n, s, a, snap in rows
    )
    text = f"""
## Finished games in Redis (`python -m bench.finished_games`)

{datetime.now(UTC):%Y-%m-%d %H:%M} UTC. {GAMES_PER_TITLE} random two-player games per title played to the end through the
service on a real Valkey; `MEMORY USAGE` of the game's log as a Stream, and once compacted
(one zlib-compressed value, `FINISHED_LOG_DAYS` after the end), and of its snapshot
(kept); medians.

| game | events | log as a Stream, bytes | compacted, bytes | smaller by | snapshot, bytes |
|---|---|---|---|---|---|
{table}
"""
    replace_section("Finished games in Redis (`python -m bench.finished_games`)", text)
    print(text)


if __name__ == "__main__":
    main()
