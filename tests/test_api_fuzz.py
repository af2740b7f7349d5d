"""Property-based API fuzzing with schemathesis against the served OpenAPI schema.

Every operation of ``/api/schema/`` is called with generated requests, valid and
invalid ones, as four people: anonymous, a player, a judge and an organiser. Fixtures
build an event in its Swiss rounds (with a game played online) and half of the
generated requests name the ids of those objects, so the fuzzing reaches past "404".
Every answer must be a documented status (no 5xx), with the documented content type and
a body valid against the schema, and invalid requests must be refused.

The app runs in-process (``schemathesis.openapi.from_wsgi``) inside the test's
transaction on the configured database. ``API_FUZZ_EXAMPLES`` sets the examples per
operation, role and mode (valid / invalid); the suite's default keeps the run to about
a minute, a larger value is for hunting (docs/operations.md has the command).
"""

import datetime
import os
import random
from collections import Counter

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from rest_framework.authtoken.models import Token
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import FailureGroup
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)

from games import services as game_services
from players import services as player_services
from players.demo import random_valid_set
from tournaments import services
from tournaments.models import Tournament
from tournaments.online import open_match

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

EXAMPLES = int(os.environ.get("API_FUZZ_EXAMPLES", "3"))
SEED = int(os.environ.get("API_FUZZ_SEED", "20261201"))
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
NEGATIVE_CHECKS = [*CHECKS, negative_data_rejection]

# Which fixture ids fit the ``{id}`` of a path, by its first segment after /api/.
RESOURCES = {
    "tournaments": "tournament",
    "players": "player",
    "dice-sets": "dice_set",
    "registrations": "registration",
    "rounds": "round",
    "matches": "match",
    "games": "game",
}


@pytest.fixture
def world(make_user, organiser, judge):
    """A tournament in its Swiss rounds (one round running, one result reported), a
    draft one, players with sets, an online practice game and a tournament game."""
    rng = random.Random(7)
    players = []
    for i in range(6):
        user = make_user(f"fuzz{i}")
        player = player_services.create_player(display_name=f"Fuzz {i}", user=user)
        dice_set = player_services.create_dice_set(
            player=player,
            name="Main",
            playing_dice=[d.to_dict() for d in random_valid_set(rng)],
            additional_dice=[d.to_dict() for d in random_valid_set(rng)[:3]],
        )
        players.append((user, player, dice_set))
    event = services.create_tournament(
        organiser=organiser,
        name="Fuzz Open",
        date=datetime.date(2026, 12, 5),
        top_cut_size=4,
        head_judge=judge,
    )
    services.change_status(tournament=event, to=Tournament.Status.REGISTRATION, by=organiser)
    registrations = [
        services.register(tournament=event, player=player, dice_set=dice_set, by=user)
        for user, player, dice_set in players
    ]
    round_ = services.pair_next_round(tournament=event, by=organiser, seed="fuzz")
    services.publish_round(round_=round_, by=organiser)
    services.start_round(round_=round_, by=judge)
    matches = list(round_.matches.order_by("table"))
    first = matches[0]
    services.report_result(match=first, by=first.player_a.player.user, games=["a", "a"])
    draft = services.create_tournament(
        organiser=organiser, name="Fuzz Draft", date=datetime.date(2027, 1, 9)
    )
    player_user = players[0][0]
    practice = game_services.create_practice_game(
        by=player_user,
        playing_dice=list(players[0][2].playing_dice),
        bot="random",
        bot_dice=[d.to_dict() for d in random_valid_set(rng)],
    )
    online = open_match(match=matches[1], by=judge)
    ids = {
        "tournament": [event.pk, draft.pk],
        "player": [p.pk for _, p, _ in players],
        "dice_set": [d.pk for _, _, d in players],
        "registration": [r.pk for r in registrations],
        "round": [round_.pk],
        "match": [m.pk for m in matches],
        "game": [practice.pk, online.pk],
    }
    users = {
        "anonymous": None,
        "player": player_user,
        "judge": judge,
        "organiser": organiser,
    }
    return ids, users


