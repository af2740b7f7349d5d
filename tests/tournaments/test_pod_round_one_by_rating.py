"""Round 1 of an event in pods seeded by rating (docs/pairing.md "Round 1 by rating in
pods"): the players by their rating in the event's game, dealt to the mode's tables in
a snake, so the strongest sit at different tables and the tables are balanced; later
rounds are seated by score as always."""

import pytest
from rest_framework.test import APIClient

from players.models import Rating as PlayerRating
from tests.tournaments.pod_helpers import make_event, place_all
from tournaments import services
from tournaments.models import PodSeat, Tournament
from tournaments.pairing.model import PairingError
from tournaments.pairing.pods import MODES, PodPlayer, table_sizes
from tournaments.pairing.seeded import seat_pods_by_seed, snake_tables

# --- the pure core ----------------------------------------------------------------------


def test_the_snake_deals_forward_then_back_and_passes_over_full_tables():
    assert snake_tables(list(range(1, 11)), (4, 3, 3)) == [[1, 6, 7, 10], [2, 5, 8], [3, 4, 9]]
    assert snake_tables(list(range(1, 8)), (4, 3)) == [[1, 4, 5, 7], [2, 3, 6]]
    assert snake_tables(list(range(1, 9)), (3, 3, 2)) == [[1, 6, 7], [2, 5, 8], [3, 4]]
    assert snake_tables([1, 2], (2,)) == [[1, 2]]


@pytest.mark.parametrize("mode", MODES)
def test_every_field_keeps_the_modes_tables_and_balances_them(mode):
    for n in range(2, 41):
        order = list(range(100, 100 + n))
        players = [PodPlayer(id=pid, points=0) for pid in order]
        result = seat_pods_by_seed(players, order, 1, "s", mode)
        sizes = [table.size for table in result.tables]
        assert sizes == list(table_sizes(n, mode)), (n, mode)
        seated = sorted(pid for table in result.tables for pid in table.player_ids)
        assert seated == order and result.bye is None and result.method == "by_rating"
        seed_of = {pid: index + 1 for index, pid in enumerate(order)}
        # Table k holds seed k: the strongest sit apart, numbered from the best.
        for number, table in enumerate(result.tables, start=1):
            assert number in {seed_of[pid] for pid in table.player_ids}
        # Balanced: the tables' average seeds differ by less than the number of tables
        # (tables of the rating order would differ by about the whole field).
        averages = [sum(seed_of[pid] for pid in t.player_ids) / t.size for t in result.tables]
        assert max(averages) - min(averages) <= len(result.tables), (n, mode, averages)


def test_seats_are_drawn_from_the_seed_and_the_order_is_checked():
    order = list(range(1, 13))
    players = [PodPlayer(id=pid, points=0) for pid in order]
    first = seat_pods_by_seed(players, order, 1, "alpha", "four_three")
    again = seat_pods_by_seed(players, order, 1, "alpha", "four_three")
    other = seat_pods_by_seed(players, order, 1, "beta", "four_three")
    assert first == again
    assert [sorted(t.player_ids) for t in first.tables] == [
        sorted(t.player_ids) for t in other.tables
    ]  # the same tables; who opens is the draw's
    assert [t.player_ids for t in first.tables] != [t.player_ids for t in other.tables]
    assert seat_pods_by_seed(players[:1], [1], 1, "s", "three").bye == 1
    with pytest.raises(PairingError):
        seat_pods_by_seed(players, order[:-1], 1, "s", "four_three")
    with pytest.raises(PairingError):
        seat_pods_by_seed(players, [1, *order[:-1]], 1, "s", "four_three")


# --- the event --------------------------------------------------------------------------


def _rated_event(organiser, judge, make_player, count, *, game="36d6", mode="four_three"):
    """An event in pods seeded by rating; player i is rated in the event's game in the
    order of i (0 best) and in the other way round in IRONDIE, which must not count."""
    event = make_event(
        organiser, judge, game=game, pod_mode=mode, round_one_seeding="rating", swiss_rounds=3
    )
    registrations = []
    for index in range(count):
        player = make_player(f"Rated {index:02d}")
        PlayerRating.objects.create(player=player, game=game, mu=40.0 - index, sigma=2.0)
        PlayerRating.objects.create(player=player, game="irondie", mu=10.0 + index, sigma=2.0)
        registrations.append(services.register(tournament=event, player=player, by=player.user))
    return event, registrations


def _tables(round_) -> list[list[int]]:
    return [
        [seat.registration_id for seat in table.seats.all()]
        for table in round_.pod_tables.prefetch_related("seats").order_by("number")
    ]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("game", "mode", "count"), [("36d6", "four_three", 10), ("dice-forge", "three", 8)]
)
def test_round_one_is_seated_by_the_rating_in_the_events_game(
    organiser, judge, make_player, game, mode, count
):
    event, registrations = _rated_event(organiser, judge, make_player, count, game=game, mode=mode)
    seeds = [r.pk for r in registrations]  # best rating in the event's game first
    round_ = services.pair_next_round(tournament=event, by=organiser, seed="r1")
    assert round_.pairing_cost["method"] == "by_rating"
    expected = snake_tables(seeds, table_sizes(count, mode))
    assert [sorted(t) for t in _tables(round_)] == [sorted(t) for t in expected]
    # The ratings of another game (IRONDIE: the reverse order) play no part.
    assert seeds[0] in _tables(round_)[0]


@pytest.mark.django_db
def test_only_round_one_and_only_when_chosen(organiser, judge, make_player):
    event, registrations = _rated_event(organiser, judge, make_player, 8)
    first = services.pair_next_round(tournament=event, by=organiser, seed="r1")
    services.publish_round(round_=first, by=organiser)
    first = services.start_round(round_=first, by=judge)
    place_all(first, judge)
    services.close_round(round_=first, by=organiser)
    second = services.pair_next_round(tournament=event, by=organiser, seed="r2")
    assert second.pairing_cost["method"] != "by_rating"  # by score, with its proof
    plain = make_event(organiser, judge, game="36d6", swiss_rounds=3)
    assert plain.round_one_seeding == Tournament.RoundOneSeeding.RANDOM
    for index in range(8):
        player = make_player(f"Plain {index}")
        services.register(tournament=plain, player=player, by=player.user)
    drawn = services.pair_next_round(tournament=plain, by=organiser, seed="r1")
    assert drawn.pairing_cost["method"] != "by_rating"
    assert PodSeat.objects.filter(round=drawn).count() == 8


@pytest.mark.django_db
def test_the_round_page_says_how_round_one_was_seated(organiser, judge, make_player, client):
    event, _ = _rated_event(organiser, judge, make_player, 7)
    services.pair_next_round(tournament=event, by=organiser, seed="r1")
    client.force_login(organiser)
    page = client.get(f"/tournaments/{event.pk}/rounds/1/manage/").content.decode()
    assert "round 1 by rating: the rating order dealt to the tables in a snake" in page


@pytest.mark.django_db
def test_through_the_api(organiser, judge, make_player):
    event, registrations = _rated_event(organiser, judge, make_player, 9, mode="three")
    api = APIClient()
    api.force_authenticate(organiser)
    paired = api.post(f"/api/tournaments/{event.pk}/pair/", {"seed": "api"}, format="json")
    assert paired.status_code == 201, paired.content
    tables = api.get(f"/api/rounds/{paired.json()['id']}/tables/").json()["tables"]
    dealt = snake_tables([r.pk for r in registrations], table_sizes(9, "three"))
    assert [sorted(s["registration"] for s in t["seats"]) for t in tables] == [
        sorted(t) for t in dealt
    ]
