"""POST /v1/players, GET and PATCH /v1/players/me."""
from flask.views import MethodView
from flask_smorest import Blueprint

from .. import context
from ..error_codes import raises
from ..schemas import PlayerCreatedSchema, PlayerCreateSchema, PlayerPatchSchema, PlayerSchema

blp = Blueprint("players", __name__, url_prefix="/v1/players",
                description="Registering, your profile and your notification settings")


@blp.route("")
class Players(MethodView):
    @blp.doc(security=[], operationId="registerPlayer")
    @raises("player/invalid")
    @blp.arguments(PlayerCreateSchema)
    @blp.response(201, PlayerCreatedSchema)
    def post(self, body):
        """Register a player; the answer holds the API token, shown only once"""
        return context.players().register(**body)


@blp.route("/me")
class Me(MethodView):
    @blp.doc(operationId="getMe")
    @raises("player/not_found")
    @blp.response(200, PlayerSchema)
    def get(self):
        """Your profile"""
        return context.players().profile(context.caller())

    @blp.doc(operationId="updateMe")
    @raises("player/not_found", "player/invalid")
    @blp.arguments(PlayerPatchSchema)
    @blp.response(200, PlayerSchema)
    def patch(self, changes):
        """Change your name, email or webhook"""
        return context.players().update(context.caller(), changes)
