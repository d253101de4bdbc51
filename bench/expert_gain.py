"""Where bot:expert's gain over the heuristic comes from, judged by paired playouts: both moves
played from the same drawn worlds with the same Luck (engine.bots.search), the heuristic
playing on for every seat to the game's end; a move's gain is its mean difference in the
chance to win. Figures in RESULTS.md ("bot:expert"), written by hand.

    .venv/bin/python -m bench.expert_gain departures <title> [--first K] [--games N]
        [--pairs P] [--seconds S]
    .venv/bin/python -m bench.expert_gain headroom <title> [--first K] [--games N]
        [--pairs P] [--every E]
    .venv/bin/python -m bench.expert_gain margins <title> [--first K] [--games N]
        [--pairs P] [--every E] [--seconds S] [--margins 0,1,2] [--repeats R]

- departures: games of the expert against the heuristic (seeds and seats as bench.expert);
  every move where the expert departs from the heuristic is judged against the heuristic's
  move by P pairs.
- headroom: positions of heuristic self-play, every E-th decision with a choice; the best of
  up to 8 other moves by P pairs is measured again on P fresh pairs (so that picking the
  best of noisy estimates does not flatter it), and counts only when its first estimate was
  above the heuristic's. What a one-move search on top of the heuristic could gain there;
  summed over a game (times E, halved for one seat), about what a seat gains by playing the
  better move everywhere (the performance difference of one policy-improvement step, on the
  heuristic's own positions).
- margins: what the paired search's choice gains, for each margin a move needs to replace the
  heuristic's (the expert's `choice_confidence`, set here in turn). Positions of heuristic
  self-play as for headroom; at each, every other legal move's gain by P pairs (its "true"
  gain); then the expert decides there R times at S seconds of CPU for each margin, and its
  choice is worth the true gain of the move it picked (0 for the heuristic's). Printed: the
  mean a decision for each margin, how often it changed the heuristic's move, and its paired
  difference to the first margin's (the same positions, so their own spread cancels).
"""

from __future__ import annotations

import argparse
import math
import statistics
from typing import Any, NamedTuple

from bench.expert import bot_setting
from bench.playout import play_out
from engine import registry
from engine.bots.search import Luck, expert_move, playout
from engine.core import Action, Game, State
from engine.rng import Rng
from service.play.games import cpu_budget

MOST_OTHERS = 8


class Position(NamedTuple):
    state: State
    seat: int
    legal: list[Action]
    heuristic: Action  # the heuristic's move there
    key: bytes  # the game's seed and the log's length: seeds the judging of the position
    version: int


class Judged(NamedTuple):
    position: Position
    others: list[Action]  # every legal move but the heuristic's
    gains: list[float]  # each one's mean gain over the heuristic's move


def paired_gains(
    game: Game, state: State, seat: int, base: Action, others: list[Action], pairs: int, rng: Rng
) -> list[list[float]]:
    """For each of `others`, its result minus `base`'s over `pairs` shared worlds and lucks."""
    determinize = registry.EXPERTS[game.info.name].determinize
    gains: list[list[float]] = [[] for _ in others]

    def result(action: Action, world_seed: bytes, luck_seed: bytes) -> float:
        world = determinize(state, seat, Rng(world_seed))  # drawn again: a playout changes it
        return playout(game, world, seat, action, Luck(luck_seed))

    for _ in range(pairs):
        seeds = rng.below(1 << 128).to_bytes(16, "big"), rng.below(1 << 128).to_bytes(16, "big")
        first = result(base, *seeds)
        for i, action in enumerate(others):
            gains[i].append(result(action, *seeds) - first)
    return gains


def mean_and_error(values: list[float]) -> tuple[float, float]:
    return statistics.mean(values), statistics.stdev(values) / math.sqrt(len(values))


def departures(name: str, first: int, games: int, pairs: int, seconds: float) -> None:
    game = registry.GAMES[name]
    decisions, found = 0, []
    for i in range(first, first + games):
        decided, gains = departures_in_game(game, i, pairs, seconds)
        decisions += decided
        found += gains
    mean = statistics.mean(found) if found else 0.0
    print(
        f"{decisions} decisions with a choice, {len(found)} departures, mean gain {mean:+.4f}, "
        f"about {mean * len(found) / games:+.3f} a game"
    )


