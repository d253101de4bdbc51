"""Proposals on a real Valkey (service/play/agreements.py, the decisions of talk.py): each an
event pair in the log; a takeback keeps the move and its takeback, and leaves the view, the
legal moves and the replay as before the move; a pause moves the deadlines; a shared result
and an abort end the game as such; a proposal lapses, is declined, withdrawn, or void when
what it was about changed first."""

from __future__ import annotations

import random

import pytest

from engine import registry
from service.errors import ErrorCode, ServiceError, TooMany
from service.play import agreements, history
from service.play.games import GameService, legal_move_list
from service.play.talk import Talk, TalkLimits
from service.players.accounts import PlayerService
from store import keys
from store.games import GameStore
from store.players import PlayerStore
from store.schedule import member


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def world(redis_client):
    clock = Clock()
    players = PlayerService(PlayerStore(redis_client))
    games = GameService(GameStore(redis_client), PlayerStore(redis_client), clock=clock)
    talk = Talk(games, PlayerStore(redis_client), TalkLimits(1000, 1000, proposal_hours=48))
    return players, games, talk, clock


def seated(players, games, title, count, bots=(), **options):
    ids = [players.register(f"P{i}")["id"] for i in range(count)]
    for friend in ids[1:]:
        players.set_friends(friend, [ids[0]])
    return games.create(ids[0], title, [*ids, *bots], **options)["id"], ids


def refused(error, call):
    with pytest.raises(ServiceError) as found:
        call()
    assert found.value.error is error, found.value.message
    return found.value.message


def play_until_undoable(games, game_id, ids, rnd):
    """Random moves until the last one may be taken back; its mover's seat."""
    for _ in range(500):
        snap = games.load(game_id)
        last = agreements.of(snap)["last_move"]
        if (
            last is not None
            and last["undoable"]
            and snap["seats"][last["seat"]]["kind"] == "player"
        ):
            return last["seat"]
        seat = rnd.choice(snap["active_seats"])
        moves = games.legal_moves(game_id, ids[seat])
        games.play(
            game_id, ids[seat], moves["version"], action=rnd.choice(moves["moves"])["action"]
        )
    raise AssertionError("no move that may be taken back came")


def kinds(games, game_id, since):
    return [e["type"] for e in games.games.events(game_id, after=since)]


@pytest.mark.parametrize("title", sorted(registry.GAMES))
def test_a_takeback_accepted_gives_back_what_everyone_saw_and_keeps_the_record(world, title):
    players, games, talk, _ = world
    info = registry.GAMES[title].info
    game_id, ids = seated(players, games, title, info.max_players if title == "consonar" else 2)
    rnd = random.Random(title)
    # play to a position, remember what everyone saw, make a quiet move, take it back
    mover = play_until_undoable(games, game_id, ids, rnd)
    events = games.games.events(game_id)
    move = events[-1]
    assert move["type"] == "ActionTaken" and move["seat"] == mover
    wanted = seen_by_everyone_of(games, history.replay(events[:-1]), ids)
    proposal = talk.propose(game_id, ids[mover], "takeback")
    assert proposal["move"] == move["version"] and proposal["status"] == "open"
    for seat in proposal["waiting"]:
        talk.answer(game_id, ids[seat], proposal["id"], True)
    after = games.load(game_id)
    assert seen_by_everyone_of(games, after, ids) == wanted
    log = kinds(games, game_id, move["version"] - 1)
    assert log[0] == "ActionTaken" and log[1] == "ProposalMade" and log[-1] == "ProposalClosed"
    closed = games.games.events(game_id)[-1]
    assert (closed["result"], closed["kind"], closed["proposer"]) == ("accepted", "takeback", mover)
    assert history.replay(games.games.events(game_id)) == after
    # the mover plays on from there; the move cannot be taken back twice
    refused(ErrorCode.PROPOSAL_NOT_ALLOWED, lambda: talk.propose(game_id, ids[mover], "takeback"))
    moves = games.legal_moves(game_id, ids[mover])
    games.play(game_id, ids[mover], moves["version"], action=moves["moves"][-1]["action"])
    assert history.replay(games.games.events(game_id)) == games.load(game_id)


