"""What a board costs: CPU milliseconds of `html_board` (or, with `--text`, of `text_board`) per
board and game, for the code of this tree and of another (the "before"), measured in the same
conditions.

Each tree is measured in fresh child processes whose imports come from that tree (its directory
first on sys.path), the two trees' children alternating. A child plays a few seeded games of
each title (tests/service/boards_positions.py: hostile names, every player count in turn) and
keeps one position in STEP, each with the seat to move as its reader and, as its marks, the
parts the move that led there changed (what a turn email marks is of that kind). A round clears
the boards' caches, then draws each kept position once with `time.process_time()` around the
whole round: a worker drawing the positions of games as they go, its caches filling as they
would. A child keeps the median of its ROUNDS rounds and the least; the report gives the median
of the children's medians, and the least round of all (the figure least disturbed by the other
work of a shared machine).

`--digest` prints instead, per title, a digest of every text board and one of every HTML board
drawn from the positions of DIGEST_GAMES games (every seat and a spectator; English, Russian and
Italian; the HTML boards with no marks, the move's marks, every part on the board marked): two
trees with equal digests draw the same bytes.

    python -m bench.boards [--text] [--language ru] [--before /tmp/boards-before] [--children 3]
    python -m bench.boards --digest [--before /tmp/boards-before]
    python -m bench.boards --profile nautilus [--text]  # cProfile of one board of this tree

(`git worktree add --detach /tmp/boards-before <commit>` makes a "before" tree.)
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
from pathlib import Path

TREE = Path(__file__).resolve().parent.parent
TITLES = ("buttons", "consonar", "nautilus", "ninedomains")
GAMES = {"buttons": 4, "consonar": 4, "nautilus": 4, "ninedomains": 16}
"""Seeded games of each title (one of The Nine Domains is some 8 moves)."""
STEP = 2  # one position of every STEP kept
ROUNDS = 15
DIGEST_GAMES = 8  # (four times as many of The Nine Domains)
LANGUAGES = ("en", "ru", "it")


# -- the child: runs with the measured tree's code ------------------------------------------


def tables(name: str, every_seat: bool = False, step: int = STEP, games: int = 0) -> list:
    """(view, names, outcome, marks) of one position in `step` of `games` (GAMES') seeded
    games of `name`, read by the seat to move (`every_seat`: by every seat and a spectator)."""
    from engine import match as runner
    from engine import registry
    from service.play import parts
    from service.play.history import match_of, seat_view
    from service.play.logview import seat_name
    from tests.engine import conformance
    from tests.service.boards_positions import TITLES as POSITIONS
    from tests.service.boards_positions import snapshot

    title, game = POSITIONS[name], registry.GAMES[name]
    found = []
    for i in range(games or GAMES[name]):
        n = title.players[i % len(title.players)]
        seed = conformance.seed_of(3000 + i)
        steps: list[tuple] = []

        def record(before, seat, action, after, entries, steps=steps):
            steps.append((before, seat, action, after))

        conformance.play(game, n, title.options(i), seed, chooser=title.chooser, on_step=record)
        for version, (before, mover, action, after) in enumerate(steps[::step], start=2):
            snap = snapshot(name, after, version)
            moved = seat_view(snapshot(name, before, version - 1), mover)
            marks = frozenset(parts.changes(moved, action))
            active = sorted(runner.active_seats(game, after))
            readers = [*range(n), None] if every_seat else [active[0] if active else 0]
            for reader in readers:
                names = [seat_name(record) for record in snap["seats"]]
                found.append((seat_view(snap, reader), names, match_of(snap)["outcome"], marks))
    return found


def board_caches() -> list:
    from tests.service.test_board_caches import board_caches as caches

    return list(caches().values())


def draw(kind: str):
    """`draw(view, names, outcome, marks)`: the board of `kind` ("html" or "text"; a text board
    has no marks)."""
    from service.play import boards

    if kind == "text":
        return lambda view, names, outcome, marks: boards.text_board(view, names, outcome)
    return boards.html_board


def child_times(kind: str = "html", language: str = "en") -> dict:
    """ms of CPU per board of `kind` in `language`, per title: the median of ROUNDS rounds."""
    import time

    from service.play import boards
    from service.words import speaking, words

    board = draw(kind)
    words(language)  # its catalogue read before the rounds
    result: dict = {"code": {"boards": boards.__file__}, "ms": {}, "least": {}, "boards": {}}
    caches = board_caches()
    for name in TITLES:
        drawn = tables(name)
        rounds = []
        for _ in range(ROUNDS):
            for cache in caches:
                cache.cache_clear()
            start = time.process_time()
            with speaking(language):
                for view, names, outcome, marks in drawn:
                    board(view, names, outcome, marks)
            rounds.append((time.process_time() - start) * 1000 / len(drawn))
        result["ms"][name] = statistics.median(rounds)
        result["least"][name] = min(rounds)
        result["boards"][name] = len(drawn)
    return result


def child_digest() -> dict:
    """A digest per title of every board drawn (see the module's docstring)."""
    import hashlib
    import re

    from service.play import boards
    from service.words import speaking

    result: dict = {"code": {"boards": boards.__file__}, "digest": {}, "boards": {}}
    for name in TITLES:
        text, digest = hashlib.sha256(), hashlib.sha256()
        count = 0
        for view, names, outcome, marks in tables(
            name, every_seat=True, games=DIGEST_GAMES * GAMES[name] // 4
        ):
            for language in LANGUAGES:
                with speaking(language):
                    text.update(boards.text_board(view, names, outcome).encode())
                    plain = boards.html_board(view, names, outcome)
                    every = frozenset(re.findall(r'data-part="([^"]*)"', plain))
                    for marked in (frozenset(), marks, every):
                        digest.update(boards.html_board(view, names, outcome, marked).encode())
                        count += 1
        result["digest"][name] = {"text": text.hexdigest()[:16], "html": digest.hexdigest()[:16]}
        result["boards"][name] = {"text": count // 3, "html": count}
    return result


def child_profile(
    name: str, kind: str = "html", language: str = "en", sort: str = "tottime", lines: int = 14
) -> None:
    """cProfile of drawing one position of `name` (its middle one) many times in `language`,
    warm caches."""
    import cProfile
    import pstats

    from service.words import speaking

    board = draw(kind)
    drawn = tables(name)
    view, names, outcome, marks = drawn[len(drawn) // 2]
    with speaking(language):
        board(view, names, outcome, marks)
        profile = cProfile.Profile()
        profile.enable()
        for _ in range(2000):
            board(view, names, outcome, marks)
        profile.disable()
    pstats.Stats(profile).sort_stats(sort).print_stats(lines)


# -- the parent -----------------------------------------------------------------------------


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--before", type=Path, help="the tree of the code before")
    parser.add_argument("--children", type=int, default=3, help="children per tree")
    parser.add_argument("--digest", action="store_true", help="digests of the boards drawn")
    parser.add_argument("--profile", choices=TITLES, help="cProfile one board of this tree")
    parser.add_argument("--sort", default="tottime", help="the profile's order (cumtime...)")
    parser.add_argument("--text", action="store_true", help="text boards rather than HTML")
    parser.add_argument("--language", choices=LANGUAGES, default="en", help="the boards' words")
    args = parser.parse_args(argv)
    kind = "text" if args.text else "html"
    if args.profile:
        sys.path.insert(0, str(TREE))
        child_profile(args.profile, kind, args.language, args.sort)
        return
    from bench.children import run_child  # the parent's: a child imports from its tree

    trees = {"after": TREE} | ({"before": args.before} if args.before else {})
    if args.digest:
        digests = {
            label: run_child(tree, __file__, "child_digest()") for label, tree in trees.items()
        }
        for name in TITLES:
            for drawn in ("text", "html"):
                found = {label: d["digest"][name][drawn] for label, d in digests.items()}
                same = len(set(found.values())) == 1
                boards = digests["after"]["boards"][name][drawn]
                print(
                    f"{name}, {drawn}: {boards} boards, {found}"
                    f"{' (the same)' if same else ' DIFFER'}"
                )
        return
    runs: dict[str, list[dict]] = {label: [] for label in trees}
    for _ in range(args.children):
        for label, tree in reversed(trees.items()):
            runs[label].append(
                run_child(tree, __file__, f"child_times({kind!r}, {args.language!r})")
            )
    load = os.getloadavg()
    print(
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"load {load[0]:.2f} {load[1]:.2f}; {args.children} children a tree, "
        f"{ROUNDS} rounds each; ms of CPU per {kind.upper() if kind == 'html' else kind} board "
        f"in {args.language!r}"
    )
    for figure, words in (
        ("ms", "the median of the children's medians"),
        ("least", "the least round of all"),
    ):
        header = "| title | boards a round |" + "".join(f" {label} |" for label in trees)
        print(f"\n{words}:\n")
        print(header + (" after / before |" if "before" in trees else ""))
        print("|---" * (header.count("|") - 1 + ("before" in trees)) + "|")
        pick = statistics.median if figure == "ms" else min
        for name in TITLES:
            ms = {label: pick(r[figure][name] for r in runs[label]) for label in trees}
            line = f"| {name} | {runs['after'][0]['boards'][name]} |"
            line += "".join(f" {ms[label]:.3f} |" for label in trees)
            if "before" in trees:
                line += f" {ms['after'] / ms['before']:.2f} |"
            print(line)


if __name__ == "__main__":
    main(sys.argv[1:])
