"""Ratings per game, for teams and for pod tables (docs/ratings.md): openskill's own
figures for a team and a ranking of four, each game its own history, team matches and
pod placings rated and corrected with the same replay, the player page per game, and
round 1 seeded by the event's game."""

import datetime
import math
import random

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test.utils import CaptureQueriesContext
from openskill.models import PlackettLuce

from players.models import Rating as PlayerRating
from tests.conftest import api_as
from tests.tournaments import test_team_events
from tests.tournaments.pod_helpers import make_event, place_all, published
from tournaments import services
from tournaments.models import Match, PodTable, RatingChange, Registration, Tournament
from tournaments.ratings import (
    START,
    RatedOccasion,
    Rating,
    rate_sides,
    replay,
    side_rating,
)
from tournaments.services.ratings import recompute_ratings

pytestmark = pytest.mark.django_db

# The team event fixtures of the team tests.
team_event = test_team_events.team_event
member = test_team_events.member
make_teams = test_team_events.make_teams


# --- the arithmetic, checked against openskill's published figures and by hand ----------


def test_a_team_match_gives_openskills_published_figures():
    """openskill's README example: a1 (25, 8.333) and a2 (32.444, 5.123) beat b1
    (43.381, 2.421) and b2 (25.188, 6.211); its figures are those of the model without
    the dynamics factor tau, so that model is passed here."""
    a1, a2 = START, Rating(32.444, 5.123)
    b1, b2 = Rating(43.381, 2.421), Rating(25.188, 6.211)
    [[new_a1, new_a2], [new_b1, new_b2]] = rate_sides(
        [[a1, a2], [b1, b2]], [1, 2], model=PlackettLuce(tau=0)
    )
    published = [
        (new_a1, 28.669648436582808, 8.071520788025197),
        (new_a2, 33.83086971107981, 5.062772998705765),
        (new_b1, 43.071274808241974, 2.4166900452721256),
        (new_b2, 23.149503312339064, 6.1378606973362135),
    ]
    for rating, mu, sigma in published:
        assert rating.mu == pytest.approx(mu, abs=1e-12)
        assert rating.sigma == pytest.approx(sigma, abs=1e-12)


def test_with_the_services_model_every_member_moves_with_the_team():
    winners, losers = [START, Rating(30, 3)], [Rating(28, 5), Rating(26, 7)]
    [after_w, after_l] = rate_sides([winners, losers], [1, 2])
    assert all(new.mu > old.mu for old, new in zip(winners, after_w, strict=True))
    assert all(new.mu < old.mu for old, new in zip(losers, after_l, strict=True))
    # The change is shared out by uncertainty: the newcomer moves most.
    assert after_w[0].mu - START.mu > after_w[1].mu - 30
    assert rate_sides([winners, losers], None) == [winners, losers]


def _by_hand(places_order: int, n: int = 4) -> tuple[float, float]:
    """Weng-Lin's Plackett-Luce update (Algorithm 4 of the paper, openskill's defaults:
    beta 25/6, tau 25/300, gamma sigma/c) for the player finishing ``places_order``
    (0 = first) among ``n`` newcomers with distinct places: every skill is equal, so
    each exp(mu/c) is the same and the share of the players still in at place q is
    1/(n - q)."""
    sigma2 = (25 / 3) ** 2 + (25 / 300) ** 2  # tau added before the match
    c = math.sqrt(n * (sigma2 + (25 / 6) ** 2))
    omega = sum((1 if q == places_order else 0) - 1 / (n - q) for q in range(places_order + 1))
    delta = sum((1 / (n - q)) * (1 - 1 / (n - q)) for q in range(places_order + 1))
    mu = 25 + sigma2 / c * omega
    delta *= sigma2 / c**2 * (math.sqrt(sigma2) / c)
    return mu, math.sqrt(sigma2) * math.sqrt(max(1 - delta, 0.0001))


def test_a_ranking_of_four_newcomers_by_hand():
    after = rate_sides([[START]] * 4, [1, 2, 3, 4])
    for order, [rating] in enumerate(after):
        mu, sigma = _by_hand(order)
        assert rating.mu == pytest.approx(mu, abs=1e-9)
        assert rating.sigma == pytest.approx(sigma, abs=1e-9)
    # The hand figures written out: first 27.795, second 26.553, third 24.689, last 20.962.
    assert [round(r.mu, 3) for [r] in after] == [27.795, 26.553, 24.689, 20.962]
    # The seats' order does not matter, only the places.
    shuffled = rate_sides([[START]] * 4, [3, 1, 4, 2])
    assert [r.mu for [r] in shuffled] == [
        after[2][0].mu,
        after[0][0].mu,
        after[3][0].mu,
        after[1][0].mu,
    ]


