"""Time the Swiss pods pairer (tournaments/pairing/pods.py) on simulated events.

Usage: python bench/pods.py [--sizes 8 12 13 24 64 256 1024 4096] [--rounds 6]
                            [--events 3] [--mode four_three|three] [--seed 1]
                            [--drop-rate 0.05]

For each size and each of --events simulated events, rounds 1..--rounds are seated by the
pairer with random placings (5% shared places), each player dropping after a round with
probability --drop-rate, each round timed once. A refused round
(no seating could be proved optimal within the limits) ends that event. Prints, per
size, the worst and the median seating time, how each round was proved ("lower_bound",
"exact") and how many were refused, with the round of the first refusal.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.pairing.pod_simulation import SimulatedPods
from tournaments.pairing.pods import FOUR_THREE, MODES, PodsRefused


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sizes", type=int, nargs="+", default=[8, 12, 13, 24, 64, 256, 1024, 4096]
    )
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--events", type=int, default=3)
    parser.add_argument("--mode", choices=MODES, default=FOUR_THREE)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--drop-rate", type=float, default=0.05)
    args = parser.parse_args()
    print("| players | rounds seated | worst | median | proofs | refused (first in round) |")
    print("| --- | --- | --- | --- | --- | --- |")
    for size in args.sizes:
        times: list[float] = []
        methods: Counter = Counter()
        refusals: list[int] = []
        for event_index in range(args.events):
            event = SimulatedPods(
                size,
                seed=args.seed * 1000 + event_index,
                mode=args.mode,
                drop_rate=args.drop_rate,
            )
            for round_number in range(1, min(args.rounds, size) + 1):
                start = time.perf_counter()
                try:
                    result = event.play_round()
                except PodsRefused:
                    times.append(time.perf_counter() - start)
                    refusals.append(round_number)
                    break
                times.append(time.perf_counter() - start)
                methods[result.method] += 1
        proofs = ", ".join(f"{name} x{count}" for name, count in sorted(methods.items()))
        refused = f"{len(refusals)} ({min(refusals)})" if refusals else "0"
        print(
            f"| {size} | {sum(methods.values())} | {max(times):.3f} s | "
            f"{statistics.median(times):.3f} s | {proofs} | {refused} |"
        )


if __name__ == "__main__":
    main()
