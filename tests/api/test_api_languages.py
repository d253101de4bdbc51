"""The API's words in the language a client asks for with Accept-Language (issue 38): an error's
`message` and the catalog's descriptions in Russian or Italian, their codes unchanged, and in
English, word for word as before, when the client asks for none."""

import base64

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

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


def test_a_bodys_field_by_field_errors_are_said_in_the_clients_language(client, register):
    """marshmallow's words in a 422's `errors` (and the message that sums them up) in the
    language asked for; the field names, the values quoted (limits, choices) and the code stay
    as they are, and English is marshmallow's own, word for word."""
    _, ha = register("Ada")
    body = {
        "game": 5,
        "seats": [],
        "bogus": 1,
        "time_control": {"per_move_seconds": -3, "on_timeout": "zzz"},
    }
    english, russian, italian = answers(client, "post", "/v1/games", ha, body)
    assert english.json["errors"] == {
        "json": {
            "game": ["Not a valid string."],
            "seats": ["Length must be between 1 and 6."],
            "bogus": ["Unknown field."],
            "time_control": {
                "per_move_seconds": [
                    "Must be greater than or equal to 1 and less than or equal to 4838400."
                ],
                "on_timeout": ["Must be one of: auto, forfeit."],
            },
        }
    }
    assert russian.json["errors"] == {
        "json": {
            "game": ["Не строка."],
            "seats": ["Длина должна быть от 1 до 6."],
            "bogus": ["Неизвестное поле."],
            "time_control": {
                "per_move_seconds": ["Должно быть не меньше 1 и не больше 4838400."],
                "on_timeout": ["Должно быть одним из: auto, forfeit."],
            },
        }
    }
    assert russian.json["message"].startswith("запрос не соответствует схеме: game: Не строка.;")
    assert "on_timeout: Должно быть одним из: auto, forfeit." in russian.json["message"]
    assert italian.json["errors"]["json"]["bogus"] == ["Campo sconosciuto."]
    assert italian.json["errors"]["json"]["seats"] == ["La lunghezza deve essere tra 1 e 6."]
    for r, language in zip((english, russian, italian), ("en", "ru", "it")):
        assert (r.status_code, r.json["code"]) == (422, "request/invalid")
        assert r.headers["Content-Language"] == language
    missing = client.post("/v1/games", json={}, headers={**ha, **ITALIAN})
    assert missing.json["errors"]["json"]["game"] == ["Dato mancante per un campo obbligatorio."]
    query = client.get("/v1/games?limit=abc", headers={**ha, **RUSSIAN})
    assert query.json["errors"] == {"query": {"limit": ["Не целое число."]}}


def test_every_message_marshmallow_words_for_our_fields_is_read_back_and_translated(app):
    """marshmallow's own messages (as the installed version words them), each read back as a
    template of api/field_words.py and said in Russian and Italian: a version of marshmallow
    that words one differently fails here, not silently in English."""
    from marshmallow import ValidationError, fields, validate

    from api import field_words
    from api.languages import said_in

    worded = []
    for field in (
        fields.String(),
        fields.Integer(),
        fields.Float(),
        fields.Boolean(),
        fields.List(fields.Integer()),
        fields.Dict(),
        fields.Email(),
        fields.Url(),
        fields.UUID(),
        fields.Date(),
        fields.DateTime(),
        fields.TimeDelta(),
    ):
        try:
            field.deserialize(object())
        except ValidationError as refused:
            worded += refused.messages
    checks = [
        (validate.Range(min=1), 0),
        (validate.Range(max=9), 10),
        (validate.Range(min=1, min_inclusive=False), 1),
        (validate.Range(max=9, max_inclusive=False), 9),
        (validate.Range(min=1, max=9), 0),
        (validate.Range(1, 9, min_inclusive=False), 1),
        (validate.Range(1, 9, max_inclusive=False), 9),
        (validate.Range(1, 9, min_inclusive=False, max_inclusive=False), 9),
        (validate.Length(min=2), "a"),
        (validate.Length(max=1), "ab"),
        (validate.Length(2, 3), "a"),
        (validate.Length(equal=2), "a"),
        (validate.OneOf(["auto", "forfeit"]), "x"),
        (validate.Equal(3), 4),
        (validate.Regexp("^a$"), "b"),
        (validate.ContainsOnly(["a"]), ["b"]),
    ]
    for validator, value in checks:
        try:
            validator(value)
        except ValidationError as refused:
            worded += refused.messages
    worded += [fields.Field().error_messages[key] for key in ("required", "null")]
    assert len(worded) == 30
    with app.test_request_context():
        for message in worded:
            found = field_words.words_of(message)
            assert found == message  # read back to the same English
            for language in ("ru", "it"):
                assert said_in(found, language) != message, (language, message)
    assert field_words.words_of("Must be greater than 1.").values == {"min": "1"}


