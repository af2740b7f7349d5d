"""Count the instructions an IRONDIE game costs, whatever the machine's load.

Usage: python bench/engine_instructions.py [--seats 4] [--games 20] [--base 2]

Runs ``valgrind --tool=callgrind`` (``PYTHONHASHSEED=0``) twice on this script's
``--play N`` mode, which plays N games of ``run_contract_random`` from bench/engine.py
(seed 1, random bots at every seat, its warm-up game included): once with
N = base + games and once with N = base, and prints the difference divided by
``games``, so that start-up and imports cancel out. The count is the same from run to
run, so two versions of the engine can be compared on a loaded machine.
``--seats 2`` is the two-player game through the same contract.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def play(games: int, seats: int) -> None:
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "bench"))
    import engine as bench

    if games:
        with contextlib.redirect_stdout(io.StringIO()):
            bench.run_contract_random("irondie", games, 1, seats, None)


def instructions(games: int, seats: int) -> int:
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
    args = parser.parse_args()
    if args.play is not None:
        play(args.play, args.seats)
        return
    low = instructions(args.base, args.seats)
    high = instructions(args.base + args.games, args.seats)
    print(
        f"irondie, {args.seats} seats: {(high - low) / args.games / 1e6:.3f} M instructions"
        f" per game (callgrind, N = {args.base + args.games} minus N = {args.base}, seed 1)"
    )


if __name__ == "__main__":
    main()
