"""Reading emailed replies: addresses, headers and the move lines of real clients' messages.

The fixtures in mail_samples/ are modelled on what each client really sends (headers, MIME
layout, transfer encoding, quoting style); each test names what its message shows."""

import random
import time
from email import message_from_bytes, policy
from pathlib import Path

import pytest

from service.by_mail.replies import Reply, parse_reply
from service.notify.reply_addresses import (
    REPLY_LOCAL_PREFIX,
    read_reply_address,
    reply_address,
)

SAMPLES = Path(__file__).parent / "mail_samples"
DOMAIN = "play.turnpost.example"
TOKEN = "3f9a1c0b7e2d4a6f8b1c9d0e2f4a6b8c"


def sample(name: str) -> bytes:
    return (SAMPLES / name).read_bytes()


def moves(name: str) -> list[str]:
    return parse_reply(sample(name)).move_lines


def plain(body: str, headers: str = "", content_type: str = "text/plain; charset=utf-8") -> bytes:
    """A small hand-made message with this body."""
    return (
        f"From: Ada <ada@example.org>\nTo: move+{TOKEN}.3@{DOMAIN}\nSubject: Re: turn\n"
        f"MIME-Version: 1.0\nContent-Type: {content_type}\n{headers}\n{body}"
    ).encode()


def without_plain_part(raw: bytes) -> bytes:
    """The same message with its text/plain alternative removed: what the HTML part says."""
    msg = message_from_bytes(raw, policy=policy.default)
    msg.set_payload([part for part in msg.iter_parts() if part.get_content_type() != "text/plain"])
    return msg.as_bytes()


# -- reply addresses -------------------------------------------------------------------------


def test_reply_address_has_the_prefix_token_and_version():
    assert reply_address(TOKEN, 17, DOMAIN) == f"move+{TOKEN}.17@{DOMAIN}"
    assert REPLY_LOCAL_PREFIX == "move"


def test_reply_address_reads_back():
    assert read_reply_address(reply_address(TOKEN, 0, DOMAIN), DOMAIN) == (TOKEN, 0)
    assert read_reply_address(reply_address(TOKEN, 12345, DOMAIN), DOMAIN) == (TOKEN, 12345)


@pytest.mark.parametrize(
    "address",
    [
        f"Turnpost <move+{TOKEN}.17@{DOMAIN}>",
        f'"Turnpost, the game server" <move+{TOKEN}.17@{DOMAIN}>',
        f"<move+{TOKEN}.17@{DOMAIN}>",
        f"  move+{TOKEN}.17@{DOMAIN}  ",
        f"MOVE+{TOKEN.upper()}.17@PLAY.Turnpost.EXAMPLE",
    ],
    ids=["display-name", "quoted-display-name", "angle-brackets", "spaces", "upper-case"],
)
def test_read_reply_address_tolerates_the_forms_clients_write(address):
    assert read_reply_address(address, DOMAIN) == (TOKEN, 17)


@pytest.mark.parametrize(
    "address",
    [
        f"move+{TOKEN}.17@other.example",
        f"move+{TOKEN}.17@sub.{DOMAIN}",
        f"play+{TOKEN}.17@{DOMAIN}",
        f"move-{TOKEN}.17@{DOMAIN}",
        f"move+{TOKEN}@{DOMAIN}",
        f"move+{TOKEN}.@{DOMAIN}",
        f"move+{TOKEN}.-1@{DOMAIN}",
        f"move+{TOKEN}.017@{DOMAIN}",
        f"move+{TOKEN}.17.2@{DOMAIN}",
        f"move+{'a' * 19}.17@{DOMAIN}",
        f"move+{'a' * 65}.17@{DOMAIN}",
        f"move+{'g' * 32}.17@{DOMAIN}",
        f"move+{TOKEN}.17",
        "ada@example.org",
        "",
        "<<<@@@>>>",
    ],
    ids=[
        "other-domain",
        "subdomain",
        "other-prefix",
        "dash",
        "no-version",
        "empty-version",
        "negative-version",
        "leading-zero",
        "two-versions",
        "short-token",
        "long-token",
        "not-hex",
        "no-domain",
        "a-person",
        "empty",
        "garbage",
    ],
)
def test_read_reply_address_refuses_what_is_not_ours(address):
    assert read_reply_address(address, DOMAIN) is None


