"""Swiss phases end to end: the setting (API and form), the cut applied when a phase's
last round closes, the next phase paired without the cut players, their rows frozen at
the phase end, the audit log, the placings (docs/standings.md, "Swiss phases")."""

from contextlib import contextmanager
from fractions import Fraction

import pytest
from django.core.exceptions import ValidationError
from django.db import connection, connections
from django.db.migrations.executor import MigrationExecutor
from django.test.utils import CaptureQueriesContext

from tests.conftest import api_as
from tournaments import selectors, services
from tournaments.models import AuditEntry, Match, Registration, Round, Tournament
from tournaments.phases import (
    SwissPhase,
    advancing_players,
    format_phases,
    parse_phases_text,
    phase_errors,
)
from tournaments.standings import (
    MatchRecord,
    PlayerEntry,
    compute_phased_standings,
    compute_standings,
)

POINTS_CUT = [{"ends_after_round": 2, "advance": "points", "value": 3}]


# --- the pure rules ---------------------------------------------------------------------


def _six_players(second_games, third_games):
    """A beat B 2-0; C beat D and E beat F with the games given."""
    players = [PlayerEntry(i, name) for i, name in enumerate("ABCDEF", start=1)]
    records = [
        MatchRecord(1, 1, 2, 2, 0),
        MatchRecord(1, 3, 4, *second_games),
        MatchRecord(1, 5, 6, *third_games),
    ]
    return compute_standings(players, records)


def test_top_n_follows_the_tiebreakers_and_a_shared_rank_at_the_line_advances_whole():
    # A won 2-0, C and E 2-1: game win % puts A first; C and E are level on everything.
    table = _six_players((2, 1), (2, 1))
    assert [row.rank for row in table.rows[:3]] == [1, 2, 2]
    assert advancing_players(table, SwissPhase(1, "top", 1), {1, 2, 3, 4, 5, 6}) == {1}
    # The 2nd place is shared by C and E: both advance, three in a top 2.
    assert advancing_players(table, SwissPhase(1, "top", 2), {1, 2, 3, 4, 5, 6}) == {1, 3, 5}
    # Only eligible players count: with C out (dropped), the top 2 is A and E.
    assert advancing_players(table, SwissPhase(1, "top", 2), {1, 2, 4, 5, 6}) == {1, 5}
    assert advancing_players(table, SwissPhase(1, "points", 3), {1, 2, 3, 4, 5, 6}) == {1, 3, 5}
    assert advancing_players(table, SwissPhase(1, "all"), {1, 2}) == {1, 2}


def test_a_cut_player_is_listed_after_the_players_who_advanced_before_the_next_round():
    # A beat B, C beat D; B did not make the cut after round 1, D did (say, top 3).
    players = [
        PlayerEntry(1, "A"),
        PlayerEntry(2, "B", cut_after_round=1),
        PlayerEntry(3, "C"),
        PlayerEntry(4, "D"),
    ]
    records = [MatchRecord(1, 1, 2, 2, 0), MatchRecord(1, 3, 4, 2, 0)]
    table = compute_phased_standings(players, records, phase_ends=[1])
    assert [(row.name, row.rank) for row in table.rows] == [("A", 1), ("C", 1), ("D", 3), ("B", 4)]
    assert table.row(2).cut_after_round == 1 and table.row(4).cut_after_round is None
    assert table.ranked_player_ids() == [1, 3, 4]
    # Once round 2 is played by the others, B's row is still the round-1 one, phase 1.
    records += [MatchRecord(2, 1, 3, 2, 1), MatchRecord.bye(2, 4)]
    later = compute_phased_standings(players, records, phase_ends=[1, 2])
    assert [row.name for row in later.rows] == ["A", "C", "D", "B"]
    assert [later.phase(pid) for pid in (1, 3, 4, 2)] == [2, 2, 2, 1]
    assert later.row(2) == table.row(2)._replace(rank=4)
    assert compute_standings(players, records).phase(2) == 1


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ([9], "list of"),
        ([{"ends_after_round": 0, "advance": "all"}], "round number from 1 up"),
        ([{"ends_after_round": 3, "advance": "half"}], '"points", "top" or "all"'),
        ([{"ends_after_round": 3, "advance": "points"}], "match points needed"),
        ([{"ends_after_round": 3, "advance": "top", "value": 1}], "at least 2"),
        ([{"ends_after_round": 3, "advance": "all", "value": 4}], "takes no value"),
        ([{"ends_after_round": 3, "advance": "points", "value": 10}], "at most 9"),
        (
            [
                {"ends_after_round": 5, "advance": "all"},
                {"ends_after_round": 3, "advance": "all"},
            ],
            "in order",
        ),
        (
            [
                {"ends_after_round": 3, "advance": "top", "value": 8},
                {"ends_after_round": 5, "advance": "top", "value": 16},
            ],
            "only 8 players reached",
        ),
    ],
)
def test_phase_errors_say_what_is_wrong(raw, message):
    errors = phase_errors(raw)
    assert errors and message in " ".join(errors), errors


