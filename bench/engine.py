"""Time the IRONDIE rules engine on full games, and measure the heuristic bot.

Usage: python bench/engine.py [--games 3000] [--seed 1] [--profile]
       python bench/engine.py --heuristic [--games 1000] [--seed 1]

Default mode: random-vs-random full games on one core (one process, no threads); prints
games per second, decisions per second (a decision is one accepted player action), and
the mean decisions and turns per game. Each game draws two random legal playing sets
and a fresh seed; the clock is simulated by switching sudden death on at turn 30 (it
rarely comes to that). Goal: at least 1,000 games per second.

--heuristic: the heuristic bot against the random bot, seats alternating, and prints the
heuristic bot's win rate with a 95% interval.
"""

from __future__ import annotations

import argparse
import cProfile
import math
import pstats
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engines.irondie import engine as E
from games.engines.irondie.bots import HeuristicBot, RandomBot, play_game
from games.engines.irondie.dice import Colour, DieClass, DieType

CLASSES = {c: [t for t in DieType if t.die_class == c] for c in DieClass}


def random_set(rng: random.Random) -> list[dict]:
    types = [rng.choice(CLASSES[c]) for c in DieClass] + [
        rng.choice(list(DieType)) for _ in range(6)
    ]
    rng.shuffle(types)
    rare = set(rng.sample(range(9), rng.randrange(4)))
    return [
        {"type": t.value, "colour": rng.choice(list(Colour)).value, "rare": i in rare}
        for i, t in enumerate(types)
    ]


def configs(count: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    return [
        {"game_id": f"bench-{i}", "sets": [random_set(rng), random_set(rng)]} for i in range(count)
    ]


def run_random(games: int, seed: int) -> None:
    cfgs = configs(games, seed)
    E.new_game(cfgs[0], "warm-up")
    decisions = turns = sudden = 0
    start = time.perf_counter()
    for i, cfg in enumerate(cfgs):
        bots = (RandomBot(seed * 1_000_003 + 2 * i), RandomBot(seed * 1_000_003 + 2 * i + 1))
        state, made = play_game(cfg, f"seed-{seed}-{i}", bots)
        decisions += made
        turns += state.turn
        sudden += state.sudden_death_from is not None
    elapsed = time.perf_counter() - start
    print(f"random vs random, {games} full games, one core, Python {sys.version.split()[0]}")
    print(f"  games/second:       {games / elapsed:,.0f}")
    print(f"  decisions/second:   {decisions / elapsed:,.0f}")
    print(f"  mean decisions/game {decisions / games:.1f}")
    print(f"  mean turns/game     {turns / games:.2f}")
    print(f"  games reaching sudden death at turn 30: {sudden}")


def run_heuristic(games: int, seed: int) -> None:
    cfgs = configs(games, seed)
    wins = 0
    start = time.perf_counter()
    for i, cfg in enumerate(cfgs):
        seat = i % 2
        bots = [RandomBot(seed * 7919 + i), RandomBot(seed * 7919 + i)]
        bots[seat] = HeuristicBot(seed * 7919 + i)
        state, _ = play_game(cfg, f"h-{seed}-{i}", bots)
        wins += E.result(state)["winner"] == seat
    elapsed = time.perf_counter() - start
    rate = wins / games
    half = 1.96 * math.sqrt(rate * (1 - rate) / games)
    print(f"heuristic vs random, {games} games, seats alternating ({elapsed:.1f} s)")
    print(f"  heuristic win rate: {rate:.1%} (95% interval {rate - half:.1%} to {rate + half:.1%})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--heuristic", action="store_true")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    if args.heuristic:
        run_heuristic(args.games or 1000, args.seed)
    elif args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(run_random, args.games or 1000, args.seed)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(20)
    else:
        run_random(args.games or 3000, args.seed)


if __name__ == "__main__":
    main()
