"""The result forms (a judge's and a player's) have as many game rows as the event's
match format allows: games_to_win * 2 - 1 shown, then the games drawn games can add
(folded away), up to max_games; a game beyond that is refused and nothing changes."""

import datetime
import re

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.match_rules import online_game_outcome
from tournaments.models import Match, ResultSubmission, Tournament

pytestmark = pytest.mark.django_db


def _match(organiser, judge, make_player, game, **options):
    event = services.create_tournament(
        organiser=organiser,
        name=f"{game} format",
        date=datetime.date(2026, 12, 5),
        game=game,
        head_judge=judge,
        **options,
    )
    services.change_status(tournament=event, to=Tournament.Status.REGISTRATION, by=organiser)
    for name in ("Alice", "Bob"):
        player = make_player(name)
        services.register(tournament=event, player=player, by=organiser)
    round_ = services.pair_next_round(tournament=event, by=organiser, seed="f")
    services.publish_round(round_=round_, by=organiser)
    services.start_round(round_=round_, by=judge)
    return event, round_.matches.get()


def _rows(page: str) -> tuple[list[int], list[int]]:
    """The game rows (numbers) before the fold and inside it."""
    form = page[page.index('name="expected_version"') :]
    before, _fold, after = form.partition("<details")
    if not _fold:
        after = ""
    numbers = lambda text: [int(n) for n in re.findall(r'name="game_(\d+)"', text)]  # noqa: E731
    return numbers(before), numbers(after.partition("</details>")[0])


@pytest.mark.parametrize(
    "game, options, shown, folded",
    [
        ("36d6", {}, [1], [2, 3]),  # best of one (36d6's default)
        ("dice-forge", {"games_to_win": 2}, [1, 2, 3], [4, 5]),
        ("36d6", {"games_to_win": 2}, [1, 2, 3], [4, 5]),
    ],
)
def test_the_forms_have_the_formats_game_rows(
    client, organiser, judge, make_player, game, options, shown, folded
):
    event, match = _match(organiser, judge, make_player, game, **options)
    client.force_login(judge)
    judge_page = client.get(reverse("tournaments:match", args=[event.pk, match.pk]))
    assert _rows(judge_page.content.decode()) == (shown, folded)
    client.force_login(match.player_a.player.user)
    player_page = client.get(reverse("tournaments:my_match", args=[event.pk]))
    assert _rows(player_page.content.decode()) == (shown, folded)


def test_a_game_beyond_the_format_is_refused(client, organiser, judge, make_player):
    event, match = _match(organiser, judge, make_player, "36d6")  # best of one: 3 games at most
    client.force_login(judge)
    url = reverse("tournaments:match", args=[event.pk, match.pk])
    too_many = {f"game_{n}": "draw" for n in (1, 2, 3)} | {"game_4": "a"}
    response = client.post(url, {**too_many, "expected_version": match.version})
    assert response.status_code == 200
    assert "A match of this format has at most 3 games." in response.content.decode()
    assert not ResultSubmission.objects.filter(match=match).exists()
    # The player's report is refused the same way.
    client.force_login(match.player_a.player.user)
    response = client.post(
        reverse("tournaments:my_match", args=[event.pk]),
        {"action": "report", **too_many, "expected_version": match.version},
    )
    assert "A match of this format has at most 3 games." in response.content.decode()
    assert not ResultSubmission.objects.filter(match=match).exists()
    # Within the format: a draw then a win, in the folded row.
    client.force_login(judge)
    response = client.post(
        url, {"game_1": "draw", "game_2": "b", "expected_version": match.version}
    )
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED


def test_what_an_online_game_counts_as():
    assert online_game_outcome({"winner": 0, "placings": [1, 2]}) == "a"
    assert online_game_outcome({"winner": 1, "placings": [2, 1]}) == "b"
    assert online_game_outcome({"winner": None, "placings": [1, 1]}) == "draw"
    # IRONDIE's game stopped by the match limit counts for nobody.
    stopped = {"winner": None, "reason": "match_time_over", "placings": [1, 1]}
    assert online_game_outcome(stopped) is None
    assert online_game_outcome(None) is None and online_game_outcome({"winner": True}) is None


def test_the_printed_slips_have_the_formats_game_boxes(client, organiser, judge, make_player):
    event, match = _match(organiser, judge, make_player, "dice-forge")  # best of one
    client.force_login(judge)
    slips = client.get(reverse("tournaments:slips", args=[event.pk, match.round.number]))
    page = slips.content.decode()
    assert "Game 3</th>" in page and "Game 4</th>" not in page