def test_phase_errors_against_the_rounds_and_the_field():
    phases = [{"ends_after_round": 5, "advance": "top", "value": 32}]
    assert phase_errors(phases, swiss_rounds=6, field_size=32) == []
    assert "the event has 5 Swiss rounds" in phase_errors(phases, swiss_rounds=5)[0]
    assert "only 20 players" in phase_errors(phases, field_size=20)[0]


def test_the_form_line_reads_and_writes_the_setting():
    phases, errors = parse_phases_text("9 points 18; 12 TOP 8\n13 all")
    assert errors == []
    assert phases == [
        {"ends_after_round": 9, "advance": "points", "value": 18},
        {"ends_after_round": 12, "advance": "top", "value": 8},
        {"ends_after_round": 13, "advance": "all"},
    ]
    assert format_phases(phases) == "9 points 18; 12 top 8; 13 all"
    assert parse_phases_text("after nine rounds")[1][0].startswith("Cannot read")
    assert parse_phases_text("") == ([], [])


# --- the setting through the API and the form ------------------------------------------


def _audit_count(tournament):
    return AuditEntry.objects.filter(tournament=tournament).count()


@pytest.mark.django_db
def test_bad_phases_through_the_api_are_a_400_and_change_nothing(tournament, organiser):
    client = api_as(organiser)
    url = f"/api/tournaments/{tournament.pk}/"
    assert client.patch(url, {"swiss_rounds": 5}, format="json").status_code == 200
    before = _audit_count(tournament)
    cases = [
        ([{"ends_after_round": 5, "advance": "all"}], "the event has 5 Swiss rounds"),
        (
            [
                {"ends_after_round": 3, "advance": "all"},
                {"ends_after_round": 2, "advance": "all"},
            ],
            "in order",
        ),
        ([{"ends_after_round": 2, "advance": "top"}], "how many players advance"),
        ([{"ends_after_round": 2, "advance": "sometimes"}], "valid choice"),
        ([{"ends_after_round": 2, "advance": "points", "value": 7}], "at most 6"),
        ("9 points 18", "list"),
    ]
    for phases, message in cases:
        response = client.patch(url, {"swiss_phases": phases}, format="json")
        assert response.status_code == 400, (phases, response.content)
        assert message in str(response.json()), response.json()
    both = {"swiss_phases": [], "swiss_phase_ends": [2]}
    assert client.patch(url, both, format="json").status_code == 400
    assert client.patch(url, {"swiss_phase_ends": [3, 2]}, format="json").status_code == 400
    tournament.refresh_from_db()
    assert tournament.swiss_phases == []
    assert _audit_count(tournament) == before

    ok = client.patch(url, {"swiss_phases": POINTS_CUT}, format="json")
    assert ok.status_code == 200
    assert ok.json()["swiss_phases"] == [{**POINTS_CUT[0]}]
    assert ok.json()["swiss_phase_ends"] == [2]
    # The earlier form of the setting: a known end keeps its cut, a new one cuts nobody.
    legacy = client.patch(url, {"swiss_phase_ends": [2, 3]}, format="json").json()
    assert legacy["swiss_phases"] == [
        *POINTS_CUT,
        {"ends_after_round": 3, "advance": "all", "value": None},
    ]
    tournament.refresh_from_db()
    assert tournament.swiss_phases == [*POINTS_CUT, {"ends_after_round": 3, "advance": "all"}]
    # Fewer Swiss rounds than the phases need is refused too.
    assert client.patch(url, {"swiss_rounds": 3}, format="json").status_code == 400