@pytest.mark.parametrize(
    "token, version, domain",
    [
        ("xyz", 1, DOMAIN),
        (TOKEN.upper(), 1, DOMAIN),
        (TOKEN, -1, DOMAIN),
        (TOKEN, True, DOMAIN),
        (TOKEN, "1", DOMAIN),
        (TOKEN, 1, ""),
        (TOKEN, 1, "a@b"),
    ],
    ids=["short-token", "upper-token", "negative", "bool", "str-version", "no-domain", "at-sign"],
)
def test_reply_address_refuses_bad_parts(token, version, domain):
    with pytest.raises(ValueError):
        reply_address(token, version, domain)


# -- headers ---------------------------------------------------------------------------------


def test_headers_of_a_gmail_reply():
    reply = parse_reply(sample("gmail_en.eml"))
    assert reply == Reply(
        message_id="CAF3u9p8xQm0yT7bKq2h=Yc6o0Rw4vXwqk-r2tG5Y1bA3aYp7Qg@mail.gmail.com",
        sender="ada.lovelace@gmail.com",
        recipients=[f"move+{TOKEN}.17@{DOMAIN}"],
        subject="Re: Your turn in Nautilus (g_4be0c3a1f29d)",
        move_lines=["place 7 opp3"],
        auto_submitted=False,
    )


def test_a_folded_message_id_and_a_cc_with_a_comma_in_the_name():
    reply = parse_reply(sample("outlook_en.eml"))
    assert reply.message_id == (
        "AM9PR07MB71561F2D6B1E3A4C0D9E8F7AB1C2D@AM9PR07MB7156.eurprd07.prod.outlook.com"
    )
    assert reply.recipients == [
        "move+9c1d2e3f4a5b6c7d8e9f0a1b.4@Play.Turnpost.Example",
        "ada@example.org",
    ]
    assert read_reply_address(reply.recipients[0], DOMAIN) == ("9c1d2e3f4a5b6c7d8e9f0a1b", 4)


def test_recipients_come_from_to_cc_delivered_to_and_x_original_to_in_order_once_each():
    raw = (
        b"From: Ada <ada@example.org>\n"
        b"To: Turnpost <move+aaaaaaaaaaaaaaaaaaaa.1@play.turnpost.example>, bo@example.org\n"
        b"Cc: cleo@example.org, BO@example.org\n"
        b"Delivered-To: move+aaaaaaaaaaaaaaaaaaaa.1@play.turnpost.example\n"
        b"X-Original-To: move+bbbbbbbbbbbbbbbbbbbb.2@play.turnpost.example\n"
        b"Subject: x\n\npass\n"
    )
    assert parse_reply(raw).recipients == [
        "move+aaaaaaaaaaaaaaaaaaaa.1@play.turnpost.example",
        "bo@example.org",
        "cleo@example.org",
        "move+bbbbbbbbbbbbbbbbbbbb.2@play.turnpost.example",
    ]


def test_an_encoded_subject_and_sender_name_are_decoded():
    reply = parse_reply(sample("webmail_html_only_fr.eml"))
    assert reply.subject == "Re: C'est à toi de jouer dans Nautilus (g_4be0c3a1f29d)"
    assert reply.sender == "camille.durand@laposte.net"
    german = parse_reply(sample("outlook_de_original_message.eml"))
    assert german.subject == "AW: Du bist am Zug in Nautilus (g_4be0c3a1f29d)"
    assert german.sender == "bo.mueller@firma.de"


def test_missing_headers_are_none_or_empty():
    reply = parse_reply(b"\npass\n")
    assert (reply.message_id, reply.sender, reply.recipients, reply.subject) == (None, None, [], "")
    assert reply.move_lines == ["pass"]


# -- the move lines of real clients ----------------------------------------------------------


def test_gmail_attribution_wrapped_over_two_lines_ends_the_reply():
    assert moves("gmail_en.eml") == ["place 7 opp3"]


def test_outlook_separator_and_from_sent_block_end_the_reply():
    assert moves("outlook_en.eml") == ["play 3+ 0 5"]


def test_apple_mail_two_moves_on_two_lines_are_kept_in_order():
    assert moves("apple_mail_en.eml") == ["fleet r+2@r1 g-3@g2", "torpedo b2@y1"]


