"""Count the instructions an IRONDIE game costs, whatever the machine's load.

Usage: python bench/engine_instructions.py [--seats 4] [--games 20] [--base 2]

Runs ``valgrind --tool=callgrind`` (``PYTHONHASHSEED=0``) twice on this script's
``--play N`` mode, which plays N games of the timed loop of ``run_contract_random`` from
bench/engine.py (seed 1, random bots at every seat, its warm-up game included): once
with N = base + games and once with N = base, and prints the difference divided by
``games``, so that start-up and imports cancel out. Both runs build the same
base + games random configs, which the timed loop does not count either. The count is the same from run to
run, so two versions of the engine can be compared on a loaded machine.
``--seats 2`` is the two-player game through the same contract.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def play(games: int, seats: int, configs: int) -> None:
    """The timed loop of ``run_contract_random`` (seed 1) for the first ``games`` of
    ``configs`` random configs: the configs are built in every run, so that their cost
    cancels out as start-up does (``bench/engine.py`` builds them before its clock
    starts, and the games per second exclude them)."""
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "bench"))
    import engine as bench

    seed = 1
    engine = bench.engine_for("irondie")
    cfgs = bench.contract_configs(engine, configs, seed, seats, None)
    random_bot = engine.BOTS["random"]
    if not games:
        return
    bench.contract_game(engine, cfgs[0], "warm-up", [random_bot(i) for i in range(seats)])
    for i, cfg in enumerate(cfgs[:games]):
        bots = [random_bot(seed * 1_000_003 + seats * i + k) for k in range(seats)]
        state, _ = bench.contract_game(engine, cfg, f"seed-{seed}-{i}", bots)
        engine.result(state)


def instructions(games: int, seats: int, configs: int) -> int:
    with tempfile.TemporaryDirectory() as directory:
        out = Path(directory) / "callgrind.out"
        subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={out}",
                sys.executable,
                __file__,
                "--play",
                str(games),
                "--seats",
                str(seats),
                "--configs",
                str(configs),
            ],
            check=True,
            capture_output=True,
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )
        for line in out.read_text().splitlines():
            if line.startswith(("summary:", "totals:")):
                return int(line.split()[1])
    raise RuntimeError("callgrind wrote no total")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--base", type=int, default=2)
    parser.add_argument("--play", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--configs", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.play is not None:
        play(args.play, args.seats, args.configs)
        return
    total = args.base + args.games
    low = instructions(args.base, args.seats, total)
    high = instructions(total, args.seats, total)
    print(
        f"irondie, {args.seats} seats: {(high - low) / args.games / 1e6:.3f} M instructions"
        f" per game (callgrind, N = {args.base + args.games} minus N = {args.base}, seed 1)"
    )


if __name__ == "__main__":
    main()