@pytest.mark.django_db
def test_a_top_n_larger_than_the_field_is_refused_once_swiss_started(
    tournament, organiser, register_players
):
    register_players(tournament, 6)
    client = api_as(organiser)
    url = f"/api/tournaments/{tournament.pk}/"
    assert client.patch(url, {"swiss_rounds": 4}, format="json").status_code == 200
    services.pair_next_round(tournament=tournament, by=organiser, seed="s")
    response = client.patch(
        url,
        {"swiss_phases": [{"ends_after_round": 2, "advance": "top", "value": 8}]},
        format="json",
    )
    assert response.status_code == 400
    assert "only 6 players are in the event" in str(response.json())
    tournament.refresh_from_db()
    assert tournament.swiss_phases == []


def _form_data(tournament, **changes):
    data = {
        "name": tournament.name,
        "date": tournament.date.isoformat(),
        "venue": tournament.venue,
        "swiss_rounds": tournament.swiss_rounds or "",
        "top_cut_size": tournament.top_cut_size,
        "match_minutes": tournament.match_minutes,
        "game_minutes": tournament.game_minutes,
        "late_entry": tournament.late_entry,
        "percentage_floor": tournament.percentage_floor,
        "bracket_losers": tournament.bracket_losers,
        "tiebreakers": "",
    }
    data.update(changes)
    return data


@pytest.mark.django_db
def test_the_settings_form_edits_the_phases_with_form_errors(client, tournament, organiser):
    client.force_login(organiser)
    url = f"/tournaments/{tournament.pk}/edit/"
    before = _audit_count(tournament)
    for text, message in [
        ("3 points", "match points needed"),
        ("2 points eighteen", "Cannot read"),
        ("3 all; 2 all", "in order"),
        ("2 top 1", "at least 2"),
    ]:
        page = client.post(url, _form_data(tournament, swiss_rounds=5, swiss_phases=text))
        assert page.status_code == 200, text
        errors = " ".join(page.context["form"].errors.get("swiss_phases", []))
        assert message in errors, errors
    page = client.post(url, _form_data(tournament, swiss_rounds=5, swiss_phases="9 all"))
    assert "must end before the last round" in " ".join(page.context["form"].errors["swiss_phases"])
    tournament.refresh_from_db()
    assert tournament.swiss_phases == [] and tournament.swiss_rounds is None
    assert _audit_count(tournament) == before

    saved = client.post(url, _form_data(tournament, swiss_rounds=5, swiss_phases="3 points 6"))
    assert saved.status_code == 302
    tournament.refresh_from_db()
    assert tournament.swiss_phases == [{"ends_after_round": 3, "advance": "points", "value": 6}]
    page = client.get(url)
    assert b'value="3 points 6"' in page.content
    # A form posted without the field (an older page) keeps the phases.
    data = _form_data(tournament)
    assert client.post(url, data).status_code == 302
    tournament.refresh_from_db()
    assert tournament.swiss_phases == [{"ends_after_round": 3, "advance": "points", "value": 6}]


# --- the cut applied ---------------------------------------------------------------------


def _play(tournament, organiser, judge, *, winner="a"):
    """Pair, publish, start, give every match to side ``winner`` 2-0, and close."""
    round_ = services.pair_next_round(tournament=tournament, by=organiser, seed="phases")
    services.publish_round(round_=round_, by=organiser)
    services.start_round(round_=round_, by=judge)
    for match in round_.matches.filter(player_b__isnull=False):
        services.report_result(match=match, by=judge, games=[winner, winner])
    services.close_round(round_=round_, by=organiser)
    return round_


def _paired(round_):
    ids = set()
    for match in Match.objects.filter(round=round_):
        ids |= {match.player_a_id, match.player_b_id} - {None}
    return ids


