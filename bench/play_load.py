"""Online play under load: many concurrent games of bots playing through the HTTP API.

Run (PostgreSQL and Redis on 127.0.0.1):
    .venv/bin/python bench/play_load.py [--games 200] [--think 2.5] [--seconds 60]

It builds a started round with ``--games`` matches between users with API tokens in its
own database (irondie_play_bench), starts gunicorn on a free port (``--worker-class
sync``, ``--workers 6`` by default, DEBUG off, warmed up with a few reads), and plays
every match online, the matches opened uniformly over ``--ramp`` seconds (20). Sync
workers close the connection after each answer and the client reconnects. Each player is a bot program of its own with one keep-alive connection,
the way a client of the API works: it reads the game, and when it has a decision it
thinks ``--think`` seconds on average (uniformly 0.5x to 1.5x), picks one of its legal
actions (``games.selectors.legal_choices``: the list, or every subset of the hand during
a split) and POSTs it with the state version it saw, taking the answer as its new state;
with nothing to decide it asks ``poll/`` every ``--poll`` seconds and reads the game
again when the version or status changed. All players run as coroutines on one event
loop in this process (a few percent of one core), optionally at a lower priority
(``--client-nice``), so the client does not take the server's CPU.

It prints actions per second, the latency of action submissions, game reads, polls and
all requests as the client saw them (median, p95, max), the same percentiles as
gunicorn measured them (its access log: from the request read to the answer written),
and the number of errors (any non-2xx answer or failed request).
"""

import argparse
import asyncio
import datetime
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
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


def start_gunicorn(port: int, args, var_dir: str, access_log: Path):
    # As in production: DEBUG off (no query recording, no debug pages).
    env = dict(os.environ, VAR_DIR=var_dir, DEBUG="0", SECRET_KEY="play-bench-only")
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi",
            "-b",
            f"127.0.0.1:{port}",
            "-k",
            args.worker_class,
            "-w",
            str(args.workers),
            "--threads",
            str(args.threads),
            "--keep-alive",
            "30",
            "--backlog",
            "2048",
            "--log-level",
            "warning",
            "--access-logfile",
            str(access_log),
            "--access-logformat",
            "%(D)s %(m)s %(U)s",
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


class Stats:
    def __init__(self):
        self.latency = {"action": [], "state": [], "poll": []}
        self.errors = []
        self.games_finished = 0
        self.timeline = []  # (monotonic time the answer arrived, latency)
        self.started = time.monotonic()

    def record(self, kind, seconds, status):
        self.latency[kind].append(seconds)
        self.timeline.append((time.monotonic(), seconds))
        if not (isinstance(status, int) and status < 300):
            self.errors.append((kind, status))


class Connection:
    """One keep-alive HTTP/1.1 connection of one player (asyncio streams), timing every
    request from the first byte sent to the last byte of the answer read."""

    def __init__(self, port, token, stats):
        self.port, self.stats = port, stats
        self.auth = f"Authorization: Token {token}\r\n"
        self.reader = self.writer = None

    async def close(self):
        if self.writer is not None:
            self.writer.close()
            self.reader = self.writer = None

    async def _exchange(self, head: bytes, payload: bytes):
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        self.writer.write(head + payload)
        await self.writer.drain()
        status_line = await self.reader.readline()
        if not status_line:
            raise ConnectionResetError("closed by the server")
        status = int(status_line.split()[1])
        length, close = 0, False
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b"\n", b""):
                break
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"connection" and value.strip().lower() == b"close":
                close = True
        body = await self.reader.readexactly(length) if length else b""
        if close:
            await self.close()
        return status, body

    async def request(self, method, path, body=None, kind="state"):
        payload = json.dumps(body).encode() if body is not None else b""
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{self.auth}"
            f"Accept: application/json\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(payload)}\r\n\r\n"
        ).encode()
        for attempt in (0, 1):
            reused = self.writer is not None
            started = time.perf_counter()
            try:
                status, data = await self._exchange(head, payload)
                break
            except (OSError, asyncio.IncompleteReadError, ValueError, IndexError) as exc:
                await self.close()
                if reused and attempt == 0:
                    continue  # an idle keep-alive connection the server had closed: retry
                self.stats.record(kind, time.perf_counter() - started, type(exc).__name__)
                return None
        self.stats.record(kind, time.perf_counter() - started, status)
        if status >= 300:
            return None
        return json.loads(data)


