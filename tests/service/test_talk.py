"""Table talk on a real Valkey (service/play/talk.py): who may write, who reads what, the text
that is refused, and that a message is an event of the game that changes nothing else."""

import json

import pytest

from service.errors import ErrorCode, ServiceError, TooMany
from service.play import history, table
from service.play.talk import Talk, TalkLimits
from store.games import GameStore
from store.players import PlayerStore
from tests.hostile_text import REFUSED, SHOWN


@pytest.fixture
def talk(services, redis_client, test_game):
    _, games = services
    return Talk(games, PlayerStore(redis_client), TalkLimits(per_minute=1000, per_hour=1000))


def seated(players, games, names, title="hiddenbid"):
    """A started game with a seat for each name (every one lets the first seat them)."""
    ids = [players.register(name)["id"] for name in names]
    for friend in ids[1:]:
        players.set_friends(friend, [ids[0]])
    return games.create(ids[0], title, ids)["id"], ids


def refused_with(error, call):
    with pytest.raises(ServiceError) as found:
        call()
    assert found.value.error is error, found.value.message
    return found.value.message


def texts(entries):
    return json.dumps(entries, ensure_ascii=False)


def test_a_message_to_the_table_is_read_by_every_seat_and_no_spectator(services, talk):
    players, games = services
    game_id, (ada, bo, cy) = seated(players, games, ["Ada", "Bo", "Cy"])
    stranger = players.register("Eve")["id"]
    sent = talk.say(game_id, bo, "  good luck, all  ")
    assert (sent["text"], sent["seat"], sent["private"], sent["to"]) == (
        "good luck, all",
        1,
        False,
        None,
    )
    for reader in (ada, bo, cy):
        assert [m["text"] for m in talk.messages(game_id, reader)["messages"]] == ["good luck, all"]
        assert "good luck, all" in texts(games.log(game_id, reader))
    assert "good luck" not in texts(games.log(game_id, stranger))
    assert "good luck" not in texts(games.log(game_id, None))
    refused_with(ErrorCode.GAME_NOT_A_PLAYER, lambda: talk.messages(game_id, stranger))
    refused_with(ErrorCode.GAME_NOT_A_PLAYER, lambda: talk.say(game_id, stranger, "hi"))


def test_a_private_message_is_read_by_its_two_players_only(services, talk, redis_client):
    players, games = services
    game_id, (ada, bo, cy) = seated(players, games, ["Ada", "Bo", "Cy"])
    talk.say(game_id, ada, "secret plan", to=2)
    talk.say(game_id, bo, "hello everyone")
    for reader, reads in ((ada, True), (cy, True), (bo, False)):
        found = talk.messages(game_id, reader)["messages"]
        assert ("secret plan" in texts(found)) is reads
        assert "hello everyone" in texts(found)
        log = games.log(game_id, reader)
        assert ("secret plan" in texts(log)) is reads
        entries, _ = games.wait_log(game_id, reader, 0, 10)
        assert ("secret plan" in texts(entries)) is reads
        tables = table.Tables(GameStore(redis_client))
        seen = repr(tables.for_player(game_id, reader))
        assert ("secret plan" in seen) is reads
    private = next(m for m in talk.messages(game_id, cy)["messages"] if m["private"])
    assert (private["seat"], private["to"], private["name"]) == (0, 2, "Ada")
    # the third player's log skips the version, and its pages still go on past it
    versions = [e["version"] for e in games.log(game_id, bo)["entries"]]
    assert private["version"] not in versions and versions[-1] == private["version"] + 1
    page = games.log(game_id, bo, after=private["version"] - 1, limit=1)
    assert page["entries"] == [] and page["read_to"] == private["version"]


def test_private_messages_need_three_seats_and_another_player(services, talk):
    players, games = services
    game_id, (ada, _) = seated(players, games, ["Ada", "Bo"])
    refused_with(ErrorCode.CHAT_BAD_RECIPIENT, lambda: talk.say(game_id, ada, "psst", to=1))
    ada3 = players.register("Ann")["id"]
    bo3 = players.register("Ben")["id"]
    players.set_friends(bo3, [ada3])
    game3 = games.create(ada3, "hiddenbid", [ada3, bo3, "bot:random"])["id"]
    for to in (0, 2, 3, -1):  # oneself, a bot, no such seat
        refused_with(ErrorCode.CHAT_BAD_RECIPIENT, lambda to=to: talk.say(game3, ada3, "x", to=to))
    assert talk.say(game3, ada3, "to Ben", to=1)["to"] == 1


