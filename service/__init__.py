"""The use-cases: create, join, play, resign, view, log, replay."""
