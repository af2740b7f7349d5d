"""In a real browser: a reader switches to Russian with the switcher in the navigation,
and the main pages of each role (visitor, player, judge, organiser) read in Russian with
no English word left. Allowed: the names in the data (written in Cyrillic here), numbers,
and the abbreviations and names kept on purpose (docs/translation.md, "Kept as they are")."""

import datetime
import random
import re

import pytest

from games.models import GameSession
from players import services as player_services
from players.demo import random_valid_set
from tournaments import services
from tournaments.models import Tournament
from tournaments.standings import PRESETS, tiebreaker_names

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# Latin words that stay on a Russian page (docs/translation.md, "Kept as they are").
KEPT = {
    "IRONDIE",  # the games' names
    "Dice",
    "Forge",
    "OMW",  # tiebreaker abbreviations, as players say them
    "GWP",
    "OGW",
    "MW",
    "MWP",
    "GW",
    "MTR",  # the tournament rules' name
    "Melee",  # an organisers' tool whose conventions a standings preset follows
    "gg",
    "CSV",  # file formats
    "JSON",
    "API",
    "ISO",  # the country code standard, and a code as its example
    "RU",
    "English",  # the switcher's way back, in its own language
}
# A word of Latin letters on its own: not a part of a hex digest such as a game's seed.
# The codes typed into the event's settings form stay as they are: tiebreaker names,
# standings presets and the Swiss phase syntax ("9 points 18", "9 top 32", "9 all").
CODES = {
    word
    for name in (*tiebreaker_names(), *PRESETS, "points", "top", "all")
    for word in re.split(r"[_\-0-9]+", name)
    if word
}
LATIN_WORD = re.compile(r"(?<![0-9A-Za-z])[A-Za-z]{2,}(?![0-9A-Za-z])")


# Login names in the data (the staff accounts of the test fixtures).
LOGIN_NAMES = {"org", "judy"}


def english_left(text: str) -> list[str]:
    allowed = KEPT | CODES | LOGIN_NAMES
    return sorted({word for word in LATIN_WORD.findall(text) if word not in allowed})


def read(page) -> str:
    """What a reader sees and what a screen reader says: the page title, all the text
    (folded details too, not scripts or styles), and the labels and hints of controls."""
    return page.evaluate(
        """() => { document.querySelectorAll('details').forEach(d => { d.open = true; });
            return [document.title, document.body.innerText,
            ...[...document.querySelectorAll('[title],[aria-label],[placeholder]')].map(e =>
              [e.getAttribute('title'), e.getAttribute('aria-label'),
               e.getAttribute('placeholder')].filter(Boolean).join(' '))].join('\\n'); }"""
    )


def log_in(page, base, username, next_url):
    page.goto("about:blank")  # no live poll of the last page answers after
    page.context.clear_cookies()
    page.goto(f"{base}/accounts/login/?next={next_url}")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "correct-horse-9")
    page.click("main button[type=submit]")
    # Not the login page itself, whose ?next= ends with the same path.
    page.wait_for_url(lambda url: "/accounts/login/" not in url and url.endswith(next_url))


def switch_to_russian(page):
    page.click("header form.language button[value=ru]")
    page.wait_for_selector("html[lang=ru]")


@pytest.fixture
def event(organiser, judge, make_player):
    """A Russian event in its second Swiss round: round 1 confirmed, round 2 running with
    a reported result and a penalty."""
    tournament = services.create_tournament(
        organiser=organiser,
        name="Кубок Москвы",
        date=datetime.date(2026, 12, 5),
        venue="Клуб «Куб»",
        top_cut_size=4,
        head_judge=judge,
    )
    services.change_status(tournament=tournament, to=Tournament.Status.REGISTRATION, by=organiser)
    rng = random.Random(7)
    registrations = []
    for name in ("Анна", "Борис", "Вера", "Глеб", "Дарья"):
        player = make_player(name)
        dice_set = player_services.create_dice_set(
            player=player,
            name="Основной",
            playing_dice=[d.to_dict() for d in random_valid_set(rng)],
            additional_dice=[d.to_dict() for d in random_valid_set(rng)[:3]],
        )
        registrations.append(
            services.register(tournament=tournament, player=player, dice_set=dice_set, by=organiser)
        )
    first = services.pair_next_round(tournament=tournament, by=organiser, seed="r")
    services.publish_round(round_=first, by=organiser)
    services.start_round(round_=first, by=judge)
    for match in first.matches.filter(player_b__isnull=False):
        services.report_result(match=match, by=judge, games=["a", "b", "a"])
    services.close_round(round_=first, by=organiser)
    second = services.pair_next_round(tournament=tournament, by=organiser, seed="s")
    services.publish_round(round_=second, by=organiser)
    services.start_round(round_=second, by=judge)
    match = second.matches.filter(player_b__isnull=False).select_related("player_a__player")
    match = match.first()
    services.report_result(match=match, by=match.player_a.player.user, games=["a", "a"])
    services.give_penalty(
        registration=match.player_b, kind="warning", reason="Опоздание", by=judge, match=match
    )
    return tournament, match


