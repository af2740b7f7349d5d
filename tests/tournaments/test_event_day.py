"""Event day: the tournament home per role, phone-first pairings (search, own table,
round clock, points at pairing), walk-in registration at the desk, the searchable
registration field, the bracket's scores and a finished event's podium."""

import random
import re

import pytest
from django.db import connection
from django.db.models import Q
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from players import services as player_services
from players.models import DiceSet, Player
from tests.tournaments.conftest import play_round_by_judge
from tournaments import selectors, services
from tournaments.models import AuditEntry, Registration, Tournament

pytestmark = pytest.mark.django_db


def url(name, tournament, *args):
    return reverse(f"tournaments:{name}", args=[tournament.pk, *args])


def play_rounds(tournament, organiser, judge, count, *, seed=3, start_last=True):
    """Pair, publish, start and play ``count`` Swiss rounds; the last stays open."""
    rng = random.Random(seed)
    round_ = None
    for number in range(1, count + 1):
        round_ = services.pair_next_round(tournament=tournament, by=organiser)
        services.publish_round(round_=round_, by=organiser)
        if number == count:
            if start_last:
                round_ = services.start_round(round_=round_, by=judge)
            break
        services.start_round(round_=round_, by=judge)
        play_round_by_judge(round_, judge, rng)
        services.close_round(round_=round_, by=organiser)
    tournament.refresh_from_db()
    return round_


def body_rows(page: str) -> list[str]:
    """The opening tags of the pairings table's body rows, in order."""
    tbody = page.split('id="pairings"', 1)[1].split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return re.findall(r"<tr[^>]*>", tbody)


def shown_points(page: str) -> list[int]:
    tbody = page.split('id="pairings"', 1)[1].split("</tbody>", 1)[0]
    return [int(n) for n in re.findall(r'<small class="muted">\((\d+)\)</small>', tbody)]


# --- pairings ---------------------------------------------------------------------------


def test_pairings_search_without_script_filters_on_the_server(
    client, tournament, organiser, judge, register_players
):
    register_players(tournament, 8)
    round_ = play_rounds(tournament, organiser, judge, 1)
    page = client.get(url("pairings", tournament, 1) + "?q=PLAYER 03").content.decode()
    rows = body_rows(page)
    match = round_.matches.get(
        Q(player_a__player__display_name="Player 03")
        | Q(player_b__player__display_name="Player 03")
    )
    assert len(rows) == 1 and rows[0].endswith(f'data-match="{match.pk}">')
    assert "player 03" in rows[0]
    by_name = client.get(url("pairings", tournament, 1) + "?sort=name&q=layer 03").content
    assert len(body_rows(by_name.decode())) == 1
    assert client.get(url("pairings", tournament, 1) + "?q=" + "x" * 500).status_code == 200
    assert client.get(url("pairings", tournament, 1) + "?q=%00").status_code == 400  # bad input
    nobody = client.get(url("pairings", tournament, 1) + "?q=zz").content.decode()
    assert body_rows(nobody) == [] and 'id="pairings-none" class="muted">' in nobody
    # Every row carries what the script searches, lower case.
    everyone = client.get(url("pairings", tournament, 1)).content.decode()
    assert all('data-search="player ' in row for row in body_rows(everyone))


def test_own_table_is_highlighted_and_first_with_the_round_clock(
    client, tournament, organiser, judge, register_players
):
    registrations = register_players(tournament, 8)
    round_ = play_rounds(tournament, organiser, judge, 1)
    last = round_.matches.order_by("-table").first()
    me = last.player_b.player
    client.force_login(me.user)
    page = client.get(url("pairings", tournament, 1)).content.decode()
    rows = body_rows(page)
    assert f'data-match="{last.pk}"' in rows[0] and 'class="mine"' in rows[0]
    assert sum('class="mine"' in row for row in rows) == 1
    assert f'Your table: <strong class="table-no">{last.table}</strong>' in page
    assert last.player_a.player.display_name in page.split('id="my-table"')[1].split("</p>")[0]
    # The round clock counts down from the server's deadline (countdown.js).
    assert 'id="round-timer"' in page and 'data-deadline="' in page
    assert "document.body.dataset.serverTime" in page
    by_name = body_rows(client.get(url("pairings", tournament, 1) + "?sort=name").content.decode())
    assert 'class="mine"' in by_name[0] and 'class="mine"' in by_name[1]
    # Someone else, or nobody, sees no highlight.
    client.logout()
    page = client.get(url("pairings", tournament, 1)).content.decode()
    assert 'class="mine"' not in page and 'id="my-table"' not in page
    assert len(registrations) == 8


