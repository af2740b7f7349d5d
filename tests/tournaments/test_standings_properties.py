"""The fast standings against a plain Fraction-based reference on random tournaments."""

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.hypothesis_profiles import examples
from tournaments.standings import (
    ByeCounting,
    MatchRecord,
    PlayerEntry,
    StandingsConventions,
    Tiebreaker,
    compute_standings,
)

FLOORS = [Fraction(1, 3), Fraction(33, 100), Fraction(0), Fraction(1, 2), Fraction(1)]
GAME_SCORES = st.tuples(st.integers(0, 2), st.integers(0, 2), st.integers(0, 3))
# Mostly no penalty; sometimes a match loss for one or both players.
MATCH_LOSSES = st.sampled_from([(False, False)] * 6 + [(True, False), (False, True), (True, True)])


@st.composite
def tournaments(draw):
    count = draw(st.integers(1, 12))
    # Sparse, unordered ids so the id tie-break is exercised for real.
    ids = draw(st.lists(st.integers(1, 500), min_size=count, max_size=count, unique=True))
    rounds = draw(st.integers(0, 6))
    records = []
    for round_number in range(1, rounds + 1):
        # A random subset plays this round: late entries and drops in disguise.
        present = draw(st.permutations(ids))[: draw(st.integers(0, count))]
        for a, b in zip(present[::2], present[1::2], strict=False):
            won_a, won_b, drawn = draw(GAME_SCORES)
            loss_a, loss_b = draw(MATCH_LOSSES)
            records.append(MatchRecord(round_number, a, b, won_a, won_b, drawn, loss_a, loss_b))
        if len(present) % 2:
            leftover = present[-1]
            kind = draw(st.sampled_from(["bye", "missed", "absent"]))
            if kind == "bye":
                records.append(MatchRecord.bye(round_number, leftover))
            elif kind == "missed":
                records.append(MatchRecord.missed_round_loss(round_number, leftover))
    draw(st.randoms(use_true_random=False)).shuffle(records)
    players = [PlayerEntry(pid, f"P{pid}", dropped=draw(st.booleans())) for pid in ids]
    floor = draw(st.sampled_from(FLOORS))
    order = draw(st.permutations(list(Tiebreaker)))[: draw(st.integers(1, len(Tiebreaker)))]
    return players, records, floor, order