class Reader:
    """Reads pages in Russian and collects the English left on each, to report them all."""

    def __init__(self, page, base):
        self.page, self.base, self.english = page, base, {}

    def check(self, url, *, go=True):
        if go:
            response = self.page.goto(f"{self.base}{url}")
            wanted = 404 if url == "/no-such-page/" else 200
            assert response.status == wanted, (url, response.status)
        assert self.page.locator("html").get_attribute("lang") == "ru", url
        left = english_left(read(self.page))
        if left:
            self.english[url] = left


def test_the_main_pages_of_every_role_read_in_russian(live_server, page, event):
    tournament, match = event
    base, pk = live_server.url, tournament.pk
    reporter = match.player_a.player.user.username
    opponent = match.player_b.player.user.username
    reader = Reader(page, base)

    # A visitor switches once: the cookie keeps the language on every page.
    page.goto(f"{base}/")
    assert page.locator("html").get_attribute("lang") == "en"
    switch_to_russian(page)
    for url in (
        "/",
        "/tournaments/",
        f"/tournaments/{pk}/",
        f"/tournaments/{pk}/rounds/1/",
        f"/tournaments/{pk}/rounds/2/",
        f"/tournaments/{pk}/standings/",
        f"/tournaments/{pk}/bracket/",
        f"/tournaments/{pk}/sets/",
        f"/tournaments/{pk}/rounds/2/clock/",
        f"/players/{match.player_a.player_id}/",
        "/accounts/login/",
        "/signup/",
        "/games/",
        "/no-such-page/",
    ):
        reader.check(url)

    # A player: the switcher saves the choice on the profile, and logging in anywhere
    # brings it back.
    log_in(page, base, opponent, f"/tournaments/{pk}/my-match/")
    switch_to_russian(page)
    match.player_b.player.refresh_from_db()
    assert match.player_b.player.language == "ru"
    page.goto("about:blank")  # no live poll of the last page answers after
    page.context.clear_cookies()
    log_in(page, base, opponent, f"/tournaments/{pk}/my-match/")
    assert page.locator("html").get_attribute("lang") == "ru"
    for url in (
        f"/tournaments/{pk}/my-match/",
        f"/tournaments/{pk}/",
        "/me/",
        "/me/dice-sets/",
        "/me/dice-sets/new/",
        "/games/",
    ):
        reader.check(url)
    # A practice game against the bot: the board, the decision and the log of events.
    page.goto(f"{base}/games/")
    page.click("button.start-practice")
    page.wait_for_selector(".board")
    session = GameSession.objects.order_by("-pk").first()
    reader.check(f"/games/{session.pk}/")
    page.click(".game-split")
    page.wait_for_function("document.querySelectorAll('.events li').length > 3")
    reader.check(f"/games/{session.pk}/ (after the split)", go=False)

    # The player who reported sees the same match from their side.
    log_in(page, base, reporter, f"/tournaments/{pk}/my-match/")
    switch_to_russian(page)
    reader.check(f"/tournaments/{pk}/my-match/")

    # A judge.
    log_in(page, base, "judy", f"/tournaments/{pk}/results/")
    switch_to_russian(page)
    for url in (
        f"/tournaments/{pk}/results/",
        f"/tournaments/{pk}/rounds/2/clocks/",
        f"/tournaments/{pk}/matches/{match.pk}/",
        f"/tournaments/{pk}/penalties/",
        f"/tournaments/{pk}/rounds/2/slips/",
    ):
        reader.check(url)

    # An organiser.
    log_in(page, base, "org", f"/tournaments/{pk}/console/")
    switch_to_russian(page)
    for url in (
        f"/tournaments/{pk}/console/",
        f"/tournaments/{pk}/rounds/2/manage/",
        f"/tournaments/{pk}/rounds/2/print/",
        f"/tournaments/{pk}/audit/",
        f"/tournaments/{pk}/edit/",
        f"/tournaments/{pk}/walk-in/",
        "/tournaments/new/",
        "/players/",
    ):
        reader.check(url)
    assert not reader.english, "\n".join(f"{url}: {words}" for url, words in reader.english.items())

    # And back to English with the same switcher.
    page.click("header form.language button[value=en]")
    page.wait_for_selector("html[lang=en]")
