"""Turn notifications with real parts: real `turnpost worker` processes, a real SMTP server
(aiosmtpd) and a real HTTP webhook receiver, all on loopback."""

import base64
import hashlib
import hmac
import json
import re
import time
from pathlib import Path

import pytest
import standardwebhooks
import stripe
from openapi_schema_validator import OAS30Validator, validate

from engine.core import LogEntry
from engine.rng import Rng
from service.play import logview
from tests.peers import WebhookReceiver, html_of, text_of

DOCUMENT = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"


def turn_email_for(address, version, event="turn.started"):
    return lambda m, rcpt: (
        address in rcpt
        and m["X-Turnpost-Version"] == str(version)
        and m["X-Turnpost-Event"] == event
    )


def legal_by_seat(games, game_id, people):
    return {
        seat: [m["notation"] for m in games.legal_moves(game_id, pid)["moves"]]
        for seat, pid in enumerate(people)
    }


def listed_moves(body):
    """The moves a turn email lists (a move with a one-click link is `move: url`)."""
    after = body.split("Your legal moves (")[1].splitlines()[1:]
    listed = []
    for line in after:
        if not line.startswith("  "):
            break
        listed.append(line.strip().split(": http", 1)[0])
    return listed


def hidden_from(games, game_id, seat):
    """Log texts written for other seats only: what this seat must never read."""
    snap = games.load(game_id)
    texts = set()
    for event in games.games.events(game_id):
        for raw in event.get("entries", []):
            entry = LogEntry.from_json(raw)
            if not entry.visible_to(seat):
                texts.add(logview.with_names(entry.text, snap["seats"]))
    public = {
        logview.with_names(LogEntry.from_json(raw).text, snap["seats"])
        for e in games.games.events(game_id)
        for raw in e.get("entries", [])
        if LogEntry.from_json(raw).visible_to(seat)
    }
    return texts - public


@pytest.mark.slow
def test_every_turn_change_of_a_whole_game_emails_the_right_player_once(
    services, start_workers, smtp
):
    players, games = services
    start_workers(SMTP_URL=smtp.url, PUBLIC_URL="http://turnpost.test")
    people = [players.register(n, email=f"{n.lower()}@example.org")["id"] for n in ("Ada", "Bo")]
    addresses, names = ["ada@example.org", "bo@example.org"], ["Ada", "Bo"]
    players.set_friends(people[1], [people[0]])  # seated without an invitation
    game_id = games.create(people[0], "nautilus", people)["id"]
    picker = Rng(b"emails" + bytes(32))
    before: dict[int, list[str]] = {0: [], 1: []}
    expected = 0
    for _ in range(2000):
        summary = games.summary(game_id)
        version = summary["version"]
        if summary["status"] == "finished":
            break
        now = legal_by_seat(games, game_id, people)
        for seat in (0, 1):
            if now[seat] and now[seat] != before[seat]:
                message = smtp.wait_for(turn_email_for(addresses[seat], version))
                expected += 1
                body = text_of(message)
                listed = listed_moves(body)
                assert "/v1/" not in body, "no API path in a letter to a person"
                turn_pages = re.findall(r"http://turnpost\.test/t/[A-Za-z0-9_.-]+", body)
                assert len(turn_pages) == 1
                if len(now[seat]) > 60:  # summed up: a line per kind of move, no list
                    assert f"Your legal moves ({len(now[seat])}, summed up):" in body
                    assert (
                        "ways): " in body
                        and now[seat][-1]
                        not in body.split("How a move is written")[0].split("summed up")[1]
                    )
                else:
                    said = [
                        f"{m['description']} ({m['notation']})"
                        for m in games.legal_moves(game_id, people[seat])["moves"]
                    ]
                    assert listed == said, "each move once, in words with its notation"
                    lines = [line.strip() for line in body.splitlines()]
                    for move in said:
                        assert (
                            sum(
                                1
                                for line in lines
                                if line == move or line.startswith(f"{move}: http")
                            )
                            == 1
                        ), move
                mover_moved = (
                    next(e for e in games.games.events(game_id) if e["version"] == version).get(
                        "seat"
                    )
                    == seat
                )
                asked = (
                    "your turn goes on"
                    if mover_moved
                    else f"round {games.view(game_id, people[seat])['round']}: your move"
                )
                assert message["Subject"] == (
                    f"[turnpost] Nautilus with {names[1 - seat]}: {asked} ({game_id})"
                )
                assert f"http://turnpost.test/games/{game_id}" in body
                assert f"http://turnpost.test/games/{game_id}" in html_of(message)
                for secret in hidden_from(games, game_id, seat):
                    assert secret not in body and secret not in html_of(message)
                assert games.load(game_id)["secret_seed"] not in body
        before = now
        mover = summary["active_seats"][0]
        moves = games.legal_moves(game_id, people[mover])["moves"]
        games.play(game_id, people[mover], version, action=picker.choice(moves)["action"])
    else:
        pytest.fail("the game did not end")
    for seat in (0, 1):
        end = smtp.wait_for(turn_email_for(addresses[seat], version, "game.finished"))
        assert "the game is over" in end["Subject"]
    time.sleep(1.0)  # anything extra would have arrived by now
    turn_emails = [
        m
        for m in smtp.to(addresses[0]) + smtp.to(addresses[1])
        if m["X-Turnpost-Event"] == "turn.started"
    ]
    assert expected > 10 and len(turn_emails) == expected
    assert len({(m["To"], m["X-Turnpost-Version"]) for m in turn_emails}) == expected


