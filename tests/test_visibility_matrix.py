"""Pages and API show the same things to the same people.

One set of events holds every kind of object in every interesting state (a draft
tournament, a draft round, a published round, events with the publish switches off or
not started yet, reported and confirmed results, a revealed and a secret swap, a
tournament game in play and one finished, a practice game, the audit log). Every role,
from an anonymous visitor to site staff, asks for each object through the page that
shows it and through its API address. For each object the test says who may see it
(written here, independently of tournaments/visibility.py), and checks that the page
and the API both follow that rule: visible in both, or hidden in both (a 404, a 403, or
a login redirect; an API list simply leaves the object out).
"""

import ast
import datetime
import random
import re
from pathlib import Path

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from rest_framework.test import APIClient

from games import services as game_services
from players import services as player_services
from players.demo import random_valid_set
from tournaments import services, visibility
from tournaments.models import ResultSubmission, SetSwap, Tournament
from tournaments.online import open_match

pytestmark = pytest.mark.django_db

ROLES = (
    "anonymous",
    "other_player",  # plays in the event, in another match
    "opponent",  # the player's opponent
    "player",
    "floor_judge",
    "head_judge",
    "co_organiser",
    "owner",
    "site_staff",
)
STAFF = frozenset({"floor_judge", "head_judge", "co_organiser", "owner", "site_staff"})
EVERYONE = frozenset(ROLES)
PLAYERS = frozenset({"player", "opponent"})
HIDDEN_STATUSES = (302, 403, 404)  # 302: a page that asks to log in first


@pytest.fixture(autouse=True)
def quiet_clocks(settings):
    settings.GAMES_SWAP_WINDOW_SECONDS = 0  # online games start at once
    settings.CLOCKS_USE_ETA = False
    settings.GAMES_DEMO_BOT_DELAY = 0


def _dice_set(player, rng):
    return player_services.create_dice_set(
        player=player,
        name=f"Set {player.dice_sets.count() + 1}",
        playing_dice=[d.to_dict() for d in random_valid_set(rng)],
        additional_dice=[d.to_dict() for d in random_valid_set(rng)[:3]],
    )


def _swap_positions(registration, rng):
    """One die out and one in that leave a valid set (tried until one does)."""
    from games.engines.irondie.dice import Die, playing_set_errors
    from tournaments import selectors

    playing, additional = selectors.current_sets(registration)
    pairs = [(o, i) for o in range(len(playing)) for i in range(len(additional))]
    rng.shuffle(pairs)
    for out_pos, in_pos in pairs:
        after = list(playing)
        after[out_pos] = additional[in_pos]
        if not playing_set_errors([Die.from_dict(d) for d in after]):
            return [out_pos], [in_pos]
    raise AssertionError("no valid swap in this set")