@pytest.mark.parametrize("what", sorted(REFUSED))
def test_hostile_text_is_refused_saying_why(services, talk, what):
    players, games = services
    game_id, (ada, _) = seated(players, games, ["Ada", "Bo"])
    before = games.load(game_id)["version"]
    message = refused_with(ErrorCode.CHAT_INVALID, lambda: talk.say(game_id, ada, REFUSED[what]))
    assert "message" in message
    assert games.load(game_id)["version"] == before


@pytest.mark.parametrize("what", sorted(SHOWN))
def test_odd_text_is_kept_as_it_was_written(services, talk, what):
    players, games = services
    game_id, (ada, bo) = seated(players, games, ["Ada", "Bo"])
    talk.say(game_id, ada, SHOWN[what])
    assert talk.messages(game_id, bo)["messages"][0]["text"] == SHOWN[what]


def test_messages_are_written_while_the_game_is_on_and_stay_readable(services, talk):
    players, games = services
    game_id, (ada, bo) = seated(players, games, ["Ada", "Bo"])
    talk.say(game_id, ada, "gl hf")
    games.resign(game_id, bo)
    assert games.summary(game_id)["status"] == "finished"
    refused_with(ErrorCode.CHAT_CLOSED, lambda: talk.say(game_id, bo, "gg"))
    assert [m["text"] for m in talk.messages(game_id, bo)["messages"]] == ["gl hf"]
    ann = players.register("Ann")["id"]
    open_game = games.create(ann, "hiddenbid", [ann, None])["id"]
    refused_with(ErrorCode.CHAT_CLOSED, lambda: talk.say(open_game, ann, "anyone?"))


def test_a_message_changes_nothing_but_the_version(services, talk):
    """A move made on the version before a message is still current; replaying the log gives
    the snapshot; the match, deadlines and seats to move are as they were."""
    players, games = services
    game_id, (ada, bo) = seated(players, games, ["Ada", "Bo"])
    before = games.load(game_id)
    moves = games.legal_moves(game_id, ada)
    talk.say(game_id, bo, "your move")
    after = games.load(game_id)
    assert after["version"] == before["version"] + 1
    keep = ("match", "deadlines", "active_seats", "timed_out", "status", "seats")
    assert {k: after[k] for k in keep} == {k: before[k] for k in keep}
    games.play(game_id, ada, moves["version"], notation=moves["moves"][0]["notation"])
    assert history.replay(GameStore(games.games.r).events(game_id)) == games.load(game_id)


def test_pages_of_messages_follow_next_past_the_others(services, talk):
    players, games = services
    game_id, (ada, bo, _) = seated(players, games, ["Ada", "Bo", "Cy"])
    for i in range(5):
        talk.say(game_id, ada, f"to Cy {i}", to=2)
        talk.say(game_id, bo, f"all {i}")
    seen, after = [], 0
    while True:
        page = talk.messages(game_id, bo, after=after, limit=2)
        seen += [m["text"] for m in page["messages"]]
        if page["read_to"] >= page["version"]:
            break
        after = page["read_to"]
    assert seen == [f"all {i}" for i in range(5)]


def test_too_many_messages_answer_too_many_with_when_to_try_again(
    services, redis_client, test_game
):
    players, games = services
    talk = Talk(games, PlayerStore(redis_client), TalkLimits(per_minute=3, per_hour=100))
    game_id, (ada, bo) = seated(players, games, ["Ada", "Bo"])
    for i in range(3):
        talk.say(game_id, ada, f"spam {i}")
    with pytest.raises(TooMany) as found:
        talk.say(game_id, ada, "spam 3")
    assert found.value.status == 429 and 1 <= found.value.retry_after <= 60
    assert len(talk.messages(game_id, bo)["messages"]) == 3
    talk.say(game_id, bo, "the others may still write")
