"""The heuristic bots of 2026-11-24, before the fixes of issue 20, that bench/bots.py measures
today's against: kept as they played then. A piece today's bot still has as it was (the same
code) is imported from engine/bots rather than copied (its docstring there says so); a piece
that has changed since, even slightly, stays here as it was."""
