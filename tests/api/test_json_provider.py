"""Every JSON answer of the API is written the same way, by orjson: keys sorted, no spaces, a
final newline, text as UTF-8 (the hot reads' answers, api/json_answers.py, were written so
already; the answers dumped through a schema went through Python's json, escaping non-ASCII)."""

import datetime

import orjson
from flask import jsonify


def test_an_answer_dumped_through_its_schema_is_written_by_orjson(client, register):
    _, headers = register("Zoë Ångström")
    r = client.get("/v1/players/me", headers=headers)
    assert r.status_code == 200 and r.mimetype == "application/json"
    assert "Zoë Ångström".encode() in r.data
    assert r.data == orjson.dumps(r.json, option=orjson.OPT_SORT_KEYS) + b"\n"


def test_what_only_flask_knew_how_to_write_is_written_as_flask_wrote_it(app):
    with app.test_request_context():
        answer = jsonify({"at": datetime.datetime(2026, 11, 27, 21, 0, tzinfo=datetime.UTC)})
    assert answer.get_data() == b'{"at":"Fri, 27 Nov 2026 21:00:00 GMT"}\n'
