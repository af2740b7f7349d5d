"""Time the Swiss standings on a simulated tournament.

Usage: python bench/standings.py [--players 4096] [--rounds 12] [--runs 7] [--seed 1]

Generates a Swiss tournament (players paired within point groups, random results
including draws and intentional draws, a bye for the odd player, a few drops per
round), which is not timed, then prints the best wall time of several runs of
compute_standings. Goal: 4,096 players after 12 rounds in under 100 ms.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.standings import MatchRecord, PlayerEntry, compute_standings

# (games won by A, games won by B, drawn games, weight)
GAME_RESULTS = [
    (2, 0, 0, 30),
    (2, 1, 0, 20),
    (1, 2, 0, 20),
    (0, 2, 0, 30),
    (1, 0, 0, 4),
    (0, 1, 0, 4),
    (1, 1, 0, 3),
    (1, 1, 1, 2),
    (0, 0, 3, 2),
]
DROP_RATE_PER_ROUND = 0.02


def simulate(
    player_count: int, rounds: int, seed: int
) -> tuple[list[PlayerEntry], list[MatchRecord]]:
    rng = random.Random(seed)
    results = [r[:3] for r in GAME_RESULTS]
    weights = [r[3] for r in GAME_RESULTS]
    points = dict.fromkeys(range(1, player_count + 1), 0)
    active = list(points)
    dropped: set[int] = set()
    records: list[MatchRecord] = []
    for round_number in range(1, rounds + 1):
        # Pair within point groups: sort by points with a random tie order.
        order = sorted(active, key=lambda p: (-points[p], rng.random()))
        if len(order) % 2:
            bye_player = order.pop()
            records.append(MatchRecord.bye(round_number, bye_player))
            points[bye_player] += 3
        outcomes = rng.choices(results, weights, k=len(order) // 2)
        for (won_a, won_b, drawn), a, b in zip(outcomes, order[::2], order[1::2], strict=True):
            records.append(MatchRecord(round_number, a, b, won_a, won_b, drawn))
            if won_a > won_b:
                points[a] += 3
            elif won_b > won_a:
                points[b] += 3
            else:
                points[a] += 1
                points[b] += 1
        if round_number >= 3:
            leaving = {p for p in active if rng.random() < DROP_RATE_PER_ROUND}
            dropped |= leaving
            active = [p for p in active if p not in leaving]
    players = [PlayerEntry(p, f"Player {p}", dropped=p in dropped) for p in points]
    return players, records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4096)
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    players, records = simulate(args.players, args.rounds, args.seed)
    timings = []
    for _ in range(args.runs):
        start = time.perf_counter()
        standings = compute_standings(players, records)
        timings.append(time.perf_counter() - start)
    dropped = sum(row.dropped for row in standings.rows)
    leader = standings.rows[0]
    print(
        f"{args.players} players, {args.rounds} rounds, {len(records)} match records, "
        f"{dropped} dropped"
    )
    print(f"leader: {leader.name} {leader.record} {leader.match_points} points")
    print(
        f"compute_standings: best {min(timings) * 1000:.1f} ms, "
        f"median {sorted(timings)[len(timings) // 2] * 1000:.1f} ms over {args.runs} runs"
    )


if __name__ == "__main__":
    main()
