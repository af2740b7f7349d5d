"""An organiser swaps two players between tables of a pod draft (docs/events.md "Events
in Swiss pods"): the seats change, the seating's new cost is stored beside the cost as
paired and shown in words; a swap at one table or after publication changes nothing."""

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.test import APIClient

from tests.tournaments.pod_helpers import make_event
from tournaments import selectors, services
from tournaments.models import AuditEntry, PodSeat
from tournaments.pairing.pods import evaluate_pods
from tournaments.words import audit_rows, pod_cost_in_words

pytestmark = pytest.mark.django_db


@pytest.fixture
def draft(organiser, judge, make_player):
    event = make_event(organiser, judge, swiss_rounds=3)
    for i in range(11):
        player = make_player(f"Pod {i:02d}")
        services.register(tournament=event, player=player, by=player.user)
    return services.pair_next_round(tournament=event, by=organiser, seed="s1")


def seating(round_):
    return {
        seat.registration_id: (seat.table.number, seat.seat)
        for seat in PodSeat.objects.filter(round=round_).select_related("table")
    }


def stored_tables(round_):
    tables = {}
    for seat in PodSeat.objects.filter(round=round_).order_by("table__number", "seat"):
        tables.setdefault(seat.table_id, []).append(seat.registration_id)
    return list(tables.values())


def two_at_different_tables(round_):
    tables = list(round_.pod_tables.prefetch_related("seats__registration"))
    return tables[0].seats.all()[0].registration, tables[1].seats.all()[1].registration


def test_a_swap_moves_two_players_and_shows_the_new_cost(draft, organiser, client):
    paired = dict(draft.pairing_cost)
    before = seating(draft)
    first, second = two_at_different_tables(draft)
    services.swap_players_in_draft(
        round_=draft, first=first, second=second, by=organiser, reason="friends from one club"
    )
    draft.refresh_from_db()
    after = seating(draft)
    assert after[first.pk] == before[second.pk] and after[second.pk] == before[first.pk]
    assert {k: v for k, v in after.items() if k not in (first.pk, second.pk)} == {
        k: v for k, v in before.items() if k not in (first.pk, second.pk)
    }
    players = selectors.pod_pairing_players(draft.tournament, round_number=1)
    cost = evaluate_pods(players, stored_tables(draft), "four_three")
    assert draft.pairing_cost["method"] == "by_hand" and draft.pairing_cost["paired"] == paired
    assert draft.pairing_cost["spread"] == str(cost.spread)
    assert draft.pairing_cost["repeats"] == cost.repeats == 0  # round 1: nobody has met
    entry = AuditEntry.objects.get(action="pairing.edited")
    assert entry.reason == "friends from one club" and entry.before
    assert audit_rows([entry], organiser)[0]["sentence"] == (
        f"Swapped {first.player.display_name} and {second.player.display_name} in the draft "
        "of round 1."
    )
    client.force_login(organiser)
    page = client.get(reverse("tournaments:round_manage", args=[draft.tournament_id, 1]))
    text = page.content.decode()
    assert (
        f"changed by hand: this seating costs {pod_cost_in_words(draft.pairing_cost)}; as "
        f"paired it cost {pod_cost_in_words(paired)} (optimal: it meets the lower bound)"
    ) in text
    assert 'id="swap-players-form"' in text


def test_a_swap_at_one_table_or_after_publication_changes_nothing(draft, organiser):
    table = draft.pod_tables.prefetch_related("seats__registration").first()
    one, two = (seat.registration for seat in table.seats.all()[:2])
    before, cost = seating(draft), dict(draft.pairing_cost)
    with pytest.raises(ValidationError, match="already sit at the same table"):
        services.swap_players_in_draft(
            round_=draft, first=one, second=two, by=organiser, reason="x"
        )
    first, second = two_at_different_tables(draft)
    with pytest.raises(ValidationError, match="Say why"):
        services.swap_players_in_draft(
            round_=draft, first=first, second=second, by=organiser, reason=" "
        )
    services.publish_round(round_=draft, by=organiser)
    with pytest.raises(ValidationError, match="only while the round is a draft"):
        services.swap_players_in_draft(
            round_=draft, first=first, second=second, by=organiser, reason="late"
        )
    draft.refresh_from_db()
    assert seating(draft) == before and draft.pairing_cost == cost
    assert not AuditEntry.objects.filter(action="pairing.edited").exists()


def test_the_api_and_the_page_form_swap_pod_players(draft, organiser, client):
    first, second = two_at_different_tables(draft)
    api = APIClient()
    api.force_authenticate(organiser)
    answer = api.post(
        f"/api/rounds/{draft.pk}/swap-players/",
        {"first": first.pk, "second": second.pk, "reason": "a late table change"},
        format="json",
    )
    assert answer.status_code == 200, answer.content
    assert answer.json()["pairing_proof"].startswith("changed by hand: this seating costs")
    # The page's form swaps them back; a swap at one table is refused on the form.
    client.force_login(organiser)
    url = reverse("tournaments:round_action", args=[draft.tournament_id, 1, "swap"])
    page = client.post(url, {"first": first.pk, "second": second.pk, "reason": "back"})
    assert page.status_code == 302
    draft.refresh_from_db()
    assert draft.pairing_cost["repeats"] == 0 and draft.pairing_cost["method"] == "by_hand"
    table = draft.pod_tables.prefetch_related("seats").first()
    one, two = (seat.registration_id for seat in table.seats.all()[:2])
    refused = client.post(url, {"first": one, "second": two, "reason": "same"})
    assert refused.status_code == 200
    assert "already sit at the same table" in refused.content.decode()


def test_the_draft_page_with_its_swap_form_takes_a_constant_number_of_queries(
    organiser, judge, make_player, client
):
    def count(players, prefix):
        event = make_event(organiser, judge, swiss_rounds=3)
        for i in range(players):
            player = make_player(f"{prefix} {i:02d}")
            services.register(tournament=event, player=player, by=player.user)
        services.pair_next_round(tournament=event, by=organiser, seed="s1")
        client.force_login(organiser)
        with CaptureQueriesContext(connection) as queries:
            page = client.get(reverse("tournaments:round_manage", args=[event.pk, 1]))
        assert page.status_code == 200 and 'id="swap-players-form"' in page.content.decode()
        return len(queries)

    assert count(7, "Small") == count(23, "Large")
