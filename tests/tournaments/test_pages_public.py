"""Public tournament pages: list, home, pairings, standings, sets, bracket, print and CSV;
release switches, query counts that do not grow with the field."""

import csv
import html
import io
import random
import re

import pytest
from django.urls import reverse

from tests.tournaments.conftest import play_round_by_judge
from tournaments import selectors, services
from tournaments.models import Round, Tournament

pytestmark = pytest.mark.django_db


def play_rounds(tournament, organiser, judge, count, *, seed=3, leave_open=False):
    """Pair, publish and play ``count`` Swiss rounds; the last stays open if asked."""
    rng = random.Random(seed)
    round_ = None
    for number in range(1, count + 1):
        round_ = services.pair_next_round(tournament=tournament, by=organiser)
        services.publish_round(round_=round_, by=organiser)
        if leave_open and number == count:
            break
        play_round_by_judge(round_, judge, rng)
        services.close_round(round_=round_, by=organiser)
    tournament.refresh_from_db()
    return round_


def url(name, tournament, *args):
    return reverse(f"tournaments:{name}", args=[tournament.pk, *args])


def test_list_and_home_are_public_drafts_are_not(client, tournament, organiser, register_players):
    register_players(tournament, 3)
    hidden = services.create_tournament(
        organiser=organiser, name="Secret Draft", date=tournament.date
    )
    response = client.get(reverse("tournaments:list"))
    assert response.status_code == 200
    assert b"Test Open" in response.content and b"Secret Draft" not in response.content
    home = client.get(url("home", tournament))
    assert home.status_code == 200 and b"Registration open" in home.content
    assert client.get(url("home", hidden)).status_code == 404
    client.force_login(organiser)
    assert b"Secret Draft" in client.get(reverse("tournaments:list")).content
    assert client.get(url("home", hidden)).status_code == 200


def test_pairings_sorted_by_table_and_by_name(
    client, tournament, organiser, judge, register_players
):
    register_players(tournament, 7)
    round_ = play_rounds(tournament, organiser, judge, 1, leave_open=True)
    matches = list(round_.matches.select_related("player_a__player", "player_b__player"))
    by_table = client.get(url("pairings", tournament, 1))
    assert by_table.status_code == 200
    body = by_table.content.decode()
    tables = sorted(m.table for m in matches if m.table)
    assert body.index(f">{tables[0]}<") < body.index(f">{tables[-1]}<")
    assert "BYE" in body
    by_name = client.get(url("pairings", tournament, 1) + "?sort=name").content.decode()
    names = sorted(
        r.player.display_name for m in matches for r in (m.player_a, m.player_b) if r is not None
    )
    listed = re.findall(r"<tr[^>]*>\s*<td>([^<]+?) <small", by_name)
    assert listed == names  # every player once, alphabetically


def test_draft_pairings_are_not_public(client, tournament, organiser, judge, register_players):
    register_players(tournament, 4)
    services.pair_next_round(tournament=tournament, by=organiser)
    assert client.get(url("pairings", tournament, 1)).status_code == 403
    client.force_login(judge)
    assert client.get(url("pairings", tournament, 1)).status_code == 200


def test_release_switches_hide_pages_from_public_not_from_staff(
    client, tournament, organiser, judge, register_players, make_player
):
    register_players(tournament, 4)
    play_rounds(tournament, organiser, judge, 1)
    Tournament.objects.filter(pk=tournament.pk).update(
        publish_pairings=False, publish_standings=False, publish_results=False
    )
    for name, args in (
        ("pairings", [1]),
        ("pairings_csv", [1]),
        ("print_pairings", [1]),
        ("standings", []),
        ("standings_csv", []),
        ("bracket", []),
    ):
        assert client.get(url(name, tournament, *args)).status_code == 403, name
    stranger = make_player("Stranger")
    client.force_login(stranger.user)
    assert client.get(url("standings", tournament)).status_code == 403
    for user in (judge, organiser):
        client.force_login(user)
        assert client.get(url("standings", tournament)).status_code == 200
        assert client.get(url("pairings", tournament, 1)).status_code == 200
    # Results hidden, pairings public: the pairings page shows no scores.
    Tournament.objects.filter(pk=tournament.pk).update(publish_pairings=True)
    client.logout()
    page = client.get(url("pairings", tournament, 1)).content.decode()
    assert "2-0" not in page and "Result" not in page


