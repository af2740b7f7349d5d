"""The column tally of large events (tournaments.standings._tally_by_columns) against
the record-by-record one, on random events: the same figures, or no answer at all when
the input is wrong or unusual, and then the same error as always."""

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.hypothesis_profiles import examples
from tests.tournaments.test_standings_properties import reference_standings, tournaments
from tournaments import standings as core
from tournaments.standings import MatchRecord, PlayerEntry, Tiebreaker, compute_standings

FIELDS = (
    "wins",
    "losses",
    "draws",
    "byes",
    "games_won",
    "games_lost",
    "games_drawn",
    "opponents",
    "opponent_rounds",
    "solo_rounds",
    "bye_games_won",
    "bye_games_lost",
    "bye_games_drawn",
)


def in_round_order(records):
    # What the database gives: by round (the order within a round is kept).
    return sorted(records, key=lambda record: record.round_number)


def tallies(players, records):
    _, index_of = core._index_players(players)
    by_columns = core._tally_by_columns(list(records), index_of, len(players))
    in_order = core._tally_in_order(records, index_of, len(players))
    return by_columns, in_order


def assert_same(by_columns, in_order):
    for field in FIELDS:
        assert getattr(by_columns, field) == getattr(in_order, field), field


@settings(max_examples=examples(300), deadline=None)
@given(tournaments())
def test_columns_add_up_like_the_records_one_by_one(tournament):
    players, records, _, _ = tournament
    by_columns, in_order = tallies(players, in_round_order(records))
    # Valid records in round order: the column pass answers, and agrees in every figure.
    assert by_columns is not None
    assert by_columns.rounds_checked
    assert_same(by_columns, in_order)


@settings(max_examples=examples(100), deadline=None)
@given(tournaments())
def test_records_out_of_round_order_go_one_by_one(tournament):
    players, records, _, _ = tournament
    by_columns, in_order = tallies(players, records)
    rounds = [record.round_number for record in records if record.player_b is not None]
    if rounds != sorted(rounds):
        assert by_columns is None
    else:
        assert_same(by_columns, in_order)


