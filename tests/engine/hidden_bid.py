"""Hidden Bid: a tiny game that exists only to test the platform (never in the catalog).

2 or 3 players. A deck of cards 1..9 is shuffled and each player is dealt 3 secret cards. Each
round every player bids one card at the same time, face down; when all have bid, the bids are
revealed and the highest takes a point. Then the round's winner either `keep`s the bid cards as
extra points or `burn`s them (a single-seat decision). Three rounds. Most points wins.
It has the shapes the real games have: a secret hand, a secret simultaneous choice, a deck
whose order is hidden, and a single-seat decision.
"""

from typing import ClassVar

from engine.core import Game, GameInfo, MalformedAction, OptionSpec, Outcome


class HiddenBid(Game):
    info = GameInfo(
        name="hiddenbid",
        title="Hidden Bid",
        min_players=2,
        max_players=3,
        rules_version="1",
        options={"rounds": OptionSpec(3, "rounds to play", choices=(1, 2, 3), kind=int)},
        notation=(
            "bid N: bid the card N",
            "keep / burn: the round's winner keeps or burns the bids",
        ),
    )

    def setup(self, n, options, rng, log):
        deck = list(range(1, 10))
        rng.shuffle(deck)
        hands = [sorted(deck[3 * s : 3 * s + 3]) for s in range(n)]
        log.public("the cards are dealt")
        for s in range(n):
            log.private(s, "you were dealt " + " ".join(map(str, hands[s])), cards=hands[s])
        return {
            "n": n,
            "rounds": options["rounds"],
            "round": 1,
            "hands": hands,
            "deck": deck[3 * n :],
            "bids": [None] * n,
            "points": [0] * n,
            "decider": None,
            "pot": [],
        }

    def active_seats(self, g):
        if self.outcome(g) is not None:
            return frozenset()
        if g["decider"] is not None:
            return frozenset([g["decider"]])
        return frozenset(s for s in range(g["n"]) if g["bids"][s] is None)

    def legal_actions(self, g, seat):
        if seat not in self.active_seats(g):
            return []
        if g["decider"] is not None:
            return [{"type": "burn"}, {"type": "keep"}]
        return [{"type": "bid", "card": c} for c in g["hands"][seat]]

    def apply(self, g, seat, action, rng, log):
        if action["type"] == "bid":
            g["hands"][seat].remove(action["card"])
            g["bids"][seat] = action["card"]
            log.private(seat, f"you bid {action['card']}")
            log.public("{seat%d} has bid" % seat)
            if all(b is not None for b in g["bids"]):
                winner = max(range(g["n"]), key=lambda s: g["bids"][s])
                log.public("the bids are " + ", ".join(map(str, g["bids"])), bids=g["bids"])
                g["points"][winner] += 1
                g["pot"] = list(g["bids"])
                g["bids"] = [None] * g["n"]
                g["decider"] = winner
        else:
            if action["type"] == "keep":
                g["points"][seat] += len(g["pot"])
            log.public("{seat%d} chose to %s" % (seat, action["type"]))
            g["pot"] = []
            g["decider"] = None
            g["round"] += 1
        return g

    def outcome(self, g):
        if g["round"] <= g["rounds"]:
            return None
        best = max(g["points"])
        return Outcome(
            tuple(s for s in range(g["n"]) if g["points"][s] == best),
            tuple(g["points"]),
            "all rounds played",
        )

    def view(self, g, seat):
        return {
            "round": g["round"],
            "points": list(g["points"]),
            "pot": list(g["pot"]),
            "hand": list(g["hands"][seat]) if seat is not None else None,
            "hand_sizes": [len(h) for h in g["hands"]],
            "deck_size": len(g["deck"]),
            "has_bid": [b is not None for b in g["bids"]],
            "my_bid": g["bids"][seat] if seat is not None else None,
        }

    def parse(self, text):
        words = text.lower().split()
        if words == ["keep"] or words == ["burn"]:
            return {"type": words[0]}
        if len(words) == 2 and words[0] == "bid" and words[1].isdigit():
            return {"type": "bid", "card": int(words[1])}
        raise MalformedAction(f"cannot read {text!r}: write 'bid N', 'keep' or 'burn'")

    def format(self, action):
        if action["type"] == "bid":
            if not isinstance(action["card"], int):
                raise MalformedAction("a bid's card is a number")
            return f"bid {action['card']}"
        if action["type"] in ("keep", "burn"):
            return action["type"]
        raise MalformedAction(f"unknown action type {action['type']!r}")

    def describe(self, view, action):
        if action["type"] == "bid":
            return f"Bid your {action['card']}"
        return f"{action['type'].capitalize()} the {len(view['pot'])} cards bid"

    bots: ClassVar = {
        "random": lambda view, legal, rng: rng.choice(legal),
        "heuristic": lambda view, legal, rng: legal[-1],
    }


GAME = HiddenBid()
