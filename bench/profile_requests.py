"""The top ten costs of a move and of a view, on the production app in this process (the
Flask test client, a real Valkey, email players and a clock), measured with cProfile; figures
go to bench/RESULTS.md. `python -m bench.profile_requests`."""

from __future__ import annotations

import cProfile
import io
import pstats
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from api.app import create_app
from api.front_door import FrontDoor
from bench.deliveries import games_between_two
from bench.results import replace_section
from bench.run import CLOCK, GAME
from service.settings import Settings
from store.connection import connect
from store.embedded import EmbeddedValkey
from store.games import GameStore

GAMES = 60
VIEWS = 2000


def ours(profile: cProfile.Profile, calls: int) -> str:
    """turnpost's own functions by time with their callees: where a request goes."""
    stats = pstats.Stats(profile, stream=io.StringIO())
    root = str(Path(__file__).resolve().parent.parent)
    rows = sorted(
        (
            (k, v)
            for k, v in stats.stats.items()
            if k[0].startswith(root) and "/bench/" not in k[0] and "/.venv/" not in k[0]
        ),
        key=lambda kv: kv[1][3],
        reverse=True,
    )[:12]
    lines = [
        "| turnpost function | with callees ms per request | calls per request |",
        "|---|---|---|",
    ]
    for (path, line, name), (_, ncalls, _, cumtime, _) in rows:
        lines.append(
            f"| `{name}` ({Path(path).parent.name}/{Path(path).name}:{line}) | "
            f"{cumtime * 1000 / calls:.3f} | {ncalls / calls:.1f} |"
        )
    return "\n".join(lines)


def top_ten(profile: cProfile.Profile, calls: int, each: str = "request") -> str:
    out = io.StringIO()
    stats = pstats.Stats(profile, stream=out)
    rows = sorted(stats.stats.items(), key=lambda kv: kv[1][2], reverse=True)[:10]  # tottime
    total = sum(row[2] for row in stats.stats.values())
    lines = [
        f"In all {total * 1000 / calls:.2f} ms per {each} under the profiler.",
        "",
        f"| function | own ms per {each} | with callees ms | calls per {each} |",
        "|---|---|---|---|",
    ]
    for (path, line, name), (_, ncalls, tottime, cumtime, _) in rows:
        where = f"{Path(path).parent.name}/{Path(path).name}:{line}" if line else path
        lines.append(
            f"| `{name}` ({where}) | {tottime * 1000 / calls:.3f} | "
            f"{cumtime * 1000 / calls:.3f} | {ncalls / calls:.1f} |"
        )
    return "\n".join(lines)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        valkey = EmbeddedValkey(Path(tmp) / "data").start()
        try:
            client = connect(valkey.url)
            settings = Settings.from_env({"OUTBOX_DIR": str(Path(tmp) / "outbox")})
            app = create_app(
                client, settings=settings, front_door=FrontDoor.from_env({"RATE_LIMITS": "off"})
            )
            http = app.test_client()
            store = GameStore(client)

            a, b, games = games_between_two(http, store, GAMES, "p")
            moves = cProfile.Profile()
            count = 0
            for game, ahead in games:
                version = game["version"]
                for seat, notation in ahead:
                    moves.enable()
                    r = http.post(
                        f"/v1/games/{game['id']}/moves",
                        headers=(a, b)[seat][1],
                        json={"notation": notation, "expected_version": version},
                    )
                    moves.disable()
                    assert r.status_code == 201, r.json
                    version = r.json["version"]
                    count += 1
            running = http.post(
                "/v1/games",
                json={"game": GAME, "seats": [a[0], b[0]], "time_control": CLOCK},
                headers=a[1],
            ).json
            views = cProfile.Profile()
            views.enable()
            for _ in range(VIEWS):
                http.get(f"/v1/games/{running['id']}/view", headers=a[1])
            views.disable()
        finally:
            valkey.stop()
    text = f"""
## Where a move and a view spend their time (`python -m bench.profile_requests`)

{datetime.now(UTC):%Y-%m-%d %H:%M} UTC. cProfile of the production app in one process (the Flask
test client: no HTTP server, no gunicorn), a real Valkey, email players and a clock; The Nine
Domains. Own time per request, the ten largest; the profiler's overhead inflates every
figure alike.

POST move ({count} moves of {GAMES} games, moves computed ahead):

{top_ten(moves, count)}

{ours(moves, count)}

GET view ({VIEWS} reads of one running game):

{top_ten(views, VIEWS)}

{ours(views, VIEWS)}
"""
    replace_section(
        "Where a move and a view spend their time (`python -m bench.profile_requests`)", text
    )
    print(text)


if __name__ == "__main__":
    main()
