"""Proposals the other seats accept or decline: one mechanism for four kinds.

- `takeback`: take back my last move, while it is the game's last and showed nothing hidden
  and drew no random number (the engine's answer, engine.match.can_take_back); the record keeps
  both the move and its takeback.
- `pause`: pause the game's clocks for some days (every deadline moves on by them; a turn that
  begins meanwhile counts from the pause's end).
- `draw`: end the game with a result shared by every player still in it.
- `abort`: end the game with no result, in its first ABORT_TURNS rounds.

Each is an event pair in the game's log: ProposalMade, then ProposalClosed (accepted,
declined, withdrawn, lapsed at its deadline, or void when what it was about changed first),
with a ProposalAnswered for each yes that leaves others to answer. Every other player still in
the game must accept (a seat held by a bot is not asked). An accepted proposal's effect is
folded from its ProposalClosed, so a replay of the log does it again (a takeback restores the
match before the move: the live path passes it, `history.replay` keeps it).

This module is pure: what the snapshot keeps of proposals (`Snapshot["agreements"]`), the
fold of their events, and the rules of what may be proposed; the decisions that write the
events are service/play/talk.py's.
"""

from __future__ import annotations

import copy
from typing import Any

from engine import match as runner
from engine import registry
from service.errors import Words
from service.words import gettext, ngettext
from store.record import Event, EventType, ProposalKind
from store.snapshot import Agreements, OpenProposal, Snapshot

KINDS: tuple[ProposalKind, ...] = ("takeback", "pause", "draw", "abort")
EVENTS = frozenset(
    {EventType.PROPOSAL_MADE, EventType.PROPOSAL_ANSWERED, EventType.PROPOSAL_CLOSED}
)
MAX_PAUSE_DAYS = 30
ABORT_TURNS = 2
"""A game may be aborted while no seat has begun more than this many turns."""
SHARED = "a shared result, agreed by the players"
ABORTED = "aborted by the players: no result"
DAY_MS = 86_400_000
ENDS_A_MOVE = frozenset(
    {
        EventType.TURN_TIMED_OUT,
        EventType.PLAYER_RESIGNED,
        EventType.GAME_ENDED,
        EventType.GAME_CANCELLED,
    }
)
"""After these, the last move is no longer the match's last change: it cannot be taken back."""


def of(snap: Snapshot) -> Agreements | None:
    """What the snapshot keeps of proposals (None before the game starts, and in a game that
    started before turnpost had proposals)."""
    return snap.get("agreements")


def open_proposals(snap: Snapshot) -> list[OpenProposal]:
    found = of(snap)
    return list(found["open"]) if found else []


def find(snap: Snapshot, proposal: int) -> OpenProposal | None:
    return next((p for p in open_proposals(snap) if p["id"] == proposal), None)


def paused_until(snap: Snapshot) -> int:
    found = of(snap)
    return (found["paused_until"] or 0) if found else 0


def pauses(snap: Snapshot) -> tuple[tuple[int, int], ...]:
    """The spans ([start, end) in epoch ms) the table agreed to pause the game's clocks."""
    found = of(snap)
    return tuple((a, b) for a, b in found.get("pauses", [])) if found else ()


def living(snap: Snapshot) -> list[int]:
    """The seats still in the game."""
    match = snap["match"]
    gone = set(match["resigned"]) if match else set()
    return [s for s in range(len(snap["seats"])) if s not in gone]


def asked(snap: Snapshot, seat: int) -> list[int]:
    """Whose yes a proposal of `seat` needs: every other player still in the game."""
    return [s for s in living(snap) if s != seat and snap["seats"][s]["kind"] == "player"]


def why_not(snap: Snapshot, seat: int, kind: str, days: int | None = None) -> Words | None:
    """Why `seat` may not propose `kind` now, in words (the API's, service.errors.Words); None
    when it may."""
    found = of(snap)
    if snap["status"] != "active" or found is None:
        return Words("proposals are made while the game is on")
    if seat not in living(snap):
        return Words("you have left this game")
    if kind not in KINDS:
        return Words(
            "there is no proposal %(kind)r; the kinds are %(kinds)s",
            kind=kind,
            kinds=", ".join(KINDS),
        )
    if any(p["kind"] == kind for p in found["open"]):
        return ALREADY_OPEN[kind]
    if kind == "takeback":
        last = found["last_move"]
        if last is None or last["seat"] != seat:
            return Words("only the game's last move may be taken back, by its player")
        if not last["undoable"]:
            return Words(
                "that move cannot be taken back: it showed something hidden or drew a random "
                "number (a card, a die)"
            )
    if kind == "pause":
        if snap["time_control"] is None:
            return Words("this game has no clock to pause")
        if days is None or not 1 <= days <= MAX_PAUSE_DAYS:
            return Words("a pause is of 1 to %(most)s days", most=MAX_PAUSE_DAYS)
    if kind == "draw" and any(snap["seats"][s]["kind"] == "bot" for s in living(snap) if s != seat):
        return Words("a bot does not agree to share the result: play on, or resign")
    if kind == "abort" and max(found["turns"], default=0) > ABORT_TURNS:
        return Words(
            "a game may be aborted in its first %(rounds)s rounds only", rounds=ABORT_TURNS
        )
    return None


