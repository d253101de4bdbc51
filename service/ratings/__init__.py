"""Ratings: a person's (or a bot's) standing per title, the leaderboards, and each player's
record of finished games (places, wins, head-to-head), for the player pages.

A finished game's result (`results.Result`, made by service.play from the snapshot) is
recorded by the worker, as the consequence of the commit that ended the game
(service.consequences), never in a request: `ratings.Ratings.record`. The rating system is
Weng-Lin's Bayesian approximation with the Plackett-Luce model (`model`, through `openskill`).
"""
