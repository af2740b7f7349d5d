"""Online play under load: many concurrent games of bots playing through the HTTP API.

Run (PostgreSQL and Redis on 127.0.0.1):
    .venv/bin/python bench/play_load.py [--games 200] [--think 1.0] [--seconds 60]

It builds a started round with ``--games`` matches between users with API tokens in its
own database (irondie_play_bench), starts gunicorn on a free port, and plays every match
online at once: each game has one client thread that acts for both players the way a bot
program would (GET the game, pick from its legal actions, POST the action with the
state version it saw), waiting ``--think`` seconds between a player's decisions. It
prints actions per second, the latency of action submissions and of all requests
(median, p95, max) and the number of errors (any non-2xx answer or failed request).
"""

import argparse
import datetime
import http.client
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATABASE = "irondie_play_bench"
DATABASE_URL = f"postgres://postgres@127.0.0.1:5432/{DATABASE}"
BROKER_URL = "redis://127.0.0.1:6379/11"


def setup_django():
    sys.path.insert(0, str(ROOT))
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=DATABASE_URL,
        CELERY_BROKER_URL=BROKER_URL,
        LOG_LEVEL="WARNING",
    )
    import django

    django.setup()


def create_database():
    import psycopg

    with psycopg.connect("host=127.0.0.1 user=postgres dbname=postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DATABASE}")
        conn.execute(f"CREATE DATABASE {DATABASE}")


def build_round(games: int) -> list[tuple[int, str, str]]:
    """A started round with ``games`` matches; returns (match id, token A, token B)."""
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from rest_framework.authtoken.models import Token

    from config.dbtime import db_now
    from players.demo import random_valid_set
    from players.models import Player
    from tournaments.models import Match, Registration, Round, Tournament

    call_command("migrate", verbosity=0)
    rng = random.Random(1)
    organiser = User.objects.create(username="bench-organiser")
    tournament = Tournament.objects.create(
        name="Play bench",
        date=datetime.date.today(),
        organiser=organiser,
        status=Tournament.Status.SWISS,
        swiss_rounds=1,
    )
    users = User.objects.bulk_create(User(username=f"bench{i}") for i in range(games * 2))
    tokens = Token.objects.bulk_create(Token(user=u, key=Token.generate_key()) for u in users)
    players = Player.objects.bulk_create(
        Player(display_name=f"P{i}", player_number=str(6_000_000_000 + i), user=u)
        for i, u in enumerate(users)
    )
    registrations = Registration.objects.bulk_create(
        Registration(
            tournament=tournament,
            player=p,
            playing_dice=[d.to_dict() for d in random_valid_set(rng)],
            additional_dice=[],
        )
        for p in players
    )
    now = db_now()
    round_ = Round.objects.create(
        tournament=tournament,
        number=1,
        status=Round.Status.IN_PROGRESS,
        pairing_seed="bench",
        started_at=now,
        ends_at=now + datetime.timedelta(hours=2),
    )
    matches = Match.objects.bulk_create(
        Match(
            round=round_,
            table=i + 1,
            player_a=registrations[2 * i],
            player_b=registrations[2 * i + 1],
            deadline_at=now + datetime.timedelta(hours=2),
        )
        for i in range(games)
    )
    return [(m.pk, tokens[2 * i].key, tokens[2 * i + 1].key) for i, m in enumerate(matches)]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_gunicorn(port: int, workers: int, threads: int, var_dir: str):
    env = dict(os.environ, VAR_DIR=var_dir)
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi",
            "-b",
            f"127.0.0.1:{port}",
            "-k",
            "gthread",
            "-w",
            str(workers),
            "--threads",
            str(threads),
            "--keep-alive",
            "30",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )
    for _ in range(100):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return process
        except OSError:
            time.sleep(0.1)
    raise SystemExit("gunicorn did not start")


