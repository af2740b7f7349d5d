"""Random Swiss tournaments for tests and benchmarks: rounds paired by a given pairer,
random results (with draws), drops and late entries."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from tournaments.pairing.model import PairingPlayer, PairingResult
from tournaments.pairing.swiss import pair_round

Pairer = Callable[[Sequence[PairingPlayer], int, int], PairingResult]


@dataclass
class SimulatedEntrant:
    id: int
    points: int = 0
    opponents: set[int] = field(default_factory=set)
    byes: int = 0
    dropped: bool = False


@dataclass
class SimulatedSwiss:
    """A tournament in progress; active_players() is the input of the next round."""

    seed: int
    draw_rate: float = 0.05
    drop_rate: float = 0.02
    entrants: dict[int, SimulatedEntrant] = field(default_factory=dict)
    rounds_played: int = 0

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def enter(self, count: int, points: int = 0) -> None:
        start = max(self.entrants, default=0) + 1
        for pid in range(start, start + count):
            self.entrants[pid] = SimulatedEntrant(pid, points=points)

    def active_players(self) -> list[PairingPlayer]:
        active = [e for e in self.entrants.values() if not e.dropped]
        # Standings: points, then the opponents' points as a simple tiebreaker.
        strength = {
            e.id: sum(self.entrants[o].points for o in e.opponents if o in self.entrants)
            for e in active
        }
        ordered = sorted(active, key=lambda e: (-e.points, -strength[e.id], e.id))
        return [
            PairingPlayer(e.id, e.points, frozenset(e.opponents), e.byes, rank)
            for rank, e in enumerate(ordered, start=1)
        ]

    def play_round(self, pairer: Pairer = pair_round) -> PairingResult:
        round_number = self.rounds_played + 1
        result = pairer(self.active_players(), round_number, self.rng.randrange(2**31))
        self.record(result)
        return result

    def record(self, result: PairingResult) -> None:
        rng = self.rng
        for pair in result.pairs:
            a, b = self.entrants[pair.high_id], self.entrants[pair.low_id]
            a.opponents.add(b.id)
            b.opponents.add(a.id)
            roll = rng.random()
            if roll < self.draw_rate:
                a.points += 1
                b.points += 1
            elif roll < (1 + self.draw_rate) / 2:
                a.points += 3
            else:
                b.points += 3
        if result.bye is not None:
            entrant = self.entrants[result.bye.player_id]
            entrant.points += 3
            entrant.byes += 1
        for entrant in self.entrants.values():
            if not entrant.dropped and rng.random() < self.drop_rate:
                entrant.dropped = True
        self.rounds_played += 1
