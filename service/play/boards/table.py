"""What a renderer is given: one seat's view and the public facts around it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from service.play.boards.common import NAME_LIMIT, seat_label, short_name
from service.play.logview import reason_words
from service.words import gettext


@dataclass(frozen=True)
class Table:
    """`view` is what `game.view(state, seat)` gives, with the envelope the API adds
    (`game`, `version`, `seat`, `active_seats`); `names` are the seats' public names;
    `outcome` the game's public outcome (`winners`, `scores`, `reason`) once it is over;
    `marks` the board parts to mark."""

    view: dict[str, Any]
    names: list[str]
    outcome: dict[str, Any] | None = None
    marks: frozenset[str] = frozenset()
    """The parts (service/play/parts) to mark as changed since the reader's last move."""

    def marked(self, part: str) -> bool:
        return part in self.marks

    @property
    def you(self) -> int | None:
        return self.view.get("seat")

    @property
    def active(self) -> list[int]:
        return list(self.view.get("active_seats") or [])

    def name(self, seat: int, limit: int = NAME_LIMIT) -> str:
        """The seat's name, cut to fit a board, with "(you)" for the reader's own seat."""
        return seat_label(self.names, seat, self.you, limit)

    def bare_name(self, seat: int) -> str:
        if seat < len(self.names):
            return short_name(self.names[seat])
        return gettext("seat %(number)s", number=seat)

    def who(self, seats) -> str:
        """Names joined for a sentence, the reader first: "you", "you and Ada", "Ada, Bo and
        Cy"."""
        seats = sorted(seats, key=lambda s: s != self.you)
        words = [gettext("you") if s == self.you else self.bare_name(s) for s in seats]
        if len(words) <= 1:
            return "".join(words) or gettext("nobody")
        return gettext("%(first)s and %(second)s", first=", ".join(words[:-1]), second=words[-1])

    def possessive(self, seat: int) -> str:
        return "your" if seat == self.you else f"{self.bare_name(seat)}'s"

    def acting(self, yours: str, one: str, many: str | None = None) -> str:
        """A sentence about the seats that may act: `yours` when only the reader may act
        ("You roll"), else the names and `one` ("Ada rolls") or `many` ("Ada and Bo
        decide")."""
        if self.active and self.active == [self.you]:
            return yours
        verb = many if many is not None and len(self.active) > 1 else one
        return f"{self.who(self.active)} {verb}"

    def result(self) -> str | None:
        """ "Game over: Ada won (reason)", or None while the game goes on."""
        if not self.outcome:
            return None
        winners = list(self.outcome.get("winners") or [])
        if not winners:
            won = gettext("nobody won")
        elif len(winners) == 1:
            won = (
                gettext("you won")
                if winners[0] == self.you
                else gettext("%(who)s won", who=self.bare_name(winners[0]))
            )
        else:
            won = gettext("%(who)s share the win", who=self.who(winners))
        reason = reason_words(self.view.get("game", ""), self.outcome.get("reason", ""))
        return gettext("Game over: %(won)s (%(reason)s)", won=won, reason=reason)
