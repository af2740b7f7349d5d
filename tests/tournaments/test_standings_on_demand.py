"""A row's arithmetic on demand: the standings page and API list the rows without it,
and one row's page, one row's API answer and ``?explain=1`` give exactly what
``Standings.explain`` computes. Every standings read takes a number of queries that
does not grow with the event."""

import datetime
import html
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from players.models import Player
from tests.tournaments.conftest import play_round_by_judge
from tournaments import selectors, services
from tournaments.models import Registration, Tournament

pytestmark = pytest.mark.django_db


def play(tournament, organiser, judge, rounds, seed=5):
    rng = random.Random(seed)
    for _ in range(rounds):
        round_ = services.pair_next_round(tournament=tournament, by=organiser)
        services.publish_round(round_=round_, by=organiser)
        play_round_by_judge(round_, judge, rng)
        services.close_round(round_=round_, by=organiser)
    tournament.refresh_from_db()
    return tournament


@pytest.fixture
def event(tournament, organiser, judge, register_players):
    registrations = register_players(tournament, 7)
    play(tournament, organiser, judge, 2)
    services.drop(registration=registrations[1], by=organiser, reason="left")
    play(tournament, organiser, judge, 1, seed=6)
    return tournament


def page_url(tournament, tail=""):
    return f"/tournaments/{tournament.pk}/standings/{tail}"


def api_url(tournament, tail=""):
    return f"/api/tournaments/{tournament.pk}/standings/{tail}"


def test_each_row_explained_on_demand_as_computed(event, client):
    table = selectors.standings(event)
    places = table.conventions.decimals - 2
    api = APIClient()
    listed = api.get(api_url(event)).json()["rows"]
    explained = api.get(api_url(event, "?explain=1")).json()["rows"]
    assert [row["registration"] for row in listed] == [row.player_id for row in table]
    assert all("explanation" not in row for row in listed)
    body = client.get(page_url(event)).content.decode()
    assert "OMW = " not in body
    for row, plain, full in zip(table, listed, explained, strict=True):
        explanation = table.explain(row.player_id)
        lines = explanation.lines(places)
        assert full["explanation"]["lines"] == lines
        assert [line["registration"] for line in full["explanation"]["opponents"]] == [
            line.opponent_id for line in explanation.opponents
        ]
        assert {**full, "explanation": None} == {**plain, "explanation": None}
        one = api.get(api_url(event, f"{row.player_id}/"))
        assert one.status_code == 200 and one.json() == full
        page = client.get(page_url(event, f"{row.player_id}/"))
        assert page.status_code == 200
        text = page.content.decode()
        assert all(f"<li>{html.escape(line)}</li>" in text for line in lines)
        assert f'<details data-row="{row.player_id}">' in body


def test_a_row_as_of_an_earlier_round(event, client):
    table = selectors.standings(event, as_of_round=1)
    row = table.rows[0]
    lines = table.explain(row.player_id).lines()
    answer = APIClient().get(api_url(event, f"{row.player_id}/?round=1")).json()
    assert answer["explanation"]["lines"] == lines and answer["rank"] == row.rank
    page = client.get(page_url(event, f"{row.player_id}/?round=1")).content.decode()
    assert all(html.escape(line) in page for line in lines)
    # The table after round 1 links each row to its arithmetic after round 1.
    body = client.get(page_url(event, "?round=1")).content.decode()
    assert f'href="{page_url(event, f"{row.player_id}/?round=1")}"' in body
    assert 'data-query="?round=1"' in body


def test_bad_requests_change_nothing_and_say_why(event, client):
    api = APIClient()
    row = selectors.standings(event).rows[0].player_id
    refused = api.get(api_url(event, "?explain=maybe"))
    assert refused.status_code == 400 and "explain" in refused.json()["errors"]
    assert api.get(api_url(event, f"{row}/?round=9")).status_code == 400
    assert client.get(page_url(event, f"{row}/?round=9")).status_code == 400
    other = services.create_tournament(
        organiser=event.organiser, name="Other", date=datetime.date(2026, 12, 6)
    )
    for tournament in (event, other):
        assert api.get(api_url(tournament, "999999/")).status_code == 404
        assert client.get(page_url(tournament, "999999/")).status_code == 404
    assert api.get(api_url(other, f"{row}/")).status_code == 404
    assert api.get(api_url(event, f"{'9' * 5000}/")).status_code == 404


