"""My games, the lobby, a new game, and a game's page: the board from my seat, the log as I
may read it, and my move."""

from __future__ import annotations

import hashlib
import time
from datetime import datetime
from typing import Any

from flask import flash, redirect, request
from flask import g as per_request
from flask_babel import gettext, lazy_gettext, ngettext, pgettext

from engine import registry
from service.errors import ErrorCode, ServiceError, TooMany
from service.play.games import CLOCK_PRESETS, IF_DECLINED, bots_of
from service.play.logview import seat_name as record_name
from service.play.table import SeatTable
from service.play.talk import TALK_EVENTS
from store.record import EventType

from .blueprint import find_player, me, page, pages, services, signed_in, you
from .i18n import and_list, deadline_words, in_words, reader_language, refusal, stamp

BUTTONS_AT_MOST = 12  # up to this many legal moves, each is a button of its own
FINISHED_SHOWN = 20  # finished games listed on My games
RATED_WORDS = {
    "usual": lazy_gettext(
        "Rated if every seat is a person (bots are rated as players of their own)"
    ),
    "yes": lazy_gettext("Rated: the game counts for everyone's rating, bots' too"),
    "no": lazy_gettext("Not rated: a friendly game"),
}
IF_DECLINED_WORDS = {
    "cancel": lazy_gettext("the game is cancelled"),
    "open": lazy_gettext("their seat opens to anyone in the lobby"),
}
BOT_WORDS = {
    "bot:heuristic": lazy_gettext("a bot that plays well (bot:heuristic)"),
    "bot:random": lazy_gettext("a bot that plays at random (bot:random)"),
    "bot:expert": lazy_gettext("a bot that thinks ahead (bot:expert)"),
}
PROPOSAL_WORDS = {
    "takeback": lazy_gettext("Take back my last move"),
    "pause": lazy_gettext("Pause the clocks"),
    "draw": lazy_gettext("End with a shared result"),
    "abort": lazy_gettext("Abort the game (no result)"),
}
CLOCK_WORDS = {  # service.play.games.CLOCK_PRESETS in the page's language, by key
    "none": lazy_gettext("No clock: take as long as you like"),
    "day": lazy_gettext("1 day per move"),
    "3days": lazy_gettext("3 days per move"),
    "week": lazy_gettext("1 week per move"),
    "2weeks": lazy_gettext("2 weeks per move"),
    "bank10": lazy_gettext("10 days, +1 day a move, at most 10 days"),
    "bank3": lazy_gettext("3 days, +12 h a move, at most 5 days"),
}
TIMEOUT_WORDS = {
    "auto": lazy_gettext("the server plays a move for them (the game goes on)"),
    "forfeit": lazy_gettext("they lose the game"),
}
OPTION_LABELS = {  # each title's options (engine/games), as the new-game form names them
    "two_player_aside": lazy_gettext("Two player aside"),
    "end_subs_left": lazy_gettext("End subs left"),
    "delay_any_card": lazy_gettext("Delay any card"),
    "own_colour_wild": lazy_gettext("Own colour wild"),
    "anchor_placed_card": lazy_gettext("Anchor placed card"),
    "hidden_domains": lazy_gettext("Hidden domains"),
    "specials": lazy_gettext("Specials"),
    "full_purple": lazy_gettext("Full purple"),
}
PER_MOVE_CLOCKS = [  # per_move_seconds and the preset's key: a tournament's clocks
    (control["per_move_seconds"], key)
    for key, _, control in CLOCK_PRESETS
    if control is not None and control["kind"] == "per_move"
]
STREAM_EVENTS = " ".join(sorted(set(EventType) - TALK_EVENTS))
"""The events that redraw a game's page (static/live.js); messages only add to its table talk
(static/chat.js)."""
BOT_WAITS = [  # matchmaking's bot_after_seconds, in words
    ("", lazy_gettext("no: only a person")),
    ("60", lazy_gettext("after a minute")),
    ("600", lazy_gettext("after 10 minutes")),
    ("3600", lazy_gettext("after an hour")),
    ("86400", lazy_gettext("after a day")),
]
TOURNAMENT_STATUS_WORDS = {
    "signup": lazy_gettext("Taking sign-ups"),
    "running": lazy_gettext("Being played"),
    "finished": lazy_gettext("Over"),
    "cancelled": lazy_gettext("Cancelled"),
}


