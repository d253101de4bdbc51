"""The boards over HTTP: the view as text/plain when the client prefers it, and the public game
page /play/<id> with the spectator's board, the score, the winner and the whole log in pages."""

import re

import pytest

from api import pages
from engine.rng import Rng
from tests.api.conftest import befriend


def nautilus_game(client, register, first="Ada", second="Bo"):
    (a, ha), (b, hb) = register(first), register(second)
    befriend(client, hb, a)
    r = client.post("/v1/games", json={"game": "nautilus", "seats": [a, b]}, headers=ha)
    assert r.status_code == 201, r.json
    return r.json["id"], [ha, hb]


def play_moves(client, game_id, headers, count, rng):
    """Play up to `count` random legal moves; returns the summary afterwards."""
    for _ in range(count):
        summary = client.get(f"/v1/games/{game_id}", headers=headers[0]).json
        if summary["status"] == "finished":
            return summary
        seat = rng.choice(summary["active_seats"])
        moves = client.get(f"/v1/games/{game_id}/legal-moves", headers=headers[seat]).json
        r = client.post(
            f"/v1/games/{game_id}/moves",
            headers=headers[seat],
            json={
                "action": rng.choice(moves["moves"])["action"],
                "expected_version": moves["version"],
            },
        )
        assert r.status_code == 201, r.json
    return client.get(f"/v1/games/{game_id}", headers=headers[0]).json


def test_the_view_is_a_text_board_when_the_client_prefers_text(client, register):
    game_id, headers = nautilus_game(client, register)
    r = client.get(f"/v1/games/{game_id}/view", headers={**headers[0], "Accept": "text/plain"})
    assert r.status_code == 200 and r.content_type == "text/plain; charset=utf-8"
    assert r.headers["ETag"] == '"2"' and "Accept" in r.headers["Vary"]
    text = r.get_data(as_text=True)
    assert text.startswith("NAUTILUS - round 1 of 6")
    assert "Ada (you)" in text and "Your hand:" in text
    hand = client.get(f"/v1/games/{game_id}/view", headers=headers[0]).json["hand"]
    assert f"Your hand: {' '.join(map(str, hand))}" in text
    other = client.get(f"/v1/games/{game_id}/view", headers=headers[1]).json["hand"]
    assert " ".join(map(str, other)) not in text
    r = client.get(
        f"/v1/games/{game_id}/view",
        headers={**headers[0], "Accept": "text/plain", "If-None-Match": '"2"'},
    )
    assert r.status_code == 304 and r.data == b""


def test_json_stays_the_default_and_wins_a_tie(client, register):
    game_id, headers = nautilus_game(client, register)
    for accept in (
        None,
        "*/*",
        "application/json",
        "application/json, text/plain",
        "text/plain;q=0.5, application/json",
        "text/html",
    ):
        extra = {"Accept": accept} if accept else {}
        r = client.get(f"/v1/games/{game_id}/view", headers={**headers[0], **extra})
        assert r.status_code == 200 and r.mimetype == "application/json", accept
        assert r.json["game"] == "nautilus"
    for accept in ("text/plain", "text/*", "text/plain, */*", "text/plain, application/json;q=0.9"):
        r = client.get(f"/v1/games/{game_id}/view", headers={**headers[0], "Accept": accept})
        assert r.mimetype == "text/plain", accept


def test_a_spectator_gets_the_spectators_text_board(client, register):
    game_id, _ = nautilus_game(client, register)
    _, watcher = register("Cy")
    r = client.get(f"/v1/games/{game_id}/view", headers={**watcher, "Accept": "text/plain"})
    text = r.get_data(as_text=True)
    assert r.status_code == 200 and "Your hand" not in text and "(you)" not in text
    assert "Ada holds 5 Divers" in text and "Bo holds 5 Divers" in text


