"""The API's words in the language a client asks for with Accept-Language (issue 38): an error's
`message` and the catalog's descriptions in Russian or Italian, their codes unchanged, and in
English, word for word as before, when the client asks for none."""

import pytest

from tests.api.conftest import befriend

RUSSIAN, ITALIAN = {"Accept-Language": "ru-RU,ru;q=0.9,en;q=0.5"}, {"Accept-Language": "it"}


@pytest.fixture
def game(client, register):
    """A game of Nautilus between Ada and Bo at version 2, and the headers of the player whose
    turn it is."""
    (a, ha), (b, hb) = register("Ada"), register("Bo")
    befriend(client, hb, a)
    r = client.post("/v1/games", json={"game": "nautilus", "seats": [a, b]}, headers=ha)
    assert r.status_code == 201, r.json
    g = r.json["id"]
    active = client.get(f"/v1/games/{g}", headers=ha).json["active_seats"]
    return g, (ha, hb)[active[0]]


def answers(client, method, path, headers, json=None):
    """The same request in English (no Accept-Language), Russian and Italian."""
    return [
        getattr(client, method)(path, headers={**headers, **language}, json=json)
        for language in ({}, RUSSIAN, ITALIAN)
    ]


def assert_said_in_each_language(said, status, code, english, russian, italian):
    for r, message, language in zip(said, (english, russian, italian), ("en", "ru", "it")):
        assert (r.status_code, r.json["code"]) == (status, code), r.json
        assert r.json["message"] == message and r.json["detail"] == message
        assert r.headers["Content-Language"] == language
        assert "Accept-Language" in r.headers["Vary"]


def test_a_stale_move_is_refused_in_the_clients_language(client, game):
    g, ha = game
    said = answers(
        client, "post", f"/v1/games/{g}/moves", ha, {"notation": "pass", "expected_version": 7}
    )
    assert_said_in_each_language(
        said,
        409,
        "move/stale_version",
        "the game has moved on to version 2: read it again and send your move with that version",
        "партия ушла вперёд, к версии 2: прочитайте её заново и пошлите ход с этой версией",
        "la partita è andata avanti alla versione 2: rileggila e manda la tua mossa con quella "
        "versione",
    )
    assert [r.json["current_version"] for r in said] == [2, 2, 2]


def test_a_move_that_cannot_be_read_is_refused_in_the_clients_language(client, game):
    g, ha = game
    said = answers(
        client,
        "post",
        f"/v1/games/{g}/moves",
        ha,
        {"action": {"kind": "pass"}, "expected_version": 2},
    )
    assert_said_in_each_language(
        said,
        422,
        "move/malformed",
        'an action is an object with a "type"',
        'действие — это объект с полем "type"',
        'un\'azione è un oggetto con un campo "type"',
    )


def test_an_unknown_tournament_and_path_are_not_found_in_the_clients_language(client, register):
    _, ha = register("Ada")
    assert_said_in_each_language(
        answers(client, "get", "/v1/tournaments/t_nothere", ha),
        404,
        "tournament/not_found",
        "there is no tournament t_nothere",
        "турнира t_nothere нет",
        "non c'è nessun torneo t_nothere",
    )
    english, russian, italian = answers(client, "get", "/v1/nowhere", {})
    assert english.json["message"].startswith("The requested URL was not found on the server.")
    assert russian.json["message"] == "по этому пути нет операции (см. /openapi.json)"
    assert italian.json["message"] == "nessuna operazione ha questo percorso (vedi /openapi.json)"
    assert {r.json["code"] for r in (english, russian, italian)} == {"not_found"}


def test_the_first_language_of_ours_that_the_header_prefers_is_the_answers(client):
    def said(accept):
        r = client.post("/v1/players", json={}, headers={"Accept-Language": accept})
        return r.status_code, r.json["code"], r.headers["Content-Language"], r.json["message"]

    english = said("en")
    assert english[:3] == (422, "request/invalid", "en")
    assert english[3].startswith("the request does not match the schema: name: ")
    assert said("de-DE, fr;q=0.9") == english, "no language of ours: English"
    russian = said("de, it;q=0.3, ru;q=0.5")
    assert russian[2] == "ru"
    assert russian[3].startswith("запрос не соответствует схеме: name: ")


