"""Preferences per notice and channel: for each notice (turn, reminder, invitation, game over,
chat) the channels it goes by, in the API and the web client's settings, all on by default
(today's behaviour); the deliveries follow them, with a real SMTP peer."""

from __future__ import annotations

import pytest

from api.app import create_app
from service.notify.notifications import (
    CHANNELS,
    EVENT_KINDS,
    GAME_FINISHED,
    TURN_REMINDER,
    TURN_STARTED,
    Notice,
    preferences,
    wanted,
)
from service.settings import Settings
from tests.addresses import confirm_all
from tests.web.conftest import Browser, sign_up
from transports.mailer import SmtpMailer

EVERY = {kind: dict.fromkeys(CHANNELS, True) for kind in EVENT_KINDS}


def test_by_default_every_notice_goes_by_every_channel_as_before():
    prefs = preferences({})
    assert prefs["events"] == EVERY
    for event in (TURN_STARTED, TURN_REMINDER, GAME_FINISHED, "game.invited", "game.cancelled"):
        assert all(wanted(prefs, event, channel) for channel in CHANNELS)
    # as before: a reminder's email follows `reminders` alone, the others `email`
    no_email = preferences({"notifications": {"email": False}})
    assert wanted(no_email, TURN_REMINDER, "email") and not wanted(no_email, TURN_STARTED, "email")
    no_reminders = preferences({"notifications": {"reminders": False}})
    assert not any(wanted(no_reminders, TURN_REMINDER, c) for c in CHANNELS)


def test_a_patch_changes_only_the_choices_it_names(client, register):
    _, me = register("Ada")
    assert client.get("/v1/players/me", headers=me).json["notifications"]["events"] == EVERY
    r = client.patch(
        "/v1/players/me",
        json={"notifications": {"events": {"turn": {"email": False}, "chat": {"push": False}}}},
        headers=me,
    )
    assert r.status_code == 200
    r = client.patch(
        "/v1/players/me", json={"notifications": {"events": {"turn": {"push": False}}}}, headers=me
    )
    events = client.get("/v1/players/me", headers=me).json["notifications"]["events"]
    assert events == {
        **EVERY,
        "turn": {"email": False, "push": False, "webhook": True},
        "chat": {"email": True, "push": False, "webhook": True},
    }
    for bad in (
        {"events": {"turn": {"email": "no"}}},
        {"events": {"turn": {"sms": True}}},
        {"events": {"moves": {"email": False}}},
        {"events": []},
    ):
        r = client.patch("/v1/players/me", json={"notifications": bad}, headers=me)
        assert r.status_code == 422 and r.json["code"] == "request/invalid", bad
        assert r.json["message"]


def test_a_turn_off_by_email_sends_no_turn_email_but_the_end_still_comes(redis_client, smtp):
    app = create_app(redis_client, mailer=SmtpMailer(smtp.url))
    services = app.extensions["turnpost"]["services"]
    ada = services.players.register("Ada", email="ada@example.org")["id"]
    bo = services.players.register("Bo", email="bo@example.org")["id"]
    confirm_all(redis_client)
    services.players.update(bo, {"notifications": {"events": {"turn": {"email": False}}}})
    services.players.set_friends(bo, [ada])
    game = services.games.create(ada, "ninedomains", [ada, bo])
    version = game["version"]
    assert services.notifications.email(Notice(TURN_STARTED, game["id"], 1, version)) == ("off", 0)
    assert services.notifications.email(Notice(TURN_STARTED, game["id"], 0, version))[0] == "sent"
    services.games.resign(game["id"], ada)
    end = services.games.summary(game["id"])["version"]
    assert services.notifications.email(Notice(GAME_FINISHED, game["id"], 1, end))[0] == "sent"
    assert [m["X-Turnpost-Event"] for m in smtp.to("bo@example.org")] == ["game.finished"]


@pytest.mark.parametrize("kind", ["turn", "game_over"])
@pytest.mark.slow
def test_the_settings_page_saves_the_choice_of_each_notice_and_channel(redis_client, smtp, kind):
    app = create_app(
        redis_client,
        mailer=SmtpMailer(smtp.url),
        settings=Settings(public_url="http://turnpost.test"),
    )
    services = app.extensions["turnpost"]["services"]
    browser = Browser(app)
    sign_up(browser, services, smtp, "Ada", "ada@example.org")
    html = browser.text("/settings")
    assert 'aria-label="My turn: Email"' in html
    form = {
        "name": "Ada",
        "email": "ada@example.org",
        "notify.email": "on",
        "notify.reminders": "on",
        "notify.push": "on",
        **{
            f"notify.events.{k}.{c}": "on"
            for k in EVENT_KINDS
            for c in CHANNELS
            if (k, c) != (kind, "push")
        },
    }
    assert browser.post("/settings", form).status_code == 303
    player = services.players.named("Ada")[0]["id"]
    events = services.players.profile(player)["notifications"]["events"]
    assert events == {**EVERY, kind: {"email": True, "push": False, "webhook": True}}
