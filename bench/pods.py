"""Time the Swiss pods pairer (tournaments/pairing/pods.py) on simulated events.

Usage: python bench/pods.py [--sizes 8 12 13 24 64 256 1024 4096] [--rounds 6]
                            [--events 3] [--mode four_three|three] [--seed 1]
                            [--drop-rate 0.05] [--work] [--each]

For each size and each of --events simulated events, rounds 1..--rounds are seated by the
pairer with random placings (5% shared places), each player dropping after a round with
probability --drop-rate, each round timed once. A round no tier proves within the limits
is seated with the best seating found (method "best_found") and the event goes on. Prints,
per size, the worst and the median seating time, how each proved round was proved
("lower_bound", "window", "exact") and, apart, how many rounds were seated without a proof,
with the round of the first. --each also
prints every round as it is seated (to stderr), so that a long run shows how far it got,
with the cost and the bound of each round seated without a proof.

--work measures instead what one partial seating of the search tiers costs, the figure
behind NODE_WORK (the work units of the background-pairing choice,
tournaments/pairing/work.py): the exhaustive tier timed between its progress reports
(every PROGRESS_NODES seatings), and the window tier's CPU time in the rounds it cannot prove
(at most its budget of WINDOW_NODES seatings, the work it is charged up front). CPU time
(time.process_time), as the work units are: the figures hold on a busy machine.
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
from tournaments.pairing.pod_windows import WINDOW_NODES
from tournaments.pairing.pods import (
    BEST_FOUND,
    FOUR_THREE,
    MODES,
    NODE_WORK,
    PROGRESS_NODES,
    pair_pods,
)
from tournaments.pairing.work import STAGE_EXACT, STAGE_WINDOWS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sizes", type=int, nargs="+", default=[8, 12, 13, 24, 64, 256, 1024, 4096]
    )
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--events", type=int, default=3)
    parser.add_argument("--mode", choices=MODES, default=FOUR_THREE)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--work", action="store_true", help="time one partial seating")
    parser.add_argument("--drop-rate", type=float, default=0.05)
    parser.add_argument("--each", action="store_true", help="print every round (stderr)")
    args = parser.parse_args()
    if args.work:
        measure_work(args)
        return
    print(
        "| players | rounds seated | worst | median | proofs | "
        "seated, not proved (first in round) |"
    )
    print("| --- | --- | --- | --- | --- | --- |")
    for size in args.sizes:
        times: list[float] = []
        methods: Counter = Counter()
        unproved: list[int] = []
        for event_index in range(args.events):
            event = SimulatedPods(
                size,
                seed=args.seed * 1000 + event_index,
                mode=args.mode,
                drop_rate=args.drop_rate,
            )
            for round_number in range(1, min(args.rounds, size) + 1):
                start = time.perf_counter()
                result = event.play_round()
                times.append(time.perf_counter() - start)
                if result.method == BEST_FOUND:
                    unproved.append(round_number)
                else:
                    methods[result.method] += 1
                if args.each:
                    outcome = result.method
                    if result.method == BEST_FOUND:
                        outcome += f", cost {show(result.cost)} against bound {show(result.bound)}"
                    say(size, event_index, round_number, outcome, times[-1])
        proofs = ", ".join(f"{name} x{count}" for name, count in sorted(methods.items()))
        not_proved = f"{len(unproved)} ({min(unproved)})" if unproved else "0"
        print(
            f"| {size} | {len(times)} | {max(times):.3f} s | "
            f"{statistics.median(times):.3f} s | {proofs} | {not_proved} |"
        )


def show(cost) -> str:
    """A cost as its key: (repeats, short-table excess, spread, short-table rank offset)."""
    return "(" + ", ".join(str(part) for part in cost.key()) + ")"


def say(size: int, event_index: int, round_number: int, outcome: str, seconds: float) -> None:
    print(
        f"{size} players, event {event_index + 1}, round {round_number}: {outcome} "
        f"({seconds:.3f} s)",
        file=sys.stderr,
        flush=True,
    )


def measure_work(args) -> None:
    """Microseconds per partial seating of each search tier, over the simulated events."""
    exact: list[float] = []
    windows: list[float] = []
    for size in args.sizes:
        for event_index in range(args.events):
            event = SimulatedPods(size, seed=args.seed * 1000 + event_index, mode=args.mode)
            for _ in range(min(args.rounds, size)):
                marks: list[tuple[str, float]] = []
                field, number = event.field(), event.round_number + 1
                result = pair_pods(
                    field,
                    number,
                    f"sim{number}",
                    args.mode,
                    progress=lambda stage, *_, marks=marks: marks.append(
                        (stage, time.process_time())
                    ),
                )
                if result.method == BEST_FOUND:
                    starts = [at for stage, at in marks if stage == STAGE_WINDOWS]
                    if starts:
                        windows.append(time.process_time() - starts[0])
                    break
                batches = [at for stage, at in marks if stage == STAGE_EXACT]
                if len(batches) > 2:
                    span = batches[-1] - batches[0]
                    exact.append(span / ((len(batches) - 1) * PROGRESS_NODES) * 1e6)
                event.play_round()
    if exact:
        print(
            f"exhaustive tier: {len(exact)} searches timed, CPU microseconds per partial "
            f"seating: median {statistics.median(exact):.1f}, worst {max(exact):.1f}"
        )
    if windows:
        print(
            f"window tier in unproved rounds: {len(windows)}, CPU seconds: median "
            f"{statistics.median(windows):.3f}, worst {max(windows):.3f} (charged "
            f"{WINDOW_NODES * NODE_WORK:,} units up front)"
        )
    print(f"NODE_WORK = {NODE_WORK} units (at 0.25-0.3 s of CPU per million units)")


if __name__ == "__main__":
    main()