def test_players_sharing_a_place_share_the_figures():
    after = rate_sides([[START]] * 4, [1, 2, 2, 4])
    assert after[1] == after[2]
    assert after[0][0].mu > after[1][0].mu > after[3][0].mu
    everyone_first = rate_sides([[START]] * 4, [1, 1, 1, 1])
    assert all(r.mu == pytest.approx(START.mu) and r.sigma < START.sigma for [r] in everyone_first)


def test_each_game_is_its_own_history():
    rng = random.Random(3)
    occasions = []
    for _ in range(60):
        game = rng.choice(["irondie", "36d6"])
        players = rng.sample(range(8), 4)
        if rng.random() < 0.5:
            occasions.append(RatedOccasion(game, ((players[0],), (players[1],)), (1, 2)))
        else:
            occasions.append(RatedOccasion(game, tuple((p,) for p in players), (1, 2, 2, 4)))
    _, together = replay(occasions)
    _, alone = replay(o for o in occasions if o.game == "36d6")
    assert {k: v for k, v in together.items() if k[1] == "36d6"} == alone


def test_a_teams_seeding_figure_is_its_members_average():
    team = side_rating([Rating(30, 3), Rating(20, 4)])
    assert team.mu == 25 and team.sigma == pytest.approx(2.5)
    assert side_rating([None, None]).mu == START.mu


# --- team matches --------------------------------------------------------------------------


def _stored() -> dict:
    return {
        (r.player_id, r.game): (r.mu, r.sigma, r.matches)
        for r in PlayerRating.objects.order_by("player_id", "game")
    }


def _history() -> list:
    return list(
        RatingChange.objects.order_by("id").values_list(
            "game",
            "match_id",
            "pod_table_id",
            "player_id",
            "side",
            "place",
            "outcome",
            "mu_before",
            "sigma_before",
            "mu_after",
            "sigma_after",
        )
    )


def _play_team_round(event, organiser, judge, number, rng):
    round_ = services.pair_next_round(tournament=event, by=organiser, seed=f"t{number}")
    services.publish_round(round_=round_, by=organiser)
    services.start_round(round_=round_, by=judge)
    played = []
    for match in round_.matches.filter(player_b__isnull=False):
        services.report_result(
            match=match, by=judge, games=rng.choice([["a", "a"], ["b", "a", "b"]])
        )
        played.append(match)
    services.close_round(round_=round_, by=organiser)
    return played


def _members(unit_id) -> list[int]:
    unit = Registration.objects.get(pk=unit_id)
    return list(
        Registration.objects.filter(team_id=unit.team_id)
        .order_by("pk")
        .values_list("player_id", flat=True)
    )


def test_a_team_match_rates_every_member_and_a_correction_replays(
    team_event,
    make_teams,
    organiser,
    judge,
):
    make_teams(team_event, 4)
    rng = random.Random(1)
    first_round = _play_team_round(team_event, organiser, judge, 1, rng)
    match = Match.objects.get(pk=first_round[0].pk)
    side_a, side_b = _members(match.player_a_id), _members(match.player_b_id)
    rows = list(RatingChange.objects.filter(match=match).order_by("id"))
    assert [(r.player_id, r.side, r.opponent_id) for r in rows] == [
        *((p, 0, None) for p in side_a),
        *((p, 1, None) for p in side_b),
    ]
    places = (1, 2) if match.winner_id == match.player_a_id else (2, 1)
    expected = rate_sides([[START, START], [START, START]], places)
    assert [Rating(r.mu_after, r.sigma_after) for r in rows] == [*expected[0], *expected[1]]
    assert {r.game for r in rows} == {"irondie"} and {r.place for r in rows} == set(places)
    assert PlayerRating.objects.get(player_id=side_a[1], game="irondie").matches == 1

    _play_team_round(team_event, organiser, judge, 2, rng)
    assert recompute_ratings()["changed"] == 0  # the incremental figures are the replay's
    before = _stored()
    match.refresh_from_db()
    games = ["b", "b"] if match.winner_id == match.player_a_id else ["a", "a"]
    services.report_result(match=match, by=judge, games=games, expected_version=match.version)
    after, history = _stored(), _history()
    assert after != before
    # Every later match of a member touched was replayed, as a full recomputation would.
    assert recompute_ratings() == {
        "matches": 4,
        "added": 0,
        "changed": 0,
        "players": 8,
        "games": {"irondie": 4},
    }
    assert _stored() == after and _history() == history


