"""The description of each operation in the OpenAPI document, by operationId.

The resource's docstring gives the one-line summary; this says what a client must know to call
it well. api/spec_plugin.py puts each into its operation, and a test checks that every
operation has one.
"""

from __future__ import annotations

DESCRIPTIONS: dict[str, str] = {
    "getVacation": "Your vacation days this calendar year (UTC): how many the server gives "
    "(`days_a_year`, its VACATION_DAYS_A_YEAR), used and left, and your vacations now and "
    "ahead, the automatic days included.",
    "takeVacation": "From `from` to `to` (ISO dates, both included, in your profile's time "
    "zone; from now when it starts today), your clocks in every game stand still: your "
    "deadlines move by the time away, reminders with them, and the other players see that you "
    "are on vacation until its end. Each day counts against your days left (409 "
    "vacation/not_enough_days), and a vacation may not overlap another (409 "
    "vacation/overlaps). Your games are re-armed one commit each, within moments. A move you "
    "play while away ends your vacation. When a clock of yours would run out and you have days "
    "left, one is used there and then (`automatic`), a day at a time.",
    "endVacation": "You are back: the vacation you are on ends now (the days not begun are "
    "given back) and those ahead are cancelled; your clocks run again.",
    "getCatalog": "The games you can create, with their player counts, options (with defaults "
    "and choices) and move notation. Needs no token.",
    "listGames": "Without a filter: your games, newest first. `awaiting=me` is your inbox: the "
    "games waiting for your move, nearest deadline first (ETag and 304 as for a "
    "view). `invited=me`: the games with a seat reserved for you that you have "
    "not joined or declined, newest first. `status=open` is the lobby of games "
    "with an open seat (a seat reserved for an invited player is not open).",
    "createGame": "Seats are player ids, bots (`bot:random`, `bot:heuristic`, and `bot:expert`, "
    "which searches for EXPERT_SECONDS a move, where the catalog lists it), or null for an open "
    "seat; at least one seat is a person. Naming another player invites them: "
    "their seat is reserved (kind `invited`) until they join or decline, and "
    "they are told by email and webhook (`game.invited`); a player who lists you "
    "among their friends is seated at once. `if_declined` says what a refusal "
    "does: `cancel` the game (the default) or `open` the seat in the lobby. `rated` "
    "says whether the game counts for the players' ratings (by default: when no seat is a "
    "bot). The game starts when every seat is taken. The answer's `Location` is the new "
    "game; its `id` leads to its view, legal moves, moves and log (see the "
    "links).",
    "getGame": "What everyone may know of a game: status, seats, version, the seats to move, "
    "deadline and outcome. Answers 304 to an `If-None-Match` holding its version.",
    "joinGame": "Takes the first open seat, or the one you name; if a seat is reserved for "
    "you, takes that one (accepting the invitation). The game starts when its last "
    "seat is taken.",
    "rematchGame": "For a player of a finished game. The new game has its title, options and "
    "clock, and its seats turned by one so that another seat begins; you take your seat, the "
    "other players are invited (or seated, if they made you a friend), the bots keep theirs. "
    "A game has one rematch: asking again, or another of its players asking, answers 200 "
    "with that game.",
    "declineGame": "Refuses the seat reserved for you. The game, which has not started, is "
    "cancelled (everyone seated or invited is told, `game.cancelled`), or, if "
    "its creator asked for `if_declined: open`, your seat opens in the lobby.",
    "getView": "The game as your seat sees it (hidden information stays hidden); a spectator's "
    "view when you have no seat. Poll it with `If-None-Match`: 304 while the game "
    "has not moved.",
    "getLegalMoves": "Every move you may make now, each in notation and as a structured "
    "action; send one of them back with `version` as `expected_version`.",
    "playMove": "Send `notation` or `action` (one of them) and the version you read. A stale "
    "version answers 409 `move/stale_version` with `current_version`; an "
    "`Idempotency-Key` makes a retry return the first answer.",
    "getLog": "The events you may read, oldest first, after the version you name. A page holds "
    "at most `limit` entries: ask again with `after` = the last version you got.",
    "sendMessage": "For a seated player of a game that is on: plain text on one line, at most "
    "500 characters, to the whole table, or with `to` (a seat) privately to one other player "
    "of a game of three seats or more. The message becomes an event of the game's log "
    "(`MessageSent`), read by its readers only: a spectator reads no message, a private "
    "message is for its two players. At most TALK_PER_MINUTE messages and proposals a minute "
    "(429 with Retry-After). The others are told by webhook (`chat.message`), on their "
    "stream of events, and by email after a quiet while (docs/notifications.md).",
    "listMessages": "The messages you may read, oldest first, after the version you name "
    "(each message's `version` is its place in the log). A page ends after `limit` messages "
    "or after a thousand events of the log: follow `next` while it is not null. A finished "
    "game's messages stay readable to its players; spectators read none.",
    "listProposals": "The game's open proposals (anyone may see them), each with the seats "
    "still to answer and its deadline; and what you may propose now.",
    "makeProposal": "For a player still in a game that is on. `takeback`: your last move, "
    "while it is the game's last and showed nothing hidden and drew no card or die (the "
    "engine says which moves: a face-up card played, not a card drawn); `pause` the clocks "
    "for `days` (every deadline moves on by them); `draw`: a result shared by every player "
    "still in the game; `abort`: no result, in the first two rounds. Every other player still "
    "in the game must accept (bots are not asked: against bots alone it is accepted at once); "
    "it lapses after PROPOSAL_HOURS. One open proposal of a kind at a time. The proposal and "
    "its end are events of the game's log (`ProposalMade`, `ProposalClosed`); the players "
    "asked are told as of a turn (`proposal.made`).",
    "answerProposal": "`accept: true` or `false`. The last yes carries the proposal out (the "
    "move taken back, the clocks paused, the game ended), unless what it was about changed "
    "first: then it is `void`. One no declines it.",
    "withdrawProposal": "Only its proposer withdraws a proposal.",
    "getBlocked": "The players you have blocked.",
    "setBlocked": "Replaces the whole list (at most 500 player ids). A blocked player cannot "
    "invite you nor seat you (nor you them), neither of you takes an open seat at the other's "
    "table (nor sees such a game in the lobby), and their messages are hidden from you on "
    "every surface (yours still reach them). It holds from now on: games already begun go on.",
    "report": "A message you may read (`game_id` and `message`, its version) or a player "
    "(`player_id`), with a reason in a line. Only the operators read reports "
    "(`turnpost reports`); they may hide a message or suspend a player. Counts against "
    "TALK_PER_MINUTE.",
    "resignGame": "Leaves the game: before it starts your seat opens again; during it you "
    "resign, and the game goes on where its rules allow.",
    "streamLog": "Server-sent events, one per log entry you may read (`id` is its version). "
    "A stream lasts a few minutes; reconnect with `Last-Event-ID` to resume.",
    "makeStreamTicket": "A browser's EventSource cannot send the Authorization header: ask "
    "for a ticket with your token (fetch can send it) and open the stream "
    "at its address with `?ticket=<ticket>` within a minute.",
    "streamMyEvents": "One connection for all your games (Lichess' event stream is the "
    "model): an event when a turn of yours starts or goes on, when you are "
    "invited, when a game ends or is cancelled, each with the game id and "
    "version; then read the game itself. Reconnect with `Last-Event-ID`.",
    "receiveEmail": "For a hosted inbound-mail service: the raw message, authenticated by the "
    "`Turnpost-Inbound-Secret` header. Whatever happens, the sender is "
    "answered by email.",
    "registerPlayer": "Needs no token. The answer holds your API token (shown once) and, with "
    "a `webhook_url`, the secret that signs your webhook deliveries.",
    "findPlayers": "Names are not unique: each player found comes with the id that seats or "
    "invites them (`seats` of `POST /v1/games`) or makes them a friend.",
    "getPlayer": "Anyone's name and how many games they sat in; never their email, webhook or "
    "settings. With their rating per game (its rank on the leaderboard and its history), "
    "their record per game (finished games, wins, places), their last 10 finished games, and "
    "how they fared against you (`head_to_head`: games in which they placed above, below or "
    "level with you). A finished game counts once the worker has recorded it, seconds after.",
    "getLeaderboard": "The players of a game with at least `min_games` rated games whose last "
    "one ended within `active_days`, by rating, best first, a page at a time (`next` and the "
    "Link header name the next page). The rating is 1500 + 30 (mu - 25) of the player's "
    "Weng-Lin (Plackett-Luce) skill, with one standard deviation as `uncertainty`. Bots are "
    "rated as players of their own (`player_id` null). Needs no token.",
    "createTournament": "A tournament of two-player games of one title (every title can be "
    "played by two): `round_robin` (3 to 10 players, everyone against everyone, all the games at "
    "once) or `swiss` (4 to 64 players, `rounds` rounds in which players of equal points meet and "
    "no one meets anyone twice). It takes sign-ups until it is full (then it starts) or until "
    "`start_at` (then it starts with those who signed up, or is cancelled if fewer than the "
    "format's fewest did). It needs a clock: under `forfeit` a player who runs out of time "
    "loses that game and is withdrawn, their other games lost too; under `auto` the computer "
    "plays for them. Creating it does not sign you up. The worker starts it, seeds the players "
    "by rating, creates each round's games (seats given, no invitation: each player is told "
    "`tournament.round_started`) and pairs the next round when a round's last game ends.",
    "listTournaments": "Without a filter: the tournaments taking sign-ups, newest first (the "
    "lobby's). `entered=me`: the tournaments you signed up to.",
    "getTournament": "Everything about a tournament, for anyone: its settings, players (in seed "
    "order once it began, each with the rating it was seeded by), the standings (points: a win "
    "1, a draw 1/2, a loss 0, a bye 1; then Sonneborn-Berger for a round-robin or Buchholz for "
    "a Swiss; ties share a place), each round's games with their results, and `you`: whether "
    "you signed up or withdrew. A finished game counts once the worker has recorded it, "
    "moments after it ends.",
    "signUpToTournament": "While it takes sign-ups and is not full. The last sign-up of a "
    "tournament that starts when full starts it (the worker creates the games moments later).",
    "withdrawFromTournament": "Before it starts you are taken off the list. After, you are "
    "withdrawn: you are paired no more, and your games still being played are resolved by its "
    "clock's policy at once: under `forfeit` you lose them, under `auto` the computer plays "
    "your moves in them to their end. Your results so far stay in the standings.",
    "streamTournament": "Each event of the tournament's log as it comes (sign-ups, the start, "
    "each round's pairing, start and end, each game's result, withdrawals, the end): follow it "
    "to keep standings live, then read the tournament again. Reconnect with `Last-Event-ID`.",
    "askForMatch": "A rated game of the title, with its default options and a clock of "
    "MATCHMAKING_MOVE_SECONDS per move (a day; `auto`), against the waiting player whose rating "
    "at it is nearest yours, within MATCHMAKING_WINDOW points (200). The worker pairs you within "
    "moments if someone is waiting, or when someone near comes; with `bot_after_seconds`, after "
    "that long without one, against the bot (`bot:random`, `bot:heuristic` or `bot:expert`) "
    "whose rating is nearest yours. Your game's id is in the request once matched (read it "
    "again, or follow your stream of events: `matchmaking.matched`). Who waited longer has the "
    "first seat. Asking while you wait answers 200 with the request you made.",
    "getMatch": "Where your request stands: `waiting`, `matched` (with `game_id` and your "
    "`opponent`) or `cancelled`.",
    "cancelMatch": "Takes you out of the pool. A request matched already answers 409 "
    "`matchmaking/matched` with its `game_id`: play it, or resign it.",
    "getMe": "Your name, email, webhook and notification settings. The webhook secret is not "
    "shown again: rotate it to get a new one.",
    "updateMe": "Send only the fields you change; null clears `email` or `webhook_url`. "
    "Setting a first webhook makes its secret, shown in this answer only.",
    "listDeliveries": "The latest emails and webhook deliveries sent to you (at most 200 are "
    "kept), newest first, with their status and attempt.",
    "getFriends": "Your friends: the players who may seat you in their games directly. "
    "Anyone else who names you in a game's seats invites you.",
    "setFriends": "Replaces the whole list (at most 500 player ids; an empty list removes "
    "them all). It applies to games created from now on.",
    "rotateWebhookSecret": "The new secret signs every delivery from now on, retries of "
    "earlier ones included.",
    "exportMe": "Your profile, friends and blocked players, calendar, every game you sit in, "
    "sat in or are invited to (its summary, your seat's view as `getView` gives it, and the "
    "messages you wrote: never another seat's hidden facts), your ratings and record, your "
    "latest deliveries, your devices with Web Push on and your web sessions. Secrets are left "
    "out: no token, webhook secret, push key or endpoint, or session cookie. Also a download "
    "from the settings page.",
    "deleteMe": "`confirm` is your own player id: without it the answer is 422 "
    "request/invalid, with another id 422 player/confirm_mismatch, and nothing is deleted. "
    "At once: your token and every web "
    "session stop working, and your profile, address, webhook, devices, calendar, deliveries "
    "and lists are gone (no email, webhook or push goes to you again). Your unfinished games "
    "go on by their timeout policy, as a suspension's do (you leave a game without a clock, or "
    "not started; an invitation is declined), and you leave every matchmaking pool and every "
    'tournament not over. Every game and tournament you were in names you "a deleted '
    'player" from then on (a PlayerDeleted event in its log; the log is never rewritten, and '
    "finished games still replay). Download your data first (`exportMe`): nothing of the "
    "account can be restored.",
    "rotateToken": "The new token is shown only in this answer; the one you called with "
    "stops working at once. Lost your token? Ask for a sign-in link "
    "(`requestSignIn`).",
    "requestSignIn": "Needs no token. If players here are registered with this email "
    "address, each gets an email with a sign-in link: it works once, for "
    "`SIGN_IN_LINK_SECONDS` (15 minutes), and its page gives a new API token "
    "(the old one stops working). The answer is the same whether or not "
    "anyone has this address; an address may ask a few times an hour.",
    "listPushSubscriptions": "`application_server_key` is what a browser subscribes with; "
    "the list holds your devices (never their keys). Each gets your turns, reminders, "
    "invitations and ends of games as push messages (`PushMessage`), encrypted for it alone "
    "(RFC 8291, aes128gcm) and signed with the server's VAPID key (RFC 8292).",
    "addPushSubscription": "Send the browser's PushSubscription as `JSON.stringify` writes it "
    "(`endpoint`, `keys.p256dh`, `keys.auth`), made with `application_server_key`. The same "
    "endpoint again replaces its keys and keeps its id. The endpoint must be https on a public "
    "address.",
    "removePushSubscription": "The device gets no more push messages. A push service that "
    "forgets a subscription (404 or 410) has it removed the same way.",
    "getFeeds": "Give `calendar_url` to a calendar app (a subscription) and `atom_url` to a "
    "feed reader: they need no token, the address itself is the secret. They list only your "
    "games' titles, players, deadlines and links.",
    "rotateFeeds": "Whoever had the old addresses can no longer read them (404).",
}