def _now() -> int:
    return int(time.time() * 1000)


def _zone() -> str | None:
    """The reader's time zone, read once per request (a list of games asks for every line)."""
    if "web_zone" not in per_request:
        player = me()
        zone = services().players.profile(player).get("time_zone") if player else None
        per_request.web_zone = zone
    return per_request.web_zone


# -- lists -------------------------------------------------------------------------------------


def seat_name(seat: dict[str, Any]) -> str:
    """A summary's seat in words; an open seat whose invited player refused reads "Ben
    (refused)", as on the game's page."""
    if seat.get("refused_by"):
        return gettext("%(name)s (refused)", name=seat["refused_by"])
    return record_name(seat)  # type: ignore[arg-type]  # a summary's seat has its fields


def describe(game: dict[str, Any], player: str | None) -> dict[str, Any]:
    """A line about a game (its summary) for `player`: the title, the others, whose turn it
    is and the deadline, in words."""
    info = registry.GAMES[game["game"]].info
    seats = game["seats"]
    mine = next((s["seat"] for s in seats if s["player_id"] == player), None)
    others = [seat_name(s) for s in seats if s["seat"] != mine]
    status, active = game["status"], game["active_seats"]
    deadline = None
    if status == "open":
        waiting = [
            gettext("you")
            if s["player_id"] == player
            else gettext("anyone from the lobby (%(name)s refused)", name=s["refused_by"])
            if s.get("refused_by")
            else seat_name(s)
            for s in seats
            if s["kind"] in ("open", "invited")
        ]
        turn = gettext("Waiting for %(names)s to join", names=_and(waiting))
    elif status == "cancelled":
        turn = (
            gettext("Aborted by the players: no result")
            if game["outcome"] is not None
            else gettext("Cancelled: an invited player declined")
        )
    elif status == "finished":
        turn = gettext(
            "Game over: %(result)s",
            result=won_words([seat_name(s) for s in seats], game["outcome"] or {}, mine),
        )
    elif mine in active:
        turn = gettext("Your move")
        deadline = seats[mine]["deadline"]
    else:
        turn = gettext("Waiting for %(names)s", names=_and([seat_name(seats[s]) for s in active]))
        deadline = game["deadline"]
    away = [
        seat_name(s)
        for s in seats
        if s["seat"] != mine and (s.get("clock") or {}).get("paused") == "vacation"
    ]
    if away and status == "active":
        turn = ngettext(
            "%(turn)s (%(names)s is on vacation)",
            "%(turn)s (%(names)s are on vacation)",
            len(away),
            turn=turn,
            names=_and(away),
        )
    return {
        "id": game["id"],
        "title": info.title,
        "against": _and(others) or gettext("nobody"),
        "turn": turn,
        "mine": mine in active and status == "active",
        "deadline": _deadline_words(deadline),
    }


def _deadline_words(iso_time: str | None) -> str | None:
    if iso_time is None:
        return None
    ms = int(datetime.fromisoformat(iso_time.replace("Z", "+00:00")).timestamp() * 1000)
    return in_words(ms, _now())


_and = and_list


def won_words(names: list[str], outcome: dict[str, Any], seat: int | None) -> str:
    """ "you won", "Ada won", "you and Bo share the win", "nobody won": `seat` is "you"."""
    winners = outcome.get("winners") or []
    if not winners:
        return gettext("nobody won")
    if winners == [seat]:
        return gettext("you won")
    said = [gettext("you") if s == seat else names[s] for s in winners]
    if len(said) == 1:
        return gettext("%(name)s won", name=said[0])
    if seat in winners:  # "you" among the subjects: the languages conjugate for it
        return pgettext("the reader among the winners", "%(names)s share the win", names=_and(said))
    return gettext("%(names)s share the win", names=_and(said))


