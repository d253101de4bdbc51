"""bot:expert (engine/bots/search.py) and the determinizers it searches with: a world drawn
for a seat depends on nothing but what that seat sees, agrees with what it sees, and draws the
hidden cards again; the expert plays a legal move, the same one from the same randomness."""

import dataclasses
import importlib

import pytest

from engine import match as runner
from engine import registry
from engine.bots import buttons as buttons_bots
from engine.bots import consonar as consonar_bots
from engine.bots import nautilus as nautilus_bots
from engine.bots.search import (
    MIN_TRIES,
    ExpertParts,
    Luck,
    clone,
    expert_move,
    paired_choice,
    playout,
)
from engine.games.buttons import place_actions
from engine.rng import Rng

pytestmark = pytest.mark.slow  # the expert's searches take a second each

SEARCHING = sorted(registry.EXPERTS)


def positions(name: str, games: int = 12, every: int = 3):
    """(state, seat) along random games of two and, where the title allows, three players;
    Nautilus with hidden domains every other game."""
    game = registry.GAMES[name]
    counts = [2] + ([3] if game.info.max_players >= 3 else [])
    for i in range(games):
        n = counts[i % len(counts)]
        seed = f"expert-{name}-{i}".encode().ljust(32, b".")
        picker = Rng(seed)
        options = {"hidden_domains": True} if name == "nautilus" and i % 2 else None
        m, _ = runner.start(game, n, options, seed, 1)
        version, step = 1, 0
        while m["outcome"] is None:
            if step % every == 0:
                for seat in range(n):
                    yield m["state"], seat
            seat = picker.choice(sorted(runner.active_seats(game, m)))
            action = picker.choice(runner.legal_actions(game, m, seat))
            version += 1
            step += 1
            m, _ = runner.act(game, m, seat, action, seed, version)


def test_the_titles_whose_bots_search():
    assert SEARCHING == ["buttons", "consonar", "nautilus", "ninedomains"]


@pytest.mark.parametrize("name", sorted(registry.GAMES))
def test_each_bot_module_declares_its_experts_parts_beside_its_bots(name):
    """The search reads the parts a bot module declares in one value, `EXPERT`, which the
    registry hands it with the title: nothing is looked up on the module by name."""
    bots = importlib.import_module(f"engine.bots.{name}")
    assert isinstance(bots.EXPERT, ExpertParts)
    assert registry.EXPERTS[name] is bots.EXPERT
    assert registry.GAMES[name].bots is bots.BOTS


@pytest.mark.parametrize("name", SEARCHING)
def test_a_drawn_world_depends_only_on_what_the_seat_sees(name):
    """Two states the seat cannot tell apart (the real one, and one drawn for it) give the
    same world from the same randomness: the search cannot learn what the seat does not know."""
    game = registry.GAMES[name]
    determinize = registry.EXPERTS[name].determinize
    checked = 0
    for state, seat in positions(name):
        before = clone(state)
        other = determinize(state, seat, Rng(b"a" * 32))
        assert state == before, "the real state is left as it was"
        assert game.view(other, seat) == game.view(state, seat)
        assert game.legal_actions(other, seat) == game.legal_actions(state, seat)
        assert determinize(state, seat, Rng(b"b" * 32)) == determinize(other, seat, Rng(b"b" * 32))
        checked += 1
    assert checked > 40


@pytest.mark.parametrize("name", ["consonar", "nautilus", "ninedomains"])
def test_what_the_seat_cannot_see_is_drawn_again(name):
    determinize = registry.EXPERTS[name].determinize
    state, seat = next(iter(positions(name, games=1)))
    other = 1 - seat
    worlds = [determinize(state, seat, Rng(bytes([i]) * 32)) for i in range(20)]
    assert len({str(w["hands"][other]) for w in worlds}) > 1 or name == "ninedomains"
    piles = {"ninedomains": "piles", "consonar": "fleet_deck", "nautilus": "domain_pile"}[name]
    assert len({str(w[piles]) for w in worlds}) > 1
    assert all(w["hands"][seat] == state["hands"][seat] for w in worlds), "its own hand is kept"


