"""Con Sonar!: seeded random games with invariants, no-leak, replay, notation, golden, bots."""

import itertools
import json

import pytest

from engine import match as runner
from engine.games import consonar as C
from engine.games.consonar import GAME
from engine.rng import Rng
from tests.engine import conformance
from tests.engine.test_consonar import brute_groups

GAMES_PER_COUNT = 1000


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


def on_step(before, seat, action, after, entries):
    g = after["state"]
    check_invariants(g, GAME.outcome(g))
    for e in entries:
        if "rolls" in e.data:
            assert e.to is None and len(e.data["rolls"]) >= 1


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_random_games_keep_every_invariant(n):
    lengths = []
    for i in range(GAMES_PER_COUNT):
        m, history = conformance.play(
            GAME,
            n,
            options_of(i),
            conformance.seed_of(i),
            chooser=random_player,
            max_steps=3000,
            on_step=on_step,
        )
        assert m["outcome"] is not None
        lengths.append(len(history))
    assert max(lengths) < 3000


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_random_games_with_resignations_go_on_and_keep_every_invariant(n):
    for i in range(40):
        seed = conformance.seed_of(500 + i)
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
                m, _ = runner.act(
                    GAME,
                    m,
                    seat,
                    random_player(None, runner.legal_actions(GAME, m, seat), picker, seat),
                    seed,
                    version,
                )
            g = m["state"]
            assert sorted(g["removed"]) == sorted(m["resigned"])
            for s in g["removed"]:
                assert s not in runner.active_seats(GAME, m)
            check_invariants(g, GAME.outcome(g))
        assert not set(m["outcome"]["winners"]) & set(m["resigned"])


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


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_views_do_not_leak_hidden_cards(n):
    for i in range(20):
        conformance.check_no_leak(GAME, n, options_of(i), conformance.seed_of(i), perturb)


def test_no_log_entry_shows_a_seat_another_seats_hand_or_the_deck():
    for n in (2, 4, 6):
        for i in range(15):
            seed = conformance.seed_of(i)
            m, entries = runner.start(GAME, n, None, seed, 1)

            def secrets(m):
                g = m["state"]
                return lambda s: (
                    [c for o in range(n) if o != s for c in g["hands"][o]] + g["fleet_deck"]
                )

            conformance.check_log_visibility(entries, secrets(m), n)

            def step(before, seat, action, after, entries):
                conformance.check_log_visibility(entries, secrets(after), n)

            conformance.play(GAME, n, None, seed, chooser=random_player, on_step=step)


def test_replay_gives_the_same_match_and_the_state_is_json():
    for n in range(2, 7):
        for i in range(8):
            conformance.check_replay_and_json(GAME, n, options_of(i), conformance.seed_of(i))


def test_notation_round_trips_for_every_legal_action_of_many_states():
    for n in (2, 3, 6):
        for i in range(20):

            def step(before, seat, action, after, entries):
                for s in runner.active_seats(GAME, after):
                    conformance.check_notation(GAME, after, s)
                    legal = runner.legal_actions(GAME, after, s)
                    assert legal == sorted(
                        legal, key=lambda a: (a["type"], a.get("card", ""), a.get("sub", ""))
                    )

            conformance.play(
                GAME, n, options_of(i), conformance.seed_of(i), chooser=random_player, on_step=step
            )


def test_views_never_show_the_seed():
    for n in (2, 6):
        seed = conformance.seed_of(n)
        conformance.check_views_hide_seed(GAME, runner.start(GAME, n, None, seed, 1)[0], seed)
        m, _ = conformance.play(GAME, n, None, seed, chooser=random_player)
        conformance.check_views_hide_seed(GAME, m, seed)


def test_views_are_plain_json_and_whitelisted():
    m, _ = conformance.play(GAME, 3, None, conformance.seed_of(7), chooser=random_player)
    for seat in (None, 0, 1, 2):
        v = GAME.view(m["state"], seat)
        assert json.loads(json.dumps(v)) == v
        assert not {"game", "version", "seat", "active_seats"} & set(v)
        assert "fleet_deck" in v and isinstance(v["fleet_deck"], int)


GOLDEN_SEED = conformance.seed_of(48)  # a short game: the file stays small


def test_golden_playthrough():
    conformance.check_golden(GAME, 2, None, GOLDEN_SEED)


def test_heuristic_beats_random_in_two_player_games():
    assert conformance.check_bot_beats_random(GAME, 2, None) > 100


def test_heuristic_beats_random_at_six_players():
    assert conformance.check_bot_beats_random(GAME, 6, None) > 2 * 200 / 6
