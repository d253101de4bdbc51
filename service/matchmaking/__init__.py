"""Matchmaking: "play a rated game of <title> against someone near my rating". A request
records the player's wish in the title's pool; the worker pairs them with the waiting player
nearest their rating (within MATCHMAKING_WINDOW), or, after the wait they chose, starts a game
against the bot whose rating is nearest theirs; see docs/matchmaking.md."""
