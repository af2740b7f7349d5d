"""One round's field: the active players with the seeded orders and rematch sets that
every step of the pairer works from, their score groups, and the cost of any pairing."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from tournaments.pairing.model import PairingCost, PairingError, PairingPlayer


class Field:
    """One round's active players with the derived orders the cost needs."""

    def __init__(self, players: Sequence[PairingPlayer], round_number: int, seed: int | str):
        self.round_number = round_number
        self.seed = seed
        self.players: dict[int, PairingPlayer] = {}
        for player in players:
            if player.id in self.players:
                raise PairingError(f"player {player.id} appears twice")
            self.players[player.id] = player
        self.ids = sorted(self.players)
        # str seeds are hashed with SHA-512 by random.Random, so this is stable across runs.
        self.rng = random.Random(f"irondie-swiss:{seed}:{round_number}")
        drawn = list(self.ids)
        self.rng.shuffle(drawn)
        self.draw = {pid: index for index, pid in enumerate(drawn)}
        # Best first; equal ranks ordered by the seeded draw.
        ranked = sorted(self.ids, key=lambda pid: (self.players[pid].rank, self.draw[pid]))
        self.position = {pid: index for index, pid in enumerate(ranked)}
        self.ranked = ranked
        # Rematch sets are made symmetric: one side's record is enough to count a meeting.
        present = self.players.keys()
        self.opp: dict[int, set[int]] = {pid: set() for pid in self.ids}
        for pid, player in self.players.items():
            for other in player.opponents:
                if other in present and other != pid:
                    self.opp[pid].add(other)
                    self.opp[other].add(pid)
        self.min_byes = min((p.byes for p in players), default=0)

    # --- cost -----------------------------------------------------------------------------

    def bye_rank_offsets(self) -> dict[int, int]:
        """For each player: how many players ranked below have no more byes than they do."""
        below_by_byes: dict[int, int] = {}
        offsets: dict[int, int] = {}
        for pid in reversed(self.ranked):
            byes = self.players[pid].byes
            offsets[pid] = sum(count for b, count in below_by_byes.items() if b <= byes)
            below_by_byes[byes] = below_by_byes.get(byes, 0) + 1
        return offsets

    def ideal_bye(self) -> int:
        """The lowest-ranked player among those with the fewest byes."""
        return max(
            (pid for pid in self.ids if self.players[pid].byes == self.min_byes),
            key=self.position.__getitem__,
        )

    def cost_of(self, pairs: Sequence[tuple[int, int]], bye_id: int | None) -> PairingCost:
        rematches = 0
        differences = []
        square_sum = 0
        for a, b in pairs:
            if b in self.opp[a]:
                rematches += 1
            difference = abs(self.players[a].points - self.players[b].points)
            square_sum += difference * difference
            if difference:
                differences.append(difference)
        bye_excess = bye_offset = repeat = 0
        if bye_id is not None:
            previous = self.players[bye_id].byes
            bye_excess = previous - self.min_byes
            bye_offset = self.bye_rank_offsets()[bye_id]
            repeat = 1 if previous else 0
        return PairingCost(
            rematches=rematches,
            bye_excess=bye_excess,
            bye_rank_offset=bye_offset,
            pair_down_cost=square_sum,
            pair_downs=len(differences),
            point_differences=tuple(sorted(differences, reverse=True)),
            repeat_byes=repeat,
        )

    def score_groups(self, pool: Iterable[int]) -> tuple[list[list[int]], list[int]]:
        """Players by points, best group first; random order inside a group from the seed."""
        by_points: dict[int, list[int]] = {}
        for pid in sorted(pool, key=self.draw.__getitem__):
            by_points.setdefault(self.players[pid].points, []).append(pid)
        points = sorted(by_points, reverse=True)
        return [by_points[p] for p in points], points
