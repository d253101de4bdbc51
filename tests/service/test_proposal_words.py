"""A proposal's lines (the game's log, the table's open proposals) in the reader's language
(issue 38): every kind of proposal, made, answered and closed every way, as its proposer, the
other player and a spectator read it, is said in Russian and Italian with no English left, and
in English word for word as before."""

import re

import pytest

from service.play import agreements, logview
from service.words import speaking
from store.record import EventType

SEATS = [
    {"kind": "player", "name": "Ada", "player_id": "p_1"},
    {"kind": "player", "name": "Bo", "player_id": "p_2"},
]
KINDS = ("takeback", "pause", "draw", "abort")
RESULTS = ("accepted", "declined", "withdrawn", "lapsed", "void")


def events():
    for kind in KINDS:
        days = {"days": 2} if kind == "pause" else {}
        yield {"type": EventType.PROPOSAL_MADE, "seat": 0, "kind": kind, "waiting": [1], **days}
        yield {"type": EventType.PROPOSAL_ANSWERED, "seat": 1, "proposal": 3}
        for result in RESULTS:
            by = None if result in ("lapsed", "void") else 0 if result == "withdrawn" else 1
            yield {
                "type": EventType.PROPOSAL_CLOSED,
                "kind": kind,
                "proposer": 0,
                "result": result,
                "by": by,
            }


ENGLISH = re.compile(
    r"\b(you|your|propose[sd]?|proposal|accepts?|declines?|the|game|clocks?|move)\b"
)


@pytest.mark.parametrize("language", ["ru", "it"])
def test_every_proposal_line_is_said_in_the_readers_language(language):
    said = set()
    with speaking(language):
        for event in events():
            for reader in (0, 1, None):
                line = logview.proposal_line(event, SEATS, reader)
                assert line and "%(" not in line and not ENGLISH.search(line), line
                said.add(line)
        for kind in KINDS:
            proposal = {"kind": kind, "days": 3}
            for proposer in (None, "Ada"):
                line = agreements.proposed(proposal, proposer)
                assert "%(" not in line and not ENGLISH.search(line), line
                said.add(line)
    assert len(said) > 60  # the voices differ: one line for every reader is no translation
    if language == "ru":
        assert all(re.search("[а-яё]", line) for line in said)


def test_the_english_lines_are_as_they_were():
    made = {"type": EventType.PROPOSAL_MADE, "seat": 0, "kind": "pause", "days": 2, "waiting": [1]}
    closed = {
        "type": EventType.PROPOSAL_CLOSED,
        "kind": "takeback",
        "proposer": 0,
        "result": "accepted",
        "by": 1,
    }
    declined = {**closed, "result": "declined"}
    lapsed = {**closed, "kind": "pause", "result": "lapsed", "by": None}
    assert logview.proposal_line(made, SEATS, 0) == "you propose to pause the clocks for 2 days"
    assert logview.proposal_line(made, SEATS, 1) == "Ada proposes to pause the clocks for 2 days"
    assert logview.proposal_line(closed, SEATS, 0) == "Bo accepts: Your last move is taken back"
    assert logview.proposal_line(closed, SEATS, 1) == "you accept: Ada's last move is taken back"
    assert logview.proposal_line(declined, SEATS, None) == (
        "Bo declines Ada's proposal to take back their last move"
    )
    assert logview.proposal_line(lapsed, SEATS, 0) == (
        "Your proposal to pause the clocks lapsed unanswered"
    )
    assert agreements.proposed({"kind": "takeback"}, None) == (
        "you propose to take back your last move"
    )
    assert agreements.proposed({"kind": "draw"}, "Ada") == (
        "Ada proposes to end the game with a result shared by every player still in it"
    )
    with speaking("ru"):
        assert logview.proposal_line(made, SEATS, 1) == (
            "Ada предлагает приостановить часы на 2 дня"
        )
