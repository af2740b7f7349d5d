"""Accessibility: axe-core, run in Chromium on a phone-sized screen, finds no serious or
critical violation on the main pages of every role, on the demo data (docs/accessibility.md).

The pages are read as each role sees them: anonymous visitors, a player in the middle of
a match (with an online game and a practice game), the head judge and the organiser.
"""

import datetime

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth.models import Group

from games import services as game_services
from games.demo import load_demo_game
from players.demo import DEMO_PASSWORD, load_demo_people
from players.roles import JUDGE_GROUP, ORGANISER_GROUP
from tournaments import services
from tournaments.demo import load_demo_tournament
from tournaments.models import Match, Round, Tournament
from tournaments.online import open_match

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SERIOUS = {"serious", "critical"}

# axe-core no longer reports duplicate ids (its duplicate-id rules are deprecated), and it
# takes a placeholder or a title for a label; the pages are held to more than that.
OWN_CHECKS = """() => {
  const seen = {}, problems = [];
  document.querySelectorAll("[id]").forEach(e => { seen[e.id] = (seen[e.id] || 0) + 1; });
  for (const [id, n] of Object.entries(seen)) if (n > 1) problems.push(`duplicate id "${id}" (${n} times)`);
  const controls = "input:not([type=hidden]):not([type=submit]):not([type=button]), select, textarea";
  document.querySelectorAll(controls).forEach(e => {
    const named = e.labels.length || e.getAttribute("aria-label") || e.getAttribute("aria-labelledby");
    if (!named) problems.push(`unlabelled control: ${e.outerHTML.slice(0, 160)}`);
  });
  return problems;
}"""
# The type symbol (the first group on a die's face) on the dice a player plays and swaps
# with, in CSS pixels on the phone: big enough to read without the tooltip.
SYMBOL_HEIGHTS = """() => [...document.querySelectorAll(
  "#game .die:not(.small) svg.die > g, #game .pick svg.die > g, .die-pick svg.die > g"
)].map(g => [g.closest("svg").getAttribute("aria-label"), g.getBoundingClientRect().height])"""
# Nothing may make the whole page scroll sideways on the phone: a wide table scrolls in
# its own box (.scroll). Returns what sticks out, empty when the page fits.
TOO_WIDE = """() => document.documentElement.scrollWidth <= window.innerWidth + 1 ? [] :
  [...document.querySelectorAll("main *")]
    .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
    .map(e => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (e.className ? "." + e.className : ""))
    .slice(0, 6)"""
MIN_SYMBOL_PX = 14  # the outline of a stroked symbol (the annulator) adds about 2 px