async def play_seat(conn, seat, game_id, bot, think, poll, stop_at, stats):
    """One player: read, decide (thinking), submit; poll while the other one decides."""
    from games.engines.irondie.bots import HeuristicBot
    from games.selectors import legal_choices

    rng = random.Random(f"{game_id}-{seat}")
    state = await conn.request("GET", f"/api/games/{game_id}/")
    while time.monotonic() < stop_at:
        if state is None:
            await asyncio.sleep(poll)
            state = await conn.request("GET", f"/api/games/{game_id}/")
            continue
        if state["status"] in ("finished", "cancelled"):
            if seat == 0:
                stats.games_finished += 1
            if state["next_game"] is None:
                return
            game_id = state["next_game"]
            state = await conn.request("GET", f"/api/games/{game_id}/")
            continue
        if state["status"] == "waiting" and seat not in state["ready"]:
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            state = await conn.request("POST", f"/api/games/{game_id}/ready/", {}, "action")
            continue
        legal = legal_choices(state) if state["status"] == "active" else []
        if legal:
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            if isinstance(bot, HeuristicBot):
                action = bot.decide(state["view"], legal, seat)
            else:
                action = bot.rng.choice(legal)
            state = await conn.request(
                "POST",
                f"/api/games/{game_id}/actions/",
                {"action": action, "expected_version": state["version"]},
                "action",
            )
            continue
        await asyncio.sleep(poll * rng.uniform(0.8, 1.2))
        news = await conn.request("GET", f"/api/games/{game_id}/poll/", kind="poll")
        if news is not None and (
            news["version"] != state["version"] or news["status"] != state["status"]
        ):
            state = await conn.request("GET", f"/api/games/{game_id}/")


async def play_match(port, match_id, tokens, think, poll, ramp, stop_at, stats, seed):
    from games.engines.irondie.bots import HeuristicBot, RandomBot

    await asyncio.sleep(random.Random(seed).uniform(0, ramp))  # players arrive over the ramp
    conns = [Connection(port, t, stats) for t in tokens]
    game = await conns[0].request("POST", "/api/games/", {"match": match_id}, "action")
    if game is None:
        return
    bots = [HeuristicBot(seed=seed), RandomBot(seed=seed)]
    await asyncio.gather(
        *(
            play_seat(conns[seat], seat, game["id"], bots[seat], think, poll, stop_at, stats)
            for seat in (0, 1)
        )
    )
    for conn in conns:
        await conn.close()


async def warm_up(port, token, workers):
    """A few rounds of concurrent reads, so every worker has imported and connected
    before the clock starts (a server that has been up a while)."""
    for _ in range(3):
        conns = [Connection(port, token, Stats()) for _ in range(workers)]
        await asyncio.gather(*(c.request("GET", "/api/games/?limit=1") for c in conns))
        for conn in conns:
            await conn.close()


async def play_all(port, pairs, args, stats):
    await warm_up(port, pairs[0][1], args.workers * args.threads * 2)
    stop_at = time.monotonic() + args.seconds
    stats.started = time.monotonic()
    await asyncio.gather(
        *(
            play_match(port, match_id, (a, b), args.think, args.poll, args.ramp, stop_at, stats, i)
            for i, (match_id, a, b) in enumerate(pairs)
        )
    )


