"""Bad input found by an outside probe: each answers a 4xx a person understands, never a
5xx, and changes nothing (query parameters, page sizes, deep JSON, NUL characters,
tiebreaker names, deleting a registered player)."""

import datetime
import json

import pytest

from config.params import strict_int
from config.parsers import MAX_DEPTH
from games.models import GameSession
from players.models import DiceSet, Player
from tests.conftest import api_as
from tournaments import services
from tournaments.models import AuditEntry, Registration, ResultSubmission, Tournament

pytestmark = pytest.mark.django_db

LIST_ENDPOINTS = ["/api/tournaments/", "/api/players/", "/api/games/", "/api/dice-sets/"]


@pytest.mark.parametrize("text", ["7", "0", "2147483647", "007"])
def test_strict_int_reads_ascii_digits(text):
    assert strict_int(text) == int(text)


@pytest.mark.parametrize(
    "text", ["²", "١٢", "1_000", " 7", "7 ", "-1", "+1", "1.0", "", "9" * 19, "2147483648", None]
)
def test_strict_int_refuses_what_is_not_a_plain_number(text):
    assert strict_int(text) is None


@pytest.mark.parametrize("url", LIST_ENDPOINTS)
@pytest.mark.parametrize(
    "query", ["limit=9999999999999999999999999", "limit=0", "limit=-5", "limit=²", "offset=1e99"]
)
def test_page_size_and_offset_out_of_bounds_are_400(organiser, url, query):
    response = api_as(organiser).get(f"{url}?{query}")
    assert response.status_code == 400, response.content
    name = query.split("=")[0]
    assert name in response.json()["errors"]
    assert "whole number" in response.json()["detail"]


def test_largest_page_is_served(organiser):
    assert api_as(organiser).get("/api/players/?limit=1000&offset=1000000000").status_code == 200


@pytest.mark.parametrize("value", ["abc", "²", "99999999999999999999999", "-1"])
def test_games_filtered_by_a_match_that_is_not_a_number_is_400(api, value):
    response = api.get("/api/games/", {"match": value})
    assert response.status_code == 400 and "match" in response.json()["errors"]


def test_games_filtered_by_unknown_status_is_400(api):
    response = api.get("/api/games/", {"status": "bogus"})
    assert response.status_code == 400 and "status" in response.json()["errors"]
    assert api.get("/api/games/", {"status": GameSession.Status.FINISHED}).status_code == 200


def test_dice_sets_of_a_player_given_as_superscript_is_400(judge, make_player, valid_playing):
    player = make_player("Pat")
    DiceSet.objects.create(player=player, name="A", playing_dice=valid_playing)
    client = api_as(judge)
    assert client.get("/api/dice-sets/", {"player": "²"}).status_code == 400
    listed = client.get("/api/dice-sets/", {"player": str(player.pk)}).json()
    assert [row["name"] for row in listed["results"]] == ["A"]


def test_pairings_csv_of_a_superscript_round_is_400(tournament, organiser):
    response = api_as(organiser).get(f"/api/tournaments/{tournament.pk}/pairings/csv/?round=²")
    assert response.status_code == 400 and "round" in response.json()["errors"]


def test_nul_in_a_query_parameter_is_400(api):
    response = api.get("/api/players/?search=a%00b")
    assert response.status_code == 400 and "NUL" in response.json()["detail"]
    page = api.get("/players/?q=%00")
    assert page.status_code == 400 and b"NUL" in page.content


# --- JSON bodies ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "url", ["/api/tournaments/", "/api/players/", "/api/games/", "/api/auth/token/"]
)
def test_json_nested_100000_levels_is_400(organiser, url):
    body = "[" * 100_000 + "]" * 100_000
    response = api_as(organiser).post(url, body, content_type="application/json")
    assert response.status_code == 400
    assert f"nested more than {MAX_DEPTH} levels" in response.json()["detail"]


def test_json_nesting_within_the_limit_is_read(organiser):
    body = {"name": "Deep", "date": "2027-01-01", "venue": "[[[{{"}
    response = api_as(organiser).post("/api/tournaments/", body, format="json")
    assert response.status_code == 201 and response.json()["venue"] == "[[[{{"


