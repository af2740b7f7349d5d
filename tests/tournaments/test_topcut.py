"""Top cut seeding, advancing and finishing."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.pairing.topcut import (
    ALLOWED_CUT_SIZES,
    advance_round,
    bracket_seed_order,
    effective_cut_size,
    record_winners,
    seed_bracket,
)

# Seed order written out by hand: each bracket is the half-size one with every
# seed s followed by its first-round opponent (size + 1 - s).
EXPECTED_ORDER = {
    2: (1, 2),
    4: (1, 4, 2, 3),
    8: (1, 8, 4, 5, 2, 7, 3, 6),
    16: (1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11),
    32: (
        1, 32, 16, 17, 8, 25, 9, 24, 4, 29, 13, 20, 5, 28, 12, 21,
        2, 31, 15, 18, 7, 26, 10, 23, 3, 30, 14, 19, 6, 27, 11, 22,
    ),
}  # fmt: skip


def players(count):
    return [f"p{seed}" for seed in range(1, count + 1)]


def pairs(bracket_round):
    return [(match.seed_a, match.seed_b) for match in bracket_round.matches]


@pytest.mark.parametrize("size", ALLOWED_CUT_SIZES)
def test_seed_order_for_every_size(size):
    assert bracket_seed_order(size) == EXPECTED_ORDER[size]


@pytest.mark.parametrize("size", ALLOWED_CUT_SIZES)
def test_first_round_for_every_size(size):
    bracket = seed_bracket(players(size + 3), size)
    assert bracket.size == size
    assert bracket.seeds == tuple(players(size))
    first = bracket.rounds[0]
    order = EXPECTED_ORDER[size]
    assert pairs(first) == list(zip(order[::2], order[1::2], strict=True))
    # 1 v N, 2 v N-1 ...: every first-round pair adds up to N + 1.
    assert {a + b for a, b in pairs(first)} == {size + 1}
    for match in first.matches:
        assert (match.player_a, match.player_b) == (f"p{match.seed_a}", f"p{match.seed_b}")
    # Every later round exists from the start, with empty slots to draw.
    assert [len(r.matches) for r in bracket.rounds] == [
        size >> n for n in range(1, size.bit_length())
    ]
    assert all(m.player_a is None for r in bracket.rounds[1:] for m in r.matches)
    assert bracket.rounds[-1].name == "Final"


def test_top_eight_matches_the_tcg_bracket():
    bracket = seed_bracket(players(8), 8)
    assert pairs(bracket.rounds[0]) == [(1, 8), (4, 5), (2, 7), (3, 6)]
    assert [r.name for r in bracket.rounds] == ["Quarterfinals", "Semifinals", "Final"]
    assert [r.name for r in seed_bracket(players(32), 32).rounds][:2] == ["Top 32", "Top 16"]


@pytest.mark.parametrize("size", ALLOWED_CUT_SIZES)
def test_when_favourites_win_each_round_is_the_smaller_standard_bracket(size):
    bracket = seed_bracket(players(size), size)
    while not bracket.is_finished:
        current = bracket.current_round
        favourites = [f"p{min(m.seed_a, m.seed_b)}" for m in current.matches]
        bracket = advance_round(bracket, favourites)
        if not bracket.is_finished:
            remaining = 2 * len(bracket.current_round.matches)
            order = EXPECTED_ORDER[remaining]
            assert pairs(bracket.current_round) == list(zip(order[::2], order[1::2], strict=True))
    assert bracket.champion == "p1"


def test_advancing_with_upsets_keeps_bracket_positions():
    bracket = seed_bracket(players(8), 8)
    # Quarterfinals: 8 beats 1, 4 beats 5, 7 beats 2, 3 beats 6.
    bracket = advance_round(bracket, ["p8", "p4", "p7", "p3"])
    semis = bracket.round(2)
    assert [(m.player_a, m.player_b) for m in semis.matches] == [("p8", "p4"), ("p7", "p3")]
    assert pairs(semis) == [(8, 4), (7, 3)]
    assert bracket.round(1).matches[0].loser == "p1"
    assert not bracket.is_finished and bracket.champion is None
    bracket = advance_round(bracket, ["p3", "p8"])
    final = bracket.final
    assert (final.player_a, final.seed_a, final.player_b, final.seed_b) == ("p8", 8, "p3", 3)
    assert bracket.current_round is bracket.rounds[-1]
    bracket = advance_round(bracket, ["p3"])
    assert bracket.is_finished
    assert bracket.champion == "p3"
    assert bracket.final.winner_seed == 3
    assert bracket.current_round is None
    assert bracket.ready_matches == ()
    assert bracket.placements() == {
        "p3": 1,
        "p8": 2,
        "p4": 3,
        "p7": 3,
        "p1": 5,
        "p5": 5,
        "p2": 5,
        "p6": 5,
    }


def test_results_can_arrive_one_match_at_a_time():
    bracket = seed_bracket(players(8), 8)
    bracket = record_winners(bracket, ["p1"])
    # The semifinal slot fills at once; its match waits for the 4-5 winner.
    semi = bracket.round(2).matches[0]
    assert (semi.player_a, semi.seed_a, semi.player_b) == ("p1", 1, None)
    assert not semi.is_ready
    assert bracket.match_of("p1") is None
    assert bracket.match_of("p4").position == 1
    bracket = record_winners(bracket, ["p5"])
    assert bracket.round(2).matches[0].is_ready
    assert bracket.match_of("p1") == bracket.round(2).matches[0]
    # The semifinal can be played before the other quarterfinals end.
    bracket = record_winners(bracket, ["p5"])
    assert bracket.round(2).matches[0].winner == "p5"
    assert bracket.final.player_a == "p5"
    assert bracket.current_round.round_number == 1
    # Immutable: each call returns a new bracket.
    assert seed_bracket(players(8), 8).round(2).matches[0].player_a is None


def test_top_two_is_just_a_final():
    bracket = seed_bracket(["x", "y"], 2)
    assert [r.name for r in bracket.rounds] == ["Final"]
    assert pairs(bracket.rounds[0]) == [(1, 2)]
    bracket = advance_round(bracket, ["y"])
    assert (bracket.is_finished, bracket.champion) == (True, "y")
    assert bracket.placements() == {"y": 1, "x": 2}


@pytest.mark.parametrize(
    ("requested", "count", "played"),
    [(8, 100, 8), (8, 8, 8), (8, 7, 4), (8, 6, 4), (8, 3, 2), (32, 31, 16), (4, 2, 2)],
)
def test_fewer_players_than_the_cut_shrinks_it(requested, count, played):
    assert effective_cut_size(requested, count) == played
    bracket = seed_bracket(players(count), requested)
    assert bracket.size == played
    assert bracket.seeds == tuple(players(played))


@pytest.mark.parametrize("size", [0, 1, 3, 6, 12, 64])
def test_unknown_size_is_rejected(size):
    with pytest.raises(ValueError, match="top cut size must be one of 2, 4, 8, 16, 32"):
        seed_bracket(players(64), size)
    with pytest.raises(ValueError, match="must be one of"):
        bracket_seed_order(size)


def test_bad_seeding_input_is_rejected():
    with pytest.raises(ValueError, match=r"duplicate players in the seeding: \['p2'\]"):
        seed_bracket(["p1", "p2", "p3", "p2"], 4)
    with pytest.raises(ValueError, match="must not be None"):
        seed_bracket(["p1", None, "p3", "p4"], 4)
    with pytest.raises(ValueError, match="at least 2 players; 1 eligible"):
        seed_bracket(["p1"], 4)
    with pytest.raises(ValueError, match="at least 2 players; 0 eligible"):
        seed_bracket([], 2)


def test_bad_results_are_rejected():
    bracket = seed_bracket(players(8), 8)
    with pytest.raises(ValueError, match="'p9' is not in the top cut"):
        record_winners(bracket, ["p9"])
    with pytest.raises(ValueError, match="'p8' lost in round 1"):
        record_winners(bracket, ["p1", "p8"])
    with pytest.raises(ValueError, match="no match ready"):
        record_winners(bracket, ["p1", "p1"])
    with pytest.raises(ValueError, match="expected 4 winner"):
        advance_round(bracket, ["p1", "p4", "p2"])
    with pytest.raises(ValueError, match="not playing an open match"):
        advance_round(record_winners(bracket, ["p1"]), ["p1", "p4", "p2"])
    finished = advance_round(seed_bracket(["a", "b"], 2), ["a"])
    with pytest.raises(ValueError, match="already finished"):
        advance_round(finished, ["a"])
    with pytest.raises(ValueError, match="already won the final"):
        record_winners(finished, ["a"])
    with pytest.raises(ValueError, match="round 4 does not exist"):
        bracket.round(4)
    with pytest.raises(KeyError, match="not in the top cut"):
        bracket.seed_of("nobody")
    assert bracket.seed_of("p5") == 5


@given(
    size=st.sampled_from(ALLOWED_CUT_SIZES),
    choices=st.lists(st.booleans(), min_size=31, max_size=31),
)
def test_any_sequence_of_results_finishes_with_one_champion(size, choices):
    bracket = seed_bracket(players(size), size)
    picks = iter(choices)
    rounds_played = 0
    while not bracket.is_finished:
        winners = [m.player_a if next(picks) else m.player_b for m in bracket.ready_matches]
        bracket = record_winners(bracket, winners)
        rounds_played += 1
    assert rounds_played == size.bit_length() - 1
    places = bracket.placements()
    assert set(places) == set(bracket.seeds)
    assert list(places.values()).count(1) == 1
    assert places[bracket.champion] == 1
    # One runner-up (2), two semifinal losers (3), four at 5, eight at 9 ...
    for place in {p for p in places.values() if p > 1}:
        assert list(places.values()).count(place) == place - 1
