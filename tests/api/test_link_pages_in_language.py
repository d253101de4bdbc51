"""The pages an email's signed links open (the turn page, a one-click move, an invitation's and
a proposal's answer) are in their reader's language (issue 38): the signed-in player's
setting, else the browser's Accept-Language, as every page chooses. Their sentences, the
table they show and their refusals (an expired or forged link, a used one, a stale one, a
move the game refuses) alike; English is what it was. Real Valkey, the app over WSGI."""

import html
import time

import pytest

from api.app import create_app
from api.front_door import FrontDoor
from service.notify.links import MOVE, sign_link
from service.settings import Settings
from tests.api.test_turn_pages import Forms
from tests.web.conftest import Browser, sign_up
from transports.mailer import SmtpMailer

BASE = "http://turnpost.test"
RU = {"Accept-Language": "ru-RU,ru;q=0.9"}
IT = {"Accept-Language": "it"}


@pytest.fixture
def site(redis_client):
    app = create_app(
        redis_client, settings=Settings(public_url=BASE), front_door=FrontDoor(rate_limits=False)
    )
    return app, app.extensions["turnpost"]["services"]


def buttons(services, names=("Ada", "Bo")):
    people = [services.players.register(n)["id"] for n in names]
    for friend in people[1:]:
        services.players.set_friends(friend, [people[0]])
    return services.games.create(people[0], "buttons", people)["id"], people


def mover(services, game_id):
    """The seat whose turn it is, and its player."""
    snap = services.games.load(game_id)
    seat = snap["active_seats"][0]
    return seat, snap["seats"][seat]["player_id"]


def page_text(response) -> str:
    return html.unescape(response.get_data(as_text=True))


def turn_url(services, game_id, seat):
    return services.one_click.turn_url(services.tables.for_seat(game_id, seat)).removeprefix(BASE)


def move_url(services, game_id, seat, notation):
    table = services.tables.for_seat(game_id, seat)
    return services.one_click.links(table, [notation]).moves[notation].removeprefix(BASE)


def expired_token(services, game_id, purpose=MOVE, notation=""):
    key = services.one_click.keys.link_keys[0]
    return sign_link(key, game_id, 0, 2, notation, int(time.time()) - 5, purpose)


def test_the_turn_page_its_table_and_its_refusals_are_in_the_browsers_language(site):
    app, services = site
    client = app.test_client()
    game_id, _people = buttons(services)
    seat, player = mover(services, game_id)
    url = turn_url(services, game_id, seat)
    english = page_text(client.get(url))
    assert "Choose below, then press Play" in english
    ready = page_text(client.get(url, headers=RU))
    assert '<html lang="ru">' in ready and "Ваш ход" in ready
    in_english = services.tables.for_seat(game_id, seat)
    in_russian = services.tables.for_seat(game_id, seat, language="ru")
    for form in in_russian.forms:  # the table's words: the forms' legends
        said, english_words = (
            in_russian.legend(form.action_type),
            in_english.legend(form.action_type),
        )
        assert said != english_words and said in ready and english_words not in ready

    form = Forms(client.get(url).text).forms[0]
    wrong = client.post(url, data={**form["hidden"], "type": "nothing"}, headers=RU)
    assert wrong.status_code == 409
    assert "not one of your legal moves" not in page_text(wrong)
    assert "Такой комбинации нет среди ваших допустимых ходов" in page_text(wrong), page_text(wrong)

    move = services.games.legal_moves(game_id, player)["moves"][0]
    services.games.play(game_id, player, 2, notation=move["notation"])  # through the API
    stale = page_text(client.get(url, headers=IT))
    assert "The game has moved on" not in stale
    assert "La partita è andata avanti" in stale, stale

    expired = client.get(f"/t/{expired_token(services, game_id)}", headers=RU)
    assert expired.status_code == 410 and "Срок действия ссылки истёк" in page_text(expired)
    token = url.rsplit("/", 1)[1]
    forged = client.get(f"/t/{token[:-3]}{'BBB' if token.endswith('AAA') else 'AAA'}", headers=IT)
    assert forged.status_code == 404 and "Questo link non è valido" in page_text(forged)
    assert "Срок" not in page_text(client.get(f"/t/{expired_token(services, game_id)}"))


def test_a_move_played_from_the_turn_page_is_said_in_the_readers_language(site):
    app, services = site
    client = app.test_client()
    game_id, _people = buttons(services)
    url = turn_url(services, game_id, mover(services, game_id)[0])
    for form in Forms(client.get(url).text).forms:
        data = {**form["hidden"], **{n: v[0] for n, v in form["selects"].items()}}
        played = client.post(url, data=data, headers=IT)
        if played.status_code == 200:
            break
    assert played.status_code == 200
    assert "Hai giocato" in page_text(played) and "You played" not in page_text(played)


