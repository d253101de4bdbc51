"""Ratings and players' records on a real Valkey: a finished rated game is applied once per
seat however often (and wherever) its recording is cut short and tried again; the
leaderboard's rules; what the finished game's table, email and webhook show."""

from __future__ import annotations

import email
import email.policy
import json

import pytest

from service.assembly import assemble
from service.consequences import Consequences
from service.play.results import result_of
from service.ratings.model import Skill
from service.ratings.ratings import Ratings
from service.settings import Settings
from store import keys
from store.outbox import Entry
from store.ratings import Entrant, RatingStore
from tests.peers import text_of


class Kept:
    """The deliveries port, keeping what it is given."""

    def __init__(self):
        self.queued = []

    def queue(self, deliveries):
        self.queued += deliveries


@pytest.fixture
def world(redis_client):
    settings = Settings(leaderboard_min_games=2)
    return assemble(redis_client, settings=settings, deliveries=Kept())


def people(world, *names):
    found = [world.players.register(n, email=f"{n.lower()}@example.org")["id"] for n in names]
    for p in found:
        world.players.set_friends(p, [q for q in found if q != p])  # seated without invitation
    return found


def finish(world, game_id):
    """Carry out the entry of the commit that ended the game, as the worker does."""
    snap = world.games.load(game_id)
    assert snap["status"] == "finished"
    world.consequences.carry_out(Entry(0, "0-0", game_id, snap["version"], snap["version"]))


def resigned_game(world, winner, loser, game="nautilus", **create):
    game_id = world.games.create(winner, game, [winner, loser], **create)["id"]
    world.games.resign(game_id, loser)
    return game_id


def skill(redis_client, title, player):
    raw = redis_client.hget(keys.rating_skills(title), player)
    return Skill.from_json(json.loads(raw)) if raw else None


def test_a_game_between_people_is_rated_by_default_and_one_with_a_bot_is_not(world):
    ada, bo = people(world, "Ada", "Bo")
    assert world.games.create(ada, "nautilus", [ada, bo])["rated"] is True
    assert world.games.create(ada, "nautilus", [ada, "bot:random"])["rated"] is False
    assert world.games.create(ada, "nautilus", [ada, None], rated=False)["rated"] is False
    assert world.games.create(ada, "nautilus", [ada, "bot:random"], rated=True)["rated"] is True


def test_a_resignation_is_a_loss_applied_once_however_often_the_end_is_carried_out(
    world, redis_client
):
    ada, bo = people(world, "Ada", "Bo")
    game_id = resigned_game(world, ada, bo)
    for _ in range(3):
        finish(world, game_id)
    a, b = skill(redis_client, "nautilus", ada), skill(redis_client, "nautilus", bo)
    assert a.games == b.games == 1
    assert a.rating > 1500 > b.rating
    table = world.tables.for_player(game_id, ada)
    assert table.ratings is not None and not table.ratings_pending
    assert table.rating_lines[0] == f"You: 1500 → {a.rating} (+{a.rating - 1500}), provisional"
    assert table.rating_lines[1].startswith("Bo: 1500 → ")
    record = world.ratings.of_player(ada, reader=bo)
    assert record["record"] == [
        {
            "game": "nautilus",
            "title": "Nautilus",
            "games": 1,
            "rated_games": 1,
            "wins": 1,
            "places": [{"place": 1, "games": 1}],
        }
    ]
    assert record["head_to_head"]["won"] == 1 and record["head_to_head"]["lost"] == 0
    assert world.ratings.of_player(bo, reader=ada)["head_to_head"]["lost"] == 1
    assert record["ratings"][0]["history"] == [
        {"game_id": game_id, "at": record["recent"][0]["ended_at"], "rating": a.rating}
    ]


def test_a_worker_that_died_after_the_title_was_written_applies_nothing_twice(
    world, redis_client, monkeypatch
):
    """Cut short after the ratings were applied (before the game's own copy and the players'
    records), then after the first player's record: each time the end is carried out again."""
    ada, bo, cy = people(world, "Ada", "Bo", "Cy")
    game_id = world.games.create(ada, "consonar", [ada, bo, cy])["id"]
    world.games.resign(game_id, bo)
    world.games.resign(game_id, cy)
    ratings: Ratings = world.consequences.ratings

    def dies(*args, **kwargs):
        raise ConnectionError("the worker died here")

    monkeypatch.setattr(RatingStore, "keep_game_ratings", dies)
    with pytest.raises(ConnectionError):
        finish(world, game_id)
    monkeypatch.undo()
    calls = []
    real = RatingStore.add_result

    def dies_after_one(self, *args, **kwargs):
        calls.append(args[0])
        if len(calls) == 2:
            raise ConnectionError("the worker died here")
        return real(self, *args, **kwargs)

    monkeypatch.setattr(RatingStore, "add_result", dies_after_one)
    with pytest.raises(ConnectionError):
        finish(world, game_id)
    monkeypatch.undo()
    finish(world, game_id)
    assert ratings.of_game(game_id) is not None
    for player, place in ((ada, 1), (cy, 2), (bo, 3)):  # bo left first: last
        assert skill(redis_client, "consonar", player).games == 1
        tally = redis_client.hgetall(keys.player_tally(player))
        assert tally[b"consonar:games"] == b"1", player
        assert tally[f"consonar:place:{place}".encode()] == b"1", player


