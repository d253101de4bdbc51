"""What every board shares: names made safe to print, text laid out in columns by display
width, and HTML built so that nothing reaches it unescaped.

HTML boards must look right in Gmail, Outlook and Apple Mail: tables for layout, inline styles
only (with `bgcolor` next to `background` for Outlook's Word engine), no SVG, no scripts, no
external CSS. And on a phone's screen, 360 px wide, without a media query (a mail client may
drop them): a board is no wider than about 300 px at its narrowest. Rows of cards wrap (inline
blocks), grids share the width they are given (`fluid_start`), labels sit above a row rather
than beside it, and any word may break (`overflow-wrap:anywhere`, inherited from the frame)
rather than push a board past the screen's edge.

Nothing from outside reaches the HTML unescaped: a player called `<script>` is shown as text.
A tag starts with `start_tag` (or `part_start`, `card_start`, `layout_start`), which escapes
every attribute's value; what goes between tags is `Html` (markup made here, safe as it is) or
goes through `escape` (or `markup`, which also takes lists). A turn email draws a board for
every reader, and the workers do little else, so a board is not built element by element: the
starts of the elements it repeats (a cell, a card, a row, a label) are made once, at import or
cached, and each row or card is one f-string of them with the values that come from the view
and the names escaped. `el()` builds an element from its children for the rare ones. Text
boards likewise: a table measures an ASCII row by its cells' lengths and lays a full row of
one-column characters out with one format of its widths, a long line is broken once
(`_broken`), and the games look the words they repeat up once per language.

The caches of the boards live as long as their process, and the background worker and the HTTP
workers draw boards for every turn email and page all day: each cache is bounded by what it
holds full, about a MiB at most (the bytes an entry takes are noted at each), and only a cache
whose keys are a few dozen (a die, a cell, a card) has no bound. A miss costs a fraction of a
millisecond, against some 5 ms for an email. tests/service/test_board_caches.py measures them.
"""

from __future__ import annotations

import html
import unicodedata
from collections.abc import Iterable
from functools import cache, lru_cache
from itertools import zip_longest

from service.words import N_, gettext

NAME_LIMIT = 18
TEXT_WIDTH = 72  # plain-text mail is wrapped near 78 columns; a board stays within this


# ------------------------------------------------------------------------------ text


def clean(text: str) -> str:
    """Printable text: control and format characters (newlines, bidi overrides) become spaces."""
    text = str(text)
    if text.isprintable():
        return text
    return "".join(" " if unicodedata.category(c) in ("Cc", "Cf") else c for c in str(text))


@lru_cache(maxsize=1024)  # about 120 bytes an entry
def short_name(name: str, limit: int = NAME_LIMIT) -> str:
    """A player's name as a board prints it: cleaned, and cut to `limit` columns with '…'."""
    name = " ".join(clean(name).split()) or "?"
    if width(name) <= limit:
        return name
    out = ""
    for c in name:
        if width(out + c) > limit - 1:
            break
        out += c
    return out + "…"


@lru_cache(maxsize=4096)  # about 210 bytes an entry (keys are lines of text)
def width(text: str) -> int:
    """Columns a monospace terminal gives `text`: wide East Asian characters take two,
    combining marks none."""
    if text.isascii():
        return len(text)
    total = 0
    for c in text:
        if unicodedata.combining(c):
            continue
        total += 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1
    return total


def pad(text: str, columns: int) -> str:
    """`text` and spaces to fill `columns` (str.ljust counts characters, not columns: it is
    given the characters `columns` make for this text)."""
    return text.ljust(columns + len(text) - width(text))


def rpad(text: str, columns: int) -> str:
    return text.rjust(columns + len(text) - width(text))


def wrap(lines: list[str], columns: int = TEXT_WIDTH) -> list[str]:
    """Lines longer than `columns` broken at spaces, the rest indented by two."""
    out = []
    for line in lines:
        # a line takes at most two columns a character: most are seen to fit by their length
        if len(line) <= columns and (line.isascii() or 2 * len(line) <= columns):
            out.append(line)
        else:
            out += _broken(line, columns)
    return out


@lru_cache(maxsize=512)  # about 1 KB an entry (a long line and its lines)
def _broken(line: str, columns: int) -> tuple[str, ...]:
    """`line` broken as `wrap` breaks it; cached: a board's long lines (its notes, what
    happens now) come back in every board."""
    out = []
    while width(line) > columns and " " in line.strip():
        cut = _cut(line, columns)
        out.append(line[:cut].rstrip())
        line = "  " + line[cut:].lstrip()
    out.append(line)
    return tuple(out)


