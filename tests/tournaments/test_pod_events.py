"""Events in Swiss pods: the option, seating a round at tables through the core, the
judges' placings per table, closing, and the pod standings from the stored seats."""

from fractions import Fraction

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction

from tests.tournaments.pod_helpers import DAY, by_id, make_event, place_all, published
from tournaments import selectors, services
from tournaments.models import AuditEntry, PodSeat, PodTable, Round, Tournament
from tournaments.words import audit_rows

pytestmark = pytest.mark.django_db


@pytest.fixture
def pod_event(organiser, judge):
    return make_event(organiser, judge, swiss_rounds=3)


@pytest.fixture
def enter(make_player):
    def enter(event, count):
        return [
            services.register(
                tournament=event, player=(p := make_player(f"Pod {i:02d}")), by=p.user
            )
            for i in range(count)
        ]

    return enter


# --- the option --------------------------------------------------------------------------------


def test_pods_are_off_by_default_and_refused_for_a_two_seat_game(organiser, judge):
    plain = services.create_tournament(organiser=organiser, name="A", date=DAY, game="36d6")
    assert plain.pods is False and plain.pod_mode == "four_three"
    with pytest.raises(ValidationError) as refused:
        make_event(organiser, judge, game="irondie")
    assert "played by two players at a table" in str(refused.value.message_dict["pods"])
    assert not Tournament.objects.filter(name="Pods").exists()


def test_pods_need_a_table_mode_the_game_seats_and_no_top_cut(organiser, judge):
    with pytest.raises(ValidationError) as refused:
        make_event(organiser, judge, top_cut_size=8)
    assert "no top cut" in str(refused.value.message_dict["top_cut_size"])
    with pytest.raises(ValidationError) as refused:
        make_event(organiser, judge, pod_mode="five")
    assert "pod_mode" in refused.value.message_dict
    event = make_event(organiser, judge, game="dice-forge", pod_mode="three")
    assert event.pods and event.pod_mode == "three"


def test_pods_are_fixed_once_a_round_is_paired(pod_event, organiser, judge, enter):
    services.update_tournament(tournament=pod_event, by=organiser, pod_mode="three")
    services.update_tournament(tournament=pod_event, by=organiser, pod_mode="four_three")
    enter(pod_event, 7)
    services.pair_next_round(tournament=pod_event, by=organiser, seed="x")
    with pytest.raises(ValidationError, match="can no longer change"):
        services.update_tournament(tournament=pod_event, by=organiser, pods=False)
    pod_event.refresh_from_db()
    assert pod_event.pods


# --- seating -----------------------------------------------------------------------------------


def test_a_round_seats_tables_of_four_and_three_with_an_audit_entry(
    pod_event, organiser, judge, enter
):
    entries = enter(pod_event, 11)
    round_ = services.pair_next_round(tournament=pod_event, by=organiser, seed="s1")
    tables = list(round_.pod_tables.prefetch_related("seats"))
    assert [t.size for t in tables] == [4, 4, 3] and [t.number for t in tables] == [1, 2, 3]
    seated = [s.registration_id for t in tables for s in t.seats.all()]
    assert sorted(seated) == sorted(e.pk for e in entries)
    for table in tables:
        assert [s.seat for s in table.seats.all()] == list(range(1, table.size + 1))
    assert not round_.matches.exists()
    assert round_.pairing_cost["method"] in ("lower_bound", "exact", "window")
    entry = AuditEntry.objects.get(action="round.paired", object_id=round_.pk)
    assert entry.after["pods"] is True and entry.after["seed"] == "s1"


def test_the_seating_is_the_cores_for_the_same_seed(pod_event, organiser, enter):
    from tournaments.pairing.pods import pair_pods

    enter(pod_event, 9)
    players = selectors.pod_pairing_players(pod_event, round_number=1)
    expected = pair_pods(players, 1, "abc", "four_three")
    round_ = services.pair_next_round(tournament=pod_event, by=organiser, seed="abc")
    stored = [
        tuple(s.registration_id for s in t.seats.all())
        for t in round_.pod_tables.prefetch_related("seats")
    ]
    assert stored == [t.player_ids for t in expected.tables]


