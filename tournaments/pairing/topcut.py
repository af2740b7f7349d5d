"""Single-elimination top cut, seeded from the final Swiss standings.

Pure Python and free of Django. A :class:`Bracket` holds every round from the
start (later rounds with empty slots), so it can be drawn at any moment; recording
winners returns a new bracket with the winners moved into the next round. Matches
are best of three with no draws: the bracket only needs a winner per match, and
docs/standings.md says how a match tied at time is decided.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, replace

__all__ = [
    "ALLOWED_CUT_SIZES",
    "Bracket",
    "BracketMatch",
    "BracketRound",
    "advance_round",
    "bracket_seed_order",
    "effective_cut_size",
    "record_winners",
    "seed_bracket",
]

ALLOWED_CUT_SIZES = (2, 4, 8, 16, 32)

PlayerId = Hashable


def _check_size(size: int) -> None:
    if size not in ALLOWED_CUT_SIZES:
        allowed = ", ".join(map(str, ALLOWED_CUT_SIZES))
        raise ValueError(f"top cut size must be one of {allowed}; got {size!r}")


def bracket_seed_order(size: int) -> tuple[int, ...]:
    """Seeds in bracket order; consecutive pairs are the first-round matches.

    Built by doubling: every seed ``s`` of the smaller bracket is followed by its
    opponent ``2n + 1 - s``. For 8: 1, 8, 4, 5, 2, 7, 3, 6, so the winners of 1-8
    and 4-5 meet, and seeds 1 and 2 can only meet in the final.
    """
    _check_size(size)
    order = [1]
    while len(order) < size:
        bracket = 2 * len(order)
        order = [seed for top in order for seed in (top, bracket + 1 - top)]
    return tuple(order)


def effective_cut_size(requested: int, player_count: int) -> int:
    """The cut actually played: the requested size, or the largest allowed size not
    above ``player_count`` when fewer players are eligible.

    Raises ValueError for a size that is not allowed or for fewer than two players.
    """
    _check_size(requested)
    if player_count < 2:
        raise ValueError(f"a top cut needs at least 2 players; {player_count} eligible")
    return max(size for size in ALLOWED_CUT_SIZES if size <= min(requested, player_count))


@dataclass(frozen=True, slots=True)
class BracketMatch:
    """One match. Slots of later rounds are None until the feeding match ends.

    ``position`` counts from 0 at the top of the drawn round; the winner moves to
    position ``position // 2`` of the next round, top slot from an even position.
    """

    round_number: int
    position: int
    player_a: PlayerId | None
    seed_a: int | None
    player_b: PlayerId | None
    seed_b: int | None
    winner: PlayerId | None = None

    @property
    def is_ready(self) -> bool:
        """Both players known and no winner yet: the match can be played."""
        return self.player_a is not None and self.player_b is not None and self.winner is None

    @property
    def is_decided(self) -> bool:
        return self.winner is not None

    @property
    def loser(self) -> PlayerId | None:
        if self.winner is None:
            return None
        return self.player_b if self.winner == self.player_a else self.player_a

    @property
    def winner_seed(self) -> int | None:
        if self.winner is None:
            return None
        return self.seed_a if self.winner == self.player_a else self.seed_b


@dataclass(frozen=True, slots=True)
class BracketRound:
    round_number: int
    name: str
    matches: tuple[BracketMatch, ...]

    @property
    def is_complete(self) -> bool:
        return all(match.is_decided for match in self.matches)


def _round_name(match_count: int) -> str:
    if match_count == 1:
        return "Final"
    if match_count == 2:
        return "Semifinals"
    if match_count == 4:
        return "Quarterfinals"
    return f"Top {2 * match_count}"


@dataclass(frozen=True, slots=True)
class Bracket:
    """A whole top cut: ``seeds[0]`` is seed 1; ``rounds`` run from the first round
    to the final, every round present from the start."""

    size: int
    seeds: tuple[PlayerId, ...]
    rounds: tuple[BracketRound, ...]

    @property
    def final(self) -> BracketMatch:
        return self.rounds[-1].matches[0]

    @property
    def is_finished(self) -> bool:
        return self.final.is_decided

    @property
    def champion(self) -> PlayerId | None:
        return self.final.winner

    @property
    def current_round(self) -> BracketRound | None:
        """The earliest round with an undecided match; None once finished."""
        for bracket_round in self.rounds:
            if not bracket_round.is_complete:
                return bracket_round
        return None

    @property
    def ready_matches(self) -> tuple[BracketMatch, ...]:
        """Matches that can be played now (both players known, no winner)."""
        return tuple(
            match
            for bracket_round in self.rounds
            for match in bracket_round.matches
            if match.is_ready
        )

    def round(self, round_number: int) -> BracketRound:
        if not 1 <= round_number <= len(self.rounds):
            raise ValueError(
                f"round {round_number} does not exist; this bracket has {len(self.rounds)}"
            )
        return self.rounds[round_number - 1]

    def seed_of(self, player_id: PlayerId) -> int:
        try:
            return self.seeds.index(player_id) + 1
        except ValueError:
            raise KeyError(f"player {player_id!r} is not in the top cut") from None

    def match_of(self, player_id: PlayerId) -> BracketMatch | None:
        """The player's match still to be played, or None if eliminated or champion."""
        self.seed_of(player_id)
        for match in self.ready_matches:
            if player_id in (match.player_a, match.player_b):
                return match
        return None

    def placements(self) -> dict[PlayerId, int]:
        """Finishing place of everyone eliminated so far (and the champion): 1, 2,
        3 for both semifinal losers, 5 for quarterfinal losers and so on."""
        places: dict[PlayerId, int] = {}
        for bracket_round in self.rounds:
            place = len(bracket_round.matches) + 1
            for match in bracket_round.matches:
                if match.loser is not None:
                    places[match.loser] = place
        if self.champion is not None:
            places[self.champion] = 1
        return places


