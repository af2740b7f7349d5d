"""Final placings of a finished event through the API, the page and the CSV, the
bracket_losers setting, and the Swiss standings left untouched by the top cut."""

import csv
import io
import random

import pytest
from django.urls import reverse

from tests.conftest import api_as
from tests.tournaments.conftest import play_round_by_judge
from tournaments import selectors, services
from tournaments.models import Match, Round, Tournament

pytestmark = pytest.mark.django_db


def play_swiss(tournament, organiser, judge, rng, registrations):
    """Three Swiss rounds of ten; one player drops after round 1, one is disqualified
    after round 3."""
    for number in (1, 2, 3):
        round_ = services.pair_next_round(tournament=tournament, by=organiser)
        services.publish_round(round_=round_, by=organiser)
        services.start_round(round_=round_, by=judge)
        play_round_by_judge(round_, judge, rng)
        services.close_round(round_=round_, by=organiser)
        if number == 1:
            leaving = registrations[9]
            services.drop(registration=leaving, by=leaving.player.user, reason="went home")
    services.give_penalty(
        registration=registrations[8], kind="disqualification", reason="cheating", by=judge
    )


def play_top_cut(tournament, organiser, judge, rng):
    while tournament.status == Tournament.Status.TOP_CUT:
        current = tournament.rounds.order_by("-number").first()
        services.publish_round(round_=current, by=organiser)
        services.start_round(round_=current, by=judge)
        play_round_by_judge(current, judge, rng)
        services.close_round(round_=current, by=organiser)
        tournament.refresh_from_db()


@pytest.fixture
def event(tournament, register_players, organiser, judge):
    """A top 4 after three Swiss rounds of ten players, the cut not yet started."""
    services.update_tournament(tournament=tournament, by=organiser, swiss_rounds=3, top_cut_size=4)
    registrations = register_players(tournament, 10)
    rng = random.Random(13)
    play_swiss(tournament, organiser, judge, rng, registrations)
    tournament.refresh_from_db()
    return tournament, registrations, rng


def expected_placings(tournament, bracket_losers):
    """Written from the bracket and the standings, independently of tournaments.placings."""
    bracket = selectors.bracket(tournament)
    final, semifinals = bracket.rounds[-1].matches[0], bracket.rounds[0].matches
    semifinal_losers = sorted((m.loser for m in semifinals), key=bracket.seed_of)
    shared = bracket_losers == "shared"
    top = [(final.winner, 1), (final.loser, 2)] + [
        (loser, 3 if shared else 3 + i) for i, loser in enumerate(semifinal_losers)
    ]
    disqualified = tournament.registrations.get(disqualified=True).pk
    table = selectors.standings(tournament)
    below = [
        row.player_id
        for row in table
        if row.player_id not in bracket.seeds and row.player_id != disqualified
    ]
    rest = [(player, 5 + i) for i, player in enumerate(below)]
    return top + rest + [(disqualified, None)]


