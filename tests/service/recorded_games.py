"""Recorded games: logs and the snapshots the server kept for them, frozen in a file, so that a
change to the record or the fold that would read an old log differently fails a test
(tests/service/test_recorded_games.py).

Made by playing through the service on a real Valkey: a whole game of every title with
random legal moves, and the paths that write the other events (an open seat joined, an
invitation declined, a resignation, a clock that ran out under each policy). Run it again only
when a change of the record is meant (and say so):

    .venv/bin/python -m tests.service.recorded_games

New kinds of events are recorded by their own games, appended to the older recording (which
stays as an earlier turnpost wrote it): `--append talk` (done once for table talk and
proposals), `--append moderation` (once for a message hidden).
"""

from __future__ import annotations

import gzip
import json
import random
import tempfile
from pathlib import Path

from engine import registry
from service.play.games import GameService
from service.players.accounts import PlayerService
from store.connection import connect
from store.embedded import EmbeddedValkey
from store.games import GameStore
from store.players import PlayerStore

RECORDED = Path(__file__).with_name("recorded_games.json.gz")


class Clock:
    """The service's time, moved by hand: a minute a move, days when a clock must run out."""

    def __init__(self) -> None:
        self.now = 1_790_000_000.0

    def __call__(self) -> float:
        self.now += 60
        return self.now


def play_out(games: GameService, game_id: str, ids: list[str], rnd: random.Random) -> None:
    while (snap := games.load(game_id))["status"] == "active":
        seat = rnd.choice(snap["active_seats"])
        moves = games.legal_moves(game_id, ids[seat])
        games.play(
            game_id, ids[seat], moves["version"], action=rnd.choice(moves["moves"])["action"]
        )


def record() -> list[dict]:
    made: list[str] = []
    with tempfile.TemporaryDirectory() as folder:
        server = EmbeddedValkey(Path(folder), appendonly=False).start()
        try:
            client = connect(server.url)
            clock = Clock()
            players = PlayerService(PlayerStore(client))
            games = GameService(GameStore(client), PlayerStore(client), clock=clock)
            ids = [players.register(name)["id"] for name in ("Ada", "Bo", "Cy")]
            for friend in ids[1:]:
                players.set_friends(friend, [ids[0]])
            rnd = random.Random(2026)
            for title in sorted(registry.GAMES):
                seated = ids[:2]
                game_id = games.create(ids[0], title, seated)["id"]
                play_out(games, game_id, seated, rnd)
                made.append(game_id)
            # an open seat, joined; then a resignation in the middle of the game
            game_id = games.create(ids[0], "buttons", [ids[0], None])["id"]
            games.join(game_id, ids[1])
            moves = games.legal_moves(game_id, ids[0])
            games.play(game_id, ids[0], moves["version"], action=moves["moves"][0]["action"])
            games.resign(game_id, ids[1])
            made.append(game_id)
            # an invitation declined, the seat opened again, then taken
            stranger = players.register("Di")["id"]
            game_id = games.create(ids[0], "nautilus", [ids[0], stranger], if_declined="open")["id"]
            games.decline(game_id, stranger)
            games.join(game_id, ids[2])
            play_out(games, game_id, [ids[0], ids[2]], rnd)
            made.append(game_id)
            # an invitation declined, the game cancelled
            game_id = games.create(ids[0], "consonar", [ids[0], stranger])["id"]
            games.decline(game_id, stranger)
            made.append(game_id)
            # clocks that ran out: the computer plays for one seat, the other forfeits
            for policy in ("auto", "forfeit"):
                control = {"per_move_seconds": 3600, "on_timeout": policy}
                game_id = games.create(ids[0], "ninedomains", ids[:2], time_control=control)["id"]
                snap = games.load(game_id)
                seat = snap["active_seats"][0]
                clock.now += 2 * 86400
                games.expire_turn(game_id, seat, snap["match"]["seat_since"][seat])
                if policy == "auto":
                    games.play_for_timed_out(game_id, seat)
                made.append(game_id)
            store = GameStore(client)
            return [
                {"events": store.events(game_id), "snapshot": store.snapshot(game_id)}
                for game_id in made
            ]
        finally:
            server.stop()