def test_one_seat_per_player_per_round_is_a_constraint(pod_event, organiser, enter):
    enter(pod_event, 7)
    round_ = services.pair_next_round(tournament=pod_event, by=organiser, seed="c")
    first, second = round_.pod_tables.all()[:2]
    taken = first.seats.first()
    with pytest.raises(IntegrityError), transaction.atomic():
        PodSeat.objects.create(
            table=second, round=round_, registration_id=taken.registration_id, seat=9
        )


def test_the_second_round_avoids_repeat_meetings_and_seats_by_points(
    pod_event, organiser, judge, enter
):
    enter(pod_event, 16)  # four tables: round two can seat one from each table together
    first = published(pod_event, organiser, judge)
    place_all(first, judge)
    services.close_round(round_=first, by=organiser)
    second = services.pair_next_round(tournament=pod_event, by=organiser, seed="s2")
    met = {}
    for table in first.pod_tables.prefetch_related("seats"):
        ids = [s.registration_id for s in table.seats.all()]
        for pid in ids:
            met[pid] = set(ids) - {pid}
    for table in second.pod_tables.prefetch_related("seats"):
        ids = [s.registration_id for s in table.seats.all()]
        for pid in ids:
            assert not met[pid] & set(ids)
    assert second.pairing_cost["repeats"] == 0
    # Placed 1st in round one: 3 points each, the four of them at table 1 of round two.
    winners = {s.registration_id for s in PodSeat.objects.filter(round=first, placing=1)}
    top = {s.registration_id for s in PodSeat.objects.filter(table__round=second, table__number=1)}
    assert winners == top


# --- placings ----------------------------------------------------------------------------------


def test_placings_complete_the_round_and_score_by_place(pod_event, organiser, judge, enter):
    enter(pod_event, 7)
    round_ = published(pod_event, organiser, judge)
    four, three = round_.pod_tables.prefetch_related("seats")
    ids4 = [s.registration_id for s in four.seats.all()]
    ids3 = [s.registration_id for s in three.seats.all()]
    services.record_placings(table=four, placings=by_id(ids4, [3, 1, 1, 4]), by=judge)
    round_.refresh_from_db()
    assert round_.status == Round.Status.IN_PROGRESS
    with pytest.raises(ValidationError, match="tables 2"):
        services.close_round(round_=round_, by=organiser)
    services.record_placings(
        table=three, placings={str(k): v for k, v in by_id(ids3, [3, 1, 2]).items()}, by=judge
    )
    round_.refresh_from_db()
    assert round_.status == Round.Status.COMPLETE
    rows = {row.player_id: row for row in selectors.pod_table(pod_event)}
    assert rows[ids4[1]].points == rows[ids4[2]].points == Fraction(5, 2)
    assert rows[ids4[0]].points == 1 and rows[ids4[3]].points == 0
    assert [rows[pid].points for pid in ids3] == [0, 3, Fraction(3, 2)]
    # A correction before closing, audited with what it replaced.
    services.record_placings(table=three, placings=by_id(ids3, [1, 2, 3]), by=judge)
    entry = AuditEntry.objects.filter(action="pod.placings").first()
    assert entry.after["table"] == three.number and entry.after["round"] == 1
    rows = audit_rows(AuditEntry.objects.filter(action="pod.placings"), organiser)
    assert [row["sentence"] for row in rows][-1] == "Entered the placings of table 1 in round 1."
    assert rows[0]["sentence"] == "Corrected the placings of table 2 in round 1."
    assert entry.before == {str(k): v for k, v in by_id(ids3, [3, 1, 2]).items()}
    services.close_round(round_=round_, by=organiser)
    round_.refresh_from_db()
    assert round_.status == Round.Status.CLOSED
    with pytest.raises(ValidationError, match="closed"):
        services.record_placings(table=three, placings=by_id(ids3, [3, 2, 1]), by=judge)


@pytest.mark.parametrize(
    ("placings", "message"),
    [
        ([1, 2, 3, 5], "from 1 to 4"),
        ([0, 1, 2, 3], "from 1 to 4"),
        ([1, 1, 2, 4], "does not follow"),
        ([1, 2, 2, 3], "does not follow"),
        (["one", 2, 3, 4], "whole number"),
        ([1, 2, 3], "every player"),
    ],
)
def test_bad_placings_are_refused_in_words_and_change_nothing(
    pod_event, organiser, judge, enter, placings, message
):
    enter(pod_event, 8)
    round_ = published(pod_event, organiser, judge)
    table = round_.pod_tables.first()
    ids = [s.registration_id for s in table.seats.all()]
    with pytest.raises(ValidationError, match=message):
        services.record_placings(table=table, placings=by_id(ids, placings), by=judge)
    assert not PodSeat.objects.filter(placing__isnull=False).exists()
    assert not AuditEntry.objects.filter(action="pod.placings").exists()


