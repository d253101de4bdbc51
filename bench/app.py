"""The API as served, plus one endpoint that only the benchmark has: a baseline that does one
Redis round trip through the same stack (Flask, flask-smorest, a schema, redis-py)."""

import os

from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields

from api.app import create_app, settle_the_heap
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


app.extensions["turnpost"]["api"].register_blueprint(baseline)
settle_the_heap()  # as turnpost.wsgi does