@pages.get("/games")
@signed_in
def my_games():
    player = you()
    games = services().games
    inbox, _ = games.list_games(player, awaiting=True, limit=100)
    everything, _ = games.list_games(player, limit=200)
    awaiting = {g["id"] for g in inbox}
    waiting = [
        g for g in everything if g["id"] not in awaiting and g["status"] in ("open", "active")
    ]
    finished = [g for g in everything if g["status"] in ("finished", "cancelled")]
    return page(
        "my_games.html",
        gettext("My games"),
        invitations=[describe(g, player) for g in games.invitations(player)],
        yours=[describe(g, player) for g in inbox],
        waiting=[describe(g, player) for g in waiting],
        finished=[describe(g, player) for g in finished[:FINISHED_SHOWN]],
    )


def tournament_line(t: dict[str, Any]) -> dict[str, Any]:
    """A tournament's summary with its settings in words."""
    seconds = t["time_control"]["per_move_seconds"]
    kind = (
        gettext("Round-robin")
        if t["format"] == "round_robin"
        else ngettext("Swiss, %(num)d round", "Swiss, %(num)d rounds", t["rounds"])
    )
    start = gettext("when full")
    if t["start_at"] is not None:
        start = stamp(
            int(datetime.fromisoformat(t["start_at"].replace("Z", "+00:00")).timestamp() * 1000)
        )
    preset = dict(PER_MOVE_CLOCKS).get(seconds)
    return {
        **t,
        "kind": kind,
        "clock": str(CLOCK_WORDS[preset])
        if preset
        else ngettext("%(num)d second per move", "%(num)d seconds per move", seconds),
        "start": start,
        "state": TOURNAMENT_STATUS_WORDS[t["status"]],
    }


@pages.get("/lobby")
def lobby():
    player = me()
    found = services().games.open_games(100, viewer=player)
    mine = {t["id"] for t in services().tournaments.of_player(player)} if player else set()
    return page(
        "lobby.html",
        gettext("Lobby: games looking for players"),
        games=[
            {**describe(g, player), "seated": any(s["player_id"] == player for s in g["seats"])}
            for g in found
        ],
        tournaments=[
            {**tournament_line(t), "entered": t["id"] in mine}
            for t in services().tournaments.open_list()
        ],
        titles=[(n, g.info.title) for n, g in sorted(registry.GAMES.items())],
        waits=BOT_WAITS,
        requests=services().matchmaking.of_player(player) if player else [],
    )


# -- a new game --------------------------------------------------------------------------------


@pages.get("/games/new")
@signed_in
def new_game_form():
    name = request.args.get("game")
    if name not in registry.GAMES:
        return page(
            "choose_game.html",
            gettext("New game: choose the game"),
            games=[(n, g.info.title) for n, g in sorted(registry.GAMES.items())],
        )
    return _new_game_page(name, {}, {})


def _new_game_page(name: str, values: dict, problems: dict, status: int = 200):
    info = registry.GAMES[name].info
    return page(
        "new_game.html",
        gettext("New game of %(title)s", title=info.title),
        status,
        game=name,
        info=info,
        seats=range(1, info.max_players),
        bots={b: BOT_WORDS[b] for b in bots_of(registry.GAMES[name])},
        clocks=[
            (key, CLOCK_WORDS.get(key, words), control) for key, words, control in CLOCK_PRESETS
        ],
        timeouts=TIMEOUT_WORDS,
        if_declined=IF_DECLINED_WORDS,
        rated=RATED_WORDS,
        values=values,
        problems=problems,
        options=[
            {
                "key": key,
                "label": OPTION_LABELS.get(key) or key.replace("_", " ").capitalize(),
                "description": gettext(spec.description),
                "choices": [(_json_text(c), _shown(c)) for c in _choices(spec)],
                "value": values.get(f"option.{key}", _json_text(spec.default)),
                "default": _shown(spec.default),
            }
            for key, spec in info.options.items()
        ],
    )


def _choices(spec) -> tuple:
    return (True, False) if spec.kind is bool else spec.choices or (spec.default,)


def _json_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _shown(value: Any) -> str:
    """An option's value as the form shows it: a yes or no in the page's language, with the
    API's word that the option's description uses ("yes (true)")."""
    if isinstance(value, bool):
        return gettext("yes (true)") if value else gettext("no (false)")
    return str(value)


