"""Time the Swiss standings on a simulated tournament.

Usage: python bench/standings.py [--players 4096] [--rounds 12] [--runs 7] [--seed 1]
       python bench/standings.py --view [--sizes 4096x12,16384x15] [--runs 7] [--rebuild]

Generates a Swiss tournament (players paired within point groups, random results
including draws and intentional draws, a bye for the odd player, a few drops per
round), which is not timed, then prints the best wall time of several runs of
compute_standings. Goal: 4,096 players after 12 rounds in under 100 ms.

``--view`` measures through the views instead: each size is written once to its own
PostgreSQL database (irondie_standings_bench, bulk inserts, not timed; kept for later
runs, ``--rebuild`` writes it again) and the standings page, the API answer, the CSV
and one row's explanation (page and API) are requested in-process through Django's
test client, anonymously with the standings public, DEBUG off: server time from the
request to the full response, best, median and 95th percentile (nearest rank) of
``--runs``, the best CPU time of this process (the figure a busy machine disturbs
least; the database's time is not in it), and the number of queries of one request. ``--quick`` skips ``?explain=1``. Goals: the page for 4,096 x 12 under 150 ms, 16,384 x 15 under
600 ms, with a number of queries that does not grow with the event.
"""

from __future__ import annotations

import argparse
import datetime
import math
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.standings import MatchRecord, PlayerEntry, compute_standings

# (games won by A, games won by B, drawn games, weight)
GAME_RESULTS = [
    (2, 0, 0, 30),
    (2, 1, 0, 20),
    (1, 2, 0, 20),
    (0, 2, 0, 30),
    (1, 0, 0, 4),
    (0, 1, 0, 4),
    (1, 1, 0, 3),
    (1, 1, 1, 2),
    (0, 0, 3, 2),
]
DROP_RATE_PER_ROUND = 0.02


