"""The how-to-play pages (issue 38): a page per title with its sections, the three positions
of its lesson drawn by the board renderer, its legal moves and every option of the catalog;
and the links to it from the front page, a game's page and the new-game form."""

import re
from html import unescape

import pytest

from engine import registry
from service.play.how_to_play import positions
from tests.web.conftest import Browser, sign_up

TITLES = sorted(registry.GAMES)


@pytest.mark.parametrize("title", TITLES)
def test_a_title_has_a_page_with_its_sections_pictures_moves_and_options(app, title):
    r = app.test_client().get(f"/how-to-play/{title}")
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    info = registry.GAMES[title].info
    assert f"How to play {info.title}" in unescape(html)
    for section in ("goal", "turn", "end", "options"):
        assert f'<section id="{section}"' in html
    opening, turn, end = positions(title)
    for kind, position in (("opening", opening), ("turn", turn), ("end", end)):
        assert f'<figure class="picture" id="picture-{kind}">' in html
        assert position.board in html  # the replayed position, as the renderer drew it
    listed = re.search(r'<ul class="log" id="moves-turn"[^>]*>(.*?)</ul>', html, re.S)
    assert listed is not None
    assert [unescape(w) for w in re.findall(r"<li>(.*?)</li>", listed.group(1))] == list(turn.moves)
    for key in info.options:
        assert f'id="option-{key}"' in html, f"the option {key} is not explained"
    assert f'href="/games/new?game={title}"' in html


def test_a_page_of_no_title_is_not_found_and_the_index_lists_every_title(app):
    client = app.test_client()
    assert client.get("/how-to-play/chess").status_code == 404
    index = client.get("/how-to-play").get_data(as_text=True)
    assert all(f'href="/how-to-play/{title}"' in index for title in TITLES)


@pytest.mark.slow  # a sign-up by email
def test_the_front_page_a_game_page_and_the_new_game_form_link_to_it(app, services, smtp):
    home = app.test_client().get("/").get_data(as_text=True)
    assert all(f'href="/how-to-play/{title}"' in home for title in TITLES)

    ada = services.players.register("Ada")
    game_id = services.games.create(ada["id"], "consonar", [ada["id"], None])["id"]
    game_page = app.test_client().get(f"/games/{game_id}").get_data(as_text=True)
    assert 'href="/how-to-play/consonar"' in game_page

    browser = Browser(app)
    sign_up(browser, services, smtp, "Bo", "bo@example.org")
    assert 'href="/how-to-play/buttons"' in browser.text("/games/new?game=buttons")
    assert 'href="/how-to-play"' in browser.text("/games/new")
