"""Organisers and judges are per event: the organisers and judges of tournament B, and
members of the site groups who run no event, try every organiser and judge action of
tournament A, through every API route and every page, and change nothing.

The routes are read from the URL configuration, so a new action is covered (or, when it
needs a request body this test does not know yet, fails here until one is added).
"""

import datetime
import random
import re

import pytest
from django.apps import apps
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from rest_framework.test import APIClient

from games.models import GameSession
from players import services as player_services
from players.demo import random_valid_set
from tournaments import services
from tournaments.models import PairingJob, ResultSubmission, Round, Tournament
from tournaments.online import open_match

pytestmark = pytest.mark.django_db

WRITE_METHODS = ("post", "put", "patch", "delete")


@pytest.fixture(autouse=True)
def quiet_clocks(settings):
    settings.GAMES_SWAP_WINDOW_SECONDS = 0
    settings.CLOCKS_USE_ETA = False
    settings.GAMES_DEMO_BOT_DELAY = 0


def _player(make_player, name, rng):
    player = make_player(name)
    dice_set = player_services.create_dice_set(
        player=player,
        name="Main",
        playing_dice=[d.to_dict() for d in random_valid_set(rng)],
        additional_dice=[d.to_dict() for d in random_valid_set(rng)[:3]],
    )
    return player, dice_set


@pytest.fixture
def events(make_user, make_player, django_user_model):
    """A: live (round 1 under way, an online game in play, a report waiting, a secret
    swap, a penalty) with its owner, a co-organiser, a head and a floor judge. B: the
    same roles held by other people. Plus site-group members who run no event."""
    people = {
        "owner_a": make_user("owner_a", groups=["organiser"]),
        "co_a": make_user("co_a"),
        "head_a": make_user("head_a", groups=["judge"]),
        "floor_a": make_user("floor_a", groups=["judge"]),
        "owner_b": make_user("owner_b", groups=["organiser"]),
        "co_b": make_user("co_b", groups=["organiser"]),
        "head_b": make_user("head_b", groups=["judge"]),
        "floor_b": make_user("floor_b", groups=["judge"]),
        "site_organiser": make_user("site_organiser", groups=["organiser"]),
        "site_judge": make_user("site_judge", groups=["judge"]),
        "nobody": make_user("nobody"),
        "admin": django_user_model.objects.create_superuser("root", password="x-secret-9"),
    }
    date = datetime.date(2026, 12, 5)
    a = services.create_tournament(
        organiser=people["owner_a"],
        name="Event A",
        date=date,
        top_cut_size=0,
        head_judge=people["head_a"],
        floor_judges=[people["floor_a"]],
    )
    services.add_co_organiser(tournament=a, user=people["co_a"], by=people["owner_a"])
    b = services.create_tournament(
        organiser=people["owner_b"],
        name="Event B",
        date=date,
        head_judge=people["head_b"],
        floor_judges=[people["floor_b"]],
    )
    services.add_co_organiser(tournament=b, user=people["co_b"], by=people["owner_b"])
    services.change_status(tournament=b, to=Tournament.Status.REGISTRATION, by=people["owner_b"])

    owner = people["owner_a"]
    services.change_status(tournament=a, to=Tournament.Status.REGISTRATION, by=owner)
    rng = random.Random(7)
    registrations = []
    for i in range(4):
        player, dice_set = _player(make_player, f"Player A{i}", rng)
        registrations.append(
            services.register(tournament=a, player=player, dice_set=dice_set, by=player.user)
        )
    outsider, outsider_set = _player(make_player, "Walk In", rng)
    round_ = services.pair_next_round(tournament=a, by=owner, seed="matrix")
    services.publish_round(round_=round_, by=owner)
    round_ = services.start_round(round_=round_, by=people["head_a"])
    online, paper = list(round_.matches.order_by("table"))
    session = open_match(match=online, by=online.player_a.player.user)
    assert session.status == GameSession.Status.ACTIVE  # no swap window in tests
    services.report_result(match=paper, by=paper.player_a.player.user, games=["a", "a"])
    services.record_swap(
        registration=paper.player_b,
        match=paper,
        swap_out=[0],
        swap_in=[0],
        by=paper.player_b.player.user,
    )
    services.give_penalty(
        registration=paper.player_a,
        kind="warning",
        reason="Slow play",
        by=people["floor_a"],
        match=paper,
    )
    # A finished background pairing job, for the job's page and API route.
    job = PairingJob.objects.create(
        tournament=a, number=1, seed="matrix", status=PairingJob.Status.DONE, round=round_
    )
    # T: a team event run by A's people, with a team still waiting for its second member.
    t = services.create_tournament(
        organiser=owner,
        name="Event T",
        date=date,
        head_judge=people["head_a"],
        floor_judges=[people["floor_a"]],
        team_size=2,
    )
    services.add_co_organiser(tournament=t, user=people["co_a"], by=owner)
    services.change_status(tournament=t, to=Tournament.Status.REGISTRATION, by=owner)
    members = [_player(make_player, f"Team T{i}", rng) for i in range(2)]
    team = services.register_team(
        tournament=t, name="Team T", captain=members[0][0], members=members, by=members[0][0].user
    )
    # P: an event in pods run by A's people, its round 1 under way at one table of three.
    p = services.create_tournament(
        organiser=owner,
        name="Event P",
        date=date,
        game="36d6",
        pods=True,
        top_cut_size=0,
        head_judge=people["head_a"],
        floor_judges=[people["floor_a"]],
    )
    services.change_status(tournament=p, to=Tournament.Status.REGISTRATION, by=owner)
    for i in range(3):
        seated = make_player(f"Pod P{i}")
        services.register(tournament=p, player=seated, by=seated.user)
    pod_round = services.pair_next_round(tournament=p, by=owner, seed="matrix")
    services.publish_round(round_=pod_round, by=owner)
    pod_round = services.start_round(round_=pod_round, by=people["head_a"])
    a.refresh_from_db()
    return {
        "pod_table": pod_round.pod_tables.get(),
        "team": team,
        "team_event": t,
        **people,
        "pairing_job": job,
        "a": a,
        "b": b,
        "round": round_,
        "match": paper,
        "online_match": online,
        "game": GameSession.objects.get(pk=session.pk),
        "registrations": registrations,
        "registration": paper.player_a,
        "outsider": outsider,
        "outsider_set": outsider_set,
    }