def test_a_validators_refusals_are_said_in_the_clients_language(client, register):
    """The words of the checks under the service (an address that mail cannot carry, a webhook
    or push service URL that is not safe, a push subscription's keys) are the catalogue's too."""
    said = answers(
        client, "post", "/v1/players", {}, {"name": "Ada", "webhook_url": "http://example.org/h"}
    )
    assert_said_in_each_language(
        said,
        422,
        "player/unsafe_webhook",
        "a webhook URL must start with https://",
        "адрес (URL) вебхука должен начинаться с https://",
        "l'URL di un webhook deve cominciare con https://",
    )
    said = answers(client, "post", "/v1/sign-in", {}, {"email": "ünï@example.org"})
    assert_said_in_each_language(
        said,
        422,
        "request/invalid",
        "the part of an email address before the @ must be plain ASCII letters, digits and "
        "signs (not every mail server can carry others)",
        "часть адреса почты до @ должна состоять из обычных латинских букв, цифр и знаков "
        "ASCII (не каждый почтовый сервер передаёт другие)",
        "la parte di un indirizzo email prima della @ deve essere di sole lettere, cifre e "
        "segni ASCII (non ogni server di posta ne trasporta altri)",
    )
    domain = "xn--ü.example"  # no IDNA label: "xn--" is for ASCII
    said = answers(client, "post", "/v1/players", {}, {"name": "Ada", "email": f"ada@{domain}"})
    assert_said_in_each_language(
        said,
        422,
        "player/invalid",
        f"'{domain}' is not a domain name",
        f"'{domain}' — не имя домена",
        f"'{domain}' non è un nome di dominio",
    )
    _ada, headers = register("Ada")
    keys = {"p256dh": "A" * 87, "auth": "A" * 22}  # 65 bytes, but no point of P-256
    said = answers(
        client,
        "post",
        "/v1/players/me/push-subscriptions",
        headers,
        {"endpoint": "https://push.example.org/x", "keys": keys},
    )
    assert_said_in_each_language(
        said,
        422,
        "push/invalid_subscription",
        "the subscription's p256dh key is not an uncompressed P-256 point",
        "ключ p256dh подписки — не несжатая точка P-256",
        "la chiave p256dh dell'iscrizione non è un punto P-256 non compresso",
    )
    point = (
        ec.generate_private_key(ec.SECP256R1())
        .public_key()
        .public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    keys = {"p256dh": base64.urlsafe_b64encode(point).decode().rstrip("="), "auth": "A" * 22}
    said = answers(
        client,
        "post",
        "/v1/players/me/push-subscriptions",
        headers,
        {"endpoint": "http://push.example.org/x", "keys": keys},
    )
    assert_said_in_each_language(  # what the URL is for is said in the language too
        said,
        422,
        "push/unsafe_endpoint",
        "a push service URL must start with https://",
        "адрес (URL) службы push должен начинаться с https://",
        "l'URL di un servizio push deve cominciare con https://",
    )
