"""The game page's moves on the board, as the server writes them (Flask's test client, a real
Valkey; tests/e2e/test_board_clicks.py clicks them in a real browser): the legal moves as data
for web/static/board.js, each picked by parts its board draws; the picker's form, which posts
a notation as the other move forms do; no script the page runs written into it; the other
seat's page offers nothing; the marks of the other's move on the board."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest

from tests.web.test_game_pages import new_game
from tests.web.test_seat_tables import friends  # noqa: F401  (a fixture)

DATA = re.compile(r'<script type="application/json" id="moves">(.*?)</script>', re.S)
DRAWN = re.compile(r'data-part="([^"]*)"')


def picks_of(html: str) -> dict | None:
    found = DATA.search(html)
    return json.loads(found.group(1)) if found else None


def both_pages(ada, bo, game_id):
    return ada.text(f"/games/{game_id}"), bo.text(f"/games/{game_id}")


def test_the_seat_to_move_gets_its_moves_as_board_picks_and_the_other_nothing(friends):  # noqa: F811
    ada, bo = friends
    game_id = new_game(ada, "nautilus", **{"seat.1": "player", "seat.1.name": "Bo"})
    pages = both_pages(ada, bo, game_id)
    mover, page = (ada, pages[0]) if picks_of(pages[0]) else (bo, pages[1])
    waiting = pages[1] if mover is ada else pages[0]
    assert picks_of(waiting) is None and 'id="picker"' not in waiting
    offer = picks_of(page)
    names, labels = offer["parts"], offer["labels"]
    assert len(labels) == len(names) and all(labels)
    drawn = {unescape(p) for p in DRAWN.findall(page)}
    for notation, words, picked, changed in offer["moves"]:
        assert notation and words and picked
        for i in picked + changed:
            assert names[i].startswith("do:") or names[i] in drawn, names[i]
    # the only scripts are the data (never run) and the page's own files, deferred
    scripts = re.findall(r"<script[^>]*>", page)
    assert all('type="application/json"' in s or ("src=" in s and "defer" in s) for s in scripts)
    assert '<script src="/assets/board.js" defer></script>' in page
    assert not re.search(r"\son[a-z]+=", page), "no handler written into the page"
    assert re.search(r'<div id="picker"[^>]*\shidden>', page), "its script shows it"
    picker = page.split('id="picker"', 1)[1].split("</form>", 1)[0]
    assert 'name="notation" value=""' in picker and 'name="csrf_token"' in picker
    assert "style=" not in picker

    # what the picker posts: the notation the script fills in, with the page's version
    version = re.search(r'name="version" value="(\d+)"', picker).group(1)
    notation = offer["moves"][0][0]
    r = mover.post(f"/games/{game_id}/move", {"version": version, "notation": notation})
    assert r.status_code == 303
    assert f"You played {notation}" in mover.text(f"/games/{game_id}")


@pytest.mark.slow
def test_the_others_placement_is_marked_on_the_readers_board(friends):  # noqa: F811
    ada, bo = friends
    game_id = new_game(ada, "nautilus", **{"seat.1": "player", "seat.1.name": "Bo"})
    people = {0: ada, 1: bo}
    for _ in range(12):  # the Specials of the round's start, up to the first placement
        pages = both_pages(ada, bo, game_id)
        seat = 0 if picks_of(pages[0]) else 1
        offer = picks_of(pages[seat])
        names = offer["parts"]
        moves = offer["moves"]
        placing = [m for m in moves if m[0].startswith("place") and "anchor" not in m[0]]
        chosen = placing[0] if placing else next((m for m in moves if m[0] == "pass"), moves[0])
        version = re.search(r'name="version" value="(\d+)"', pages[seat]).group(1)
        r = people[seat].post(f"/games/{game_id}/move", {"version": version, "notation": chosen[0]})
        assert r.status_code == 303
        if placing:
            break
    space = names[chosen[2][-1]]
    reader = people[1 - seat].text(f"/games/{game_id}")
    assert "Since your last move" in reader and "placed" in reader.split("Since your last move")[1]
    marked = re.search(rf'<td [^>]*data-part="{space}"[^>]*>', reader).group(0)
    assert 'class="changed"' in marked and "changed since your last move" in marked
    own = people[seat].text(f"/games/{game_id}")
    assert 'class="changed"' not in own, "the mover's own move is not news to the mover"
