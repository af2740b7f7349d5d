"""Players open their match for online play from the "my match" page."""

import pytest

pytestmark = pytest.mark.django_db


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