def simulate(
    player_count: int, rounds: int, seed: int
) -> tuple[list[PlayerEntry], list[MatchRecord]]:
    rng = random.Random(seed)
    results = [r[:3] for r in GAME_RESULTS]
    weights = [r[3] for r in GAME_RESULTS]
    points = dict.fromkeys(range(1, player_count + 1), 0)
    active = list(points)
    dropped: set[int] = set()
    records: list[MatchRecord] = []
    for round_number in range(1, rounds + 1):
        # Pair within point groups: sort by points with a random tie order.
        order = sorted(active, key=lambda p: (-points[p], rng.random()))
        if len(order) % 2:
            bye_player = order.pop()
            records.append(MatchRecord.bye(round_number, bye_player))
            points[bye_player] += 3
        outcomes = rng.choices(results, weights, k=len(order) // 2)
        for (won_a, won_b, drawn), a, b in zip(outcomes, order[::2], order[1::2], strict=True):
            records.append(MatchRecord(round_number, a, b, won_a, won_b, drawn))
            if won_a > won_b:
                points[a] += 3
            elif won_b > won_a:
                points[b] += 3
            else:
                points[a] += 1
                points[b] += 1
        if round_number >= 3:
            leaving = {p for p in active if rng.random() < DROP_RATE_PER_ROUND}
            dropped |= leaving
            active = [p for p in active if p not in leaving]
    players = [PlayerEntry(p, f"Player {p}", dropped=p in dropped) for p in points]
    return players, records


# --- through the views -----------------------------------------------------------------

DATABASE = "irondie_standings_bench"


def setup_django() -> None:
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{DATABASE}",
        DEBUG="0",
        LOG_LEVEL="WARNING",
    )
    # The cache and the broker are not used by these reads; keep them in memory.
    os.environ.pop("REDIS_URL", None)
    import psycopg

    with psycopg.connect("host=127.0.0.1 user=postgres dbname=postgres", autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [DATABASE]).fetchone()
        if not exists:
            conn.execute(f"CREATE DATABASE {DATABASE}")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def build_tournament(players: int, rounds: int, seed: int, *, rebuild: bool):
    """The simulated event in the database (bulk inserts); reused when already there."""
    from django.contrib.auth.models import User
    from django.db import connection, transaction

    from players.models import Player
    from tournaments.models import Match, Registration, Round, Tournament

    name = f"Standings bench {players}x{rounds} seed {seed}"
    existing = Tournament.objects.filter(name=name).first()
    if existing is not None and not rebuild:
        return existing
    entries, records = simulate(players, rounds, seed)
    with transaction.atomic():
        if existing is not None:
            Match.objects.filter(round__tournament=existing).delete()
            Round.objects.filter(tournament=existing).delete()
            registrations = Registration.objects.filter(tournament=existing)
            player_ids = list(registrations.values_list("player_id", flat=True))
            registrations.delete()
            Player.objects.filter(pk__in=player_ids).delete()
            existing.delete()
        organiser, _ = User.objects.get_or_create(username="standings-bench")
        tournament = Tournament.objects.create(
            name=name,
            date=datetime.date(2026, 12, 1),
            organiser=organiser,
            status=Tournament.Status.SWISS,
            swiss_rounds=rounds,
        )
        people = Player.objects.bulk_create(
            (Player(display_name=entry.name) for entry in entries), batch_size=2000
        )
        registrations = Registration.objects.bulk_create(
            (
                Registration(
                    tournament=tournament,
                    player=person,
                    playing_dice=[],
                    dropped=entry.dropped,
                    checked_in=True,
                )
                for person, entry in zip(people, entries, strict=True)
            ),
            batch_size=2000,
        )
        registration_of = {
            entry.player_id: registration.pk
            for entry, registration in zip(entries, registrations, strict=True)
        }
        round_ids = {
            number: Round.objects.create(
                tournament=tournament,
                number=number,
                status=Round.Status.CLOSED,
                pairing_seed="bench",
            ).pk
            for number in range(1, rounds + 1)
        }
        tables: dict[int, int] = {}
        matches = []
        for record in records:
            bye = record.player_b is None
            table = None
            if not bye:
                table = tables[record.round_number] = tables.get(record.round_number, 0) + 1
            matches.append(
                Match(
                    round_id=round_ids[record.round_number],
                    table=table,
                    player_a_id=registration_of[record.player_a],
                    player_b_id=None if bye else registration_of[record.player_b],
                    status=Match.Status.CONFIRMED,
                    games_a=record.games_won_a,
                    games_b=record.games_won_b,
                    games_drawn=record.games_drawn,
                )
            )
        Match.objects.bulk_create(matches, batch_size=5000)
    # What autovacuum does soon after such an insert: without statistics the planner
    # takes the new tables for empty.
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    return tournament


def time_requests(client, url: str, runs: int) -> tuple[list[float], list[float], int, int]:
    """Wall and CPU times of ``runs`` GETs of ``url``, the queries of one, its body size."""
    from django.db import connection

    queries = []

    def count(execute, sql, params, many, context):
        queries.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    size = len(response.content)
    timings, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        response = client.get(url)
        _ = response.content
        timings.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return timings, cpu, len(queries), size


def p95(timings: list[float]) -> float:
    """The 95th percentile by nearest rank: of 20 runs the 19th best, of 7 the slowest."""
    ordered = sorted(timings)
    return ordered[math.ceil(0.95 * len(ordered)) - 1]


def figures(timings: list[float], cpu: list[float]) -> str:
    return (
        f"best {min(timings) * 1000:7.1f} ms, median {statistics.median(timings) * 1000:7.1f} ms,"
        f" p95 {p95(timings) * 1000:7.1f} ms (CPU best {min(cpu) * 1000:7.1f} ms)"
    )