@pytest.mark.slow  # over a second: not in make test-fast
def test_webhook_is_signed_with_the_players_secret_as_documented(services, start_workers):
    players, games = services
    with WebhookReceiver() as receiver:
        start_workers()
        bot = players.register("Bot", webhook_url=receiver.url)
        other = players.register("Ada")["id"]
        players.set_friends(bot["id"], [other])  # seated without an invitation
        game_id = games.create(other, "ninedomains", [bot["id"], other])["id"]
        call = receiver.wait_count(1)[0]
    # the receiver's side, written from docs/notifications.md alone
    timestamp, signature = (
        part.split("=", 1)[1] for part in call["headers"]["Turnpost-Signature"].split(",")
    )
    expected = hmac.new(
        bot["webhook_secret"].encode(), timestamp.encode() + b"." + call["body"], hashlib.sha256
    ).hexdigest()
    assert hmac.compare_digest(signature, expected)
    assert abs(int(timestamp) - time.time()) < 60
    assert call["headers"]["Turnpost-Event"] == "turn.started"
    assert call["json"]["event"] == "turn.started" and call["json"]["game_id"] == game_id
    assert call["json"]["version"] == games.summary(game_id)["version"]
    assert call["json"]["seat"] == 0 and call["json"]["game"] == "ninedomains"
    assert call["headers"]["Turnpost-Delivery"] == call["json"]["delivery_id"]
    wrong = hmac.new(
        b"whsec_other", timestamp.encode() + b"." + call["body"], hashlib.sha256
    ).hexdigest()
    assert wrong != signature


@pytest.mark.slow  # over a second: not in make test-fast
def test_every_delivery_verifies_with_the_standard_webhooks_and_the_stripe_libraries(
    services, start_workers
):
    """Real deliveries of a game played to the end, each checked by `standardwebhooks` and by
    `stripe` from PyPI as a receiver would call them; a changed byte or another secret fails
    both."""
    players, games = services
    with WebhookReceiver() as receiver:
        start_workers()
        bot = players.register("Bot", webhook_url=receiver.url)
        other = players.register("Ada")["id"]
        players.set_friends(bot["id"], [other])  # seated without an invitation
        game_id = games.create(other, "buttons", [bot["id"], other])["id"]
        picker = Rng(b"webhook libraries" + bytes(32))
        told_of_a_turn = False
        while games.summary(game_id)["status"] != "finished":
            summary = games.summary(game_id)
            seat = summary["active_seats"][0]
            if seat == 0 and not told_of_a_turn:  # the holder of the red card starts
                receiver.wait_count(1)  # its first turn, before the game runs ahead
                told_of_a_turn = True
            mover = [bot["id"], other][seat]
            move = picker.choice(games.legal_moves(game_id, mover)["moves"])
            games.play(game_id, mover, summary["version"], action=move["action"])
        calls = receiver.wait_until(
            lambda got: any(c["json"]["event"] == "game.finished" for c in got)
        )
    secret = bot["webhook_secret"]
    assert len(base64.b64decode(secret.removeprefix("whsec_"), validate=True)) == 32
    standard = standardwebhooks.Webhook(secret)
    for call in calls:
        headers = {name.lower(): value for name, value in call["headers"].items()}
        assert standard.verify(call["body"], headers) == call["json"]
        assert stripe.WebhookSignature.verify_header(
            call["body"], headers["turnpost-signature"], secret, tolerance=300
        )
        assert headers["webhook-id"] == headers["turnpost-delivery"]
    events = {call["json"]["event"] for call in calls}
    assert {"turn.started", "game.finished"} <= events  # and turn.continues, when the
    assert events <= {"turn.started", "turn.continues", "game.finished"}  # roller goes on
    components = json.loads(DOCUMENT.read_text())["components"]
    for call in calls:  # each body is the one the document describes for its event
        name = {"game.finished": "WebhookGameFinished"}.get(
            call["json"]["event"], "WebhookTurnStarted"
        )
        validate(
            call["json"],
            {"allOf": [{"$ref": f"#/components/schemas/{name}"}], "components": components},
            cls=OAS30Validator,
        )
    tampered = calls[0]["body"].replace(b'"version":', b'"version": ')
    other_secret = "whsec_" + base64.b64encode(bytes(32)).decode()
    for body, key in ((tampered, secret), (calls[0]["body"], other_secret)):
        with pytest.raises(standardwebhooks.WebhookVerificationError):
            standardwebhooks.Webhook(key).verify(body, calls[0]["headers"])
        with pytest.raises(stripe.SignatureVerificationError):
            stripe.WebhookSignature.verify_header(
                body, calls[0]["headers"]["Turnpost-Signature"], key, tolerance=300
            )
    assert json.loads(tampered) == calls[0]["json"]


