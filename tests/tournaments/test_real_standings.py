"""Real published standings, reproduced row by row with each event's preset.

The two events in tests/tournaments/data/standings/ (copied from ../shared/data/standings,
see its README) were run on Melee.gg with different conventions. Every published row must
come out exactly: points, W-L-D, OMW%, GW%, OGW% rounded half up to the published
decimals, and the rank wherever it is defined (players tied on every figure share one).
"""

import json
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from tournaments.standings import (
    PRESETS,
    MatchRecord,
    PlayerEntry,
    compute_phased_standings,
    compute_standings,
    round_half_up,
)

DATA = Path(__file__).parent / "data" / "standings"
EVENTS = ["vestland-modern-2024.json", "cmf-open-2025-modern.json"]


def load(name):
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def players_and_records(event):
    """Player ids follow the published order, so complete ties list as published."""
    names = [row["player"] for row in event["standings"]]
    for matches in event["rounds"]:
        for match in matches:
            for name in (match["p1"], match["p2"]):
                if name is not None and name not in names:
                    names.append(name)
    id_of = {name: number for number, name in enumerate(names, start=1)}
    players = [PlayerEntry(id_of[name], name) for name in names]
    records = []
    for number, matches in enumerate(event["rounds"], start=1):
        for match in matches:
            if match["p2"] is None:
                assert (match["w1"], match["w2"], match["d"]) == (2, 0, 0)
                records.append(MatchRecord.bye(number, id_of[match["p1"]]))
            else:
                records.append(
                    MatchRecord(
                        number,
                        id_of[match["p1"]],
                        id_of[match["p2"]],
                        match["w1"],
                        match["w2"],
                        match["d"],
                    )
                )
    return players, records, id_of


def published(value):
    return Fraction(str(value))


def check_rows(event, rows_by_name, decimals):
    mismatches = []
    for expected in event["standings"]:
        row = rows_by_name[expected["player"]]
        got = {
            "points": row.match_points,
            "wins": row.wins,
            "losses": row.losses,
            "draws": row.draws,
            "omwp": round_half_up(row.opponents_match_win, decimals),
            "gwp": round_half_up(row.game_win, decimals),
            "ogwp": round_half_up(row.opponents_game_win, decimals),
        }
        for field, value in got.items():
            want = expected[field]
            if field in ("omwp", "gwp", "ogwp"):
                want = published(want)
            if value != want:
                mismatches.append((expected["player"], field, value, expected[field]))
    assert mismatches == []


def check_ranks(event, rows_by_name):
    """Published ranks are 1..n; tied players share our rank, so a tie group must span
    exactly the published ranks of its members."""
    groups = {}
    for expected in event["standings"]:
        groups.setdefault(rows_by_name[expected["player"]].rank, []).append(expected["rank"])
    for rank, published_ranks in groups.items():
        assert sorted(published_ranks) == list(range(rank, rank + len(published_ranks)))


@pytest.mark.parametrize("name", EVENTS)
def test_every_published_row_is_reproduced_with_the_event_preset(name):
    event = load(name)
    conventions = PRESETS[event["melee_conventions"]]
    assert conventions.decimals == event["decimals"]
    players, records, _ = players_and_records(event)
    rounds = {row["as_of_round"] for row in event["standings"]}
    assert rounds == {len(event["rounds"])}
    table = compute_standings(players, records, conventions=conventions)
    rows = {row.name: row for row in table.rows}
    check_rows(event, rows, conventions.decimals)
    check_ranks(event, rows)
    # Ranks defined by the figures: the published order is ours.
    assert [row.name for row in table.rows] == [r["player"] for r in event["standings"]]