def test_no_round_clock_before_the_round_starts(
    client, tournament, organiser, judge, register_players
):
    register_players(tournament, 4)
    play_rounds(tournament, organiser, judge, 1, start_last=False)
    page = client.get(url("pairings", tournament, 1)).content.decode()
    assert 'id="round-timer"' not in page and "data-deadline" not in page


def test_pairings_show_the_points_each_player_had_when_the_round_was_paired(
    client, tournament, organiser, judge, register_players
):
    register_players(tournament, 8)
    round_2 = play_rounds(tournament, organiser, judge, 2)
    before = {row.player_id: row.match_points for row in selectors.standings(tournament)}
    play_round_by_judge(round_2, judge, random.Random(5))
    now = {row.player_id: row.match_points for row in selectors.standings(tournament)}
    assert now != before  # round 2's results changed everyone's totals
    matches = list(round_2.matches.order_by("table"))
    expected = [before[p] for m in matches for p in (m.player_a_id, m.player_b_id) if p is not None]
    page = client.get(url("pairings", tournament, 2)).content.decode()
    assert shown_points(page) == expected
    # Round 1 was paired with everyone on 0 points.
    assert set(shown_points(client.get(url("pairings", tournament, 1)).content.decode())) == {0}
    csv_body = client.get(url("pairings_csv", tournament, 2)).content.decode()
    first = csv_body.splitlines()[1].split(",")
    assert int(first[3]) == before[matches[0].player_a_id]


def _count_queries(client, address) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(address).status_code == 200, address
    return len(queries)


def _role_users(tournament, judge, organiser):
    player = Registration.objects.filter(tournament=tournament).first().player.user
    return {"anonymous": None, "player": player, "judge": judge, "organiser": organiser}


def test_pages_per_role_run_the_same_number_of_queries_for_8_and_24_players(
    client, make_user, organiser, judge, register_players
):
    """The pairings (both sorts, with a search), the home and the clocks: as many
    queries for a big event as for a small one, for every role."""
    counts = {}
    for size in (8, 24):
        event = services.create_tournament(
            organiser=organiser,
            name=f"Open {size}",
            date="2026-12-05",
            top_cut_size=8,
            head_judge=judge,
        )
        services.change_status(tournament=event, to=Tournament.Status.REGISTRATION, by=organiser)
        register_players(event, size, prefix=f"P{size}")
        play_rounds(event, organiser, judge, 2)
        pages = [
            url("pairings", event, 2),
            url("pairings", event, 2) + "?sort=name&q=p",
            url("home", event),
            url("clock", event, 2),
        ]
        for role, user in _role_users(event, judge, organiser).items():
            client.logout()
            if user is not None:
                client.force_login(user)
            for index, address in enumerate(pages):
                counts.setdefault((role, index), []).append(_count_queries(client, address))
            if role in ("judge", "organiser"):
                counts.setdefault((role, "clocks"), []).append(
                    _count_queries(client, url("clocks", event, 2))
                )
    for key, (small, big) in counts.items():
        assert small == big, f"{key}: {small} queries for 8 players, {big} for 24"
        assert big <= 14, f"{key}: {big} queries"


# --- the tournament home ------------------------------------------------------------------


def test_home_links_everything_each_role_may_use(
    client, tournament, organiser, judge, register_players
):
    registrations = register_players(tournament, 4)
    play_rounds(tournament, organiser, judge, 1)
    pk = tournament.pk
    clock, clocks = f"/tournaments/{pk}/rounds/1/clock/", f"/tournaments/{pk}/rounds/1/clocks/"

    page = client.get(url("home", tournament)).content.decode()
    assert f'href="/tournaments/{pk}/rounds/1/"' in page and f'href="{clock}"' in page
    assert f'href="/tournaments/{pk}/standings/"' in page and 'href="/games/"' in page
    for hidden in ('id="links-player"', 'id="links-judge"', 'id="links-organiser"', clocks):
        assert hidden not in page

    client.force_login(registrations[0].player.user)
    page = client.get(url("home", tournament)).content.decode()
    assert 'id="links-player"' in page and f'href="/tournaments/{pk}/my-match/"' in page
    assert 'id="links-judge"' not in page and clocks not in page

    client.force_login(judge)
    page = client.get(url("home", tournament)).content.decode()
    assert f'href="{clocks}"' in page and f'href="/tournaments/{pk}/results/"' in page
    assert f'href="/tournaments/{pk}/rounds/1/slips/"' in page
    assert f'href="/tournaments/{pk}/walk-in/"' not in page  # judges do not register

    client.force_login(organiser)
    page = client.get(url("home", tournament)).content.decode()
    assert f'href="/tournaments/{pk}/walk-in/"' in page
    assert f'href="/tournaments/{pk}/console/"' in page and f'href="{clocks}"' in page
    # Every page of the site links the games.
    assert 'href="/games/"' in client.get(reverse("tournaments:list")).content.decode()