def departures_in_game(game: Game, i: int, pairs: int, seconds: float) -> tuple[int, list[float]]:
    """Game i of the expert (seat i % 2) against the heuristic: its decisions with a choice,
    and the gain of each move where it departed from the heuristic's."""
    seed = i.to_bytes(4, "big") * 8
    expert_seat, picker = i % 2, Rng(b"expert:" + seed)
    decisions, found = 0, []

    def choose(m: dict[str, Any], seat: int, legal: list[Action], version: int) -> Action:
        nonlocal decisions
        view = game.view(m["state"], seat)
        if seat != expert_seat:
            return game.bots["heuristic"](view, legal, picker)
        heuristic = game.bots["heuristic"](view, legal, Rng(b"heuristic" * 2))
        expert = registry.EXPERTS[game.info.name]
        action = expert_move(game, expert, m["state"], seat, legal, picker, cpu_budget(seconds))
        decisions += len(legal) > 1
        if action != heuristic:
            judge = Rng(b"judge" * 4 + seed + version.to_bytes(4, "big"))
            (gains,) = paired_gains(game, m["state"], seat, heuristic, [action], pairs, judge)
            gain, error = mean_and_error(gains)
            found.append(gain)
            print(
                f"seed {i} version {version}: {action['type']} for the heuristic's "
                f"{heuristic['type']}, {gain:+.3f} ± {error:.3f}",
                flush=True,
            )
        return action

    play_out(game, seed, picker, choose)
    return decisions, found


def headroom(name: str, first: int, games: int, pairs: int, every: int) -> None:
    game = registry.GAMES[name]
    by_kind: dict[str, list[float]] = {}
    per_game: list[float] = []
    for i in range(first, first + games):
        game_gain = headroom_in_game(game, i, pairs, every, by_kind)
        per_game.append(game_gain * every / 2)  # both seats' decisions, one in `every` judged
        print(f"seed {i}: about {per_game[-1]:+.3f} for a seat", flush=True)
    for kind, gains in sorted(by_kind.items()):
        print(
            f"{kind}: {len(gains)} positions, mean gain of the best other {statistics.mean(gains):+.4f}"
        )
    if len(per_game) > 1:
        mean, error = mean_and_error(per_game)
        print(f"a seat's gain a game, every position played better: {mean:+.3f} ± {error:.3f}")


def self_play_positions(game: Game, i: int, every: int) -> list[Position]:
    """Heuristic self-play of game i: every `every`-th decision with a choice, as a Position
    (its key, the game's seed and the log's length, seeds its judging)."""
    seed = i.to_bytes(4, "big") * 8
    picker = Rng(b"self:" + seed)
    choices, positions = 0, []

    def choose(m: dict[str, Any], seat: int, legal: list[Action], version: int) -> Action:
        nonlocal choices
        heuristic = game.bots["heuristic"](game.view(m["state"], seat), legal, picker)
        choices += len(legal) > 1
        if len(legal) > 1 and choices % every == 0:
            key = seed + version.to_bytes(4, "big")
            positions.append(Position(m["state"], seat, legal, heuristic, key, version))
        return heuristic

    play_out(game, seed, picker, choose)
    return positions


def headroom_in_game(
    game: Game, i: int, pairs: int, every: int, by_kind: dict[str, list[float]]
) -> float:
    """Heuristic self-play of game i, judging every `every`-th decision with a choice: the
    sum of the gains judged (each also added to `by_kind`, under the heuristic's move)."""
    game_gain = 0.0
    for p in self_play_positions(game, i, every):
        judge = Rng(b"judge" * 4 + p.key)
        others = [a for a in p.legal if a != p.heuristic]
        judge.shuffle(others)
        others = others[:MOST_OTHERS]
        picked = paired_gains(game, p.state, p.seat, p.heuristic, others, pairs, judge)
        best = max(range(len(others)), key=lambda k: statistics.mean(picked[k]))
        gain = 0.0
        if statistics.mean(picked[best]) > 0:
            (again,) = paired_gains(
                game, p.state, p.seat, p.heuristic, [others[best]], pairs, judge
            )
            gain = statistics.mean(again)
        by_kind.setdefault(p.heuristic["type"], []).append(gain)
        game_gain += gain
        print(
            f"seed {i} version {p.version}: the heuristic's {p.heuristic['type']}, "
            f"the best other gains {gain:+.3f}",
            flush=True,
        )
    return game_gain