@pytest.fixture
def world(make_user, make_player, django_user_model):
    rng = random.Random(11)
    users = {
        "owner": make_user("owner", groups=["organiser"]),
        "co_organiser": make_user("co"),
        "head_judge": make_user("head", groups=["judge"]),
        "floor_judge": make_user("floor", groups=["judge"]),
        "site_staff": django_user_model.objects.create_superuser("root", password="x-secret-9"),
    }
    owner, head = users["owner"], users["head_judge"]

    def event(name, **settings):
        tournament = services.create_tournament(
            organiser=owner,
            name=name,
            date=datetime.date(2026, 12, 5),
            top_cut_size=0,
            head_judge=head,
            floor_judges=[users["floor_judge"]],
            **settings,
        )
        services.add_co_organiser(tournament=tournament, user=users["co_organiser"], by=owner)
        return tournament

    def open_registration(tournament, players):
        services.change_status(tournament=tournament, to=Tournament.Status.REGISTRATION, by=owner)
        return [
            services.register(
                tournament=tournament, player=p, dice_set=_dice_set(p, rng), by=p.user
            )
            for p in players
        ]

    def start_round(tournament):
        round_ = services.pair_next_round(tournament=tournament, by=owner, seed="matrix")
        services.publish_round(round_=round_, by=owner)
        return services.start_round(round_=round_, by=head)

    people = [
        make_player(name) for name in ("Ann", "Ben", "Cid", "Dot", "Eve", "Fay", "Gus", "Hal")
    ]
    live = event("Live Open")
    open_registration(live, people)
    round_ = start_round(live)
    matches = list(round_.matches.select_related("player_a__player", "player_b__player"))
    m_play, m_other, m_online, m_done = matches
    users["player"] = m_play.player_a.player.user
    users["opponent"] = m_play.player_b.player.user
    users["other_player"] = m_other.player_a.player.user
    player_registration = m_play.player_a

    # The player's match: game 1 and 2 started, a swap revealed by game 2, a secret swap
    # for game 3, then a report waiting for the opponent's confirmation.
    services.start_game(match=m_play, number=1, by=head)
    out, into = _swap_positions(player_registration, rng)
    revealed = services.record_swap(
        registration=player_registration,
        match=m_play,
        swap_out=out,
        swap_in=into,
        by=users["player"],
    )
    services.start_game(match=m_play, number=2, by=head)
    out, into = _swap_positions(player_registration, rng)
    secret = services.record_swap(
        registration=player_registration,
        match=m_play,
        swap_out=out,
        swap_in=into,
        by=users["player"],
    )
    reported = services.report_result(match=m_play, by=users["player"], games=["a", "b", "a"])
    confirmed = services.report_result(match=m_other, by=head, games=["a", "a"])
    assert reported.status == ResultSubmission.Status.PENDING
    assert confirmed.status == ResultSubmission.Status.CONFIRMED

    game_in_play = open_match(match=m_online, by=m_online.player_a.player.user)
    game_done = open_match(match=m_done, by=m_done.player_a.player.user)
    game_services.concede(session=game_done, by=m_done.player_a.player.user, whole_match=True)
    practice = game_services.create_practice_game(
        by=users["player"],
        playing_dice=list(player_registration.playing_dice),
        bot="random",
    )

    # The same two players in an event whose switches are all off, and in one whose
    # round is still a draft; a draft event; an event still taking registrations.
    both = [m_play.player_a.player, m_play.player_b.player]
    quiet = event(
        "Quiet Open", publish_pairings=False, publish_results=False, publish_standings=False
    )
    open_registration(quiet, both)
    quiet_round = start_round(quiet)
    quiet_match = quiet_round.matches.get()
    services.report_result(match=quiet_match, by=head, games=["b", "a", "b"])
    paired = event("Paired Cup")
    open_registration(paired, both)
    draft_round = services.pair_next_round(tournament=paired, by=owner, seed="matrix")
    upcoming = event("Upcoming Cup")
    open_registration(upcoming, both)
    draft = event("Draft Cup")

    return {
        "users": users,
        "live": live,
        "round": round_,
        "m_play": m_play,
        "m_other": m_other,
        "revealed": revealed,
        "secret": secret,
        "reported": reported,
        "confirmed": confirmed,
        "game_in_play": game_in_play,
        "game_done": game_done,
        "practice": practice,
        "quiet": quiet,
        "quiet_round": quiet_round,
        "quiet_match": quiet_match,
        "paired": paired,
        "draft_round": draft_round,
        "draft_match": draft_round.matches.get(),
        "upcoming": upcoming,
        "draft": draft,
    }


# --- how each channel is asked ----------------------------------------------------------


class Viewer:
    """One role's page client and API client; every answer is checked for a clean
    "visible" or "hidden" (never a 500, never a half-answer). A GET never writes, so
    each address is asked once per role."""

    def __init__(self, user):
        self.page = Client()
        self.api = APIClient()
        if user is not None:
            self.page.force_login(user)
            self.api.force_authenticate(user)
        self._pages = {}
        self._answers = {}

    def page_get(self, url):
        if url not in self._pages:
            self._pages[url] = self.page.get(url)
        return self._pages[url]

    def _api_get(self, url):
        if url not in self._answers:
            self._answers[url] = self.api.get(url)
        return self._answers[url]

    def page_status(self, url) -> bool:
        response = self.page_get(url)
        assert response.status_code in (200, *HIDDEN_STATUSES), (url, response.status_code)
        return response.status_code == 200

    def page_shows(self, urls, marker: str) -> bool:
        """Some page of ``urls`` answers 200 and shows ``marker``."""
        for url in urls:
            response = self.page_get(url)
            assert response.status_code in (200, *HIDDEN_STATUSES), (url, response.status_code)
            if response.status_code == 200 and marker in response.content.decode():
                return True
        return False

    def api_status(self, url) -> bool:
        response = self._api_get(url)
        assert response.status_code in (200, 403, 404), (url, response.status_code)
        return response.status_code == 200

    def api_json(self, url):
        response = self._api_get(url)
        assert response.status_code in (200, 403, 404), (url, response.status_code)
        return response.json() if response.status_code == 200 else None

    def api_lists(self, url, pk) -> bool:
        data = self.api_json(url)
        if data is None:
            return False
        rows = data["results"] if isinstance(data, dict) else data
        return any(row["id"] == pk for row in rows)


