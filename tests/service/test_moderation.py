"""Blocks, reports and the operators' actions on a real Valkey: a blocked player invites
nobody who blocked them, is not seated with them from the lobby, and their messages are hidden
from the blocker on every surface; a report of a message or a player is kept for the
operators; a message hidden or a player suspended by an operator, each action in the audit
log."""

from __future__ import annotations

import json

import pytest

from service.assembly import assemble
from service.errors import ErrorCode, ServiceError
from service.settings import Settings
from store.moderation import ModerationStore
from tests.hostile_text import REFUSED
from transports.mailer import SmtpMailer


@pytest.fixture
def services(redis_client, smtp):
    settings = Settings(public_url="http://turnpost.test", talk_per_minute=1000)
    return assemble(redis_client, settings=settings, mailer=SmtpMailer(smtp.url))


def refused(error, call):
    with pytest.raises(ServiceError) as found:
        call()
    assert found.value.error is error, found.value.message
    return found.value.message


def people(services, *names):
    return [services.players.register(n, email=f"{n.lower()}@example.org")["id"] for n in names]


def everything_seen(services, game_id, player_id):
    seat = next(
        s
        for s, r in enumerate(services.games.load(game_id)["seats"])
        if r["player_id"] == player_id
    )
    return json.dumps(
        [
            services.games.log(game_id, player_id),
            services.games.wait_log(game_id, player_id, 0, 1),
            services.talk.messages(game_id, player_id),
            repr(services.tables.for_player(game_id, player_id)),
            repr(services.tables.for_seat(game_id, seat)),
        ],
        default=str,
    )


def test_a_blocked_player_invites_nobody_who_blocked_them_nor_meets_them_in_the_lobby(services):
    ada, bo, cy = people(services, "Ada", "Bo", "Cy")
    services.players.set_friends(ada, [bo])  # Bo may seat Ada directly...
    assert [p["id"] for p in services.players.set_blocked(ada, [bo])["blocked"]] == [bo]
    message = refused(
        ErrorCode.GAME_INVALID_SEATS, lambda: services.games.create(bo, "nautilus", [bo, ada])
    )
    assert "Ada" in message and "block" in message
    refused(ErrorCode.GAME_INVALID_SEATS, lambda: services.games.create(ada, "nautilus", [ada, bo]))
    open_game = services.games.create(bo, "nautilus", [bo, None])["id"]
    assert open_game not in [g["id"] for g in services.games.open_games(viewer=ada)]
    assert open_game in [g["id"] for g in services.games.open_games(viewer=cy)]
    refused(ErrorCode.GAME_BLOCKED, lambda: services.games.join(open_game, ada))
    services.games.join(open_game, cy)
    refused(ErrorCode.PLAYER_INVALID_FRIENDS, lambda: services.players.set_blocked(ada, [ada]))
    services.players.set_blocked(ada, [])
    services.games.create(bo, "nautilus", [bo, ada])  # unblocked: seated again


def test_the_messages_of_a_blocked_player_are_hidden_from_the_blocker_only(services):
    ada, bo, cy = people(services, "Ada", "Bo", "Cy")
    for friend in (bo, cy):
        services.players.set_friends(friend, [ada])
    game_id = services.games.create(ada, "consonar", [ada, bo, cy])["id"]
    services.talk.say(game_id, bo, "before the block")
    services.players.set_blocked(ada, [bo])
    services.talk.say(game_id, bo, "after the block")
    services.talk.say(game_id, cy, "from Cy")
    seen = everything_seen(services, game_id, ada)
    assert "the block" not in seen and "from Cy" in seen
    assert "after the block" in everything_seen(services, game_id, cy)
    services.talk.say(game_id, ada, "Ada still speaks")
    assert "Ada still speaks" in everything_seen(services, game_id, bo)


def test_a_report_of_a_message_or_a_player_is_kept_for_the_operators(services, redis_client):
    ada, bo, cy = people(services, "Ada", "Bo", "Cy")
    for friend in (bo, cy):
        services.players.set_friends(friend, [ada])
    game_id = services.games.create(ada, "consonar", [ada, bo, cy])["id"]
    rude = services.talk.say(game_id, bo, "something rude")
    private = services.talk.say(game_id, bo, "only for Cy", to=2)
    report = services.moderation.report(
        ada, reason="rude", game_id=game_id, message=rude["version"]
    )
    assert report["status"] == "received"
    services.moderation.report(cy, reason="spams the lobby", player_id=bo)
    # no report of a message one may not read (the answer is the same as for none at all)
    for version in (private["version"], 999, 1):
        refused(
            ErrorCode.REPORT_INVALID,
            lambda v=version: services.moderation.report(
                ada, reason="x", game_id=game_id, message=v
            ),
        )
    refused(ErrorCode.REPORT_INVALID, lambda: services.moderation.report(ada, reason="x"))
    refused(
        ErrorCode.REPORT_INVALID,
        lambda: services.moderation.report(ada, reason="me", player_id=ada),
    )
    for what in ("CRLF", "NUL", "RTL override", "10,000 characters"):
        refused(
            ErrorCode.CHAT_INVALID,
            lambda what=what: services.moderation.report(ada, reason=REFUSED[what], player_id=bo),
        )
    kept = ModerationStore(redis_client).reports()
    assert [(r["reporter"], r["player"], r.get("text")) for r in kept] == [
        (ada, bo, "something rude"),
        (cy, bo, None),
    ]