@pytest.fixture
def keep_connection():
    """The WSGI app runs in this test's transaction: like Django's test client, keep
    the end of each request from closing the connection (and the transaction)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def _id_strategy(operation, ids):
    segment = operation.path.strip("/").split("/")[1]
    known = ids.get(RESOURCES.get(segment, ""), [])
    if "{id}" not in operation.path or not known:
        return None
    return st.sampled_from(known)


def _cases(operation, mode, ids):
    """Generated cases; half of them (for a path with an id) name a fixture object."""
    generated = operation.as_strategy(generation_mode=mode)
    known = _id_strategy(operation, ids)
    if known is None:
        return generated
    named = known.flatmap(
        lambda pk: operation.as_strategy(generation_mode=mode, path_parameters={"id": pk})
    )
    if "{registration}" in operation.path:  # a standings row: a registration too
        named = st.tuples(known, st.sampled_from(ids["registration"])).flatmap(
            lambda pair: operation.as_strategy(
                generation_mode=mode,
                path_parameters={"id": pair[0], "registration": pair[1]},
            )
        )
    return st.one_of(generated, named)


class Tally:
    def __init__(self):
        self.cases = 0
        self.statuses: Counter = Counter()
        self.failures: dict[tuple, str] = {}
        self.unsatisfiable: set[tuple] = set()


def _generate(operation, mode, cases, tally):
    """One Hypothesis run: ``EXAMPLES`` generated cases of one operation and mode.
    ``cases`` is the operation's strategy for the mode (``_cases``). The run only draws:
    with a fixed seed and nothing fed back from the calls, it draws the same cases for
    every role, so they are drawn once and each of them is sent as every role."""
    drawn = []

    @seed(SEED)
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=cases)
    def run(case):
        drawn.append(case)

    try:
        run()
    except Unsatisfiable:
        # Nothing to make invalid (no parameters, no body): nothing to test.
        tally.unsatisfiable.add((operation.label, mode.value))
    return drawn


def _send(operation, mode, case, role, headers, tally):
    """One generated case sent as one role and checked; failures are collected (not
    raised), so every operation is tried in one test."""
    checks = CHECKS if mode == GenerationMode.POSITIVE else NEGATIVE_CHECKS
    tally.cases += 1
    response = case.call(headers=headers)
    tally.statuses[response.status_code // 100] += 1
    try:
        case.validate_response(response, checks=checks, headers=headers)
    except (AssertionError, FailureGroup) as exc:
        key = (role, operation.label, mode.value, response.status_code)
        tally.failures.setdefault(key, _first_lines(exc, case))


def test_api_fuzz(world, keep_connection):
    ids, users = world
    schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())
    headers = {
        role: {"Authorization": f"Token {Token.objects.get_or_create(user=user)[0].key}"}
        if user is not None
        else {}
        for role, user in users.items()
    }
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) > 50
    tally = Tally()
    modes = (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)
    drawn = {
        (i, mode): _generate(op, mode, _cases(op, mode, ids), tally)
        for i, op in enumerate(operations)
        for mode in modes
    }
    # As before the cases were drawn once: role after role, each through every operation.
    for role, role_headers in headers.items():
        for i, operation in enumerate(operations):
            for mode in modes:
                for case in drawn[i, mode]:
                    _send(operation, mode, case, role, role_headers, tally)
    print(
        f"\nAPI fuzz: {tally.cases} cases over {len(operations)} operations x {len(headers)} "
        f"roles; responses by class: {dict(sorted(tally.statuses.items()))}; "
        f"5xx: {tally.statuses[5]}; failures: {len(tally.failures)}; "
        f"no invalid case possible: {len(tally.unsatisfiable)}"
    )
    report = "\n\n".join(f"{key}:\n{text}" for key, text in sorted(tally.failures.items()))
    assert not tally.failures, f"{len(tally.failures)} kinds of failure:\n\n{report}"


def _first_lines(exc, case, limit=14) -> str:
    text = str(exc).strip().splitlines()
    curl = case.as_curl_command()
    return "\n".join([*text[:limit], f"reproduce: {curl}"])