@pytest.mark.slow
def test_failing_webhook_is_retried_then_the_player_gets_the_email(services, start_workers, smtp):
    players, games = services
    with WebhookReceiver(statuses=[500, 500, 500]) as receiver:
        start_workers(SMTP_URL=smtp.url, WEBHOOK_ATTEMPTS="3", WEBHOOK_RETRY_SECONDS="1")
        bot = players.register("Bot", email="bot@example.org", webhook_url=receiver.url)
        players.update(bot["id"], {"notifications": {"email": False}})
        other = players.register("Ada")["id"]
        players.set_friends(bot["id"], [other])  # seated without an invitation
        game_id = games.create(other, "ninedomains", [bot["id"], other])["id"]
        fallback = smtp.wait_for(lambda m, rcpt: "bot@example.org" in rcpt)
        calls = receiver.wait_count(3)
    assert [c["status"] for c in calls] == [500, 500, 500]
    assert len({c["headers"]["Turnpost-Delivery"] for c in calls}) == 1
    assert fallback["X-Turnpost-Game"] == game_id
    assert players.profile(bot["id"])["webhook_status"] == "failing"
    log = players.deliveries(bot["id"])["deliveries"]
    assert [(d["channel"], d["status"], d["attempt"]) for d in log] == [
        ("email", "fallback", 1),
        ("webhook", "failed", 3),
        ("webhook", "retrying", 2),
        ("webhook", "retrying", 1),
    ]
    assert log[3]["detail"] == "refused by the receiver (HTTP 500); next attempt in 1 s", (
        "backoff doubles"
    )
    assert log[2]["detail"] == "refused by the receiver (HTTP 500); next attempt in 2 s"


@pytest.mark.slow
def test_emails_are_throttled_per_game_and_the_later_one_waits(services, start_workers, smtp):
    """The Nine Domains: both players choose at once, so a quick round gives Ada a second
    turn a moment after the first: its email waits for her 3-second window to close."""
    players, games = services
    start_workers(SMTP_URL=smtp.url, EMAIL_THROTTLE_SECONDS="3")
    ada = players.register("Ada", email="ada@example.org")["id"]
    bo = players.register("Bo", email="bo@example.org")["id"]
    players.set_friends(bo, [ada])  # seated without an invitation
    game_id = games.create(ada, "ninedomains", [ada, bo])["id"]
    smtp.wait_for(turn_email_for("ada@example.org", 2))
    for player in (ada, bo):
        moves = games.legal_moves(game_id, player)["moves"]
        games.play(game_id, player, games.summary(game_id)["version"], action=moves[0]["action"])
    summary = games.summary(game_id)
    assert 0 in summary["active_seats"], "a new round: Ada chooses again"
    smtp.wait_for(turn_email_for("ada@example.org", summary["version"]), timeout=20)
    arrivals = sorted(at for r, m, at in smtp.messages if "ada@example.org" in r)
    assert len(arrivals) == 2
    # RQ keeps schedules in whole seconds: the deferred job may run up to a second early
    # (and then waits again), never before the window
    assert arrivals[1] - arrivals[0] >= 2.0, "the second email waited for the window"


