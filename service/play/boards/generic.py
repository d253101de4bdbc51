"""A game without a board of its own (a test game): its view's fields, one per line."""

from __future__ import annotations

import json

from service.play.boards.common import Html, board_frame, el
from service.play.boards.table import Table

ENVELOPE = ("game", "version", "seat", "active_seats")


def lines(t: Table) -> list[str]:
    return [
        f"{key}: {json.dumps(value, ensure_ascii=False)}"
        for key, value in t.view.items()
        if key not in ENVELOPE
    ]


def text(t: Table) -> str:
    head = [str(t.view.get("game", "game")).upper()]
    if result := t.result():
        head.append(result)
    return "\n".join(head + [""] + lines(t)) + "\n"


def html(t: Table) -> Html:
    return board_frame(
        str(t.view.get("game", "game")),
        t.result() or "",
        el("pre", "\n".join(lines(t)), style="margin:0;font-size:13px"),
    )


def scores(view: dict) -> list | None:
    """A game without a board has no known score field."""
    return None