@pytest.mark.parametrize("name", EVENTS)
def test_phases_give_the_same_rows_for_a_single_phase(name):
    event = load(name)
    conventions = PRESETS[event["melee_conventions"]]
    players, records, _ = players_and_records(event)
    ends = [phase["last_round"] for phase in event["phases"]]
    rows = compute_phased_standings(players, records, phase_ends=ends, conventions=conventions)
    check_rows(event, {row.name: row for row in rows}, conventions.decimals)
    assert [row.name for row in rows] == [r["player"] for r in event["standings"]]


@pytest.mark.parametrize(
    ("name", "other"), [(EVENTS[0], "melee-2025"), (EVENTS[1], "melee-2024"), (EVENTS[0], "mtr")]
)
def test_another_preset_does_not_reproduce_the_event(name, other):
    """The presets differ where the events do: the wrong one misses rows."""
    event = load(name)
    players, records, _ = players_and_records(event)
    table = compute_standings(players, records, conventions=PRESETS[other])
    with pytest.raises(AssertionError):
        check_rows(event, {row.name: row for row in table.rows}, event["decimals"])


def test_two_phases_take_each_row_at_the_end_of_the_players_last_phase():
    """Day 1 is rounds 1-2 for four players; Ann and Bob go on to round 3 on day 2.
    Cat and Dan keep their day-1 rows, with Ann's and Bob's figures as of round 2."""
    ann, bob, cat, dan = 1, 2, 3, 4
    players = [PlayerEntry(n, name) for n, name in enumerate(["Ann", "Bob", "Cat", "Dan"], 1)]
    records = [
        MatchRecord(1, ann, cat, 2, 0),
        MatchRecord(1, bob, dan, 2, 1),
        MatchRecord(2, ann, dan, 2, 0),
        MatchRecord(2, bob, cat, 2, 0),
        MatchRecord(3, ann, bob, 2, 0),
    ]
    rows = compute_phased_standings(players, records, phase_ends=[2, 3])
    by_id = {row.player_id: row for row in rows}
    day_one = compute_standings(players, records, as_of_round=2)
    final = compute_standings(players, records)
    assert [row.player_id for row in rows] == [ann, bob, cat, dan]
    # Cat met Ann and Bob, both 2-0 after round 2: OMW 1 (the full table says 5/6).
    assert by_id[cat] == day_one.row(cat)._replace(rank=3)
    assert by_id[cat].opponents_match_win == Fraction(1)
    assert final.row(cat).opponents_match_win == Fraction(5, 6)
    # Bob's row is the final one: Cat 1/3 (floored), Dan 1/3 (floored), Ann 1: 5/9.
    assert by_id[ann].match_points == 9 and by_id[bob].opponents_match_win == Fraction(5, 9)


def test_as_of_round_leaves_later_rounds_out():
    event = load(EVENTS[1])
    players, records, id_of = players_and_records(event)
    after_one = compute_standings(
        players, records, conventions=PRESETS["melee-2025"], as_of_round=1
    )
    first_round_only = compute_standings(
        players, [r for r in records if r.round_number == 1], conventions=PRESETS["melee-2025"]
    )
    assert after_one.rows == first_round_only.rows
    assert after_one.as_of_round == 1
    assert after_one.row(id_of["Louis Grensing"]).match_points == 3


# --- through the database, the service and the API ------------------------------------


@pytest.fixture
def vestland_in_the_database(tournament, register_players, organiser):
    """The 2024 event stored as rounds and confirmed matches of a real tournament, its
    conventions set through the API with the event's preset."""
    from tests.conftest import api_as
    from tournaments.models import Match, Round, Tournament

    event = load(EVENTS[0])
    response = api_as(organiser).patch(
        f"/api/tournaments/{tournament.pk}/",
        {"standings_preset": event["melee_conventions"], "publish_standings": True},
        format="json",
    )
    assert response.status_code == 200, response.content
    _, _, id_of = players_and_records(event)
    registrations = register_players(tournament, len(id_of))
    registration_of = {name: registrations[number - 1] for name, number in id_of.items()}
    for registration in registrations:
        registration.player.display_name = next(
            name for name, r in registration_of.items() if r.pk == registration.pk
        )
        registration.player.save(update_fields=["display_name"])
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.SWISS)
    for number, matches in enumerate(event["rounds"], start=1):
        round_ = Round.objects.create(
            tournament=tournament, number=number, status=Round.Status.CLOSED, pairing_seed="x"
        )
        for table, match in enumerate(matches, start=1):
            Match.objects.create(
                round=round_,
                table=table,
                player_a=registration_of[match["p1"]],
                player_b=registration_of[match["p2"]] if match["p2"] else None,
                status=Match.Status.CONFIRMED,
                games_a=match["w1"],
                games_b=match["w2"],
                games_drawn=match["d"],
            )
    return tournament, event


