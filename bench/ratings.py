"""Time the ratings on a simulated event: 4,096 players x 12 Swiss rounds.

Usage: python bench/ratings.py [--players 4096] [--rounds 12] [--runs 5] [--seed 1] [--db]

Pure (always): the best wall time of several replays of the whole history
(tournaments.ratings.replay: 24,576 matches at the defaults), then of as many 2 v 2 team
matches and as many pod tables of 4.

--db (PostgreSQL on 127.0.0.1, its own database irondie_bench_ratings, dropped and
created): the event is written in bulk (not timed) as confirmed matches without ratings,
then it times, through tournaments/services/ratings.py,
  - recompute_ratings() building the history from nothing (every row added, replayed);
  - recompute_ratings() again (the check: nothing to change);
  - one new confirmation appended after the last round (what every result costs);
  - a judge's correction of a round-1 match that changes its winner (the worst case:
    the replay reaches most of the field).
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tournaments.ratings import (  # noqa: E402
    DRAW,
    PLACES,
    WIN_A,
    WIN_B,
    RatedOccasion,
    replay,
)

DATABASE_URL = "postgres://postgres@127.0.0.1:5432/irondie_bench_ratings"
# (games of the confirmed result, outcome, weight): wins 2-0 / 2-1, draws, intentional draws
RESULTS = [
    (["a", "a"], WIN_A, 30),
    (["a", "b", "a"], WIN_A, 20),
    (["b", "a", "b"], WIN_B, 20),
    (["b", "b"], WIN_B, 30),
    (["a", "b", "draw"], DRAW, 4),
    ([], None, 2),  # intentional draw: not rated
]


def simulate(players: int, rounds: int, seed: int) -> list[tuple[int, int, int, list, str | None]]:
    """(round, player a, player b, games, outcome): paired within point groups."""
    rng = random.Random(seed)
    weights = [r[2] for r in RESULTS]
    points = dict.fromkeys(range(players), 0)
    history = []
    for number in range(1, rounds + 1):
        order = sorted(points, key=lambda p: (-points[p], rng.random()))
        for a, b in zip(order[::2], order[1::2], strict=False):
            games, outcome, _ = rng.choices(RESULTS, weights)[0]
            history.append((number, a, b, games, outcome))
            if outcome == WIN_A:
                points[a] += 3
            elif outcome == WIN_B:
                points[b] += 3
            else:
                points[a] += 1
                points[b] += 1
    return history


def best_of(runs: int, call) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return min(times)


def bench_pure(history, runs: int, players: int, seed: int) -> None:
    matches = [
        RatedOccasion("irondie", ((a,), (b,)), PLACES[outcome]) for _n, a, b, _g, outcome in history
    ]
    seconds = best_of(runs, lambda: replay(matches))
    print(
        f"pure replay: {len(matches):,} matches in {seconds * 1000:.0f} ms "
        f"({seconds / len(matches) * 1e6:.1f} us a match), best of {runs}"
    )
    # The same number of 2 v 2 team matches and of pod tables of 4 (places drawn, a
    # tenth of the tables with a shared place), among the same number of players.
    rng = random.Random(seed)
    teams, tables = [], []
    for _ in range(len(matches)):
        four = rng.sample(range(players), 4)
        teams.append(RatedOccasion("irondie", (tuple(four[:2]), tuple(four[2:])), (1, 2)))
        places = (1, 2, 2, 4) if rng.random() < 0.1 else tuple(rng.sample(range(1, 5), 4))
        tables.append(RatedOccasion("36d6", tuple((p,) for p in four), places))
    for label, occasions in (("2 v 2 team matches", teams), ("pod tables of 4", tables)):
        seconds = best_of(runs, lambda occasions=occasions: replay(occasions))
        print(
            f"pure replay: {len(occasions):,} {label} in {seconds * 1000:.0f} ms "
            f"({seconds / len(occasions) * 1e6:.1f} us each), best of {runs}"
        )


def bench_db(history, players: int, rounds: int) -> None:
    import psycopg

    with psycopg.connect("host=127.0.0.1 user=postgres dbname=postgres", autocommit=True) as conn:
        conn.execute("DROP DATABASE IF EXISTS irondie_bench_ratings")
        conn.execute("CREATE DATABASE irondie_bench_ratings")
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings", DATABASE_URL=DATABASE_URL, LOG_LEVEL="WARNING"
    )
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import transaction

    from config.dbtime import db_now
    from players.models import Player
    from tournaments.models import Match, Registration, ResultSubmission, Round, Tournament
    from tournaments.services.ratings import recompute_ratings, record_match_rating

    call_command("migrate", verbosity=0)
    organiser = User.objects.create(username="bench-organiser")
    tournament = Tournament.objects.create(
        name="Ratings bench",
        date=datetime.date.today(),
        organiser=organiser,
        status=Tournament.Status.SWISS,
        swiss_rounds=rounds,
    )
    people = Player.objects.bulk_create(
        Player(display_name=f"P{i}", player_number=str(5_000_000_000 + i)) for i in range(players)
    )
    registrations = Registration.objects.bulk_create(
        Registration(tournament=tournament, player=p, playing_dice=[], additional_dice=[])
        for p in people
    )
    round_rows = {
        n: Round.objects.create(
            tournament=tournament, number=n, status=Round.Status.CLOSED, pairing_seed="b"
        )
        for n in range(1, rounds + 1)
    }
    tables: dict[int, int] = {}
    matches = []
    for number, a, b, games, outcome in history:
        tables[number] = tables.get(number, 0) + 1
        winner = {WIN_A: registrations[a], WIN_B: registrations[b]}.get(outcome)
        matches.append(
            Match(
                round=round_rows[number],
                table=tables[number],
                player_a=registrations[a],
                player_b=registrations[b],
                status=Match.Status.CONFIRMED,
                games_a=games.count("a"),
                games_b=games.count("b"),
                games_drawn=games.count("draw"),
                winner=winner,
            )
        )
    Match.objects.bulk_create(matches, batch_size=5000)
    now = db_now()
    ResultSubmission.objects.bulk_create(
        (
            ResultSubmission(
                match=match,
                number=1,
                source=ResultSubmission.Source.JUDGE,
                games=games,
                intentional_draw=not games,
                status=ResultSubmission.Status.CONFIRMED,
                confirmed_at=now,
            )
            for match, (_n, _a, _b, games, _o) in zip(matches, history, strict=True)
        ),
        batch_size=5000,
    )

    def timed(label, call):
        start = time.perf_counter()
        answer = call()
        print(f"{label}: {(time.perf_counter() - start) * 1000:.0f} ms {answer or ''}")

    timed("recompute_ratings from nothing", recompute_ratings)
    timed("recompute_ratings again (nothing to change)", recompute_ratings)

    # One more confirmed result after the last round (the incremental path).
    extra_round = Round.objects.create(
        tournament=tournament, number=rounds + 1, status=Round.Status.IN_PROGRESS, pairing_seed="b"
    )
    extra = Match.objects.create(
        round=extra_round,
        table=1,
        player_a=registrations[0],
        player_b=registrations[1],
        status=Match.Status.CONFIRMED,
        games_a=2,
        winner=registrations[0],
    )
    extra = Match.objects.select_related("player_a", "player_b").get(pk=extra.pk)

    def append():
        with transaction.atomic():
            record_match_rating(extra, games_played=2, intentional_draw=False)

    timed("one confirmation appended", append)

    # A correction of round 1, table 1 that gives the match to the other player.
    first = Match.objects.select_related("player_a", "player_b").get(round=round_rows[1], table=1)
    games = ["b", "b"] if first.winner_id == first.player_a_id else ["a", "a"]
    first.winner_id = first.player_b_id if games[0] == "b" else first.player_a_id
    first.save(update_fields=["winner"])

    def correct():
        with transaction.atomic():
            record_match_rating(first, games_played=2, intentional_draw=False)

    timed("correction of a round-1 result (replay of the later history)", correct)
    timed("recompute_ratings after it (nothing to change)", recompute_ratings)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4096)
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", action="store_true")
    args = parser.parse_args()
    history = simulate(args.players, args.rounds, args.seed)
    bench_pure(history, args.runs, args.players, args.seed)
    if args.db:
        bench_db(history, args.players, args.rounds)


if __name__ == "__main__":
    main()
