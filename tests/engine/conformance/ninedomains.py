"""The Nine Domains' conformance hooks: its invariants over the seeded games of both modes of
specials, what a seat cannot know, and its own check of the log's face-down cards."""

import json

from engine import match as runner
from engine.games.ninedomains import (
    BASE_CARDS,
    CARD_ORDER,
    DOMAIN_POINTS,
    FULL_PURPLE_DECK,
    GAME,
    sort_cards,
)
from tests.engine.conformance import Run, check_log_visibility, play, seed_of

MODES = [None, {"specials": "per_round"}]
MAX_MOVES = 3 * (2 + 3)  # per round: two commits and at most one decision per slot
MAX_STEPS = 10_000


def per_game(i: int) -> dict | None:
    return None


def per_round(i: int) -> dict | None:
    return {"specials": "per_round"}


def both_modes(i: int) -> dict | None:
    return MODES[i % 2]


def check_invariants(g):
    per_round = g["specials_mode"] == "per_round"
    assert 1 <= g["round"] <= 3
    for s in (0, 1):
        held = g["hands"][s] + (g["committed"][s] or []) + g["used"][s]
        assert sort_cards(held) == sort_cards(list(BASE_CARDS) + g["specials"]), "cards lost"
        assert g["hands"][s] == sort_cards(g["hands"][s])
    assert len(g["specials"]) == (3 * g["round"] if per_round else 3)
    assert len(set(g["specials"] + g["special_deck"])) == 9
    placed = (
        [d for pile in g["piles"] for d in pile]
        + [d for d in g["face_up"] if d]
        + g["domains"][0]
        + g["domains"][1]
        + g["discarded"]
    )
    assert sorted(placed) == sorted(FULL_PURPLE_DECK), "domains lost or doubled"
    assert all(len(p) == 3 - g["round"] for p in g["piles"])
    fought = 3 * (g["round"] - (g["phase"] == "commit"))
    assert len(g["battles"]) == fought
    assert len(g["domains"][0]) + len(g["domains"][1]) + len(g["discarded"]) == fought
    if g["phase"] == "commit":
        assert all(d is not None for d in g["face_up"])
        for s in (0, 1):
            in_play = len(g["hands"][s]) + len(g["committed"][s] or [])
            assert in_play == (9 if per_round else 9 - 3 * (g["round"] - 1))
    else:
        assert g["face_up"] == [None, None, None] and g["committed"] == [None, None]
    assert g["bonus"][0] % 7 == 0 and g["bonus"][1] % 7 == 0
    assert g["bonus"][0] + g["bonus"][1] <= 7 * len(g["battles"])
    view = GAME.view(g, None)
    assert view["points"] == [
        sum(DOMAIN_POINTS[d] for d in g["domains"][s]) + g["bonus"][s] for s in (0, 1)
    ]
    assert (g["phase"] == "effects") == bool(g["pending"])


def check_step(before, seat, action, after, entries):
    check_invariants(after["state"])
    if after["state"]["committed"][seat] is not None:
        # A commit that did not end the round leaves the other seat's moves unchanged.
        other = 1 - seat
        assert runner.legal_actions(GAME, after, other) == runner.legal_actions(GAME, before, other)
        assert after["seat_since"][other] == before["seat_since"][other]


def check_end(m, history):
    assert len(history) <= MAX_MOVES
    out = m["outcome"]
    g = m["state"]
    assert out["scores"] == GAME.view(g, None)["points"]
    if out["reason"] != "all four elements":
        assert g["round"] == 3


def perturb(g, seat, rng):
    """Change only what `seat` cannot see: the other seat's hand and face-down cards (drawn
    anew from all card names, so even a view that showed what is deducible would differ),
    the hidden order of the domain piles, the special kinds not dealt yet."""
    other = 1 - seat
    names = list(CARD_ORDER)
    rng.shuffle(names)
    face_down = 3 if g["committed"][other] is not None else 0
    if face_down:
        g["committed"][other] = names[:3]
    g["hands"][other] = sort_cards(names[face_down : face_down + len(g["hands"][other])])
    hidden = [d for pile in g["piles"] for d in pile]
    rng.shuffle(hidden)
    g["piles"] = [hidden[i * len(p) : (i + 1) * len(p)] for i, p in enumerate(g["piles"])]
    rng.shuffle(g["special_deck"])
    return g


def both(players: int, games: int, first: int = 0) -> list[Run]:
    """The same seeded games with specials per game and per round."""
    return [
        Run(players, games, per_game, first, label="per game"),
        Run(players, games, per_round, first, label="per round"),
    ]


PLAYS = [Run(2, 1000, per_game, label="per game"), Run(2, 300, per_round, label="per round")]
NO_LEAK = both(2, 20)
REPLAYS = both(2, 30)
NOTATION = both(2, 15, first=100)
SEED_HIDDEN = both(2, 5)
BOTS_LEGAL = [Run(2, 10, both_modes, first=500)]
GOLDEN = Run(2, 1, first=7)
BOT_MATCHES = [(run, 101) for run in both(2, 200, first=10_000)]


def log_entries_never_show_a_seat_the_other_seats_face_down_cards():
    for options in MODES:
        for i in range(40):
            secrets = {}

            def step(before, seat, action, after, entries):
                if after["state"]["committed"][seat] is not None:
                    cards = action["cards"]
                    secrets[seat] = [json.dumps(cards), ", ".join(cards), " ".join(cards)]
                    others = [1 - seat, -1]
                    check_log_visibility(entries, lambda s: secrets[seat] if s in others else [], 2)
                else:
                    secrets.clear()

            play(GAME, 2, options, seed_of(i), on_step=step)


SPECIFICS = (log_entries_never_show_a_seat_the_other_seats_face_down_cards,)
