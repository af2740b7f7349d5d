"""Players open their match for online play from the "my match" page."""

import html
import re

import pytest

pytestmark = pytest.mark.django_db

WAY_BACK = re.compile(r'<a href="([^"]+)" id="way-back">← ([^<]+)</a>')


def test_player_opens_the_match_online_from_my_match(client, make_running_round):
    round_ = make_running_round()
    match = round_.matches.order_by("table").first()
    client.force_login(match.player_a.player.user)
    response = client.post(
        f"/tournaments/{round_.tournament_id}/my-match/", {"action": "play_online"}
    )
    session = match.online_games.get().session
    assert response.status_code == 302 and response["Location"] == f"/games/{session.pk}/"
    page = client.get(f"/tournaments/{round_.tournament_id}/my-match/").content.decode()
    assert "Go to the online game" in page


def _way_back(client, session_id):
    """The play page's link back into the event: (address, words), or None."""
    page = client.get(f"/games/{session_id}/")
    assert page.status_code == 200
    found = WAY_BACK.findall(page.content.decode())
    assert len(found) <= 1, found
    return (found[0][0], html.unescape(found[0][1])) if found else None


def test_a_match_games_page_leads_back_to_my_match_or_the_round(
    client, make_running_round, organiser, judge, make_player
):
    round_ = make_running_round()
    tournament = round_.tournament
    match = round_.matches.order_by("table").first()
    client.force_login(match.player_a.player.user)
    client.post(f"/tournaments/{tournament.pk}/my-match/", {"action": "play_online"})
    session = match.online_games.get().session
    mine = (f"/tournaments/{tournament.pk}/my-match/", "My match")
    assert _way_back(client, session.pk) == mine
    client.force_login(match.player_b.player.user)
    assert _way_back(client, session.pk) == mine
    # Judges, organisers and spectators go back to the round's pairings.
    pairings = (f"/tournaments/{tournament.pk}/rounds/{round_.number}/", "Pairings, round 1")
    for user in (judge, organiser, make_player("Watcher").user):
        client.force_login(user)
        assert _way_back(client, session.pk) == pairings, user
    client.logout()
    assert _way_back(client, session.pk) == pairings
    # With the pairings not public, a spectator is led to the event's page instead.
    tournament.publish_pairings = False
    tournament.save(update_fields=["publish_pairings"])
    assert _way_back(client, session.pk) == (f"/tournaments/{tournament.pk}/", tournament.name)
    client.force_login(judge)
    assert _way_back(client, session.pk) == pairings


def test_a_practice_games_page_has_no_way_back_into_an_event(client, make_player):
    user = make_player("Practiser").user
    client.force_login(user)
    answer = client.post("/games/practice/", {"game": "36d6", "seats": "3"})
    assert answer.status_code == 302
    session_id = int(answer["Location"].strip("/").rsplit("/", 1)[1])
    assert _way_back(client, session_id) is None