def test_hidden_standings_hide_every_row(event, client, judge):
    Tournament.objects.filter(pk=event.pk).update(publish_standings=False)
    row = selectors.standings(event).rows[0].player_id
    assert client.get(page_url(event)).status_code == 403
    assert client.get(page_url(event, f"{row}/")).status_code == 403
    hidden = APIClient().get(api_url(event, f"{row}/"))
    assert hidden.status_code == 404 and "not made the standings public" in hidden.json()["detail"]
    staff = APIClient()
    staff.force_authenticate(judge)
    assert staff.get(api_url(event, f"{row}/")).status_code == 200
    client.force_login(judge)
    assert client.get(page_url(event, f"{row}/")).status_code == 200


def test_names_are_escaped_in_the_rows(event, client):
    registration = event.registrations.select_related("player").first()
    player = registration.player
    player.display_name = '<b>Bold & "x"</b>'
    player.save()
    body = client.get(page_url(event)).content.decode()
    assert "<b>Bold" not in body
    assert "&lt;b&gt;Bold &amp; &quot;x&quot;&lt;/b&gt;" in body
    page = client.get(page_url(event, f"{registration.pk}/")).content.decode()
    assert "<b>Bold" not in page


def _queries(client, address) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(address)
    assert response.status_code == 200, address
    return len(queries)


def test_every_standings_read_takes_a_constant_number_of_queries(
    event, organiser, judge, register_players, client
):
    bigger = services.create_tournament(
        organiser=organiser,
        name="Bigger Open",
        date=datetime.date(2026, 12, 6),
        head_judge=judge,
    )
    services.change_status(tournament=bigger, to=Tournament.Status.REGISTRATION, by=organiser)
    register_players(bigger, 16, prefix="Bigger")
    play(bigger, organiser, judge, 4)
    api = APIClient()
    counts = {}
    for tournament in (event, bigger):
        row = selectors.standings(tournament).rows[-1].player_id
        counts[tournament.pk] = {
            "page": _queries(client, page_url(tournament)),
            "page, round 1": _queries(client, page_url(tournament, "?round=1")),
            "row page": _queries(client, page_url(tournament, f"{row}/")),
            "CSV": _queries(client, f"/tournaments/{tournament.pk}/standings.csv"),
            "API": _queries(api, api_url(tournament)),
            "API explained": _queries(api, api_url(tournament, "?explain=1")),
            "row API": _queries(api, api_url(tournament, f"{row}/")),
        }
    assert counts[event.pk] == counts[bigger.pk]
    # The tournament, its Swiss rounds (read once for the page), registrations, results.
    assert counts[event.pk]["page"] == 4 and counts[event.pk]["row page"] == 4


def test_the_finished_event_page_computes_the_standings_once(event, organiser, client):
    Tournament.objects.filter(pk=event.pk).update(status=Tournament.Status.FINISHED)
    finished = _queries(client, page_url(event))
    Tournament.objects.filter(pk=event.pk).update(status=Tournament.Status.SWISS)
    swiss = _queries(client, page_url(event))
    # Placings add the disqualified players only (and the bracket when there is one).
    assert finished == swiss + 1


def test_the_pages_read_byes_and_missed_rounds_by_the_events_match_format(event, client):
    # Best of one: a bye is won 1-0 and a missed round lost 0-1, on the pages (results
    # read as plain values) as everywhere else (results read as models).
    Tournament.objects.filter(pk=event.pk).update(
        games_to_win=1, late_entry=Tournament.LateEntry.LOSSES
    )
    # A walk-in who joined in round 4 (none played yet): rounds 1-3 missed.
    late = Registration.objects.create(
        tournament=event,
        player=Player.objects.create(display_name="Late Comer"),
        playing_dice=[],
        late_entry_round=4,
    )
    event.refresh_from_db()
    registrations = list(event.registrations.select_related("player"))
    plain = selectors.standings(event)
    from_models = selectors.standings(
        event, registrations=registrations, matches=selectors._swiss_matches(event)
    )
    assert plain.rows == from_models.rows
    records = selectors._standings_input(event)[1]
    byes = [record for record in records if record.player_b is None and record.games_won_a]
    assert byes and {(record.games_won_a, record.games_won_b) for record in byes} == {(1, 0)}
    missed = [record for record in records if record.player_b is None and record.match_loss_a]
    assert [(r.round_number, r.player_a, r.games_won_b) for r in missed] == [
        (1, late.pk, 1),
        (2, late.pk, 1),
        (3, late.pk, 1),
    ]
    body = client.get(page_url(event)).content.decode()
    assert f'<details data-row="{late.pk}">' in body
