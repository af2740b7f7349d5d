"""Events per game: the event names its game, which brings its format defaults
(tournaments/games.py) and decides what registration asks for (docs/events.md)."""

import datetime
import json

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from games.engines import ENGINES
from players import services as player_services
from tests.conftest import api_as
from tournaments import selectors, services
from tournaments.games import FORMATS, GAMES, with_game_defaults
from tournaments.match_rules import ResultError, decide_match, match_is_over, max_games
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 12, 5)


def test_every_hosted_game_has_a_row_of_defaults():
    assert set(GAMES) == set(ENGINES)
    for rules in GAMES.values():
        assert rules.game_minutes <= rules.match_minutes
        assert rules.games_to_win in (1, 2)
    assert GAMES["irondie"].defaults() == {
        "games_to_win": 2,
        "match_minutes": 45,
        "game_minutes": 20,
    }
    assert max_games(2) == 5 and max_games(1) == 3
    given = {"match_minutes": 60, "game_minutes": None}
    assert with_game_defaults(given, "36d6") == {
        "match_minutes": 60,
        "game_minutes": GAMES["36d6"].game_minutes,
        "games_to_win": GAMES["36d6"].games_to_win,
    }


def test_an_event_is_irondie_by_default_and_another_game_brings_its_defaults(organiser):
    irondie = services.create_tournament(organiser=organiser, name="A", date=DAY)
    assert (irondie.game, irondie.games_to_win, irondie.match_minutes, irondie.game_minutes) == (
        "irondie",
        2,
        45,
        20,
    )
    d36 = services.create_tournament(organiser=organiser, name="B", date=DAY, game="36d6")
    rules = GAMES["36d6"]
    assert (d36.games_to_win, d36.match_minutes, d36.game_minutes) == (
        rules.games_to_win,
        rules.match_minutes,
        rules.game_minutes,
    )
    changed = services.create_tournament(
        organiser=organiser, name="C", date=DAY, game="36d6", match_minutes=60, games_to_win=2
    )
    assert (changed.games_to_win, changed.match_minutes) == (2, 60)
    with pytest.raises(ValidationError, match="No hosted game"):
        services.create_tournament(organiser=organiser, name="D", date=DAY, game="chess")
    assert not Tournament.objects.filter(name="D").exists()


def test_changing_the_game_brings_its_defaults_until_someone_registers(
    tournament, organiser, register_players
):
    services.update_tournament(tournament=tournament, by=organiser, game="36d6")
    tournament.refresh_from_db()
    assert tournament.game == "36d6" and tournament.match_minutes == GAMES["36d6"].match_minutes
    services.update_tournament(tournament=tournament, by=organiser, game="irondie", game_minutes=25)
    tournament.refresh_from_db()
    assert (tournament.games_to_win, tournament.match_minutes, tournament.game_minutes) == (
        2,
        45,
        25,
    )
    # A format setting given as None takes the game's default.
    services.update_tournament(tournament=tournament, by=organiser, game_minutes=None)
    tournament.refresh_from_db()
    assert tournament.game_minutes == 20
    register_players(tournament, 1)
    with pytest.raises(ValidationError, match="can no longer change"):
        services.update_tournament(tournament=tournament, by=organiser, game="36d6")
    tournament.refresh_from_db()
    assert tournament.game == "irondie"
    # The same game again is no change.
    services.update_tournament(tournament=tournament, by=organiser, game="irondie", venue="Hall")


def test_the_match_format_is_fixed_once_a_round_is_paired(tournament, organiser, register_players):
    services.update_tournament(tournament=tournament, by=organiser, games_to_win=1)
    services.update_tournament(tournament=tournament, by=organiser, games_to_win=2)
    register_players(tournament, 4)
    services.pair_next_round(tournament=tournament, by=organiser, seed="s")
    with pytest.raises(ValidationError, match="match format"):
        services.update_tournament(tournament=tournament, by=organiser, games_to_win=1)
    with pytest.raises(ValidationError, match="not a valid choice"):
        Tournament(organiser=organiser, name="X", date=DAY, games_to_win=4).full_clean()