def _cut(line: str, columns: int) -> int:
    """Where to break `line`: the last space within `columns`, else the first space."""
    if line.isascii():  # a column a character
        best = line.rfind(" ", 3, columns + 1)
    else:
        best, used = -1, 0
        for i, c in enumerate(line):
            if c == " " and i > 2:
                if used > columns:
                    break
                best = i
            used += width(c)
    if best >= 0:
        return best
    return line.index(" ", 3) if " " in line[3:] else len(line)


def table(rows: list[list[str]], gap: int = 2, right: Iterable[int] = ()) -> list[str]:
    """Rows of cells as aligned lines (columns in `right` are right-aligned)."""
    right = set(right)
    lengths = [list(map(len, row)) for row in rows]
    spans = [  # the columns each cell takes: its length when the row is ASCII
        length if "".join(row).isascii() else list(map(width, row))
        for row, length in zip(rows, lengths)
    ]
    widths = [max(column) for column in zip_longest(*spans, fillvalue=0)]
    spacer = " " * gap
    # a full row whose cells take a column a character (most rows: no wide characters nor
    # combining marks) is one format of the widths, which count characters
    full = spacer.join(f"{{:{'>' if i in right else '<'}{w}}}" for i, w in enumerate(widths))
    lines = []
    for row, length, span in zip(rows, lengths, spans):
        if len(row) == len(widths) and span == length:
            lines.append(full.format(*row).rstrip())
            continue
        # else each cell is given the characters its column's width makes for it
        cells = [
            (cell.rjust if i in right else cell.ljust)(widths[i] + len(cell) - columns)
            for i, (cell, columns) in enumerate(zip(row, span))
        ]
        lines.append(spacer.join(cells).rstrip())
    return lines


def seat_label(names: list[str], seat: int, you: int | None, limit: int = NAME_LIMIT) -> str:
    name = (
        short_name(names[seat], limit)
        if seat < len(names)
        else gettext("seat %(number)s", number=seat)
    )
    return gettext("%(name)s (you)", name=name) if seat == you else name


def plural(count: int, word: str, words: str | None = None) -> str:
    """ "3 torpedoes" in English (a board's own words in other languages are `ngettext`'s)."""
    return f"{count} {word if count == 1 else (words or word + 's')}"


def joined(items: list[str], empty: str | None = None) -> str:
    return ", ".join(items) if items else (empty or gettext("none"))


# ------------------------------------------------------------------------------ HTML


class Html(str):
    """Markup that is safe as it is; any other string is escaped when it is put in markup."""


def escape(value) -> Html:
    kind = type(value)
    if kind is str:
        return _escaped(value)
    if kind is Html or isinstance(value, Html):
        return value
    return _escaped(value if isinstance(value, str) else str(value))


@lru_cache(maxsize=2048)  # about 430 bytes an entry
def _escaped(text: str) -> Html:
    """Escaping is cached: a board repeats the same styles and labels hundreds of times."""
    return Html(html.escape(clean(text), quote=True))


@lru_cache(maxsize=1024)  # about 630 bytes an entry (a style and a part's name)
def start_tag(tag: str, style: str = "", **attrs) -> Html:
    """`<tag style="..." attrs...>`, every value escaped (None: left out). Attribute names:
    `class_` -> `class`, `_` -> `-`. A board's repeated elements start with one of these, made
    once (at import, or the first time a style and a part are drawn), and their content is put
    in with an f-string: `f"{ROW_LABEL}{escape(name)}</td>"`."""
    head = f'<{tag} style="{escape(style)}"' if style else f"<{tag}"
    for key, value in attrs.items():
        if value is not None:
            head += f' {_attribute(key)}="{escape(value)}"'
    return Html(head + ">")


def el(tag: str, *children, style: str = "", **attrs) -> Html:
    """`<tag style=... attrs>children</tag>`; children may be strings, Html, numbers, None
    (left out) or lists of these (see `start_tag` for the attributes). For the parts a board
    draws once; those it repeats are f-strings of `start_tag`s and `markup`."""
    return Html(f"{start_tag(tag, style, **attrs)}{_inner(children)}</{tag}>")


def markup(child) -> Html:
    """One child of an element as markup: Html as it is, any other string (a name, free text)
    or number escaped, None nothing, a list or tuple its items in order."""
    kind = type(child)
    if kind is Html:
        return child
    if kind is str:
        return _escaped(child)
    return Html(_inner((child,)))