@pytest.mark.parametrize(
    "body",
    [
        '{"display_name": "A\\u0000B"}',
        '{"display_name": "AB", "club": "x\\u0000"}',
        '{"display_name": "AB", "\\u0000": 1}',
    ],
)
def test_nul_character_in_json_is_400(organiser, body):
    response = api_as(organiser).post("/api/players/", body, content_type="application/json")
    assert response.status_code == 400 and "NUL" in response.json()["detail"]
    assert not Player.objects.exists()


def test_nan_in_json_is_400(organiser):
    body = '{"name": "X", "date": "2027-01-01", "swiss_rounds": NaN}'
    response = api_as(organiser).post("/api/tournaments/", body, content_type="application/json")
    assert response.status_code == 400 and not Tournament.objects.exists()


# --- tiebreakers ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "tiebreakers", [["bogus"], ["game_win", "game_win"], "match_points", None, [1], [[]]]
)
def test_unknown_tiebreakers_are_refused_on_create_and_update(organiser, tournament, tiebreakers):
    client = api_as(organiser)
    body = {"name": "TB", "date": "2027-01-01", "tiebreakers": tiebreakers}
    created = client.post("/api/tournaments/", body, format="json")
    assert created.status_code == 400, created.content
    assert "tiebreakers" in created.json()["errors"]
    assert not Tournament.objects.filter(name="TB").exists()
    updated = client.patch(
        f"/api/tournaments/{tournament.pk}/", {"tiebreakers": tiebreakers}, format="json"
    )
    assert updated.status_code == 400 and "tiebreakers" in updated.json()["errors"]
    tournament.refresh_from_db()
    assert tournament.tiebreakers == []


@pytest.mark.parametrize("value", ["null", "\x00", "bogus"])
def test_multipart_bad_tiebreakers_are_400(organiser, tournament, value):
    response = api_as(organiser).patch(
        f"/api/tournaments/{tournament.pk}/", {"tiebreakers": value}, format="multipart"
    )
    assert response.status_code == 400 and "tiebreakers" in response.json()["errors"]
    tournament.refresh_from_db()
    assert tournament.tiebreakers == []


def test_nul_tiebreaker_in_json_is_400(organiser):
    body = {"name": "TB", "date": "2027-01-01", "tiebreakers": ["\u0000"]}
    response = api_as(organiser).post("/api/tournaments/", body, format="json")
    assert response.status_code == 400 and "NUL" in response.json()["detail"]
    assert not Tournament.objects.exists()


def test_the_service_refuses_unknown_tiebreakers_on_create(organiser):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError, match="Unknown tiebreaker"):
        services.create_tournament(
            organiser=organiser, name="X", date=datetime.date(2027, 1, 1), tiebreakers=["bogus"]
        )


def test_a_valid_order_is_kept(organiser, tournament):
    order = ["match_points", "game_win", "opponents_match_win"]
    response = api_as(organiser).patch(
        f"/api/tournaments/{tournament.pk}/", {"tiebreakers": order}, format="json"
    )
    assert response.status_code == 200 and response.json()["tiebreakers"] == order


@pytest.mark.parametrize("stored", [["bogus"], ["\u0001", "game_win"], "null", {"a": 1}, [None]])
def test_bad_tiebreakers_already_stored_do_not_break_standings_or_pairing(
    organiser, tournament, register_players, stored
):
    """Data written before the order was validated: the read side skips what it does not
    know instead of failing every standings page and the next pairing."""
    register_players(tournament, 4)
    Tournament.objects.filter(pk=tournament.pk).update(tiebreakers=stored)
    client = api_as(organiser)
    standings = client.get(f"/api/tournaments/{tournament.pk}/standings/")
    assert standings.status_code == 200
    expected = ["game_win"] if "game_win" in stored else ["match_points", "opponents_match_win"]
    assert standings.json()["tiebreakers"][: len(expected)] == expected
    assert client.get(f"/api/tournaments/{tournament.pk}/standings/csv/").status_code == 200
    assert client.post(f"/api/tournaments/{tournament.pk}/pair/", {}).status_code == 201
    assert client.get(f"/tournaments/{tournament.pk}/standings/").status_code == 200