# --- pod tables ----------------------------------------------------------------------------


@pytest.fixture
def pod_players(make_player):
    return [make_player(f"Pod {i:02d}") for i in range(7)]


def _pod_event(organiser, judge, players, name):
    event = make_event(organiser, judge, swiss_rounds=2)
    event.name = name
    event.save(update_fields=["name"])
    for player in players:
        services.register(tournament=event, player=player, by=player.user)
    return event


def test_pod_placings_rate_each_seated_player_and_a_correction_replays(
    organiser, judge, pod_players
):
    first = _pod_event(organiser, judge, pod_players, "Pods A")
    second = _pod_event(organiser, judge, pod_players, "Pods B")
    round_a = published(first, organiser, judge)
    place_all(round_a, judge)
    table = round_a.pod_tables.filter(size=4).get()
    seats = list(table.seats.select_related("registration").order_by("seat"))
    rows = list(RatingChange.objects.filter(pod_table=table).order_by("id"))
    assert [(r.player_id, r.side, r.place, r.outcome) for r in rows] == [
        (s.registration.player_id, i, s.seat, "placed") for i, s in enumerate(seats)
    ]
    expected = rate_sides([[START]] * 4, [1, 2, 3, 4])
    assert [Rating(r.mu_after, r.sigma_after) for r in rows] == [side[0] for side in expected]
    assert {r.game for r in rows} == {"36d6"}
    assert not PlayerRating.objects.filter(game="irondie").exists()

    # The same players at the tables of another event, rated after these.
    round_b = published(second, organiser, judge, seed="s9")
    place_all(round_b, judge)
    assert recompute_ratings()["changed"] == 0
    before = _stored()
    # A correction with a shared place: the second event's tables are replayed.
    ids = [s.registration_id for s in seats]
    services.record_placings(
        table=table, placings=dict(zip(ids, [2, 2, 1, 4], strict=True)), by=judge
    )
    rows = list(RatingChange.objects.filter(pod_table=table).order_by("id"))
    assert [r.place for r in rows] == [2, 2, 1, 4]
    assert rows[0].mu_after == rows[1].mu_after
    after, history = _stored(), _history()
    assert after != before
    summary = recompute_ratings()
    assert summary["changed"] == 0 and summary["games"] == {"36d6": 4}
    assert _stored() == after and _history() == history
    # Entered again unchanged: nothing moves.
    services.record_placings(
        table=table, placings=dict(zip(ids, [2, 2, 1, 4], strict=True)), by=judge
    )
    assert _stored() == after and _history() == history
    # A bye (a table of one) rates nobody.
    byes = PodTable.objects.filter(size=1)
    assert not RatingChange.objects.filter(pod_table__in=byes).exists()


def test_recompute_adds_team_matches_and_tables_played_before_they_were_rated(
    team_event,
    make_teams,
    organiser,
    judge,
    pod_players,
):
    make_teams(team_event, 4)
    _play_team_round(team_event, organiser, judge, 1, random.Random(2))
    place_all(published(_pod_event(organiser, judge, pod_players, "Pods"), organiser, judge), judge)
    expected, history = _stored(), _history()
    RatingChange.objects.all().delete()
    PlayerRating.objects.all().delete()
    summary = recompute_ratings()
    assert summary["added"] == 4 and summary["games"] == {"36d6": 2, "irondie": 2}
    assert _stored() == expected
    assert [row[0:1] + row[3:] for row in _history()] == [row[0:1] + row[3:] for row in history]


# --- a player of several games: page, API, seeding ------------------------------------------


def _duel_event(organiser, judge, game, name):
    event = services.create_tournament(
        organiser=organiser,
        name=name,
        date=datetime.date(2026, 12, 6),
        game=game,
        head_judge=judge,
        top_cut_size=0,
    )
    return services.change_status(tournament=event, to=Tournament.Status.REGISTRATION, by=organiser)


def _play_duels(event, players, organiser, judge):
    for player in players:
        services.register(tournament=event, player=player, by=player.user)
    round_ = published(event, organiser, judge)
    for match in round_.matches.filter(player_b__isnull=False):
        services.report_result(match=match, by=judge, games=["a"])
    return round_


def _queries(call) -> int:
    with CaptureQueriesContext(connection) as queries:
        call()
    return len(queries)