def test_an_operator_hides_a_message_from_everyone_and_it_is_in_the_audit_log(
    services, redis_client
):
    ada, bo = people(services, "Ada", "Bo")
    services.players.set_friends(bo, [ada])
    game_id = services.games.create(ada, "nautilus", [ada, bo])["id"]
    bad = services.talk.say(game_id, bo, "a very bad word")
    services.moderation.hide(game_id, bad["version"], "insult", operator="olga")
    for reader in (ada, bo):
        seen = everything_seen(services, game_id, reader)
        assert "a very bad word" not in seen and "hidden by the moderators" in seen
    refused(
        ErrorCode.REPORT_INVALID, lambda: services.moderation.hide(game_id, 1, "x", operator="o")
    )
    actions = ModerationStore(redis_client).audit_log()
    assert [(a["action"], a["operator"], a["game"], a["message"]) for a in actions] == [
        ("hide", "olga", game_id, bad["version"])
    ]
    events = services.games.games.events(game_id)
    assert services.games.replay(game_id) == services.games.load(game_id)
    assert events[-1]["type"] == "MessageHidden"


def test_a_suspended_player_is_signed_out_and_their_games_go_to_the_timeout_policy(
    services, redis_client
):
    ada, bo = people(services, "Ada", "Bo")
    services.players.set_friends(bo, [ada])
    token = services.players.new_token(bo)["token"]
    clock = {"per_move_seconds": 86_400, "on_timeout": "auto"}
    timed = services.games.create(ada, "nautilus", [ada, bo], time_control=clock)["id"]
    untimed = services.games.create(ada, "buttons", [ada, bo])["id"]
    bo_to_move = 1 in services.games.load(timed)["active_seats"]
    services.moderation.suspend(bo, "harassment", operator="olga")
    refused(ErrorCode.AUTH_BAD_TOKEN, lambda: services.players.authenticate(token))
    assert services.sign_in.send_links("bo@example.org") == 0
    untimed_now = services.games.load(untimed)
    assert untimed_now["status"] == "finished" and 1 in untimed_now["match"]["resigned"]
    kinds = [e["type"] for e in services.games.games.events(timed)]
    assert ("TurnTimedOut" in kinds) is bo_to_move
    assert services.games.load(timed)["status"] == "active"  # the computer plays for Bo
    actions = ModerationStore(redis_client).audit_log()
    assert [(a["action"], a["player"], a["reason"]) for a in actions] == [
        ("suspend", bo, "harassment")
    ]
    services.moderation.restore(bo, operator="olga")
    assert services.sign_in.send_links("bo@example.org") == 1
    assert [a["action"] for a in ModerationStore(redis_client).audit_log()] == [
        "suspend",
        "restore",
    ]


def test_a_suspension_gives_up_the_players_seats_in_games_not_begun_and_no_game_seats_them(
    services, redis_client
):
    ada, bo, cy, dee = people(services, "Ada", "Bo", "Cy", "Dee")
    services.players.set_friends(bo, [ada])
    services.players.set_friends(cy, [ada])
    # a game of three without a clock, under way: Bo leaves it, Ada and Cy play on
    playing = services.games.create(ada, "consonar", [ada, bo, cy])["id"]
    # Bo seated, Dee invited: the game waits for Dee
    waiting = services.games.create(ada, "consonar", [ada, bo, dee])["id"]
    # Bo invited by Cy: the game waits for Bo's answer
    invited = services.games.create(cy, "consonar", [cy, bo, ada])["id"]
    services.games.join(invited, ada)
    done = services.moderation.suspend(bo, "harassment", operator="olga")
    assert sorted(done["games"]) == sorted([playing, waiting, invited])
    now = services.games.load(playing)
    assert now["status"] == "active" and now["match"]["resigned"] == [1]
    assert 1 not in now["active_seats"]
    # the seat Bo held opens: the game no longer waits for him, and starts without him
    assert services.games.load(waiting)["seats"][1]["kind"] == "open"
    services.games.join(waiting, dee)
    assert services.games.load(waiting)["status"] == "open"
    # his invitation is declined for him: the game is cancelled, as a refusal cancels it
    assert services.games.load(invited)["status"] == "cancelled"
    # no game seats him from now on, friend or not
    message = refused(
        ErrorCode.GAME_INVALID_SEATS,
        lambda: services.games.create(ada, "consonar", [ada, bo, cy]),
    )
    assert "Bo" in message
    # run twice (the operator again, or after a crash half-way): nothing more is written
    versions = [services.games.load(g)["version"] for g in (playing, waiting, invited)]
    assert services.moderation.suspend(bo, "harassment", operator="olga")["games"] == []
    assert [services.games.load(g)["version"] for g in (playing, waiting, invited)] == versions
    for game_id in (playing, waiting, invited):
        assert services.games.replay(game_id) == services.games.load(game_id)
