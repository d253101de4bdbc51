"""Hostile texts a person may type where others read it (a message, a name): what a surface
must refuse with a clear 422, or show inert (escaped, never markup, links not made clickable,
the text's direction kept to itself).

`REFUSED` are refused wherever people's text is taken (the API's JSON check, and the check of
a message whatever surface it came from); `SHOWN` are taken, and every page, email and stream
must show them as the very text that was written."""

REFUSED = {
    "CR": "hello\rBcc: victim@example.org",
    "LF": "hello\nSubject: you won",
    "CRLF": "hello\r\nX-Injected: yes",
    "NUL": "hello\x00there",
    "ESC": "hello\x1b[31mred",
    "lone surrogate": "hello \ud800 there",
    "RTL override": "price: \u202e0051\u202c euros",
    "RTL isolate": "gg \u2067wp\u2069",
    "line separator": "one\u2028two",
    "10,000 characters": "x" * 10_000,
    "501 characters": "y" * 501,
    "only spaces": "   ",
}

SHOWN = {
    "markup": '<img src=x onerror="alert(1)"><b>bold</b>',
    "script": "<script>alert('chat')</script>",
    "entity": "&lt;not a tag&gt; &amp; &#x3C;",
    "link": "see https://evil.example/phish and javascript:alert(1)",
    "template": "{{ 7*7 }} {seat0} %s {0}",
    "quotes": "\"double\" 'single' `back`",
    "wide": "東京タワー 🎲 ∑ Bø",
    "500 characters": "z" * 500,
}
