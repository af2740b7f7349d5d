"""Real answers against the OpenAPI schema: the schema describes what the API sends.

An event is built in several states (registration, Swiss rounds with a closed round and
a running one, results reported, confirmed and disputed, a paused clock, a swap and a
penalty; a finished Swiss with its top cut; a finished event with a disqualified player;
a draft; online games in play and finished).
Every GET operation of ``/api/schema/`` is called for every object of its kind as an
organiser, a judge, a player and anonymously, and every JSON body is validated against
the schema of the operation's answer with that status ($refs resolved in the schema).
Objects we describe are closed (config/schema.py), so an undeclared key fails as well
as a missing or mistyped one.
"""

import copy
import datetime
import random

import pytest
from django.core.management import call_command
from django.db.models import Prefetch
from jsonschema import Draft202012Validator
from rest_framework.test import APIClient

from config.dbtime import db_now
from games import services as game_services
from players import services as player_services
from players.demo import random_valid_set
from tests.tournaments.conftest import play_round_by_judge
from tournaments import clocks, selectors, services
from tournaments import serializers as tournament_serializers
from tournaments.models import Match, PairingJob, Registration, ResultSubmission, Tournament
from tournaments.online import open_match
from tournaments.standings import tiebreaker_names

pytestmark = pytest.mark.django_db

# Which fixture objects fit the ``{id}`` of a path, by its first segment after /api/.
RESOURCES = {
    "tournaments": "tournament",
    "players": "player",
    "dice-sets": "dice_set",
    "registrations": "registration",
    "rounds": "round",
    "matches": "match",
    "games": "game",
    "teams": "team",
    "pod-tables": "pod_table",
}
ROLES = ("organiser", "judge", "player", "anonymous")


# --- the schema as JSON Schema --------------------------------------------------------


