"""Swiss pairing as the optimum of a documented lexicographic cost.

Pure Python, no Django. The cost, the algorithm and the optimality argument are described
in docs/pairing.md; in short:

cost = (rematches, bye excess, bye score offset, sum of squared point differences,
        bye rank offset)

compared lexicographically: the bye goes to the fewest byes, then the lowest score group,
then the pair-downs are minimised, and only then the lower rank within the score sits out.
The pairer first tries to build a pairing that meets a simple lower bound on that cost
(no rematch, the bye to the lowest-ranked player with the fewest byes on the lowest score
among them, and exactly one adjacent-group pair-down across every score boundary with an
odd number of players above it). Reaching the bound proves optimality. When the bound
cannot be met, an exact matching is solved on a window of score groups around the
obstacle (choosing the bye among that score's candidates) and certified against a
relaxation of the whole field; if no window can be certified, an exact maximum-weight
matching of the whole field decides.

The steps, one module each: field.py (the players, seeded orders, rematch sets, score
groups and the cost of a pairing), lower_bound.py (the chain that meets the bound),
matching.py (rematch-free matching of a score group), windows.py (certified exact
windows), exact.py (the whole field) and reasons.py (the result with its reasons).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from tournaments.pairing.barrier import solve_barrier
from tournaments.pairing.exact import solve_exact
from tournaments.pairing.field import Field
from tournaments.pairing.lower_bound import ChainFailure, chain_score_groups
from tournaments.pairing.model import PairingCost, PairingError, PairingPlayer, PairingResult
from tournaments.pairing.reasons import pairing_result
from tournaments.pairing.windows import solve_windows
from tournaments.pairing.work import STAGE_LOWER_BOUND, Progress, Work

__all__ = ["evaluate_pairing", "pair_round", "solve"]


def pair_round(
    players: Sequence[PairingPlayer],
    round_number: int,
    seed: int | str,
    *,
    work_limit: int | None = None,
    progress: Progress | None = None,
) -> PairingResult:
    """Pair one round among the active players. Deterministic for a given seed.

    work_limit bounds the matchings' work (tournaments/pairing/work.py): a round that
    would need more raises PairingDeferred before running the matching that would pass
    it. progress(stage, spent, next) is called before each tier and matching.
    """
    field = Field(players, round_number, seed)
    if not field.ids:
        return PairingResult(round_number, seed, (), None, PairingCost(), "lower_bound")
    matching, bye_id, method = solve(field, Work(work_limit, progress))
    return pairing_result(field, matching, bye_id, method)


def evaluate_pairing(
    players: Sequence[PairingPlayer],
    pairs: Iterable[tuple[int, int]],
    bye_id: int | None,
    round_number: int,
    seed: int | str,
) -> PairingCost:
    """The cost of any complete pairing of the players (e.g. one edited by hand).

    round_number and seed only matter when ranks are equal: they order equal ranks for the
    bye rule exactly as pair_round does.
    """
    field = Field(players, round_number, seed)
    pair_list = [tuple(pair) for pair in pairs]
    seen = [pid for pair in pair_list for pid in pair]
    if bye_id is not None:
        seen.append(bye_id)
    if len(seen) != len(set(seen)) or set(seen) != set(field.ids):
        raise PairingError("every active player must appear exactly once")
    if (bye_id is None) != (len(field.ids) % 2 == 0):
        raise PairingError("an odd field needs exactly one bye, an even field none")
    return field.cost_of(pair_list, bye_id)


def solve(field: Field, work: Work | None = None) -> tuple[list[tuple[int, int]], int | None, str]:
    """The pairs, the bye and how optimality was proved: the first tier that succeeds of
    lower bound, certified windows and whole-field exact matching."""
    work = work or Work()
    work.spend(STAGE_LOWER_BOUND, 0)
    candidates = field.bye_candidates() if len(field.ids) % 2 else []
    forced = _forced_bye(field, candidates)
    if forced is not None:
        # Without a rematch only they can sit out: pair the others as an even field.
        # If that needs no rematch either, no pairing is better (docs/pairing.md).
        others = Field(
            [p for pid, p in field.players.items() if pid != forced],
            field.round_number,
            field.seed,
        )
        pairs, _, _ = solve(others, work)
        if not field.cost_of(pairs, forced).rematches:
            return pairs, forced, "forced_bye"
    lone = _lone_rematch(field)
    if lone is not None:
        # Their pair is a rematch in every pairing, so every pairing costs exactly one
        # rematch more than in the field with their meetings erased: pair that field
        # (docs/pairing.md, step 0).
        erased = Field(
            [
                replace(p, opponents=frozenset() if pid == lone else p.opponents - {lone})
                for pid, p in field.players.items()
            ],
            field.round_number,
            field.seed,
        )
        pairs, _, _ = solve(erased, work)
        return pairs, None, "forced_rematch"
    split = solve_barrier(field, work, solve)
    if split is not None:
        # A few players who have met most of the field force rematches: the field splits
        # along a tight barrier into parts paired on their own (docs/pairing.md, step 0b).
        pairs, bye_id = split
        return pairs, bye_id, "barrier"
    if _must_rematch_or_move_bye(field, candidates):
        # No chain or window can succeed: straight to the whole field.
        pairs, bye_id = solve_exact(field, work)
        return pairs, bye_id, "exact"
    bye_id = candidates[0] if candidates else None
    pool = [pid for pid in field.ids if pid != bye_id]
    groups, points = field.score_groups(pool)
    try:
        # Every candidate leaves the same score groups, so the bound holds for all of
        # them and the lowest-ranked one reaching it is optimal.
        pairs, _ = chain_score_groups(field.opp, groups, [], [])
        return pairs, bye_id, "lower_bound"
    except ChainFailure as failure:
        trouble = failure.group_index
    solved = solve_windows(field, groups, points, trouble, candidates, work)
    if solved is not None:
        pairs, bye_id = solved
        return pairs, bye_id, "window"
    pairs, bye_id = solve_exact(field, work)
    return pairs, bye_id, "exact"


def _must_rematch_or_move_bye(field: Field, candidates: list[int]) -> bool:
    """Someone has met every other player and cannot take the bye at no bye cost: no
    window can be certified (they need a rematch, or the bye leaves the candidates), so
    only the whole-field matching can prove the optimum."""
    others = len(field.ids) - 1
    return any(len(field.opp[pid]) == others and pid not in candidates for pid in field.ids)


def _lone_rematch(field: Field) -> int | None:
    """In an even field, the one player who has met every other player: their pair is a
    rematch in every pairing."""
    if len(field.ids) % 2:
        return None
    others = len(field.ids) - 1
    met_everyone = [pid for pid in field.ids if len(field.opp[pid]) == others]
    return met_everyone[0] if len(met_everyone) == 1 and others else None


def _forced_bye(field: Field, candidates: list[int]) -> int | None:
    """In an odd field, the one player who has met every other player when they are not
    a bye candidate: every pairing without a rematch gives them the bye."""
    if len(field.ids) % 2 == 0:
        return None
    others = len(field.ids) - 1
    met_everyone = [pid for pid in field.ids if len(field.opp[pid]) == others]
    if len(met_everyone) != 1 or met_everyone[0] in candidates:
        return None
    return met_everyone[0]