def machine_busy() -> tuple[float, float]:
    """(busy, total) CPU time of the whole machine so far (Linux /proc/stat)."""
    try:
        fields = [float(x) for x in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    except OSError:
        return 0.0, 0.0
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    return sum(fields) - idle, sum(fields)


def process_cpu(match) -> float:
    """CPU seconds used so far by the live processes whose command line contains
    ``match`` (the gunicorn workers, the PostgreSQL backends of the bench database)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            if match not in (proc / "cmdline").read_bytes().decode(errors="replace"):
                continue
            fields = (proc / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


def percentile(values, p):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def server_latency(access_log: Path) -> dict:
    """Request times from gunicorn's access log (microseconds), by the bench's kinds."""
    kinds = {"action": [], "state": [], "poll": []}
    for line in access_log.read_text().splitlines():
        micros, method, path = line.split(" ", 2)
        if method == "POST":
            kind = "action"
        elif path.endswith("/poll/"):
            kind = "poll"
        else:
            kind = "state"
        kinds[kind].append(int(micros) / 1e6)
    return kinds


def summary(name, values):
    if not values:
        return f"{name}: none"
    return (
        f"{name}: {len(values)}, median {statistics.median(values) * 1000:.1f} ms, "
        f"p95 {percentile(values, 95) * 1000:.1f} ms, max {max(values) * 1000:.1f} ms"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument(
        "--think", type=float, default=2.5, help="mean seconds a player takes per decision"
    )
    parser.add_argument(
        "--poll", type=float, default=1.0, help="seconds between polls while waiting"
    )
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument(
        "--ramp",
        type=float,
        default=20,
        help="seconds over which the matches are opened (uniformly): players arrive",
    )
    parser.add_argument("--timeline", action="store_true", help="client latency per 5 s of the run")
    parser.add_argument("--worker-class", default="sync", choices=["sync", "gthread"])
    parser.add_argument("--workers", type=int, default=6)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument(
        "--client-nice", type=int, default=0, help="lower the client's priority by this"
    )
    args = parser.parse_args()

    create_database()
    setup_django()
    pairs = build_round(args.games)
    port = free_port()
    with tempfile.TemporaryDirectory() as var_dir:
        access_log = Path(var_dir) / "access.log"
        server = start_gunicorn(port, args, var_dir, access_log)
        if args.client_nice:
            os.nice(args.client_nice)  # after the fork: gunicorn keeps the normal priority
        stats = Stats()
        try:
            started = time.perf_counter()
            cpu_before, machine_before = os.times(), machine_busy()
            server_before = process_cpu(f"127.0.0.1:{port}") + process_cpu(DATABASE)
            asyncio.run(play_all(port, pairs, args, stats))
            elapsed = time.perf_counter() - started
            cpu, machine_after = os.times(), machine_busy()
            server_cpu = process_cpu(f"127.0.0.1:{port}") + process_cpu(DATABASE) - server_before
            client_cpu = (cpu.user - cpu_before.user) + (cpu.system - cpu_before.system)
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=20)
        served = server_latency(access_log)
    from games.models import GameAction, GameSession
    from tournaments.models import Match

    actions = stats.latency["action"]
    everything = [v for values in stats.latency.values() for v in values]
    served_all = [v for values in served.values() for v in values]
    print(
        f"games: {args.games} concurrent, think {args.think} s (x0.5-1.5), poll {args.poll} s, "
        f"{elapsed:.1f} s, gunicorn {args.worker_class} {args.workers}x{args.threads}, "
        f"client nice {args.client_nice}"
    )
    busy = machine_after[0] - machine_before[0]
    total = machine_after[1] - machine_before[1]
    cores = os.cpu_count() or 1
    print(
        f"CPU, in % of one core: the machine {busy / total * cores * 100 if total else 0:.0f}% "
        f"of {cores * 100}%; gunicorn + PostgreSQL {server_cpu / elapsed * 100:.0f}%; "
        f"the client {client_cpu / elapsed * 100:.0f}%; other processes the rest"
    )
    print(
        f"action submissions: {len(actions)} ({len(actions) / elapsed:.1f}/s); "
        f"all requests: {len(everything)} ({len(everything) / elapsed:.1f}/s)"
    )
    print("latency seen by the client:")
    for name, values in (
        ("  actions", actions),
        ("  game reads", stats.latency["state"]),
        ("  polls", stats.latency["poll"]),
        ("  all requests", everything),
    ):
        print(summary(name, values))
    steady = [v for t, v in stats.timeline if t - stats.started >= args.ramp + args.think]
    print(summary("  all requests once every game has started", steady))
    print("latency in the server (gunicorn access log):")
    for name, values in (
        ("  actions", served["action"]),
        ("  game reads", served["state"]),
        ("  polls", served["poll"]),
        ("  all requests", served_all),
    ):
        print(summary(name, values))
    if args.timeline:
        buckets = {}
        for t, v in stats.timeline:
            buckets.setdefault(int((t - stats.started) // 5), []).append(v)
        for b, vs in sorted(buckets.items()):
            print(summary(f"  from {b * 5:3d} s", vs))
    print(f"errors: {len(stats.errors)}" + (f" {stats.errors[:10]}" if stats.errors else ""))
    print(
        f"games finished: {stats.games_finished}; sessions: {GameSession.objects.count()}; "
        f"logged actions: {GameAction.objects.count()}; "
        f"matches confirmed: {Match.objects.filter(status='confirmed').count()}"
    )


if __name__ == "__main__":
    main()