def layout_start(style: str = "", **attrs) -> Html:
    """The start of a table that only lays out its cells (e-mail clients know no other grid):
    no spacing or border of its own, and screen readers read its cells as text, not as a
    table."""
    return start_tag(
        "table",
        style,
        role="presentation",
        cellpadding="0",
        cellspacing="0",
        border="0",
        **attrs,
    )


@cache  # the attribute names of the boards' code: a few dozen
def _attribute(key: str) -> str:
    return key.rstrip("_").replace("_", "-")


def _inner(children) -> str:
    """The children's markup, escaped where they are not Html already, in order (the exact
    types are asked first: most children are Html or plain text)."""
    out: list[str] = []
    for child in children:
        kind = type(child)
        if kind is Html:
            out.append(child)
        elif kind is str:
            out.append(_escaped(child))
        elif child is None:
            continue
        elif kind is list or kind is tuple:
            out.append(_inner(child))
        elif isinstance(child, Html):
            out.append(child)
        else:
            out.append(_escaped(child if isinstance(child, str) else str(child)))
    return "".join(out)


FONT = "font-family:Arial,Helvetica,sans-serif;font-size:14px;line-height:1.35;color:#1d2733"
INK = "#1d2733"
MUTED = "#5b6775"
LINE = "#c9d1da"

FRAME = layout_start(
    f"{FONT};border:1px solid {LINE};border-collapse:separate;"
    "background:#ffffff;max-width:680px;overflow-wrap:anywhere",
    bgcolor="#ffffff",
)
TITLE_BAR = start_tag(
    "td", "padding:10px 12px;background:#eef2f6;border-bottom:1px solid " + LINE, bgcolor="#eef2f6"
)
TITLE = start_tag("div", "font-size:18px;font-weight:bold")
SUBTITLE = start_tag("div", f"font-size:13px;color:{MUTED}")
FRAME_PART = start_tag("td", "padding:10px 12px")


def board_frame(title: str, subtitle: str, *body) -> Html:
    """The outer box of every HTML board: a title bar and the game's parts below it."""
    parts = "".join(f"<tr>{FRAME_PART}{markup(part)}</td></tr>" for part in body if part)
    return Html(
        f"{FRAME}<tr>{TITLE_BAR}{TITLE}{escape(title)}</div>"
        f"{SUBTITLE}{escape(subtitle)}</div></td></tr>{parts}</table>"
    )


HEADING = start_tag(
    "div",
    "font-size:13px;font-weight:bold;text-transform:uppercase;"
    f"letter-spacing:0.04em;color:{MUTED};margin:0 0 6px 0",
)


def heading(text: str) -> Html:
    return Html(f"{HEADING}{escape(text)}</div>")


def chip(
    text: str,
    background: str,
    colour: str = "#ffffff",
    border: str | None = None,
    size: str = "13px",
    title: str | None = None,
    part: str | None = None,
    marked: bool = False,
) -> Html:
    """A small coloured label (a card's face in a hand, a domain, a colour); `part`: the board
    part it shows (see `part_el`)."""
    edge = border or background
    return part_el(
        "span",
        text,
        part=part,
        marked=marked,
        title=title,
        style=f"display:inline-block;padding:2px 7px;margin:1px 3px 1px 0;"
        f"border:1px solid {edge};border-radius:4px;background:{background};"
        f"color:{colour};font-size:{size};font-weight:bold;white-space:nowrap",
    )


# ------------------------------------------------------------------------------ parts

MARK_STYLE = "outline:3px solid #c2185b;outline-offset:1px"
"""A part changed since the reader's last move: a ring that mail clients show too."""
MARK_WORDS = N_("changed since your last move")
BADGE = N_("new")
"""The badge on a marked part (web/static/turnpost.css shows the element's `data-new`)."""


def part_start(
    tag: str,
    part: str | None,
    marked: bool = False,
    style: str = "",
    title: str | None = None,
    **attrs,
) -> Html:
    """The start of an element that shows a board part (service/play/parts): its name in
    `data-part`, so that the game page can offer it to be picked; `marked` when what happened
    since the reader's last move changed it: the class `changed`, a ring, and the words in its
    title (not the colour alone)."""
    if not marked and title is None and not attrs:
        return start_tag(tag, style, data_part=part)
    if marked:
        words = gettext(MARK_WORDS)
        style = f"{style};{MARK_STYLE}" if style else MARK_STYLE
        title = f"{title}: {words}" if title else words
        attrs["data_new"] = gettext(BADGE)
    return start_tag(
        tag,
        style,
        data_part=part,
        class_="changed" if marked else None,
        title=title,
        **attrs,
    )