def _match_pages(match):
    """Every page that shows a match: the pairings of its round, the player's match page
    and the judges' match page."""
    t = match.round.tournament_id
    return [
        f"/tournaments/{t}/rounds/{match.round.number}/",
        f"/tournaments/{t}/my-match/",
        f"/tournaments/{t}/matches/{match.pk}/",
    ]


def _objects(w):
    """(name, who sees it, page check, API check, roles without a page for it)."""
    live, quiet = w["live"], w["quiet"]
    m_play, m_other = w["m_play"], w["m_other"]
    quiet_match, draft_match = w["quiet_match"], w["draft_match"]

    def tournament(t):
        return (
            lambda v: v.page_status(f"/tournaments/{t.pk}/"),
            lambda v: v.api_status(f"/api/tournaments/{t.pk}/"),
        )

    def tournament_in_lists(t):
        return (
            lambda v: v.page_shows(["/tournaments/"], f'href="/tournaments/{t.pk}/"'),
            lambda v: v.api_lists("/api/tournaments/", t.pk),
        )

    def round_(r):
        return (
            lambda v: v.page_status(f"/tournaments/{r.tournament_id}/rounds/{r.number}/"),
            lambda v: v.api_status(f"/api/rounds/{r.pk}/"),
        )

    def round_clock(r):
        return (
            lambda v: v.page_status(f"/tournaments/{r.tournament_id}/rounds/{r.number}/clock/"),
            lambda v: v.api_status(f"/api/rounds/{r.pk}/clock/"),
        )

    def match_on_a_page(m):
        pairings, mine, judges = _match_pages(m)
        return lambda v: (
            v.page_shows([pairings, mine], f'data-match="{m.pk}"') or v.page_status(judges)
        )

    def match(m):
        return match_on_a_page(m), lambda v: v.api_status(f"/api/matches/{m.pk}/")

    def match_clock(m):
        # The match pages show its clock (the player's, the judges'), the big screen too.
        return match_on_a_page(m), lambda v: v.api_status(f"/api/matches/{m.pk}/clock/")

    def submission(s, m):
        return (
            lambda v: v.page_shows(_match_pages(m)[1:], f'data-submission="{s.pk}"'),
            lambda v: v.api_lists(f"/api/matches/{m.pk}/results/", s.pk),
        )

    def swap(s, m):
        return (
            lambda v: v.page_shows(_match_pages(m)[1:], f'data-swap="{s.pk}"'),
            lambda v: v.api_lists(f"/api/matches/{m.pk}/swaps/", s.pk),
        )

    def result(m):
        """The score of a confirmed match: in its row of the round's pairings, on the
        player's match page, on the judges' match page."""
        score = f"{m.games_a}-{m.games_b}"
        either_side = f"(?:{score}|{m.games_b}-{m.games_a})"  # "my match": the reader's first
        shown = (
            re.compile(rf'data-match="{m.pk}">(?:(?!</tr>).)*<td>{score}</td>', re.DOTALL),
            re.compile(rf'data-match="{m.pk}".*?id="my-score">[^<]*{either_side}', re.DOTALL),
            re.compile(rf'status-confirmed">[^<]*</span> · {score}\s'),
        )

        def on_page(v):
            for url, pattern in zip(_match_pages(m), shown, strict=True):
                response = v.page_get(url)
                if response.status_code == 200 and pattern.search(response.content.decode()):
                    return True
            return False

        def in_api(v):
            data = v.api_json(f"/api/matches/{m.pk}/")
            return data is not None and data["result"] is not None

        return on_page, in_api

    def rating_history(m):
        """A rated match in the rating history of its player A (page and API)."""
        url = f"/players/{m.player_a.player_id}/"

        def in_api(v):
            data = v.api_json(f"/api/players/{m.player_a.player_id}/rating/")
            return data is not None and any(e["match"] == m.pk for e in data["history"])

        return lambda v: v.page_shows([url], f'data-match="{m.pk}"'), in_api

    def game(g):
        return (
            lambda v: v.page_status(f"/games/{g.pk}/"),
            lambda v: v.api_status(f"/api/games/{g.pk}/"),
        )

    def judges_page(t, page, api):
        return (
            lambda v: v.page_status(f"/tournaments/{t.pk}/{page}/"),
            lambda v: v.api_status(f"/api/tournaments/{t.pk}/{api}/"),
        )

    def standings(t):
        def in_api(v):
            data = v.api_json(f"/api/tournaments/{t.pk}/standings/")
            return data is not None and data["published"]

        return lambda v: v.page_status(f"/tournaments/{t.pk}/standings/"), in_api

    def standings_row(t, registration):
        """One row's arithmetic: its own page and its API answer."""
        path = f"/tournaments/{t.pk}/standings/{registration}/"
        return lambda v: v.page_status(path), lambda v: v.api_status(f"/api{path}")

    def pairings_of_event(t):
        def in_api(v):
            data = v.api_json(f"/api/tournaments/{t.pk}/rounds/")
            return data is not None and data["published"]

        return lambda v: v.page_status(f"/tournaments/{t.pk}/bracket/"), in_api

    outside_the_match = EVERYONE - STAFF - PLAYERS
    confirmed_match = m_other
    confirmed_match.refresh_from_db()
    quiet_match.refresh_from_db()
    return [
        ("draft tournament", STAFF, *tournament(w["draft"]), ()),
        ("draft tournament in lists", STAFF, *tournament_in_lists(w["draft"]), ()),
        ("live tournament", EVERYONE, *tournament(live), ()),
        ("live tournament in lists", EVERYONE, *tournament_in_lists(live), ()),
        ("draft round", STAFF, *round_(w["draft_round"]), ()),
        ("draft round clock", STAFF, *round_clock(w["draft_round"]), ()),
        ("match of a draft round", STAFF, *match(draft_match), ()),
        ("published round", EVERYONE, *round_(w["round"]), ()),
        ("published round clock", EVERYONE, *round_clock(w["round"]), ()),
        ("the player's match", EVERYONE, *match(m_play), ()),
        ("the player's match clock", EVERYONE, *match_clock(m_play), ()),
        ("round with pairings not public", STAFF, *round_(w["quiet_round"]), ()),
        ("clock of a round not public", STAFF, *round_clock(w["quiet_round"]), ()),
        ("own match, pairings not public", STAFF | PLAYERS, *match(quiet_match), ()),
        ("own match clock, pairings not public", STAFF | PLAYERS, *match_clock(quiet_match), ()),
        ("pairings of an event not public", STAFF, *pairings_of_event(quiet), ()),
        ("pairings of a public event", EVERYONE, *pairings_of_event(live), ()),
        ("confirmed score, results public", EVERYONE, *result(confirmed_match), ()),
        ("own score, results not public", STAFF | PLAYERS, *result(quiet_match), ()),
        ("rated match in a history, results public", EVERYONE, *rating_history(m_other), ()),
        (
            "own rated match in a history, results not public",
            STAFF | PLAYERS,
            *rating_history(quiet_match),
            (),
        ),
        ("reported result", STAFF | PLAYERS, *submission(w["reported"], m_play), ()),
        ("confirmed result", STAFF | {"other_player"}, *submission(w["confirmed"], m_other), ()),
        # No page lists swaps to people outside the match: once revealed they are public
        # through the API only (the dice are on the table for all to see).
        ("revealed swap", EVERYONE, *swap(w["revealed"], m_play), outside_the_match),
        ("secret swap", STAFF | {"player"}, *swap(w["secret"], m_play), outside_the_match),
        ("tournament game in play", EVERYONE, *game(w["game_in_play"]), ()),
        ("finished tournament game", EVERYONE, *game(w["game_done"]), ()),
        ("practice game", EVERYONE, *game(w["practice"]), ()),
        ("audit log", STAFF, *judges_page(live, "audit", "audit"), ()),
        ("penalties", STAFF, *judges_page(live, "penalties", "penalties"), ()),
        ("standings, public", EVERYONE, *standings(live), ()),
        ("standings, not public", STAFF, *standings(quiet), ()),
        ("a row's arithmetic, public", EVERYONE, *standings_row(live, m_play.player_a_id), ()),
        (
            "a row's arithmetic, not public",
            STAFF,
            *standings_row(quiet, quiet_match.player_a_id),
            (),
        ),
        (
            "registered sets, event started",
            EVERYONE,
            *judges_page(live, "sets", "registrations"),
            (),
        ),
        (
            "registered sets, before the start",
            STAFF,
            *judges_page(w["upcoming"], "sets", "registrations"),
            (),
        ),
    ]


