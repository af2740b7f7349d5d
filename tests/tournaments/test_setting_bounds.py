"""Every time limit and count of a tournament has a lowest and a highest value, enforced
by the API's serializer, the settings form and the model (services), with one message.

match_minutes 10-240, game_minutes 5-120 (and not above match_minutes), swiss_rounds
1-20 (or empty: from the field), top_cut_size one of 0, 2, 4, 8, 16, 32; a judge's
extension 1-60 minutes at a time and 120 minutes in all for one match.
"""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tests.conftest import api_as
from tournaments import clocks, services
from tournaments.models import AuditEntry, Tournament

pytestmark = pytest.mark.django_db

MESSAGES = {
    "match_minutes": "The match time limit is between 10 and 240 minutes.",
    "game_minutes": "The game time limit is between 5 and 120 minutes.",
    "swiss_rounds": "The number of Swiss rounds is between 1 and 20 rounds.",
}

# (setting, value, accepted): just below, at and just above each end, and the probe's 0.
CASES = [
    ("match_minutes", 0, False),
    ("match_minutes", 9, False),
    ("match_minutes", 10, True),
    ("match_minutes", 11, True),
    ("match_minutes", 239, True),
    ("match_minutes", 240, True),
    ("match_minutes", 241, False),
    ("game_minutes", 0, False),
    ("game_minutes", 4, False),
    ("game_minutes", 5, True),
    ("game_minutes", 6, True),
    ("game_minutes", 119, True),
    ("game_minutes", 120, True),
    ("game_minutes", 121, False),
    ("swiss_rounds", 0, False),
    ("swiss_rounds", 1, True),
    ("swiss_rounds", 2, True),
    ("swiss_rounds", 19, True),
    ("swiss_rounds", 20, True),
    ("swiss_rounds", 21, False),
]
CASE_IDS = [f"{setting}={value}" for setting, value, _ in CASES]


def settings_with(setting, value) -> dict:
    """The setting under test; the other limit out of its way (a game limit cannot be
    longer than the match limit)."""
    values = {"match_minutes": 240, "game_minutes": 5}
    values[setting] = value
    return values


@pytest.mark.parametrize("setting,value,accepted", CASES, ids=CASE_IDS)
def test_the_service_and_model_enforce_the_bounds(organiser, setting, value, accepted):
    create = lambda: services.create_tournament(  # noqa: E731
        organiser=organiser,
        name="Bounded",
        date=datetime.date(2027, 1, 9),
        **settings_with(setting, value),
    )
    if accepted:
        assert getattr(create(), setting) == value
    else:
        with pytest.raises(ValidationError) as refused:
            create()
        assert refused.value.message_dict[setting] == [MESSAGES[setting]]
        assert not Tournament.objects.exists()


@pytest.mark.parametrize("setting,value,accepted", CASES, ids=CASE_IDS)
def test_the_service_refuses_an_update_out_of_bounds(
    tournament, organiser, setting, value, accepted
):
    services.update_tournament(
        tournament=tournament, by=organiser, match_minutes=240, game_minutes=5
    )
    changes = {setting: value}
    if accepted:
        services.update_tournament(tournament=tournament, by=organiser, **changes)
        tournament.refresh_from_db()
        assert getattr(tournament, setting) == value
    else:
        before = AuditEntry.objects.count()
        with pytest.raises(ValidationError) as refused:
            services.update_tournament(tournament=tournament, by=organiser, **changes)
        assert refused.value.message_dict[setting] == [MESSAGES[setting]]
        assert AuditEntry.objects.count() == before


@pytest.mark.parametrize("setting,value,accepted", CASES, ids=CASE_IDS)
def test_the_api_enforces_the_bounds(organiser, tournament, setting, value, accepted):
    client = api_as(organiser)
    body = {"name": "Bounded", "date": "2027-01-09", **settings_with(setting, value)}
    created = client.post("/api/tournaments/", body, format="json")
    patch = client.patch(
        f"/api/tournaments/{tournament.pk}/", settings_with(setting, value), format="json"
    )
    if accepted:
        assert created.status_code == 201 and created.json()[setting] == value
        assert patch.status_code == 200 and patch.json()[setting] == value
    else:
        for response in (created, patch):
            assert response.status_code == 400
            assert response.json()["errors"][setting] == [MESSAGES[setting]]
        tournament.refresh_from_db()
        assert (tournament.match_minutes, tournament.game_minutes, tournament.swiss_rounds) == (
            45,
            20,
            None,
        )
        assert Tournament.objects.count() == 1