def test_thunderbird_format_flowed_line_is_unwrapped_and_the_signature_dropped():
    assert moves("thunderbird_flowed_en.eml") == [
        "fleet r+2@r1 g-3@g2 b+4@b1 o-5@o2 p+6@p1 y-1@y2 r-3@r2 g+6@g1; torpedo b2@y1"
    ]


def test_flowed_delsp_drops_only_the_added_space_and_spanish_attribution_ends_the_reply():
    assert moves("gmail_android_es_flowed_delsp.eml") == [
        "fleet r+2@r1 g-3@g2 b+4@b1 o-5@o2 p+6@p1 y-1@y2 r-3@r2 g+6@g1; torpedo b2@y1; end"
    ]


def test_flowed_delsp_joins_a_word_the_sender_broke_in_two():
    flowed = "text/plain; charset=utf-8; format=flowed; delsp=yes"
    assert parse_reply(plain("submarine kee \np 4\n", content_type=flowed)).move_lines == [
        "submarine keep 4"
    ]


def test_a_soft_broken_line_does_not_run_into_the_quote_below_it():
    flowed = "text/plain; charset=utf-8; format=flowed"
    body = "pass \n> Hello Ada, it is \n> your turn.\n"
    assert parse_reply(plain(body, content_type=flowed)).move_lines == ["pass"]


def test_iphone_german_footer_dropped_and_non_breaking_and_zero_width_spaces_cleaned():
    assert moves("iphone_de.eml") == ["keep kraken"]


def test_samsung_html_only_galaxy_footer_and_original_message_dropped():
    assert moves("samsung_html_only_en.eml") == ["harpoon give 9"]


def test_html_only_webmail_drops_style_script_and_french_quote_and_decodes_entities():
    assert moves("webmail_html_only_fr.eml") == ["submarine", "submarine keep 4"]


def test_gmail_italian_base64_body_and_two_line_attribution():
    assert moves("gmail_it_base64.eml") == ["pass", "harpoon give 9"]


def test_outlook_mac_dutch_header_block_ends_the_reply():
    assert moves("outlook_mac_nl.eml") == ["swap-domain red4 blue2"]


def test_outlook_german_original_message_in_windows_1252():
    assert moves("outlook_de_original_message.eml") == ["place 12 me2 anchor 12"]


@pytest.mark.parametrize(
    "name, expected",
    [
        ("gmail_en.eml", ["place 7 opp3"]),
        ("outlook_en.eml", ["play 3+ 0 5"]),
        ("apple_mail_en.eml", ["fleet r+2@r1 g-3@g2", "torpedo b2@y1"]),
        ("gmail_it_base64.eml", ["pass", "harpoon give 9"]),
    ],
)
def test_the_html_alternative_alone_gives_the_same_moves(name, expected):
    """gmail_quote, Outlook's appendonsend/divRplyFwdMsg and Apple's blockquote."""
    raw = without_plain_part(sample(name))
    assert b"text/plain" not in raw
    assert parse_reply(raw).move_lines == expected


# -- the rules one at a time -----------------------------------------------------------------


@pytest.mark.parametrize(
    "attribution",
    [
        "On Mon, 3 Mar 2025 at 11:00, Turnpost <turns@play.turnpost.example> wrote:",
        "On 3 Mar 2025, at 11:00, Turnpost <turns@play.turnpost.example> wrote:",
        "On Mon, Mar 3, 2025 at 11:00 AM Turnpost <turns@play.turnpost.example>\nwrote:",
        "Am 03.03.2025 um 11:00 schrieb Turnpost <turns@play.turnpost.example>:",
        "Am Mo., 3. März 2025 um 11:00 Uhr schrieb Turnpost <\nturns@play.turnpost.example>:",
        "Le lun. 3 mars 2025 à 11:00, Turnpost <turns@play.turnpost.example> a écrit\u00a0:",
        "El lun, 3 mar 2025 a las 11:00, Turnpost (<turns@play.turnpost.example>) escribió:",
        "Il giorno lun 3 mar 2025 alle ore 11:00 Turnpost <turns@play.turnpost.example> ha scritto:",
        "Op ma 3 mrt 2025 om 11:00 schreef Turnpost <turns@play.turnpost.example>:",
    ],
    ids=["en", "en-apple", "en-wrapped", "de", "de-wrapped", "fr", "es", "it", "nl"],
)
def test_an_attribution_line_ends_the_reply_even_without_quote_marks(attribution):
    body = f"place 7 opp3\n\n{attribution}\n\nHello Ada,\nplace 7 me1\n"
    assert parse_reply(plain(body)).move_lines == ["place 7 opp3"]