def test_pages_and_api_agree_with_the_rules(world):
    viewers = {role: Viewer(world["users"].get(role)) for role in ROLES}
    wrong = []
    for name, seen_by, on_page, in_api, no_page in _objects(world):
        for role, viewer in viewers.items():
            expected = role in seen_by
            api = in_api(viewer)
            page = None if role in no_page else on_page(viewer)
            if api != expected or (page is not None and page != expected):
                wrong.append(f"{name} / {role}: expected {expected}, page {page}, API {api}")
    assert not wrong, "\n".join(wrong)


def test_the_secret_swap_stays_secret_everywhere(world):
    """Beyond the lists: no answer the opponent or the public gets names the secret swap."""
    secret = world["secret"]
    assert SetSwap.objects.filter(pk=secret.pk, superseded=False).exists()
    m_play = world["m_play"]
    t = world["live"].pk
    for role in ("anonymous", "other_player", "opponent"):
        viewer = Viewer(world["users"].get(role))
        for url in (
            f"/api/matches/{m_play.pk}/",
            f"/api/matches/{m_play.pk}/swaps/",
            f"/api/matches/{m_play.pk}/results/",
            f"/api/rounds/{world['round'].pk}/",
            f"/api/tournaments/{t}/rounds/",
            f"/api/tournaments/{t}/registrations/",
        ):
            text = viewer.api.get(url).content.decode().replace(" ", "")
            assert f'"id":{secret.pk},"registration"' not in text, (role, url)
        for url in _match_pages(m_play):
            assert f'data-swap="{secret.pk}"' not in viewer.page.get(url).content.decode()