@pytest.mark.slow  # over a second: not in make test-fast
def test_the_next_step_of_a_turn_is_emailed_at_once_as_your_turn_goes_on(
    services, start_workers, smtp
):
    """Con Sonar!: a fleet move, then a torpedo, a delay or the end of the turn. The email for
    the second step comes at once although the player's throttle window (60 s) is open, says
    that the turn goes on, and tells what the fleet move caused."""
    players, games = services
    start_workers(SMTP_URL=smtp.url, EMAIL_THROTTLE_SECONDS="60")
    ada = players.register("Ada", email="ada@example.org")["id"]
    bo = players.register("Bo", email="bo@example.org")["id"]
    players.set_friends(bo, [ada])  # seated without an invitation
    game_id = games.create(ada, "consonar", [ada, bo])["id"]
    first = games.summary(game_id)
    seat = first["active_seats"][0]
    player, address = [(ada, "ada@example.org"), (bo, "bo@example.org")][seat]
    smtp.wait_for(turn_email_for(address, first["version"]))
    fleet = [
        m for m in games.legal_moves(game_id, player)["moves"] if m["action"]["type"] == "fleet"
    ]
    games.play(game_id, player, first["version"], action=fleet[0]["action"])
    after = games.summary(game_id)
    assert seat in after["active_seats"], "after a fleet move the same player goes on"
    started = time.monotonic()
    message = smtp.wait_for(turn_email_for(address, after["version"]), timeout=20)
    assert time.monotonic() - started < 15, "not held back by the 60 s throttle"
    assert "your turn goes on" in message["Subject"]
    assert "goes on" in text_of(message)


@pytest.mark.slow  # over a second: not in make test-fast
def test_no_email_when_the_player_turned_emails_off(services, start_workers, smtp):
    players, games = services
    start_workers(SMTP_URL=smtp.url)
    ada = players.register("Ada", email="ada@example.org")["id"]
    bo = players.register("Bo", email="bo@example.org")["id"]
    players.update(ada, {"notifications": {"email": False}})
    players.set_friends(bo, [ada])  # seated without an invitation
    games.create(ada, "ninedomains", [ada, bo])
    smtp.wait_for(lambda m, rcpt: "bo@example.org" in rcpt)
    time.sleep(1.0)
    assert smtp.to("ada@example.org") == []


@pytest.mark.slow
def test_reminders_at_half_and_nine_tenths_of_the_clock(services, start_workers, smtp):
    players, games = services
    start_workers(SMTP_URL=smtp.url)
    ada = players.register("Ada", email="ada@example.org")["id"]
    bo = players.register("Bo", email="bo@example.org")["id"]
    players.update(bo, {"notifications": {"reminders": False}})
    started = time.time()
    players.set_friends(bo, [ada])  # seated without an invitation
    game_id = games.create(
        ada, "ninedomains", [ada, bo], time_control={"per_move_seconds": 10, "on_timeout": "auto"}
    )["id"]
    version = games.summary(game_id)["version"]
    reminders = []
    for tag in ("50", "90"):
        reminders.append(
            smtp.wait_for(
                lambda m, rcpt: (
                    "ada@example.org" in rcpt
                    and m["X-Turnpost-Event"] == "turn.reminder"
                    and m["X-Turnpost-Delivery"].endswith(tag)
                ),
                timeout=20,
            )
        )
    arrivals = sorted(
        at
        for r, m, at in smtp.messages
        if "ada@example.org" in r and m["X-Turnpost-Event"] == "turn.reminder"
    )
    # RQ keeps schedules in whole seconds: a job may run up to a second before its time. The
    # clock is long enough that the 90% reminder (at 9 s) comes well before the timeout (at
    # 10 s) on a loaded machine too: one that came after it would be dropped as moot, and the
    # next turn's reminder (another version) taken for it.
    assert arrivals[0] - started >= 4.0 and arrivals[1] - started >= 8.0
    assert all(r["X-Turnpost-Version"] == str(version) for r in reminders)
    assert "The Nine Domains with " in reminders[0]["Subject"]
    assert ": reminder, round 1: your move" in reminders[0]["Subject"]
    assert "After it the computer plays for you." in text_of(reminders[0])
    assert not [m for m in smtp.to("bo@example.org") if m["X-Turnpost-Event"] == "turn.reminder"]


@pytest.mark.slow  # over a second: not in make test-fast
def test_without_smtp_the_emails_are_files_in_the_outbox(services, start_workers, tmp_path):
    players, games = services
    outbox = tmp_path / "outbox"
    start_workers(OUTBOX_DIR=str(outbox))
    ada = players.register("Ada", email="ada@example.org")["id"]
    bo = players.register("Bo")["id"]
    players.set_friends(bo, [ada])  # seated without an invitation
    game_id = games.create(ada, "ninedomains", [ada, bo])["id"]
    deadline = time.monotonic() + 20
    while not list(outbox.glob("*.eml")) and time.monotonic() < deadline:
        time.sleep(0.05)
    files = list(outbox.glob("*.eml"))
    assert len(files) == 1
    import email
    from email.policy import default

    message = email.message_from_bytes(files[0].read_bytes(), policy=default)
    assert message["To"] == "Ada <ada@example.org>" and message["X-Turnpost-Game"] == game_id
    assert "It is your turn in The Nine Domains against Bo" in text_of(message)