# --- the state of every event, to prove nothing changed -------------------------------


def snapshot():
    """Every row of the tournament and game tables (with the role tables)."""
    state = {}
    for label in ("tournaments", "games"):
        for model in apps.get_app_config(label).get_models(include_auto_created=True):
            state[model._meta.db_table] = list(model.objects.order_by("pk").values())
    return state


# --- the routes -----------------------------------------------------------------------


def _walk(patterns, prefix="", namespace=""):
    for entry in patterns:
        if isinstance(entry, URLResolver):
            ns = entry.namespace or ""
            yield from _walk(
                entry.url_patterns,
                prefix + str(entry.pattern),
                f"{namespace}{ns}:" if ns else namespace,
            )
        elif isinstance(entry, URLPattern) and entry.name:
            yield prefix + str(entry.pattern), f"{namespace}{entry.name}", entry.callback


# Which object a path parameter names: the word before it in the route.
RESOURCE = {
    "tournaments": "a",
    "rounds": "round",
    "matches": "match",
    "registrations": "registration",
    "games": "game",
    "teams": "team",
    "pod-tables": "pod_table",
}
OUT_OF_SCOPE = re.compile(
    r"^(player-|diceset-|api-root|api-token|api-schema|api-docs|api-redoc|admin:|"
    r"games:practice|games:home|tournaments:create|tournaments:list|players:|home|healthz|"
    r"login|logout|password_|set_language|tournament-list|game-list)"
)


def _resource(route: str) -> str | None:
    words = [w for w in re.split(r"[/^$]", route) if w]
    for before, word in zip(words, words[1:], strict=False):
        if "pk" in word and before in RESOURCE:
            return RESOURCE[before]
    return None


