"""The API as served, plus two endpoints that only the benchmark has: a baseline GET that does
one Redis round trip through the same stack (Flask, flask-smorest, a schema, redis-py), and
the floor of a move on that stack: a POST whose JSON body goes through a schema and is
appended to a Redis stream, and nothing else (no token, no game, no engine, no consequence)."""

import json
import os

from flask.views import MethodView
from marshmallow import Schema, fields

from api.app import create_app, settle_the_heap
from api.blueprints import Blueprint
from api.front_door import FrontDoor

app = create_app(front_door=FrontDoor.from_env(os.environ))
baseline = Blueprint("bench", __name__, url_prefix="/bench")


class BaselineSchema(Schema):
    value = fields.String(allow_none=True)


@baseline.route("/baseline")
class Baseline(MethodView):
    @baseline.response(200, BaselineSchema)
    def get(self):
        raw = app.extensions["turnpost"]["redis"].get("tp:bench:baseline")
        return {"value": None if raw is None else raw.decode()}


class AppendSchema(Schema):
    notation = fields.String(required=True)
    expected_version = fields.Integer(required=True)


@baseline.route("/append")
class Append(MethodView):
    @baseline.arguments(AppendSchema)
    @baseline.response(201, BaselineSchema)
    def post(self, body):
        client = app.extensions["turnpost"]["redis"]
        entry = client.xadd("tp:bench:append", {"e": json.dumps(body)}, maxlen=10000)
        return {"value": entry.decode()}, 201


app.extensions["turnpost"]["api"].register_blueprint(baseline)
settle_the_heap(app)  # as turnpost.wsgi does
