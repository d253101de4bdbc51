"""Identifiers of players and games: a prefix and 48 random bits, short enough to read out."""

from __future__ import annotations

import secrets


def new_id(prefix: str) -> str:
    return prefix + secrets.token_hex(6)
