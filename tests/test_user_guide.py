"""The user guide (docs/guide/): one browser walk per role takes the screenshots the
guide's pages embed, asserting on each page as it goes, so that a guide page and its
pictures cannot drift from the service (docs/guide/README.md).

Each walk saves its pictures under stable names (into docs/guide/img/ with
UPDATE_GUIDE=1, else under VAR_DIR) and then checks
that they are exactly the pictures its guide page references; a quick test (no browser)
checks that every picture a page references is there and that none is left over.
"""

import datetime
import os
import re
from pathlib import Path

import pytest
from django.contrib.auth.models import Group

from games.models import GameSession
from players.demo import DEMO_PASSWORD, load_demo_people
from players.models import Player
from players.roles import JUDGE_GROUP, ORGANISER_GROUP
from tests.conftest import VALID_ADDITIONAL, VALID_PLAYING
from tournaments import services
from tournaments.demo import load_demo_tournament
from tournaments.models import Match, Penalty, Registration, Round, Tournament

GUIDE = Path(__file__).resolve().parent.parent / "docs" / "guide"
IMAGES = GUIDE / "img"
# Every run takes the pictures; only UPDATE_GUIDE=1 writes them over the committed ones
# (other runs leave the working tree clean and write under VAR_DIR).
UPDATE_GUIDE = os.environ.get("UPDATE_GUIDE") == "1"
TAKEN = IMAGES if UPDATE_GUIDE else Path(os.environ.get("VAR_DIR", "var/test")) / "guide-img"
ROLES = ("organiser", "judge", "player", "spectator")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1024, "height": 768}
# A picture is the top of the page, at most this tall (CSS pixels, one image pixel each).
MAX_HEIGHT = {"phone": 1600, "desktop": 1100}
JPEG_QUALITY = 70
IMAGE_LINK = re.compile(r"!\[[^\]]*\]\((img/[^)\s]+)\)")


def referenced_images(role: str) -> list[str]:
    """The pictures a guide page embeds, as paths relative to docs/guide/."""
    return IMAGE_LINK.findall((GUIDE / f"{role}.md").read_text(encoding="utf-8"))


def test_every_picture_a_page_references_is_there_and_none_is_left_over():
    referenced = set()
    for role in ROLES:
        names = referenced_images(role)
        assert names, f"docs/guide/{role}.md shows no picture"
        for name in names:
            assert name.startswith(f"img/{role}-"), f"{role}.md: {name} is another role's"
            assert (GUIDE / name).is_file(), f"{role}.md: {name} is missing (run this module)"
        referenced |= set(names)
    on_disk = {f"img/{p.name}" for p in IMAGES.iterdir()}
    assert on_disk == referenced, f"pictures no page shows: {sorted(on_disk - referenced)}"
    index = (GUIDE / "README.md").read_text(encoding="utf-8")
    for role in ROLES:
        assert f"({role}.md)" in index, f"docs/guide/README.md does not link {role}.md"