def test_the_catalogs_descriptions_in_italian(client):
    english = client.get("/v1/catalog")
    italian = client.get("/v1/catalog", headers=ITALIAN)
    assert italian.headers["Content-Language"] == "it"
    assert "Accept-Language" in italian.headers["Vary"]
    assert english.headers["Content-Language"] == "en"

    def options(answer):
        return {g["name"]: g["options"] for g in answer.json["games"]}

    nautilus_en, nautilus_it = options(english)["nautilus"], options(italian)["nautilus"]
    assert nautilus_en["anchor_placed_card"]["description"].startswith(
        "false: the Anchor, used as you place a card, pins one card already on the board"
    )
    assert nautilus_it["anchor_placed_card"]["description"].startswith(
        "false: l'Ancora, usata mentre piazzi una carta, blocca una carta già sul tabellone"
    )
    for name, game in options(english).items():
        for option, spec in game.items():
            translated = options(italian)[name][option]
            assert translated["description"] != spec["description"], (name, option)
            assert {**translated, "description": ""} == {**spec, "description": ""}
    days = english.json["vacation"]["days_a_year"]
    assert english.json["vacation"]["description"].startswith(
        f"Each player has {days} vacation days a calendar year (UTC)."
    )
    assert italian.json["vacation"]["description"].startswith(
        f"Ogni giocatore ha {days} giorni di vacanza per anno solare (UTC)."
    )
    assert italian.json["on_timeout"]["forfeit"] == "perde la partita"
    assert [g["name"] for g in italian.json["games"]] == [g["name"] for g in english.json["games"]]


def test_a_refusal_worded_with_values_is_said_in_the_clients_language(client, register):
    _, ha = register("Ada")
    assert_said_in_each_language(
        answers(client, "get", "/v1/games/g_nothere", ha),
        404,
        "game/not_found",
        "there is no game g_nothere",
        "партии g_nothere нет",
        "non c'è nessuna partita g_nothere",
    )


def test_a_missing_proposal_is_refused_in_the_clients_language(client, game):
    g, ha = game
    assert_said_in_each_language(
        answers(client, "post", f"/v1/games/{g}/proposals/7/answer", ha, {"accept": True}),
        404,
        "proposal/not_found",
        "this game has no open proposal 7 (answered, withdrawn or lapsed)",
        "в этой партии нет открытого предложения 7 (на него ответили, его отозвали или его срок "
        "истёк)",
        "questa partita non ha nessuna proposta aperta 7 (ha avuto risposta, è stata ritirata o "
        "è scaduta)",
    )


def test_the_engines_refusals_with_values_are_said_in_the_clients_language(client, game):
    g, ha = game
    legal = client.get(f"/v1/games/{g}/legal-moves", headers=ha).json["moves"]
    assert "place 7 opp3" not in [m["notation"] for m in legal]
    assert_said_in_each_language(
        answers(
            client,
            "post",
            f"/v1/games/{g}/moves",
            ha,
            {"notation": "place 7 opp3", "expected_version": 2},
        ),
        409,
        "move/illegal",
        "place 7 opp3 is not allowed now",
        "ход place 7 opp3 сейчас не разрешён",
        "la mossa place 7 opp3 ora non è consentita",
    )
    said = answers(
        client,
        "post",
        f"/v1/games/{g}/moves",
        ha,
        {"notation": "place 7 opp9", "expected_version": 2},
    )
    assert [r.json["code"] for r in said] == ["move/malformed"] * 3
    english, russian, italian = (r.json["message"] for r in said)
    assert english.startswith("cannot read 'place 7 opp9': 'opp9' is not a space;")
    assert russian.startswith("не удаётся прочитать 'place 7 opp9': 'opp9' — не клетка;")
    assert italian.startswith("impossibile leggere 'place 7 opp9': 'opp9' non è uno spazio;")
    assert [r.headers["Content-Language"] for r in said] == ["en", "ru", "it"]