@pytest.mark.parametrize(
    "marker",
    [
        "> Hello Ada,",
        "-----Original Message-----",
        "----- Original Message -----",
        "---------- Forwarded message ---------",
        "-----Message d'origine-----",
        "________________________________",
        "From: Turnpost <turns@play.turnpost.example>\nSent: Monday, March 3, 2025 11:00 AM",
        "*From:* Turnpost <turns@play.turnpost.example>\n*Sent:* Monday, March 3, 2025 11:00 AM",
        "De : Turnpost <turns@play.turnpost.example>\nEnvoyé : lundi 3 mars 2025 11:00",
        "Da: Turnpost <turns@play.turnpost.example>\nInviato: lunedì 3 marzo 2025 11:00",
        "Ada wrote:\n> Hello Ada,",
    ],
    ids=[
        "quote-mark",
        "outlook-original",
        "spaced-original",
        "gmail-forward",
        "fr-original",
        "underscores",
        "from-sent",
        "from-sent-bold",
        "fr-de-envoye",
        "it-da-inviato",
        "unlisted-attribution",
    ],
)
def test_a_quote_marker_ends_the_reply(marker):
    body = f"pass\n{marker}\nTo: Ada\n\nplace 7 me1\n> place 7 me2\n"
    assert parse_reply(plain(body)).move_lines == ["pass"]


@pytest.mark.parametrize("signature", ["-- ", "--"], ids=["rfc3676", "trailing-space-lost"])
def test_a_signature_and_what_follows_are_dropped(signature):
    body = f"submarine\nsubmarine keep 4\n{signature}\nAda Lovelace\nplace 7 opp3\n"
    assert parse_reply(plain(body)).move_lines == ["submarine", "submarine keep 4"]


@pytest.mark.parametrize(
    "footer",
    [
        "Sent from my iPhone",
        "Sent from my iPad",
        "Sent from my Galaxy",
        "Sent from my Samsung Galaxy smartphone.",
        "Get Outlook for Android",
        "Get Outlook for iOS<https://aka.ms/o0ukef>",
        "Sent from Yahoo Mail on Android",
        "Sent from Mail for Windows",
        "Sent with Proton Mail secure email.",
        "Von meinem iPhone gesendet",
        "Envoyé de mon iPhone",
        "Enviado desde mi iPhone",
        "Inviato da iPhone",
        "Verstuurd vanaf mijn iPhone",
    ],
)
def test_a_mobile_footer_and_what_follows_are_dropped(footer):
    assert parse_reply(plain(f"eye\n\n{footer}\n\nplace 7 opp3\n")).move_lines == ["eye"]


def test_the_notation_is_kept_as_written_punctuation_included():
    body = "play 3+ 0 5\nfleet r-1@r1 g+2@g2; torpedo b2@y1\n2-\nswap-card 2 4.\n"
    assert parse_reply(plain(body)).move_lines == [
        "play 3+ 0 5",
        "fleet r-1@r1 g+2@g2; torpedo b2@y1",
        "2-",
        "swap-card 2 4.",
    ]


def test_spaces_tabs_non_breaking_and_zero_width_characters_are_cleaned():
    body = (
        "\ufeff  place\u00a0\u00a07\t opp3  \n\u200b\n \u202f\n"
        "\u200emove me2\u2060 opp2\u200f\r\n\n\n"
    )
    assert parse_reply(plain(body)).move_lines == ["place 7 opp3", "move me2 opp2"]


def test_a_line_ending_in_a_colon_is_kept_when_no_quote_follows():
    assert parse_reply(plain("my move:\nplace 7 opp3\n")).move_lines == ["my move:", "place 7 opp3"]


def test_lines_written_below_the_quote_are_not_read():
    """Only what is above the quoted message counts: a bottom-posted reply has no move."""
    body = "On Mon, 3 Mar 2025, Turnpost wrote:\n> Your turn\n\nplace 7 opp3\n"
    assert parse_reply(plain(body)).move_lines == []


def test_the_plain_part_is_preferred_to_the_html_one():
    raw = (
        b"From: ada@example.org\nMIME-Version: 1.0\n"
        b'Content-Type: multipart/alternative; boundary="b"\n\n'
        b"--b\nContent-Type: text/plain\n\nplace 7 opp3\n"
        b"--b\nContent-Type: text/html\n\n<p>place 7 me1</p>\n--b--\n"
    )
    assert parse_reply(raw).move_lines == ["place 7 opp3"]


