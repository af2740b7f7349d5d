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
        self._bye_offsets: dict[int, tuple[int, int]] | None = None

    # --- cost -----------------------------------------------------------------------------

    def bye_offsets(self) -> dict[int, tuple[int, int]]:
        """For each player, the bye terms of the cost if they sat out: (players on fewer
        points, players on the same points ranked below), counting only players with no
        more byes than they have. Computed once per field (it is read for every option
        the barrier tier compares)."""
        if self._bye_offsets is not None:
            return self._bye_offsets
        by_points: dict[int, list[int]] = {}
        for pid in reversed(self.ranked):  # worst-ranked first inside each score
            by_points.setdefault(self.players[pid].points, []).append(pid)
        offsets: dict[int, tuple[int, int]] = {}
        fewer_points_by_byes: dict[int, int] = {}
        for points in sorted(by_points):
            group = by_points[points]
            below_by_byes: dict[int, int] = {}
            for pid in group:
                byes = self.players[pid].byes
                offsets[pid] = (
                    sum(n for b, n in fewer_points_by_byes.items() if b <= byes),
                    sum(n for b, n in below_by_byes.items() if b <= byes),
                )
                below_by_byes[byes] = below_by_byes.get(byes, 0) + 1
            for byes, count in below_by_byes.items():
                fewer_points_by_byes[byes] = fewer_points_by_byes.get(byes, 0) + count
        self._bye_offsets = offsets
        return offsets

    def bye_candidates(self) -> list[int]:
        """Who may sit out at no bye cost before the pair-downs: the players with the fewest
        byes on the lowest score among them, lowest-ranked first (a player's index here is
        their bye rank offset)."""
        eligible = [pid for pid in self.ids if self.players[pid].byes == self.min_byes]
        lowest = min(self.players[pid].points for pid in eligible)
        return sorted(
            (pid for pid in eligible if self.players[pid].points == lowest),
            key=self.position.__getitem__,
            reverse=True,
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
        bye_excess = score_offset = rank_offset = repeat = 0
        if bye_id is not None:
            previous = self.players[bye_id].byes
            bye_excess = previous - self.min_byes
            score_offset, rank_offset = self.bye_offsets()[bye_id]
            repeat = 1 if previous else 0
        return PairingCost(
            rematches=rematches,
            bye_excess=bye_excess,
            bye_score_offset=score_offset,
            pair_down_cost=square_sum,
            bye_rank_offset=rank_offset,
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