def seen_by_everyone_of(games, snap, ids):
    """Each seat's and a spectator's view, and each seat's legal moves, of a snapshot."""
    views = [history.seat_view(snap, s) for s in [*range(len(ids)), None]]
    for view in views:
        view.pop("version")
    moves = [legal_move_list(snap, s) if s in snap["active_seats"] else [] for s in range(len(ids))]
    return views, moves, snap["active_seats"]


def test_only_the_last_quiet_move_may_be_taken_back_by_its_player(world):
    players, games, talk, _ = world
    game_id, ids = seated(players, games, "consonar", 3)
    snap = games.load(game_id)
    mover = snap["active_seats"][0]
    other = (mover + 1) % 3
    message = refused(
        ErrorCode.PROPOSAL_NOT_ALLOWED, lambda: talk.propose(game_id, ids[mover], "takeback")
    )
    assert "last move" in message
    moves = games.legal_moves(game_id, ids[mover])
    games.play(game_id, ids[mover], moves["version"], action=moves["moves"][0]["action"])  # fleet
    refused(ErrorCode.PROPOSAL_NOT_ALLOWED, lambda: talk.propose(game_id, ids[other], "takeback"))
    talk.propose(game_id, ids[mover], "takeback")
    refused(ErrorCode.PROPOSAL_NOT_ALLOWED, lambda: talk.propose(game_id, ids[mover], "takeback"))
    # ending the turn draws cards: that cannot be taken back
    proposal = agreements.open_proposals(games.load(game_id))[0]
    talk.withdraw(game_id, ids[mover], proposal["id"])
    moves = games.legal_moves(game_id, ids[mover])
    end = next(m for m in moves["moves"] if m["action"]["type"] == "end")
    games.play(game_id, ids[mover], moves["version"], action=end["action"])
    message = refused(
        ErrorCode.PROPOSAL_NOT_ALLOWED, lambda: talk.propose(game_id, ids[mover], "takeback")
    )
    assert "showed something hidden or drew a random number" in message


def test_a_move_after_the_proposal_makes_it_void_and_answers_then_find_it_gone(world):
    players, games, talk, _ = world
    game_id, ids = seated(players, games, "ninedomains", 2)
    moves = games.legal_moves(game_id, ids[0])
    games.play(game_id, ids[0], moves["version"], action=moves["moves"][0]["action"])
    proposal = talk.propose(game_id, ids[0], "takeback")  # a face-down commit: nothing shown
    moves = games.legal_moves(game_id, ids[1])
    games.play(game_id, ids[1], moves["version"], action=moves["moves"][0]["action"])
    closed = [e for e in games.games.events(game_id) if e["type"] == "ProposalClosed"]
    assert [(c["proposal"], c["result"], c["by"]) for c in closed] == [
        (proposal["id"], "void", None)
    ]
    refused(
        ErrorCode.PROPOSAL_NOT_FOUND, lambda: talk.answer(game_id, ids[1], proposal["id"], True)
    )


def test_declined_withdrawn_or_answered_twice(world):
    players, games, talk, _ = world
    game_id, ids = seated(players, games, "buttons", 3)
    proposal = talk.propose(game_id, ids[0], "draw")
    assert sorted(proposal["waiting"]) == [1, 2]
    refused(
        ErrorCode.PROPOSAL_NOT_ASKED, lambda: talk.answer(game_id, ids[0], proposal["id"], True)
    )
    refused(ErrorCode.PROPOSAL_NOT_ASKED, lambda: talk.withdraw(game_id, ids[1], proposal["id"]))
    assert talk.answer(game_id, ids[1], proposal["id"], True)["accepted"] == [1]
    refused(
        ErrorCode.PROPOSAL_NOT_ASKED, lambda: talk.answer(game_id, ids[1], proposal["id"], True)
    )
    declined = talk.answer(game_id, ids[2], proposal["id"], False)
    assert declined["status"] == "declined"
    assert games.load(game_id)["status"] == "active"
    again = talk.propose(game_id, ids[1], "draw")
    assert talk.withdraw(game_id, ids[1], again["id"])["status"] == "withdrawn"
    assert agreements.open_proposals(games.load(game_id)) == []


