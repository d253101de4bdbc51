"""One module (or package) per game, each defining `GAME`; registered in engine.registry."""