@pytest.fixture
def phased(tournament, organiser, register_players):
    """8 players, 4 Swiss rounds, no top cut; phase 1 ends after round 2."""

    def make(phases, players=8):
        registrations = register_players(tournament, players)
        services.update_tournament(
            tournament=tournament,
            by=organiser,
            swiss_rounds=4,
            top_cut_size=0,
            swiss_phases=phases,
        )
        tournament.refresh_from_db()
        return registrations

    return make


@pytest.mark.django_db
def test_a_points_cut_is_applied_when_the_phase_ends_and_frozen_rows_follow(
    tournament, organiser, judge, phased, client
):
    phased(POINTS_CUT)
    _play(tournament, organiser, judge)
    _play(tournament, organiser, judge)
    day_one = selectors.standings(tournament, as_of_round=2)
    cut = {row.player_id for row in day_one.rows if row.match_points < 3}
    assert len(cut) == 2  # 8 players, every match won by side a: 6, 6, 3 x 4, 0, 0
    marked = set(
        Registration.objects.filter(tournament=tournament, cut_after_round=2).values_list(
            "pk", flat=True
        )
    )
    assert marked == cut
    assert not Registration.objects.filter(pk__in=cut, dropped=True).exists()
    entry = AuditEntry.objects.get(tournament=tournament, action="phase.cut")
    assert entry.after == {"after_round": 2, "rule": POINTS_CUT[0], "cut": sorted(cut)}
    assert "at least 3 match points" in entry.reason

    # Listed below the players who advanced already, before round 3 is played.
    table = selectors.standings(tournament)
    assert {row.player_id for row in table.rows[-2:]} == cut
    assert all(table.row(pid).cut_after_round == 2 for pid in cut)

    third = _play(tournament, organiser, judge, winner="b")
    assert _paired(third).isdisjoint(cut) and len(_paired(third)) == 6
    page = client.get(f"/tournaments/{tournament.pk}/rounds/3/").content.decode()
    assert "A new Swiss phase: 2 players did not advance after round 2:" in page
    cut_names = sorted(Registration.objects.get(pk=pid).player.display_name for pid in cut)
    assert ", ".join(cut_names) + "." in page
    assert (
        "did not advance"
        not in client.get(f"/tournaments/{tournament.pk}/rounds/2/").content.decode()
    )
    fourth = _play(tournament, organiser, judge)
    assert _paired(fourth).isdisjoint(cut)

    final = selectors.standings(tournament)
    assert {row.player_id for row in final.rows[-2:]} == cut
    unphased = compute_standings(
        [PlayerEntry(r.player_id, r.name) for r in final.rows],
        selectors.match_records(
            tournament,
            Registration.objects.filter(tournament=tournament),
            selectors._swiss_matches(tournament),
        ),
    )
    for player_id in cut:
        frozen = final.row(player_id)
        at_cut = day_one.row(player_id)
        assert frozen.opponents_match_win == at_cut.opponents_match_win
        assert frozen.match_points == at_cut.match_points
        assert final.phase(player_id) == 1
    assert any(
        unphased.row(pid).opponents_match_win != final.row(pid).opponents_match_win for pid in cut
    ), "the opponents played on: the live OMW moved, the frozen one did not"
    assert {final.phase(row.player_id) for row in final.rows[:6]} == {2}

    rows = api_as(organiser).get(f"/api/tournaments/{tournament.pk}/standings/").json()["rows"]
    assert [row["cut_after_round"] for row in rows[-2:]] == [2, 2]
    assert [row["phase"] for row in rows] == [2] * 6 + [1] * 2
    assert (
        Fraction(rows[-1]["opponents_match_win"]["fraction"])
        == day_one.row(rows[-1]["registration"]).opponents_match_win
    )
    page = client.get(f"/tournaments/{tournament.pk}/standings/")
    assert page.content.decode().count("did not advance · phase 1") == 2
    csv_lines = client.get(f"/tournaments/{tournament.pk}/standings.csv").content.decode()
    assert csv_lines.splitlines()[0].startswith(
        "rank,name,registration,points,record,dropped,phase,did_not_advance_after,"
    )
    assert csv_lines.count(",1,2,") == 2

    # An earlier round's table does not know of the cut yet.
    assert all(
        row.cut_after_round is None for row in selectors.standings(tournament, as_of_round=1)
    )

    # The event's placings follow the phased table: the day-1 players last.
    services.finish_tournament(tournament=tournament, by=organiser)
    tournament.refresh_from_db()
    placings = selectors.placings(tournament)
    assert [p.player_id for p in placings] == [row.player_id for row in final.rows]
    assert {p.player_id for p in placings[-2:]} == cut
    assert placings[-2].place > placings[-3].place