class Camera:
    """Browser pages for one role, a phone and a desktop, and the pictures taken."""

    def __init__(self, browser, base: str, role: str):
        self.browser, self.base, self.role = browser, base, role
        self.contexts, self.taken = [], []

    def page(self, size: str, username: str | None = None):
        viewport = PHONE if size == "phone" else DESKTOP
        context = self.browser.new_context(
            viewport=viewport, locale="en-GB", timezone_id="Europe/Rome"
        )
        self.contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15000)
        page.size = size
        if username:
            page.goto(f"{self.base}/accounts/login/")
            page.get_by_label("Username").fill(username)
            page.get_by_label("Password").fill(DEMO_PASSWORD)
            page.locator("main button[type=submit]").click()
            page.wait_for_load_state()
            assert "/accounts/login/" not in page.url, f"{username} could not log in"
        return page

    def go(self, page, path: str):
        response = page.goto(self.base + path)
        assert response.status == 200, (path, response.status)
        return page

    def shoot(self, page, name: str, *, start=None, max_height=None):
        """The top of the page, or from the element `start` down (up to MAX_HEIGHT), as
        img/<role>-<name>.jpg."""
        filename = f"{self.role}-{name}.jpg"
        assert filename not in self.taken, f"{filename} taken twice"
        # The pictures kept in docs/guide/img/ wait for the page's last request (half a
        # second without one: a page that fetches after loading, as the play page does,
        # is drawn complete); the others, checked by name only, wait for the load.
        page.wait_for_load_state("networkidle" if UPDATE_GUIDE else "load")
        width = page.viewport_size["width"]
        top = 0
        if start is not None:
            top = max(0, int(start.evaluate("e => e.getBoundingClientRect().top + scrollY")) - 16)
        bottom = page.evaluate("document.documentElement.scrollHeight")
        height = min(bottom - top, max_height or MAX_HEIGHT[page.size])
        TAKEN.mkdir(parents=True, exist_ok=True)
        page.screenshot(
            path=TAKEN / filename,
            type="jpeg",
            quality=JPEG_QUALITY,
            full_page=True,
            clip={"x": 0, "y": top, "width": width, "height": height},
            animations="disabled",
            caret="hide",
        )
        self.taken.append(filename)

    def close(self):
        for context in self.contexts:
            context.close()

    def check_against_the_guide(self):
        """The walk took exactly the pictures the role's page shows."""
        taken = {f"img/{name}" for name in self.taken}
        referenced = set(referenced_images(self.role))
        assert taken == referenced, (
            f"{self.role}.md shows {sorted(referenced - taken)} that the walk did not take; "
            f"the walk took {sorted(taken - referenced)} that the page does not show"
        )


def message(page) -> str:
    """The page's messages; without any, its errors (for the assertion to show)."""
    if page.locator(".messages").count():
        return page.locator(".messages").inner_text()
    errors = page.locator(".errors, .error")
    return "no message; errors: " + " | ".join(errors.all_inner_texts())


def submit(page, button, *, confirm=True):
    """Click a submit button and, for an action that asks first, say yes."""
    button.click()
    page.wait_for_load_state()
    if confirm and page.locator("#confirm-step").count():
        page.locator("#confirm-button").click()
        page.wait_for_load_state()


@pytest.fixture
def people(settings):
    settings.GAMES_SWAP_WINDOW_SECONDS = 0  # an online game starts at once
    settings.CLOCKS_USE_ETA = False
    settings.GAMES_DEMO_BOT_DELAY = 0
    for name in (ORGANISER_GROUP, JUDGE_GROUP):  # a transactional test flushes them
        Group.objects.get_or_create(name=name)
    return load_demo_people(players=16)


@pytest.fixture
def cameras(browser, live_server):
    made = []

    def make(role):
        made.append(Camera(browser, live_server.url, role))
        return made[-1]

    yield make
    for camera in made:
        camera.close()


def demo_event(people):
    return load_demo_tournament(
        organiser=people["organiser"], judge=people["judge"], players=people["players"]
    )


