"""The use-cases on a real Valkey, with the platform's test game."""

import inspect
import json
import threading
from contextlib import contextmanager

import pytest

from engine import match as runner
from service.errors import ServiceError, StaleVersion
from store import keys


@contextmanager
def refused(status: int, match: str | None = None):
    """The use case refuses with an error of this HTTP status (and these words)."""
    with pytest.raises(ServiceError, match=match) as err:
        yield err
    assert err.value.status == status, err.value.code


def two_players(players):
    """Ada and Bo, who lets Ada seat him in her games without an invitation."""
    ada, bo = players.register("Ada")["id"], players.register("Bo")["id"]
    players.set_friends(bo, [ada])
    return ada, bo


def test_create_with_all_seats_filled_starts_the_game(services, test_game):
    players, games = services
    a, b = two_players(players)
    summary = games.create(a, "hiddenbid", [a, b])
    assert summary["status"] == "active"
    assert summary["version"] == 2  # GameCreated, GameStarted
    assert summary["active_seats"] == [0, 1]
    assert len(summary["seed_commitment"]) == 64 and summary["seed"] is None


def test_open_seat_then_join_starts(services, test_game):
    players, games = services
    a, b = two_players(players)
    summary = games.create(a, "hiddenbid", [a, None])
    assert summary["status"] == "open"
    assert [g["id"] for g in games.open_games()] == [summary["id"]]
    with refused(409):
        games.view(summary["id"], a)
    joined = games.join(summary["id"], b)
    assert joined["status"] == "active" and joined["version"] == 3  # + PlayerJoined, GameStarted
    assert games.open_games() == []
    with refused(409, match="no open seat"):
        games.join(summary["id"], b)


def test_unknown_game_and_players_are_refused(services, test_game):
    players, games = services
    a, _ = two_players(players)
    with refused(422, match="there is no game"):
        games.create(a, "chess", [a, None])
    with refused(422, match="no player"):
        games.create(a, "hiddenbid", [a, "p_nobody"])
    with refused(422, match="2 to 3 players"):
        games.create(a, "hiddenbid", [a])
    with refused(422, match="two seats"):
        games.create(a, "hiddenbid", [a, a])
    with refused(404):
        games.summary("g_missing")


def play_whole_game(games, game_id, ids):
    while True:
        s = games.summary(game_id)
        if s["status"] == "finished":
            return s
        seat = s["active_seats"][0]
        moves = games.legal_moves(game_id, ids[seat])
        games.play(game_id, ids[seat], moves["version"], notation=moves["moves"][0]["notation"])


def test_whole_game_then_replay_equals_snapshot(services, test_game):
    players, games = services
    ids = two_players(players)
    g = games.create(ids[0], "hiddenbid", list(ids))["id"]
    final = play_whole_game(games, g, ids)
    assert final["outcome"]["reason"] == "all rounds played"
    assert final["seed"] is not None and final["active_seats"] == []
    assert games.replay(g) == games.load(g)


def test_stale_version_is_refused_with_the_current_version(services, test_game):
    players, games = services
    a, b = two_players(players)
    g = games.create(a, "hiddenbid", [a, b])["id"]
    moves = games.legal_moves(g, a)
    games.play(g, a, moves["version"], action=moves["moves"][0]["action"])
    with pytest.raises(StaleVersion) as err:
        games.play(g, a, moves["version"], action=moves["moves"][1]["action"])
    assert err.value.details == {"current_version": 3}


def test_simultaneous_choices_do_not_collide(services, test_game):
    players, games = services
    a, b = two_players(players)
    g = games.create(a, "hiddenbid", [a, b])["id"]
    version = games.summary(g)["version"]
    games.play(g, a, version, action=games.legal_moves(g, a)["moves"][0]["action"])
    # b read the game before a's bid; its bid still goes through
    answer = games.play(g, b, version, action=games.legal_moves(g, b)["moves"][0]["action"])
    assert answer["version"] == version + 2