@pytest.mark.django_db
def test_a_top_n_cut_keeps_the_standings_order_and_a_shared_rank_at_the_line(
    tournament, organiser, judge, phased
):
    phased([{"ends_after_round": 2, "advance": "top", "value": 3}])
    _play(tournament, organiser, judge)
    _play(tournament, organiser, judge)
    table = selectors.standings(tournament, as_of_round=2)
    third = table.rows[2].rank
    expected = {row.player_id for row in table.rows[:3]} | {
        row.player_id for row in table.rows if row.rank == third
    }
    advanced = set(
        Registration.objects.filter(tournament=tournament, cut_after_round=None).values_list(
            "pk", flat=True
        )
    )
    assert advanced == expected and len(advanced) >= 3
    round_ = services.pair_next_round(tournament=tournament, by=organiser, seed="x")
    assert _paired(round_) == advanced


@pytest.mark.django_db
def test_a_corrected_result_before_the_next_pairing_moves_the_cut(
    tournament, organiser, judge, phased
):
    phased(POINTS_CUT)
    _play(tournament, organiser, judge)
    second = _play(tournament, organiser, judge)
    cut_before = set(
        Registration.objects.filter(cut_after_round=2, tournament=tournament).values_list(
            "pk", flat=True
        )
    )
    # A judge corrects a round-2 match won by a player on 3 points against one on 0:
    # the loser now wins it, and both end on 3 points.
    points_after_one = selectors.standings(tournament, as_of_round=1)
    match = next(
        m
        for m in second.matches.filter(player_b__isnull=False)
        if points_after_one.row(m.player_b_id).match_points == 0
    )
    assert match.player_b_id in cut_before
    services.report_result(match=match, by=judge, games=["b", "b"], expected_version=match.version)
    third = services.pair_next_round(tournament=tournament, by=organiser, seed="x")
    cut_after = set(
        Registration.objects.filter(cut_after_round=2, tournament=tournament).values_list(
            "pk", flat=True
        )
    )
    assert match.player_b_id not in cut_after and match.player_b_id in _paired(third)
    assert _paired(third).isdisjoint(cut_after)
    entries = AuditEntry.objects.filter(tournament=tournament, action="phase.cut").order_by("pk")
    assert [e.after["cut"] for e in entries] == [sorted(cut_before), sorted(cut_after)]
    assert entries[1].before == {"after_round": 2, "cut": sorted(cut_before)}

    # Round 3 is paired: the cut after round 2 is fixed.
    with pytest.raises(ValidationError, match="the cut after round 2 is fixed"):
        services.update_tournament(
            tournament=tournament,
            by=organiser,
            swiss_phases=[{"ends_after_round": 2, "advance": "points", "value": 6}],
        )
    with pytest.raises(ValidationError, match="the cut after round 1 is fixed"):
        services.update_tournament(
            tournament=tournament,
            by=organiser,
            swiss_phases=[{"ends_after_round": 1, "advance": "top", "value": 4}, *POINTS_CUT],
        )
    tournament.refresh_from_db()
    assert tournament.swiss_phases == POINTS_CUT


@pytest.mark.django_db
def test_changing_the_rule_before_the_next_pairing_recomputes_the_cut(
    tournament, organiser, judge, phased
):
    phased(POINTS_CUT)
    _play(tournament, organiser, judge)
    _play(tournament, organiser, judge)
    assert Registration.objects.filter(tournament=tournament, cut_after_round=2).count() == 2
    services.update_tournament(
        tournament=tournament,
        by=organiser,
        swiss_phases=[{"ends_after_round": 2, "advance": "points", "value": 6}],
    )
    assert Registration.objects.filter(tournament=tournament, cut_after_round=2).count() == 6
    services.update_tournament(tournament=tournament, by=organiser, swiss_phases=[])
    assert not Registration.objects.filter(tournament=tournament, cut_after_round=2).exists()
    last = AuditEntry.objects.filter(action="phase.cut").latest("pk")
    assert last.after["cut"] == [] and "nobody is cut" in last.reason
    round_ = services.pair_next_round(tournament=tournament, by=organiser, seed="x")
    assert len(_paired(round_)) == 8


