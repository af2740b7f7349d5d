"""Final placings of a finished event: the top-cut bracket first, then the Swiss order.

Pure Python and free of Django. The champion is first and the finalist second; the
losers of each earlier bracket round either share one place (3, 3, 5, 5, 5, 5) or are
split by their Swiss order, which is their seed (3, 4, 5, 6, 7, 8), as the tournament
chooses. Below the cut come the other players in Swiss standings order; players tied
on every tiebreaker there share a place, as they share a rank in the standings.

Dropped players keep the place their Swiss record earns: they are ranked like anyone
else below the cut (a dropped player never makes the cut, which seeds only active
players). Disqualified players receive no place: they are listed last and everyone
below them moves up, so places stay 1..N over the players who keep one.

Every place is ``1 +`` the number of placed players strictly ahead, so a shared
place is followed by a gap (3, 3, 5).
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from tournaments.pairing.topcut import Bracket
from tournaments.standings import StandingsRow

__all__ = ["BracketLosers", "Placing", "Stage", "final_placings"]

PlayerId = Hashable


class BracketLosers(StrEnum):
    """How the losers of one bracket round are placed among themselves."""

    SHARED = "shared"
    SWISS_ORDER = "swiss_order"


class Stage(StrEnum):
    """Where a player's place comes from."""

    TOP_CUT = "top_cut"
    SWISS = "swiss"
    DISQUALIFIED = "disqualified"


@dataclass(frozen=True, slots=True)
class Placing:
    """One line of the final placings. ``place`` is None for a disqualified player.

    ``finish`` says how the place was reached: "Champion", "Final" (lost the final),
    "Semifinals", ... for the top cut, "Swiss" below it, "Disqualified".
    """

    place: int | None
    player_id: PlayerId
    name: str
    stage: Stage
    finish: str
    seed: int | None
    swiss_rank: int
    dropped: bool
    disqualified: bool


def final_placings(
    swiss_rows: Sequence[StandingsRow],
    bracket: Bracket | None,
    *,
    bracket_losers: BracketLosers = BracketLosers.SHARED,
    disqualified: Collection[PlayerId] = (),
) -> tuple[Placing, ...]:
    """The final placings from the Swiss standings rows (in standings order) and the
    finished top-cut bracket (None when the event had no cut).

    Raises ValueError when the bracket is not finished or seeds a player missing from
    the standings.
    """
    rows = {row.player_id: row for row in swiss_rows}
    disqualified = frozenset(disqualified)
    groups: list[tuple[Stage, str, list[PlayerId]]] = []
    in_bracket: set[PlayerId] = set()
    if bracket is not None:
        if not bracket.is_finished:
            raise ValueError("placings need a finished top cut")
        missing = [player for player in bracket.seeds if player not in rows]
        if missing:
            raise ValueError(f"seeded players missing from the standings: {missing!r}")
        in_bracket = set(bracket.seeds)
        groups.append((Stage.TOP_CUT, "Champion", [bracket.champion]))
        # The final first, then each earlier round: its losers finish below the
        # losers of every later round.
        for bracket_round in reversed(bracket.rounds):
            losers = sorted((match.loser for match in bracket_round.matches), key=bracket.seed_of)
            if bracket_losers == BracketLosers.SHARED:
                groups.append((Stage.TOP_CUT, bracket_round.name, losers))
            else:
                groups.extend((Stage.TOP_CUT, bracket_round.name, [loser]) for loser in losers)
    below_cut = [row for row in swiss_rows if row.player_id not in in_bracket]
    for row in below_cut:
        if groups and groups[-1][0] == Stage.SWISS and rows[groups[-1][2][0]].rank == row.rank:
            groups[-1][2].append(row.player_id)
        else:
            groups.append((Stage.SWISS, "Swiss", [row.player_id]))

    seeds = {player: seed for seed, player in enumerate(bracket.seeds, 1)} if bracket else {}
    placings: list[Placing] = []
    removed: list[Placing] = []
    placed_ahead = 0
    for stage, finish, players in groups:
        place = placed_ahead + 1
        for player in players:
            row = rows[player]
            is_disqualified = player in disqualified
            line = Placing(
                place=None if is_disqualified else place,
                player_id=player,
                name=row.name,
                stage=Stage.DISQUALIFIED if is_disqualified else stage,
                finish="Disqualified" if is_disqualified else finish,
                seed=seeds.get(player),
                swiss_rank=row.rank,
                dropped=row.dropped,
                disqualified=is_disqualified,
            )
            (removed if is_disqualified else placings).append(line)
            placed_ahead += 0 if is_disqualified else 1
    return tuple(placings + removed)
