"""One module (or package) per game, each defining `GAME`; found by engine.registry."""
