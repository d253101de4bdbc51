"""Nautilus' conformance hooks (the model for a new title's): its invariants, what a seat
cannot know, the seeded games of each shared check, and its own checks of the log."""

import json

from engine import match as runner
from engine.games import nautilus as N
from engine.games.nautilus import GAME
from engine.rng import Rng
from tests.engine.conformance import Run, play, seed_of


def both_modes(i: int) -> dict | None:
    """Every other game with hidden domains."""
    return [None, {"hidden_domains": True}][i % 2]


def check_invariants(g):
    """Cards are conserved, counts agree with the phase, scores follow the rules."""
    board_cards = [c for r in g["board"] for c in r if c is not None]
    divers = (
        g["hands"][0]
        + g["hands"][1]
        + g["diver_pile"]
        + g["sub_drawn"]
        + [c for c in board_cards if 1 <= c <= 14]
    )
    assert sorted(divers) == list(N.DIVERS), "the Divers are not conserved"
    specials = (
        g["special_deck"] + g["special_discard"] + g["draft"] + g["specials"][0] + g["specials"][1]
    )
    assert sorted(specials) == sorted(N.SPECIALS), "the Special cards are not conserved"
    for c in board_cards:
        if c in N.CARD_NAME:
            assert N.CARD_NAME[c] in g["special_discard"]
    domain_cards = g["domain_pile"] + g["domain_row"] + g["taken"][0] + g["taken"][1]
    assert sorted(map(str, domain_cards)) == sorted(map(str, N.domain_deck()))
    assert len(g["domain_row"]) in (0, 5)
    assert len(g["domain_pile"]) + len(g["domain_row"]) == 30 - 5 * g["round"] + (
        5 if g["domain_row"] else 0
    )
    assert 1 <= g["round"] <= N.ROUNDS
    assert g["placements"] == len(board_cards)
    assert len(g["specials"][0]) + len(g["specials"][1]) + len(g["draft"]) <= 2
    if g["phase"] in ("place", "move"):
        for s in (0, 1):
            mine = g["placements"] // 2 + (g["placements"] % 2 if s == g["nemo"] else 0)
            assert len(N.placeable(g, s)) >= 5 - mine, "a seat cannot make its 5 placements"
    if g["phase"] == "move":
        p = g["pending"]
        assert g["board"][p["side"]][p["col"]] in N.ARROWS
    if g["anchored"] is not None:
        assert g["anchored"] in board_cards
    assert max(N.domains_won(g["won"])) < 3 or g["phase"] == "over"
    if g["phase"] == "over":
        r = g["result"]
        assert r["scores"] == N.domains_won(r["domains"])
        if not g["hidden"]:
            assert r["domains"] == g["won"]
            if r["reason"] == "six rounds played":
                assert None not in g["won"] and sum(r["scores"]) == 5


def check_step(before, seat, action, after, entries):
    check_invariants(after["state"])
    # an arrow that can move forces a move by the same seat
    if action["type"] == "place" and after["state"]["phase"] == "move":
        assert runner.active_seats(GAME, after) == {seat}


def check_end(m, history):
    assert m["state"]["round"] <= 6 and m["outcome"] is not None


MAX_STEPS = 400


def perturb(g, seat, rng):
    """Change only what `seat` cannot know: the opponent's Divers with the Diver pile (and any
    Divers the opponent drew with the Submarine), the Special deck order and the opponent's
    kept Special (or the Nemo holder's draft), the Domain pile order."""
    opp = 1 - seat
    drawn = g["sub_drawn"] if g["phase"] == "submarine" and g["start_turn"] == opp else []
    pool = g["hands"][opp] + g["diver_pile"] + drawn
    rng.shuffle(pool)
    k = len(g["hands"][opp])
    g["hands"][opp] = sorted(pool[:k])
    if drawn:
        g["sub_drawn"] = sorted(pool[k : k + 2])
        k += 2
    g["diver_pile"] = pool[k:]
    unseen = []
    if g["nemo"] == opp and g["phase"] == "draft":
        unseen = g["draft"]
    elif g["nemo"] == opp and g["specials"][opp] and g["specials"][opp][0] != g["given"]:
        unseen = g["specials"][opp]
    specials = g["special_deck"] + unseen
    rng.shuffle(specials)
    if g["nemo"] == opp and g["phase"] == "draft":
        g["draft"] = sorted(specials[: len(unseen)])
    elif unseen:
        g["specials"][opp] = specials[: len(unseen)]
    g["special_deck"] = specials[len(unseen) :]
    rng.shuffle(g["domain_pile"])
    return g