def test_the_form_applies_the_chosen_games_defaults(client, organiser):
    client.force_login(organiser)
    form = client.get(reverse("tournaments:create")).context["form"]
    assert form.initial["match_minutes"] == 45 and form.initial["games_to_win"] == 2
    base = {
        "date": "2026-05-01",
        "top_cut_size": 0,
        "late_entry": "nothing",
        "percentage_floor": "1/3",
        "games_to_win": 2,
        "match_minutes": 45,
        "game_minutes": 20,
    }
    # Left as shown while 36d6 is chosen: the 36d6 defaults.
    response = client.post(reverse("tournaments:create"), {**base, "name": "Dice", "game": "36d6"})
    assert response.status_code == 302
    event = Tournament.objects.get(name="Dice")
    assert (event.game, event.games_to_win, event.match_minutes) == (
        "36d6",
        GAMES["36d6"].games_to_win,
        GAMES["36d6"].match_minutes,
    )
    # Changed by the organiser: kept.
    response = client.post(
        reverse("tournaments:create"),
        {**base, "name": "Long", "game": "36d6", "match_minutes": 90},
    )
    event = Tournament.objects.get(name="Long")
    assert (event.games_to_win, event.match_minutes) == (1, 90)
    response = client.post(
        reverse("tournaments:create"), {**base, "name": "Short", "games_to_win": 1}
    )
    event = Tournament.objects.get(name="Short")
    assert (event.game, event.games_to_win, event.match_minutes) == ("irondie", 1, 45)
    # Empty: the game's default.
    response = client.post(
        reverse("tournaments:create"),
        {**base, "name": "Empty", "game": "irondie", "match_minutes": "", "game_minutes": ""},
    )
    event = Tournament.objects.get(name="Empty")
    assert (event.match_minutes, event.game_minutes) == (45, 20)
    response = client.post(reverse("tournaments:create"), {**base, "name": "Bad", "game": "go"})
    assert response.status_code == 200 and "not one of the available choices" in (
        response.content.decode()
    )
    assert not Tournament.objects.filter(name="Bad").exists()
    page = client.get(reverse("tournaments:home", args=[Tournament.objects.get(name="Dice").pk]))
    assert "36d6" in page.content.decode()


