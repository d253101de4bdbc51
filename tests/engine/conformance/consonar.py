"""Con Sonar!'s conformance hooks: its invariants and scoring at two to six players, over
the option's range, what a seat cannot know, and its own checks: resignations, the log,
sorted legal lists and whitelisted views. Its random games are played by `random_player`,
which keeps them short enough to play thousands."""

import itertools
import json

from engine import match as runner
from engine.games import consonar as C
from engine.games.consonar import GAME
from engine.rng import Rng
from tests.engine.conformance import (
    Run,
    check_log_visibility,
    play,
    seed_of,
)
from tests.engine.test_consonar import brute_groups

MAX_STEPS = 3000


def random_player(view, legal, rng, seat):
    """A seeded random player that keeps games short enough to play thousands: when it may
    fire or defuse it does so three times in four (a random target); otherwise it picks
    uniformly, the three delays counting as one choice."""
    shots = [a for a in legal if a["type"] in ("torpedo", "defuse")]
    if shots and rng.below(4):
        return rng.choice(shots)
    delays = [a for a in legal if a["type"] == "delay"]
    others = [a for a in legal if a["type"] != "delay"]
    k = rng.below(len(others) + (1 if delays else 0))
    return others[k] if k < len(others) else rng.choice(delays)


def options_of(i):
    """Half the games with the seed's rule (all sunk), the others over the option's range."""
    return {"end_subs_left": 0 if i % 2 == 0 else (i // 2) % 11}


GROUPS = {counts: brute_groups(counts) for counts in itertools.product(range(3), repeat=6)}
ALL_FLEET = sorted(C.FLEET_CARDS)
ALL_TORPEDO = sorted(C.TORPEDO_CARDS)


def expected_score(g, seat):
    """The seed's scoring, written out again independently of the engine."""
    sunk = g["sunk"][seat]
    counts = tuple(sum(1 for s in sunk if s[0] == c) for c in "bgopry")
    own = 0
    if seat not in g["removed"]:
        own = sum(1 for k in "12" if g["subs"][g["nations"][seat] + k] is not None)
    return (
        len(sunk)
        - len(g["misses"][seat])
        + 2 * own
        + sum(1 for c in counts if c == 2)
        + 2 * GROUPS[counts]
    )


def check_invariants(g, out):
    n = g["n"]
    fleet = (
        [c for h in g["hands"] for c in h]
        + g["fleet_deck"]
        + g["fleet_discard"]
        + [p["card"] for p in g["played"]]
    )
    assert sorted(fleet) == ALL_FLEET, "Fleet cards not conserved"
    torpedo = (
        g["torpedo_row"]
        + g["torpedo_deck"]
        + g["torpedo_removed"]
        + g["torpedo_discard"]
        + [c for m in g["misses"] for c in m]
    )
    assert sorted(torpedo) == ALL_TORPEDO, "Torpedo cards not conserved"
    sunk = [s for area in g["sunk"] for s in area]
    on_ladder = [s for s in C.SUBS if g["subs"][s] is not None]
    assert sorted(sunk + on_ladder) == sorted(C.SUBS), "submarines not conserved"
    assert all(1 <= g["subs"][s] <= 8 for s in on_ladder)
    assert len(g["torpedo_discard"]) == len(sunk), "one discarded Torpedo card per sinking"
    used = len(g["torpedo_removed"]) + len(g["torpedo_discard"]) + sum(map(len, g["misses"]))
    assert used <= 16, "more Torpedo cards used than could be replaced"
    for seat in range(n):
        if seat in g["removed"]:
            assert g["hands"][seat] == []
        elif seat == g["current"] and g["over"] is None:
            assert len(g["hands"][seat]) == 3 - len(g["played"])
        else:
            assert len(g["hands"][seat]) == 3
    if g["over"] is None:
        assert out is None and len(g["torpedo_row"]) == 3 and g["current"] not in g["removed"]
        assert GAME.active_seats(g) == frozenset([g["current"]])
        assert len(on_ladder) > g["end_subs_left"]
    else:
        assert out is not None and g["played"] == []
        assert len(g["torpedo_row"]) == 3 or not g["torpedo_deck"]
        scores = [expected_score(g, s) for s in range(n)]
        assert list(out.scores) == scores
        playing = [s for s in range(n) if s not in g["removed"]]
        best = max(scores[s] for s in playing)
        assert list(out.winners) == [s for s in playing if scores[s] == best]


def check_step(before, seat, action, after, entries):
    g = after["state"]
    check_invariants(g, GAME.outcome(g))
    for e in entries:
        if "rolls" in e.data:
            assert e.to is None and len(e.data["rolls"]) >= 1


def check_end(m, history):
    assert m["outcome"] is not None


def perturb(g, seat, rng):
    """Change what `seat` cannot know: other hands dealt again from them and the Fleet deck
    (rotated), the order of the Fleet discard pile and of the Torpedo deck (reversed)."""
    others = [s for s in range(g["n"]) if s != seat]
    pool = g["fleet_deck"] + [c for s in others for c in g["hands"][s]]
    k = rng.below(len(pool)) if pool else 0
    pool = pool[k:] + pool[:k]
    for s in others:
        k = len(g["hands"][s])
        g["hands"][s], pool = sorted(pool[:k]), pool[k:]
    g["fleet_deck"] = pool
    g["fleet_discard"].reverse()
    g["torpedo_deck"].reverse()
    return g


PLAYERS = (2, 3, 4, 5, 6)
PLAYS = [Run(n, 1000, options_of, chooser=random_player) for n in PLAYERS]
NO_LEAK = [Run(n, 20, options_of) for n in PLAYERS]
REPLAYS = [Run(n, 8, options_of) for n in PLAYERS]
NOTATION = [Run(n, 20, options_of, chooser=random_player) for n in (2, 3, 6)]
SEED_HIDDEN = [Run(n, 1, first=n, chooser=random_player) for n in (2, 6)]
BOTS_LEGAL = [Run(n, 10, options_of, first=500) for n in (2, 6)]
GOLDEN = Run(2, 1, first=48)  # a short game: the file stays small
BOT_MATCHES = [
    (Run(2, 200, first=10_000), 101),
    (Run(6, 200, first=10_000), 67),  # a fair share is 33
]


def random_games_with_resignations_go_on_and_keep_every_invariant():
    for n in (3, 4, 5, 6):
        for i in range(40):
            seed = seed_of(500 + i)
            picker = Rng(b"resign:" + seed)
            m, _ = runner.start(GAME, n, None, seed, 1)
            version = 1
            leave_at = [picker.below(60) for _ in range(n - 2)]
            while m["outcome"] is None:
                version += 1
                if leave_at and version >= leave_at[0]:
                    leave_at.pop(0)
                    left = [s for s in range(n) if s not in m["resigned"]]
                    m, _ = runner.resign(GAME, m, picker.choice(left), version)
                else:
                    seat = next(iter(runner.active_seats(GAME, m)))
                    legal = runner.legal_actions(GAME, m, seat)
                    action = random_player(None, legal, picker, seat)
                    m, _ = runner.act(GAME, m, seat, action, seed, version)
                g = m["state"]
                assert sorted(g["removed"]) == sorted(m["resigned"])
                for s in g["removed"]:
                    assert s not in runner.active_seats(GAME, m)
                check_invariants(g, GAME.outcome(g))
            assert not set(m["outcome"]["winners"]) & set(m["resigned"])


def no_log_entry_shows_a_seat_another_seats_hand_or_the_deck():
    for n in (2, 4, 6):
        for i in range(15):
            seed = seed_of(i)
            m, entries = runner.start(GAME, n, None, seed, 1)

            def secrets(m):
                g = m["state"]
                return lambda s: (
                    [c for o in range(n) if o != s for c in g["hands"][o]] + g["fleet_deck"]
                )

            check_log_visibility(entries, secrets(m), n)

            def step(before, seat, action, after, entries):
                check_log_visibility(entries, secrets(after), n)

            play(GAME, n, None, seed, chooser=random_player, on_step=step)


def legal_actions_are_sorted_by_type_card_and_submarine():
    for run in NOTATION:
        for i, seed in run.seeds():

            def step(before, seat, action, after, entries):
                for s in runner.active_seats(GAME, after):
                    legal = runner.legal_actions(GAME, after, s)
                    assert legal == sorted(
                        legal, key=lambda a: (a["type"], a.get("card", ""), a.get("sub", ""))
                    )

            play(GAME, run.players, run.options(i), seed, chooser=run.chooser, on_step=step)


def views_are_plain_json_and_whitelisted():
    m, _ = play(GAME, 3, None, seed_of(7), chooser=random_player)
    for seat in (None, 0, 1, 2):
        v = GAME.view(m["state"], seat)
        assert json.loads(json.dumps(v)) == v
        assert not {"game", "version", "seat", "active_seats"} & set(v)
        assert "fleet_deck" in v and isinstance(v["fleet_deck"], int)


SPECIFICS = (
    random_games_with_resignations_go_on_and_keep_every_invariant,
    no_log_entry_shows_a_seat_another_seats_hand_or_the_deck,
    legal_actions_are_sorted_by_type_card_and_submarine,
    views_are_plain_json_and_whitelisted,
)