def test_fifty_threads_same_version_exactly_one_wins(services, test_game):
    players, games = services
    a, b = two_players(players)
    g = games.create(a, "hiddenbid", [a, b])["id"]
    moves = games.legal_moves(g, a)
    results = []

    def attempt():
        try:
            games.play(g, a, moves["version"], action=moves["moves"][0]["action"])
            results.append("ok")
        except ServiceError as err:
            results.append(err.code)

    threads = [threading.Thread(target=attempt) for _ in range(50)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results.count("ok") == 1
    assert all(r == "move/stale_version" for r in results if r != "ok")
    versions = [e["version"] for e in games.games.events(g)]
    assert versions == list(range(1, len(versions) + 1)) and len(versions) == 3


def test_idempotency_key_returns_the_first_answer_and_appends_nothing(services, test_game):
    players, games = services
    a, b = two_players(players)
    g = games.create(a, "hiddenbid", [a, b])["id"]
    moves = games.legal_moves(g, a)
    first = games.play(
        g, a, moves["version"], action=moves["moves"][0]["action"], idempotency_key="k1"
    )
    again = games.play(
        g, a, moves["version"], action=moves["moves"][0]["action"], idempotency_key="k1"
    )
    assert again == first
    assert len(games.games.events(g)) == 3


def test_not_a_player_is_forbidden(services, test_game):
    players, games = services
    a, b = two_players(players)
    c = players.register("Cy")["id"]
    g = games.create(a, "hiddenbid", [a, b])["id"]
    with refused(403):
        games.play(g, c, 2, notation="bid 1")
    assert games.view(g, c)["seat"] is None  # a spectator


def test_log_and_views_hide_other_hands_and_the_seed(services, test_game):
    players, games = services
    a, b = two_players(players)
    g = games.create(a, "hiddenbid", [a, b])["id"]
    snap = games.load(g)
    hand_b = snap["match"]["state"]["hands"][1]
    v = games.summary(g)["version"]
    games.play(g, b, v, action={"type": "bid", "card": hand_b[0]})
    seed = snap["secret_seed"]
    for reader, secret in ((a, hand_b), (None, hand_b)):
        text = json.dumps(games.log(g, reader)) + json.dumps(games.view(g, reader))
        assert seed not in text
        assert f"you were dealt {' '.join(map(str, secret))}" not in text
        assert f"bid {hand_b[0]}" not in text
    mine = json.dumps(games.log(g, b))
    assert f"you were dealt {' '.join(map(str, hand_b))}" in mine
    assert f'"move": "bid {hand_b[0]}"' in mine


def test_resign_ends_the_game_and_reveals_the_seed(services, test_game):
    players, games = services
    a, b = two_players(players)
    g = games.create(a, "hiddenbid", [a, b])["id"]
    s = games.resign(g, a)
    assert s["status"] == "finished" and s["outcome"]["winners"] == [1]
    assert s["seed"] == games.load(g)["secret_seed"]
    assert games.replay(g) == games.load(g)


def test_inbox_lists_games_awaiting_my_move(services, test_game):
    players, games = services
    a, b = two_players(players)
    g = games.create(a, "hiddenbid", [a, b])["id"]
    assert [s["id"] for s in games.list_games(a, awaiting=True)[0]] == [g]
    games.play(g, a, 2, action=games.legal_moves(g, a)["moves"][0]["action"])
    assert games.list_games(a, awaiting=True) == ([], None)
    assert [s["id"] for s in games.list_games(a)[0]] == [g]


def test_retries_racing_their_original_all_answer_the_originals_201(services):
    """Eight copies of one move with one Idempotency-Key, sent at once (a client retrying while
    the first is still under way): one move is played, every copy gets its answer, none 409."""
    players, games = services
    a, b = two_players(players)
    g = games.create(a, "nautilus", [a, b])["id"]
    mover = a if 0 in games.load(g)["active_seats"] else b
    moves = games.legal_moves(g, mover)
    start = threading.Barrier(8)
    answers = []

    def post():
        start.wait()
        answers.append(
            games.play(
                g,
                mover,
                moves["version"],
                idempotency_key="same",
                action=moves["moves"][0]["action"],
            )
        )

    threads = [threading.Thread(target=post) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(answers) == 8 and all(answer == answers[0] for answer in answers)
    assert [e["type"] for e in games.games.events(g)].count("ActionTaken") == 1


def test_a_game_created_before_an_option_starts_under_the_rules_it_was_created_with(
    services, redis_client
):
    """A game that waited for a player while an option was added (Buttons' two_player_aside)
    begins under the rule of before the option, as its log replays."""
    players, games = services
    a, b = two_players(players)
    game_id = games.create(a, "buttons", [a, None])["id"]
    old = games.load(game_id)
    old["options"] = {}  # as the record of a game created before the option has it
    redis_client.set(keys.game_snapshot(game_id), json.dumps(old))
    games.join(game_id, b)
    started = games.load(game_id)["match"]
    assert started["options"] == {} and "two_player_aside" not in started["state"]
    new_game = games.create(a, "buttons", [a, b])["id"]
    assert games.load(new_game)["match"]["state"]["two_player_aside"] == 1


def runner_calls(monkeypatch) -> list[str]:
    """The names of the runner's functions called from outside it, from now on (the calls
    they make inside the runner are not counted)."""
    calls: list[str] = []
    depth = [0]

    def counted(name, function):
        def call(*args, **kwargs):
            if depth[0] == 0:
                calls.append(name)
            depth[0] += 1
            try:
                return function(*args, **kwargs)
            finally:
                depth[0] -= 1

        return call

    for name, function in vars(runner).items():
        if inspect.isfunction(function) and function.__module__ == runner.__name__:
            monkeypatch.setattr(runner, name, counted(name, function))
    return calls


def test_a_move_is_checked_and_applied_by_one_call_of_the_runner(services, test_game, monkeypatch):
    players, games = services
    a, b = two_players(players)
    g = games.create(a, "hiddenbid", [a, b])["id"]
    moves = games.legal_moves(g, a)
    calls = runner_calls(monkeypatch)
    games.play(g, a, moves["version"], notation=moves["moves"][0]["notation"])
    # the fold then asks whether the move may be taken back, and reads who may act in the new
    # match, for the snapshot (as a replay does); neither applies the move again
    assert calls == ["move", "can_take_back", "active_seats"]


def test_a_move_is_refused_in_the_documented_order(services, test_game):
    """Over, then stale, then not the seat's turn, then malformed, then illegal."""
    players, games = services
    a, b = two_players(players)
    g = games.create(a, "hiddenbid", [a, b])["id"]
    hand_b = games.load(g)["match"]["state"]["hands"][1]
    games.play(g, a, 2, action=games.legal_moves(g, a)["moves"][0]["action"])
    with refused(409, match="moved on to version 3"):  # stale, and illegal, and not a's turn
        games.play(g, a, 2, action={"type": "bid", "card": hand_b[0]})
    with refused(409, match="not your turn"):  # and malformed
        games.play(g, a, 3, notation="fly away")
    with refused(422):  # and a card b does not hold
        games.play(g, b, 2, action={"type": "bid"})
    with refused(409, match="not allowed"):
        games.play(g, b, 3, action={"type": "keep"})
    games.resign(g, b)
    with refused(409, match="the game is over"):  # and stale, and malformed
        games.play(g, a, 2, notation="fly away")
