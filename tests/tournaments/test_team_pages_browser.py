"""Team events in a real browser on a phone-sized screen, role by role: the organiser
creates a team event and opens registration; a captain registers their team, naming each
member's dice set; the teammate accepts on the team's page; the organiser enters a team
at the desk, pairs, publishes and starts the rounds; the head judge enters each team
match's result; the team standings and, once the event is finished, every member's final
place show. Then each team page passes axe-core with no serious violation and scrolls no
wider than the phone (docs/events.md "Team events", docs/accessibility.md)."""

import random

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.conftest import random_dice_set
from tests.test_accessibility import OWN_CHECKS, SERIOUS, report
from tests.tournaments.test_pages_browser import log_in
from tournaments.models import Match, Registration, Round, Team, Tournament

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

FITS = "document.documentElement.scrollWidth <= window.innerWidth + 1"
NAMES = ["Ana", "Ben", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal"]


@pytest.fixture
def players(make_player):
    rng = random.Random(15)
    made = []
    for name in NAMES:
        player = make_player(name)
        made.append((player, random_dice_set(player, rng)))
    return made


def _press(page, selector):
    """Press a button; where the page asks for a confirmation first, give it."""
    page.click(selector)
    page.wait_for_selector("#confirm-step, .messages li")
    if page.locator("#confirm-button").count():
        page.click("#confirm-button")
        page.wait_for_selector(".messages li")
    assert page.locator(".messages li.success").count(), page.locator("main").inner_text()[:800]


def _fits(page, path):
    assert page.evaluate(FITS), f"{path} scrolls sideways on a phone"


def _create_event(page, base):
    log_in(page, base, "org", "/tournaments/new/")
    page.fill("#id_name", "Pairs Night")
    page.fill("#id_date", "2026-12-05")
    page.select_option("#id_team_size", "2")
    page.select_option("#id_head_judge", label="judy")
    page.fill("#id_swiss_rounds", "2")
    page.select_option("#id_top_cut_size", "0")
    page.click("#tournament-form button[type=submit]")
    page.wait_for_url("**/console/")
    event = Tournament.objects.get(name="Pairs Night")
    assert event.team_size == 2 and event.is_team_event
    page.click("#console-actions button:has-text('Open registration')")
    page.wait_for_selector(".messages li.success")
    assert Tournament.objects.get(pk=event.pk).status == Tournament.Status.REGISTRATION
    assert page.locator("#teams-link").is_visible()
    return event


def _captain_registers(page, base, event, captain, mate):
    (cap, cap_set), (mate_player, mate_set) = captain, mate
    url = f"/tournaments/{event.pk}/teams/"
    log_in(page, base, cap.user.username, url)
    _fits(page, url)
    page.fill("#id_name", "Ana's Anvils")
    page.select_option("#id_set_1", label=cap_set.name)
    page.fill("#id_set_2", f"{mate_player.display_name} — {mate_set.name}")
    page.click("#team-form button[type=submit]")
    page.wait_for_selector(".messages li.success")
    team = Team.objects.get(name="Ana's Anvils")
    assert page.url.endswith(f"/teams/{team.pk}/")
    assert "Waiting for every member" in page.locator("main").inner_text()
    assert [m.player_id for m in team.members.order_by("pk")] == [cap.pk, mate_player.pk]
    assert team.members.get(player=mate_player).dice_set_id == mate_set.pk
    return team


def _teammate_accepts(page, base, event, team, mate):
    """The teammate finds the team from the event's page and accepts it there."""
    url = f"/tournaments/{event.pk}/teams/{team.pk}/"
    log_in(page, base, mate.user.username, f"/tournaments/{event.pk}/")
    assert "accept or decline" in page.locator("#my-team").inner_text()
    page.click("#my-team a")
    page.wait_for_url(f"**{url}")
    _fits(page, url)
    page.click("button:has-text('Accept my place in this team')")
    page.wait_for_selector(".messages li.success")
    assert "Waiting for every member" not in page.locator("main").inner_text()
    assert all(m.team_accepted for m in team.members.all())


def _organiser_enters_teams(page, base, event, players):
    url = f"/tournaments/{event.pk}/teams/"
    log_in(page, base, "org", url)
    for number, first in ((2, 2), (3, 4), (4, 6)):
        (one, one_set), (two, two_set) = players[first], players[first + 1]
        page.fill("#id_name", f"Team {number}")
        page.fill("#id_set_1", f"{one.display_name} — {one_set.name}")
        page.fill("#id_set_2", f"{two.display_name} — {two_set.name}")
        page.click("#team-form button[type=submit]")
        page.wait_for_selector(".messages li.success")
        page.goto(f"{base}{url}")
    rows = page.locator("#teams tbody tr")
    assert rows.count() == 4
    assert rows.locator("td:last-child").all_inner_texts() == ["Complete"] * 4


def _play_round(page, base, event, number):
    """The organiser pairs, publishes and starts round ``number``; the head judge enters
    every team match's result (the team on the left wins 2-1); the organiser closes it."""
    pk = event.pk
    log_in(page, base, "org", f"/tournaments/{pk}/console/")
    page.click("#pair-form button[type=submit]")
    page.wait_for_url(f"**/tournaments/{pk}/rounds/{number}/manage/")
    _press(page, "#publish-form button[type=submit]")
    _press(page, "#start-form button[type=submit]")
    round_ = Round.objects.get(tournament=event, number=number)
    assert round_.status == Round.Status.IN_PROGRESS
    pairings = f"/tournaments/{pk}/rounds/{number}/"
    page.goto(f"{base}{pairings}")
    shown = page.locator("#pairings").inner_text()
    assert "Ana's Anvils" in shown and "Team 2" in shown and "Ben" not in shown
    _fits(page, pairings)

    log_in(page, base, "judy", f"/tournaments/{pk}/results/")
    for match in round_.matches.filter(player_b__isnull=False).order_by("table"):
        path = f"/tournaments/{pk}/matches/{match.pk}/"
        page.goto(f"{base}{path}")
        _fits(page, path)
        for game, side in ((1, "a"), (2, "b"), (3, "a")):
            page.select_option(f"#result-form select[name=game_{game}]", side)
        _press(page, "#result-form button[type=submit]")
        assert Match.objects.get(pk=match.pk).status == Match.Status.CONFIRMED

    log_in(page, base, "org", f"/tournaments/{pk}/rounds/{number}/manage/")
    _press(page, "#close-form button[type=submit]")
    return round_


def test_a_team_event_walked_through_by_every_role(live_server, page, organiser, judge, players):
    base = live_server.url
    event = _create_event(page, base)
    team = _captain_registers(page, base, event, players[0], players[1])
    _teammate_accepts(page, base, event, team, players[1][0])
    _organiser_enters_teams(page, base, event, players)
    assert Registration.objects.filter(tournament=event).count() == 8

    for number in (1, 2):
        _play_round(page, base, event, number)

    # The team standings: teams, not their captains, with their match points.
    standings = f"/tournaments/{event.pk}/standings/"
    log_in(page, base, "ana", standings)
    table = page.locator("main table").first.inner_text()
    assert all(name in table for name in ("Ana's Anvils", "Team 2", "Team 3", "Team 4"))
    assert "Cid" not in table and "Eve" not in table
    _fits(page, standings)

    log_in(page, base, "org", f"/tournaments/{event.pk}/console/")
    _press(page, "#finish-form button[type=submit]")
    assert Tournament.objects.get(pk=event.pk).status == Tournament.Status.FINISHED
    # Every member of a team shares its final place, on the team's page.
    team_path = f"/tournaments/{event.pk}/teams/{team.pk}/"
    page.goto(f"{base}{team_path}")
    place = Registration.objects.get(pk=team.unit_id).final_place
    assert place
    cells = page.locator("#members tbody tr td:last-child").all_inner_texts()
    assert cells == [str(place), str(place)]


def test_team_pages_pass_axe_and_fit_a_phone(live_server, page, organiser, judge, players):
    from tournaments import services

    base = live_server.url
    event = services.create_tournament(
        organiser=organiser,
        name="Axe Teams",
        date=__import__("datetime").date(2026, 12, 5),
        head_judge=judge,
        team_size=2,
    )
    services.change_status(tournament=event, to=Tournament.Status.REGISTRATION, by=organiser)
    teams = []
    for i in range(4):
        pair = players[2 * i : 2 * i + 2]
        teams.append(
            services.register_team(
                tournament=event, name=f"Crew {i}", captain=pair[0][0], members=pair, by=organiser
            )
        )
    round_ = services.pair_next_round(tournament=event, by=organiser, seed="axe")
    services.publish_round(round_=round_, by=organiser)
    services.start_round(round_=round_, by=judge)
    match = round_.matches.first()
    pk = event.pk
    views = {
        "ana": [
            f"/tournaments/{pk}/teams/",
            f"/tournaments/{pk}/teams/{teams[0].pk}/",
            f"/tournaments/{pk}/my-match/",
            f"/tournaments/{pk}/standings/",
            f"/tournaments/{pk}/rounds/1/",
        ],
        "ben": [
            f"/tournaments/{pk}/my-match/",
            f"/tournaments/{pk}/",
            f"/tournaments/{pk}/sets/",
        ],
        "org": [
            f"/tournaments/{pk}/teams/",
            f"/tournaments/{pk}/teams/{teams[1].pk}/",
            f"/tournaments/{pk}/console/",
            f"/tournaments/{pk}/rounds/1/manage/",
        ],
        "judy": [f"/tournaments/{pk}/matches/{match.pk}/", f"/tournaments/{pk}/results/"],
    }
    axe = Axe()
    problems = []
    for username, paths in views.items():
        log_in(page, base, username, paths[0])
        for path in paths:
            response = page.goto(base + path)
            assert response.status == 200, (username, path, response.status)
            results = axe.run(page)
            serious = [v for v in results.response["violations"] if v["impact"] in SERIOUS]
            if serious:
                problems.append(report(f"{username} {path}", serious))
            problems += [f"{username} {path}: {p}" for p in page.evaluate(OWN_CHECKS)]
            if not page.evaluate(FITS):
                problems.append(f"{username} {path}: scrolls sideways on a phone")
    assert not problems, "\n" + "\n".join(problems)