def test_standings_explain_each_row_and_csv(client, tournament, organiser, judge, register_players):
    regs = register_players(tournament, 6)
    play_rounds(tournament, organiser, judge, 2)
    services.drop(registration=regs[0], by=organiser, reason="left")
    response = client.get(url("standings", tournament))
    assert response.status_code == 200
    body = response.content.decode()
    assert body.count("<details data-row=") == 6 and "dropped" in body
    # Each row links to its arithmetic, which is not in the table itself.
    assert "OMW = " not in body
    table = selectors.standings(tournament)
    for row in table:
        link = f'href="/tournaments/{tournament.pk}/standings/{row.player_id}/"'
        assert link in body
        page = client.get(url("standings_row", tournament, row.player_id)).content.decode()
        lines = table.explain(row.player_id).lines()
        assert lines[0] in page and "Match-win %" in page
        assert all(html.escape(line) in page for line in lines)
    exported = client.get(url("standings_csv", tournament))
    assert exported["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(exported.content.decode())))
    assert rows[0][:5] == ["rank", "name", "registration", "points", "record"]
    assert len(rows) == 7 and rows[1][0] == "1"


def test_pairings_csv_and_print_board(client, tournament, organiser, judge, register_players):
    register_players(tournament, 5)
    round_ = play_rounds(tournament, organiser, judge, 1)
    rows = list(
        csv.reader(io.StringIO(client.get(url("pairings_csv", tournament, 1)).content.decode()))
    )
    assert rows[0] == ["round", "table", "player_a", "points_a", "player_b", "points_b", "result"]
    assert len(rows) == 1 + round_.matches.count()
    assert any(r[4] == "BYE" for r in rows[1:])
    board = client.get(url("print_pairings", tournament, 1))
    assert board.status_code == 200 and board.content.decode().count("<tr>") == 1 + 5


def test_sets_page_shows_registered_dice_once_swiss_starts(
    client, tournament, organiser, judge, register_players
):
    register_players(tournament, 4)
    assert client.get(url("sets", tournament)).status_code == 403
    play_rounds(tournament, organiser, judge, 1, leave_open=True)
    body = client.get(url("sets", tournament)).content.decode()
    assert body.count('class="die"') >= 4 * 9
    assert "Player 01" in body


def test_bracket_drawn_with_seeds_and_winners(
    client, tournament, organiser, judge, register_players
):
    register_players(tournament, 8)
    Tournament.objects.filter(pk=tournament.pk).update(swiss_rounds=3, top_cut_size=4)
    tournament.refresh_from_db()
    play_rounds(tournament, organiser, judge, 3)
    assert b"has not started" in client.get(url("bracket", tournament)).content
    client.force_login(organiser)
    client.post(url("action", tournament, "top_cut"), {"confirmed": "yes"})
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.TOP_CUT
    top = tournament.rounds.get(stage=Round.Stage.TOP_CUT)
    services.publish_round(round_=top, by=organiser)
    play_round_by_judge(top, judge, random.Random(1))
    client.logout()
    body = client.get(url("bracket", tournament)).content.decode()
    assert "Semifinals" in body and "Final" in body
    assert body.count('class="bracket-match"') == 3
    assert body.count("slot won") == 2


@pytest.mark.parametrize("players", [8, 32])
def test_public_list_pages_run_a_constant_number_of_queries(
    client, tournament, organiser, judge, register_players, players, django_assert_max_num_queries
):
    register_players(tournament, players)
    play_rounds(tournament, organiser, judge, 2, leave_open=True)
    pages = [
        (url("standings", tournament), 8),
        (url("standings_csv", tournament), 8),
        (url("pairings", tournament, 2), 8),
        (url("pairings", tournament, 2) + "?sort=name", 8),
        (url("pairings_csv", tournament, 2), 8),
        (url("print_pairings", tournament, 2), 8),
        (url("sets", tournament), 6),
        (url("home", tournament), 8),
        (reverse("tournaments:list"), 4),
    ]
    for address, limit in pages:
        with django_assert_max_num_queries(limit):
            assert client.get(address).status_code == 200, address
