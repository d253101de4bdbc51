"""POST /v1/inbound/email: a raw RFC 822 message from a hosted inbound-mail service."""

import hmac

from flask import current_app, request
from flask.views import MethodView

from service.errors import ErrorCode, ServiceError, Words

from ..blueprints import Blueprint
from ..schemas import InboundResultSchema

blp = Blueprint.resource(
    "inbound", "/v1/inbound", "Moves that arrive by email, from an inbound-mail service"
)

SECRET_HEADER = "Turnpost-Inbound-Secret"


@blp.route("/email")
class InboundEmail(MethodView):
    @blp.operation(
        "receiveEmail",
        200,
        InboundResultSchema,
        errors=[ErrorCode.INBOUND_DISABLED, ErrorCode.INBOUND_BAD_SECRET, ErrorCode.INBOUND_EMPTY],
        security=[],
        parameters=[
            {
                "in": "header",
                "name": SECRET_HEADER,
                "required": True,
                "schema": {"type": "string"},
                "description": "The shared secret set as INBOUND_SECRET on the server",
            }
        ],
        requestBody={
            "required": True,
            "content": {"message/rfc822": {"schema": {"type": "string", "format": "binary"}}},
        },
    )
    def post(self):
        """Read a player's emailed reply and play it (the answer goes to them by email)"""
        services = current_app.extensions["turnpost"]["services"]
        secret = services.settings.inbound_secret
        if not secret:
            raise ServiceError(
                ErrorCode.INBOUND_DISABLED,
                "inbound email is not set up on this server (INBOUND_SECRET)",
            )
        given = request.headers.get(SECRET_HEADER, "")
        if not hmac.compare_digest(given.encode(), secret.encode()):
            raise ServiceError(
                ErrorCode.INBOUND_BAD_SECRET,
                Words("the %(header)s header is missing or wrong", header=SECRET_HEADER),
            )
        raw = request.get_data(cache=False)
        if not raw.strip():
            raise ServiceError(ErrorCode.INBOUND_EMPTY, "the body must be a raw RFC 822 message")
        outcome = services.mail_moves.receive(raw)
        return {"status": outcome.status, "code": outcome.code}
