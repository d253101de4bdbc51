"""The composer builds forms from the legal actions alone: over random positions of every game,
each form's choices offer exactly the values the legal actions take, every field is named in
the game's words (GameInfo.field_words), and every legal action, submitted as the form would
send it, is found again; a combination that is not legal is found as none."""

import json
import random

import pytest

from engine import match as runner
from engine import registry
from service.play import composer


@pytest.mark.slow  # over a second: not in make test-fast
def test_forms_offer_exactly_the_legal_actions_in_the_games_words():
    rnd = random.Random(5)
    for name, game in sorted(registry.GAMES.items()):
        words = game.info.field_words
        seed = bytes(range(32))
        m, _ = runner.start(game, game.info.min_players, None, seed, 1)
        version = 2
        for _ in range(60):
            if m["outcome"] is not None:
                break
            seat = rnd.choice(sorted(runner.active_seats(game, m)))
            legal = game.legal_actions(m["state"], seat)
            forms = {f.action_type: f for f in composer.forms(legal, words)}
            for action in legal:
                form = forms[action["type"]]
                assert all(c.name in words for c in form.choices), (name, form)
                fields = {"type": action["type"]}
                for choice in form.choices:
                    key, _, index = choice.name.partition(".")
                    value = action[key][int(index)] if index else action[key]
                    assert json.dumps(value) in dict(choice.options), (name, choice.name)
                    fields[choice.name] = json.dumps(value)
                assert composer.action_from(fields, legal) == action
            action = rnd.choice(legal)
            m, _ = runner.act(game, m, seat, action, seed, version)
            version += 1
    ninedomains = registry.GAMES["ninedomains"]
    m, _ = runner.start(ninedomains, 2, None, bytes(range(32)), 1)
    legal = ninedomains.legal_actions(m["state"], 0)
    (form,) = composer.forms(legal, ninedomains.info.field_words)
    assert [c.label for c in form.choices] == ["left slot", "middle slot", "right slot"]
    same_card_thrice = {
        "type": "play",
        **{f"cards.{i}": json.dumps(legal[0]["cards"][0]) for i in range(3)},
    }
    assert composer.action_from(same_card_thrice, legal) is None


def test_a_fields_options_are_its_values_once_each_in_order_told_apart_by_their_json():
    """1, True and "1" are three options (Python finds 1 == True); a value met again is not
    offered twice, whether every value is plain or some are lists."""
    plain = [{"type": "t", "x": v} for v in (1, True, "1", None, 1, True, 0, False, "1")]
    (form,) = composer.forms(plain)
    assert form.choices[0].options == (
        ("1", "1"),
        ("true", "True"),
        ('"1"', "1"),
        ("null", "none"),
        ("0", "0"),
        ("false", "False"),
    )
    mixed = [{"type": "t", "x": v} for v in (1, [1, 2], True, [1, 2], 1, "a")]
    (form,) = composer.forms(mixed)
    assert form.choices[0].options == (
        ("1", "1"),
        ("[1, 2]", "[1, 2]"),
        ("true", "True"),
        ('"a"', "a"),
    )