def test_a_36d6_match_moves_only_the_36d6_rating_and_the_page_shows_each_game(
    client, organiser, judge, pod_players
):
    player = pod_players[0]
    reader = api_as(organiser)
    place_all(published(_pod_event(organiser, judge, pod_players, "Pods"), organiser, judge), judge)
    counts = (
        _queries(lambda: reader.get(f"/api/players/{player.pk}/rating/")),
        _queries(lambda: client.get(f"/players/{player.pk}/")),
    )
    _play_duels(_duel_event(organiser, judge, "36d6", "Duels"), pod_players[:4], organiser, judge)
    _play_duels(
        _duel_event(organiser, judge, "dice-forge", "Forge"), pod_players[:2], organiser, judge
    )
    assert set(PlayerRating.objects.filter(player=player).values_list("game", flat=True)) == {
        "36d6",
        "dice-forge",
    }
    assert not PlayerRating.objects.filter(game="irondie").exists()
    data = reader.get(f"/api/players/{player.pk}/rating/").json()
    assert [r["game"] for r in data["ratings"]] == ["36d6", "dice-forge"]  # the registry's order
    stored = PlayerRating.objects.get(player=player, game="36d6")
    assert data["ratings"][0]["rating"]["mu"] == stored.mu
    assert data["ratings"][0]["rated_matches"] == stored.matches == 2
    kinds = {(e["game"], e["kind"]) for e in data["history"]}
    assert kinds == {("36d6", "table"), ("36d6", "match"), ("dice-forge", "match")}
    table_entry = next(e for e in data["history"] if e["kind"] == "table")
    assert table_entry["match"] is None and table_entry["place"] >= 1
    assert table_entry["field_size"] in (3, 4) and table_entry["opponent"] is None
    assert {e["game"] for e in data["events"]} == {"36d6", "dice-forge"}
    html = client.get(f"/players/{player.pk}/").content.decode()
    assert 'id="history-36d6"' in html and 'id="history-dice-forge"' in html
    assert 'id="history-irondie"' not in html
    assert f'data-table="{table_entry["table"]}"' in html
    # More history in more games, the same number of queries.
    assert counts == (
        _queries(lambda: reader.get(f"/api/players/{player.pk}/rating/")),
        _queries(lambda: client.get(f"/players/{player.pk}/")),
    )


def test_a_team_members_page_shows_the_team_match(
    client,
    team_event,
    make_teams,
    organiser,
    judge,
):
    teams = make_teams(team_event, 2)
    _play_team_round(team_event, organiser, judge, 1, random.Random(4))
    mate = teams[0].members.exclude(pk=teams[0].unit_id).get().player
    data = api_as(mate.user).get(f"/api/players/{mate.pk}/rating/").json()
    [entry] = data["history"]
    assert entry["kind"] == "team" and entry["team_name"] == "Team 1"
    assert entry["opponent_name"] == "Team 2" and entry["opponent"] is None
    assert data["events"][0]["wins"] + data["events"][0]["losses"] == 1  # the team's record
    html = client.get(f"/players/{mate.pk}/").content.decode()
    assert "Team 1 v Team 2" in html


def test_round_one_by_rating_uses_the_events_game(organiser, judge, pod_players):
    players = pod_players[:4]
    # IRONDIE ratings best first in one order, 36d6 ratings in the reverse order.
    for rank, player in enumerate(players):
        PlayerRating.objects.create(player=player, game="irondie", mu=40 - rank, sigma=2)
        PlayerRating.objects.create(player=player, game="36d6", mu=30 + rank, sigma=2)
    event = _duel_event(organiser, judge, "36d6", "Seeded")
    services.update_tournament(tournament=event, by=organiser, round_one_seeding="rating")
    registrations = {
        p.pk: services.register(tournament=event, player=p, by=p.user).pk for p in players
    }
    round_ = services.pair_next_round(tournament=event, by=organiser, seed="s")
    by_36d6 = [registrations[p.pk] for p in reversed(players)]
    pairs = [(m.player_a_id, m.player_b_id) for m in round_.matches.order_by("table")]
    assert pairs == [(by_36d6[0], by_36d6[2]), (by_36d6[1], by_36d6[3])]


