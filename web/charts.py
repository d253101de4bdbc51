"""A rating's history as a small SVG line chart, drawn on the server: no script, no inline
style (its look is in the stylesheet's `.chart` rules and SVG presentation attributes), every
text escaped, and a sentence for readers who do not see it."""

from __future__ import annotations

from collections.abc import Sequence

from flask_babel import gettext, ngettext
from markupsafe import Markup, escape

WIDTH, HEIGHT = 600, 200
LEFT, RIGHT, TOP, BOTTOM = 48, 12, 12, 24


def rating_chart(points: Sequence[int], label: str, start: int | None = 1500) -> Markup:
    """The ratings after each game, oldest first (after `start`, the rating before the first
    game, when the points begin with it: 1500), as an <svg> with a title and a description
    naming the lowest, highest and last rating."""
    values = [*([] if start is None else [start]), *points]
    low, high = min(values), max(values)
    low, high = (low - 50, high + 50) if high - low < 100 else (low, high)
    span_x = max(1, len(values) - 1)

    def x(i: int) -> float:
        return LEFT + (WIDTH - LEFT - RIGHT) * i / span_x

    def y(v: float) -> float:
        return TOP + (HEIGHT - TOP - BOTTOM) * (high - v) / (high - low)

    line = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
    last = values[-1]
    description = ngettext(
        "%(num)d rated game: from %(first)d to %(last)d, lowest %(low)d, highest %(high)d.",
        "%(num)d rated games: from %(first)d to %(last)d, lowest %(low)d, highest %(high)d.",
        len(points),
        first=values[0],
        last=last,
        low=min(values),
        high=max(values),
    )
    first = gettext("first game") if start else gettext("earlier")
    ticks = "".join(
        f'<text x="{LEFT - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{v}</text>'
        f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(v):.1f}" y2="{y(v):.1f}" class="grid"/>'
        for v in sorted({round(low), round((low + high) / 2), round(high)})
    )
    dots = "".join(f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="3"/>' for i, v in enumerate(values))
    return Markup(
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(label)}: {escape(description)}" focusable="false">'
        f"<title>{escape(label)}</title><desc>{escape(description)}</desc>"
        f"{ticks}"
        f'<text x="{LEFT}" y="{HEIGHT - 6}">{escape(first)}</text>'
        f'<text x="{WIDTH - RIGHT}" y="{HEIGHT - 6}" text-anchor="end">{escape(gettext("latest"))}</text>'
        f'<polyline points="{line}" fill="none" stroke="currentColor" stroke-width="2"/>'
        f'<g class="dots">{dots}</g></svg>'
    )