ALREADY_OPEN = {
    "takeback": Words(
        "a proposal to take back a move is already open: answer or withdraw it first"
    ),
    "pause": Words("a proposal to pause the clocks is already open: answer or withdraw it first"),
    "draw": Words("a proposal to share the result is already open: answer or withdraw it first"),
    "abort": Words("a proposal to abort the game is already open: answer or withdraw it first"),
}
"""The refusal of a second open proposal of a kind (its words are WORDS')."""


def moot(snap: Snapshot) -> list[int]:
    """The open proposals that what happened since made void: every one once the game is
    over; a takeback once its move is no longer the last; an abort once past the second
    round; any whose proposer or one it asked has left the game."""
    found = of(snap)
    if not found:
        return []
    if snap["status"] != "active":
        return [p["id"] for p in found["open"]]
    still = set(living(snap))
    void = []
    for p in found["open"]:
        last = found["last_move"]
        if (
            (p["kind"] == "takeback" and (last is None or last["version"] != p.get("move")))
            or (p["kind"] == "abort" and max(found["turns"], default=0) > ABORT_TURNS)
            or not {p["seat"], *p["waiting"], *p["accepted"]} <= still
        ):
            void.append(p["id"])
    return void


WORDS: dict[str, str] = {
    "takeback": "take back a move",
    "pause": "pause the clocks",
    "draw": "share the result",
    "abort": "abort the game",
}


def in_words(proposal: dict[str, Any]) -> str:
    """What a proposal asks, after its proposer's name ("proposes to ..."), in English (the
    API's words; `proposed` says it in the reader's language)."""
    if proposal["kind"] == "takeback":
        return "take back their last move"
    if proposal["kind"] == "pause":
        days = proposal.get("days", 0)
        return f"pause the clocks for {days} day{'s' if days != 1 else ''}"
    if proposal["kind"] == "draw":
        return "end the game with a result shared by every player still in it"
    return "abort the game, with no result"


def proposed(proposal: dict[str, Any], proposer: str | None) -> str:
    """The proposal as a sentence in the language spoken now: "you propose to take back your
    last move" (`proposer` None: the reader's own), "Ada proposes to pause the clocks for 2
    days"."""
    kind = proposal["kind"]
    if kind == "takeback":
        if proposer is None:
            return gettext("you propose to take back your last move")
        return gettext("%(who)s proposes to take back their last move", who=proposer)
    if kind == "pause":
        days = proposal.get("days", 0)
        if proposer is None:
            return ngettext(
                "you propose to pause the clocks for %(num)d day",
                "you propose to pause the clocks for %(num)d days",
                days,
            )
        return ngettext(
            "%(who)s proposes to pause the clocks for %(num)d day",
            "%(who)s proposes to pause the clocks for %(num)d days",
            days,
            who=proposer,
        )
    if kind == "draw":
        if proposer is None:
            return gettext(
                "you propose to end the game with a result shared by every player still in it"
            )
        return gettext(
            "%(who)s proposes to end the game with a result shared by every player still in it",
            who=proposer,
        )
    if proposer is None:
        return gettext("you propose to abort the game, with no result")
    return gettext("%(who)s proposes to abort the game, with no result", who=proposer)


# -- the fold (service.play.history calls these) ----------------------------------------------