def seed_bracket(ranked_player_ids: Sequence[PlayerId], size: int) -> Bracket:
    """Seed a top cut of ``size`` from player ids in final Swiss standings order.

    Takes the first ``size`` ids (seed 1 first). With fewer ids than ``size`` the cut
    shrinks to the largest allowed size not above the count (6 players for a top 8
    play a top 4). Raises ValueError on a size that is not allowed, duplicate ids, a
    missing (None) id or fewer than two players.
    """
    ids = list(ranked_player_ids)
    if any(player_id is None for player_id in ids):
        raise ValueError("player ids must not be None")
    seen: set[PlayerId] = set()
    duplicates = []
    for player_id in ids:
        if player_id in seen:
            duplicates.append(player_id)
        seen.add(player_id)
    if duplicates:
        raise ValueError(f"duplicate players in the seeding: {duplicates!r}")
    cut = effective_cut_size(size, len(ids))
    seeds = tuple(ids[:cut])
    order = bracket_seed_order(cut)
    first = tuple(
        BracketMatch(1, position, seeds[top - 1], top, seeds[bottom - 1], bottom)
        for position, (top, bottom) in enumerate(zip(order[::2], order[1::2], strict=True))
    )
    rounds = [BracketRound(1, _round_name(len(first)), first)]
    match_count = len(first) // 2
    while match_count:
        number = len(rounds) + 1
        empty = tuple(BracketMatch(number, p, None, None, None, None) for p in range(match_count))
        rounds.append(BracketRound(number, _round_name(match_count), empty))
        match_count //= 2
    return Bracket(cut, seeds, tuple(rounds))


def record_winners(bracket: Bracket, winners: Iterable[PlayerId]) -> Bracket:
    """Record match winners (any number, any order) and move them on.

    Each winner must be a player of a match that is ready (both players known, no
    winner yet), and no match may receive two winners. Returns a new bracket.
    """
    rounds = [list(bracket_round.matches) for bracket_round in bracket.rounds]
    for winner in winners:
        round_index, position = _locate_ready_match(rounds, winner, bracket)
        match = rounds[round_index][position]
        rounds[round_index][position] = replace(match, winner=winner)
        if round_index + 1 < len(rounds):
            seed = match.seed_a if winner == match.player_a else match.seed_b
            following = rounds[round_index + 1][position // 2]
            if position % 2 == 0:
                following = replace(following, player_a=winner, seed_a=seed)
            else:
                following = replace(following, player_b=winner, seed_b=seed)
            rounds[round_index + 1][position // 2] = following
    return replace(
        bracket,
        rounds=tuple(
            replace(bracket_round, matches=tuple(matches))
            for bracket_round, matches in zip(bracket.rounds, rounds, strict=True)
        ),
    )


def _locate_ready_match(
    rounds: list[list[BracketMatch]], player_id: PlayerId, bracket: Bracket
) -> tuple[int, int]:
    if player_id not in bracket.seeds:
        raise ValueError(f"player {player_id!r} is not in the top cut")
    for round_index, matches in enumerate(rounds):
        for position, match in enumerate(matches):
            if player_id not in (match.player_a, match.player_b):
                continue
            if match.is_ready:
                return round_index, position
            if match.winner is not None and match.winner != player_id:
                raise ValueError(
                    f"player {player_id!r} lost in round {match.round_number} and cannot win "
                    "another match"
                )
    if rounds[-1][0].winner == player_id:
        raise ValueError(f"player {player_id!r} already won the final")
    raise ValueError(
        f"player {player_id!r} has no match ready: the result is already recorded or the "
        "opponent is not known yet"
    )


def advance_round(bracket: Bracket, winners: Iterable[PlayerId]) -> Bracket:
    """Record the winners of the whole current round at once.

    ``winners`` must name exactly one winner for every match of the current round.
    Returns the new bracket, whose next round is then fully paired (or which is
    finished after the final).
    """
    current = bracket.current_round
    if current is None:
        raise ValueError("the top cut is already finished")
    winners = list(winners)
    pending = [match for match in current.matches if not match.is_decided]
    if len(winners) != len(pending):
        raise ValueError(f"{current.name}: expected {len(pending)} winner(s), got {len(winners)}")
    in_round = {player for match in pending for player in (match.player_a, match.player_b)}
    outside = [winner for winner in winners if winner not in in_round]
    if outside:
        raise ValueError(f"{current.name}: {outside!r} not playing an open match of this round")
    return record_winners(bracket, winners)
