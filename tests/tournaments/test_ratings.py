"""Ratings across events (docs/ratings.md): every confirmed result updates them, by each
path; corrections replay; byes and intentional draws; the player page and API; round 1
seeded by rating."""

import random

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services as game_services
from games.models import GameSession
from players.models import Rating as PlayerRating
from tests.conftest import api_as
from tests.tournaments.test_tiebreaker_settings import edit_form_data
from tournaments import online, services
from tournaments.models import Match, RatingChange, Registration, Tournament
from tournaments.ratings import (
    DRAW,
    START,
    WIN_A,
    WIN_B,
    RatedOccasion,
    Rating,
    rate,
    rated_outcome,
    replay,
)
from tournaments.services.ratings import recompute_ratings

pytestmark = pytest.mark.django_db


# --- the pure rules ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "result,expected",
    [
        ({"winner": "a", "games_played": 2}, WIN_A),
        ({"winner": "b", "games_played": 3}, WIN_B),
        ({"winner": None, "games_played": 3}, DRAW),
        ({"winner": None, "games_played": 0, "intentional_draw": True}, None),
        ({"winner": "a", "games_played": 0, "match_loss_b": True}, None),  # no-show
        ({"winner": "b", "games_played": 1, "match_loss_a": True}, WIN_B),
        ({"winner": None, "games_played": 1, "match_loss_a": True, "match_loss_b": True}, None),
        ({"winner": "a", "games_played": 2, "is_bye": True}, None),
    ],
)
def test_what_a_result_counts_as(result, expected):
    arguments = {"is_bye": False, "intentional_draw": False, **result}
    assert rated_outcome(**arguments) == expected


def test_a_win_moves_both_ratings_and_a_draw_between_equals_only_narrows_them():
    winner, loser = rate(START, START, WIN_A)
    assert winner.mu > START.mu > loser.mu and winner.sigma < START.sigma
    assert rate(START, START, WIN_B) == (loser, winner)
    a, b = rate(START, START, DRAW)
    assert a == b and a.mu == pytest.approx(START.mu) and a.sigma < START.sigma
    assert rate(START, START, None) == (START, START)
    assert START.ordinal == pytest.approx(0)


def test_replay_is_deterministic():
    rng = random.Random(5)
    places = {WIN_A: (1, 2), WIN_B: (2, 1), DRAW: (1, 1), None: None}
    history = [
        RatedOccasion(
            "irondie",
            tuple((p,) for p in rng.sample(range(20), 2)),
            places[rng.choice([WIN_A, WIN_B, DRAW, None])],
        )
        for _ in range(200)
    ]
    first = replay(history)
    assert replay(history) == first
    afters, final = first
    assert len(afters) == 200 and {game for _, game in final} == {"irondie"}


# --- updates through every path ----------------------------------------------------------


@pytest.fixture
def live_round(tournament, register_players, organiser, judge):
    register_players(tournament, 4)
    round_ = services.pair_next_round(tournament=tournament, by=organiser, seed="fixed")
    services.publish_round(round_=round_, by=organiser)
    return services.start_round(round_=round_, by=judge)


def _rating(registration) -> Rating:
    row = PlayerRating.objects.filter(player_id=registration.player_id).first()
    return Rating(row.mu, row.sigma) if row else START


def _expect_first_result(match, outcome):
    match.refresh_from_db()
    after_a, after_b = rate(START, START, outcome)
    assert _rating(match.player_a) == after_a and _rating(match.player_b) == after_b
    rows = {r.player_id: r for r in RatingChange.objects.filter(match=match)}
    row_a = rows[match.player_a.player_id]
    assert (row_a.mu_before, row_a.mu_after) == (START.mu, after_a.mu)
    assert row_a.opponent_id == match.player_b.player_id


def test_a_judges_result_updates_ratings(live_round, judge):
    match = live_round.matches.first()
    services.report_result(match=match, by=judge, games=["a", "b", "a"])
    _expect_first_result(match, WIN_A)
    assert PlayerRating.objects.get(player_id=match.player_a.player_id).matches == 1


def test_a_players_confirmed_report_updates_ratings(live_round):
    match = live_round.matches.first()
    user_a, user_b = match.player_a.player.user, match.player_b.player.user
    report = services.report_result(match=match, by=user_a, games=["b", "b"])
    assert not RatingChange.objects.exists()  # a report alone changes nothing
    services.confirm_result(submission=report, by=user_b)
    _expect_first_result(match, WIN_B)


def test_a_match_decided_online_updates_ratings(live_round, settings):
    settings.GAMES_SWAP_WINDOW_SECONDS = 0
    match = live_round.matches.first()
    user_a = match.player_a.player.user
    online.open_match(match=match, by=user_a)
    for number in (1, 2):  # A concedes two games: the server records B's 0-2 win
        session = GameSession.objects.get(match_game__match=match, match_game__number=number)
        game_services.concede(session=session, by=user_a)
    match.refresh_from_db()
    assert match.submissions.get().source == "system"
    _expect_first_result(match, WIN_B)