def test_placings_name_only_the_tables_players_and_only_judges_enter_them(
    pod_event, organiser, judge, enter
):
    entries = enter(pod_event, 8)
    with pytest.raises(ValidationError, match="Publish"):
        round_ = services.pair_next_round(tournament=pod_event, by=organiser, seed="d")
        table = round_.pod_tables.first()
        ids = [s.registration_id for s in table.seats.all()]
        services.record_placings(table=table, placings=by_id(ids, [1, 2, 3, 4]), by=judge)
    services.publish_round(round_=round_, by=organiser)
    stranger = next(e for e in entries if e.pk not in ids)
    bad = {**by_id(ids[1:], [1, 2, 3]), stranger.pk: 4}
    with pytest.raises(ValidationError, match="not a player at this table"):
        services.record_placings(table=table, placings=bad, by=judge)
    with pytest.raises(PermissionDenied):
        services.record_placings(
            table=table, placings=by_id(ids, [1, 2, 3, 4]), by=entries[0].player.user
        )
    assert not PodSeat.objects.filter(placing__isnull=False).exists()


def test_a_dropped_player_is_not_seated_and_stays_in_the_standings(
    pod_event, organiser, judge, enter
):
    entries = enter(pod_event, 8)
    first = published(pod_event, organiser, judge)
    place_all(first, judge)
    services.close_round(round_=first, by=organiser)
    services.drop(registration=entries[0], by=entries[0].player.user, reason="home")
    second = services.pair_next_round(tournament=pod_event, by=organiser, seed="e")
    assert sorted(t.size for t in second.pod_tables.all()) == [3, 4]
    assert not PodSeat.objects.filter(round=second, registration=entries[0]).exists()
    assert entries[0].pk in {row.player_id for row in selectors.pod_table(pod_event)}


def test_pair_again_reseats_a_draft_and_finishing_keeps_pod_places(
    pod_event, organiser, judge, enter
):
    enter(pod_event, 7)
    draft = services.pair_next_round(tournament=pod_event, by=organiser, seed="a")
    again = services.repair_round(round_=draft, by=organiser, seed="b")
    assert again.pod_tables.count() == 2 and PodTable.objects.count() == 2
    assert PodSeat.objects.count() == 7
    services.publish_round(round_=again, by=organiser)
    place_all(again, judge)
    services.close_round(round_=again, by=organiser)
    services.finish_tournament(tournament=pod_event, by=organiser)
    rows = selectors.pod_table(pod_event)
    places = dict(pod_event.registrations.values_list("pk", "final_place"))
    assert {row.player_id: row.rank for row in rows} == places
    winners = set(PodSeat.objects.filter(placing=1).values_list("registration_id", flat=True))
    # Both tables' winners have 3 points; the tiebreakers put one of them first.
    assert {pid for pid, place in places.items() if place == 1} < winners


def test_every_page_of_an_event_in_pods_opens(pod_event, organiser, judge, enter, client):
    from django.urls import reverse

    enter(pod_event, 7)
    round_ = published(pod_event, organiser, judge)
    place_all(round_, judge)
    client.force_login(organiser)
    pk, n = pod_event.pk, round_.number
    for name, args in [
        ("home", [pk]),
        ("console", [pk]),
        ("edit", [pk]),
        ("pairings", [pk, n]),
        ("round_manage", [pk, n]),
        ("print_pairings", [pk, n]),
        ("slips", [pk, n]),
        ("pairings_csv", [pk, n]),
        ("clocks", [pk, n]),
        ("clock", [pk, n]),
        ("standings", [pk]),
        ("standings_csv", [pk]),
        ("results", [pk]),
        ("audit", [pk]),
    ]:
        assert client.get(reverse(f"tournaments:{name}", args=args)).status_code == 200, name
    printed = client.get(reverse("tournaments:print_pairings", args=[pk, n])).content.decode()
    assert printed.count('<ol class="seats">') == 2