def _json_schema(node):
    """OpenAPI 3.0's ``nullable`` as JSON Schema's null type, everywhere."""
    if isinstance(node, list):
        return [_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    converted = {key: _json_schema(value) for key, value in node.items()}
    if converted.pop("nullable", False):
        return {"anyOf": [converted, {"type": "null"}]}
    return converted


def openapi_schema() -> dict:
    """The schema as served."""
    response = APIClient().get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    return response.json()


def answer_validator(schema: dict, path: str, method: str, status: int):
    """A validator of the JSON answer of one operation with one status, or None when the
    operation documents no JSON body for it."""
    responses = schema["paths"][path][method]["responses"]
    response = responses.get(str(status))
    if response is None:
        pytest.fail(f"{method.upper()} {path} answered {status}, which it does not document")
    body = (response.get("content") or {}).get("application/json")
    if body is None:
        return None
    document = _json_schema(body["schema"])
    document["components"] = _json_schema(schema["components"])
    return Draft202012Validator(document)


def errors_of(validator, body) -> list[str]:
    return [
        f"{'/'.join(map(str, error.absolute_path)) or '(body)'}: {error.message}"
        for error in validator.iter_errors(body)
    ]


# --- an event in several states -------------------------------------------------------


def _player_with_set(make_user, name, rng):
    user = make_user(name.lower().replace(" ", ""))
    player = player_services.create_player(display_name=name, user=user)
    dice_set = player_services.create_dice_set(
        player=player,
        name="Main",
        playing_dice=[d.to_dict() for d in random_valid_set(rng)],
        additional_dice=[d.to_dict() for d in random_valid_set(rng)[:3]],
    )
    return user, player, dice_set


def _open_event(organiser, judge, name, **settings):
    event = services.create_tournament(
        organiser=organiser,
        name=name,
        date=datetime.date(2026, 12, 5),
        head_judge=judge,
        **settings,
    )
    return services.change_status(tournament=event, to=Tournament.Status.REGISTRATION, by=organiser)


@pytest.fixture
def world(make_user, organiser, judge):
    rng = random.Random(11)
    people = [_player_with_set(make_user, f"Schema {i}", rng) for i in range(8)]
    ids = {kind: set() for kind in RESOURCES.values()}

    # Swiss: round 1 closed, round 2 running with a report pending, a confirmed result,
    # a dispute, a paused clock, a swap and a penalty; results not public.
    swiss = _open_event(organiser, judge, "Schema Open", top_cut_size=4, swiss_rounds=3)
    registrations = [
        services.register(tournament=swiss, player=player, dice_set=dice_set, by=user)
        for user, player, dice_set in people[:7]  # seven: a bye every round
    ]
    first = services.pair_next_round(tournament=swiss, by=organiser, seed="schema")
    services.publish_round(round_=first, by=organiser)
    services.start_round(round_=first, by=judge)
    play_round_by_judge(first, judge, rng)
    services.close_round(round_=first, by=organiser)
    second = services.pair_next_round(tournament=swiss, by=organiser, seed="schema")
    services.publish_round(round_=second, by=organiser)
    services.start_round(round_=second, by=judge)
    played = list(second.matches.filter(player_b__isnull=False).order_by("table"))
    reported, confirmed, disputed = played[0], played[1], played[2]
    services.report_result(match=reported, by=reported.player_a.player.user, games=["a", "a"])
    services.report_result(match=confirmed, by=judge, games=["a", "b", "draw"])
    submission = services.report_result(
        match=disputed, by=disputed.player_a.player.user, games=["b", "b"]
    )
    services.reject_result(submission=submission, by=disputed.player_b.player.user, note="No")
    clocks.pause_match(match=reported, by=judge, reason="Judge call")
    services.record_swap(
        registration=reported.player_a, match=reported, swap_out=[0], swap_in=[0], by=judge
    )
    services.give_penalty(
        registration=disputed.player_a, kind="warning", reason="Slow play", by=judge, match=disputed
    )
    services.update_tournament(tournament=swiss, by=organiser, publish_results=False)
    online = open_match(match=played[0], by=judge)

    # A finished Swiss with its top cut started (public), ranked by every tiebreaker
    # (rows then carry the figures of those beyond the MTR set).
    cut = _open_event(
        organiser,
        judge,
        "Schema Cut",
        top_cut_size=4,
        swiss_rounds=1,
        tiebreakers=list(tiebreaker_names()),
    )
    for user, player, dice_set in people[4:8]:
        services.register(tournament=cut, player=player, dice_set=dice_set, by=user)
    only = services.pair_next_round(tournament=cut, by=organiser, seed="cut")
    services.publish_round(round_=only, by=organiser)
    services.start_round(round_=only, by=judge)
    play_round_by_judge(only, judge, random.Random(3))
    services.close_round(round_=only, by=organiser)
    top = services.start_top_cut(tournament=cut, by=organiser)

    # A finished event: one Swiss round, a top 2 played, a disqualified player.
    done = _open_event(organiser, judge, "Schema Done", top_cut_size=2, swiss_rounds=1)
    entries = [
        services.register(tournament=done, player=player, dice_set=dice_set, by=user)
        for user, player, dice_set in people[:3]
    ]
    swiss_done = services.pair_next_round(tournament=done, by=organiser, seed="done")
    services.publish_round(round_=swiss_done, by=organiser)
    services.start_round(round_=swiss_done, by=judge)
    play_round_by_judge(swiss_done, judge, random.Random(5))
    services.close_round(round_=swiss_done, by=organiser)
    services.give_penalty(
        registration=entries[2], kind="disqualification", reason="Marked dice", by=judge
    )
    final = services.start_top_cut(tournament=done, by=organiser)
    services.publish_round(round_=final, by=organiser)
    services.start_round(round_=final, by=judge)
    play_round_by_judge(final, judge, random.Random(5))
    services.close_round(round_=final, by=organiser)
    assert Tournament.objects.get(pk=done.pk).status == Tournament.Status.FINISHED

    # A team event (teams of 2) in its first round, with one result in.
    teamed = _open_event(organiser, judge, "Schema Teams", team_size=2, swiss_rounds=2)
    teams = [
        services.register_team(
            tournament=teamed,
            name=f"Schema Team {i}",
            captain=people[2 * i][1],
            members=[
                (people[2 * i][1], people[2 * i][2]),
                (people[2 * i + 1][1], people[2 * i + 1][2]),
            ],
            by=organiser,
        )
        for i in range(3)
    ]
    team_round = services.pair_next_round(tournament=teamed, by=organiser, seed="teams")
    services.publish_round(round_=team_round, by=organiser)
    services.start_round(round_=team_round, by=judge)
    play_round_by_judge(team_round, judge, random.Random(7))

    # Registration open, no rounds; and a draft.
    waiting = _open_event(organiser, judge, "Schema Later")
    services.register(
        tournament=waiting, player=people[0][1], dice_set=people[0][2], by=people[0][0]
    )
    draft = services.create_tournament(
        organiser=organiser, name="Schema Draft", date=datetime.date(2027, 1, 9)
    )

    # An event in pods (36d6): round 1 placed and closed, round 2 with one table placed.
    pods = services.create_tournament(
        organiser=organiser,
        name="Schema Pods",
        date=datetime.date(2027, 1, 10),
        game="36d6",
        head_judge=judge,
        pods=True,
        top_cut_size=0,
        swiss_rounds=3,
    )
    services.change_status(tournament=pods, to=Tournament.Status.REGISTRATION, by=organiser)
    for user, player, _set in people[:7]:
        services.register(tournament=pods, player=player, by=user)
    pod_rounds = []
    for number in (1, 2):
        pod_round = services.pair_next_round(tournament=pods, by=organiser, seed=f"pods{number}")
        services.publish_round(round_=pod_round, by=organiser)
        services.start_round(round_=pod_round, by=judge)
        for table in pod_round.pod_tables.all()[: 2 if number == 1 else 1]:
            seats = list(table.seats.all())
            services.record_placings(
                table=table, placings={s.registration_id: s.seat for s in seats}, by=judge
            )
        if number == 1:
            services.close_round(round_=pod_round, by=organiser)
        pod_rounds.append(pod_round)

    # Online games: a practice game in play, one finished.
    player_user = people[0][0]
    practice = game_services.create_practice_game(
        by=player_user,
        playing_dice=list(people[0][2].playing_dice),
        bot="random",
        bot_dice=[d.to_dict() for d in random_valid_set(rng)],
    )
    finished = game_services.create_practice_game(
        by=player_user,
        playing_dice=list(people[0][2].playing_dice),
        bot="random",
        bot_dice=[d.to_dict() for d in random_valid_set(rng)],
    )
    game_services.concede(session=finished, by=player_user)

    # A round paired in the background that failed, and one that is done.
    failed_job = PairingJob.objects.create(
        tournament=swiss, number=3, seed="job", status="failed", error="Stopped."
    )
    done_job = PairingJob.objects.create(
        tournament=cut, number=1, seed="cut", status="done", round=only, stage="exact"
    )
    ids["pairing_job"] = {(failed_job.tournament_id, failed_job.pk), (cut.pk, done_job.pk)}

    ids["tournament"] |= {swiss.pk, cut.pk, done.pk, waiting.pk, draft.pk, teamed.pk, pods.pk}
    ids["team"] |= {team.pk for team in teams}
    ids["round"].add(team_round.pk)
    ids["match"] |= {m.pk for m in team_round.matches.all()}
    ids["player"] |= {p.pk for _, p, _ in people}
    ids["dice_set"] |= {d.pk for _, _, d in people}
    ids["registration"] |= {r.pk for r in registrations}
    ids["round"] |= {first.pk, second.pk, only.pk, top.pk, *(r.pk for r in pod_rounds)}
    ids["pod_table"] |= {t.pk for r in pod_rounds for t in r.pod_tables.all()}
    ids["match"] |= {m.pk for r in (first, second, top) for m in r.matches.all()}
    ids["game"] |= {online.pk, practice.pk, finished.pk}
    users = {"organiser": organiser, "judge": judge, "player": player_user, "anonymous": None}
    return ids, users


def _client(user) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def _get_operations(schema) -> list[str]:
    return [path for path, operations in schema["paths"].items() if "get" in operations]


def _addresses(path, ids) -> list[str]:
    if "{job_id}" in path:
        return [
            path.replace("{id}", str(pk)).replace("{job_id}", str(job))
            for pk, job in sorted(ids["pairing_job"])
        ]
    if "{id}" not in path:
        return [path]
    if "{registration}" in path:  # a tournament's row: the first registration of each
        first = {}
        registrations = Registration.objects.filter(pk__in=ids["registration"]).order_by("pk")
        for tournament, registration in registrations.values_list("tournament", "pk"):
            first.setdefault(tournament, registration)
        return [
            path.replace("{id}", str(tournament)).replace("{registration}", str(registration))
            for tournament, registration in sorted(first.items())
        ]
    kind = RESOURCES[path.strip("/").split("/")[1]]
    addresses = [path.replace("{id}", str(pk)) for pk in sorted(ids[kind])]
    if path.endswith("/standings/"):  # each row's arithmetic on demand
        addresses += [f"{address}?explain=1" for address in addresses]
    return addresses


# --- the tests ------------------------------------------------------------------------


def test_every_get_answer_matches_the_schema(world):
    ids, users = world
    schema = openapi_schema()
    problems, validated = [], set()
    for path in _get_operations(schema):
        for role in ROLES:
            client = _client(users[role])
            for address in _addresses(path, ids):
                response = client.get(address)
                if not response["Content-Type"].startswith("application/json"):
                    assert response["Content-Type"].startswith("text/csv"), address
                    validated.add(path)
                    continue
                validator = answer_validator(schema, path, "get", response.status_code)
                assert validator is not None, (address, response.status_code)
                for problem in errors_of(validator, response.json()):
                    problems.append(f"{role} GET {address} {response.status_code}: {problem}")
                if response.status_code == 200:
                    validated.add(path)
    assert not problems, "\n".join(problems[:40])
    # Every documented read answered 200 at least once, so each answer schema was used.
    assert set(_get_operations(schema)) == validated


def _match_answer(world):
    ids, users = world
    match_id = min(ids["match"])
    response = _client(users["judge"]).get(f"/api/matches/{match_id}/")
    assert response.status_code == 200
    return response.json()


def test_an_undeclared_key_in_an_answer_fails(world):
    schema = openapi_schema()
    validator = answer_validator(schema, "/api/matches/{id}/", "get", 200)
    answer = _match_answer(world)
    assert errors_of(validator, answer) == []
    answer["clock"]["lap"] = 1
    assert errors_of(validator, answer)
    answer = _match_answer(world)
    answer["player_a"]["rating"] = 1500
    assert errors_of(validator, answer)


def test_a_field_the_schema_does_not_declare_fails(world, monkeypatch):
    """The bug this schema had: the documented match had no ``clock``. A declaration
    that drops a field the producer still sends is caught."""
    declared = dict(tournament_serializers.MatchClockSerializer._declared_fields)
    del declared["game"]
    monkeypatch.setattr(tournament_serializers.MatchClockSerializer, "_declared_fields", declared)
    schema = openapi_schema()
    validator = answer_validator(schema, "/api/matches/{id}/", "get", 200)
    problems = errors_of(validator, _match_answer(world))
    assert any("game" in problem for problem in problems), problems


def test_a_field_the_answer_no_longer_sends_fails(world):
    schema = openapi_schema()
    validator = answer_validator(schema, "/api/matches/{id}/", "get", 200)
    answer = _match_answer(world)
    del answer["version"]
    assert errors_of(validator, answer)
    answer = _match_answer(world)
    del answer["clock"]["server_time"]
    assert errors_of(validator, answer)


def test_nullable_becomes_the_null_type():
    converted = _json_schema(
        {"type": "object", "properties": {"a": {"type": "integer", "nullable": True}}}
    )
    validator = Draft202012Validator(converted)
    assert validator.is_valid({"a": None}) and validator.is_valid({"a": 3})
    assert not validator.is_valid({"a": "3"})
    assert copy.deepcopy(converted) == converted


def test_answers_built_directly_equal_what_their_declared_fields_build(world):
    """Matches and standings rows are built directly for speed (DirectOutput); the
    declared fields, which make the schema, must give exactly the same answer."""
    ids, _ = world
    open_versions = Prefetch(
        "submissions",
        queryset=ResultSubmission.objects.order_by("number"),
        to_attr="open_submissions",
    )
    matches = list(
        Match.objects.filter(pk__in=ids["match"])
        .select_related("player_a__player", "player_b__player")
        .prefetch_related(open_versions)
    )
    assert any(m.status == Match.Status.CONFIRMED for m in matches)
    assert any(m.player_b_id is None for m in matches)
    now = db_now()
    for serializer_class in (
        tournament_serializers.MatchSerializer,
        tournament_serializers.QueueMatchSerializer,
    ):
        for show_results in (True, False):
            serializer = serializer_class(context={"show_results": show_results, "now": now})
            for match in matches:
                assert serializer.represent(match) == serializer.by_fields(match), match.pk
    starting = tournament_serializers.MatchGameStartSerializer(
        context={"show_results": True, "now": now, "game": 1}
    )
    assert starting.represent(matches[0]) == starting.by_fields(matches[0])
    for tournament in Tournament.objects.filter(pk__in=ids["tournament"]):
        table = selectors.standings(tournament)
        for explain in (False, True):
            context = {"standings": table, "explain": explain}
            rows = tournament_serializers.StandingsRowSerializer(context=context)
            for row in table:
                assert rows.represent(row) == rows.by_fields(row)
                assert ("explanation" in rows.represent(row)) is explain
        explained = tournament_serializers.ExplainedStandingsRowSerializer(
            context={"standings": table}
        )
        for row in table:
            assert explained.represent(row) == explained.by_fields(row)


def test_the_schema_is_valid_openapi_without_warnings(tmp_path):
    """drf-spectacular's own validation (OpenAPI 3 meta-schema) with warnings as errors:
    an all-optional answer object once produced ``"required": []``, which is invalid."""
    call_command(
        "spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yml")
    )