def test_a_bye_is_not_in_the_history_and_an_intentional_draw_is_not_rated(
    tournament, register_players, organiser, judge
):
    register_players(tournament, 5)
    round_ = services.pair_next_round(tournament=tournament, by=organiser, seed="odd")
    services.publish_round(round_=round_, by=organiser)
    bye = round_.matches.get(player_b__isnull=True)
    assert bye.status == Match.Status.CONFIRMED and not RatingChange.objects.exists()
    match = round_.matches.filter(player_b__isnull=False).first()
    services.report_result(match=match, by=judge, games=[], intentional_draw=True)
    rows = list(RatingChange.objects.filter(match=match))
    assert len(rows) == 2 and all(r.outcome == "" for r in rows)
    assert all((r.mu_before, r.sigma_before) == (r.mu_after, r.sigma_after) for r in rows)
    assert PlayerRating.objects.get(player_id=rows[0].player_id).matches == 0
    other = round_.matches.filter(player_b__isnull=False).exclude(pk=match.pk).get()
    services.report_result(match=other, by=judge, games=["a", "draw", "b"])
    drawn = {r.player_id: r for r in RatingChange.objects.filter(match=other)}
    assert {r.outcome for r in drawn.values()} == {"draw"}
    assert drawn[other.player_a.player_id].mu_after == pytest.approx(START.mu)


def test_a_no_show_match_loss_is_not_rated(live_round, judge):
    match = live_round.matches.first()
    services.give_penalty(
        registration=match.player_b,
        kind="match_loss",
        reason="did not show up",
        by=judge,
        match=match,
    )
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED and match.winner_id == match.player_a_id
    assert set(RatingChange.objects.filter(match=match).values_list("outcome", flat=True)) == {""}
    assert _rating(match.player_a) == START


def _stored() -> dict:
    return {
        r.player_id: (r.mu, r.sigma, r.matches) for r in PlayerRating.objects.order_by("player_id")
    }


def _history() -> list:
    return list(
        RatingChange.objects.order_by("id").values_list(
            "match_id",
            "player_id",
            "outcome",
            "mu_before",
            "sigma_before",
            "mu_after",
            "sigma_after",
        )
    )


def _play_rounds(tournament, organiser, judge, rounds, seed=3):
    rng = random.Random(seed)
    outcomes = [["a", "a"], ["b", "b"], ["a", "b", "a"], ["a", "draw"], ["draw", "draw", "draw"]]
    played = []
    for number in range(rounds):
        round_ = services.pair_next_round(tournament=tournament, by=organiser, seed=f"r{number}")
        services.publish_round(round_=round_, by=organiser)
        services.start_round(round_=round_, by=judge)
        for match in round_.matches.filter(player_b__isnull=False):
            services.report_result(match=match, by=judge, games=rng.choice(outcomes))
            played.append(match)
        services.close_round(round_=round_, by=organiser)
    return played


def test_a_correction_replays_the_later_history_as_a_full_recomputation_would(
    tournament, register_players, organiser, judge
):
    register_players(tournament, 8)
    played = _play_rounds(tournament, organiser, judge, 3)
    assert recompute_ratings()["changed"] == 0  # the incremental figures are the replay's
    before = _stored()
    first = Match.objects.get(pk=played[0].pk)
    games = ["b", "b"] if first.winner_id == first.player_a_id else ["a", "a"]
    services.report_result(match=first, by=judge, games=games, expected_version=first.version)
    after, history = _stored(), _history()
    assert after != before
    assert recompute_ratings() == {
        "matches": 12,
        "added": 0,
        "changed": 0,
        "players": 8,
        "games": {"irondie": 12},
    }
    assert _stored() == after and _history() == history
    # Confirmed again with the same meaning (a score that changes no winner): nothing moves.
    first.refresh_from_db()
    services.report_result(
        match=first, by=judge, games=games + [], note="again", expected_version=first.version
    )
    assert _stored() == after and _history() == history


def test_recompute_adds_matches_confirmed_before_ratings_existed(
    tournament, register_players, organiser, judge
):
    register_players(tournament, 6)
    _play_rounds(tournament, organiser, judge, 2)
    expected, history = _stored(), _history()
    RatingChange.objects.all().delete()
    PlayerRating.objects.all().delete()
    summary = recompute_ratings()
    assert summary["added"] == 6 and summary["players"] == 6
    assert _stored() == expected
    assert [row[1:] for row in _history()] == [row[1:] for row in history]


