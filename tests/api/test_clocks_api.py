"""Issue 33's clocks through the API: kinds chosen at creation (a time bank with increment,
weekends off), their bounds in the catalog, each seat's bank in the summaries and views, and
old records read as days per move."""

import json

import pytest

from store import keys
from tests.api.conftest import befriend

DAY = 86400
BANK = {
    "kind": "bank",
    "initial_seconds": 3 * DAY,
    "increment_seconds": DAY // 2,
    "max_seconds": 5 * DAY,
    "weekends_off": True,
    "on_timeout": "forfeit",
}


def create(client, ada, control, seats=None):
    """`ada`: (id, headers) as `register` gives them."""
    return client.post(
        "/v1/games",
        json={
            "game": "nautilus",
            "seats": seats or [ada[0], "bot:random"],
            "time_control": control,
        },
        headers=ada[1],
    )


def test_the_catalog_lists_the_clocks_with_their_bounds_and_presets(client):
    catalog = client.get("/v1/catalog").json
    kinds = {c["kind"]: c for c in catalog["clocks"]}
    assert set(kinds) == {"none", "per_move", "bank"}
    bank = kinds["bank"]
    assert set(bank["fields"]) == {"initial_seconds", "increment_seconds", "max_seconds"}
    assert bank["fields"]["increment_seconds"]["minimum"] == 0
    assert "10 days, +1 day a move, at most 10 days" in [p["words"] for p in bank["presets"]]
    assert catalog["vacation"]["days_a_year"] == 30
    assert set(catalog["on_timeout"]) == {"auto", "forfeit"}


def test_a_game_with_a_bank_shows_each_seats_bank_in_its_summary_and_view(client, register):
    ada, bo = register("Ada"), register("Bo")
    headers = ada[1]
    befriend(client, bo[1], ada[0])
    made = create(client, ada, BANK, [ada[0], bo[0]])
    assert made.status_code == 201, made.json
    assert made.json["time_control"] == BANK
    seats = made.json["seats"]
    for seat in seats:
        assert seat["clock"]["bank_seconds"] == 3 * DAY
        assert seat["clock"]["vacation"] is None
    to_move = made.json["active_seats"][0]
    assert seats[to_move]["clock"]["since"] is not None
    assert seats[to_move]["clock"]["deadline"] == seats[to_move]["deadline"]
    assert 3 * DAY - 5 <= seats[to_move]["clock"]["left_seconds"] <= 3 * DAY
    assert seats[1 - to_move]["clock"]["since"] is None
    view = client.get(f"/v1/games/{made.json['id']}/view", headers=headers).json
    assert [c["bank_seconds"] for c in view["clocks"]] == [3 * DAY, 3 * DAY]


def test_a_game_without_a_clock_has_no_seat_clocks(client, register):
    ada = register("Ada")
    made = create(client, ada, {"kind": "none"})
    assert made.status_code == 201 and made.json["time_control"] is None
    assert all(s["clock"] is None for s in made.json["seats"])


def test_an_old_per_move_request_reads_as_days_per_move(client, register):
    ada = register("Ada")
    made = create(client, ada, {"per_move_seconds": DAY})
    assert made.status_code == 201
    assert made.json["time_control"] == {
        "kind": "per_move",
        "per_move_seconds": DAY,
        "weekends_off": False,
        "on_timeout": "auto",
    }


@pytest.mark.parametrize(
    "control",
    [
        {**BANK, "initial_seconds": 10},  # under the minimum
        {**BANK, "max_seconds": 2 * DAY},  # below the initial bank
        {**BANK, "increment_seconds": -1},
        {**BANK, "increment_seconds": 15 * DAY},
        {**BANK, "initial_seconds": "3 days"},
        {key: value for key, value in BANK.items() if key != "max_seconds"},
        {"kind": "hourglass", "per_move_seconds": DAY},
        {**BANK, "weekends_off": "yes"},
        {**BANK, "on_timeout": "pass"},
    ],
)
def test_a_clock_out_of_its_bounds_is_a_clear_422(client, register, control):
    ada = register("Ada")
    answer = create(client, ada, control)
    assert answer.status_code == 422, answer.json
    assert answer.json["code"] in ("game/invalid_time_control", "request/invalid")
    assert answer.json["message"]


def test_a_rematch_keeps_the_bank(client, register):
    ada = register("Ada")
    headers = ada[1]
    made = create(client, ada, BANK).json
    client.post(f"/v1/games/{made['id']}/resign", headers=headers)
    again = client.post(f"/v1/games/{made['id']}/rematch", headers=headers)
    assert again.status_code == 201, again.json
    assert again.json["time_control"] == BANK


def test_a_stored_game_from_before_kinds_keeps_its_deadline(client, register, redis_client):
    """A snapshot stored before clocks had kinds, banks and calendars: it reads as days per
    move, and the next move arms the next deadline a day after that move."""
    ada, bo = register("Ada"), register("Bo")
    befriend(client, bo[1], ada[0])
    made = create(client, ada, {"per_move_seconds": DAY}, [ada[0], bo[0]]).json
    key = keys.game_snapshot(made["id"])
    old = {
        k: v
        for k, v in json.loads(redis_client.get(key)).items()
        if k not in ("clocks", "calendars")
    }
    old["time_control"] = {"per_move_seconds": DAY, "on_timeout": "auto"}
    redis_client.set(key, json.dumps(old))
    summary = client.get(f"/v1/games/{made['id']}", headers=ada[1]).json
    assert summary["time_control"]["kind"] == "per_move"
    seat = summary["active_seats"][0]
    assert summary["seats"][seat]["deadline"] == made["seats"][seat]["deadline"]
    assert summary["seats"][seat]["clock"]["deadline"] == summary["seats"][seat]["deadline"]
    mover = (ada, bo)[seat]
    legal = client.get(f"/v1/games/{made['id']}/legal-moves", headers=mover[1]).json
    moved = client.post(
        f"/v1/games/{made['id']}/moves",
        json={"action": legal["moves"][0]["action"], "expected_version": legal["version"]},
        headers=mover[1],
    )
    assert moved.status_code == 201, moved.json
    after = moved.json["game"]
    nxt = after["active_seats"][0]
    since = after["seats"][nxt]["clock"]["since"]
    assert after["seats"][nxt]["clock"]["bank_seconds"] == DAY
    assert since == after["updated_at"]