def test_a_skill_changed_since_it_was_read_is_not_overwritten(redis_client):
    store = RatingStore(redis_client)
    redis_client.hset(keys.rating_skills("nautilus"), "p_a", '{"mu": 30, "sigma": 5, "games": 9}')
    entrant = Entrant("p_a", "Ada", "", '{"mu": 26, "sigma": 8, "games": 1}', 1530.0, 1)
    applied = store.apply("nautilus", "g_1", "{}", 1, [entrant], 0, 10)
    assert applied.status == "stale"
    assert skill(redis_client, "nautilus", "p_a") == Skill(30, 5, 9)
    assert redis_client.get(keys.rating_applied("nautilus", "g_1")) is None


def test_two_games_of_one_player_ending_at_once_both_count(world, redis_client, monkeypatch):
    """The second game's ratings were computed from a skill the first one has changed since:
    the write is refused and done again from the new skill."""
    ada, bo, cy = people(world, "Ada", "Bo", "Cy")
    first, second = resigned_game(world, ada, bo), resigned_game(world, ada, cy)
    read = RatingStore.skills
    interleaved = []

    def first_ends_meanwhile(self, title, players):
        found = read(self, title, players)
        if not interleaved:
            interleaved.append(True)
            finish(world, first)
        return found

    monkeypatch.setattr(RatingStore, "skills", first_ends_meanwhile)
    finish(world, second)
    monkeypatch.undo()
    a = skill(redis_client, "nautilus", ada)
    assert a.games == 2
    changes = world.ratings.of_game(second).changes
    assert changes[0].before.games == 1, "the second game started from the first's result"
    assert changes[0].after == a


@pytest.mark.slow
def test_a_bot_is_rated_as_a_player_of_its_own_and_twice_seated_counts_twice(world, redis_client):
    (ada,) = people(world, "Ada")
    game_id = world.games.create(ada, "consonar", [ada, "bot:random", "bot:random"], rated=True)[
        "id"
    ]
    world.games.resign(game_id, ada)
    while (snap := world.games.load(game_id))["status"] == "active":  # the bots play on
        world.games.bot_move(game_id, snap["active_seats"][0], snap["version"])
    finish(world, game_id)
    bot = skill(redis_client, "consonar", "bot:random")
    assert bot.games == 2 and bot.rating > 1500
    assert skill(redis_client, "consonar", ada).rating < 1500
    assert redis_client.hget(keys.rating_names("consonar"), "bot:random") == b"bot:random"


def test_an_unrated_game_is_in_the_record_but_not_the_ratings(world, redis_client):
    ada, bo = people(world, "Ada", "Bo")
    game_id = resigned_game(world, ada, bo, rated=False)
    finish(world, game_id)
    assert skill(redis_client, "nautilus", ada) is None
    assert world.tables.for_player(game_id, ada).ratings is None
    assert not world.tables.for_player(game_id, ada).ratings_pending
    record = world.ratings.of_player(ada)
    assert record["ratings"] == [] and record["record"][0]["games"] == 1
    assert record["recent"][0]["rated"] is False and record["head_to_head"] is None


def test_the_leaderboard(world, redis_client):
    """Players with enough rated games (2 here), best first, in pages; a player whose last
    rated game is older than the cut-off leaves it with the next rated game of the title."""
    ada, bo, cy, di = people(world, "Ada", "Bo", "Cy", "Di")
    for winner, loser in ((ada, bo), (ada, cy), (bo, cy)):
        finish(world, resigned_game(world, winner, loser))
    board = world.ratings.leaderboard("nautilus", 1, 2)
    assert board["total"] == 3 and board["pages"] == 2
    assert [(p["rank"], p["name"]) for p in board["players"]] == [(1, "Ada"), (2, "Bo")]
    assert [p["name"] for p in world.ratings.leaderboard("nautilus", 2, 2)["players"]] == ["Cy"]
    assert world.ratings.of_player(cy)["ratings"][0]["rank"] == 3
    ratings = world.consequences.ratings
    ratings.clock = lambda: 0
    redis_client.zadd(keys.rating_active("nautilus"), {cy: 1})  # long ago
    finish(world, resigned_game(world, di, ada))
    assert [p["name"] for p in world.ratings.leaderboard("nautilus")["players"]] == ["Ada", "Bo"]
    with pytest.raises(Exception, match="no game 'chess'"):
        world.ratings.leaderboard("chess")


def test_the_end_email_and_webhook_show_the_rating_changes(world, redis_client):
    ada, bo = people(world, "Ada", "Bo")
    game_id = resigned_game(world, ada, bo)
    finish(world, game_id)
    table = world.tables.for_seat(game_id, 1)
    notifications = world.notifications
    letter = notifications._turn_letter(
        table,
        next(d.notice for d in world.consequences.deliveries.queued if d.notice.seat == 1),
        {"name": "Bo", "email": "bo@example.org"},
        "x",
        False,
    )
    text = text_of(email.message_from_bytes(letter.data, policy=email.policy.default))
    assert "Ratings:" in text and table.rating_lines[0] in text
    payload = notifications._turn_payload(table, "game.finished", "x")
    change = payload["ratings"][1]
    assert change["player_id"] == bo and change["change"] < 0 and change["place"] == 2
    assert change["rating"] == skill(redis_client, "nautilus", bo).rating


def test_the_result_of_a_game_that_is_not_over_is_none(world):
    ada, bo = people(world, "Ada", "Bo")
    game_id = world.games.create(ada, "nautilus", [ada, bo])["id"]
    assert result_of(world.games.load(game_id)) is None
    assert isinstance(world.consequences, Consequences)