PLAYS = [Run(2, 1000, both_modes)]
NO_LEAK = [Run(2, 20, both_modes)]
REPLAYS = [Run(2, 20, both_modes)]
NOTATION = [Run(2, 15, both_modes, first=600)]
SEED_HIDDEN = [Run(2, 1, first=700)]
BOTS_LEGAL = [Run(2, 10, both_modes, first=500)]
GOLDEN = Run(2, 1, first=42)
BOT_MATCHES = [(Run(2, 200, first=10_000), 101)]


def perturb_changes_the_opponents_hand_not_the_seats_own():
    m, _ = runner.start(GAME, 2, None, seed_of(3), 1)
    changed = 0
    for k in range(10):
        g = perturb(json.loads(json.dumps(m["state"])), 0, Rng(seed_of(900 + k)))
        changed += g["hands"][1] != m["state"]["hands"][1]
        assert g["hands"][0] == m["state"]["hands"][0]
    assert changed > 5


def cards_in(data):
    found = []
    for key in ("card", "back"):
        if isinstance(data.get(key), int):
            found.append(data[key])
    found += [c for c in data.get("cards", []) if isinstance(c, int)]
    return found


def log_entries_show_hidden_cards_only_to_those_who_saw_them():
    """A Diver named in an entry is on the board (public), or the entry is only for seats that
    held the card or saw it (their hand, their Submarine draw, their Eye); a Special named in
    a public entry has been used in public."""

    def step(before, seat, action, after, entries):
        b, a = before["state"], after["state"]
        for e in entries:
            for c in cards_in(e.data):
                if e.to is None:
                    public = [c for r in b["board"] + a["board"] for c in r]
                    if action["type"] == "place":
                        public.append(action["card"])
                    assert c in public, f"{e.text} shows {c} to everyone"
                    continue
                for s in e.to:
                    known = b["hands"][s] + a["hands"][s]
                    if s == seat:
                        known += b["sub_drawn"] + a["sub_drawn"]
                    if a["eye"] and a["eye"]["seat"] == s:
                        known += a["eye"]["hand"]
                    assert c in known, f"{e.text} shows {c} to seat {s}"
            if e.to is None:
                assert "specials" not in e.data and "special" not in e.data
                for name in N.SPECIALS:
                    if name in e.text:
                        used = [u["special"] for u in a["used"] + b["used"]]
                        used.append(N.CARD_NAME.get(action.get("card")))
                        assert name in used or "Special" in e.text, e.text

    for i in range(40):
        play(GAME, 2, both_modes(i), seed_of(200 + i), on_step=step)


def log_entries_hide_the_kept_special_from_the_opponent():
    def step(before, seat, action, after, entries):
        if action["type"] != "keep":
            return
        kept = action["special"]
        for e in entries:
            if e.visible_to(1 - seat) or e.to is None:
                assert kept not in e.text and kept not in str(e.data)

    for i in range(40):
        play(GAME, 2, None, seed_of(300 + i), on_step=step)


SPECIFICS = (
    perturb_changes_the_opponents_hand_not_the_seats_own,
    log_entries_show_hidden_cards_only_to_those_who_saw_them,
    log_entries_hide_the_kept_special_from_the_opponent,
)