@settings(
    max_examples=examples(200),
    deadline=None,
    # The fixture only sets a constant, the same for every example.
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(tournaments(), st.data())
def test_standings_from_columns_match_the_reference(monkeypatch_columns, tournament, data):
    players, records, floor, order = tournament
    records = in_round_order(records)
    standings = compute_standings(players, records, floor=floor, tiebreakers=order)
    expected = reference_standings(players, records, floor, order)
    got = [
        (
            row.player_id,
            row.rank,
            {
                Tiebreaker.MATCH_POINTS: Fraction(row.match_points),
                Tiebreaker.MATCH_WIN: row.match_win,
                Tiebreaker.GAME_WIN: row.game_win,
                Tiebreaker.OPPONENTS_MATCH_WIN: row.opponents_match_win,
                Tiebreaker.OPPONENTS_GAME_WIN: row.opponents_game_win,
            },
        )
        for row in standings.rows
    ]
    assert got == expected
    # The rounds of the opponents, gathered only when a row is explained.
    row = standings.rows[data.draw(st.integers(0, len(standings.rows) - 1))]
    why = standings.explain(row.player_id)
    met = sorted(
        (record.round_number, b if a == row.player_id else a)
        for record in records
        for a, b in [(record.player_a, record.player_b)]
        if b is not None and row.player_id in (a, b)
    )
    assert [(line.round_number, line.opponent_id) for line in why.opponents] == met
    assert why.opponents_match_win == row.opponents_match_win


@pytest.fixture
def monkeypatch_columns(monkeypatch):
    """Every event, however small, through the column pass."""
    monkeypatch.setattr(core, "_COLUMNS_FROM", 0)


BAD = [
    # (records, the error the record-by-record pass reports)
    (
        [MatchRecord(1, 1, 2, 2, 0), MatchRecord(1, 1, 3, 2, 0)],
        "player 1 has two results in one round",
    ),
    (
        [MatchRecord(1, 1, 2, 2, 0), MatchRecord.bye(1, 2)],
        "player 2 has two results in one round",
    ),
    (
        [MatchRecord.bye(1, 3), MatchRecord.bye(1, 3)],
        "player 3 has two results in one round",
    ),
    ([MatchRecord(1, 1, 9, 2, 0)], "round 1: unknown player 9"),
    ([MatchRecord.bye(2, 9)], "round 2: unknown player 9"),
    ([MatchRecord(1, 1, 2, -1, 0)], "round 1: negative game count for player 1"),
    ([MatchRecord(1, 1, 1, 2, 0)], "round 1: player 1 paired with themselves"),
    (
        [MatchRecord(1, 1, None, 2, 0, match_loss_b=True)],
        "round 1: match loss for a missing opponent of 1",
    ),
]


@pytest.mark.parametrize(("records", "message"), BAD)
def test_wrong_records_are_reported_as_before(monkeypatch_columns, records, message):
    players = [PlayerEntry(pid, f"P{pid}") for pid in (1, 2, 3, 4)]
    _, index_of = core._index_players(players)
    assert core._tally_by_columns(records, index_of, len(players)) is None
    with pytest.raises(ValueError, match=message):
        compute_standings(players, records)


def test_large_game_counts_keep_every_figure_apart(monkeypatch_columns):
    # The packed fields widen with the largest count: nothing carries into the next.
    players = [PlayerEntry(pid, f"P{pid}") for pid in (1, 2, 3)]
    records = [
        MatchRecord(1, 1, 2, 10**9, 3, 7),
        MatchRecord(2, 2, 1, 0, 0, 10**9),
        MatchRecord.bye(2, 3),
    ]
    by_columns, in_order = tallies(players, records)
    assert by_columns is not None
    assert_same(by_columns, in_order)
    assert by_columns.games_won[0] == 10**9
    assert by_columns.games_drawn[1] == 10**9 + 7


def test_many_rounds_of_few_results_go_one_by_one(monkeypatch_columns):
    # A column per round for every player would cost more than the records.
    players = [PlayerEntry(pid, f"P{pid}") for pid in range(1, 3001)]
    records = [MatchRecord(number, 1, 2, 2, 0) for number in range(1, 31)]
    by_columns, in_order = tallies(players, records)
    assert by_columns is None
    assert compute_standings(players, records).row(1).wins == 30
    # Fewer rounds of the same few results: the columns are cheap enough.
    by_columns, in_order = tallies(players, records[:20])
    assert_same(by_columns, in_order)


def test_small_events_go_one_by_one(monkeypatch):
    calls = []
    monkeypatch.setattr(core, "_tally_by_columns", lambda *args: calls.append(args))
    players = [PlayerEntry(pid, f"P{pid}") for pid in (1, 2)]
    compute_standings(players, [MatchRecord(1, 1, 2, 2, 0)])
    assert calls == []


def test_rounds_played_given_is_still_checked(monkeypatch_columns):
    players = [PlayerEntry(1, "Ann", rounds_played=2), PlayerEntry(2, "Bob", rounds_played=1)]
    records = [MatchRecord(1, 1, 2, 2, 0)]
    with pytest.raises(ValueError, match="player 1: rounds_played is 2 but the results hold 1"):
        compute_standings(players, records)
    players[0] = PlayerEntry(1, "Ann", rounds_played=1)
    assert compute_standings(players, records).row(1).rounds_played == 1


@settings(max_examples=examples(200), deadline=None)
@given(
    st.integers(1, 8).flatmap(
        lambda count: st.tuples(
            st.lists(st.integers(-5, 10**12), min_size=count, max_size=count),
            st.lists(st.integers(-5, 10**12), min_size=count, max_size=count),
            st.lists(
                st.lists(st.integers(0, count - 1), max_size=6), min_size=count, max_size=count
            ),
        )
    )
)
def test_opponents_sums_in_one_pass_are_each_columns_sums(columns):
    first, second, opponents = columns
    assert core._opponents_sums(first, second, opponents) == (
        [sum(first[j] for j in met) for met in opponents],
        [sum(second[j] for j in met) for met in opponents],
    )
