"""Web Push: the server's public key, and the devices (browsers' push subscriptions) on which
you turned notifications on."""

from flask.views import MethodView

from service.errors import ErrorCode

from .. import context
from ..blueprints import Blueprint
from ..schemas import PushSubscriptionCreateSchema, PushSubscriptionSchema, PushSubscriptionsSchema

blp = Blueprint.resource(
    "push", "/v1/players/me/push-subscriptions", "Notifications on your devices by Web Push"
)


@blp.route("")
class PushSubscriptions(MethodView):
    @blp.operation(
        "listPushSubscriptions", 200, PushSubscriptionsSchema, errors=[ErrorCode.PLAYER_NOT_FOUND]
    )
    def get(self):
        """The server's push key and your devices with notifications on"""
        return context.services().push.listed(context.caller())

    @blp.operation(
        "addPushSubscription",
        201,
        PushSubscriptionSchema,
        body=PushSubscriptionCreateSchema,
        errors=[
            ErrorCode.PUSH_INVALID_SUBSCRIPTION,
            ErrorCode.PUSH_UNSAFE_ENDPOINT,
            ErrorCode.PUSH_TOO_MANY,
        ],
    )
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
    @blp.operation("removePushSubscription", 204, errors=[ErrorCode.PUSH_NOT_FOUND])
    def delete(self, subscription_id):
        """Turn notifications off for a device"""
        context.services().push.remove(context.caller(), subscription_id)
        return None, 204
