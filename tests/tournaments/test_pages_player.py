"""The player's "my match" page: report, confirm, dispute, start a game, swap dice; a
secret swap never reaches the opponent or the public before its game starts."""

import pytest
from django.urls import reverse

from games.engines.irondie.dice import Die, playing_set_errors
from tests.tournaments.test_pages_public import play_rounds, url
from tournaments import selectors
from tournaments.models import Match, SetSwap

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(tournament, organiser, judge, register_players):
    register_players(tournament, 4)
    round_ = play_rounds(tournament, organiser, judge, 1, leave_open=True)
    return round_.matches.select_related("player_a__player__user", "player_b__player__user").get(
        table=1
    )


def valid_swap(registration):
    playing, additional = selectors.current_sets(registration)
    for i in range(len(playing)):
        for j in range(len(additional)):
            trial = list(playing)
            trial[i] = additional[j]
            if not playing_set_errors([Die.from_dict(d) for d in trial]):
                return i, j
    pytest.skip("this random set has no one-for-one swap")


def opponent_swaps(body):
    return body.split('id="opponent-swaps"', 1)[1].split("<h2>", 1)[0]


def report_data(match, games, **extra):
    data = {"action": "report", "expected_version": match.version}
    for number, outcome in enumerate(games, start=1):
        data[f"game_{number}"] = outcome
    data.update(extra)
    return data


def test_my_match_shows_opponent_table_and_round(client, tournament, match):
    client.force_login(match.player_a.player.user)
    body = client.get(url("my_match", tournament)).content.decode()
    assert match.player_b.player.display_name in body
    assert "Table 1" in body and "Round 1" in body


def test_not_registered_is_sent_home(client, tournament, match, make_player):
    client.force_login(make_player("Visitor").user)
    response = client.get(url("my_match", tournament), follow=True)
    assert response.redirect_chain[-1][0] == url("home", tournament)
    assert "You are not registered in this tournament." in response.content.decode()
    assert client.get(url("my_match", tournament)).status_code == 302
    client.logout()
    assert reverse("login") in client.get(url("my_match", tournament))["Location"]


def test_report_then_opponent_disputes_then_confirms(client, tournament, match):
    user_a, user_b = match.player_a.player.user, match.player_b.player.user
    client.force_login(user_a)
    response = client.post(url("my_match", tournament), report_data(match, ["a", "b", "a"]))
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED
    assert "waiting for your opponent" in client.get(url("my_match", tournament)).content.decode()
    pending = match.submissions.get(status="pending")
    # Confirming one's own report is refused by the service: 403.
    response = client.post(
        url("my_match", tournament), {"action": "confirm", "submission": pending.pk}
    )
    assert response.status_code == 403

    client.force_login(user_b)
    body = client.get(url("my_match", tournament)).content.decode()
    assert 'id="confirm-form"' in body and "reported:" in body
    client.post(
        url("my_match", tournament),
        {"action": "reject", "submission": pending.pk, "note": "I won game 3"},
    )
    match.refresh_from_db()
    assert match.status == Match.Status.DISPUTED

    client.force_login(user_a)
    client.post(url("my_match", tournament), report_data(match, ["a", "b", "a"]))
    pending = Match.objects.get(pk=match.pk).submissions.get(status="pending")
    client.force_login(user_b)
    response = client.post(
        url("my_match", tournament), {"action": "confirm", "submission": pending.pk}, follow=True
    )
    assert "Result confirmed." in response.content.decode()
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED and match.winner_id == match.player_a_id


def test_report_errors_are_shown(client, tournament, match):
    client.force_login(match.player_a.player.user)
    response = client.post(url("my_match", tournament), report_data(match, ["a", "a", "a"]))
    assert response.status_code == 200 and 'class="errors"' in response.content.decode()
    stale = report_data(match, ["a", "a"], expected_version=match.version - 1)
    response = client.post(url("my_match", tournament), stale)
    assert "This match changed while you were entering the result" in response.content.decode()
    assert not match.submissions.exists()


