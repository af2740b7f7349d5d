"""Real published standings, reproduced row by row with each event's preset.

The two events in tests/tournaments/data/standings/ (copied from ../shared/data/standings,
see its README) were run on Melee.gg with different conventions. Every published row must
come out exactly: points, W-L-D, OMW%, GW%, OGW% rounded half up to the published
decimals, and the rank wherever it is defined (players tied on every figure share one).
"""

import json
from dataclasses import replace
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
    assert by_id[cat] == replace(day_one.row(cat), rank=3)
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