def fold(snap: Snapshot, event: Event, computed: dict[str, Any] | None) -> None:
    """A proposal's event on `snap` (a copy the caller owns). An accepted takeback needs
    `computed`: the match before the move, taken back."""
    found = _own(snap)
    if event["type"] == EventType.PROPOSAL_MADE:
        proposal: OpenProposal = {
            "id": event["version"],
            "seat": event["seat"],
            "kind": event["kind"],
            "deadline": event["deadline"],
            "waiting": list(event["waiting"]),
            "accepted": [],
        }
        for extra in ("move", "days"):
            if extra in event:
                proposal[extra] = event[extra]
        found["open"].append(proposal)
    elif event["type"] == EventType.PROPOSAL_ANSWERED:
        for p in found["open"]:
            if p["id"] == event["proposal"]:
                p["waiting"] = [s for s in p["waiting"] if s != event["seat"]]
                p["accepted"] = [*p["accepted"], event["seat"]]
    elif event["type"] == EventType.PROPOSAL_CLOSED:
        closed = find(snap, event["proposal"])
        found["open"] = [p for p in found["open"] if p["id"] != event["proposal"]]
        if event["result"] == "accepted" and closed is not None:
            _accepted(snap, found, closed, event["at"], computed)


def _accepted(
    snap: Snapshot,
    found: Agreements,
    proposal: OpenProposal,
    at: int,
    computed: dict[str, Any] | None,
) -> None:
    match = snap["match"]
    if match is None:
        raise ValueError("a proposal is accepted in a started game only")
    if proposal["kind"] == "takeback":
        if computed is None:
            raise ValueError("a takeback's fold needs the match before the move (computed)")
        snap["match"] = computed
        found["last_move"] = None
    elif proposal["kind"] == "pause":
        start = max(found["paused_until"] or 0, at)
        # every seat's clock stands still meanwhile: the fold's clocks (service.play.clock)
        # read the span from here and move the deadlines
        end = start + proposal.get("days", 0) * DAY_MS
        found["paused_until"] = end
        found["pauses"] = [*found.get("pauses", []), [start, end]]
    elif proposal["kind"] == "draw":
        snap["match"] = runner.agree(match, living(snap), SHARED)
    elif proposal["kind"] == "abort":
        snap["match"] = runner.agree(match, [], ABORTED)


def note(snap: Snapshot, event: Event, before: dict[str, Any] | None) -> None:
    """What every other event changes for proposals: a started game begins to keep them; a
    move becomes the last move (may it be taken back?) and counts the turns; a timeout, a
    resignation or the game's end leaves no last move. `before` is the match before `event`."""
    if event["type"] == EventType.GAME_STARTED:
        snap["agreements"] = {
            "open": [],
            "last_move": None,
            "turns": [0] * len(snap["seats"]),
            "last_actor": None,
            "paused_until": None,
        }
    elif of(snap) is None:
        return
    elif event["type"] == EventType.ACTION_TAKEN and before is not None:
        found = _own_keys(snap)
        seat = event["seat"]
        game = registry.GAMES[snap["game"]]
        after = snap["match"]
        found["last_move"] = {
            "version": event["version"],
            "seat": seat,
            "undoable": after is not None
            and runner.can_take_back(game, before, seat, event["action"], after),
        }
        if found["last_actor"] != seat:
            found["turns"] = [t + (s == seat) for s, t in enumerate(found["turns"])]
            found["last_actor"] = seat
    elif event["type"] in ENDS_A_MOVE:
        _own_keys(snap)["last_move"] = None


def taken_back(event: Event, before_last_move: dict[str, Any] | None) -> dict[str, Any] | None:
    """For a replay: the match an accepted takeback restores (the match before the game's last
    move, taken back at the event's version), else None."""
    if (
        event["type"] != EventType.PROPOSAL_CLOSED
        or event["kind"] != "takeback"
        or event["result"] != "accepted"
    ):
        return None
    if before_last_move is None:
        raise ValueError(f"the takeback at version {event['version']} follows no move")
    return runner.take_back(before_last_move, event["proposer"], event["version"])


def _own_keys(snap: Snapshot) -> Agreements:
    """The snapshot's agreements as a shallow copy of its own, for `note`, which gives its
    keys new values and never changes a value in place (a deep copy was a sixth of the fold
    of a timeout)."""
    found = of(snap)
    if found is None:
        raise ValueError(f"game {snap['id']} keeps no proposals")
    mine = found.copy()
    snap["agreements"] = mine
    return mine


def _own(snap: Snapshot) -> Agreements:
    """The snapshot's agreements as a copy of its own (the fold's input stays as it was)."""
    found = of(snap)
    if found is None:
        raise ValueError(f"game {snap['id']} keeps no proposals")
    mine = copy.deepcopy(found)
    snap["agreements"] = mine
    return mine