LIVE_NOISE = re.compile(
    r'<ul class="messages">.*?</ul>|name="csrfmiddlewaretoken" value="[^"]*"|\d{4}-\d\d-\d\dT[\d:.]+(\+00:00|Z)?'
)


def test_live_answers_are_the_pages(world):
    """A live poll (X-Live, tournaments/live.py) of every live page answers what the page
    answers, to every role: hidden stays hidden, a 200 is the same page; a tag given to
    one role is never a 304 for another."""
    events = [world[name] for name in ("live", "quiet", "paired")]
    urls = []
    for event in events:
        t = event.pk
        urls += [f"/tournaments/{t}/{page}/" for page in ("standings", "bracket", "results")]
        urls.append(f"/tournaments/{t}/my-match/")
        urls += [f"/tournaments/{t}/rounds/1/{page}" for page in ("", "clock/", "clocks/")]
    tags = {}
    for role in ROLES:
        viewer = Viewer(world["users"].get(role))
        for url in urls:
            page = viewer.page.get(url)
            answer = viewer.page.get(url, HTTP_X_LIVE="1")
            assert answer.status_code == page.status_code, (role, url)
            if page.status_code != 200:
                assert not answer.has_header("ETag"), (role, url)
                continue
            same = LIVE_NOISE.sub("", answer.content.decode())
            assert same == LIVE_NOISE.sub("", page.content.decode()), (role, url)
            for other, tag in tags.get(url, {}).items():
                again = viewer.page.get(url, HTTP_X_LIVE="1", HTTP_IF_NONE_MATCH=tag)
                assert again.status_code == 200, (role, other, url)
            # A page that follows one match names it in its first tag; then 304s.
            answer = viewer.page.get(url, HTTP_X_LIVE="1", HTTP_IF_NONE_MATCH=answer["ETag"])
            tags.setdefault(url, {})[role] = answer["ETag"]
            assert (
                viewer.page.get(url, HTTP_X_LIVE="1", HTTP_IF_NONE_MATCH=answer["ETag"]).status_code
                == 304
            )


def test_one_rule_for_lists_and_single_events(world):
    """The query that lists events and the question asked of one event agree."""
    events = [world[name] for name in ("draft", "live", "quiet", "paired", "upcoming")]
    for role in ROLES:
        user = world["users"].get(role) or AnonymousUser()
        listed = set(visibility.visible_tournaments(user).values_list("pk", flat=True))
        for event in events:
            fresh = Tournament.objects.get(pk=event.pk)
            assert visibility.can_see_tournament(user, fresh) == (event.pk in listed), (
                role,
                event.name,
            )


PAGE_AND_API_MODULES = (
    "tournaments/views.py",
    "tournaments/api.py",
    "tournaments/clock_views.py",
    "tournaments/clock_api.py",
    "games/views.py",
    "games/api.py",
)
PUBLISH_SWITCHES = {"publish_pairings", "publish_results", "publish_standings"}


def test_only_the_visibility_module_reads_the_publish_switches():
    """What the public sees is decided in tournaments/visibility.py: no page or API
    module reads a publish switch to decide it again."""
    root = Path(__file__).resolve().parent.parent
    readers = []
    for name in PAGE_AND_API_MODULES:
        tree = ast.parse((root / name).read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in PUBLISH_SWITCHES:
                readers.append(f"{name}:{node.lineno} {node.attr}")
    assert not readers, readers
