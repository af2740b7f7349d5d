"""Events in pods through the API, the CSV and the pages: tables, placings (400 in words,
nothing written), pod standings with ?round=, and constant query counts."""

import csv
import io

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.conftest import api_as
from tests.tournaments.pod_helpers import by_id, make_event, place_all, published
from tournaments import services
from tournaments.models import POD_LATE_ENTRY_REFUSED, PodSeat, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def pod_event(organiser, judge):
    return make_event(organiser, judge, swiss_rounds=3)


@pytest.fixture
def enter(make_player):
    def enter(event, count, prefix="Pod"):
        return [
            services.register(
                tournament=event, player=(p := make_player(f"{prefix} {i:02d}")), by=p.user
            )
            for i in range(count)
        ]

    return enter


def test_the_api_enters_placings_and_refuses_bad_ones_in_words(pod_event, organiser, judge, enter):
    entries = enter(pod_event, 7)
    round_ = published(pod_event, organiser, judge)
    client = api_as(judge)
    body = client.get(f"/api/rounds/{round_.pk}/tables/").json()
    assert body["pods"] is True and [t["size"] for t in body["tables"]] == [4, 3]
    first = body["tables"][0]
    ids = [seat["registration"] for seat in first["seats"]]
    url = f"/api/rounds/{round_.pk}/placings/"
    for payload, words in [
        ({"table": 1, "placings": by_id(ids, [1, 1, 2, 4])}, "does not follow"),
        ({"table": 1, "placings": by_id(ids, [1, 2, 3, 9])}, "from 1 to 4"),
        ({"table": 1, "placings": by_id(ids, [1, 2, 3])}, "every player"),
        ({"table": 9, "placings": by_id(ids, [1, 2, 3, 4])}, "no such table"),
        ({"table": 1, "placings": {**by_id(ids, ["x", 2, 3, 4])}}, "valid integer"),
    ]:
        answer = client.post(url, payload, format="json")
        assert answer.status_code == 400 and words in answer.content.decode(), payload
    assert not PodSeat.objects.filter(placing__isnull=False).exists()
    player = api_as(entries[0].player.user)
    denied = player.post(url, {"table": 1, "placings": by_id(ids, [1, 2, 3, 4])}, format="json")
    assert denied.status_code == 403
    answer = client.post(url, {"table": 1, "placings": by_id(ids, [2, 1, 3, 4])}, format="json")
    assert answer.status_code == 200
    seats = answer.json()["tables"][0]["seats"]
    assert [(s["placing"], s["points"]) for s in seats] == [
        (2, "2"),
        (1, "3"),
        (3, "1"),
        (4, "0"),
    ]


def test_pod_standings_api_round_parameter_and_csv(pod_event, organiser, judge, enter):
    enter(pod_event, 7)
    first = published(pod_event, organiser, judge)
    place_all(first, judge)
    services.close_round(round_=first, by=organiser)
    second = published(pod_event, organiser, judge, seed="s2")
    place_all(second, judge)
    client = api_as(organiser)
    now = client.get(f"/api/tournaments/{pod_event.pk}/pod-standings/").json()
    after_one = client.get(f"/api/tournaments/{pod_event.pk}/pod-standings/?round=1").json()
    assert now["pods"] and now["published"] and after_one["as_of_round"] == 1
    assert sorted(r["tables"] for r in after_one["rows"]) == [1] * 7
    assert sorted(r["tables"] for r in now["rows"]) == [2] * 7
    leader = now["rows"][0]
    assert leader["rank"] == 1 and leader["points"] in ("6", "9/2", "11/2", "5")
    bad = client.get(f"/api/tournaments/{pod_event.pk}/pod-standings/?round=7")
    assert bad.status_code == 400 and "Swiss round played" in bad.content.decode()
    twice = client.get(f"/api/tournaments/{pod_event.pk}/pod-standings/?round=1&round=")
    assert twice.status_code == 400 and "only once" in twice.content.decode()
    response = client.get(f"/api/tournaments/{pod_event.pk}/pod-standings/csv/?round=1")
    assert response.status_code == 200
    lines = list(csv.reader(io.StringIO(response.content.decode())))
    assert lines[0][:4] == ["rank", "player", "registration_id", "points"] and len(lines) == 8
    points = sorted(line[4] for line in lines[1:])
    assert points == sorted(r["points"] for r in after_one["rows"])


def test_a_two_player_event_answers_no_pods(tournament, organiser):
    body = api_as(organiser).get(f"/api/tournaments/{tournament.pk}/pod-standings/").json()
    assert body["pods"] is False and body["rows"] == []
    csv_answer = api_as(organiser).get(f"/api/tournaments/{tournament.pk}/pod-standings/csv/")
    assert csv_answer.status_code == 404
    # a wrong ?round= is refused there too, as on the two-player standings
    wrong = api_as(organiser).get(f"/api/tournaments/{tournament.pk}/pod-standings/?round=x")
    assert wrong.status_code == 400 and "round" in wrong.json()["errors"]


