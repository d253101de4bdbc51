"""The games' own words in the reader's language (service/play/phrases.py): every sentence the
engine writes for Buttons, Con Sonar!, Nautilus and The Nine Domains (log lines, outcomes'
reasons, moves' descriptions, notation help), over random games with their options, is known to their phrasebook and said in Russian and Italian, in the
reader's voice; English readers read the engine's own words."""

import random
import re

import pytest

from engine import match as runner
from engine import registry
from service.play import logview, phrases
from service.words import speaking

SEED = b"\x07" * 32
TITLES = {
    "buttons": ((2, {}), (3, {}), (4, {})),
    "consonar": ((2, {}), (3, {}), (6, {})),
    "nautilus": ((2, {}), (2, {"hidden_domains": True}), (2, {})),
    "ninedomains": ((2, {}), (2, {"specials": "per_round"}), (2, {"full_purple": False})),
}
"""Each title's games: seats and options (the options change what the log says)."""


def sentences(name: str, n: int, options: dict, i: int) -> list[tuple[str, int | None]]:
    """(text, reader) of one random game of `name` with `n` seats and `options`: its log lines as each seat
    that may read them reads them, the words of every legal move offered, its reason to end;
    a seat resigns halfway through (its lines too)."""
    game = registry.GAMES[name]
    rnd = random.Random(f"{name}-{n}-{i}")
    seed = bytes([i]) * 32
    match, entries = runner.start(game, n, options, seed, 1)
    found = [(e.text, r) for e in entries for r in [None, *range(n)] if e.visible_to(r)]
    version, resigned = 1, False
    while match["outcome"] is None and version < 600:
        seat = rnd.choice(sorted(runner.active_seats(game, match)))
        if not resigned and version > 40 and n > 2:
            match, entries = runner.resign(game, match, seat, version + 1)
            resigned = True
        else:
            view = game.view(match["state"], seat)
            actions = runner.legal_actions(game, match, seat)
            found += [(game.describe(view, a), seat) for a in actions]
            match, entries = runner.act(game, match, seat, rnd.choice(actions), seed, version + 1)
        version += 1
        found += [(e.text, r) for e in entries for r in [None, *range(n)] if e.visible_to(r)]
    if match["outcome"] is not None:
        found.append((match["outcome"]["reason"], None))
    return found


@pytest.mark.slow  # whole games: a few seconds
@pytest.mark.parametrize("name", sorted(TITLES))
def test_every_sentence_of_a_game_is_said_in_russian_and_italian(name):
    seen = {(line, None) for line in registry.GAMES[name].info.notation}  # how moves are written
    for i, (n, options) in enumerate(TITLES[name]):
        seen.update(sentences(name, n, options, i))
    seats = [{"kind": "player", "name": f"Player{s}", "player_id": f"p_{s}"} for s in range(6)]
    names = [logview.seat_name(s) for s in seats]
    for language in ("ru", "it"):
        unknown = []
        with speaking(language):
            for text, reader in sorted(seen, key=str):
                said = phrases.say(name, text, names, reader)
                if said is None:
                    unknown.append(text)
                    continue
                assert "{seat" not in said and "%(" not in said, said
                assert language != "ru" or re.search("[а-яё]", said), ("left in English", said)
                mine = reader is not None and "{seat%d}" % reader in text
                assert not mine or names[reader] not in said, ("said to them as you", said)
        assert unknown == [], f"{len(unknown)} sentences of {name} have no {language} words"
    assert len(seen) > 100


def test_a_sentence_is_said_in_the_readers_voice_and_english_is_the_engines_own():
    seats = [
        {"kind": "player", "name": "Ada", "player_id": "p_1"},
        {"kind": "player", "name": "Bo", "player_id": "p_2"},
    ]
    rolled = "{seat0} rolled white 3, gold 5, black 1 2 4"
    with speaking("ru"):
        assert logview.game_words("buttons", rolled, seats, 1) == (
            "Ada бросает кубики: белый 3, золотой 5, чёрные 1 2 4"
        )
        assert logview.game_words("buttons", rolled, seats, 0).startswith("вы бросаете кубики")
        earned = "{seat1} earns 2 stars: 1 for opting out, 1 for colours red, 0 bonus"
        assert logview.game_words("buttons", earned, seats, 0) == (
            "Bo получает 2 звезды: 1 за отказ, 1 за цвета (красный), 0 за бонус"
        )
        five = earned.replace("earns 2", "earns 5")
        assert "5 звёзд" in logview.game_words("buttons", five, seats, 0)
    with speaking("it"):
        fired = "{seat1} fires r3 at b2 on rung 4: rolled 2 6, sunk!"
        assert logview.game_words("consonar", fired, seats, 0) == (
            "Bo lancia r3 contro b2 al livello 4: esce 2 6, affondato!"
        )
        move = "Play red +2 on {seat1}'s b1: rung 3 up to 5"
        assert logview.game_words("consonar", move, seats, 0) == (
            "Gioca rosso +2 per spostare il sottomarino b1 (Bo): su dal livello 3 al 5"
        )
    for language in ("en", None):
        with speaking(language):
            assert logview.game_words("buttons", rolled, seats, 0) == (
                "you rolled white 3, gold 5, black 1 2 4"
            )
    # a sentence its phrasebook does not know stays the engine's
    with speaking("it"):
        assert logview.game_words("nautilus", "{seat1} passes", seats, 0) == "Bo passes"