def test_the_final_place_is_kept_when_the_event_finishes(
    tournament, register_players, organiser, judge
):
    services.update_tournament(tournament=tournament, by=organiser, top_cut_size=0, swiss_rounds=2)
    register_players(tournament, 4)
    _play_rounds(tournament, organiser, judge, 2)
    services.start_top_cut(tournament=tournament, by=organiser)  # no cut: finishes
    places = sorted(
        Registration.objects.filter(tournament=tournament).values_list("final_place", flat=True)
    )
    assert places[0] == 1 and None not in places


# --- the player page and the API -----------------------------------------------------------


def _rated_player(tournament, register_players, organiser, judge, rounds):
    register_players(tournament, 4)
    _play_rounds(tournament, organiser, judge, rounds)
    return Registration.objects.filter(tournament=tournament).order_by("pk").first().player


def test_the_api_shows_rating_history_and_events(
    api, tournament, register_players, organiser, judge
):
    player = _rated_player(tournament, register_players, organiser, judge, 2)
    answer = api.get(f"/api/players/{player.pk}/rating/")
    assert answer.status_code == 200, answer.content
    data = answer.json()
    stored = PlayerRating.objects.get(player=player)
    [rating] = data["ratings"]
    assert rating["game"] == "irondie" and rating["label"] == "IRONDIE"
    assert rating["rating"]["mu"] == stored.mu and rating["rated_matches"] == stored.matches
    assert rating["rating"]["ordinal"] == pytest.approx(stored.mu - 3 * stored.sigma)
    assert len(data["history"]) == 2 and data["hidden_matches"] == 0
    latest = data["history"][0]
    assert latest["round"] == 2 and latest["tournament_name"] == "Test Open"
    assert latest["after"]["mu"] == stored.mu
    assert data["history"][1]["after"] == latest["before"]
    assert data["events"][0]["tournament"] == tournament.pk
    assert data["events"][0]["wins"] + data["events"][0]["losses"] + data["events"][0]["draws"] == 2
    assert api.get("/api/players/999999/rating/").status_code == 404
    assert api.get("/api/players/abc/rating/").status_code == 404


def _queries(call) -> int:
    with CaptureQueriesContext(connection) as queries:
        call()
    return len(queries)


def test_page_and_api_load_in_a_constant_number_of_queries(
    client, tournament, register_players, organiser, judge, make_player
):
    register_players(tournament, 8)
    player = Registration.objects.filter(tournament=tournament).order_by("pk").first().player
    reader = api_as(organiser)
    _play_rounds(tournament, organiser, judge, 1)
    one = (
        _queries(lambda: reader.get(f"/api/players/{player.pk}/rating/")),
        _queries(lambda: client.get(f"/players/{player.pk}/")),
    )
    _play_rounds(tournament, organiser, judge, 2, seed=9)
    assert RatingChange.objects.filter(player=player).count() == 3
    three = (
        _queries(lambda: reader.get(f"/api/players/{player.pk}/rating/")),
        _queries(lambda: client.get(f"/players/{player.pk}/")),
    )
    assert one == three
    assert three[0] <= 7  # session/user, player, history, events, matches, roles