def test_a_shared_result_ends_the_game_for_those_still_in_it(world):
    players, games, talk, _ = world
    game_id, ids = seated(players, games, "consonar", 4)
    snap = games.load(game_id)
    leaver = next(s for s in range(4) if s not in snap["active_seats"])
    games.resign(game_id, ids[leaver])
    proposal = talk.propose(game_id, ids[(leaver + 1) % 4], "draw")
    for seat in proposal["waiting"]:
        talk.answer(game_id, ids[seat], proposal["id"], True)
    over = games.summary(game_id)
    assert over["status"] == "finished"
    assert over["outcome"] == {
        "winners": sorted(set(range(4)) - {leaver}),
        "scores": None,
        "reason": agreements.SHARED,
    }
    assert kinds(games, game_id, proposal["id"] - 1)[-2:] == ["ProposalClosed", "GameEnded"]
    assert history.replay(games.games.events(game_id)) == games.load(game_id)


def test_an_abort_in_the_first_two_rounds_ends_the_game_with_no_result(world):
    players, games, talk, _ = world
    game_id, ids = seated(players, games, "nautilus", 2)
    proposal = talk.propose(game_id, ids[1], "abort")
    assert talk.answer(game_id, ids[0], proposal["id"], True)["status"] == "accepted"
    summary = games.summary(game_id)
    assert summary["status"] == "cancelled" and summary["outcome"]["winners"] == []
    assert summary["active_seats"] == []
    refused(ErrorCode.MOVE_GAME_OVER, lambda: games.play(game_id, ids[0], 99, notation="pass"))
    assert games.view(game_id, ids[0])["game"] == "nautilus"  # the table stays to be seen
    assert history.replay(games.games.events(game_id)) == games.load(game_id)
    # past the second round: no abort
    game_id, ids = seated(players, games, "nautilus", 2)
    rnd = random.Random(2)
    while max(agreements.of(games.load(game_id))["turns"]) <= agreements.ABORT_TURNS:
        snap = games.load(game_id)
        seat = snap["active_seats"][0]
        moves = games.legal_moves(game_id, ids[seat])
        games.play(
            game_id, ids[seat], moves["version"], action=rnd.choice(moves["moves"])["action"]
        )
    message = refused(
        ErrorCode.PROPOSAL_NOT_ALLOWED, lambda: talk.propose(game_id, ids[0], "abort")
    )
    assert "first 2 rounds" in message


def test_a_pause_moves_every_deadline_and_the_timeouts_with_them(world, redis_client):
    players, games, talk, clock = world
    control = {"per_move_seconds": 86_400, "on_timeout": "forfeit"}
    game_id, ids = seated(players, games, "nautilus", 2, time_control=control)
    no_clock, others = seated(players, games, "nautilus", 2)
    refused(ErrorCode.PROPOSAL_NOT_ALLOWED, lambda: talk.propose(no_clock, others[0], "pause", 3))
    refused(ErrorCode.PROPOSAL_NOT_ALLOWED, lambda: talk.propose(game_id, ids[0], "pause", 31))
    before = games.load(game_id)
    seat = before["active_seats"][0]
    clock.now += 3600
    proposal = talk.propose(game_id, ids[0], "pause", 3)
    talk.answer(game_id, ids[1], proposal["id"], True)
    after = games.load(game_id)
    assert after["deadlines"][seat] == before["deadlines"][seat] + 3 * 86_400_000
    since = after["match"]["seat_since"][seat]
    timeout = member({"kind": "timeout", "game": game_id, "seat": seat, "since": since})
    bucket = keys.schedule(keys.bucket_of(game_id))
    assert redis_client.zscore(bucket, timeout) == after["deadlines"][seat]
    # a turn that begins during the pause counts from its end
    moves = games.legal_moves(game_id, ids[seat])
    games.play(game_id, ids[seat], moves["version"], action=moves["moves"][0]["action"])
    now = games.load(game_id)
    paused_until = agreements.paused_until(now)
    assert paused_until == int(clock.now * 1000) + 3 * 86_400_000
    for s in now["active_seats"]:
        if now["match"]["seat_since"][s] == now["version"]:
            assert now["deadlines"][s] == paused_until + 86_400_000
    assert history.replay(games.games.events(game_id)) == now