def reference_standings(players, records, floor, order, conventions=None):
    """Straight from the definitions, one Fraction at a time."""
    conventions = conventions or StandingsConventions(floor=floor)
    draw_points = conventions.game_draw_points
    byes_left_out = conventions.bye_counting is ByeCounting.NOT_COUNTED
    no_opponents = conventions.opponents_value_when_none
    no_games = conventions.game_win_when_no_games
    points = {p.player_id: 0 for p in players}
    rounds = dict.fromkeys(points, 0)
    won = dict.fromkeys(points, 0)
    lost = dict.fromkeys(points, 0)
    drawn = dict.fromkeys(points, 0)
    opponents = {pid: [] for pid in points}
    bye_points = dict.fromkeys(points, 0)
    for r in records:
        is_bye = r.player_b is None and not r.match_loss_a and r.games_won_a > r.games_won_b
        if is_bye and byes_left_out:
            points[r.player_a] += 3
            bye_points[r.player_a] += 3
            continue
        sides = [(r.player_a, r.games_won_a, r.games_won_b)]
        if r.player_b is not None:
            sides.append((r.player_b, r.games_won_b, r.games_won_a))
            opponents[r.player_a].append(r.player_b)
            opponents[r.player_b].append(r.player_a)
        for pid, mine, theirs in sides:
            rounds[pid] += 1
            won[pid] += mine
            lost[pid] += theirs
            drawn[pid] += r.games_drawn
        if r.player_b is None:
            if not r.match_loss_a and r.games_won_a > r.games_won_b:
                points[r.player_a] += 3
            elif not r.match_loss_a and r.games_won_a == r.games_won_b:
                points[r.player_a] += 1
        elif r.match_loss_a or r.match_loss_b:
            if not r.match_loss_a:
                points[r.player_a] += 3
            if not r.match_loss_b:
                points[r.player_b] += 3
        elif r.games_won_a == r.games_won_b:
            points[r.player_a] += 1
            points[r.player_b] += 1
        else:
            points[r.player_a if r.games_won_a > r.games_won_b else r.player_b] += 3

    def floored(numerator, denominator):
        return max(Fraction(numerator, denominator), floor) if denominator else floor

    def mwp(pid):
        return floored(points[pid] - bye_points[pid], 3 * rounds[pid])

    def raw_gwp(pid):
        played = 3 * (won[pid] + lost[pid] + drawn[pid])
        return Fraction(3 * won[pid] + draw_points * drawn[pid], played) if played else no_games

    def gwp(pid):  # as an opponent sees it: always floored
        return max(raw_gwp(pid), floor)

    def own_gwp(pid):
        if not conventions.floor_own_game_win or not (won[pid] + lost[pid] + drawn[pid]):
            return raw_gwp(pid)
        return gwp(pid)

    def mean(values):
        return sum(values, Fraction(0)) / len(values) if values else no_opponents

    values = {
        pid: {
            Tiebreaker.MATCH_POINTS: Fraction(points[pid]),
            Tiebreaker.MATCH_WIN: mwp(pid),
            Tiebreaker.GAME_WIN: own_gwp(pid),
            Tiebreaker.OPPONENTS_MATCH_WIN: mean([mwp(o) for o in opponents[pid]]),
            Tiebreaker.OPPONENTS_GAME_WIN: mean([gwp(o) for o in opponents[pid]]),
        }
        for pid in points
    }

    def tiebreak_values(pid):
        return tuple(values[pid][t] for t in order)

    ranked = sorted(points, key=lambda pid: (tuple(-v for v in tiebreak_values(pid)), pid))
    # Rank = 1 + the number of players strictly ahead on the tiebreakers.
    return [
        (
            pid,
            1 + sum(1 for other in points if tiebreak_values(other) > tiebreak_values(pid)),
            values[pid],
        )
        for pid in ranked
    ]


@settings(max_examples=examples(400), deadline=None)
@given(tournaments())
def test_fast_standings_match_the_reference(tournament):
    players, records, floor, order = tournament
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


@settings(max_examples=examples(150), deadline=None)
@given(tournaments())
def test_explanations_add_up_to_the_rows(tournament):
    players, records, floor, order = tournament
    standings = compute_standings(players, records, floor=floor, tiebreakers=order)
    for row in standings.rows:
        why = standings.explain(row.player_id)
        assert why.match_win.value == row.match_win
        assert why.game_win.value == row.game_win
        assert why.opponents_match_win == row.opponents_match_win
        assert why.opponents_game_win == row.opponents_game_win
        assert sorted(line.opponent_id for line in why.opponents) == sorted(row.opponent_ids)
        assert row.wins * 3 + row.draws == row.match_points
        assert row.wins + row.losses + row.draws == row.rounds_played
        assert why.lines()


CONVENTIONS = st.builds(
    StandingsConventions,
    floor=st.sampled_from(FLOORS),
    game_draw_points=st.sampled_from([0, 1]),
    floor_own_game_win=st.booleans(),
    no_opponents_value=st.sampled_from([None, Fraction(1, 3), Fraction(0), Fraction(1)]),
    no_games_game_win=st.sampled_from([None, Fraction(-1, 5), Fraction(0), Fraction(1, 3)]),
    bye_counting=st.sampled_from(list(ByeCounting)),
)


@settings(max_examples=300, deadline=None)
@given(tournaments(), CONVENTIONS)
def test_every_convention_matches_the_reference(tournament, conventions):
    players, records, _, order = tournament
    standings = compute_standings(players, records, conventions=conventions, tiebreakers=order)
    expected = reference_standings(players, records, conventions.floor, order, conventions)
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
    for row in standings.rows:
        why = standings.explain(row.player_id)
        assert why.match_win.value == row.match_win
        assert why.game_win.value == row.game_win
        assert why.opponents_match_win == row.opponents_match_win
        assert why.opponents_game_win == row.opponents_game_win
