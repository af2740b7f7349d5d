"""Live pages under load: ``--viewers`` people per event keeping the live pages open while
a round is played (tournaments/live.py, templates/live.js.html).

Run (PostgreSQL and Redis on 127.0.0.1):
    .venv/bin/python bench/live_load.py [--viewers 200] [--seconds 60] [--changes 6]
        [--mode live|full]

It builds an event in its own database (irondie_live_bench): ``--players`` players (128)
in a started Swiss round, judges and an organiser, and starts gunicorn as
bench/play_load.py does (sync workers, DEBUG off). The viewers, each with its own
keep-alive connection and login, are, of ``--viewers`` 200: every player on "my match",
then 2 big screens, 2 judges on the judges' clocks, 4 on the judges' queue, 4 on the
bracket, 20 on the standings and the rest (public) on the pairings. Each asks for its
page every ``--poll`` seconds (x0.8-1.2) the way the page's script does: ``X-Live: 1``
and the ETag it holds (``--mode full`` asks for the whole page every time instead, the
polling without a change marker, for comparison). Meanwhile the round is played:
``--changes`` times a minute a player reports a result or the opponent confirms one,
through the services, and the round clock is paused and resumed once.

It prints requests per second, the share of 304 answers, the latency as the client saw
it and as gunicorn measured it (its access log: median, p95, max), how long after a
change each viewer had the new page (the change's commit to the first fresh answer),
the CPU used by gunicorn and PostgreSQL, and the errors, over ``--seconds`` once every
page is open (opening them, two asks each, 20 at a time, is not measured).
"""

import argparse
import asyncio
import os
import random
import signal
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import play_load

DATABASE = "irondie_live_bench"
play_load.DATABASE = DATABASE
play_load.DATABASE_URL = f"postgres://postgres@127.0.0.1:5432/{DATABASE}"
play_load.BROKER_URL = "redis://127.0.0.1:6379/1"


def build_event(players: int):
    """A started Swiss round of ``players``; returns (tournament, round, judges, organiser,
    the players' users)."""
    from django.contrib.auth.models import Group, User
    from django.core.management import call_command

    from players import services as player_services
    from players.demo import random_valid_set
    from tournaments import services
    from tournaments.models import Tournament

    call_command("migrate", verbosity=0)
    rng = random.Random(1)
    organiser = User.objects.create_user("bench-organiser", password="x")
    organiser.groups.add(Group.objects.get_or_create(name="organiser")[0])
    judges = [User.objects.create_user(f"bench-judge{i}", password="x") for i in range(6)]
    for judge in judges:
        judge.groups.add(Group.objects.get_or_create(name="judge")[0])
    import datetime

    tournament = services.create_tournament(
        organiser=organiser,
        name="Live bench",
        date=datetime.date.today(),
        top_cut_size=8,
        head_judge=judges[0],
        floor_judges=judges[1:],
    )
    services.change_status(tournament=tournament, to=Tournament.Status.REGISTRATION, by=organiser)
    users = []
    for i in range(players):
        user = User.objects.create_user(f"bench{i}", password="x")
        player = player_services.create_player(display_name=f"Player {i:03d}", user=user)
        dice_set = player_services.create_dice_set(
            player=player,
            name="Main",
            playing_dice=[d.to_dict() for d in random_valid_set(rng)],
            additional_dice=[d.to_dict() for d in random_valid_set(rng)[:3]],
        )
        services.register(tournament=tournament, player=player, dice_set=dice_set, by=user)
        users.append(user)
    round_ = services.pair_next_round(tournament=tournament, by=organiser, seed="bench")
    services.publish_round(round_=round_, by=organiser)
    round_ = services.start_round(round_=round_, by=judges[0])
    return tournament, round_, judges, organiser, users


def session_cookie(user) -> str:
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


def viewers_of(tournament, round_, judges, users, count: int) -> list[tuple[str, str, str]]:
    """(kind, path, cookie) for ``count`` viewers."""
    t, n = tournament.pk, round_.number
    out = [("my match", f"/tournaments/{t}/my-match/", session_cookie(u)) for u in users]
    out += [("big screen", f"/tournaments/{t}/rounds/{n}/clock/", "")] * 2
    out += [
        ("judges' clocks", f"/tournaments/{t}/rounds/{n}/clocks/", session_cookie(judges[i]))
        for i in (0, 1)
    ]
    out += [
        ("judges' queue", f"/tournaments/{t}/results/", session_cookie(judges[i]))
        for i in (2, 3, 4, 5)
    ]
    out += [("bracket", f"/tournaments/{t}/bracket/", "")] * 4
    out += [("standings", f"/tournaments/{t}/standings/", "")] * 20
    out = out[:count]
    out += [("pairings", f"/tournaments/{t}/rounds/{n}/", "")] * (count - len(out))
    return out


