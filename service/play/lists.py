"""The lists derived from games: each player's games (by last activity) and inbox (the games
awaiting their move, nearest deadline first), and the lobby of games with an open seat.

Both the request that commits and the worker that carries out the commit's consequences write
them, in either order; every write names the game's version and an older one never overwrites
a newer one (store/project.lua)."""

from __future__ import annotations

from collections.abc import Sequence

from service.play import history
from store.games import GameStore, run_pipeline
from store.players import PlayerStore
from store.snapshot import Snapshot


def write(games: GameStore, players: PlayerStore, snaps: Sequence[Snapshot]) -> None:
    """Write the lists of these games' snapshots, in one round trip. A seat reserved for an
    invited player puts the game in their invitations (not in their games); a player who
    declined has it in no list of theirs; one who deleted their account has no lists at all
    (their keys are gone and must stay gone)."""
    if not snaps:
        return
    pipe = games.r.pipeline(transaction=False)
    for snap in snaps:
        game_id, version, now = snap["id"], snap["version"], snap["updated_at"]
        gone = history.deleted_players(snap)
        for seat, record in enumerate(snap["seats"]):
            if record["player_id"] in gone:
                continue
            if record["kind"] == "invited":
                invited = snap["created_at"] if snap["status"] == "open" else None
                players.project(
                    record["player_id"], game_id, version, None, None, invited, pipe=pipe
                )
            if record["kind"] != "player":
                continue
            deadline = snap["deadlines"][seat]
            awaiting = None
            if seat in snap["active_seats"]:
                awaiting = deadline if deadline is not None else now
            players.project(record["player_id"], game_id, version, now, awaiting, pipe=pipe)
        for refused in snap.get("declined", []):
            if refused["player_id"] in gone:
                continue
            players.project(refused["player_id"], game_id, version, None, None, pipe=pipe)
        games.lobby_entry(
            game_id, version, snap["created_at"] if has_open_seat(snap) else None, pipe
        )
    run_pipeline(pipe)


def has_open_seat(snap: Snapshot) -> bool:
    """Whether anyone may join the game (a seat reserved for an invited player is not open)."""
    return snap["status"] == "open" and any(r["kind"] == "open" for r in snap["seats"])