def test_a_one_click_link_asks_plays_and_refuses_in_the_readers_language(site):
    app, services = site
    client = app.test_client()
    game_id, _people = buttons(services)
    seat, player = mover(services, game_id)
    move = services.games.legal_moves(game_id, player)["moves"][0]
    url = move_url(services, game_id, seat, move["notation"])
    asked = page_text(client.get(url, headers=RU))
    said = services.tables.for_seat(game_id, seat, language="ru").moves[0]
    assert f"{said.description} ({move['notation']})?" in asked, asked
    assert move["description"] not in asked
    played = client.post(url, headers=RU)
    assert played.status_code == 200 and f"Сыграно: {move['notation']}." in page_text(played)
    again = client.post(url, headers=IT)
    assert again.status_code == 409 and "Questo link è già stato usato." in page_text(again)
    stale = client.get(move_url_after_moving_on(services, game_id), headers=RU)
    assert stale.status_code == 409 and "Партия продвинулась" in page_text(stale), page_text(stale)


def move_url_after_moving_on(services, game_id):
    """A one-click link of Bo's, made for a version the game then moves past."""
    snap = services.games.load(game_id)
    seat = snap["active_seats"][0]
    player = snap["seats"][seat]["player_id"]
    moves = services.games.legal_moves(game_id, player)["moves"]
    url = move_url(services, game_id, seat, moves[-1]["notation"])
    services.games.play(game_id, player, snap["version"], notation=moves[0]["notation"])
    return url


def test_a_refusal_of_the_game_is_quoted_in_the_readers_language(site):
    app, services = site
    client = app.test_client()
    game_id, people = buttons(services)
    seat, player = mover(services, game_id)
    url = turn_url(services, game_id, seat)
    form = Forms(client.get(url).text).forms[0]
    data = {**form["hidden"], **{n: v[0] for n, v in form["selects"].items()}}
    other = next(p for p in people if p != player)
    services.games.resign(game_id, other)  # the game ends before the page's form is sent
    over = client.post(url, data=data, headers=RU)
    assert over.status_code == 410 and "Игра окончена." in page_text(over), page_text(over)


def test_the_invitation_and_proposal_pages_are_in_the_readers_language(site):
    app, services = site
    client = app.test_client()
    ada, bo, cy = (services.players.register(n)["id"] for n in ("Ada", "Bo", "Cy"))
    game_id = services.games.create(ada, "buttons", [ada, bo, cy])["id"]
    links = services.one_click.invitation_links(game_id, 1)
    accept = page_text(client.get(links.accept.removeprefix(BASE), headers=RU))
    assert "Bo, вас приглашают в партию Buttons с Ada и Cy (по приглашению)." in accept, accept
    assert "you are invited" not in accept
    refuse = page_text(client.get(links.refuse.removeprefix(BASE), headers=IT))
    assert "Bo, sei invitato a una partita di Buttons con Ada e Cy (su invito)." in refuse, refuse
    refused = client.post(links.refuse.removeprefix(BASE), headers=IT)
    assert "Hai rifiutato l'invito." in page_text(refused), page_text(refused)
    again = page_text(client.get(links.accept.removeprefix(BASE), headers=RU))
    assert "Это приглашение уже принято или отклонено" in again, again

    game_id, (ada, bo, cy) = buttons(services, ("Di", "Ed", "Flo"))
    made = services.talk.propose(game_id, ada, "draw")
    proposal = services.one_click.proposal_links(
        game_id, 1, made["id"], int(time.time() + 3600) * 1000
    )
    asked = page_text(client.get(proposal.accept.removeprefix(BASE), headers=IT))
    assert "Di propone di finire la partita con un risultato condiviso" in asked, asked
    declined = client.post(proposal.decline.removeprefix(BASE), headers=RU)
    assert "Вы отклонили предложение." in page_text(declined), page_text(declined)


@pytest.mark.slow
def test_a_signed_in_players_setting_wins_over_the_browser_on_the_turn_page(redis_client, smtp):
    app = create_app(redis_client, settings=Settings(public_url=BASE), mailer=SmtpMailer(smtp.url))
    services = app.extensions["turnpost"]["services"]
    browser = Browser(app)
    sign_up(browser, services, smtp, "Ada", "ada@example.org")
    ada = services.players.named("Ada", 1)[0]["id"]
    browser.get("/settings")
    browser.post(
        "/settings",
        {"name": "Ada", "email": "ada@example.org", "time_zone": "UTC", "language": "it"},
    )
    bo = services.players.register("Bo")["id"]
    services.players.set_friends(bo, [ada])
    game_id = services.games.create(ada, "buttons", [ada, bo])["id"]
    url = turn_url(services, game_id, mover(services, game_id)[0])
    services.games.resign(game_id, bo)
    over = browser.text(url, headers=RU)
    assert '<html lang="it">' in over and "La partita è finita." in over, over
