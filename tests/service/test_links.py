"""Signed one-click move links: they read back, and nothing else gets through."""

import base64
import hashlib
import hmac
import re

import pytest

from service.notify.links import INVITATION, LinkError, MoveLink, read_link, sign_link

SECRET = bytes.fromhex("8f1e" * 16)
OTHER_SECRET = bytes.fromhex("8f1f" + "8f1e" * 15)
EXPIRES = 1_741_600_000
NOW = EXPIRES - 3600


def token(notation="place 7 opp3", secret=SECRET, expires_at=EXPIRES):
    return sign_link(secret, "g_4be0c3a1f29d", 1, 17, notation, expires_at)


def error_code(secret, text, now=NOW) -> str:
    with pytest.raises(LinkError) as caught:
        read_link(secret, text, now)
    return caught.value.code


def test_round_trip():
    link = read_link(SECRET, token(), NOW)
    assert link == MoveLink(
        game_id="g_4be0c3a1f29d",
        seat=1,
        version=17,
        notation="place 7 opp3",
        expires_at=EXPIRES,
        link_id=link.link_id,
    )
    assert re.fullmatch(r"[0-9a-f]{32}", link.link_id)


def test_the_token_is_url_safe_unpadded_and_compact():
    text = token("fleet r+2@r1 g-3@g2; torpedo b2@y1")
    assert re.fullmatch(r"[A-Za-z0-9_.-]+", text) and "=" not in text
    assert len(text) < 130
    # a non-ASCII notation costs its UTF-8 bytes in base64, not six-character JSON escapes
    assert len(token("é" * 30)) - len(token("")) <= 82


def test_link_id_is_stable_and_differs_between_links():
    first = read_link(SECRET, token(), NOW).link_id
    assert read_link(SECRET, token(), NOW - 100).link_id == first
    assert first == hashlib.sha256(token().encode()).hexdigest()[:32]
    assert read_link(SECRET, token("place 7 me1"), NOW).link_id != first


def test_every_field_is_bound():
    base = ("g_4be0c3a1f29d", 1, 17, "place 7 opp3", EXPIRES)
    tokens = {sign_link(SECRET, *base)}
    for i, changed in enumerate(["g_4be0c3a1f29e", 0, 18, "place 7 opp4", EXPIRES + 1]):
        fields = list(base)
        fields[i] = changed
        tokens.add(sign_link(SECRET, *fields))
    assert len(tokens) == 6


@pytest.mark.parametrize(
    "notation",
    [
        "fleet r+2@r1 g-3@g2; torpedo b2@y1",
        "  two  spaces  ",
        "keep kraken\u00a0é ñ 漢字 🐙",
        '"quoted" \\ back\\slash / {json: [1]}',
        "",
        "tab\there\nnewline",
    ],
    ids=["consonar-turn", "spaces", "unicode", "json-specials", "empty", "controls"],
)
def test_a_notation_survives_as_written(notation):
    assert read_link(SECRET, token(notation), NOW).notation == notation


def test_any_single_character_change_fails():
    text = token()
    alphabet = "AZaz09_-.=+/%~ \u00e9"
    for i, original in enumerate(text):
        for replacement in alphabet:
            if replacement == original:
                continue
            altered = text[:i] + replacement + text[i + 1 :]
            assert error_code(SECRET, altered) in ("link/bad_signature", "link/malformed"), (
                i,
                replacement,
            )


def test_any_near_miss_of_the_signature_is_a_bad_signature():
    """Even where base64 has another spelling of the same bytes (the last character of the
    MAC carries 4 unused bits), only the signed spelling is accepted."""
    payload, mac = token().split(".")
    for replacement in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_":
        if replacement != mac[-1]:
            altered = f"{payload}.{mac[:-1]}{replacement}"
            assert error_code(SECRET, altered) == "link/bad_signature"


@pytest.mark.parametrize("cut", [1, 5, 22, 23, 40])
def test_a_truncated_token_fails(cut):
    assert error_code(SECRET, token()[:-cut]) in ("link/bad_signature", "link/malformed")


def test_an_extended_token_fails():
    assert error_code(SECRET, token() + "A") == "link/malformed"
    assert error_code(SECRET, "A" + token()) == "link/bad_signature"


def test_another_secret_fails():
    assert error_code(OTHER_SECRET, token()) == "link/bad_signature"
    assert error_code(SECRET, token(secret=OTHER_SECRET)) == "link/bad_signature"


def test_a_forged_payload_with_a_copied_signature_fails():
    """Swapping in the payload of another move keeps the signature of the first one."""
    _, mac = token("place 7 opp3").split(".")
    payload, _ = token("place 7 me1").split(".")
    assert error_code(SECRET, f"{payload}.{mac}") == "link/bad_signature"


def test_expiry_boundary():
    assert read_link(SECRET, token(), EXPIRES - 0.001).expires_at == EXPIRES
    assert error_code(SECRET, token(), now=EXPIRES) == "link/expired"
    assert error_code(SECRET, token(), now=EXPIRES + 0.5) == "link/expired"


