"""POST /v1/players; GET and PATCH /v1/players/me; your friends; the API token and the
webhook secret; the delivery log; POST /v1/sign-in (a sign-in link by email, for a lost token)."""
from flask.views import MethodView
from flask_smorest import Blueprint

from service.errors import ErrorCode

from .. import context
from ..error_codes import raises
from ..schemas import (
    DeliveryListSchema,
    DeliveryQuerySchema,
    FriendsSchema,
    FriendsUpdateSchema,
    PlayerCreatedSchema,
    PlayerCreateSchema,
    PlayerPatchSchema,
    PlayerSchema,
    SignInAcceptedSchema,
    SignInRequestSchema,
    TokenSchema,
    WebhookSecretSchema,
)

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


@blp.route("/me/token")
class Token(MethodView):
    @blp.doc(operationId="rotateToken")
    @raises(ErrorCode.PLAYER_NOT_FOUND)
    @blp.response(201, TokenSchema, headers={"Location": {
        "description": "Your profile (with the new token as bearer)", "required": True,
        "schema": {"type": "string", "format": "uri-reference"}}})
    def post(self):
        """Make a new API token; the old one stops working at once"""
        return (context.players().new_token(context.caller()), 201,
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


sign_in_blp = Blueprint("sign_in", __name__, url_prefix="/v1/sign-in",
                        description="A new API token by email, when yours is lost")

SIGN_IN_ACCEPTED = ("If a player here is registered with this address, a sign-in link is on "
                    "its way to it. The link works once, for a short while, and gives a new "
                    "API token.")


@sign_in_blp.route("")
class SignIn(MethodView):
    @sign_in_blp.doc(security=[], operationId="requestSignIn")
    @sign_in_blp.arguments(SignInRequestSchema)
    @sign_in_blp.response(202, SignInAcceptedSchema)
    def post(self, body):
        """Email a sign-in link to a registered address"""
        context.services().sign_in.request_link(body["email"])
        return {"message": SIGN_IN_ACCEPTED}, 202
