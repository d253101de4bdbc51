"""The legal moves come with their words (service.play.move_words), said to the player who may
make them: the others by their public names, the player as "you", never a seat token."""

import random

import pytest

from engine import registry

NAMES = ("Ann", "Ben", "Cy")
MOVES_PER_GAME = 60


def seated(players, count: int) -> list[str]:
    """Players who let the first seat them without an invitation."""
    ids = [players.register(name)["id"] for name in NAMES[:count]]
    for other in ids[1:]:
        players.set_friends(other, [ids[0]])
    return ids


@pytest.mark.parametrize("name", sorted(registry.GAMES))
def test_every_legal_move_is_told_in_words_with_the_others_names(services, name):
    players, games = services
    count = min(3, registry.GAMES[name].info.max_players)
    ids = seated(players, count)
    game_id = games.create(ids[0], name, ids)["id"]
    rnd = random.Random(7)
    told = 0
    for _ in range(MOVES_PER_GAME):
        summary = games.summary(game_id)
        if summary["status"] != "active":
            break
        seat = rnd.choice(summary["active_seats"])
        moves = games.legal_moves(game_id, ids[seat])["moves"]
        words = [m["description"] for m in moves]
        assert len(set(words)) == len(words) and all(words), (name, words)
        for text in words:
            assert "{" not in text and f"{NAMES[seat]}'s" not in text, (name, text)
        told += sum(any(f"{other}'s" in text for other in NAMES) for text in words)
        move = rnd.choice(moves)
        games.play(game_id, ids[seat], summary["version"], action=move["action"])
    if name in ("consonar", "nautilus"):  # whose submarine, whose side: at every turn
        assert told, f"no move of {name} named another player"


def test_nautilus_says_whose_side_a_card_goes_to(services):
    players, games = services
    ann, ben = seated(players, 2)
    game_id = games.create(ann, "nautilus", [ann, ben])["id"]
    for _ in range(20):  # the Specials' start of the round, up to the first placement
        summary = games.summary(game_id)
        seat = summary["active_seats"][0]
        moves = games.legal_moves(game_id, (ann, ben)[seat])["moves"]
        if moves[0]["action"]["type"] == "place":
            break
        games.play(game_id, (ann, ben)[seat], summary["version"], action=moves[0]["action"])
    other = NAMES[1 - seat]
    for move in moves:
        action = move["action"]
        side = "your side" if action["side"] == "me" else f"{other}'s side"
        assert f"on {side}, column {action['col']}" in move["description"], move