@pytest.mark.django_db
def test_phases_that_do_not_fit_the_decided_rounds_stop_the_first_pairing(
    tournament, organiser, register_players
):
    register_players(tournament, 6)  # 6 players: 3 Swiss rounds when none are set
    services.update_tournament(
        tournament=tournament,
        by=organiser,
        swiss_phases=[{"ends_after_round": 3, "advance": "all"}],
    )
    with pytest.raises(ValidationError, match="The Swiss phases do not fit this event"):
        services.pair_next_round(tournament=tournament, by=organiser)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.REGISTRATION
    assert not Round.objects.filter(tournament=tournament).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("players", [8, 14])
def test_pages_with_a_cut_run_a_constant_number_of_queries(
    tournament, organiser, judge, phased, client, players
):
    phased(POINTS_CUT, players=players)
    _play(tournament, organiser, judge)
    _play(tournament, organiser, judge)
    _play(tournament, organiser, judge)
    counts = {}
    for address in ("standings/", "standings.csv", "rounds/3/"):
        with CaptureQueriesContext(connection) as captured:
            assert client.get(f"/tournaments/{tournament.pk}/{address}").status_code == 200
        counts[address] = len(captured)
    with CaptureQueriesContext(connection) as captured:
        assert (
            api_as(organiser).get(f"/api/tournaments/{tournament.pk}/standings/").status_code == 200
        )
    counts["api"] = len(captured)
    # The same as without phases (test_pages_public): the two queries of the standings
    # whatever the number of players or of phases.
    assert counts["standings/"] <= 8 and counts["standings.csv"] <= 8
    assert counts["rounds/3/"] <= 8
    assert counts["api"] <= 10, counts


@contextmanager
def empty_database(directory):
    """A connection to a database of its own, empty (no migration applied), dropped
    after: the migration is run on it from the start, leaving the tests' database as it
    is (migrating that one back to 0009 and forward again took twice the time)."""
    alias = "swiss_phases_migration"
    base = connection.settings_dict
    name = f"{base['NAME']}_swiss_phases"
    postgres = connection.vendor == "postgresql"
    if postgres:
        with connection._nodb_cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{name}"')
            cursor.execute(f'CREATE DATABASE "{name}"')
    else:
        name = str(directory / "swiss_phases.sqlite3")
    connections.settings[alias] = {**base, "NAME": name}
    try:
        # Connected here: the test case refuses to open a database it did not list.
        connections[alias].connect()
        yield connections[alias]
    finally:
        connections[alias].close()
        del connections[alias]
        del connections.settings[alias]
        if postgres:
            with connection._nodb_cursor() as cursor:
                cursor.execute(f'DROP DATABASE IF EXISTS "{name}"')


@pytest.mark.django_db
def test_the_migration_turns_stored_phase_ends_into_phases_without_a_cut(tmp_path):
    before = [("tournaments", "0009_tournament_standings_conventions")]
    with empty_database(tmp_path) as database:
        alias = database.alias
        executor = MigrationExecutor(database)
        leaves = executor.loader.graph.leaf_nodes()
        executor.migrate(before)
        apps = executor.loader.project_state(before).apps
        user = apps.get_model("auth", "User").objects.using(alias).create(username="old")
        old = (
            apps.get_model("tournaments", "Tournament")
            .objects.using(alias)
            .create(name="Old", date="2026-01-01", organiser=user, swiss_phase_ends=[3, 6])
        )
        MigrationExecutor(database).migrate(leaves)
        migrated = Tournament.objects.using(alias).get(pk=old.pk)
    assert migrated.swiss_phases == [
        {"ends_after_round": 3, "advance": "all"},
        {"ends_after_round": 6, "advance": "all"},
    ]
    assert migrated.swiss_phase_ends == [3, 6]