@pytest.mark.slow  # over a second: not in make test-fast
def test_the_next_step_of_a_turn_is_posted_as_turn_continues(services, start_workers):
    """Con Sonar!: after a fleet move the same player goes on; their webhook hears
    `turn.continues`, signed like every delivery."""
    players, games = services
    with WebhookReceiver() as receiver:
        start_workers()
        ada = players.register("Ada", webhook_url=receiver.url)["id"]
        bo = players.register("Bo", webhook_url=receiver.url)["id"]
        players.set_friends(bo, [ada])
        game_id = games.create(ada, "consonar", [ada, bo])["id"]
        first = games.summary(game_id)
        mover = [ada, bo][first["active_seats"][0]]
        deadline = time.monotonic() + 20
        while not any(
            json.loads(r["body"])["version"] == first["version"] for r in receiver.requests
        ):
            assert time.monotonic() < deadline, "the first turn's webhook"
            time.sleep(0.1)
        fleet = [
            m for m in games.legal_moves(game_id, mover)["moves"] if m["action"]["type"] == "fleet"
        ]
        games.play(game_id, mover, first["version"], action=fleet[0]["action"])
        version = games.summary(game_id)["version"]
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            bodies = [json.loads(r["body"]) for r in receiver.requests]
            found = [b for b in bodies if b["version"] == version]
            if found:
                break
            time.sleep(0.1)
        assert [b["event"] for b in found] == ["turn.continues"]
        assert [b["event"] for b in bodies if b["version"] == first["version"]] == ["turn.started"]


@pytest.mark.slow  # over a second: not in make test-fast
def test_a_turn_emails_deadline_is_written_in_the_players_time_zone(services, start_workers, smtp):
    players, games = services
    start_workers(SMTP_URL=smtp.url, PUBLIC_URL="http://turnpost.test")
    ada = players.register("Ada", email="ada.tz@example.org")["id"]
    bo = players.register("Bo", email="bo.tz@example.org")["id"]
    players.update(ada, {"time_zone": "Asia/Tokyo"})
    players.set_friends(bo, [ada])
    control = {"per_move_seconds": 86400, "on_timeout": "auto"}
    game_id = games.create(ada, "ninedomains", [ada, bo], time_control=control)["id"]
    tokyo = text_of(smtp.wait_for(lambda m, rcpt: "ada.tz@example.org" in rcpt))
    utc = text_of(smtp.wait_for(lambda m, rcpt: "bo.tz@example.org" in rcpt))
    assert re.search(r"Your deadline: in [^(]+\([^)]+ Asia/Tokyo\)", tokyo), tokyo
    assert re.search(r"Your deadline: in [^(]+\([^)]+ UTC\)", utc), utc
    assert games.load(game_id)["status"] == "active"


@pytest.mark.slow  # over a second: not in make test-fast
def test_emails_due_together_go_out_in_few_jobs_over_one_connection_each(
    services, start_workers, smtp
):
    """Twenty games begin while no worker runs; when one starts, it finds their twenty
    entries in the outbox at once: the player to move in each gets their turn email once,
    and the emails share SMTP connections (a job of emails is one session), not one each."""
    players, games = services
    people = [players.register(f"P{i}", email=f"p{i}@example.org")["id"] for i in range(40)]
    address = {pid: f"p{i}@example.org" for i, pid in enumerate(people)}
    to_move = {}
    for first, second in zip(people[::2], people[1::2]):
        players.set_friends(second, [first])
        game = games.create(first, "nautilus", [first, second])
        to_move[game["id"]] = address[[first, second][game["active_seats"][0]]]
    start_workers(SMTP_URL=smtp.url)
    for game_id in to_move:
        smtp.wait_for(lambda m, r, g=game_id: g in m["Subject"])
    time.sleep(1.0)  # anything extra would have arrived by now
    got = sorted((m["X-Turnpost-Game"], r[0]) for r, m, _ in smtp.messages)
    assert got == sorted(to_move.items()), "each player to move, once"
    connections = len(set(smtp.peers))
    assert connections <= 4, f"{connections} SMTP connections for 20 emails"