def _methods(callback) -> list[str]:
    actions = getattr(callback, "actions", None)
    if actions:  # a DRF viewset route
        return sorted(m for m in actions if m not in ("head", "options"))
    view_class = getattr(callback, "cls", None)
    if view_class is not None:  # a DRF APIView (``@api_view``)
        return sorted(m for m in ("get", *WRITE_METHODS) if hasattr(view_class, m))
    return ["get", "post?"]  # a plain Django view: try both ("?": it may refuse the method)


def event_routes():
    """(route, name, methods, resource) for every route that acts on one object of an
    event, de-duplicated (the router adds format-suffix twins)."""
    seen = {}
    for route, name, callback in _walk(get_resolver().url_patterns):
        if OUT_OF_SCOPE.match(name) or name in seen:
            continue
        resource = _resource(route)
        if resource is None:
            continue
        seen[name] = (route, name, _methods(callback), resource)
    return list(seen.values())


# The slugs a page route with an ``action`` parameter accepts.
PAGE_ACTIONS = {
    "tournaments:action": [
        "open_registration",
        "open_check_in",
        "back_to_draft",
        "pair",
        "top_cut",
        "finish",
    ],
    "tournaments:co_organiser_action": ["add", "remove"],
    "tournaments:registration_action": ["check_in", "check_out", "drop", "reinstate"],
    "tournaments:round_action": ["publish", "start", "close", "repair", "swap"],
    "tournaments:clock_action": ["pause", "resume"],
    "tournaments:team_action": ["accept", "approve", "withdraw"],
}


def _kwargs(route, name, resource, ev) -> list[dict]:
    objects = {
        "a": ev["a"],
        "round": ev["round"],
        "match": ev["match"],
        "registration": ev["registration"],
        "game": ev["game"],
        "team": ev["team"],
        "pod_table": ev["pod_table"],
    }
    base = {"pk": objects[resource].pk}
    if "<int:number>" in route:
        base["number"] = ev["round"].number
    if "<int:match_id>" in route:
        base["match_id"] = ev["match"].pk
    if "registration>" in route:  # a standings row: the API's regex, the page's converter
        base["registration"] = ev["registration"].pk
    if "job_id>" in route:
        base["job_id"] = ev["pairing_job"].pk
    if "<int:team_id>" in route:  # a page of event A: no team there (only in T, by the API)
        base["team_id"] = ev["team"].pk
    if "<int:registration_id>" in route:
        base["registration_id"] = ev["registration"].pk
    if "<int:table>" in route:  # a page of event A, paired in twos: no pod table there
        base["table"] = 1
    if "<int:report_id>" in route:  # a page of event A, paired in twos: no pod report there
        base["report_id"] = 1
    if "action>" in route:
        assert name in PAGE_ACTIONS, f"{name}: add its actions to PAGE_ACTIONS"
        return [{**base, "action": action} for action in PAGE_ACTIONS[name]]
    return [base]