def bench_views(
    sizes: list[tuple[int, int]], runs: int, seed: int, rebuild: bool, quick: bool
) -> None:
    setup_django()
    from django.test import Client

    from config.gcpause import collection_paused
    from tournaments import selectors
    from tournaments.models import Registration

    client = Client()
    for players, rounds in sizes:
        start = time.perf_counter()
        tournament = build_tournament(players, rounds, seed, rebuild=rebuild)
        built = time.perf_counter() - start
        some = (
            Registration.objects.filter(tournament=tournament)
            .order_by("pk")
            .values_list("pk", flat=True)[players // 2]
        )
        print(
            f"{players} players x {rounds} rounds (tournament {tournament.pk}, "
            f"ready in {built:.1f} s)"
        )
        # For scale on a machine of unknown speed: the pure computation alone, and the
        # selector (three queries, then the computation), in this process, now, with
        # Python's cyclic garbage collector paused as the standings views pause it
        # (config/gcpause.py): with it running, its collections grow with everything
        # alive and make these figures grow faster than the event.
        entries, records = simulate(players, rounds, seed)
        for label, work, argument in (
            ("compute_standings", compute_standings, (entries, records)),
            ("selectors.standings", selectors.standings, (tournament,)),
        ):
            timings, cpu = [], []
            for _ in range(runs):
                with collection_paused():
                    start, start_cpu = time.perf_counter(), time.process_time()
                    work(*argument)
                    timings.append(time.perf_counter() - start)
                    cpu.append(time.process_time() - start_cpu)
            print(f"  {label:20} {figures(timings, cpu)}")
        pages = [
            ("page", f"/tournaments/{tournament.pk}/standings/"),
            ("API", f"/api/tournaments/{tournament.pk}/standings/"),
            ("API ?explain=1", f"/api/tournaments/{tournament.pk}/standings/?explain=1"),
            ("CSV", f"/tournaments/{tournament.pk}/standings.csv"),
            ("row page", f"/tournaments/{tournament.pk}/standings/{some}/"),
            ("row API", f"/api/tournaments/{tournament.pk}/standings/{some}/"),
        ]
        for label, url in pages:
            if quick and "explain" in url:
                continue
            try:
                timings, cpu, queries, size = time_requests(client, url, runs)
            except AssertionError as error:
                print(f"  {label:20} {url}: {error}")
                continue
            print(
                f"  {label:20} {figures(timings, cpu)}, {queries} queries, {size / 1024:,.0f} KiB"
            )


def parse_sizes(text: str) -> list[tuple[int, int]]:
    sizes = []
    for part in text.split(","):
        players, _, rounds = part.partition("x")
        sizes.append((int(players), int(rounds)))
    return sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4096)
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--view", action="store_true", help="time the pages and the API")
    parser.add_argument("--sizes", default="4096x12,16384x15", help="with --view")
    parser.add_argument(
        "--rebuild", action="store_true", help="with --view: write the events again"
    )
    parser.add_argument(
        "--quick", action="store_true", help="with --view: skip ?explain=1 (every row explained)"
    )
    args = parser.parse_args()

    if args.view:
        bench_views(parse_sizes(args.sizes), args.runs, args.seed, args.rebuild, args.quick)
        return
    players, records = simulate(args.players, args.rounds, args.seed)
    timings = []
    for _ in range(args.runs):
        start = time.perf_counter()
        standings = compute_standings(players, records)
        timings.append(time.perf_counter() - start)
    dropped = sum(row.dropped for row in standings.rows)
    leader = standings.rows[0]
    print(
        f"{args.players} players, {args.rounds} rounds, {len(records)} match records, "
        f"{dropped} dropped"
    )
    print(f"leader: {leader.name} {leader.record} {leader.match_points} points")
    print(
        f"compute_standings: best {min(timings) * 1000:.1f} ms, "
        f"median {sorted(timings)[len(timings) // 2] * 1000:.1f} ms over {args.runs} runs"
    )


if __name__ == "__main__":
    main()
