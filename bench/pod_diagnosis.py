"""Why the window tier cannot prove a round of Swiss pods (docs/pairing.md, "What remains
unproved").

Usage: python bench/pod_diagnosis.py [--sizes 64 128 256] [--rounds 6] [--events 3]
                                     [--mode four_three|three] [--seed 1] [--drop-rate 0.05]

Plays the same simulated events as bench/pods.py (same seeds). When a round is seated
without a proof (method "best_found", formerly refused), the
window tier is run again on that round with its trace, and the round is classed by what
stopped the windows first:

- "excess": a seating met the windows' least repeats and spread only with a short-table
  excess above the least (the least excess conflicts with the least repeats);
- "thin edge": a window's relaxed optimum needs more players on the points just outside
  it than stand there (its virtual players cannot all be real ones);
- "table sizes": the windows' relaxed optima together use more short tables than the
  round has, or sizes the kept tables leave no room for;
- "segment": the players left outside the windows cannot be seated on their profile
  (their number no longer fits the tables, or no filling avoids a repeat);
- "wide": a window grew past WINDOW_LIMIT players (or its relaxation past its steps)
  before any seating could be completed.

The classes are those of the relaxed windows (pod_windows.certify_relaxed), which run
first; the trace then shows the counted window (pod_windows.certify_counted: its bound, or
"out of steps", and the seating found by swaps), and the typed bound of tier 1 beside the
incumbent. With the code before the counted window this lists every refused round of the
benchmark; now it lists those still unproved. The event ends at its first unproved round
here, so that the rounds listed are those the refusals used to list.
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
from tournaments.pairing.pods import BEST_FOUND, FOUR_THREE, MODES

REASONS = {
    "too few players on an edge": "thin edge",
    "table sizes": "table sizes",
    "segment not re-seated": "segment",
    "out of re-seatings": "segment",
}


def classify(trace: list[dict]) -> str:
    for step in trace:
        for key in step.get("keys", []):
            target = step["target"]
            if key is not None and key[0] == target[0] and key[1] > target[1]:
                return "excess"
    for step in trace:
        if step.get("why"):
            return REASONS[step["why"][0]]
        if step["outcome"] in ("too wide", "out of steps"):
            return "wide"
    return "other"


def typed(field, sizes, tables) -> str:
    bound, key = field.ibound(sizes), field.ikey(tables)
    return (
        f"    typed bound {bound[:3]}, incumbent {key[:3]} (repeats, excess, spread in units "
        f"of 1/{field.scale**2})"
    )


def describe(trace: list[dict]) -> str:
    lines = []
    for step in trace:
        if step["outcome"] == "counted window":
            bound = step["bound"] if step["bound"] is not None else "out of steps"
            lines.append(
                f"    counted window of {step['widths'][0]} players: bound {bound}, seating "
                f"found by swaps {step['key'][:3]}"
            )
            continue
        text = f"    windows {step['widths']} players: {step['outcome']}"
        if "target" in step:
            met = [k for k in step["keys"] if k is not None]
            text += (
                f"; bound {step['target'][:3]}, best seating "
                f"{min(met)[:3] if met else 'none completed'}"
            )
            if step.get("why"):
                text += f" ({', '.join(sorted(set(step['why'])))})"
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
                if event.play_round().method == BEST_FOUND:
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
                        f"({sum(sizes)} active, sizes {Counter(sizes)}): {kind}"
                    )
                    print(describe(trace))
                    if seen:
                        print(typed(field, sizes, tables))
                    break
    print()
    print("| players | unproved rounds by kind |")
    print("| --- | --- |")
    for size in args.sizes:
        found = {kind: n for (s, kind), n in kinds.items() if s == size}
        print(f"| {size} | {', '.join(f'{k} x{n}' for k, n in sorted(found.items())) or '0'} |")


if __name__ == "__main__":
    main()
