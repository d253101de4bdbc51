"""What a commit's consequences and its notices need to know of a game at a version: its
`GameFacts`, built once from the snapshot by play's own code.

`service/consequences.py` decides what a commit causes, and `service/notify/` tells people
of it, from these facts alone: the title, the version and status, the seats and who holds
them, whose turn it is and since when, the deadlines, the clock's policy, who created the
game and who refused it. They are what anyone at the table may know; a hand, the deck or the
seed are never among them. What a letter shows a seat of the game comes from that seat's
table (service/play/table.py, `Tables.of`), which starts from the seat's view.

The snapshot the facts were read from stays inside (`_snapshot`): the questions that need
more of it (when a reminder is due, whether a seat may read a message, a proposal's words)
are the methods below, answered by play's own functions. Nothing outside service/play reads
it (tools/snapshot_reads.py counts such reads).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from service.errors import game_not_found
from service.play import agreements, history, lists, logview, results, talk
from service.play.games import invitation_of, seat_of, suspension_due
from service.play.results import TournamentGameResult
from service.ratings.results import Result
from store.games import GameStore
from store.players import PlayerStore
from store.record import Event, MessageSent, TimeControl
from store.snapshot import Snapshot


@dataclass(frozen=True)
class SeatFacts:
    """One seat of a game, as the table knows it."""

    seat: int
    kind: str
    """player, bot, invited (reserved for a player who has not answered) or open."""
    player_id: str | None
    """Who holds the seat, or is invited to it (None for a bot or an open seat)."""
    name: str
    """The seat's public name ("Ann", "Ann (invited)", "an open seat", "a deleted player")."""
    deadline: int | None
    """When the seat's running clock runs out (epoch ms); None when it does not run."""


