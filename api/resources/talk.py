"""/v1/games/{id}/chat and /proposals: the players' messages in a game, and the proposals the
other players accept or decline (service/play/talk.py, service/play/agreements.py)."""

from flask.views import MethodView

from service.errors import ErrorCode, ServiceError, Words

from .. import context
from ..blueprints import Blueprint
from ..error_codes import SEATED_WRITE_CODES
from ..paging import log_page
from ..schemas import (
    NEXT_PAGE,
    ChatListSchema,
    ChatMessageSchema,
    ChatPostSchema,
    ChatQuerySchema,
    ProposalAnswerSchema,
    ProposalListSchema,
    ProposalPostSchema,
    ProposalSchema,
    ReportPostSchema,
    ReportReceivedSchema,
    location_header,
)

blp = Blueprint.resource(
    "talk", "/v1/games", "Table talk: the players' messages in a game, part of its log"
)


@blp.route("/<game_id>/chat")
class Chat(MethodView):
    @blp.operation(
        "sendMessage",
        201,
        ChatMessageSchema,
        headers=location_header("The game's messages from this one on"),
        body=ChatPostSchema,
        errors=[
            *SEATED_WRITE_CODES,
            ErrorCode.CHAT_CLOSED,
            ErrorCode.CHAT_INVALID,
            ErrorCode.CHAT_BAD_RECIPIENT,
        ],
    )
    def post(self, body, game_id):
        """Write to the table, or privately to one other player (`to`: their seat)"""
        message = context.services().talk.say(game_id, context.caller(), body["text"], body["to"])
        after = message["version"] - 1
        return message, 201, {"Location": f"{blp.url_prefix}/{game_id}/chat?after={after}"}

    @blp.operation(
        "listMessages",
        200,
        ChatListSchema,
        headers=NEXT_PAGE,
        query=ChatQuerySchema,
        errors=[ErrorCode.GAME_NOT_FOUND, ErrorCode.GAME_NOT_A_PLAYER],
    )
    def get(self, query, game_id):
        """The messages you may read, oldest first; page with after=<the `next` of a page>"""
        found = context.services().talk.messages(
            game_id, context.caller(), query["after"], query["limit"]
        )
        more = found["read_to"] < found["version"]
        return log_page(found, f"{blp.url_prefix}/{game_id}/chat", query["limit"], more)


@blp.route("/<game_id>/proposals")
class Proposals(MethodView):
    @blp.operation("listProposals", 200, ProposalListSchema, errors=[ErrorCode.GAME_NOT_FOUND])
    def get(self, game_id):
        """The game's open proposals, and what you may propose now"""
        return context.services().talk.proposals(game_id, context.caller())

    @blp.operation(
        "makeProposal",
        201,
        ProposalSchema,
        headers=location_header("The game's proposals"),
        body=ProposalPostSchema,
        errors=[*SEATED_WRITE_CODES, ErrorCode.PROPOSAL_NOT_ALLOWED],
    )
    def post(self, body, game_id):
        """Propose a takeback of your last move, a pause of the clocks, a shared result or an abort"""
        proposal = context.services().talk.propose(
            game_id, context.caller(), body["kind"], body["days"]
        )
        return proposal, 201, {"Location": f"{blp.url_prefix}/{game_id}/proposals"}


def _proposal_id(text: str) -> int:
    """A proposal's id from the path: its version in the log (anything else names none)."""
    if not text.isdecimal() or len(text) > 15:
        raise ServiceError(
            ErrorCode.PROPOSAL_NOT_FOUND, Words("there is no proposal %(given)r", given=text)
        )
    return int(text)


@blp.route("/<game_id>/proposals/<proposal>/answer")
class ProposalAnswer(MethodView):
    @blp.operation(
        "answerProposal",
        200,
        ProposalSchema,
        body=ProposalAnswerSchema,
        errors=[*SEATED_WRITE_CODES, ErrorCode.PROPOSAL_NOT_FOUND, ErrorCode.PROPOSAL_NOT_ASKED],
    )
    def post(self, body, game_id, proposal):
        """Accept or decline a proposal you are asked to answer"""
        return context.services().talk.answer(
            game_id, context.caller(), _proposal_id(proposal), body["accept"]
        )


@blp.route("/<game_id>/proposals/<proposal>/withdraw")
class ProposalWithdraw(MethodView):
    @blp.operation(
        "withdrawProposal",
        200,
        ProposalSchema,
        errors=[*SEATED_WRITE_CODES, ErrorCode.PROPOSAL_NOT_FOUND, ErrorCode.PROPOSAL_NOT_ASKED],
    )
    def post(self, game_id, proposal):
        """Withdraw a proposal you made"""
        return context.services().talk.withdraw(game_id, context.caller(), _proposal_id(proposal))


reports_blp = Blueprint.resource(
    "reports", "/v1/reports", "Reports of a message or a player, for the operators"
)


@reports_blp.route("")
class Reports(MethodView):
    @reports_blp.operation(
        "report",
        202,
        ReportReceivedSchema,
        body=ReportPostSchema,
        errors=[ErrorCode.GAME_NOT_FOUND, ErrorCode.REPORT_INVALID, ErrorCode.CHAT_INVALID],
    )
    def post(self, body):
        """Report a message you may read, or a player, with a reason"""
        return context.services().moderation.report(
            context.caller(),
            body["reason"],
            player_id=body["player_id"],
            game_id=body["game_id"],
            message=body["message"],
        ), 202
