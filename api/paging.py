"""One page of a longer list: where the next page is, said twice (the `next` field, and the
`Link` header of RFC 8288 that the operation documents as NEXT_PAGE)."""

from __future__ import annotations

from typing import Any


def next_page(answer: dict[str, Any], following: str | None) -> tuple[dict, int, dict[str, str]]:
    """`answer` with its `next`: the next page's address (relative), or None on the last page;
    and the same address in a `Link: <...>; rel="next"` header while there is one."""
    headers = {"Link": f'<{following}>; rel="next"'} if following else {}
    return {**answer, "next": following}, 200, headers


def log_page(answer: dict[str, Any], address: str, limit: int, more: bool) -> tuple:
    """A page of a game's log as one reader sees it (the log, the chat): the next page reads on
    after the last entry this one read (`read_to`), `limit` at a time, while there is `more`."""
    following = f"{address}?after={answer['read_to']}&limit={limit}" if more else None
    return next_page(answer, following)
