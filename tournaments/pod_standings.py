"""Pod standings: points by placing at tables of 2-4 seats and the pod tiebreakers.

Pure Python, no Django (docs/standings.md, "Pod standings"; docs/pairing.md, "Swiss pods").

A player placed p at a table of s seats scores 3 x (s - p) / (s - 1) points (4 seats: 3, 2,
1, 0; 3 seats: 3, 1 1/2, 0; 2 seats: 3, 0); players sharing a place score the average of
the places they cover (1, 1, 3, 4 at four seats: 2 1/2, 2 1/2, 1, 0); a bye scores 3.

Ranking: points, then opponents' placing percentage (the average over every opponent met
at a table, once per meeting, of their placing percentage), then the player's own placing
percentage, then opponents' opponents' placing percentage. A placing percentage is points
scored at tables over 3 x tables played (byes left out), floored at 1/3 as match-win
percentages are. Players equal on all four share a rank.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

__all__ = [
    "BYE_POINTS",
    "PERCENTAGE_FLOOR",
    "PlacingError",
    "PodRow",
    "PodSeat",
    "placing_errors",
    "placing_points",
    "pod_standings",
    "table_points",
]

BYE_POINTS = Fraction(3)
PERCENTAGE_FLOOR = Fraction(1, 3)


class PlacingError(ValueError):
    """Placings that cannot be a table's result."""


def placing_errors(placings: Sequence[int]) -> list[str]:
    """Why these placings (one per seat) cannot be a table's result; empty when they can.
    Placings run from 1 to the table's size and shared places are standard: two players
    sharing first are both 1 and the next is 3."""
    size = len(placings)
    errors = []
    if size < 2:
        errors.append("A table has at least two players.")
        return errors
    for place in placings:
        if not isinstance(place, int) or isinstance(place, bool) or not 1 <= place <= size:
            errors.append(f"Every placing is a whole number from 1 to {size}.")
            return errors
    counts = Counter(placings)
    for place in sorted(counts):
        better = sum(count for other, count in counts.items() if other < place)
        if place != better + 1:
            errors.append(
                f"Place {place} does not follow the places above it: after {better} "
                f"player(s) the next place is {better + 1}."
            )
            break
    return errors


def placing_points(size: int, place: int, sharing: int = 1) -> Fraction:
    """Points for place ``place`` at a table of ``size`` seats, shared by ``sharing``
    players (the average of the places they cover)."""
    if size < 2:
        raise PlacingError("A table has at least two players.")
    if sharing < 1 or place < 1 or place + sharing - 1 > size:
        raise PlacingError(f"Place {place} shared by {sharing} does not fit {size} seats.")
    covered = range(place, place + sharing)
    return sum((Fraction(3 * (size - q), size - 1) for q in covered), Fraction(0)) / sharing


def table_points(placings: Sequence[int]) -> list[Fraction]:
    """Each seat's points, in the order of ``placings``."""
    errors = placing_errors(placings)
    if errors:
        raise PlacingError(" ".join(errors))
    counts = Counter(placings)
    return [placing_points(len(placings), place, counts[place]) for place in placings]


@dataclass(frozen=True)
class PodSeat:
    """One player's seat at a played table: the round, the table's id (any hashable unique
    per table), the player, and their placing (None until the table's result is in)."""

    round_number: int
    table: object
    player_id: int
    placing: int | None


@dataclass(frozen=True)
class PodRow:
    rank: int
    player_id: int
    points: Fraction
    tables: int
    byes: int
    opponents_placing: Fraction
    placing: Fraction
    opponents_opponents_placing: Fraction

    def key(self) -> tuple:
        return (
            self.points,
            self.opponents_placing,
            self.placing,
            self.opponents_opponents_placing,
        )


def _average(values: list[Fraction]) -> Fraction:
    return sum(values, Fraction(0)) / len(values) if values else Fraction(0)


def pod_standings(
    player_ids: Iterable[int],
    seats: Iterable[PodSeat],
    byes: Iterable[tuple[int, int]] = (),
) -> list[PodRow]:
    """The pod standings of ``player_ids`` (everyone ever entered; dropped players stay
    in as others' opponents) from the seats of played tables (a table counts once every
    seat has its placing) and the byes (round, player)."""
    ids = list(dict.fromkeys(player_ids))
    known = set(ids)
    tables: dict[object, list[PodSeat]] = {}
    for seat in seats:
        tables.setdefault(seat.table, []).append(seat)
    points = {pid: Fraction(0) for pid in ids}
    table_score = {pid: Fraction(0) for pid in ids}
    played = dict.fromkeys(ids, 0)
    bye_count = dict.fromkeys(ids, 0)
    opponents: dict[int, list[int]] = {pid: [] for pid in ids}
    for table_seats in tables.values():
        if any(seat.placing is None for seat in table_seats):
            continue
        scored = table_points([seat.placing for seat in table_seats])
        for seat, score in zip(table_seats, scored, strict=True):
            if seat.player_id not in known:
                raise PlacingError(f"player {seat.player_id} is not in the event")
            points[seat.player_id] += score
            table_score[seat.player_id] += score
            played[seat.player_id] += 1
            opponents[seat.player_id] += [s.player_id for s in table_seats if s is not seat]
    for _round, pid in byes:
        if pid not in known:
            raise PlacingError(f"player {pid} is not in the event")
        points[pid] += BYE_POINTS
        bye_count[pid] += 1

    def percentage(pid: int) -> Fraction:
        if not played[pid]:
            return PERCENTAGE_FLOOR
        return max(PERCENTAGE_FLOOR, table_score[pid] / (3 * played[pid]))

    own = {pid: percentage(pid) for pid in ids}
    opp = {pid: _average([own[o] for o in opponents[pid]]) for pid in ids}
    opp_opp = {pid: _average([opp[o] for o in opponents[pid]]) for pid in ids}
    rows = [
        PodRow(0, pid, points[pid], played[pid], bye_count[pid], opp[pid], own[pid], opp_opp[pid])
        for pid in ids
    ]
    rows.sort(key=lambda row: (tuple(-v for v in row.key()), row.player_id))
    ranked: list[PodRow] = []
    for index, row in enumerate(rows):
        rank = ranked[-1].rank if ranked and ranked[-1].key() == row.key() else index + 1
        ranked.append(_with_rank(row, rank))
    return ranked


def _with_rank(row: PodRow, rank: int) -> PodRow:
    return PodRow(
        rank,
        row.player_id,
        row.points,
        row.tables,
        row.byes,
        row.opponents_placing,
        row.placing,
        row.opponents_opponents_placing,
    )
