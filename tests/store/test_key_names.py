"""A player's keys keep the names the stored data has: a key renamed would lose what it holds.
Each carries the player's hash tag, so that one script may touch several of them in a Cluster."""

import pytest

from store import keys

PLAYER_KEYS = [
    (keys.player("p1"), "tp:player:{p1}"),
    (keys.player_calendar("p1"), "tp:player:{p1}:calendar"),
    (keys.player_games("p1"), "tp:player:{p1}:games"),
    (keys.player_inbox("p1"), "tp:player:{p1}:inbox"),
    (keys.player_invitations("p1"), "tp:player:{p1}:invitations"),
    (keys.player_friends("p1"), "tp:player:{p1}:friends"),
    (keys.invitation_window("p1", "p2"), "tp:player:{p1}:invited-by:p2"),
    (keys.player_seen("p1"), "tp:player:{p1}:seen"),
    (keys.player_blocked("p1"), "tp:player:{p1}:blocked"),
    (keys.player_talk("p1", 60), "tp:player:{p1}:talk:60"),
    (keys.player_token("p1"), "tp:player:{p1}:token"),
    (keys.web_session("p1", "h1"), "tp:player:{p1}:session:h1"),
    (keys.web_sessions("p1"), "tp:player:{p1}:sessions"),
    (keys.email_confirmed("p1"), "tp:player:{p1}:email-confirmed"),
    (keys.player_deliveries("p1"), "tp:player:{p1}:deliveries"),
    (keys.player_deliveries_count("p1"), "tp:player:{p1}:deliveries:count"),
    (keys.player_webhook("p1"), "tp:player:{p1}:webhook"),
    (keys.player_webhook_in_flight("p1"), "tp:player:{p1}:webhook:in-flight"),
    (keys.player_webhook_slow("p1"), "tp:player:{p1}:webhook:slow"),
    (keys.player_push("p1"), "tp:player:{p1}:push"),
    (keys.player_feeds("p1"), "tp:player:{p1}:feeds"),
    (keys.player_events("p1"), "tp:player:{p1}:events"),
    (keys.player_event_claim("p1", "e1"), "tp:player:{p1}:event:e1"),
    (keys.emailed_versions("p1"), "tp:player:{p1}:emailed"),
    (keys.email_throttle("p1", "g1"), "tp:player:{p1}:throttle:g1"),
    (keys.chat_email_throttle("p1", "g1"), "tp:player:{p1}:chat-throttle:g1"),
    (keys.chat_line_window("p1", "g1"), "tp:player:{p1}:chat-line:g1"),
    (keys.player_streams("p1"), "tp:player:{p1}:streams"),
    (keys.player_results("p1"), "tp:player:{p1}:results"),
    (keys.player_results("p1", "buttons"), "tp:player:{p1}:results:buttons"),
    (keys.player_result_records("p1"), "tp:player:{p1}:result-records"),
    (keys.player_tally("p1"), "tp:player:{p1}:tally"),
    (keys.player_rivals("p1"), "tp:player:{p1}:rivals"),
    (keys.player_tournaments("p1"), "tp:player:{p1}:tournaments"),
    (keys.player_tournaments_seen("p1"), "tp:player:{p1}:tournaments:seen"),
]


@pytest.mark.parametrize(("key", "stored"), PLAYER_KEYS)
def test_a_players_key_keeps_its_stored_name(key, stored):
    assert key == stored