def true_gains_in_game(game: Game, i: int, pairs: int, every: int) -> list[Judged]:
    """Heuristic self-play of game i; at every `every`-th decision with a choice, the position
    and each other legal move's mean gain over the heuristic's by `pairs` pairs."""
    judged = []
    for p in self_play_positions(game, i, every):
        others = [a for a in p.legal if a != p.heuristic]
        gains = paired_gains(
            game, p.state, p.seat, p.heuristic, others, pairs, Rng(b"truth" * 4 + p.key)
        )
        judged.append(Judged(p, others, [statistics.mean(g) for g in gains]))
        print(f"seed {i} version {p.version}: {len(p.legal)} moves judged", flush=True)
    return judged


def choice_worth(game: Game, judged: Judged, seconds: float, repeat: int) -> float | None:
    """The true gain of the move the expert picks at a judged position; None when it keeps
    the heuristic's (worth 0)."""
    p = judged.position
    search = Rng(b"choice" * 4 + repeat.to_bytes(4, "big") + p.key)
    expert = registry.EXPERTS[game.info.name]
    action = expert_move(game, expert, p.state, p.seat, p.legal, search, cpu_budget(seconds))
    if action == p.heuristic:
        return None
    return judged.gains[judged.others.index(action)]


def margins(
    name: str,
    first: int,
    games: int,
    pairs: int,
    every: int,
    seconds: float,
    tried: list[float],
    repeats: int,
) -> None:
    game = registry.GAMES[name]
    positions = [
        p for i in range(first, first + games) for p in true_gains_in_game(game, i, pairs, every)
    ]
    worth: dict[float, list[float]] = {}
    changed: dict[float, int] = {}
    for margin in tried:
        worth[margin], changed[margin] = [], 0
        with bot_setting(name, "choice_confidence", margin):
            for position in positions:
                picks = [choice_worth(game, position, seconds, r) for r in range(repeats)]
                worth[margin].append(sum(g for g in picks if g is not None) / repeats)
                changed[margin] += sum(g is not None for g in picks)
    ceiling = statistics.mean(max(0.0, *p.gains) for p in positions)
    print(
        f"{len(positions)} positions; the best move's gain, flattered by its noise: {ceiling:+.4f}"
    )
    for margin, values in worth.items():
        mean, error = mean_and_error(values)
        line = (
            f"margin {margin}: {mean:+.4f} ± {error:.4f} a decision, the heuristic's move "
            f"changed in {changed[margin]} of {len(values) * repeats}"
        )
        if margin != tried[0]:
            difference = [a - b for a, b in zip(values, worth[tried[0]])]
            line += ", against margin {}: {:+.4f} ± {:.4f}".format(
                tried[0], *mean_and_error(difference)
            )
        print(line)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("measure", choices=["departures", "headroom", "margins"])
    parser.add_argument("title")
    parser.add_argument("--first", type=int, default=40, help="the first game's seed number")
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--pairs", type=int, default=150)
    parser.add_argument("--seconds", type=float, default=0.25, help="the expert's budget")
    parser.add_argument("--every", type=int, default=3, help="self-play: every E-th decision")
    parser.add_argument("--margins", default="0,1,2", help="margins: those tried, in SEs")
    parser.add_argument("--repeats", type=int, default=2, help="margins: decisions a position")
    args = parser.parse_args()
    if args.measure == "departures":
        departures(args.title, args.first, args.games, args.pairs, args.seconds)
    elif args.measure == "headroom":
        headroom(args.title, args.first, args.games, args.pairs, args.every)
    else:
        tried = [float(m) for m in args.margins.split(",")]
        margins(
            args.title,
            args.first,
            args.games,
            args.pairs,
            args.every,
            args.seconds,
            tried,
            args.repeats,
        )


if __name__ == "__main__":
    main()