def test_swap_is_secret_until_its_game_starts(client, tournament, match, judge):
    reg_a, user_a, user_b = match.player_a, match.player_a.player.user, match.player_b.player.user
    out, into = valid_swap(reg_a)
    client.force_login(user_a)
    # Refused swap (one out, none in) shows the rule inline.
    response = client.post(url("my_match", tournament), {"action": "swap", "swap_out": [out]})
    assert "Swap as many dice out as in" in response.content.decode()
    client.post(
        url("my_match", tournament), {"action": "swap", "swap_out": [out], "swap_in": [into]}
    )
    swap = SetSwap.objects.get(registration=reg_a)
    marker = f'data-swap="{swap.pk}"'
    assert swap.before_game == 1
    assert marker in client.get(url("my_match", tournament)).content.decode()  # my history

    def visible_anywhere(user):
        client.logout()
        if user is not None:
            client.force_login(user)
        pages = [
            url("my_match", tournament) if user is not None else url("home", tournament),
            url("pairings", tournament, 1),
            url("standings", tournament),
            url("sets", tournament),
            url("home", tournament),
        ]
        return any(marker in client.get(p).content.decode() for p in pages)

    assert not visible_anywhere(user_b)
    client.force_login(user_b)
    section = opponent_swaps(client.get(url("my_match", tournament)).content.decode())
    assert "<svg" not in section and "No swap revealed yet" in section
    assert not visible_anywhere(None)
    client.force_login(user_b)
    assert client.get(url("audit", tournament)).status_code == 403
    assert client.get(url("match", tournament, match.pk)).status_code == 403
    # Judges see the full history.
    client.force_login(judge)
    assert "swap" in client.get(url("match", tournament, match.pk)).content.decode().lower()
    assert client.get(url("match", tournament, match.pk)).context["swaps"] == [swap]

    # The opponent says game 1 starts: still secret until the swapping player says so too.
    client.force_login(user_b)
    client.post(url("my_match", tournament), {"action": "start_game", "number": 1})
    section = opponent_swaps(client.get(url("my_match", tournament)).content.decode())
    assert "<svg" not in section and "No swap revealed yet" in section
    client.force_login(user_a)
    client.post(url("my_match", tournament), {"action": "start_game", "number": 1})
    client.force_login(user_b)
    section = opponent_swaps(client.get(url("my_match", tournament)).content.decode())
    assert marker in section and "Before game 1" in section and "<svg" in section

    # A swap for game 2, made during game 1, is secret again until game 2 starts.
    client.force_login(user_a)
    client.post(
        url("my_match", tournament), {"action": "swap", "swap_out": [out], "swap_in": [into]}
    )
    second = SetSwap.objects.get(registration=reg_a, before_game=2)
    client.force_login(user_b)
    body = client.get(url("my_match", tournament)).content.decode()
    assert marker in body and f'data-swap="{second.pk}"' not in body
    client.post(url("my_match", tournament), {"action": "start_game", "number": 2})
    body = client.get(url("my_match", tournament)).content.decode()
    assert f'data-swap="{second.pk}"' not in body
    client.force_login(user_a)
    client.post(url("my_match", tournament), {"action": "start_game", "number": 2})
    client.force_login(user_b)
    body = client.get(url("my_match", tournament)).content.decode()
    assert f'data-swap="{second.pk}"' in body


def test_start_game_out_of_order_is_refused(client, tournament, match):
    client.force_login(match.player_a.player.user)
    response = client.post(
        url("my_match", tournament), {"action": "start_game", "number": 2}, follow=True
    )
    assert "The next game of this match is game 1." in response.content.decode()


def test_games_four_and_five_can_be_started_and_swapped_for(client, tournament, match, judge):
    from django.test import Client

    from tournaments import services

    for number in (1, 2, 3):
        services.start_game(match=match, number=number, by=judge)
    out, into = valid_swap(match.player_a)
    client.force_login(match.player_a.player.user)
    opponent = Client()
    opponent.force_login(match.player_b.player.user)
    body = client.get(url("my_match", tournament)).content.decode()
    assert 'id="start-game-form"' in body and "Ready for game 4" in body
    response = client.post(
        url("my_match", tournament),
        {"action": "swap", "swap_out": [out], "swap_in": [into]},
        follow=True,
    )
    assert "Swap recorded." in response.content.decode()
    assert SetSwap.objects.get(registration=match.player_a).before_game == 4
    for number in (4, 5):
        for side in (client, opponent):  # a game starts on both players' word
            side.post(url("my_match", tournament), {"action": "start_game", "number": number})
        assert Match.objects.get(pk=match.pk).current_game == number
    body = client.get(url("my_match", tournament)).content.decode()
    assert 'id="start-game-form"' not in body  # a match has no sixth game


def test_self_registration_on_the_home_page(
    client, tournament, make_player, valid_playing, valid_additional
):
    from players import services as player_services

    player = make_player("Selfie")
    dice_set = player_services.create_dice_set(
        player=player, name="Mine", playing_dice=valid_playing, additional_dice=valid_additional
    )
    client.force_login(player.user)
    body = client.get(url("home", tournament)).content.decode()
    assert 'id="self-register"' in body and "Mine" in body
    client.post(url("register", tournament), {"dice_set": dice_set.pk})
    body = client.get(url("home", tournament)).content.decode()
    assert "You are registered." in body


@pytest.mark.parametrize("note", ["", "   "])
def test_disputing_on_the_page_without_saying_what_is_wrong_shows_a_form_error(
    client, tournament, match, note
):
    client.force_login(match.player_a.player.user)
    client.post(url("my_match", tournament), report_data(match, ["a", "b", "a"]))
    pending = match.submissions.get(status="pending")
    client.force_login(match.player_b.player.user)
    page = client.post(
        url("my_match", tournament), {"action": "reject", "submission": pending.pk, "note": note}
    )
    assert page.status_code == 200
    body = page.content.decode()
    assert 'id="reject-form"' in body and "Say what is wrong" in body
    assert 'aria-invalid="true"' in body
    match.refresh_from_db()
    pending.refresh_from_db()
    assert match.status == Match.Status.REPORTED and pending.status == "pending"