def test_home_hides_the_clock_links_of_unpublished_pairings(
    client, tournament, organiser, judge, register_players
):
    register_players(tournament, 4)
    play_rounds(tournament, organiser, judge, 1)
    services.update_tournament(tournament=tournament, by=organiser, publish_pairings=False)
    page = client.get(url("home", tournament)).content.decode()
    assert "/rounds/1/clock/" not in page and "/rounds/1/" not in page


# --- walk-in registration -----------------------------------------------------------------


def walk_in_post(playing, additional=(), **fields):
    data = {"display_name": "Walk In", "username": "", "country": "", "club": "", "name": "Main"}
    data.update(fields)
    for prefix, dice in (("playing", playing), ("additional", additional)):
        for i, die in enumerate(dice):
            data[f"{prefix}_{i}_type"] = die["type"]
            data[f"{prefix}_{i}_colour"] = die["colour"]
            if die.get("rare"):
                data[f"{prefix}_{i}_rare"] = "on"
    return data


def _state():
    return (
        Player.objects.count(),
        DiceSet.objects.count(),
        Registration.objects.count(),
        AuditEntry.objects.count(),
    )


def test_walk_in_registers_player_and_set_in_one_step(
    client, tournament, organiser, valid_playing, valid_additional, make_user
):
    account = make_user("walker")
    client.force_login(organiser)
    assert client.get(url("walk_in", tournament)).status_code == 200
    response = client.post(
        url("walk_in", tournament),
        walk_in_post(valid_playing, valid_additional, username="walker", country="it"),
        follow=True,
    )
    assert "Walk In registered." in response.content.decode()
    registration = Registration.objects.get(tournament=tournament)
    player = registration.player
    assert player.display_name == "Walk In" and player.user == account and player.country == "IT"
    assert player.created_by == organiser
    assert registration.playing_dice == valid_playing
    assert registration.additional_dice == valid_additional
    assert registration.dice_set.is_frozen
    assert AuditEntry.objects.filter(action="registration.walk_in").count() == 1


def test_walk_in_during_swiss_is_a_late_entry(
    client, tournament, organiser, judge, register_players, valid_playing
):
    register_players(tournament, 4)
    play_rounds(tournament, organiser, judge, 1)
    client.force_login(organiser)
    response = client.post(url("walk_in", tournament), walk_in_post(valid_playing), follow=True)
    assert "Late entry from round 2." in response.content.decode()


@pytest.mark.parametrize(
    "change, field_error",
    [
        ({"display_name": "  "}, "display_name"),
        ({"username": "nobody-here"}, "username"),
        ({"username": "alice"}, "username"),  # already has a player profile
        ({"name": ""}, "name"),
        ({"playing_0_colour": ""}, "playing_0_colour"),
        ({"playing_0_type": "no-such-die"}, "playing_0_type"),
        ({f"playing_{i}_type": "crusher" for i in range(9)}, None),  # attack dice only
        ({"rare": True}, None),  # more than three rare dice
        ({"additional_0_colour": ""}, "additional_0_type"),  # a type without a colour
    ],
)
def test_walk_in_bad_input_is_a_form_error_and_changes_nothing(
    client, tournament, organiser, make_player, valid_playing, valid_additional, change, field_error
):
    make_player("Alice")
    client.force_login(organiser)
    data = walk_in_post(valid_playing, valid_additional)
    if change.pop("rare", False):
        for i in range(4):
            data[f"playing_{i}_rare"] = "on"
    data.update(change)
    before = _state()
    response = client.post(url("walk_in", tournament), data)
    assert response.status_code == 200
    form = response.context["form"]
    assert form.errors
    if field_error:
        assert field_error in form.errors, form.errors
    else:
        assert form.non_field_errors(), form.errors
    assert _state() == before


