"""Tournaments: a player creates one, others sign up from the lobby, and the worker runs it
(pairs the rounds, creates the games through the game service, records the results, tells
the players), as consequences of the tournament's commits (service.consequences), never in a
request. Every game is a two-player game. The pairings (`pairing`) and the standings
(`standings`) are pure; see docs/tournaments.md.
"""