class Client:
    """One keep-alive HTTP connection with a token, recording every request's latency."""

    def __init__(self, port, token, stats):
        self.port, self.token, self.stats = port, token, stats
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def request(self, method, path, body=None, kind="read"):
        headers = {"Authorization": f"Token {self.token}", "Accept": "application/json"}
        payload = None
        if body is not None:
            payload = json.dumps(body)
            headers["Content-Type"] = "application/json"
        started = time.perf_counter()
        try:
            self.conn.request(method, path, payload, headers)
            response = self.conn.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException) as exc:
            self.conn.close()
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            self.stats.record(kind, time.perf_counter() - started, f"{type(exc).__name__}")
            return None
        self.stats.record(kind, time.perf_counter() - started, response.status)
        if response.status >= 300:
            return None
        return json.loads(data)


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.latency = {"action": [], "read": []}
        self.errors = []
        self.games_finished = 0

    def record(self, kind, seconds, status):
        with self.lock:
            self.latency[kind].append(seconds)
            if not (isinstance(status, int) and status < 300):
                self.errors.append((kind, status))


def play_match(port, match_id, tokens, think, stop_at, stats, seed):
    from games.engines.irondie.bots import HeuristicBot, RandomBot

    clients = [Client(port, t, stats) for t in tokens]
    bots = [HeuristicBot(seed=seed), RandomBot(seed=seed)]
    game = clients[0].request("POST", "/api/games/", {"match": match_id}, kind="action")
    if game is None:
        return
    game_id = game["id"]
    while time.monotonic() < stop_at:
        if game["status"] == "waiting":
            for client in clients:
                client.request("POST", f"/api/games/{game_id}/ready/", {}, kind="action")
        moved = False
        for seat, client in enumerate(clients):
            state = client.request("GET", f"/api/games/{game_id}/")
            if state is None:
                continue
            game = state
            if state["status"] in ("finished", "cancelled"):
                if state["next_game"] is None:
                    with stats.lock:
                        stats.games_finished += 1
                    return
                with stats.lock:
                    stats.games_finished += 1
                game_id = state["next_game"]
                game = client.request("GET", f"/api/games/{game_id}/") or state
                break
            legal = state["legal_actions"]
            if not legal:
                continue
            bot = bots[seat]
            if isinstance(bot, HeuristicBot):
                action = bot.decide(state["view"], legal, seat)
            else:
                action = bot.rng.choice(legal)
            time.sleep(think * random.uniform(0.5, 1.5))
            client.request(
                "POST",
                f"/api/games/{game_id}/actions/",
                {"action": action, "expected_version": state["version"]},
                kind="action",
            )
            moved = True
        if not moved:
            time.sleep(0.2)


def percentile(values, p):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--think", type=float, default=1.0, help="seconds per decision")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--threads", type=int, default=8)
    args = parser.parse_args()

    create_database()
    setup_django()
    pairs = build_round(args.games)
    port = free_port()
    with tempfile.TemporaryDirectory() as var_dir:
        server = start_gunicorn(port, args.workers, args.threads, var_dir)
        stats = Stats()
        try:
            stop_at = time.monotonic() + args.seconds
            started = time.perf_counter()
            threads = [
                threading.Thread(
                    target=play_match,
                    args=(port, match_id, (a, b), args.think, stop_at, stats, i),
                    daemon=True,
                )
                for i, (match_id, a, b) in enumerate(pairs)
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=args.seconds + 60)
            elapsed = time.perf_counter() - started
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=20)
    from django.db.models import Count

    from games.models import GameAction, GameSession
    from tournaments.models import Match

    actions = stats.latency["action"]
    reads = stats.latency["read"]
    everything = actions + reads
    print(
        f"games: {args.games} concurrent, think {args.think} s, {elapsed:.1f} s, "
        f"gunicorn gthread {args.workers}x{args.threads}"
    )
    print(
        f"action submissions: {len(actions)} ({len(actions) / elapsed:.1f}/s); "
        f"all requests: {len(everything)} ({len(everything) / elapsed:.1f}/s)"
    )
    for name, values in (("actions", actions), ("all requests", everything)):
        print(
            f"latency {name}: median {statistics.median(values) * 1000:.1f} ms, "
            f"p95 {percentile(values, 95) * 1000:.1f} ms, max {max(values) * 1000:.1f} ms"
        )
    print(f"errors: {len(stats.errors)}" + (f" {stats.errors[:10]}" if stats.errors else ""))
    logged = GameAction.objects.count()
    sessions = GameSession.objects.aggregate(n=Count("id"))["n"]
    print(
        f"games finished: {stats.games_finished}; sessions: {sessions}; logged actions: {logged}; "
        f"matches confirmed: {Match.objects.filter(status='confirmed').count()}"
    )


if __name__ == "__main__":
    main()
