"""A game's page in its reader's language (issue 38): the words the service says of a game (the
log's lines, the board's labels, the moves' descriptions, the clocks) follow the reader, so a
Russian reader of Buttons and an Italian reader of Con Sonar! read none of them in English,
each game in its own vocabulary (Buttons' Russian page: пуговицы, кубики, отказаться от
участия; Con Sonar!'s Italian one: carte Flotta e Siluro, livelli), while the English reader
of the same game reads what they always did. Through Flask's test client, on a real Valkey."""

import html
import json
import random
import re

import pytest

from tests.web.conftest import Browser, sign_up

DAY = 86400
BANK = {
    "kind": "bank",
    "initial_seconds": 3 * DAY,
    "increment_seconds": DAY // 2,
    "max_seconds": 5 * DAY,
    "on_timeout": "auto",
}


def reader(app, services, smtp, name, language):
    browser = Browser(app)
    sign_up(browser, services, smtp, name, f"{name.lower()}@example.org")
    browser.get("/settings")
    settings = {"name": name, "email": f"{name.lower()}@example.org", "language": language}
    assert browser.post("/settings", settings).status_code == 303
    return browser, services.players.named(name, 1)[0]["id"]


def play_until(services, game_id, players, done, rnd, limit=400):
    """Random legal moves by whoever may move, until `done(legal moves of players[0])`."""
    for _ in range(limit):
        mine = services.games.legal_moves(game_id, players[0])
        if done(mine):
            return mine
        movers = [(p, m) for p in players if (m := services.games.legal_moves(game_id, p))["moves"]]
        player, moves = rnd.choice(movers)
        move = rnd.choice(moves["moves"])
        services.games.play(game_id, player, moves["version"], action=move["action"])
    raise AssertionError("the game never came there")


def page_text(browser, game_id):
    """The page's words (tags out, entities read, the scripts' data blocks read: the moves'
    words and the board parts' labels are there)."""
    page = browser.text(f"/games/{game_id}")
    data = re.findall(r'<script type="application/json"[^>]*>(.*?)</script>', page, re.S)
    words = html.unescape(re.sub(r"<[^>]+>", " ", page))
    return page, words + " ".join(json.dumps(json.loads(d), ensure_ascii=False) for d in data)


@pytest.mark.slow
def test_a_russian_reader_reads_buttons_in_russian_and_an_english_one_in_english(
    app, services, smtp
):
    anya, anya_id = reader(app, services, smtp, "Anya", "ru")
    bob, bob_id = reader(app, services, smtp, "Bob", "en")
    services.players.set_friends(bob_id, [anya_id])
    game = services.games.create(anya_id, "buttons", [anya_id, bob_id], time_control=BANK)["id"]

    def anya_rolls_after_a_round(legal):
        rolls = any(m["action"]["type"] == "roll" for m in legal["moves"])
        return rolls and services.games.load(game)["version"] > 12

    play_until(services, game, [anya_id, bob_id], anya_rolls_after_a_round, random.Random(38))

    page, words = page_text(anya, game)
    assert '<html lang="ru">' in page
    # the log: what the players did, in Buttons' Russian words, and Anya's own as "вы"
    assert re.search(r"(Bob|вы) бросае?те? кубики: белый \d, золотой \d, чёрные", words)
    assert "После вашего последнего хода" in words
    # the board: its labels
    assert re.search(r"Раунд \d+", words) and "Anya (вы)" in words
    assert re.search(r"очки: \d+", words) and "Буквы" not in words  # the text board is not here
    assert "пуговица этого раунда" in words
    # the moves: hers to make now
    assert "Бросить кубики" in words
    # the clocks
    assert re.search(r"осталось: \d+ (дня|дней|день)", words)
    assert re.search(r"в запасе: \d+ (дня|дней|день)", words)
    assert "срок через " in words
    assert "Запас времени 3 дня, +12 часов за ход, не более 5 дней" in words
    english = [
        "rolled white",
        "placed a button",
        "opted out",
        "Roll the dice",
        "Since your last move",
        "in the bank",
        " left;",
        "deadline in",
        "(you)",
        "in the round",
        "a time bank of",
        "row 1, column",
        "a button of this round",
        "Your turn",
    ]
    assert [e for e in english if e in words] == []
    assert "|" not in words, "a word's marks of where it may break stay out of sight"

    _, bobs = page_text(bob, game)
    assert re.search(r"(Anya|you) rolled white \d, gold \d, black", bobs)
    assert "Since your last move" in bobs and "Bob (you)" in bobs
    assert re.search(r"Round \d+", bobs) and re.search(r"\d+ days? .*in the bank", bobs)
    assert "A time bank of 3 days, +12 hours a move, at most 5 days" in bobs
    assert not re.search("[а-яё]", bobs.split("Русский")[0].split("Since your last move")[1])


