"""A bank's increment is credited once per turn (issue 33: "an increment is credited once per
move"; for a player a move is their turn), however many steps the turn takes: the recorded games
of every title replayed through the fold under a time bank, with no time passing, so that each
seat's bank is its initial time plus one increment for each turn it ended, counted from the log
by the rules (tests/service/recorded_games.py)."""

from __future__ import annotations

import pytest

from service.play import history
from store.record import read_event
from tests.service.recorded_games import load

pytestmark = pytest.mark.slow  # replays every recorded game

INITIAL, INCREMENT = 1000, 7
BANK = {
    "kind": "bank",
    "initial_seconds": INITIAL,
    "increment_seconds": INCREMENT,
    "max_seconds": 10**9,
    "on_timeout": "auto",
}

PLAYED = [g for g in load() if any(e["type"] == "ActionTaken" for e in g["events"])]


def turns_ended(game: str, actions: list[tuple[int, str]]) -> list[int]:
    """How many turns each seat ended, read from its steps by the rules: a step goes on with
    the seat's turn when the rules make the seat's next step a part of it (Con Sonar!: every
    Fleet card before the Torpedo step; Nautilus: the arrow's move after a placement, the
    Special's choice after its use; Buttons: the roller's placement after the roll, a star
    before the seat's last star of a round; a roll the game ended after, before it was placed,
    ended no turn)."""
    ended = [0] * 6
    for i, (seat, kind) in enumerate(actions):
        later = [k for s, k in actions[i + 1 :] if s == seat]
        upto_roll = []
        for s, k in actions[i + 1 :]:
            if k == "roll":
                break
            if s == seat:
                upto_roll.append(k)
        follows = actions[i + 1] if i + 1 < len(actions) else None
        goes_on = {
            "consonar": kind == "fleet" and bool(later),
            "nautilus": follows is not None
            and follows[0] == seat
            and follows[1] in ("move", "submarine_keep", "harpoon_give"),
            "buttons": (kind == "roll" and upto_roll[:1] in (["place"], ["skip"]))
            or (kind == "roll" and i + 1 == len(actions))  # the other left before it placed
            or (kind == "star" and upto_roll[:1] == ["star"]),
            "ninedomains": False,
        }[game]
        ended[seat] += not goes_on
    return ended


def taken_back(event) -> bool:
    return (
        event["type"] == "ProposalClosed"
        and event["kind"] == "takeback"
        and event["result"] == "accepted"
    )


@pytest.mark.parametrize("game", PLAYED, ids=[g["snapshot"]["id"] for g in PLAYED])
def test_a_bank_gets_one_increment_a_turn_however_many_steps_it_takes(game):
    created, *rest = game["events"]
    at = created["at"]
    events = [read_event({**created, "time_control": BANK})]
    events += [read_event({**e, "at": at}) for e in rest]  # no time passes: no charge
    snap = history.replay(events)
    actions: list[tuple[int, str]] = []
    for e in events:
        if e["type"] == "ActionTaken":
            actions.append((e["seat"], e["action"]["type"]))
        elif taken_back(e):  # the match is as before the move: so is the turn
            actions.pop()
    expected = turns_ended(snap["game"], actions)
    if len(actions) > 10 and snap["game"] != "ninedomains":  # whole games have long turns
        assert sum(expected) < len(actions)
    banks = [c["bank"] // 1000 for c in snap["clocks"]]
    assert banks == [INITIAL + INCREMENT * expected[s] for s in range(len(banks))]
