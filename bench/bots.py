"""The heuristic bots against the heuristic bots of 2026-11-24 (engine/bots/ at commit
cab580b, before the fixes of issue 20, read from the git history): N games per title, two
players, seats alternating, default options; an outright win counts for its bot, a shared win
for neither.

    .venv/bin/python -m bench.bots [titles...] [--games N]
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import linecache
import os
import subprocess
import time
import types
from pathlib import Path

from bench.playout import play_out
from bench.results import replace_section
from engine import registry
from engine.core import Action
from engine.rng import Rng

ROOT = Path(__file__).resolve().parent.parent
BASELINE_COMMIT = "cab580b"


def baseline_module(name: str, commit: str = BASELINE_COMMIT) -> types.ModuleType:
    """engine/bots/<name>.py as it was at `commit`, read from the git history and run as a
    module of its own, not a copy in the tree: the baseline stays exactly as it was, whatever
    today's engine/bots becomes (a copy sharing today's pieces would change with them). Its
    imports (absolute, from engine) resolve against today's engine package. `make bench`
    already needs the history: it checks out other pinned commits with `git worktree add`."""
    label = f"{commit}:engine/bots/{name}.py"
    shown = subprocess.run(
        ["git", "show", label], cwd=ROOT, capture_output=True, text=True, check=False
    )
    if shown.returncode != 0:
        raise RuntimeError(
            f"the baseline bot {name} is engine/bots/{name}.py at commit {commit}, which git "
            f"cannot read in {ROOT} ({shown.stderr.strip()}); a shallow clone needs its "
            "history: git fetch --unshallow"
        )
    source = shown.stdout
    module = types.ModuleType(f"engine.bots.{name}@{commit}")
    module.__package__ = "engine.bots"
    module.__file__ = label
    # Tracebacks and inspect.getsource read the baseline's lines under its label.
    linecache.cache[label] = (len(source), None, source.splitlines(True), label)
    exec(compile(source, label, "exec"), module.__dict__)
    return module


def duel(game, baseline, seed: bytes, new_seat: int) -> int | None:
    """One game: the seat that won outright (None for a shared win)."""
    picker = Rng(b"bots:" + seed)

    def choose(m, seat: int, legal: list[Action], version: int) -> Action:
        bot = game.bots["heuristic"] if seat == new_seat else baseline
        return bot(game.view(m["state"], seat), legal, picker)

    m = play_out(game, seed, picker, choose)
    winners = m["outcome"]["winners"]
    return winners[0] if len(winners) == 1 else None


def measure(name: str, games: int) -> str:
    game = registry.GAMES[name]
    old = baseline_module(name)
    baseline = old.BOTS["heuristic"]
    new_wins = old_wins = 0
    started = time.process_time()
    for i in range(games):
        new_seat = i % 2
        winner = duel(game, baseline, i.to_bytes(4, "big") * 8, new_seat)
        new_wins += winner == new_seat
        old_wins += winner is not None and winner != new_seat
    seconds = time.process_time() - started
    same = inspect.getsource(old) == inspect.getsource(
        importlib.import_module(f"engine.bots.{name}")
    )
    title = game.info.title + (" (bot unchanged: itself)" if same else "")
    return (
        f"| {title} | {games} | {new_wins} ({100 * new_wins / games:.1f}%) "
        f"| {old_wins} ({100 * old_wins / games:.1f}%) | {games - new_wins - old_wins} "
        f"| {seconds:.0f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("titles", nargs="*", default=sorted(registry.GAMES))
    parser.add_argument("--games", type=int, default=1000)
    args = parser.parse_args()
    rows = [measure(name, args.games) for name in args.titles]
    replace_section(
        "Bots",
        f"\n## Bots\n\n{time.strftime('%Y-%m-%d')}, load {os.getloadavg()[0]:.2f}: "
        f"the heuristic bots against those of 2026-11-24 (engine/bots/ at {BASELINE_COMMIT}), "
        "two players, seats alternating, default options (`make bench`: bench/bots.py).\n\n"
        "| title | games | new heuristic wins | baseline wins | shared | CPU s |\n"
        "|---|---|---|---|---|---|\n" + "\n".join(rows) + "\n",
    )
    print("\n".join(rows))


if __name__ == "__main__":
    main()