def test_walk_in_failing_at_registration_leaves_nothing_behind(
    client, tournament, organiser, valid_playing
):
    """The set and player are valid, the registration fails: all or nothing."""
    client.force_login(organiser)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.TOP_CUT)
    before = _state()
    response = client.post(url("walk_in", tournament), walk_in_post(valid_playing))
    assert response.status_code == 200 and response.context["form"].non_field_errors()
    assert _state() == before
    tournament.refresh_from_db()
    with pytest.raises(Exception) as error:
        services.register_walk_in(
            tournament=tournament,
            by=organiser,
            display_name="Late",
            set_name="Main",
            playing_dice=valid_playing,
        )
    assert "Registration is not open" in str(error.value)
    assert _state() == before


def test_walk_in_is_for_organisers_only(client, tournament, judge, make_player, valid_playing):
    player = make_player("Alice")
    before = _state()
    for user in (judge, player.user):
        client.force_login(user)
        assert client.get(url("walk_in", tournament)).status_code == 403
        assert (
            client.post(url("walk_in", tournament), walk_in_post(valid_playing)).status_code == 403
        )
    client.logout()
    assert client.post(url("walk_in", tournament), walk_in_post(valid_playing)).status_code == 302
    assert _state() == before


# --- the searchable registration field ------------------------------------------------------


def test_registration_field_suggests_sets_and_takes_a_typed_choice(
    client, tournament, organiser, make_player, valid_playing, valid_additional
):
    sets = {}
    for name in ("Zoe Quinn", "Adam Ant"):
        player = make_player(name)
        sets[name] = player_services.create_dice_set(
            player=player, name="Red", playing_dice=valid_playing, additional_dice=valid_additional
        )
    client.force_login(organiser)
    page = client.get(url("console", tournament)).content.decode()
    assert 'list="id_dice_set-options"' in page and '<datalist id="id_dice_set-options">' in page
    assert f'<option value="Adam Ant — Red · #{sets["Adam Ant"].pk}">' in page
    assert "<select" not in page.split('id="register-form"')[1].split("</form>")[0]
    # A suggestion as picked.
    client.post(
        url("register", tournament), {"dice_set": f"Adam Ant — Red · #{sets['Adam Ant'].pk}"}
    )
    # "player — set" typed out in other letters.
    client.post(url("register", tournament), {"dice_set": "zoe quinn — red"})
    # A player's name alone, when they have one set.
    loner = make_player("Lone Wolf")
    player_services.create_dice_set(player=loner, name="Grey", playing_dice=valid_playing)
    client.post(url("register", tournament), {"dice_set": " lone  WOLF "})
    assert set(
        Registration.objects.filter(tournament=tournament).values_list(
            "player__display_name", flat=True
        )
    ) == {"Adam Ant", "Zoe Quinn", "Lone Wolf"}
    # Registered sets are no longer suggested.
    page = client.get(url("console", tournament)).content.decode()
    assert "Adam Ant — Red" not in page.split('id="register-form"')[1].split("</form>")[0]


def test_a_registration_field_naming_no_set_changes_nothing(
    client, tournament, organiser, make_player, valid_playing
):
    player = make_player("Alice")
    player_services.create_dice_set(player=player, name="Red", playing_dice=valid_playing)
    client.force_login(organiser)
    player_services.create_dice_set(player=player, name="Blue", playing_dice=valid_playing)
    # "Alice" alone: she has two sets, so it names none.
    for typed in ("Alice", "Bob — Red", "#999999", "Alice — Red · #0", "\x00", ""):
        response = client.post(url("register", tournament), {"dice_set": typed}, follow=True)
        assert response.status_code == 200
        assert [m.level_tag for m in response.context["messages"]] == ["error"], typed
    assert not Registration.objects.exists()


def test_a_player_still_chooses_among_their_own_sets(
    client, tournament, make_player, valid_playing
):
    player = make_player("Alice")
    player_services.create_dice_set(player=player, name="Red", playing_dice=valid_playing)
    client.force_login(player.user)
    page = client.get(url("home", tournament)).content.decode()
    form = page.split('id="self-register"')[1].split("</form>")[0]
    assert "<select" in form and "datalist" not in form


# --- a finished event: podium and the bracket's scores ------------------------------------------


