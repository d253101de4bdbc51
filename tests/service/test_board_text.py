"""The text boards' layout helpers (service/play/boards/common.py) lay text out by the columns a
terminal gives it, whatever the characters: ASCII, accented and Cyrillic letters, wide East
Asian ones, combining marks. Their fast paths (ASCII measured by its length, str.ljust given
the characters a column makes, long lines broken once and cached) must give what the plain
definitions below give, for seeded random lines and tables of every kind of character."""

from __future__ import annotations

import random
import unicodedata

import pytest

from service.play.boards import common

LETTERS = (
    "abcdefghij ABC 0123456789 .,:;-+*()",
    "àèéìòù ÀÉ ñ ø",  # precomposed: one column each
    "абвгдежзий АБВ ёЁ",  # Cyrillic: one column each
    "東京タワー漢字",  # wide: two columns each
    "\u0301\u0308\u0483",  # combining: no column
)


def columns(text: str) -> int:
    """The plain definition: two columns for a wide character, none for a combining mark."""
    return sum(
        0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
        for c in text
    )


def plain_wrap(lines: list[str], limit: int) -> list[str]:
    """Lines wider than `limit` broken at the last space within it (else the first space),
    each following line indented by two."""
    out = []
    for line in lines:
        while columns(line) > limit and " " in line.strip():
            best, used = None, 0
            for i, c in enumerate(line):
                if c == " " and i > 2:
                    if used > limit:
                        break
                    best = i
                used += columns(c)
            if best is None:
                best = line.index(" ", 3) if " " in line[3:] else len(line)
            out.append(line[:best].rstrip())
            line = "  " + line[best:].lstrip()
        out.append(line)
    return out


def plain_table(rows: list[list[str]], gap: int, right: set[int]) -> list[str]:
    count = max((len(r) for r in rows), default=0)
    widths = [max((columns(r[i]) for r in rows if i < len(r)), default=0) for i in range(count)]
    lines = []
    for row in rows:
        cells = []
        for i, cell in enumerate(row):
            fill = " " * max(0, widths[i] - columns(cell))
            cells.append(fill + cell if i in right else cell + fill)
        lines.append((" " * gap).join(cells).rstrip())
    return lines


def words(rng: random.Random, kinds: str, most: int) -> str:
    """Up to `most` characters from the kinds of LETTERS chosen (their indices)."""
    alphabet = "".join(LETTERS[int(k)] for k in kinds)
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, most)))


KINDS = ["0", "01", "02", "03", "04", "01234"]


@pytest.mark.parametrize("kinds", KINDS)
def test_width_pad_and_rpad_count_columns(kinds):
    rng = random.Random(kinds)
    for _ in range(300):
        text = words(rng, kinds, 30)
        wide = rng.randint(0, 40)
        assert common.width(text) == columns(text), text
        assert common.pad(text, wide) == text + " " * max(0, wide - columns(text)), text
        assert common.rpad(text, wide) == " " * max(0, wide - columns(text)) + text, text


@pytest.mark.parametrize("kinds", KINDS)
def test_wrap_breaks_lines_by_columns(kinds):
    rng = random.Random(kinds)
    for _ in range(200):
        lines = [words(rng, kinds, 160) for _ in range(rng.randint(1, 4))]
        limit = rng.choice((20, 40, 72))
        assert common.wrap(lines, limit) == plain_wrap(lines, limit), lines
        # twice: the second time from the cache of broken lines
        assert common.wrap(lines, limit) == plain_wrap(lines, limit), lines


@pytest.mark.parametrize("kinds", KINDS)
def test_table_aligns_cells_by_columns(kinds):
    rng = random.Random(kinds)
    for _ in range(200):
        count = rng.randint(0, 6)
        rows = [
            [words(rng, kinds, 12) for _ in range(rng.randint(0, count))]
            for _ in range(rng.randint(0, 6))
        ]
        gap = rng.randint(1, 3)
        right = {i for i in range(8) if rng.random() < 0.3}
        assert common.table(rows, gap, right) == plain_table(rows, gap, right), rows