@pytest.mark.parametrize("setting,value,accepted", CASES, ids=CASE_IDS)
def test_the_settings_form_enforces_the_bounds(client, organiser, setting, value, accepted):
    client.force_login(organiser)
    data = {
        "name": "Bounded",
        "date": "2027-01-09",
        "top_cut_size": 8,
        "late_entry": "losses",
        "percentage_floor": "1/3",
        **settings_with(setting, value),
    }
    response = client.post(reverse("tournaments:create"), data)
    if accepted:
        assert response.status_code == 302
        assert getattr(Tournament.objects.get(), setting) == value
    else:
        assert response.status_code == 200
        assert response.context["form"].errors[setting] == [MESSAGES[setting]]
        assert not Tournament.objects.exists()
    page = client.get(reverse("tournaments:create")).content.decode()
    assert 'name="match_minutes" min="10" max="240"' in page.replace('value="45" ', "")


GAME_OVER_MATCH = "The game time limit (31 minutes) cannot be longer than the match time limit"


def test_a_game_limit_longer_than_the_match_limit_is_refused_everywhere(
    client, organiser, tournament
):
    with pytest.raises(ValidationError, match=r"cannot be longer than the match time limit"):
        services.update_tournament(
            tournament=tournament, by=organiser, match_minutes=30, game_minutes=31
        )
    response = api_as(organiser).patch(
        f"/api/tournaments/{tournament.pk}/", {"match_minutes": 30, "game_minutes": 31}
    )
    assert response.status_code == 400
    assert GAME_OVER_MATCH in response.json()["errors"]["game_minutes"][0]
    lowered = api_as(organiser).patch(f"/api/tournaments/{tournament.pk}/", {"match_minutes": 19})
    assert lowered.status_code == 400 and "game_minutes" in lowered.json()["errors"]
    equal = api_as(organiser).patch(
        f"/api/tournaments/{tournament.pk}/", {"match_minutes": 30, "game_minutes": 30}
    )
    assert equal.status_code == 200
    client.force_login(organiser)
    form = client.post(
        reverse("tournaments:create"),
        {
            "name": "Bounded",
            "date": "2027-01-09",
            "top_cut_size": 8,
            "late_entry": "losses",
            "percentage_floor": "1/3",
            "match_minutes": 30,
            "game_minutes": 31,
        },
    )
    assert form.status_code == 200
    assert GAME_OVER_MATCH in form.context["form"].errors["game_minutes"][0]


@pytest.mark.parametrize(
    "size,accepted", [(0, True), (2, True), (3, False), (31, False), (32, True), (33, False)]
)
def test_top_cut_sizes_are_the_bracket_sizes(organiser, tournament, size, accepted):
    response = api_as(organiser).patch(
        f"/api/tournaments/{tournament.pk}/", {"top_cut_size": size}, format="json"
    )
    assert response.status_code == (200 if accepted else 400)
    with_service = lambda: services.update_tournament(  # noqa: E731
        tournament=tournament, by=organiser, top_cut_size=size
    )
    if accepted:
        with_service()
    else:
        with pytest.raises(ValidationError, match="not a valid choice"):
            with_service()


@pytest.fixture
def running_match(make_running_round):
    return make_running_round(4).matches.get(table=1)


@pytest.mark.parametrize("minutes,accepted", [(0, False), (1, True), (60, True), (61, False)])
def test_one_extension_is_1_to_60_minutes(running_match, judge, minutes, accepted):
    response = api_as(judge).post(
        f"/api/matches/{running_match.pk}/clock/extend/",
        {"minutes": minutes, "reason": "judge call"},
        format="json",
    )
    assert response.status_code == (200 if accepted else 400)
    if not accepted:
        assert response.json()["errors"]["minutes"] == ["An extension is between 1 and 60 minutes."]
        with pytest.raises(ValidationError, match="between 1 and 60 minutes"):
            clocks.extend_match(match=running_match, minutes=minutes, reason="x", by=judge)


def test_extensions_add_up_to_at_most_120_minutes(running_match, judge):
    client = api_as(judge)
    extend = lambda minutes: client.post(  # noqa: E731
        f"/api/matches/{running_match.pk}/clock/extend/",
        {"minutes": minutes, "reason": "judge call"},
        format="json",
    )
    assert extend(60).status_code == 200 and extend(59).status_code == 200
    too_much = extend(2)
    assert too_much.status_code == 400
    assert too_much.json()["errors"]["minutes"] == [
        "A match's extensions add up to at most 120 minutes; this match has 119 already, "
        "so at most 1 more."
    ]
    assert extend(1).status_code == 200  # exactly 120 in all
    assert extend(1).status_code == 400
    running_match.refresh_from_db()
    assert running_match.extension == datetime.timedelta(minutes=120)
