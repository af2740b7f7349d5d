"""Time a rules engine on full games, and measure its heuristic bot.

Usage: python bench/engine.py [--game irondie] [--games 3000] [--seed 1] [--profile]
       python bench/engine.py --heuristic [--game irondie] [--games 1000] [--seed 1]
       python bench/engine.py --game 36d6 [--seats 2] [--variants stronghold,elemental]
       python bench/engine.py --teams 2 [--heuristic] [--games 3000] [--seed 1]

Any other engine than IRONDIE (``--game NAME``, a name of ``games.engines.ENGINES``)
runs through the engine contract only: ``--seats`` seats (default: the fewest the game
takes), random bots at every seat, the time limit at ``SIMULATED_LIMIT_TURN``; with
--heuristic, the heuristic bot takes one seat (turning round the table game by game)
and random bots the others, and a win is a first placing not shared.

Default mode: random-vs-random full games on one core (one process, no threads); prints
games per second, decisions per second (a decision is one accepted player action), and
the mean decisions and turns per game. Each game draws two random legal playing sets
and a fresh seed; the clock is simulated by switching sudden death on at turn 30 (it
rarely comes to that). Goal: at least 1,000 games per second.

--heuristic: the heuristic bot against the random bot, seats alternating, and prints the
heuristic bot's win rate with a 95% interval.

--teams N: the IRONDIE team game, N v N (2 or 3), through the engine contract with
random team configs: random bots at every seat (goal for 2 v 2: at least 300 games per
second on one core); with --heuristic, heuristic bots at every seat of one team (team 0
and team 1 in turn, game by game) against random bots, and the heuristic team's win rate.
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

from games.engines import engine_for
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
    cpu_start = time.process_time()
    for i, cfg in enumerate(cfgs):
        bots = (RandomBot(seed * 1_000_003 + 2 * i), RandomBot(seed * 1_000_003 + 2 * i + 1))
        state, made = play_game(cfg, f"seed-{seed}-{i}", bots)
        decisions += made
        turns += state.turn
        sudden += state.sudden_death_from is not None
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    print(f"random vs random, {games} full games, one core, Python {sys.version.split()[0]}")
    print(f"  games/second:       {games / elapsed:,.0f}")
    print(f"  games/CPU second:   {games / cpu:,.0f} (this process's CPU time: a loaded machine)")
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


def contract_game(engine, config, seed, bots):
    """One full game through the engine contract; returns (state, decisions)."""
    state = engine.new_game(config, seed)
    decisions = 0
    limit = engine.SIMULATED_LIMIT_TURN
    apply, over, to_act = engine.apply, engine.is_over, engine.to_act
    while not over(state):
        if state.turn >= limit and state.sudden_death_from is None:
            state, _ = engine.enable_sudden_death(state)
            continue
        seat = min(to_act(state))
        state, _ = apply(state, seat, bots[seat].choose(state, seat), False)
        decisions += 1
    return state, decisions


def contract_configs(engine, games, seed, seats, variants):
    configs = []
    for i in range(games):
        config = engine.random_config(random.Random(seed * 1_000_003 + i), seats, f"bench-{i}")
        if variants is not None:
            config["variants"] = variants
        configs.append(config)
    return configs


def run_contract_random(name, games, seed, seats, variants) -> None:
    engine = engine_for(name)
    seats = seats or engine.SEATS[0]
    cfgs = contract_configs(engine, games, seed, seats, variants)
    random_bot = engine.BOTS["random"]
    contract_game(engine, cfgs[0], "warm-up", [random_bot(i) for i in range(seats)])
    decisions = turns = 0
    reasons: dict = {}
    start = time.perf_counter()
    cpu_start = time.process_time()
    for i, cfg in enumerate(cfgs):
        bots = [random_bot(seed * 1_000_003 + seats * i + k) for k in range(seats)]
        state, made = contract_game(engine, cfg, f"seed-{seed}-{i}", bots)
        decisions += made
        turns += state.turn
        reason = engine.result(state)["reason"]
        reasons[reason] = reasons.get(reason, 0) + 1
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    print(
        f"{name}: random vs random, {seats} seats, variants {variants}, {games} full games,"
        f" one core, Python {sys.version.split()[0]}"
    )
    print(f"  games/second:       {games / elapsed:,.0f}")
    print(f"  games/CPU second:   {games / cpu:,.0f} (this process's CPU time: a loaded machine)")
    print(f"  decisions/second:   {decisions / elapsed:,.0f}")
    print(f"  mean decisions/game {decisions / games:.1f}")
    print(f"  mean turns/game     {turns / games:.2f}")
    print(f"  how games ended:    {dict(sorted(reasons.items()))}")


def run_contract_heuristic(name, games, seed, seats, variants) -> None:
    engine = engine_for(name)
    seats = seats or engine.SEATS[0]
    cfgs = contract_configs(engine, games, seed, seats, variants)
    wins = shared = 0
    start = time.perf_counter()
    for i, cfg in enumerate(cfgs):
        seat = i % seats
        bots = [engine.BOTS["random"](seed * 7919 + seats * i + k) for k in range(seats)]
        bots[seat] = engine.BOTS["heuristic"](seed * 7919 + i)
        state, _ = contract_game(engine, cfg, f"h-{seed}-{i}", bots)
        places = engine.placings(state)
        if places[seat] == 1:
            if places.count(1) == 1:
                wins += 1
            else:
                shared += 1
    elapsed = time.perf_counter() - start
    rate = wins / games
    half = 1.96 * math.sqrt(rate * (1 - rate) / games)
    print(
        f"{name}: heuristic vs random, {seats} seats, {games} games, seat turning round"
        f" ({elapsed:.1f} s)"
    )
    print(f"  heuristic win rate: {rate:.1%} (95% interval {rate - half:.1%} to {rate + half:.1%})")
    print(f"  first place shared: {shared / games:.1%}; a fair share would be {1 / seats:.1%}")


def run_team_heuristic(games: int, seed: int, size: int) -> None:
    engine = engine_for("irondie")
    seats = 2 * size
    cfgs = contract_configs(engine, games, seed, seats, None)
    wins = 0
    start = time.perf_counter()
    for i, cfg in enumerate(cfgs):
        team = i % 2
        bots = [
            engine.BOTS["heuristic" if seat % 2 == team else "random"](
                seed * 7919 + seats * i + seat
            )
            for seat in range(seats)
        ]
        state, _ = contract_game(engine, cfg, f"h-{seed}-{i}", bots)
        wins += engine.result(state)["winning_team"] == team
    elapsed = time.perf_counter() - start
    rate = wins / games
    half = 1.96 * math.sqrt(rate * (1 - rate) / games)
    print(
        f"irondie team game {size} v {size}: heuristic team vs random team, {games} games,"
        f" teams alternating ({elapsed:.1f} s)"
    )
    print(
        f"  heuristic team win rate: {rate:.1%} (95% interval {rate - half:.1%} to {rate + half:.1%})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="irondie")
    parser.add_argument("--seats", type=int, default=None)
    parser.add_argument("--variants", default=None, help="comma-separated (default: none)")
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--heuristic", action="store_true")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--teams", type=int, default=None, help="IRONDIE team size (2 or 3)")
    args = parser.parse_args()
    if args.teams:
        if args.heuristic:
            run_team_heuristic(args.games or 1000, args.seed, args.teams)
        elif args.profile:
            profiler = cProfile.Profile()
            profiler.runcall(
                run_contract_random, "irondie", args.games or 1000, args.seed, 2 * args.teams, None
            )
            pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
        else:
            run_contract_random("irondie", args.games or 3000, args.seed, 2 * args.teams, None)
        return
    if args.game != "irondie":
        variants = [v for v in (args.variants or "").split(",") if v]
        if args.heuristic:
            run_contract_heuristic(args.game, args.games or 1000, args.seed, args.seats, variants)
        elif args.profile:
            profiler = cProfile.Profile()
            profiler.runcall(
                run_contract_random, args.game, args.games or 1000, args.seed, args.seats, variants
            )
            pstats.Stats(profiler).sort_stats("tottime").print_stats(20)
        else:
            run_contract_random(args.game, args.games or 3000, args.seed, args.seats, variants)
        return
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
