"""Simulated pod events for tests and benchmarks: every round seated by ``pair_pods``, random
placings (shared places now and then), points by placing, and players dropping after a
round now and then (``drop_rate``). Pure Python."""

from __future__ import annotations

import random
from fractions import Fraction

from tournaments.pairing.pods import FOUR_THREE, PodPlayer, full_size, pair_pods
from tournaments.pod_standings import BYE_POINTS, table_points


class SimulatedPods:
    def __init__(
        self,
        players: int,
        *,
        seed: int = 1,
        mode: str = FOUR_THREE,
        tie_rate=0.05,
        exact_limit=None,
        drop_rate=0.0,
    ):
        self.exact_limit = exact_limit
        self.rng = random.Random(f"pod-simulation:{seed}")
        self.mode = mode
        self.tie_rate = tie_rate
        self.drop_rate = drop_rate
        self.dropped: set[int] = set()
        self.points = {pid: Fraction(0) for pid in range(1, players + 1)}
        self.met: dict[int, set[int]] = {pid: set() for pid in self.points}
        self.short = dict.fromkeys(self.points, 0)
        self.round_number = 0
        self.methods: list[str] = []

    def field(self) -> list[PodPlayer]:
        active = [pid for pid in self.points if pid not in self.dropped]
        ranked = sorted(active, key=lambda pid: (-self.points[pid], pid))
        return [
            PodPlayer(pid, self.points[pid], frozenset(self.met[pid]), self.short[pid], rank + 1)
            for rank, pid in enumerate(ranked)
        ]

    def placings(self, size: int) -> list[int]:
        order = list(range(size))
        self.rng.shuffle(order)
        places = [0] * size
        for index, seat in enumerate(order):
            if index and self.rng.random() < self.tie_rate:
                places[seat] = places[order[index - 1]]
            else:
                places[seat] = index + 1
        return places

    def play_round(self):
        """Seat and play the next round; returns the result."""
        self.round_number += 1
        limits = {} if self.exact_limit is None else {"exact_limit": self.exact_limit}
        result = pair_pods(
            self.field(),
            self.round_number,
            seed=f"sim{self.round_number}",
            mode=self.mode,
            **limits,
        )
        self.methods.append(result.method)
        full = full_size(self.mode)
        if result.bye is not None:
            self.points[result.bye] += BYE_POINTS
            self.short[result.bye] += 1
        for table in result.tables:
            ids = table.player_ids
            for pid, score in zip(ids, table_points(self.placings(len(ids))), strict=True):
                self.points[pid] += score
                self.met[pid].update(other for other in ids if other != pid)
                if len(ids) < full:
                    self.short[pid] += 1
        # Drops are drawn after the round, in id order, so a seed gives the same event.
        for pid in sorted(self.points):
            if pid not in self.dropped and self.rng.random() < self.drop_rate:
                self.dropped.add(pid)
        return result


__all__ = ["SimulatedPods"]
