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


def test_too_many_requests_are_refused_in_the_clients_language(redis_client):
    """The rate limiter's 429 says its bucket and limits (notation, as configured) in the
    language asked for; the code stays rate/limited, the English is what it was."""
    from api.app import create_app
    from api.front_door import FrontDoor

    door = FrontDoor(limit_anonymous_per_ip="3/minute;100/hour", limit_reads_per_player="9/hour")
    client = create_app(redis_client, front_door=door).test_client()
    for _ in range(3):
        assert client.get("/v1/games/g_nothere").status_code == 401
    assert_said_in_each_language(
        answers(client, "get", "/v1/games/g_nothere", {}),
        429,
        "rate/limited",
        "too many requests (anonymous: at most 3/minute and 100/hour per address); wait the "
        "Retry-After seconds",
        "слишком много запросов (anonymous: не больше 3/minute и 100/hour с одного адреса); "
        "подождите столько секунд, сколько сказано в Retry-After",
        "troppe richieste (anonymous: al massimo 3/minute e 100/hour per indirizzo); aspetta "
        "i secondi di Retry-After",
    )
    token = client.post("/v1/players", json={"name": "Ada"}).json["token"]
    me = {"Authorization": f"Bearer {token}"}
    for _ in range(9):
        assert client.get("/v1/players/me", headers=me).status_code == 200
    said = client.get("/v1/players/me", headers={**me, **RUSSIAN})
    assert (said.status_code, said.json["code"]) == (429, "rate/limited")
    assert said.json["message"] == (
        "слишком много запросов (reads: не больше 9/hour на игрока); подождите столько секунд, "
        "сколько сказано в Retry-After"
    )