def record_talk() -> list[dict]:
    """Games with table talk and proposals (recorded after the first games, and appended to
    them: `--append`): messages to the table and private ones; a takeback, a pause, a shared
    result and an abort accepted; proposals declined, withdrawn, made void and lapsed."""
    from service.play import agreements
    from service.play.talk import Talk, TalkLimits

    made: list[str] = []
    with tempfile.TemporaryDirectory() as folder:
        server = EmbeddedValkey(Path(folder), appendonly=False).start()
        try:
            client = connect(server.url)
            clock = Clock()
            players = PlayerService(PlayerStore(client))
            games = GameService(GameStore(client), PlayerStore(client), clock=clock)
            talk = Talk(games, PlayerStore(client), TalkLimits(1000, 1000, proposal_hours=1))
            ids = [players.register(name)["id"] for name in ("Ada", "Bo", "Cy")]
            for friend in ids[1:]:
                players.set_friends(friend, [ids[0]])
            rnd = random.Random(2027)
            # three players talk; Ada's first quiet step is taken back; a shared result
            game_id = games.create(ids[0], "consonar", ids)["id"]
            talk.say(game_id, ids[1], "good luck, all")
            talk.say(game_id, ids[2], "Ada: shall we?", to=0)
            mover = games.load(game_id)["active_seats"][0]
            moves = games.legal_moves(game_id, ids[mover])
            fleet = next(m for m in moves["moves"] if m["action"]["type"] == "fleet")
            games.play(game_id, ids[mover], moves["version"], action=fleet["action"])
            taken = talk.propose(game_id, ids[mover], "takeback")
            for seat in taken["waiting"]:
                talk.answer(game_id, ids[seat], taken["id"], True)
            voided = talk.propose(game_id, ids[1], "abort")
            declined = talk.propose(game_id, ids[2], "draw")
            talk.answer(game_id, ids[0], declined["id"], False)
            shared = talk.propose(game_id, ids[0], "draw")
            for seat in shared["waiting"]:
                talk.answer(game_id, ids[seat], shared["id"], True)
            assert agreements.find(games.load(game_id), voided["id"]) is None
            made.append(game_id)
            # a pause accepted, a proposal withdrawn, one lapsed, a move that voids a takeback,
            # then the game played out
            control = {"per_move_seconds": 86_400, "on_timeout": "auto"}
            game_id = games.create(ids[0], "nautilus", ids[:2], time_control=control)["id"]
            paused = talk.propose(game_id, ids[1], "pause", 2)
            talk.answer(game_id, ids[0], paused["id"], True)
            withdrawn = talk.propose(game_id, ids[0], "abort")
            talk.withdraw(game_id, ids[0], withdrawn["id"])
            lapsing = talk.propose(game_id, ids[0], "draw")
            clock.now += 2 * 3600
            assert talk.lapse(game_id, lapsing["id"]) == "applied"
            while (snap := games.load(game_id))["status"] == "active":
                last = agreements.of(snap)["last_move"]
                if last and last["undoable"] and not agreements.open_proposals(snap):
                    talk.propose(game_id, ids[last["seat"]], "takeback")  # the next move voids it
                seat = rnd.choice(snap["active_seats"])
                moves = games.legal_moves(game_id, ids[seat])
                games.play(
                    game_id,
                    ids[seat],
                    moves["version"],
                    action=rnd.choice(moves["moves"])["action"],
                )
            made.append(game_id)
            # an abort in the first round
            game_id = games.create(ids[0], "buttons", ids[:2])["id"]
            aborted = talk.propose(game_id, ids[0], "abort")
            talk.answer(game_id, ids[1], aborted["id"], True)
            made.append(game_id)
            store = GameStore(client)
            return [
                {"events": store.events(game_id), "snapshot": store.snapshot(game_id)}
                for game_id in made
            ]
        finally:
            server.stop()


def record_moderation() -> list[dict]:
    """A game in which an operator hid a message (`--append moderation`)."""
    from service.play.talk import Talk, TalkLimits

    with tempfile.TemporaryDirectory() as folder:
        server = EmbeddedValkey(Path(folder), appendonly=False).start()
        try:
            client = connect(server.url)
            players = PlayerService(PlayerStore(client))
            games = GameService(GameStore(client), PlayerStore(client), clock=Clock())
            talk = Talk(games, PlayerStore(client), TalkLimits(1000, 1000))
            ids = [players.register(name)["id"] for name in ("Ada", "Bo")]
            players.set_friends(ids[1], [ids[0]])
            game_id = games.create(ids[0], "ninedomains", ids)["id"]
            rude = talk.say(game_id, ids[1], "something rude")
            talk.hide(game_id, rude["version"], "an insult")
            talk.say(game_id, ids[1], "sorry")
            store = GameStore(client)
            return [{"events": store.events(game_id), "snapshot": store.snapshot(game_id)}]
        finally:
            server.stop()


def load() -> list[dict]:
    return json.loads(gzip.decompress(RECORDED.read_bytes()))


if __name__ == "__main__":
    import sys

    # --append talk | moderation: record the games of table talk and proposals, or of a
    # message hidden, and add them to those recorded
    more = {"talk": record_talk, "moderation": record_moderation}
    recorded = load() + more[sys.argv[2]]() if sys.argv[1:2] == ["--append"] else record()
    RECORDED.write_bytes(gzip.compress(json.dumps(recorded, sort_keys=True).encode(), mtime=0))
    kinds = sorted({e["type"] for game in recorded for e in game["events"]})
    print(f"{RECORDED}: {len(recorded)} games, events of kinds {', '.join(kinds)}")