def test_text_errors_stay_json(client, register):
    _, headers = nautilus_game(client, register)
    r = client.get("/v1/games/g_nothing/view", headers={**headers[0], "Accept": "text/plain"})
    assert r.status_code == 404 and r.json["code"] == "game/not_found"


@pytest.mark.slow  # over a second: not in make test-fast
def test_the_game_page_shows_the_board_score_winner_and_the_whole_log_in_pages(
    client, register, monkeypatch
):
    # The server draws the game's seed, so the game's length varies: a player who wins three
    # domains ends it after round 3 (48 events seen). Pages of 10 events give every finished
    # game a log of several pages.
    monkeypatch.setattr("api.pages.LOG_PAGE", 10)
    game_id, headers = nautilus_game(client, register, first='<script>alert("x")</script>')
    summary = play_moves(client, game_id, headers, 400, Rng(b"page" * 8))
    assert summary["status"] == "finished" and summary["version"] > pages.LOG_PAGE
    page = client.get(f"/play/{game_id}")
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    assert "<script>" not in html and "&lt;script&gt;" in html
    winner = ["&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;", "Bo"][
        summary["outcome"]["winners"][0]
    ]
    header = re.search(r"<h1>(.*?)</h1>", html, re.S).group(1)
    assert f"{winner} won" in header
    scores = summary["outcome"]["scores"]
    assert f"Bo {scores[1]:g}" in html and "Score:" in html
    assert "Points per domain" in html and "Your hand" not in html
    total, last_page = summary["version"], -(-summary["version"] // pages.LOG_PAGE)
    assert f"events {(last_page - 1) * pages.LOG_PAGE + 1} to {total} of {total}" in html
    versions = set()
    for number in range(1, last_page + 1):
        page = client.get(f"/play/{game_id}?page={number}").get_data(as_text=True)
        versions |= {int(v) for v in re.findall(r'<li value="(\d+)">', page)}
        if number > 1:
            assert f'href="?page={number - 1}#log"' in page
        if number < last_page:
            assert f'href="?page={number + 1}#log"' in page
    assert versions == set(range(1, total + 1)), "the log lost events between its pages"
    for bad in ("0", str(last_page + 1), "two", "-1"):
        assert client.get(f"/play/{game_id}?page={bad}").status_code == 404


def test_the_page_of_a_game_in_progress_has_no_winner_and_the_score_so_far(client, register):
    game_id, _headers = nautilus_game(client, register)
    page = client.get(f"/play/{game_id}").get_data(as_text=True)
    assert "Game over" not in page and "won" not in re.search(r"<h1>(.*?)</h1>", page).group(1)
    assert "Score: Ada 0 · Bo 0" in page and "The table, as a spectator sees it" in page


def test_a_move_made_face_down_still_shows_on_the_page_as_a_move(client, register):
    people = [register(name) for name in ("Ada", "Bo", "Cy")]
    for _, headers in people[1:]:
        befriend(client, headers, people[0][0])
    r = client.post(
        "/v1/games", json={"game": "buttons", "seats": [p[0] for p in people]}, headers=people[0][1]
    )
    game_id = r.json["id"]
    rng = Rng(b"buttons-page" + bytes(20))
    for _ in range(40):
        summary = client.get(f"/v1/games/{game_id}", headers=people[0][1]).json
        if len(summary["active_seats"]) > 1:
            break
        play_moves(client, game_id, [p[1] for p in people], 1, rng)
    else:
        raise AssertionError("no roll with several seats deciding came up")
    seat = summary["active_seats"][0]
    play_moves(client, game_id, [people[seat][1]] * 3, 1, rng)
    page = client.get(f"/play/{game_id}").get_data(as_text=True)
    last = re.findall(r'<li value="(\d+)">\s*(.*?)</li>', page, re.S)[-1]
    assert int(last[0]) == summary["version"] + 1
    assert last[1].strip() == f"{['Ada', 'Bo', 'Cy'][seat]} moved"
    assert not re.search(r'<li value="\d+">\s*</li>', page)