@pytest.mark.parametrize("bracket_losers", ["shared", "swiss_order"])
def test_a_finished_event_end_to_end(event, organiser, judge, client, bracket_losers):
    tournament, registrations, rng = event
    organiser_api = api_as(organiser)
    changed = organiser_api.patch(
        f"/api/tournaments/{tournament.pk}/", {"bracket_losers": bracket_losers}
    )
    assert changed.status_code == 200 and changed.json()["bracket_losers"] == bracket_losers

    url = f"/api/tournaments/{tournament.pk}/placings/"
    services.start_top_cut(tournament=tournament, by=organiser)
    tournament.refresh_from_db()
    early = api_as(None).get(url).json()
    assert early["final"] is False and early["rows"] == []
    assert api_as(None).get(url + "csv/").status_code == 404

    play_top_cut(tournament, organiser, judge, rng)
    assert tournament.status == Tournament.Status.FINISHED
    answer = api_as(None).get(url).json()
    assert answer["final"] is True and answer["bracket_losers"] == bracket_losers
    expected = expected_placings(tournament, bracket_losers)
    assert [(row["registration"], row["place"]) for row in answer["rows"]] == expected
    assert len(answer["rows"]) == 10
    dropped = registrations[9].pk
    dropped_row = next(row for row in answer["rows"] if row["registration"] == dropped)
    assert dropped_row["dropped"] and dropped_row["place"] is not None
    assert answer["rows"][-1]["disqualified"] and answer["rows"][-1]["stage"] == "disqualified"
    assert [row["finish"] for row in answer["rows"][:2]] == ["Champion", "Final"]
    assert [row["seed"] for row in answer["rows"][:4]] != [None] * 4

    exported = api_as(None).get(url + "csv/")
    lines = list(csv.reader(io.StringIO(exported.content.decode())))
    assert lines[0][:3] == ["place", "name", "registration"]
    assert [(int(line[2]), int(line[0]) if line[0] else None) for line in lines[1:]] == expected

    page = client.get(reverse("tournaments:standings", args=[tournament.pk]))
    assert "Final placings" in page.content.decode()
    assert [line.player_id for line in page.context["placings"]] == [p for p, _ in expected]
    home = client.get(reverse("tournaments:home", args=[tournament.pk])).content.decode()
    assert reverse("tournaments:standings", args=[tournament.pk]) + "#placings" in home
    page_csv = client.get(reverse("tournaments:placings_csv", args=[tournament.pk]))
    assert page_csv.content == exported.content


def test_placings_are_hidden_while_results_are_not_public(event, organiser, judge):
    tournament, _, rng = event
    services.start_top_cut(tournament=tournament, by=organiser)
    tournament.refresh_from_db()
    play_top_cut(tournament, organiser, judge, rng)
    services.update_tournament(tournament=tournament, by=organiser, publish_results=False)
    url = f"/api/tournaments/{tournament.pk}/placings/"
    hidden = api_as(None).get(url).json()
    assert hidden["final"] is False and hidden["rows"] == [] and hidden["detail"]
    assert api_as(judge).get(url).json()["final"] is True


def test_bracket_results_are_never_counted_into_swiss_tiebreakers(event, organiser, judge):
    tournament, _, rng = event
    before = selectors.standings(tournament)
    services.start_top_cut(tournament=tournament, by=organiser)
    tournament.refresh_from_db()
    play_top_cut(tournament, organiser, judge, rng)
    cut_matches = Match.objects.filter(round__tournament=tournament, round__stage="top_cut")
    assert cut_matches.count() == 3
    assert all(m.status == Match.Status.CONFIRMED for m in cut_matches)
    after = selectors.standings(tournament)
    # Every figure, the tiebreakers included, is what it was when the Swiss ended:
    # the top-cut matches add no record, no opponent and no game.
    assert after.rows == before.rows
    for row in after:
        assert row.rounds_played <= 3
    answer = api_as(None).get(f"/api/tournaments/{tournament.pk}/standings/?explain=1").json()
    seeds = set(tournament.top_cut_seeds)
    for row in answer["rows"]:
        if row["registration"] in seeds:
            assert {line["round"] for line in row["explanation"]["opponents"]} <= {1, 2, 3}
    assert not Round.objects.filter(tournament=tournament, stage="top_cut", number__lte=3)


def test_the_setting_is_validated(tournament, organiser, client):
    url = f"/api/tournaments/{tournament.pk}/"
    refused = api_as(organiser).patch(url, {"bracket_losers": "coin_toss"})
    assert refused.status_code == 400 and "bracket_losers" in refused.json()["errors"]
    tournament.refresh_from_db()
    assert tournament.bracket_losers == "shared"
    client.force_login(organiser)
    form = {
        "name": "Placed",
        "date": "2027-01-09",
        "top_cut_size": 8,
        "late_entry": "losses",
        "percentage_floor": "1/3",
        "match_minutes": 45,
        "game_minutes": 20,
    }
    assert client.post(reverse("tournaments:create"), form).status_code == 302
    assert Tournament.objects.get(name="Placed").bracket_losers == "shared"
    bad = client.post(reverse("tournaments:create"), {**form, "bracket_losers": "coin_toss"})
    assert bad.status_code == 200 and "bracket_losers" in bad.context["form"].errors
