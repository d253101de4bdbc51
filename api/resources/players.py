"""POST /v1/players; GET and PATCH /v1/players/me; your friends; the webhook secret; the
delivery log."""
from flask.views import MethodView
from flask_smorest import Blueprint

from service.errors import ErrorCode

from .. import context
from ..error_codes import raises
from ..schemas import (DeliveryListSchema, DeliveryQuerySchema, FriendsSchema,
                       FriendsUpdateSchema, PlayerCreatedSchema, PlayerCreateSchema,
                       PlayerPatchSchema, PlayerSchema, WebhookSecretSchema)

blp = Blueprint("players", __name__, url_prefix="/v1/players",
                description="Registering, your profile and your notification settings")


@blp.route("")
class Players(MethodView):
    @blp.doc(security=[], operationId="registerPlayer")
    @raises(ErrorCode.PLAYER_INVALID, ErrorCode.PLAYER_UNSAFE_WEBHOOK)
    @blp.arguments(PlayerCreateSchema)
    @blp.response(201, PlayerCreatedSchema, headers={"Location": {
        "description": "Your profile (with the token as bearer)", "required": True,
        "schema": {"type": "string", "format": "uri-reference"}}})
    def post(self, body):
        """Register a player; the answer holds the API token, shown only once"""
        return context.players().register(**body), 201, {"Location": f"{blp.url_prefix}/me"}


@blp.route("/me")
class Me(MethodView):
    @blp.doc(operationId="getMe")
    @raises(ErrorCode.PLAYER_NOT_FOUND)
    @blp.response(200, PlayerSchema)
    def get(self):
        """Your profile and notification settings"""
        return context.players().profile(context.caller())

    @blp.doc(operationId="updateMe")
    @raises(ErrorCode.PLAYER_NOT_FOUND, ErrorCode.PLAYER_INVALID, ErrorCode.PLAYER_UNSAFE_WEBHOOK)
    @blp.arguments(PlayerPatchSchema, required=False)
    @blp.response(200, PlayerSchema)
    def patch(self, changes):
        """Change your name, email, webhook or notification settings (a first webhook gets
        its secret in this answer)"""
        return context.players().update(context.caller(), changes)


@blp.route("/me/friends")
class Friends(MethodView):
    @blp.doc(operationId="getFriends")
    @raises(ErrorCode.PLAYER_NOT_FOUND)
    @blp.response(200, FriendsSchema)
    def get(self):
        """The players who may seat you in a game without an invitation"""
        return context.players().friends(context.caller())

    @blp.doc(operationId="setFriends")
    @raises(ErrorCode.PLAYER_NOT_FOUND, ErrorCode.PLAYER_INVALID_FRIENDS)
    @blp.arguments(FriendsUpdateSchema)
    @blp.response(200, FriendsSchema)
    def put(self, body):
        """Set the players who may seat you in a game without an invitation (the whole list)"""
        return context.players().set_friends(context.caller(), body["friends"])


@blp.route("/me/webhook-secret")
class WebhookSecret(MethodView):
    @blp.doc(operationId="rotateWebhookSecret")
    @raises(ErrorCode.PLAYER_NOT_FOUND, ErrorCode.PLAYER_NO_WEBHOOK)
    @blp.response(201, WebhookSecretSchema, headers={"Location": {
        "description": "Your profile, whose webhook it signs", "required": True,
        "schema": {"type": "string", "format": "uri-reference"}}})
    def post(self):
        """Make a new webhook secret; the old one stops working at once"""
        return (context.players().rotate_webhook_secret(context.caller()), 201,
                {"Location": f"{blp.url_prefix}/me"})


@blp.route("/me/deliveries")
class Deliveries(MethodView):
    @blp.doc(operationId="listDeliveries")
    @raises(ErrorCode.PLAYER_NOT_FOUND)
    @blp.arguments(DeliveryQuerySchema, location="query")
    @blp.response(200, DeliveryListSchema)
    def get(self, query):
        """Your latest email and webhook deliveries, newest first"""
        return context.players().deliveries(context.caller(), query["limit"])