def test_an_empty_plain_alternative_falls_back_to_the_html_one():
    raw = (
        b"From: ada@example.org\nMIME-Version: 1.0\n"
        b'Content-Type: multipart/alternative; boundary="b"\n\n'
        b"--b\nContent-Type: text/plain; charset=utf-8\n\n\n"
        b"--b\nContent-Type: text/html; charset=utf-8\n\n<div>pass</div><div>eye</div>\n"
        b"--b--\n"
    )
    assert parse_reply(raw).move_lines == ["pass", "eye"]


def test_html_breaks_blocks_and_pre_make_lines_and_source_newlines_do_not():
    html = (
        "<html><head><title>Re: turn</title></head><body>"
        "place\n  7 opp3<br>eye<p>pass</p><ul><li>keep kraken</li></ul>"
        "<pre>harpoon\ngive 9</pre><span>a &amp; b &lt;c&gt; &eacute;</span>"
        '<div class="gmail_quote">place 7 me1</div>harpoon</body></html>'
    )
    assert parse_reply(plain(html, content_type="text/html")).move_lines == [
        "place 7 opp3",
        "eye",
        "pass",
        "keep kraken",
        "harpoon",
        "give 9",
        "a & b <c> é",
    ]


@pytest.mark.parametrize(
    "container",
    [
        '<blockquote type="cite">',
        '<div class="gmail_quote gmail_quote_container">',
        '<div id="divRplyFwdMsg" dir="ltr">',
        '<div id="appendonsend">',
        '<div class="moz-cite-prefix">',
        '<div class="yahoo_quoted">',
    ],
)
def test_an_html_quote_container_ends_the_reply(container):
    html = f"<div>eye</div>{container}<div>place 7 opp3</div></div><div>place 7 me1</div>"
    assert parse_reply(plain(html, content_type="text/html")).move_lines == ["eye"]


# -- automatic mail --------------------------------------------------------------------------


def test_an_outlook_out_of_office_reply_is_automatic():
    assert parse_reply(sample("outlook_out_of_office.eml")).auto_submitted is True


def test_a_mailer_daemon_bounce_is_automatic():
    assert parse_reply(sample("mailer_daemon_bounce.eml")).auto_submitted is True


@pytest.mark.parametrize(
    "header",
    [
        "Auto-Submitted: auto-replied",
        "Auto-Submitted: auto-generated",
        "Auto-Submitted: auto-replied; owner-email=ada@example.org",
        "Precedence: bulk",
        "Precedence: auto_reply",
        "Precedence: junk",
        "Precedence: list",
        "X-Autoreply: yes",
        "X-Autorespond: Ada is away",
        "X-Failed-Recipients: ada@example.org",
        "Return-Path: <>",
    ],
)
def test_each_automatic_marker_alone_is_enough(header):
    assert parse_reply(plain("pass\n", headers=header + "\n")).auto_submitted is True


@pytest.mark.parametrize(
    "raw",
    [
        b"From: MAILER-DAEMON@mx.example.net (Mail Delivery System)\n\nbounce\n",
        b"From: Mail Delivery Subsystem <mailer-daemon@googlemail.com>\n\nbounce\n",
        b"From: postmaster@outlook.com\nContent-Type: multipart/report; report-type=delivery-status;"
        b' boundary="r"\n\n--r\nContent-Type: text/plain\n\nDelivery has failed.\n--r--\n',
    ],
    ids=["postfix", "gmail", "exchange-report"],
)
def test_a_bounce_is_automatic_by_its_sender_or_report_type(raw):
    assert parse_reply(raw).auto_submitted is True


@pytest.mark.parametrize("header", ["Auto-Submitted: no", "Precedence: first-class", ""])
def test_a_person_s_reply_is_not_automatic(header):
    assert parse_reply(plain("pass\n", headers=header + "\n")).auto_submitted is False


# -- malformed input: empty move lines, never an exception -----------------------------------


def test_empty_input():
    assert parse_reply(b"") == Reply(None, None, [], "", [], False)


def test_headers_and_no_body():
    assert parse_reply(b"From: ada@example.org\nSubject: Re: turn\n").move_lines == []