def _bodies(ev, actor) -> dict:
    """A well-formed request body for every write, so that only the role can refuse it."""
    first, second = ev["registrations"][:2]
    return {
        "tournament-detail": {"name": "Taken over", "publish_results": False},
        "tournament-status": {"status": "registration"},
        "tournament-pair": {"seed": "x"},
        "tournament-top-cut": {},
        "tournament-finish": {},
        "tournament-registrations": {
            "player": ev["outsider"].pk,
            "dice_set": ev["outsider_set"].pk,
        },
        "tournament-teams": {
            "name": "Taken over",
            "captain": ev["outsider"].pk,
            "members": [{"player": ev["outsider"].pk, "dice_set": ev["outsider_set"].pk}],
        },
        "team-accept": {},
        "team-approve": {},
        "team-withdraw": {"reason": "x"},
        "tournaments:teams": {"name": "Taken over", "set_1": ev["outsider_set"].pk},
        "tournaments:team_action": {"reason": "x"},
        "tournament-co-organisers": {"username": actor.username},
        "tournament-remove-co-organiser": {"username": "co_a"},
        "registration-check-in": {"checked_in": False},
        "registration-drop": {"reason": "x"},
        "registration-reinstate": {"reason": "x"},
        "round-publish": {},
        "round-start": {},
        "round-close": {},
        "round-repair": {"seed": "x"},
        "round-swap-players": {"first": first.pk, "second": second.pk, "reason": "x"},
        "round-placings": {"table": 1, "placings": {str(first.pk): 1, str(second.pk): 2}},
        "round-table-report": {"table": 1, "placings": {str(first.pk): 1, str(second.pk): 2}},
        "round-table-confirm": {"table": 1},
        "round-table-dispute": {"table": 1, "note": "x"},
        "match-report": {"games": ["b", "b"], "note": "x"},
        "match-confirm": {},
        "match-reject": {"note": "x"},
        "match-start-game": {"number": 1},
        "match-swaps": {"swap_out": [1], "swap_in": [1], "registration": ev["registration"].pk},
        "match-penalties": {
            "registration": ev["registration"].pk,
            "kind": "disqualification",
            "reason": "x",
        },
        "api-round-clock": {},
        "api-round-clock-pause": {"reason": "x"},
        "api-round-clock-resume": {},
        "api-match-clock": {},
        "api-match-clock-extend": {"minutes": 5, "reason": "x"},
        "api-match-clock-pause": {"reason": "x"},
        "api-match-clock-resume": {},
        "api-pod-table-clock": {},
        "api-pod-table-clock-extend": {"minutes": 5, "reason": "x"},
        "game-detail": {},
        "game-actions": {"action": {"type": "concede"}, "expected_version": ev["game"].version},
        "game-concede": {"match": True},
        "game-ready": {},
        "game-pause": {"reason": "x"},
        "game-resume": {},
        "game-ruling": {"winner": 0, "reason": "x"},
        # pages (form posts)
        "tournaments:edit": {
            "name": "Taken over",
            "date": "2026-12-05",
            "top_cut_size": 0,
            "match_minutes": 45,
            "game_minutes": 20,
            "late_entry": "losses",
            "percentage_floor": "1/3",
        },
        "tournaments:register": {"dice_set": ev["outsider_set"].pk},
        "tournaments:co_organiser_action": {"username": actor.username},
        "tournaments:registration_action": {"reason": "x"},
        "tournaments:round_action": {"first": first.pk, "second": second.pk, "reason": "x"},
        "tournaments:round_placings": {"table": 1, f"place_{first.pk}": 1},
        "tournaments:match": {
            "game_1": "b",
            "game_2": "b",
            "expected_version": ev["match"].version,
        },
        "tournaments:penalties": {
            "registration": ev["registration"].pk,
            "kind": "disqualification",
            "reason": "x",
            "match": ev["match"].pk,
        },
        "tournaments:my_match": {"action": "play_online"},
        "tournaments:match_clock": {"action": "extend", "minutes": "5", "reason": "x"},
        "tournaments:clock_action": {"reason": "x"},
        "tournaments:pod_table_clock": {"action": "extend", "minutes": "5", "reason": "x"},
    }


INTRUDERS = ["owner_b", "co_b", "head_b", "floor_b", "site_organiser", "site_judge"]


