"""The pairer's answer as people and programs read it: each pair with its high and low
player and the reasons for it, tables ordered best records first, and why the bye went
where it did."""

from __future__ import annotations

from tournaments.pairing.field import Field
from tournaments.pairing.model import (
    Bye,
    Pair,
    PairingCost,
    PairingResult,
    Reason,
    ReasonCode,
)


def pairing_result(
    field: Field, matching: list[tuple[int, int]], bye_id: int | None, method: str
) -> PairingResult:
    """The matching as the round's pairs (best records on table 1), the bye and the cost."""
    cost = field.cost_of(matching, bye_id)
    pairs = [_pair(field, a, b) for a, b in matching]
    pairs.sort(
        key=lambda p: (
            -p.high_points,
            -p.low_points,
            min(field.position[p.high_id], field.position[p.low_id]),
        )
    )
    bye = None
    if bye_id is not None:
        bye = Bye(
            bye_id,
            field.players[bye_id].points,
            field.players[bye_id].byes,
            bye_reasons(field, bye_id, cost),
        )
    return PairingResult(field.round_number, field.seed, tuple(pairs), bye, cost, method)


def _pair(field: Field, a: int, b: int) -> Pair:
    """One match, the player with more points (the better rank on equal points) high."""
    pa, pb = field.players[a], field.players[b]
    if (pb.points, -field.position[b]) > (pa.points, -field.position[a]):
        pa, pb = pb, pa
    rematch = pb.id in field.opp[pa.id]
    points = {"high_points": pa.points, "low_points": pb.points}
    if pa.points == pb.points:
        reasons = [
            Reason(ReasonCode.SAME_GROUP, f"same point group ({pa.points} points)", **points)
        ]
    else:
        reasons = [
            Reason(
                ReasonCode.PAIR_DOWN,
                f"paired down from {pa.points} to {pb.points} points",
                **points,
            )
        ]
    if rematch:
        reasons.append(Reason(ReasonCode.REMATCH, "rematch impossible to avoid", **points))
    return Pair(pa.id, pb.id, pa.points, pb.points, rematch, tuple(reasons))


def bye_reasons(field: Field, bye_id: int, cost: PairingCost) -> tuple[Reason, ...]:
    """Why the bye went to this player, from the bye terms of the cost."""
    previous = field.players[bye_id].byes
    points = field.players[bye_id].points
    # Players with no more byes who were passed over: on fewer points, or on the same
    # points and ranked below.
    skipped = cost.bye_score_offset + cost.bye_rank_offset
    reasons = []
    if cost.bye_excess:
        reasons.append(
            Reason(
                ReasonCode.BYE_MOVED,
                "repeat bye: no player with fewer byes could sit out without an extra rematch",
                previous_byes=previous,
                skipped=skipped,
            )
        )
    elif cost.bye_score_offset:
        reasons.append(
            Reason(
                ReasonCode.BYE_MOVED,
                f"bye: the {cost.bye_score_offset} player(s) on fewer points with no more "
                "byes could not sit out without an extra rematch",
                previous_byes=previous,
                skipped=skipped,
            )
        )
    elif cost.bye_rank_offset:
        reasons.append(
            Reason(
                ReasonCode.BYE_MOVED,
                f"bye: the {cost.bye_rank_offset} lower-ranked player(s) on {points} points "
                "with no more byes could not sit out without a rematch or a bigger pair-down",
                previous_byes=previous,
                skipped=skipped,
            )
        )
    elif previous == 0:
        reasons.append(
            Reason(
                ReasonCode.BYE,
                "bye: lowest-ranked player without a bye",
                previous_byes=0,
                skipped=0,
            )
        )
    if previous and not cost.bye_excess:
        reasons.append(
            Reason(
                ReasonCode.REPEAT_BYE,
                f"repeat bye: every active player has had {previous} or more; "
                "lowest-ranked among those with the fewest"
                if not skipped
                else f"repeat bye: every active player has had {previous} or more",
                previous_byes=previous,
                skipped=skipped,
            )
        )
    return tuple(reasons)