def test_a_proposal_lapses_at_its_deadline_by_the_clock(world, redis_client):
    players, games, talk, clock = world
    game_id, ids = seated(players, games, "buttons", 2)
    proposal = talk.propose(game_id, ids[0], "draw")
    lapse = member({"kind": "lapse", "game": game_id, "proposal": proposal["id"]})
    bucket = keys.schedule(keys.bucket_of(game_id))
    assert redis_client.zscore(bucket, lapse) == clock.now * 1000 + 48 * 3_600_000
    assert talk.lapse(game_id, proposal["id"]) == "early"
    clock.now += 48 * 3600
    assert talk.lapse(game_id, proposal["id"]) == "applied"
    assert talk.lapse(game_id, proposal["id"]) == "moot"
    assert redis_client.zscore(bucket, lapse) is None
    closed = games.games.events(game_id)[-1]
    assert (closed["type"], closed["result"], closed["by"]) == ("ProposalClosed", "lapsed", None)


def test_against_bots_a_takeback_needs_nobody_s_yes_and_no_result_is_shared(world):
    players, games, talk, _ = world
    game_id, ids = seated(players, games, "nautilus", 1, bots=["bot:random"])
    rnd = random.Random(3)
    for _ in range(200):
        snap = games.load(game_id)
        last = agreements.of(snap)["last_move"]
        if last and last["undoable"] and last["seat"] == 0:
            break
        if 0 in snap["active_seats"]:
            moves = games.legal_moves(game_id, ids[0])
            games.play(
                game_id, ids[0], moves["version"], action=rnd.choice(moves["moves"])["action"]
            )
        else:
            games.bot_move(game_id, 1, snap["version"])
    taken = talk.propose(game_id, ids[0], "takeback")
    assert taken["status"] == "accepted" and taken["waiting"] == []
    message = refused(ErrorCode.PROPOSAL_NOT_ALLOWED, lambda: talk.propose(game_id, ids[0], "draw"))
    assert "a bot does not agree" in message


def test_proposals_and_answers_count_against_the_players_quota(world, redis_client):
    """A proposal, and an answer, count as a message does (TALK_PER_MINUTE): past the quota,
    429 with when to try again, and nothing is written; the others may still answer."""
    players, games, _, _ = world
    talk = Talk(games, PlayerStore(redis_client), TalkLimits(per_minute=2, per_hour=100))
    game_id, ids = seated(players, games, "buttons", 3)
    talk.say(game_id, ids[0], "shall we call it a day?")
    made = talk.propose(game_id, ids[0], "draw")
    for _ in range(2):
        talk.say(game_id, ids[2], "hmm")
    version = games.load(game_id)["version"]
    for past_the_quota in (
        lambda: talk.propose(game_id, ids[0], "abort"),
        lambda: talk.answer(game_id, ids[2], made["id"], True),
    ):
        with pytest.raises(TooMany) as found:
            past_the_quota()
        assert found.value.status == 429 and 1 <= found.value.retry_after <= 60
    assert games.load(game_id)["version"] == version
    talk.answer(game_id, ids[1], made["id"], True)  # Bo's quota is his own
    assert agreements.find(games.load(game_id), made["id"])["accepted"] == [1]