def cup(people, *, name="Bracket Cup", players=6):
    """One Swiss round played and closed, the semifinals of the top 4 played."""
    organiser, judge = people["organiser"], people["judge"]
    event = services.create_tournament(
        organiser=organiser,
        name=name,
        date=datetime.date.today(),
        swiss_rounds=1,
        top_cut_size=4,
        head_judge=judge,
    )
    services.change_status(tournament=event, to=Tournament.Status.REGISTRATION, by=organiser)
    for player in people["players"][:players]:
        services.register(
            tournament=event, player=player, dice_set=player.dice_sets.first(), by=organiser
        )
    first = services.pair_next_round(tournament=event, by=organiser, seed="cup")
    services.publish_round(round_=first, by=organiser)
    services.start_round(round_=first, by=judge)
    for match in first.matches.filter(player_b__isnull=False):
        services.report_result(match=match, by=judge, games=["a", "a"])
    services.close_round(round_=Round.objects.get(pk=first.pk), by=organiser)
    services.start_top_cut(tournament=event, by=organiser)
    semifinals = event.rounds.order_by("-number").first()
    services.publish_round(round_=semifinals, by=organiser)
    services.start_round(round_=semifinals, by=judge)
    for match in semifinals.matches.all():
        services.report_result(match=match, by=judge, games=["a", "b", "a"])
    services.close_round(round_=Round.objects.get(pk=semifinals.pk), by=organiser)
    return event


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_organiser_guide(cameras, people):
    camera = cameras("organiser")
    organiser, judge = people["organiser"], people["judge"]
    desk = camera.page("desktop", organiser.get_username())

    # A new event: its settings, with a standings preset and round 1 seeded by rating.
    camera.go(desk, "/tournaments/new/")
    desk.locator("[name=name]").fill("Guide Open")
    desk.locator("[name=date]").fill(
        (datetime.date.today() + datetime.timedelta(days=14)).isoformat()
    )
    desk.locator("[name=venue]").fill("Circolo dei Dadi, Milano")
    desk.locator("[name=swiss_rounds]").fill("2")
    desk.locator("[name=top_cut_size]").select_option("4")
    desk.locator("[name=head_judge]").select_option(str(judge.pk))
    desk.locator("[name=standings_preset][value=mtr]").check()
    desk.locator("[name=round_one_seeding][value=rating]").check()
    desk.locator("[name=swiss_phases]").fill("1 top 6")
    camera.shoot(desk, "new-event")
    settings_part = desk.locator(".field", has=desk.locator("#id_round_one_seeding"))
    camera.shoot(desk, "new-event-standings", start=settings_part, max_height=1500)
    submit(desk, desk.locator("#tournament-form button[type=submit]"))
    assert "Tournament created." in message(desk)
    event = Tournament.objects.get(name="Guide Open")
    assert event.round_one_seeding == "rating" and event.swiss_rounds == 2
    assert event.head_judge_id == judge.pk
    assert event.swiss_phases  # after round 1, the top 6 go on
    assert event.percentage_floor == Tournament.Floor.MTR  # the preset set the floor
    pk = event.pk

    # Registration: open it, register players from the console.
    submit(desk, desk.get_by_role("button", name="Open registration"))
    assert Tournament.objects.get(pk=pk).status == Tournament.Status.REGISTRATION
    players = people["players"]
    for player in players[:6]:
        services.register(
            tournament=event, player=player, dice_set=player.dice_sets.first(), by=organiser
        )
    camera.go(desk, f"/tournaments/{pk}/console/")
    seventh = players[6]
    desk.locator("#register-form input[name=dice_set]").fill(seventh.display_name)
    camera.shoot(desk, "console-registration")
    submit(desk, desk.locator("#register-form button[type=submit]"))
    assert f"{seventh.display_name} registered." in message(desk)
    assert Registration.objects.filter(tournament=event, player=seventh).exists()

    # The walk-in desk: a player with no account and their set, on a phone.
    phone = camera.page("phone", organiser.get_username())
    camera.go(phone, f"/tournaments/{pk}/walk-in/")
    phone.get_by_label("Player's name").fill("Walk-in Wanda")
    for i, die in enumerate(VALID_PLAYING):
        phone.select_option(f"select[name=playing_{i}_type]", die["type"])
        phone.select_option(f"select[name=playing_{i}_colour]", die["colour"])
        if die["rare"]:
            phone.check(f"input[name=playing_{i}_rare]")
    camera.shoot(phone, "walk-in")
    submit(phone, phone.locator("#walk-in-form button[type=submit]"))
    assert Registration.objects.filter(tournament=event, player__display_name="Walk-in Wanda")
    assert Registration.objects.filter(tournament=event).count() == 8

    # Check-in: open it, check players in as they arrive.
    camera.go(desk, f"/tournaments/{pk}/console/")
    submit(desk, desk.get_by_role("button", name="Open check-in"))
    assert Tournament.objects.get(pk=pk).status == Tournament.Status.CHECK_IN
    check_in = desk.get_by_role("button", name="Check in", exact=True)
    for _ in range(7):
        submit(desk, check_in.first)
    assert "checked in." in message(desk)
    assert check_in.count() == 1  # one player still to come
    camera.shoot(desk, "check-in")
    submit(desk, check_in.first)
    assert not Registration.objects.filter(tournament=event, checked_in=False).exists()

    # Round 1: pair it as a draft, look at it, publish it, start it.
    submit(desk, desk.locator("#pair-form button[type=submit]"))
    assert "Round paired as a draft" in message(desk)
    camera.shoot(desk, "round-draft")
    desk.locator("#publish-form button[type=submit]").click()
    desk.wait_for_selector("#confirm-step")
    assert "cannot be paired again" in desk.locator("#confirm-step").inner_text()
    camera.shoot(desk, "publish-confirm")
    desk.locator("#confirm-button").click()
    desk.wait_for_load_state()
    assert "Pairings published." in message(desk)
    submit(desk, desk.locator("#start-form button[type=submit]"))
    first = Round.objects.get(tournament=event, number=1)
    assert first.status == Round.Status.IN_PROGRESS
    camera.shoot(desk, "round-started")

    # The round clock on the big screen.
    camera.go(desk, f"/tournaments/{pk}/rounds/1/clock/")
    assert "Round 1" in desk.locator("main").inner_text()
    camera.shoot(desk, "big-screen-clock")

    # Results come in (judges and players); the organiser closes the round.
    def play(round_):
        for match in round_.matches.filter(player_b__isnull=False):
            services.report_result(match=match, by=judge, games=["a", "b", "a"])

    play(first)
    camera.go(desk, f"/tournaments/{pk}/rounds/1/manage/")
    submit(desk, desk.locator("#close-form button[type=submit]"))
    assert Round.objects.get(pk=first.pk).status == Round.Status.CLOSED
    submit(desk, desk.locator("#pair-form button[type=submit]"))
    submit(desk, desk.locator("#publish-form button[type=submit]"))
    submit(desk, desk.locator("#start-form button[type=submit]"))
    second = Round.objects.get(tournament=event, number=2)
    play(second)
    camera.go(desk, f"/tournaments/{pk}/rounds/2/manage/")
    submit(desk, desk.locator("#close-form button[type=submit]"))

    # The top cut, round by round; closing the final finishes the event.
    assert "All 2 Swiss rounds have been played." in desk.locator("main").inner_text()
    camera.shoot(desk, "swiss-done")
    submit(desk, desk.locator("#top-cut-form button[type=submit]"))
    event.refresh_from_db()
    assert event.status == Tournament.Status.TOP_CUT
    while event.status == Tournament.Status.TOP_CUT:
        number = event.rounds.order_by("-number").first().number
        camera.go(desk, f"/tournaments/{pk}/rounds/{number}/manage/")
        submit(desk, desk.locator("#publish-form button[type=submit]"))
        submit(desk, desk.locator("#start-form button[type=submit]"))
        play(Round.objects.get(tournament=event, number=number))
        camera.go(desk, f"/tournaments/{pk}/rounds/{number}/manage/")
        submit(desk, desk.locator("#close-form button[type=submit]"))
        event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED

    # Placings on the event's page, the exports, the audit log.
    camera.go(desk, f"/tournaments/{pk}/")
    podium = desk.locator("#podium").inner_text()
    assert "Final placings" in podium
    camera.shoot(desk, "placings")
    for path, header in (
        (f"/tournaments/{pk}/standings.csv", "rank"),
        (f"/tournaments/{pk}/placings.csv", "place"),
        (f"/tournaments/{pk}/rounds/1/pairings.csv", "table"),
    ):
        response = desk.request.get(camera.base + path)
        assert response.status == 200, path
        assert header in response.text().splitlines()[0].lower(), (path, response.text()[:200])
    camera.go(desk, f"/tournaments/{pk}/audit/")
    audit = desk.locator("main").inner_text()
    assert "Guide Open" in audit or "published" in audit.lower()
    camera.shoot(desk, "audit-log")
    camera.check_against_the_guide()


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_judge_guide(cameras, people):
    camera = cameras("judge")
    judge = people["judge"]
    event = demo_event(people)
    pk, live = event.pk, Round.objects.get(tournament=event, number=3)
    disputed = Match.objects.filter(round=live, status=Match.Status.DISPUTED).first()
    phone = camera.page("phone", judge.get_username())

    # The queue: disputed results first, then reports waiting for a confirmation.
    camera.go(phone, f"/tournaments/{pk}/results/")
    queue = phone.locator("#queue").inner_text()
    assert disputed.player_a.player.display_name in queue
    camera.shoot(phone, "results-queue")

    # A disputed match: the judge hears both players and enters the result.
    camera.go(phone, f"/tournaments/{pk}/matches/{disputed.pk}/")
    phone.select_option("#result-form select[name=game_1]", "a")
    phone.select_option("#result-form select[name=game_2]", "b")
    phone.select_option("#result-form select[name=game_3]", "a")
    phone.get_by_label("Note").fill("Both players agreed at the table.")
    camera.shoot(phone, "enter-result")
    submit(phone, phone.locator("#result-form button[type=submit]"))
    assert "Result confirmed." in message(phone)
    disputed.refresh_from_db()
    assert disputed.status == Match.Status.CONFIRMED and disputed.winner_id == disputed.player_a_id

    # A confirmed result can be corrected later; the history keeps every version.
    camera.go(phone, f"/tournaments/{pk}/matches/{disputed.pk}/")
    assert "Correct the result" in phone.locator("main").inner_text()
    phone.select_option("#result-form select[name=game_1]", "a")
    phone.select_option("#result-form select[name=game_2]", "a")
    phone.select_option("#result-form select[name=game_3]", "")
    submit(phone, phone.locator("#result-form button[type=submit]"))
    assert "Result confirmed." in message(phone)
    disputed.refresh_from_db()
    assert (disputed.games_a, disputed.games_b) == (2, 0)
    camera.go(phone, f"/tournaments/{pk}/matches/{disputed.pk}/")
    camera.shoot(phone, "correct-result")

    # The clocks of the round: pause one table, give another extra minutes.
    desk = camera.page("desktop", judge.get_username())
    camera.go(desk, f"/tournaments/{pk}/rounds/3/clocks/")
    desk.get_by_role("button", name="Pause", exact=True).first.click()
    desk.wait_for_load_state()
    assert "Clock updated." in message(desk)
    assert desk.get_by_role("button", name="Resume", exact=True).count() == 1
    extend = desk.get_by_label(re.compile(r"Minutes to add, table")).first
    extend.fill("5")
    desk.get_by_label(re.compile(r"Reason for the extension")).first.fill("Late start")
    desk.get_by_role("button", name="Extend").first.click()
    desk.wait_for_load_state()
    assert "Clock updated." in message(desk)
    camera.shoot(desk, "clocks")

    # A penalty.
    camera.go(phone, f"/tournaments/{pk}/penalties/")
    offender = disputed.player_b
    phone.get_by_label("Player").select_option(label=offender.player.display_name)
    phone.get_by_label("Penalty").select_option("warning")
    phone.get_by_label("Reason").fill("Slow play")
    camera.shoot(phone, "penalty")
    phone.locator("#penalty-form button[type=submit]").click()
    phone.wait_for_selector("#confirm-step")
    assert "Record a warning" in phone.locator("#confirm-step").inner_text()
    phone.locator("#confirm-button").click()
    phone.wait_for_load_state()
    assert "Penalty recorded." in message(phone)
    assert Penalty.objects.filter(registration=offender, kind="warning").exists()
    camera.check_against_the_guide()


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_player_guide(cameras, people):
    camera = cameras("player")
    organiser = people["organiser"]
    event = demo_event(people)
    spring = services.create_tournament(
        organiser=organiser,
        name="Spring Open",
        date=datetime.date.today() + datetime.timedelta(days=30),
        head_judge=people["judge"],
    )
    services.change_status(tournament=spring, to=Tournament.Status.REGISTRATION, by=organiser)

    # An account of one's own.
    phone = camera.page("phone")
    camera.go(phone, "/signup/")
    phone.get_by_label("Username").fill("newcomer")
    phone.get_by_label("Display name").fill("Nina Newcomer")
    phone.locator("input[name=password1]").fill("dice-and-more-dice-9")
    phone.locator("input[name=password2]").fill("dice-and-more-dice-9")
    camera.shoot(phone, "sign-up")
    submit(phone, phone.get_by_role("button", name="Create my account"))
    assert "Welcome! Now register your first dice set." in message(phone)

    # A dice set: 9 playing dice and up to 3 additional ones; at most 3 rare of 9.
    camera.go(phone, "/me/dice-sets/new/")
    phone.get_by_label("Name").fill("Tournament set")
    for i, die in enumerate(VALID_PLAYING):
        phone.select_option(f"select[name=playing_{i}_type]", die["type"])
        phone.select_option(f"select[name=playing_{i}_colour]", die["colour"])
        phone.check(f"input[name=playing_{i}_rare]")  # one rare too many, on purpose
    for i, die in enumerate(VALID_ADDITIONAL):
        phone.select_option(f"select[name=additional_{i}_type]", die["type"])
        phone.select_option(f"select[name=additional_{i}_colour]", die["colour"])
    camera.shoot(phone, "dice-set-editor")
    submit(phone, phone.locator("#dice-set-form button[type=submit]"))
    error = phone.locator(".errors").inner_text()
    assert "at most 3 rare dice" in error
    camera.shoot(phone, "dice-set-too-many-rare")
    for i, die in enumerate(VALID_PLAYING):
        if not die["rare"]:
            phone.uncheck(f"input[name=playing_{i}_rare]")
    submit(phone, phone.locator("#dice-set-form button[type=submit]"))
    phone.wait_for_url("**/me/dice-sets/")
    assert phone.locator(".dice-set svg.die").count() == 9 + len(VALID_ADDITIONAL)
    camera.shoot(phone, "dice-sets")

    # Registering for an event.
    camera.go(phone, f"/tournaments/{spring.pk}/")
    choice = phone.locator("#self-register select option", has_text="Tournament set")
    phone.locator("#self-register select").select_option(choice.get_attribute("value"))
    submit(phone, phone.locator("#self-register button[type=submit]"))
    assert "Nina Newcomer registered." in message(phone)
    newcomer = Player.objects.get(display_name="Nina Newcomer")
    assert Registration.objects.filter(tournament=spring, player=newcomer).exists()
    assert "You are registered." in phone.locator("#my-registration").inner_text()
    camera.shoot(phone, "registered")

    # My match, in the demo event's round 3: a swap before game 1, then the report.
    live = Round.objects.get(tournament=event, number=3)
    pending = list(Match.objects.filter(round=live, status=Match.Status.PENDING).order_by("table"))
    match, online = pending[0], pending[1]
    reporter = match.player_a.player
    phone = camera.page("phone", reporter.user.get_username())
    camera.go(phone, f"/tournaments/{event.pk}/my-match/")
    assert phone.locator("#opponent").inner_text() == match.player_b.player.display_name
    phone.locator("#swap-form input[name=swap_out]").first.check()
    phone.locator("#swap-form input[name=swap_in]").first.check()
    camera.shoot(phone, "swap", start=phone.get_by_role("heading", name="My dice"))
    submit(phone, phone.locator("#swap-form button[type=submit]"))
    assert "Swap recorded." in message(phone)
    camera.shoot(phone, "my-match")
    phone.select_option("#result-form select[name=game_1]", "a")
    phone.select_option("#result-form select[name=game_2]", "a")
    submit(phone, phone.locator("#result-form button[type=submit]"))
    phone.wait_for_selector("#waiting")
    assert Match.objects.get(pk=match.pk).status == Match.Status.REPORTED
    camera.shoot(phone, "reported")

    # The opponent confirms (or rejects, saying what is wrong).
    opponent = camera.page("phone", match.player_b.player.user.get_username())
    camera.go(opponent, f"/tournaments/{event.pk}/my-match/")
    assert f"{reporter.display_name} reported" in opponent.locator("#pending-report").inner_text()
    camera.shoot(opponent, "confirm-report")
    submit(opponent, opponent.locator("#confirm-form button[type=submit]"))
    assert "Result confirmed." in message(opponent)
    assert Match.objects.get(pk=match.pk).status == Match.Status.CONFIRMED

    # Playing a match online.
    host = camera.page("phone", online.player_a.player.user.get_username())
    camera.go(host, f"/tournaments/{event.pk}/my-match/")
    submit(host, host.get_by_role("button", name="Play this match online"))
    host.wait_for_url(re.compile(r"/games/\d+/"))
    assert GameSession.objects.filter(pk=int(host.url.rstrip("/").split("/")[-1])).exists()
    host.wait_for_selector("#game")
    camera.shoot(host, "online-game")

    # Standings, and a player's page with the rating.
    camera.go(phone, f"/tournaments/{event.pk}/standings/")
    assert reporter.display_name in phone.locator("main").inner_text()
    camera.shoot(phone, "standings")
    camera.go(phone, f"/players/{reporter.pk}/")
    assert "Rating" in phone.locator("main").inner_text()
    camera.shoot(phone, "player-page")
    camera.check_against_the_guide()


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_spectator_guide(cameras, people):
    camera = cameras("spectator")
    event = demo_event(people)
    bracket_event = cup(people)
    pk = event.pk
    phone = camera.page("phone")

    camera.go(phone, "/tournaments/")
    assert event.name in phone.locator("main").inner_text()
    camera.go(phone, f"/tournaments/{pk}/")
    camera.shoot(phone, "event-home")

    # Pairings, and finding oneself by name.
    camera.go(phone, f"/tournaments/{pk}/rounds/3/")
    rows = phone.locator("#pairings tbody tr")
    everyone = rows.count()
    name = Match.objects.filter(round__tournament=event, round__number=3).first()
    name = name.player_a.player.display_name
    phone.get_by_role("searchbox").fill(name)
    phone.get_by_role("button", name="Find").click()
    phone.wait_for_load_state()
    shown = phone.locator("#pairings tbody tr:visible")
    assert 1 <= shown.count() < everyone
    assert name in shown.first.inner_text()
    camera.shoot(phone, "pairings-search")

    camera.go(phone, f"/tournaments/{pk}/standings/")
    assert phone.locator("table").count() >= 1
    camera.shoot(phone, "standings")

    desk = camera.page("desktop")
    camera.go(desk, f"/tournaments/{bracket_event.pk}/bracket/")
    bracket = desk.locator("main").inner_text()
    assert "Semifinals" in bracket and "2-1" in bracket
    camera.shoot(desk, "bracket")
    camera.go(desk, f"/tournaments/{pk}/rounds/3/clock/")
    assert "Round 3" in desk.locator("main").inner_text()
    camera.shoot(desk, "big-screen-clock")
    camera.check_against_the_guide()