@pytest.mark.slow
def test_an_italian_reader_reads_con_sonar_in_italian(app, services, smtp):
    lia, lia_id = reader(app, services, smtp, "Lia", "it")
    bob, bob_id = reader(app, services, smtp, "Bob", "en")
    services.players.set_friends(bob_id, [lia_id])
    game = services.games.create(lia_id, "consonar", [lia_id, bob_id], time_control=BANK)["id"]

    def lia_plays_a_fleet_card_later(legal):
        fleet = any(m["action"]["type"] == "fleet" for m in legal["moves"])
        return fleet and services.games.load(game)["version"] > 8

    play_until(services, game, [lia_id, bob_id], lia_plays_a_fleet_card_later, random.Random(3))

    page, words = page_text(lia, game)
    assert '<html lang="it">' in page
    # the log, in Con Sonar!'s Italian words
    assert re.search(r"Bob gioca [bgopry][+-]\d", words) or "Bob finisce il turno" in words
    assert "Dalla tua ultima mossa" in words
    # the board
    assert re.search(r"Turno \d+", words) and "Lia (tu)" in words
    assert "Carte Siluro · " in words and "La tua mano" in words and "Giocatori" in words
    assert "Il livello 8 è il più esposto" in words
    # the moves
    assert re.search(r"Gioca (rosso|blu|verde|giallo|arancione|viola) [+-]\d per spostare ", words)
    # the clocks
    assert re.search(r"restano \d+ giorn", words) and re.search(
        r"giorn\w+( e \d+ ore)? di riserva", words
    )
    assert "scadenza tra " in words
    assert "Una riserva di 3 giorni, +12 ore a mossa, al massimo 5 giorni" in words
    english = [
        "Play ",
        "Fleet card",
        "Torpedo row",
        "Your hand",
        "plays first",
        "Since your last move",
        "in the bank",
        " left;",
        "deadline in",
        "(you)",
        "on rung",
        "Rung 8 is the most exposed",
        "a time bank of",
    ]
    assert [e for e in english if e in words] == []
    assert "|" not in words, "a word's marks of where it may break stay out of sight"
    assert "Aran\u00adcio\u00adne" in words, "a nation's long name may break on a phone"

    _, bobs = page_text(bob, game)
    assert "Torpedo row" in bobs and "Bob (you)" in bobs and "Since your last move" in bobs
    assert "A time bank of 3 days, +12 hours a move, at most 5 days" in bobs