def _api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _page(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _requests(ev, actor):
    """Every (label, client kind, method, url, body) a B-side user might try on A."""
    bodies = _bodies(ev, actor)
    for route, name, methods, resource in event_routes():
        is_page = ":" in name
        for kwargs in _kwargs(route, name, resource, ev):
            url = reverse(name, kwargs=kwargs)
            for method in methods:
                if method == "get":
                    continue
                guessed = method.endswith("?")
                method = method.rstrip("?")
                body = bodies.get(name, {} if guessed else None)
                assert body is not None, f"{name} ({method.upper()} {route}): add a body"
                yield f"{method.upper()} {url} ({name})", is_page, method, url, body, guessed
    # Routes without an object of A in the path that act on one named in the body.
    for match in (ev["match"], ev["online_match"]):
        body = {"kind": "tournament", "match": match.pk}
        yield (
            "POST /api/games/ (game-list, a match of A)",
            False,
            "post",
            "/api/games/",
            body,
            False,
        )


def test_the_matrix_reaches_every_kind_of_route(events):
    """The enumeration is not empty by accident: it finds the known actions."""
    names = {name for _, name, _, _ in event_routes()}
    for expected in (
        "tournament-pair",
        "tournament-co-organisers",
        "round-publish",
        "match-report",
        "match-penalties",
        "registration-reinstate",
        "game-ruling",
        "game-pause",
        "api-match-clock-extend",
        "api-pod-table-clock-extend",
        "tournaments:action",
        "tournaments:console",
        "tournaments:match",
        "tournaments:clock_action",
    ):
        assert expected in names
    assert sum(1 for _ in _requests(events, events["owner_b"])) > 60


@pytest.mark.parametrize("intruder", INTRUDERS)
def test_organisers_and_judges_of_b_cannot_act_on_a(events, intruder):
    actor = events[intruder]
    api, page = _api(actor), _page(actor)
    anyone = _page(events["nobody"])
    before = snapshot()
    wrong = []
    for label, is_page, method, url, body, guessed in _requests(events, actor):
        if is_page:
            response = getattr(page, method)(url, body)
        else:
            response = getattr(api, method)(url, body, format="json")
        refused = response.status_code in (403, 404) or (guessed and response.status_code == 405)
        if not refused and guessed:
            # A plain page that is not an action (the public pages answer a POST as a
            # GET; "my match" sends a non-player home): it must treat anyone the same.
            refused = getattr(anyone, method)(url, body).status_code == response.status_code
        if not refused:
            wrong.append(f"{label}: {response.status_code}")
    assert wrong == [], "\n".join(wrong)
    assert snapshot() == before


def _strip_clock_times(data):
    if isinstance(data, dict):
        return {
            k: _strip_clock_times(v)
            for k, v in data.items()
            if not any(word in k for word in ("server_time", "remaining", "seconds", "now"))
        }
    if isinstance(data, list):
        return [_strip_clock_times(v) for v in data]
    return data


def test_organisers_and_judges_of_b_see_of_a_what_anyone_sees(events):
    """Reads: the same answer as a signed-in user with no role (no drafts, audit, queue,
    penalties, secret swaps, result history, seeds or hidden choices). The nobody's
    answer to each read is fetched once and compared with each intruder's."""
    intruders = ["owner_b", "head_b", "site_organiser", "site_judge"]
    nobody = events["nobody"]
    different = []
    for route, name, methods, resource in event_routes():
        if "get" not in methods:
            continue
        for kwargs in _kwargs(route, name, resource, events):
            url = reverse(name, kwargs=kwargs)
            client = _page if ":" in name else _api
            anyones = client(nobody).get(url)
            for intruder in intruders:
                theirs = client(events[intruder]).get(url)
                if theirs.status_code != anyones.status_code:
                    different.append(
                        f"{intruder} {url}: {theirs.status_code} vs {anyones.status_code}"
                    )
                elif ":" in name:
                    continue  # pages: the status (their content names the reader)
                elif theirs.get("Content-Type", "").startswith("application/json"):
                    if _strip_clock_times(theirs.json()) != _strip_clock_times(anyones.json()):
                        different.append(f"{intruder} {url}: different content")
                elif theirs.content != anyones.content:
                    different.append(f"{intruder} {url}: different content")
    assert different == []


def test_the_judges_pages_refuse_b(events):
    """The matrix above compares with a nobody; this pins what that means for A's
    judges' pages and API: B's judge gets 403 (404 for hidden objects)."""
    client = _page(events["head_b"])
    a = events["a"]
    for name in ("console", "results", "penalties", "audit"):
        assert client.get(reverse(f"tournaments:{name}", kwargs={"pk": a.pk})).status_code == 403
    api = _api(events["owner_b"])
    for path in ("audit", "queue", "penalties"):
        assert api.get(f"/api/tournaments/{a.pk}/{path}/").status_code == 403
    assert api.get(f"/api/matches/{events['match'].pk}/results/").status_code == 403


# --- who may: A's own people ------------------------------------------------------------


@pytest.mark.parametrize("who", ["owner_a", "co_a", "admin"])
def test_owner_co_organiser_and_staff_manage_a(events, who):
    user = events[who]
    a, registration = events["a"], events["registration"]
    api = _api(user)
    response = api.patch(f"/api/tournaments/{a.pk}/", {"venue": f"Hall of {who}"}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["my_role"] == {"owner_a": "owner", "co_a": "co_organiser"}.get(
        who, "staff"
    )
    dropped = api.post(f"/api/registrations/{registration.pk}/drop/", {"reason": "ill"})
    assert dropped.status_code == 200
    reinstated = api.post(f"/api/registrations/{registration.pk}/reinstate/", {"reason": "ok"})
    assert reinstated.status_code == 200
    assert api.get(f"/api/tournaments/{a.pk}/audit/").status_code == 200
    page = _page(user)
    assert page.get(reverse("tournaments:console", kwargs={"pk": a.pk})).status_code == 200


@pytest.mark.parametrize("who", ["head_a", "floor_a"])
def test_judges_of_a_judge_a_but_do_not_manage_it(events, who):
    user = events[who]
    a, match = events["a"], events["match"]
    api = _api(user)
    pending = match.submissions.get(status=ResultSubmission.Status.PENDING)
    assert (
        api.post(f"/api/matches/{match.pk}/confirm/", {"submission": pending.pk}).status_code == 200
    )
    assert api.get(f"/api/tournaments/{a.pk}/queue/").status_code == 200
    game = events["game"]
    assert api.post(f"/api/games/{game.pk}/pause/", {"reason": "judge call"}).status_code == 200
    assert api.get(f"/api/games/{game.pk}/").json()["viewer"] == "judge"
    assert api.patch(f"/api/tournaments/{a.pk}/", {"venue": "x"}, format="json").status_code == 403
    assert api.post(f"/api/tournaments/{a.pk}/finish/").status_code == 403


def test_b_organisers_judge_b_and_the_group_only_creates(events):
    """The same people are not powerless: they run B; the site group lets them create."""
    b = events["b"]
    for who in ("owner_b", "co_b"):
        response = _api(events[who]).patch(
            f"/api/tournaments/{b.pk}/", {"venue": who}, format="json"
        )
        assert response.status_code == 200
    created = _api(events["site_organiser"]).post(
        "/api/tournaments/", {"name": "New", "date": "2027-01-01"}, format="json"
    )
    assert created.status_code == 201 and created.json()["my_role"] == "owner"
    refused = _api(events["site_judge"]).post(
        "/api/tournaments/", {"name": "New", "date": "2027-01-01"}, format="json"
    )
    assert refused.status_code == 403


def test_draft_rounds_of_a_are_hidden_from_b(events):
    """A draft round of A is invisible (404) to B's people, and to them only."""
    a, owner = events["a"], events["owner_a"]
    for match in a.rounds.get().matches.filter(player_b__isnull=False):
        if match.status != "confirmed":
            services.report_result(
                match=match, by=owner, games=["a", "a"], expected_version=match.version
            )
    game = GameSession.objects.get(pk=events["game"].pk)
    assert game.match_game.match.status == "confirmed"
    services.close_round(round_=Round.objects.get(pk=events["round"].pk), by=owner)
    draft = services.pair_next_round(tournament=a, by=owner, seed="second")
    for who in ("owner_b", "head_b", "site_organiser"):
        assert _api(events[who]).get(f"/api/rounds/{draft.pk}/").status_code == 404
        assert _api(events[who]).post(f"/api/rounds/{draft.pk}/publish/").status_code in (403, 404)
    draft.refresh_from_db()
    assert draft.status == Round.Status.DRAFT
    assert _api(events["co_a"]).get(f"/api/rounds/{draft.pk}/").status_code == 200
    assert _api(events["floor_a"]).get(f"/api/rounds/{draft.pk}/").status_code == 200