@dataclass(frozen=True)
class GameFacts:
    id: str
    game: str
    """The title's name (`ninedomains`)."""
    version: int
    status: str
    """open, active, finished or cancelled."""
    started: bool
    """The match began (a game cancelled after it began was aborted by its players)."""
    seats: tuple[SeatFacts, ...]
    active_seats: tuple[int, ...]
    """The seats that may act now."""
    seat_since: tuple[int, ...]
    """For each seat, the version since which its legal moves are unchanged (empty before the
    start): its turn began then."""
    timed_out: tuple[int, ...]
    """Seats whose clock ran out and whose turn the computer is to play (`on_timeout: auto`)."""
    closed_version: int
    """The version that finished or cancelled the game (for a game on: its version)."""
    updated_at: int
    """When the game last moved (epoch ms)."""
    created_by: str | None
    if_declined: str
    """What a refused invitation does: `cancel` the game, or `open` the seat."""
    time_control: TimeControl | None
    refused: tuple[str, ...]
    """The names of the invited players who refused, in order."""
    deleted_players: frozenset[str]
    """The players of the game who deleted their account."""
    _snapshot: Snapshot = field(repr=False, compare=False)
    """For play's own functions below; never read outside service/play."""

    @classmethod
    def of(cls, snap: Snapshot) -> GameFacts:
        match = snap["match"]
        return cls(
            id=snap["id"],
            game=snap["game"],
            version=snap["version"],
            status=snap["status"],
            started=match is not None,
            seats=tuple(
                SeatFacts(
                    seat=s,
                    kind=record["kind"],
                    player_id=record["player_id"],
                    name=logview.seat_name(record),
                    deadline=snap["deadlines"][s],
                )
                for s, record in enumerate(snap["seats"])
            ),
            active_seats=tuple(snap["active_seats"]),
            seat_since=tuple(match["seat_since"]) if match is not None else (),
            timed_out=tuple(snap["timed_out"]),
            closed_version=snap.get("closed_version", snap["version"]),
            updated_at=snap["updated_at"],
            created_by=snap["created_by"],
            if_declined=snap["if_declined"],
            time_control=snap["time_control"],
            refused=tuple(d["name"] for d in snap.get("declined", [])),
            deleted_players=frozenset(history.deleted_players(snap)),
            _snapshot=snap,
        )

    @property
    def title(self) -> str:
        """The title as people read it (The Nine Domains)."""
        return history.game_of(self._snapshot).info.title

    @property
    def on_timeout(self) -> str | None:
        """What happens to a seat that runs out of time (auto, forfeit); None without a clock."""
        return self.time_control["on_timeout"] if self.time_control else None

    def seat_of(self, player_id: str | None) -> int | None:
        """The seat the player holds (None: they hold none)."""
        return seat_of(self._snapshot, player_id)

    def invitation_of(self, player_id: str | None) -> int | None:
        """The seat reserved for the player, if they are invited and have not answered."""
        return invitation_of(self._snapshot, player_id)

    # -- the clock --------------------------------------------------------------------------

    def reminder_at(self, seat: int, percent: int) -> int | None:
        """When the seat's reminder at `percent` of its turn's time is due (None while its
        clock does not run): it moves with the seat's weekends, vacations and agreed pauses."""
        return history.reminder_at(self._snapshot, seat, percent)

    def suspension_due(self, seat: int) -> bool:
        """Whether the seat of a suspended player is owed its resolution now
        (service.play.games.suspension_due)."""
        return suspension_due(self._snapshot, seat)

    # -- the result -------------------------------------------------------------------------

    def result(self) -> Result | None:
        """A finished game's result for the ratings and the players' records."""
        return results.result_of(self._snapshot)

    def tournament_result(self) -> TournamentGameResult | None:
        """A finished tournament game's result for its tournament."""
        return results.tournament_result_of(self._snapshot)

    def tournament_under_auto(self) -> str | None:
        """The tournament of a game on under `on_timeout: auto` (None: not such a game)."""
        return results.tournament_under_auto(self._snapshot)

    # -- table talk and proposals (service/play/talk.py) ------------------------------------

    def told_of_messages(self, events: Sequence[Event]) -> list[tuple[int, int]]:
        """(seat, version) of each message among `events` for each person who may read it but
        did not write it."""
        return talk.told_of_messages(self._snapshot, events)

    def told_of_proposals(self, events: Sequence[Event]) -> list[tuple[str, int, int]]:
        """("made" or "closed", seat, version) of the proposals among `events` for each
        player told of them."""
        return talk.told_of_proposals(self._snapshot, events)

    def message_for(
        self, seat: int, event: Event | None, blocked: set[str] | frozenset[str]
    ) -> MessageSent | None:
        """`event` if it is a message `seat` may read (not its own, nor of a player it
        blocked, nor one an operator hid), else None."""
        return talk.message_for(self._snapshot, seat, event, blocked)

    def message_payload(self, event: MessageSent) -> dict[str, Any]:
        """A message's webhook body's own part."""
        return talk.message_payload(self._snapshot, event)

    def proposal_payload(self, event: Event) -> dict[str, Any] | None:
        """A proposal's webhook body's own part (None if `event` is no proposal's)."""
        return talk.proposal_payload(self._snapshot, event)

    def proposal_words(self, event: Event, seat: int) -> str:
        """A proposal's event as `seat` reads it in the log."""
        return talk.proposal_words(self._snapshot, event, seat)

    def still_asked(self, proposal: int, seat: int) -> bool:
        """Whether the proposal is open and `seat` still to answer it."""
        return talk.still_asked(self._snapshot, proposal, seat)

    def proposal_deadline(self, proposal: int) -> int | None:
        """When an open proposal lapses unanswered (None: it is not open)."""
        found = agreements.find(self._snapshot, proposal)
        return None if found is None else found["deadline"]


def read(games: GameStore, game_id: str) -> GameFacts | None:
    """The game's facts now (None: there is no such game)."""
    snap = games.snapshot(game_id)
    return None if snap is None else GameFacts.of(snap)


def load(games: GameStore, game_id: str) -> GameFacts:
    """The game's facts now; 404 `game/not_found` when there is no such game."""
    found = read(games, game_id)
    if found is None:
        raise game_not_found(game_id)
    return found


def read_many(games: GameStore, game_ids: list[str]) -> list[GameFacts | None]:
    """The facts of several games, in one read (None for a game there is not)."""
    return [None if s is None else GameFacts.of(s) for s in games.snapshots(game_ids)]


def keep_lists(games: GameStore, players: PlayerStore, found: Sequence[GameFacts]) -> None:
    """Write these games' lists (service/play/lists.py), in one round trip."""
    lists.write(games, players, [g._snapshot for g in found])