# --- page forms with NUL characters ---------------------------------------------------


def _messages(response):
    return [str(m) for m in response.context["messages"]]


def test_drop_with_nul_in_the_reason_is_a_form_error(client, organiser, tournament, make_player):
    (registration,) = _register_one(tournament, make_player, organiser)
    client.force_login(organiser)
    response = client.post(
        f"/tournaments/{tournament.pk}/registrations/{registration.pk}/drop/",
        {"reason": "ill\x00"},
        follow=True,
    )
    assert response.status_code == 200
    assert any("Null characters are not allowed" in m for m in _messages(response))
    registration.refresh_from_db()
    assert not registration.dropped
    assert not AuditEntry.objects.filter(action="registration.dropped").exists()


def test_clock_actions_with_nul_in_the_reason_are_form_errors(client, make_running_round, judge):
    round_ = make_running_round()
    match = round_.matches.order_by("table").first()
    client.force_login(judge)
    for action in ("extend", "pause"):
        response = client.post(
            f"/tournaments/{round_.tournament_id}/matches/{match.pk}/clock/",
            {"action": action, "minutes": "3", "reason": "call\x00"},
            follow=True,
        )
        assert response.status_code == 200
        assert any("Null characters" in m for m in _messages(response))
    response = client.post(
        f"/tournaments/{round_.tournament_id}/matches/{match.pk}/clock/",
        {"action": "extend", "minutes": "²", "reason": "judge call"},
        follow=True,
    )
    assert any("whole number" in m for m in _messages(response))
    response = client.post(
        f"/tournaments/{round_.tournament_id}/rounds/{round_.number}/clock/pause/",
        {"reason": "x\x00"},
        follow=True,
    )
    assert any("Null characters" in m for m in _messages(response))
    match.refresh_from_db()
    round_.refresh_from_db()
    assert match.extension == datetime.timedelta(0)
    assert not AuditEntry.objects.filter(action__startswith="clock.").exists()


# --- deleting players -----------------------------------------------------------------


def _register_one(tournament, make_player, organiser, valid=None):
    from players import services as player_services
    from tests.conftest import VALID_PLAYING

    player = make_player("Reggie")
    dice_set = player_services.create_dice_set(
        player=player, name="Main", playing_dice=[dict(d) for d in VALID_PLAYING]
    )
    return [
        services.register(tournament=tournament, player=player, dice_set=dice_set, by=organiser)
    ]


def test_deleting_a_registered_player_is_400_and_keeps_them(organiser, tournament, make_player):
    (registration,) = _register_one(tournament, make_player, organiser)
    response = api_as(organiser).delete(f"/api/players/{registration.player_id}/")
    assert response.status_code == 400
    assert "registered in a tournament" in response.json()["detail"]
    assert Player.objects.filter(pk=registration.player_id).exists()
    assert Registration.objects.filter(pk=registration.pk).exists()


def test_deleting_an_unregistered_player_works(organiser, make_player, valid_playing):
    player = make_player("Gone")
    DiceSet.objects.create(player=player, name="A", playing_dice=valid_playing)
    assert api_as(organiser).delete(f"/api/players/{player.pk}/").status_code == 204
    assert not Player.objects.filter(pk=player.pk).exists()
    assert api_as(organiser).delete(f"/api/players/{player.pk}/").status_code == 404


def test_unexpected_errors_are_a_500_without_internals(organiser, monkeypatch, caplog):
    from players import api as players_api

    def broken(**kwargs):
        raise RuntimeError("secret internals: SELECT * FROM auth_user")

    monkeypatch.setattr(players_api.services, "create_player", broken)
    response = api_as(organiser).post("/api/players/", {"display_name": "X"}, format="json")
    assert response.status_code == 500
    body = json.dumps(response.json())
    assert "secret" not in body and "SELECT" not in body and "nothing was changed" in body
    assert any("secret internals" in (r.exc_text or str(r.exc_info)) for r in caplog.records)


