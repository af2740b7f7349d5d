"""The lower-bound tier: pair the score groups top-down with no rematch and the fewest
pair-downs parity allows (one floater into the next group across every odd boundary).

A pairing built this way meets the lower bound on the cost (docs/pairing.md), which
proves it optimal. The search backtracks over a few floater choices per group within a
budget; when it gets stuck it reports the deepest group it reached, where the window
tier starts.
"""

from __future__ import annotations

from collections.abc import Iterator

from tournaments.pairing.matching import match_group

# Matching attempts the chain may spend before handing over to the exact tiers.
CHAIN_BUDGET = 400
# Floater candidates tried per group when backtracking (all of them in small groups).
FLOATER_TRIES = 8
SMALL_GROUP = 24


class ChainFailure(Exception):
    """The chain found no pairing at the bound; group_index is the deepest group reached."""

    def __init__(self, group_index: int) -> None:
        super().__init__(group_index)
        self.group_index = group_index


def chain_score_groups(
    opp: dict[int, set[int]],
    groups: list[list[int]],
    incoming: list[int],
    targets: list[int],
) -> tuple[list[tuple[int, int]], list[int]]:
    """Pair the groups top-down at the lower bound.

    Players in `incoming` float into the first group and must be paired inside it.
    Every group then sends down the fewest floaters parity allows (0 or 1), each to be
    paired inside the next group, except the last group, which sends one floater per
    id in `targets` (each floater must not have met its target). Returns the pairs and
    the floaters for the targets, in target order. Raises ChainFailure with the index
    of the deepest group where the search got stuck.
    """
    attempts = 0

    def floater_choices(k: int, in_count: int) -> Iterator[list[int]]:
        members = groups[k]
        if k == len(groups) - 1:
            if not targets:
                yield []
                return
            yield from target_floaters(opp, members, targets)
            return
        if (in_count + len(members)) % 2 == 0:
            yield []
            return
        following = groups[k + 1]
        limit = len(members) if len(members) <= SMALL_GROUP else FLOATER_TRIES
        tried = 0
        for candidate in reversed(members):
            blocked = opp[candidate]
            if len(blocked) >= len(following) and all(v in blocked for v in following):
                continue
            yield [candidate]
            tried += 1
            if tried >= limit:
                return

    def step(k: int, floaters: list[int]) -> tuple[list[tuple[int, int]], list[int]]:
        nonlocal attempts
        deepest = k
        for outs in floater_choices(k, len(floaters)):
            attempts += 1
            if attempts > CHAIN_BUDGET:
                raise ChainFailure(deepest)
            out_set = set(outs)
            rest = [pid for pid in groups[k] if pid not in out_set] if outs else groups[k]
            pairs = match_group(opp, floaters, rest)
            if pairs is None:
                continue
            if k == len(groups) - 1:
                return pairs, outs
            try:
                below, final = step(k + 1, outs)
            except ChainFailure as failure:
                deepest = max(deepest, failure.group_index)
                continue
            pairs.extend(below)
            return pairs, final
        raise ChainFailure(deepest)

    if not groups:
        if incoming or targets:
            raise ChainFailure(0)
        return [], []
    return step(0, incoming)


def target_floaters(
    opp: dict[int, set[int]], members: list[int], targets: list[int]
) -> Iterator[list[int]]:
    """A few distinct choices of floaters, one per target, none a past opponent of it."""
    if len(targets) > len(members):
        return
    for rotation in range(min(len(members), FLOATER_TRIES)):
        order = members[len(members) - rotation :] + members[: len(members) - rotation]
        used: set[int] = set()
        chosen = []
        for target in targets:
            blocked = opp[target]
            pick = next((m for m in reversed(order) if m not in used and m not in blocked), None)
            if pick is None:
                break
            used.add(pick)
            chosen.append(pick)
        else:
            yield chosen