def test_hidden_standings_and_results_stay_hidden(pod_event, organiser, judge, enter, client):
    enter(pod_event, 7)
    round_ = published(pod_event, organiser, judge)
    place_all(round_, judge)
    services.update_tournament(
        tournament=pod_event, by=organiser, publish_standings=False, publish_results=False
    )
    body = client.get(f"/api/tournaments/{pod_event.pk}/pod-standings/").json()
    assert body["published"] is False and body["rows"] == []
    tables = client.get(f"/api/rounds/{round_.pk}/tables/").json()["tables"]
    assert all(s["placing"] is None and s["points"] is None for t in tables for s in t["seats"])


def test_list_answers_take_a_constant_number_of_queries(organiser, judge, enter, client):
    def counts(players, prefix):
        event = make_event(organiser, judge, swiss_rounds=3)
        enter(event, players, prefix)
        first = published(event, organiser, judge)
        place_all(first, judge)
        api = api_as(organiser)
        client.force_login(organiser)
        found = []
        for getter, url in (
            (api, f"/api/rounds/{first.pk}/tables/"),
            (api, f"/api/tournaments/{event.pk}/pod-standings/"),
            (api, f"/api/tournaments/{event.pk}/pod-standings/csv/"),
            (client, reverse("tournaments:pairings", args=[event.pk, 1])),
            (client, reverse("tournaments:standings", args=[event.pk])),
            (client, reverse("tournaments:round_manage", args=[event.pk, 1])),
        ):
            with CaptureQueriesContext(connection) as queries:
                assert getter.get(url).status_code == 200
            found.append(len(queries))
        return found

    assert counts(7, "Small") == counts(23, "Large")


def test_the_pages_show_tables_placings_and_pod_standings(
    pod_event, organiser, judge, enter, client
):
    entries = enter(pod_event, 7)
    round_ = published(pod_event, organiser, judge)
    me = entries[0]
    client.force_login(me.player.user)
    page = client.get(reverse("tournaments:pairings", args=[pod_event.pk, 1])).content.decode()
    my_table = PodSeat.objects.get(registration=me).table.number
    assert f'class="mine" aria-current="true" data-table="{my_table}"' in page
    assert "Your table: <strong" in page and page.count('<ol class="seats">') == 2
    assert all(e.player.display_name in page for e in entries)
    home = client.get(reverse("tournaments:home", args=[pod_event.pk])).content.decode()
    assert "Swiss pods (tables of 4 and 3)" in home
    # The judge's round page: a placings form per table; bad input is shown in words.
    client.force_login(judge)
    manage = reverse("tournaments:round_manage", args=[pod_event.pk, 1])
    manage_page = client.get(manage).content.decode()
    assert manage_page.count('name="table"') == 2
    # How the seating was proved optimal, in words (never the stored code).
    method = round_.pairing_cost["method"]
    assert method not in manage_page and "optimal:" in manage_page, method
    table = round_.pod_tables.first()
    ids = [s.registration_id for s in table.seats.all()]
    url = reverse("tournaments:round_placings", args=[pod_event.pk, 1])
    answer = client.post(
        url,
        {"table": table.number, **{f"place_{i}": p for i, p in zip(ids, "1124", strict=True)}},
        follow=True,
    )
    assert "does not follow the places above it" in answer.content.decode()
    assert not PodSeat.objects.filter(placing__isnull=False).exists()
    answer = client.post(url, {"table": "x"}, follow=True)
    assert "This round has no such table." in answer.content.decode()
    # Several places that are not numbers: the reason is given once.
    answer = client.post(
        url,
        {"table": table.number, **{f"place_{i}": p for i, p in zip(ids, "1ab4", strict=True)}},
        follow=True,
    )
    message = answer.content.decode().split('class="error"', 1)[1].split("</li>", 1)[0]
    assert message.count("Every placing is a whole number from 1 to 4.") == 1, message
    client.post(
        url, {"table": table.number, **{f"place_{i}": p for i, p in zip(ids, "2134", strict=True)}}
    )
    assert [s.placing for s in table.seats.order_by("seat")] == [2, 1, 3, 4]
    client.force_login(me.player.user)
    denied = client.post(url, {"table": table.number, **{f"place_{i}": 1 for i in ids}})
    assert denied.status_code == 403
    # Standings: the table's winner first with 3 points; the CSV as the API's.
    standings = client.get(reverse("tournaments:standings", args=[pod_event.pk])).content.decode()
    winner = table.seats.get(placing=1).registration.player.display_name
    first_row = standings.split("<tbody>")[1].split("</tr>")[0]
    assert winner in first_row and "<td>3</td>" in first_row
    response = client.get(reverse("tournaments:standings_csv", args=[pod_event.pk]))
    assert response.content.decode().splitlines()[0].startswith("rank,player,registration_id")