class Stats:
    def __init__(self):
        self.latency = {}  # kind -> [seconds]
        self.status = {}  # status -> count
        self.errors = []
        self.fresh = []  # (kind, monotonic time a 200 arrived)
        self.changes = []  # monotonic time each change was committed


class Viewer:
    """One open page: a keep-alive connection asking the way templates/live.js.html does."""

    def __init__(self, port, kind, path, cookie, mode, stats):
        self.port, self.kind, self.path, self.mode, self.stats = port, kind, path, mode, stats
        self.cookie = f"Cookie: {cookie}\r\n" if cookie else ""
        self.tag = None
        self.reader = self.writer = None

    async def close(self):
        if self.writer is not None:
            self.writer.close()
            self.reader = self.writer = None

    async def _exchange(self, head: bytes):
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        self.writer.write(head)
        await self.writer.drain()
        status_line = await self.reader.readline()
        if not status_line:
            raise ConnectionResetError("closed by the server")
        status = int(status_line.split()[1])
        length, close, tag = 0, False, None
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b"\n", b""):
                break
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"etag":
                tag = value.strip().decode()
            elif name == b"connection" and value.strip().lower() == b"close":
                close = True
        if length:
            await self.reader.readexactly(length)
        if close:
            await self.close()
        return status, tag

    async def ask(self):
        head = f"GET {self.path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{self.cookie}"
        if self.mode == "live":
            head += "X-Live: 1\r\n"
            if self.tag:
                head += f"If-None-Match: {self.tag}\r\n"
        head = (head + "\r\n").encode()
        for attempt in (0, 1):
            reused = self.writer is not None
            started = time.perf_counter()
            try:
                status, tag = await self._exchange(head)
                break
            except (OSError, asyncio.IncompleteReadError, ValueError, IndexError) as exc:
                await self.close()
                if reused and attempt == 0:
                    continue
                self.stats.errors.append((self.kind, type(exc).__name__))
                return
        self.stats.latency.setdefault(self.kind, []).append(time.perf_counter() - started)
        self.stats.status[status] = self.stats.status.get(status, 0) + 1
        if status == 200:
            self.tag = tag
            self.stats.fresh.append((self.kind, id(self), time.monotonic()))
        elif status != 304:
            self.stats.errors.append((self.kind, status))

    async def run(self, poll, stop_at, rng):
        await asyncio.sleep(rng.uniform(0, poll))  # the pages were opened at different times
        while time.monotonic() < stop_at:
            await self.ask()
            await asyncio.sleep(poll * rng.uniform(0.8, 1.2))
        await self.close()


