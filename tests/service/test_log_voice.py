"""The log in one voice per reader: "you" for yourself, names for the others, your own action
told once; checked on every line of random games of every title, for every seat."""

import random
import re

import pytest

from engine import match as runner
from engine import registry
from engine.core import LogEntry
from service.play import logview
from service.play.logview import SAME_VERB, YOUR_VERB

NAMES = ["Ada", "Bo", "Cy", "Dee", "Eve", "Flo"]
GAMES_PER_TITLE = 12


def played(game, n, seed):
    """Each move's log entries (as stored) of one random game."""
    rnd = random.Random(seed)
    key = seed.to_bytes(32, "big")
    m, entries = runner.start(game, n, None, key, 1)
    yield [e.to_json() for e in entries]
    version = 2
    while m["outcome"] is None and version < 400:
        seat = rnd.choice(sorted(runner.active_seats(game, m)))
        m, entries = runner.act(
            game, m, seat, rnd.choice(runner.legal_actions(game, m, seat)), key, version
        )
        version += 1
        yield [e.to_json() for e in entries]


@pytest.mark.slow  # over a second: not in make test-fast
def test_each_reader_is_you_and_the_others_are_names():
    said = set(YOUR_VERB.values()) | SAME_VERB
    for name, game in sorted(registry.GAMES.items()):
        read = 0
        for k in range(GAMES_PER_TITLE):
            n = game.info.min_players + k % (game.info.max_players - game.info.min_players + 1)
            seats = [{"kind": "player", "name": NAMES[s]} for s in range(n)]
            for entries in played(game, n, 100 + k):
                for reader in range(n):
                    for line in logview.lines(entries, reader, seats):
                        text = line["text"]
                        assert not re.search(rf"\b{NAMES[reader]}\b", text), (name, text)
                        for verb in re.findall(r"(?:^|: |; )you (\w+)", text):
                            assert verb in said or not verb.isalpha(), (name, verb, text)
                        read += 1
        assert read > 500, (name, read)


def test_your_own_action_is_told_once():
    """A public line that a private one tells in full is not read again by those told."""
    game = registry.GAMES["ninedomains"]
    seats = [{"kind": "player", "name": n} for n in NAMES[:2]]
    m, _ = runner.start(game, 2, None, bytes(32), 1)
    action = runner.legal_actions(game, m, 0)[0]
    _, entries = runner.act(game, m, 0, action, bytes(32), 2)
    stored = [e.to_json() for e in entries]
    mine = [line["text"] for line in logview.lines(stored, 0, seats)]
    theirs = [line["text"] for line in logview.lines(stored, 1, seats)]
    assert len(mine) == 1 and mine[0].startswith("you lay face down "), mine
    assert theirs == ["Ada has laid their three cards face down"], theirs
    assert logview.lines(stored, None, seats) == logview.lines(stored, 1, seats)
    assert all(LogEntry.from_json(e).to_json() == e for e in stored)


def test_a_seat_reads_itself_as_you():
    seats = [{"kind": "player", "name": "Ada"}, {"kind": "player", "name": "Bo"}]
    line = "{seat0} uses the Eye and looks at {seat1}'s Divers"
    assert logview.with_names(line, seats, 0) == "you use the Eye and look at Bo's Divers"
    assert logview.with_names(line, seats, 1) == "Ada uses the Eye and looks at your Divers"
    assert logview.with_names(line, seats) == "Ada uses the Eye and looks at Bo's Divers"
    assert (
        logview.with_names("{seat1} has laid their three cards face down", seats, 1)
        == "you have laid your three cards face down"
    )