def test_a_multipart_with_only_attachments_has_no_moves():
    """The text attachment says 'place 7 opp3': an attachment is not what the player wrote."""
    assert moves("attachment_only.eml") == []


@pytest.mark.parametrize("seed", range(5))
def test_binary_garbage_has_no_moves(seed):
    garbage = random.Random(seed).randbytes(4096)
    assert parse_reply(garbage).move_lines == []
    assert parse_reply(b"From: ada@example.org\nSubject: x\n\n" + garbage).move_lines == []


def test_a_binary_part_labelled_text_has_no_moves():
    raw = plain("", headers="Content-Transfer-Encoding: base64\n") + b"AAECAwQFBgcICQ==\n"
    assert parse_reply(raw).move_lines == []


def test_a_multipart_without_a_boundary_has_no_moves():
    assert parse_reply(plain("pass\n", content_type="multipart/alternative")).move_lines == []


def test_an_unknown_charset_is_read_as_utf_8():
    raw = plain("", content_type="text/plain; charset=x-unheard-of") + "keep kraken é\n".encode()
    assert parse_reply(raw).move_lines == ["keep kraken é"]


def test_malformed_headers_are_absent_not_fatal():
    raw = (
        b'From: <<<@@@>>> ,,, "\nTo: =?utf-8?q?broken\nCc: @\nMessage-ID: <\n'
        b'Subject: =?x-nope?B?////?=\nContent-Type: text/plain; charset="\nAuto-Submitted:\n'
        b"\npass\n"
    )
    reply = parse_reply(raw)
    assert reply.sender is None and reply.recipients == [] and reply.message_id is None
    assert reply.move_lines == ["pass"] and reply.auto_submitted is False


@pytest.mark.parametrize(
    "content_type",
    [
        "text/plain; a*",
        "text/plain; charset=utf-8; format*",
        "text/html; name*0*",
    ],
    ids=["bare-extended-param", "after-charset", "html"],
)
def test_a_content_type_the_standard_parser_chokes_on_is_read_as_text(content_type):
    """CPython's header parser raises IndexError on these, even while parsing the message."""
    assert parse_reply(plain("pass\n", content_type=content_type)).move_lines == ["pass"]


def test_a_charset_name_with_a_nul_is_read_as_utf_8():
    raw = plain("", content_type='text/plain; charset="utf-8\x00"') + "eye é\n".encode()
    assert parse_reply(raw).move_lines == ["eye é"]


@pytest.mark.slow
def test_truncated_and_corrupted_samples_never_raise():
    rng = random.Random(8)
    for path in sorted(SAMPLES.glob("*.eml")):
        raw = path.read_bytes()
        for _ in range(40):
            cut = raw[: rng.randrange(len(raw) + 1)]
            noisy = bytearray(raw)
            for _ in range(8):
                noisy[rng.randrange(len(noisy))] = rng.randrange(256)
            for mangled in (cut, bytes(noisy)):
                assert isinstance(parse_reply(mangled), Reply)


def test_a_huge_pathological_line_is_read_quickly():
    line = "Am " + "schrieb x " * 30000 + "place"
    started = time.perf_counter()
    assert parse_reply(plain(line + "\n")).move_lines == [line]
    assert time.perf_counter() - started < 2


# -- a message to the table: `say:` ---------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "moves_", "message", "to"),
    [
        ("bid 3\nsay: good luck!\n", ["bid 3"], "good luck!", None),
        ("SAY: first\nwrapped by the client\n", [], "first wrapped by the client", None),
        ("play 3+ 0 5\nsay to Bo Ann: just you\n", ["play 3+ 0 5"], "just you", "Bo Ann"),
        ("bid 3\nsaying nothing\n", ["bid 3", "saying nothing"], None, None),
        ("say:\n", [], "", None),
        ("bid 3\n\nsay: hi\n\n-- \nAda\n", ["bid 3"], "hi", None),
    ],
)
def test_a_say_line_begins_a_message_that_runs_to_the_end(body, moves_, message, to):
    reply = parse_reply(plain(body))
    assert (reply.move_lines, reply.message, reply.message_to) == (moves_, message, to)


def test_a_quoted_say_line_is_no_message():
    reply = parse_reply(plain("bid 3\n\nOn Sat, Ada wrote:\n> say: old words\n"))
    assert (reply.move_lines, reply.message) == (["bid 3"], None)