def test_the_api_names_the_game(organiser, register_players):
    client = api_as(organiser)
    response = client.post(
        "/api/tournaments/", {"name": "API", "date": "2026-05-01", "game": "36d6"}, format="json"
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["game"] == "36d6" and body["games_to_win"] == GAMES["36d6"].games_to_win
    assert body["match_minutes"] == GAMES["36d6"].match_minutes
    bad = client.post(
        "/api/tournaments/", {"name": "API2", "date": "2026-05-01", "game": "go"}, format="json"
    )
    assert bad.status_code == 400 and "game" in bad.json()["errors"]
    event = Tournament.objects.get(name="API")
    services.change_status(tournament=event, to=Tournament.Status.REGISTRATION, by=organiser)
    # (registration for 36d6 needs no dice set: test_a_36d6_event_runs_without_dice_sets)
    response = client.patch(f"/api/tournaments/{event.pk}/", {"game": "irondie"}, format="json")
    assert response.status_code == 200 and response.json()["match_minutes"] == 45


def test_best_of_one_is_decided_by_one_game_won():
    assert decide_match(["b"], games_to_win=1).winner == "b"
    assert decide_match(["draw", "a"], games_to_win=1).score == "1-0-1"
    assert decide_match([], conceded_by="a", games_to_win=1).score == "0-1"
    with pytest.raises(ResultError, match="already won after game 1"):
        decide_match(["a", "b"], games_to_win=1)
    with pytest.raises(ResultError, match="at most 3 games"):
        decide_match(["draw"] * 4, games_to_win=1)
    assert match_is_over(["a"], games_to_win=1) and not match_is_over(["draw"], games_to_win=1)
    assert match_is_over(["draw"] * 3, games_to_win=1)
    assert not match_is_over(["a"]) and decide_match(["a", "a"]).winner == "a"


@pytest.fixture
def d36_event(organiser, judge):
    event = services.create_tournament(
        organiser=organiser, name="Dice Night", date=DAY, game="36d6", head_judge=judge
    )
    return services.change_status(tournament=event, to=Tournament.Status.REGISTRATION, by=organiser)


def test_registration_asks_for_a_dice_set_only_for_irondie(
    tournament, d36_event, make_player, valid_playing
):
    alice = make_player("Alice")
    with pytest.raises(ValidationError, match="need a dice set"):
        services.register(tournament=tournament, player=alice, by=alice.user)
    own_set = player_services.create_dice_set(player=alice, name="Main", playing_dice=valid_playing)
    with pytest.raises(ValidationError, match="take no dice set"):
        services.register(tournament=d36_event, player=alice, dice_set=own_set, by=alice.user)
    assert not d36_event.registrations.exists()
    entry = services.register(tournament=d36_event, player=alice, by=alice.user)
    assert entry.dice_set is None and entry.playing_dice == [] and entry.additional_dice == []
    walk_in = services.register_walk_in(
        tournament=d36_event, by=d36_event.organiser, display_name="Walker"
    )
    assert walk_in.dice_set is None and not walk_in.player.dice_sets.exists()
    # IRONDIE unchanged: a set is frozen at registration.
    entry = services.register(tournament=tournament, player=alice, dice_set=own_set, by=alice.user)
    assert len(entry.playing_dice) == 9


def test_registration_pages_and_api_of_a_game_without_dice_sets(
    client, d36_event, organiser, make_player
):
    bob, carol, dave = make_player("Bob"), make_player("Carol"), make_player("Dave")
    client.force_login(bob.user)
    home = client.get(reverse("tournaments:home", args=[d36_event.pk])).content.decode()
    assert 'id="self-register"' in home and "dice_set" not in home
    response = client.post(reverse("tournaments:register", args=[d36_event.pk]), follow=True)
    assert response.status_code == 200
    assert d36_event.registrations.filter(player=bob).exists()
    client.force_login(organiser)
    console = client.get(reverse("tournaments:console", args=[d36_event.pk])).content.decode()
    assert "Carol · #" in console
    assert "Walk-in: a new player</a>" in console and "and their set" not in console
    client.post(reverse("tournaments:register", args=[d36_event.pk]), {"player": "carol"})
    assert d36_event.registrations.filter(player=carol).exists()
    response = client.post(
        reverse("tournaments:register", args=[d36_event.pk]), {"player": "Nobody"}, follow=True
    )
    assert "Choose a player from the suggestions" in response.content.decode()
    page = client.get(reverse("tournaments:walk_in", args=[d36_event.pk])).content.decode()
    assert "playing_0_type" not in page and "needs no dice set" in page
    response = client.post(
        reverse("tournaments:walk_in", args=[d36_event.pk]), {"display_name": "Eve"}
    )
    assert response.status_code == 302
    assert d36_event.registrations.filter(player__display_name="Eve").exists()
    api = api_as(organiser)
    answer = api.post(
        f"/api/tournaments/{d36_event.pk}/registrations/", {"player": dave.pk}, format="json"
    )
    assert answer.status_code == 201, answer.json()
    assert answer.json()["playing_dice"] == []
    assert client.get(reverse("tournaments:sets", args=[d36_event.pk])).status_code == 404


def test_a_36d6_event_runs_without_dice_sets(
    client, d36_event, organiser, judge, make_player, django_assert_max_num_queries
):
    players = [make_player(f"P{i}") for i in range(5)]
    for player in players:
        services.register(tournament=d36_event, player=player, by=organiser)
    outcomes = [["a"], ["b"], ["draw", "a"], ["draw", "draw", "b"]]
    for number in (1, 2, 3):
        round_ = services.pair_next_round(tournament=d36_event, by=organiser, seed=f"r{number}")
        services.publish_round(round_=round_, by=organiser)
        services.start_round(round_=round_, by=judge)
        for index, match in enumerate(round_.matches.order_by("table")):
            if match.is_bye:
                assert (match.games_a, match.games_b) == (1, 0)  # best of one: 1-0
                continue
            if number == 1 and index == 0:
                # Best of one: a second game won is refused, and nothing changes.
                with pytest.raises(ValidationError, match="already won"):
                    services.report_result(match=match, by=judge, games=["a", "a"])
                match.refresh_from_db()
                assert match.status != "confirmed" and match.version == 0
            services.report_result(match=match, by=judge, games=outcomes[index % len(outcomes)])
        services.close_round(round_=round_, by=organiser)
    table = selectors.standings(d36_event)
    assert len(table) == 5
    assert sum(row.match_points for row in table) > 0
    client.force_login(players[0].user)
    my_match = client.get(reverse("tournaments:my_match", args=[d36_event.pk]))
    assert my_match.status_code == 200 and 'id="swap-form"' not in my_match.content.decode()
    client.logout()
    for name in ("standings", "home"):
        with django_assert_max_num_queries(8):
            assert (
                client.get(reverse(f"tournaments:{name}", args=[d36_event.pk])).status_code == 200
            )
    with django_assert_max_num_queries(8):
        address = reverse("tournaments:pairings", args=[d36_event.pk, 3])
        assert client.get(address).status_code == 200
    match = d36_event.rounds.get(number=3).matches.exclude(player_b=None).first()
    # Swaps: none in a game without dice sets.
    registration = match.player_a
    with pytest.raises(ValidationError, match="nothing to swap"):
        services.record_swap(
            registration=registration, match=match, swap_out=[0], swap_in=[0], by=organiser
        )


def test_the_edit_form_keeps_a_custom_limit_when_the_game_changes(client, tournament, organiser):
    services.update_tournament(tournament=tournament, by=organiser, match_minutes=60)
    client.force_login(organiser)
    form = client.get(reverse("tournaments:edit", args=[tournament.pk])).context["form"]
    assert "data-defaults" in form["game"].as_widget()
    defaults = json.loads(form.fields["game"].widget.attrs["data-defaults"])
    assert defaults["36d6"] == GAMES["36d6"].defaults()
    data = {k: v for k, v in form.initial.items() if v is not None}
    data.update(game="36d6", floor_judges=[], tiebreakers="")
    response = client.post(reverse("tournaments:edit", args=[tournament.pk]), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    tournament.refresh_from_db()
    rules = GAMES["36d6"]
    assert (tournament.game, tournament.games_to_win) == ("36d6", rules.games_to_win)
    assert (tournament.match_minutes, tournament.game_minutes) == (60, rules.game_minutes)


def test_every_hosted_game_has_its_event_defaults():
    """An engine added to the registry without a row in tournaments/games.py once stopped
    the service at start-up (the game field's choices)."""
    assert set(ENGINES) == set(GAMES)
    for rules in GAMES.values():
        assert rules.games_to_win in FORMATS and rules.match_minutes >= rules.game_minutes