def test_the_others_decision_on_a_roll_is_drawn_again_in_buttons():
    determinize = registry.EXPERTS["buttons"].determinize
    for state, seat in positions("buttons", every=1):
        decided = [
            s
            for s, choice in enumerate(state["choices"])
            if s != seat and choice is not None and seat in state["waiting"]
        ]
        if state["phase"] == "place" and decided:
            other = decided[0]
            drawn = [
                determinize(state, seat, Rng(bytes([i]) * 32))["choices"][other] for i in range(30)
            ]
            undecided = clone(state)
            undecided["choices"][other] = None
            could = place_actions(undecided, other)
            assert all(choice in could for choice in drawn)
            assert len({str(choice) for choice in drawn}) == len(could) > 1, "any of them"
            return
    pytest.fail("no position where another seat had decided first")


@pytest.mark.parametrize("name", SEARCHING)
def test_the_expert_plays_a_legal_move_and_the_same_one_from_the_same_randomness(name):
    game = registry.GAMES[name]
    for k, (state, seat) in enumerate(positions(name, games=2, every=7)):
        legal = game.legal_actions(state, seat)
        if not legal:
            continue

        def tries(n):
            left = [n]

            def more():
                left[0] -= 1
                return left[0] >= 0

            return more

        expert = registry.EXPERTS[name]
        chosen = expert_move(
            game, expert, state, seat, legal, Rng(bytes([k % 256]) * 32), tries(12)
        )
        again = expert_move(game, expert, state, seat, legal, Rng(bytes([k % 256]) * 32), tries(12))
        assert chosen in legal and chosen == again


def test_nautilus_candidates_come_best_first_as_the_heuristic_values_them():
    """The expert widens its search in the order of `rank`: it begins with the heuristic's
    own placement, and the others follow by the heuristic's worth, not at random."""
    game = registry.GAMES["nautilus"]
    placements = 0
    for state, seat in positions("nautilus", games=4, every=2):
        legal = game.legal_actions(state, seat)
        if len(legal) < 3 or legal[0]["type"] not in ("place", "move"):
            continue
        view = game.view(state, seat)
        ranked = nautilus_bots.rank(view, legal)
        assert sorted(map(str, ranked)) == sorted(map(str, legal))
        assert ranked[0] == nautilus_bots.heuristic_bot(view, legal, Rng(b"r" * 32))
        worth = nautilus_bots._placement_score(view)
        assert [worth(a) for a in ranked] == sorted((worth(a) for a in legal), reverse=True)
        placements += 1
    assert placements > 20


def test_buttons_playouts_stop_when_the_next_round_begins_valued_by_the_lead():
    """The expert's Buttons playouts end with the round: nothing to say while it lasts, then
    the seat's chance from its lead in stars and in its best run of five."""
    m, _ = runner.start(registry.GAMES["buttons"], 2, None, b"c" * 32, 1)
    start = m["state"]
    assert buttons_bots.cutoff(start, 0)(start) is None
    later = clone(start)
    later["round"] += 1
    assert buttons_bots.cutoff(start, 0)(later) == 0.5  # no stars yet on either board
    later["boards"][0] = "***" + later["boards"][0][3:]
    assert buttons_bots.cutoff(start, 0)(later) > 0.9
    assert buttons_bots.cutoff(start, 1)(later) < 0.1


def test_luck_gives_a_seats_kth_action_its_own_dice_whatever_came_before():
    """The paired search's common random numbers: seat 1's first action draws the same dice
    whether or not seat 0 acted first (an opt-out and a roll leave the others' luck alone)."""

    def dice(rng: Rng) -> list[int]:
        return [rng.between(1, 6) for _ in range(12)]

    quiet, busy = Luck(b"l" * 16), Luck(b"l" * 16)
    dice(busy.of(0))
    dice(busy.of(0))
    assert dice(busy.of(1)) == dice(quiet.of(1))
    assert dice(Luck(b"l" * 16).of(0)) != dice(Luck(b"l" * 16).of(1)), "each seat its own"