def play_round(round_, judges, per_minute, seconds, stats, stop, go):
    """Reports and confirmations, ``per_minute`` changes a minute; a pause and a resume."""
    from django.db import close_old_connections

    from tournaments import clocks, services
    from tournaments.models import ResultSubmission

    rng = random.Random(2)
    matches = list(
        round_.matches.filter(player_b__isnull=False).select_related(
            "player_a__player__user", "player_b__player__user"
        )
    )
    steps = []
    for match in matches:
        steps.append(("report", match))
        steps.append(("confirm", match))
    steps.insert(len(steps) // 3, ("pause", None))
    steps.insert(len(steps) // 3 + 2, ("resume", None))
    interval = 60 / per_minute
    go.wait()
    started = time.monotonic()
    for i, (what, match) in enumerate(steps):
        wait = started + (i + 1) * interval - time.monotonic()
        if stop.wait(max(wait, 0)) or time.monotonic() - started > seconds:
            break
        if what == "report":
            games = rng.choice([["a", "a"], ["b", "b"], ["a", "b", "a"]])
            services.report_result(match=match, by=match.player_a.player.user, games=games)
        elif what == "confirm":
            pending = ResultSubmission.objects.get(match=match, status="pending")
            services.confirm_result(submission=pending, by=match.player_b.player.user)
        elif what == "pause":
            clocks.pause_round(round_=round_, by=judges[0], reason="bench")
        else:
            clocks.resume_round(round_=round_, by=judges[0])
        stats.changes.append(time.monotonic())
    close_old_connections()


def delays_to_fresh(stats) -> list[float]:
    """For each change and each viewer: the time from the change to the viewer's first 200
    after it (viewers that had none before the next change are left out)."""
    by_viewer = {}
    for _, viewer, at in stats.fresh:
        by_viewer.setdefault(viewer, []).append(at)
    delays = []
    for at_list in by_viewer.values():
        at_list.sort()
        j = 0
        for change in stats.changes:
            while j < len(at_list) and at_list[j] < change:
                j += 1
            if j < len(at_list):
                delays.append(at_list[j] - change)
    return delays


def summary(name, values):
    if not values:
        return f"{name}: none"
    return (
        f"{name}: {len(values)}, median {statistics.median(values) * 1000:.1f} ms, "
        f"p95 {play_load.percentile(values, 95) * 1000:.1f} ms, max {max(values) * 1000:.1f} ms"
    )


async def watch(port, viewers, args, stats, go, measure):
    """The pages are opened first (two asks each, 20 at a time: the page and the tag of
    its scope), then the round is played and ``args.seconds`` measured."""
    rng = random.Random(3)
    pages = [Viewer(port, kind, path, cookie, args.mode, stats) for kind, path, cookie in viewers]
    gate = asyncio.Semaphore(20)

    async def open_page(page):
        async with gate:
            await page.ask()
            await page.ask()

    await asyncio.gather(*(open_page(p) for p in pages))
    stats.latency, stats.status, stats.fresh, stats.errors = {}, {}, [], []
    measure()
    go.set()
    stop_at = time.monotonic() + args.seconds
    await asyncio.gather(*(p.run(args.poll, stop_at, random.Random(rng.random())) for p in pages))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--viewers", type=int, default=200)
    parser.add_argument("--players", type=int, default=128)
    parser.add_argument("--poll", type=float, default=1.0, help="seconds between asks")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--changes", type=float, default=6, help="results changed a minute")
    parser.add_argument("--mode", default="live", choices=["live", "full"])
    parser.add_argument("--worker-class", default="sync", choices=["sync", "gthread"])
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()

    play_load.create_database()
    os.environ["SECRET_KEY"] = "play-bench-only"  # gunicorn's (play_load.start_gunicorn)
    play_load.setup_django()
    tournament, round_, judges, organiser, users = build_event(args.players)
    viewers = viewers_of(tournament, round_, judges, users, args.viewers)
    port = play_load.free_port()
    stats = Stats()
    with tempfile.TemporaryDirectory() as var_dir:
        access_log = Path(var_dir) / "access.log"
        server = play_load.start_gunicorn(port, args, var_dir, access_log)
        stop, go = threading.Event(), threading.Event()
        mark = {}

        def measure():
            mark["started"] = time.perf_counter()
            mark["machine"] = play_load.machine_busy()
            mark["server"] = play_load.process_cpu(f"127.0.0.1:{port}") + play_load.process_cpu(
                DATABASE
            )
            mark["log"] = len(access_log.read_text().splitlines())

        try:
            time.sleep(1)
            player = threading.Thread(
                target=play_round,
                args=(round_, judges, args.changes, args.seconds - 2, stats, stop, go),
            )
            player.start()
            asyncio.run(watch(port, viewers, args, stats, go, measure))
            stop.set()
            player.join()
            elapsed = time.perf_counter() - mark["started"]
            machine_before, machine_after = mark["machine"], play_load.machine_busy()
            server_cpu = (
                play_load.process_cpu(f"127.0.0.1:{port}")
                + play_load.process_cpu(DATABASE)
                - mark["server"]
            )
            rss = worker_rss(server.pid)
        finally:
            stop.set()
            go.set()
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=20)
        served = [
            int(line.split(" ", 1)[0]) / 1e6
            for line in access_log.read_text().splitlines()[mark.get("log", 0) :]
        ]
    everything = [v for values in stats.latency.values() for v in values]
    answered = sum(stats.status.values())
    cores = os.cpu_count() or 1
    busy = machine_after[0] - machine_before[0]
    total = machine_after[1] - machine_before[1]
    print(
        f"mode {args.mode}: {len(viewers)} viewers, poll {args.poll} s, {elapsed:.1f} s, "
        f"{len(stats.changes)} changes ({args.changes}/min), gunicorn {args.worker_class} "
        f"{args.workers}x{args.threads}"
    )
    print(
        f"requests: {answered} ({answered / elapsed:.1f}/s); 304: "
        f"{stats.status.get(304, 0) / answered * 100 if answered else 0:.1f}%; "
        f"statuses {dict(sorted(stats.status.items()))}"
    )
    print(
        f"CPU, in % of one core: the machine {busy / total * cores * 100 if total else 0:.0f}% "
        f"of {cores * 100}%; gunicorn + PostgreSQL {server_cpu / elapsed * 100:.0f}%; "
        f"gunicorn worker memory {rss:.0f} MB each"
    )
    print(summary("server (gunicorn access log), all requests", served))
    print(summary("client, all requests", everything))
    for kind, values in sorted(stats.latency.items()):
        print(summary(f"  {kind}", values))
    print(summary("change to the viewer's fresh page", delays_to_fresh(stats)))
    print(f"errors: {len(stats.errors)}" + (f" {stats.errors[:10]}" if stats.errors else ""))


def worker_rss(master_pid: int) -> float:
    """The mean resident memory of gunicorn's workers (MB): what one more held connection
    would cost with a sync worker each."""
    sizes = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            fields = (proc / "stat").read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) != master_pid:
                continue
            for line in (proc / "status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    sizes.append(int(line.split()[1]) / 1024)
        except OSError:
            continue
    return statistics.mean(sizes) if sizes else float("nan")


if __name__ == "__main__":
    main()
