"""A player's calendar of deadlines and feed of turns, at secret addresses, over HTTP: the
iCalendar parses with `icalendar` and holds one VEVENT per waiting game with a clock, its
deadline in UTC as DTEND; the Atom feed parses with `feedparser`; a rotated address answers 404;
nothing but titles, names, deadlines and links."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import feedparser
from icalendar import Calendar

from service.notify.feeds import EVENT_MINUTES
from service.timefmt import iso


def path(url: str) -> str:
    return url.removeprefix("http://turnpost.test")


def waiting_games(services):
    """Bo waits in three games with clocks (of different lengths) and one without."""
    players, games = services.players, services.games
    ada = players.register("Ada", email="ada@example.org")["id"]
    bo = players.register("Bo", email="bo@example.org")["id"]
    players.set_friends(bo, [ada])
    clocked = [
        games.create(
            ada,
            "ninedomains",
            [ada, bo],
            time_control={"per_move_seconds": seconds, "on_timeout": "auto"},
        )["id"]
        for seconds in (7200, 3600, 86400)
    ]
    free = games.create(ada, "ninedomains", [ada, bo])["id"]
    return ada, bo, clocked, free


def test_the_calendar_and_the_feed_list_the_games_waiting_for_the_player(app, services):
    ada, bo, clocked, free = waiting_games(services)
    client = app.test_client()
    addresses = services.feeds.addresses(bo)
    r = client.get(path(addresses["calendar_url"]))
    assert r.status_code == 200 and r.mimetype == "text/calendar"
    calendar = Calendar.from_ical(r.data)
    calendar.validate()
    assert calendar["VERSION"] == "2.0" and calendar["PRODID"]
    events = calendar.walk("VEVENT")
    assert len(events) == 3, "one per waiting game with a clock"
    deadlines = {g: services.games.summary(g)["seats"][1]["deadline"] for g in clocked}
    for event in events:
        for name in ("UID", "DTSTAMP", "DTSTART", "DTEND", "SUMMARY"):
            assert name in event, name
        start, end = event.decoded("DTSTART"), event.decoded("DTEND")
        assert start.tzinfo is not None and start.utcoffset().total_seconds() == 0
        assert end.utcoffset().total_seconds() == 0
        assert end - start == timedelta(minutes=EVENT_MINUTES), "it ends at the deadline"
        game_id = str(event["URL"]).rsplit("/", 1)[1]
        assert iso(int(end.timestamp() * 1000)) == deadlines[game_id]
        assert str(event["SUMMARY"]) == "Your move in The Nine Domains with Ada"
        assert b"DTEND:" in r.data and "Z" in event["DTEND"].to_ical().decode()
    assert sorted(str(e["URL"]).rsplit("/", 1)[1] for e in events) == sorted(clocked)
    r = client.get(path(addresses["atom_url"]))
    assert r.status_code == 200 and r.mimetype == "application/atom+xml"
    feed = feedparser.parse(r.data)
    assert not feed.bozo, feed.bozo_exception
    assert feed.version == "atom10"
    assert sorted(e.link.rsplit("/", 1)[1] for e in feed.entries) == sorted([*clocked, free])
    assert all(e.title == "Your move in The Nine Domains with Ada" for e in feed.entries)
    assert len({e.id for e in feed.entries}) == 4
    # Ada's side: the games wait for her too, her own addresses list them for her
    ada_feed = feedparser.parse(client.get(path(services.feeds.addresses(ada)["atom_url"])).data)
    assert all(e.title == "Your move in The Nine Domains with Bo" for e in ada_feed.entries)
    # a turn played leaves the feed
    version = services.games.summary(free)["version"]
    move = services.games.legal_moves(free, bo)["moves"][0]
    services.games.play(free, bo, version, action=move["action"])
    feed = feedparser.parse(client.get(path(addresses["atom_url"])).data)
    assert free not in [e.link.rsplit("/", 1)[1] for e in feed.entries]
    assert datetime.now(UTC) > datetime.fromisoformat(feed.feed.updated.replace("Z", "+00:00"))
    # and a turn played in a game with a clock leaves the calendar
    version = services.games.summary(clocked[0])["version"]
    move = services.games.legal_moves(clocked[0], bo)["moves"][0]
    services.games.play(clocked[0], bo, version, action=move["action"])
    calendar = Calendar.from_ical(client.get(path(addresses["calendar_url"])).data)
    left = sorted(str(e["URL"]).rsplit("/", 1)[1] for e in calendar.walk("VEVENT"))
    assert left == sorted(clocked[1:])


def test_a_calendar_with_no_game_waiting_still_validates(app, services):
    """RFC 5545 (3.6) wants at least one component in a calendar: a player with no deadline
    still gets one that a strict reader takes, with no event."""
    ada = services.players.register("Ada")["id"]
    r = app.test_client().get(path(services.feeds.addresses(ada)["calendar_url"]))
    assert r.status_code == 200
    calendar = Calendar.from_ical(r.data)
    calendar.validate()
    assert calendar.walk("VEVENT") == []


def test_a_rotated_or_forged_address_answers_404(app, services):
    _, bo, _, _ = waiting_games(services)
    client = app.test_client()
    old = services.feeds.addresses(bo)
    new = services.feeds.rotate(bo)
    assert new != old
    for url in old.values():
        r = client.get(path(url))
        assert r.status_code == 404, url
    for url in new.values():
        assert client.get(path(url)).status_code == 200
    token = path(new["atom_url"]).split("/")[2]
    player, mac = token.split(".")
    for forged in (f"{player}.{'0' * 32}", f"p_000000000000.{mac}", player, "x.y"):
        assert client.get(f"/feeds/{forged}/turns.atom").status_code == 404, forged


def test_the_api_gives_and_rotates_the_addresses(app, services):
    client = app.test_client()
    r = client.post("/v1/players", json={"name": "Ada"})
    me = {"Authorization": f"Bearer {r.json['token']}"}
    first = client.get("/v1/players/me/feeds", headers=me)
    assert first.status_code == 200 and first.json["calendar_url"].endswith("/deadlines.ics")
    second = client.post("/v1/players/me/feeds", headers=me)
    assert second.status_code == 201 and second.json != first.json
    assert client.get(path(first.json["atom_url"])).status_code == 404
    assert client.get(path(second.json["atom_url"])).status_code == 200
