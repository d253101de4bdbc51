"""The per-game view and action schemas: one module per game, named after the game."""