@pytest.mark.parametrize("name", ["buttons", "consonar"])
def test_the_same_move_in_the_same_world_with_the_same_luck_ends_alike(name):
    """What makes the paired comparison fair: a playout depends on the move, the world and
    the luck only, so two moves are compared on equal terms."""
    game = registry.GAMES[name]
    determinize = registry.EXPERTS[name].determinize
    cutoff = registry.EXPERTS[name].cutoff
    compared = varied = 0
    for state, seat in positions(name, games=2, every=9):
        legal = game.legal_actions(state, seat)
        if len(legal) < 2:
            continue
        results = [
            playout(
                game, determinize(state, seat, Rng(b"w" * 32)), seat, legal[0], Luck(luck), cutoff
            )
            for luck in (b"a" * 16, b"a" * 16, b"b" * 16, b"c" * 16, b"d" * 16)
        ]
        assert results[0] == results[1]
        compared += 1
        varied += len(set(results[1:])) > 1
    assert compared > 5
    assert varied, "other luck, other ends: the luck is what the playout draws from"


def test_the_paired_search_plays_a_move_only_when_its_lead_exceeds_the_titles_margin():
    """A move ahead of the heuristic's by most of a standard error is played at confidence 0
    and not at 1 (Con Sonar!'s choice_confidence); one ahead by one and a half at 1 and not at
    2 (the default); one far ahead at any; one tried fewer than MIN_TRIES times, or behind,
    never."""

    def stats(*candidates: tuple[int, float, float]):
        """(tries, mean, spread) of each candidate's differences; candidate 0 is the heuristic's."""
        n, total, squares = [0], [0.0], [0.0]
        for tries, mean, spread in candidates:
            n.append(tries)
            total.append(mean * tries)
            squares.append((spread**2 + mean**2) * tries)
        return n, total, squares

    narrow = stats((100, 0.025, 0.3), (MIN_TRIES - 1, 0.5, 0.3), (100, -0.05, 0.3))
    assert paired_choice(*narrow, confidence=0.0) == 1
    assert paired_choice(*narrow, confidence=1.0) == 0
    wider = stats((100, 0.045, 0.3), (100, 0.01, 0.3))
    assert paired_choice(*wider, confidence=1.0) == 1
    assert paired_choice(*wider, confidence=2.0) == 0
    clear = stats((100, 0.03, 0.3), (100, 0.2, 0.3))
    assert paired_choice(*clear, confidence=0.0) == 2
    assert paired_choice(*clear, confidence=2.0) == 2
    behind = stats((100, -0.01, 0.3), (MIN_TRIES - 1, 0.9, 0.1))
    assert paired_choice(*behind, confidence=0.0) == 0


def test_the_whole_search_reads_the_margin_from_the_titles_declared_parts():
    """expert_move takes the margin from the parts it is given, Con Sonar!'s as its bot
    module declares them: with a margin no lead can pass, its expert plays the heuristic's
    move everywhere; with its own margin it departs from it somewhere on the same positions
    and randomness."""
    game = registry.GAMES["consonar"]
    heuristic = game.bots["heuristic"]

    def departures(expert: ExpertParts) -> int:
        count = 0
        for k, (state, seat) in enumerate(positions("consonar", games=1, every=8)):
            legal = game.legal_actions(state, seat)
            if len(legal) < 2:
                continue
            left = [30]

            def more() -> bool:
                left[0] -= 1
                return left[0] >= 0

            chosen = expert_move(game, expert, state, seat, legal, Rng(bytes([k % 256]) * 32), more)
            count += chosen != heuristic(game.view(state, seat), legal, Rng(b"h" * 32))
        return count

    assert consonar_bots.EXPERT.choice_confidence == 1.0
    assert departures(consonar_bots.EXPERT) > 0
    assert departures(dataclasses.replace(consonar_bots.EXPERT, choice_confidence=1e9)) == 0