@pages.post("/games/new")
@signed_in
def create_game():
    form = request.form
    name = form.get("game", "")
    if name not in registry.GAMES:
        return redirect("/games/new", 303)
    info = registry.GAMES[name].info
    player = you()
    problems: dict[str, str] = {}
    seats: list[str | None] = [player]
    for n in range(1, info.max_players):
        kind = form.get(f"seat.{n}", "none")
        who = form.get(f"seat.{n}.name", "").strip()
        if kind == "player" or (kind == "none" and who):
            if not who:
                problems[f"seat.{n}"] = gettext("Write the player's name.")
                continue
            found, problem = find_player(who)
            if found is None:
                problems[f"seat.{n}"] = problem or ""
            elif found == player:
                problems[f"seat.{n}"] = gettext("You already have the first seat.")
            else:
                seats.append(found)
        elif kind == "open":
            seats.append(None)
        elif kind in bots_of(registry.GAMES[name]):
            seats.append(kind)
        elif kind != "none":
            problems[f"seat.{n}"] = gettext("Choose who sits here.")
    if len(seats) < info.min_players and not problems:
        problems["seats"] = ngettext(
            "%(title)s needs at least %(num)d player.",
            "%(title)s needs at least %(num)d players.",
            info.min_players,
            title=info.title,
        )
    options = {}
    for key, spec in info.options.items():
        raw = form.get(f"option.{key}", _json_text(spec.default))
        options[key] = _read_option(raw, spec)
    time_control = _time_control(form, problems)
    if_declined = form.get("if_declined", "cancel")
    if if_declined not in IF_DECLINED:
        problems["if_declined"] = gettext("Choose what happens when an invited player says no.")
    rated = {"yes": True, "no": False}.get(form.get("rated", "usual"))
    if problems:
        return _new_game_page(name, dict(form), problems, 422)
    try:
        game = services().games.create(
            player, name, seats, options, time_control, if_declined, rated=rated
        )
    except ServiceError as err:
        return _new_game_page(
            name,
            dict(form),
            {"seats": gettext("Not created: %(why)s.", why=refusal(err.message))},
            422,
        )
    return redirect(f"/games/{game['id']}", 303)


def _time_control(form, problems: dict) -> dict[str, Any] | None:
    """The form's clock: one of CLOCK_PRESETS (or, as the form had it before presets, the
    seconds of a clock per move), with its timeout policy and weekends off."""
    chosen = form.get("clock", "none") or "none"
    presets = {key: control for key, _, control in CLOCK_PRESETS}
    if chosen.isdecimal():
        control: dict[str, Any] | None = {"kind": "per_move", "per_move_seconds": int(chosen)}
    elif chosen in presets:
        control = presets[chosen]
    else:
        problems["clock"] = gettext("Choose one of the clocks.")
        return None
    if control is None:
        return None
    return {
        **control,
        "on_timeout": form.get("on_timeout", "auto"),
        "weekends_off": form.get("weekends_off") == "1",
    }


def _read_option(raw: str, spec) -> Any:
    if spec.kind is bool:
        return raw == "true"
    if spec.kind is int:
        return int(raw) if raw.lstrip("-").isdecimal() else raw
    return raw


# -- a game's page -----------------------------------------------------------------------------


@pages.get("/games/<game_id>")
def game_page(game_id: str):
    return _game_page(game_id)


def _game_page(game_id: str, status: int = 200, problem: str | None = None):
    """The game as the signed-in player sees it from their seat (as a spectator without
    one): their table, and what they may do besides moving."""
    player = me()
    wanted = request.args.get("page", "")
    table = services().tables.for_player(
        game_id,
        player,
        _zone(),
        int(wanted) if wanted.isdecimal() else None,
        language=reader_language(),
    )
    turn, deadline = _turn_words(table)
    open_seat = table.status == "open" and any(s.kind == "open" for s in table.seats)
    heading = f"{table.title}: {table.players}"
    return page(
        "game.html",
        heading,
        status,
        tab_title=gettext("Your turn — %(heading)s", heading=heading) if table.your_turn else None,
        table=table,
        turn=turn,
        deadline=deadline,
        problem=problem,
        buttons=table.moves if len(table.moves) <= BUTTONS_AT_MOST else (),
        forms=table.forms if len(table.moves) > BUTTONS_AT_MOST else (),
        picks=board_picks(table),
        can_join=player is not None and table.seat is None and open_seat,
        open_seat=open_seat,
        rematch=services().games.rematch_of(game_id) if table.status == "finished" else None,
        share_url=request.url_root.rstrip("/") + f"/games/{game_id}",
        stream=f"/v1/games/{game_id}/stream"
        if player and table.status in ("open", "active")
        else None,
        stream_events=STREAM_EVENTS,
        proposal_words=PROPOSAL_WORDS,
    )


