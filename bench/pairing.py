"""Time the Swiss pairer on round 8 of simulated tournaments.

Usage: python bench/pairing.py [--sizes 512 4096 16384] [--round 8] [--tournaments 3]
                               [--runs 3] [--seed 1] [--draw-rate 0.05] [--drop-rate 0.02]

For each size and each of --tournaments simulated events: rounds 1..7 are paired by the
engine itself with random results (draws included), a few drops per round and a handful
of late entries in round 2 (not timed); then round 8 is paired --runs times and the best
wall time kept. Prints the worst of those times over the events, with rematches, repeat
byes, pair-downs, the squared-difference cost, and how optimality was established
("lower_bound": the cost equals a bound valid for any pairing; "window": certified exact
windows; "exact": whole-field matching). Goal: 4,096 players under 0.5 s and 16,384
under 2 s, always at the optimal cost.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.pairing import pair_round
from tournaments.pairing.simulation import SimulatedSwiss


def simulate(players: int, rounds_before: int, seed: int, draw_rate: float, drop_rate: float):
    swiss = SimulatedSwiss(seed=seed, draw_rate=draw_rate, drop_rate=drop_rate)
    swiss.enter(players)
    for round_index in range(rounds_before):
        if round_index == 1:
            swiss.enter(max(1, players // 200))
        swiss.play_round()
    return swiss.active_players()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[512, 4096, 16384])
    parser.add_argument("--round", type=int, default=8, help="round to pair and time")
    parser.add_argument("--tournaments", type=int, default=3, help="simulated events per size")
    parser.add_argument("--runs", type=int, default=3, help="timed runs per event (best kept)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--draw-rate", type=float, default=0.05)
    parser.add_argument("--drop-rate", type=float, default=0.02)
    args = parser.parse_args()

    header = (
        f"{'players':>8} {'active':>7} {'worst s':>8} {'rematches':>9} {'repeat byes':>11} "
        f"{'pair-downs':>10} {'sq. cost':>8}  optimality"
    )
    print(f"Pairing round {args.round}, {args.tournaments} simulated event(s) per size")
    print(header)
    for size in args.sizes:
        worst = 0.0
        active_counts = []
        rematches = repeat_byes = pair_downs = square_cost = 0
        methods: Counter[str] = Counter()
        for event in range(args.tournaments):
            seed = args.seed * 1_000_003 + size * 101 + event
            players = simulate(size, args.round - 1, seed, args.draw_rate, args.drop_rate)
            active_counts.append(len(players))
            best = float("inf")
            for _ in range(args.runs):
                start = time.perf_counter()
                result = pair_round(players, args.round, seed)
                best = min(best, time.perf_counter() - start)
            worst = max(worst, best)
            rematches = max(rematches, result.cost.rematches)
            repeat_byes = max(repeat_byes, result.cost.repeat_byes)
            pair_downs = max(pair_downs, result.cost.pair_downs)
            square_cost = max(square_cost, result.cost.pair_down_cost)
            methods[result.method] += 1
        active = f"~{sum(active_counts) // len(active_counts)}"
        how = ", ".join(f"{name} x{count}" for name, count in sorted(methods.items()))
        print(
            f"{size:>8} {active:>7} {worst:>8.3f} {rematches:>9} {repeat_byes:>11} "
            f"{pair_downs:>10} {square_cost:>8}  {how}"
        )
    print("(rematches, repeat byes, pair-downs, sq. cost: the largest over the events)")


if __name__ == "__main__":
    main()
