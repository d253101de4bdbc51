"""The refusals in the reader's language (issue 38): the engine's refusals worded with values
are recognised by service/play/refusals.py and said in Russian and Italian (English as the
engine wrote them), every way the engine words a refusal with values is met here (found in
its source), and no refusal of the service is built at run time where no catalogue can say it."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from engine import match as runner
from engine import registry
from engine.core import GameError, OptionSpec, validate_options
from engine.games import consonar
from service.errors import Words
from service.play.refusals import REASONS, worded
from service.words import said, speaking
from tests.engine.hidden_bid import GAME as HIDDEN_BID

ROOT = Path(__file__).resolve().parents[2]
GAMES = registry.GAMES
NAMES = {"service/translations": "service.po", "web/translations": "messages.po"}
REFUSALS = {"GameError", "MalformedAction", "IllegalAction", "AlreadyLeft", "InvalidOptions"}


def _notation(game, text):
    return lambda: runner.read_action(GAMES[game], text)


def _action(game, action):
    return lambda: runner.read_action(GAMES[game], None, action)


def _options(info, options):
    return lambda: validate_options(info, options)


def _illegal():
    game = GAMES["nautilus"]
    match, _ = runner.start(game, 2, {}, b"s" * 16, 1)
    seat = next(iter(runner.active_seats(game, match)))
    return runner.act(game, match, seat, game.parse("place 7 opp3"), b"s" * 16, 2)


NO_OPTIONS = dataclasses.replace(HIDDEN_BID.info, options={})
TEXT_OPTION = dataclasses.replace(
    HIDDEN_BID.info, options={"name": OptionSpec("a", "a name", kind=str)}
)

WAYS = [  # each makes the engine refuse, with values
    lambda: runner.start(GAMES["consonar"], 7, {}, b"s" * 16, 1),
    lambda: consonar.end_subs_left(7, {}),  # the title's own check, for a caller past start()
    lambda: runner.start(GAMES["ninedomains"], 2, {"specials": "x"}, b"s" * 16, 1, recorded=True),
    _illegal,
    _action("buttons", {"type": "place"}),
    _options(GAMES["buttons"].info, {"colours": 3}),
    _options(NO_OPTIONS, {"rounds": 3}),
    _options(GAMES["buttons"].info, {"two_player_aside": "one"}),
    _options(GAMES["nautilus"].info, {"hidden_domains": 1}),
    _options(TEXT_OPTION, {"name": 3}),
    _options(GAMES["buttons"].info, {"two_player_aside": 3}),
    _options(GAMES["ninedomains"].info, {"specials": "always"}),
    _notation("buttons", "place 9 x"),
    _notation("buttons", "fly"),
    _action("buttons", {"type": "star", "row": "x", "col": 1}),
    _action("buttons", {"type": "zap"}),
    lambda: GAMES["consonar"].parse(5),
    _notation("consonar", "fleet r+7@r1"),
    _notation("consonar", "fleet r+1@r1"),
    _notation("consonar", "fly"),
    _action("consonar", {"type": "defuse", "card": "zz"}),
    _action("consonar", {"type": "zap"}),
    lambda: runner.split_steps(GAMES["consonar"], "fleet r+2@r1; torpedo x"),
    _notation("nautilus", "place 99 opp3"),
    _notation("nautilus", "place 7 opp9"),
    _notation("nautilus", "move me9 opp2"),
    _notation("nautilus", "keep fish"),
    _notation("nautilus", "move me2"),
    _notation("nautilus", "place 7"),
    _notation("nautilus", "fly"),
    _action("nautilus", {"type": "place", "card": 99, "side": "opp", "col": 3}),
    _action("nautilus", {"type": "keep", "special": "x"}),
    _action("nautilus", {"type": "zap"}),
    _notation("ninedomains", "play 3+ 0"),
    _notation("ninedomains", "swap-domain x"),
    _notation("ninedomains", "swap-card 9"),
    _notation("ninedomains", "fly"),
    _action("ninedomains", {"type": "zap"}),
]


def refusal(way) -> GameError:
    with pytest.raises(GameError) as refused:
        way()
    return refused.value


def raised_at(err: GameError) -> tuple[str, int]:
    tb = err.__traceback__
    assert tb is not None
    while tb.tb_next is not None:
        tb = tb.tb_next
    return str(Path(tb.tb_frame.f_code.co_filename).relative_to(ROOT)), tb.tb_lineno


def worded_refusals_of_the_engine() -> set[tuple[str, int]]:
    """Where the engine raises a refusal whose message is not a literal (an f-string, a sum)."""
    found = set()
    for path in sorted((ROOT / "engine").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
                continue
            name = getattr(node.exc.func, "id", getattr(node.exc.func, "attr", ""))
            message = node.exc.args[0] if node.exc.args else None
            if name in REFUSALS and not isinstance(message, ast.Constant):
                found.add((str(path.relative_to(ROOT)), node.lineno))
    return found


def test_every_refusal_the_engine_words_with_values_is_met_here():
    met = {raised_at(refusal(way)) for way in WAYS}
    assert len(worded_refusals_of_the_engine()) > 25
    assert sorted(worded_refusals_of_the_engine() - met) == [], "write a way to meet these"


@pytest.mark.parametrize("language", ["ru", "it"])
def test_the_engines_refusals_are_said_in_the_readers_language(language):
    used = set()
    for way in WAYS:
        english = refusal(way).message
        words = worded(english)
        assert isinstance(words, Words) and words == english, english
        used.add(words.msgid)
        with speaking(language):
            translated = said(words)
        assert translated != english, f"no {language} words for: {english}"
        for value in words.values.values():  # notation, cards and the player's text stay
            if not isinstance(value, Words):
                assert str(value) in translated, (value, translated)
    assert used == {r.said for r in REASONS}, "a reason no way meets"


def test_a_turns_step_says_its_own_reason_too():
    english = refusal(lambda: runner.split_steps(GAMES["consonar"], "fleet r+2@r1; fly")).message
    assert english == (
        "step 2 ('fly'): cannot read 'fly': write 'fleet r+2@r1', 'torpedo b2@y1', 'defuse r1', "
        "'delay p3' or 'end'"
    )
    with speaking("it"):
        assert said(worded(english)) == (
            "passo 2 ('fly'): impossibile leggere 'fly': scrivi 'fleet r+2@r1', 'torpedo b2@y1', "
            "'defuse r1', 'delay p3' o 'end'"
        )


def test_a_literal_refusal_of_the_engine_is_its_own_message():
    game = GAMES["nautilus"]
    match, _ = runner.start(game, 2, {}, b"s" * 16, 1)
    waiting = next(s for s in range(2) if s not in runner.active_seats(game, match))
    english = refusal(lambda: runner.act(game, match, waiting, {"type": "pass"}, b"s" * 16, 2))
    assert worded(english.message) == english.message
    with speaking("ru"):
        assert said(english.message) == "сейчас не ваш ход: партия ждёт другого игрока"


def _built_at_run_time(node: ast.expr) -> bool:
    if isinstance(node, ast.IfExp):  # a choice of Words is two messages; of strings, none
        return any(
            isinstance(branch, ast.Constant) or _built_at_run_time(branch)
            for branch in (node.body, node.orelse)
        )
    return isinstance(node, (ast.JoinedStr, ast.BinOp)) or (
        isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "format"
    )


@pytest.mark.slow
def test_no_refusal_of_the_service_is_built_at_run_time():
    """A ServiceError's (or TooMany's) message is a literal or Words: an f-string, a sum or a
    choice of strings is no message id, so no catalogue could say it."""
    built = []
    for path in sorted([*(ROOT / "service").rglob("*.py"), *(ROOT / "api").rglob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            index = {"ServiceError": 1, "TooMany": 0, "Words": 0}.get(name)
            if index is None or len(node.args) <= index:
                continue
            if _built_at_run_time(node.args[index]):
                built.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert built == []


@pytest.mark.parametrize("language", ["ru", "it"])
def test_a_refusal_in_both_catalogues_is_said_alike(language):
    """The engine's and the table talk's refusals are in the service's catalogue too (the
    answers to emailed moves quote them): the same words as the pages' and the API's."""

    def catalogue(path):
        with open(ROOT / path / language / "LC_MESSAGES" / NAMES[path], "rb") as f:
            return {m.id: m for m in read_po(f, locale=language) if m.id}

    service = catalogue("service/translations")
    pages = catalogue("web/translations")
    shared = [
        m
        for m in service.values()
        if any(p.startswith(("engine/", "service/play/talk.py")) for p, _ in m.locations)
    ]
    assert len(shared) > 40
    assert [m.id for m in shared if m.id in pages and pages[m.id].string != m.string] == []
