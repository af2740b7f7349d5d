"""Time the Swiss pairer on round 8 of simulated tournaments.

Usage: python bench/pairing.py [--sizes 512 4096 16384] [--round 8] [--tournaments 3]
                               [--runs 3] [--seed 1] [--draw-rate 0.05] [--drop-rate 0.02]
       python bench/pairing.py --adversarial [--long-sizes 8 16 24 32] [--seed 1]
                               [--work-limit 1500000]
       python bench/pairing.py --worst-cases [--seed 1] [--work-limit 1500000] [--only TEXT]

For each size and each of --tournaments simulated events: rounds 1..7 are paired by the
engine itself with random results (draws included), a few drops per round and a handful
of late entries in round 2 (not timed); then round 8 is paired --runs times and the best
wall time kept. Prints the worst of those times over the events, with rematches, repeat
byes, pair-downs, the squared-difference cost, and how optimality was established
("lower_bound": the cost equals a bound valid for any pairing; "window": certified exact
windows; "exact": whole-field matching). Goal: 4,096 players under 0.5 s and 16,384
under 2 s, always at the optimal cost.

--adversarial times the worst cases instead, one pairing per state: long events paired
round after round up to n-1 rounds, heavy drops and draws, a player who has met
everyone, a planted clique of 14 top players who have all met, and a three-player knot
(two players alone on a score who have both met the only player below) under a large
score group. Prints each family's states, worst time and how optimality was proved.
Each state is paired as a request would pair it, with --work-limit (the default of
settings.PAIRING_SYNC_WORK; 0 for none): a state that would need more is counted as
handed to the background job ("deferred", with the time it took to decide), then paired
without a limit and timed again ("background s"), unless its estimate passes
--background-max (the whole-field matching of thousands of players when a rematch is
certain: minutes and gigabytes, left to the job).

--worst-cases times the cases of docs/benchmarks.md "Pairing worst cases", one row
each: events paired through every round up to n-1 (50, 60, 80, 100 players; the worst
round), a player who met everyone (80, 100, 256 and 4,096, even: a rematch is certain), 256 players
near round-robin saturation (rounds 129, 201, 241 and 255 after a round-robin schedule;
rounds 201 and 241 again with player 1 made to have met everyone, so that a rematch is
certain in a sparse field),
a clique of 14 on top in round 15 (256 and 4,096 players), a three-player knot under
a group of 997 and 1,997 (1,000 and 2,000 players), and fields of 4,096 and 4,095 whose
optimum needs rematches: two or three players who met everyone, three who met everyone
but each other, one or three knots of five who met everyone but one helper, and three
closed knots of three (the knots after five rounds with 30% draws and 10% drops). Each state is paired as a request
would (--work-limit: answered, or handed over after "request s") and without a limit as
the background job does ("pairing s" wall, "cpu s": the process's CPU time, which other
jobs on a shared machine disturb less), with its method and cost; for the long events,
the round whose pairing took the most CPU.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.pairing import PairingDeferred, PairingPlayer, pair_round
from tournaments.pairing.simulation import SimulatedSwiss


def simulate(players: int, rounds_before: int, seed: int, draw_rate: float, drop_rate: float):
    swiss = SimulatedSwiss(seed=seed, draw_rate=draw_rate, drop_rate=drop_rate)
    swiss.enter(players)
    for round_index in range(rounds_before):
        if round_index == 1:
            swiss.enter(max(1, players // 200))
        swiss.play_round()
    return swiss.active_players()


def long_event(players: int, seed: int, draw_rate: float, drop_rate: float):
    """Every round of an event paired by the engine up to players - 1 rounds."""
    swiss = SimulatedSwiss(seed=seed, draw_rate=draw_rate, drop_rate=drop_rate)
    swiss.enter(players)
    for round_number in range(1, players):
        active = swiss.active_players()
        if len(active) < 2:
            return
        yield active, round_number
        swiss.play_round()


# settings.PAIRING_SYNC_WORK's default: the work a request may spend pairing a round.
SYNC_WORK = 1_500_000


def one_met_everyone(players: int, seed: int):
    """A field after five rounds where player 1 has met everyone else: in an odd field
    they must sit out to avoid a rematch, in an even field a rematch is certain."""
    simulated = simulate(players, 5, seed, 0.05, 0.0)
    # Exactly `players` (late entries made it more), player 1 among them.
    field = [p for p in simulated if p.id == 1] + [p for p in simulated if p.id != 1]
    field = field[:players]
    everyone = frozenset(p.id for p in field)
    return [
        PairingPlayer(
            p.id, p.points, everyone - {1} if p.id == 1 else p.opponents | {1}, p.byes, p.rank
        )
        for p in field
    ]


def planted_clique(players: int, seed: int, size: int = 14):
    """Round 15: the top size players, alone on the top score, have all met each other."""
    field = simulate(players, 14, seed, 0.05, 0.02)
    top = max(p.points for p in field) + 3
    clique = frozenset(p.id for p in field[:size])
    return [
        PairingPlayer(p.id, top, p.opponents | (clique - {p.id}), p.byes, p.rank)
        if p.id in clique
        else p
        for p in field
    ]


def knot(group: int):
    """A score group of group players (odd) on 6 points over two players alone on 3 who
    have both met the only player on 0."""
    field = [PairingPlayer(pid, 6, frozenset(), 0, pid) for pid in range(1, group + 1)]
    a, b, c = group + 1, group + 2, group + 3
    field += [
        PairingPlayer(a, 3, frozenset({c}), 0, a),
        PairingPlayer(b, 3, frozenset({c}), 0, b),
        PairingPlayer(c, 0, frozenset({a, b}), 0, c),
    ]
    return field


def round_robin(players: int, rounds: int, seed: int):
    """The field after the first rounds of a round-robin schedule (circle method) with
    random results (10% draws): near saturation few pairs have not met."""
    rng = random.Random(seed)
    ids = list(range(1, players + 1))
    met = {pid: set() for pid in ids}
    points = dict.fromkeys(ids, 0)
    circle = ids[:] if players % 2 == 0 else [*ids, None]
    for _ in range(rounds):
        half = len(circle) // 2
        for a, b in zip(circle[:half], reversed(circle[half:]), strict=True):
            if a is None or b is None:
                points[a or b] += 3
                continue
            met[a].add(b)
            met[b].add(a)
            roll = rng.random()
            if roll < 0.1:
                points[a] += 1
                points[b] += 1
            else:
                points[a if roll < 0.55 else b] += 3
        circle = [circle[0], circle[-1], *circle[1:-1]]
    order = sorted(ids, key=lambda pid: (-points[pid], pid))
    rank = {pid: index for index, pid in enumerate(order, start=1)}
    return [PairingPlayer(pid, points[pid], frozenset(met[pid]), 0, rank[pid]) for pid in ids]


def met_everyone(field: list[PairingPlayer], pid: int) -> list[PairingPlayer]:
    """The field with player pid made to have met everyone else."""
    everyone = frozenset(p.id for p in field)
    return [
        PairingPlayer(
            p.id, p.points, everyone - {pid} if p.id == pid else p.opponents | {pid}, p.byes, p.rank
        )
        for p in field
    ]


def several_met_everyone(players: int, count: int, seed: int, rounds: int = 5):
    """A field after some rounds (drops and draws) where players 1..count have each met
    everyone else: rematches are certain, and where they fall depends on the others."""
    simulated = simulate(players, rounds, seed, 0.05, 0.0)
    field = sorted(simulated, key=lambda p: p.id)[:players]
    for pid in range(1, count + 1):
        field = met_everyone(field, pid)
    return field


def planted_knots(
    players: int, knots: int, seed: int, helpers: int = 1, size: int = 5, closed: bool = False
):
    """A field of 4,096 after five rounds with heavy drops and draws (10% and 30%; more
    entered, so that 4,096 remain) and knots planted in the largest score groups: size
    players on the same points who have met everyone but helpers players of their score
    (a Tutte barrier: the knot's players can only be paired through the helpers, so
    size - helpers of them need rematches); closed knots have not met each other (an odd
    knot is a component of its own: one rematch each)."""
    simulated = simulate(players * 17 // 10, 5, seed, 0.3, 0.1)
    field = sorted(simulated, key=lambda p: p.id)[:players]
    field.sort(key=lambda p: (-p.points, p.id))
    everyone = frozenset(p.id for p in field)
    by_points: dict[int, list[PairingPlayer]] = {}
    for p in field:
        by_points.setdefault(p.points, []).append(p)
    groups = sorted((g for g in by_points.values() if len(g) > size + helpers), key=len)
    chosen = groups[-knots:]
    knot_met: dict[int, frozenset] = {}
    for group in chosen:
        knot = [p.id for p in group[:size]]
        spared = {p.id for p in group[size : size + helpers]}
        for pid in knot:
            knot_met[pid] = everyone - spared - (set(knot) if closed else {pid})
    return [
        PairingPlayer(
            p.id,
            p.points,
            knot_met[p.id]
            if p.id in knot_met
            else p.opponents | {k for k, met in knot_met.items() if p.id in met},
            p.byes,
            p.rank,
        )
        for p in field
    ]


def closed_knot(players: int, seed: int, size: int = 3):
    """A field after five rounds whose first size players (odd) have met everyone but
    each other: their knot is a component of its own, so one of them must meet again."""
    field = sorted(simulate(players, 5, seed, 0.05, 0.0), key=lambda p: p.id)[:players]
    knot = set(range(1, size + 1))
    outside = frozenset(p.id for p in field) - knot
    return [
        PairingPlayer(
            p.id, p.points, outside if p.id in knot else p.opponents | knot, p.byes, p.rank
        )
        for p in field
    ]


def worst_case_states(seed: int):
    """(case, players, [(field, round number), ...]) for every case of the issue."""
    for players in (50, 60, 80, 100):
        states = list(long_event(players, seed + players, 0.1, 0.0))
        yield f"long event, rounds 1-{players - 1} (worst)", players, states
    for players in (80, 100, 256, 4096):
        yield "one player met everyone (even)", players, [(one_met_everyone(players, seed), 6)]
    for rounds in (128, 200, 240, 254):
        state = (round_robin(256, rounds, seed + rounds), rounds + 1)
        yield f"round-robin schedule, round {rounds + 1}", 256, [state]
    for rounds in (200, 240):
        field = met_everyone(round_robin(256, rounds, seed + rounds), 1)
        yield f"round {rounds + 1} of those, player 1 met everyone", 256, [(field, rounds + 1)]
    for players in (256, 4096):
        yield "clique of 14 on top, round 15", players, [(planted_clique(players, seed), 15)]
    for group in (997, 1997):
        yield f"knot under a group of {group}", group + 3, [(knot(group), 3)]
    for players in (4096, 4095):
        parity = "even" if players % 2 == 0 else "odd"
        for count in (2, 3):
            field = several_met_everyone(players, count, seed)
            yield f"{count} players met everyone ({parity})", players, [(field, 6)]
    for players in (4096, 4095):
        yield "three met all but each other", players, [(closed_knot(players, seed), 6)]
    for players in (4096, 4095):
        for knots in (1, 3):
            field = planted_knots(players, knots, seed)
            yield f"{knots} knot(s) of 5 held by one player", players, [(field, 6)]
        field = planted_knots(players, 3, seed, helpers=0, size=3, closed=True)
        yield "3 closed knots of 3", players, [(field, 6)]


def worst_cases(seed: int, work_limit: int | None, only: str | None = None) -> None:
    print(
        f"{'case':<42} {'players':>7} {'request s':>16} {'pairing s':>9} {'cpu s':>6}"
        "  method  cost",
        flush=True,
    )
    for case, players, states in worst_case_states(seed):
        if only and only not in f"{case}, {players} players":
            continue
        worst = None
        for field, round_number in states:
            start = time.perf_counter()
            try:
                pair_round(field, round_number, seed, work_limit=work_limit)
                request = f"{time.perf_counter() - start:.3f}"
            except PairingDeferred:
                request = f"deferred, {time.perf_counter() - start:.3f}"
            start, cpu = time.perf_counter(), time.process_time()
            result = pair_round(field, round_number, seed)
            wall, cpu = time.perf_counter() - start, time.process_time() - cpu
            if worst is None or cpu > worst[2]:
                worst = (request, wall, cpu, result, round_number)
        request, wall, cpu, result, round_number = worst
        label = case if len(states) == 1 else f"{case[:-8]} (worst: round {round_number})"
        print(
            f"{label:<42} {players:>7} {request:>16} {wall:>9.3f} {cpu:>6.3f}"
            f"  {result.method}  {result.cost.key()}",
            flush=True,
        )


def adversarial_states(seed: int, long_sizes: list[int]):
    """(family, field, round number) for every state of the sweep."""
    for players in long_sizes:
        for field, round_number in long_event(players, seed + players, 0.1, 0.0):
            yield f"long event, {players} players, rounds 1-{players - 1}", field, round_number
    for players in (64, 128):
        for field, round_number in long_event(players, seed + players, 0.3, 0.15):
            if round_number > 16:
                break
            yield f"drops 15% and draws 30%, {players} players", field, round_number
    for players in (64, 128, 255, 256, 4095, 4096):
        yield f"one player met everyone, {players} players", one_met_everyone(players, seed), 6
    for players in (256, 4096):
        yield f"clique of 14 on top, {players} players", planted_clique(players, seed), 15
    for group in (501, 2001, 4095):
        yield f"knot under a group of {group}", knot(group), 3


def sweep(seed: int, long_sizes: list[int], work_limit: int | None, background_max: int) -> None:
    print(
        f"{'family':<46} {'states':>6} {'worst s':>8} {'deferred':>8} {'background s':>12}"
        "  optimality",
        flush=True,
    )
    rows: dict[str, list] = {}

    def report(family: str) -> None:
        states, worst, deferred, background, methods = rows[family]
        how = ", ".join(f"{name} x{count}" for name, count in sorted(methods.items()))
        later = f"{background:>12.3f}" if background else f"{'-':>12}"
        print(f"{family:<46} {states:>6} {worst:>8.3f} {deferred:>8} {later}  {how}", flush=True)

    for family, field, round_number in adversarial_states(seed, long_sizes):
        if family not in rows:
            if rows:
                report(next(reversed(rows)))
            rows[family] = [0, 0.0, 0, 0.0, Counter()]
        row = rows[family]
        row[0] += 1
        start = time.perf_counter()
        try:
            result = pair_round(field, round_number, seed, work_limit=work_limit)
        except PairingDeferred as deferred:
            row[1] = max(row[1], time.perf_counter() - start)
            row[2] += 1
            if deferred.estimate > background_max:
                # The whole-field matching of a large field: minutes and gigabytes.
                row[4][f"not run (estimate {deferred.estimate:.1e})"] += 1
                continue
            start = time.perf_counter()
            result = pair_round(field, round_number, seed)
            row[3] = max(row[3], time.perf_counter() - start)
        else:
            row[1] = max(row[1], time.perf_counter() - start)
        row[4][result.method] += 1
    if rows:
        report(next(reversed(rows)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[512, 4096, 16384])
    parser.add_argument("--round", type=int, default=8, help="round to pair and time")
    parser.add_argument("--tournaments", type=int, default=3, help="simulated events per size")
    parser.add_argument("--runs", type=int, default=3, help="timed runs per event (best kept)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--draw-rate", type=float, default=0.05)
    parser.add_argument("--drop-rate", type=float, default=0.02)
    parser.add_argument("--adversarial", action="store_true", help="time the worst cases")
    parser.add_argument(
        "--worst-cases", action="store_true", help="time the worst cases (docs/benchmarks.md)"
    )
    parser.add_argument(
        "--only", help="--worst-cases: only the cases whose name contains this text"
    )
    parser.add_argument(
        "--long-sizes",
        type=int,
        nargs="+",
        default=[8, 16, 24, 32],
        help="--adversarial: fields paired round after round up to n-1 rounds",
    )
    parser.add_argument(
        "--work-limit",
        type=int,
        default=SYNC_WORK,
        help="--adversarial: a request's work limit (0: none); rounds over it are deferred",
    )
    parser.add_argument(
        "--background-max",
        type=int,
        default=10**9,
        help="--adversarial: deferred states estimated above this are not paired",
    )
    args = parser.parse_args()
    if args.worst_cases:
        worst_cases(args.seed, args.work_limit or None, args.only)
        return
    if args.adversarial:
        sweep(args.seed, args.long_sizes, args.work_limit or None, args.background_max)
        return

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