def test_the_pairings_csv_of_a_pod_round_has_a_line_per_seat(
    pod_event, organiser, judge, enter, client
):
    enter(pod_event, 7)
    round_ = published(pod_event, organiser, judge)
    place_all(round_, judge)
    services.update_tournament(tournament=pod_event, by=organiser, publish_results=False)
    for getter, url, staff in (
        (api_as(organiser), f"/api/tournaments/{pod_event.pk}/pairings/csv/?round=1", True),
        (client, reverse("tournaments:pairings_csv", args=[pod_event.pk, 1]), False),
    ):
        lines = list(csv.reader(io.StringIO(getter.get(url).content.decode())))
        assert lines[0] == [
            "round",
            "table",
            "seat",
            "player",
            "registration_id",
            "points_before",
            "placing",
            "points",
        ]
        assert len(lines) == 8 and {line[1] for line in lines[1:]} == {"1", "2"}
        placings = [line[6] for line in lines[1:]]
        # Seats placed in seat order; the results hidden from the public.
        assert placings == (["1", "2", "3", "4", "1", "2", "3"] if staff else [""] * 7)


def test_the_option_is_refused_in_words_through_the_api_and_the_form(organiser, client):
    api = api_as(organiser)
    answer = api.post(
        "/api/tournaments/",
        {"name": "Pairs", "date": "2026-05-01", "pods": True, "top_cut_size": 0},
        format="json",
    )
    assert answer.status_code == 400
    assert "played by two players at a table" in answer.content.decode()
    answer = api.post(
        "/api/tournaments/",
        {"name": "Dice", "date": "2026-05-01", "game": "36d6", "pods": True, "top_cut_size": 0},
        format="json",
    )
    assert answer.status_code == 201 and answer.json()["pods"] is True
    assert answer.json()["pod_mode"] == "four_three"
    event = answer.json()["id"]
    changed = api.patch(f"/api/tournaments/{event}/", {"top_cut_size": 8}, format="json")
    assert changed.status_code == 400 and "no top cut" in changed.content.decode()
    client.force_login(organiser)
    page = client.post(
        reverse("tournaments:create"),
        {
            "name": "Form pairs",
            "date": "2026-05-02",
            "game": "irondie",
            "pods": "on",
            "top_cut_size": 0,
            "late_entry": "losses",
            "percentage_floor": "1/3",
        },
    )
    assert "played by two players at a table" in page.content.decode()


def test_the_api_keeps_the_one_late_entry_rule_of_pods(organiser, judge):
    """As the form: an event in pods counts missed rounds as not played. Created or switched
    to pods without a rule, it follows that one; another rule is refused in words and
    nothing is stored."""
    client = api_as(organiser)
    base = {"name": "Pods by API", "date": "2027-03-01", "game": "36d6", "pods": True}
    base["top_cut_size"] = 0
    refused = client.post("/api/tournaments/", {**base, "late_entry": "losses"}, format="json")
    assert refused.status_code == 400
    assert "not played" in refused.json()["errors"]["late_entry"][0]
    assert not Tournament.objects.filter(name="Pods by API").exists()
    created = client.post("/api/tournaments/", base, format="json")
    assert created.status_code == 201, created.json()
    assert created.json()["late_entry"] == Tournament.LateEntry.NOTHING
    pair_event = make_event(organiser, judge, pods=False, game="irondie", late_entry="losses")
    url = f"/api/tournaments/{pair_event.pk}/"
    switch = {"pods": True, "game": "36d6", "top_cut_size": 0}
    switched = client.patch(url, switch, format="json")
    assert switched.status_code == 200, switched.json()
    assert switched.json()["late_entry"] == Tournament.LateEntry.NOTHING
    again = client.patch(url, {"late_entry": "losses"}, format="json")
    assert again.status_code == 400
    pair_event.refresh_from_db()
    assert pair_event.late_entry == Tournament.LateEntry.NOTHING


def test_the_service_keeps_the_one_late_entry_rule_of_pods(organiser):
    """The rule lives in the service the form and the API call: an event in pods made in
    code follows it too, and another rule is refused there, nothing stored."""
    pods = {"organiser": organiser, "date": "2027-03-02", "game": "36d6", "pods": True}
    pods["top_cut_size"] = 0
    made = services.create_tournament(name="Pods in code", **pods)
    assert made.late_entry == Tournament.POD_LATE_ENTRY
    with pytest.raises(ValidationError) as refused:
        services.create_tournament(
            name="Pods counting losses", late_entry=Tournament.LateEntry.LOSSES, **pods
        )
    assert refused.value.message_dict["late_entry"] == [str(POD_LATE_ENTRY_REFUSED)]
    assert not Tournament.objects.filter(name="Pods counting losses").exists()
    pairs = services.create_tournament(
        organiser=organiser,
        name="Pairs counting losses",
        date="2027-03-02",
        late_entry=Tournament.LateEntry.LOSSES,
    )
    switched = services.update_tournament(
        tournament=pairs, by=organiser, game="36d6", pods=True, top_cut_size=0
    )
    assert switched.late_entry == Tournament.POD_LATE_ENTRY
    with pytest.raises(ValidationError):
        services.update_tournament(
            tournament=pairs, by=organiser, late_entry=Tournament.LateEntry.LOSSES
        )
    pairs.refresh_from_db()
    assert pairs.late_entry == Tournament.POD_LATE_ENTRY