@pytest.mark.slow
def test_a_russian_reader_reads_nautilus_in_russian(app, services, smtp):
    anya, anya_id = reader(app, services, smtp, "Anya", "ru")
    bob, bob_id = reader(app, services, smtp, "Bob", "en")
    services.players.set_friends(bob_id, [anya_id])
    game = services.games.create(anya_id, "nautilus", [anya_id, bob_id], time_control=BANK)["id"]

    def anya_places_later(legal):
        places = any(m["action"]["type"] == "place" for m in legal["moves"])
        return places and services.games.load(game)["version"] > 8

    play_until(services, game, [anya_id, bob_id], anya_places_later, random.Random(5))

    page, words = page_text(anya, game)
    assert '<html lang="ru">' in page
    # the log, in the reader's voice
    assert re.search(r"(Bob|вы) (кладёте?|берёте? жетон Немо)", words)
    assert "После вашего последнего хода" in words
    # the board: its labels and its domains
    assert "Очки по Доменам" in words and "кол. 1" in words and "Anya (вы)" in words
    assert re.search(r"Раунд \d из 6 · Немо: ", words) and "Ваша рука" in words
    assert "Рубашкой вверх: в колоде" in words
    # the moves: hers to make now
    assert re.search(r"Положить вашу карту \d+ на (вашу сторону|сторону игрока Bob)", words)
    assert "закрепить Якорем" in words and re.search(r">\s*нет\s*</option>", page)
    english = [
        "Points per domain",
        "column ",
        "Diver",
        "Special",
        "Place ",
        "placed",
        "Nemo token",
        "Your hand",
        "cards placed",
        "Face down",
        "Science",
        "Exploration",
        "Domain card",
        "won for good",
        "(you)",
        " of 6",
    ]
    assert [e for e in english if e in words] == []
    assert "|" not in words, "a word's marks of where it may break stay out of sight"
    assert (
        "Иссле\u00adдо\u00adва\u00adния" in words
        or "Нави\u00adга\u00adция" in words
        or ("Инже\u00adне\u00adрия" in words)
    ), "a domain's long name may break on a phone"

    # the seats: hers to move, as a whole sentence ("Вы ходит" was "You" + "to move")
    assert "Ваш ход" in words.split("Стол, каким вы его видите")[1] and "Вы ходит" not in words
    # what Bob's move changed: marked, in words and on the badge
    assert 'data-new="новое"' in page and "изменилось после вашего последнего хода" in page

    _, bobs = page_text(bob, game)
    assert "Points per domain" in bobs and "Bob (you)" in bobs and "column 1" in bobs
    assert re.search(r"Anya\s+to move", bobs)


@pytest.mark.slow
def test_an_italian_reader_reads_the_nine_domains_in_italian(app, services, smtp):
    lia, lia_id = reader(app, services, smtp, "Lia", "it")
    bob, bob_id = reader(app, services, smtp, "Bob", "en")
    services.players.set_friends(bob_id, [lia_id])
    game = services.games.create(lia_id, "ninedomains", [lia_id, bob_id], time_control=BANK)["id"]

    def lia_plays_in_round_two(legal):
        plays = any(m["action"]["type"] == "play" for m in legal["moves"])
        return plays and services.games.load(game)["version"] > 3

    play_until(services, game, [lia_id, bob_id], lia_plays_in_round_two, random.Random(9))

    page, words = page_text(lia, game)
    assert '<html lang="it">' in page
    # the log: the round's fights, in the game's words
    assert re.search(r"(sinistra|centro|destra): (Lia|tu|Bob) \S+ \(forza -?\d\)", words)
    assert "Dalla tua ultima mossa" in words
    # the board
    assert re.search(r"Round \d di 3", words) and "Lia (tu)" in words
    assert "In palio" in words and "La tua mano" in words and "Giocatori" in words
    assert "Scontri (forza tra parentesi)" in words and "Giocate finora:" in words
    # the moves
    assert re.search(r"Gioca \S+ a sinistra \(\w+\), \S+ al centro \(\w+\), \S+ a destra", words)
    english = [
        "Play ",
        "on the left",
        "in the middle",
        "At stake",
        "face down",
        "Your hand",
        "Players",
        "Battles",
        "strength",
        "points",
        "elements",
        "decided by",
        "takes",
        "took it",
        "(you)",
        "Played so far",
    ]
    assert [e for e in english if e in words] == []
    assert "|" not in words

    _, bobs = page_text(bob, game)
    assert "At stake" in bobs and "Bob (you)" in bobs and "Battles" in bobs
