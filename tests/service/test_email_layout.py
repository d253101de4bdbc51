"""An email laid out from a letter (service/notify/emails.layout) is a valid RFC 5322 / 2045
message whatever names and words it carries: the standard library's parser reads back, with no
defect, the very subject, names, addresses, headers, text and HTML that were given; every line
is ASCII, ends in CRLF and keeps within the limits, and no header can be injected."""

import binascii
import email
import re
from email.policy import default

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.notify import emails
from service.play.boards import Html
from tests.hostile_text import REFUSED, SHOWN

NAMES = {
    **SHOWN,
    "plain": "Ada",
    "encoded-word lookalike": "=?utf-8?q?Admin?=",
    "long with spaces": " ".join(["Ada"] * 30),
    "long wide": "東京" * 40,
    "specials": 'Bo "the, <best>" O\'Neil; (x)',
}


def letter(name: str, text: str) -> emails.Letter:
    return emails.Letter(
        subject=f"[turnpost] The Nine Domains with {name}: round 3: your move (g_12345678)",
        greeting=f"Hello {name},",
        lead=f"It is your turn against {name}. {text}",
        sections=[
            (
                "Since your last move:",
                [f"{name} played {text}", ("Play it", "https://x.test/a?b=c&d=e")],
            ),
            emails.BoardSection(
                "The game as you see it:",
                f"{text}\n  . {name} .\n",
                Html("<table><tr><td>b</td></tr></table>"),
            ),
        ],
        links=[("See the game", "https://x.test/games/g_12345678")],
        footer=f"You get this because of {text}.",
    )


def laid_out(name: str, text: str, **extra) -> tuple[bytes, email.message.EmailMessage]:
    mail = emails.layout(
        letter(name, text),
        name,
        "ada@example.org",
        "turnpost <turnpost@play.test>",
        "email-g_12345678-0-3-turn_started",
        reply_to="move+tok.3@play.test",
        headers={"X-Turnpost-Game": "g_12345678", "X-Turnpost-Event": "turn.started", **extra},
    )
    assert mail.sender == "turnpost@play.test" and mail.recipients == ("ada@example.org",)
    return mail.data, email.message_from_bytes(mail.data, policy=default)


@pytest.mark.parametrize("name", list(NAMES))
def test_names_and_words_survive_the_round_trip(name):
    who, text = NAMES[name], SHOWN["wide"] + " = =3D. trailing space "
    data, message = laid_out(who, text)
    assert message.defects == [] and all(p.defects == [] for p in message.walk())
    assert message["Subject"] == letter(who, text).subject
    (to,) = message["To"].addresses
    assert to.addr_spec == "ada@example.org"
    if name == "long wide":  # several encoded words, between which CPython's reader of an
        # address (not RFC 2047 6.2) leaves a space, as it did with EmailMessage's own
        assert to.display_name.replace(" ", "") == who
    else:
        assert to.display_name == who
    assert message["From"].addresses[0].addr_spec == "turnpost@play.test"
    assert message["Reply-To"] == "move+tok.3@play.test"
    assert message["X-Turnpost-Delivery"] == "email-g_12345678-0-3-turn_started"
    assert message["X-Turnpost-Event"] == "turn.started"
    assert message["Auto-Submitted"] == "auto-generated"
    assert re.fullmatch(r"<[^<>@\s]+@[^<>@\s]+>", message["Message-ID"])
    assert message.get_content_type() == "multipart/alternative"
    plain = message.get_body(preferencelist=("plain",))
    html = message.get_body(preferencelist=("html",))
    # a part's lines end in CRLF on the wire, and so when read back (as the standard
    # library's own messages do)
    assert plain.get_content().replace("\r\n", "\n") == emails._text(letter(who, text))
    assert html.get_content().replace("\r\n", "\n") == emails._html(letter(who, text))
    # on the wire: ASCII, CRLF line ends only, lines within RFC 5322's 998 (headers within 78
    # where they have a space to fold at)
    assert data.isascii()
    lines = data.split(b"\r\n")
    assert b"\n" not in data.replace(b"\r\n", b"") and b"\r" not in data.replace(b"\r\n", b"")
    assert max(len(line) for line in lines) <= 998
    head = data.split(b"\r\n\r\n", 1)[0].split(b"\r\n")
    assert all(len(line) <= 78 or b" " not in line.strip() for line in head)
    assert all(line.strip() for line in head)  # no header line of whitespace alone


def test_an_ascii_letter_with_short_lines_goes_as_7bit_and_the_html_quoted_printable():
    _, message = laid_out("Ada", "plain words")
    plain = message.get_body(preferencelist=("plain",))
    html = message.get_body(preferencelist=("html",))
    assert plain["Content-Transfer-Encoding"] == "7bit"
    assert html["Content-Transfer-Encoding"] == "quoted-printable"  # one long line
    assert plain.get_content_charset() == html.get_content_charset() == "utf-8"


@pytest.mark.parametrize("case", ["CR", "LF", "CRLF"])
def test_a_header_cannot_be_injected(case):
    with pytest.raises(ValueError):
        laid_out("Ada", "words", **{"X-Turnpost-Code": REFUSED[case]})
    with pytest.raises(ValueError):
        laid_out(REFUSED[case], "words")


# bytes that meet binascii's rules: "=", a dot, spaces, tabs, both line breaks, NUL, a control
# byte, non-ASCII (a UTF-8 middle dot), and enough plain letters for lines past the width
QP_PIECES = st.sampled_from(
    [b"=", b".", b" ", b"\t", b"\n", b"\r", b"\r\n", b"\x00", b"\x1b", b"\xc2\xb7", b"<td>", b"a"]
)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.one_of(QP_PIECES, st.integers(1, 90).map(lambda n: b"x" * n)), max_size=40).map(
        b"".join
    )
)
def test_a_part_is_quoted_printable_as_binascii_writes_it_byte_for_byte(data):
    """emails.quoted_printable is binascii.b2a_qp(istext=True) made fast for long lines: the
    same bytes for any text, soft breaks, =XX never cut, spaces before a line break, dots
    alone on a line and all."""
    assert emails.quoted_printable(data) == binascii.b2a_qp(data, istext=True)


@pytest.mark.parametrize("width", [73, 74, 75, 76, 77, 150, 151, 152])
@pytest.mark.parametrize("tail", [b"", b"=", b"\xc2\xb7", b".", b"=\n", b"a\n", b"\n."])
def test_quoted_printable_breaks_at_binascii_columns(width, tail):
    """The soft breaks around the line's width: a plain byte ending the line, an =XX that
    would straddle the width."""
    for lead in (b"", b"=", b"==", b"\xc2\xb7"):
        data = lead + b"h" * width + tail
        assert emails.quoted_printable(data) == binascii.b2a_qp(data, istext=True)
