"""Web Push: the server's public key, and the devices (browsers' push subscriptions) on which
you turned notifications on."""

from flask.views import MethodView

from service.errors import ErrorCode

from .. import context
from ..blueprints import Blueprint
from ..error_codes import raises
from ..schemas import PushSubscriptionCreateSchema, PushSubscriptionSchema, PushSubscriptionsSchema

blp = Blueprint(
    "push",
    __name__,
    url_prefix="/v1/players/me/push-subscriptions",
    description="Notifications on your devices by Web Push",
)


@blp.route("")
class PushSubscriptions(MethodView):
    @blp.doc(operationId="listPushSubscriptions")
    @raises(ErrorCode.PLAYER_NOT_FOUND)
    @blp.response(200, PushSubscriptionsSchema)
    def get(self):
        """The server's push key and your devices with notifications on"""
        return context.services().push.listed(context.caller())

    @blp.doc(operationId="addPushSubscription")
    @raises(
        ErrorCode.PUSH_INVALID_SUBSCRIPTION,
        ErrorCode.PUSH_UNSAFE_ENDPOINT,
        ErrorCode.PUSH_TOO_MANY,
    )
    @blp.arguments(PushSubscriptionCreateSchema)
    @blp.response(201, PushSubscriptionSchema)
    def post(self, body):
        """Turn notifications on for a device: keep its browser's push subscription"""
        return (
            context.services().push.add(
                context.caller(),
                body["endpoint"],
                body["keys"]["p256dh"],
                body["keys"]["auth"],
                body.get("device"),
            ),
            201,
        )


@blp.route("/<subscription_id>")
class PushSubscription(MethodView):
    @blp.doc(operationId="removePushSubscription")
    @raises(ErrorCode.PUSH_NOT_FOUND)
    @blp.response(204)
    def delete(self, subscription_id):
        """Turn notifications off for a device"""
        context.services().push.remove(context.caller(), subscription_id)
        return None, 204