def part_el(tag: str, *children, part: str | None, **start) -> Html:
    """A `part_start` element (`start`: its keywords) with its children."""
    return Html(f"{part_start(tag, part, **start)}{_inner(children)}</{tag}>")


@cache  # the styles of the boards' paragraphs: a few
def _paragraph(style: str) -> Html:
    return start_tag("p", f"margin:4px 0;{style}")


def paragraph(*content, style: str = "") -> Html:
    return Html(f"{_paragraph(style)}{_inner(content)}</p>")


def strong_paragraph(text: str) -> Html:
    """A paragraph in bold: what happens now, atop a board."""
    return Html(f"{_paragraph('')}<strong>{escape(text)}</strong></p>")


FOOTER = start_tag("div", f"border-top:1px solid {LINE};padding-top:6px")
"""The start of a board's last part: its notes below a line."""


_TH = "padding:4px 6px;border-bottom:2px solid " + LINE + ";text-align:left;font-size:13px"
# a heading's word never breaks (a name in one may: wrap it in `breakable`)
TH, TH_RIGHT = (
    start_tag("th", f"{_TH};overflow-wrap:normal{right}") for right in ("", ";text-align:right")
)
_TD = "padding:4px 6px;border-bottom:1px solid #e3e8ee;font-size:13px"
TD, TD_RIGHT = (start_tag("td", _TD + right) for right in ("", ";text-align:right"))
DATA_TABLE = start_tag(
    "table",
    cellpadding="0",
    cellspacing="0",
    border="0",
    style="border-collapse:collapse;margin:2px 0",
)


def data_table(header: list, rows: list[list], align_right: Iterable[int] = ()) -> Html:
    """A small bordered table of facts (scores, battles)."""
    right = set(align_right)
    heads = [TH_RIGHT if i in right else TH for i in range(len(header))]
    head = "".join(f"{start}{markup(h)}</th>" for start, h in zip(heads, header))
    columns = max(map(len, rows), default=0)
    cells = [TD_RIGHT if i in right else TD for i in range(columns)]
    body = "".join(
        "<tr>" + "".join(f"{start}{markup(c)}</td>" for start, c in zip(cells, row)) + "</tr>"
        for row in rows
    )
    return Html(f"{DATA_TABLE}<tr>{head}</tr>{body}</table>")


BREAKABLE = start_tag("span", "overflow-wrap:anywhere")


def breakable(text: str) -> Html:
    """Text (a name) that may break anywhere, even where its surroundings keep words whole."""
    return Html(f"{BREAKABLE}{escape(text)}</span>")


def fluid_start(widest: int, style: str = "", **attrs) -> Html:
    """The start of a grid of equal columns (its first row's cells) that takes the width it
    is given, up to `widest` px: on a phone its columns narrow instead of pushing the board
    past the screen. Rows of one cell spanning every column carry labels."""
    return layout_start(
        f"width:100%;max-width:{widest}px;table-layout:fixed;{style}", width="100%", **attrs
    )


def cards_in_a_row(cards: list) -> Html:
    """Cards side by side that wrap onto a new line when the screen is narrow (each card an
    inline block: `card_box`)."""
    return Html(f"<div>{markup(cards)}</div>")


def card_start(
    style: str = "", gap: int = 6, part: str | None = None, marked: bool = False, **attrs
) -> Html:
    """The start of one card of `cards_in_a_row` (an inline block); `part`: the board part it
    shows, `marked` when it changed since the reader's last move (see `part_el`)."""
    return part_start(
        "div",
        part,
        marked,
        f"display:inline-block;vertical-align:top;margin:0 {gap}px {gap}px 0;{style}",
        **attrs,
    )


def card_box(
    *content,
    style: str = "",
    gap: int = 6,
    part: str | None = None,
    marked: bool = False,
    **attrs,
) -> Html:
    """One card of `cards_in_a_row`: a `card_start` with its content."""
    return Html(f"{card_start(style, gap, part, marked, **attrs)}{_inner(content)}</div>")


@lru_cache(maxsize=256)  # about 300 bytes an entry; the words are a few dozen a language
def hyphenated(word: str) -> Html:
    """A word with "|" where it may break in a narrow column (with a hyphen: a soft hyphen,
    written as markup, since `clean` turns format characters into spaces): each language's own
    syllables, "sotto|ma|ri|no"."""
    return Html("&shy;".join(escape(part) for part in word.split("|")))
