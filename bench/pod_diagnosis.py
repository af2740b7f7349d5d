"""Why the window tier refuses a round of Swiss pods (docs/pairing.md, "What remains refused").

Usage: python bench/pod_diagnosis.py [--sizes 64 128 256] [--rounds 6] [--events 3]
                                     [--mode four_three|three] [--seed 1] [--drop-rate 0.05]

Plays the same simulated events as bench/pods.py (same seeds). When a round is refused, the
window tier is run again on that round with its trace, and the round is classed by what
stopped it:

- "excess": a seating met the windows' least repeats and spread only with a short-table
  excess above the least (the least excess conflicts with the least repeats);
- "wide": a window grew past WINDOW_LIMIT players (or its relaxation past its steps) before
  any seating met the bound (the trouble is wider than a window);
- "other": anything else (the windows' seatings could not be completed, or missed the
  bound on spread).

The round is then replayed with the refusal lifted (no limit on the windows' width) only
to report the trace; the event ends at its first refusal, as in bench/pods.py.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.pairing import pods
from tournaments.pairing.pod_simulation import SimulatedPods
from tournaments.pairing.pod_windows import certify_windows
from tournaments.pairing.pods import FOUR_THREE, MODES, PodsRefused


def classify(trace: list[dict]) -> str:
    for step in trace:
        for key in step.get("keys", []):
            target = step["target"]
            if key is not None and key[0] == target[0] and key[1] > target[1]:
                return "excess"
    if trace and trace[-1]["outcome"] in ("too wide", "out of steps"):
        return "wide"
    return "other"


def describe(trace: list[dict]) -> str:
    lines = []
    for step in trace:
        text = f"    windows {step['widths']} players: {step['outcome']}"
        if "target" in step:
            met = [k for k in step["keys"] if k is not None]
            text += (
                f"; bound {step['target'][:3]}, best seating "
                f"{min(met)[:3] if met else 'none completed'}"
            )
        lines.append(text)
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[64, 128, 256])
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--events", type=int, default=3)
    parser.add_argument("--mode", choices=MODES, default=FOUR_THREE)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--drop-rate", type=float, default=0.05)
    args = parser.parse_args()
    # The window tier's arguments in the round being seated: the incumbent it starts from.
    seen: list[tuple] = []
    original = pods.certify_windows

    def recording(field, sizes, tables, *rest, **options):
        seen.append((field, sizes, tables))
        return original(field, sizes, tables, *rest, **options)

    pods.certify_windows = recording
    kinds: Counter = Counter()
    for size in args.sizes:
        for event_index in range(args.events):
            event = SimulatedPods(
                size, seed=args.seed * 1000 + event_index, mode=args.mode, drop_rate=args.drop_rate
            )
            for round_number in range(1, min(args.rounds, size) + 1):
                seen.clear()
                try:
                    event.play_round()
                except PodsRefused:
                    trace: list[dict] = []
                    if seen:
                        field, sizes, tables = seen[-1]
                        certify_windows(field, sizes, tables, trace=trace)
                        kind = classify(trace)
                    else:
                        kind = "not tried"
                    kinds[(size, kind)] += 1
                    print(
                        f"{size} players, event {event_index + 1}, round {round_number} "
                        f"({len(event.field())} active, sizes {Counter(sizes)}): {kind}"
                    )
                    print(describe(trace))
                    break
    print()
    print("| players | refused rounds by kind |")
    print("| --- | --- |")
    for size in args.sizes:
        found = {kind: n for (s, kind), n in kinds.items() if s == size}
        print(f"| {size} | {', '.join(f'{k} x{n}' for k, n in sorted(found.items())) or '0'} |")


if __name__ == "__main__":
    main()