@pytest.fixture
def demo(settings):
    settings.GAMES_SWAP_WINDOW_SECONDS = 0  # an online game starts at once
    settings.CLOCKS_USE_ETA = False
    settings.GAMES_DEMO_BOT_DELAY = 0
    for name in (ORGANISER_GROUP, JUDGE_GROUP):  # a transactional test flushes them
        Group.objects.get_or_create(name=name)
    people = load_demo_people(players=16)
    organiser, judge, players = people["organiser"], people["judge"], people["players"]
    event = load_demo_tournament(organiser=organiser, judge=judge, players=players)
    demo_game = load_demo_game(judge=judge)
    live = Round.objects.get(tournament=event, number=3)
    disputed = Match.objects.filter(round=live, status=Match.Status.DISPUTED).first()
    pending = Match.objects.filter(round=live, status=Match.Status.PENDING).first()
    reported = Match.objects.filter(round=live, status=Match.Status.REPORTED).first()
    player_user = pending.player_a.player.user
    online = open_match(match=pending, by=player_user)
    practice = game_services.create_practice_game(
        by=player_user, playing_dice=list(pending.player_a.playing_dice)
    )
    forge = game_services.create_practice_game(by=player_user, game="dice-forge", seats=3)

    # A finished Swiss round and a drawn top cut, for the bracket.
    cup = services.create_tournament(
        organiser=organiser,
        name="Bracket Cup",
        date=datetime.date.today(),
        swiss_rounds=1,
        top_cut_size=4,
        head_judge=judge,
    )
    services.change_status(tournament=cup, to=Tournament.Status.REGISTRATION, by=organiser)
    for player in players[:6]:
        services.register(
            tournament=cup, player=player, dice_set=player.dice_sets.first(), by=organiser
        )
    first = services.pair_next_round(tournament=cup, by=organiser, seed="cup")
    services.publish_round(round_=first, by=organiser)
    services.start_round(round_=first, by=judge)
    for match in first.matches.filter(player_b__isnull=False):
        services.report_result(match=match, by=judge, games=["a", "a"])
    services.close_round(round_=Round.objects.get(pk=first.pk), by=organiser)
    services.start_top_cut(tournament=cup, by=organiser)

    # An event still taking registrations, for the organiser's registration desk.
    open_event = services.create_tournament(
        organiser=organiser, name="Spring Open", date=datetime.date.today(), head_judge=judge
    )
    services.change_status(tournament=open_event, to=Tournament.Status.REGISTRATION, by=organiser)
    for player in players[:3]:
        services.register(
            tournament=open_event, player=player, dice_set=player.dice_sets.first(), by=organiser
        )

    pk = event.pk
    return {
        "anonymous": (
            None,
            [
                "/",
                "/tournaments/",
                f"/tournaments/{pk}/",
                f"/tournaments/{pk}/rounds/3/",
                f"/tournaments/{pk}/standings/",
                f"/tournaments/{pk}/standings/{pending.player_a_id}/",
                f"/tournaments/{cup.pk}/bracket/",
                f"/tournaments/{pk}/sets/",
                "/accounts/login/",
                "/signup/",
            ],
        ),
        "player": (
            player_user.get_username(),
            [
                f"/tournaments/{pk}/my-match/",
                "/me/",
                "/me/dice-sets/",
                "/me/dice-sets/new/",
                "/games/",
                f"/games/{online.pk}/",
                f"/games/{practice.pk}/",
                f"/games/{forge.pk}/",
            ],
        ),
        # The opponent of a player who reported: the page to confirm or reject the report.
        "confirming player": (
            reported.player_b.player.user.get_username(),
            [f"/tournaments/{pk}/my-match/", f"/tournaments/{pk}/rounds/3/"],
        ),
        "judge": (
            judge.get_username(),
            [
                f"/tournaments/{pk}/results/",
                f"/tournaments/rounds/{live.pk}/clocks/",
                f"/tournaments/rounds/{live.pk}/clock/",
                f"/tournaments/{pk}/matches/{disputed.pk}/",
                f"/tournaments/{pk}/penalties/",
                f"/games/{demo_game.pk}/",
            ],
        ),
        "organiser": (
            organiser.get_username(),
            [
                f"/tournaments/{pk}/console/",
                f"/tournaments/{pk}/edit/",
                f"/tournaments/{pk}/rounds/3/manage/",
                f"/tournaments/{pk}/rounds/3/slips/",
                f"/tournaments/{open_event.pk}/console/",
                f"/tournaments/{cup.pk}/console/",
                "/tournaments/new/",
                "/players/",
            ],
        ),
    }


def log_in(page, base, username):
    page.goto("about:blank")  # no live poll of the last page answers after
    page.context.clear_cookies()
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", DEMO_PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_load_state()
    assert "/accounts/login/" not in page.url, f"{username} could not log in"


def report(path, violations) -> str:
    lines = []
    for v in violations:
        lines.append(f"{path}: {v['id']} ({v['impact']}) {v['help']}")
        for node in v["nodes"][:5]:
            lines.append(f"    {', '.join(map(str, node['target']))}: {node['html'][:160]}")
            lines.append(f"      {node.get('failureSummary', '').replace(chr(10), ' ')[:300]}")
        if len(v["nodes"]) > 5:
            lines.append(f"    ... and {len(v['nodes']) - 5} more")
    return "\n".join(lines)


@pytest.mark.parametrize("role", ["anonymous", "player", "confirming player", "judge", "organiser"])
def test_main_pages_have_no_serious_violations(role, live_server, page, demo):
    username, paths = demo[role]
    if username:
        log_in(page, live_server.url, username)
    axe = Axe()
    problems, measured = [], 0
    for path in paths:
        response = page.goto(live_server.url + path)
        assert response.status == 200, (path, response.status)
        results = axe.run(page)
        serious = [v for v in results.response["violations"] if v["impact"] in SERIOUS]
        if serious:
            problems.append(report(path, serious))
        problems += [f"{path}: {problem}" for problem in page.evaluate(OWN_CHECKS)]
        wide = page.evaluate(TOO_WIDE)
        if wide:
            problems.append(f"{path}: wider than the phone: {', '.join(wide)}")
        symbols = page.evaluate(SYMBOL_HEIGHTS)
        measured += len(symbols)
        problems += [
            f"{path}: the symbol of the {name} is {height:.1f} px high"
            for name, height in symbols
            if height < MIN_SYMBOL_PX
        ]
    assert not problems, "\n" + "\n".join(problems)
    if role == "player":  # the swap picker and both game boards were measured
        assert measured >= 2 * 9, measured