def test_round_one_of_a_team_event_seeds_teams_by_their_members_average(
    team_event,
    make_teams,
    organiser,
):
    services.update_tournament(tournament=team_event, by=organiser, round_one_seeding="rating")
    teams = make_teams(team_event, 4)
    # The captains alone would give the order 1, 2, 3, 4; the members' averages 4, 3, 2, 1.
    for index, team in enumerate(teams):
        captain = team.unit.player
        mate = team.members.exclude(pk=team.unit_id).get().player
        PlayerRating.objects.create(player=captain, game="irondie", mu=40 - index, sigma=1)
        PlayerRating.objects.create(player=mate, game="irondie", mu=10 + 4 * index, sigma=1)
    round_ = services.pair_next_round(tournament=team_event, by=organiser, seed="s")
    units = [team.unit_id for team in reversed(teams)]
    pairs = [(m.player_a_id, m.player_b_id) for m in round_.matches.order_by("table")]
    assert pairs == [(units[0], units[2]), (units[1], units[3])]


# --- the upgrade ---------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_the_upgrade_moves_ratings_to_irondie_and_recompute_separates_the_games():
    """Before: one rating for every game. An IRONDIE match and a 36d6 match between the
    same two players both moved it. After the migrations the history rows know their
    game, side and place; recompute_ratings then gives each game its own figures."""
    before = [("players", "0005_translated_labels"), ("tournaments", "0019_swiss_pods")]
    executor = MigrationExecutor(connection)
    leaves = executor.loader.graph.leaf_nodes()
    try:
        executor.migrate(before)
        apps = executor.loader.project_state(before).apps
        user = apps.get_model("auth", "User").objects.create(username="old-organiser")
        old_player = apps.get_model("players", "Player")
        alice = old_player.objects.create(display_name="Alice", player_number="1000000001")
        bob = old_player.objects.create(display_name="Bob", player_number="1000000002")
        matches = []
        for game in ("irondie", "36d6"):
            event = apps.get_model("tournaments", "Tournament").objects.create(
                name=game, date="2026-01-01", organiser=user, game=game
            )
            registration = apps.get_model("tournaments", "Registration").objects
            a = registration.create(tournament=event, player=alice, playing_dice=[])
            b = registration.create(tournament=event, player=bob, playing_dice=[])
            round_ = apps.get_model("tournaments", "Round").objects.create(
                tournament=event, number=1, pairing_seed="s"
            )
            matches.append(
                apps.get_model("tournaments", "Match").objects.create(
                    round=round_, table=1, player_a=a, player_b=b, winner=b, status="confirmed"
                )
            )
        # The one rating of before: Bob won both.
        figures = [(START, START)]
        for _ in matches:
            after_a, after_b = rate_sides([[figures[-1][0]], [figures[-1][1]]], (2, 1))
            figures.append((after_a[0], after_b[0]))
        old_change = apps.get_model("tournaments", "RatingChange").objects
        for match, (a_before, b_before), (a_after, b_after) in zip(
            matches, figures[:-1], figures[1:], strict=True
        ):
            for player, opponent, outcome, old, new in (
                (alice, bob, "loss", a_before, a_after),
                (bob, alice, "win", b_before, b_after),
            ):
                old_change.create(
                    match=match,
                    player=player,
                    opponent=opponent,
                    outcome=outcome,
                    mu_before=old.mu,
                    sigma_before=old.sigma,
                    mu_after=new.mu,
                    sigma_after=new.sigma,
                )
        old_rating = apps.get_model("players", "Rating").objects
        for player, rating in ((alice, figures[-1][0]), (bob, figures[-1][1])):
            old_rating.create(player=player, mu=rating.mu, sigma=rating.sigma, matches=2)
        MigrationExecutor(connection).migrate(leaves)
    finally:
        MigrationExecutor(connection).migrate(leaves)
    rows = list(
        RatingChange.objects.order_by("id").values_list("game", "player_id", "side", "place")
    )
    assert rows == [
        ("irondie", alice.pk, 0, 2),
        ("irondie", bob.pk, 1, 1),
        ("36d6", alice.pk, 0, 2),
        ("36d6", bob.pk, 1, 1),
    ]
    assert set(PlayerRating.objects.values_list("player_id", "game", "matches")) == {
        (alice.pk, "irondie", 2),
        (bob.pk, "irondie", 2),
    }
    summary = recompute_ratings()
    assert summary["games"] == {"36d6": 1, "irondie": 1} and summary["changed"] == 2
    one_match = rate_sides([[START], [START]], (2, 1))
    for game in ("irondie", "36d6"):
        stored = PlayerRating.objects.get(player_id=bob.pk, game=game)
        assert (Rating(stored.mu, stored.sigma), stored.matches) == (one_match[1][0], 1)