def board_picks(table: SeatTable) -> dict[str, Any] | None:
    """The reader's legal moves as web/static/board.js offers them on the board: `parts`, the
    names of the board parts the moves pick or change, with their words in `labels` (same
    order); `moves`, each as [notation (what the page posts), words (its preview), the parts
    that pick it in order, the parts it changes], parts by their place in `parts` (an opening
    of The Nine Domains has 504 moves). None when no move is picked on the board (not the
    reader's turn, or a game without board parts)."""
    moves = [m for m in table.moves if m.parts]
    if not moves:
        return None
    names = list(dict.fromkeys(p for m in moves for p in (*m.parts, *m.changes)))
    place = {name: i for i, name in enumerate(names)}
    return {
        "parts": names,
        "labels": [table.part_labels.get(name, "") for name in names],
        "moves": [
            [m.notation, m.description, [place[p] for p in m.parts], [place[p] for p in m.changes]]
            for m in moves
        ],
    }


def _turn_words(table: SeatTable) -> tuple[str, str | None]:
    """What the game waits for, in words, and the reader's deadline when it waits for them."""
    if table.status == "open":
        player = me()
        waiting = [
            gettext("you") if s.player_id == player else s.name
            for s in table.seats
            if s.kind in ("open", "invited")
        ]
        return gettext("Waiting for %(names)s to join", names=_and(waiting)), None
    if table.status == "cancelled":
        return (
            gettext("Aborted by the players: no result")
            if table.view is not None
            else gettext("Cancelled: an invited player declined")
        ), None
    if table.result is not None:
        return table.result, None
    if table.your_turn and table.you is not None:
        return gettext("Your move"), deadline_words(table.you.deadline_ms)
    to_move = [s for s in table.seats if s.to_move]
    first = min(
        (s for s in to_move if s.deadline_ms is not None),
        key=lambda s: s.deadline_ms or 0,
        default=None,
    )
    waiting_for = gettext("Waiting for %(names)s", names=_and([s.name for s in to_move]))
    return waiting_for, deadline_words(first.deadline_ms) if first else None


@pages.post("/games/<game_id>/move")
@signed_in
def play_move(game_id: str):
    player = you()
    form = request.form
    version = form.get("version", "")
    if not version.isdecimal():
        return _game_page(
            game_id, 400, gettext("The form was not sent whole: choose your move again.")
        )
    fields = {k: v for k, v in form.items() if k not in ("csrf_token", "version")}
    key = "web-" + hashlib.sha256(repr((version, sorted(fields.items()))).encode()).hexdigest()[:32]
    games = services().games
    try:
        if "notation" in fields:
            answer = games.play(
                game_id, player, int(version), notation=fields["notation"], idempotency_key=key
            )
        else:
            table = services().tables.for_player(game_id, player)
            if table.version != int(version):
                raise ServiceError(ErrorCode.MOVE_STALE_VERSION, "stale")
            action = table.action_from(fields)
            if action is None:
                return _game_page(
                    game_id,
                    422,
                    gettext("That combination is not one of your legal moves: choose again."),
                )
            answer = games.play(game_id, player, int(version), action=action, idempotency_key=key)
    except ServiceError as err:
        if err.error is ErrorCode.MOVE_STALE_VERSION:
            return _game_page(
                game_id,
                409,
                gettext(
                    "The game moved on since this page was shown, so nothing was played. Here "
                    "is the game now: choose again if it is still your move."
                ),
            )
        return _game_page(
            game_id,
            err.error.status,
            gettext("Nothing was played: %(why)s.", why=refusal(err.message)),
        )
    flash(gettext("You played %(move)s.", move=answer["move"]))
    return redirect(f"/games/{game_id}#since", 303)


