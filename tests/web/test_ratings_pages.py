"""The leaderboards, the player pages (ratings with a chart drawn on the server, the record,
the latest games, head-to-head with the reader), the finished game's ratings on its page and
the new game form's choice, through the web client."""

from __future__ import annotations

import re

import pytest

from service.settings import Settings
from store.outbox import Entry
from tests.web.conftest import Browser, sign_up


def finish(services, game_id):
    """The worker's part: the entry of the commit that ended the game, carried out here."""
    from service.assembly import assemble

    class Kept:
        def queue(self, deliveries):
            pass

    client = services.games.games.r
    consequences = assemble(
        client, Settings(leaderboard_min_games=1), deliveries=Kept()
    ).consequences
    snap = services.games.load(game_id)
    consequences.carry_out(Entry(0, "0-0", game_id, snap["version"], snap["version"]))


@pytest.mark.slow
def test_a_finished_rated_game_its_ratings_the_leaderboard_and_the_player_pages(
    app, services, smtp
):
    ada, bo = Browser(app), Browser(app)
    sign_up(ada, services, smtp, "Ada", "ada@example.org")
    sign_up(bo, services, smtp, "Bo", "bo@example.org")
    bo_id = services.players.named("Bo", 1)[0]["id"]
    ada_id = services.players.named("Ada", 1)[0]["id"]
    form = ada.text("/games/new?game=nautilus")
    assert 'name="rated" value="usual" checked' in form
    r = ada.post(
        "/games/new",
        {"game": "nautilus", "seat.1": "player", "seat.1.name": "Bo", "rated": "yes"},
    )
    assert r.status_code == 303, r.get_data(as_text=True)
    game_id = r.headers["Location"].rsplit("/", 1)[1]
    assert services.games.summary(game_id)["rated"] is True
    assert "A rated game" in bo.text(f"/games/{game_id}")
    assert bo.post(f"/games/{game_id}/join").status_code == 303
    assert bo.post(f"/games/{game_id}/resign").status_code == 303
    assert "the new ratings are being worked out" in ada.text(f"/games/{game_id}")
    finish(services, game_id)
    page = ada.text(f"/games/{game_id}")
    mine = re.search(r"<li>You: 1500 → (\d+) \(\+(\d+)\), provisional</li>", page)
    assert mine and int(mine.group(1)) == 1500 + int(mine.group(2)) > 1500
    assert re.search(r"<li>Bo: 1500 → 1\d\d\d \(-\d+\), provisional</li>", page)

    board = app.test_client().get("/leaderboards/buttons").get_data(as_text=True)
    assert "Nobody is on this leaderboard" in board
    services.ratings.settings = Settings(leaderboard_min_games=1)
    board = ada.text("/leaderboards/nautilus")
    rows = re.findall(
        r"<tr( class=\"you\")?>\s*<td>(\d+)</td>\s*<td><a href=\"/players/(\w+)\">", board
    )
    assert [(you, rank, who) for you, rank, who in rows] == [
        (' class="you"', "1", ada_id),
        ("", "2", bo_id),
    ]
    assert app.test_client().get("/leaderboards/chess").status_code == 404

    profile = bo.text(f"/players/{ada_id}")
    assert f"<strong>{mine.group(1)}</strong> ± " in profile
    assert "Rank 1 of 2" in profile
    svg = re.search(r"<svg class=\"chart\".*?</svg>", profile, re.S).group(0)
    assert "<script" not in svg and "style=" not in svg
    assert f"from 1500 to {mine.group(1)}" in svg and svg.count("<circle") == 2
    assert "Ada placed above you 1 time, below you 0 times" in profile
    assert "Nautilus: 1 game (1 rated), 1 win; places: 1 × 1st" in profile
    assert f'href="/games/{game_id}"' in profile and "1st of 2" in profile
    assert "and you</h2>" not in ada.text(f"/players/{ada_id}")  # no head-to-head with oneself


def test_a_long_history_is_charted_from_its_first_game_shown_not_from_1500():
    from web.charts import rating_chart

    whole = rating_chart([1550, 1530], "Ada's rating")
    assert "3 rated games" not in whole and "from 1500 to 1530" in whole
    assert whole.count("<circle") == 3 and "first game" in whole
    window = rating_chart(list(range(1601, 1701)), "Ada's rating", start=None)
    assert "from 1601 to 1700" in window and "earlier" in window
    assert window.count("<circle") == 100
    assert "&lt;b&gt;" in rating_chart([1510], "<b>")  # every text escaped