@pytest.mark.django_db
def test_the_api_reproduces_the_2024_event_with_its_preset(vestland_in_the_database, api):
    tournament, event = vestland_in_the_database
    answer = api.get(f"/api/tournaments/{tournament.pk}/standings/").json()
    assert answer["as_of_round"] is None
    rows = answer["rows"]
    assert [row["name"] for row in rows] == [r["player"] for r in event["standings"]]
    for row, expected in zip(rows, event["standings"], strict=True):
        assert (row["match_points"], row["record"]) == (
            expected["points"],
            f"{expected['wins']}-{expected['losses']}-{expected['draws']}",
        )
        for field, key in (
            ("opponents_match_win", "omwp"),
            ("game_win", "gwp"),
            ("opponents_game_win", "ogwp"),
        ):
            value = Fraction(row[field]["fraction"])
            assert round_half_up(value, 6) == published(expected[key]), (row["name"], field)
            # Shown with the preset's 6 decimals: 4 places of a percentage.
            assert row[field]["percent"] == f"{Decimal(str(expected[key])) * 100:.4f}%"


@pytest.mark.django_db
def test_standings_as_of_a_round_in_the_api_and_csv(vestland_in_the_database, api):
    tournament, event = vestland_in_the_database
    players, records, id_of = players_and_records(event)
    expected = compute_standings(players, records, conventions=PRESETS["melee-2024"], as_of_round=2)
    answer = api.get(f"/api/tournaments/{tournament.pk}/standings/?round=2").json()
    assert answer["as_of_round"] == 2
    assert [row["name"] for row in answer["rows"]] == [row.name for row in expected.rows]
    assert [row["match_points"] for row in answer["rows"]] == [
        row.match_points for row in expected.rows
    ]
    csv_answer = api.get(f"/api/tournaments/{tournament.pk}/standings/csv/?round=2")
    assert csv_answer.status_code == 200
    assert "round-2" in csv_answer["Content-Disposition"]
    for bad in ("0", "6", "two", "-1"):
        response = api.get(f"/api/tournaments/{tournament.pk}/standings/?round={bad}")
        assert response.status_code == 400
        assert "round must be the number of a Swiss round played (1, 2, 3, 4, 5)" in str(
            response.json()
        )
    # Given twice, even with the last one empty, it is refused rather than half read.
    registration = answer["rows"][0]["registration"]
    for path in ("", f"{registration}/", "csv/"):
        twice = api.get(f"/api/tournaments/{tournament.pk}/standings/{path}?round=2&round=")
        assert twice.status_code == 400 and "only once" in twice.content.decode(), path


@pytest.mark.django_db
def test_the_standings_page_has_a_round_selector(vestland_in_the_database, client):
    tournament, _ = vestland_in_the_database
    page = client.get(f"/tournaments/{tournament.pk}/standings/?round=3")
    assert page.status_code == 200
    assert b'<option value="3" selected>' in page.content
    assert b"As they stood after round 3." in page.content
    assert client.get(f"/tournaments/{tournament.pk}/standings/?round=9").status_code == 400