def test_the_page_shows_rating_history_and_events(
    client, tournament, register_players, organiser, judge
):
    player = _rated_player(tournament, register_players, organiser, judge, 2)
    page = client.get(f"/players/{player.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    stored = PlayerRating.objects.get(player=player)
    assert f"{stored.mu - 3 * stored.sigma:.2f}" in html
    assert html.count("→") >= 2 and "Test Open" in html
    change = RatingChange.objects.filter(player=player).select_related("opponent").first()
    assert change.opponent.display_name in html
    assert client.get("/players/999999/").status_code == 404


def test_hidden_results_stay_hidden_from_the_public_but_not_from_the_player(
    api, client, tournament, register_players, organiser, judge
):
    player = _rated_player(tournament, register_players, organiser, judge, 1)
    services.update_tournament(tournament=tournament, by=organiser, publish_results=False)
    data = api.get(f"/api/players/{player.pk}/rating/").json()
    assert data["history"] == [] and data["hidden_matches"] == 1
    assert data["ratings"][0]["rating"]["mu"] == START.mu
    assert data["ratings"][0]["hidden_matches"] == 1 and data["events"][0]["record"] == "0-0-0"
    own = api_as(player.user).get(f"/api/players/{player.pk}/rating/").json()
    assert len(own["history"]) == 1 and own["hidden_matches"] == 0
    staff = api_as(judge).get(f"/api/players/{player.pk}/rating/").json()
    assert len(staff["history"]) == 1
    client.force_login(player.user)
    assert client.get(f"/players/{player.pk}/").content.decode().count("→") >= 1


# --- round 1 seeded by rating ---------------------------------------------------------------


def _give_ratings(registrations, ordinals):
    for registration, ordinal in zip(registrations, ordinals, strict=True):
        PlayerRating.objects.update_or_create(
            player_id=registration.player_id,
            game="irondie",
            defaults={"mu": ordinal + 3 * 2.0, "sigma": 2.0, "matches": 5},
        )


@pytest.mark.parametrize("count", [8, 7])
def test_round_one_by_rating_pairs_the_top_half_against_the_bottom_half(
    tournament, register_players, organiser, count
):
    services.update_tournament(tournament=tournament, by=organiser, round_one_seeding="rating")
    registrations = register_players(tournament, count)
    ordinals = random.Random(count).sample(range(100), count)
    _give_ratings(registrations, ordinals)
    by_rating = [
        r.pk for _, r in sorted(zip(ordinals, registrations, strict=True), key=lambda x: -x[0])
    ]
    round_ = services.pair_next_round(tournament=tournament, by=organiser, seed="s")
    pairs = [
        (m.player_a_id, m.player_b_id)
        for m in round_.matches.filter(player_b__isnull=False).order_by("table")
    ]
    half = count // 2
    assert pairs == [(by_rating[i], by_rating[i + half]) for i in range(half)]
    if count % 2:
        assert round_.matches.get(player_b__isnull=True).player_a_id == by_rating[-1]
    assert all(m.reasons[0]["code"] == "by_rating" for m in round_.matches.all())


def test_round_one_is_random_by_default(tournament, register_players, organiser):
    registrations = register_players(tournament, 8)
    _give_ratings(registrations, range(8))
    round_ = services.pair_next_round(tournament=tournament, by=organiser, seed="s")
    assert all(m.reasons[0]["code"] != "by_rating" for m in round_.matches.all())


def test_the_seeding_setting_through_the_api_and_the_form(tournament, organiser, client):
    reader = api_as(organiser)
    url = f"/api/tournaments/{tournament.pk}/"
    answer = reader.patch(url, {"round_one_seeding": "best"}, format="json")
    assert answer.status_code == 400 and "round_one_seeding" in answer.json()["errors"]
    tournament.refresh_from_db()
    assert tournament.round_one_seeding == Tournament.RoundOneSeeding.RANDOM
    answer = reader.patch(url, {"round_one_seeding": "rating"}, format="json")
    assert answer.status_code == 200 and answer.json()["round_one_seeding"] == "rating"
    client.force_login(organiser)
    page = client.get(f"/tournaments/{tournament.pk}/edit/")
    assert 'name="round_one_seeding"' in page.content.decode()


@pytest.mark.parametrize("value,saved", [("random", "random"), ("best", None), ("", "rating")])
def test_the_seeding_setting_in_the_form(client, tournament, organiser, value, saved):
    services.update_tournament(tournament=tournament, by=organiser, round_one_seeding="rating")
    client.force_login(organiser)
    data = edit_form_data(client, tournament, "")
    data["round_one_seeding"] = value
    response = client.post(f"/tournaments/{tournament.pk}/edit/", data)
    tournament.refresh_from_db()
    if saved is None:  # refused with the field's error, nothing saved
        assert response.status_code == 200
        assert "round_one_seeding" in response.context["form"].errors
        assert tournament.round_one_seeding == "rating"
    else:  # left empty: the setting keeps its value
        assert response.status_code == 302
        assert tournament.round_one_seeding == saved


def test_the_seeding_cannot_change_once_round_one_is_paired(
    tournament, register_players, organiser
):
    register_players(tournament, 4)
    services.pair_next_round(tournament=tournament, by=organiser, seed="s")
    with pytest.raises(ValidationError, match="already paired"):
        services.update_tournament(tournament=tournament, by=organiser, round_one_seeding="rating")
    answer = api_as(organiser).patch(
        f"/api/tournaments/{tournament.pk}/", {"round_one_seeding": "rating"}, format="json"
    )
    assert answer.status_code == 400
    tournament.refresh_from_db()
    assert tournament.round_one_seeding == "random"


def test_a_correction_to_an_unrated_result_and_back(live_round, judge):
    match = live_round.matches.first()
    services.report_result(match=match, by=judge, games=["a", "a"])
    match.refresh_from_db()
    services.report_result(
        match=match, by=judge, games=[], intentional_draw=True, expected_version=match.version
    )
    assert _rating(match.player_a) == START and _rating(match.player_b) == START
    assert PlayerRating.objects.get(player_id=match.player_a.player_id).matches == 0
    assert set(RatingChange.objects.filter(match=match).values_list("outcome", flat=True)) == {""}
    match.refresh_from_db()
    services.report_result(
        match=match, by=judge, games=["b", "a", "b"], expected_version=match.version
    )
    _expect_first_result(match, WIN_B)
    assert PlayerRating.objects.get(player_id=match.player_b.player_id).matches == 1
    assert RatingChange.objects.filter(match=match).count() == 2