def test_an_expired_forgery_is_a_bad_signature_not_expired():
    """The signature is checked before anything the token claims is believed."""
    assert error_code(OTHER_SECRET, token(), now=EXPIRES + 1) == "link/bad_signature"


@pytest.mark.parametrize(
    "garbage",
    [
        "",
        ".",
        "..",
        "abc",
        "abc.",
        ".abc",
        "a.b.c",
        "A" * 100_000,
        "A" * 3000 + "." + "A" * 22,
        "é" * 40 + "." + "A" * 22,
        "place 7 opp3",
        "\x00" * 30,
        token() + "\n",
        " " + token(),
        "😀" * 500,
        None,
        b"bytes.AAAAAAAAAAAAAAAAAAAAAA",
        12345,
    ],
    ids=[
        "empty",
        "dot",
        "dots",
        "word",
        "no-mac",
        "no-payload",
        "three-parts",
        "huge",
        "huge-shaped",
        "non-ascii",
        "notation",
        "nul",
        "newline",
        "space",
        "emoji",
        "none",
        "bytes",
        "int",
    ],
)
def test_garbage_is_malformed(garbage):
    assert error_code(SECRET, garbage) == "link/malformed"


def _signed(payload_bytes: bytes) -> str:
    """A token over any payload, made by hand from the documented format."""
    payload = base64.urlsafe_b64encode(payload_bytes).rstrip(b"=").decode()
    digest = hmac.new(SECRET, b"turnpost move link v1\n" + payload.encode(), "sha256").digest()
    return payload + "." + base64.urlsafe_b64encode(digest[:16]).rstrip(b"=").decode()


def test_the_format_is_as_documented():
    payload = b'["g_4be0c3a1f29d",1,17,"place 7 opp3",1741600000]'
    assert _signed(payload) == token()


@pytest.mark.parametrize(
    "payload",
    [
        b"not json",
        b"\xff\xfe",
        b"{}",
        b'["g", 1, 17, "pass"]',
        b'["g", 1, 17, "pass", 1, 2]',
        b'["g", -1, 17, "pass", 1741600000]',
        b'["g", true, 17, "pass", 1741600000]',
        b'["g", 1, 17.5, "pass", 1741600000]',
        b'[1, 1, 17, "pass", 1741600000]',
        b'["g", 1, 17, null, 1741600000]',
        b'["g", 1, 17, "pass", "soon"]',
        b'["g", 1, 17, "pass", NaN]',
    ],
    ids=[
        "text",
        "not-utf8",
        "object",
        "four",
        "six",
        "negative",
        "bool",
        "float",
        "int-game",
        "null-notation",
        "text-expiry",
        "nan",
    ],
)
def test_a_signed_but_unreadable_payload_is_malformed(payload):
    assert error_code(SECRET, _signed(payload)) == "link/malformed"


@pytest.mark.parametrize(
    "fields",
    [
        (None, 1, 17, "pass", EXPIRES),
        ("g", -1, 17, "pass", EXPIRES),
        ("g", True, 17, "pass", 1),
        ("g", 1, "17", "pass", EXPIRES),
        ("g", 1, 17, None, EXPIRES),
        ("g", 1, 17, "pass", 1.5),
    ],
    ids=["no-game", "negative-seat", "bool-seat", "text-version", "no-notation", "float-expiry"],
)
def test_sign_link_refuses_ill_typed_fields(fields):
    with pytest.raises(ValueError):
        sign_link(SECRET, *fields)


def test_link_error_carries_a_message_for_the_player():
    with pytest.raises(LinkError) as caught:
        read_link(SECRET, token(), EXPIRES)
    assert "expired" in caught.value.message and str(caught.value) == caught.value.message


def test_links_signed_by_earlier_code_still_read():
    """Tokens made by the server before (these two by b6307ff's code, hmac.new's MAC) are
    made again alike and still read: links in the players' inboxes keep working."""
    secret = b"a fixed secret of thirty-two bytes"
    move = "WyJnXzEyMzQ1Njc4IiwxLDQyLCJhMWIyYzMgKDMrKSIsMTc5NTAwMDAwMF0.JHly8x2c5N-4ZlZMqldoTQ"
    invitation = "WyJnXzEyMzQ1Njc4IiwwLDcsImFjY2VwdCIsMTc5NTAwMDAwMF0.aok3v2jsIrmnga0KqPqP2A"
    assert sign_link(secret, "g_12345678", 1, 42, "a1b2c3 (3+)", 1795000000) == move
    assert sign_link(secret, "g_12345678", 0, 7, "accept", 1795000000, INVITATION) == invitation
    assert read_link(secret, move, 1794999999).notation == "a1b2c3 (3+)"
    assert read_link(secret, invitation, 1794999999, INVITATION).seat == 0