@pages.post("/games/<game_id>/chat")
@signed_in
def send_message(game_id: str):
    """A message to the table (or to one player, `to`), from the game page's form."""
    to = request.form.get("to", "")
    try:
        services().talk.say(
            game_id, you(), request.form.get("text", ""), int(to) if to.isdecimal() else None
        )
    except ServiceError as err:
        return _refused(game_id, err, gettext("Not sent: %(why)s.", why=refusal(err.message)))
    return redirect(f"/games/{game_id}#chat", 303)


@pages.post("/games/<game_id>/proposals")
@signed_in
def make_proposal(game_id: str):
    days = request.form.get("days", "")
    return _talk(
        game_id,
        lambda: services().talk.propose(
            game_id,
            you(),
            request.form.get("kind", ""),
            int(days) if days.isdecimal() and len(days) < 4 else None,
        ),
        gettext("Your proposal is made: the others are asked."),
    )


@pages.post("/games/<game_id>/proposals/<int:proposal>/answer")
@signed_in
def answer_proposal(game_id: str, proposal: int):
    accept = request.form.get("accept") == "yes"
    return _talk(
        game_id,
        lambda: services().talk.answer(game_id, you(), proposal, accept),
        gettext("You accepted the proposal.") if accept else gettext("You declined the proposal."),
    )


@pages.post("/games/<game_id>/proposals/<int:proposal>/withdraw")
@signed_in
def withdraw_proposal(game_id: str, proposal: int):
    return _talk(
        game_id,
        lambda: services().talk.withdraw(game_id, you(), proposal),
        gettext("You withdrew your proposal."),
    )


def _talk(game_id: str, call, done: str, anchor: str = "proposals"):
    """A proposal's form: done, said in words, and back to the game; or the page with why
    not."""
    try:
        answer = call()
    except ServiceError as err:
        return _refused(game_id, err, gettext("Not done: %(why)s.", why=refusal(err.message)))
    if answer.get("status") == "void":
        done = gettext("The proposal no longer held (the game moved on): nothing changed.")
    flash(done)
    return redirect(f"/games/{game_id}#{anchor}", 303)


def _refused(game_id: str, err: ServiceError, problem: str):
    """The game page saying why a form was refused (`problem`), at the refusal's status; too
    many requests answer 429 and say when to try again."""
    if not isinstance(err, TooMany):
        return _game_page(game_id, err.error.status, problem)
    html, status, headers = _game_page(game_id, 429, problem)
    return html, status, {**headers, "Retry-After": str(err.retry_after)}


@pages.get("/games/<game_id>/resign")
@signed_in
def resign_form(game_id: str):
    game = services().games.summary(game_id)["game"]
    return page(
        "resign.html",
        gettext("Resign?"),
        game_id=game_id,
        title_of_game=registry.GAMES[game].info.title,
    )


@pages.post("/games/<game_id>/resign")
@signed_in
def resign(game_id: str):
    services().games.resign(game_id, you())
    flash(gettext("You resigned from the game."))
    return redirect(f"/games/{game_id}", 303)


@pages.post("/games/<game_id>/join")
@signed_in
def join(game_id: str):
    game = services().games.join(game_id, you())
    flash(
        gettext("You took your seat. The game has begun.")
        if game["status"] == "active"
        else gettext("You took your seat.")
    )
    return redirect(f"/games/{game_id}", 303)


@pages.post("/games/<game_id>/decline")
@signed_in
def decline(game_id: str):
    services().games.decline(game_id, you())
    flash(gettext("You refused the invitation."))
    return redirect("/games", 303)


@pages.post("/games/<game_id>/rematch")
@signed_in
def rematch(game_id: str):
    game, created = services().games.rematch(game_id, you())
    flash(
        gettext("The rematch is created: the others are invited.")
        if created
        else gettext("Here is the rematch.")
    )
    return redirect(f"/games/{game['id']}", 303)


@pages.post("/games/<game_id>/messages/<int:version>/report")
@signed_in
def report_message(game_id: str, version: int):
    return _talk(
        game_id,
        lambda: services().moderation.report(
            you(), request.form.get("reason", ""), game_id=game_id, message=version
        ),
        gettext("Your report is sent to the moderators."),
        "chat",
    )
