"""A tournament's tiebreaker order beyond the MTR set: validated when written (service,
API, settings form) with the valid names in the message, and shown on the standings page
and API only when chosen."""

import json
import random

import pytest
from django.core.exceptions import ValidationError

from tests.conftest import api_as
from tests.tournaments.conftest import play_round_by_judge
from tournaments import selectors, services
from tournaments.models import Tournament
from tournaments.standings import tiebreaker_names

pytestmark = pytest.mark.django_db

BAD_ORDERS = [["match_points", "luck"], ["buchholz", "buchholz"], ["random", "Random"]]


def names_every_choice(messages) -> bool:
    text = " ".join(messages)
    return all(name in text for name in tiebreaker_names())


@pytest.mark.parametrize("order", BAD_ORDERS)
def test_the_service_refuses_a_bad_order_naming_the_choices(tournament, organiser, order):
    with pytest.raises(ValidationError) as caught:
        services.update_tournament(tournament=tournament, by=organiser, tiebreakers=order)
    assert names_every_choice(caught.value.message_dict["tiebreakers"])
    tournament.refresh_from_db()
    assert tournament.tiebreakers == []


@pytest.mark.parametrize("order", BAD_ORDERS)
def test_the_api_answers_400_naming_the_choices(tournament, organiser, order):
    client = api_as(organiser)
    response = client.patch(
        f"/api/tournaments/{tournament.pk}/", {"tiebreakers": order}, format="json"
    )
    assert response.status_code == 400, response.content
    errors = response.json()["errors"]["tiebreakers"]
    assert names_every_choice([json.dumps(errors)])
    created = client.post(
        "/api/tournaments/",
        {"name": "TB", "date": "2027-01-01", "tiebreakers": order},
        format="json",
    )
    assert created.status_code == 400
    assert not Tournament.objects.filter(name="TB").exists()


def test_the_api_keeps_an_order_with_the_new_systems(tournament, organiser):
    order = ["match_points", "head_to_head", "buchholz", "sonneborn_berger", "random"]
    response = api_as(organiser).patch(
        f"/api/tournaments/{tournament.pk}/", {"tiebreakers": order}, format="json"
    )
    assert response.status_code == 200 and response.json()["tiebreakers"] == order


def edit_form_data(client, tournament, tiebreakers):
    form = client.get(f"/tournaments/{tournament.pk}/edit/").context["form"]
    data = {k: v for k, v in form.initial.items() if v is not None}
    data.update(floor_judges=[], publish_pairings="on", publish_results="on")
    data["publish_standings"] = "on"
    data["tiebreakers"] = tiebreakers
    return data


def test_the_settings_form_takes_names_separated_by_commas(client, tournament, organiser):
    client.force_login(organiser)
    data = edit_form_data(client, tournament, " match_points, cumulative_score ,random")
    response = client.post(f"/tournaments/{tournament.pk}/edit/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    tournament.refresh_from_db()
    assert tournament.tiebreakers == ["match_points", "cumulative_score", "random"]
    form = client.get(f"/tournaments/{tournament.pk}/edit/").context["form"]
    assert form.initial["tiebreakers"] == "match_points, cumulative_score, random"


@pytest.mark.parametrize("text", ["match_points, luck", "buchholz, buchholz"])
def test_the_settings_form_shows_an_error_naming_the_choices(client, tournament, organiser, text):
    client.force_login(organiser)
    response = client.post(
        f"/tournaments/{tournament.pk}/edit/", edit_form_data(client, tournament, text)
    )
    assert response.status_code == 200
    errors = response.context["form"].errors["tiebreakers"]
    assert names_every_choice(errors)
    tournament.refresh_from_db()
    assert tournament.tiebreakers == []


@pytest.fixture
def played_event(tournament, register_players, organiser, judge):
    register_players(tournament, 6)
    rng = random.Random(3)
    for _ in range(2):
        round_ = services.pair_next_round(tournament=tournament, by=organiser, seed="t")
        services.publish_round(round_=round_, by=organiser)
        play_round_by_judge(round_, judge, rng)
        services.close_round(round_=round_, by=organiser)
    return tournament


def test_standings_show_the_new_figures_only_when_chosen(client, played_event, organiser):
    url = f"/api/tournaments/{played_event.pk}/standings/"
    client.force_login(organiser)
    rows = client.get(url).json()["rows"]
    assert rows and all("tiebreak_values" not in row for row in rows)
    page = client.get(f"/tournaments/{played_event.pk}/standings/").content.decode()
    assert "Buchholz" not in page
    csv_url = f"/api/tournaments/{played_event.pk}/standings/csv/"
    assert client.get(csv_url).content.decode().splitlines()[0].endswith(",ogw_percent")

    order = ["match_points", "buchholz", "opponents_opponents_match_win", "random"]
    services.update_tournament(tournament=played_event, by=organiser, tiebreakers=order)
    played_event.refresh_from_db()
    table = selectors.standings(played_event)
    answer = client.get(url).json()
    assert answer["tiebreakers"] == order
    for row in answer["rows"]:
        expected = table.row(row["registration"]).tiebreak_values
        assert row["tiebreak_values"] == {name: str(value) for name, value in expected.items()}
    # The random draw stays level with what the same tournament drew before.
    assert [r.player_id for r in selectors.standings(played_event)] == [r.player_id for r in table]
    assert [r.rank for r in table] == list(range(1, len(table) + 1))
    page = client.get(f"/tournaments/{played_event.pk}/standings/").content.decode()
    assert "<th>Buchholz</th><th>OOMW</th><th>Random draw</th>" in page
    first = table.rows[0]
    assert f"<td>{first.tiebreak_values['buchholz']}</td>" in page
    # A phone shows the same figure, named, under the player's name.
    assert f" · Buchholz {first.tiebreak_values['buchholz']} · OOMW " in page
    csv_text = client.get(csv_url).content.decode()
    header, top = csv_text.splitlines()[:2]
    assert header.endswith(",ogw_percent," + ",".join(order[1:]))
    assert top.endswith(",".join(str(first.tiebreak_values[name]) for name in order[1:]))


def test_the_admin_refuses_a_bad_order_too(admin_client, tournament, organiser):
    form = {
        "name": tournament.name,
        "date": tournament.date.isoformat(),
        "venue": "",
        "organiser": organiser.pk,
        "status": tournament.status,
        "top_cut_size": tournament.top_cut_size,
        "match_minutes": tournament.match_minutes,
        "team_size": tournament.team_size,
        "game_minutes": tournament.game_minutes,
        "pod_mode": tournament.pod_mode,
        "late_entry": tournament.late_entry,
        "percentage_floor": tournament.percentage_floor,
        "tiebreakers": '["match_points", "luck"]',
        "top_cut_seeds": "[]",
        "bracket_losers": tournament.bracket_losers,
        "game_draw_points": tournament.game_draw_points,
        "floor_own_game_win": "on",
        "no_opponents_value": "",
        "no_games_game_win": "",
        "bye_counting": tournament.bye_counting,
        "standings_decimals": tournament.standings_decimals,
        "swiss_phases": "[]",
        "round_one_seeding": "random",
    }
    url = f"/admin/tournaments/tournament/{tournament.pk}/change/"
    refused = admin_client.post(url, form)
    assert refused.status_code == 200
    assert names_every_choice(refused.context["adminform"].form.errors["tiebreakers"])
    form["tiebreakers"] = '["match_points", "cut1_buchholz"]'
    assert admin_client.post(url, form).status_code == 302
    tournament.refresh_from_db()
    assert tournament.tiebreakers == ["match_points", "cut1_buchholz"]