@pytest.fixture
def finished(tournament, register_players, organiser, judge):
    services.update_tournament(tournament=tournament, by=organiser, swiss_rounds=3, top_cut_size=4)
    register_players(tournament, 8)
    rng = random.Random(21)
    for _ in range(3):
        round_ = services.pair_next_round(tournament=tournament, by=organiser)
        services.publish_round(round_=round_, by=organiser)
        services.start_round(round_=round_, by=judge)
        play_round_by_judge(round_, judge, rng)
        services.close_round(round_=round_, by=organiser)
    services.start_top_cut(tournament=tournament, by=organiser)
    tournament.refresh_from_db()
    while tournament.status == Tournament.Status.TOP_CUT:
        current = tournament.rounds.order_by("-number").first()
        services.publish_round(round_=current, by=organiser)
        services.start_round(round_=current, by=judge)
        play_round_by_judge(current, judge, rng)
        services.close_round(round_=current, by=organiser)
        tournament.refresh_from_db()
    return tournament


def test_finished_home_shows_the_podium(client, finished, django_assert_max_num_queries):
    placings = selectors.placings(finished)
    champion = placings[0]
    with django_assert_max_num_queries(12):
        page = client.get(url("home", finished)).content.decode()
    podium = page.split('id="podium"')[1].split("</section>")[0]
    assert f"Champion</span> <strong>{champion.name}</strong>" in podium
    assert podium.count("<li") == sum(1 for p in placings if p.place and p.place <= 3)
    # Hidden results: no podium (it names the champion).
    Tournament.objects.filter(pk=finished.pk).update(publish_results=False)
    assert 'id="podium"' not in client.get(url("home", finished)).content.decode()


def test_bracket_shows_each_match_score(client, api, finished):
    page = client.get(url("bracket", finished)).content.decode()
    scores = re.findall(r'class="bracket-match" data-score="([^"]+)"', page)
    assert len(scores) == 3 and all(re.fullmatch(r"\d-\d(-\d)?", s) for s in scores)
    answer = api.get(f"/api/tournaments/{finished.pk}/bracket/").json()
    matches = [m for r in answer["rounds"] for m in r["matches"]]
    assert [m["score"] for m in matches] == scores
    for m in matches:  # the winner won more games
        won_a, won_b = map(int, m["score"].split("-")[:2])
        assert (m["winner"] == m["a"]["registration"]) == (won_a > won_b)
    Tournament.objects.filter(pk=finished.pk).update(publish_results=False)
    answer = api.get(f"/api/tournaments/{finished.pk}/bracket/").json()
    assert all(m["score"] is None for r in answer["rounds"] for m in r["matches"])
    assert "data-score" not in client.get(url("bracket", finished)).content.decode()


# --- in a real browser, on a phone ------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_pairings_on_a_phone_search_as_you_type_and_own_table_first(
    live_server, page, tournament, organiser, judge, register_players
):
    register_players(tournament, 8)
    round_ = play_rounds(tournament, organiser, judge, 1)
    last = round_.matches.order_by("-table").first()
    me = last.player_b.player
    address = f"/tournaments/{tournament.pk}/rounds/1/"
    page.goto(f"{live_server.url}/accounts/login/?next={address}")
    page.fill("input[name=username]", me.user.username)
    page.fill("input[name=password]", "correct-horse-9")
    page.click("main button[type=submit]")
    page.wait_for_url(f"**{address}")

    rows = page.locator("#pairings tbody tr")
    assert rows.count() == 4
    assert rows.first.get_attribute("data-match") == str(last.pk)
    assert "mine" in rows.first.get_attribute("class")
    assert page.locator("#my-table").is_visible()
    # The round clock counts down.
    timer = page.locator("#round-timer [data-deadline]")
    assert re.fullmatch(r"4[45]:\d\d", timer.inner_text())

    # Search as you type: no page load, the rows filter at once.
    page.fill("#pairings-search", "player 0")
    assert page.locator("#pairings tbody tr:visible").count() == 4
    page.fill("#pairings-search", me.display_name.upper())
    visible = page.locator("#pairings tbody tr:visible")
    assert visible.count() == 1 and visible.first.get_attribute("data-match") == str(last.pk)
    page.fill("#pairings-search", "nobody")
    assert page.locator("#pairings tbody tr:visible").count() == 0
    assert page.locator("#pairings-none").is_visible()
    page.press("#pairings-search", "Enter")  # filters here, does not reload
    assert page.url.endswith(address)
    page.fill("#pairings-search", "")
    assert page.locator("#pairings tbody tr:visible").count() == 4
    assert not page.locator("#pairings-none").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