def test_an_api_address_that_names_nothing_is_a_json_404(api):
    response = api.get("/api/rounds/2.69e-272/")
    assert response.status_code == 404 and response["Content-Type"] == "application/json"
    assert "no API address" in response.json()["detail"]
    assert api.get("/api/schema/").status_code == 200
    assert api.get("/api/players").status_code == 301  # a missing slash is still added


def test_a_write_to_an_api_address_that_names_nothing_is_a_json_404(organiser):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(organiser)
    for method in (client.post, client.delete):
        response = method("/api/players/-1.5e-167/")
        assert response.status_code == 404 and response["Content-Type"] == "application/json"


def test_a_multipart_body_without_named_fields_is_400(organiser, tournament, make_player):
    (registration,) = _register_one(tournament, make_player, organiser)
    client = api_as(organiser)
    url = f"/api/registrations/{registration.pk}/drop/"
    body = b"--b0undary\r\n-40--b0undary--\r\n"
    response = client.post(url, body, content_type="multipart/form-data; boundary=b0undary")
    assert response.status_code == 400 and "no named field" in response.json()["detail"]
    registration.refresh_from_db()
    assert not registration.dropped
    # An empty form (the closing delimiter alone) is still an empty form.
    assert client.post(url, {}, format="multipart").status_code == 200


@pytest.mark.parametrize("form_format", ["multipart", "urlencoded"])
def test_a_form_field_given_twice_is_400_and_changes_nothing(
    organiser, tournament, make_player, form_format
):
    """Django keeps the last of repeated values; the API refuses to guess instead."""
    (registration,) = _register_one(tournament, make_player, organiser)
    client = api_as(organiser)
    url = f"/api/registrations/{registration.pk}/drop/"
    reasons = {"reason": ["left early", "[null, []]"]}
    if form_format == "multipart":
        response = client.post(url, reasons, format="multipart")
    else:
        body = "reason=left+early&reason=%5Bnull%5D"
        response = client.post(url, body, content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400
    assert "“reason” is given 2 times" in response.json()["detail"]
    registration.refresh_from_db()
    assert not registration.dropped


def test_a_list_field_may_repeat_in_a_form(organiser, tournament):
    order = ["match_points", "opponents_match_win"]
    response = api_as(organiser).patch(
        f"/api/tournaments/{tournament.pk}/", {"tiebreakers": order}, format="multipart"
    )
    assert response.status_code == 200, response.json()
    tournament.refresh_from_db()
    assert tournament.tiebreakers == order


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"conceded_by": "x"}, "Select a valid choice. x is not one of the available choices."),
        ({"note": "n" * 301}, "Ensure this value has at most 300 characters (it has 301)."),
        ({"expected_version": "abc"}, "This form is out of date: reload the page"),
        ({"expected_version": None}, "This form is out of date: reload the page"),
    ],
)
def test_a_result_form_refused_on_any_field_says_why(
    client, make_running_round, judge, change, words
):
    """Every field of the result form shows its own refusal (the concession, the note, the
    page's hidden version), on the player's and on the judge's page; nothing is recorded."""
    round_ = make_running_round(4)
    match = round_.matches.select_related("player_a__player__user").first()
    report = {"action": "report", "game_1": "a", "game_2": "a", "expected_version": match.version}
    report = {key: value for key, value in {**report, **change}.items() if value is not None}
    pages = [
        (match.player_a.player.user, f"/tournaments/{round_.tournament_id}/my-match/"),
        (judge, f"/tournaments/{round_.tournament_id}/matches/{match.pk}/"),
    ]
    for user, path in pages:
        client.force_login(user)
        response = client.post(path, report)
        assert response.status_code == 200, path
        assert words in response.content.decode(), path
    assert not ResultSubmission.objects.exists()
    match.refresh_from_db()
    assert match.status == match.Status.PENDING and match.version == 0