@pytest.mark.django_db
def test_bad_convention_settings_are_a_400_with_a_clear_message(tournament, organiser):
    from tests.conftest import api_as

    client = api_as(organiser)
    url = f"/api/tournaments/{tournament.pk}/"
    cases = {
        "standings_preset": "melee-1999",
        "no_opponents_value": "one third",
        "no_games_game_win": "3/2",
        "bye_counting": "sometimes",
        "game_draw_points": 3,
        "standings_decimals": 40,
    }
    for field, value in cases.items():
        response = client.patch(url, {field: value}, format="json")
        assert response.status_code == 400, (field, response.content)
        assert field in response.json().get("errors", response.json()), response.json()
    ok = client.patch(url, {"standings_preset": "melee-2025"}, format="json").json()
    assert (ok["no_games_game_win"], ok["floor_own_game_win"], ok["standings_decimals"]) == (
        "-1/5",
        False,
        8,
    )


@pytest.mark.django_db
def test_swiss_phases_as_a_setting(vestland_in_the_database, organiser, api):
    """Phase 1 ends after round 3: Erik Skinstad, who played rounds 1-3 only, keeps his
    round-3 row and is listed after everyone who played on."""
    from tests.conftest import api_as

    tournament, event = vestland_in_the_database
    url = f"/api/tournaments/{tournament.pk}/"
    client = api_as(organiser)
    for bad in ([3, 2], [0], ["x"], [3, 3]):
        response = client.patch(url, {"swiss_phase_ends": bad}, format="json")
        assert response.status_code == 400, (bad, response.content)
    assert client.patch(url, {"swiss_phase_ends": [3]}, format="json").status_code == 200
    players, records, _ = players_and_records(event)
    expected = compute_phased_standings(
        players, records, phase_ends=[3, 5], conventions=PRESETS["melee-2024"]
    )
    rows = api.get(f"{url}standings/").json()["rows"]
    assert [row["name"] for row in rows] == [row.name for row in expected.rows]
    assert rows[-1]["name"] == "Erik Skinstad"
    erik = expected.rows[-1]
    assert Fraction(rows[-1]["opponents_match_win"]["fraction"]) == erik.opponents_match_win
    day_one = compute_standings(players, records, conventions=PRESETS["melee-2024"], as_of_round=3)
    assert erik == day_one.row(erik.player_id)._replace(rank=len(rows))
    assert erik.opponents_match_win != Fraction(str(event["standings"][-1]["omwp"]))


@pytest.mark.django_db
def test_the_settings_form_applies_a_preset(client, organiser, tournament):
    client.force_login(organiser)
    data = {
        "name": tournament.name,
        "date": tournament.date.isoformat(),
        "top_cut_size": 8,
        "match_minutes": 45,
        "game_minutes": 20,
        "late_entry": "losses",
        "percentage_floor": "0.33",
        "game_draw_points": 1,
        "standings_preset": "melee-2024",
    }
    response = client.post(f"/tournaments/{tournament.pk}/edit/", data)
    assert response.status_code == 302, response.context["form"].errors
    tournament.refresh_from_db()
    # The preset wins over the floor and drawn-game points posted with it.
    assert (tournament.percentage_floor, tournament.game_draw_points) == ("1/3", 0)
    assert tournament.standings_decimals == 6
    data["standings_preset"] = "melee-1999"
    assert (
        "standings_preset"
        in client.post(f"/tournaments/{tournament.pk}/edit/", data).context["form"].errors
    )


@pytest.mark.django_db
def test_the_event_form_names_every_preset_in_words(organiser, tournament):
    """The form offers each preset under a name a person understands, not its code."""
    from tournaments.forms import TournamentForm
    from tournaments.standings import PRESETS

    choices = dict(TournamentForm(instance=tournament).fields["standings_preset"].choices)
    assert set(PRESETS) <= set(choices)
    for name in PRESETS:
        assert str(choices[name]) != name and len(str(choices[name])) > 20, choices[name]
